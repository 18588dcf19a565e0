"""The whole suite: the slowest files are handed out first, so that the workers of a parallel
run (scripts/test.sh, one per core) finish together rather than one waiting on a late giant."""

from __future__ import annotations

import pytest

SLOW_FIRST = (
    "tests/acceptance/",
    "tests/server/test_lichess_bot.py",
    "tests/core/test_differential.py",
    "tests/server/web/",
    "tests/tui/test_terminal.py",
    "tests/cli/test_signals.py",
    "tests/tournament/test_dutch_bbp.py",
    "tests/tournament/test_tiebreak_oracles.py",
)
"""Path prefixes of the files that take longest (measured with --durations), slowest first."""


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return next((i for i, prefix in enumerate(SLOW_FIRST) if path.startswith(prefix)),
                len(SLOW_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: a file's tests keep their order
