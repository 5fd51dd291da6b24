"""Mystic Vale's text notation, read and written both ways.

Grammar (one decision per line)::

    push | pass | reveal | decline | spoil | exchange | end harvest | stop prep
    choose c<card>                 choose c7
    prevent <ability> [c<card>]    prevent druide_des_friedens c4    prevent aetherbaum c9
    harvest c<card> <position>     harvest c5 top
    buy <type>@<position> [onto c<card>]    buy aurora@top    buy fertile_soil@middle onto c3
    vale <vale>                    vale azurblauer_see
    sleeve <type>@<position> c<card> [old-band]

>>> parse("buy aurora@top onto c3")
BuyAdvancement(copy='aurora@top', onto=3)
>>> str(parse("SLEEVE fertile_soil@middle C12"))
'sleeve fertile_soil@middle c12'
"""

from __future__ import annotations

from meadow.core.actions import Action
from meadow.core.errors import NotationError
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale.actions import (
    BuyAdvancement,
    BuyVale,
    Choose,
    Decline,
    EndHarvest,
    Exchange,
    Pass,
    Prevent,
    Push,
    Reveal,
    Sleeve,
    Spoil,
    StopPrep,
    UseAbility,
)

SIMPLE: dict[str, Action] = {
    "push": Push(),
    "pass": Pass(),
    "reveal": Reveal(),
    "decline": Decline(),
    "spoil": Spoil(),
    "exchange": Exchange(),
    "end harvest": EndHarvest(),
    "stop prep": StopPrep(),
}
USAGE = (
    "expected push, pass, reveal, decline, spoil, exchange, 'end harvest', 'stop prep', "
    "'choose c<n>', 'prevent <ability> [c<n>]', 'harvest c<n> <position>', "
    "'buy <type>@<position> [onto c<n>]', 'vale <vale>' or 'sleeve <type>@<position> c<n>'"
)


def parse(text: str) -> Action:
    """Read one action.

    Raises:
        NotationError: unknown verb, card, advancement, vale or position.
    """
    words = text.lower().split()
    joined = " ".join(words)
    if joined in SIMPLE:
        return SIMPLE[joined]
    if not words:
        raise NotationError(text, f"empty; {USAGE}")
    verb, args = words[0], words[1:]
    if verb == "choose" and len(args) == 1:
        return Choose(_card(text, args[0]))
    if verb == "prevent" and len(args) in (1, 2):
        return Prevent(args[0], _card(text, args[1]) if len(args) == 2 else 0)
    if verb == "harvest" and len(args) == 2:
        if args[1] not in c.POSITIONS:
            raise NotationError(text, f"no position {args[1]!r}; positions are top, middle, bottom")
        return UseAbility(_card(text, args[0]), args[1])
    if verb == "buy" and len(args) in (1, 3):
        onto = 0
        if len(args) == 3:
            if args[1] != "onto":
                raise NotationError(text, "write 'buy <type>@<position> onto c<n>'")
            onto = _card(text, args[2])
        return BuyAdvancement(_copy(text, args[0]), onto)
    if verb == "vale" and len(args) == 1:
        if args[0] not in c.vales():
            raise NotationError(text, f"no vale card {args[0]!r}")
        return BuyVale(args[0])
    if verb == "sleeve" and len(args) in (2, 3):
        old = len(args) == 3
        if old and args[2] != "old-band":
            raise NotationError(text, "the only word after the card is 'old-band'")
        return Sleeve(_copy(text, args[0]), _card(text, args[1]), old)
    raise NotationError(text, USAGE)


def _card(text: str, word: str) -> int:
    if word.startswith("c") and word[1:].isdigit() and 1 <= int(word[1:]) <= 20:
        return int(word[1:])
    raise NotationError(text, f"no card {word!r}; your cards are c1 .. c20")


def _copy(text: str, word: str) -> str:
    type_id, _, position = word.partition("@")
    if type_id not in c.advancements() or position not in c.POSITIONS:
        raise NotationError(text, f"no advancement {word!r}; write <type>@<top|middle|bottom>")
    return word
