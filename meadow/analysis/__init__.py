"""Analysis of finished games: each decision judged from the seat's information at that
moment (`judge`), placed on a win-chance scale fitted on self-play (`win_chance`), marked
(`marks`), and a whole game told as a report (`analyse_game`): turns, accuracy, the biggest
swings in words; and a hint on request (`suggest`). The coach never peeks either: it sees
what `meadow.bots.observe` gives a bot, and its worlds are sampled from that.
"""

from meadow.analysis.hint import Hint, suggest
from meadow.analysis.judge import Judgement, analyse, judge
from meadow.analysis.marks import Mark, accuracy
from meadow.analysis.report import Analysis, Decision, SeatSummary, Swing, Turn, analyse_game
from meadow.analysis.win_chance import WinChance, for_game

__all__ = [
    "Analysis",
    "Decision",
    "Hint",
    "Judgement",
    "Mark",
    "SeatSummary",
    "Swing",
    "Turn",
    "WinChance",
    "accuracy",
    "analyse",
    "analyse_game",
    "for_game",
    "judge",
    "suggest",
]
