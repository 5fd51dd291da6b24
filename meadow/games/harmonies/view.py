"""What each seat may know of a Harmonies game, and worlds consistent with it.

Nearly everything is public: boards, cubes, cards, the central board, the display, the
pouch's contents (they follow from what has been seen). Hidden are the order of future draws
(the pouch and the draw pile are drawn at random when needed), and the spirit cards: a
player sees its own two on its first turn, everyone sees the one kept, only its owner
knows the one returned to the box.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, TypeVar

from meadow.core.actions import JSON
from meadow.core.rng import Rng
from meadow.games.harmonies import components as c

if TYPE_CHECKING:
    from meadow.games.harmonies.rules import HarmoniesState, Player

S = TypeVar("S", bound="HarmoniesState")


def _slug(card_id: int) -> str:
    return c.cards()[card_id].slug


def _knows_offer(state: HarmoniesState, seat: int | None, owner: int) -> bool:
    """A player looks at its two spirit cards on its first turn (rulebook p.10)."""
    if seat != owner:
        return False
    player = state.seats[owner]
    return bool(player.spirit) or (state.phase == "spirit" and state.to_move == owner)


def _board_view(state: HarmoniesState, seat: int | None, owner: int) -> dict[str, JSON]:
    player: Player = state.seats[owner]
    names = _names(state.board.cells)
    data: dict[str, JSON] = {
        "stacks": {name: list(s) for name, s in zip(names, player.stacks, strict=True)},
        "cubes": {name: _slug(cid) for name, cid in zip(names, player.cubes, strict=True) if cid},
        "cards": [{"card": _slug(cid), "placed": n} for cid, n in player.held],
        "completed": [{"card": _slug(cid), "placed": n} for cid, n in player.done],
        "spirit": _slug(player.spirit) if player.spirit else None,
        "empty_spaces": player.empty_spaces(),
        "animal_cubes": player.animal_cubes(),
    }
    if _knows_offer(state, seat, owner):
        data["spirit_offer"] = [_slug(cid) for cid in sorted(player.offer)]
    return data


@cache
def _names(cells: tuple[c.Cell, ...]) -> tuple[str, ...]:
    # A board's names are asked for in every view, for each seat, at every move.
    return tuple(c.cell_name(cell) for cell in cells)


# A card's information is the same in every view: built once. A view is read-only data
# (serialised, compared, encoded), so sharing it is safe.
@cache
def _card_info(card_id: int) -> dict[str, JSON]:
    card = c.cards()[card_id]
    return {
        "spirit": card.spirit,
        "cubes": card.cubes,
        "points": list(card.points),
        "pattern": [[p.q, p.r, p.landscape, p.cube] for p in card.pattern],
    }


def _shown_cards(state: HarmoniesState, seat: int | None) -> dict[str, JSON]:
    """For the browser, which has no card data: the habitat and point track of each card
    this view already names (so nothing hidden is named here)."""
    ids = list(state.display)
    for owner, player in enumerate(state.seats):
        ids += [cid for cid, _placed in player.held + player.done]
        if _knows_offer(state, seat, owner):
            ids += player.offer
    return {_slug(cid): _card_info(cid) for cid in sorted(set(ids))}


def view(state: HarmoniesState, seat: int | None) -> dict[str, JSON]:
    data = _view(state, seat)
    data["card_info"] = _shown_cards(state, seat)
    return data


def _view(state: HarmoniesState, seat: int | None) -> dict[str, JSON]:
    over = state.to_move is None
    return {
        "game": "harmonies",
        "players": state.players,
        "seat": seat,
        "ply": state.ply,
        "options": state.options.model_dump(mode="json"),
        "side": state.board.side,
        "solo": state.solo,
        "phase": state.phase,
        "to_move": state.to_move,
        "central": [list(space) for space in state.central],
        "display": [_slug(cid) for cid in state.display],
        "deck_size": len(state.deck),
        "pouch": dict(state.pouch),
        "discarded": dict(state.discarded),
        "cube_reserve": state.cube_reserve,
        "taken_space": None if state.taken_space < 0 else state.taken_space + 1,
        "hand": list(state.hand),
        "card_taken": state.card_taken,
        "end_triggered": state.end_triggered,
        "boards": [_board_view(state, seat, owner) for owner in range(state.players)],
        "points": [state.points(owner) for owner in range(state.players)],
        "result": state.result().to_json() if over else None,
    }


def sample_hidden(state: S, seat: int | None, rng: Rng) -> S:
    """A copy with future draws reseeded and the unknown spirit cards dealt afresh."""
    world = state.clone()
    world.rng = rng.spawn()
    if not state.options.spirits:
        return world
    known = {p.spirit for p in state.seats if p.spirit}
    slots: list[tuple[int, int]] = []  # (player, index in its offer)
    for owner, player in enumerate(state.seats):
        if _knows_offer(state, seat, owner):
            known.update(player.offer)
            continue
        for k, cid in enumerate(player.offer):
            if cid != player.spirit:
                slots.append((owner, k))
    unknown = [cid for cid in c.SPIRIT_IDS if cid not in known]
    rng.shuffle(unknown)
    for (owner, k), cid in zip(slots, unknown, strict=False):
        world.seats[owner].offer[k] = cid
    for player in world.seats:
        player.offer.sort()
    world._legal = None  # a spirit offer redealt may be the mover's choice
    return world
