"""The whole suite: the slowest files are handed out first, so that the workers of a parallel
run (scripts/test.sh, one per core) finish together rather than one waiting on a late giant;
the acceptance suite's installs and bbpPairings's build are started as soon as the run knows
it has tests that need them, so that the workers run other files meanwhile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.acceptance.installs import Ahead
from tests.services import drop_schemas
from tests.tournament.conftest import BbpAhead

SLOW_FIRST = (
    "tests/server/test_lichess_bot.py",
    "tests/server/web/test_browser.py",
    "tests/server/web/test_every_page.py",
    "tests/laws/test_deadpos_corpus.py",
    "tests/tui/test_app.py",
    "tests/tui/test_terminal.py",
    "tests/server/web/",
    "tests/arbiter/test_corpus.py",
    "tests/tournament/test_log_corpus.py",
    "tests/core/test_differential.py",
    "tests/server/test_crash.py",
    "tests/tournament/test_dutch_corpus.py",
    "tests/engines/test_match_clock.py",
    "tests/arbiter/test_properties.py",
    "tests/test_build.py",
    "tests/core/test_fast_legality.py",
    "tests/cli/test_signals.py",
    "tests/tournament/test_dutch_bbp.py",
    "tests/tournament/test_tiebreak_oracles.py",
)
"""Path prefixes of the files that take longest (measured with --durations), slowest first.
The files that use bbpPairings come late, once its build ahead is done."""

LAST = "tests/acceptance/"
"""Handed out after every other file: the wheel they install compiles (one core, minutes)
while the workers run the rest; were they first, both workers would wait on its lock."""

AHEAD = pytest.StashKey[list[Ahead | BbpAhead]]()


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist would order the files by
        config.option.loadscopereorder = False  # their number of tests, not SLOW_FIRST's


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    if path.startswith(LAST):
        return len(SLOW_FIRST) + 1
    return next((i for i, prefix in enumerate(SLOW_FIRST) if path.startswith(prefix)),
                len(SLOW_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: a file's tests keep their order


def _installs_ahead(config: pytest.Config, nodeids: Sequence[str]) -> None:
    """Start (once) the acceptance suite's installs if the run has acceptance tests, and
    bbpPairings's build if it has tournament tests."""
    if AHEAD in config.stash or config.option.collectonly:
        return
    shared = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    ahead: list[Ahead | BbpAhead] = []
    config.stash[AHEAD] = ahead
    if any(nodeid.startswith("tests/acceptance/") for nodeid in nodeids):
        ahead.append(Ahead(shared))
    if any(nodeid.startswith("tests/tournament/") for nodeid in nodeids):
        ahead.append(BbpAhead(shared))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: Sequence[str]) -> None:
    """pytest-xdist's main process, once a worker has collected the run's tests."""
    _installs_ahead(node.config, ids)


def pytest_collection_finish(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # a run without workers
        _installs_ahead(session.config, [item.nodeid for item in session.items])


def pytest_unconfigure(config: pytest.Config) -> None:
    for ahead in config.stash.get(AHEAD, []):
        ahead.stop()
    drop_schemas()  # this process's PostgreSQL schemas, if it made any
