"""A writer for the crash tests: appends warnings to one game of a store in a loop, printing
each event's number once the store has acknowledged it (committed, synced), until killed.

Usage: ``writer.py STORE GAME_ID``."""

from __future__ import annotations

import sys

from chessarbiter.arbiter.events import Warned
from chessarbiter.clock.records import Side
from chessarbiter.store import open_store


def main(path: str, game_id: str) -> None:
    store = open_store(path)
    game = store.load(game_id)
    number = len(game.log)
    while True:
        number += 1
        event = Warned(number, Side.WHITE if number % 2 else Side.BLACK, f"warning {number}")
        game.apply(event)
        store.append(game_id, game.log[-1])
        print(number, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
