"""Can this side still checkmate? The analysis behind dead positions (Laws Art. 5.2.2, 9.6),
flags (6.9), resignations (5.1.2, 2023) and second illegal moves (7.5.5).

The Laws ask whether checkmate can occur "by any possible series of legal moves, even with
the most unskilled play": a helpmate, both sides cooperating. Stages, cheapest first
(after Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022):

1. forced moves are played; a loop of forced moves is unwinnable;
2. a position with no legal move is decided on the board (checkmate first, so a composed
   position that is already mate counts as mate whatever the material);
3. material that can never mate (:mod:`.material`);
4. the static mobility analysis of blocked pawn structures (:mod:`.static`), and of a
   caged king against a lone piece (:mod:`.cage`);
5. the exploration of the reachable pawn structures with the pieces abstracted to regions
   (:mod:`.phases`, at most :data:`.pipeline.QUICK_PHASES` phases in quick mode, a tenth of the
   budget in full mode);
6. in ``"quick"`` mode, a small helpmate search (:mod:`.search`) that only proves
   unwinnability (it stops at the first line it cannot finish): stages 3 to 6 are the
   pipeline of :mod:`.pipeline`, which the per-move proof shares; in ``"full"`` mode,
   within a node budget: the static analysis after each legal move, the cheap proofs after
   each legal move and its forced replies (:mod:`.plies`), then the searches of
   :data:`SCHEDULE` in turn (each a :class:`.strategy.Strategy`), each with a growing share
   of the budget: the progress search
   (:mod:`.progress`, which finds long helpmates that drive the loser's king to a corner
   while the winner's units come, and proves when it runs out of lines), the guided helpmate
   search (:mod:`.guided`; a very short one, then a very short exploration, also come
   before stage 5), the best-first
   helpmate search (:mod:`.bestfirst`, when the winner has a piece), the tempo search
   (:mod:`.tempo`, when a wall shuts some units away from the loser's king: they give
   one tempo move a position), the staged search of
   :mod:`.promote` (when it has none) and the exhaustive exploration of every reachable
   position (:mod:`.closure`), which both finds helpmates and proves, and has the most.

A time bound (``seconds``) turns a search still running past it into UNDETERMINED, with the
nodes searched until then (:mod:`.deadline`): every verdict reports the deadline's count of
search nodes, so a verdict cut short counts exactly as one that finishes. A budget beyond
:data:`FULL_BUDGET` runs the schedule again in rounds of twice as many nodes, after the
default one: more budget never takes work from the searches a smaller one ran. Quick mode
never answers WINNABLE (only UNWINNABLE or UNDETERMINED, read "possibly winnable") and is
meant for every move of a game; full mode is for flags, resignations and adjudication.
Neither mode ever returns a wrong WINNABLE or UNWINNABLE.

The 50/75-move and repetition rules are ignored, as in the published solver: "any series of
legal moves" refers to legality under Art. 3, so a helpmate that would take longer than the
75-move rule allows still counts. A caller that wants Art. 9.6 to take precedence applies it
first.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Final, Literal

from chessarbiter.core.errors import ChessError
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, KNIGHT, QUEEN, ROOK, Side
from chessarbiter.core.validation import placement_error
from chessarbiter.laws.deadpos.bestfirst import BestFirst
from chessarbiter.laws.deadpos.closure import Exploration
from chessarbiter.laws.deadpos.deadline import Deadline, TimeUp
from chessarbiter.laws.deadpos.forced import play_forced_moves, unforced
from chessarbiter.laws.deadpos.guided import GuidedSearch
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.phases import phases_unwinnable
from chessarbiter.laws.deadpos.pipeline import (
    CAGED,
    MATERIAL,
    MOBILITY,
    QUICK,
    QUICK_BUDGET,
    first_proof,
    search_stage,
)
from chessarbiter.laws.deadpos.plies import every_move_proved
from chessarbiter.laws.deadpos.progress import Progress
from chessarbiter.laws.deadpos.promote import StagedSearch
from chessarbiter.laws.deadpos.static import statically_unwinnable
from chessarbiter.laws.deadpos.strategy import Found, Proved, Strategy, has_piece
from chessarbiter.laws.deadpos.tempo import TempoSearch
from chessarbiter.laws.deadpos.verdict import Verdict, Winnability

Mode = Literal["quick", "full"]

FULL_BUDGET: Final = 200_000
"""Default node budget of the full search."""
PHASE_SHARE: Final = 10
"""The exploration of pawn structures (:mod:`.phases`) may see a tenth of the full budget
in phases (at most :data:`MAX_PHASES`), on top of the nodes of the other stages."""
MAX_PHASES: Final = 5_000
"""The most phases the full mode explores, whatever the budget."""
PROBE_MIN: Final = 10_000
"""From this budget on, the full mode runs a very short guided search and then a very short
exploration (each a :data:`EARLY_SHARE`-th of the budget) before the pawn structures: the
exploration proves in a few hundred positions some walls whose pawn structures reach the
cap (:data:`MAX_PHASES`, about half a second), and the schedule's exploration goes on from
where it stopped."""
EARLY_SHARE: Final = 400
EXPLORED: Final = "every reachable position"
PROGRESS: Final = "progress search"
GUIDED: Final = "guided search"
BEST_FIRST: Final = "best-first search"
STAGED: Final = "staged search"
TEMPO: Final = "tempo search"
SEARCHES: Final[dict[str, Callable[[Position, int], Strategy]]] = {
    PROGRESS: Progress,
    GUIDED: GuidedSearch,
    BEST_FIRST: BestFirst,
    EXPLORED: Exploration,
    STAGED: StagedSearch,
    TEMPO: TempoSearch,
}
"""The full mode's strategies by name (each made once per analysis)."""
SCHEDULE: Final = (
    (PROGRESS, 32),
    (GUIDED, 32),
    (BEST_FIRST, 32),
    (EXPLORED, 16),
    (STAGED, 16),
    (BEST_FIRST, 8),
    (TEMPO, 32),
    (EXPLORED, 2),
    (PROGRESS, 4),
    (STAGED, 4),
    (GUIDED, 4),
    (BEST_FIRST, 4),
    (EXPLORED, 1),
)
"""The full mode's searches after the proofs one move on, in turn, each with a ``1/n``-th of
the round's nodes (:func:`_rounds`; less when fewer nodes are left): a strategy that starts
afresh (guided, staged) gets it, one that resumes (progress, best-first, tempo, exploration) goes on
up to it in all (the best-first search only runs when the winner has a piece, the staged
search only when it has none). The last exploration of a round gets what is left of it. The
exploration decides most hard corpus positions alone, so it has half the budget before the
helpmate searches get their largest shares; the short turns first decide most of the others
at a small cost. The progress search comes first (CHA's kind of search, it decides many
positions in a few thousand nodes) and again after the exploration's half; its nodes are
``extra``, on top of the budget (up to a quarter more), so that it takes nothing from the
other searches, and it runs only while they have nodes left. The tempo search's nodes are
``extra`` too (up to a 32nd more): it runs only where a wall shuts units away from the loser's
king, and then mostly spends its turn, so it comes after the first turns of the others, which
decide most positions it would otherwise be run on."""
PAWNS: Final = (
    (PROGRESS, 32),
    (GUIDED, 32),
    (EXPLORED, 2),
    (STAGED, 16),
    (TEMPO, 32),
    (PROGRESS, 4),
    (STAGED, 4),
    (GUIDED, 4),
    (EXPLORED, 1),
)
"""The schedule instead of :data:`SCHEDULE` when the winner has no piece, only pawns (the
best-first search does not run then): the exploration, which decides most of those
positions (on every 10th corpus line, 85 of the 88 that reach the searches within 250,000
nodes alone, 81 within 100,000), has its half of the round right after the first short
turns of the progress and guided searches, before the staged search's."""
SECOND: Final = ((PROGRESS, 2), *SCHEDULE)
"""The second round (the first beyond :data:`FULL_BUDGET`, a ruling's budget) when the
winner's only pieces are bishops: the progress search first, up to half of the round
(200,000 nodes) in all, then :data:`SCHEDULE`. The composed walls of bishops and pawns it
decides need 150,000 to 170,000 of its nodes, which the first round's 50,000 and then the
second round's other searches kept from it within a ruling's 5 s; the verdicts the other
searches reach beyond the first round cost up to 150,000 nodes more."""


_BY_MATERIAL: Final = tuple(
    Verdict(Winnability.UNWINNABLE, side, reason=MATERIAL[0]) for side in Side
)
"""The verdicts on material alone, by winner: most queries of a game's end, answered without
copying the position."""


class IllegalPositionError(ChessError):
    """A position no game can reach in a way the analysis relies on."""


def can_checkmate(
    pos: Position,
    winner: Side,
    mode: Mode = "full",
    budget: int | None = None,
    *,
    seconds: float | None = None,
    clock: Callable[[], float] | None = None,
) -> Verdict:
    """Whether ``winner`` can still give checkmate in ``pos``.

    ``budget`` caps the nodes of the helpmate search (default :data:`FULL_BUDGET`, or
    :data:`QUICK_BUDGET` in quick mode; the progress and tempo searches' nodes come on top:
    up to a quarter and a 32nd of the default budget, more beyond it, see :data:`SECOND`). Past
    ``seconds`` on ``clock`` (default ``time.monotonic``) the analysis stops and the verdict
    is UNDETERMINED with reason ``"time"``; without ``seconds`` only the budget bounds it.
    ``pos`` is not changed (quick mode without ``seconds`` may play moves on it and take
    them back before it returns: not for a position another thread reads meanwhile).
    Raises ``ValueError`` for a bad ``winner``, ``mode``, ``budget`` or ``seconds`` and
    :class:`IllegalPositionError` for a position with the side not to move in check or a
    pawn on the first or last rank.
    """
    _validate(pos, winner, mode, budget)
    if seconds is not None and not seconds >= 0:
        raise ValueError(f"seconds must be a number of seconds, not {seconds!r}")
    if cannot_mate_by_material(pos.pieces, winner):
        if unforced(pos):
            return _BY_MATERIAL[winner]  # no forced move, no game end: material decides first
    elif mode == "quick" and seconds is None and unforced(pos):
        # no forced move, no game end, no time bound to stop a search half way: the stages
        # run on ``pos`` itself, which they leave as they found it
        deadline = Deadline(None, clock)
        outcome, _, reason = _quick(pos, winner, budget, deadline, after_material=True)
        return Verdict(outcome, winner, (), deadline.nodes, reason)
    deadline = Deadline(seconds, clock)
    # CPython's cyclic garbage collector is paused while the analysis runs (and resumed
    # after it, if it ran before): the analysis makes no reference cycles (tested), so the
    # collector would free nothing of it, but the searches' long-lived objects (an
    # exploration's move generators along a line of up to 100,000 plies, the tables) make
    # each collection of the older generations scan them all: up to 30 % of a slow
    # full-mode query's time (13 % of the 21 slowest of every 10th corpus line).
    # Reference counting frees memory as before; another thread's cyclic garbage waits
    # until the analysis ends.
    collecting = gc.isenabled()
    gc.disable()
    try:
        outcome, line, reason = _analyse(pos, winner, mode, budget, deadline)
    except TimeUp:
        outcome, line, reason = Winnability.UNDETERMINED, (), "time"
    finally:
        if collecting:
            gc.enable()
    return Verdict(outcome, winner, line, deadline.nodes, reason)


Answer = tuple[Winnability, tuple[Move, ...], str]
"""A verdict's outcome, line and reason (its nodes are the deadline's count)."""


def _analyse(
    pos: Position, winner: Side, mode: Mode, budget: int | None, deadline: Deadline
) -> Answer:
    """:func:`can_checkmate` on valid arguments; raises :class:`TimeUp` past ``deadline``."""
    work = Position.from_snapshot(pos.snapshot())
    forced, looped = play_forced_moves(work)
    quick = mode == "quick"
    if looped:
        return Winnability.UNWINNABLE, (), "the forced moves repeat"
    if work.count_legal_moves() == 0:
        if work.is_check() and work.turn != winner:
            if quick:
                return Winnability.UNDETERMINED, (), "checkmate"
            return Winnability.WINNABLE, tuple(forced), "checkmate"
        return Winnability.UNWINNABLE, (), "the game ends without that mate"
    if quick:
        return _quick(work, winner, budget, deadline)
    nodes = budget if budget is not None else FULL_BUDGET
    reason = first_proof(work, winner, (MATERIAL, MOBILITY, CAGED), deadline)
    if reason:
        return Winnability.UNWINNABLE, (), reason
    unit = min(nodes, FULL_BUDGET)  # the probes' and the phases' shares do not grow beyond
    if nodes >= PROBE_MIN:
        found = GuidedSearch(work, winner).run(unit // EARLY_SHARE, deadline)
        if isinstance(found, Found):
            return Winnability.WINNABLE, tuple(forced) + found.line, GUIDED
    exploration = Exploration(work, winner)  # the schedule's, which goes on from the probe
    if nodes >= PROBE_MIN:
        outcome = exploration.run(unit // EARLY_SHARE, deadline)
        if isinstance(outcome, Found):
            return Winnability.WINNABLE, tuple(forced) + outcome.line, EXPLORED
        if isinstance(outcome, Proved):
            return Winnability.UNWINNABLE, (), EXPLORED
    cap = min(MAX_PHASES, max(1, unit // PHASE_SHARE))
    proved, seen = phases_unwinnable(work, winner, cap, deadline)
    if proved:
        return Winnability.UNWINNABLE, (), "pawn structures"
    phases = cap if seen < cap else 0
    return _full(work, winner, nodes, tuple(forced), phases, exploration, deadline)


def _quick(
    pos: Position,
    winner: Side,
    budget: int | None,
    deadline: Deadline,
    after_material: bool = False,
) -> Answer:
    """The quick mode's stages on ``pos``, where the side to move has a choice of moves (no
    forced move is left, the game goes on); ``after_material``: the caller found that the
    material does not decide, so that stage is not asked again."""
    nodes = QUICK_BUDGET if budget is None else budget
    stages = QUICK if nodes == QUICK_BUDGET else (*QUICK[:-1], search_stage(nodes))
    reason = first_proof(pos, winner, stages[1:] if after_material else stages, deadline)
    if reason:
        return Winnability.UNWINNABLE, (), reason
    return Winnability.UNDETERMINED, (), "quick mode"


def _full(
    work: Position,
    winner: Side,
    nodes: int,
    forced: tuple[Move, ...],
    phases: int,
    exploration: Exploration,
    deadline: Deadline,
) -> Answer:
    """The full mode's stages after the cheap ones; ``forced`` were played on ``work``;
    ``phases`` is the pawn-structure cap one move on (0 when the root exploration hit it);
    ``exploration`` is the schedule's (its probe's positions already seen)."""
    if _every_move_blocked(work, winner):
        return Winnability.UNWINNABLE, (), "piece mobility after each move"
    if phases and every_move_proved(work, winner, phases, deadline):
        return Winnability.UNWINNABLE, (), "pawn structures after each move"
    searches = {
        name: exploration if name == EXPLORED else make(work, winner)
        for name, make in SEARCHES.items()
    }
    shared = [search for search in searches.values() if not search.extra]
    first = SCHEDULE if has_piece(work, winner) else PAWNS
    second = SECOND if _bishops_only(work, winner) else first
    for index, rounds in enumerate(_rounds(nodes)):
        for name, share in second if index == 1 else first:
            left = min(rounds, nodes) - sum(search.nodes for search in shared)
            if left <= 0:
                continue
            search = searches[name]
            allowance = rounds // share - (search.nodes if search.resumes else 0)
            if not search.extra:
                allowance = min(allowance, left)
            outcome = search.run(max(0, allowance), deadline)
            if isinstance(outcome, Found):
                return Winnability.WINNABLE, forced + outcome.line, name
            if isinstance(outcome, Proved):
                return Winnability.UNWINNABLE, (), name
    return Winnability.UNDETERMINED, (), "budget spent"


def _rounds(nodes: int) -> list[int]:
    """The node counts the rounds of :data:`SCHEDULE` are shared from, for a budget of
    ``nodes``: the budget alone up to :data:`FULL_BUDGET`; beyond it :data:`FULL_BUDGET`,
    then twice as many each round until the budget is reached. The rounds do not depend on
    the budget, which only cuts them short: a larger budget does all the work of a smaller
    one first, in the same order, so it never loses a verdict to a time bound."""
    out = [min(nodes, FULL_BUDGET)]
    while out[-1] < nodes:
        out.append(2 * out[-1])
    return out


def is_dead_position(pos: Position, mode: Mode = "quick", budget: int | None = None) -> Winnability:
    """Whether neither side can checkmate (Art. 5.2.2, 9.6): UNWINNABLE means a dead
    position, WINNABLE that some side can still mate, UNDETERMINED that it is not decided
    (in quick mode: possibly not dead)."""
    verdicts = [can_checkmate(pos, side, mode, budget) for side in Side]
    if all(v.unwinnable for v in verdicts):
        return Winnability.UNWINNABLE
    if any(v.winnable for v in verdicts):
        return Winnability.WINNABLE
    return Winnability.UNDETERMINED


def _bishops_only(pos: Position, winner: int) -> bool:
    """Whether the winner has bishops and no other piece (pawns aside)."""
    pieces = pos.pieces
    others = (pieces[winner << 3 | kind] for kind in (KNIGHT, ROOK, QUEEN))
    return bool(pieces[winner << 3 | BISHOP]) and not any(others)


def _every_move_blocked(pos: Position, winner: int) -> bool:
    """Whether after every legal move the static analysis (or material) proves it."""
    for move in pos.legal_moves():
        pos.push(move)
        proved = cannot_mate_by_material(pos.pieces, winner) or statically_unwinnable(
            pos, winner
        )
        pos.pop()
        if not proved:
            return False
    return True


def _validate(pos: Position, winner: int, mode: str, budget: int | None) -> None:
    if not isinstance(pos, Position):
        raise TypeError(f"expected a Position, got {type(pos).__name__}")
    if winner not in (0, 1) or isinstance(winner, bool):
        raise ValueError(f"winner must be 0 (white) or 1 (black), not {winner!r}")
    if mode not in ("quick", "full"):
        raise ValueError(f"mode must be 'quick' or 'full', not {mode!r}")
    if budget is not None and (not isinstance(budget, int) or budget < 1):
        raise ValueError(f"budget must be a positive number of nodes, not {budget!r}")
    error = placement_error(pos.pieces, pos.turn)
    if error:
        raise IllegalPositionError(f"illegal position: {error}")
