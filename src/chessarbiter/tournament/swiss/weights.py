"""Lexicographic edge weights: several criteria, most important first, packed into one
integer so that one maximum-weight matching optimises them in order."""

from __future__ import annotations

from collections.abc import Sequence


def pack(edges: Sequence[tuple[int, int, Sequence[int]]], vertices: int
         ) -> list[tuple[int, int, int]]:
    """Edges ``(u, v, fields)`` with non-negative fields (most significant first) become
    ``(u, v, weight)``: each field gets enough bits that the sum over any matching (at most
    ``vertices // 2`` edges) cannot carry into the field above it."""
    if not edges:
        return []
    count = len(edges[0][2])
    pairs = vertices // 2 + 1
    shifts = [0] * count
    offset = 0
    for f in range(count - 1, -1, -1):
        shifts[f] = offset
        top = max(e[2][f] for e in edges)
        offset += (top * pairs).bit_length() + 1
    out = []
    for u, v, fields in edges:
        weight = 0
        for f in range(count):
            if fields[f]:
                weight |= fields[f] << shifts[f]
        out.append((u, v, weight))
    return out


def lex_costs(values: Sequence[int], elements: int) -> dict[int, int]:
    """Costs for values to be minimised lexicographically from the largest (a PSD, C.04.3
    A.8): one larger value outweighs any number (up to ``elements``) of smaller ones."""
    step = (elements + 1).bit_length()
    return {value: 1 << (step * level) for level, value in enumerate(sorted(set(values)))}
