"""The difference between two views of one recipient, as a list of operations on JSON
Pointer (RFC 6901) paths, each a list: `[path, value]` sets (a dict's key, added or
replaced; a list's element, replaced, or appended when the index is the list's length),
`[path]` removes (a dict's key; a list's element, always its last, so that no index shifts).
RFC 6902's add, replace and remove, without their names: a move's few changes weigh less
than the words would. A move's news carries it instead of the whole view once the
recipient has a view to patch (docs/server.md, "Patches"). Both views are the same
recipient's, each filtered by `State.view(seat)`, so an operation holds nothing the new
view does not.

Views are compared as JSON sees them: keys are strings (a seat number as a key too), tuples
are lists, and a scalar changed in type (1 to True) is a change, though Python finds them
equal. Equal containers are passed over with Python's own `==` (in C: most of a view does
not change in a move), which would miss True turned 1 inside one; no view does that, and
the tests that apply every patch of random games to the view before it would see it."""

from __future__ import annotations

from typing import Any

from meadow.server.live import encode

_ABSENT = object()
Op = list[Any]  # [path, value]: set; [path]: remove


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn `old` into `new` (none if they are equal)."""
    ops: list[Op] = []
    if not _same(old, new):
        _diff(old, new, "", ops)
    return ops


def _same(old: Any, new: Any) -> bool:
    # `==` alone takes True for 1 and 1 for 1.0, which JSON writes differently; a list
    # and a tuple of the same items are the same JSON (`_diff` finds no change in them).
    return old is new or (type(old) is type(new) and old == new)


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        added = 0
        for key, value in new.items():
            was = old.get(key, _ABSENT)
            # Most keys did not change: checked here, not in a call (a view has hundreds).
            if was is value or (type(was) is type(value) and was == value):
                continue
            if was is _ABSENT:
                added += 1
                ops.append([f"{path}/{_escape(key)}", value])
            else:
                _diff(was, value, f"{path}/{_escape(key)}", ops)
        if len(old) + added > len(new):  # some keys went
            ops.extend([f"{path}/{_escape(key)}"] for key in old if key not in new)
        return
    if isinstance(old, list | tuple) and isinstance(new, list | tuple):
        mine: list[Op] = []
        common = min(len(old), len(new))
        for index in range(common):
            was, value = old[index], new[index]
            if was is value or (type(was) is type(value) and was == value):
                continue
            _diff(was, value, f"{path}/{index}", mine)
        for index in range(common, len(new)):
            mine.append([f"{path}/{index}", new[index]])
        # Removed from the end first: each index stays valid as the list shrinks.
        for index in range(len(old) - 1, common - 1, -1):
            mine.append([f"{path}/{index}"])
        # Many changes in one list (a hand dealt afresh, a list shifted by one): the list
        # itself may be shorter than its operations.
        if path and len(mine) > 1 and _shorter(old, new, mine):
            ops.append([path, new])
        else:
            ops.extend(mine)
        return
    if not _same(old, new):
        ops.append([path, new])


def _shorter(
    old: list[Any] | tuple[Any, ...], new: list[Any] | tuple[Any, ...], ops: list[Op]
) -> bool:
    """Whether the list written whole is shorter than its operations. A list of scalars
    is, once more than half of it changed (each operation weighs more than its value); a
    list of dicts or lists (the seats' boards) only when items went or came (a card taken
    from the middle of a hand shifts the rest), and is measured then."""
    if not any(isinstance(item, dict | list | tuple) for item in new):
        return len(ops) > len(new) // 2
    return len(old) != len(new) and len(encode(new)) < len(encode(ops))


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def apply(doc: Any, ops: list[Op]) -> Any:
    """`doc` with the operations applied (`doc` itself changed), as the page applies them
    (meadow/web/js/patch.js); KeyError or IndexError for a path that does not exist. For
    tests and tools: the server never applies a patch."""
    for op in ops:
        keys = [k.replace("~1", "/").replace("~0", "~") for k in op[0].split("/")[1:]]
        if not keys:
            doc = op[1]
            continue
        parent = doc
        for key in keys[:-1]:
            parent = parent[int(key)] if isinstance(parent, list) else parent[key]
        last = keys[-1]
        if isinstance(parent, list):
            index = int(last)
            if len(op) == 1:
                if index != len(parent) - 1:
                    raise IndexError(op[0])
                parent.pop()
            elif index == len(parent):
                parent.append(op[1])
            else:
                parent[index] = op[1]  # IndexError past the end
        elif len(op) == 1:
            del parent[last]
        else:
            parent[last] = op[1]
    return doc
