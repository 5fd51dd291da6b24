"""Renature's text notation, read and written both ways.

Grammar (one decision per line)::

    <domino> <cell>-<cell>     D17 c4-c5      (its first animal on c4, its second on c5)
    discard <domino>           discard D17
    mushroom <cell>            mushroom f7    (Valley)
    no mushroom
    plant [neutral] <plant> <cell>    plant oak d5    plant neutral turf d5
    no plant
    joker <animal>             joker owl
    return <cell>              return d5
    end
    extra turn

Cells: column letter and row number from 1 at the top (`a1` .. `o15`).

>>> parse("D17 c4-c5")
PlaceDomino(domino='D17', first='c4', second='c5')
>>> str(parse("plant Neutral OAK d5"))
'plant neutral oak d5'
"""

from __future__ import annotations

import re

from meadow.core.actions import Action
from meadow.core.errors import NotationError
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

_CELL = re.compile(r"^[a-z]\d{1,2}$")
_DOMINO = re.compile(r"^(d\d\d)\s+([a-z]\d{1,2})-([a-z]\d{1,2})$")
USAGE = (
    "expected '<domino> <cell>-<cell>', 'discard <domino>', 'mushroom <cell>', 'no mushroom', "
    "'plant [neutral] <plant> <cell>', 'no plant', 'joker <animal>', 'return <cell>', 'end' "
    "or 'extra turn'"
)


def parse(text: str) -> Action:
    """Read one action (cells are checked against the board by the rules, not here).

    Raises:
        NotationError: unknown verb, domino, plant or animal, or a malformed cell.
    """
    words = text.lower().split()
    joined = " ".join(words)
    if not words:
        raise NotationError(text, f"empty; {USAGE}")
    domino = _DOMINO.match(joined)
    if domino:
        return PlaceDomino(_domino(text, domino.group(1)), domino.group(2), domino.group(3))
    simple = {
        "no mushroom": SkipMushroom(),
        "no plant": SkipPlant(),
        "end": EndTurn(),
        "extra turn": ExtraTurn(),
    }
    if joined in simple:
        return simple[joined]
    verb, args = words[0], words[1:]
    if verb == "discard" and len(args) == 1:
        return DiscardDomino(_domino(text, args[0]))
    if verb == "mushroom" and len(args) == 1:
        return PlaceMushroom(_cell(text, args[0]))
    if verb == "return" and len(args) == 1:
        return ReturnPlant(_cell(text, args[0]))
    if verb == "joker" and len(args) == 1:
        if args[0] not in c.animal_index():
            names = ", ".join(a.name for a in c.animals())
            raise NotationError(text, f"no animal {args[0]!r}; animals are {names}")
        return ChangeJoker(args[0])
    if verb == "plant" and len(args) in (2, 3):
        neutral = len(args) == 3
        if neutral and args[0] != "neutral":
            raise NotationError(text, "write 'plant neutral <plant> <cell>' for a neutral plant")
        plant = args[-2]
        if plant not in c.PLANT_TYPES:
            raise NotationError(text, f"no plant {plant!r}; plants are {', '.join(c.PLANT_TYPES)}")
        return PlacePlant(plant, neutral, _cell(text, args[-1]))
    raise NotationError(text, USAGE)


def _domino(text: str, word: str) -> str:
    name = word.upper()
    if name not in c.domino_index():
        raise NotationError(text, f"no domino {word!r}; dominoes are D00 .. D54")
    return name


def _cell(text: str, word: str) -> str:
    if not _CELL.match(word):
        raise NotationError(text, f"no space {word!r}; spaces look like c4 or o15")
    return word
