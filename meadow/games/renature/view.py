"""What each seat may know of a Renature game, and worlds consistent with it.

Public: the board (dominoes, plants, clouds, mushrooms, the joker), the fronts of area tokens,
every player board (plants and clouds), scores so far, hand and reserve sizes. Hidden: the
dominoes in hands (a seat sees its own), in the reserves (even their owner's: dealt face
down), discarded (their owner saw them) and left in the box; the backs of area tokens (a seat
sees the backs of those it took, all are shown once the game is over).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from meadow.core.actions import JSON
from meadow.core.rng import Rng
from meadow.games.renature import components as c
from meadow.games.renature.scoring import NEUTRAL, ranked_colours

if TYPE_CHECKING:
    from meadow.games.renature.rules import RenatureState

S = TypeVar("S", bound="RenatureState")
COLOURS = ("orange", "blue", "black", "white")


def colour_name(colour: int) -> str:
    return "neutral" if colour == NEUTRAL else COLOURS[colour]


def _domino(d: int) -> dict[str, JSON]:
    return {
        "domino": c.dominoes()[d].id,
        "animals": [c.animals()[a].name for a in c.dominoes()[d].animals],
    }


def _area_view(state: RenatureState, area: str, cells: list[int]) -> dict[str, JSON]:
    totals = state.totals(area)
    kept = {colour for colour, _ in ranked_colours(totals)}
    token = state.tokens_on.get(area)
    return {
        "area": area,
        "size": len(cells),
        "cells": [state.board.name_of(x) for x in cells],
        "token": None
        if token is None
        else {"main": c.area_tokens()[token].main, "minor": c.area_tokens()[token].minor},
        "scored": area in state.scored,
        "closed": state.closed(area),
        "totals": {colour_name(k): v for k, v in sorted(totals.items())},
        "tied": sorted(colour_name(k) for k in totals if k not in kept),
        "would_score": {str(s): p for s, p in sorted(state.would_score(area).items())},
    }


def _seat_view(state: RenatureState, viewer: int | None, owner: int) -> dict[str, JSON]:
    seat = state.seats[owner]
    over = state.to_move is None
    data: dict[str, JSON] = {
        "colour": COLOURS[owner],
        "score": seat.score if over else seat.score - seat.points.get("token_backs", 0),
        "points": dict(seat.points),
        "clouds": seat.clouds,
        "supply": dict(seat.supply),
        "capacity": dict(seat.capacity),
        "hand_size": len(seat.hand),
        "reserve_size": len(seat.reserve),
        "discarded": len(seat.discarded),
        "tokens": [
            {"main": c.area_tokens()[t].main, "minor": c.area_tokens()[t].minor}
            for t in seat.collected
        ],
    }
    if viewer == owner or over:
        data["token_backs"] = [c.area_tokens()[t].back for t in seat.collected]
    if viewer == owner:
        data["hand"] = [_domino(d) for d in sorted(seat.hand)]
        data["discarded_dominoes"] = [_domino(d) for d in seat.discarded]
    return data


def view(state: RenatureState, seat: int | None) -> dict[str, JSON]:
    """The public part (the board, its areas each scored as if now: most of the work) is
    built once a ply and shared by every seat's view of it, which callers only read."""
    cached = state._public
    if cached is None or cached[0] != state.ply:
        before = cached[2] if cached is not None else {}
        public, kept = _public(state, before)
        cached = state._public = (state.ply, public, kept)
    seen = dict(cached[1])
    seen["seat"] = seat
    seen["seats"] = [_seat_view(state, seat, owner) for owner in range(state.players)]
    return seen


def _areas(
    state: RenatureState, before: dict[Any, Any]
) -> tuple[list[dict[str, JSON]], dict[Any, Any]]:
    """Each area's view, the one of the ply before where nothing it is made of changed (a
    move changes an area or two): built anew, an area costs more than the rest of a view."""
    made: dict[Any, Any] = {}
    shown = []
    for area, cells in state.areas().items():
        totals = state.totals(area)
        key = (
            area,
            tuple(cells),
            state.tokens_on.get(area),
            area in state.scored,
            state.closed(area),
            tuple(sorted(totals.items())),
        )
        made[key] = before.get(key) or _area_view(state, area, cells)
        shown.append(made[key])
    return shown, made


def _kept(before: dict[Any, Any], kept: dict[Any, Any], part: str, made_of: Any, build: Any) -> Any:
    """A part of the view that changes only now and then (a domino, a plant laid), built
    again only when what it is made of changed."""
    was = before.get(part)
    shown = was[1] if was is not None and was[0] == made_of else build()
    kept[part] = (made_of, shown)
    return shown


def _public(state: RenatureState, before: dict[Any, Any]) -> tuple[dict[str, JSON], dict[Any, Any]]:
    """Every seat's view but its `seat` and `seats`, left empty here, in their places; and
    what the next ply's may keep of it."""
    board = state.board
    name = board.name_of
    over = state.to_move is None
    areas, kept = _areas(state, before)
    brooks = before.get("brooks") or [x for x in board.cells if board.is_brook(x)]
    kept["brooks"] = brooks
    public: dict[str, JSON] = {
        "game": "renature",
        "players": state.players,
        "seat": None,
        "ply": state.ply,
        "options": state.options.model_dump(mode="json"),
        "phase": state.phase,
        "to_move": state.to_move,
        "board": {
            "name": board.name,
            "standin": board.standin,
            "width": board.width,
            "height": board.height,
            "start": sorted(name(x) for x in board.start),
            "stumps": sorted(name(x) for x in board.stumps),
            # presentation only: the printed cloud symbols, and the meadow spaces that a
            # mushroom turned into area spaces (the map itself says brook/meadow there)
            "cloud_spaces": sorted(name(x) for x in board.clouds),
            "mushrooms": sorted(name(x) for x in brooks if state.area_id[x] is not None),
        },
        "standins": list(c.standins()),
        "joker": c.animals()[state.joker].name,
        "dominoes": _kept(
            before,
            kept,
            "dominoes",
            (tuple(state.domino_at), tuple(state.animal_at)),
            lambda: {
                name(x): {
                    "domino": c.dominoes()[d].id,
                    "animal": c.animals()[state.animal_at[x]].name,
                }
                for x, d in enumerate(state.domino_at)
                if d >= 0
            },
        ),
        "plants": _kept(
            before,
            kept,
            "plants",
            tuple(state.plant_at),
            lambda: {
                name(x): {"plant": c.PLANT_TYPES[p[0] - 1], "colour": colour_name(p[1])}
                for x, p in enumerate(state.plant_at)
                if p is not None
            },
        ),
        "clouds": {name(x): n for x, n in sorted(state.board_clouds.items())},
        "area_of": _kept(
            before,
            kept,
            "area_of",
            tuple(state.area_id),
            lambda: {name(x): a for x, a in enumerate(state.area_id) if a is not None},
        ),
        "areas": areas,
        "irrelevant": [name(x) for x in state.irrelevant_animals()],
        "last_domino": None if state.last_domino is None else [name(x) for x in state.last_domino],
        "mushrooms_left": state.mushrooms_left,
        "box_dominoes": len(state.box_dominoes),
        "seats": [],
        "result": state.result().to_json() if over else None,
    }
    # What did not change is the object of the ply before: a server comparing the two
    # views for a patch passes over it at once.
    for key in ("options", "board", "standins"):
        if before.get(key) == public[key]:
            public[key] = before[key]
        kept[key] = public[key]
    return public, kept


def sample_hidden(state: S, seat: int | None, rng: Rng) -> S:
    """A copy with the unknown dominoes and token backs dealt afresh."""
    world = state.clone()
    world.rng = rng.spawn()
    _redeal_dominoes(world, seat, rng)
    if state.to_move is not None:
        _redeal_tokens(world, seat, rng)
    return world


def _redeal_dominoes(world: RenatureState, seat: int | None, rng: Rng) -> None:
    piles: list[list[int]] = [world.box_dominoes]
    for owner, s in enumerate(world.seats):
        piles.append(s.reserve)
        if owner != seat:
            piles += [s.hand, s.discarded]
    pool = sorted(d for pile in piles for d in pile)  # what the seat knows, not where they lie
    rng.shuffle(pool)
    start = 0
    for pile in piles:
        end = start + len(pile)
        pile[:] = sorted(pool[start:end])
        start = end


def _redeal_tokens(world: RenatureState, seat: int | None, rng: Rng) -> None:
    """Tokens whose front is known keep their front; their backs and the spares are redrawn:
    those on the board, then each other seat's, in order, from the shuffled tokens of their
    front."""
    others = [s for owner, s in enumerate(world.seats) if owner != seat]
    on_board = list(world.tokens_on.items())
    current = [token for _, token in on_board] + [t for s in others for t in s.collected]
    front = _fronts()
    by_front: dict[tuple[int, int], list[int]] = {}
    for t in current + list(world.box_tokens):
        by_front.setdefault(front[t], []).append(t)
    for key in sorted(by_front):
        tokens = by_front[key]
        if len(tokens) > 1:  # one token: a shuffle draws nothing
            tokens.sort()
            rng.shuffle(tokens)
    for area, token in on_board:
        world.tokens_on[area] = by_front[front[token]].pop()
    for s in others:
        s.collected = [by_front[front[token]].pop() for token in s.collected]
    world.box_tokens = sorted(t for tokens in by_front.values() for t in tokens)


@cache
def _fronts() -> tuple[tuple[int, int], ...]:
    """Per area token: its front (main and minor colour), which a seat may know of it."""
    return tuple((t.main, t.minor) for t in c.area_tokens())
