"""The tournament log's durability, as the game store's: a writer killed with SIGKILL in the
middle of its appends loses none it acknowledged, and the log still replays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import chessarbiter
from chessarbiter.store.tournaments import TournamentStore
from chessarbiter.tournament.events import Settings, System
from chessarbiter.tournament.log import Tournament

WRITER = """
import sys
from pathlib import Path
from chessarbiter.store.tournaments import TournamentStore
from chessarbiter.tournament.events import Registered
from chessarbiter.tournament.log import Tournament

tournament = Tournament.load(TournamentStore(Path(sys.argv[1])), 1)
number = 0
while True:
    number += 1
    tournament.apply(Registered(f"Player {number}", number % 3000))
    print(number, flush=True)
"""


def test_every_acknowledged_event_survives_kill_9(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = TournamentStore(path)
    Tournament.create(store, Settings("Open", System.SWISS, rounds=9))
    source = str(Path(chessarbiter.__file__).parents[1])
    process = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                               stdout=subprocess.PIPE, text=True,
                               env=os.environ | {"PYTHONPATH": source})
    assert process.stdout is not None
    acknowledged, seen = 0, []
    while acknowledged < 40:
        line = process.stdout.readline()
        assert line, "the writer stopped"
        acknowledged = int(line)
        if acknowledged % 10 == 0:  # another program reads meanwhile
            seen.append(len(Tournament.load(TournamentStore(path), 1).state.players))
    process.send_signal(signal.SIGKILL)
    process.wait()
    state = Tournament.load(TournamentStore(path), 1).state
    assert len(state.players) >= acknowledged
    assert [p.name for p in state.players.values()][:acknowledged] == [
        f"Player {n}" for n in range(1, acknowledged + 1)]
    assert seen == sorted(seen) and all(count >= 10 for count in seen)
