"""Mystic Vale states with chosen cards, for tests of single rules and abilities."""

from __future__ import annotations

from meadow import games
from meadow.games.mystic_vale.rules import HARVEST, PLANT, MysticValeState

MYSTIC_VALE = games.get("mystic_vale")
CL = "cursed_land"
FS = "fertile_soil"
Slots = list


def fresh(players: int = 2, seed: int = 1, **options: object) -> MysticValeState:
    state = MYSTIC_VALE.setup(players, options, seed)
    assert isinstance(state, MysticValeState)
    return state


def arrange(
    state: MysticValeState,
    field: list[Slots],
    on_deck: Slots | None = None,
    deck: list[Slots] | None = None,
    seat: int = 0,
) -> list[int]:
    """Give seat's druid exactly these cards (field, on-deck, deck top first); the other
    cards are blank and go to the discard pile. Returns the card numbers c1.. in order."""
    druid = state.seats[seat]
    deck = deck or []
    chosen = [*field, *([on_deck] if on_deck is not None else []), *deck]
    blank = 20 - len(chosen)
    druid.cards = [list(s) + [None] * (3 - len(s)) for s in chosen] + [
        [None, None, None] for _ in range(blank)
    ]
    druid.band = [-1] * 20
    for i, slots in enumerate(druid.cards):
        for pos, type_id in enumerate(slots):
            if type_id and MYSTIC_VALE_ADV()[type_id].vertical:
                druid.band[i] = pos
    n = len(field)
    druid.field = list(range(n))
    druid.on_deck = n if on_deck is not None else None
    start = n + (1 if on_deck is not None else 0)
    druid.deck = list(range(start, start + len(deck)))[::-1]  # top is last
    druid.discard = list(range(len(chosen), 20))
    druid.known_top = 0
    state.seat = seat
    state._legal = None
    return [x + 1 for x in range(len(chosen))]


def MYSTIC_VALE_ADV() -> dict:
    from meadow.games.mystic_vale import components

    return components.advancements()


def to_harvest(state: MysticValeState) -> None:
    """Pass from Planting into the Harvest with the current field."""
    state.phase = PLANT
    state._legal = None
    state.apply(next(a for a in state.legal_actions() if str(a) == "pass"))
    assert state.phase == HARVEST
