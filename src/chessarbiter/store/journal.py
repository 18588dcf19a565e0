"""The game's journal: its log written to a file one event at a time, so a game survives a
crash of the program (the log is the game; replaying it rebuilds everything)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from chessarbiter.arbiter.events import Event
from chessarbiter.arbiter.game import Game
from chessarbiter.arbiter.log import event_to_dict, from_jsonl, to_jsonl


class JournalError(ValueError):
    """A file that holds no journal that can be resumed: names the file and the reason."""


def _is_object(line: str) -> bool:
    """Whether a line is a whole JSON object (a complete event, not one cut short)."""
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _read(path: Path) -> tuple[str, str, Game]:
    """The file's text, the part of it that holds whole lines (a last line cut off by a
    crash left out; a complete last event without its newline kept) and the game it holds;
    ``JournalError`` naming the file and the reason if it holds none."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise JournalError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise JournalError(f"{path}: not a journal (not UTF-8 text)") from None
    start = text.rfind("\n") + 1
    complete = text.endswith("\n") or _is_object(text[start:])
    kept = text if complete else text[:start]
    try:
        game = from_jsonl(kept)
    except ValueError as exc:  # LogFormatError, or the ArbiterError of a rejected event
        raise JournalError(f"{path}: not a journal that can be resumed: {exc}") from None
    return text, kept, game


def read_journal(path: Path) -> Game:
    """The game a journal holds, the file left as it is (a cut last line ignored)."""
    return _read(path)[2]


class Journal:
    """An append-only JSON-lines file: the header, then each event as it is accepted."""

    def __init__(self, path: Path, stream: IO[str]) -> None:
        self.path = path
        self._stream = stream

    @classmethod
    def create(cls, path: Path, game: Game) -> Journal:
        """Start a journal for ``game`` (its events so far included); an existing file is
        never overwritten."""
        stream = path.open("x", encoding="utf-8")
        stream.write(to_jsonl(game))
        journal = cls(path, stream)
        journal._sync()
        return journal

    @classmethod
    def create_unique(cls, folder: Path, stem: str, game: Game) -> Journal:
        """Start a journal ``stem.jsonl`` in ``folder``, or ``stem-2.jsonl``, ``stem-3.jsonl``,
        ... when the name (or its ``.pgn``) is taken: two games started in the same second
        never share a file (each name is created exclusively)."""
        number = 1
        while True:
            path = folder / (f"{stem}.jsonl" if number == 1 else f"{stem}-{number}.jsonl")
            number += 1
            if path.with_suffix(".pgn").exists():
                continue
            try:
                return cls.create(path, game)
            except FileExistsError:
                continue

    @classmethod
    def resume(cls, path: Path) -> tuple[Game, Journal, bool]:
        """The game a journal holds, the journal reopened for appending, and whether a last
        line cut off by a crash was dropped (it is removed from the file). A complete last
        event whose newline the crash lost is kept (the newline is added). ``JournalError``
        naming the file and the reason if it holds no game; the file is then left as it is."""
        text, kept, game = _read(path)
        complete = len(kept) == len(text)
        if not text.endswith("\n"):  # the crash came in the last line: finish or drop it
            with path.open("r+", encoding="utf-8", newline="") as stream:
                if complete:
                    stream.seek(0, os.SEEK_END)
                    stream.write("\n")
                else:
                    stream.truncate(len(kept.encode("utf-8")))
        return game, cls(path, path.open("a", encoding="utf-8")), not complete

    @property
    def where(self) -> str:
        return str(self.path)

    def append(self, event: Event) -> None:
        """Write one accepted event and make sure it is on disk."""
        self._stream.write(json.dumps(event_to_dict(event)) + "\n")
        self._sync()

    def _sync(self) -> None:
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def close(self) -> None:
        self._stream.close()
