"""The cheap proofs as one pipeline of stages, shared by the quick mode of :mod:`.api` and the
per-move proof of :mod:`.proof` (Laws Art. 5.2.2, 9.6: no series of legal moves ends in the
winner's checkmate).

A stage is a name (the verdict's reason) and a test that answers ``True`` only with a proof:
material (:mod:`.material`), the static mobility analysis (:mod:`.static`), the caged king
against a lone piece (:mod:`.cage`), the exploration
of pawn structures with the quick cap (:mod:`.phases`; in quick mode only when a pawn wall
stands, see :data:`WALLED_STRUCTURES`) and the quick proof search
(:class:`.search.CostSearch`, which stops at its first cut). :func:`first_proof` runs a
sequence of them in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.core.squares import PAWN
from chessarbiter.laws.deadpos.bitboards import pawns_blocked
from chessarbiter.laws.deadpos.cage import caged_unwinnable
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.phases import phases_unwinnable
from chessarbiter.laws.deadpos.search import CostSearch
from chessarbiter.laws.deadpos.static import statically_unwinnable
from chessarbiter.laws.deadpos.strategy import Proved

QUICK_BUDGET: Final = 400
"""Nodes the quick search may visit."""
QUICK_COST: Final = 6
"""The quick iteration's cost: about six plies."""
QUICK_PHASES: Final = 32
"""Phases the quick mode may explore."""

Test = Callable[[Position, int, Deadline], bool]
Stage = tuple[str, Test]


def _material(pos: Position, winner: int, deadline: Deadline) -> bool:
    return cannot_mate_by_material(pos.pieces, winner)


def _mobility(pos: Position, winner: int, deadline: Deadline) -> bool:
    return statically_unwinnable(pos, winner)


def _caged(pos: Position, winner: int, deadline: Deadline) -> bool:
    return caged_unwinnable(pos, winner)


def _structures(pos: Position, winner: int, deadline: Deadline) -> bool:
    return phases_unwinnable(pos, winner, QUICK_PHASES, deadline)[0]


def _walled_structures(pos: Position, winner: int, deadline: Deadline) -> bool:
    pieces = pos.pieces
    return bool(pawns_blocked(pieces[PAWN], pieces[8 | PAWN])) and _structures(
        pos, winner, deadline
    )


def search_stage(budget: int) -> Stage:
    """The quick proof search within ``budget`` nodes, as a stage."""

    def exhausted(pos: Position, winner: int, deadline: Deadline) -> bool:
        search = CostSearch(pos, winner, QUICK_COST, stop_at_cut=True)
        return isinstance(search.run(budget, deadline), Proved)

    return ("search", exhausted)


MATERIAL: Final[Stage] = ("material", _material)
MOBILITY: Final[Stage] = ("piece mobility", _mobility)
CAGED: Final[Stage] = ("caged king", _caged)
STRUCTURES: Final[Stage] = ("pawn structures", _structures)
WALLED_STRUCTURES: Final[Stage] = (STRUCTURES[0], _walled_structures)
"""The pawn structures, tried only when some pawn has a pawn in front of it: without such a
wall every pawn may step on, and the exploration, costly where it fails (up to the whole
quick cap of phases), proved none of the corpus's positions. A gate, not a proof: it can only
leave a verdict undetermined, never make one wrong."""
SEARCH: Final[Stage] = search_stage(QUICK_BUDGET)
QUICK: Final = (MATERIAL, MOBILITY, CAGED, WALLED_STRUCTURES, SEARCH)
"""The quick mode's stages, in order."""


def first_proof(
    pos: Position,
    winner: int,
    stages: tuple[Stage, ...],
    deadline: Deadline = NEVER,
    known: dict[str, bool] | None = None,
) -> str | None:
    """The name of the first of ``stages`` that proves ``winner`` cannot mate in ``pos``,
    else ``None``; ``known`` keeps the answers of this position and winner by stage name (a
    stage asked twice runs once). ``pos`` is not changed."""
    for name, proves in stages:
        answer = None if known is None else known.get(name)
        if answer is None:
            answer = proves(pos, winner, deadline)
            if known is not None:
                known[name] = answer
        if answer:
            return name
    return None
