"""Harmonies' rules: set-up, legal decisions and their effects.

Rule source: the official rulebook digest in data/rules.json (page references there); the
seed (004, BGA game help) agrees on everything it covers. Choices on points the rulebook
leaves open are documented in docs/harmonies.md and marked "Open point" here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import repeat
from operator import is_, itemgetter
from typing import Any, Self

from meadow.core.actions import JSON, Action, Event
from meadow.core.errors import IllegalAction
from meadow.core.game import State
from meadow.core.result import Result, rank
from meadow.core.rng import Rng
from meadow.games.harmonies import components as c
from meadow.games.harmonies import masks as by_mask
from meadow.games.harmonies import notation
from meadow.games.harmonies import view as views
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
from meadow.games.harmonies.scoring import CATEGORIES, animal_points, solo_suns

SPIRIT, TURN, OVER = "spirit", "turn", "over"
TOKENS_PER_SPACE = 3
CENTRAL_SPACES = {True: 3, False: 5}  # solo -> 3 spaces
DISPLAY_SIZE = {True: 3, False: 5}
END_EMPTY_SPACES = 2
MEMO_STEPS = 6  # changes past which a board's figures are worked out afresh

_place_token = cache(PlaceToken)  # actions are immutable values: build each one once
_place_cube = cache(PlaceCube)
_NEXT_STACK: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {
    (stack, colour): (*stack, colour)
    for stack in c.LEGAL_STACKS
    for colour in c.COLOURS
    if (*stack, colour) in c.LEGAL_STACKS
}
# Per stack: the colours that may go on it (rulebook p.4), for the legal list's one pass.
_TAKES: dict[tuple[str, ...], frozenset[str]] = {
    stack: frozenset(colour for colour in c.COLOURS if (stack, colour) in _NEXT_STACK)
    for stack in c.LEGAL_STACKS
}

# Per stack: the colours whose open spaces a token just laid (making this stack) or a cube
# on it may change: those the stack took before the token, and those it takes now.
_MAY_CHANGE: dict[tuple[str, ...], frozenset[str]] = {
    stack: _TAKES[stack] | (_TAKES[stack[:-1]] if stack else frozenset())
    for stack in c.LEGAL_STACKS
}

# Per stack and whether a cube sits on it: the colours whose open spaces may change there,
# each with whether it now takes a token there (`Player.changed`).
_OPEN_AFTER: dict[tuple[tuple[str, ...], bool], tuple[tuple[str, bool], ...]] = {
    (stack, cube): tuple(
        (colour, not cube and colour in _TAKES[stack]) for colour in _MAY_CHANGE[stack]
    )
    for stack in c.LEGAL_STACKS
    for cube in (False, True)
}


@dataclass(slots=True)
class Player:
    """One personal board and the cards above it."""

    stacks: list[tuple[str, ...]]  # per space, bottom to top
    cubes: list[int]  # per space: id of the card whose cube sits there, 0 for none
    held: list[list[int]] = field(default_factory=list)  # [card id, cubes placed], unfinished
    done: list[list[int]] = field(default_factory=list)  # completed cards, same form
    offer: list[int] = field(default_factory=list)  # the 2 spirit cards dealt (variant)
    spirit: int = 0  # the spirit kept, 0 before the choice
    # What is worked out from the board below (known_...) is shared with the board's copies,
    # which stand the same until a token or a cube goes down: `changed` then gives the board
    # that changed its own (copied on write), and the copies keep theirs. Most copies are of
    # a board that stays as it is (the other seats' in a search), so they cost nothing.
    # Each space's landscape, kept up to date as tokens go down (see `lands`).
    known_lands: list[str | None] | None = field(default=None, repr=False, compare=False)
    # Per held card: where its next cube may go. Worked out when asked; when a token or a
    # cube goes down on this board (nothing else changes it), kept for the cards whose
    # habitat does not name the landscape the space had or has now (`_cube_spaces_kept`).
    known_cube_spaces: dict[int, tuple[int, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )
    # Per colour: the spaces a token of it may go on, kept up to date (see `open_spaces`).
    known_open: dict[str, int] | None = field(default=None, repr=False, compare=False)
    # What scoring and the bots' evaluation work out from the board as it stands (its stacks
    # and cubes), by their own keys: shared with the board's copies, which stand the same
    # until a token or a cube goes down. Then a new memo starts, which knows the last memo
    # something was worked out in and the spaces changed since (under "before": a search's
    # random playout lays a few tokens between two looks), to work its figures out from there.
    memo: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)

    def clone(self) -> Player:
        return Player(
            self.stacks[:],
            self.cubes[:],
            self.held[:],  # entries are replaced, never changed (see _apply_place_cube)
            self.done[:],
            self.offer[:],
            self.spirit,
            self.known_lands,
            self.known_cube_spaces,
            self.known_open,
            self.memo,
        )

    def lands(self) -> list[str | None]:
        """Each space's landscape (None: empty or not yet one), worked out once."""
        if self.known_lands is None:
            self.known_lands = [c.LANDSCAPES.get(stack) for stack in self.stacks]
        return self.known_lands

    def open_spaces(self) -> dict[str, int]:
        """Per colour: the spaces where a token of it may go (no cube there, and it stacks
        into a Tree, Mountain or Building: rulebook p.4), as a mask (bit i: space i)."""
        if self.known_open is None:
            known_open = dict.fromkeys(c.COLOURS, 0)
            for i, stack in enumerate(self.stacks):
                if not self.cubes[i]:
                    for colour in _TAKES[stack]:
                        known_open[colour] |= 1 << i
            self.known_open = known_open
        return self.known_open

    def masks(self) -> list[int]:
        """The board's spaces sorted by top colour and landscape (`masks.sort_spaces`)."""
        found = self.memo.get("masks")
        if found is None:
            before = self.memo.get("before")
            if before is not None and "masks" in before[1]:
                spaces, memo = before
                found = memo["masks"]
                for space in spaces:
                    found = by_mask.resort(found, space, self.stacks[space])
            else:
                found = by_mask.sort_spaces(self.stacks)
            self.memo["masks"] = found
        return found

    def changed(self, space: int) -> None:
        """A token or a cube went down on `space`: bring what is kept up to date."""
        lands = self.known_lands
        stack = self.stacks[space]
        cube = self.cubes[space]
        if lands is None:
            self.known_cube_spaces = {}
        else:
            was, now = lands[space], c.LANDSCAPES.get(stack)
            if was != now:
                lands = lands[:]
                lands[space] = now
                self.known_lands = lands
                if cube:
                    self.known_cube_spaces = _cube_spaces_kept(
                        self.known_cube_spaces, space, (was, now), cube
                    )
                else:  # a token laid: `_cube_spaces_kept`'s test, by landscape at once
                    redo = _naming(was, now)
                    known = self.known_cube_spaces
                    self.known_cube_spaces = {
                        cid: spaces for cid, spaces in known.items() if cid not in redo
                    }
            elif cube:
                self.known_cube_spaces = _cube_spaces_kept(self.known_cube_spaces, space, (), cube)
            # Else the landscapes and cubes, all a card's cube spaces are worked out from,
            # stand as they were: the board keeps sharing its copies' (most tokens laid).
        memo = self.memo
        if len(memo) > ("before" in memo):  # something was worked out on the board before
            memo.pop("before", None)  # so that memos do not chain up a game
            self.memo = {"before": ((space,), memo)}
        else:
            link = memo.get("before")
            if link is not None and len(link[0]) < MEMO_STEPS:
                self.memo = {"before": ((*link[0], space), link[1])}
            else:
                self.memo = {}
        if self.known_open is None:
            return
        bit = 1 << space
        known_open = dict(self.known_open)
        for colour, takes in _OPEN_AFTER[stack, bool(cube)]:
            if takes:
                known_open[colour] |= bit
            else:
                known_open[colour] &= ~bit
        self.known_open = known_open

    def empty_spaces(self) -> int:
        return self.stacks.count(())

    def animal_cubes(self) -> int:
        return sum(placed for cid, placed in self.held + self.done if not c.cards()[cid].spirit)

    def placed(self, card_id: int) -> int:
        for cid, placed in self.held + self.done:
            if cid == card_id:
                return placed
        return 0


def _cube_spaces_kept(
    known: dict[int, tuple[int, ...]], space: int, lands: tuple[str | None, ...], cube: int
) -> dict[int, tuple[int, ...]]:
    """The held cards' cube spaces that still hold after a token or a cube went down on
    `space`: a card's are worked out again only if its habitat names one of `lands` (the
    landscape the space had and has, when it changed); a cube there takes the space from all."""
    kept = {}
    for cid, spaces in known.items():
        if lands and not _habitat_landscapes(cid).isdisjoint(lands):
            continue
        if cube and space in spaces:
            spaces = tuple(i for i in spaces if i != space)
        kept[cid] = spaces
    return kept


class HarmoniesState(State):
    """The pouch, the central board, the display and every player's board."""

    __slots__ = (
        "_legal",
        "board",
        "card_taken",
        "central",
        "cube_reserve",
        "deck",
        "discarded",
        "display",
        "end_triggered",
        "hand",
        "options",
        "phase",
        "players",
        "ply",
        "pouch",
        "rng",
        "seat",
        "seats",
        "taken_space",
    )

    options: HarmoniesOptions

    def __init__(
        self,
        *,
        players: int,
        options: HarmoniesOptions,
        rng: Rng,
        ply: int,
        pouch: dict[str, int],
        central: list[list[str]],
        display: list[int],
        deck: list[int],
        cube_reserve: int,
        discarded: dict[str, int],
        seats: list[Player],
        seat: int | None,
        phase: str,
        taken_space: int,
        hand: list[str],
        card_taken: bool,
        end_triggered: bool,
    ) -> None:
        self.players = players
        self.options = options
        self.rng = rng
        self.ply = ply
        self.pouch = pouch  # tokens left, by colour; drawn at random when needed
        self.central = central  # the central board's spaces
        self.display = display  # face-up animal cards
        self.deck = deck  # the draw pile as a sorted set: cards are drawn at random
        self.cube_reserve = cube_reserve
        self.discarded = discarded  # solo: tokens returned to the box
        self.seats = seats
        self.seat = seat
        self.phase = phase
        self.taken_space = taken_space  # central space taken this turn, -1 before
        self.hand = hand  # tokens taken and not yet placed
        self.card_taken = card_taken
        self.end_triggered = end_triggered
        self.board = c.board(options.side)
        self._legal: list[Action] | None = None

    def forget_derived(self) -> None:
        """Drop what is worked out from the boards (legal actions, landscapes), for tools
        and tests that lay tokens directly instead of through `apply`."""
        self._legal = None
        for player in self.seats:
            player.known_lands = None
            player.known_cube_spaces = {}
            player.known_open = None
            player.memo = {}

    @property
    def solo(self) -> bool:
        return self.players == 1

    # -- contract ---------------------------------------------------------------------

    # `State`'s entry points written out for this game, with the same behaviour: a random
    # game is some 90 of each, and the base class's layers (a property reading a property,
    # a method calling a method, a chain of isinstance to find the handler) were about a
    # tenth of its time.
    @property
    def is_over(self) -> bool:
        return self.seat is None

    def legal_actions(self) -> list[Action]:
        if self.seat is None:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        return legal[:]

    def apply(self, action: Action) -> list[Event]:
        if self.seat is None:
            raise IllegalAction(str(action), "the game is over")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        # An action taken from the list is that very object: identity first, in C.
        if not (any(map(is_, legal, repeat(action))) or action in legal):
            raise IllegalAction(str(action), self._why_illegal(action))
        self._legal = None
        events = _HANDLERS[type(action)](self, action)
        self._legal = None
        self.ply += 1
        return events

    def _generate_legal(self) -> list[Action]:
        seat = self.seat
        assert seat is not None
        player = self.seats[seat]
        by_card = _card_actions()
        if self.phase == SPIRIT:
            return [by_card[cid].choose_spirit for cid in sorted(player.offer)]
        hand = self.hand
        taken_space = self.taken_space
        actions: list[Action] = []
        if taken_space < 0:
            actions += [_TAKE_TOKENS[i] for i, space in enumerate(self.central) if space]
        if hand:
            # Every token in hand on every space that takes it: by colour, then by space,
            # eight spaces at a time (`_token_actions_by_byte`).
            token_actions = _token_actions_by_byte(self.board.side)
            open_spaces = player.known_open
            if open_spaces is None:
                open_spaces = player.open_spaces()
            for colour in _hand_colours(tuple(hand)):
                mask = open_spaces[colour]
                for by_byte in token_actions[colour]:
                    actions += by_byte[mask & 0xFF]
                    mask >>= 8
        held = player.held
        if not self.card_taken and len(held) < c.HELD_CARD_LIMIT:
            # Open point: with too few cubes left in the reserve a card cannot be taken.
            reserve = self.cube_reserve
            cards = map(by_card.__getitem__, self.display)
            actions += [card.take_card for card in cards if card.cubes <= reserve]
        if held:
            cube_actions = _cube_action_table(self.board.side)
            known = player.known_cube_spaces
            for cid, _placed in held:
                spaces = known.get(cid)
                if spaces is None:
                    spaces = known[cid] = self._habitat_spaces(cid, player.lands(), player.cubes)
                if spaces:
                    by_space = cube_actions[cid]
                    actions += [by_space[i] for i in spaces]
        if taken_space >= 0 and not hand:
            actions.append(_END_TURN)
            if self.players == 1 and not self.card_taken and self.deck:
                actions += [by_card[cid].swap_card for cid in self.display]
        return actions

    def habitat_spaces(self, player: Player, card_id: int) -> list[int]:
        """Spaces where a cube of `card_id` may go: free of cubes, and the card's habitat
        is on the board around it in one of the six rotations (rulebook p.6)."""
        lands = [c.LANDSCAPES.get(stack) for stack in player.stacks]
        return list(self._habitat_spaces(card_id, lands, player.cubes))

    def cube_spaces(self, seat: int) -> dict[int, tuple[int, ...]]:
        """For each card the seat holds: the spaces where its next cube may go."""
        player = self.seats[seat]
        return {cid: self._held_spaces(player, cid) for cid, _placed in player.held}

    def _held_spaces(self, player: Player, card_id: int) -> tuple[int, ...]:
        """A held card's cube spaces: kept from move to move until a token or cube changes
        them (`Player.changed`), worked out again only then."""
        known = player.known_cube_spaces
        spaces = known.get(card_id)
        if spaces is None:
            spaces = known[card_id] = self._habitat_spaces(card_id, player.lands(), player.cubes)
        return spaces

    def _habitat_spaces(
        self, card_id: int, lands: list[str | None], cubes: list[int]
    ) -> tuple[int, ...]:
        want = _cube_landscape(card_id)
        checks = _habitat_checks(self.board.side, card_id)
        spaces = []
        i = -1
        # The spaces of the cube's landscape found by the list's own scans, in C: a board
        # has a few of any one landscape, and a loop over all its spaces cost most of this.
        for _ in range(lands.count(want)):
            i = lands.index(want, i + 1)
            if not cubes[i]:
                for around, needed in checks[i]:
                    if around(lands) == needed:
                        spaces.append(i)
                        break
        return tuple(spaces)

    def _apply(self, action: Action) -> list[Event]:
        return _HANDLERS[type(action)](self, action)

    def _on_take_tokens(self, action: TakeTokens) -> list[Event]:
        space = action.space - 1
        self.hand = hand = self.central[space]
        self.central[space] = []
        self.taken_space = space
        return [Event("take_tokens", self.seat, {"space": action.space, "tokens": hand[:]})]

    def _on_place_token(self, action: PlaceToken) -> list[Event]:
        seat = self.seat
        assert seat is not None
        player = self.seats[seat]
        colour = action.colour
        i = _space_of(self.board.side)[action.cell]
        self.hand.remove(colour)
        player.stacks[i] = player.stacks[i] + (colour,)
        player.changed(i)
        return [Event("place_token", seat, {"colour": colour, "cell": action.cell})]

    def _on_take_card(self, action: TakeCard) -> list[Event]:
        seat = self.seat
        assert seat is not None
        return self._apply_take_card(seat, self.seats[seat], c.card_by_slug()[action.card])

    def _on_place_cube(self, action: PlaceCube) -> list[Event]:
        seat = self.seat
        assert seat is not None
        return self._apply_place_cube(seat, self.seats[seat], action)

    def _on_choose_spirit(self, action: ChooseSpirit) -> list[Event]:
        seat = self.seat
        assert seat is not None
        spirit = c.card_by_slug()[action.spirit]
        return self._apply_choose_spirit(seat, self.seats[seat], spirit)

    def _on_swap(self, action: SwapCard) -> list[Event]:
        assert self.seat is not None
        return self._apply_swap(self.seat, c.card_by_slug()[action.card])

    def _on_end_turn(self, action: EndTurn) -> list[Event]:
        assert self.seat is not None
        return self._end_turn(self.seat)

    def _apply_take_card(self, seat: int, player: Player, card_id: int) -> list[Event]:
        self.display.remove(card_id)
        player.held.append([card_id, 0])
        self.cube_reserve -= c.cards()[card_id].cubes
        self.card_taken = True
        return [Event("take_card", seat, {"card": c.cards()[card_id].slug})]

    def _apply_place_cube(self, seat: int, player: Player, action: PlaceCube) -> list[Event]:
        card_id = c.card_by_slug()[action.card]
        i = _space_of(self.board.side)[action.cell]
        k = next(k for k, e in enumerate(player.held) if e[0] == card_id)
        entry = [card_id, player.held[k][1] + 1]
        player.held[k] = entry  # a new entry: the board's copies share the old one
        player.cubes[i] = card_id
        player.changed(i)
        public: dict[str, JSON] = {"card": action.card, "cell": action.cell}
        if entry[1] == c.cards()[card_id].cubes:
            del player.held[k]
            player.done.append(entry)
            public["completed"] = True
        return [Event("place_cube", seat, public)]

    def _apply_choose_spirit(self, seat: int, player: Player, spirit: int) -> list[Event]:
        player.spirit = spirit
        player.held.append([spirit, 0])
        self.phase = TURN
        returned = next(cid for cid in player.offer if cid != spirit)
        private = {seat: {"returned": c.cards()[returned].slug}}
        return [Event("choose_spirit", seat, {"spirit": c.cards()[spirit].slug}, private, True)]

    def _apply_swap(self, seat: int, card_id: int) -> list[Event]:
        self.display.remove(card_id)
        events = [Event("swap_card", seat, {"card": c.cards()[card_id].slug})]
        return events + self._end_turn(seat)

    # -- end of turn ------------------------------------------------------------------

    def _end_turn(self, seat: int) -> list[Event]:
        events = self._refill_central()
        events += self._refill_display()
        if self.seats[seat].empty_spaces() <= END_EMPTY_SPACES:
            self.end_triggered = True
        self.taken_space = -1
        self.card_taken = False
        if self.end_triggered and seat == self.players - 1:
            self.seat = None
            self.phase = OVER
            result = self._result().to_json()
            return [*events, Event("game_over", None, {"result": result}, reveals=True)]
        self.seat = (seat + 1) % self.players
        player = self.seats[self.seat]
        self.phase = SPIRIT if self.options.spirits and not player.spirit else TURN
        return events

    def _refill_central(self) -> list[Event]:
        """Multiplayer: refill the emptied space. Solo: return the rest to the box and refill
        all three. Open point: a pouch that cannot fill every space needed fills what it can
        and ends the game (after the round)."""
        if self.solo:
            for space in self.central:
                for token in space:
                    self.discarded[token] += 1
            spaces = list(range(len(self.central)))
        else:
            spaces = [self.taken_space]
        events = []
        for space in spaces:
            tokens = self._draw_tokens(TOKENS_PER_SPACE)
            if len(tokens) < TOKENS_PER_SPACE:
                self.end_triggered = True
            self.central[space] = tokens
            # The event's own list: the space's list becomes a hand that placing empties.
            public = {"space": space + 1, "tokens": list(tokens)}
            events.append(Event("refill", None, public, {}, True))
        return events

    def _draw_tokens(self, n: int) -> list[str]:
        drawn = []
        pouch = self.pouch
        below = self.rng.below
        left = sum(pouch.values())
        for _ in range(min(n, left)):
            pick = below(left)
            for colour in c.COLOURS:  # not the pouch's order: a state read from JSON may differ
                count = pouch[colour]
                if pick < count:
                    pouch[colour] = count - 1
                    drawn.append(colour)
                    break
                pick -= count
            left -= 1
        return drawn

    def _refill_display(self) -> list[Event]:
        """Open point: when the draw pile runs out, the display stays short."""
        events = []
        display, deck, size = self.display, self.deck, DISPLAY_SIZE[self.players == 1]
        while len(display) < size and deck:
            card_id = deck.pop(self.rng.below(len(deck)))
            display.append(card_id)
            events.append(Event("reveal_card", None, {"card": c.cards()[card_id].slug}, {}, True))
        return events

    # -- why not ----------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str:
        assert self.seat is not None
        player = self.seats[self.seat]
        if self.phase == SPIRIT and not isinstance(action, ChooseSpirit):
            return "first keep one of your two Nature's Spirit cards (rulebook p.10)"
        if isinstance(action, ChooseSpirit):
            return self._why_not_spirit(player, action)
        if isinstance(action, TakeTokens):
            return self._why_not_take_tokens(action)
        if isinstance(action, PlaceToken):
            return self._why_not_place_token(player, action)
        if isinstance(action, TakeCard | SwapCard):
            return self._why_not_card(player, action)
        if isinstance(action, PlaceCube):
            return self._why_not_cube(player, action)
        if isinstance(action, EndTurn):
            if self.taken_space < 0:
                return "take the tokens of a central board space first (mandatory action)"
            return f"place all taken tokens first ({', '.join(self.hand)} left)"
        return f"not a Harmonies action ({type(action).__name__})"

    def _why_not_spirit(self, player: Player, action: ChooseSpirit) -> str:
        if self.phase != SPIRIT:
            return "no Nature's Spirit to choose now"
        return f"{action.spirit} is not one of the two spirit cards you were dealt"

    def _why_not_take_tokens(self, action: TakeTokens) -> str:
        if self.taken_space >= 0:
            return "you already took tokens this turn (once per turn)"
        if not 1 <= action.space <= len(self.central):
            return f"the central board has spaces 1-{len(self.central)}"
        return f"central space {action.space} is empty"

    def _why_not_place_token(self, player: Player, action: PlaceToken) -> str:
        if action.colour not in self.hand:
            taken = ", ".join(self.hand) or "none"
            return f"you hold no {action.colour} token (tokens to place: {taken})"
        i = self.board.index.get(c.parse_cell_name(action.cell))  # type: ignore[arg-type]
        if i is None:
            return f"{action.cell} is not a space of board side {self.board.side}"
        if player.cubes[i]:
            return f"{action.cell} holds a cube; nothing may be placed on it (rulebook p.6)"
        stack = " on ".join(reversed(player.stacks[i]))
        return (
            f"{action.colour} cannot go on {stack} at {action.cell}: tokens stack only into "
            "Trees, Mountains and Buildings (rulebook p.4)"
        )

    def _why_not_card(self, player: Player, action: TakeCard | SwapCard) -> str:
        card_id = c.card_by_slug()[action.card]
        if card_id not in self.display:
            return f"{action.card} is not in the display"
        if isinstance(action, SwapCard):
            if not self.solo:
                return "swapping a display card is a solo rule (rulebook p.11)"
            if self.card_taken:
                return "you took a card this turn, so you may not swap one (rulebook p.11)"
            return "finish placing your tokens first; the swap ends the turn"
        if self.card_taken:
            return "you already took an animal card this turn (once per turn)"
        if len(player.held) >= c.HELD_CARD_LIMIT:
            return "you hold 4 unfinished cards, the most allowed (rulebook p.5)"
        return f"the reserve has too few animal cubes for {action.card}"

    def _why_not_cube(self, player: Player, action: PlaceCube) -> str:
        card_id = c.card_by_slug()[action.card]
        if not any(cid == card_id for cid, _ in player.held):
            return f"you hold no unfinished {action.card} card"
        i = self.board.index.get(c.parse_cell_name(action.cell))  # type: ignore[arg-type]
        if i is None:
            return f"{action.cell} is not a space of board side {self.board.side}"
        if player.cubes[i]:
            return f"{action.cell} already holds a cube (one cube per space)"
        return (
            f"the {action.card} habitat is not on your board with its cube space at {action.cell}"
        )

    # -- scoring ----------------------------------------------------------------------

    def stacks_of(self, seat: int) -> dict[c.Cell, tuple[str, ...]]:
        return dict(zip(self.board.cells, self.seats[seat].stacks, strict=True))

    def points(self, seat: int) -> dict[str, int]:
        """The seat's points if the game ended now (all of it is public): `scoring.breakdown`'s
        figures, by the board's masks."""
        trees, mountains, fields, buildings, water = self.board_points(seat)
        return {
            "trees": trees,
            "mountains": mountains,
            "fields": fields,
            "buildings": buildings,
            "water": water,
            "animals": self.animal_points(seat),
            "spirit": self.placed_spirit_points(seat),
        }

    def points_in_parts(self, seat: int) -> tuple[int, int, int]:
        """The seat's points now as the board's, the animal cards' and the spirit's."""
        board = sum(self.board_points(seat))
        return board, self.animal_points(seat), self.placed_spirit_points(seat)

    def animal_points(self, seat: int) -> int:
        player = self.seats[seat]
        cards = c.cards()
        return sum(animal_points(cards[cid], n) for cid, n in player.held + player.done if cid < 33)

    def placed_spirit_points(self, seat: int) -> int:
        """The kept spirit's points, once its cube is down."""
        player = self.seats[seat]
        if player.spirit and player.placed(player.spirit) > 0:
            return self.spirit_points(seat, player.spirit)
        return 0

    def board_points(self, seat: int) -> tuple[int, int, int, int, int]:
        """Trees, mountains, fields, buildings and water on the seat's board."""
        player = self.seats[seat]
        found = player.memo.get("points")
        if found is None:
            board = self.board
            found = by_mask.board_points(board.side, board.water, player.masks())
            player.memo["points"] = found
        return found

    def spirit_points(self, seat: int, spirit: int) -> int:
        """What a Nature's Spirit card would score on the seat's board as it stands."""
        player = self.seats[seat]
        key = ("spirit", spirit)
        found = player.memo.get(key)
        if found is None:
            found = by_mask.spirit_points(c.cards()[spirit], self.board.side, player.masks())
            player.memo[key] = found
        return found

    def _result(self) -> Result:
        breakdowns = tuple(self.points(seat) for seat in range(self.players))
        scores = tuple(sum(b[k] for k in CATEGORIES) for b in breakdowns)
        # Tie-break (rulebook p.7): most animal cubes placed, then a shared victory.
        # Open point: the Nature's Spirit cube is not an animal cube and does not count.
        keys = [(scores[s], self.seats[s].animal_cubes()) for s in range(self.players)]
        extra: dict[str, JSON] = {}
        if self.solo:
            spirit = c.cards()[self.seats[0].spirit] if self.seats[0].spirit else None
            extra["suns"] = solo_suns(scores[0], self.board.side, spirit)
        return Result(scores, breakdowns, rank(keys), ("animal cubes placed",), extra)

    # -- views, copies, serialisation -------------------------------------------------

    def view(self, seat: int | None) -> dict[str, JSON]:
        return views.view(self, seat)

    def sample_hidden(self, seat: int | None, rng: Rng) -> Self:
        return views.sample_hidden(self, seat, rng)

    def clone(self) -> Self:
        # Set field by field rather than through __init__: a search copies states by the
        # hundred thousand, and the board side and the options are the same objects.
        copy = object.__new__(type(self))
        copy.players = self.players
        copy.options = self.options
        copy.rng = self.rng.clone()
        copy.ply = self.ply
        copy.pouch = dict(self.pouch)
        copy.central = [s[:] for s in self.central]
        copy.display = self.display[:]
        copy.deck = self.deck[:]
        copy.cube_reserve = self.cube_reserve
        copy.discarded = dict(self.discarded)
        copy.seats = [p.clone() for p in self.seats]
        copy.seat = self.seat
        copy.phase = self.phase
        copy.taken_space = self.taken_space
        copy.hand = self.hand[:]
        copy.card_taken = self.card_taken
        copy.end_triggered = self.end_triggered
        copy.board = self.board
        # The legal list is never changed in place (apply drops it), so the copy may share
        # it: a search that copies a state to try an action then checks it without a second
        # list. Whoever changes a copy's fields by hand forgets it (`forget_derived`).
        copy._legal = self._legal
        return copy

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": "harmonies",
            "players": self.players,
            "options": self.options.model_dump(mode="json"),
            "rng": self.rng.to_json(),
            "ply": self.ply,
            "pouch": dict(self.pouch),
            "central": [s[:] for s in self.central],
            "display": self.display[:],
            "deck": self.deck[:],
            "cube_reserve": self.cube_reserve,
            "discarded": dict(self.discarded),
            "seats": [
                {
                    "stacks": [list(s) for s in p.stacks],
                    "cubes": p.cubes[:],
                    "held": [e[:] for e in p.held],
                    "done": [e[:] for e in p.done],
                    "offer": p.offer[:],
                    "spirit": p.spirit,
                }
                for p in self.seats
            ],
            "seat": self.seat,
            "phase": self.phase,
            "taken_space": self.taken_space,
            "hand": self.hand[:],
            "card_taken": self.card_taken,
            "end_triggered": self.end_triggered,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> HarmoniesState:
        seats = [
            Player(
                stacks=[tuple(s) for s in p["stacks"]],
                cubes=list(p["cubes"]),
                held=[list(e) for e in p["held"]],
                done=[list(e) for e in p["done"]],
                offer=list(p["offer"]),
                spirit=p["spirit"],
            )
            for p in data["seats"]
        ]
        return cls(
            players=data["players"],
            options=HarmoniesOptions.model_validate(data["options"]),
            rng=Rng.from_json(data["rng"]),
            ply=data["ply"],
            pouch=dict(data["pouch"]),
            central=[list(s) for s in data["central"]],
            display=list(data["display"]),
            deck=list(data["deck"]),
            cube_reserve=data["cube_reserve"],
            discarded=dict(data["discarded"]),
            seats=seats,
            seat=data["seat"],
            phase=data["phase"],
            taken_space=data["taken_space"],
            hand=list(data["hand"]),
            card_taken=data["card_taken"],
            end_triggered=data["end_triggered"],
        )

    _parse = staticmethod(notation.parse)


# Each action's handler by its exact type: one look-up where a chain of isinstance was.
_HANDLERS: dict[type, Any] = {
    TakeTokens: HarmoniesState._on_take_tokens,
    PlaceToken: HarmoniesState._on_place_token,
    TakeCard: HarmoniesState._on_take_card,
    PlaceCube: HarmoniesState._on_place_cube,
    ChooseSpirit: HarmoniesState._on_choose_spirit,
    SwapCard: HarmoniesState._on_swap,
    EndTurn: HarmoniesState._on_end_turn,
}

Habitat = tuple[tuple[int, str], ...]  # (space, landscape) pairs around a cube


@cache
def _hand_colours(hand: tuple[str, ...]) -> tuple[str, ...]:
    """A hand's colours once each, in the legal list's order (`c.COLOURS`')."""
    return tuple(colour for colour in c.COLOURS if colour in hand)


@cache
def _cube_landscape(card_id: int) -> str:
    return c.cards()[card_id].cube_landscape


_TAKE_TOKENS = tuple(TakeTokens(space + 1) for space in range(max(CENTRAL_SPACES.values())))
_END_TURN = EndTurn()


@dataclass(frozen=True, slots=True)
class _CardActions:
    """A card's actions in the legal list, built once, and its cube count."""

    take_card: TakeCard
    choose_spirit: ChooseSpirit
    swap_card: SwapCard
    cubes: int


@cache
def _card_actions() -> dict[int, _CardActions]:
    return {
        cid: _CardActions(
            TakeCard(card.slug), ChooseSpirit(card.slug), SwapCard(card.slug), card.cubes
        )
        for cid, card in c.cards().items()
    }


@cache
def _habitat_landscapes(card_id: int) -> frozenset[str]:
    """Every landscape a card's habitat names, its cube's space included."""
    pattern = {land for rotation in c.cards()[card_id].rotations() for _, _, land in rotation}
    return frozenset({_cube_landscape(card_id), *pattern})


@cache
def _naming(*lands: str | None) -> frozenset[int]:
    """The cards whose habitats name any of `lands` (`_habitat_landscapes`)."""
    return frozenset(cid for cid in c.cards() if not _habitat_landscapes(cid).isdisjoint(lands))


@cache
def _space_of(side: str) -> dict[str, int]:
    """Per space name of a board side ("c2"): its index. Actions name spaces this way."""
    return {name: i for i, name in enumerate(c.board(side).names)}


@cache
def _token_action_table(side: str) -> dict[str, tuple[PlaceToken, ...]]:
    """Per colour, per space of a board side: its PlaceToken action."""
    names = c.board(side).names
    return {colour: tuple(_place_token(colour, name) for name in names) for colour in c.COLOURS}


@cache
def _token_actions_by_byte(side: str) -> dict[str, tuple[tuple[tuple[PlaceToken, ...], ...], ...]]:
    """Per colour, per eight spaces of a board side (0-7, 8-15, ...), per mask of those eight:
    their PlaceToken actions in order. A legal list joins a few of these where it would look
    up each open space."""
    by_space = _token_action_table(side)
    size = c.board(side).size
    return {
        colour: tuple(
            tuple(
                tuple(
                    by_space[colour][first + k]
                    for k in range(8)
                    if byte >> k & 1 and first + k < size
                )
                for byte in range(256)
            )
            for first in range(0, size, 8)
        )
        for colour in c.COLOURS
    }


@cache
def _cube_action_table(side: str) -> dict[int, tuple[PlaceCube, ...]]:
    """Per card, per space of a board side: its PlaceCube action."""
    names = c.board(side).names
    return {
        cid: tuple(_place_cube(card.slug, name) for name in names)
        for cid, card in c.cards().items()
    }


@cache
def habitats_around(side: str, card_id: int) -> tuple[tuple[Habitat, ...], ...]:
    """Per space of a board side: the card's habitat around a cube there, one entry per
    rotation that stays on the board, as (space, landscape) pairs."""
    board = c.board(side)
    index = {axial: i for i, axial in enumerate(board.axial)}
    per_space = []
    for q, r in board.axial:
        habitats = []
        for rotation in c.cards()[card_id].rotations():
            spaces = [index.get((q + dq, r + dr)) for dq, dr, _ in rotation]
            if None not in spaces:
                habitats.append(
                    tuple((j, land) for j, (_, _, land) in zip(spaces, rotation, strict=True))
                )
        per_space.append(tuple(habitats))
    return tuple(per_space)


@cache
def _habitat_checks(
    side: str, card_id: int
) -> tuple[tuple[tuple[Callable[[list[str | None]], Any], Any], ...], ...]:
    """`habitats_around` as a cube space's test reads it: per space, per rotation, a getter
    of the landscapes around it and what they must be, one comparison in C where a loop
    over the habitat's spaces was (patterns have one to three spaces besides the cube's)."""
    return tuple(
        tuple((itemgetter(*(j for j, _ in habitat)), _needed(habitat)) for habitat in habitats)
        for habitats in habitats_around(side, card_id)
    )


def _needed(habitat: Habitat) -> Any:
    """What `itemgetter` gives for a habitat's spaces: one landscape alone, else a tuple."""
    lands = tuple(land for _, land in habitat)
    return lands[0] if len(lands) == 1 else lands


@cache
def _empty_open(side: str) -> dict[str, int]:
    """`Player.open_spaces` of an empty board."""
    size = c.board(side).size
    return Player([()] * size, [0] * size).open_spaces()


def setup(players: int, options: HarmoniesOptions, seed: int) -> HarmoniesState:
    """Fill the central board and the display, deal spirits (rulebook pp.2-3, 10-11)."""
    rng = Rng(seed)
    solo = players == 1
    board = c.board(options.side)
    # Boards start empty: what is worked out from them is known without a look (`Player`'s
    # fields are replaced when they change, never changed in place, so all may share them).
    empty_open = _empty_open(options.side)
    seats = [
        Player([()] * board.size, [0] * board.size, known_lands=[None] * board.size)
        for _ in range(players)
    ]
    for player in seats:
        player.known_open = empty_open
    if options.spirits:
        spirits = list(c.SPIRIT_IDS)
        rng.shuffle(spirits)
        for i, player in enumerate(seats):
            player.offer = sorted(spirits[2 * i : 2 * i + 2])
    state = HarmoniesState(
        players=players,
        options=options,
        rng=rng,
        ply=0,
        pouch=dict(c.POUCH),
        central=[[] for _ in range(CENTRAL_SPACES[solo])],
        display=[],
        deck=list(c.ANIMAL_IDS),
        cube_reserve=c.ANIMAL_CUBES,
        discarded=dict.fromkeys(c.COLOURS, 0),
        seats=seats,
        seat=0,
        phase=SPIRIT if options.spirits else TURN,
        taken_space=-1,
        hand=[],
        card_taken=False,
        end_triggered=False,
    )
    for space in range(len(state.central)):
        state.central[space] = state._draw_tokens(TOKENS_PER_SPACE)
    state._refill_display()
    return state
