"""The accessible mode: a plain line interface for blind players and screen readers (the US
Blind Chess Association's rules are among our sources). Every move is announced in words
("black: knight takes pawn on f3, check"), clocks are read on request (``clock``), the board
by rank or file (``rank 4``, ``file e``, ``pieces white``); nothing depends on colour or
layout, and no code (FEN, UCI) is read aloud.
The opening line says who plays which side and the time control; a fallen flag is
announced as soon as it falls, followed by a fresh prompt.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from chessarbiter.session.play import Play
from chessarbiter.tui.console import Console

WATCH_INTERVAL_S = 0.2


def _show_prompt(prompt: str) -> None:
    sys.stdout.write(prompt)
    sys.stdout.flush()


def prompt_for(play: Play) -> str:
    """The prompt: the side whose person types next, ``game over> ``, or ``game stopped> ``
    once the game's record has failed."""
    if play.failure is not None:
        return "game stopped> "
    side = play.human_side()
    return "game over> " if play.over or side is None else f"{side.name.lower()}> "


def run_accessible(
    play: Play,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    *,
    watch: bool = True,
    show_prompt: Callable[[str], None] = _show_prompt,
) -> None:
    """Play in line mode until the players quit, input ends or the game stops (its record
    failed: said once). ``watch`` announces a fallen flag while a person is thinking (a
    background thread looks at the clocks) and then shows the prompt again with
    ``show_prompt`` (which writes without ending the line)."""
    console = Console(play, spoken=True)
    write(f"chessarbiter, accessible mode: {console.introduction()}.")
    write("Type a move like knight f3 as Nf3, or help.")
    for line in console.start():
        write(line)
    stopped = threading.Event()
    if watch:
        threading.Thread(
            target=watch_flags, args=(console, write, show_prompt, stopped), daemon=True
        ).start()
    try:
        while play.failure is None:
            while play.engine_to_move() is not None:
                for line in console.engine_move():
                    write(line)
            if play.failure is not None:
                break
            try:
                text = read(prompt_for(play))
            except (EOFError, KeyboardInterrupt):
                break
            reply = console.handle(text)
            for line in reply.lines:
                write(line)
            if reply.quit:
                break
    finally:
        stopped.set()
        play.close()
        if play.pgn_path is not None:
            write(f"game saved to {play.pgn_path}")


def watch_flags(
    console: Console,
    write: Callable[[str], None],
    show_prompt: Callable[[str], None],
    stopped: threading.Event,
) -> None:
    """Until ``stopped``: announce a fallen flag, then prompt again (the person was at a
    prompt that no longer holds)."""
    while not stopped.wait(WATCH_INTERVAL_S):
        lines = console.tick()
        if lines:
            show_prompt("\n")  # leave the line of the prompt the person was at
            for line in lines:
                write(line)
            show_prompt(prompt_for(console.play))
