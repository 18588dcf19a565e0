"""The commands' errors: a bad argument or file, printed as one line with exit code 2; and
the stop a SIGTERM asks for, handled like Ctrl-C."""

from __future__ import annotations


class CommandError(ValueError):
    """What a command cannot do with its arguments; the message names the argument."""


class Terminated(BaseException):
    """SIGTERM arrived: the command stops as on Ctrl-C (what it has done so far is written),
    with exit code 143. A ``BaseException``, as ``KeyboardInterrupt`` is: no ``except
    Exception`` swallows it."""
