"""A game as database rows, shared by the SQL stores: the setup row's columns, an event's
columns, and the game rebuilt from them (checked as a JSON-lines log is)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from chessarbiter.arbiter.events import Event
from chessarbiter.arbiter.game import Game
from chessarbiter.arbiter.log import event_from_dict, event_to_dict, from_jsonl, to_jsonl
from chessarbiter.store.base import GameInfo, StoreError


def setup_row(game: Game) -> tuple[str, str | None, int, str | None, str]:
    """The game's setup, start analysis, log version, solver version and tags, as columns."""
    header = json.loads(to_jsonl(game).partition("\n")[0])  # as a JSON-lines log's
    start = header["start"]
    return (json.dumps(header["setup"]), None if start is None else json.dumps(start),
            header["version"], header["solver"], json.dumps(header["setup"]["tags"]))


def event_row(event: Event) -> tuple[int, str, str]:
    """An event's at_ms, kind and JSON columns."""
    return event.at_ms, event.kind, json.dumps(event_to_dict(event))


def game_header(game_id: str, row: tuple[str, str | None, int, str | None]) -> Game:
    """The game before its events, from its setup, start, log version and solver columns."""
    setup, start, version, solver = row
    try:
        header: dict[str, Any] = {"version": version, "setup": json.loads(setup),
                                  "start": None if start is None else json.loads(start)}
    except (ValueError, TypeError) as exc:
        raise StoreError(f"game {game_id}: setup/start: not JSON ({exc})") from None
    if solver is not None:
        header["solver"] = solver
    try:
        return from_jsonl(json.dumps(header))
    except ValueError as exc:
        raise StoreError(f"game {game_id}: {str(exc).removeprefix('line 1: ')}") from None


def replay_rows(game_id: str, game: Game, rows: Iterable[tuple[int, int, str, str]], *,
                recorded: bool) -> None:
    """Replay the event rows (seq, at_ms, kind, JSON) on ``game``, the analyses read when
    ``recorded``; ``StoreError`` naming the game and the event for a missing or bad one."""
    for expected, (seq, at_ms, kind, text) in enumerate(rows, 1):
        where = f"game {game_id}, event {seq}"
        if seq != expected:
            raise StoreError(f"{where}: expected event {expected} (one is missing)")
        try:
            event = event_from_dict(json.loads(text))
        except (ValueError, TypeError, RecursionError) as exc:
            raise StoreError(f"{where}: not an event ({exc})") from None
        if event.kind != kind or event.at_ms != at_ms:
            raise StoreError(f"{where}: kind/at_ms columns ({kind}, {at_ms}) differ from "
                             f"the event's ({event.kind}, {event.at_ms})")
        try:
            game.replay_event(event, recorded=recorded)
        except ValueError as exc:  # ArbiterError
            raise StoreError(f"{where}: {exc}") from None


def game_infos(rows: Iterable[tuple[Any, str, str | None, int]]) -> list[GameInfo]:
    """The listing of a store from its rows ``(id, tags, outcome, updated_ms)``."""
    found = []
    for game_id, tags, outcome, updated in rows:
        try:
            tag_map = json.loads(tags)
        except ValueError:
            raise StoreError(f"game {game_id}: tags: not JSON") from None
        found.append(GameInfo(str(game_id), tag_map, outcome, updated / 1000))
    return found
