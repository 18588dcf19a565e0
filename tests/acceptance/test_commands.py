"""Every command of the README's Commands section run from the plain install as a user runs
it, on its defaults and the documented variants, in an empty working directory."""

from __future__ import annotations

import json
import re
import socket
import urllib.error
import urllib.request
from pathlib import Path

import chess
import pytest

from tests.acceptance.games import read_games
from tests.acceptance.processes import Running, wait_until
from tests.acceptance.readme import (
    documented_lines,
    documented_options,
    documented_packages,
    help_choices,
    source_packages,
)
from tests.acceptance.venvs import Venv
from tests.corpus import corpus_path

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get(url: str, token: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read().decode()


def answering(server: Running, url: str) -> None:
    """Wait until ``server`` answers ``url`` (it prints its URL before it listens)."""
    def answers() -> bool:
        assert server.process.poll() is None, f"the server ended:\n{server.stderr}"
        try:
            get(url)
        except urllib.error.URLError:
            return False
        return True

    wait_until(answers, f"{url} answering")


def one_line(stderr: str) -> None:
    """A refusal as the README gives it: one line, no traceback."""
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr


def test_every_command_has_help_showing_the_documented_options(plain: Venv, cwd: Path) -> None:
    """The README's Commands section and ``--help`` agree both ways: every command and
    action ``--help`` lists is in the section, every option the section shows is in
    ``--help``."""
    documented = documented_options()
    lines = documented_lines()
    out = plain.run("--help", cwd=cwd)
    assert out.returncode == 0 and out.stdout.startswith("usage: chessarbiter"), out.stderr
    commands = help_choices(out.stdout)
    assert len(commands) >= 8 and "tournament" in commands, out.stdout
    assert set(commands) == set(documented), "the README's commands are not --help's"
    for command in commands:
        out = plain.run(command, "--help", cwd=cwd)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(f"usage: chessarbiter {command}"), out.stdout
        shown = out.stdout
        actions = help_choices(shown)
        missing_actions = [a for a in actions if not re.search(rf"\b{a}\b", lines[command])]
        assert not missing_actions, f"the README lacks {command}'s actions {missing_actions}"
        if command == "tournament":  # its options belong to its actions
            assert {"create", "pair", "check"} <= set(actions), shown
            shown += "".join(plain.run(command, action, "--help", cwd=cwd).stdout
                             for action in ("create", "pair"))
        missing = {option for option in documented[command] if option not in shown}
        assert not missing, f"{command} --help lacks the README's {sorted(missing)}"
    out = plain.run("tournament", "check", "--help", cwd=cwd)
    assert out.returncode == 0 and "usage: chessarbiter tournament check" in out.stdout
    assert not list(cwd.iterdir()), "--help creates nothing"


def test_every_package_is_in_the_readmes_table() -> None:
    packages = source_packages()
    assert {"core", "arbiter", "engines", "server", "tournament"} <= packages
    assert documented_packages() == packages


def test_perft(plain: Venv, cwd: Path) -> None:
    out = plain.run("perft", "3", cwd=cwd)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "8902"
    divided = plain.run("perft", "startpos", "2", "--divide", cwd=cwd)
    assert divided.returncode == 0, divided.stderr
    counts = [int(n) for n in re.findall(r"^[a-h][1-8][a-h][1-8]\w?:? +(\d+)$", divided.stdout,
                                         re.M)]
    assert len(counts) == 20 and sum(counts) == 400, divided.stdout
    kiwipete = plain.run("perft", KIWIPETE, "2", cwd=cwd)
    assert kiwipete.returncode == 0 and kiwipete.stdout.split()[-1] == "2039", kiwipete.stdout
    bad = plain.run("perft", "startpos", "21", cwd=cwd)
    assert bad.returncode == 2
    one_line(bad.stderr)


def test_deadpos(plain: Venv, cwd: Path) -> None:
    lone_bishop = "8/8/4k3/8/8/3BK3/8/8 w - - 0 1"
    out = plain.run("deadpos", lone_bishop, cwd=cwd)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^white: unwinnable", out.stdout, re.M), out.stdout
    assert re.search(r"^black: unwinnable", out.stdout, re.M), out.stdout
    quick = plain.run("deadpos", "startpos", "--side", "white", "--mode", "quick", "--json",
                      cwd=cwd)
    assert quick.returncode == 0, quick.stderr
    assert list(json.loads(quick.stdout)["sides"]) == ["white"], quick.stdout
    bad = plain.run("deadpos", "8/8/8/8/8/8/8/8 w - - 0 1", cwd=cwd)
    assert bad.returncode == 2
    one_line(bad.stderr)


def test_check(plain: Venv, cwd: Path) -> None:
    game = corpus_path("pgn", "python-chess", "molinari-bordais-1979.pgn")
    out = plain.run("check", str(game), cwd=cwd)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 games in 1 files: 0 with errors" in out.stdout
    many = corpus_path("pgn", "chessops", "kasparov-deep-blue-1997.pgn")
    report = plain.run("check", "--json", "--jobs", "2", str(many), str(game), cwd=cwd)
    assert report.returncode == 0, report.stderr
    summary = json.loads(report.stdout)["summary"]
    assert summary["games"] == 1 + len(re.findall(r"^\[Event ", many.read_text(), re.M))
    illegal = cwd / "illegal.pgn"
    illegal.write_text('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n')
    broken = plain.run("check", "--quiet", str(illegal), cwd=cwd)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "Ke3" in broken.stdout
    missing = plain.run("check", str(cwd / "none.pgn"), cwd=cwd)
    assert missing.returncode == 2
    one_line(missing.stderr)


def test_uci(plain: Venv, cwd: Path) -> None:
    engine = Running([str(plain.command), "uci"], cwd, plain.env(), stdin=True)
    try:
        engine.send("uci")
        engine.wait_for("uciok")
        assert "id name" in engine.stdout and "option name Skill Level" in engine.stdout
        engine.send("isready")
        engine.wait_for("readyok")
        engine.send("position startpos moves e2e4")
        engine.send("go depth 3")
        engine.wait_for("bestmove")
        assert re.search(r"^info depth 3 .*pv ", engine.stdout, re.M), engine.stdout
        best = re.search(r"^bestmove (\S+)", engine.stdout, re.M)
        assert best is not None
        board = chess.Board()
        board.push_uci("e2e4")
        assert chess.Move.from_uci(best.group(1)) in board.legal_moves
        engine.send("quit")
        assert engine.process.wait(timeout=30) == 0
        assert engine.stderr == ""
    finally:
        engine.close()


def test_serve_answers_on_a_plain_install(plain: Venv, cwd: Path) -> None:
    added = plain.run("serve", "--add-account", "ann", cwd=cwd)
    assert added.returncode == 0, added.stderr
    token = re.fullmatch(r"ann \(player\): (\S+)\n", added.stdout)
    assert token is not None, added.stdout
    arbiter = plain.run("serve", "--add-account", "arb", "--arbiter", cwd=cwd)
    assert arbiter.returncode == 0 and "arb (arbiter): " in arbiter.stdout, arbiter.stderr
    assert (cwd / "games.sqlite").is_file()
    port = free_port()
    server = Running([str(plain.command), "serve", "--port", str(port)], cwd, plain.env())
    try:
        server.wait_for(f"http://127.0.0.1:{port}/")
        answering(server, f"http://127.0.0.1:{port}/")
        status, page = get(f"http://127.0.0.1:{port}/")
        assert status == 200 and "<html" in page.lower()
        status, document = get(f"http://127.0.0.1:{port}/api/openapi.json")
        assert status == 200 and json.loads(document)["openapi"].startswith("3.")
        status, account = get(f"http://127.0.0.1:{port}/api/account", token.group(1))
        assert status == 200 and json.loads(account)["username"] == "ann"
        assert "Traceback" not in server.stderr, server.stderr
    finally:
        server.close()


def test_tournament_check(plain: Venv, cwd: Path) -> None:
    good = plain.run("tournament", "check",
                     str(corpus_path("pairings", "generated", "dutch_p15_r5_s101.trf")), cwd=cwd)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "5 of 5 rounds as the rules give them; 0 with discrepancies" in good.stdout
    swapped = corpus_path("pairings", "checker", "p30A_colour_swapped_r3.trf")
    bad = plain.run("tournament", "check", str(swapped), cwd=cwd)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "round 3: discrepancy" in bad.stdout
    for name, content in [("notes.txt", "a shopping list, not a tournament\n"),
                          ("empty.trf", ""),
                          ("game.trf", "1. e4 e5 2. Nf3 Nc6 *\n")]:
        garbage = cwd / name
        garbage.write_text(content)
        out = plain.run("tournament", "check", str(garbage), cwd=cwd)
        assert out.returncode == 2, f"{name}: {out.returncode} {out.stdout}"
        one_line(out.stderr)
        assert name in out.stderr


def test_match_of_the_built_in_engine(plain: Venv, cwd: Path) -> None:
    out = plain.run("match", "--pgn", "out/m.pgn", "--games", "2", "--tc", "0.05+0",
                    cwd=cwd, timeout_s=120)
    assert out.returncode == 0, out.stdout + out.stderr
    games = read_games(cwd / "out" / "m.pgn")
    assert len(games) == 2
    for game in games:
        assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert "Termination" in game.headers
        assert game.headers["White"].startswith("chessarbiter level")
        assert game.headers["Black"].startswith("chessarbiter level")
    assert (cwd / "out" / "games.sqlite").is_file()
    audit = plain.run("check", "out/m.pgn", cwd=cwd)
    assert audit.returncode == 0, audit.stdout


def test_a_refused_match_leaves_the_pgn_as_it_was(plain: Venv, cwd: Path) -> None:
    """A store path that is no database is bad input: one line, exit code 2, and the PGN
    of earlier games untouched."""
    earlier = ('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n'
               "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
    (cwd / "p.pgn").write_text(earlier)
    (cwd / "notes.txt").write_text("a text file, not a database\n")
    out = plain.run("match", "--pgn", "p.pgn", "--store", "notes.txt", "--games", "2",
                    "--tc", "0.05+0", cwd=cwd)
    assert out.returncode == 2, out.stdout + out.stderr
    one_line(out.stderr)
    assert (cwd / "p.pgn").read_text() == earlier
    assert (cwd / "notes.txt").read_text() == "a text file, not a database\n"


@pytest.mark.long
def test_match_on_its_defaults(plain: Venv, cwd: Path) -> None:
    """Two games at 1+0.1 (minutes) by default: about two minutes."""
    out = plain.run("match", "--pgn", "m.pgn", cwd=cwd, timeout_s=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert len(read_games(cwd / "m.pgn")) == 2
