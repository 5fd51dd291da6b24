"""Whether a move may be taken back: decided here, from what the move did, for every game.

A move may be undone only if it drew nothing from the state's generator and changed no
seat's knowledge of hidden facts. The second is tested the way a seat would learn: for each
seat (and a spectator), worlds that seat could not tell apart before the move are drawn
(`State.sample_hidden`), the move is made in each, and the seat's view afterwards must be
the same in all of them as in the real game. The mover knows its own move, so in its worlds
that move is made; another seat knows only what it saw, so a world stays possible for it if
any move there would have looked the same to it. A move that shows the mover the top card
of its deck fails this (the card differs between worlds); so does one that turns a tile
from a hidden hand face up (in some of the other seats' worlds that tile was not in hand).

A game's own `Event.reveals` flag is a shortcut: a move flagged so is not undoable without
further work. The contract suite checks that no move the rule refuses goes unflagged.
"""

from __future__ import annotations

from meadow.core.actions import Action
from meadow.core.game import State
from meadow.core.rng import Rng

WORLDS = 8  # worlds drawn per seat: enough that a revealed card differs in one of them


def why_not_undoable(
    before: State, action: Action, rng: Rng, worlds: int = WORLDS, flags: bool = True
) -> str | None:
    """None when `action`, made from `before`, may be taken back; else the reason, in words
    a player reads. `before` is not changed. `rng` draws the worlds (seed it from the game's
    public facts, so that asking twice gives the same answer). `flags`: take the game's
    `reveals` flag as the answer where it is set (the contract suite checks it without)."""
    after = before.clone()
    events = after.apply(action)
    if flags and any(event.reveals for event in events):
        return "it revealed something or used chance"
    if after.is_over:
        return "it ended the game"
    if _drew_from_generator(before, after):
        return "it used chance"
    for seat in [None, *range(before.players)]:
        if _teaches(before, after, action, seat, rng, worlds):
            return "it showed hidden information"
    return None


def _drew_from_generator(before: State, after: State) -> bool:
    return before.rng.to_json() != after.rng.to_json()


def _teaches(
    before: State, after: State, action: Action, seat: int | None, rng: Rng, worlds: int
) -> bool:
    """Does the move tell `seat` something about the hidden facts? It does if, in some world
    the seat allowed before, nothing the mover could have done there looks to the seat as
    the move did: that world is ruled out."""
    seen = after.view(seat)
    mover = before.to_move
    for _ in range(worlds):
        world = before.sample_hidden(seat, rng)
        # The mover knows its own move; another seat knows only what it saw of it.
        moves = [action] if seat == mover else world.legal_actions()
        if not any(_looks_the_same(world, move, seat, seen) for move in moves):
            return True
    return False


def _looks_the_same(world: State, move: Action, seat: int | None, seen: object) -> bool:
    if move not in world.legal_actions():
        return False
    made = world.clone()
    made.apply(move)
    return made.view(seat) == seen
