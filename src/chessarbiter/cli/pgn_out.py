"""The PGN file a match writes (``--pgn``): its folder made first, the file itself opened
only once everything else is ready, and appended to, so a refused or repeated match never
empties the games an earlier one wrote."""

from __future__ import annotations

from pathlib import Path
from typing import IO

from chessarbiter.cli.errors import CommandError


def make_folder(pgn: Path) -> None:
    """Create the PGN file's folder when it is missing (the store may sit beside it)."""
    try:
        pgn.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CommandError(f"--pgn: {pgn}: {pgn.parent} is not a folder") from None
    except OSError as exc:
        raise CommandError(f"--pgn: {pgn}: {exc.strerror or exc}") from None
    if pgn.is_dir():
        raise CommandError(f"--pgn: {pgn}: a folder, not a file")


def open_for_games(pgn: Path) -> IO[str]:
    """The PGN file opened to append the match's games to whatever it holds."""
    try:
        return pgn.open("a", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--pgn: {pgn}: {exc.strerror or exc}") from None
