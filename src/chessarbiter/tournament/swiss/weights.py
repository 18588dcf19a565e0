"""Lexicographic edge weights: several criteria, most important first, packed into one
integer so that one maximum-weight matching optimises them in order."""

from __future__ import annotations

from collections.abc import Sequence


def pack(rows: Sequence[Sequence[int]], vertices: int) -> tuple[list[int], int]:
    """Rows of non-negative fields (most significant first) become one integer each, and
    the number of bits used: each field gets enough bits that its sum over any matching (at
    most ``vertices // 2`` edges) cannot carry into the field above it."""
    if not rows:
        return [], 0
    pairs = vertices // 2 + 1
    tops = [max(column) for column in zip(*rows, strict=True)]
    shifts = [0] * len(tops)
    offset = 0
    for f in range(len(tops) - 1, -1, -1):
        shifts[f] = offset
        offset += (tops[f] * pairs).bit_length() + 1
    live = [(f, shifts[f]) for f in range(len(tops)) if tops[f]]
    out = []
    for row in rows:
        weight = 0
        for f, shift in live:
            value = row[f]
            if value:
                weight |= value << shift
        out.append(weight)
    return out, offset


def lex_costs(values: Sequence[int], elements: int) -> dict[int, int]:
    """Costs for values to be minimised lexicographically from the largest (a PSD, C.04.3
    A.8): one larger value outweighs any number (up to ``elements``) of smaller ones."""
    step = (elements + 1).bit_length()
    return {value: 1 << (step * level) for level, value in enumerate(sorted(set(values)))}
