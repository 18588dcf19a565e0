"""The server is assembled once (``open_services``, which ``create_app`` calls): one process gets
every game, in-process streams, a lobby and limits in memory; a process of a cluster gets
its part of the cluster, the streams through Redis, the lobby and the limits' counts in
Redis. The routes and the game room then use whichever they got, without asking (no branch
on whether a cluster is on)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest

from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.cluster.cluster import Cluster, Forwarding
from chessarbiter.server.cluster.limits import RedisCounts
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.ownership import SingleProcess
from chessarbiter.server.limits import InMemory
from chessarbiter.server.lobby.cluster_lobby import RedisLobby
from chessarbiter.server.lobby.memory import MemoryLobby
from chessarbiter.server.members import CheckAccounts
from chessarbiter.server.streams.bus import RedisFanout
from chessarbiter.server.streams.fanout import InProcess

SERVER = Path(__file__).parents[2] / "src" / "chessarbiter" / "server"
ASSEMBLY = "app.py"
"""Where one process or a cluster is chosen, once."""
ASKS_FOR_A_CLUSTER = (
    (re.compile(r"cluster is (not )?None|\b(hub|self)\.cluster\b"), ("cluster/",)),
    (re.compile(r"\b(fence|relay|shared|bus)\b is (not )?None"), ("cluster/",)),
    (re.compile(r"(?<!`)\bconfig\.bus\b"), ()),
    (re.compile(r"\bRELAY_HEADER\b"), ("cluster/",)),
    (re.compile(r"\bis_postgres\b"), ("games/db.py",)),
)
"""The forms of a branch on whether a cluster is on (whether there is a fence, a relay, a
shared store or a bus; the cluster's header read; the database's kind asked), each with the
places besides the assembly where it is the implementation's own business: the cluster's
part, and the opening of the database (which store)."""


REACHES_IN: Final = re.compile(
    r"\b_?hub\.(members|loader|dormant|limits|fanout|db|reader|config)\b")
"""A service reached through the game room (the hub) rather than given where it is used
(the app's ``Services``, or the parts a module's constructor takes)."""


def reaches_through_the_hub(path: str, text: str) -> list[int]:
    """The lines of ``text`` (the module at ``path`` below ``server/``) that reach a service
    through the hub, outside the game room's own package (``games/``)."""
    return [number for number, line in enumerate(text.splitlines(), 1)
            if not path.startswith("games/") and REACHES_IN.search(line)]


def asks_for_a_cluster(path: str, text: str) -> list[int]:
    """The lines of ``text`` (the module at ``path`` below ``server/``) that branch on
    whether a cluster is on, outside the places allowed."""
    return [number for number, line in enumerate(text.splitlines(), 1)
            if any(path != ASSEMBLY and not path.startswith(allowed) and form.search(line)
                   for form, allowed in ASKS_FOR_A_CLUSTER)]


def test_one_process_owns_every_game_and_keeps_streams_and_lobby_in_memory(
        tmp_path: Path) -> None:
    services = open_services(ServerConfig(db=tmp_path / "games.sqlite"))
    assert isinstance(services.ownership, SingleProcess)
    assert type(services.fanout) is InProcess
    assert isinstance(services.lobby.store, MemoryLobby)
    assert isinstance(services.limits.counts, InMemory)
    assert services.ownership.owns("anygame")
    app = create_app(services=services)
    assert isinstance(app.entry, CheckAccounts) and app.entry.members is services.members
    assert not isinstance(app.entry.app, Forwarding)


def test_a_cluster_process_gets_the_cluster_the_redis_fanout_and_lobby() -> None:
    # nothing connects before the services starts: no PostgreSQL or Redis is needed to assemble
    config = ServerConfig(db="postgresql://nobody@127.0.0.1:1/none",
                          bus="redis://127.0.0.1:1/0", port=8123)
    services = open_services(config)
    cluster = services.ownership
    assert isinstance(cluster, Cluster) and cluster.address == "127.0.0.1:8123"
    assert isinstance(services.fanout, RedisFanout)
    assert cluster.bus is services.fanout.games
    store = services.lobby.store
    assert isinstance(store, RedisLobby) and store.bus is services.fanout.channels
    assert isinstance(services.limits.counts, RedisCounts)
    assert cluster.counts is services.limits.counts
    assert services.limits.counts.now_ms is config.calendar_ms  # the processes share the calendar
    assert not services.ownership.owns("anygame")
    app = create_app(services=services)
    assert isinstance(app.entry, CheckAccounts) and app.entry.members is services.members
    forwarding = app.entry.app
    assert isinstance(forwarding, Forwarding) and forwarding.cluster is services.ownership


def test_nothing_but_the_assembly_asks_whether_a_cluster_is_on() -> None:
    modules = sorted(SERVER.rglob("*.py"))
    found = [f"{name}:{number}" for path in modules
             for name in [path.relative_to(SERVER).as_posix()]
             for number in asks_for_a_cluster(name, path.read_text())]
    assert {"http/board_api.py", "games/hub.py", "tournaments/desk.py"} <= {
        path.relative_to(SERVER).as_posix() for path in modules}
    assert found == []


def test_no_module_outside_the_game_room_reaches_a_service_through_the_hub() -> None:
    modules = sorted(SERVER.rglob("*.py"))
    found = [f"{name}:{number}" for path in modules
             for name in [path.relative_to(SERVER).as_posix()]
             for number in reaches_through_the_hub(name, path.read_text())]
    assert {"http/board_api.py", "cluster/cluster.py", "lobby/lobby.py",
            "tournaments/desk.py"} <= {path.relative_to(SERVER).as_posix() for path in modules}
    assert found == []


@pytest.mark.parametrize("line", [
    "    account = hub.members.accounts.by_token(token)",
    "        rows = await self.hub.reader.run(read)",
    "    now = desk.hub.config.now_ms()",
    "    online = key in self._hub.limits.streams",
    "    await hub.dormant.wake_due()",
    "    found = await hub.loader.exists(game_id)",
    "    queue = await hub.fanout.subscribe_user(account)",
    "    await hub.db.run(write)",
])
def test_the_check_finds_a_service_reached_through_the_hub(line: str) -> None:
    text = f"async def route(request: Request) -> None:\n{line}\n"
    assert reaches_through_the_hub("http/board_api.py", text) == [2]
    assert reaches_through_the_hub("cluster/cluster.py", text) == [2]
    assert reaches_through_the_hub("games/hub.py", text) == []  # the room's own


def test_the_check_leaves_the_game_rooms_own_work_to_the_routes() -> None:
    text = ("    entry = await services.hub.get(game_id)\n"
            "    await hub.act(entry, side, make)\n"
            "    services.members.accounts.by_token(token)\n"
            "    hub.finish_hooks.append(ended)\n")
    assert reaches_through_the_hub("http/board_api.py", text) == []


@pytest.mark.parametrize("line", [
    "        if self.cluster is not None:",
    "    if hub.cluster:",
    "            if fence is not None:  # a cluster's PostgreSQL store",
    "        if self.relay is not None:",
    "            if shared is None:",
    "    if hub.config.bus is not None:",
    "    if RELAY_HEADER in request.headers:",
    "        if is_postgres(str(path)):",
])
def test_the_check_finds_a_branch_planted_in_the_game_room_or_the_routes(line: str) -> None:
    text = f"def act(self) -> None:\n{line}\n        pass\n"
    assert asks_for_a_cluster("games/hub.py", text) == [2]
    assert asks_for_a_cluster("http/board_api.py", text) == [2]
    assert asks_for_a_cluster(ASSEMBLY, text) == []


def test_the_check_leaves_the_cluster_its_own_business_and_docstrings_their_words() -> None:
    assert asks_for_a_cluster("cluster/cluster.py", "if relay is None:\n    RELAY_HEADER") == []
    assert asks_for_a_cluster("games/db.py", "    if is_postgres(str(path)):") == []
    assert asks_for_a_cluster("games/db.py", "    if relay is None:") == [1]
    assert asks_for_a_cluster("games/hub.py", '"""in a cluster (``config.bus``) those"""') == []
