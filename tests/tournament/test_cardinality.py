"""Maximum-cardinality matching and the vertices it can leave over, against brute force on
random small graphs."""

from __future__ import annotations

import random
from functools import cache

from chessarbiter.tournament.swiss.cardinality import leftover, maximum_matching, perfect


def _brute(n: int, edges: frozenset[tuple[int, int]]) -> int:
    """The size of a maximum matching, by trying every edge of the lowest free vertex."""

    @cache
    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        v = min(free)
        rest = free - {v}
        top = best(rest)
        for w in rest:
            if (v, w) in edges or (w, v) in edges:
                top = max(top, 1 + best(rest - {w}))
        return top

    return best(frozenset(range(n)))


def _graph(rng: random.Random, n: int) -> tuple[list[list[int]], frozenset[tuple[int, int]]]:
    density = rng.uniform(0.1, 0.7)
    edges = frozenset((i, j) for i in range(n) for j in range(i + 1, n)
                      if rng.random() < density)
    adjacent: list[list[int]] = [[] for _ in range(n)]
    for i, j in edges:
        adjacent[i].append(j)
        adjacent[j].append(i)
    return adjacent, edges


def test_maximum_and_leftover_as_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 11)
        adjacent, edges = _graph(rng, n)
        mate = maximum_matching(adjacent)
        assert all(mate[m] == v for v, m in enumerate(mate) if m >= 0)
        assert all(m < 0 or (min(v, m), max(v, m)) in edges for v, m in enumerate(mate))
        size = sum(1 for m in mate if m >= 0) // 2
        assert size == _brute(n, edges)
        assert perfect(adjacent) == (2 * size == n)
        if n % 2:
            expected = {v for v in range(n) if 2 * _brute(n - 1, frozenset(
                (i - (i > v), j - (j > v)) for i, j in edges if v not in (i, j))) == n - 1}
            assert leftover(adjacent) == expected
