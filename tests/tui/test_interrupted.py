"""A signal that comes between the engine's reply and its record, in the accessible game:
the reply is recorded before the signal takes effect, so the PGN written on the way out and
the store hold the same moves. The signal is sent from inside the record's write (after the
game accepted the move, before the store keeps it): the moment itself, with no clock."""

from __future__ import annotations

import io
import signal
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import FrameType

import chess.pgn
import pytest

from chessarbiter.arbiter.events import Event, Moved
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.clock.controls import TimeControl
from chessarbiter.core.position import Position
from chessarbiter.engines.uci_client import EngineFailure
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.session.interrupts import interrupts_held
from chessarbiter.session.live import LiveGame
from chessarbiter.session.play import Play
from chessarbiter.store import Recording, SqliteStore
from chessarbiter.tui.accessible import run_accessible
from tests.clock.fake_time import FakeTime


class Stopped(BaseException):
    """What the test's SIGTERM handler raises (as the command's does)."""


@pytest.fixture
def sigterm_stops() -> Iterator[None]:
    """SIGTERM raises :class:`Stopped` in the test, as it stops a command."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stopped

    previous = signal.signal(signal.SIGTERM, stop)
    yield
    signal.signal(signal.SIGTERM, previous)


class Replies:
    """An engine that answers with the moves it is given, one a turn."""

    def __init__(self, *moves: str) -> None:
        self.moves = list(moves)
        self.name = "scripted"
        self.score_cp: int | None = None

    def think(self, pos: Position, control: TimeControl | None,
              clocks: tuple[int, int] | None, stop: threading.Event) -> str | EngineFailure:
        return self.moves.pop(0)

    def close(self) -> None:
        return None


class SignalOnMove:
    """A store's game that receives ``signum`` when it is asked to keep the move ``uci``:
    after the game has accepted it, before it is written (or just after, ``late``)."""

    def __init__(self, recording: Recording, signum: int, uci: str, *, late: bool = False):
        self.recording = recording
        self.signum = signum
        self.uci = uci
        self.late = late
        self.sent = False

    @property
    def where(self) -> str:
        return self.recording.where

    def _signal(self, event: Event) -> None:
        if isinstance(event, Moved) and event.uci == self.uci and not self.sent:
            self.sent = True
            signal.raise_signal(self.signum)

    def append(self, event: Event) -> None:
        if not self.late:
            self._signal(event)
        self.recording.append(event)
        if self.late:
            self._signal(event)

    def close(self) -> None:
        self.recording.close()


def _interrupted(tmp_path: Path, signum: int, *, late: bool = False) -> tuple[list[str], str]:
    """Play 1.e4 against an engine answering g5, the signal coming as g5 is recorded; the
    moves the store kept, and the PGN saved on the way out."""
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("5+3"))
    store = SqliteStore(tmp_path / "games.sqlite")
    game_id = store.create(game)
    recorder = SignalOnMove(Recording(store, game_id, game), signum, "g7g5", late=late)
    play = Play(LiveGame(game, now=FakeTime(), journal=recorder), {Side.BLACK: Replies("g7g5")},
                pgn_path=tmp_path / "g.pgn")
    typed = iter(["e4", "Nf3"])
    said: list[str] = []
    stop = KeyboardInterrupt if signum == signal.SIGINT else Stopped
    with pytest.raises(stop):
        run_accessible(play, lambda _: next(typed), said.append, watch=False)
    assert recorder.sent
    assert said[-1] == f"game saved to {tmp_path / 'g.pgn'}"
    reopened = SqliteStore(tmp_path / "games.sqlite")
    try:
        stored = reopened.load(game_id)
    finally:
        reopened.close()
    pos = stored.position()
    return [pos.uci(move) for move in pos.move_stack], (tmp_path / "g.pgn").read_text()


@pytest.mark.usefixtures("sigterm_stops")
@pytest.mark.parametrize("late", [False, True], ids=["before-the-write", "after-the-write"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_as_the_reply_is_recorded_leaves_the_pgn_and_the_store_agreeing(
    tmp_path: Path, signum: int, late: bool
) -> None:
    stored, pgn = _interrupted(tmp_path, signum, late=late)
    assert stored == ["e2e4", "g7g5"], "the reply accepted is kept, not lost"
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None and game.headers["Result"] == "*"
    assert [move.uci() for move in game.mainline_moves()] == stored, pgn


def test_a_signal_in_a_held_step_takes_effect_after_it() -> None:
    steps: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held():
            signal.raise_signal(signal.SIGINT)
            steps.append("the step goes on")
        steps.append("never: the signal took effect at the step's end")
    assert steps == ["the step goes on"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_held_step_that_fails_still_lets_the_signal_through() -> None:
    with pytest.raises(KeyboardInterrupt) as caught, interrupts_held():
        signal.raise_signal(signal.SIGINT)
        raise OSError("the disk is full")
    assert isinstance(caught.value.__context__, OSError)


def test_without_a_signal_a_held_step_changes_nothing(sigterm_stops: None) -> None:
    handlers = [signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)]
    with interrupts_held():
        pass
    assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == handlers


def test_outside_the_main_thread_a_step_is_not_held() -> None:
    seen: list[object] = []

    def step() -> None:
        with interrupts_held():
            seen.append(signal.getsignal(signal.SIGINT))

    worker = threading.Thread(target=step)
    worker.start()
    worker.join()
    assert seen == [signal.default_int_handler]
