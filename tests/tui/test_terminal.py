"""Whole games through a real terminal (tmux), typed as a person types them; the saved PGN
scoresheets then pass ``chessarbiter check``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (scripts/test.sh installs it)")

WAIT_S = 60.0


class Terminal:
    """A tmux session running one command."""

    def __init__(self, command: list[str], cwd: Path, size: tuple[int, int] = (110, 36)) -> None:
        self.name = f"ca-{uuid.uuid4().hex[:8]}"
        shell = subprocess.list2cmdline(command) + '; echo "[exited $?]"; sleep 60'
        # the session's environment is tmux's server's, which may be older than this run:
        # PYTHONPATH and PATH always set from the test's own (empty when it has none)
        env = [f"-e{name}={os.environ.get(name, '')}" for name in ("PYTHONPATH", "PATH")]
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", str(size[0]),
                        "-y", str(size[1]), *env, "-c", str(cwd), shell], check=True)

    def screen(self) -> str:
        out = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name],
                             capture_output=True, text=True)
        return out.stdout

    def wait_for(self, text: str, timeout_s: float = WAIT_S) -> str:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def type(self, line: str) -> None:
        """Type a line, then Enter once it shows (keys that come in one burst would read
        as a paste, whose line break the input field drops)."""
        subprocess.run(["tmux", "send-keys", "-t", self.name, "-l", line], check=True)
        self.wait_for(f"▊  {line}")
        subprocess.run(["tmux", "send-keys", "-t", self.name, "Enter"], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def play(tmp_path: Path, *args: str) -> Iterator[Terminal]:
    command = [sys.executable, "-m", "chessarbiter.cli.main", "play", "--white", "human",
               "--black", "human", "--ascii", "--dir", str(tmp_path), *args]
    terminal = Terminal(command, tmp_path)
    try:
        terminal.wait_for("type help")
        yield terminal
    finally:
        terminal.close()


def moves(terminal: Terminal, *sans: str) -> None:
    """Play moves from the initial position, each confirmed in the move list."""
    for ply, san in enumerate(sans):
        terminal.type(san)
        number = ply // 2 + 1
        if ply % 2 == 0:
            terminal.wait_for(f"{number}. {san}")
        else:
            terminal.wait_for(f"{number}. {sans[ply - 1]} {san}")


def quit_game(terminal: Terminal) -> None:
    terminal.type("quit")
    terminal.wait_for("[exited 0]")


def check_saved(tmp_path: Path) -> dict[str, object]:
    pgns = sorted(tmp_path.glob("*.pgn"))
    assert len(pgns) == 1
    out = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "check", "--json",
                          str(pgns[0])], capture_output=True, text=True, timeout=120)
    report: dict[str, Any] = json.loads(out.stdout)
    assert out.returncode == 0, out.stdout
    assert report["summary"]["games"] == 1
    return report


def test_checkmate(tmp_path: Path) -> None:
    for term in play(tmp_path):
        moves(term, "f3", "e5", "g4")
        term.type("Qh4")
        term.wait_for("game over: 0-1 by checkmate")
        quit_game(term)
    assert '[Termination "normal"]' in next(tmp_path.glob("*.pgn")).read_text()
    check_saved(tmp_path)


def test_flag_against_a_lone_king_is_a_draw(tmp_path: Path) -> None:
    for term in play(tmp_path, "--tc", "0.05+0", "--fen", "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"):
        term.type("Kf2")
        screen = term.wait_for("game over: 1/2-1/2 by time forfeit", timeout_s=WAIT_S)
        assert "cannot checkmate" in screen
        quit_game(term)
    check_saved(tmp_path)


def test_claimed_threefold(tmp_path: Path) -> None:
    for term in play(tmp_path):
        moves(term, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
        term.type("claim Ng8")
        term.wait_for("game over: 1/2-1/2 by threefold repetition")
        quit_game(term)
    check_saved(tmp_path)


def test_resignation(tmp_path: Path) -> None:
    for term in play(tmp_path):
        moves(term, "e4", "e5")
        term.type("resign")
        term.wait_for("game over: 0-1 by resignation")
        quit_game(term)
    check_saved(tmp_path)


def test_wrong_claim_is_penalised(tmp_path: Path) -> None:
    for term in play(tmp_path, "--tc", "90+30", "--profile", "fide-2023"):
        moves(term, "e4")
        term.type("claim")
        term.wait_for("120 s added to white's clock (Art. 9.5.3)")
        term.wait_for("white 1:32:")  # 90 min + 30 s increment + the 2-minute penalty
        quit_game(term)
    text = next(tmp_path.glob("*.pgn")).read_text()
    assert '[Result "*"]' in text
    check_saved(tmp_path)


def _stored(folder: Path) -> list[tuple[str, str]]:
    """Each game of the default store: its id and its scoresheet as the store replays it."""
    from chessarbiter.arbiter.scoresheet import to_pgn
    from chessarbiter.store import SqliteStore

    store = SqliteStore(folder / "games.sqlite")
    try:
        return [(info.game_id, to_pgn(store.load(info.game_id))) for info in store.games()]
    finally:
        store.close()


def test_the_engine_plays_with_the_default_store_then_the_game_resumes(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "chessarbiter.cli.main", "play", "--white", "engine:1",
               "--black", "human", "--ascii", "--seed", "3", "--dir", str(tmp_path)]
    term = Terminal(command, tmp_path)
    try:
        term.wait_for("type help")
        term.wait_for("1. ")  # the engine's first move, recorded from its thread's answer
        term.type("Nf6")
        term.wait_for("1... Nf6")
        screen = term.wait_for("2. ")
        assert "forfeit" not in screen and "illegal" not in screen
        quit_game(term)
    finally:
        term.close()
    [(game_id, stored)] = _stored(tmp_path)
    pgn = tmp_path / f"games-{game_id}.pgn"
    assert pgn.read_text() == stored and '[Result "*"]' in stored
    assert stored.count(".") >= 3  # the engine's two moves and the person's one
    term = Terminal([*command, "--resume", game_id], tmp_path)
    try:
        term.wait_for("game resumed after 2.")
        term.type("Nc6")
        term.wait_for("3. ")  # the engine plays on in the resumed game
        term.type("resign")
        term.wait_for("game over: 1-0 by resignation")
        quit_game(term)
    finally:
        term.close()
    [(_, stored)] = _stored(tmp_path)
    assert pgn.read_text() == stored and '[Result "1-0"]' in stored
    assert "Nc6" in stored and "forfeit" not in stored
    check_saved(tmp_path)


def _help_rows(screen: str) -> list[str]:
    """The rows of the messages' pane that show ``help``'s list (its box's inner text)."""
    rows = [line[1:].rstrip("│▁▅▇█▃▂▄▆ ") for line in screen.splitlines()
            if line.startswith("│")]
    return [row for row in rows if row and not row.startswith(("> ", "chessarbiter:", "type "))]


def test_help_reads_well_at_80x24(tmp_path: Path) -> None:
    from chessarbiter.present.help import HELP

    commands = (*(cmd for cmd, _ in HELP), "PageUp / PageDown", "ctrl+f", "ctrl+q")
    command = [sys.executable, "-m", "chessarbiter.cli.main", "play", "--white", "human",
               "--black", "human", "--ascii", "--dir", str(tmp_path)]
    term = Terminal(command, tmp_path, size=(80, 24))
    try:
        term.wait_for("type help")
        term.type("help")
        first = term.wait_for("│MOVE ")
        seen = _help_rows(first)
        for _ in range(3):
            subprocess.run(["tmux", "send-keys", "-t", term.name, "PageDown"], check=True)
            time.sleep(0.3)
            seen += _help_rows(term.screen())
        quit_game(term)
    finally:
        term.close()
    listed = seen[:next(i for i, row in enumerate(seen) if row.startswith("Articles"))]
    assert "MOVE               play a move: Nf3, exd5, O-O, e8=Q, g1f3, Ng1-f3" in listed
    assert "claim [repetition|50] [MOVE]" in listed
    assert f"{'ctrl+q'.ljust(17)}  save and quit" in listed
    for row in listed:  # a command's row, or what one does wrapped under its column
        assert row.startswith((*commands, " " * 19)), (row, first)
