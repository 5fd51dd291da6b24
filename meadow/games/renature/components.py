"""Renature's components, loaded once from `data/` and checked on load.

Several are stand-ins (the printed values are not public); each data file says which, with
`"standin": true`. A host drops in real values without a code change: a file of the same name
in `$MEADOW_GAME_DATA/renature/` replaces the packaged one (see meadow/core/data.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from meadow.core import data
from meadow.games.renature import board as board_module

PLANT_TYPES = ("turf", "bush", "pine", "oak")
PLANT_VALUE = {"turf": 1, "bush": 2, "pine": 3, "oak": 4}
NEUTRAL = -1  # the colour of neutral plants; player colours are seat numbers
HAND_SIZE = 3
CLOUD_SPACES = 6
JOKER_COST = 2
EXTRA_TURN_COST = 3
MUSHROOMS = 8
DOMINOES_PER_PLAYER = {2: 26, 3: 18, 4: 13}
START_SCORES = (4, 3, 2, 1)
BOARD_FILES = {
    "base": "board_base.json",
    "valley": "board_valley.json",
    "valley_variant": "board_valley_back.json",
}


def _load(name: str) -> Any:
    return data.load_json(__package__, "renature", name)


@dataclass(frozen=True, slots=True)
class Animal:
    index: int
    id: str  # A0..A9
    name: str  # english, as a slug
    name_de: str
    standin: bool


@dataclass(frozen=True, slots=True)
class Domino:
    index: int
    id: str  # D00..D54
    animals: tuple[int, int]

    @property
    def double(self) -> bool:
        return self.animals[0] == self.animals[1]


@dataclass(frozen=True, slots=True)
class AreaToken:
    index: int
    id: str
    main: int
    minor: int
    back: int


@dataclass(frozen=True, slots=True)
class PlayerBoard:
    """Plant spaces per (type, own/neutral) and cloud spaces of one player's board."""

    own: dict[str, int]
    neutral: dict[str, int]
    cloud_spaces: int


@cache
@data.read_from("renature", "animals.json")
def animals() -> tuple[Animal, ...]:
    data = _load("animals.json")
    found = tuple(
        Animal(i, s["id"], s["name_en"].replace(" ", "_").lower(), s["name_de"], s["standin"])
        for i, s in enumerate(data["species"])
    )
    if len(found) != 10 or len({a.name for a in found}) != 10:
        raise ValueError("animals.json: 10 species with distinct names expected")
    return found


@cache
def animal_index() -> dict[str, int]:
    return {a.name: a.index for a in animals()}


@cache
def dominoes() -> tuple[Domino, ...]:
    """Every pair of the 10 animals once, doubles included: 55 (research notes dominoes.csv)."""
    found = []
    for a in range(10):
        for b in range(a, 10):
            found.append(Domino(len(found), f"D{len(found):02d}", (a, b)))
    return tuple(found)


@cache
def domino_index() -> dict[str, int]:
    return {d.id: d.index for d in dominoes()}


@cache
@data.read_from("renature", "area_tokens.json")
def area_tokens() -> tuple[AreaToken, ...]:
    data = _load("area_tokens.json")["tokens"]
    found = tuple(
        AreaToken(i, t["id"], t["main"], t["minor"], t["back"]) for i, t in enumerate(data)
    )
    if len(found) != 21:
        raise ValueError("area_tokens.json: 21 tokens expected")
    return found


@cache
def token_index() -> dict[str, int]:
    return {t.id: t.index for t in area_tokens()}


@cache
@data.read_from("renature", "plants.json")
def plant_data() -> dict[str, Any]:
    data = _load("plants.json")
    for kind in ("per_player_colour", "neutral"):
        if set(data["pieces"][kind]) != set(PLANT_TYPES):
            raise ValueError(f"plants.json: pieces.{kind} needs turf, bush, pine and oak")
    own = sum(data["pieces"]["per_player_colour"].values())
    if 4 * own + sum(data["pieces"]["neutral"].values()) != 74:
        raise ValueError("plants.json: 4 x one colour's pieces + neutral pieces must be 74")
    return data


@data.read_from("renature", "plants.json")
def player_board(players: int) -> PlayerBoard:
    """The plant spaces a player fills at set-up (4 players leave the excluded ones empty)."""
    boards = plant_data()["boards"]
    spec = boards["paraglider_pair"] if players == 2 else boards["balloon"]
    neutral = dict(spec["neutral"])
    if players == 4:
        for plant, n in spec.get("neutral_excluded_with_4_players", {}).items():
            neutral[plant] -= n
    return PlayerBoard(dict(spec["own"]), neutral, spec["cloud_spaces"])


@cache
def board(kind: str) -> board_module.Board:
    name = BOARD_FILES[kind]
    path = data.override("renature", name)
    return board_module.from_data(_load(name), str(path or name))


@cache  # every view names them: the data files are read once
def standins() -> tuple[str, ...]:
    """What in the current data is a stand-in, for views and documentation."""
    found = []
    if any(a.standin for a in animals()):
        found.append("animal names " + ", ".join(a.name for a in animals() if a.standin))
    if _load("area_tokens.json").get("standin"):
        found.append("area tokens")
    if plant_data().get("standin"):
        found.append("plant counts and player boards")
    for kind in BOARD_FILES:
        if board(kind).standin:
            found.append(f"{kind} board map")
    return tuple(found)
