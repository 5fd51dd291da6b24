"""Imports flow one way inside a game package, and never up to the server or the bots.

An import under `if TYPE_CHECKING:` is for the type checker only and does not count; an
import inside a function does (it only hides a cycle until the function runs)."""

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

from meadow import games

GAMES = Path(games.__file__).parent


def _runtime_imports(tree: ast.AST) -> list[str]:
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
            found.extend(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph(package: Path) -> dict[str, set[str]]:
    """Per module of the package, the package's modules it imports at run time."""
    prefix = f"meadow.games.{package.name}."
    modules = {path.stem for path in package.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        names = _runtime_imports(ast.parse(path.read_text(encoding="utf-8")))
        inner = {n.removeprefix(prefix).split(".")[0] for n in names if n.startswith(prefix)}
        graph[path.stem] = (inner & modules) - {path.stem, "__init__"}
    return graph


@pytest.mark.parametrize("game_id", games.ids())
def test_a_game_package_has_no_import_cycle(game_id: str):
    graph = _graph(GAMES / game_id)
    assert "view" in graph["rules"]  # the rules read their views, not the other way
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as cycle:
        pytest.fail(f"{game_id}: modules import each other: {' -> '.join(cycle.args[1])}")


@pytest.mark.parametrize("game_id", games.ids())
def test_a_game_imports_nothing_from_the_server_or_the_bots(game_id: str):
    for path in (GAMES / game_id).glob("*.py"):
        names = _runtime_imports(ast.parse(path.read_text(encoding="utf-8")))
        above = [n for n in names if n.startswith(("meadow.server", "meadow.bots", "meadow.rl"))]
        assert not above, f"{path.name} imports {above}"


def test_the_cycle_check_sees_an_import_inside_a_function():
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from meadow.games.x.rules import State\n"
        "def f():\n    from meadow.games.x.rules import Druid\n"
    )
    imports = _runtime_imports(tree)
    assert "meadow.games.x.rules.Druid" in imports
    assert "meadow.games.x.rules.State" not in imports
