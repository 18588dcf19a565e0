"""``chessarbiter play --levels``: the built-in engine's levels with their Elo, as the help
of ``--white`` and ``--black`` points to."""

from __future__ import annotations

from pathlib import Path

from chessarbiter.engines.levels import LADDER_ELO, elo_label
from tests.cli.test_conventions import chessarbiter_cmd


def test_play_lists_the_levels_with_the_ladders_elo(tmp_path: Path) -> None:
    done = chessarbiter_cmd(tmp_path, "play", "--levels")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"level {level:>2}: {elo_label(level)}" for level in range(1, 11)]
    assert sorted(LADDER_ELO) == list(range(1, 11))
    assert not list(tmp_path.iterdir())  # no game, no store


def test_the_side_options_point_to_the_levels(tmp_path: Path) -> None:
    done = chessarbiter_cmd(tmp_path, "play", "--help")
    assert done.returncode == 0
    assert "--levels lists each level's Elo" in " ".join(done.stdout.split())
