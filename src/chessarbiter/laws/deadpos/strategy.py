"""One interface for every helpmate search (Laws Art. 5.2.2, 6.9: a helpmate by any series of
legal moves): a :class:`Strategy` is made on one position and intended winner, and each
:meth:`~Strategy.run` searches at most ``budget`` more nodes before the ``deadline``, answering
:class:`Found` (a helpmate line), :class:`Proved` (no helpmate exists) or :class:`Spent`.

Every node a run reports is one :meth:`.deadline.Deadline.tick`, so the deadline's count is
the exact sum of the runs' nodes, also when it stops the analysis. A strategy that
``resumes`` goes on where its last run stopped; one that does not starts afresh each run.
An ``extra`` strategy's nodes are not taken from the budget the others share (the full mode's
progress and tempo searches); ``nodes`` is what its runs used in all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, KNIGHT, QUEEN, ROOK
from chessarbiter.laws.deadpos.deadline import Deadline


@dataclass(frozen=True, slots=True)
class Found:
    """A helpmate: ``line`` from the searched position ends in the winner's checkmate."""

    line: tuple[Move, ...]
    nodes: int


@dataclass(frozen=True, slots=True)
class Proved:
    """The search saw every reachable position: the winner cannot mate."""

    nodes: int


@dataclass(frozen=True, slots=True)
class Spent:
    """The budget ran out (or the search has nothing more to try) before an answer."""

    nodes: int


Outcome = Found | Proved | Spent


class Strategy(Protocol):
    """A helpmate search on one position and winner (see the module doc)."""

    resumes: bool
    extra: bool
    nodes: int

    def run(self, budget: int, deadline: Deadline) -> Outcome:
        """Search at most ``budget`` more nodes; the position is restored afterwards (not
        when ``deadline`` raises)."""
        ...


def has_piece(pos: Position, winner: int) -> bool:
    """Whether ``winner`` has a knight, bishop, rook or queen."""
    pieces = pos.pieces
    return any(pieces[winner << 3 | kind] for kind in (KNIGHT, BISHOP, ROOK, QUEEN))
