"""The README read as a user reads it: the Commands section (each command, the options and
actions its lines show) and the table of packages."""

from __future__ import annotations

import re

from tests.acceptance.venvs import ROOT


def commands_block() -> str:
    """The code block that opens the README's Commands section."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Commands\n", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def documented_lines() -> dict[str, str]:
    """Each command of the block with the text its lines show (comments left out)."""
    found: dict[str, str] = {}
    command = ""
    for line in commands_block().splitlines():
        shown = line.split("#", 1)[0]
        if shown.startswith("chessarbiter "):
            command = shown.split()[1]
        found[command] = found.get(command, "") + shown + "\n"
    return found


def documented_options() -> dict[str, set[str]]:
    """Each command of the block with the options its lines show."""
    return {
        command: set(re.findall(r"--[a-z][a-z0-9-]*", text))
        for command, text in documented_lines().items()
    }


def help_choices(help_text: str) -> list[str]:
    """The subcommands (or a group's actions) an argparse ``--help`` lists: the names indented
    under the group's metavar (``COMMAND``, ``ACTION``)."""
    return re.findall(r"^    ([a-z][a-z0-9-]*)(?:\s|$)", help_text, re.M)


def documented_packages() -> set[str]:
    """The packages the README's table of packages names (``chessarbiter.core``...)."""
    text = (ROOT / "README.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `chessarbiter.")]
    return {name for row in rows for name in re.findall(r"`chessarbiter\.(\w+)`", row)}


def source_packages() -> set[str]:
    """The packages under ``src/chessarbiter``."""
    return {path.parent.name for path in (ROOT / "src" / "chessarbiter").glob("*/__init__.py")}
