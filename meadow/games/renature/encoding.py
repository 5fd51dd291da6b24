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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import reduce
from itertools import compress
from operator import itemgetter, or_
from struct import Struct
from typing import TYPE_CHECKING, Any, ClassVar

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
from meadow.games.renature.brook import Brook, layout
from meadow.games.renature.options import RenatureOptions
from meadow.games.renature.view import COLOURS

if TYPE_CHECKING:
    from meadow.core.game import State
    from meadow.games.renature.rules import RenatureState

PHASES = ("domino", "mushroom", "plant", "end", "over")
SUPPLY = tuple(f"{'neutral ' if n else ''}{p}" for n in (False, True) for p in c.PLANT_TYPES)
TERRAIN = ("area", "meadow", "start", "stump", "cloud_space", "mushroom")
SEAT_FEATURES = ("score", "clouds", "hand", "reserve", "discarded", "tokens")
SCORE_SCALE = 100.0
PIECES_SCALE = 4.0  # no player board has more than 4 spaces of one kind
TOKEN_BACKS_SCALE = 20
# Kept per encoder: area layouts (each Valley game's mushrooms make up to 9 new ones), and
# per layout its area blocks (4.5 KB each; a layout meets a few dozen a game at most).
AREAS_KEPT = 64
BLOCKS_KEPT = 256


@dataclass(frozen=True, slots=True)
class _AreaLayout:
    """What the areas as they lie fix in an observation. Only the Valley's mushrooms change
    them, so it is worked out once per layout, not per observation."""

    terrain: np.ndarray  # the terrain block, mushrooms included
    brook: int  # the spaces of no area (brook, meadow without a mushroom), a mask
    names: tuple[str, ...]
    closing: tuple[int, ...]  # per area, the brook spaces beside it (they close it), a mask
    empty: np.ndarray  # the area blocks with no token, nothing closed or scored
    area_of_space: np.ndarray  # per area space, its area's place in `names`
    targets: np.ndarray  # per area space, where its token main, minor, closed, scored go
    # The area blocks (token, state, size) per what they show (see `_area_blocks`): areas
    # close and are scored seldom, so one observation in 12-16 shows something new.
    blocks: dict[tuple[tuple[Any, ...], ...], np.ndarray] = field(default_factory=dict)


class RenatureEncoder(Encoder):
    game_id = "renature"
    options: RenatureOptions
    points_blocks: ClassVar[dict[str, int | None]] = {"seats": 0}  # the score column

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
        self._observe_tables()

    def _observe_tables(self) -> None:
        """What `fill_state` looks up: it writes the flat array, whose blocks lie in the order
        of `blocks()`, as the encoding lays them."""
        self.at: dict[str, int] = {}
        offset = 0
        for block in self.blocks():
            self.at[block.name] = offset
            offset += block.size
        at, p, b = self.at, self.players, self.board
        cells = len(b.names)
        self.spaces = range(cells)
        self.animal_bytes = Struct(f"{cells}b")
        self.layout = layout(b)
        # A space's row of the animal block per animal, and last, no animal.
        animals = len(c.animals())
        self.animal_rows = np.eye(animals + 1, animals, dtype=np.float32)
        kinds, owners = len(c.PLANT_TYPES), p + 1
        self.plant_row = [at["plant"] + kinds * x - 1 for x in self.spaces]  # values from 1
        self.owner_row = [at["plant_owner"] + owners * x for x in self.spaces]
        # Per observer, each colour's owner column: the seat counted from the observer;
        # neutral (-1) reads the last entry, the neutral column.
        self.owner_column = tuple(
            (*(self.relative(colour, me) for colour in range(p)), p) for me in range(p)
        )
        self.phase_at = {phase: at["phase"] + i for i, phase in enumerate(PHASES)}
        self.seat_order = tuple(tuple((me + r) % p for r in range(p)) for me in range(p))
        self.supply_of = itemgetter(*SUPPLY)
        # The divisors of the counts, seats, supply and capacity blocks, which lie one after
        # another, as `fill` scales them (the reserve and discards by 2 players' deal too).
        dealt = c.DOMINOES_PER_PLAYER[2]
        seat_scales = (SCORE_SCALE, c.CLOUD_SPACES, c.HAND_SIZE, dealt, dealt, len(self.tokens))
        self.scales = np.array(
            [c.MUSHROOMS, len(c.dominoes())]
            + list(seat_scales) * p
            + [PIECES_SCALE] * (2 * len(SUPPLY) * p),
            dtype=np.float64,
        )
        # An area's token front, closed and scored as one code, front * 4 + closed * 2 +
        # scored, and each code's four numbers; the last front is no token. Only the front:
        # the back of a token on the board is hidden.
        fronts = sorted({(t.main, t.minor) for t in self.tokens})
        self.front_of = {t.index: fronts.index((t.main, t.minor)) for t in self.tokens}
        self.no_token = len(fronts)
        self.area_rows = np.array(
            [
                (main / self.max_main, minor / self.max_minor, closed, scored)
                for main, minor in [*fronts, (0, 0)]
                for closed in (0, 1)
                for scored in (0, 1)
            ],
            dtype=np.float32,
        )
        # Mushrooms alone change the areas, and they go only on these spaces: the areas
        # there tell the layout apart.
        self.meadow = self.mushroom_spaces()
        self.mushrooms_of = itemgetter(*self.meadow) if self.meadow else None
        self.printed_brook = sum(1 << x for x in b.brook_cells())
        # each printed area's spaces and the spaces beside them, as a mask
        self.printed_areas_beside = [
            (cells, reduce(or_, (self.layout.neighbours[x] for x in cells)))
            for cells in b.areas().values()
        ]
        self.printed_areas = self._new_area_layout(b.area_of)
        self.area_layouts: dict[Any, _AreaLayout] = {}

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
                parts["token_backs"][0] = sum(seat.get("token_backs", ())) / TOKEN_BACKS_SCALE

    def fill_state(self, state: State, me: int, parts: Parts) -> None:
        """`fill` of the seat's view, read from the state: the public board and player
        boards, this seat's hand, discards and token backs, nothing else; the state is only
        read. The view's costly part, each area's totals and scoring as if now, is not in
        the observation, so it is not worked out."""
        s: RenatureState = state  # type: ignore[assignment]
        at, array, spaces = self.at, parts.array, len(self.spaces)
        # single numbers go through a memoryview: a fraction of a numpy item write's cost
        flat = memoryview(array)
        areas = self._area_layout(s.area_id)
        brook = self._brook(s)
        live = brook.live()
        array[at["terrain"] : at["animal"]] = areas.terrain

        # one C call packs the animals, several times faster than np.fromiter
        animal_at = np.frombuffer(self.animal_bytes.pack(*s.animal_at), dtype=np.int8)
        # each space's row of the animal block; "wrap" takes an empty space's -1 to the last
        # row, no animal (and, unlike "raise", writes straight into `out`)
        animal = array[at["animal"] : at["plant"]].reshape(spaces, -1)
        np.take(self.animal_rows, animal_at, axis=0, out=animal, mode="wrap")
        covered = areas.brook & ~brook.free  # a domino lies there
        irrelevant = covered & ~self._beside(live)
        if irrelevant:  # none early in a game
            array[at["irrelevant"] : at["irrelevant"] + spaces] = self._bits(irrelevant)

        plant_at, plant_row, owner_row = s.plant_at, self.plant_row, self.owner_row
        owner_column = self.owner_column[me]
        for x in compress(self.spaces, plant_at):
            value, colour = plant_at[x]  # type: ignore[misc]
            flat[plant_row[x] + value] = 1.0
            flat[owner_row[x] + owner_column[colour]] = 1.0
        for x, n in s.board_clouds.items():
            flat[at["clouds"] + x] = n / self.max_clouds
        for x in s.last_domino or ():
            flat[at["last_domino"] + x] = 1.0
        array[at["area_token"] : at["joker"]] = self._area_blocks(s, areas, live)

        flat[at["joker"] + s.joker] = 1.0
        flat[self.phase_at[s.phase]] = 1.0
        over = s.to_move is None
        if not over:
            flat[at["to_move"] + self.relative(s.to_move, me)] = 1.0  # type: ignore[arg-type]
        numbers = [s.mushrooms_left, len(s.box_dominoes)]
        supply: list[int] = []
        capacity: list[int] = []
        for owner in self.seat_order[me]:
            seat = s.seats[owner]
            score = seat.score if over else seat.score - seat.points.get("token_backs", 0)
            numbers += (
                score,
                seat.clouds,
                len(seat.hand),
                len(seat.reserve),
                len(seat.discarded),
                len(seat.collected),
            )
            supply += self.supply_of(seat.supply)
            capacity += self.supply_of(seat.capacity)
        # counts, seats, supply and capacity lie one after another: one write
        array[at["counts"] : at["hand"]] = (numbers + supply + capacity) / self.scales

        mine = s.seats[me]
        for d in mine.hand:
            flat[at["hand"] + d] = 1.0
        for d in mine.discarded:
            flat[at["discarded_dominoes"] + d] = 1.0
        backs = sum(self.tokens[t].back for t in mine.collected)
        flat[at["token_backs"]] = backs / TOKEN_BACKS_SCALE

    def _area_blocks(self, state: RenatureState, areas: _AreaLayout, live: int) -> np.ndarray:
        """The area token, state and size blocks, kept per what they show: which areas are
        open (live brook beside them), the front of each area's token, the areas scored.
        That key is read with C-level maps: every observation asks for it, and it seldom
        changes."""
        key = (
            tuple(map(bool, map(live.__and__, areas.closing))),
            tuple(map(self.front_of.get, map(state.tokens_on.get, areas.names))),
            tuple(state.scored),
        )
        found = areas.blocks.get(key)
        if found is None:
            if len(areas.blocks) >= BLOCKS_KEPT:
                areas.blocks.clear()
            is_open, fronts, scored = key
            codes = [
                (self.no_token if front is None else front) * 4 + (not open_) * 2 + (name in scored)
                for name, open_, front in zip(areas.names, is_open, fronts, strict=True)
            ]
            found = areas.empty.copy()
            found[areas.targets] = self.area_rows[np.array(codes)[areas.area_of_space]]
            areas.blocks[key] = found
        return found

    def _brook(self, state: RenatureState) -> Brook:
        """The free brook, as the view finds it: the state's own, or one worked out for
        this observation where the state has none yet (it is not kept: the state is only
        read)."""
        if state._brook is not None:
            return state._brook
        return Brook.build(self.layout, state.animal_at, state.domino_at, state.area_id)

    def _beside(self, mask: int) -> int:
        """The spaces orthogonally beside any space of `mask` (shifts, as `Brook.live`; a
        shift may run past the last space: the caller masks it off)."""
        west, east, width = self.layout.west, self.layout.east, self.layout.width
        return mask << 1 & ~west | mask >> 1 & ~east | mask << width | mask >> width

    def _bits(self, mask: int) -> np.ndarray:
        """A mask over the spaces as one 0/1 byte per space."""
        spaces = len(self.spaces)
        packed = np.frombuffer(mask.to_bytes((spaces + 7) // 8, "little"), dtype=np.uint8)
        return np.unpackbits(packed, count=spaces, bitorder="little")

    def _area_layout(self, area_id: Sequence[str | None]) -> _AreaLayout:
        if self.mushrooms_of is None:
            return self.printed_areas
        key = self.mushrooms_of(area_id)
        found = self.area_layouts.get(key)
        if found is None:
            if len(self.area_layouts) >= AREAS_KEPT:
                self.area_layouts.clear()
            found = self.area_layouts[key] = self._new_area_layout(area_id)
        return found

    def _new_area_layout(self, area_id: Sequence[str | None]) -> _AreaLayout:
        """The areas as mushrooms have joined them: the printed areas under the id each
        has now, plus the mushroom spaces, so the work is per area, not per space."""
        mushrooms = [x for x in self.meadow if area_id[x] is not None]
        areas: dict[str, list[int]] = {}
        beside: dict[str, int] = {}
        neighbours = self.layout.neighbours
        for cells, printed_beside in self.printed_areas_beside:
            area = area_id[cells[0]]
            assert area is not None
            areas.setdefault(area, []).extend(cells)
            beside[area] = beside.get(area, 0) | printed_beside
        brook = self.printed_brook
        for x in mushrooms:
            area = area_id[x]
            assert area is not None
            areas[area].append(x)
            beside[area] |= neighbours[x]
            brook &= ~(1 << x)
        terrain = self.terrain.copy()
        terrain[mushrooms, TERRAIN.index("mushroom")] = 1
        names = tuple(sorted(areas))
        spaces: list[int] = []
        area_of_space: list[int] = []
        sizes: list[float] = []
        for i, name in enumerate(names):
            cells = areas[name]
            spaces += cells
            area_of_space += [i] * len(cells)
            sizes += [len(cells) / self.max_area] * len(cells)
        at = self.at
        empty = np.zeros(at["joker"] - at["area_token"], dtype=np.float32)
        empty[at["area_size"] - at["area_token"] + np.array(spaces)] = sizes
        place = np.array(spaces, dtype=np.intp)[:, None] * 2 + (0, 1)
        state = at["area_state"] - at["area_token"]  # within the area blocks
        return _AreaLayout(
            terrain.ravel(),
            brook,
            names,
            tuple(beside[name] & brook for name in names),
            empty,
            np.array(area_of_space),
            np.concatenate([place, state + place], axis=1),
        )


ENCODER = RenatureEncoder
