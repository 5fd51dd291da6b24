"""How good a board is for what it can still become: the points now plus what is half built.

The search's evaluation (`Harmonies.evaluate`) and the whole-turn planner read this. Points
on the board are certain; the rest is weighed by how many tokens it still needs and how many
turns are left to place them:

- each held animal card: its next cubes' points, each habitat priced by the tokens that
  separate the board from it (the best distinct cube spaces, nearest first);
- the kept Nature's Spirit: its points on the board as it stands, if its habitat can still
  be built;
- landscapes one token short: a trunk without its leaves, a lone mountain, a lone field,
  a building short of its third neighbouring colour, a river that can still grow.

The weights were set by play tests of the planner against Meadow's other bots (docs/ai.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import chain
from operator import add, itemgetter

from meadow.games.harmonies import components as c
from meadow.games.harmonies import masks as m
from meadow.games.harmonies.rules import HarmoniesState, Player, habitats_around
from meadow.games.harmonies.scoring import (
    BUILDING_POINTS,
    FIELD_POINTS,
    MOUNTAIN_POINTS,
    animal_points,
    river_points,
)

# A habitat d tokens away counts REACH ** d of its points; tokens beyond the turns left none.
REACH = 0.72
READY = 0.95  # a cube that could go down now is all but certain
SPIRIT_SHARE = 0.8  # a spirit's points are only counted once its cube is down
ONE_SHORT = 0.45  # a landscape one token short of more points
TOKENS_PER_TURN = 3
END_EMPTY = 2
# The best display card counted for the seat about to play: a planner ending its turn then
# sees what it leaves the next player (denial).
NEXT_CARD = 0.3
SPIRIT_FLOOR = 8  # what a spirit's board tends to be worth by the end when it is empty now

Stack = tuple[str, ...]


@cache
def tokens_needed(stack: Stack, landscape: str) -> int | None:
    """Tokens to add on `stack` for it to show `landscape`; None when it never can."""
    for extra in range(4):
        if _grows_into(stack, landscape, extra):
            return extra
    return None


def _grows_into(stack: Stack, landscape: str, extra: int) -> bool:
    return any(
        c.LANDSCAPES.get(target) == landscape
        for target in c.LEGAL_STACKS
        if len(target) == len(stack) + extra and target[: len(stack)] == stack
    )


# Per landscape: the tokens each stack a space may hold needs to show it (absent: never).
_NEED: dict[str, dict[Stack, int]] = {
    land: {stack: n for stack in c.LEGAL_STACKS if (n := tokens_needed(stack, land)) is not None}
    for land in set(c.LANDSCAPES.values())
}


def turns_left(state: HarmoniesState) -> float:
    """A guess at the turns each seat still plays: the fullest board ends the game."""
    fewest = min([player.empty_spaces() for player in state.seats])
    tokens = sum(state.pouch.values()) + sum(map(len, state.central))
    by_board = max(0.0, (fewest - END_EMPTY) / TOKENS_PER_TURN) + 0.5
    by_pouch = tokens / (TOKENS_PER_TURN * max(1, state.players))
    return min(by_board, by_pouch)


def value(state: HarmoniesState, seat: int) -> float:
    """Points now plus the weighed prospects of the seat's board and cards."""
    if state.is_over:
        return float(state.result().scores[seat])
    board, animals, spirit = state.points_in_parts(seat)
    left = turns_left(state)
    total = float(board + animals + spirit)
    total += card_prospects(state, seat, left)
    total += spirit_prospect(state, seat, left, spirit)
    total += landscape_prospects(state, seat, left)
    if NEXT_CARD:
        total += next_card(state, seat, left)
    return total


def reach(tokens: int, budget: float) -> float:
    if tokens == 0:
        return READY
    if tokens > budget:
        return 0.0
    return REACH**tokens


def card_prospects(state: HarmoniesState, seat: int, left: float) -> float:
    budget = left * TOKENS_PER_TURN
    total = 0.0
    cards = c.cards()
    for card_id, placed in state.seats[seat].held:
        if not cards[card_id].spirit:
            total += card_worth(state, seat, card_id, placed, budget)
    return total


def card_worth(state: HarmoniesState, seat: int, card_id: int, placed: int, budget: float) -> float:
    """A card's points still to come: its next cubes on the nearest distinct habitats."""
    gains = _gains(card_id)[placed:]
    distances = _distances(state.board.side, state.seats[seat], card_id)[: len(gains)]
    total = 0.0
    spent = 0
    for gain, tokens in zip(gains, distances, strict=False):
        spent += tokens
        total += gain * reach(spent if tokens else 0, budget)
    return total


@cache
def _gains(card_id: int) -> tuple[int, ...]:
    """Per cube placed so far: the points the card's next cube adds."""
    card = c.cards()[card_id]
    return tuple(animal_points(card, n + 1) - animal_points(card, n) for n in range(card.cubes))


def next_card(state: HarmoniesState, seat: int, left: float) -> float:
    """For the seat about to play: the best card of the display it may take (what the
    seat before it left there, so a planner sees what its turn leaves the next player)."""
    if state.seat != seat or state.card_taken or state.taken_space >= 0:
        return 0.0
    if len(state.seats[seat].held) >= c.HELD_CARD_LIMIT:
        return 0.0
    budget = left * TOKENS_PER_TURN
    worths = [
        card_worth(state, seat, card_id, 0, budget)
        for card_id in state.display
        if c.cards()[card_id].cubes <= state.cube_reserve
    ]
    return NEXT_CARD * max(worths, default=0.0)


def spirit_prospect(state: HarmoniesState, seat: int, left: float, scored: int) -> float:
    player = state.seats[seat]
    if not player.spirit or scored or player.placed(player.spirit):
        return 0.0
    distances = _distances(state.board.side, player, player.spirit)
    if not distances:
        return 0.0
    worth = max(state.spirit_points(seat, player.spirit), SPIRIT_FLOOR * min(1.0, left / 4))
    return SPIRIT_SHARE * worth * reach(distances[0], left * TOKENS_PER_TURN)


def habitat_distances(state: HarmoniesState, seat: int, card_id: int) -> list[int]:
    """Per free space: the fewest tokens that would make it a cube space for the card,
    nearest first."""
    return list(_distances(state.board.side, state.seats[seat], card_id))


def _distances(side: str, player: Player, card_id: int) -> tuple[int, ...]:
    key = ("distances", card_id)
    found = player.memo.get(key)
    if found is None:
        bests = _bests(side, player, card_id)
        found = player.memo[key] = tuple(sorted(filter(NEVER.__gt__, bests)))
    return found


# Tokens a space needs to show a landscape, as one list for the whole board: the entry of
# space j and landscape number k is at j * len(_LANDS) + k. NEVER stands for a landscape the
# stack cannot grow into (or one a cube stops), larger than any sum of real needs, so that a
# habitat's need is a plain sum and the best of a space's rotations a plain minimum.
_LANDS = tuple(sorted(_NEED))
_LAND_NUMBER = {land: k for k, land in enumerate(_LANDS)}
NEVER = 1 << 10


def _need_row(stack: Stack, cube: bool) -> tuple[int, ...]:
    row = []
    for land in _LANDS:
        more = _NEED[land].get(stack)
        row.append(NEVER if more is None or (more and cube) else more)
    return tuple(row)


_NEED_ROWS = {
    (stack, cube): _need_row(stack, cube) for stack in c.LEGAL_STACKS for cube in (False, True)
}


def _needs(player: Player) -> list[int]:
    """The board's need list (above), worked out once per board (from the board before
    when only one space changed since)."""
    found = player.memo.get("needs")
    if found is None:
        before = player.memo.get("before")
        if before is not None and "needs" in before[1]:
            spaces, memo = before
            found = memo["needs"][:]
            lands = len(_LANDS)
            for space in spaces:
                row = _NEED_ROWS[player.stacks[space], bool(player.cubes[space])]
                found[space * lands : (space + 1) * lands] = row
        else:
            rows = map(
                _NEED_ROWS.__getitem__, zip(player.stacks, map(bool, player.cubes), strict=True)
            )
            found = [*chain.from_iterable(rows), NEVER]  # NEVER last: see _HabitatRow
        player.memo["needs"] = found
    return found


# Per space that has room for the card's habitat: the space, where its own need sits in the
# need list, and per cell of the habitat (one to three), a getter of that cell's needs in
# every rotation, with the list's last entry (NEVER) after them: a getter always gives a
# tuple, and the rotations' sums are a `map(add, ...)` of the getters', the last one NEVER.
_HabitatRow = tuple[int, int, itemgetter, itemgetter | None, itemgetter | None]


@cache
def _habitat_rows(side: str, card_id: int) -> tuple[_HabitatRow, ...]:
    lands = len(_LANDS)
    last = c.board(side).size * lands
    own = _LAND_NUMBER[c.cards()[card_id].cube_landscape]
    rows = []
    for i, habitats in enumerate(habitats_around(side, card_id)):
        if not habitats:
            continue
        cells = len(habitats[0])
        if not 1 <= cells <= 3:
            raise ValueError(f"card {card_id}: a habitat of 1 to 3 cells besides the cube")
        getters: list[itemgetter | None] = [None, None, None]
        for cell in range(cells):
            keys = [j * lands + _LAND_NUMBER[land] for j, land in (h[cell] for h in habitats)]
            getters[cell] = itemgetter(*keys, last)
        first, second, third = getters
        assert first is not None
        rows.append((i, i * lands + own, first, second, third))
    return tuple(rows)


@cache
def _rows_touching(side: str, card_id: int) -> tuple[tuple[int, ...], ...]:
    """Per space: the habitat rows whose figure a change there may change (its own row and
    those of the spaces whose habitats cover it)."""
    touching: list[list[int]] = [[] for _ in range(c.board(side).size)]
    for r, habitats in enumerate(
        habitats for habitats in habitats_around(side, card_id) if habitats
    ):
        i = _habitat_rows(side, card_id)[r][0]
        for j in {i} | {j for habitat in habitats for j, _ in habitat}:
            touching[j].append(r)
    return tuple(tuple(rows) for rows in touching)


def _rows_after(side: str, card_id: int, spaces: tuple[int, ...]) -> Iterable[int]:
    """The habitat rows a change on these spaces may change."""
    touching = _rows_touching(side, card_id)
    if len(spaces) == 1:
        return touching[spaces[0]]
    return set().union(*(touching[space] for space in spaces))


def _bests(side: str, player: Player, card_id: int) -> list[int]:
    """Per habitat row: the fewest tokens that make its space a cube space (NEVER: none)."""
    memo = player.memo
    key = ("bests", card_id)
    found = memo.get(key)
    if found is not None:
        return found
    needs = _needs(player)
    cubes = player.cubes
    rows = _habitat_rows(side, card_id)
    before = memo.get("before")
    earlier = None if before is None else before[1].get(key)
    if earlier is not None:
        found = earlier[:]
        for r in _rows_after(side, card_id, before[0]):
            found[r] = _best(rows[r], needs, cubes)
    else:
        found = [_best(row, needs, cubes) for row in rows]
    memo[key] = found
    return found


def _best(row: _HabitatRow, needs: list[int], cubes: list[int]) -> int:
    i, own_key, first, second, third = row
    if cubes[i]:
        return NEVER
    own = needs[own_key]
    if own >= NEVER:
        return NEVER
    if second is None:
        best = min(first(needs))
    elif third is None:
        best = min(map(add, first(needs), second(needs)))
    else:
        best = min(map(add, map(add, first(needs), second(needs)), third(needs)))
    return own + best if best < NEVER else NEVER


def landscape_prospects(state: HarmoniesState, seat: int, left: float) -> float:
    """Points a single token more would bring, for landscapes that have room for it."""
    if left < 1:
        return 0.0
    player = state.seats[seat]
    total = player.memo.get("one short")
    if total is None:
        total = float(_one_short(state.board.side, player)) * ONE_SHORT
        if state.board.water == "river":
            total += ONE_SHORT * _river_room(state.board.side, player)
        player.memo["one short"] = total
    return total


def _one_short(side: str, player: Player) -> int:
    """The points of the landscapes one token short (a trunk, a lone mountain or field with
    an empty neighbour, a building with room and two colours around), spaces with cubes
    left out."""
    masks = player.masks()
    around = m.neighbour_masks(side)
    free = ~_cube_mask(player)
    empty = masks[m.EMPTY]
    total = 3 * (masks[m.TRUNK1] & free).bit_count() + 7 * (masks[m.TRUNK2] & free).bit_count()
    for height, k in ((1, m.MOUNTAIN1), (2, m.MOUNTAIN2), (3, m.MOUNTAIN3)):
        for i in m.spaces_of(masks[k] & free):
            if around[i] & empty and not around[i] & masks[m.GRAY]:
                total += MOUNTAIN_POINTS[height]
    for i in m.spaces_of(masks[m.YELLOW] & free):
        if around[i] & empty and not around[i] & masks[m.YELLOW]:
            total += FIELD_POINTS
    for i in m.spaces_of(masks[m.BUILDING] & free):
        if around[i] & empty and m.colours_around(masks, around[i]) == 2:
            total += BUILDING_POINTS
    return total


def _cube_mask(player: Player) -> int:
    """The spaces with cubes (from the board before when it is known: cubes stay)."""
    found = player.memo.get("cubes")
    if found is None:
        before = player.memo.get("before")
        earlier = None if before is None else before[1].get("cubes")
        if earlier is not None:
            found = earlier
            for space in before[0]:
                if player.cubes[space]:
                    found |= 1 << space
        else:
            found = sum(1 << i for i, cube in enumerate(player.cubes) if cube)
        player.memo["cubes"] = found
    return found


def _river_room(side: str, player: Player) -> float:
    blue = player.masks()[m.BLUE]
    if not blue or not m.around_of(blue, m.neighbour_masks(side)) & player.masks()[m.EMPTY]:
        return 0.0
    length = m.river_length(side, blue)
    return float(river_points(length + 1) - river_points(length))


def position_key(state: HarmoniesState) -> tuple[object, ...]:
    """What tells two positions of one turn apart (the order tokens went down in does not)."""
    seats = tuple((*_board_key(p), tuple(map(tuple, p.held)), p.spirit) for p in state.seats)
    return (
        state.seat,
        state.phase,
        state.taken_space,
        tuple(sorted(state.hand)),
        state.card_taken,
        tuple(state.display),
        tuple(map(tuple, state.central)),
        seats,
    )


def _board_key(player: Player) -> tuple[tuple[Stack, ...], tuple[int, ...]]:
    """The board's part of a position key, once per board (the other seats' boards stand
    still through a turn)."""
    found = player.memo.get("key")
    if found is None:
        found = player.memo["key"] = (tuple(player.stacks), tuple(player.cubes))
    return found
