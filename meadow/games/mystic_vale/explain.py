"""Why a Mystic Vale action is refused, in the words of the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meadow.core.actions import Action
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale.actions import (
    BuyAdvancement,
    BuyVale,
    Choose,
    Decline,
    EndHarvest,
    Exchange,
    Pass,
    Prevent,
    Push,
    Reveal,
    Sleeve,
    Spoil,
    StopPrep,
    UseAbility,
)
from meadow.games.mystic_vale.scoring import pay_spirits

if TYPE_CHECKING:
    from meadow.games.mystic_vale.rules import MysticValeState

NOW = {
    "plant": "push the on-deck card or pass",
    "prep": "continue Prep ('push') or stop it",
    "ability": "make the ability's choice ('choose c<n>' or 'decline')",
    "reveal": "reveal the next card",
    "spoiling": "prevent the spoil or accept it ('spoil')",
    "harvest": "harvest: abilities, purchases, 'end harvest'",
    "sleeve": "sleeve your purchases",
    "nest": "keep cards with Brutplatz ('choose c<n>') or 'decline'",
}


def why_illegal(state: MysticValeState, action: Action) -> str:
    phase = NOW.get(state.phase, "wait")
    me = state.me
    h = state.harvest
    if isinstance(action, Push):
        if state.phase == "plant" and me.on_deck is None:
            return "all 20 of your cards are in the field: you must pass"
        return f"not now: {phase}"
    if isinstance(action, Pass | Reveal | Spoil | StopPrep):
        if isinstance(action, StopPrep) and state.options.edition != "german":
            return "stopping Prep early is a rule of the German edition only (option edition)"
        return f"not now: {phase}"
    if isinstance(action, Choose | Decline):
        if state.phase not in ("ability", "nest"):
            return f"not now: {phase}"
        return (
            f"c{action.card} cannot be chosen for this ability"
            if isinstance(action, Choose)
            else f"not now: {phase}"
        )
    if isinstance(action, Prevent):
        if state.phase != "spoiling":
            return "nothing is spoiling now"
        return (
            f"{action.source} cannot prevent this spoil (once per turn; vale cards work "
            "from the turn after their purchase)"
        )
    if state.phase == "sleeve" and isinstance(action, Sleeve):
        return _why_not_sleeve(state, action)
    if state.phase != "harvest":
        return f"not now: {phase}"
    if isinstance(action, UseAbility):
        return f"c{action.card} has no unused harvest ability at {action.position}"
    if isinstance(action, EndHarvest):
        return "resolve the harvest abilities in your field first (they are mandatory)"
    if isinstance(action, Exchange):
        if state.options.edition == "english":
            return "the English edition has no 3-spirits-for-1-VP exchange (option edition)"
        return "you need 3 unused spirit symbols"
    if isinstance(action, BuyVale):
        if h.vales_bought >= c.BUY_LIMIT:
            return "you may buy at most 2 vale cards per turn"
        if not any(action.vale in level for level in state.vale_market):
            return f"{action.vale} is not in the vale market"
        if action.vale == "alte_lebenswurzeln" and any(v == action.vale for v, _ in me.vales):
            return "you may own only one Alte Lebenswurzeln"
        if pay_spirits(c.vales()[action.vale].cost, h.spirits) is None:
            return f"your spirit symbols do not pay for {action.vale} (wild pays for any)"
        return f"not now: {phase}"
    if isinstance(action, BuyAdvancement):
        adv, pos = c.split_copy(action.copy)
        if h.advancements_bought >= h.buy_limit:
            return f"you may buy at most {h.buy_limit} advancements per turn"
        in_market = any(action.copy in level for level in state.market)
        if adv.id == c.FERTILE_SOIL:
            in_market = state.fertile[pos] > 0
        if not in_market:
            return f"{action.copy} is not for sale now"
        open_cards, room = state._room(pos)
        if room < 1:
            return f"no card in your field has its {c.POSITIONS[pos]} position free"
        if action.onto and action.onto - 1 not in open_cards:
            return f"c{action.onto} has no free {c.POSITIONS[pos]} position for it"
        if action.onto:
            return f"c{action.onto} shows no Chor des Erdengesangs, or you lack the mana"
        return f"{action.copy} costs {adv.cost} mana; you have {state.mana_left()}"
    return f"not now: {phase}"


def _why_not_sleeve(state: MysticValeState, action: Sleeve) -> str:
    copy = state.harvest.to_sleeve[0][0]
    if action.copy != copy:
        return f"sleeve {copy} first"
    _adv, pos = c.split_copy(copy)
    me = state.me
    card = action.card - 1
    if card not in me.field:
        return f"c{action.card} is not in your field (never the on-deck card)"
    if me.cards[card][pos] is not None:
        return (
            f"c{action.card} already has an advancement at {c.POSITIONS[pos]}; none may be covered"
        )
    return f"c{action.card} is promised to another purchase, or no vertical band is there to keep"
