"""Analysis of finished games: each decision judged from the seat's information at that
moment (`judge`), a whole record at a time (`analyse`). The coach never peeks either: it
sees what `meadow.bots.observe` gives a bot, and its worlds are sampled from that.

This is the first part of issue 45: values in the game's own units (the expected lead in
points after the move). The win chance, the marks and the accuracy come with a mapping
fitted on self-play records; until then nothing here names a mark.
"""

from meadow.analysis.judge import Judgement, analyse, judge

__all__ = ["Judgement", "analyse", "judge"]
