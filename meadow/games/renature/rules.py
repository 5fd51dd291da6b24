"""Renature's rules: set-up, legal decisions and their effects.

Rule sources: seed 001 (English Yucata rules page; 000 is the same in German), including the
Valley expansion and its variant; research notes in data/rules_summary.json. Choices on
points the rules leave open are marked "Open point" and listed in docs/renature.md.
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Self

from meadow.core.actions import JSON, Action, Event
from meadow.core.game import State, margins
from meadow.core.result import Result, rank
from meadow.core.rng import Rng
from meadow.games.renature import components as c
from meadow.games.renature import notation
from meadow.games.renature import view as views
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
from meadow.games.renature.board import Board
from meadow.games.renature.brook import Brook, Layout, layout
from meadow.games.renature.explain import why_illegal
from meadow.games.renature.options import RenatureOptions
from meadow.games.renature.scoring import (
    NEUTRAL,
    area_points,
    majority,
    plant_points,
    valley_area_points,
)

DOMINO, MUSHROOM, PLANT, END, OVER = "domino", "mushroom", "plant", "end", "over"
BASE_CATEGORIES = ("start", "plants", "areas", "open_areas", "clouds", "unplanted", "token_backs")
VALLEY_CATEGORIES = ("start", "plants", "areas", "clouds", "unplanted")


# Area scorings as if now, by the totals in the area and its awards: an evaluation asks
# every area, and a search asks the same areas in world after world.
_AREA_POINTS: dict[tuple[Any, ...], dict[int, int]] = {}
_AREA_POINTS_KEPT = 1 << 16


def _kept_scoring(
    scoring: Callable[..., dict[int, int]], totals: dict[int, int], *awards: int
) -> dict[int, int]:
    """`scoring(totals, *awards)` (`area_points` or `valley_area_points`), worked out once
    per totals and awards. Every caller gets the same dict: read it, never change it."""
    key = (scoring, *awards, *totals.items())
    points = _AREA_POINTS.get(key)
    if points is None:
        if len(_AREA_POINTS) >= _AREA_POINTS_KEPT:
            _AREA_POINTS.clear()
        points = _AREA_POINTS[key] = scoring(totals, *awards)
    return points


_place_domino = cache(PlaceDomino)  # actions are immutable values: build each one once
_place_plant = cache(PlacePlant)
_place_mushroom = cache(PlaceMushroom)
_return_plant = cache(ReturnPlant)
SKIP_MUSHROOM, SKIP_PLANT, END_TURN, EXTRA_TURN = (
    SkipMushroom(),
    SkipPlant(),
    EndTurn(),
    ExtraTurn(),
)


def supply_key(plant: str, neutral: bool) -> str:
    """How a player-board space is named: "oak" (own colour) or "neutral oak"."""
    return f"neutral {plant}" if neutral else plant


SUPPLY_KEYS = tuple(supply_key(p, n) for n in (False, True) for p in c.PLANT_TYPES)
_SUPPLY = tuple((supply_key(p, n), p, n) for n in (False, True) for p in c.PLANT_TYPES)
_SUPPLY_VALUE = {key: c.PLANT_VALUE[plant] for key, plant, _ in _SUPPLY}
# A plant on the board, (value, neutral or not) -> its player-board space.
_SUPPLY_OF = {(c.PLANT_VALUE[p], n): supply_key(p, n) for n in (False, True) for p in c.PLANT_TYPES}


# Every game on a board starts with the same areas, and the Valley's mushrooms join them
# alike in many games: shared (never changed in place), the last few kept.
@lru_cache(maxsize=256)
def _areas_of(area_id: tuple[str | None, ...]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for cell, area in enumerate(area_id):
        if area is not None:
            found.setdefault(area, []).append(cell)
    return dict(sorted(found.items()))


@lru_cache(maxsize=256)
def _area_brook_of(layout: Layout, area_id: tuple[str | None, ...]) -> dict[str, int]:
    neighbours = layout.neighbours
    brook = 0
    for cell, area in enumerate(area_id):
        if area is None:
            brook |= 1 << cell
    found = {}
    for area, cells in _areas_of(area_id).items():
        beside = 0
        for x in cells:
            beside |= neighbours[x]
        found[area] = beside & brook
    return found


@cache
def _plant_row(cell: str) -> tuple[Action, ...]:
    """Every plant on `cell`, in the order of `_SUPPLY`."""
    return tuple(_place_plant(plant, neutral, cell) for _, plant, neutral in _SUPPLY)


@cache
def _discard(d: int) -> Action:
    return DiscardDomino(c.dominoes()[d].id)


@cache
def _joker_changes(joker: int) -> tuple[Action, ...]:
    return tuple(ChangeJoker(a.name) for a in c.animals() if a.index != joker)


@dataclass(slots=True)
class Seat:
    """One player: dominoes, player board (plants and clouds), score and area tokens."""

    hand: list[int]
    reserve: list[int]  # face down, unknown even to its owner; drawn at random
    discarded: list[int] = field(default_factory=list)
    supply: dict[str, int] = field(default_factory=dict)  # plants on the player board
    capacity: dict[str, int] = field(default_factory=dict)  # usable spaces per kind
    clouds: int = 0
    collected: list[int] = field(default_factory=list)  # area tokens taken
    points: dict[str, int] = field(default_factory=dict)

    def clone(self) -> Seat:
        return Seat(
            self.hand[:],
            self.reserve[:],
            self.discarded[:],
            dict(self.supply),
            dict(self.capacity),
            self.clouds,
            self.collected[:],
            dict(self.points),
        )

    @property
    def score(self) -> int:
        return sum(self.points.values())

    def unplanted(self) -> int:
        """The value of the plants still in the supply: each counts against the seat at the
        end."""
        return sum(_SUPPLY_VALUE[key] * n for key, n in self.supply.items())


@dataclass(frozen=True, slots=True)
class _AreaNow:
    """An area as it stands, for the plants a search weighs in it."""

    area: str
    totals: dict[int, int]  # each colour's plant value in it
    values: list[int]  # the values of the plants in it
    scores: dict[int, int]  # its scoring as if now


class RenatureState(State):
    """The board with its dominoes, plants, clouds and tokens, and every player."""

    __slots__ = (
        "_area_brook",
        "_area_totals",
        "_areas",
        "_brook",
        "_layout",
        "_legal",
        "_plants",
        "_public",
        "animal_at",
        "area_id",
        "board",
        "board_clouds",
        "box_dominoes",
        "box_tokens",
        "domino_at",
        "joker",
        "last_domino",
        "mushrooms_left",
        "options",
        "phase",
        "plant_at",
        "players",
        "ply",
        "rng",
        "scored",
        "seat",
        "seats",
        "tokens_on",
    )

    options: RenatureOptions

    def __init__(
        self,
        *,
        players: int,
        options: RenatureOptions,
        rng: Rng,
        ply: int,
        animal_at: list[int],
        domino_at: list[int],
        plant_at: list[tuple[int, int] | None],
        area_id: list[str | None],
        board_clouds: dict[int, int],
        joker: int,
        tokens_on: dict[str, int],
        scored: list[str],
        box_tokens: list[int],
        box_dominoes: list[int],
        mushrooms_left: int,
        seats: list[Seat],
        seat: int | None,
        phase: str,
        last_domino: tuple[int, int] | None,
        board: Board | None = None,
    ) -> None:
        self.players = players
        self.options = options
        self.rng = rng
        self.ply = ply
        self.board: Board = board or c.board(options.board)
        self.animal_at = animal_at  # per cell: animal index, -1 if no domino
        self.domino_at = domino_at  # per cell: domino index, -1
        self.plant_at = plant_at  # per cell: (value, colour), colour NEUTRAL or a seat
        self.area_id = area_id  # per cell: its area (Valley mushrooms change this)
        self.board_clouds = board_clouds
        self.joker = joker
        self.tokens_on = tokens_on  # base: area -> token still lying in it
        self.scored = scored  # base: areas scored during play, in order
        self.box_tokens = box_tokens
        self.box_dominoes = box_dominoes  # dealt to nobody, face down
        self.mushrooms_left = mushrooms_left
        self.seats = seats
        self.seat = seat
        self.phase = phase
        self.last_domino = last_domino  # the cells of the domino placed this turn
        self._legal: list[Action] | None = None
        self._areas: dict[str, list[int]] | None = None
        self._area_brook: dict[str, int] | None = None  # see area_brook
        self._brook: Brook | None = None  # see _brook_now
        self._layout = layout(self.board)
        self._plants: list[int] | None = None  # see _planted
        self._area_totals: dict[str, dict[int, int]] | None = None  # see area_totals
        # The part of every seat's view that all seats share, and the ply it is of
        # (`view.view`): a server sends each seat and the spectators a view of one move.
        self._public: tuple[int, dict[str, JSON], dict[Any, Any]] | None = None

    def forget_derived(self) -> None:
        """Drop what is worked out from the board (legal actions, areas, brook masks), for
        tools and tests that lay pieces directly instead of through `apply`."""
        self._legal = None
        self._areas = None
        self._area_brook = None
        self._brook = None
        self._plants = None
        self._area_totals = None
        self._public = None

    @property
    def valley(self) -> bool:
        return self.options.board != "base"

    @property
    def categories(self) -> tuple[str, ...]:
        return VALLEY_CATEGORIES if self.valley else BASE_CATEGORIES

    # -- areas ------------------------------------------------------------------------

    def areas(self) -> dict[str, list[int]]:
        """Area id -> its spaces (Valley areas grow and join through mushrooms)."""
        if self._areas is None:
            self._areas = _areas_of(tuple(self.area_id))
        return self._areas

    def totals(self, area: str) -> dict[int, int]:
        """Each colour's total plant value in an area."""
        totals: dict[int, int] = {}
        for cell in self.areas()[area]:
            plant = self.plant_at[cell]
            if plant is not None:
                totals[plant[1]] = totals.get(plant[1], 0) + plant[0]
        return totals

    def area_totals(self) -> dict[str, dict[int, int]]:
        """`totals` of every area with a plant in it, from one pass over the plants; kept
        until a plant or a mushroom goes down or a plant is returned. Read it, never change
        it: the state's copies share it."""
        if self._area_totals is None:
            found: dict[str, dict[int, int]] = {}
            plant_at, area_id = self.plant_at, self.area_id
            for cell in self._planted():
                value, colour = plant_at[cell]  # type: ignore[misc]
                totals = found.setdefault(area_id[cell], {})  # type: ignore[arg-type]
                totals[colour] = totals.get(colour, 0) + value
            self._area_totals = found
        return self._area_totals

    def would_score(self, area: str, totals: dict[int, int] | None = None) -> dict[int, int]:
        """Points per seat if this area were scored now (the interface's hover information),
        or with these colours' totals in it instead of its own."""
        if totals is None:
            totals = self.totals(area)
        if not totals:
            return {}
        if self.valley:
            return _kept_scoring(valley_area_points, totals, len(self.areas()[area]))
        token = self.tokens_on.get(area)
        if token is None:
            return {}
        face = c.area_tokens()[token]
        return _kept_scoring(area_points, totals, face.main, face.minor)

    def best_planting(self) -> Action:
        """The plant (or no plant) after which the mover's lead by the evaluation is largest,
        the first of equals: what a search plays for the plant below its root. Worked out
        from what a plant changes (its points, the clouds it takes, one plant fewer to plant,
        its area's scoring as if now), not by playing each on a clone: the leads of
        `best_by_evaluation`, at a small part of its cost. Plants of one value and colour in
        one area change the same but for their space's clouds, so that part is worked out
        once for them. Cloud actions are left out: one step on they only spend clouds."""
        mover = self.seat
        assert mover is not None and self.phase == PLANT
        values = self.game.evaluate(self)
        room = c.CLOUD_SPACES - self.seats[mover].clouds
        in_area: dict[tuple[str, str, bool], float] = {}
        areas: dict[str, _AreaNow] = {}
        area_totals = self.area_totals()
        best, best_lead = SKIP_PLANT, -math.inf
        for action in self.legal_actions():
            if isinstance(action, PlacePlant):
                cell = self._cell(action.cell)
                area = self.area_id[cell]
                assert area is not None
                key = (area, action.plant, action.neutral)
                lead = in_area.get(key)
                if lead is None:
                    now = areas.get(area)
                    if now is None:
                        now = areas[area] = self._area_now(area, area_totals.get(area, {}))
                    after = self._planted_in(now, action, mover, values)
                    lead = in_area[key] = margins(after, mover)
                lead += min(self.board_clouds.get(cell, 0), room)
            elif action is SKIP_PLANT:
                lead = margins(values, mover)
            else:
                continue
            if lead > best_lead:
                best, best_lead = action, lead
        return best

    def _after_planting(
        self, action: PlacePlant, mover: int, values: list[float], room: int
    ) -> list[float]:
        """The evaluation `values` after `action`, as `Renature.evaluate` would give it."""
        cell = self._cell(action.cell)
        area = self.area_id[cell]
        assert area is not None
        now = self._area_now(area, self.area_totals().get(area, {}))
        after = self._planted_in(now, action, mover, values)
        after[mover] += min(self.board_clouds.get(cell, 0), room)  # the clouds on its space
        return after

    def _area_now(self, area: str, totals: dict[int, int]) -> _AreaNow:
        plant_at = self.plant_at
        others = [plant_at[x][0] for x in self.areas()[area] if plant_at[x] is not None]  # type: ignore[index]
        return _AreaNow(area, totals, others, self.would_score(area, totals))

    def _planted_in(
        self, now: _AreaNow, action: PlacePlant, mover: int, values: list[float]
    ) -> list[float]:
        """The evaluation `values` after `action` in the area `now` describes, its space's
        clouds left out: its points, one plant of its value fewer to plant, and the area's
        scoring as if now."""
        value = c.PLANT_VALUE[action.plant]
        after = list(values)
        after[mover] += plant_points(value, now.values) + value
        colour = NEUTRAL if action.neutral else mover
        planted = dict(now.totals)
        planted[colour] = planted.get(colour, 0) + value
        for seat_no, points in self.would_score(now.area, planted).items():
            after[seat_no] += points
        for seat_no, points in now.scores.items():
            after[seat_no] -= points
        return after

    def token_backs(self) -> list[int]:
        """Per seat, the backs of the area tokens it took or is about to take: each scores
        for its taker at the end. In a plant phase the areas the domino closed are scored
        after the plant, and the mover takes their tokens then."""
        tokens = c.area_tokens()
        backs = [sum(tokens[t].back for t in seat.collected) for seat in self.seats]
        if self.phase == PLANT and self.seat is not None:
            for area, token in self.tokens_on.items():
                if self.closed(area):
                    backs[self.seat] += tokens[token].back
        return backs

    def area_brook(self) -> dict[str, int]:
        """Area id -> the brook spaces beside it (the ones that close it), as a cell mask."""
        if self._area_brook is None:
            self._area_brook = _area_brook_of(self._layout, tuple(self.area_id))
        return self._area_brook

    def _free_brook(self, cell: int) -> bool:
        return self.area_id[cell] is None and self.domino_at[cell] < 0

    def closed(self, area: str) -> bool:
        """Every brook space beside the area is covered or isolated (no free brook beside it:
        no domino can ever reach it), seed 001, step C 2."""
        return not self.area_brook()[area] & self._brook_now().live()

    def irrelevant_animals(self) -> list[int]:
        """Cells whose animal no domino can ever be placed beside."""
        live = self._brook_now().live()
        neighbours = self._layout.neighbours
        return [
            cell
            for cell, animal in enumerate(self.animal_at)
            if animal >= 0 and not neighbours[cell] & live
        ]

    # -- contract ---------------------------------------------------------------------

    def _generate_legal(self) -> list[Action]:
        assert self.seat is not None
        seat = self.seats[self.seat]
        if self.phase == MUSHROOM:
            cells = self.mushroom_cells()
            return [_place_mushroom(self.board.name_of(x)) for x in cells] + [SKIP_MUSHROOM]
        actions: list[Action] = []
        if self.phase == DOMINO:
            actions = self._domino_placements(seat)
            actions += [_discard(d) for d in sorted(seat.hand)]
        elif self.phase == PLANT:
            actions = self._plantings(seat)
            actions.append(SKIP_PLANT)
        elif self.phase == END:
            actions = [END_TURN]
            if seat.clouds >= c.EXTRA_TURN_COST and seat.hand:
                actions.append(EXTRA_TURN)
        if seat.clouds:  # every cloud action costs clouds
            actions += self._cloud_actions(seat)
        return actions

    def _matches(self, a: int, b: int) -> bool:
        return a == b or a == self.joker or b == self.joker

    def _brook_now(self) -> Brook:
        """The free brook and the pairs a domino may cover: worked out once, then kept up to
        date as dominoes and mushrooms go down."""
        if self._brook is None:
            self._brook = Brook.build(self._layout, self.animal_at, self.domino_at, self.area_id)
        return self._brook

    def _cover(self, cells: tuple[int, ...]) -> None:
        if self._brook is not None:
            self._brook.cover(cells, self.animal_at)

    def _domino_placements(self, seat: Seat) -> list[Action]:
        # A legal domino has a half on the frontier (a start space or beside an animal); the
        # brook keeps those pairs, split by the animals beside each half, so a domino costs a
        # few mask operations and one step per placement, not one per pair.
        brook = self._brook_now()
        dominoes = c.dominoes()
        hand = sorted(seat.hand)
        animals = {animal for d in hand for animal in dominoes[d].animals}
        admitting = brook.admitting(animals, self.joker)
        actions: list[Action] = []
        for d in hand:
            a, b = dominoes[d].animals
            forward = admitting[a][0] & admitting[b][1]
            turned = 0 if a == b else admitting[b][0] & admitting[a][1]  # a double reads the same
            _placements(brook.layout, d, forward | turned << 1, actions)
        return actions

    def mushroom_cells(self) -> list[int]:
        """Valley open point: a mushroom goes on a free meadow space (no domino, pond, stump
        or cloud) orthogonally beside at least one area space."""
        return [
            x
            for x in self.board.cells
            if self._free_brook(x)
            and x not in self.board.start
            and x not in self.board.stumps
            and x not in self.board_clouds
            and any(self.area_id[n] is not None for n in self.board.neighbours[x])
        ]

    def plant_cells(self) -> list[int]:
        """Free area spaces beside the domino placed this turn."""
        if self.last_domino is None:
            return []
        cells = {
            n
            for x in self.last_domino
            for n in self.board.neighbours[x]
            if self.area_id[n] is not None and self.plant_at[n] is None
        }
        return sorted(cells)

    def _plantings(self, seat: Seat) -> list[Action]:
        names = self.board.names
        # Per plant, its actions on each space: the rows of the spaces' tables, turned round.
        by_plant = list(zip(*(_plant_row(names[x]) for x in self.plant_cells()), strict=True))
        actions: list[Action] = []
        if not by_plant:
            return actions
        for (key, _, _), plants in zip(_SUPPLY, by_plant, strict=True):
            if seat.supply[key] > 0:
                actions += plants
        return actions

    def _cloud_actions(self, seat: Seat) -> list[Action]:
        actions: list[Action] = []
        if seat.clouds >= c.JOKER_COST:
            actions += _joker_changes(self.joker)
        names = self.board.names
        actions += [_return_plant(names[x]) for x in self._returnable(seat)]
        return actions

    def _planted(self) -> list[int]:
        """The cells holding a plant, in order: worked out once, then kept up to date."""
        if self._plants is None:
            self._plants = [x for x, plant in enumerate(self.plant_at) if plant is not None]
        return self._plants

    def _returnable(self, seat: Seat) -> list[int]:
        if not seat.clouds:  # every plant costs at least one cloud
            return []
        cells = []
        plant_at, mine = self.plant_at, self.seat
        for x in self._planted():
            value, colour = plant_at[x]  # type: ignore[misc]
            if colour not in (NEUTRAL, mine) or value > seat.clouds:
                continue
            key = _SUPPLY_OF[value, colour == NEUTRAL]
            if seat.supply[key] < seat.capacity[key]:
                cells.append(x)
        return cells

    # -- applying ---------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        seat_no = self.seat
        assert seat_no is not None
        seat = self.seats[seat_no]
        if isinstance(action, PlaceDomino):  # the most common decisions first
            return self._apply_domino(seat_no, seat, action)
        if isinstance(action, PlacePlant):
            return self._apply_plant(seat_no, seat, action)
        if isinstance(action, DiscardDomino):
            d = c.domino_index()[action.domino]
            seat.hand.remove(d)
            seat.discarded.append(d)
            private = {seat_no: {"domino": action.domino}}
            return [Event("discard", seat_no, {}, private), *self._finish_steps(seat_no)]
        if isinstance(action, PlaceMushroom):
            return self._apply_mushroom(seat_no, self._cell(action.cell))
        if isinstance(action, SkipMushroom):
            return self._to_plant_phase(seat_no)
        if isinstance(action, SkipPlant):
            return self._finish_steps(seat_no)
        if isinstance(action, ChangeJoker):
            seat.clouds -= c.JOKER_COST
            self.joker = c.animal_index()[action.animal]
            return [Event("joker", seat_no, {"animal": action.animal})]
        if isinstance(action, ReturnPlant):
            return self._apply_return(seat_no, seat, self._cell(action.cell))
        if isinstance(action, ExtraTurn):
            seat.clouds -= c.EXTRA_TURN_COST
            self.phase = DOMINO
            self.last_domino = None
            return [Event("extra_turn", seat_no)]
        assert isinstance(action, EndTurn)
        return self._end_turn(seat_no)

    def _cell(self, name: str) -> int:
        cell = self._layout.cell_named.get(name)
        if cell is None:  # a name the engine did not write (" C4 "): the board reads it
            cell = self.board.cell_at(name)
            assert cell is not None
        return cell

    def _take_clouds(self, seat: Seat, cell: int) -> int:
        """Clouds on a space go to free cloud spaces; the surplus goes back to the box
        (Yucata: make room first, with a cloud action, if you want them)."""
        lying = self.board_clouds.pop(cell, 0)
        taken = min(lying, c.CLOUD_SPACES - seat.clouds)
        seat.clouds += taken
        return taken

    def _apply_domino(self, seat_no: int, seat: Seat, action: PlaceDomino) -> list[Event]:
        placed = self._layout.placed.get(id(action))
        if placed is None:  # not one of the legal list's own objects, an equal one
            placed = (
                c.domino_index()[action.domino],
                self._cell(action.first),
                self._cell(action.second),
            )
        d, first, second = placed
        seat.hand.remove(d)
        animals = c.dominoes()[d].animals
        self.animal_at[first], self.animal_at[second] = animals
        self.domino_at[first] = self.domino_at[second] = d
        clouds = 0
        if first in self.board_clouds or second in self.board_clouds:
            clouds = self._take_clouds(seat, first) + self._take_clouds(seat, second)
        self.last_domino = (first, second)
        self._cover(self.last_domino)
        public: dict[str, JSON] = {
            "domino": action.domino,
            "cells": [action.first, action.second],
            "animals": list(_animal_names(d)),
        }
        if clouds:
            public["clouds"] = clouds
        events = [Event("place_domino", seat_no, public, reveals=True)]
        stump = first in self.board.stumps or second in self.board.stumps
        if stump and self.mushrooms_left > 0 and self.mushroom_cells():
            self.phase = MUSHROOM
            return events
        return events + self._to_plant_phase(seat_no)

    def _apply_mushroom(self, seat_no: int, cell: int) -> list[Event]:
        joined = sorted({self.area_id[n] for n in self.board.neighbours[cell]} - {None})
        new_id = joined[0]
        for x, area in enumerate(self.area_id):
            if area in joined:
                self.area_id[x] = new_id
        self.area_id[cell] = new_id
        self._cover((cell,))
        self.mushrooms_left -= 1
        self._areas = None
        self._area_brook = None
        self._area_totals = None
        public: dict[str, JSON] = {
            "cell": self.board.name_of(cell),
            "area": new_id,
            "joined": joined,
            "size": len(self.areas()[new_id]),
        }
        return [Event("mushroom", seat_no, public), *self._to_plant_phase(seat_no)]

    def _to_plant_phase(self, seat_no: int) -> list[Event]:
        seat = self.seats[seat_no]
        if self.plant_cells() and any(seat.supply.values()):
            self.phase = PLANT
            return []
        return self._finish_steps(seat_no)

    def _apply_plant(self, seat_no: int, seat: Seat, action: PlacePlant) -> list[Event]:
        cell = self._cell(action.cell)
        seat.supply[supply_key(action.plant, action.neutral)] -= 1
        value = c.PLANT_VALUE[action.plant]
        area = self.area_id[cell]
        assert area is not None
        others = [self.plant_at[x][0] for x in self.areas()[area] if self.plant_at[x] is not None]  # type: ignore[index]
        colour = NEUTRAL if action.neutral else seat_no
        self.plant_at[cell] = (value, colour)
        if self._plants is not None:
            insort(self._plants, cell)
        self._area_totals = None
        points = plant_points(value, others)
        seat.points["plants"] += points
        public: dict[str, JSON] = {
            "plant": action.plant,
            "neutral": action.neutral,
            "cell": action.cell,
            "area": area,
            "points": points,
        }
        clouds = self._take_clouds(seat, cell)
        if clouds:
            public["clouds"] = clouds
        return [Event("plant", seat_no, public), *self._finish_steps(seat_no)]

    def _apply_return(self, seat_no: int, seat: Seat, cell: int) -> list[Event]:
        plant = self.plant_at[cell]
        assert plant is not None
        name = c.PLANT_TYPES[plant[0] - 1]
        seat.clouds -= plant[0]
        seat.supply[supply_key(name, plant[1] == NEUTRAL)] += 1
        self.plant_at[cell] = None
        if self._plants is not None:
            self._plants.remove(cell)
        self._area_totals = None
        public: dict[str, JSON] = {"cell": self.board.name_of(cell), "plant": name}
        public["neutral"] = plant[1] == NEUTRAL
        return [Event("return_plant", seat_no, public)]

    def _finish_steps(self, seat_no: int) -> list[Event]:
        """Step C 2 (base: score the areas this turn closed off) and step D (refill)."""
        events = [] if self.valley else self._score_closed_areas(seat_no)
        seat = self.seats[seat_no]
        if seat.reserve:
            d = seat.reserve.pop(self.rng.below(len(seat.reserve)))
            seat.hand.append(d)
            private = {seat_no: {"domino": c.dominoes()[d].id}}
            events.append(Event("draw", seat_no, {}, private, reveals=True))
        self.phase = END
        self.last_domino = None
        if not self._end_choices(seat):  # nothing to choose but `end`
            events += self._end_turn(seat_no)
        return events

    def _end_choices(self, seat: Seat) -> bool:
        """Whether the seat may do more than end its turn (the END phase's other actions)."""
        if seat.clouds >= c.EXTRA_TURN_COST and seat.hand:
            return True
        return seat.clouds >= c.JOKER_COST or bool(self._returnable(seat))

    def _score_closed_areas(self, seat_no: int) -> list[Event]:
        if self.last_domino is None:  # a discard: the board is as the last scoring left it
            return []
        # Only areas beside what the domino covered or isolated can have closed now.
        live = self._brook_now().live()
        neighbours = self._layout.neighbours
        first, second = self.last_domino
        changed = 1 << first | 1 << second | (neighbours[first] | neighbours[second]) & ~live
        area_brook = self.area_brook()
        return [
            self._score_area(area, taker=seat_no, category="areas")
            for area in list(self.tokens_on)
            if area_brook[area] & changed and not area_brook[area] & live
        ]

    def _score_area(self, area: str, taker: int | None, category: str) -> Event:
        token = self.tokens_on.pop(area)
        face = c.area_tokens()[token]
        totals = self.totals(area)
        points = area_points(totals, face.main, face.minor) if totals else {}  # no plant: none
        for seat_no, p in points.items():
            self.seats[seat_no].points[category] += p
        private: dict[int, dict[str, JSON]] = {}
        if taker is None:
            self.box_tokens.append(token)
        else:
            self.seats[taker].collected.append(token)
            self.scored.append(area)
            private[taker] = {"back": face.back}
        public: dict[str, JSON] = {
            "area": area,
            "main": face.main,
            "minor": face.minor,
            "points": {str(s): p for s, p in points.items()},
            "taker": taker,
        }
        return Event("area_scored", taker, public, private, reveals=taker is not None)

    def _end_turn(self, seat_no: int) -> list[Event]:
        self.phase = DOMINO
        self.last_domino = None
        for step in range(1, self.players + 1):
            candidate = (seat_no + step) % self.players
            if self.seats[candidate].hand:
                self.seat = candidate
                return []
        return self._final_scoring()

    def _final_scoring(self) -> list[Event]:
        events = []
        if self.valley:
            for area, cells in self.areas().items():
                for seat_no, p in valley_area_points(self.totals(area), len(cells)).items():
                    self.seats[seat_no].points["areas"] += p
        else:
            events += [self._score_area(a, None, "open_areas") for a in list(self.tokens_on)]
        backs = self.token_backs()  # the turn is over: only the tokens taken count
        for seat, back in zip(self.seats, backs, strict=True):
            seat.points["clouds"] = seat.clouds
            seat.points["unplanted"] = -seat.unplanted()
            if not self.valley:
                seat.points["token_backs"] = back
        self.seat = None
        self.phase = OVER
        events.append(Event("game_over", None, {"result": self._result().to_json()}, reveals=True))
        return events

    # -- why not ----------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str:
        return why_illegal(self, action)

    # -- result -----------------------------------------------------------------------

    def _result(self) -> Result:
        breakdown = tuple(
            {k: seat.points.get(k, 0) for k in self.categories} for seat in self.seats
        )
        scores = tuple(sum(b.values()) for b in breakdown)
        if self.valley:
            majorities = self._largest_area_majorities()
            keys = [(scores[s], majorities.get(s, 0)) for s in range(self.players)]
            return Result(scores, breakdown, rank(keys), ("majority in the largest area",))
        keys = [(scores[s], len(self.seats[s].collected)) for s in range(self.players)]
        return Result(scores, breakdown, rank(keys), ("area tokens",))

    def _largest_area_majorities(self) -> dict[int, int]:
        """Valley tie-break (seed 000, Valley, "Spielende": "Bei Gleichstand gewinnt, wer im
        größten Gebiet die Mehrheit hat"): per seat, in how many of the largest areas it holds
        the majority the final area scoring decides there (tied colours cancel, neutral can
        hold it). Open point: with several equally large largest areas each counts, and more
        majorities beat fewer; see docs/renature.md."""
        areas = self.areas()
        largest = max((len(cells) for cells in areas.values()), default=0)
        counts: dict[int, int] = {}
        for area, cells in areas.items():
            holder = majority(self.totals(area)) if len(cells) == largest else None
            if holder is not None and holder != NEUTRAL:
                counts[holder] = counts.get(holder, 0) + 1
        return counts

    # -- views, copies, serialisation -------------------------------------------------

    def view(self, seat: int | None) -> dict[str, JSON]:
        return views.view(self, seat)

    def sample_hidden(self, seat: int | None, rng: Rng) -> Self:
        return views.sample_hidden(self, seat, rng)

    def clone(self) -> Self:
        copy = type(self)(
            players=self.players,
            options=self.options,
            rng=self.rng.clone(),
            ply=self.ply,
            animal_at=self.animal_at[:],
            domino_at=self.domino_at[:],
            plant_at=self.plant_at[:],
            area_id=self.area_id[:],
            board_clouds=dict(self.board_clouds),
            joker=self.joker,
            tokens_on=dict(self.tokens_on),
            scored=self.scored[:],
            box_tokens=self.box_tokens[:],
            box_dominoes=self.box_dominoes[:],
            mushrooms_left=self.mushrooms_left,
            seats=[s.clone() for s in self.seats],
            seat=self.seat,
            phase=self.phase,
            last_domino=self.last_domino,
            board=self.board,
        )
        copy._areas = self._areas
        copy._area_totals = self._area_totals  # replaced on a change, never changed
        copy._area_brook = self._area_brook
        if self._brook is not None:
            copy._brook = self._brook.copy()
        if self._plants is not None:
            copy._plants = self._plants[:]
        return copy

    def to_json(self) -> dict[str, JSON]:
        name = self.board.name_of
        return {
            "game": "renature",
            "players": self.players,
            "options": self.options.model_dump(mode="json"),
            "rng": self.rng.to_json(),
            "ply": self.ply,
            "dominoes": {
                name(x): [c.dominoes()[d].id, c.animals()[self.animal_at[x]].name]
                for x, d in enumerate(self.domino_at)
                if d >= 0
            },
            "plants": {name(x): [p[0], p[1]] for x, p in enumerate(self.plant_at) if p is not None},
            "area_id": list(self.area_id),
            "board_clouds": {name(x): n for x, n in sorted(self.board_clouds.items())},
            "joker": c.animals()[self.joker].name,
            "tokens_on": {a: c.area_tokens()[t].id for a, t in self.tokens_on.items()},
            "scored": self.scored[:],
            "box_tokens": [c.area_tokens()[t].id for t in self.box_tokens],
            "box_dominoes": [c.dominoes()[d].id for d in self.box_dominoes],
            "mushrooms_left": self.mushrooms_left,
            "seats": [
                {
                    "hand": [c.dominoes()[d].id for d in s.hand],
                    "reserve": [c.dominoes()[d].id for d in s.reserve],
                    "discarded": [c.dominoes()[d].id for d in s.discarded],
                    "supply": dict(s.supply),
                    "capacity": dict(s.capacity),
                    "clouds": s.clouds,
                    "collected": [c.area_tokens()[t].id for t in s.collected],
                    "points": dict(s.points),
                }
                for s in self.seats
            ],
            "seat": self.seat,
            "phase": self.phase,
            "last_domino": None
            if self.last_domino is None
            else [name(x) for x in self.last_domino],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RenatureState:
        options = RenatureOptions.model_validate(data["options"])
        board = c.board(options.board)
        size = board.width * board.height
        animal_at, domino_at = [-1] * size, [-1] * size
        for cell_name, (domino, animal) in data["dominoes"].items():
            cell = board.cell_at(cell_name)
            assert cell is not None
            domino_at[cell] = c.domino_index()[domino]
            animal_at[cell] = c.animal_index()[animal]
        plant_at: list[tuple[int, int] | None] = [None] * size
        for cell_name, (value, colour) in data["plants"].items():
            plant_at[board.cell_at(cell_name)] = (value, colour)  # type: ignore[index]
        dominoes, tokens = c.domino_index(), c.token_index()
        seats = [
            Seat(
                hand=[dominoes[d] for d in s["hand"]],
                reserve=[dominoes[d] for d in s["reserve"]],
                discarded=[dominoes[d] for d in s["discarded"]],
                supply=dict(s["supply"]),
                capacity=dict(s["capacity"]),
                clouds=s["clouds"],
                collected=[tokens[t] for t in s["collected"]],
                points=dict(s["points"]),
            )
            for s in data["seats"]
        ]
        last = data["last_domino"]
        return cls(
            players=data["players"],
            options=options,
            rng=Rng.from_json(data["rng"]),
            ply=data["ply"],
            animal_at=animal_at,
            domino_at=domino_at,
            plant_at=plant_at,
            area_id=list(data["area_id"]),
            board_clouds={board.cell_at(k): n for k, n in data["board_clouds"].items()},  # type: ignore[misc]
            joker=c.animal_index()[data["joker"]],
            tokens_on={a: tokens[t] for a, t in data["tokens_on"].items()},
            scored=list(data["scored"]),
            box_tokens=[tokens[t] for t in data["box_tokens"]],
            box_dominoes=[dominoes[d] for d in data["box_dominoes"]],
            mushrooms_left=data["mushrooms_left"],
            seats=seats,
            seat=data["seat"],
            phase=data["phase"],
            last_domino=None if last is None else tuple(board.cell_at(x) for x in last),  # type: ignore[arg-type]
        )

    _parse = staticmethod(notation.parse)


def _placements(layout: Layout, d: int, mask: int, actions: list[Action]) -> None:
    """Append domino `d`'s placements in `mask` (brook.py: a pair's bit, the one after it
    turned round), in the order of the pairs."""
    row = layout.placements[d] or _placement_row(layout, d)
    append = actions.append
    while mask:
        low = mask & -mask
        append(row[low.bit_length() - 1])
        mask ^= low


def _placement_row(layout: Layout, d: int) -> tuple[Action, ...]:
    domino = c.dominoes()[d].id
    row = []
    for (first, second), (x, y) in zip(layout.pair_names, layout.pair_cells, strict=True):
        for action, cells in (
            (_place_domino(domino, first, second), (x, y)),
            (_place_domino(domino, second, first), (y, x)),
        ):
            layout.placed[id(action)] = (d, *cells)
            row.append(action)
    layout.placements[d] = tuple(row)
    return layout.placements[d]


@cache
def _animal_names(d: int) -> tuple[str, ...]:
    return tuple(c.animals()[a].name for a in c.dominoes()[d].animals)


def setup(
    players: int, options: RenatureOptions, seed: int, board: Board | None = None
) -> RenatureState:
    """Seed 001, set-up: deal dominoes, fill the player boards, place tokens and clouds.
    `board` replaces the option's board (tests use small boards made for an example)."""
    rng = Rng(seed)
    board = board or c.board(options.board)
    valley = options.board != "base"
    dominoes = list(range(len(c.dominoes())))
    rng.shuffle(dominoes)
    per_player = c.DOMINOES_PER_PLAYER[players]
    player_board = c.player_board(players)
    seats = []
    for i in range(players):
        dealt = sorted(dominoes[i * per_player : (i + 1) * per_player])
        hand = [dealt.pop(rng.below(len(dealt))) for _ in range(c.HAND_SIZE)]
        capacity = {supply_key(p, False): player_board.own[p] for p in c.PLANT_TYPES}
        capacity |= {supply_key(p, True): player_board.neutral[p] for p in c.PLANT_TYPES}
        points = dict.fromkeys(VALLEY_CATEGORIES if valley else BASE_CATEGORIES, 0)
        points["start"] = c.START_SCORES[i]
        seats.append(
            Seat(hand, dealt, [], dict(capacity), capacity, player_board.cloud_spaces, [], points)
        )
    box_dominoes = sorted(dominoes[players * per_player :])
    tokens_on: dict[str, int] = {}
    box_tokens: list[int] = []
    if not valley:
        pool = list(range(len(c.area_tokens())))
        rng.shuffle(pool)
        for area, cells in board.areas().items():
            token = next(t for t in pool if c.area_tokens()[t].main == len(cells))
            pool.remove(token)
            tokens_on[area] = token
        box_tokens = sorted(pool)
    state = RenatureState(
        players=players,
        options=options,
        rng=rng,
        ply=0,
        animal_at=[-1] * len(board.area_of),
        domino_at=[-1] * len(board.area_of),
        plant_at=[None] * len(board.area_of),
        area_id=list(board.area_of),
        board_clouds=dict(board.clouds),
        joker=c.animal_index()[c.animals()[0].name],
        tokens_on=tokens_on,
        scored=[],
        box_tokens=box_tokens,
        box_dominoes=box_dominoes,
        mushrooms_left=c.MUSHROOMS if valley else 0,
        seats=seats,
        seat=0,
        phase=DOMINO,
        last_domino=None,
        board=board,
    )
    state._brook = Brook.at_setup(layout(board))  # nothing lies there yet: no need to look
    return state
