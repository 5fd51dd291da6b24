"""Topiary's text notation, read and written both ways.

Grammar (one decision per line)::

    visit <position>            visit O-N2        visit D-r0c1-SE
    take <cell>                 take r1c2
    skip
    place <tile> at <cell>      place swan_4 at r1c2
    keep <tile> <tile> <tile>   keep swan_1 whale_3 t_rex_5

>>> parse("visit O-N2")
PlaceVisitor(position='O-N2')
>>> str(parse("  place  swan_4 at r1c2 "))
'place swan_4 at r1c2'
>>> parse("take r9c9")
Traceback (most recent call last):
...
meadow.core.errors.NotationError: 'take r9c9': no cell 'r9c9'; cells are r0c0 .. r4c4
"""

from __future__ import annotations

from meadow.core.actions import Action
from meadow.core.errors import NotationError
from meadow.games.topiary import components as c
from meadow.games.topiary.actions import KeepTiles, PlaceTile, PlaceVisitor, SkipTake, TakeTile


def parse(text: str) -> Action:
    """Read one action.

    Raises:
        NotationError: unknown verb, position, cell or tile, or wrong number of parts.
    """
    words = text.split()
    if not words:
        raise NotationError(text, "empty; expected visit, take, skip, place or keep")
    verb, args = words[0].lower(), words[1:]
    if verb == "visit" and len(args) == 1:
        return PlaceVisitor(_position(text, args[0]))
    if verb == "take" and len(args) == 1:
        return TakeTile(_cell(text, args[0]))
    if verb == "skip" and not args:
        return SkipTake()
    if verb == "place" and len(args) == 3 and args[1].lower() == "at":
        return PlaceTile(_tile(text, args[0]), _cell(text, args[2]))
    if verb == "keep" and len(args) == 3:
        tiles = sorted((_tile(text, a) for a in args), key=c.tile_ids().__getitem__)
        if len(set(tiles)) != 3:
            raise NotationError(text, "keep names three different tiles")
        return KeepTiles((tiles[0], tiles[1], tiles[2]))
    raise NotationError(
        text,
        "expected 'visit <position>', 'take <cell>', 'skip', 'place <tile> at <cell>' "
        "or 'keep <tile> <tile> <tile>'",
    )


def _position(text: str, word: str) -> str:
    for position_id in c.position_index():
        if position_id.lower() == word.lower():
            return position_id
    raise NotationError(text, f"no position {word!r}; positions look like O-N2 or D-r0c1-SE")


def _cell(text: str, word: str) -> str:
    word = word.lower()
    if word not in c.cell_ids():
        raise NotationError(text, f"no cell {word!r}; cells are r0c0 .. r4c4")
    return word


def _tile(text: str, word: str) -> str:
    word = word.lower()
    if word not in c.tile_ids():
        shapes = ", ".join(s.id for s in c.shapes())
        raise NotationError(text, f"no tile {word!r}; tiles are <shape>_<1-5>, shapes: {shapes}")
    return word
