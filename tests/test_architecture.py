"""Imports flow one way (docs/architecture.md): no runtime import circle anywhere in `meadow/`,
and no module importing one on a floor above it or beside it.

The floors, lowest first: `core` (the contract); `games` (each game on `core` alone, none
importing another) and `store` (the database's tables); `bots`; `rl` (the research API,
whose environments seat Meadow's bots as opponents); `server`; `cli`. An import under
`if TYPE_CHECKING:` is for the type checker only and does not count; an import inside a
function does, since it runs.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import meadow

PACKAGE = Path(meadow.__file__).parent
ROOT = PACKAGE.parent

FLOORS = {
    "core": 0,
    "games": 1,
    "store": 1,
    "bots": 2,
    "rl": 3,
    "analysis": 3,
    "server": 4,
    "cli": 5,
    "__main__": 6,
}


@dataclass(frozen=True)
class Import:
    importer: str  # a module's dotted name
    imported: str
    path: Path
    line: int

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line} imports {self.imported}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement that runs at some time, at any depth, but those under
    `if TYPE_CHECKING:` (their `else:` runs, so it counts)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If) and _is_type_checking(statement.test):
            yield from _statements(statement.orelse)
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(statement, name, []):
                if isinstance(child, ast.stmt):
                    yield from _statements([child])
                elif isinstance(child, ast.ExceptHandler | ast.match_case):
                    yield from _statements(child.body)


def _absolute(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """The Meadow modules `name` imports at run time: `from a.b import c` is a.b.c when that
    is a module, else a.b."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for statement in _statements(tree.body):
        targets: list[str] = []
        if isinstance(statement, ast.Import):
            targets = [alias.name for alias in statement.names]
        elif isinstance(statement, ast.ImportFrom):
            source = _absolute(name, path.name == "__init__.py", statement)
            for alias in statement.names:
                whole = f"{source}.{alias.name}"
                targets.append(whole if whole in known else source)
        for target in dict.fromkeys(targets):  # `from a import b, c`: one import of a
            if target in known and target != name:
                found.append(Import(name, target, path, statement.lineno))
    return found


def graph() -> list[Import]:
    known = modules()
    return [found for name, path in known.items() for found in imports_of(name, path, known)]


def floor_of(module: str) -> tuple[int, str]:
    """(floor, room): the room is the package under `meadow`, or for a game, its own
    package (two games are two rooms on one floor)."""
    parts = module.split(".")
    if len(parts) == 1:  # `meadow` itself: a version string, nothing more
        return 0, "meadow"
    room = parts[1]
    if room == "games" and len(parts) > 2:
        return FLOORS["games"], f"games.{parts[2]}"
    return FLOORS[room], room


def climbs(imports: list[Import]) -> list[str]:
    """Each import of a room on a higher floor, or of another room on the same floor."""
    wrong = []
    for found in imports:
        floor, room = floor_of(found.importer)
        their_floor, their_room = floor_of(found.imported)
        if their_floor > floor or (their_floor == floor and their_room != room):
            if room.startswith("games.") and their_room == "games":
                continue  # the registry's name for a game package's own floor
            wrong.append(found.where())
    return wrong


def circles(imports: list[Import]) -> list[list[str]]:
    """The import circles (strongly connected modules, Tarjan's algorithm), each as the
    modules in it."""
    edges: dict[str, list[str]] = {}
    for found in imports:
        edges.setdefault(found.importer, []).append(found.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found_circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, []):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                members.append(member)
                if member == node:
                    break
            if len(members) > 1:
                found_circles.append(sorted(members))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found_circles


def test_no_import_climbs_a_floor_or_crosses_to_a_room_beside_it() -> None:
    wrong = climbs(graph())
    assert not wrong, "imports against the floors:\n" + "\n".join(wrong)


def test_no_runtime_import_circle() -> None:
    imports = graph()
    found = circles(imports)
    lines = []
    for members in found:
        inside = [i.where() for i in imports if i.importer in members and i.imported in members]
        lines.append(" <-> ".join(members) + "\n  " + "\n  ".join(inside))
    assert not found, "import circles:\n" + "\n".join(lines)


def test_every_room_has_a_floor() -> None:
    rooms = {name.split(".")[1] for name in modules() if "." in name}
    assert rooms <= set(FLOORS) | {"web"}, f"rooms without a floor: {rooms - set(FLOORS)}"


# The checker itself, on imports it must catch: the test above is only as good as these.


def _write(tmp: Path, files: dict[str, str]) -> dict[str, Path]:
    paths = {}
    for name, text in files.items():
        path = tmp.joinpath(*name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


@pytest.fixture
def sketch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    return tmp_path


def _imports(root: Path, files: dict[str, str]) -> list[Import]:
    paths = _write(root, files)
    known = {name: path for name, path in paths.items()}
    return [found for name, path in paths.items() for found in imports_of(name, path, known)]


def test_the_checker_catches_a_climb_and_names_the_file(sketch: Path) -> None:
    imports = _imports(
        sketch,
        {
            "meadow.core.record": "from meadow.games.topiary import rules\n",
            "meadow.games.topiary.rules": "from meadow.core import record\n",
        },
    )
    assert climbs(imports) == ["meadow/core/record.py:1 imports meadow.games.topiary.rules"]


def test_the_checker_catches_one_game_importing_another(sketch: Path) -> None:
    imports = _imports(
        sketch,
        {
            "meadow.games.topiary.rules": "import meadow.games.harmonies.board\n",
            "meadow.games.harmonies.board": "X = 1\n",
        },
    )
    assert climbs(imports) == [
        "meadow/games/topiary/rules.py:1 imports meadow.games.harmonies.board"
    ]


def test_the_checker_counts_imports_in_functions_but_not_for_the_type_checker(
    sketch: Path,
) -> None:
    imports = _imports(
        sketch,
        {
            "meadow.bots.a": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from meadow.bots import b\n"
                "def later():\n    from meadow.bots import b\n"
            ),
            "meadow.bots.b": "from meadow.bots import a\n",
        },
    )
    assert circles(imports) == [["meadow.bots.a", "meadow.bots.b"]]
    found = {(i.importer, i.line) for i in imports}
    assert found == {("meadow.bots.a", 5), ("meadow.bots.b", 1)}


# A module past these sizes holds more than one concern: split it by what it does (STYLE.md).
LONGEST = {"meadow/server": 600, "meadow/web": 800}


def test_no_server_module_past_600_lines_and_no_front_end_module_past_800() -> None:
    too_long = []
    for folder, most in LONGEST.items():
        for path in sorted((ROOT / folder).rglob("*.[pj][ys]")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > most:
                too_long.append(f"{path.relative_to(ROOT)}: {lines} lines (at most {most})")
    assert not too_long, "split by what each part does:\n" + "\n".join(too_long)
