"""Maximum-weight matching on a general graph: Edmonds' blossom algorithm with dual
variables (the primal-dual method, O(n^3)), exact on Python integers of any size.

The Dutch system's criteria are encoded lexicographically in one integer weight per edge
(see ``swiss.weights``), so the arithmetic must be exact: vertex duals start at the largest
weight and every dual change is an integer, because slacks between two outer vertices are
even (their duals share a parity). ``IncrementalMatching`` (the Burstein system) keeps one
matching optimal while one vertex's edges change after another; there free vertices may
start with duals of unlike parity, and weights and duals are doubled when that shows.
"""

from __future__ import annotations

from collections.abc import Sequence

Edge = tuple[int, int, int]
"""An edge ``(u, v, weight)`` between vertices numbered from 0."""


def max_weight_matching(n: int, edges: Sequence[Edge]) -> list[int]:
    """The mate of each of the ``n`` vertices (-1 when unmatched) in a matching of maximum
    total weight. Callers wanting maximum cardinality first add a large constant to every
    weight."""
    return _Matcher(n, edges).solve()


class _Matcher:
    """One run of the algorithm; vertices 0..n-1, blossoms n..2n-1."""

    def __init__(self, n: int, edges: Sequence[Edge]) -> None:
        self.n = n
        self.edges = [(u, v, 2 * w) for u, v, w in edges]
        self.w2 = [2 * w for _, _, w in edges]
        # endpoint p of edge k: p = 2k (u) or 2k + 1 (v)
        self.endpoint = [x for u, v, _ in edges for x in (u, v)]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (u, v, _) in enumerate(edges):
            self.neighbend[u].append(2 * k + 1)
            self.neighbend[v].append(2 * k)
        top = max((w for _, _, w in self.edges), default=0)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.endps: list[list[int]] = [[] for _ in range(2 * n)]
        self.bestedge = [-1] * (2 * n)
        self.bestedges: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(n, 2 * n))
        self.dual = [top // 2] * n + [0] * n
        self.allowed = [False] * len(edges)
        self.queue: list[int] = []
        self.scale = 2
        """Duals and ``w2`` are weights times this (doubled again when warm needs it)."""
        self.warm = False
        """Started from an earlier optimum (:class:`IncrementalMatching`): free vertices
        may hold different duals, and only those above zero start trees."""

    def slack(self, k: int) -> int:
        endpoint = self.endpoint
        return self.dual[endpoint[2 * k]] + self.dual[endpoint[2 * k + 1]] - self.w2[k]

    def blossom_duals(self) -> list[dict[int, int]]:
        """For each vertex, the blossoms containing it mapped to the sum of their duals
        from the outermost down to that blossom (for reduced costs after the solve)."""
        out: list[dict[int, int]] = []
        for v in range(self.n):
            chain = []
            b = self.parent[v]
            while b != -1:
                chain.append(b)
                b = self.parent[b]
            total = 0
            sums = {}
            for b in reversed(chain):
                total += self.dual[b]
                sums[b] = total
            out.append(sums)
        return out

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < self.n:
                out.append(t)
            else:
                stack.extend(self.childs[t])
        return out

    def assign_label(self, w: int, t: int, p: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign_label(self.endpoint[self.mate[base]], 1, self.mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        path = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        v, w, _ = self.edges[k]
        bb = self.inblossom[base]
        bv = self.inblossom[v]
        bw = self.inblossom[w]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = -1
        self.parent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = self.inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = self.inblossom[w]
        self.childs[b] = path
        self.endps[b] = endps
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dual[b] = 0
        for v in self.leaves(b):
            if self.label[self.inblossom[v]] == 2:
                self.queue.append(v)
            self.inblossom[v] = b
        bestedgeto = [-1] * (2 * self.n)
        for bv in path:
            lists = self.bestedges[bv]
            if lists is None:
                lists = [p // 2 for leaf in self.leaves(bv) for p in self.neighbend[leaf]]
            for kk in lists:
                i, j, _ = self.edges[kk]
                if self.inblossom[j] == b:
                    i, j = j, i
                bj = self.inblossom[j]
                if (bj != b and self.label[bj] == 1
                        and (bestedgeto[bj] == -1 or self.slack(kk) < self.slack(bestedgeto[bj]))):
                    bestedgeto[bj] = kk
            self.bestedges[bv] = None
            self.bestedge[bv] = -1
        self.bestedges[b] = [kk for kk in bestedgeto if kk != -1]
        self.bestedge[b] = -1
        for kk in self.bestedges[b] or ():
            if self.bestedge[b] == -1 or self.slack(kk) < self.slack(self.bestedge[b]):
                self.bestedge[b] = kk

    def expand_blossom(self, b: int, endstage: bool) -> None:
        for s in self.childs[b]:
            self.parent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dual[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for v in self.leaves(s):
                    self.inblossom[v] = s
        if not endstage and self.label[b] == 2:
            entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            childs = self.childs[b]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[self.endps[b][j - endptrick] ^ endptrick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], 2, p)
                self.allowed[self.endps[b][j - endptrick] // 2] = True
                j += jstep
                p = self.endps[b][j - endptrick] ^ endptrick
                self.allowed[p // 2] = True
                j += jstep
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if self.label[bv] == 1:
                    j += jstep
                    continue
                for v in self.leaves(bv):
                    if self.label[v] != 0:
                        break
                else:
                    j += jstep
                    continue
                if self.label[v] == 2:
                    self.label[v] = 0
                    self.label[self.endpoint[self.mate[self.base[bv]]]] = 0
                    self.assign_label(v, 2, self.labelend[v])
                j += jstep
        self.label[b] = self.labelend[b] = -1
        self.childs[b] = []
        self.endps[b] = []
        self.base[b] = -1
        self.bestedges[b] = None
        self.bestedge[b] = -1
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs = self.childs[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = self.endps[b][j - endptrick] ^ endptrick
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p])
            j += jstep
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.childs[b] = childs[i:] + childs[:i]
        self.endps[b] = self.endps[b][i:] + self.endps[b][:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment_matching(self, k: int) -> None:
        v, w, _ = self.edges[k]
        self.flip_to_root(v, 2 * k + 1)
        self.flip_to_root(w, 2 * k)

    def flip_to_root(self, s: int, p: int) -> None:
        """Swap the matched and unmatched edges on the tree path from the outer vertex
        ``s`` to its root, ``s`` taking the endpoint ``p`` as its mate (-1: free)."""
        while True:
            bs = self.inblossom[s]
            if bs >= self.n:
                self.augment_blossom(bs, s)
            self.mate[s] = p
            if self.labelend[bs] == -1:
                break
            t = self.endpoint[self.labelend[bs]]
            bt = self.inblossom[t]
            s = self.endpoint[self.labelend[bt]]
            j = self.endpoint[self.labelend[bt] ^ 1]
            if bt >= self.n:
                self.augment_blossom(bt, j)
            self.mate[j] = self.labelend[bt]
            p = self.labelend[bt] ^ 1

    def solve(self) -> list[int]:
        n = self.n
        if not self.edges:
            return [-1] * n
        for _ in range(n + 1):  # each stage leaves fewer free vertices with a dual above 0
            self.label = [0] * (2 * n)
            self.bestedge = [-1] * (2 * n)
            for b in range(n, 2 * n):
                self.bestedges[b] = None
            self.allowed = [False] * len(self.edges)
            self.queue = []
            roots = [v for v in range(n) if self.mate[v] == -1
                     and (self.dual[v] > 0 or not self.warm)]
            if self.warm:  # the highest dual (a changed vertex's) searched first
                roots.sort(key=self.dual.__getitem__)
            for v in roots:
                if self.label[self.inblossom[v]] == 0:
                    self.assign_label(v, 1, -1)
            if not self.queue and self.warm:
                break
            augmented = False
            deferred: list[int] = []
            while True:
                endpoint, inblossom, allowed, dual, w2 = (
                    self.endpoint, self.inblossom, self.allowed, self.dual, self.w2)
                label, bestedge, queue = self.label, self.bestedge, self.queue
                slack = self.slack
                while queue and not augmented:
                    v = queue.pop()
                    dv = dual[v]
                    for p in self.neighbend[v]:
                        k = p >> 1
                        w = endpoint[p]
                        if inblossom[v] == inblossom[w]:
                            continue
                        kslack = 0
                        if not allowed[k]:
                            kslack = dv + dual[w] - w2[k]
                            if kslack <= 0:
                                allowed[k] = True
                        if allowed[k]:
                            if label[inblossom[w]] == 0:
                                if self.mate[self.base[self.inblossom[w]]] == -1:
                                    # (warm only) a free vertex whose dual is spent
                                    self.assign_label(w, 1, -1)
                                    self.augment_matching(k)
                                    augmented = True
                                    break
                                self.assign_label(w, 2, p ^ 1)
                            elif label[inblossom[w]] == 1:
                                base = self.scan_blossom(v, w)
                                if base >= 0 and self.warm:
                                    deferred.append(k)  # a path out may come first
                                elif base >= 0:
                                    self.add_blossom(base, k)
                                else:
                                    self.augment_matching(k)
                                    augmented = True
                                    break
                            elif label[w] == 0:
                                label[w] = 2
                                self.labelend[w] = p ^ 1
                        elif label[inblossom[w]] == 1:
                            b = inblossom[v]
                            if bestedge[b] == -1 or kslack < slack(bestedge[b]):
                                bestedge[b] = k
                        elif label[w] == 0 and (bestedge[w] == -1
                                                or kslack < slack(bestedge[w])):
                            bestedge[w] = k
                if augmented:
                    break
                if deferred:  # (warm) the odd cycles found, once no path out is left
                    k = deferred.pop()
                    v, w, _ = self.edges[k]
                    if inblossom[v] != inblossom[w]:
                        self.add_blossom(self.scan_blossom(v, w), k)
                    continue
                deltatype, delta, deltaedge, deltablossom = self.choose_delta()
                for v in range(n):
                    lab = self.label[self.inblossom[v]]
                    if lab == 1:
                        self.dual[v] -= delta
                    elif lab == 2:
                        self.dual[v] += delta
                for b in range(n, 2 * n):
                    if self.base[b] >= 0 and self.parent[b] == -1:
                        if self.label[b] == 1:
                            self.dual[b] += delta
                        elif self.label[b] == 2:
                            self.dual[b] -= delta
                if deltatype == 1:
                    if self.warm and self.mate[deltablossom] != -1:
                        # an outer vertex's dual is spent: it becomes the free one
                        self.flip_to_root(deltablossom, -1)
                    break
                if deltatype == 2:
                    self.allowed[deltaedge] = True
                    i, j, _ = self.edges[deltaedge]
                    if self.label[self.inblossom[i]] == 0:
                        i = j
                    self.queue.append(i)
                elif deltatype == 3:
                    self.allowed[deltaedge] = True
                    self.queue.append(self.edges[deltaedge][0])
                else:
                    self.expand_blossom(deltablossom, False)
            if not augmented and not self.warm:
                break
            for b in range(n, 2 * n):
                if (self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == 1
                        and self.dual[b] == 0):
                    self.expand_blossom(b, True)
        return [self.endpoint[p] if p >= 0 else -1 for p in self.mate]

    def make_even(self) -> None:
        """(Warm) Double every weight and dual when an edge between two outer vertices has
        an odd slack (trees grown from roots of unlike duals), so that its half is whole."""
        for b in range(2 * self.n):
            if (self.parent[b] == -1 and self.label[b] == 1 and self.bestedge[b] != -1
                    and self.slack(self.bestedge[b]) & 1):
                self.w2[:] = [2 * w for w in self.w2]
                self.dual[:] = [2 * d for d in self.dual]
                self.scale *= 2
                return

    def choose_delta(self) -> tuple[int, int, int, int]:
        """The dual change: its type, size, and the edge or blossom (for type 1 when
        warm, the outer vertex whose dual runs out, a free one first)."""
        n = self.n
        deltatype = 1
        deltaedge = deltablossom = -1
        if self.warm:
            self.make_even()
            delta, deltablossom = min(
                ((self.dual[v], self.mate[v] != -1, v) for v in range(n)
                 if self.label[self.inblossom[v]] == 1), default=(0, False, -1))[::2]
        else:
            delta = min(self.dual[:n])
        for v in range(n):
            if self.label[self.inblossom[v]] == 0 and self.bestedge[v] != -1:
                d = self.slack(self.bestedge[v])
                if d < delta:
                    delta, deltatype, deltaedge = d, 2, self.bestedge[v]
        for b in range(2 * n):
            if self.parent[b] == -1 and self.label[b] == 1 and self.bestedge[b] != -1:
                d = self.slack(self.bestedge[b]) // 2
                if d < delta:
                    delta, deltatype, deltaedge = d, 3, self.bestedge[b]
        for b in range(n, 2 * n):
            if (self.base[b] >= 0 and self.parent[b] == -1 and self.label[b] == 2
                    and self.dual[b] < delta):
                delta, deltatype, deltablossom = self.dual[b], 4, b
        return deltatype, delta, deltaedge, deltablossom


class IncrementalMatching:
    """A maximum-weight matching kept optimal while the graph changes the way a pairing
    settles one player after another: edges of one vertex are weighed anew, or a matched
    pair leaves. Each change keeps the duals feasible (blossoms holding a changed vertex
    are dissolved, their duals moved onto their vertices), frees the few vertices whose
    matched edge stops being tight, and the primal-dual search repairs the optimum from
    those alone: far fewer steps than solving afresh."""

    def __init__(self, n: int, edges: Sequence[Edge]) -> None:
        """Start from every vertex's dual at its heaviest edge and a greedy matching of
        the edges that makes tight."""
        m = self.matcher = _Matcher(n, edges)
        m.warm = True
        heaviest = [0] * n
        for u, v, w in edges:
            if w > heaviest[u]:
                heaviest[u] = w
            if w > heaviest[v]:
                heaviest[v] = w
        m.dual[:n] = heaviest
        for k, (u, v, w) in enumerate(edges):
            if m.mate[u] == -1 and m.mate[v] == -1 and heaviest[u] + heaviest[v] == 2 * w:
                m.mate[u], m.mate[v] = 2 * k + 1, 2 * k
        self.dead = [False] * n
        """The vertices removed."""
        self.alive = n
        self.unpruned = 0
        """Vertices removed since their edges were last dropped from the lists searched."""

    def mates(self) -> list[int]:
        """The mate of each vertex (-1 when unmatched) in a maximum-weight matching."""
        return self.matcher.solve()

    def reweigh(self, v: int, weights: dict[int, int]) -> None:
        """Give edges of ``v`` (by index) new weights: ``v`` is set free, its dual raised
        as far as its edges need."""
        m = self.matcher
        self._dissolve(v)
        self._unmatch(v)
        for k, w in weights.items():
            m.w2[k] = m.scale * w
        m.dual[v] = max([m.dual[v], *(m.w2[p >> 1] - m.dual[m.endpoint[p]]
                                      for p in m.neighbend[v])])

    def remove(self, u: int, v: int) -> None:
        """Take ``u`` and ``v`` out of the graph: their edges can no longer be tight."""
        m = self.matcher
        for x in (u, v):
            self._dissolve(x)
            self._unmatch(x)
            m.dual[x] = 0
            for p in m.neighbend[x]:
                m.w2[p >> 1] = -1
            self.dead[x] = True
            self.alive -= 1
            self.unpruned += 1
        if self.unpruned * 8 > self.alive:  # their edges dropped from the lists searched
            self.unpruned = 0
            for x in range(m.n):
                m.neighbend[x] = ([] if self.dead[x] else
                                  [p for p in m.neighbend[x] if not self.dead[m.endpoint[p]]])

    def _unmatch(self, v: int) -> None:
        m = self.matcher
        if m.mate[v] != -1:
            m.mate[m.endpoint[m.mate[v]]] = -1
            m.mate[v] = -1

    def _dissolve(self, v: int) -> None:
        """Expand the blossoms holding ``v``, each blossom's dual added to its vertices'
        (edges inside keep their slack); its base's matched edge out of it, no longer
        tight, is given up."""
        m = self.matcher
        while m.inblossom[v] != v:
            b = m.inblossom[v]
            if m.dual[b]:
                for x in m.leaves(b):
                    m.dual[x] += m.dual[b]
                m.dual[b] = 0
                self._unmatch(m.base[b])
            m.expand_blossom(b, True)


def max_weight_matching_sparse(n: int, edges: Sequence[Edge], seed: Sequence[int]
                               ) -> list[int]:
    """As :func:`max_weight_matching` on all ``edges``, solved on the subset ``seed`` (edge
    indices) first: the subset's optimal duals prove the matching optimal for the whole graph
    when no other edge has negative reduced cost; edges that do are added and the subset
    solved again with every edge of their endpoints. Exact; fast when the seed holds the
    edges an optimum uses."""
    chosen = sorted(set(seed))
    while True:
        matcher = _Matcher(n, [edges[k] for k in chosen])
        mate = matcher.solve()
        if len(chosen) == len(edges):
            return mate
        present = set(chosen)
        dual, top, sums = matcher.dual, matcher.inblossom, matcher.blossom_duals()
        violated = []
        for k, (u, v, w) in enumerate(edges):
            if k in present:
                continue
            cost = dual[u] + dual[v] - 2 * w
            if cost < 0 and top[u] == top[v] and top[u] >= n:
                b = matcher.parent[v]
                while b not in sums[u]:
                    b = matcher.parent[b]
                cost += 2 * sums[u][b]
            if cost < 0:
                violated.append(k)
        if not violated:
            return mate
        touched = {x for k in violated for x in edges[k][:2]}
        chosen = sorted(present.union(k for k, (u, v, _) in enumerate(edges)
                                      if u in touched or v in touched))
