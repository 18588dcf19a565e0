"""A scripted UCI engine for the client tests: ``python fake_engine.py MODE``.

Modes: ``good`` (plays the first legal move, after some noise), ``crash_on_start``,
``crash_on_go``, ``hang_on_uci``, ``hang_on_go``, ``reply:TEXT`` (answers ``go`` with
``bestmove TEXT``, or a bare ``bestmove`` for ``reply:``), and ``nosuch`` (plays as ``good``
but answers every ``setoption`` with "No such option"). Every mode declares :data:`OPTIONS`.
"""

from __future__ import annotations

import sys
import time

from chessarbiter.engines.uci_protocol import parse_position

OPTIONS = (
    "option name Skill Level type spin default 20 min 0 max 20",
    "option name Style type combo default Normal var Solid var Normal var Risky",
    "option name Own Book type check default false",
    "option name Threads type spin default 1 min 1 max 8",
)


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(mode: str) -> int:
    if mode == "crash_on_start":
        return 1
    position = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            if mode == "hang_on_uci":
                time.sleep(3600)
            _say("id name Fake " + mode)
            _say("some text the client should ignore")
            for option in OPTIONS:
                _say(option)
            _say("uciok")
        elif words[0] == "setoption" and mode == "nosuch":
            _say("No such option: " + " ".join(words[2:words.index("value")]))
        elif words[0] == "isready":
            _say("readyok")
        elif words[0] == "position":
            position = parse_position(words[1:])[0]
        elif words[0] == "go":
            if mode == "crash_on_go":
                print("boom: segmentation fault (pretend)", file=sys.stderr, flush=True)
                return 3
            if mode == "hang_on_go":
                time.sleep(3600)
            if mode.startswith("reply:"):
                _say(("bestmove " + mode[6:]).strip())
            elif position is not None:
                _say("info depth 1 score cp 12 pv")
                _say("gibberish \x01 from the engine")
                _say("bestmove " + position.uci(position.legal_moves()[0]))
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
