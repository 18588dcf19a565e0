"""Opening positions for matches, read from PGN (each game's main line) or EPD/FEN lines."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from chessarbiter.core.errors import ChessError
from chessarbiter.core.fen import parse_epd, parse_fen
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.notation.pgn_reader import read_pgn_file


@dataclass(frozen=True, slots=True)
class Opening:
    """Where a match game starts: a position (FEN) reached by the opening's moves."""

    fen: str
    name: str


def read_openings(path: Path, *, chess960: bool = False) -> list[Opening]:
    """The openings in a ``.pgn`` file (main lines played out) or an EPD/FEN file (one per
    line); ``ValueError`` naming the file and line for a broken one."""
    if path.suffix.lower() == ".pgn":
        out = []
        for number, game in enumerate(read_pgn_file(path), 1):
            if game.error is not None:
                raise ValueError(f"{path}: game {number}: {game.error}")
            pos = game.replay()
            name = game.tags.get("Opening") or game.tags.get("Event") or f"game {number}"
            out.append(Opening(pos.fen(), name))
        return out
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            fields = text.split()
            if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
                pos = parse_fen(" ".join(fields[:6]), chess960=chess960)
            else:
                pos, _ = parse_epd(text, chess960=chess960)
        except ChessError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from None
        out.append(Opening(pos.fen(), f"{path.name}:{number}"))
    if not out:
        raise ValueError(f"{path}: no opening positions found")
    return out


START: tuple[Opening, ...] = (Opening(STARTING_FEN, "initial position"),)
