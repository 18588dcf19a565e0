"""The import contract: chessarbiter is built in layers and nothing imports upwards.

Every import of every module under ``src/chessarbiter`` counts, at module level or inside a
function, absolute or relative, and also those only for type checking.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT: Final = "chessarbiter"

LAYERS: Final = (
    ("core", "clock"),
    ("laws", "notation", "engines"),
    ("arbiter",),
    ("session", "store", "present", "tournament"),
    ("tui", "cli", "server"),
)
"""The packages, bottom up. A package may import any package of a lower layer."""

SIBLINGS: Final = frozenset({
    ("clock", "core"),  # a clock display belongs to a side, the board's one colour type
    ("present", "session"),  # present renders the session's typed results
    ("tournament", "session"),  # a match plays its games as live games between engines
    ("tournament", "store"),
    ("cli", "tui"),  # the play command starts the terminal game
    ("cli", "server"),
})
"""The imports allowed inside a layer, (importer, imported); all others are breaches."""

@dataclass(frozen=True)
class Import:
    """``importer`` imports ``imported`` on ``line``; ``typing`` when only for type checks."""

    importer: str
    imported: str
    line: int
    typing: bool


def _modules(src: Path) -> dict[str, Path]:
    modules = {}
    for path in sorted((src / ROOT).rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def imports(src: Path) -> list[Import]:
    """Every import between the modules of the ``chessarbiter`` package under ``src``."""
    modules = _modules(src)
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        typing = _type_checking_lines(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                targets = [
                    f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
                    for alias in node.names
                ]
            for target in dict.fromkeys(targets):
                if target == ROOT or target.startswith(ROOT + "."):
                    found.append(Import(name, target, node.lineno, node.lineno in typing))
    return found


def package_of(module: str) -> str:
    """The top package of a module: ``chessarbiter.core.fen`` is in ``core``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ROOT


def _layer(package: str) -> int | None:
    if package == ROOT:
        return -1  # the top-level package: nothing below it may import upwards from it
    for level, packages in enumerate(LAYERS):
        if package in packages:
            return level
    return None


def breaches(found: list[Import]) -> list[str]:
    """Each import of a higher layer, or of a same-layer package not in ``SIBLINGS``, and
    each package not placed in a layer, named with its modules."""
    return _breaches(found, package_of, _layer, SIBLINGS)


def _breaches(found: list[Import], part_of: Callable[[str], str],
              layer_of: Callable[[str], int | None],
              siblings: frozenset[tuple[str, str]]) -> list[str]:
    """The breaches of ``found`` among parts (``part_of`` a module) in layers (``layer_of``
    a part, ``None``: in none), ``siblings`` the same-layer imports allowed."""
    problems = []
    for imp in found:
        src, dst = part_of(imp.importer), part_of(imp.imported)
        if src == dst:
            continue
        low, high = layer_of(src), layer_of(dst)
        where = f"{imp.importer} (line {imp.line}) imports {imp.imported}"
        if low is None or high is None:
            problems.append(f"{where}: {src if low is None else dst} is in no layer")
        elif high > low:
            problems.append(f"{where}: {src} is below {dst}")
        elif high == low and (src, dst) not in siblings:
            problems.append(f"{where}: {src} may not import its sibling {dst}")
    return problems


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_cycles(found: list[Import]) -> list[list[str]]:
    """Groups of packages that import each other, directly or through others."""
    graph: dict[str, set[str]] = defaultdict(set)
    for imp in found:
        if package_of(imp.importer) != package_of(imp.imported):
            graph[package_of(imp.importer)].add(package_of(imp.imported))
    return _cycles(graph)


def module_cycles(found: list[Import], *, typing: bool = False) -> list[list[str]]:
    """Groups of modules that import each other at run time (imports for type checks only
    are left out: they run no code), or also for type checks with ``typing``."""
    graph: dict[str, set[str]] = defaultdict(set)
    for imp in found:
        if (typing or not imp.typing) and imp.importer != imp.imported:
            graph[imp.importer].add(imp.imported)
    return _cycles(graph)


SERVER: Final = f"{ROOT}.server"

SERVER_LAYERS: Final = (
    ("accounts", "background", "config", "errors", "limits"),
    ("members",),
    ("streams",),
    ("games",),
    ("lobby",),
    ("cluster",),
    ("http",),
    ("tournaments", "web"),
    ("app", "__init__"),
)
"""The server's parts, bottom up: its shared modules (at the package's root), what it knows
of the accounts (kept in the database), the streams' fan-out, the game room, the lobby
(which makes games), the cluster (which owns games and shares the lobby), the HTTP side,
the features built on it, and the app that assembles them. A part may import its own
modules and any part of a lower layer."""

SERVER_SIBLINGS: Final = frozenset({
    ("limits", "errors"),  # a limit passed is answered as the API's error
    ("__init__", "app"),  # the package names its app
})
"""The imports allowed inside a layer of the server, (importer, imported)."""

WEB_FRAMEWORKS: Final = ("starlette", "uvicorn", "httpx")
"""The HTTP side's libraries, which no part below the cluster imports."""


def server_part(module: str) -> str:
    """The server's part a module is in: ``chessarbiter.server.games.hub`` is in ``games``,
    ``chessarbiter.server.config`` is ``config``, the package itself ``__init__``."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else "__init__"


def _server_layer(part: str) -> int | None:
    for level, parts in enumerate(SERVER_LAYERS):
        if part in parts:
            return level
    return None


def server_breaches(found: list[Import]) -> list[str]:
    """Each import, for type checks too, of a higher part of the server or of a same-layer
    part not in ``SERVER_SIBLINGS``, and each part not placed in a layer."""
    inside = [imp for imp in found
              if package_of(imp.importer) == "server" == package_of(imp.imported)]
    return _breaches(inside, server_part, _server_layer, SERVER_SIBLINGS)


HUB: Final = f"{SERVER}.games.hub"
"""The game room's hub, which the HTTP side and the parts above it drive."""


def hub_imports(found: list[Import]) -> list[str]:
    """Each import of :data:`HUB`, for type checks too, by another module of a server part
    below ``http``: the lobby, the cluster and the game room's other modules know the hub
    only by the narrow protocols they declare."""
    http = next(level for level, parts in enumerate(SERVER_LAYERS) if "http" in parts)
    below = {part for layer in SERVER_LAYERS[:http] for part in layer}
    return [f"{imp.importer} (line {imp.line}) imports {HUB}: "
            f"{server_part(imp.importer)} is below http"
            for imp in found
            if imp.imported == HUB != imp.importer and package_of(imp.importer) == "server"
            and server_part(imp.importer) in below]


def framework_imports(src: Path, parts: frozenset[str]) -> list[str]:
    """The modules of the server's ``parts`` that import a web framework, with the line."""
    found = []
    for path in sorted((src / ROOT / "server").rglob("*.py")):
        parts_of = path.relative_to(src).with_suffix("").parts
        module = ".".join(parts_of[:-1] if parts_of[-1] == "__init__" else parts_of)
        if server_part(module) not in parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""])
                found += [f"{module} (line {node.lineno}) imports {name}" for name in names
                          if name.partition(".")[0] in WEB_FRAMEWORKS]
    return found


SRC: Final = Path(__file__).resolve().parent.parent / "src"


def test_every_package_is_in_a_layer_and_nothing_imports_upwards() -> None:
    found = imports(SRC)
    assert len(found) > 100  # the parser sees the project's imports
    assert breaches(found) == []


def test_no_import_cycles_between_packages_or_modules() -> None:
    found = imports(SRC)
    assert package_cycles(found) == []
    assert module_cycles(found) == []


def test_the_rules_core_has_no_cycle_even_through_type_checks() -> None:
    """Inside ``core`` each module knows only those below it, for types too: text reads
    into a setup, a position is built from a setup, and move generation reads a board, so
    none of them needs the position that uses it."""
    found = [
        imp
        for imp in imports(SRC)
        if package_of(imp.importer) == package_of(imp.imported) == "core"
    ]
    assert len(found) > 20
    assert module_cycles(found, typing=True) == []


def test_the_server_parts_import_only_downwards_even_for_type_checks() -> None:
    """The game room knows no lobby, cluster or HTTP; the lobby and the cluster know the
    game room and not the HTTP side; counted for imports only for type checks too."""
    found = imports(SRC)
    server = [imp for imp in found
              if package_of(imp.importer) == package_of(imp.imported) == "server"]
    assert len(server) > 100
    assert {server_part(module) for module in _modules(SRC) if package_of(module) == "server"
            } == {part for layer in SERVER_LAYERS for part in layer}  # each part placed
    assert server_breaches(found) == []
    assert module_cycles(server, typing=True) == []


def test_nothing_below_the_http_side_imports_the_hub() -> None:
    """The lobby (``LobbyHost``) and the cluster (``ClusterHost``) declare what they need
    of the hub, the chat what it needs of the services (``Chatting``), even for types."""
    found = imports(SRC)
    assert any(imp.imported == HUB for imp in found)  # the check sees the hub's importers
    assert hub_imports(found) == []


def test_below_the_cluster_the_server_knows_no_web_framework() -> None:
    cluster = SERVER_LAYERS.index(("cluster",))
    below = frozenset(part for layer in SERVER_LAYERS[:cluster] for part in layer)
    assert "games" in below and "lobby" in below
    assert framework_imports(SRC, below) == []
    assert framework_imports(SRC, frozenset({"http"}))  # the check sees the HTTP side's


def test_a_server_part_importing_upwards_for_types_is_reported(tmp_path: Path) -> None:
    """The hub's old shape: the game room knew the cluster for its types."""
    src = _fake_tree(tmp_path, {
        "server/__init__.py": "",
        "server/games/hub.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from chessarbiter.server.cluster.cluster import Cluster\n"
        ),
        "server/cluster/cluster.py": "from chessarbiter.server.games.hub import Hub\n",
        "server/extra/thing.py": "from chessarbiter.server.errors import ApiError\n",
        "server/errors.py": "",
    })
    found = imports(src)
    assert server_breaches(found) == [
        "chessarbiter.server.extra.thing (line 1) imports chessarbiter.server.errors: "
        "extra is in no layer",
        "chessarbiter.server.games.hub (line 3) imports chessarbiter.server.cluster.cluster: "
        "games is below cluster",
    ]
    assert module_cycles(found) == []
    assert module_cycles(found, typing=True) == [[
        "chessarbiter.server.cluster.cluster", "chessarbiter.server.games.hub"]]


def test_an_import_of_the_hub_below_the_http_side_is_reported(tmp_path: Path) -> None:
    """The old shape: the chat and the lobby knew the hub for their types; the HTTP side
    and the hub's own module may import it."""
    src = _fake_tree(tmp_path, {
        "server/__init__.py": "",
        "server/games/hub.py": "from chessarbiter.server.games import chat\n",
        "server/games/chat.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from chessarbiter.server.games.hub import Hub\n"
        ),
        "server/lobby/lobby.py": "from chessarbiter.server.games import hub\n",
        "server/http/board_api.py": "from chessarbiter.server.games.hub import Hub\n",
    })
    found = imports(src)
    assert server_breaches(found) == []  # each import goes downwards or stays in its part
    assert hub_imports(found) == [
        "chessarbiter.server.games.chat (line 3) imports chessarbiter.server.games.hub: "
        "games is below http",
        "chessarbiter.server.lobby.lobby (line 1) imports chessarbiter.server.games.hub: "
        "lobby is below http",
    ]


def _fake_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / ROOT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_an_upward_import_inside_a_function_is_reported_with_its_modules(
    tmp_path: Path,
) -> None:
    src = _fake_tree(tmp_path, {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/board.py": "import os\n\n\ndef f():\n    from ..arbiter import game\n",
        "arbiter/__init__.py": "",
        "arbiter/game.py": "from chessarbiter.core.board import f\n",
    })
    found = imports(src)
    assert [(i.importer, i.imported, i.line) for i in found] == [
        ("chessarbiter.arbiter.game", "chessarbiter.core.board", 1),
        ("chessarbiter.core.board", "chessarbiter.arbiter.game", 5),
    ]
    assert breaches(found) == [
        "chessarbiter.core.board (line 5) imports chessarbiter.arbiter.game: "
        "core is below arbiter"
    ]
    assert package_cycles(found) == [["arbiter", "core"]]
    assert module_cycles(found) == [["chessarbiter.arbiter.game", "chessarbiter.core.board"]]


def test_a_sibling_import_and_an_unplaced_package_are_reported(tmp_path: Path) -> None:
    src = _fake_tree(tmp_path, {
        "present/words.py": "import chessarbiter.session.play\n",
        "session/play.py": "from chessarbiter.present import words\n",
        "extra/thing.py": "from chessarbiter import core\n",
    })
    assert breaches(imports(src)) == [
        "chessarbiter.extra.thing (line 1) imports chessarbiter: extra is in no layer",
        "chessarbiter.session.play (line 1) imports chessarbiter.present.words: "
        "session may not import its sibling present",
    ]
    assert package_cycles(imports(src)) == [["present", "session"]]


def test_imports_only_for_type_checking_break_no_cycle(tmp_path: Path) -> None:
    src = _fake_tree(tmp_path, {
        "core/a.py": "from chessarbiter.core import b\n",
        "core/b.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from chessarbiter.core.a import X\n"
        ),
    })
    assert module_cycles(imports(src)) == []


def test_a_cycle_through_type_checks_is_refused_where_types_count(tmp_path: Path) -> None:
    """The core's old shape: the FEN reader filled a position and asked move generation,
    both of which know the position only for type checks."""
    src = _fake_tree(tmp_path, {
        "core/__init__.py": "",
        "core/position.py": "from chessarbiter.core.fenfields import read_fen\n",
        "core/fenfields.py": (
            "from typing import TYPE_CHECKING\nfrom chessarbiter.core.movegen import gen\n"
            "if TYPE_CHECKING:\n    from chessarbiter.core.position import Position\n"
        ),
        "core/movegen.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from chessarbiter.core.position import Position\n"
        ),
    })
    found = imports(src)
    assert module_cycles(found) == []
    assert module_cycles(found, typing=True) == [[
        "chessarbiter.core.fenfields", "chessarbiter.core.movegen", "chessarbiter.core.position"
    ]]
