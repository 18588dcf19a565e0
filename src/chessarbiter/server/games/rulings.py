"""The arbiter's rulings that ask for an analysis: when the ruling on an event asks whether a
side can still checkmate (the arbiter says so: :class:`AnalysisAsked`; a flag, Art. 6.9; a
resignation under F23 5.1.2), the analysis runs in a background process (it may take seconds
of compiled code, which would hold the interpreter's lock the event loop needs:
:mod:`...background`) and the event is applied with its answer recorded, as the arbiter
records it. An oracle other than the Laws' own (a test's) is asked in a worker thread."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Final

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import AnalysisAsked
from chessarbiter.arbiter.events import Analysis, Event, Question
from chessarbiter.arbiter.oracles import mate_verdict
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import Verdict
from chessarbiter.server import background
from chessarbiter.server.games.table import HubGame

RULING_WORKERS: Final = 2
"""Processes (and threads) for the dead-position analyses a ruling asks for (flags,
resignations)."""
JOB: Final = "analysis"


def verdict_of(fen: str, chess960: bool, colour: Side) -> Verdict:
    """In a background process: whether ``colour`` can still checkmate in ``fen`` (the Laws'
    oracle: the analysis looks at the position alone, not at how it was reached)."""
    return mate_verdict(Position(fen, chess960=chess960), colour)


class Rulings:
    """The worker threads of the analyses (:meth:`start` and :meth:`stop` with the hub)."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None

    def start(self) -> None:
        self._pool = ThreadPoolExecutor(RULING_WORKERS, thread_name_prefix="chessarbiter-ruling")

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    async def rule(self, entry: HubGame, event: Event) -> tuple[Decision, ...] | None:
        """The arbiter's ruling on ``event`` (applied: its decisions); ``None`` if the game
        changed while the analysis ran. Not started: the analysis runs on the loop."""
        if self._pool is None:
            return entry.live.apply(event)
        try:
            return entry.game.apply_unless_asked(event)
        except AnalysisAsked as asked:
            question = asked
        version = entry.version
        verdict = await self._answer(question)
        if entry.version != version:
            return None
        analysis = Analysis(Question.CAN_MATE, verdict.outcome, verdict.reason)
        ruled = replace(event, analysis=analysis)  # type: ignore[arg-type]
        return entry.game.replay_event(ruled, recorded=True)

    async def _answer(self, question: AnalysisAsked) -> Verdict:
        loop = asyncio.get_running_loop()
        if question.oracle is not mate_verdict:
            return await loop.run_in_executor(self._pool, question.answer)
        pos = question.position
        for attempt in (1, 2):  # a process killed: once more, in a new one
            try:
                return await asyncio.wrap_future(background.pool(JOB, RULING_WORKERS).submit(
                    verdict_of, pos.fen(), pos.chess960, question.colour))
            except BrokenProcessPool:
                background.forget(JOB)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")
