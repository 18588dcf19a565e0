"""Argument handling shared by the commands: one-line usage errors, option values that start
with ``-``, and ``startpos`` for a FEN.

Kept free of chess imports: ``chessarbiter --help`` loads nothing else.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from chessarbiter.cli.errors import CommandError

if TYPE_CHECKING:
    from chessarbiter.clock.controls import TimeControl
    from chessarbiter.laws.profiles import RuleProfile

DASH_VALUE_OPTIONS = ("--tc",)
"""Options whose value may start with ``-`` (``--tc -5+3`` is read, then refused for its
negative time, instead of failing as a missing value)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one stderr line naming the argument, exit 2
    (argparse's code; the full usage stays in ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def join_dash_values(argv: Sequence[str]) -> list[str]:
    """``argv`` with ``OPTION VALUE`` written ``OPTION=VALUE`` when the option is one of
    :data:`DASH_VALUE_OPTIONS` and the value starts with one ``-`` (not ``--``, not ``-h``)."""
    out: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        value = argv[index + 1] if index + 1 < len(argv) else ""
        if arg in DASH_VALUE_OPTIONS and value[:1] == "-" and value[:2] != "--" and value != "-h":
            out.append(f"{arg}={value}")
            index += 2
        else:
            out.append(arg)
            index += 1
    return out


def fen_text(text: str) -> str:
    """A FEN argument: ``startpos`` (as in UCI) stands for the initial position."""
    if text.strip().lower() == "startpos":
        from chessarbiter.core.position import STARTING_FEN

        return STARTING_FEN
    return text


CUTECHESS_PREFIX = "tc="
"""How an engine runner's control is written to ``match --tc`` (``tc=10+0.1``: seconds)."""


def control_and_profile(tc: str, profile: str, *, runner: bool = False) -> tuple[
        TimeControl | None, RuleProfile]:
    """The ``--tc`` and ``--profile`` arguments read (``auto``: by the control's FIDE
    category); with ``runner``, ``tc=VALUE`` is also read, as cutechess-cli reads it (in
    seconds); :class:`CommandError` naming the argument when either is bad."""
    from chessarbiter.clock import parse_control, parse_cutechess
    from chessarbiter.clock.errors import TimeControlError
    from chessarbiter.laws.profiles import profile_for

    try:
        if runner and tc.strip().startswith(CUTECHESS_PREFIX):
            control = parse_cutechess(tc.strip().removeprefix(CUTECHESS_PREFIX))
        else:
            control = parse_control(tc)
    except TimeControlError as exc:
        raise CommandError(f"--tc: {exc}") from None
    try:
        return control, profile_for(control, profile)
    except ValueError as exc:
        raise CommandError(f"--profile: {exc}") from None
