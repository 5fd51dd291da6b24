"""Mystic Vale's rule options. The seed (Yucata's rules page) gives the defaults."""

from __future__ import annotations

from typing import Literal

from meadow.core.options import GameOptions


class MysticValeOptions(GameOptions):
    vale_of_magic: bool = False
    """Shuffle the Vale of Magic expansion's advancements and vale cards into the level decks."""

    edition: Literal["yucata", "english", "german"] = "yucata"
    """Rules edition: 'yucata' (seed 003: 3 spirits for 1 VP, the level-2 vale end trigger),
    'english' (neither), 'german' (both, and Prep may stop early at a card with 2+ decay)."""

    auto_reveal: bool = False
    """Reveal the next card by itself after a push while fewer than 3 decay are showing
    (Yucata's checkbox). Off: every reveal is its own decision, to confirm."""
