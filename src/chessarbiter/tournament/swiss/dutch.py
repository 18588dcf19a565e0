"""The FIDE (Dutch) system, C.04.3: brackets paired from the top scoregroup down, each by
one maximum-weight matching whose weights encode the criteria in their order.

Per bracket (resident players plus the moved-down players, MDPs):
- edges join compatible players (C1 never met, C3 no two non-topscorers with the same
  absolute colour preference); MDPs meet residents only (B.2/3.2: S1 holds MDPs, S2
  residents);
- the fields, most important first: completion (C4, only when the bracket's floaters would
  leave the rest unpairable, and in the last bracket, where a bye vertex takes the PAB), the
  number of pairs (C6), the PSD (C7), the next bracket's pairs and PSD (C8), the PAB
  assignee's unplayed games (C9, only in the bracket whose one unpaired player is the PAB
  assignee), topscorers' colours (C10-C11), colour preferences (C12-C13), repeated floats
  (C14-C17) and their score differences (C18-C21: a repeated downfloater paired in a higher
  bracket floats less far, so the pairs keeping the higher scored ones count more; an
  upfloater's opponent's score), then the order in which the rules generate
  candidates (D.1-D.3): the MDP-pairing first, the remainder's exchanges and transpositions
  after it, so that among equally good pairings the first generated one wins (B.8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Pairing
from chessarbiter.tournament.swiss.brackets import colour_clash, met, pairable, scoregroups
from chessarbiter.tournament.swiss.colours import allocate
from chessarbiter.tournament.swiss.matching import max_weight_matching_sparse
from chessarbiter.tournament.swiss.state import Float, PlayerState, Strength
from chessarbiter.tournament.swiss.weights import lex_costs, pack


class PairingError(ValueError):
    """No pairing satisfies the absolute criteria (C.04.3 A.9: the arbiter decides)."""


@dataclass(frozen=True)
class Round:
    """The round being paired: who plays, and the tournament facts the criteria need."""

    states: dict[int, PlayerState]
    players: tuple[int, ...]
    final: bool
    topscore: Fraction
    """Topscorers have more real points than this (A.7); meaningful in the final round."""
    initial: Side
    rules: str = "2025"
    """``"2017"``: no PAB criteria C5 and C9 (2025 numbering), A.4.b floats."""
    first: bool = False
    """Round 1: E.5 counts the higher ranked player's place among those paired (the
    pairing numbers of the players present, as bbpPairings reads the rule); later rounds
    use the pairing number itself."""


def pair(rnd: Round) -> Pairing:
    """Pair the round: brackets from the top, then colours and board order."""
    states = rnd.states
    order = sorted(rnd.players, key=lambda p: (-states[p].score, p))
    groups = scoregroups(order, lambda p: states[p].score)
    solver = _Solver(rnd, len(order) % 2 == 1)
    pairs: list[tuple[int, int]] = []
    mdps: list[int] = []
    bye = None
    for index, group in enumerate(groups):
        lower = [p for g in groups[index + 1:] for p in g]
        nxt = groups[index + 1] if index + 1 < len(groups) else []
        found, mdps, bye = solver.bracket(mdps, group, nxt, lower)
        pairs.extend(found)
    if mdps:
        raise PairingError("no pairing complies with the absolute criteria")
    position = {p: i + 1 for i, p in enumerate(order)}
    boards = []
    for a, b in pairs:
        high, low = (a, b) if position[a] < position[b] else (b, a)
        number = position[high] if rnd.first else high
        side = allocate(states[high], states[low], number, rnd.initial)
        boards.append((high, low) if side is Side.WHITE else (low, high))
    boards.sort(key=lambda wb: _board_key(states, position, wb))
    return Pairing(tuple(boards), bye)


def _board_key(states: dict[int, PlayerState], position: dict[int, int],
               pair: tuple[int, int]) -> tuple[Fraction, Fraction, int]:
    """Board order (C.04.2): the higher score in the pair, the sum of scores, then the
    higher ranked player's place."""
    a, b = pair
    sa, sb = states[a].score, states[b].score
    return (-max(sa, sb), -(sa + sb), min(position[a], position[b]))


class _Solver:
    """Pairs one bracket at a time."""

    def __init__(self, rnd: Round, odd: bool) -> None:
        self.rnd = rnd
        self.states = rnd.states
        self.odd = odd
        self.unit = 1
        for p in rnd.players:
            self.unit = lcm(self.unit, rnd.states[p].score.denominator)

    def compatible(self, a: int, b: int) -> bool:
        """C1 and C3."""
        sa, sb = self.states[a], self.states[b]
        if met(sa, sb):
            return False
        if colour_clash(sa, sb):
            return self.topscorer(a) or self.topscorer(b)
        return True

    def topscorer(self, p: int) -> bool:
        return self.rnd.final and self.states[p].points > self.rnd.topscore

    def bracket(self, mdps: list[int], residents: list[int], nxt: list[int], lower: list[int]
                ) -> tuple[list[tuple[int, int]], list[int], int | None]:
        """Pair one bracket: its pairs, its downfloaters, and the PAB if it is the last."""
        last = not lower
        if not mdps:
            perfect = self.perfect(residents, last)
            if perfect is not None and (last or self.completes([], lower, lowest=True)):
                return perfect[0], [], perfect[1]
        full = len(lower) - len(nxt) <= _FULL_LIMIT
        while True:
            plan = _Plan(self, mdps, residents, nxt, lower if full else [], full, last)
            pairs, bye = plan.solve()
            if plan.bye and self.rnd.rules != "2017" and not plan.single_downfloater(pairs):
                plan = _Plan(self, mdps, residents, nxt, lower if full else [], full, last,
                             c9=False)
                pairs, bye = plan.solve()
            paired = {p for pair in pairs for p in pair}
            floaters = [p for p in mdps + residents if p not in paired and p != bye]
            if full or self.completes(floaters, lower):
                return pairs, floaters, bye
            full = True

    def perfect(self, residents: list[int], last: bool
                ) -> tuple[list[tuple[int, int]], int | None] | None:
        """The first candidate of a homogeneous bracket, S1[i] with S2[i] (B.3), when it is
        perfect (B.4: every criterion met, so no matching is needed); else ``None``. Only
        brackets leaving no downfloater qualify, or the last one when its odd player out is
        a fit PAB assignee (C2, C5, C9, C14, C16)."""
        half = len(residents) // 2
        pairs = list(zip(residents[:half], residents[half:2 * half], strict=True))
        for a, b in pairs:
            ca, _ = self.states[a].preference
            cb, _ = self.states[b].preference
            if not self.compatible(a, b) or (ca is not None and ca is cb):
                return None
            if self.rnd.final and (self.topscorer(a) or self.topscorer(b)):
                return None
        if len(residents) % 2 == 0:
            return pairs, None
        if not (last and self.odd):
            return None
        out = self.states[residents[-1]]
        if not out.bye_eligible or Float.DOWN in out.floats:
            return None
        fittest = min(self.states[p].unplayed for p in residents
                      if self.states[p].bye_eligible)
        if self.rnd.rules != "2017" and out.unplayed > fittest:
            return None
        return pairs, out.start

    def completes(self, floaters: list[int], lower: list[int], lowest: bool = False) -> bool:
        """C4: can the floaters and the lower players all be paired (one PAB aside)? With
        ``lowest`` (2025 rules), with the PAB on one of the lowest scored players who may
        have it: a bracket's first candidate is taken without a matching only then, since
        C5 (the PAB assignee's score) ranks above the bracket's own criteria (pairing it
        otherwise can free a lower player for the PAB)."""
        players = floaters + lower
        if not self.odd:
            return pairable(players, self.compatible)
        fit = {p for p in players if self.states[p].bye_eligible}
        if lowest and fit and self.rnd.rules != "2017":
            low = min(self.states[p].score for p in fit)
            fit = {p for p in fit if self.states[p].score == low}
        return pairable(players, self.compatible, fit.__contains__)


class _Plan:
    """The matching graph of one bracket (see the module docstring): vertices are the
    bracket (MDPs, then residents), the next scoregroup, then (when ``full``) the players
    below it, and a bye vertex when the round is odd and the graph reaches the bottom."""

    def __init__(self, solver: _Solver, mdps: list[int], residents: list[int],
                 nxt: list[int], lower: list[int], full: bool, last: bool,
                 c9: bool = True) -> None:
        self.solver = solver
        self.c9 = c9 and solver.rnd.rules != "2017"
        self.bye_mate: int | None = None
        """The bracket player the last matching gave the bye vertex, if any."""
        states = solver.states
        self.mdps = mdps
        self.residents = residents
        self.nxt = nxt
        self.full = full
        self.last = last
        self.bye = full and solver.odd
        self.vertices = mdps + residents + nxt + [p for p in lower if p not in nxt]
        self.size = len(mdps) + len(residents)
        self.is_mdp = set(mdps)
        self.edges = self._quality_edges(states)
        self.quality, _ = pack([f for _, _, f in self.edges], len(self.vertices) + 1)

    def _quality_edges(self, states: dict[int, PlayerState]
                       ) -> list[tuple[int, int, list[int]]]:
        """Every allowed edge with its criteria fields (bye edges go to vertex ``n``)."""
        verts, size, nn = self.vertices, self.size, len(self.nxt)
        n = len(verts)
        unit = self.solver.unit
        sc = [int(states[p].score * unit) for p in verts]
        base = min(sc[len(self.mdps):size]) - unit
        fl = [x - base for x in sc[:size]]
        psd = lex_costs(fl + [abs(x - y) for x in sc[:size] for y in sc[:size]], size + 1)
        top = max(psd.values())
        npsd: dict[int, int] = {}
        nfl: list[int] = []
        if nn:
            nbase = sc[size] - unit
            nfl = [x - nbase for x in sc[:size + nn]]
            npsd = lex_costs(nfl + [x - nbase - unit for x in sc[:size]] + [0], size + nn + 1)
        low_score = {x: k for k, x in enumerate(sorted(set(sc), reverse=True))}
        kept = lex_costs(sc[:size], size + 1)
        """C18/C20: the weight of a repeated downfloater paired in the bracket, by score:
        every such player kept from floating on lowers the score difference of the float
        (an MDP paired here floats less far), the higher scores first."""
        compatible = self.solver.compatible
        edges: list[tuple[int, int, list[int]]] = []
        full = 1 if self.full else 0
        for i in range(n):
            a = verts[i]
            a_mdp = i < len(self.mdps)
            for j in range(i + 1, n):
                b = verts[j]
                if not compatible(a, b):
                    continue
                f = [0] * _COUNT
                f[_C4] = full
                if j < size:
                    if a_mdp and j < len(self.mdps):
                        continue
                    f[_C6] = 1
                    f[_C7] = psd[fl[i]] + psd[fl[j]] - psd[abs(sc[i] - sc[j])]
                    if nn:
                        f[_C8N] = npsd[nfl[i]] + npsd[nfl[j]]
                    self._quality(a, b, a_mdp, psd[abs(sc[i] - sc[j])], top, f)
                    for field, k in ((_C18, 0), (_C20, 1)):
                        f[field] = (kept[sc[i]] * (states[a].floats[k] is Float.DOWN)
                                    + kept[sc[j]] * (states[b].floats[k] is Float.DOWN))
                elif j < size + nn:  # a pair of the next bracket (C8)
                    f[_C8] = 1
                    f[_C8N] = npsd[nfl[i]] + npsd[nfl[j]] - npsd[abs(sc[i] - sc[j])]
                elif not full:
                    continue
                edges.append((i, j, f))
        if self.bye:
            for i, p in enumerate(verts):
                if states[p].bye_eligible:
                    f = [0] * _COUNT
                    f[_C4] = 1
                    if self.solver.rnd.rules != "2017":
                        f[_C5] = low_score[sc[i]]
                    if self.c9 and i < size:
                        f[_C9] = _MAX_UNPLAYED - min(states[p].unplayed, _MAX_UNPLAYED)
                    edges.append((i, n, f))
        return edges

    def _quality(self, a: int, b: int, a_mdp: bool, sd_cost: int, top: int,
                 f: list[int]) -> None:
        """C10-C21 for a pair of the bracket (``a`` ranked above ``b``)."""
        sa, sb = self.solver.states[a], self.solver.states[b]
        ca, ka = sa.preference
        cb, kb = sb.preference
        conflict = ca is not None and ca is cb
        f[_C10] = f[_C11] = 2
        if self.solver.rnd.final and (self.solver.topscorer(a) or self.solver.topscorer(b)):
            side = allocate(sa, sb, 1, Side.WHITE)
            bad_cd = bad_run = 0
            for st, col in ((sa, side), (sb, side.opponent)):
                cd = st.difference + (1 if col is Side.WHITE else -1)
                bad_cd += cd > 2 or cd < -2
                bad_run += len(st.colours) >= 2 and st.colours[-1] is col and st.colours[-2] is col
            f[_C10] -= bad_cd
            f[_C11] -= bad_run
        f[_C12] = 0 if conflict else 1
        f[_C13] = 0 if conflict and min(ka.value, kb.value) >= Strength.STRONG.value else 1
        if not a_mdp:
            f[_C14] = (sa.floats[0] is Float.DOWN) + (sb.floats[0] is Float.DOWN)
            f[_C16] = (sa.floats[1] is Float.DOWN) + (sb.floats[1] is Float.DOWN)
            f[_C15] = f[_C17] = 1
            f[_C19] = f[_C21] = top
            return
        f[_C14] = sb.floats[0] is Float.DOWN
        f[_C16] = sb.floats[1] is Float.DOWN
        for k, (count_field, sd_field) in enumerate(((_C15, _C19), (_C17, _C21))):
            upfloated = sb.floats[k] is Float.UP
            f[count_field] = 0 if upfloated else 1
            f[sd_field] = top - (sd_cost if upfloated else 0)

    def single_downfloater(self, pairs: list[tuple[int, int]]) -> bool:
        """Whether the PAB assignee is the bracket's only player not paired in it: the
        case C9 is written for (C.04.3 2025 C9, as bbpPairings reads it). C9 compares the
        candidates for the bye within the bracket that gives it; a bracket that also
        floats another player down, or whose bye goes to a player below it, has no say in
        who gets it, so C9 is left out of its weights (it would otherwise pick the
        downfloaters by the unplayed games of a bye assignee further down)."""
        return self.bye_mate is not None and 2 * len(pairs) + 1 == self.size

    def solve(self) -> tuple[list[tuple[int, int]], int | None]:
        if not self.mdps:
            guess = len(self.residents) // 2
            pairs, bye = self.run(set(), self.residents, guess)
            if len(pairs) == guess:
                return pairs, bye
            return self.run(set(), self.residents, len(pairs))
        pairs, bye = self.run(set(), None, None)
        fixed = [pr for pr in pairs if pr[0] in self.is_mdp or pr[1] in self.is_mdp]
        if len(fixed) == len(pairs):
            return pairs, bye
        taken = {p for pr in fixed for p in pr}
        remainder = [p for p in self.residents if p not in taken]
        more, bye = self.run(taken, remainder, len(pairs) - len(fixed))
        return fixed + more, bye

    def run(self, taken: set[int], remainder: list[int] | None, count: int | None
            ) -> tuple[list[tuple[int, int]], int | None]:
        """One matching; with ``remainder`` the MDP pairs are made (their players
        ``taken``) and the remainder is ordered as a homogeneous bracket of ``count`` pairs
        (D.1-D.2); without it the MDP-pairing is ordered (D.1, D.3)."""
        verts = self.vertices
        n = len(verts)
        order = self._order_fields(remainder, count)
        size = self.size
        nm = len(self.mdps)
        kept = []
        for k, (i, j, _) in enumerate(self.edges):
            if verts[i] in taken or (j < n and verts[j] in taken):
                continue
            if remainder is not None and i < nm and j < size:
                continue  # the limbo's MDPs are no longer paired in the bracket
            kept.append(k)
        ordering, bits = pack([order(*self.edges[k][:2]) for k in kept], n + 1)
        edges = [(self.edges[k][0], self.edges[k][1], (self.quality[k] << bits) | extra)
                 for k, extra in zip(kept, ordering, strict=True)]
        place = {i: k for k, i in enumerate(
            i for i in range(len(self.mdps), size) if verts[i] not in taken)}
        half = count if count is not None else len(place) // 2
        seed = [e for e, (i, j, _) in enumerate(edges) if self._near(i, j, place, half)]
        mate = max_weight_matching_sparse(n + (1 if self.bye else 0), edges, seed)
        pairs = []
        bye = None
        self.bye_mate = None
        for i in range(size):
            m = mate[i]
            if verts[i] in taken:
                continue
            if m == n:
                self.bye_mate = verts[i]
                bye = verts[i] if self.last else None
            elif i < m < size:
                pairs.append((verts[i], verts[m]))
        if self.full and any(m < 0 for i, m in enumerate(mate[:n]) if verts[i] not in taken):
            raise PairingError("no pairing complies with the absolute criteria")
        return pairs, bye

    def _near(self, i: int, j: int, place: dict[int, int], half: int) -> bool:
        """Whether edge i-j (``i < j``) is among those first tried (the sparse start of
        the matching: pairs near the S1-S2 diagonal of the residents still to pair, whose
        ``place`` among them is given, S1 holding ``half``; neighbours, MDPs, the bye, the
        players below the next scoregroup); the others join when the duals ask for them."""
        size, nm, nn = self.size, len(self.mdps), len(self.nxt)
        if i < nm or j >= size + nn:
            return True
        d = j - i
        if d <= _NEAR:
            return True
        if j < size:
            x, y = place.get(i, -1), place.get(j, -1)
            band = max(_NEAR, len(place) // 16)  # exchanges shift the diagonal
            return y - x <= _NEAR or abs(y - x - half) <= band
        if i >= size:
            return abs(d - nn // 2) <= _NEAR
        return i >= size - 2 * _NEAR or j - size < 2 * _NEAR

    def _order_fields(self, remainder: list[int] | None, count: int | None
                      ) -> Callable[[int, int], list[int]]:
        """The candidate order (D.1-D.3) as fields after the criteria, by vertex numbers."""
        size = self.size
        nm = len(self.mdps)
        if remainder is None:
            if not self.mdps:
                return lambda i, j: [0, 0]
            nr = len(self.residents)
            bits = (nr + 1).bit_length()

            def mdp_order(i: int, j: int) -> list[int]:
                if j >= size or i >= nm:
                    return [0, 0]
                return [1 << (nm - i), (nr - (j - nm)) << (bits * (nm - i))]
            return mdp_order
        rank = {self.vertices.index(p): k for k, p in enumerate(remainder)}
        total = len(remainder)
        s1 = count or 0
        bits = (total + 1).bit_length()

        def resident_order(i: int, j: int) -> list[int]:
            x = rank.get(i)
            y = rank.get(j)
            if x is None or y is None:
                return [0] * 5
            in_s1 = x < s1
            return [1 if in_s1 else 0, total - x,
                    (1 << s1) - ((1 << x) if in_s1 else 0),
                    0 if in_s1 else 1 << (total - 1 - x),
                    (total - y) << (bits * (total - 1 - x))]
        return resident_order


(_C4, _C5, _C6, _C7, _C8, _C8N, _C9, _C10, _C11, _C12, _C13, _C14, _C15, _C16, _C17, _C18,
 _C19, _C20, _C21) = range(19)
_COUNT = 19
"""The criteria fields, most significant first (C8N: the next bracket's PSD)."""
_FULL_LIMIT = 40
_NEAR = 6
"""Brackets with at most this many players below the next scoregroup are paired with all
of them in the graph (exact C4 and C8); higher ones only with the next scoregroup, and
with all below when the floaters would leave the rest unpairable."""
_MAX_UNPLAYED = 1000

