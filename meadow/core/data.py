"""Game data files, with drop-in replacements.

Every game loads its components from `meadow/games/<game>/data/`. For Renature, Mystic Vale and
Harmonies a host replaces any of them without a code change by putting a file of the same name
in `$MEADOW_GAME_DATA/<game id>/`: that is how printed values replace stand-ins (Renature's boards,
Mystic Vale's cards). Topiary's are all printed values, built into tables at import for speed,
and are not replaceable.

Files are read when a game first needs them, never when a module is imported, so a broken
drop-in stops only what uses it; what is wrong with it is one `DataFileError` line naming the
file, the line or field, and the reason.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from meadow.core.errors import MeadowError

ENV = "MEADOW_GAME_DATA"
# The name before issue 25, still read: one letter group away from MEADOW_DATA_DIR (the server's
# database folder), it was easily set for the other.
OLD_ENV = "MEADOW_DATA"
EXCERPT = 60  # characters of a bad value quoted in an error
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class DataFileError(MeadowError):
    """A game's data file cannot be read or does not hold what the game needs."""


def excerpt(value: object) -> str:
    """A short quotation of `value` for an error line (never the whole input)."""
    text = repr(value)
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def folder() -> Path | None:
    """The folder of drop-in data files, if the host names one."""
    value = os.environ.get(ENV) or os.environ.get(OLD_ENV)
    return Path(value) if value else None


def deprecation_note() -> str | None:
    """A line for a host still using the old name."""
    if os.environ.get(OLD_ENV) and not os.environ.get(ENV):
        return (
            f"{OLD_ENV} is now called {ENV} (the old name is close to MEADOW_DATA_DIR, the "
            "server's database folder); it still works, but set the new one"
        )
    return None


def override(game_id: str, name: str) -> Path | None:
    """The drop-in file for `name`, if the host provides one."""
    root = folder()
    if root:
        path = Path(root) / game_id / name
        if path.is_file():
            return path
    return None


def parse_json(label: str, raw: bytes) -> Any:
    """`raw` as JSON, or a DataFileError naming `label` and the line and column."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataFileError(
            f"{label}: not UTF-8 text (byte {raw[exc.start]:#04x} at offset {exc.start})"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(
            f"{label}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None


def _where(raw: Any, loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a path a person can find in the file: `vales[3] ('x').cost`."""
    parts: list[str] = []
    node = raw
    for step in loc:
        if isinstance(step, int):
            parts.append(f"[{step}]")
            node = node[step] if isinstance(node, list) and step < len(node) else None
            if isinstance(node, dict) and isinstance(node.get("id"), str):
                parts.append(f" ({node['id']!r})")
        else:
            parts.append(f".{step}" if parts else str(step))
            node = node.get(step) if isinstance(node, dict) else None
    return "".join(parts) or "top level"


def check(label: str, raw: Any, shape: TypeAdapter[T]) -> T:
    """`raw` validated against `shape`; the first problem as one DataFileError line."""
    try:
        return shape.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        problem = first["msg"]
        if first["type"] not in ("missing", "extra_forbidden"):
            problem += f", got {excerpt(first.get('input'))}"
        more = exc.error_count() - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise DataFileError(f"{label}: {_where(raw, first['loc'])}: {problem}{tail}") from None


def load_json(package: str, game_id: str, name: str) -> Any:
    """A game's data file: the drop-in if there is one, else the packaged file."""
    path = override(game_id, name)
    if path is not None:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DataFileError(f"{path}: cannot be read: {exc.strerror}") from None
        return parse_json(str(path), raw)
    packaged = resources.files(package).joinpath("data").joinpath(name)
    return parse_json(f"{game_id}/data/{name} (packaged)", packaged.read_bytes())


def fingerprint(package: str, game_id: str, drop_ins: bool = True) -> str:
    """A digest of every data file the game reads as it stands here (each drop-in in place
    of its packaged file): what a model learned on these files is known by it, so that a
    host's printed values (a real Renature board, Mystic Vale's cards) make it stale. Read
    once per drop-in folder: the files do not change under a running server."""
    root = folder() if drop_ins else None
    return _fingerprint(package, game_id, drop_ins, str(root) if root else None)


@functools.lru_cache(maxsize=64)
def _fingerprint(package: str, game_id: str, drop_ins: bool, root: str | None) -> str:
    digest = hashlib.sha256(game_id.encode())
    packaged = resources.files(package).joinpath("data")
    for entry in sorted(packaged.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json") or entry.name == "sources.json":
            continue  # where the facts come from is not a fact the game plays by
        path = override(game_id, entry.name) if drop_ins else None
        raw = path.read_bytes() if path is not None else entry.read_bytes()
        # the facts, not their layout: a file saved again with other spacing is the same; a
        # broken drop-in keeps its bytes, and the game's own check names what is wrong
        with contextlib.suppress(ValueError):
            raw = json.dumps(_played(json.loads(raw)), sort_keys=True).encode()
        digest.update(entry.name.encode() + b"\0" + raw + b"\0")
    return digest.hexdigest()[:16]


# Keys that tell a page how to present a record, never what the game plays by: giving one
# does not make a model stale.
PRESENTATION_KEYS = frozenset({"name_language"})


def _played(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _played(v) for k, v in value.items() if k not in PRESENTATION_KEYS}
    if isinstance(value, list):
        return [_played(v) for v in value]
    return value


def source(game_id: str, name: str) -> str:
    """Where `name` comes from, for error lines: the drop-in's path or the packaged name."""
    path = override(game_id, name)
    return str(path) if path is not None else f"{game_id}/data/{name} (packaged)"


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}" if exc.args else "a field is missing"
    if isinstance(exc, ValueError):
        return excerpt(str(exc)).strip("'\"")
    return f"a field has the wrong kind of value ({excerpt(str(exc)).strip(chr(39) + chr(34))})"


def read_from(game_id: str, *names: str) -> Callable[[F], F]:
    """For a function that builds a game's components from its data files `names`: a file
    that does not hold what it reads (a field missing, a list where a number belongs, a count
    its own check refuses) becomes one DataFileError line naming the file, not a traceback.
    The packaged files always build, so what is caught here can only come from a drop-in."""

    def wrap(build: F) -> F:
        @functools.wraps(build)
        def built(*args: Any, **kwargs: Any) -> Any:
            try:
                return build(*args, **kwargs)
            except MeadowError:
                raise
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
                files = " or ".join(source(game_id, name) for name in names)
                raise DataFileError(f"{files}: {_reason(exc)}") from None

        return built  # type: ignore[return-value]

    return wrap
