"""Harmonies: actions and observation.

Actions, in this order: taking each central board space (3 solo, else 5), each colour placed
on each space of the board side (colour-major, spaces in data/boards.json order), taking
each animal card (ids 1-32), a cube of each card on each space (animals, then with
`spirits` the Nature's Spirits 33-42), with `spirits` keeping each spirit card, ending the
turn, and solo swapping each animal card out of the display.

The observation is written from the seat's view (`fill`) or, for the research APIs, read
from the state (`fill_state`), with the same numbers: a board's figures (its stacks' rows
and its points) are kept per stacks, as a decision changes one board by a token at most.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from itertools import compress, product
from operator import is_not
from typing import Any, ClassVar, NamedTuple

import numpy as np

from meadow.core.actions import Action
from meadow.core.encoding import Block, Encoder, Parts
from meadow.games.harmonies import components as c
from meadow.games.harmonies import masks as by_mask
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
from meadow.games.harmonies.rules import MEMO_STEPS, HarmoniesState, Player
from meadow.games.harmonies.scoring import CATEGORIES, animal_points
from meadow.games.harmonies.view import _knows_offer

# Every stack a space may hold, empty first: one-hot per space says exactly what lies there.
STACKS = tuple(sorted(c.LEGAL_STACKS, key=lambda s: (len(s), s)))
CARDS = len(c.ANIMAL_IDS) + len(c.SPIRIT_IDS)
PHASES = ("spirit", "turn", "over")
TOKENS_PER_SPACE = 3
POINTS_SCALE = 100.0

STACK_INDEX = {stack: i for i, stack in enumerate(STACKS)}
# Per stack: its one-hot row in `stacks`, float32.
STACK_ROW = {
    stack: array("f", np.eye(len(STACKS), dtype=np.float32)[i].tobytes())
    for stack, i in STACK_INDEX.items()
}
COLOUR_INDEX = {colour: i for i, colour in enumerate(c.COLOURS)}
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
COLOURS = len(c.COLOURS)
ANIMALS, SPIRIT = CATEGORIES.index("animals"), CATEGORIES.index("spirit")
BOARDS_KEPT = 1024  # boards whose figures an encoder keeps (some 2.5 kB each)


def _token_rows() -> dict[tuple[str, ...], array]:
    """Per row of tokens a central space or the hand may hold (in any order): its numbers in
    `central` or `hand`, summed as `fill` sums them (float32, not the exact thirds)."""
    rows = {}
    for n in range(1, TOKENS_PER_SPACE + 1):
        for tokens in product(c.COLOURS, repeat=n):
            row = np.zeros(len(c.COLOURS), dtype=np.float32)
            for token in tokens:
                row[COLOUR_INDEX[token]] += 1 / TOKENS_PER_SPACE
            rows[tokens] = array("f", row.tobytes())
    return rows


TOKEN_ROWS = _token_rows()


class HeadAt(NamedTuple):
    """Where the blocks before the boards start in the observation."""

    central: int
    hand: int
    taken_space: int
    display: int  # minus 1: a card's place is display + its id
    deck_size: int
    cube_reserve: int
    flags: int
    phase: int
    to_move: int


class SeatAt(NamedTuple):
    """Where one seat's numbers start in the observation, for one observer."""

    owner: int  # the seat, in turn order
    stacks: int
    cubes: int
    cards: int  # a card's three numbers start at cards + 3 * its id (ids count from 1)
    empty_spaces: int
    points: int


class BoardFigures(NamedTuple):
    """What an observation takes from a board's stacks alone: the same stacks give the same
    figures on any seat's board of the side."""

    key: tuple[tuple[str, ...], ...]  # the stacks
    stacks: array  # the seat's rows of the `stacks` block, float32
    empty: float  # the share of spaces still empty
    points: array  # the seat's trees, mountains, fields, buildings and water in `points`
    masks: list[int]  # `by_mask`'s sort of the spaces, for the kept spirit's points


def _masks(player: Player, parent: BoardFigures | None, changed: list[int]) -> list[int]:
    """`Player.masks` without keeping what it works out (an observation leaves the state,
    and the memo its copies share, as it found it), or else resorted from `parent`'s, the
    board before the `changed` spaces changed."""
    memo = player.memo
    found = memo.get("masks")
    if found is not None:
        return found
    before = memo.get("before")
    if before is not None and "masks" in before[1]:
        spaces, earlier = before
        found = earlier["masks"]
    elif parent is not None:
        spaces, found = changed, parent.masks
    else:
        return by_mask.sort_spaces(player.stacks)
    for space in spaces:
        found = by_mask.resort(found, space, player.stacks[space])
    return found


class HarmoniesEncoder(Encoder):
    game_id = "harmonies"
    options: HarmoniesOptions
    points_blocks: ClassVar[dict[str, int | None]] = {"points": None}

    def __init__(self, players: int, options: HarmoniesOptions) -> None:  # type: ignore[override]
        super().__init__(players, options)
        self.board = c.board(options.side)
        self.central = 3 if players == 1 else 5
        self.space_of = {name: i for i, name in enumerate(self.board.names)}
        # Where fill_state writes, by flat index into the observation, worked out once.
        at, size = {}, 0
        for block in self.blocks():
            at[block.name] = size
            size += block.size
        p, spaces = players, self.board.size
        self.head_at = HeadAt(
            at["central"],
            at["hand"],
            at["taken_space"],
            at["display"] - 1,
            at["deck_size"],
            at["cube_reserve"],
            at["flags"],
            at["phase"],
            at["to_move"],
        )
        self.pouch_at = tuple(
            (colour, c.POUCH[colour], at["pouch"] + i, at["discarded"] + i)
            for i, colour in enumerate(c.COLOURS)
        )
        self.relative_of = tuple(
            tuple(self.relative(owner, me) for owner in range(p)) for me in range(p)
        )
        # Per observer, per seat in turn order: where that seat's numbers go.
        self.seats_at = tuple(
            tuple(
                SeatAt(
                    owner,
                    at["stacks"] + r * spaces * len(STACKS),
                    at["cubes"] + r * spaces,
                    at["cards"] + (r * CARDS - 1) * 3,
                    at["empty_spaces"] + r,
                    at["points"] + r * len(CATEGORIES),
                )
                for owner, r in enumerate(relative)
            )
            for relative in self.relative_of
        )
        self.offer_at = at["spirit_offer"] - c.SPIRIT_IDS[0]
        self.cards = c.cards()
        self.cube_count = {cid: max(1, card.cubes) for cid, card in self.cards.items()}
        self.spaces = range(spaces)
        # Per board's stacks: its figures. A decision lays a token at most, on one board,
        # so an agent's next step finds the other boards here.
        self.boards: dict[tuple[tuple[str, ...], ...], BoardFigures] = {}
        # Per seat: its board at the last look. A board missing from `boards` is most often
        # this one and a token more, so its figures follow from these.
        self.last: list[BoardFigures | None] = [None] * players

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

    def fill_state(  # type: ignore[override]
        self, state: HarmoniesState, me: int, parts: Parts
    ) -> None:
        """`fill` of the seat's view, read from the state: an agent's step pays for the
        numbers, not for the view's JSON (names, slugs, card info)."""
        # Written through a memoryview: its item writes cost less than numpy's, and round
        # to float32 as numpy does.
        head, obs = self.head_at, memoryview(parts.array)
        for space, tokens in enumerate(state.central):
            if tokens:
                k = head.central + space * COLOURS
                obs[k : k + COLOURS] = TOKEN_ROWS[tuple(tokens)]
        if state.hand:
            obs[head.hand : head.hand + COLOURS] = TOKEN_ROWS[tuple(state.hand)]
        if state.taken_space >= 0:
            obs[head.taken_space + state.taken_space] = 1.0
        for cid in state.display:
            obs[head.display + cid] = 1.0
        obs[head.deck_size] = len(state.deck) / len(c.ANIMAL_IDS)
        pouch, discarded = state.pouch, state.discarded
        boxed = any(discarded.values())  # tokens go back to the box in solo games only
        for colour, total, k, box in self.pouch_at:
            obs[k] = pouch[colour] / total
            if boxed:
                obs[box] = discarded[colour] / total
        obs[head.cube_reserve] = state.cube_reserve / c.ANIMAL_CUBES
        if state.card_taken:
            obs[head.flags] = 1.0
        if state.end_triggered:
            obs[head.flags + 1] = 1.0
        obs[head.phase + PHASE_INDEX[state.phase]] = 1.0
        if state.seat is not None:
            obs[head.to_move + self.relative_of[me][state.seat]] = 1.0
        boards, last, cards, cube_count = self.boards, self.last, self.cards, self.cube_count
        for player, at in zip(state.seats, self.seats_at[me], strict=True):
            key = tuple(player.stacks)
            board = boards.get(key)
            if board is None:
                board = self._work_out(key, player, last[at.owner])
            last[at.owner] = board
            obs[at.stacks : at.stacks + len(board.stacks)] = board.stacks
            for i in compress(self.spaces, player.cubes):
                obs[at.cubes + i] = 1.0
            animals = spirit = 0
            for done, entries in ((0, player.held), (2, player.done)):
                for cid, placed in entries:
                    k = at.cards + 3 * cid
                    obs[k + done] = 1.0
                    if placed:
                        obs[k + 1] = placed / cube_count[cid]
                        card = cards[cid]
                        if not card.spirit:
                            animals += animal_points(card, placed)
                        elif cid == player.spirit:
                            spirit = self._spirit_points(player, card, board)
            obs[at.empty_spaces] = board.empty
            obs[at.points : at.points + len(board.points)] = board.points
            if animals:
                obs[at.points + ANIMALS] = animals / POINTS_SCALE
            if spirit:
                obs[at.points + SPIRIT] = spirit / POINTS_SCALE
        player = state.seats[me]
        if player.offer and _knows_offer(state, me, me):
            for cid in player.offer:
                obs[self.offer_at + cid] = 1.0

    def _work_out(
        self, key: tuple[tuple[str, ...], ...], player: Player, parent: BoardFigures | None
    ) -> BoardFigures:
        """The figures of a board missing from `boards` (its stacks `key`), from `parent`'s
        (the seat's board at the last look) when few spaces differ, its points as
        `HarmoniesState.board_points` has them but without writing to the board's memo (an
        observation only reads the state)."""
        changed: list[int] = []
        if parent is not None:
            # a token laid makes a new stack: the spaces left as they were hold the same one
            changed = list(compress(self.spaces, map(is_not, key, parent.key)))
            if len(changed) > MEMO_STEPS:
                parent = None
        masks = _masks(player, parent, changed)
        points = player.memo.get("points")
        if points is None:
            points = by_mask.board_points(self.board.side, self.board.water, masks)
        if parent is None:
            stacks = array("f", b"".join(map(STACK_ROW.__getitem__, key)))
        else:
            stacks = parent.stacks[:]
            for space in changed:
                k = space * len(STACKS)
                stacks[k : k + len(STACKS)] = STACK_ROW[key[space]]
        scaled = array("f", [figure / POINTS_SCALE for figure in points])
        found = BoardFigures(key, stacks, key.count(()) / len(key), scaled, masks)
        if len(self.boards) >= BOARDS_KEPT:
            self.boards.clear()
        self.boards[key] = found
        return found

    def _spirit_points(self, player: Player, card: c.Card, board: BoardFigures) -> int:
        """`HarmoniesState.spirit_points` of the kept spirit, read the same way."""
        found = player.memo.get(("spirit", card.id))
        if found is None:
            found = by_mask.spirit_points(card, self.board.side, board.masks)
        return found


ENCODER = HarmoniesEncoder
