"""The commands' error: a bad argument or file, printed as one line with exit code 2."""

from __future__ import annotations


class CommandError(ValueError):
    """What a command cannot do with its arguments; the message names the argument."""
