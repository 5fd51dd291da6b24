"""Harmonies' board scoring over a personal board's spaces by index, as bit masks.

The same points as `scoring` (which works on cell mappings, for the calculator and the
reference cases), for the engine and the bots' evaluation, which score boards by the
thousand: one pass over the spaces sorts them into masks (the spaces of each top colour,
each landscape, the empty ones), and every category is then a few operations on those
masks. What depends on a few masks alone (groups of fields, rivers, islands, mountains that
touch) is kept per mask, as a search meets the same rivers again and again.

`tests/games/harmonies/test_masks.py` checks these figures against `scoring` on boards of
seeded games.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from meadow.games.harmonies import components as c
from meadow.games.harmonies.scoring import (
    BUILDING_POINTS,
    FIELD_POINTS,
    ISLAND_POINTS,
    MOUNTAIN_POINTS,
    _by_size,
    river_points,
)

Stack = tuple[str, ...]

# Mask numbers: the spaces topped by each colour (in c.COLOURS order), then the others.
BLUE, GRAY, BROWN, GREEN, YELLOW, RED = range(6)
EMPTY, MOUNTAIN1, MOUNTAIN2, MOUNTAIN3, TREE1, TREE2, TREE3, BUILDING, TRUNK1, TRUNK2 = range(6, 16)
MASKS = 16

_TOP = {colour: k for k, colour in enumerate(c.COLOURS)}
_BY_LANDSCAPE = {
    "tree1": TREE1,
    "tree2": TREE2,
    "tree3": TREE3,
    "mountain1": MOUNTAIN1,
    "mountain2": MOUNTAIN2,
    "mountain3": MOUNTAIN3,
    "building": BUILDING,
}
_TRUNKS = {("brown",): TRUNK1, ("brown", "brown"): TRUNK2}


def _sorts(stack: Stack) -> tuple[int, ...]:
    """The masks a space holding `stack` belongs to."""
    if not stack:
        return (EMPTY,)
    found = [_TOP[stack[-1]]]
    land = c.LANDSCAPES.get(stack)
    if land in _BY_LANDSCAPE:
        found.append(_BY_LANDSCAPE[land])
    if stack in _TRUNKS:
        found.append(_TRUNKS[stack])
    return tuple(found)


_SORTS: dict[Stack, tuple[int, ...]] = {stack: _sorts(stack) for stack in c.LEGAL_STACKS}


@cache
def neighbour_masks(side: str) -> tuple[int, ...]:
    """Per space of a board side: the mask of its neighbours."""
    return tuple(sum(1 << j for j in around) for around in c.board(side).adjacent)


def sort_spaces(stacks: Sequence[Stack]) -> list[int]:
    """The board's masks, numbered as above."""
    masks = [0] * MASKS
    bit = 1
    for stack in stacks:
        for k in _SORTS[stack]:
            masks[k] |= bit
        bit <<= 1
    return masks


def resort(masks: list[int], space: int, stack: Stack) -> list[int]:
    """The masks after `space` came to hold `stack`."""
    bit = 1 << space
    found = [mask & ~bit for mask in masks]
    for k in _SORTS[stack]:
        found[k] |= bit
    return found


def spaces_of(mask: int) -> list[int]:
    """The space numbers of a mask, in order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def around_of(mask: int, around: tuple[int, ...]) -> int:
    """The spaces next to any space of `mask`."""
    near = 0
    while mask:
        low = mask & -mask
        near |= around[low.bit_length() - 1]
        mask ^= low
    return near


@lru_cache(maxsize=1 << 14)
def groups(side: str, mask: int) -> tuple[int, ...]:
    """The connected groups of a mask's spaces, each as a mask."""
    around = neighbour_masks(side)
    found = []
    while mask:
        group = frontier = mask & -mask
        while frontier:
            frontier = around_of(frontier, around) & mask & ~group
            group |= frontier
        found.append(group)
        mask &= ~group
    return tuple(found)


@lru_cache(maxsize=1 << 14)
def river_length(side: str, blue: int) -> int:
    """Tokens on the best river: the largest diameter + 1 of a group of blue spaces."""
    around = neighbour_masks(side)
    best = 0
    for group in groups(side, blue):
        for start in spaces_of(group):
            seen = frontier = 1 << start
            farthest = 0
            while True:
                frontier = around_of(frontier, around) & group & ~seen
                if not frontier:
                    break
                seen |= frontier
                farthest += 1
            best = max(best, farthest + 1)
    return best


@lru_cache(maxsize=1 << 14)
def _mountains(side: str, one: int, two: int, three: int) -> int:
    around = neighbour_masks(side)
    peaks = one | two | three
    points = 0
    for height, mask in ((1, one), (2, two), (3, three)):
        for i in spaces_of(mask):
            if around[i] & peaks:
                points += MOUNTAIN_POINTS[height]
    return points


def colours_around(masks: list[int], around: int) -> int:
    """How many top colours the spaces of `around` show."""
    return sum(1 for k in range(6) if masks[k] & around)


def board_points(side: str, water: str, masks: list[int]) -> tuple[int, int, int, int, int]:
    """Trees, mountains, fields, buildings and water, as `scoring.breakdown` counts them."""
    trees = masks[TREE1].bit_count() + 3 * masks[TREE2].bit_count() + 7 * masks[TREE3].bit_count()
    mountains = _mountains(side, masks[MOUNTAIN1], masks[MOUNTAIN2], masks[MOUNTAIN3])
    fields = FIELD_POINTS * sum(1 for g in groups(side, masks[YELLOW]) if g & (g - 1))
    around = neighbour_masks(side)
    buildings = 0
    for i in spaces_of(masks[BUILDING]):
        if colours_around(masks, around[i]) >= 3:
            buildings += BUILDING_POINTS
    if water == "river":
        water_points = river_points(river_length(side, masks[BLUE]))
    else:
        land = (1 << len(around)) - 1 & ~masks[BLUE]
        water_points = ISLAND_POINTS * len(groups(side, land))
    return trees, mountains, fields, buildings, water_points


_GROUP_SUBJECT = {"buildings": BUILDING, "yellow_tokens": YELLOW, "blue_tokens": BLUE}
_HEIGHTS = {
    "trees": (TREE1, TREE2, TREE3),
    "mountains": (MOUNTAIN1, MOUNTAIN2, MOUNTAIN3),
}


def spirit_points(card: c.Card, side: str, masks: list[int]) -> int:
    """A Nature's Spirit card's points on the board, as `scoring.spirit_points` counts them."""
    rule = card.scoring
    subject = rule["subject"]
    if rule["family"] == "connected_groups":
        table = rule["points_by_group_size"]
        found = groups(side, masks[_GROUP_SUBJECT[subject]])
        return sum(_by_size(table, group.bit_count()) for group in found)
    if subject == "blue_tokens":
        return rule["points_per_token"] * masks[BLUE].bit_count()
    by_height = rule["points_by_height"]
    return sum(
        by_height[str(height)] * masks[k].bit_count()
        for height, k in enumerate(_HEIGHTS[subject], start=1)
    )
