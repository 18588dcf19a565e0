"""The ``chessarbiter`` command: one subcommand per module in ``chessarbiter.cli``.

Each command module exposes ``register(subparsers)``, which adds its parser and sets
``func`` to a function taking the parsed arguments and returning the exit code. Command
modules import their heavy dependencies (the arbiter, the engine, the solver, Textual) only
when they run, so ``--help`` and quick commands start fast.

Exit codes, for every command: 0 success; 1 ``check`` found a breach of the Laws (or a game
it could not read); 2 bad usage or bad input, with one stderr line naming the argument;
130 interrupted (Ctrl-C, SIGINT); 143 terminated (SIGTERM): either way the command stops
promptly, writes what it has done so far and leaves no process of its own behind; 141 when
the reader of its output went away (``check ... | head``), quietly, as for SIGPIPE.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence

from chessarbiter.cli import (
    check_cmd,
    deadpos_cmd,
    match_cmd,
    perft_cmd,
    play_cmd,
    serve_cmd,
    tournament_cmd,
    uci_cmd,
)
from chessarbiter.cli.args import OneLineParser, join_dash_values
from chessarbiter.cli.errors import CommandError, Terminated

COMMANDS = (
    play_cmd, match_cmd, perft_cmd, check_cmd, deadpos_cmd, uci_cmd, serve_cmd, tournament_cmd
)
INTERRUPTED = 128 + signal.SIGINT
TERMINATED = 128 + signal.SIGTERM
PIPE_CLOSED = 128 + signal.SIGPIPE


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = OneLineParser(prog="chessarbiter", description="The Laws of Chess, executable.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand; bad chess input or a bad argument is reported on stderr as one line,
    with exit code 2."""
    parser = build_parser()
    args, extra = parser.parse_known_args(join_dash_values(sys.argv[1:] if argv is None else argv))
    if extra:  # named with the command's (or its action's) own help
        action = getattr(args, "action", None)
        prog = " ".join([parser.prog, args.command] + ([action] if action else []))
        print(f"{prog}: error: unrecognized arguments: {' '.join(extra)} (see '{prog} --help')",
              file=sys.stderr)
        return 2
    from chessarbiter.core.errors import ChessError  # after parsing: --help needs no chess

    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if on_main_thread else None
    try:
        code: int = args.func(args)
    except (ChessError, CommandError) as exc:
        print(f"chessarbiter {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"chessarbiter {args.command}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Terminated:
        print(f"chessarbiter {args.command}: terminated", file=sys.stderr)
        return TERMINATED
    except BrokenPipeError:  # nothing more can be written, nor said on stdout
        _drop_stdout()
        return PIPE_CLOSED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return code


def _drop_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM stops a command as Ctrl-C does: its ``finally`` blocks write what is done."""
    raise Terminated


if __name__ == "__main__":
    sys.exit(main())
