"""The transposition table: search results by position key (``Position.key()``).

An entry is ``(depth, score, bound, move)``. Mate scores are stored relative to the node,
not the root, so they stay right when the position is reached at another distance.
"""

from __future__ import annotations

from typing import Final

EXACT: Final = 0
LOWER: Final = 1
"""The score is at least the stored one (a beta cut-off)."""
UPPER: Final = 2
"""The score is at most the stored one (no move raised alpha)."""

MATE: Final = 100_000
MATE_BOUND: Final = MATE - 1_000
"""Scores beyond this are mates; ``MATE - n`` is mate in ``n`` plies."""

Entry = tuple[int, int, int, int]


def to_tt(score: int, ply: int) -> int:
    """A root-relative mate score made node-relative for storing."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def from_tt(score: int, ply: int) -> int:
    """A stored node-relative mate score made root-relative."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


class TranspositionTable:
    """A dict of entries with a size cap: when full it is cleared (cheap, and rare in
    games at the speeds of a pure-Python search)."""

    __slots__ = ("_entries", "max_entries")

    def __init__(self, max_entries: int = 1 << 18) -> None:
        if max_entries <= 0:
            raise ValueError(f"table size {max_entries}: expected a positive entry count")
        self.max_entries = max_entries
        self._entries: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: int) -> Entry | None:
        """The entry for a key, if any."""
        return self._entries.get(key)

    def put(self, key: int, depth: int, score: int, bound: int, move: int) -> None:
        """Store a result, keeping a deeper one already there for the same key (unless
        the new one is exact)."""
        entries = self._entries
        old = entries.get(key)
        if old is not None:
            if old[0] > depth and bound != EXACT:
                return
            if not move:
                move = old[3]
        elif len(entries) >= self.max_entries:
            entries.clear()
        entries[key] = (depth, score, bound, move)

    def clear(self) -> None:
        """Forget everything (a new game)."""
        self._entries.clear()


def entries_for_megabytes(megabytes: int) -> int:
    """A rough entry cap for a memory budget (a dict entry with its tuple: ~200 bytes)."""
    return max(1, megabytes * (1 << 20) // 200)
