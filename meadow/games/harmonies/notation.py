"""Harmonies' text notation, read and written both ways.

Grammar (one decision per line)::

    take <space>               take 3
    place <colour> <cell>      place blue c2
    card <animal>              card fennec_fox
    cube <card> <cell>         cube fennec_fox c2
    spirit <spirit>            spirit lion
    end
    swap <animal>              swap boar            (solo)

Cells are a column letter and a row number from 1 (`a1` is the top of the left column).
Colours: blue, gray, brown, green, yellow, red.

>>> parse("place blue c2")
PlaceToken(colour='blue', cell='c2')
>>> str(parse("CUBE Fennec_Fox C2"))
'cube fennec_fox c2'
>>> parse("place purple c2")
Traceback (most recent call last):
...
meadow.core.errors.NotationError: 'place purple c2': no colour 'purple'; colours are ...
"""

from __future__ import annotations

from meadow.core.actions import Action
from meadow.core.errors import NotationError
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

USAGE = (
    "expected 'take <space>', 'place <colour> <cell>', 'card <animal>', 'cube <card> <cell>', "
    "'spirit <spirit>', 'end' or 'swap <animal>'"
)


def parse(text: str) -> Action:
    """Read one action.

    Raises:
        NotationError: unknown verb, colour, cell or card, or wrong number of parts.
    """
    words = text.lower().split()
    if not words:
        raise NotationError(text, f"empty; {USAGE}")
    verb, args = words[0], words[1:]
    if verb == "take" and len(args) == 1:
        if not args[0].isdigit():
            raise NotationError(text, "take needs the number of a central board space")
        return TakeTokens(int(args[0]))
    if verb == "place" and len(args) == 2:
        return PlaceToken(_colour(text, args[0]), _cell(text, args[1]))
    if verb == "card" and len(args) == 1:
        return TakeCard(_card(text, args[0], spirit=False))
    if verb == "cube" and len(args) == 2:
        return PlaceCube(_card(text, args[0], spirit=None), _cell(text, args[1]))
    if verb == "spirit" and len(args) == 1:
        return ChooseSpirit(_card(text, args[0], spirit=True))
    if verb == "end" and not args:
        return EndTurn()
    if verb == "swap" and len(args) == 1:
        return SwapCard(_card(text, args[0], spirit=False))
    raise NotationError(text, USAGE)


def _colour(text: str, word: str) -> str:
    if word not in c.COLOURS:
        raise NotationError(text, f"no colour {word!r}; colours are {', '.join(c.COLOURS)}")
    return word


def _cell(text: str, word: str) -> str:
    if c.parse_cell_name(word) is None:
        raise NotationError(text, f"no space {word!r}; spaces look like a1, c2, e5")
    return word


def _card(text: str, word: str, spirit: bool | None) -> str:
    card_id = c.card_by_slug().get(word)
    if card_id is None:
        raise NotationError(text, f"no card {word!r}; cards are named like fennec_fox, lion")
    if spirit is not None and c.cards()[card_id].spirit != spirit:
        kind = "a Nature's Spirit" if spirit else "an animal card"
        raise NotationError(text, f"{word} is not {kind}")
    return word
