"""The arbiter's rulings that ask for an analysis: when the ruling on an event asks whether a
side can still checkmate (the arbiter says so: :class:`AnalysisAsked`; a flag, Art. 6.9; a
resignation under F23 5.1.2), the analysis runs in a worker thread (it may take seconds)
and the event is applied with its answer recorded, as the arbiter records it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Final

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import AnalysisAsked
from chessarbiter.arbiter.events import Analysis, Event, Question
from chessarbiter.server.games.table import HubGame

RULING_WORKERS: Final = 2
"""Threads for the dead-position analyses a ruling asks for (flags, resignations)."""


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
        verdict = await asyncio.get_running_loop().run_in_executor(self._pool, question.answer)
        if entry.version != version:
            return None
        analysis = Analysis(Question.CAN_MATE, verdict.outcome, verdict.reason)
        ruled = replace(event, analysis=analysis)  # type: ignore[arg-type]
        return entry.game.replay_event(ruled, recorded=True)
