"""Why a Renature action is refused, in the words of the rules (never a hidden fact)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meadow.core.actions import Action
from meadow.games.renature import components as c
from meadow.games.renature.actions import (
    ChangeJoker,
    DiscardDomino,
    EndTurn,
    ExtraTurn,
    PlaceDomino,
    PlaceMushroom,
    PlacePlant,
    ReturnPlant,
    SkipMushroom,
    SkipPlant,
)
from meadow.games.renature.scoring import NEUTRAL

if TYPE_CHECKING:
    from meadow.games.renature.rules import RenatureState

NOW = {
    "domino": "place a domino from your hand or discard one (step A)",
    "mushroom": "place the mushroom for the stump you covered, or 'no mushroom'",
    "plant": "place a plant beside your domino, or 'no plant' (step B)",
    "end": "end your turn ('end') or buy another one ('extra turn')",
}


def why_illegal(state: RenatureState, action: Action) -> str:
    phase = NOW.get(state.phase, "wait")
    wrong = f"not now: {phase}"
    if isinstance(action, PlaceDomino | DiscardDomino):
        return _domino(state, action) if state.phase == "domino" else wrong
    if isinstance(action, PlaceMushroom | SkipMushroom):
        if state.phase != "mushroom":
            return "there is no mushroom to place now (cover a tree stump first)"
        cell = action.cell if isinstance(action, PlaceMushroom) else "that"
        return (
            f"{cell} is not a free meadow space beside an area "
            "(ponds, stumps and spaces with clouds excluded)"
        )
    if isinstance(action, PlacePlant | SkipPlant):
        return _plant(state, action) if state.phase == "plant" else wrong
    if isinstance(action, ChangeJoker):
        return _joker(state, action)
    if isinstance(action, ReturnPlant):
        return _return(state, action)
    if isinstance(action, EndTurn | ExtraTurn):
        if state.phase != "end":
            return f"finish the turn first: {phase}"
        seat = state.seats[state.seat]  # type: ignore[index]
        if not seat.hand:
            return "no domino left in hand for another turn"
        return f"another turn costs {c.EXTRA_TURN_COST} clouds; you have {seat.clouds}"
    return f"not a Renature action ({type(action).__name__})"


def _domino(state: RenatureState, action: PlaceDomino | DiscardDomino) -> str:
    seat = state.seats[state.seat]  # type: ignore[index]
    d = c.domino_index()[action.domino]
    if d not in seat.hand:
        return f"{action.domino} is not in your hand"
    assert isinstance(action, PlaceDomino)
    board = state.board
    cells = [board.cell_at(action.first), board.cell_at(action.second)]
    for name, cell in zip((action.first, action.second), cells, strict=True):
        if cell is None:
            return f"{name} is not a space of the board"
        if state.area_id[cell] is not None:
            return f"{name} is an area space; dominoes go on brook spaces, never into an area"
        if state.domino_at[cell] >= 0:
            return f"{name} is already covered by a domino"
    first, second = cells
    if second not in board.neighbours[first]:  # type: ignore[index]
        return f"{action.first} and {action.second} are not side by side"
    animals = c.dominoes()[d].animals
    joker = c.animals()[state.joker].name
    for name, cell, animal in zip((action.first, action.second), cells, animals, strict=True):
        for n in board.neighbours[cell]:  # type: ignore[index]
            other = state.animal_at[n]
            if other >= 0 and not state._matches(animal, other):
                return (
                    f"the {c.animals()[animal].name} on {name} would sit beside the "
                    f"{c.animals()[other].name} on {board.name_of(n)}: all animals beside each "
                    f"other must match (the joker is the {joker})"
                )
    return (
        "neither half is on a start space or beside a matching animal "
        f"(the joker, the {joker}, matches every animal)"
    )


def _plant(state: RenatureState, action: PlacePlant | SkipPlant) -> str:
    assert isinstance(action, PlacePlant)
    seat = state.seats[state.seat]  # type: ignore[index]
    key = f"neutral {action.plant}" if action.neutral else action.plant
    if seat.supply.get(key, 0) == 0:
        return f"no {key} left on your player board"
    return (
        f"{action.cell} is not a free area space beside the domino you just placed "
        "(an area space is free when no plant is on it)"
    )


def _joker(state: RenatureState, action: ChangeJoker) -> str:
    seat = state.seats[state.seat]  # type: ignore[index]
    if state.phase not in ("domino", "plant", "end"):
        return "cloud actions wait until the mushroom is placed"
    if c.animal_index()[action.animal] == state.joker:
        return f"the {action.animal} is already the joker"
    return f"changing the joker costs {c.JOKER_COST} clouds; you have {seat.clouds}"


def _return(state: RenatureState, action: ReturnPlant) -> str:
    seat = state.seats[state.seat]  # type: ignore[index]
    cell = state.board.cell_at(action.cell)
    if cell is None or state.plant_at[cell] is None:
        return f"there is no plant on {action.cell}"
    if state.phase not in ("domino", "plant", "end"):
        return "cloud actions wait until the mushroom is placed"
    value, colour = state.plant_at[cell]  # type: ignore[misc]
    if colour not in (NEUTRAL, state.seat):
        return "you may return only plants of your own colour or neutral ones"
    if value > seat.clouds:
        return f"returning it costs {value} clouds (its value); you have {seat.clouds}"
    return (
        "your player board has no free space of that kind and colour "
        "(in a 4-player game spaces with the exclusion icon are never free)"
    )
