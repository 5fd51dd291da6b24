"""Renature: actions and observation.

Actions, in this order: each domino (D00-D54) on each ordered pair of orthogonally adjacent
brook (meadow) spaces of the board's map, first animal on the first space (a double only with
the first space before the second, as the rules list it); discarding each domino; with a
Valley board a mushroom on each meadow space that may ever take one, and `no mushroom`; each
plant (own turf, bush, pine, oak, then neutral) on each space a plant may ever stand on (area
spaces, and with Valley the mushroom spaces); `no plant`; moving the joker to each animal;
returning the plant on each of those spaces; `end`; `extra turn`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from meadow.core.actions import Action
from meadow.core.encoding import Block, Encoder, Parts
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
from meadow.games.renature.options import RenatureOptions
from meadow.games.renature.view import COLOURS

PHASES = ("domino", "mushroom", "plant", "end", "over")
SUPPLY = tuple(f"{'neutral ' if n else ''}{p}" for n in (False, True) for p in c.PLANT_TYPES)
TERRAIN = ("area", "meadow", "start", "stump", "cloud_space", "mushroom")
SEAT_FEATURES = ("score", "clouds", "hand", "reserve", "discarded", "tokens")
SCORE_SCALE = 100.0
PIECES_SCALE = 4.0  # no player board has more than 4 spaces of one kind


class RenatureEncoder(Encoder):
    game_id = "renature"
    options: RenatureOptions

    def __init__(self, players: int, options: RenatureOptions) -> None:  # type: ignore[override]
        super().__init__(players, options)
        self.board = c.board(options.board)
        self.valley = options.board != "base"
        self.cell_of = {name: cell for cell, name in enumerate(self.board.names)}
        self.tokens = c.area_tokens()
        self.max_main = max(t.main for t in self.tokens)
        self.max_minor = max(t.minor for t in self.tokens)
        self.max_clouds = max(self.board.clouds.values(), default=1)
        self.max_area = max((len(cells) for cells in self.board.areas().values()), default=1)
        self.terrain = self._printed_terrain()

    def _printed_terrain(self) -> np.ndarray:
        """The map's own features per space (mushrooms are added per view)."""
        b = self.board
        terrain = np.zeros((len(b.names), len(TERRAIN)), dtype=np.float32)
        for x in b.cells:
            terrain[x, 0 if not b.is_brook(x) else 1] = 1
        for column, spaces in ((2, b.start), (3, b.stumps), (4, b.clouds)):
            for x in spaces:
                terrain[x, column] = 1
        return terrain

    def mushroom_spaces(self) -> list[int]:
        """Meadow spaces a mushroom may ever go on: not a start, stump or cloud space."""
        if not self.valley:
            return []
        b = self.board
        return [
            x
            for x in b.brook_cells()
            if x not in b.start and x not in b.stumps and x not in b.clouds
        ]

    def largest_area(self) -> float:
        """The most an area's scaled size can reach. In the Valley a mushroom joins the
        areas it touches, so one area can grow past any printed one (a random 3-player game
        reached 4.7 times the largest): at most every space a plant can go on."""
        return max(1.0, len(self.plant_spaces()) / self.max_area)

    def plant_spaces(self) -> list[int]:
        b = self.board
        return sorted({x for x in b.cells if not b.is_brook(x)} | set(self.mushroom_spaces()))

    def actions(self) -> list[Action]:
        b, names = self.board, self.board.names
        pairs = [(x, y) for x in b.brook_cells() for y in b.neighbours[x] if b.is_brook(y)]
        found: list[Action] = []
        for domino in c.dominoes():
            found += [
                PlaceDomino(domino.id, names[x], names[y])
                for x, y in pairs
                if not (domino.double and x > y)
            ]
        found += [DiscardDomino(domino.id) for domino in c.dominoes()]
        if self.valley:
            found += [PlaceMushroom(names[x]) for x in self.mushroom_spaces()]
            found.append(SkipMushroom())
        plant_spaces = self.plant_spaces()
        found += [
            PlacePlant(plant, neutral, names[x])
            for neutral in (False, True)
            for plant in c.PLANT_TYPES
            for x in plant_spaces
        ]
        found.append(SkipPlant())
        found += [ChangeJoker(animal.name) for animal in c.animals()]
        found += [ReturnPlant(names[x]) for x in plant_spaces]
        found += [EndTurn(), ExtraTurn()]
        return found

    def blocks(self) -> list[Block]:
        p, cells = self.players, len(self.board.names)
        animals, dominoes = len(c.animals()), len(c.dominoes())
        w, h = self.board.width, self.board.height
        where = f"per space ({w} x {h}, row-major)"
        return [
            Block("terrain", (cells, len(TERRAIN)), f"{', '.join(TERRAIN)} {where}"),
            Block("animal", (cells, animals), f"animal of the domino half lying there, {where}"),
            Block("plant", (cells, len(c.PLANT_TYPES)), f"turf, bush, pine, oak there, {where}"),
            Block("plant_owner", (cells, p + 1), f"plant's relative seat, last: neutral, {where}"),
            Block("clouds", (cells,), f"clouds lying there, / the most on one space, {where}"),
            Block("last_domino", (cells,), f"the domino placed this turn, {where}"),
            Block("irrelevant", (cells,), f"animals no domino can reach any more, {where}"),
            Block(
                "area_token",
                (cells, 2),
                f"base game: main and minor points of the token on its area (scaled), {where}",
            ),
            Block("area_state", (cells, 2), f"its area is closed; was scored, {where}"),
            Block(
                "area_size",
                (cells,),
                f"its area's size, / the largest printed area, {where}",
                high=self.largest_area(),
            ),
            Block("joker", (animals,), "the joker animal"),
            Block("phase", (len(PHASES),), ", ".join(PHASES)),
            Block("to_move", (p,), "the seat to move, relative (all 0 once over)"),
            Block("counts", (2,), "mushrooms left / 8, dominoes in the box / 55"),
            Block(
                "seats",
                (p, len(SEAT_FEATURES)),
                "per seat: score / 100, clouds / 6, hand / 3, reserve / 26, discarded / 26, "
                "area tokens / 21",
                low=-2.0,
                high=3.0,
            ),
            Block("supply", (p, len(SUPPLY)), "plants on each player board per kind, / 4"),
            Block("capacity", (p, len(SUPPLY)), "usable spaces per kind, / 4"),
            Block("hand", (dominoes,), "dominoes in the observer's hand"),
            Block("discarded_dominoes", (dominoes,), "dominoes the observer discarded"),
            Block(
                "token_backs", (1,), "points on the backs of the observer's tokens, / 20", high=4.0
            ),
        ]

    def fill(self, view: Mapping[str, Any], me: int, parts: Parts) -> None:
        cell_of = self.cell_of
        colour = {name: i for i, name in enumerate(COLOURS)}
        animal = c.animal_index()
        domino = c.domino_index()
        terrain = parts["terrain"]
        terrain[:] = self.terrain
        for name in view["board"]["mushrooms"]:
            terrain[cell_of[name], 5] = 1
        for name, half in view["dominoes"].items():
            parts["animal"][cell_of[name], animal[half["animal"]]] = 1
        plant_index = {p: i for i, p in enumerate(c.PLANT_TYPES)}
        for name, plant in view["plants"].items():
            x = cell_of[name]
            parts["plant"][x, plant_index[plant["plant"]]] = 1
            owner = colour.get(plant["colour"])
            parts["plant_owner"][x, self.players if owner is None else self.relative(owner, me)] = 1
        for name, n in view["clouds"].items():
            parts["clouds"][cell_of[name]] = n / self.max_clouds
        for name in view["last_domino"] or ():
            parts["last_domino"][cell_of[name]] = 1
        for name in view["irrelevant"]:
            parts["irrelevant"][cell_of[name]] = 1
        area_token, area_state, area_size = (
            parts["area_token"],
            parts["area_state"],
            parts["area_size"],
        )
        for area in view["areas"]:
            token = area["token"]
            for name in area["cells"]:
                x = cell_of[name]
                if token is not None:
                    area_token[x] = (token["main"] / self.max_main, token["minor"] / self.max_minor)
                area_state[x] = (area["closed"], area["scored"])
                area_size[x] = area["size"] / self.max_area
        parts["joker"][animal[view["joker"]]] = 1
        parts["phase"][PHASES.index(view["phase"])] = 1
        if view["to_move"] is not None:
            parts["to_move"][self.relative(view["to_move"], me)] = 1
        parts["counts"][:] = (
            view["mushrooms_left"] / c.MUSHROOMS,
            view["box_dominoes"] / len(c.dominoes()),
        )
        dealt = c.DOMINOES_PER_PLAYER[2]
        for owner, seat in enumerate(view["seats"]):
            r = self.relative(owner, me)
            parts["seats"][r] = (
                seat["score"] / SCORE_SCALE,
                seat["clouds"] / c.CLOUD_SPACES,
                seat["hand_size"] / c.HAND_SIZE,
                seat["reserve_size"] / dealt,
                seat["discarded"] / dealt,
                len(seat["tokens"]) / len(self.tokens),
            )
            parts["supply"][r] = [seat["supply"][k] / PIECES_SCALE for k in SUPPLY]
            parts["capacity"][r] = [seat["capacity"][k] / PIECES_SCALE for k in SUPPLY]
            if owner == me:
                for d in seat.get("hand", ()):
                    parts["hand"][domino[d["domino"]]] = 1
                for d in seat.get("discarded_dominoes", ()):
                    parts["discarded_dominoes"][domino[d["domino"]]] = 1
                parts["token_backs"][0] = sum(seat.get("token_backs", ())) / 20


ENCODER = RenatureEncoder
