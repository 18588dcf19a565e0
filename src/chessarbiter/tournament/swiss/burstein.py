"""The Burstein system (FIDE C.04.4.2, the text in force until 30 June 2025, as bbpPairings
reads it): within each scoregroup the players are ranked by an index of the opposition
they met, and the highest is paired with the lowest he can meet.

Article numbers are those of that text:
- 1.3 due colour, 3.1 no second game (forfeits do not count as games), C.04.1 f-g absolute
  colours: two players both absolutely due the same colour are never paired;
- 2 unfinished or unplayed games count as draws in the index;
- 3.2 the index: Sonneborn-Berger, then Buchholz, then median Buchholz, then the pairing
  number; an unplayed round counts as a game against a virtual opponent (C.07: the
  player's score before the round, the opposite result, draws afterwards);
- 6.3 an odd scoregroup floats one player down; 6.6 a scoregroup that cannot be paired
  (with the floater coming into it) is merged with the next one, the last with the one
  above it;
- 6.4 the highest ranked player meets the lowest one possible, in order down the group;
  6.5 as many players as possible get their due colour;
- the bye (C.04.1 c-d) goes to the lowest ranked player who has had no pairing-allocated
  bye and no forfeit win;
- the seeding rounds (preface: ratings decide only before the index can): rounds 1 and 2 are
  paired as though the upper half of the ranking list had a win more (bbpPairings's default
  acceleration).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Pairing, Scoring
from chessarbiter.tournament.swiss.brackets import compatibility, left_over, pairable, scoregroups
from chessarbiter.tournament.swiss.dutch import PairingError
from chessarbiter.tournament.swiss.matching import IncrementalMatching
from chessarbiter.tournament.swiss.state import PlayerState, Strength, build_states

_LOSSES = frozenset({Code.LOSS, Code.LOSS_UNRATED, Code.FORFEIT_LOSS, Code.ZERO_BYE, Code.NONE})
_DRAWS = frozenset({Code.DRAW, Code.DRAW_UNRATED, Code.HALF_BYE})


@dataclass(frozen=True)
class Field:
    """The round as Burstein pairing sees it."""

    states: dict[int, PlayerState]
    """Each player's state; ``score`` includes the seeding rounds' virtual points."""
    cells: dict[int, tuple[Cell, ...]]
    """Each player's cells of the rounds before this one."""
    players: tuple[int, ...]
    """The players to pair, by start number."""
    ranks: dict[int, int]
    """Pairing numbers from 0 among the players taking part (C.04.2 B)."""
    virtual: dict[int, Fraction]
    """Virtual (seeding) points in this round."""
    scoring: Scoring
    initial: Side


def seeding_points(cells: Mapping[int, Sequence[Cell]], round_no: int, out: set[int],
                   win: Fraction) -> dict[int, Fraction]:
    """The seeding rounds' virtual points (a win) for the upper half, rounds 1 and 2: the
    players in start order until half of those paired in round 1 are counted (those absent
    from round 1 ranked among them get the points too, as bbpPairings gives them)."""
    if round_no > 2:
        return {}

    def counted(p: int) -> bool:
        own = cells.get(p, ())
        if own:
            return _took_part(own[0])
        return round_no > 1 or p not in out

    order = sorted(cells)
    left = sum(1 for p in order if counted(p))
    given: dict[int, Fraction] = {}
    if left <= 1:
        return given
    for p in order:
        given[p] = win
        if counted(p):
            left -= 2
            if left <= 1:
                break
    return given


def _took_part(cell: Cell) -> bool:
    """Whether the player was paired in the round: a game, a forfeit or the PAB."""
    return cell.opponent is not None or cell.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN)


@dataclass(frozen=True)
class Index:
    """Article 3.2's index of one player (``score`` with the seeding points), in integers:
    ``score``, ``bh`` and ``median`` count points in units of ``1/scale``, ``sb`` (points
    times points) in units of ``1/scale**2``, so that comparing them is exact and cheap."""

    score: int
    sb: int
    bh: int
    median: int
    rank: int
    scale: int


def indices(field: Field) -> dict[int, Index]:
    """Each player's index (3.2), unplayed games counting as draws (2) in the opponents'
    scores, and as games against a virtual opponent in the player's own."""
    scoring = field.scoring
    values = [scoring.points(code) for code in Code] + list(field.virtual.values())
    scale = math.lcm(*(v.denominator for v in values))
    points_of = {code: int(scoring.points(code) * scale) for code in Code}
    points_of_bye = points_of[Code.PAIRING_BYE]
    virtual = {p: int(v * scale) for p, v in field.virtual.items()}
    draw, win = points_of[Code.DRAW], int(scoring.win * scale)
    forfeit_loss = int(scoring.forfeit_loss * scale)

    def scored(cell: Cell) -> int:
        if cell.opponent is None and cell.code is Code.FORFEIT_WIN:  # a bye written as a win
            return points_of_bye
        return points_of[cell.code]

    adjusted = {p: virtual.get(p, 0) + sum(
        scored(c) if c.code.played else draw for c in cells)
        for p, cells in field.cells.items()}
    out = {}
    for p, rank in field.ranks.items():
        cells = field.cells[p]
        ahead = (len(cells) - 1) * draw + virtual.get(p, 0)
        sb = 0
        opposition = []
        for cell in cells:
            points = scored(cell)
            if cell.code.played and cell.opponent is not None:
                theirs = adjusted[cell.opponent]
            elif cell.code in _LOSSES:
                theirs = ahead + win
            elif cell.code in _DRAWS:
                theirs = ahead + draw
            elif _took_part(cell) and cell.opponent is None and points_of_bye < win:
                theirs = ahead + (win if points_of_bye < draw else draw)
            else:
                theirs = ahead + forfeit_loss
            sb += points * theirs
            opposition.append(theirs)
            ahead += points - draw
        bh = sum(opposition)
        median = bh - min(opposition) - max(opposition) if len(cells) > 2 else 0
        out[p] = Index(int(field.states[p].score * scale), sb, bh, median, rank, scale)
    return out


def _above(a: Index, b: Index) -> bool:
    """Whether ``a`` ranks above ``b`` (3.2). Players of different scores (a floater among
    the group it joins) compare their Buchholz and median weighted by their scores."""
    if a.score == b.score:
        return (a.sb, a.bh, a.median, -a.rank) > (b.sb, b.bh, b.median, -b.rank)
    return ((a.sb, a.bh * a.score, a.median * a.score, -a.rank)
            > (b.sb, b.bh * b.score, b.median * b.score, -b.rank))


def pair(field: Field) -> Pairing:
    """Pair the round: the bye, the scoregroups (6.3, 6.6), then each group top down."""
    index = indices(field)
    states = field.states
    order = sorted(field.players, key=lambda p: (
        -index[p].score, -index[p].sb, -index[p].bh, -index[p].median, index[p].rank))
    bye = None
    if len(order) % 2:
        eligible = [p for p in order if not any(
            _took_part(c) and c.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN)
            for c in field.cells[p])]
        if not eligible:
            raise PairingError("no player may receive the pairing-allocated bye")
        bye = eligible[-1]
        order.remove(bye)
    groups = _Groups(field, order)
    pairs = groups.pair(index)
    real = {p: states[p].points for p in field.players}

    def higher(pair_: tuple[int, int]) -> tuple[int, int]:
        a, b = pair_
        return (a, b) if (real[a], -field.ranks[a]) > (real[b], -field.ranks[b]) else (b, a)

    def board(pair_: tuple[int, int]) -> tuple[Fraction, Fraction, int]:
        high, low = higher(pair_)
        return -real[high], -real[low], field.ranks[high]

    return Pairing(tuple(sorted(pairs, key=board)), bye)


class _Groups:
    """The scoregroups of the players to pair (in index order), merged where they cannot
    be paired (6.6), and the pairing of each."""

    def __init__(self, field: Field, order: list[int]) -> None:
        self.field = field
        self.order = order
        self.states = field.states
        ends: list[int] = []
        for group in scoregroups(order, lambda p: self.states[p].score):
            ends.append(len(group) + (ends[-1] if ends else 0))
        self.runs = ends
        self.compatible = compatibility(self.states)
        """3.1 and the absolute colours (C.04.1 f-g)."""
        self._known: dict[tuple[int, int, frozenset[int] | None, bool],
                          frozenset[int] | None] = {}
        self.bounds = self._merge()

    def _merge(self) -> list[tuple[int, int, bool]]:
        """Group boundaries ``(start, end, linked)`` over positions in ``order``: a group
        takes the next scoregroup in while it cannot be paired (with one player floating
        to the next group when its end is odd); at the bottom, an unpairable last group is
        first linked to the one above (when they meet at an even boundary), then merged
        into it. ``linked``: the group above may float a player into it."""
        n = len(self.order)
        groups: list[tuple[int, int, bool]] = []
        start = 0
        valid = True
        while start < n:
            end = self._next_run(start)
            groups.append((start, end, start % 2 == 1))
            valid = self._valid(groups)
            while end < n and not valid:
                end = self._next_run(end)
                groups[-1] = (start, end, start % 2 == 1)
                valid = self._valid(groups)
            start = end
        while len(groups) > 1 and not valid:
            last = groups.pop()
            if last[2]:
                above = groups.pop()
                groups.append((above[0], last[1], above[2]))
            else:
                groups.append((last[0], last[1], True))
            valid = self._valid(groups)
        if not valid:
            raise PairingError("the players cannot all be paired without meeting again or "
                               "breaking an absolute colour")
        return groups

    def _next_run(self, start: int) -> int:
        return next(r for r in self.runs if r > start)

    def _floaters(self, start: int, end: int, incoming: frozenset[int] | None,
                  outgoing: bool) -> frozenset[int] | None:
        """The players of ``order[start:end]`` who can float down while the rest pairs
        among themselves and with one of ``incoming`` (the possible floaters from the group
        above, ``None`` when none comes); ``None`` when the group cannot be paired. Without
        ``outgoing`` the group must pair completely (an empty set when it does). Kept: the
        merging asks again about every group above the one it grows."""
        key = (start, end, incoming, outgoing)
        if key not in self._known:
            self._known[key] = self._find_floaters(self.order[start:end], incoming, outgoing)
        return self._known[key]

    def _find_floaters(self, group: list[int], incoming: frozenset[int] | None,
                       outgoing: bool) -> frozenset[int] | None:
        extra = None if incoming is None else (
            lambda p: any(self.compatible(f, p) for f in incoming))
        if not outgoing:
            return frozenset() if pairable(group, self.compatible, extra) else None
        found = frozenset(group[v] for v in left_over(group, self.compatible, extra)
                          if v < len(group))
        return found or None

    def _valid(self, groups: list[tuple[int, int, bool]]) -> bool:
        """Whether every group pairs, each passing at most one floater down a linked
        boundary (and the last group, when its end is odd, one player to whoever comes
        next)."""
        incoming: frozenset[int] | None = None
        for k, (start, end, linked) in enumerate(groups):
            if linked and incoming is None:
                return False
            last = k == len(groups) - 1
            out = end % 2 == 1
            floaters = self._floaters(start, end, incoming if linked else None, out)
            if floaters is None:
                return False
            if last:
                return True
            incoming = floaters if out and groups[k + 1][2] else None
        return True

    def _partners(self) -> list[set[int] | None]:
        """For each group a floater comes into, the players of it who can be that
        floater's opponent with everything below still pairing; from the bottom up."""
        groups = self.bounds
        result: list[set[int] | None] = [None] * len(groups)
        for k in range(len(groups) - 1, -1, -1):
            start, end, linked = groups[k]
            if not linked:
                continue
            members = self.order[start:end]
            below = result[k + 1] if k + 1 < len(groups) else None
            extra = None if below is None else (  # one floats on: a vertex for his opponent
                lambda p, below=below: any(self.compatible(p, t) for t in below))
            result[k] = {members[v] for v in left_over(members, self.compatible, extra)
                         if v < len(members)}
        return result

    def pair(self, index: dict[int, Index]) -> list[tuple[int, int]]:
        """Each group from the top: its players (and the floater from above) in index
        order; the highest not yet paired takes the lowest opponent that still lets the
        whole group pair with as many due colours as possible (6.4, 6.5), or floats."""
        partners = self._partners()
        pairs: list[tuple[int, int]] = []
        floater: int | None = None
        for k, (start, end, _) in enumerate(self.bounds):
            members = self.order[start:end]
            below = partners[k + 1] if k + 1 < len(self.bounds) else None
            can_float = ({p for p in members if any(self.compatible(p, t) for t in below)}
                         if below is not None else set())
            group = members + ([floater] if floater is not None else [])
            group = _list_sort(group, lambda a, b: _above(index[a], index[b]))
            found, floater = self._pair_group(group, can_float, index)
            pairs.extend(found)
        return pairs

    def _pair_group(self, group: list[int], can_float: set[int], index: dict[int, Index]
                    ) -> tuple[list[tuple[int, int]], int | None]:
        """The group's players in order, each taking the lowest opponent that still lets
        the whole group pair as well as it can, or floating down: the weights, each
        outweighing any sum of those after it, are a pair at all, due colours met (6.5),
        then the player's opponent the lower the better (6.4).

        One matching of the group (and, when it is odd, a vertex for the floater's
        opponent below, weighed as a pair meeting due colours: every complete pairing
        floats exactly one player, so that weight changes no choice, and one like most
        pairs' keeps the group from becoming one blossom) is kept optimal from player to
        player: his edges get their priorities, and once he is paired the two leave it.
        A floater's priorities stay on his edges beside the next player's (as bbpPairings
        leaves them)."""
        n = len(group)
        unit = (n + 1) * (n + 1)
        pair = unit * unit
        edges: list[tuple[int, int, int]] = []
        compatible = self.compatible
        wants = [self.states[p].preference[0] for p in group]
        for i, a in enumerate(group):
            ca = wants[i]
            for j in range(i + 1, n):
                if compatible(a, group[j]):
                    cb = wants[j]
                    due = ca is None or cb is None or ca is not cb
                    edges.append((i, j, pair + (unit if due else 0)))
        if n % 2:
            edges += [(v, n, pair + unit) for v in range(n) if group[v] in can_float]
        choices: list[list[int]] = [[] for _ in range(n)]  # edges to lower players
        for k, (i, j, _) in enumerate(edges):
            if j < n:
                choices[i].append(k)
        matching = IncrementalMatching(n + 1, edges)
        done = [False] * n
        pairs: list[tuple[int, int]] = []
        floater = None
        for i in range(n):
            if done[i]:
                continue
            open_ = [k for k in choices[i] if not done[edges[k][1]]]
            matching.reweigh(i, {k: edges[k][2] + priority
                                 for priority, k in enumerate(open_, start=1)})
            m = matching.mates()[i]
            if m == n:
                floater = group[i]
                continue
            if m < 0:
                raise PairingError("a scoregroup cannot be paired")
            done[i] = done[m] = True
            matching.remove(i, m)
            pairs.append(self._colours(group[i], group[m], index))
        return pairs, floater

    def _colours(self, a: int, b: int, index: dict[int, Index]) -> tuple[int, int]:
        """White and Black for ``a`` (the higher in the group's order) against ``b``:
        C.04.1 h and 1.3 (due colours), the stronger need first, then alternation from the
        last round the two had different colours; with nothing to go on, the higher ranked
        of the two by pairing number takes the initial colour if that number is odd (from
        1), and with equal needs the higher by index gets his."""
        side = _neutral(self.states[a], self.states[b])
        if side is None:
            if self.states[a].preference[0] is None:
                ra, rb = self.field.ranks[a], self.field.ranks[b]
                initial = self.field.initial
                if ra < rb:
                    side = initial if ra % 2 == 0 else initial.opponent
                else:
                    side = initial.opponent if rb % 2 == 0 else initial
            elif _above(index[b], index[a]):
                want = self.states[b].preference[0]
                side = want.opponent if want is not None else None
            else:
                side = self.states[a].preference[0]
        return (a, b) if side is Side.WHITE else (b, a)


def _neutral(a: PlayerState, b: PlayerState) -> Side | None:
    """``a``'s colour from the two players' needs alone, ``None`` when they do not
    decide."""
    ca, ka = a.preference
    cb, kb = b.preference
    if ca is None or cb is None or ca is not cb:
        if ca is not None:
            return ca
        return cb.opponent if cb is not None else None
    da, db = abs(a.difference), abs(b.difference)
    if ka is Strength.ABSOLUTE and (da > db or kb is not Strength.ABSOLUTE):
        return ca
    if kb is Strength.ABSOLUTE and (db > da or ka is not Strength.ABSOLUTE):
        return cb.opponent
    if ka is Strength.STRONG and kb is not Strength.STRONG:
        return ca
    if kb is Strength.STRONG and ka is not Strength.STRONG:
        return cb.opponent
    for mine, theirs in zip(reversed(a.colours), reversed(b.colours), strict=False):
        if mine is not theirs:
            return theirs
    return None


def _list_sort(items: list[int], before: Callable[[int, int], bool]) -> list[int]:
    """A stable bottom-up merge sort by a pairwise test that need not be transitive (a
    floater compares with the group's players differently from how they compare among
    themselves), merging in the order bbpPairings's list sort does, so that the same
    order comes out."""
    def merge(into: list[int], other: list[int]) -> list[int]:
        out: list[int] = []
        i = j = 0
        while i < len(into) and j < len(other):
            if before(other[j], into[i]):
                out.append(other[j])
                j += 1
            else:
                out.append(into[i])
                i += 1
        return out + into[i:] + other[j:]

    bins: list[list[int]] = []
    for item in items:
        carry = [item]
        level = 0
        while level < len(bins) and bins[level]:
            carry = merge(bins[level], carry)
            bins[level] = []
            level += 1
        if level == len(bins):
            bins.append(carry)
        else:
            bins[level] = carry
    result: list[int] = []
    for held in bins:
        result = merge(held, result) if result else held
    return result


def field_of(cells: Mapping[int, Sequence[Cell]], round_no: int, scoring: Scoring,
             out: set[int], virtual: Mapping[int, Sequence[Fraction]] | None,
             initial: Side) -> Field:
    """The field for round ``round_no`` from every player's cells of the earlier rounds;
    ``out`` are not paired (absent or with a requested bye); ``virtual`` are acceleration
    points per round (``None``: the seeding rounds')."""
    before = round_no - 1
    padded = {p: tuple(cs[:before]) + (Cell(None, None, Code.NONE),) * (before - len(cs))
              for p, cs in cells.items()}
    if virtual is None:
        seeded = seeding_points(padded, round_no, out, scoring.win)
        virtual = {p: (Fraction(0),) * before + (v,) for p, v in seeded.items()}
    states = build_states(padded, round_no, scoring, virtual)
    starts = sorted(padded)
    valid = [p for p in starts if p not in out or any(_took_part(c) for c in padded[p])]
    now = {p: v[before] if before < len(v) else Fraction(0) for p, v in virtual.items()}
    return Field(states, padded, tuple(p for p in starts if p not in out),
                 {p: k for k, p in enumerate(valid)}, now, scoring, initial)
