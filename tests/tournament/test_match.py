"""Engine matches under the Laws: short real matches, adjudication, faulty engines.

The 20-game matches of the issue (built-in against Stockfish, and against itself under a
delay and a two-period control) are long tests; the default run plays two-game matches.
"""

from __future__ import annotations

import datetime
import io
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from chessarbiter.cli.main import main
from chessarbiter.clock import parse_control, parse_us
from chessarbiter.laws.profiles import InputMode, profile_for
from chessarbiter.notation.pgn_reader import read_pgn_text
from chessarbiter.tournament.match import (
    Adjudication,
    EngineStartError,
    MatchConfig,
    check_engines,
    run_match,
)

FAKE = Path(__file__).resolve().parents[1] / "engines" / "fake_engine.py"
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def config(first: str, second: str, games: int, tc: str, **kw: object) -> MatchConfig:
    control = parse_us(tc) if tc.startswith("G/") else parse_control(tc)
    profile = replace(profile_for(control), input_mode=InputMode.DIGITAL, flags_automatic=True)
    return MatchConfig(first, second, games, control, profile, seed=7, **kw)  # type: ignore[arg-type]


def audit(pgn: str, path: Path) -> dict[str, object]:
    """``chessarbiter check --json`` on the games: legal moves, results, clocks."""
    path.write_text(pgn)
    out = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "check", "--json",
                          str(path)], capture_output=True, text=True, timeout=300)
    report: dict[str, object] = json.loads(out.stdout)
    assert out.returncode == 0, out.stdout[-2000:]
    return report


def _match(cfg: MatchConfig, tmp_path: Path, concurrency: int = 2) -> str:
    out = io.StringIO()
    tally = run_match(cfg, concurrency=concurrency, pgn=out)
    print(f"{cfg.first} vs {cfg.second}, {cfg.games} games: {tally.line()}")
    assert tally.games == cfg.games
    text = out.getvalue()
    games = read_pgn_text(text)
    assert len(games) == cfg.games and not any(g.error for g in games)
    assert all(g.moves and g.moves[0].clock_ms is not None for g in games)  # %clk written
    audit(text, tmp_path / "match.pgn")
    return text


def test_two_games_under_a_delay_control(tmp_path: Path) -> None:
    """40 plies each (drawn there; played out, the games took 7-8 s)."""
    rules = Adjudication(max_plies=40)
    text = _match(config("engine:2", "engine:1", 2, "G/0.1;d1", adjudication=rules), tmp_path)
    assert text.count("[Termination ") == 2
    assert all(len(g.moves) == 40 for g in read_pgn_text(text))


def test_two_games_under_a_two_period_control(tmp_path: Path) -> None:
    """30 plies (drawn there): the first period's 10 moves each, then 5 in the second."""
    rules = Adjudication(max_plies=30)
    text = _match(config("engine:2", "engine:2", 2, "10/0.05, 0.1+0.05", adjudication=rules),
                  tmp_path)
    assert any(len(g.moves) > 20 for g in read_pgn_text(text))  # into the second period


@pytest.mark.parametrize(
    ("mode", "words"),
    [("crash_on_go", "crash"), ("reply:e2e5", "illegal"), ("reply:xyz", "malformed"),
     ("crash_on_start", "start")],
)
def test_faulty_engines_lose_and_nothing_crashes(mode: str, words: str) -> None:
    bad = f"uci:{sys.executable} {FAKE} {mode}"
    tally = run_match(config(bad, "engine:1", 2, "0.1+0"), pgn=io.StringIO())
    assert (tally.wins, tally.losses) == (0, 2)


def test_a_hanging_engine_loses_on_time() -> None:
    bad = f"uci:{sys.executable} {FAKE} hang_on_go"
    out = io.StringIO()
    tally = run_match(config(bad, "engine:1", 1, "0.02+0"), pgn=out)
    assert tally.losses == 1
    assert '[Termination "time forfeit"]' in out.getvalue()


def test_score_adjudication() -> None:
    rules = Adjudication(resign_cp=300, resign_moves=2, max_plies=400)
    out = io.StringIO()
    tally = run_match(config("engine:4", "engine:1", 2, "0.2+0.05", adjudication=rules),
                      pgn=out)
    assert tally.games == 2
    games = read_pgn_text(out.getvalue())
    assert all(g.result in ("1-0", "0-1", "1/2-1/2") for g in games)


def test_match_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pgn = tmp_path / "m.pgn"
    openings = tmp_path / "o.epd"
    openings.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
    code = main(["match", "--games", "2", "--tc", "0.03+0.02", "--pgn", str(pgn),
                 "--engine", "engine:1", "--openings", str(openings), "--seed", "3"])
    assert code == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("chessarbiter level 10 vs chessarbiter level 1: +")
    assert pgn.read_text().count("[FEN ") == 2
    capsys.readouterr()
    assert main(["match", "--pgn", str(pgn), "--openings", str(tmp_path / "missing.epd")]) == 2
    assert capsys.readouterr().err.startswith("chessarbiter match: error: --openings: ")
    assert main(["match", "--pgn", str(pgn), "--engine", "a", "--engine", "b", "--engine",
                 "c"]) == 2
    assert "at most two" in capsys.readouterr().err
    assert main(["match", "--pgn", str(pgn), "--engine", "engine:\u00b3"]) == 2
    assert capsys.readouterr().err == ("chessarbiter match: error: --engine: engine level "
                                       "'\u00b3': expected a number 1-10\n")


def test_players_named_as_they_name_themselves_and_games_dated() -> None:
    good = f"uci:{sys.executable} {FAKE} good"
    cfg = config(good, "engine:6", 2, "0.03+0.02")
    assert check_engines(cfg) == {good: "Fake good", "engine:6": "chessarbiter level 6"}
    out = io.StringIO()
    run_match(cfg, pgn=out)
    games = read_pgn_text(out.getvalue())
    today = datetime.date.today().strftime("%Y.%m.%d")
    assert [(g.tags["White"], g.tags["Black"]) for g in games] == [
        ("Fake good", "chessarbiter level 6"), ("chessarbiter level 6", "Fake good")]
    assert all(g.tags["Date"] == today for g in games)


@pytest.mark.parametrize("mode", ["crash_on_start", "reply:e2e4"])
def test_check_engines_names_the_engine_that_cannot_start(mode: str) -> None:
    bad = f"uci:{sys.executable} {FAKE} {mode}"
    cfg = config("engine:1", bad, 2, "0.1+0")
    if mode == "crash_on_start":
        with pytest.raises(EngineStartError, match=r"exited \(code 1\) while we waited"):
            check_engines(cfg)
    else:  # starts well; failing later is a forfeit, not a refusal
        assert check_engines(cfg)[bad] == "Fake reply:e2e4"


@pytest.mark.skipif(STOCKFISH is None,
                    reason="stockfish is not installed (Debian: apt-get install stockfish)")
def test_a_short_match_against_stockfish_through_the_command(tmp_path: Path) -> None:
    assert STOCKFISH is not None
    env = os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    name = "stockfish" if Path(STOCKFISH).parent == Path("/usr/games") else STOCKFISH
    out = subprocess.run(
        [sys.executable, "-m", "chessarbiter.cli.main", "match", "--games", "2", "--tc",
         "0.02+0.01", "--pgn", "m.pgn", "--engine", "engine:1", "--engine",
         f"{name};Skill Level=0;Threads=1;Hash=16"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("chessarbiter level 1 vs Stockfish ")
    games = read_pgn_text((tmp_path / "m.pgn").read_text())
    assert len(games) == 2 and all(g.result != "*" and not g.error for g in games)
    names = {g.tags["White"] for g in games} | {g.tags["Black"] for g in games}
    assert "chessarbiter level 1" in names
    assert any(n.startswith("Stockfish") for n in names), names


@pytest.mark.long
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_twenty_games_against_stockfish(tmp_path: Path) -> None:
    sf = f"uci:{STOCKFISH};Skill Level=0;Threads=1;Hash=16"
    text = _match(config("engine:10", sf, 20, "12s+0.05s"), tmp_path)
    assert text.count("[Result ") == 20


@pytest.mark.long
@pytest.mark.parametrize("tc", ["G/0.3;d1", "20/12s, 12s+0.05s"])
def test_twenty_games_against_itself(tc: str, tmp_path: Path) -> None:
    text = _match(config("engine:10", "engine:6", 20, tc), tmp_path)
    results = [g.result for g in read_pgn_text(text)]
    assert len(results) == 20 and all(r != "*" for r in results)
    assert text.count('[Termination "time forfeit"]') < 10  # the engines manage their time
