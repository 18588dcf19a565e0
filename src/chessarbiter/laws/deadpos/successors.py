"""The moves the exhaustive exploration (:mod:`.closure`) follows from a position.

:func:`children` generates a position's legal moves lazily, as the walk comes to them, in
the order of :func:`~chessarbiter.core.movegen.legal_moves`, each with the key of the
position after it computed without making it (exactly as :meth:`Position.push` updates the
key), and passes over those whose key is already seen then: the walk would skip them
anyway, legal or not. A king's step is tested for attacked squares only when its key is
new; every other move is generated legal (Art. 3.9: pins and checks resolved as the core's
generator resolves them). Kings and pawns alone have a generator of their own.

This is a second move generator beside the core's (:mod:`chessarbiter.core.movegen`), kept
because the walk needs each move's key before making it and most moves never made; it is
held to the core's generator move by move (``tests/laws/test_deadpos_search.py``) and to
third-party perft counts (``tests/laws/test_deadpos_successors.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from chessarbiter.core.attacks import (
    BETWEEN,
    BISHOP_RAYS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    ROOK_RAYS,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.movegen import checkers, en_passant_moves, legal_moves, pinned_pieces
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BACK_RANKS, FILES, FULL, KING, PAWN, RANKS
from chessarbiter.core.zobrist import PIECE_KEYS, TURN_KEY, castling_key

MOVE: Final = (1 << 16) - 1
STRUCTURAL: Final = 1 << 16
UNKEYED: Final = -1
""":func:`children` yields the key of the position after each move and leaves the move in
``moved[0]`` as ``structural << 16 | move`` (a move that captures or moves a pawn is
structural); or it yields ``UNKEYED`` with the move alone there when the key is not known:
castling, double steps and en passant, whose key is taken after the move. (A key and a move
packed in one number would be above 2**62, which compiled code makes a heap object at each
operation.)"""
_PAWN_RANKS: Final = FULL ^ RANKS[0] ^ RANKS[7]
_NOT_A: Final = _PAWN_RANKS & ~FILES[0]
_NOT_H: Final = _PAWN_RANKS & ~FILES[7]
"""Where a pawn may stand, off the a- and h-file: below 2**62, which compiled code keeps
unboxed (a board with g8 or h8 is a heap object at each operation; so the masks below are
negative numbers, every square but those named, where a whole board would hold g8 and h8)."""
_PROMOTED: Final = (5, 4, 3, 2)
"""Promotions in the order of :func:`legal_moves`: queen, rook, bishop, knight."""


def children(pos: Position, seen: set[int], moved: list[int]) -> Iterator[int]:
    """First the pieces giving check, then, lazily, the legal moves of the side to move
    whose position is not in ``seen`` when they come, in the order of
    :func:`~chessarbiter.core.movegen.legal_moves`: the key of the position after the move,
    the move in ``moved[0]`` with its structural bit, or :data:`UNKEYED` for castling,
    double steps and en passant, whose key is taken after the move. The generator reads
    ``pos`` whenever it goes on: it must then stand as it did."""
    if pos.castling_rights:  # rare in an exploration: castling rights change keys
        return _listed(pos, moved)
    pieces = pos.pieces
    occupied_co = pos.occupied_co
    if occupied_co[0] == pieces[1] | pieces[6] and occupied_co[1] == pieces[9] | pieces[14]:
        return _pawn_ending_children(pos, seen, moved)
    return _children(pos, seen, moved)


def _listed(pos: Position, moved: list[int]) -> Iterator[int]:
    """:func:`children` from the core's list of legal moves, none keyed."""
    yield checkers(pos)
    yield from _unkeyed(legal_moves(pos), moved)


def _unkeyed(moves: list[Move] | list[int], moved: list[int]) -> Iterator[int]:
    """``moves``, none keyed, as :func:`children` gives them."""
    for move in moves:
        moved[0] = move
        yield UNKEYED


def _children(pos: Position, seen: set[int], moved: list[int]) -> Iterator[int]:
    """:func:`children` in general."""
    us = pos.colour_to_move()
    them = us ^ 1
    board = pos.board
    pieces = pos.pieces
    own = pos.occupied_co[us]
    opp = pos.occupied_co[them]
    occupied = own | opp
    ub = us << 3
    tb = them << 3
    base = pos.key_without_en_passant() ^ TURN_KEY
    keys = PIECE_KEYS
    king_bb = pieces[ub | 6]
    king = king_bb.bit_length() - 1
    t_queens = pieces[tb | 5]
    t_orth = pieces[tb | 4] | t_queens
    t_diag = pieces[tb | 3] | t_queens
    t_pawns = pieces[tb | 1]
    checking = KNIGHT_ATTACKS[king] & pieces[tb | 2] | PAWN_ATTACKS[us][king] & t_pawns
    # a ray is read only against enemy line pieces (a ray with g8 or h8 is a heap integer
    # at each operation in compiled code)
    orth_snipers = ROOK_RAYS[king] & t_orth if t_orth else 0
    diag_snipers = BISHOP_RAYS[king] & t_diag if t_diag else 0
    snipers = orth_snipers | diag_snipers
    if snipers:  # line pieces on the king's lines: checks and pins
        if orth_snipers:
            checking |= rook_attacks(king, occupied) & t_orth
        if diag_snipers:
            checking |= bishop_attacks(king, occupied) & t_diag
    yield checking
    if pos.ep_square >= 0:
        yield from _unkeyed(en_passant_moves(pos), moved)
    danger = KING_ATTACKS[pieces[tb | 6].bit_length() - 1] | (
        (t_pawns & _NOT_A) >> 9 | (t_pawns & _NOT_H) >> 7 if us == 0
        else (t_pawns & _NOT_A) << 7 | (t_pawns & _NOT_H) << 9
    )
    t_knights = pieces[tb | 2]
    while t_knights:
        low = t_knights & -t_knights
        t_knights ^= low
        danger |= KNIGHT_ATTACKS[low.bit_length() - 1]
    pk = keys[ub | 6]
    start = base ^ pk[king]
    targets = KING_ATTACKS[king] & ~own & ~danger
    lines = t_orth | t_diag
    without_king = occupied ^ king_bb
    while targets:
        low = targets & -targets
        targets ^= low
        to = low.bit_length() - 1
        key = start ^ pk[to]
        if low & opp:
            key ^= keys[board[to]][to]
            if key in seen:
                continue
            entry = STRUCTURAL | king | to << 6
        elif key in seen:
            continue
        else:
            entry = king | to << 6
        if lines:  # a line piece may attack the square once the king has left its own
            attackers = (ROOK_RAYS[to] & t_orth if t_orth else 0) | (
                BISHOP_RAYS[to] & t_diag if t_diag else 0
            )
            while attackers:
                piece = attackers & -attackers
                if not BETWEEN[to][piece.bit_length() - 1] & without_king:
                    break
                attackers ^= piece
            else:
                moved[0] = entry
                yield key
        else:
            moved[0] = entry
            yield key
    if checking:
        if checking & (checking - 1):
            return  # double check: only the king moves
        mask = BETWEEN[king][checking.bit_length() - 1] | checking
    else:
        mask = ~own
    pinned = pinned_pieces(king, own, occupied, t_orth, t_diag) if snipers else 0
    officers = pieces[ub | 2] | pieces[ub | 3] | pieces[ub | 4] | pieces[ub | 5]
    if officers:
        sets = []
        knights = pieces[ub | 2] & ~pinned
        while knights:
            low = knights & -knights
            knights ^= low
            sq = low.bit_length() - 1
            sets.append((sq, KNIGHT_ATTACKS[sq] & mask))
        queens = pieces[ub | 5]
        diag = pieces[ub | 3] | queens
        while diag:
            low = diag & -diag
            diag ^= low
            sq = low.bit_length() - 1
            targets = bishop_attacks(sq, occupied) & mask
            sets.append((sq, targets & LINE[king][sq] if low & pinned else targets))
        orth = pieces[ub | 4] | queens
        while orth:
            low = orth & -orth
            orth ^= low
            sq = low.bit_length() - 1
            targets = (
                rook_attacks(sq, occupied)
            ) & mask
            sets.append((sq, targets & LINE[king][sq] if low & pinned else targets))
        for fr, targets in sets:
            pk = keys[board[fr]]
            start = base ^ pk[fr]
            while targets:
                low = targets & -targets
                targets ^= low
                to = low.bit_length() - 1
                key = start ^ pk[to]
                if low & opp:
                    key ^= keys[board[to]][to]
                    if key not in seen:
                        moved[0] = STRUCTURAL | fr | to << 6
                        yield key
                elif key not in seen:
                    moved[0] = fr | to << 6
                    yield key

    pawns = pieces[ub | 1]
    if not pawns:
        return
    free = pawns & ~pinned
    empty = ~occupied
    if us == 0:
        one = (free << 8) & empty
        two = ((one & RANKS[2]) << 8) & empty
        left = ((free & _NOT_A) << 7) & opp
        right = ((free & _NOT_H) << 9) & opp
        step = 8
    else:
        one = (free >> 8) & empty
        two = ((one & RANKS[5]) >> 8) & empty
        left = ((free & _NOT_A) >> 9) & opp
        right = ((free & _NOT_H) >> 7) & opp
        step = -8
    pinned_pawns = pawns & pinned
    if not (pinned_pawns | (two | left | right | _last_ranks(one)) & mask):
        one &= mask  # the common case: single steps, here, not in a nested generator
        pk = keys[ub | 1]
        while one:
            low = one & -one
            one ^= low
            to = low.bit_length() - 1
            fr = to - step
            key = base ^ pk[fr] ^ pk[to]
            if key not in seen:
                moved[0] = STRUCTURAL | fr | to << 6
                yield key
        return
    steps = [
        (step, one & mask), (2 * step, two & mask), (step - 1, left & mask),
        (step + 1, right & mask),
    ] if (one | two | left | right) & mask else []
    while pinned_pawns:
        low = pinned_pawns & -pinned_pawns
        pinned_pawns ^= low
        sq = low.bit_length() - 1
        line = LINE[king][sq] & mask
        ahead = sq + step
        if not occupied >> ahead & 1:
            if line >> ahead & 1:
                steps.append((step, 1 << ahead))
            double = ahead + step
            if (sq >> 3) == (1 if us == 0 else 6) and not occupied >> double & 1 and (
                line >> double & 1
            ):
                steps.append((2 * step, 1 << double))
        hits = PAWN_ATTACKS[us][sq] & opp & line
        while hits:
            hit = hits & -hits
            hits ^= hit
            steps.append((hit.bit_length() - 1 - sq, hit))
    if steps:
        yield from _pawn_entries(seen, moved, board, base, ub, opp, steps)


def _pawn_ending_children(pos: Position, seen: set[int], moved: list[int]) -> Iterator[int]:
    """:func:`children` when each side has only its king and pawns: nothing is pinned, a
    check comes from one pawn, which only the king's step or taking the pawn answers."""
    us = pos.colour_to_move()
    board = pos.board
    pieces = pos.pieces
    own = pos.occupied_co[us]
    opp = pos.occupied_co[us ^ 1]
    ub = us << 3
    tb = ub ^ 8
    base = pos.key_without_en_passant() ^ TURN_KEY
    king = pieces[ub | 6].bit_length() - 1
    t_pawns = pieces[tb | 1]
    checking = PAWN_ATTACKS[us][king] & t_pawns
    yield checking
    if pos.ep_square >= 0:
        yield from _unkeyed(en_passant_moves(pos), moved)
    if us == 0:
        danger = (t_pawns & _NOT_A) >> 9 | (t_pawns & _NOT_H) >> 7
    else:
        danger = (t_pawns & _NOT_A) << 7 | (t_pawns & _NOT_H) << 9
    targets = KING_ATTACKS[king] & ~(own | danger | KING_ATTACKS[pieces[tb | 6].bit_length() - 1])
    if targets:
        pk = PIECE_KEYS[ub | 6]
        start = base ^ pk[king]
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            key = start ^ pk[to]
            if low & opp:
                key ^= PIECE_KEYS[board[to]][to]
                if key not in seen:
                    moved[0] = STRUCTURAL | king | to << 6
                    yield key
            elif key not in seen:
                moved[0] = king | to << 6
                yield key
    pawns = pieces[ub | 1]
    if pawns:
        empty = ~(own | opp)
        if checking:  # only taking the checking pawn
            steps = [(7, (pawns & _NOT_A) << 7 & checking), (9, (pawns & _NOT_H) << 9 & checking)]
            if us:
                steps = [(-9, (pawns & _NOT_A) >> 9 & checking),
                         (-7, (pawns & _NOT_H) >> 7 & checking)]
        else:
            if us == 0:
                one = (pawns << 8) & empty
                two = ((one & RANKS[2]) << 8) & empty
                left = ((pawns & _NOT_A) << 7) & opp
                right = ((pawns & _NOT_H) << 9) & opp
                step = 8
            else:
                one = (pawns >> 8) & empty
                two = ((one & RANKS[5]) >> 8) & empty
                left = ((pawns & _NOT_A) >> 9) & opp
                right = ((pawns & _NOT_H) >> 7) & opp
                step = -8
            if not (two | left | right | _last_ranks(one)):  # the common case: steps
                pk = PIECE_KEYS[ub | 1]
                while one:
                    low = one & -one
                    one ^= low
                    to = low.bit_length() - 1
                    key = base ^ pk[to - step] ^ pk[to]
                    if key not in seen:
                        moved[0] = STRUCTURAL | (to - step) | to << 6
                        yield key
                return
            steps = [(step, one), (2 * step, two), (step - 1, left), (step + 1, right)]
        yield from _pawn_entries(seen, moved, board, base, ub, opp, steps)


def _pawn_entries(
    seen: set[int], moved: list[int], board: list[int], base: int, ub: int, opp: int,
    steps: list[tuple[int, int]],
) -> Iterator[int]:
    """The entries of the pawn moves ``steps`` (each a step and its targets, in the order
    of :func:`~chessarbiter.core.movegen.legal_moves`) of the side ``ub >> 3``; ``base``
    is the position's key with the turn passed."""
    keys = PIECE_KEYS
    pk = keys[ub | 1]
    for delta, targets in steps:
        if not targets:
            continue
        promoting = _last_ranks(targets)
        targets ^= promoting
        if delta == 16 or delta == -16:  # the key after a double step is taken after it
            while targets:
                low = targets & -targets
                targets ^= low
                to = low.bit_length() - 1
                moved[0] = (to - delta) | to << 6
                yield UNKEYED
            continue
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            fr = to - delta
            key = base ^ pk[fr] ^ pk[to]
            if low & opp:
                key ^= keys[board[to]][to]
            if key not in seen:
                moved[0] = STRUCTURAL | fr | to << 6
                yield key
        while promoting:
            low = promoting & -promoting
            promoting ^= low
            to = low.bit_length() - 1
            fr = to - delta
            start = base ^ pk[fr]
            if low & opp:
                start ^= keys[board[to]][to]
            for kind in _PROMOTED:
                key = start ^ keys[ub | kind][to]
                if key not in seen:
                    moved[0] = STRUCTURAL | fr | to << 6 | kind << 12
                    yield key


def _last_ranks(board: int) -> int:
    """The squares of ``board`` on the first and last ranks."""
    return board & RANKS[0] | board >> 56 << 56


def child_key(pos: Position, base: int, move: Move) -> int | None:
    """For the searches that hold a list of moves (best-first, staged): the key of the
    position after ``move``, legal in ``pos`` (which has no en-passant
    square and the key ``base``), without making it: the same updates as
    :meth:`Position.push`. None for castling and double steps (the latter may give an
    en-passant square, which the key counts only when a capture is legal)."""
    if move & CASTLE_FLAG:
        return None
    fr, to = move & 63, (move >> 6) & 63
    board = pos.board
    moved, captured = board[fr], board[to]
    key = base ^ TURN_KEY ^ PIECE_KEYS[moved][fr]
    kind = moved & 7
    if kind == PAWN:
        if to - fr == 16 or fr - to == 16:
            return None
        promoted = move >> 12 & 7
        key ^= PIECE_KEYS[moved & 8 | promoted if promoted else moved][to]
    else:
        key ^= PIECE_KEYS[moved][to]
    if captured:
        key ^= PIECE_KEYS[captured][to]
    rights = pos.castling_rights
    if rights:
        after = rights & ~(1 << fr | 1 << to)
        if kind == KING:
            after &= ~BACK_RANKS[pos.turn]
        if after != rights:
            key ^= castling_key(rights ^ after)
    return key
