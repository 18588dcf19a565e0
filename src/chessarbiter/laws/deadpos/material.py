"""Material that can never give checkmate, whatever the loser does (Laws Art. 5.2.2, 6.9).

Only cases where no helpmate exists are listed: the intended winner has a bare king, or a
lone knight, or bishops all on one square colour, and the loser has no pawn that could
promote into the blocking piece the mate would need.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.squares import BISHOP, KNIGHT, PAWN, QUEEN, ROOK

DARK_SQUARES: Final = 0xAA55AA55AA55AA55
LIGHT_SQUARES: Final = DARK_SQUARES ^ ((1 << 64) - 1)


def cannot_mate_by_material(pieces: list[int], winner: int) -> bool:
    """Whether ``winner`` lacks mating material against any defence (``pieces`` is a
    position's per-piece bitboards).

    A lone knight mates only with a loser's bishop, knight or rook blocking the king;
    same-coloured bishops mate only with a loser's knight or opposite-coloured bishop
    blocking it; a bare king never mates. A loser's pawn could promote into such a piece.
    """
    w = winner << 3
    if pieces[w | PAWN] or pieces[w | ROOK] or pieces[w | QUEEN]:
        return False
    lo = (winner ^ 1) << 3
    if pieces[lo | PAWN]:
        return not (pieces[w | KNIGHT] or pieces[w | BISHOP])
    knights = pieces[w | KNIGHT]
    bishops = pieces[w | BISHOP]
    if knights:
        if bishops or knights & (knights - 1):
            return False
        return not (pieces[lo | KNIGHT] or pieces[lo | BISHOP] or pieces[lo | ROOK])
    if not bishops:
        return True
    if bishops & DARK_SQUARES and bishops & LIGHT_SQUARES:
        return False
    colour = DARK_SQUARES if bishops & DARK_SQUARES else LIGHT_SQUARES
    return not (pieces[lo | KNIGHT] or pieces[lo | BISHOP] & ~colour)
