"""Harmonies: actions and observation.

Actions, in this order: taking each central board space (3 solo, else 5), each colour placed
on each space of the board side (colour-major, spaces in data/boards.json order), taking
each animal card (ids 1-32), a cube of each card on each space (animals, then with
`spirits` the Nature's Spirits 33-42), with `spirits` keeping each spirit card, ending the
turn, and solo swapping each animal card out of the display.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.actions import Action
from meadow.core.encoding import Block, Encoder, Parts
from meadow.games.harmonies import components as c
from meadow.games.harmonies.actions import (
    ChooseSpirit,
    EndTurn,
    PlaceCube,
    PlaceToken,
    SwapCard,
    TakeCard,
    TakeTokens,
)
from meadow.games.harmonies.options import HarmoniesOptions
from meadow.games.harmonies.scoring import CATEGORIES

# Every stack a space may hold, empty first: one-hot per space says exactly what lies there.
STACKS = tuple(sorted(c.LEGAL_STACKS, key=lambda s: (len(s), s)))
CARDS = len(c.ANIMAL_IDS) + len(c.SPIRIT_IDS)
PHASES = ("spirit", "turn", "over")
TOKENS_PER_SPACE = 3
POINTS_SCALE = 100.0


class HarmoniesEncoder(Encoder):
    game_id = "harmonies"
    options: HarmoniesOptions

    def __init__(self, players: int, options: HarmoniesOptions) -> None:  # type: ignore[override]
        super().__init__(players, options)
        self.board = c.board(options.side)
        self.central = 3 if players == 1 else 5
        self.space_of = {name: i for i, name in enumerate(self.board.names)}

    def actions(self) -> list[Action]:
        cards, names = c.cards(), self.board.names
        found: list[Action] = [TakeTokens(space) for space in range(1, self.central + 1)]
        found += [PlaceToken(colour, name) for colour in c.COLOURS for name in names]
        found += [TakeCard(cards[cid].slug) for cid in c.ANIMAL_IDS]
        cube_cards = c.ANIMAL_IDS + (c.SPIRIT_IDS if self.options.spirits else ())
        found += [PlaceCube(cards[cid].slug, name) for cid in cube_cards for name in names]
        if self.options.spirits:
            found += [ChooseSpirit(cards[cid].slug) for cid in c.SPIRIT_IDS]
        found.append(EndTurn())
        if self.players == 1:
            found += [SwapCard(cards[cid].slug) for cid in c.ANIMAL_IDS]
        return found

    def blocks(self) -> list[Block]:
        p, spaces, colours = self.players, self.board.size, len(c.COLOURS)
        return [
            Block(
                "central", (self.central, colours), "tokens per colour on each central space, / 3"
            ),
            Block("hand", (colours,), "taken tokens not yet placed, per colour, / 3"),
            Block("taken_space", (self.central,), "the central space taken this turn"),
            Block("display", (len(c.ANIMAL_IDS),), "animal cards in the display (ids 1-32)"),
            Block("deck_size", (1,), "animal cards left in the draw pile, / 32"),
            Block("pouch", (colours,), "tokens left in the pouch, / the colour's total"),
            Block("discarded", (colours,), "solo: tokens back in the box, / the colour's total"),
            Block("cube_reserve", (1,), f"animal cubes left, / {c.ANIMAL_CUBES}"),
            Block("flags", (2,), "a card taken this turn; the end is triggered"),
            Block("phase", (len(PHASES),), "spirit, turn, over"),
            Block("to_move", (p,), "the seat to move, relative (all 0 once over)"),
            Block("stacks", (p, spaces, len(STACKS)), "each space's stack, one-hot, per seat"),
            Block("cubes", (p, spaces), "1 where an animal or spirit cube lies, per seat"),
            Block(
                "cards",
                (p, CARDS, 3),
                "per seat and card (ids 1-42): held unfinished, cubes placed / its cubes, done",
            ),
            Block("spirit_offer", (len(c.SPIRIT_IDS),), "the observer's two spirit cards"),
            Block("empty_spaces", (p,), "empty spaces per seat, / spaces on the board"),
            Block(
                "points",
                (p, len(CATEGORIES)),
                "points so far per seat and category (" + ", ".join(CATEGORIES) + "), / 100",
                high=3.0,
            ),
        ]

    def fill(self, view: Mapping[str, Any], me: int, parts: Parts) -> None:
        colour = {name: i for i, name in enumerate(c.COLOURS)}
        by_slug = c.card_by_slug()
        cards = c.cards()
        central = parts["central"]
        for space, tokens in enumerate(view["central"]):
            for token in tokens:
                central[space, colour[token]] += 1 / TOKENS_PER_SPACE
        for token in view["hand"]:
            parts["hand"][colour[token]] += 1 / TOKENS_PER_SPACE
        if view["taken_space"] is not None:
            parts["taken_space"][view["taken_space"] - 1] = 1
        for slug in view["display"]:
            parts["display"][by_slug[slug] - 1] = 1
        parts["deck_size"][0] = view["deck_size"] / len(c.ANIMAL_IDS)
        for name, i in colour.items():
            parts["pouch"][i] = view["pouch"][name] / c.POUCH[name]
            parts["discarded"][i] = view["discarded"][name] / c.POUCH[name]
        parts["cube_reserve"][0] = view["cube_reserve"] / c.ANIMAL_CUBES
        parts["flags"][:] = (view["card_taken"], view["end_triggered"])
        parts["phase"][PHASES.index(view["phase"])] = 1
        if view["to_move"] is not None:
            parts["to_move"][self.relative(view["to_move"], me)] = 1
        stack_index = {stack: i for i, stack in enumerate(STACKS)}
        for owner, board in enumerate(view["boards"]):
            r = self.relative(owner, me)
            stacks, cubes, held = parts["stacks"][r], parts["cubes"][r], parts["cards"][r]
            for name, stack in board["stacks"].items():
                stacks[self.space_of[name], stack_index[tuple(stack)]] = 1
            for name in board["cubes"]:
                cubes[self.space_of[name]] = 1
            for entry in board["cards"]:
                cid = by_slug[entry["card"]]
                held[cid - 1] = (1, entry["placed"] / max(1, cards[cid].cubes), 0)
            for entry in board["completed"]:
                cid = by_slug[entry["card"]]
                held[cid - 1] = (0, entry["placed"] / max(1, cards[cid].cubes), 1)
            parts["empty_spaces"][r] = board["empty_spaces"] / self.board.size
            if owner == me:
                for slug in board.get("spirit_offer", ()):
                    parts["spirit_offer"][by_slug[slug] - c.SPIRIT_IDS[0]] = 1
        for owner, points in enumerate(view["points"]):
            r = self.relative(owner, me)
            parts["points"][r] = [points[k] / POINTS_SCALE for k in CATEGORIES]


ENCODER = HarmoniesEncoder
