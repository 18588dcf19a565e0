"""Issue 28: nothing outside the core touches a :class:`Position`'s private state.

Every module of ``src/chessarbiter`` outside ``core/`` is scanned for an attribute access
``x._name`` (read, write or call, ``x`` other than ``self`` or ``cls``) where ``_name`` is
one of the private names :class:`Position` and :class:`Board` define.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

from chessarbiter.core.board import Board
from chessarbiter.core.position import Position

PACKAGE: Final = Path(__file__).resolve().parents[1] / "src" / "chessarbiter"


def _private_names() -> frozenset[str]:
    """The private names the two classes define, read from their source (a compiled class
    has neither ``__slots__`` nor its attributes in ``vars``)."""
    names: set[str] = set()
    for cls in (Board, Position):
        source = PACKAGE / "core" / f"{cls.__module__.rsplit('.', 1)[1]}.py"
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
                for inner in ast.walk(node):
                    if isinstance(inner, ast.FunctionDef):
                        names.add(inner.name)
                    elif isinstance(inner, ast.AnnAssign) and isinstance(inner.target,
                                                                          ast.Name):
                        names.add(inner.target.id)
                    elif isinstance(inner, ast.Attribute) and isinstance(
                            inner.value, ast.Name) and inner.value.id == "self":
                        names.add(inner.attr)
                    elif isinstance(inner, ast.Constant) and isinstance(inner.value, str) \
                            and inner.value.startswith("_"):
                        names.add(inner.value)  # the names of __slots__
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


def _accesses(path: Path, names: frozenset[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [
        f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in names
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


def test_private_names_are_known() -> None:
    assert {"_turn", "_key", "_stack", "_load"} <= _private_names()


def test_the_scan_sees_the_core_s_own_accesses() -> None:
    found = _accesses(PACKAGE / "core" / "movegen.py", _private_names())
    assert any(line.endswith("pos._turn") for line in found)


def test_no_module_outside_the_core_touches_position_private_state() -> None:
    names = _private_names()
    core = PACKAGE / "core"
    found = [
        line
        for path in sorted(PACKAGE.rglob("*.py"))
        if core not in path.parents
        for line in _accesses(path, names)
    ]
    assert not found, "\n".join(found)
