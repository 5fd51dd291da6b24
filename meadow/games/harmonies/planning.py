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

from functools import cache, lru_cache

from meadow.games.harmonies import components as c
from meadow.games.harmonies.rules import HarmoniesState, habitats_around
from meadow.games.harmonies.scoring import (
    BUILDING_POINTS,
    FIELD_POINTS,
    MOUNTAIN_POINTS,
    animal_points,
    river_points,
    spirit_points,
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
    fewest = min(player.empty_spaces() for player in state.seats)
    tokens = sum(state.pouch.values()) + sum(len(space) for space in state.central)
    by_board = max(0.0, (fewest - END_EMPTY) / TOKENS_PER_TURN) + 0.5
    by_pouch = tokens / (TOKENS_PER_TURN * max(1, state.players))
    return min(by_board, by_pouch)


def value(state: HarmoniesState, seat: int) -> float:
    """Points now plus the weighed prospects of the seat's board and cards."""
    if state.is_over:
        return float(state.result().scores[seat])
    points = state.points(seat)
    left = turns_left(state)
    total = float(sum(points.values()))
    total += card_prospects(state, seat, left)
    total += spirit_prospect(state, seat, left, points["spirit"])
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
    for card_id, placed in state.seats[seat].held:
        if not c.cards()[card_id].spirit:
            total += card_worth(state, seat, card_id, placed, budget)
    return total


def card_worth(state: HarmoniesState, seat: int, card_id: int, placed: int, budget: float) -> float:
    """A card's points still to come: its next cubes on the nearest distinct habitats."""
    card = c.cards()[card_id]
    distances = sorted(habitat_distances(state, seat, card_id))[: card.cubes - placed]
    total = 0.0
    spent = 0
    for k, tokens in enumerate(distances):
        spent += tokens
        gain = animal_points(card, placed + k + 1) - animal_points(card, placed + k)
        total += gain * reach(spent if tokens else 0, budget)
    return total


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
    distances = habitat_distances(state, seat, player.spirit)
    if not distances:
        return 0.0
    card = c.cards()[player.spirit]
    worth = max(spirit_points(card, state.stacks_of(seat)), SPIRIT_FLOOR * min(1.0, left / 4))
    return SPIRIT_SHARE * worth * reach(min(distances), left * TOKENS_PER_TURN)


def habitat_distances(state: HarmoniesState, seat: int, card_id: int) -> list[int]:
    """Per free space: the fewest tokens that would make it a cube space for the card."""
    player = state.seats[seat]
    return list(_distances(state.board.side, card_id, tuple(player.stacks), tuple(player.cubes)))


@lru_cache(maxsize=4096)  # a search meets the other seat's board again and again
def _distances(
    side: str, card_id: int, stacks: tuple[Stack, ...], cubes: tuple[int, ...]
) -> tuple[int, ...]:
    own_need = _NEED[c.cards()[card_id].cube_landscape]
    result = []
    for i, habitats in enumerate(habitats_around(side, card_id)):
        if cubes[i]:
            continue
        own = own_need.get(stacks[i])
        if own is None:
            continue
        best = None
        for habitat in habitats:
            tokens = own
            for j, land in habitat:
                more = _NEED[land].get(stacks[j])
                if more is None or (more and cubes[j]):  # a cube stops a stack
                    break
                tokens += more
            else:
                if best is None or tokens < best:
                    best = tokens
        if best is not None:
            result.append(best)
    return tuple(result)


def landscape_prospects(state: HarmoniesState, seat: int, left: float) -> float:
    """Points a single token more would bring, for landscapes that have room for it."""
    if left < 1:
        return 0.0
    player = state.seats[seat]
    stacks, cubes = player.stacks, player.cubes
    adjacent = state.board.adjacent
    total = 0.0
    for i, stack in enumerate(stacks):
        if cubes[i] or not stack:
            continue
        room = any(not stacks[j] for j in adjacent[i])
        top = stack[-1]
        if stack == ("brown",):
            total += 3
        elif stack == ("brown", "brown"):
            total += 7
        elif top == "gray" and room and not _touches_mountain(stacks, adjacent[i]):
            total += MOUNTAIN_POINTS[len(stack)]
        elif top == "yellow" and room and not _touches(stacks, adjacent[i], "yellow"):
            total += FIELD_POINTS
        elif c.LANDSCAPES.get(stack) == "building" and room:
            colours = {stacks[j][-1] for j in adjacent[i] if stacks[j]}
            if len(colours) == 2:
                total += BUILDING_POINTS
    total *= ONE_SHORT
    if state.board.water == "river":
        total += ONE_SHORT * _river_room(state, seat)
    return total


def _touches_mountain(stacks: list[Stack], around: tuple[int, ...]) -> bool:
    return any(stacks[j] and all(t == "gray" for t in stacks[j]) for j in around)


def _touches(stacks: list[Stack], around: tuple[int, ...], colour: str) -> bool:
    return any(stacks[j] and stacks[j][-1] == colour for j in around)


def _river_room(state: HarmoniesState, seat: int) -> float:
    stacks = state.seats[seat].stacks
    adjacent = state.board.adjacent
    blue = [i for i, s in enumerate(stacks) if s and s[-1] == "blue"]
    if not blue or not any(not stacks[j] for i in blue for j in adjacent[i]):
        return 0.0
    length = _longest_river(blue, adjacent)
    return float(river_points(length + 1) - river_points(length))


def _longest_river(blue: list[int], adjacent: tuple[tuple[int, ...], ...]) -> int:
    members = set(blue)
    best = 0
    for start in blue:
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for i in frontier:
                for j in adjacent[i]:
                    if j in members and j not in seen:
                        seen[j] = seen[i] + 1
                        nxt.append(j)
            frontier = nxt
        best = max(best, max(seen.values()) + 1)
    return best


def position_key(state: HarmoniesState) -> tuple[object, ...]:
    """What tells two positions of one turn apart (the order tokens went down in does not)."""
    seats = tuple(
        (tuple(p.stacks), tuple(p.cubes), tuple(map(tuple, p.held)), p.spirit) for p in state.seats
    )
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
