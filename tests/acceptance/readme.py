"""The README's Commands section, read as a user reads it: each command and the options it
shows."""

from __future__ import annotations

import re

from tests.acceptance.venvs import ROOT


def commands_block() -> str:
    """The code block that opens the README's Commands section."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Commands\n", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def documented_options() -> dict[str, set[str]]:
    """Each command of the block with the options its lines show."""
    found: dict[str, set[str]] = {}
    command = ""
    for line in commands_block().splitlines():
        shown = line.split("#", 1)[0]
        if shown.startswith("chessarbiter "):
            command = shown.split()[1]
        found.setdefault(command, set()).update(re.findall(r"--[a-z][a-z0-9-]*", shown))
    return found
