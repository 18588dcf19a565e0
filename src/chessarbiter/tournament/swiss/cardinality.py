"""Maximum-cardinality matching on a general graph (Edmonds' blossoms, O(n^3)), and the
players who can be left over: the vertices ``v`` of a graph with an odd number of vertices
such that the graph without ``v`` has a perfect matching (the set ``D`` of the
Gallai-Edmonds decomposition: the vertices an alternating search from the one exposed
vertex of a maximum matching labels outer)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def maximum_matching(adjacent: Sequence[Sequence[int]]) -> list[int]:
    """The mate of each vertex (-1 when unmatched) in a matching of maximum size."""
    n = len(adjacent)
    mate = [-1] * n
    for v in range(n):  # a greedy start leaves few augmentations
        if mate[v] < 0:
            for w in adjacent[v]:
                if mate[w] < 0:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] < 0:
            end, parent, _ = _search(adjacent, mate, root)
            while end >= 0:
                step = parent[end]
                after = mate[step]
                mate[end], mate[step] = step, end
                end = after
    return mate


def leftover(adjacent: Sequence[Sequence[int]]) -> set[int]:
    """The vertices whose removal leaves a graph with a perfect matching (empty when the
    graph has no matching leaving exactly one vertex out)."""
    mate = maximum_matching(adjacent)
    exposed = [v for v, m in enumerate(mate) if m < 0]
    if len(exposed) != 1:
        return set()
    _, _, outer = _search(adjacent, mate, exposed[0])
    return {v for v, flag in enumerate(outer) if flag}


def perfect(adjacent: Sequence[Sequence[int]]) -> bool:
    """Whether the graph has a perfect matching."""
    return all(m >= 0 for m in maximum_matching(adjacent))


def _search(adjacent: Sequence[Sequence[int]], mate: list[int], root: int
            ) -> tuple[int, list[int], list[bool]]:
    """An alternating search from ``root``: the free vertex ending an augmenting path (or
    -1), the parents of the odd vertices, and the outer vertices."""
    n = len(adjacent)
    outer = [False] * n
    parent = [-1] * n
    base = list(range(n))
    outer[root] = True
    queue = deque([root])

    def ancestor(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] < 0:
                break
            a = parent[mate[a]]
        while not seen[base[b]]:
            b = parent[mate[base[b]]]
        return base[b]

    def mark(v: int, top: int, child: int, inside: list[bool]) -> None:
        while base[v] != top:
            inside[base[v]] = inside[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for w in adjacent[v]:
            if base[v] == base[w] or mate[v] == w:
                continue
            if w == root or (mate[w] >= 0 and parent[mate[w]] >= 0):
                top = ancestor(v, w)
                inside = [False] * n
                mark(v, top, w, inside)
                mark(w, top, v, inside)
                for i in range(n):
                    if inside[base[i]]:
                        base[i] = top
                        if not outer[i]:
                            outer[i] = True
                            queue.append(i)
            elif parent[w] < 0:
                parent[w] = v
                if mate[w] < 0:
                    return w, parent, outer
                outer[mate[w]] = True
                queue.append(mate[w])
    return -1, parent, outer
