"""Maximum-weight matching checked against brute force on small random graphs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chessarbiter.tournament.swiss.matching import (
    Edge,
    IncrementalMatching,
    max_weight_matching,
    max_weight_matching_sparse,
)


def _best(n: int, edges: list[Edge]) -> int:
    """The largest total weight of any matching, by trying them all."""
    weight = {(min(u, v), max(u, v)): w for u, v, w in edges}

    def rec(i: int, used: frozenset[int]) -> int:
        if i >= n:
            return 0
        if i in used:
            return rec(i + 1, used)
        best = rec(i + 1, used)
        for j in range(i + 1, n):
            if j not in used and (i, j) in weight:
                best = max(best, weight[i, j] + rec(i + 1, used | {i, j}))
        return best
    return rec(0, frozenset())


def _total(mate: list[int], edges: list[Edge]) -> int:
    weight = {(min(u, v), max(u, v)): w for u, v, w in edges}
    for v, m in enumerate(mate):
        assert m == -1 or mate[m] == v
    return sum(weight[v, m] for v, m in enumerate(mate) if m > v)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[Edge]]:
    n = draw(st.integers(0, 9))
    big = draw(st.booleans())
    edges = []
    for u in range(n):
        for v in range(u + 1, n):
            if draw(st.booleans()):
                top = 10 ** 40 if big else 12
                edges.append((u, v, draw(st.integers(0, top))))
    return n, edges


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_matching_is_maximum(graph: tuple[int, list[Edge]]) -> None:
    n, edges = graph
    assert _total(max_weight_matching(n, edges), edges) == _best(n, edges)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_sparse_start_gives_the_same_optimum(graph: tuple[int, list[Edge]],
                                             data: st.DataObject) -> None:
    n, edges = graph
    seed = data.draw(st.lists(st.integers(0, max(len(edges) - 1, 0)), max_size=len(edges)))
    seed = [k for k in seed if k < len(edges)]
    assert _total(max_weight_matching_sparse(n, edges, seed), edges) == _best(n, edges)


def test_lexicographic_weights_are_exact() -> None:
    # one unit of a high field outweighs everything below it only with exact integers
    high = 1 << 300
    edges = [(0, 1, high), (2, 3, high), (1, 2, high + 1), (0, 3, 1)]
    mate = max_weight_matching(4, edges)
    assert _total(mate, edges) == 2 * high


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_incremental_matching_stays_maximum(graph: tuple[int, list[Edge]],
                                            data: st.DataObject) -> None:
    """Edges of one vertex weighed anew, or a matched pair taken out, one change after
    another: after each the repaired matching weighs as much as the best one."""
    n, edges = graph
    current = list(edges)
    matching = IncrementalMatching(n, edges)
    gone: set[int] = set()
    for _ in range(data.draw(st.integers(0, 6))):
        mate = matching.mates()
        live = [(u, v, w) for u, v, w in current if u not in gone and v not in gone]
        assert _total([m if m not in gone else -1 for m in mate], live) == _best(n, live)
        pairs = [(v, m) for v, m in enumerate(mate) if m > v and v not in gone]
        take_out: bool = data.draw(st.booleans())
        if pairs and take_out:
            u, v = data.draw(st.sampled_from(pairs))
            matching.remove(u, v)
            gone |= {u, v}
            continue
        if not n:
            break
        v = data.draw(st.integers(0, n - 1))
        anew = {k: data.draw(st.integers(0, 10 ** 40 if w > 12 else 12))
                for k, (a, b, w) in enumerate(current)
                if v in (a, b) and not gone & {a, b} and data.draw(st.booleans())}
        matching.reweigh(v, anew)
        current = [(a, b, anew.get(k, w)) for k, (a, b, w) in enumerate(current)]
    mate = matching.mates()
    live = [(u, v, w) for u, v, w in current if u not in gone and v not in gone]
    assert _total([m if m not in gone else -1 for m in mate], live) == _best(n, live)
