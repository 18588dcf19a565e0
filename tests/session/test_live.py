"""A live game: events timed by the time source, flags observed, the journal survives a crash."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import ClaimKind
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.core import ChessError, Position
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2023_BLITZ, InputMode
from chessarbiter.session.live import LiveGame, read_move
from chessarbiter.store.journal import Journal
from tests.clock.fake_time import FakeTime

W, B = Side.WHITE, Side.BLACK
S = 1000
PROFILE = replace(FIDE_2023_BLITZ, input_mode=InputMode.DIGITAL)


def new_game(time: FakeTime, fen: str | None = None, tc: str = "5+3") -> LiveGame:
    game = Game(PROFILE, parse_human(tc), fen=fen or STARTING_FEN)
    live = LiveGame(game, now=time)
    live.start()
    return live


@pytest.mark.parametrize(("text", "uci"), [("Nf3", "g1f3"), ("g1f3", "g1f3"),
                                           ("Ng1-f3", "g1f3"), (" e4 ", "e2e4")])
def test_moves_typed_every_way(text: str, uci: str) -> None:
    pos = Position()
    assert pos.uci(read_move(pos, text)) == uci


def test_a_game_over_in_its_start_position_starts_no_clock() -> None:
    live = new_game(FakeTime(), fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    outcome = live.game.outcome
    assert outcome is not None and outcome.termination is Termination.STALEMATE
    assert live.game.log == () and live.start() == ()


def test_unreadable_and_illegal_moves_change_nothing() -> None:
    time = FakeTime()
    live = new_game(time)
    for text in ("Nf6", "xyz", "e5"):
        with pytest.raises(ChessError):
            live.move(W, text)
    assert len(live.game.log) == 1  # only the clock start


def test_clocks_run_between_events() -> None:
    time = FakeTime()
    live = new_game(time)
    time.advance(2 * S)
    live.move(W, "e4")
    assert live.clocks() == (301 * S, 300 * S)  # 5:00 - 2 s + 3 s increment
    time.advance(10 * S)
    assert live.clocks() == (301 * S, 290 * S)  # Black's display runs, nothing recorded
    assert len(live.game.log) == 2


def test_a_fallen_flag_is_recorded_before_the_next_action() -> None:
    time = FakeTime()
    live = new_game(time, fen="4k3/8/8/8/8/8/8/3QK3 w - - 0 1", tc="1+0")
    live.move(W, "Qd7+")
    time.advance(61 * S)
    assert live.flag_fallen()
    decisions = live.move(B, "Kf8")  # too late: the flag fell first
    assert decisions and live.game.outcome is not None
    assert live.game.outcome.result is Result.WHITE_WINS
    assert live.game.outcome.termination is Termination.TIME_FORFEIT


def test_flag_against_a_lone_king_is_a_draw() -> None:
    """Art. 6.9: Black's flag falls, but White has only his king."""
    time = FakeTime()
    live = new_game(time, fen="4k3/8/8/8/8/8/8/3qK3 w - - 0 1", tc="1+0")
    live.move(W, "Kxd1")
    time.advance(70 * S)
    live.observe_flag()
    assert live.game.outcome is not None and live.game.outcome.result is Result.DRAW


def test_offer_claim_resign() -> None:
    time = FakeTime()
    live = new_game(time)
    for text in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"):
        live.move(live.game.to_move, text)
    with pytest.raises(ArbiterError):
        live.accept(W)  # no offer pending
    live.claim(B, ClaimKind.THREEFOLD, "Ng8")  # the third occurrence on the intended move
    assert live.game.outcome is not None
    assert live.game.outcome.termination is Termination.THREEFOLD_REPETITION


def test_journal_resumes_the_game_after_a_crash(tmp_path: Path) -> None:
    time = FakeTime()
    game = Game(PROFILE, parse_human("5+3"))
    path = tmp_path / "game.jsonl"
    live = LiveGame(game, now=time, journal=Journal.create(path, game))
    live.start()
    time.advance(4 * S)
    live.move(W, "e4")
    time.advance(7 * S)
    live.move(B, "c5")
    live.close()
    with path.open("a") as stream:
        stream.write('{"kind": "move", "at_ms": 99')  # a write cut off by the crash
    resumed, journal, cut = Journal.resume(path)
    assert cut and resumed.state() == live.game.state()
    later = FakeTime(5_000_000)
    again = LiveGame(resumed, now=later, journal=journal)
    assert again.time() == live.last_at()  # the time base continues from the log
    later.advance(1 * S)
    again.move(W, "Nf3")
    again.close()
    final, journal, cut = Journal.resume(path)
    journal.close()
    assert not cut and len(final.records) == 3


def test_journal_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("precious")
    with pytest.raises(FileExistsError):
        Journal.create(path, Game())
    assert path.read_text() == "precious"


def test_journal_keeps_the_analysis_the_arbiter_recorded(tmp_path: Path) -> None:
    """A dead position found after a move is journalled with the move: resuming reads it."""

    def dead_once_captured(pos: Position) -> str | None:
        return "injected" if pos.pieces[13] == 0 else None  # no black queen left

    time = FakeTime()
    game = Game(PROFILE, parse_human("5+3"), fen="4k3/8/8/8/8/8/4q3/3K3R w - - 0 1",
                dead_check=dead_once_captured)
    path = tmp_path / "game.jsonl"
    live = LiveGame(game, now=time, journal=Journal.create(path, game))
    live.start()
    time.advance(2 * S)
    live.move(W, "Kxe2")
    live.close()
    assert live.game.outcome is not None
    resumed, journal, _ = Journal.resume(path)  # the default dead check would not find it
    journal.close()
    assert resumed.outcome == live.game.outcome
