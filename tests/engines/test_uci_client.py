"""External UCI engines as players: scripted fakes that misbehave, our own engine in a
subprocess, and Debian's Stockfish when it is installed."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.engines import uci_client
from chessarbiter.engines.uci_client import (
    ClockTimes,
    EngineFailure,
    EngineMove,
    UciEngine,
    position_command,
    resolve_command,
)

FAKE = str(Path(__file__).with_name("fake_engine.py"))
OURS = [sys.executable, "-m", "chessarbiter.cli.main", "uci"]
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def _start(mode: str, timeout_s: float = 10.0) -> UciEngine | EngineFailure:
    return UciEngine.start([sys.executable, FAKE, mode], timeout_s=timeout_s)


def _engine(mode: str) -> UciEngine:
    engine = _start(mode)
    assert isinstance(engine, UciEngine), engine
    return engine


def test_a_good_engine_plays_legal_moves() -> None:
    with _engine("good") as engine:
        assert engine.name == "Fake good"
        assert engine.new_game() is None
        pos = Position()
        for _ in range(4):
            outcome = engine.play(pos, ClockTimes(60_000, 60_000, 1000, 1000))
            assert isinstance(outcome, EngineMove), outcome
            assert outcome.move in pos.legal_moves()
            assert outcome.info == "info depth 1 score cp 12 pv"
            pos.push(outcome.move)
    assert not engine.running


def test_the_position_is_sent_from_its_start_with_the_moves() -> None:
    pos = Position()
    assert position_command(pos) == "position startpos"
    pos.push_uci("e2e4")
    assert position_command(pos) == "position startpos moves e2e4"
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    other = parse_fen(fen)
    other.push_uci("e1g1")
    assert position_command(other) == f"position fen {fen} moves e1g1"
    assert position_command(other, chess960=True) == f"position fen {fen} moves e1h1"


def test_clock_times_as_go_arguments() -> None:
    clock = ClockTimes(60_000, 50_000, 2_000, 1_000, movestogo=12)
    assert clock.go_args() == "wtime 60000 btime 50000 winc 2000 binc 1000 movestogo 12"
    assert clock.remaining_s(1) == 50.0
    assert ClockTimes(-5, 0).remaining_s(0) == 0.0


def test_a_missing_program_fails_to_start() -> None:
    failure = UciEngine.start(["/nonexistent/engine"])
    assert isinstance(failure, EngineFailure)
    assert failure.kind == "start"
    assert "/nonexistent/engine" in failure.detail


def test_an_engine_that_dies_at_once_fails_to_start() -> None:
    failure = _start("crash_on_start")
    assert isinstance(failure, EngineFailure)
    assert failure.kind == "start" and "crash" in failure.detail


def test_an_engine_silent_at_the_handshake_times_out() -> None:
    failure = _start("hang_on_uci", timeout_s=0.5)
    assert isinstance(failure, EngineFailure)
    assert failure.kind == "start" and "timeout" in failure.detail


def test_a_crash_while_thinking() -> None:
    engine = _engine("crash_on_go")
    outcome = engine.play(Position(), ClockTimes(1000, 1000))
    assert isinstance(outcome, EngineFailure)
    assert outcome.kind == "crash"
    assert "code 3" in outcome.detail and "boom" in outcome.detail
    assert not engine.running
    assert engine.play(Position()) == outcome  # a failed engine stays failed
    engine.close()


def test_a_hanging_engine_times_out_and_is_killed() -> None:
    engine = _engine("hang_on_go")
    outcome = engine.play(Position(), ClockTimes(60_000, 60_000), timeout_s=0.5)
    assert isinstance(outcome, EngineFailure)
    assert outcome.kind == "timeout"
    assert not engine.running
    engine.close()


@pytest.mark.parametrize(("reply", "kind"), [
    ("e2e5", "illegal"),
    ("e7e5", "illegal"),
    ("0000", "illegal"),
    ("(none)", "illegal"),
    ("banana", "malformed"),
    ("e2e4x", "malformed"),
    ("", "malformed"),
])
def test_bad_moves_are_failures(reply: str, kind: str) -> None:
    engine = _engine("reply:" + reply)
    outcome = engine.play(Position(), movetime_ms=100)
    assert isinstance(outcome, EngineFailure)
    assert outcome.kind == kind
    assert "Fake" in outcome.detail
    assert not engine.running


def test_our_own_engine_through_the_client() -> None:
    engine = UciEngine.start(OURS, options={"Skill Level": 5})
    assert isinstance(engine, UciEngine), engine
    with engine:
        assert engine.name == "chessarbiter"
        pos = Position()
        for _ in range(4):
            outcome = engine.play(pos, depth=2)
            assert isinstance(outcome, EngineMove), outcome
            assert " score cp " in outcome.info  # not the closing line of totals
            pos.push(outcome.move)
        assert len(pos.move_stack) == 4


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed "
                    "(Debian: apt-get install stockfish)")
def test_stockfish_as_a_player() -> None:
    assert STOCKFISH is not None
    engine = UciEngine.start([STOCKFISH], options={"Threads": 1, "Hash": 16})
    assert isinstance(engine, UciEngine), engine
    with engine:
        assert engine.name.startswith("Stockfish")
        pos = parse_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        outcome = engine.play(pos, depth=3)
        assert isinstance(outcome, EngineMove), outcome
        assert pos.uci(outcome.move) == "d1d8"


def test_a_bare_name_off_the_path_is_found_in_the_games_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    program = games / "fake-engine-x"
    program.write_text(f"#!{sys.executable}\nimport runpy, sys\nsys.argv[1:] = ['good']\n"
                       f"runpy.run_path({FAKE!r}, run_name='__main__')\n")
    program.chmod(0o755)
    monkeypatch.setattr(uci_client, "GAMES_DIR", str(games))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert resolve_command(["fake-engine-x", "-v"]) == [str(program), "-v"]
    assert resolve_command(["./fake-engine-x"]) == ["./fake-engine-x"]  # a path: as given
    assert resolve_command(["missing-x"]) == ["missing-x"]
    engine = UciEngine.start(["fake-engine-x"])
    assert isinstance(engine, UciEngine), engine
    with engine:
        assert engine.name == "Fake good"
    failure = UciEngine.start(["missing-x"])
    assert failure == EngineFailure("start", "cannot run 'missing-x': No such file or directory")
