"""The accessible mode: a plain line interface for blind players and screen readers (the US
Blind Chess Association's rules are among our sources). Every move is announced in words
("black: knight takes f3, check"), clocks are read on request (``clock``), the board by rank
or file (``rank 4``, ``file e``, ``pieces white``); nothing depends on colour or layout.
A fallen flag is announced as soon as it falls.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from chessarbiter.live.play import Play

WATCH_INTERVAL_S = 0.2


def run_accessible(
    play: Play,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    *,
    watch: bool = True,
) -> None:
    """Play in line mode until the players quit or input ends. ``watch`` announces a fallen
    flag while a person is thinking (a background thread looks at the clocks)."""
    write("chessarbiter, accessible mode. Type a move like knight f3 as Nf3, or help.")
    for line in play.start():
        write(line)
    stopped = threading.Event()
    if watch:
        threading.Thread(target=_watch_flags, args=(play, write, stopped), daemon=True).start()
    try:
        while True:
            while play.engine_to_move() is not None:
                for line in play.engine_move():
                    write(line)
            side = play.human_side()
            prompt = "game over> " if play.over or side is None else f"{side.name.lower()}> "
            try:
                text = read(prompt)
            except (EOFError, KeyboardInterrupt):
                break
            reply = play.type_line(text)
            for line in reply.lines:
                write(line)
            if reply.quit:
                break
    finally:
        stopped.set()
        play.close()
        if play.pgn_path is not None:
            write(f"game saved to {play.pgn_path}")


def _watch_flags(play: Play, write: Callable[[str], None], stopped: threading.Event) -> None:
    while not stopped.wait(WATCH_INTERVAL_S):
        for line in play.tick():
            write(line)
