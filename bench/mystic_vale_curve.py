"""Does the stand-in card set play like a deck-builder? Heuristic players, game lengths.

    python -m bench.mystic_vale_curve [-n 100]

Each player pushes while under 40 % of its deck would spoil the field, prevents spoils when
it can, resolves harvest abilities, and buys the costliest vale and advancements it can pay
for. A yardstick for the stand-in costs, not a bot (those come with the bots issue).
"""

from __future__ import annotations

import argparse
from statistics import fmean

from meadow import games
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
    Sleeve,
    UseAbility,
)
from meadow.games.mystic_vale.rules import MysticValeState
from meadow.games.mystic_vale.scoring import card_decay


def spoil_chance(state: MysticValeState) -> float:
    """The share of cards in the own deck (known as a set) that would spoil the field if
    revealed after this push."""
    me = state.me
    room = c.SPOIL_AT - state.decay(me)
    if not me.deck:
        return 0.0
    risky = sum(
        1 for x in me.deck if card_decay(me.cards[x], {a for _, a in me.abilities(x)}) >= room
    )
    return risky / len(me.deck)


def choose(state: MysticValeState) -> Action:
    actions = state.legal_actions()
    kinds = {type(a) for a in actions}
    if Push in kinds and Pass in kinds:
        return Push() if spoil_chance(state) < 0.4 else Pass()
    for kind in (Prevent, UseAbility):
        if kind in kinds:
            return next(a for a in actions if isinstance(a, kind))
    vales = [a for a in actions if isinstance(a, BuyVale)]
    if vales:
        return max(vales, key=lambda a: (c.vales()[a.vale].level, c.vales()[a.vale].end_vp))
    buys = [a for a in actions if isinstance(a, BuyAdvancement)]
    if buys:
        return max(buys, key=lambda a: c.split_copy(a.copy)[0].cost)
    if Exchange in kinds:
        return Exchange()
    if EndHarvest in kinds:
        return EndHarvest()
    if Sleeve in kinds:
        return next(a for a in actions if isinstance(a, Sleeve))
    if Choose in kinds and state.phase == "ability":
        return next(a for a in actions if isinstance(a, Choose))
    if Decline in kinds:
        return Decline()
    return actions[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100)
    args = parser.parse_args()
    game = games.get("mystic_vale")
    print("| players | options | rounds (mean, min-max) | winner's score | VP from tokens |")
    print("|---:|---|---|---:|---:|")
    for players in (2, 3, 4):
        for options in ({}, {"vale_of_magic": True}):
            rounds, winners, tokens = [], [], []
            for seed in range(args.n):
                state = game.setup(players, options, seed)
                assert isinstance(state, MysticValeState)
                while not state.is_over and state.seats[0].turn < 100:
                    state.apply(choose(state))
                rounds.append(state.seats[0].turn)
                result = state.result()
                winners.append(max(result.scores))
                tokens.append(fmean(b["vp_tokens"] for b in result.breakdown))
            label = "Vale of Magic" if options else "base"
            print(
                f"| {players} | {label} | {fmean(rounds):.1f} ({min(rounds)}-{max(rounds)}) "
                f"| {fmean(winners):.1f} | {fmean(tokens):.1f} |"
            )


if __name__ == "__main__":
    main()
