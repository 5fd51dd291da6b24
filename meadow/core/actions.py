"""Actions and events: the small values that cross the contract.

An action is a frozen, slotted dataclass whose fields are plain JSON values (str, int, bool, or
tuples of them). `str(action)` is its log form and parses back with `State.parse_action`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

JSON = Any  # a value made of dict, list, str, int, float, bool and None

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every game's decisions. Subclasses define `__str__`."""

    @property
    def kind(self) -> str:
        """The class name in snake case: `PlaceVisitor` -> `place_visitor`."""
        return _CAMEL.sub("_", type(self).__name__).lower()

    def to_json(self) -> dict[str, JSON]:
        """The structured form: `{"kind": ..., field: value, ...}`, tuples as lists."""
        data: dict[str, JSON] = {"kind": self.kind, "text": str(self)}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(slots=True)
class Event:
    """Something that happened, for logs, animation and replay.

    `public` is what every seat and spectator learns; `private[seat]` adds what only that seat
    learns (the tile it drew). `reveals` marks a point undo may not cross: hidden information
    came out or chance was used.

    An event is never changed once made. It is not frozen all the same: the engines make one
    or two every decision, and a frozen dataclass takes three times as long to build (0.58
    against 0.20 µs), some 4 % of a random game's time in Harmonies and Renature.

    Nor may anything it holds change: the server keeps events to the end of the game, so a
    game gives an event values or copies, never a list or dict the state holds (docs/
    contract.md, "Events are snapshots"). The contract suite checks it rather than this class
    copying every payload, which every bot's decision would pay for.
    """

    kind: str
    seat: int | None
    public: dict[str, JSON] = field(default_factory=dict)
    private: dict[int, dict[str, JSON]] = field(default_factory=dict)
    reveals: bool = False

    def for_seat(self, seat: int | None) -> dict[str, JSON]:
        """What `seat` may see of this event (`None` = spectator)."""
        data: dict[str, JSON] = {"kind": self.kind, "seat": self.seat, **self.public}
        if seat is not None and seat in self.private:
            data.update(self.private[seat])
        data["reveals"] = self.reveals
        return data
