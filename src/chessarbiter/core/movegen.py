"""Legal move generation (Laws Art. 3): every move, and only legal ones.

Moves are produced as *move sets*: a piece's square with the bitboard of its legal targets,
and pawn targets grouped by their step. Counting a position's moves (perft's leaves, the
mate and stalemate tests) is then a sum of bit counts, and listing them expands the sets.
Pins and checks are resolved while the sets are built (Art. 3.9-3.10: a move may not leave
the own king attacked), so nothing is made and unmade to test legality.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.attacks import (
    BETWEEN,
    BISHOP_RAYS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    ROOK_RAYS,
    attackers,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.board import Board
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.squares import (
    BISHOP,
    FILES,
    FULL,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    RANKS,
    ROOK,
    squares_of,
)

_EVERY_SQUARE: Final = -1
_NOT_A: Final = ~FILES[0]
_NOT_H: Final = ~FILES[7]
_PROMOTION_RANK: Final = ~(FULL ^ RANKS[0] ^ RANKS[7])
"""Masks of every square (but the a- or h-file; of the first and last ranks) as negative
numbers: ``board & mask`` is the same board, and compiled code keeps a number below 2**62
in magnitude unboxed, where a mask holding g8 and h8 (``FULL``) would be a heap object at
each operation."""
_PROMOTIONS: Final = (QUEEN << 12, ROOK << 12, BISHOP << 12, KNIGHT << 12)

MoveSets = tuple[list[int], list[int], list[int]]
"""(piece sets, pawn sets, single moves): the piece sets a flat list of ``from, targets``
pairs, the pawn sets one of ``step, targets`` pairs (no tuple per set)."""


def castling_paths(king: int, rook: int) -> tuple[int, int]:
    """For castling with ``rook`` (Art. 3.8.2, FIDE Guidelines II for Chess960): the squares
    that must be empty (king and rook aside) and the squares the king crosses or reaches."""
    rank = king & 56
    king_to, rook_to = (rank | 6, rank | 5) if rook > king else (rank | 2, rank | 3)
    king_path = BETWEEN[king][king_to] | 1 << king_to
    rook_path = BETWEEN[rook][rook_to] | 1 << rook_to
    empty = (king_path | rook_path) & ~(1 << king | 1 << rook)
    return empty, king_path


def en_passant_moves(pos: Board) -> list[int]:
    """The legal en passant captures (Art. 3.7d), each tested against exposing the king,
    including the pin along the rank that both pawns leave."""
    ep = pos.ep_square
    if ep < 0:
        return []
    us = pos._turn
    them = us ^ 1
    pieces = pos.pieces
    capturers = PAWN_ATTACKS[them][ep] & pieces[us << 3 | 1]
    if not capturers:
        return []
    captured = 1 << (ep ^ 8)
    if not pieces[them << 3 | 1] & captured:
        return []
    king = pieces[us << 3 | 6].bit_length() - 1
    out = []
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    saved = pieces[them << 3 | 1]
    pieces[them << 3 | 1] = saved ^ captured
    try:
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            after = (occupied ^ low ^ captured) | 1 << ep
            if not attackers(pieces, them, king, after):
                out.append((low.bit_length() - 1) | ep << 6)
    finally:
        pieces[them << 3 | 1] = saved
    return out


def _castles(
    pieces: list[int], them: int, king: int, rights: int, occupied: int, out: list[int]
) -> None:
    """Append the castling moves (Art. 3.8.2) with the rooks of ``rights`` for a king not in
    check: the squares between king and rook empty, none the king crosses or reaches
    attacked."""
    without_king = occupied ^ 1 << king
    while rights:
        low = rights & -rights
        rights ^= low
        rook = low.bit_length() - 1
        empty, path = castling_paths(king, rook)
        if occupied & empty:
            continue
        after = without_king ^ low
        if any(attackers(pieces, them, sq, after) for sq in squares_of(path)):
            continue
        out.append(king | rook << 6 | CASTLE_FLAG)


def castling_moves(pos: Board) -> list[int]:
    """The legal castling moves (Art. 3.8.2), without generating the other moves."""
    us = pos._turn
    pieces = pos.pieces
    rights = pos.castling_rights & pieces[us << 3 | 4]
    out: list[int] = []
    if rights:
        king = pieces[us << 3 | 6].bit_length() - 1
        occupied = pos.occupied_co[0] | pos.occupied_co[1]
        if not attackers(pieces, us ^ 1, king, occupied):
            _castles(pieces, us ^ 1, king, rights, occupied, out)
    return out


def pinned_pieces(king: int, own: int, occupied: int, t_orth: int, t_diag: int) -> int:
    """Pins (Art. 3.9): the own pieces each alone between the king and an enemy line piece
    (``t_orth``: enemy rooks and queens, ``t_diag``: bishops and queens)."""
    pinned = 0
    snipers = (ROOK_RAYS[king] & t_orth if t_orth else 0) | (
        BISHOP_RAYS[king] & t_diag if t_diag else 0
    )
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        blockers = BETWEEN[king][low.bit_length() - 1] & occupied
        if blockers and not blockers & (blockers - 1) and blockers & own:
            pinned |= blockers
    return pinned


def move_sets(pos: Board, captures_only: bool = False) -> MoveSets:
    """The legal moves of the side to move, as move sets; ``captures_only``: at least the
    captures and the pawn steps to the last rank, and no castling (the other moves may be
    in the sets or not)."""
    us = pos._turn
    them = us ^ 1
    pieces = pos.pieces
    own = pos.occupied_co[us]
    opp = pos.occupied_co[them]
    occupied = own | opp
    ub = us << 3
    tb = them << 3
    king_bb = pieces[ub | 6]
    king = king_bb.bit_length() - 1
    t_queens = pieces[tb | 5]
    t_orth = pieces[tb | 4] | t_queens
    t_diag = pieces[tb | 3] | t_queens
    # the line pieces' attacks are only looked up when the enemy has such pieces
    checkers = (KNIGHT_ATTACKS[king] & pieces[tb | 2]) | (PAWN_ATTACKS[us][king] & pieces[tb | 1])
    if t_orth:
        checkers |= rook_attacks(king, occupied) & t_orth
    if t_diag:
        checkers |= bishop_attacks(king, occupied) & t_diag
    piece_sets: list[int] = []
    pawn_sets: list[int] = []
    singles: list[int] = en_passant_moves(pos) if pos.ep_square >= 0 else []

    # The king (Art. 3.8.1): to squares not attacked once it has left its own.
    without_king = occupied ^ king_bb
    safe = 0
    limit = opp | _PROMOTION_RANK if captures_only else _EVERY_SQUARE
    targets = KING_ATTACKS[king] & ~own & limit
    t_knights = pieces[tb | 2]
    t_pawns = pieces[tb | 1]
    t_king = pieces[tb | 6]
    pawn_att = PAWN_ATTACKS[us]
    while targets:
        low = targets & -targets
        targets ^= low
        sq = low.bit_length() - 1
        if (
            KNIGHT_ATTACKS[sq] & t_knights
            or pawn_att[sq] & t_pawns
            or KING_ATTACKS[sq] & t_king
            or (t_diag and bishop_attacks(sq, without_king) & t_diag)
            or (t_orth and rook_attacks(sq, without_king) & t_orth)
        ):
            continue
        safe |= low
    if safe:
        piece_sets.append(king)
        piece_sets.append(safe)

    if checkers:
        if checkers & (checkers - 1):
            return piece_sets, pawn_sets, singles  # double check: only the king moves
        mask = (BETWEEN[king][checkers.bit_length() - 1] | checkers) & limit
    else:
        mask = ~own & limit
        rights = pos.castling_rights & pieces[ub | 4]
        if rights and not captures_only:
            _castles(pieces, them, king, rights, occupied, singles)

    pinned = pinned_pieces(king, own, occupied, t_orth, t_diag) if t_orth | t_diag else 0

    knights = pieces[ub | 2] & ~pinned
    while knights:
        low = knights & -knights
        knights ^= low
        sq = low.bit_length() - 1
        targets = KNIGHT_ATTACKS[sq] & mask
        if targets:
            piece_sets.append(sq)
            piece_sets.append(targets)
    queens = pieces[ub | 5]
    diag = pieces[ub | 3] | queens
    while diag:
        low = diag & -diag
        diag ^= low
        sq = low.bit_length() - 1
        targets = bishop_attacks(sq, occupied) & mask
        if low & pinned:
            targets &= LINE[king][sq]
        if targets:
            piece_sets.append(sq)
            piece_sets.append(targets)
    orth = pieces[ub | 4] | queens
    while orth:
        low = orth & -orth
        orth ^= low
        sq = low.bit_length() - 1
        targets = (
            rook_attacks(sq, occupied)
        ) & mask
        if low & pinned:
            targets &= LINE[king][sq]
        if targets:
            piece_sets.append(sq)
            piece_sets.append(targets)

    # Pawns (Art. 3.7): steps, double steps from the second rank, diagonal captures.
    pawns = pieces[ub | 1]
    free = pawns & ~pinned
    empty_sq = ~occupied
    if us == 0:
        one = (free << 8) & empty_sq
        two = ((one & RANKS[2]) << 8) & empty_sq & mask
        left = ((free & _NOT_A) << 7) & opp & mask
        right = ((free & _NOT_H) << 9) & opp & mask
        step = 8
    else:
        one = (free >> 8) & empty_sq
        two = ((one & RANKS[5]) >> 8) & empty_sq & mask
        left = ((free & _NOT_A) >> 9) & opp & mask
        right = ((free & _NOT_H) >> 7) & opp & mask
        step = -8
    one &= mask
    if one:
        pawn_sets.append(step)
        pawn_sets.append(one)
    if two:
        pawn_sets.append(2 * step)
        pawn_sets.append(two)
    if left:
        pawn_sets.append(step - 1)
        pawn_sets.append(left)
    if right:
        pawn_sets.append(step + 1)
        pawn_sets.append(right)
    pinned_pawns = pawns & pinned
    while pinned_pawns:
        low = pinned_pawns & -pinned_pawns
        pinned_pawns ^= low
        sq = low.bit_length() - 1
        line = LINE[king][sq] & mask
        ahead = sq + step
        if not occupied >> ahead & 1:
            if line >> ahead & 1:
                pawn_sets.append(step)
                pawn_sets.append(1 << ahead)
            double = ahead + step
            if (sq >> 3) == (1 if us == 0 else 6) and not occupied >> double & 1 and (
                line >> double & 1
            ):
                pawn_sets.append(2 * step)
                pawn_sets.append(1 << double)
        hits = PAWN_ATTACKS[us][sq] & opp & line
        while hits:
            hit = hits & -hits
            hits ^= hit
            pawn_sets.append(hit.bit_length() - 1 - sq)
            pawn_sets.append(hit)
    return piece_sets, pawn_sets, singles


def count_moves(pos: Board) -> int:
    """The number of legal moves, without listing them."""
    piece_sets, pawn_sets, singles = move_sets(pos)
    n = len(singles)
    for i in range(1, len(piece_sets), 2):
        n += piece_sets[i].bit_count()
    for i in range(1, len(pawn_sets), 2):
        targets = pawn_sets[i]
        n += targets.bit_count() + 3 * (targets & _PROMOTION_RANK).bit_count()
    return n


def legal_moves(pos: Board) -> list[Move]:
    """Every legal move of the side to move."""
    piece_sets, pawn_sets, singles = move_sets(pos)
    out: list[int] = singles
    for i in range(0, len(piece_sets), 2):
        fr = piece_sets[i]
        targets = piece_sets[i + 1]
        while targets:
            low = targets & -targets
            targets ^= low
            out.append(fr | (low.bit_length() - 1) << 6)
    for i in range(0, len(pawn_sets), 2):
        delta = pawn_sets[i]
        targets = pawn_sets[i + 1]
        promoting = targets & _PROMOTION_RANK
        targets ^= promoting
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            out.append((to - delta) | to << 6)
        while promoting:
            low = promoting & -promoting
            promoting ^= low
            to = low.bit_length() - 1
            base = (to - delta) | to << 6
            for promo in _PROMOTIONS:
                out.append(base | promo)
    return out  # type: ignore[return-value]


def checkers(pos: Board) -> int:
    """The bitboard of pieces giving check to the side to move (Art. 3.9)."""
    us = pos._turn
    king = pos.pieces[us << 3 | 6].bit_length() - 1
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    return attackers(pos.pieces, us ^ 1, king, occupied)


_KING_LINES: Final = tuple(r | b for r, b in zip(ROOK_RAYS, BISHOP_RAYS, strict=True))
"""The squares on a rook's or bishop's line through each square: a piece elsewhere is never
pinned to a king there."""


def in_check(pos: Board) -> bool:
    """Whether the side to move is in check (Art. 3.9), tested without listing the
    checkers."""
    us = pos._turn
    pieces = pos.pieces
    king = pieces[us << 3 | 6].bit_length() - 1
    return _attacked(pieces, us, king, pos.occupied_co[0] | pos.occupied_co[1], 0)


def gives_check(pos: Board, move: int) -> bool:
    """Whether the legal ``move`` puts the opponent's king in check (Art. 3.9), decided
    without making it: the moved piece (the new one of a promotion) attacks the king from
    its target square, or the square it leaves (the pawn taken en passant, the castling
    rook's) opens a line from a rook, bishop or queen of the mover to the king (a
    discovered check); for castling, the rook on its new square counts as such a piece."""
    us = pos._turn
    pieces = pos.pieces
    ub = us << 3
    king = pieces[(us ^ 1) << 3 | 6].bit_length() - 1
    fr = move & 63
    to = (move >> 6) & 63
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    orth = pieces[ub | 4] | pieces[ub | 5]
    diag = pieces[ub | 3] | pieces[ub | 5]
    if move >> 15:  # castling: the king takes its rook (Art. 3.8.2)
        rank = fr & 56
        king_to, rook_to = (rank | 6, rank | 5) if to > fr else (rank | 2, rank | 3)
        after = occupied & ~(1 << fr | 1 << to) | 1 << king_to | 1 << rook_to
        orth = orth & ~(1 << to) | 1 << rook_to
        return bool(rook_attacks(king, after) & orth or bishop_attacks(king, after) & diag)
    kind = (move >> 12) & 7 or pos.board[fr] & 7
    after = occupied & ~(1 << fr) | 1 << to
    if kind == PAWN:
        if PAWN_ATTACKS[us][to] >> king & 1:
            return True
        if to == pos.ep_square and (fr ^ to) & 7:  # en passant (Art. 3.7d)
            after &= ~(1 << (to ^ 8))
            return bool(rook_attacks(king, after) & orth or bishop_attacks(king, after) & diag)
    elif kind == KNIGHT:
        if KNIGHT_ATTACKS[to] >> king & 1:
            return True
    elif kind != KING:
        rays = ROOK_RAYS[to] if kind == ROOK else BISHOP_RAYS[to] if kind == BISHOP else (
            ROOK_RAYS[to] | BISHOP_RAYS[to])
        if rays >> king & 1 and not BETWEEN[to][king] & after:
            return True
    gone = ~(1 << fr)
    if ROOK_RAYS[king] >> fr & 1:
        return bool(rook_attacks(king, after) & orth & gone)
    if BISHOP_RAYS[king] >> fr & 1:
        return bool(bishop_attacks(king, after) & diag & gone)
    return False


def has_legal_move(pos: Board, checked: bool | None = None) -> bool:
    """Whether the side to move has a legal move (the test behind checkmate and stalemate,
    Art. 5.1.1, 5.2.1), without generating the moves: out of check, a pawn step or a move of
    a knight, bishop, rook or queen that is not pinned is legal, and there usually is one; in
    check, a king's step to a square not attacked; otherwise the moves are counted.
    ``checked``: whether the side to move is in check, when known (:func:`in_check`)."""
    us = pos._turn
    them = us ^ 1
    pieces = pos.pieces
    own = pos.occupied_co[us]
    occupied = own | pos.occupied_co[them]
    ub = us << 3
    king = pieces[ub | 6].bit_length() - 1
    if checked is None:
        checked = _attacked(pieces, us, king, occupied, 0)
    if not checked:
        pawns = pieces[ub | 1] & ~_KING_LINES[king]  # on no line through the king: not pinned
        if (pawns << 8 if us == 0 else pawns >> 8) & ~occupied:
            return True
        tb = them << 3
        t_queens = pieces[tb | 5]
        free = ~pinned_pieces(king, own, occupied, pieces[tb | 4] | t_queens,
                              pieces[tb | 3] | t_queens)
        pawns = pieces[ub | 1] & free
        if (pawns << 8 if us == 0 else pawns >> 8) & ~occupied:
            return True
        knights = pieces[ub | 2] & free
        while knights:
            low = knights & -knights
            knights ^= low
            if KNIGHT_ATTACKS[low.bit_length() - 1] & ~own:
                return True
        queens = pieces[ub | 5]
        sliders = (pieces[ub | 3] | pieces[ub | 4] | queens) & free
        while sliders:
            low = sliders & -sliders
            sliders ^= low
            sq = low.bit_length() - 1
            kind = pos.board[sq] & 7
            reach = 0
            if kind != ROOK:
                reach = bishop_attacks(sq, occupied)
            if kind != BISHOP:
                reach |= rook_attacks(sq, occupied)
            if reach & ~own:
                return True
    else:
        without_king = occupied ^ 1 << king
        steps = KING_ATTACKS[king] & ~own
        while steps:  # in check the king usually has a square to go to
            low = steps & -steps
            steps ^= low
            if not _attacked(pieces, us, low.bit_length() - 1, without_king, low):
                return True
    return count_moves(pos) > 0


def is_legal(pos: Board, move: int, checked: bool | None = None) -> bool:
    """Whether ``move`` is one of the legal moves (Art. 3), tested alone: the piece may go
    there, and the own king is not attacked afterwards (Art. 3.9; not tested when
    ``checked`` is ``False``, the side to move known not to be in check, and no enemy line
    piece stands on a line through the king and the piece). Castling and en passant are
    looked up among the generated ones."""
    if move >> 15 or move < 0:
        return move in castling_moves(pos)  # castling, or not a move at all
    fr = move & 63
    to = (move >> 6) & 63
    promo = move >> 12
    us = pos._turn
    board = pos.board
    piece = board[fr]
    own = pos.occupied_co[us]
    if not piece or piece >> 3 != us or own >> to & 1:
        return False
    occupied = own | pos.occupied_co[us ^ 1]
    kind = piece & 7
    if kind == PAWN:
        if to == pos.ep_square:
            return not promo and move in en_passant_moves(pos)
        if not (KNIGHT <= promo <= QUEEN if _PROMOTION_RANK >> to & 1 else promo == 0):
            return False
        if board[to]:
            if not PAWN_ATTACKS[us][fr] >> to & 1:
                return False
        else:
            step = 8 if us == 0 else -8
            if to != fr + step and not (
                to == fr + 2 * step
                and fr >> 3 == (1 if us == 0 else 6)
                and not occupied >> (fr + step) & 1
            ):
                return False
    else:
        if promo:
            return False
        if kind == KNIGHT:
            if not KNIGHT_ATTACKS[fr] >> to & 1:
                return False
        elif kind == KING:
            if not KING_ATTACKS[fr] >> to & 1:
                return False
            return not _attacked(pos.pieces, us, to, occupied ^ 1 << fr, 1 << to)
        else:  # a line piece: on one of its lines, nothing standing between
            if kind == QUEEN:
                on_line = LINE[fr][to]
            else:
                on_line = (ROOK_RAYS if kind == ROOK else BISHOP_RAYS)[fr] >> to & 1
            if not on_line or BETWEEN[fr][to] & occupied:
                return False
    pieces = pos.pieces
    king = pieces[us << 3 | 6].bit_length() - 1
    if checked is False:  # no check to answer: only a pin can make the move illegal
        line = LINE[king][fr]
        if not line:
            return True
        tb = (us ^ 1) << 3
        if not line & (pieces[tb | 5] | pieces[tb | (4 if ROOK_RAYS[king] >> fr & 1 else 3)]):
            return True  # no enemy rook, bishop or queen on that line to pin it
    after = (occupied ^ 1 << fr) | 1 << to
    return not _attacked(pieces, us, king, after, 1 << to)


def _attacked(pieces: list[int], us: int, sq: int, occupied: int, gone: int) -> bool:
    """Whether the enemy attacks ``sq`` under ``occupied``, his pieces on ``gone`` (a
    capture) left out (Art. 3.9): a knight, pawn or king a step away, or a line piece on
    one of the square's lines with nothing between."""
    tb = (us ^ 1) << 3
    keep = ~gone
    if (
        KNIGHT_ATTACKS[sq] & pieces[tb | 2] | PAWN_ATTACKS[us][sq] & pieces[tb | 1]
        | KING_ATTACKS[sq] & pieces[tb | 6]
    ) & keep:
        return True
    queens = pieces[tb | 5]
    orth = pieces[tb | 4] | queens
    diag = pieces[tb | 3] | queens
    lines = ((ROOK_RAYS[sq] & orth if orth else 0) | (BISHOP_RAYS[sq] & diag if diag else 0)) & keep
    if lines:
        between = BETWEEN[sq]
        while lines:
            low = lines & -lines
            lines ^= low
            if not between[low.bit_length() - 1] & occupied:
                return True
    return False
