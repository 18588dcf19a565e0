"""The JSON-lines store: a folder with one crash-safe journal per game (``ID.jsonl``, the
game's id being the file's stem); see :mod:`chessarbiter.store.journal`."""

from __future__ import annotations

from pathlib import Path

from chessarbiter.arbiter.events import Event
from chessarbiter.arbiter.game import Game
from chessarbiter.store.base import GameInfo, StoreError
from chessarbiter.store.journal import Journal, JournalError, read_journal


class JsonlStore:
    """Journals in ``folder`` (created when missing). A game is open for appending once
    created or loaded here; loading repairs a last line a crash cut off (:attr:`cut` names
    the games whose cut line was dropped)."""

    def __init__(self, folder: Path, stem: str = "game") -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{folder}: cannot hold games ({exc.strerror or exc})") from None
        self.folder = folder
        self.stem = stem
        self.cut: set[str] = set()
        self._open: dict[str, Journal] = {}

    def path(self, game_id: str) -> Path:
        """The journal of ``game_id``."""
        if not game_id or Path(game_id).name != game_id or game_id.startswith("."):
            raise StoreError(f"game {game_id!r}: not a journal name")
        return self.folder / f"{game_id}.jsonl"

    def create(self, game: Game) -> str:
        try:
            journal = Journal.create_unique(self.folder, self.stem, game)
        except OSError as exc:
            raise StoreError(f"{self.folder}: cannot create a game ({exc.strerror or exc})"
                             ) from None
        self._open[journal.path.stem] = journal
        return journal.path.stem

    def append(self, game_id: str, event: Event, outcome: str | None = None) -> None:
        if game_id not in self._open:
            self.load(game_id)
        self._open[game_id].append(event)

    def load(self, game_id: str) -> Game:
        path = self.path(game_id)
        old = self._open.pop(game_id, None)
        if old is not None:
            old.close()
        try:
            game, journal, cut = Journal.resume(path)
        except JournalError as exc:
            raise StoreError(f"game {game_id}: {exc}") from None
        if cut:
            self.cut.add(game_id)
        self._open[game_id] = journal
        return game

    def games(self) -> list[GameInfo]:
        """Every journal that holds a game, by file time (files holding none are left out)."""
        found = []
        for path in self.folder.glob("*.jsonl"):
            try:
                game = read_journal(path)
                updated = path.stat().st_mtime
            except (JournalError, OSError):
                continue
            outcome = game.outcome
            found.append(GameInfo(path.stem, dict(game.setup.tags),
                                  None if outcome is None else str(outcome), updated))
        return sorted(found, key=lambda info: (info.updated, info.game_id))

    def where(self, game_id: str) -> str:
        return str(self.path(game_id))

    def close(self) -> None:
        for journal in self._open.values():
            journal.close()
        self._open.clear()
