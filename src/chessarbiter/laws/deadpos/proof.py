"""Is the position proved dead? The arbiter's question after every move (Laws Art. 5.2.2,
S9.6): neither side can checkmate by any series of legal moves.

The cheap, sound stages of the quick analysis run, from the pipeline :mod:`.api` shares
(:mod:`.pipeline`): material (:mod:`.material`);
the forced replies played out (:mod:`.forced`), a loop or a stalemate at their end being dead
and a checkmate not; then, for each side, the static mobility analysis (:mod:`.static`) or the
exploration of pawn structures (:mod:`.phases`, with the quick mode's cap); then, when only
one or two moves are legal, each of them must stalemate or lead to a position those stages
prove dead (one ply); last, behind the tightest gate, quick's proof search
(:class:`.search.CostSearch` with ``stop_at_cut``: it exhausts every line within a small
cost, a proof, and gives up at the first line it cannot finish; never a helpmate hunt). A
position that is not dead, or not proved so, answers ``None``.

Most positions of a game cannot be closed by those proofs, and a few bitboard operations
turn them away first (:func:`_may_close`). The structural proofs need pawn walls, so a
position goes on only if no pawn can step forward, or some pawn is stuck (a pawn, of either
colour, on the square ahead of it), at least :data:`MIN_STUCK` are stuck when one can step
and no more can step than are stuck; no pawn has an empty file ahead of it up to its last
rank; and knights, rooks and queens have at most :data:`MAX_FREE_STEPS` empty squares one
step (one jump) away, counted over all of them: free heavy pieces and knights attack walls
from behind and get round them. A position the walls gate turns away goes on only when
forced lines may prove it (with more than :data:`FEW_UNITS` units besides the kings, only
when asked after a move, not one ply deeper): the side to move has at most
:data:`MAX_REPLIES` moves (one, one ply deeper) by :func:`_few_moves`, a bound that counts
pawn steps and captures, safe king steps and the squares its pieces reach, so that pieces
shut in count for nothing; or, after a move, the other side has at most
:data:`BOXED_MOVES` (none with few units), were it to move; or the side to move is in
check with a single legal move (two when no pawn can step), counted once its king has that
few safe steps. The proof search runs only on a position with at most
:data:`MAX_SEARCH_MOVES` legal moves that passed the walls gate or followed forced moves,
on one whose side not to move is boxed in so, and, with more units, on one with at most
:data:`MAX_REPLIES` moves when the side to move is in check and no pawn can step, or when
the other side has at most :data:`CRAMPED_MOVES`: in real games, about one position in
three thousand. The gates decide only what is analysed, never a verdict: they cost
completeness, never soundness.
The unwinnability corpus holds them to the quick analysis: every dead position quick proves
is proved here too, when reached by a move.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.attacks import (
    BISHOP_RAYS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    ROOK_RAYS,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, FULL, KING, KNIGHT, PAWN, QUEEN, ROOK, squares_of
from chessarbiter.laws.deadpos.bitboards import (
    NOT_A,
    NOT_H,
    diagonal_step,
    knight_step,
    orthogonal_step,
    pawn_attacks,
    pawn_push,
    pawns_blocked,
)
from chessarbiter.laws.deadpos.forced import play_forced_moves
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.pipeline import (
    MATERIAL,
    MOBILITY,
    SEARCH,
    STRUCTURES,
    first_proof,
)

MIN_STUCK: Final = 4
"""Fewest stuck pawns a position with a pawn free to step needs to be analysed
(:func:`proved_dead` spells it, and ``FEW_UNITS + 2``, as literals: it runs after every
move)."""
MAX_FREE_STEPS: Final = 8
"""Most empty squares one knight jump, rook step or queen step away from any knight, rook or
queen in a position that is analysed (the corpus positions the static proofs close have at
most 7)."""
MAX_REPLIES: Final = 2
"""Most legal moves a position may have for each of them to be tried (and for the walls
gate to let it through on the mobility of the side to move)."""
BOXED_MOVES: Final = 1
"""Most moves (:func:`_few_moves`) of the side not to move for it to count as boxed in, when
more than :data:`FEW_UNITS` units besides the kings are left (with fewer: none)."""
CRAMPED_MOVES: Final = 4
"""Most moves of the side not to move for a position with at most :data:`MAX_REPLIES`
moves, not in check, to be searched."""
MAX_SEARCH_MOVES: Final = 4
"""Most legal moves of a position the proof search is run on, unless the side not to move is
boxed in."""
FEW_UNITS: Final = 6
"""Most units other than kings in a position the first gate lets through whatever its
pawns."""


Known = tuple[dict[str, bool], dict[str, bool]]
"""The answers of the pipeline's stages for one position, by winner and stage name."""

_REACH: Final = tuple(
    KNIGHT_ATTACKS if kind == KNIGHT
    else BISHOP_RAYS if kind == BISHOP
    else ROOK_RAYS if kind == ROOK
    else tuple(b | r for b, r in zip(BISHOP_RAYS, ROOK_RAYS, strict=True)) if kind == QUEEN
    else (0,) * 64
    for kind in range(8)
)
"""``_REACH[kind][sq]``: the squares a knight, bishop, rook or queen on ``sq`` attacks on an
empty board (0 for other kinds)."""

QUIET_FOREVER: Final = -1
"""The memo's count for a position the gate turns away with no stuck pawn: negative, it stays
turned away for ever, as long as some pawn can step (counted down all the same)."""

_turned_away: tuple[int, int, bool] = (-1, 0, False)
"""The last position the gate turned away (its key) and how many quiet moves (neither a
capture nor a pawn move) from it surely lead to positions the gate turns away too
(negative, :data:`QUIET_FOREVER` counted down, for a position with no stuck pawn): such a
move keeps the pawns, the stuck pawns and the units, and takes at most two free pawns away
(only a square it fills can block a pawn, and a square stands ahead of at most one pawn of
each colour; castling fills two squares of the first or last rank, each ahead of at most one
pawn); with no stuck pawn, the memo also asks that a pawn can step. A fact about that
position, not about a game, so one memo serves every game; it is read and written as one
tuple, and left as it is when the new entry would serve no move. Its third item: whether a
side has one piece at most besides king and pawns (quiet moves keep that too)."""


def proved_dead(pos: Position) -> str | None:
    """A short reason when ``pos`` is proved dead (Art. 5.2.2), else ``None``; ``pos`` is
    unchanged. The checkmate and stalemate rules come first (Art. 5.1.1, 5.2.1): the caller
    applies them before asking.

    It runs after every move, so the commonest case is turned away here, in a few
    operations, before any call: the pawn tests of :func:`_may_close` fail with a pawn free
    to step (more free pawns than stuck ones, or fewer than :data:`MIN_STUCK` stuck), more
    than :data:`FEW_UNITS` units are left (some pawn stands, so the material is not dead)
    and each side has a piece besides king and pawns, or three pawn steps. That gate costs
    completeness only where a pawn can step: the forced lines it leaves aside need pawns
    that cannot (the corpus has none other). A position reached by a quiet move from the
    last one turned away is turned away without a look while the memo allows
    (:data:`_turned_away`) and a pawn can step (a quiet move may block the last one). A
    position turned away, from the memo or not, whose side giving check has one piece at most
    besides king and pawns, is analysed when it is in check with a single legal move
    (:func:`_lone_check`: the capture of the checker may stalemate that side)."""
    global _turned_away
    key, moves, lone = _turned_away
    if moves and pos.quiet_parent() == key:
        if moves > 0:
            _turned_away = (pos.key(), moves - 1, lone)
            return _lone_check(pos) if lone else None
        pieces = pos.pieces  # no stuck pawn: still turned away while a pawn can step
        white_units, black_units = pos.occupied_co
        occupied = white_units | black_units
        if pieces[1] & ~(occupied >> 8) or pieces[9] & ~(occupied << 8):
            _turned_away = (pos.key(), moves - 1, lone)
            return _lone_check(pos) if lone else None
    pieces = pos.pieces
    white_units, black_units = pos.occupied_co
    occupied = white_units | black_units
    white = pieces[1]  # the pawns: PAWN, 8 | PAWN (literals: this runs after every move)
    black = pieces[9]
    pawns = white | black
    free = (white & ~(occupied >> 8) | black & ~(occupied << 8)).bit_count()
    stuck = (white & pawns >> 8 | black & pawns << 8).bit_count()
    open_pawns = free > stuck or (free and stuck < 4)  # MIN_STUCK
    if open_pawns and occupied.bit_count() > 8:  # FEW_UNITS and the two kings
        white_pieces = white_units ^ white ^ pieces[6]  # KING
        black_pieces = black_units ^ black ^ pieces[14]
        if not (white_pieces and black_pieces):
            # a side of king and pawns with three pawn steps is neither boxed in nor short
            # of moves (MAX_REPLIES): no proof by mobility (not remembered)
            if (white_pieces or (white & ~(occupied >> 8)).bit_count() > 2) and (
                black_pieces or (black & ~(occupied << 8)).bit_count() > 2
            ):
                return _lone_check(pos)
            return _proved(pos, True, walls=False)
        lone = not (white_pieces & (white_pieces - 1) and black_pieces & (black_pieces - 1))
        if pos.ep_square < 0:
            moves = (free - stuck - 1) >> 1
            if not stuck:
                moves = QUIET_FOREVER
            elif stuck < 4:
                moves = max(moves, (free - 1) >> 1)
            if moves:  # else the entry would serve no move: the last one stays true
                _turned_away = (pos.key(), moves, lone)
        return _lone_check(pos) if lone else None
    return _proved(pos, True, walls=not open_pawns and stuck > 0)


def _lone_check(pos: Position) -> str | None:
    """:func:`_proved` for a position the first gate turns away, when its side to move is in
    check with a single legal move, given by a pawn or by the other side's only piece besides
    king and pawns (the capture of the checker may stalemate it); else ``None``."""
    pieces = pos.pieces
    if pos.turn:  # White gives check
        king = pieces[8 | KING]
        pawns = pieces[PAWN]
        checking = pos.occupied_co[0] ^ pawns ^ pieces[KING]
        checked = ((pawns & NOT_A) << 7 | (pawns & NOT_H) << 9) & king
    else:
        king = pieces[KING]
        pawns = pieces[8 | PAWN]
        checking = pos.occupied_co[1] ^ pawns ^ pieces[8 | KING]
        checked = ((pawns & NOT_A) >> 9 | (pawns & NOT_H) >> 7) & king
    if checking & (checking - 1):
        return None
    if checking and not checked:
        sq = checking.bit_length() - 1
        kind = pos.board[sq] & 7
        checked = _REACH[kind][sq] & king and (kind == KNIGHT or _line_attacks(
            kind, sq, pos.occupied_co[0] | pos.occupied_co[1]) & king)
    if not checked or not _few_king_steps(pos, pos.turn, 1) or pos.count_legal_moves() > 1:
        return None
    return _proved(pos, True, walls=False)


def _line_attacks(kind: int, sq: int, occupied: int) -> int:
    """The squares a bishop, rook or queen on ``sq`` attacks."""
    if kind == BISHOP:
        return bishop_attacks(sq, occupied)
    if kind == ROOK:
        return rook_attacks(sq, occupied)
    return bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)


def _proved(pos: Position, branch: bool, *, walls: bool = True) -> str | None:
    """:func:`proved_dead`; with ``branch``, a position with at most :data:`MAX_REPLIES`
    legal moves is also dead when each of them ends the game in stalemate or leads to a
    position proved dead without branching again. ``walls=False`` when the pawn tests of
    :func:`_may_close` are known to fail."""
    pieces = pos.pieces
    if not (pieces[PAWN] | pieces[ROOK] | pieces[QUEEN]) and _material_dead(pieces):
        return "insufficient material"
    co = pos.occupied_co
    occupied = co[0] | co[1]
    walls = walls and _may_close(pieces, occupied)
    few = (occupied ^ pieces[KING] ^ pieces[8 | KING]).bit_count() <= FEW_UNITS
    count = -1
    if not walls:
        if not (branch or few):
            return None
        turn = pos.turn
        replies = MAX_REPLIES if branch else 1
        if not (
            _few_moves(pos, turn, replies)
            or (branch and _few_moves(pos, turn ^ 1, 0 if few else BOXED_MOVES))
        ):
            # In check the pieces' moves counted above are mostly illegal: count the legal
            # ones when the king has few steps (one, unless no pawn can step).
            if not pos.is_check():
                return None
            if replies > 1 and not _pawns_locked(pos):
                replies = 1
            if not _few_king_steps(pos, turn, replies):
                return None
            count = pos.count_legal_moves()
            if count > replies:
                return None
    work = pos
    if count < 0:
        count = pos.count_legal_moves()
    if not count:
        return None  # checkmate or stalemate: the caller's rules
    forced = count == 1
    if forced:
        work = Position.from_snapshot(pos.snapshot())
        _, looped = play_forced_moves(work)
        if looped:
            return "the forced moves repeat"
        count = work.count_legal_moves()
        if count == 0:
            return None if work.is_check() else "the forced moves end in stalemate"
        if _material_dead(work.pieces):
            return "insufficient material after the forced moves"
        walls = walls or _may_close(work.pieces, work.occupied_co[0] | work.occupied_co[1])
    known: Known = ({}, {})
    reason = _structure(work, known) if walls else None
    if reason is None and branch and 0 < count <= MAX_REPLIES and _every_reply_dead(work):
        return "every legal move leads to a dead position"
    if (
        reason is None
        and branch
        and _search_worthy(work, walls or forced, few, count)
        and _searched(work, known)
    ):
        return "every line of play is exhausted"
    return reason


def _search_worthy(pos: Position, closing: bool, few: bool, count: int) -> bool:
    """Whether the proof search is run on ``pos``, not yet proved dead, with ``count`` legal
    moves (see the module doc); ``closing``: a pawn wall or forced moves led to it, ``few``:
    at most :data:`FEW_UNITS` units besides the kings."""
    if closing and count <= MAX_SEARCH_MOVES:
        return True
    if _few_moves(pos, pos.turn ^ 1, 0 if few else BOXED_MOVES):
        return True
    if few or count > MAX_REPLIES:
        return False
    if not pos.is_check():
        return _few_moves(pos, pos.turn ^ 1, CRAMPED_MOVES)
    return _pawns_locked(pos)


def _pawns_locked(pos: Position) -> bool:
    """Whether no pawn can step forward."""
    pieces = pos.pieces
    empty = FULL ^ pos.occupied_co[0] ^ pos.occupied_co[1]
    return not (pawn_push(pieces[PAWN], 0) | pawn_push(pieces[8 | PAWN], 1)) & empty


def _searched(pos: Position, known: Known) -> bool:
    """Whether quick's proof search exhausts, for each side that material or the static
    analysis do not already rule out, every line within its cost (:mod:`.search`)."""
    return all(first_proof(pos, w, (MATERIAL, MOBILITY, SEARCH), known=known[w]) for w in (0, 1))


def _few_moves(pos: Position, side: int, most: int) -> bool:
    """Whether ``side`` has at most ``most`` moves, counted as if it were to move and not in
    check: the moves of its pieces to squares it does not occupy, pawn steps and captures,
    king steps to squares the other side does not attack (pins, castling and en passant
    ignored: a bound for the gates, not a count). Pieces first: one with many moves ends
    the count."""
    pieces = pos.pieces
    co = pos.occupied_co
    base = side << 3
    own = co[side]
    occupied = own | co[side ^ 1]
    free = ~own
    moves = 0
    bishops = pieces[base | BISHOP]
    rooks = pieces[base | ROOK]
    sliders = bishops | rooks | pieces[base | QUEEN]
    while sliders:
        low = sliders & -sliders
        sliders ^= low
        sq = low.bit_length() - 1
        reach = 0 if low & bishops else rook_attacks(sq, occupied)
        if not low & rooks:
            reach |= bishop_attacks(sq, occupied)
        moves += (reach & free).bit_count()
        if moves > most:
            return False
    knights = pieces[base | KNIGHT]
    while knights:
        low = knights & -knights
        knights ^= low
        moves += (KNIGHT_ATTACKS[low.bit_length() - 1] & free).bit_count()
        if moves > most:
            return False
    pawns = pieces[base | PAWN]
    moves += (pawn_push(pawns, side) & ~occupied).bit_count()
    prey = co[side ^ 1] & ~pieces[(side ^ 1) << 3 | KING]
    moves += (pawn_attacks(pawns, side) & prey).bit_count()
    return moves <= most and _few_king_steps(pos, side, most - moves)


def _few_king_steps(pos: Position, side: int, most: int) -> bool:
    """Whether the king of ``side`` has at most ``most`` steps to squares the other side
    does not attack (castling ignored; its sliders' lines go through the king's square)."""
    pieces = pos.pieces
    co = pos.occupied_co
    other = (side ^ 1) << 3
    steps = KING_ATTACKS[pos.king(side)] & ~co[side]
    steps &= ~(pawn_attacks(pieces[other | PAWN], side ^ 1) | KING_ATTACKS[pos.king(side ^ 1)])
    if steps.bit_count() <= most:
        return True
    rest = (co[0] | co[1]) ^ pieces[side << 3 | KING]
    queens = pieces[other | QUEEN]
    attacked = 0
    for sq in squares_of(pieces[other | KNIGHT]):
        attacked |= KNIGHT_ATTACKS[sq]
    for sq in squares_of(pieces[other | BISHOP] | queens):
        attacked |= bishop_attacks(sq, rest)
    for sq in squares_of(pieces[other | ROOK] | queens):
        attacked |= rook_attacks(sq, rest)
    return (steps & ~attacked).bit_count() <= most


def _every_reply_dead(pos: Position) -> bool:
    """Whether each legal move stalemates or leads to a position proved dead (not branching
    again); ``pos`` is restored."""
    for move in pos.legal_moves():
        pos.push(move)
        stuck = not pos.count_legal_moves()
        dead = not pos.is_check() if stuck else _proved(pos, False) is not None
        pos.pop()
        if not dead:
            return False
    return True


def _structure(pos: Position, known: Known) -> str | None:
    """The static analysis, else the pawn-structure exploration, for each side."""
    reason = "blocked pawn structure"
    for winner in (0, 1):
        proof = first_proof(pos, winner, (MOBILITY, STRUCTURES), known=known[winner])
        if proof is None:
            return None
        if proof == STRUCTURES[0]:
            reason = "pawn structure"
    return reason


def _material_dead(pieces: list[int]) -> bool:
    """Neither side has mating material (:mod:`.material`)."""
    return cannot_mate_by_material(pieces, 0) and cannot_mate_by_material(pieces, 1)


def _may_close(pieces: list[int], occupied: int) -> bool:
    """Whether a structural proof could close the position (see the module doc)."""
    white = pieces[PAWN]
    black = pieces[8 | PAWN]
    stuck = pawns_blocked(white, black).bit_count()
    if not stuck:
        return False
    free = (white & ~(occupied >> 8)).bit_count() + (black & ~(occupied << 8) & FULL).bit_count()
    if free and (stuck < MIN_STUCK or free > stuck):
        return False
    if white & ~_down(occupied >> 8) or black & ~_up(occupied << 8 & FULL):
        return False
    empty = FULL ^ occupied
    queens = pieces[QUEEN] | pieces[8 | QUEEN]
    steps = (knight_step(pieces[KNIGHT] | pieces[8 | KNIGHT]) & empty).bit_count()
    steps += (orthogonal_step(pieces[ROOK] | pieces[8 | ROOK] | queens) & empty).bit_count()
    steps += (diagonal_step(queens) & empty).bit_count()
    return steps <= MAX_FREE_STEPS


def _up(b: int) -> int:
    """The squares of ``b`` and every square above them."""
    b |= b << 8
    b |= b << 16
    return (b | b << 32) & FULL


def _down(b: int) -> int:
    """The squares of ``b`` and every square below them."""
    b |= b >> 8
    b |= b >> 16
    return b | b >> 32
