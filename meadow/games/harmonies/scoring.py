"""Harmonies' scoring as pure functions over a board: a mapping (col, row) -> stack.

The mapping holds every space that exists (empty ones as `()`), so the same code scores a
real board side and the "coordinate set only" boards of the reference cases.
Rule: rulebook pp.8-11 and player aid (data/rules.json "landscapes", "spirit_scoring").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from meadow.games.harmonies.components import LANDSCAPES, Card, Cell, neighbours

Stacks = Mapping[Cell, Sequence[str]]

TREE_POINTS = {"tree1": 1, "tree2": 3, "tree3": 7}
MOUNTAIN_POINTS = {1: 1, 2: 3, 3: 7}
FIELD_POINTS = 5
BUILDING_POINTS = 5
ISLAND_POINTS = 5
RIVER_POINTS = (0, 0, 2, 5, 8, 11, 15)  # by length 0..6, then +4 per token
SUN_THRESHOLDS = (40, 70, 90, 110, 130, 140, 150, 160)
SIDE_SUNS = {"A": 1, "B": 0}
NO_SPIRIT_SUNS = 2

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")


def _top(stack: Sequence[str]) -> str | None:
    return stack[-1] if stack else None


def _landscape(stack: Sequence[str]) -> str | None:
    return LANDSCAPES.get(tuple(stack))


def _is_mountain(stack: Sequence[str]) -> bool:
    return bool(stack) and all(token == "gray" for token in stack)


def _groups(cells: Iterable[Cell]) -> list[set[Cell]]:
    """Connected groups of the given cells."""
    remaining = set(cells)
    groups = []
    while remaining:
        start = remaining.pop()
        group, frontier = {start}, [start]
        while frontier:
            for n in neighbours(*frontier.pop()):
                if n in remaining:
                    remaining.remove(n)
                    group.add(n)
                    frontier.append(n)
        groups.append(group)
    return groups


def trees(stacks: Stacks) -> int:
    """1 / 3 / 7 per Tree of height 1 / 2 / 3.

    >>> trees({(0, 0): ["brown", "brown", "green"], (1, 0): ["brown"]})
    7
    """
    return sum(TREE_POINTS.get(_landscape(s) or "", 0) for s in stacks.values())


def mountains(stacks: Stacks) -> int:
    """1 / 3 / 7 per Mountain of height 1 / 2 / 3 that touches another Mountain.

    >>> mountains({(0, 0): ["gray"], (1, 0): ["gray", "gray"], (3, 0): ["gray"]})
    4
    """
    peaks = {cell for cell, s in stacks.items() if _is_mountain(s)}
    return sum(
        MOUNTAIN_POINTS[len(stacks[cell])]
        for cell in peaks
        if any(n in peaks for n in neighbours(*cell))
    )


def fields(stacks: Stacks) -> int:
    """5 per connected group of 2 or more yellow tokens."""
    yellow = [cell for cell, s in stacks.items() if _top(s) == "yellow"]
    return FIELD_POINTS * sum(1 for g in _groups(yellow) if len(g) >= 2)


def _is_building(stack: Sequence[str]) -> bool:
    return _landscape(stack) == "building"


def buildings(stacks: Stacks) -> int:
    """5 per Building whose neighbours show 3 or more different top colours."""
    points = 0
    for cell, stack in stacks.items():
        if _is_building(stack):
            colours = {_top(stacks[n]) for n in neighbours(*cell) if stacks.get(n)}
            if len(colours) >= 3:
                points += BUILDING_POINTS
    return points


def river_length(stacks: Stacks) -> int:
    """Tokens on the shortest path between the two ends of the best river: the largest
    diameter + 1 of a connected group of blue tokens (rulebook p.8, branch example)."""
    blue = {cell for cell, s in stacks.items() if _top(s) == "blue"}
    best = 0
    for group in _groups(blue):
        for start in group:
            best = max(best, _farthest(start, group) + 1)
    return best


def _farthest(start: Cell, group: set[Cell]) -> int:
    distance = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for n in neighbours(*cell):
            if n in group and n not in distance:
                distance[n] = distance[cell] + 1
                queue.append(n)
    return max(distance.values())


def river_points(length: int) -> int:
    """>>> [river_points(n) for n in range(1, 9)]
    [0, 2, 5, 8, 11, 15, 19, 23]
    """
    if length < len(RIVER_POINTS):
        return RIVER_POINTS[length]
    return RIVER_POINTS[-1] + 4 * (length - len(RIVER_POINTS) + 1)


def islands(stacks: Stacks) -> int:
    """Groups of spaces (empty ones included) separated from each other by blue tokens."""
    return len(_groups(cell for cell, s in stacks.items() if _top(s) != "blue"))


def water(stacks: Stacks, side: str) -> int:
    """Side A scores the best river, side B 5 per island."""
    if side == "A":
        return river_points(river_length(stacks))
    return ISLAND_POINTS * islands(stacks)


def animal_points(card: Card, placed: int) -> int:
    """The value of the highest track space a cube has left; 0 with no cube placed."""
    return card.points[placed - 1] if placed > 0 else 0


def spirit_points(card: Card, stacks: Stacks) -> int:
    """A Nature's Spirit card's points on the final board (only when its cube is placed)."""
    rule: dict[str, Any] = card.scoring
    subject = rule["subject"]
    if rule["family"] == "connected_groups":
        cells = [cell for cell, s in stacks.items() if _in_subject(subject, s)]
        return sum(_by_size(rule["points_by_group_size"], len(g)) for g in _groups(cells))
    if subject == "blue_tokens":
        return rule["points_per_token"] * sum(1 for s in stacks.values() if _top(s) == "blue")
    by_height = rule["points_by_height"]
    if subject == "trees":
        heights = [
            int(land[-1])
            for s in stacks.values()
            if (land := _landscape(s) or "").startswith("tree")
        ]
    else:
        heights = [len(s) for s in stacks.values() if _is_mountain(s)]
    return sum(by_height[str(h)] for h in heights)


def _in_subject(subject: str, stack: Sequence[str]) -> bool:
    if subject == "buildings":
        return _is_building(stack)
    return _top(stack) == {"yellow_tokens": "yellow", "blue_tokens": "blue"}[subject]


def _by_size(table: Mapping[str, int], size: int) -> int:
    """Points for a group of `size` from keys like "1", "2", "3+", "2+".

    >>> _by_size({"1": 0, "2+": 6}, 4)
    6
    """
    if str(size) in table:
        return table[str(size)]
    open_ended = [int(k[:-1]) for k in table if k.endswith("+") and int(k[:-1]) <= size]
    return table[f"{max(open_ended)}+"] if open_ended else 0


def breakdown(
    stacks: Stacks,
    side: str,
    animals: Iterable[tuple[Card, int]],
    spirit: tuple[Card, int] | None = None,
) -> dict[str, int]:
    """Points per category (no total). `animals` pairs each card with its cubes placed;
    `spirit` is the chosen spirit and its cubes placed (0 or 1)."""
    return {
        "trees": trees(stacks),
        "mountains": mountains(stacks),
        "fields": fields(stacks),
        "buildings": buildings(stacks),
        "water": water(stacks, side),
        "animals": sum(animal_points(card, placed) for card, placed in animals),
        "spirit": spirit_points(spirit[0], stacks) if spirit and spirit[1] > 0 else 0,
    }


def solo_suns(total: int, side: str, spirit: Card | None) -> int:
    """Suns of a solo game (rulebook p.11): by score, +1 on side A, and +2 without a spirit
    or the spirit's own bonus (+1 connected-groups spirits, +0 landscape-count spirits).

    >>> solo_suns(130, "A", None)
    8
    """
    suns = sum(1 for threshold in SUN_THRESHOLDS if total >= threshold)
    bonus = NO_SPIRIT_SUNS if spirit is None else spirit.solo_sun_bonus
    return suns + SIDE_SUNS[side] + bonus
