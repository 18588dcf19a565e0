"""The FIDE (Dutch) system, C.04.3: brackets paired from the top scoregroup down, each by
one maximum-weight matching whose weights encode the criteria in their order.

Per bracket (resident players plus the moved-down players, MDPs):
- edges join compatible players (C1 never met, C3 no two non-topscorers with the same
  absolute colour preference); MDPs meet residents only (B.2/3.2: S1 holds MDPs, S2
  residents);
- the fields, most important first: completion (C4, only when the bracket's floaters would
  leave the rest unpairable, and in the last bracket, where a bye vertex takes the PAB), the
  number of pairs (C6), the PSD (C7), the next bracket's pairs and PSD (C8), the PAB
  assignee's unplayed games (C9), topscorers' colours (C10-C11), colour preferences
  (C12-C13), repeated floats (C14-C17, C19, C21), then the order in which the rules generate
  candidates (D.1-D.3): the MDP-pairing first, the remainder's exchanges and transpositions
  after it, so that among equally good pairings the first generated one wins (B.8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Pairing
from chessarbiter.tournament.swiss.colours import allocate
from chessarbiter.tournament.swiss.matching import (
    max_weight_matching,
    max_weight_matching_sparse,
)
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


def pair(rnd: Round) -> Pairing:
    """Pair the round: brackets from the top, then colours and board order."""
    states = rnd.states
    order = sorted(rnd.players, key=lambda p: (-states[p].score, p))
    groups: list[list[int]] = []
    for p in order:
        if groups and states[groups[-1][0]].score == states[p].score:
            groups[-1].append(p)
        else:
            groups.append([p])
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
        side = allocate(states[high], states[low], position[high], rnd.initial)
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

    def compatible(self, a: int, b: int) -> bool:
        """C1 and C3."""
        sa, sb = self.states[a], self.states[b]
        if b in sa.opponents:
            return False
        ca, ka = sa.preference
        cb, kb = sb.preference
        if ka is Strength.ABSOLUTE and kb is Strength.ABSOLUTE and ca is cb:
            return self.topscorer(a) or self.topscorer(b)
        return True

    def topscorer(self, p: int) -> bool:
        return self.rnd.final and self.states[p].points > self.rnd.topscore

    def bracket(self, mdps: list[int], residents: list[int], nxt: list[int], lower: list[int]
                ) -> tuple[list[tuple[int, int]], list[int], int | None]:
        """Pair one bracket: its pairs, its downfloaters, and the PAB if it is the last."""
        last = not lower
        full = len(lower) - len(nxt) <= _FULL_LIMIT
        while True:
            plan = _Plan(self, mdps, residents, nxt, lower if full else [], full, last)
            pairs, bye = plan.solve()
            paired = {p for pair in pairs for p in pair}
            floaters = [p for p in mdps + residents if p not in paired and p != bye]
            if full or self.completes(floaters, lower):
                return pairs, floaters, bye
            full = True

    def completes(self, floaters: list[int], lower: list[int]) -> bool:
        """C4: can the floaters and the lower players all be paired (one PAB aside)?"""
        players = floaters + lower
        n = len(players)
        edges = [(i, j, 1) for i in range(n) for j in range(i + 1, n)
                 if self.compatible(players[i], players[j])]
        if self.odd:
            edges += [(i, n, 1) for i in range(n) if self.states[players[i]].bye_eligible]
            n += 1
        if _greedy_perfect(n, edges):
            return True
        mate = max_weight_matching(n, edges)
        return all(m >= 0 for m in mate)


def _greedy_perfect(n: int, edges: list[tuple[int, int, int]]) -> bool:
    """A quick sufficient test: greedy matching in order is perfect."""
    free = [True] * n
    for u, v, _ in edges:
        if free[u] and free[v]:
            free[u] = free[v] = False
    return not any(free)


class _Plan:
    """The matching graph of one bracket (see the module docstring)."""

    def __init__(self, solver: _Solver, mdps: list[int], residents: list[int],
                 nxt: list[int], lower: list[int], full: bool, last: bool) -> None:
        self.solver = solver
        self.states = solver.states
        self.mdps = mdps
        self.residents = residents
        self.bracket = mdps + residents
        self.nxt = nxt
        self.lower = [p for p in lower if p not in nxt]
        self.full = full
        self.last = last
        self.bye = full and solver.odd
        self.vertices = self.bracket + nxt + self.lower
        self.index = {p: i for i, p in enumerate(self.vertices)}
        self.size = len(self.bracket)
        scores = [self.states[p].score for p in self.bracket]
        base = min(self.states[p].score for p in residents) - 1
        self.fl = {p: self.states[p].score - base for p in self.bracket}
        sds = list(self.fl.values()) + [abs(a - b) for a in scores for b in scores]
        self.psd = lex_costs(sds, self.size + 1)
        self.psd_top = max(self.psd.values())
        if nxt:
            nbase = self.states[nxt[0]].score - 1
            self.nfl = {p: self.states[p].score - nbase for p in self.bracket + nxt}
            nsds = list(self.nfl.values()) + [self.states[p].score - nbase - 1
                                               for p in self.bracket] + [Fraction(0)]
            self.npsd = lex_costs(nsds, len(self.bracket) + len(nxt) + 1)
        self.is_mdp = set(mdps)
        scores_below = sorted({self.states[p].score for p in self.vertices}, reverse=True)
        self.low_score = {score: k for k, score in enumerate(scores_below)}

    def solve(self) -> tuple[list[tuple[int, int]], int | None]:
        if not self.mdps:
            guess = len(self.residents) // 2
            pairs, bye = self.run([], self.residents, guess)
            if len(pairs) == guess:
                return pairs, bye
            return self.run([], self.residents, len(pairs))
        pairs, bye = self.run([], None, None)
        fixed = [pr for pr in pairs if pr[0] in self.is_mdp or pr[1] in self.is_mdp]
        if len(fixed) == len(pairs):
            return pairs, bye
        remainder = [p for p in self.residents if not any(p in pr for pr in fixed)]
        count = len(pairs) - len(fixed)
        pairs, bye = self.run(fixed, remainder, count)
        return pairs, bye

    def run(self, fixed: list[tuple[int, int]], remainder: list[int] | None,
            count: int | None) -> tuple[list[tuple[int, int]], int | None]:
        """One matching; with ``remainder`` the MDP pairs are ``fixed`` and the remainder
        is ordered as a homogeneous bracket of ``count`` pairs (D.1-D.2); without it the
        MDP-pairing is ordered (D.1, D.3)."""
        taken = {p for pr in fixed for p in pr}
        edges: list[tuple[int, int, list[int]]] = []
        verts = self.vertices
        n = len(verts)
        order = self._order_fields(remainder, count)
        for i in range(n):
            a = verts[i]
            if a in taken:
                continue
            for j in range(i + 1, n):
                b = verts[j]
                if b in taken or not self.solver.compatible(a, b):
                    continue
                fields = self._fields(a, b, i, j, remainder is not None)
                if fields is None:
                    continue
                edges.append((i, j, fields + order(a, b, i, j)))
        if self.bye:
            width = _COUNT + len(order(-1, -1, n, n))
            for i in range(n):
                p = verts[i]
                if p in taken or not self.states[p].bye_eligible:
                    continue
                fields = [0] * width
                fields[_C4] = 1
                fields[_C5] = self.low_score[self.states[p].score]
                fields[_C9] = _MAX_UNPLAYED - min(self.states[p].unplayed, _MAX_UNPLAYED)
                edges.append((i, n, fields))
        seed = [k for k, (i, j, _) in enumerate(edges) if self._near(i, j)]
        mate = max_weight_matching_sparse(n + (1 if self.bye else 0), pack(edges, n + 1), seed)
        pairs = list(fixed)
        bye = None
        for i in range(self.size):
            m = mate[i]
            a = verts[i]
            if a in taken:
                continue
            if m == n:
                bye = a if self.last else None
            elif i < m < self.size:
                pairs.append((a, verts[m]))
        if self.full and any(m < 0 for i, m in enumerate(mate[:n]) if verts[i] not in taken):
            raise PairingError("no pairing complies with the absolute criteria")
        return pairs, bye

    def _near(self, i: int, j: int) -> bool:
        """Whether edge i-j (``i < j``) is among those first tried (the sparse start of
        the matching: pairs near the S1-S2 diagonal, neighbours, MDPs, the bye, the
        players below the next scoregroup); the others join when the duals ask for them."""
        size, nm, nn = self.size, len(self.mdps), len(self.nxt)
        if i < nm or j >= size + nn:
            return True
        d = j - i
        if d <= _NEAR:
            return True
        if j < size:
            return abs(d - (size - nm) // 2) <= _NEAR
        if i >= size:
            return abs(d - nn // 2) <= _NEAR
        return i >= size - 2 * _NEAR or j - size < 2 * _NEAR

    def _fields(self, a: int, b: int, i: int, j: int, remainder: bool) -> list[int] | None:
        """The criteria fields of edge a-b (``i < j`` their vertex numbers)."""
        f = [0] * _COUNT
        f[0] = 1 if self.full else 0
        size = self.size
        in_a, in_b = i < size, j < size
        if in_a and in_b:
            if a in self.is_mdp and b in self.is_mdp:
                return None
            if remainder and (a in self.is_mdp or b in self.is_mdp):
                return None
            f[_C6] = 1
            sa, sb = self.states[a], self.states[b]
            f[_C7] = self.psd[self.fl[a]] + self.psd[self.fl[b]] - self.psd[abs(sa.score - sb.score)]
            if self.nxt:
                f[_C8N] = self.npsd[self.nfl[a]] + self.npsd[self.nfl[b]]
            self._quality(a, b, f)
            return f
        if j < size + len(self.nxt):  # a pair of the next bracket (C8)
            f[_C8] = 1
            sd = abs(self.states[a].score - self.states[b].score)
            f[_C8N] = self.npsd[self.nfl[a]] + self.npsd[self.nfl[b]] - self.npsd[sd]
            return f
        return f if self.full else None

    def _quality(self, a: int, b: int, f: list[int]) -> None:
        """C10-C21 for a pair of the bracket."""
        sa, sb = self.states[a], self.states[b]
        ca, ka = sa.preference
        cb, kb = sb.preference
        conflict = ca is not None and ca is cb
        if self.solver.rnd.final and (self.solver.topscorer(a) or self.solver.topscorer(b)):
            high, low = (sa, sb) if (-sa.score, a) < (-sb.score, b) else (sb, sa)
            side = allocate(high, low, 1, Side.WHITE)
            bad_cd = bad_run = 0
            for st, col in ((high, side), (low, side.opponent)):
                cd = st.difference + (1 if col is Side.WHITE else -1)
                bad_cd += cd > 2 or cd < -2
                bad_run += len(st.colours) >= 2 and st.colours[-1] is col and st.colours[-2] is col
            f[_C10] = 2 - bad_cd
            f[_C11] = 2 - bad_run
        else:
            f[_C10] = f[_C11] = 2
        f[_C12] = 0 if conflict else 1
        strong = conflict and min(ka.value, kb.value) >= Strength.STRONG.value
        f[_C13] = 0 if strong else 1
        for resident_floats, fld in ((0, _C14), (1, _C16)):
            f[fld] = sum(1 for p, st in ((a, sa), (b, sb))
                         if p not in self.is_mdp and st.floats[resident_floats] is Float.DOWN)
        mdp_pair = (a in self.is_mdp) != (b in self.is_mdp)
        resident = sb if a in self.is_mdp else sa
        diff = abs(sa.score - sb.score)
        for k, (count_field, sd_field) in enumerate(((_C15, _C19), (_C17, _C21))):
            upfloated = mdp_pair and resident.floats[k] is Float.UP
            f[count_field] = 0 if upfloated else 1
            f[sd_field] = self.psd_top - (self.psd[diff] if upfloated else 0)

    def _order_fields(self, remainder: list[int] | None, count: int | None
                      ) -> Callable[[int, int, int, int], list[int]]:
        """The candidate order (D.1-D.3) as fields after the criteria."""
        if remainder is None:
            if not self.mdps:
                return lambda a, b, i, j: [0, 0]
            mdp_rank = {p: k for k, p in enumerate(self.mdps)}
            res_rank = {p: k for k, p in enumerate(self.residents)}
            nm, nr = len(self.mdps), len(self.residents)
            bits = (nr + 1).bit_length()

            def mdp_order(a: int, b: int, i: int, j: int) -> list[int]:
                if j >= self.size or (a in mdp_rank) == (b in mdp_rank):
                    return [0, 0]
                m, r = (a, b) if a in mdp_rank else (b, a)
                return [1 << (nm - mdp_rank[m]),
                        (nr - res_rank[r]) << (bits * (nm - mdp_rank[m]))]
            return mdp_order
        rank = {p: k for k, p in enumerate(remainder)}
        size = len(remainder)
        s1 = count or 0
        bits = (size + 1).bit_length()

        def resident_order(a: int, b: int, i: int, j: int) -> list[int]:
            if a not in rank or b not in rank:
                return [0] * 6
            x, y = sorted((rank[a], rank[b]))
            in_s1 = x < s1
            return [1 if in_s1 else 0, size - x,
                    (1 << s1) - ((1 << x) if in_s1 else 0),
                    0 if in_s1 else 1 << (size - 1 - x),
                    (size - y) << (bits * (size - 1 - x)), 0]
        return resident_order


(_C4, _C5, _C6, _C7, _C8, _C8N, _C9, _C10, _C11, _C12, _C13, _C14, _C15, _C16, _C17, _C19,
 _C21) = range(17)
_COUNT = 17
_FULL_LIMIT = 40
_NEAR = 6
"""Brackets with at most this many players below the next scoregroup are paired with all
of them in the graph (exact C4 and C8); higher ones only with the next scoregroup, and
with all below when the floaters would leave the rest unpairable."""
_MAX_UNPLAYED = 1000

