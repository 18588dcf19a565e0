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
    def resume(cls, path: Path) -> tuple[Game, Journal, bool]:
        """The game a journal holds, the journal reopened for appending, and whether a last
        line cut off by a crash was dropped (it is removed from the file)."""
        text = path.read_text(encoding="utf-8")
        cut = bool(text) and not text.endswith("\n")
        if cut:
            text = text[: text.rfind("\n") + 1]
            with path.open("r+", encoding="utf-8") as stream:
                stream.truncate(len(text.encode("utf-8")))
        game = from_jsonl(text)
        return game, cls(path, path.open("a", encoding="utf-8")), cut

    def append(self, event: Event) -> None:
        """Write one accepted event and make sure it is on disk."""
        self._stream.write(json.dumps(event_to_dict(event)) + "\n")
        self._sync()

    def _sync(self) -> None:
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def close(self) -> None:
        self._stream.close()
