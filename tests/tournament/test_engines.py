"""Engine tournaments: round robin, gauntlet and Swiss between built-in engines, games under
the Laws (short games: a draw is adjudicated after a few plies), standings, tallies, Elo,
the store and the TRF file re-checked by ``tournament check``. The full 24-engine Swiss of
the issue is a long test run from the command line."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import chessarbiter
from chessarbiter.clock import parse_control
from chessarbiter.laws.profiles import InputMode, profile_for
from chessarbiter.notation.pgn_reader import read_pgn_text
from chessarbiter.store import SqliteStore
from chessarbiter.store.tournaments import TournamentStore
from chessarbiter.tournament.engines import (
    EngineTournament,
    player_names,
    run_engine_tournament,
)
from chessarbiter.tournament.events import TournamentError
from chessarbiter.tournament.log import Tournament
from chessarbiter.tournament.match import Adjudication
from chessarbiter.tournament.records import Code

CONTROL = parse_control("0.05+0.01")
PROFILE = replace(profile_for(CONTROL), input_mode=InputMode.DIGITAL, flags_automatic=True)
SHORT = Adjudication(max_plies=12)


def event(players: tuple[str, ...], form: str, rounds: int = 1) -> EngineTournament:
    return EngineTournament(players, form, CONTROL, PROFILE, rounds, adjudication=SHORT,
                            seed=11)


def test_round_robin_of_three_engines(tmp_path: Path) -> None:
    """Three engines: three rounds of one game (one sits out each), every pair meets once,
    each game stored and written as PGN; the tournament is kept in the store and ranks
    every player."""
    path = tmp_path / "games.sqlite"
    games, store = SqliteStore(path), TournamentStore(path)
    pgn = io.StringIO()
    outcome = run_engine_tournament(event(("engine:1", "engine:2", "engine:1"), "roundrobin"),
                                    pgn=pgn, games_store=games, store=store)
    assert outcome.games == 3
    assert sorted(outcome.tallies) == ["engine:1 #1", "engine:1 #2", "engine:2"]
    assert all(t.games == 2 for t in outcome.tallies.values())
    parsed = read_pgn_text(pgn.getvalue())
    assert len(parsed) == 3 and not any(g.error for g in parsed)
    assert len(games.games()) == 3
    state = Tournament.load(store, 1).state
    assert state.finished and state.cells() == outcome.state.cells()  # type: ignore[union-attr]
    met = {frozenset((s, c.opponent)) for s, cs in state.cells().items() for c in cs
           if c.opponent is not None}
    assert met == {frozenset(p) for p in ((1, 2), (1, 3), (2, 3))}
    wins = sum(t.wins for t in outcome.tallies.values())
    assert wins == sum(t.losses for t in outcome.tallies.values())


def test_gauntlet() -> None:
    """The first engine plays two games against each other one, colours alternating."""
    outcome = run_engine_tournament(event(("engine:2", "engine:1", "engine:1"), "gauntlet", 2))
    first = outcome.tallies["engine:2"]
    assert outcome.games == 4 and first.games == 4 and outcome.state is None
    assert all(outcome.tallies[n].games == 2 for n in ("engine:1 #1", "engine:1 #2"))


def test_swiss_of_six_engines_checked(tmp_path: Path) -> None:
    """Six engines, three Swiss rounds paired by the Dutch system; every round re-paired
    from the TRF file by ``tournament check``: no discrepancy."""
    from chessarbiter.tournament.director import trf_text

    outcome = run_engine_tournament(event(tuple(f"engine:{1 + i % 3}" for i in range(6)),
                                          "swiss", 3))
    state = outcome.state
    assert state is not None and state.finished and outcome.games == 9
    codes = {c.code for cs in state.cells().values() for c in cs}
    assert Code.NONE not in codes
    trf = tmp_path / "swiss.trf"
    trf.write_bytes(trf_text(state).encode())
    assert check(trf).returncode == 0


def check(trf: Path) -> subprocess.CompletedProcess[str]:
    source = str(Path(chessarbiter.__file__).parents[1])
    out = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "tournament", "check",
                          str(trf)], env=os.environ | {"PYTHONPATH": source},
                         capture_output=True, text=True, timeout=600)
    print(out.stdout[-3000:], out.stderr[-3000:])
    return out


def test_names_and_bad_events() -> None:
    assert player_names(["engine:1", "uci:x", "engine:1"]) == [
        "engine:1 #1", "uci:x", "engine:1 #2"]
    with pytest.raises(TournamentError, match="format 'knockout'"):
        event(("engine:1", "engine:2"), "knockout")
    with pytest.raises(TournamentError, match="at least 2 engines"):
        event(("engine:1",), "roundrobin")


@pytest.mark.long
def test_swiss_of_24_engines_from_the_command_line(tmp_path: Path) -> None:
    """The issue's figure: 24 built-in engine players, 7 rounds at a fast control, run by
    ``chessarbiter match --tournament swiss``; its TRF re-checked with 0 discrepancies."""
    source = str(Path(chessarbiter.__file__).parents[1])
    engines = [arg for level in range(24) for arg in ("--engine", f"engine:{1 + level % 4}")]
    run = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "match",
                          "--tournament", "swiss", "--rounds", "7", "--tc", "0.05+0.01",
                          "--seed", "24", "--concurrency", "2", *engines,
                          "--pgn", str(tmp_path / "swiss.pgn"), "--trf",
                          str(tmp_path / "swiss.trf")],
                         env=os.environ | {"PYTHONPATH": source}, capture_output=True,
                         text=True, timeout=7200)
    print(run.stdout)
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(run.stdout.splitlines()) == 25  # the header and every player ranked
    games = read_pgn_text((tmp_path / "swiss.pgn").read_text())
    assert len(games) == 84 and not any(g.error for g in games)
    assert check(tmp_path / "swiss.trf").returncode == 0


def test_match_command_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``match --tournament``: a two-engine double round robin from the command line (its
    standings with tallies and Elo, the tournament in the store); bad input in one line."""
    from chessarbiter.cli.main import main

    pgn = tmp_path / "rr" / "games.pgn"
    code = main(["match", "--tournament", "double", "--engine", "engine:1", "--engine",
                 "engine:2", "--tc", "0.02+0.01", "--seed", "3", "--pgn", str(pgn)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert out.err.startswith("double of 2 engines, 1.2 seconds + 0.01 seconds per move, ")
    lines = out.out.splitlines()
    assert lines[0].split()[:3] == ["Pl", "Engine", "Pts"] and len(lines) == 3
    assert sorted(line.split()[3] for line in lines[1:]) == ["1", "2"]  # chessarbiter level N
    assert all(line.split()[-7] == "2" for line in lines[1:])  # two games each
    assert len(read_pgn_text(pgn.read_text())) == 2
    stored = TournamentStore(tmp_path / "rr" / "games.sqlite")
    assert Tournament.load(stored, 1).state.finished
    assert main(["match", "--tournament", "swiss", "--engine", "engine:1", "--pgn",
                 str(pgn)]) == 2
    assert "at least two engines" in capsys.readouterr().err
    assert main(["match", "--tournament", "roundrobin", "--engine", "engine:1", "--engine",
                 "engine:99", "--pgn", str(pgn)]) == 2
    assert "--engine: level 99: expected 1 to 10" in capsys.readouterr().err


def test_a_tournament_names_engines_as_they_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two copies of one engine set differently are told apart in the standings and the
    PGN; two set alike are numbered."""
    from chessarbiter.cli.main import main

    fake = f"{sys.executable} {Path(__file__).parents[1] / 'engines' / 'fake_engine.py'} good"
    pgn = tmp_path / "games.pgn"
    code = main(["match", "--tournament", "roundrobin", "--games", "1", "--tc", "tc=5+0.1",
                 "--engine", f"{fake};Skill Level=3", "--engine", f"uci:{fake};skill level=5",
                 "--engine", f"{fake};Skill Level=5", "--pgn", str(pgn)])
    out = capsys.readouterr()
    assert code == 0, out.err
    shown = {line[5:].split("  ")[0] for line in out.out.splitlines()[1:]}
    assert shown == {"Fake good (Skill Level=3)", "Fake good (Skill Level=5) #1",
                     "Fake good (Skill Level=5) #2"}
    named = {g.tags[side] for g in read_pgn_text(pgn.read_text()) for side in ("White", "Black")}
    assert named == {"Fake good (Skill Level=3)", "Fake good (Skill Level=5)"}
