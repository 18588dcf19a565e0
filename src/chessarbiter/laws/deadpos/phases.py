"""Exploration of pawn structures, with the pieces abstracted to the regions they could be in.

Every series of legal moves is a series of *phases*: between two pawn moves or captures the
pawns and the material stay the same and only pieces (kings included) move, without
capturing. A phase is keyed by the exact pawns of both colours and, for each piece, its
colour, kind and a *region*: a set of squares it could be on during the phase. Piece
shuffles therefore never make a new key; only pawn moves, captures and promotions do.

The regions are closed: a king's region under king steps onto squares holding no pawn and
attacked by no enemy pawn (the squares it may legally step to within the phase), nor next to
every square of the other king's region (the other king stands on one of them, and kings
never stand side by side: by induction over the moves, with both regions closed given each
other, neither king ever leaves its region), every other
piece's under its own steps (knight jumps, diagonal, orthogonal, both for a queen) onto
squares holding no pawn. Other pieces are ignored as obstacles, which only makes a region
larger. A piece's attacks are the squares one step of its kind away from its region: a
slider's square next to its target along the ray is in the region, as the squares between
hold no pawn.

By induction over any series of moves from the analysed position, the position after each
move matches an explored phase: the pawns are exactly the phase's, each piece is in its
region. A move inside a phase stays inside the regions (closure); every pawn move, capture
and promotion that could be legal from some position matching the phase is enumerated as a
transition (a pawn push onto a square holding no pawn; a double step from the start rank
over two such squares; a pawn capture onto an enemy pawn, or onto a square in an enemy
piece's region; en passant, legal only as the move right after the enemy pawn's double step,
so generated from the position that double step leaves (or from the analysed position when
it has an en-passant square); a piece or king capturing a
pawn next to its region, the king only one that no enemy pawn, stuck piece or group defends
(``n`` pieces of one kind whose common region of at most ``n`` + 1 squares no other piece's
region meets: whichever square is the hole, some of them attacks the pawn, a slider through
the hole only); a piece capturing a piece
whose region its attacks meet; a promotion to each kind). The new phase's regions are
filled again from the old ones minus the new pawn squares (and from the capture or
promotion square), under the new pawns, so they hold every square a piece can stand on.
An entry dropped as a stalemate leads to no position with a move, so to no mate.

Each transition is an :class:`~.phasemate.Entry`: the pieces right after it stand in the old
regions less the new pawns' squares (a capturing piece on the square it took, the moved unit
known). The new phase is filled from the same seeds with a capturing piece's old region added
(wider, so that more phases coincide). :mod:`.phasemate` tells whether the winner's mate can
be the first or second position of the phase an entry begins, or lie deeper in a phase, and
drops entries after which the side to move surely has no legal move (the game ends there)
or the winner is surely checkmated (:func:`.freeze.mates_winner`);
whether the analysed position is the mate or one winner's move from it is checked on the
board. When no explored phase or entry allows the mate and the exploration finished within
its cap, no series of legal moves leads to the winner's checkmate. Castling (a king on its
e-file square, rooks in the corners) is a piece move inside a phase, covered by the regions
(:mod:`.phasemate`); the rights are assumed kept throughout, which only allows more. Other
castling rights (Chess960) are left to the other stages.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.attacks import BISHOP_RAYS, KING_ATTACKS, KNIGHT_ATTACKS, ROOK_RAYS
from chessarbiter.core.moves import CASTLE_FLAG
from chessarbiter.core.position import Position
from chessarbiter.core.squares import (
    BISHOP,
    FULL,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    RANKS,
    ROOK,
    squares_of,
)
from chessarbiter.laws.deadpos.bitboards import (
    LAST_RANKS,
    pawn_attacks,
    pawn_push,
    piece_fill,
    piece_step,
)
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.freeze import frozen, mates_winner
from chessarbiter.laws.deadpos.phasemate import (
    Entry,
    Piece,
    attacks_from,
    mate_inside,
    mate_on_entry,
    stalemated,
)

PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
START_RANKS = (RANKS[1], RANKS[6])

Phase = tuple[int, int, tuple[Piece, ...]]
"""White pawns, black pawns and the pieces (sorted)."""

EXPLORED_KEPT: Final = 4096
"""Most explorations remembered (:data:`_explored`)."""
_explored: dict[tuple[Phase, int, int, int], tuple[bool, int]] = {}
"""Explorations by their root phase, winner, castling squares and cap. The exploration
reads nothing else of the position (an en-passant square aside: such positions are not
remembered), so positions whose pieces shuffle within the same regions, as they do move
after move behind a pawn wall, share one. Cleared when full; a deadline that stops an
exploration leaves nothing here."""


def phases_unwinnable(
    pos: Position, winner: int, cap: int, deadline: Deadline = NEVER
) -> tuple[bool, int]:
    """Whether the exploration proves ``winner`` can never checkmate, and the phases seen
    (at most ``cap`` + 1)."""
    castle = _castles(pos, winner)
    if castle < 0:
        return False, 0
    white, black = pos.pieces[PAWN], pos.pieces[8 | PAWN]
    pieces: list[Piece] = []
    for colour in (0, 1):
        for kind in (KNIGHT, BISHOP, ROOK, QUEEN, KING):
            bb = pos.pieces[colour << 3 | kind]
            while bb:
                low = bb & -bb
                bb ^= low
                pieces.append((colour, kind, low))
    root = (white, black, tuple(sorted(_fill(white, black, pieces, winner))))
    if mate_inside(white, black, root[2], winner, castle) or _mates_at_root(pos, winner):
        return False, 1
    if pos.ep_square >= 0:
        passed = pawn_push(1 << pos.ep_square, pos.turn ^ 1)
        entries = _en_passant(white, black, tuple(pieces), passed)
        return _explore(root, winner, castle, cap, entries, deadline)
    key = (root, winner, castle, cap)
    known = _explored.get(key)
    if known is None:
        known = _explore(root, winner, castle, cap, [], deadline)
        if len(_explored) >= EXPLORED_KEPT:
            _explored.clear()
        _explored[key] = known
    return known


def _explore(
    root: Phase, winner: int, castle: int, cap: int, entries: list[Entry], deadline: Deadline
) -> tuple[bool, int]:
    """The exploration from ``root``, which allows no mate, and the given first entries (en
    passant from the analysed position): whether no phase reached allows the winner's mate,
    and the phases seen."""
    seen = {root}
    tested: set[Entry] = set()
    fills: dict[Phase, list[Piece]] = {}
    todo = [root]
    while todo:
        entries += _successors(todo.pop())
        while entries:
            entry = entries.pop()
            count = len(tested)
            tested.add(entry)
            if len(tested) == count:
                continue
            deadline.pace()
            if (
                entry.kind == PAWN
                and entry.origin & START_RANKS[entry.mover]
                and entry.dst & _double_step(entry.origin, entry.mover)
            ):
                entries += _en_passant(entry.white, entry.black, entry.pieces, entry.dst)
            mate, nxt = _enter(entry, winner, castle, fills)
            if mate:
                return False, len(seen)
            if nxt is None:
                continue
            count = len(seen)
            seen.add(nxt)
            if len(seen) == count:
                continue
            if count >= cap:
                return False, count
            if mate_inside(nxt[0], nxt[1], nxt[2], winner, castle):
                return False, len(seen)
            todo.append(nxt)
    return True, len(seen)


def _enter(
    entry: Entry, winner: int, castle: int, fills: dict[Phase, list[Piece]]
) -> tuple[bool, Phase | None]:
    """Whether the winner's mate may begin the phase ``entry`` begins, and the phase entered
    (``None`` when the game surely ends there without that mate); ``fills`` are the regions
    filled so far, by the pawns and the seeds."""
    key = (entry.white, entry.black, entry.seeds)
    filled = fills.get(key)
    if filled is None:
        filled = fills[key] = _fill(entry.white, entry.black, list(entry.seeds), winner)
    if entry.mover != winner and (stalemated(entry, filled) or mates_winner(entry, winner)):
        return False, None
    if mate_on_entry(entry, filled, winner, castle):
        return True, None
    if entry.mover == winner and stalemated(entry, filled):
        return False, None
    return False, (entry.white, entry.black, tuple(sorted(filled)))


def _held(pieces: list[Piece], colour: int) -> int:
    """Squares that ``colour``'s pieces surely attack: ``n`` pieces of one kind sharing a
    region of at most ``n`` + 1 squares that no other piece's region meets fill it but for
    at most one hole, so whichever square is empty some of them attacks (a slider only
    through the hole)."""
    out = 0
    mine = [(k, r) for c, k, r in pieces if c == colour and r & (r - 1)]
    for kind, region in set(mine):
        if region.bit_count() > len(mine) + 1:
            continue
        count = mine.count((kind, region))
        if region.bit_count() > count + 1 or any(
            r & region for c, k, r in pieces if (c, k, r) != (colour, kind, region)
        ):
            continue
        held = FULL
        for hole in squares_of(region) if region.bit_count() > count else [-1]:
            empty = 1 << hole if hole >= 0 else 0
            held &= attacks_from(kind, region & ~empty, colour, FULL ^ empty)
        out |= held
    return out


def _castles(pos: Position, winner: int) -> int:
    """The squares the winner's king may castle to (-1 when a right is not a corner rook's
    with its king on the e-file)."""
    out = 0
    for sq in squares_of(pos.castling_rights):
        colour, rank = sq >> 5, sq & 56
        if sq not in (0, 7, 56, 63) or not pos.pieces[colour << 3 | KING] >> (rank | 4) & 1:
            return -1
        if colour == winner:
            out |= 1 << (rank | (6 if sq & 7 else 2))
    return out


def _mates_at_root(pos: Position, winner: int) -> bool:
    """Whether the analysed position is the winner's mate, or one winner's move gives it."""
    if pos.turn != winner:
        return pos.is_checkmate()
    # a checking move leaves or reaches a square on a line or a knight's jump from the king,
    # or castles, or takes en passant (which empties a third square)
    king = pos.king(winner ^ 1)
    lines = ROOK_RAYS[king] | BISHOP_RAYS[king] | KNIGHT_ATTACKS[king]
    ep = pos.ep_square
    for move in pos.legal_moves():
        dst = move >> 6 & 63
        if not (lines >> (move & 63) & 1 or lines >> dst & 1 or move & CASTLE_FLAG or dst == ep):
            continue
        pos.push(move)
        mate = pos.is_check() and pos.count_legal_moves() == 0
        pos.pop()
        if mate:
            return True
    return False


def _double_step(origin: int, colour: int) -> int:
    """Where a pawn of ``colour`` on ``origin`` (its start rank) lands with a double step."""
    return pawn_push(pawn_push(origin & START_RANKS[colour], colour), colour)


def _en_passant(white: int, black: int, pieces: tuple[Piece, ...], passed: int) -> list[Entry]:
    """The en-passant captures of the pawn on ``passed`` (one that has just made a double
    step; none when 0), the pieces standing as ``pieces`` say."""
    out = []
    for colour, enemy, mine in ((0, black, white), (1, white, black)):
        if not passed & enemy:
            continue
        dst = pawn_push(passed, colour)
        for pawn in squares_of(pawn_attacks(dst, colour ^ 1) & mine):
            after = [white, black]
            after[colour] ^= 1 << pawn | dst
            after[colour ^ 1] ^= passed
            free = FULL ^ (after[0] | after[1])
            kept = tuple((c, k, r & free) for c, k, r in pieces)
            out.append(Entry(colour, after[0], after[1], kept, PAWN, dst, 1 << pawn | passed, kept))
    return out


def _fill(white: int, black: int, pieces: list[Piece], winner: int) -> list[Piece]:
    """The pieces' regions filled under these pawns, from what is left of the given ones
    once the pawns' squares are taken out (in the given order).

    Pieces that cannot move while the others of a set stand are *stuck*: the greatest such
    set, found by dropping pieces from those on one square until the rest hold; a loser's
    piece whose every move would checkmate the winner also holds (:mod:`.freeze`: no series
    of moves to the winner's mate contains such a move). As long as they all stand none can
    move, so by induction none moves within the phase: the others go round them, pawns
    cannot push onto them, and the enemy king keeps off the squares next to them in their
    move patterns (which they attack whatever else stands)."""
    # the masks of squares are complements (~x, negative: every square but x), which
    # compiled code keeps unboxed where FULL ^ x, with g8 or h8, is a heap integer
    free = ~(white | black)
    seeds = [(colour, kind, region & free) for colour, kind, region in pieces]
    stuck = 0
    kings = []
    for i, (_, kind, seed) in enumerate(seeds):
        if not seed & (seed - 1):
            stuck |= seed
        if kind == KING:
            kings.append(i)
    pawn_guard = (pawn_attacks(black, 1), pawn_attacks(white, 0))
    if not stuck:
        # no piece on one square: none is stuck, the regions are filled at once
        allowed = (free & ~pawn_guard[0], free & ~pawn_guard[1])
        regions = _regions(seeds, free, allowed)
        if len(kings) == 2:
            _apart(regions, seeds, kings, allowed)
        return regions
    # one step of each piece on one square (0 for the others)
    steps = [piece_step(kind, seed) if not seed & (seed - 1) else 0 for _, kind, seed in seeds]
    # the loser's pieces on one square other than the king, the only ones .freeze may hold
    loners = 0
    for i, (colour, kind, seed) in enumerate(seeds):
        if colour != winner and kind != KING and steps[i]:
            loners |= seed
    while True:
        # the squares each king keeps off: the enemy pawns' and stuck pieces' attacks
        guard_white, guard_black = pawn_guard
        for i, (colour, _, seed) in enumerate(seeds):
            if seed & stuck:
                if colour:
                    guard_white |= steps[i]
                else:
                    guard_black |= steps[i]
        open_ = free & ~stuck
        allowed = (open_ & ~guard_white, open_ & ~guard_black)
        # a piece's region is one square only when its seed is and no step leaves it: the
        # regions themselves are filled once the stuck pieces hold
        held = fixed = 0
        king = -1
        for i, (colour, kind, seed) in enumerate(seeds):
            single = steps[i] > 0 and not steps[i] & (allowed[colour] if kind == KING else open_)
            if single:
                held |= seed
                fixed |= 1 << i
            if king < 0 and kind == KING and colour == winner:
                king = seed if single else 0
        still = 0
        if king > 0 and king & stuck and loners & stuck:
            # the winner's pieces' regions, the only ones .freeze reads
            takers = [
                (c, k, s if fixed >> i & 1 else piece_fill(k, s, open_))
                for i, (c, k, s) in enumerate(seeds)
                if c == winner and k != KING
            ]
            still = frozen(takers, seeds, stuck, (white, black), winner, king)
            held |= still
        if held == stuck:
            out = _regions(seeds, open_, allowed, fixed)
            if still:
                out = [
                    (c, k, s if s and not s & ~still else r)
                    for (c, k, r), (_, _, s) in zip(out, seeds, strict=True)
                ]
            if len(kings) == 2:
                _apart(out, seeds, kings, allowed)
            return out
        stuck = held


def _regions(
    seeds: list[Piece], open_: int, allowed: tuple[int, int], fixed: int = 0
) -> list[Piece]:
    """Each piece's region: its seed filled onto ``open_`` squares (a king's onto
    ``allowed[colour]``); the ``i``-th seed, for each bit ``1 << i`` of ``fixed``, is known
    to be its own region (no step leaves it)."""
    return [
        (c, k, s if fixed >> i & 1 else piece_fill(k, s, allowed[c] if k == KING else open_))
        for i, (c, k, s) in enumerate(seeds)
    ]


def _apart(
    pieces: list[Piece], seeds: list[Piece], kings: list[int], allowed: tuple[int, int]
) -> None:
    """Fill each king's region (``pieces[kings[i]]``) again off the squares next to every
    square of the other king's region (the kings never stand side by side), until both
    hold."""
    pairs = ((kings[0], kings[1]), (kings[1], kings[0]))
    while True:
        changed = False
        for i, j in pairs:
            other = pieces[j][2]
            if other.bit_count() > 9:
                continue
            near = FULL
            while other:
                low = other & -other
                other ^= low
                near &= KING_ATTACKS[low.bit_length() - 1] | low
            colour, _, region = pieces[i]
            if not near & region:
                continue
            grown = piece_fill(KING, seeds[i][2], allowed[colour] & ~near)
            if grown != region:
                pieces[i] = (colour, KING, grown)
                changed = True
        if not changed:
            return


def _successors(phase: Phase) -> list[Entry]:
    """Every pawn move, capture and promotion that could be legal in the phase."""
    white, black, pieces = phase
    pawns = [white, black]
    listed = list(pieces)
    occupied = white | black
    defended = [pawn_attacks(white, 0), pawn_attacks(black, 1)]
    regions = 0
    for colour, kind, region in listed:
        regions |= region
        if not region & (region - 1):
            occupied |= region
            defended[colour] |= piece_step(kind, region)
    for colour in (0, 1):
        defended[colour] |= _held(listed, colour)
    out: list[Entry] = []
    for colour in (0, 1):
        them = colour ^ 1
        enemy = pawns[them]
        victims = [
            (i, region)
            for i, (owner, kind, region) in enumerate(listed)
            if owner == them and kind != KING
        ]
        room = 0
        for _, region in victims:
            room |= region
        bb = pawns[colour]
        while bb:
            src = bb & -bb
            bb ^= src
            ahead = pawn_push(src, colour) & ~occupied
            if ahead:
                _pawn_move(out, phase, regions, colour, src, ahead, 0, -1)
                two = pawn_push(ahead, colour) & ~occupied
                if src & START_RANKS[colour] and two:
                    _pawn_move(out, phase, regions, colour, src, two, 0, -1)
            targets = pawn_attacks(src, colour) & (enemy | room)
            while targets:
                dst = targets & -targets
                targets ^= dst
                if dst & enemy:
                    _pawn_move(out, phase, regions, colour, src, dst, dst, -1)
                else:
                    for i, region in victims:
                        if region & dst:
                            _pawn_move(out, phase, regions, colour, src, dst, 0, i)
        for i, (owner, kind, region) in enumerate(listed):
            if owner != colour:
                continue
            attack = piece_step(kind, region)
            if kind == KING:
                attack &= ~defended[them]
            targets = attack & enemy
            while targets:
                dst = targets & -targets
                targets ^= dst
                after = pawns.copy()
                after[them] ^= dst
                taken = [*listed[:i], (owner, kind, dst), *listed[i + 1 :]]
                grown = [*listed[:i], (owner, kind, region | dst), *listed[i + 1 :]]
                origin = region & attacks_from(kind, dst, colour, white | black)
                _add(out, colour, after[0], after[1], taken, kind, dst, origin, grown)
            for j, vregion in victims:
                if attack & vregion:
                    dst = attack & vregion
                    rest = [p for k, p in enumerate(listed) if k != j]
                    at = i - (j < i)
                    taken = [*rest[:at], (owner, kind, dst), *rest[at + 1 :]]
                    grown = [*rest[:at], (owner, kind, region | dst), *rest[at + 1 :]]
                    origin = region & attacks_from(kind, dst, colour, white | black)
                    _add(out, colour, white, black, taken, kind, dst, origin, grown)
    return out


def _pawn_move(
    out: list[Entry],
    phase: Phase,
    regions: int,
    colour: int,
    src: int,
    dst: int,
    victim: int,
    gone: int,
) -> None:
    """Add to ``out`` the pawn move of ``colour`` from ``src`` to ``dst`` in ``phase``
    (``regions``: its pieces' squares), taking the pawn on ``victim`` (or none: 0) or the
    piece at index ``gone`` (or none: -1), each promotion on the last rank."""
    white, black, pieces = phase
    after = [white, black]
    after[colour] ^= src
    after[colour ^ 1] &= ~victim
    origin = src | (victim & ~dst)
    rest = pieces if gone < 0 else pieces[:gone] + pieces[gone + 1 :]
    if dst & LAST_RANKS[colour]:
        for kind in PROMOTIONS:
            _add(out, colour, after[0], after[1], [*rest, (colour, kind, dst)], kind, dst, origin)
        return
    after[colour] |= dst
    if gone < 0 and not regions & (after[0] | after[1]):
        kept = pieces
    else:
        free = ~(after[0] | after[1])  # every square but the pawns' (see _fill)
        kept = tuple([(c, k, r & free) for c, k, r in rest])
    out.append(Entry(colour, after[0], after[1], kept, PAWN, dst, origin, kept))


def _add(
    out: list[Entry],
    colour: int,
    white: int,
    black: int,
    rest: list[Piece],
    kind: int,
    dst: int,
    origin: int,
    wide: list[Piece] | None = None,
) -> None:
    """Add to ``out`` the entry of ``colour``'s move leaving these pawns, the pieces ``rest``
    less the pawns' squares, the seeds ``wide`` (else the same)."""
    free = ~(white | black)  # every square but the pawns' (see _fill)
    kept = tuple([(c, k, r & free) for c, k, r in rest])
    seeds = kept if wide is None else tuple([(c, k, r & free) for c, k, r in wide])
    out.append(Entry(colour, white, black, kept, kind, dst, origin, seeds))
