"""A finished game analysed: every decision judged, placed on the win-chance scale and marked;
whole turns judged; each seat's accuracy and biggest swings, told in words.

`analyse_game` walks the record once, judging each decision with a choice from its seat's
observation (`judge`). A turn is a run of one seat's decisions (a Harmonies turn of tokens
taken and placed, a Mystic Vale planting); it is judged as a whole by the best value found at
its first decision against the value its last decision reached. The biggest swings are then
explained: in a few shared worlds, each of the two moves is played on (`play_round`) and the
seat's points by scoring category (`Game.points_now`) compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from meadow.analysis.judge import Judgement, Progress, generator, walk
from meadow.analysis.marks import Mark, Thresholds, accuracy, thresholds
from meadow.analysis.win_chance import WinChance, for_game
from meadow.bots import Observation
from meadow.bots.playing_on import play_round
from meadow.core.game import State
from meadow.core.record import GameRecord
from meadow.core.rng import Rng

SWINGS = 3  # the biggest losses told for each seat
EXPLAIN_WORLDS = 4  # worlds a swing's two moves are played on in, to say what differs


@dataclass(frozen=True)
class Decision:
    """A judgement in its game: the win chances of the two moves, the chance lost, the mark."""

    judgement: Judgement
    turn: int  # the turn it belongs to, counted from 0 in the game
    chance_played: float | None  # None in a solo game
    chance_best: float | None
    chance_loss: float
    mark: Mark

    def to_json(self) -> dict[str, Any]:
        return {
            **self.judgement.to_json(),
            "turn": self.turn,
            "chance_played": _rounded(self.chance_played),
            "chance_best": _rounded(self.chance_best),
            "chance_loss": round(self.chance_loss, 4),
            "mark": self.mark.value,
        }


@dataclass(frozen=True)
class Turn:
    """One seat's run of decisions, judged whole."""

    number: int
    seat: int
    first_move: int
    played: tuple[str, ...]  # every move of the turn, those without a choice too
    best_first: str  # the best first move found at its first decision
    loss: float  # points
    chance_loss: float
    mark: Mark

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.number,
            "seat": self.seat,
            "move": self.first_move,
            "played": list(self.played),
            "best_first": self.best_first,
            "loss": round(self.loss, 3),
            "chance_loss": round(self.chance_loss, 4),
            "mark": self.mark.value,
        }


@dataclass(frozen=True)
class Swing:
    """A big loss told in words: the categories where the better move ends ahead."""

    move: int
    seat: int
    words: str
    gains: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "seat": self.seat, "words": self.words, "gains": self.gains}


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int
    accuracy: float
    marks: dict[str, int]
    mean_loss: float  # points a decision
    swings: tuple[Swing, ...]
    worst_turn: int | None = None  # the turn (its number) that gave the most win chance away

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "accuracy": round(self.accuracy, 1),
            "marks": self.marks,
            "mean_loss": round(self.mean_loss, 3),
            "swings": [s.to_json() for s in self.swings],
            "worst_turn": self.worst_turn,
        }


@dataclass(frozen=True)
class Analysis:
    game: str
    players: int
    moves: int
    decisions: tuple[Decision, ...]
    turns: tuple[Turn, ...]
    seats: tuple[SeatSummary, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "moves": self.moves,
            "decisions": [d.to_json() for d in self.decisions],
            "turns": [t.to_json() for t in self.turns],
            "seats": [s.to_json() for s in self.seats],
        }


def analyse_game(
    record: GameRecord,
    seconds_per_move: float = math.inf,
    worlds: int = 32,
    progress: Progress | None = None,
) -> Analysis:
    """The whole analysis of a finished (or stopped) record; `progress` is told each move."""
    mapping = for_game(record.game, record.players)
    if mapping is None:  # solo: points on the scale of an even 2-player game of the title
        mapping = for_game(record.game, 2)
        assert mapping is not None
        solo = True
    else:
        solo = False
    cuts = thresholds(record.game)
    total = len(record.actions)
    decisions: list[Decision] = []
    turns: list[Turn] = []
    seen: dict[int, Observation] = {}
    run: list[tuple[int, int, str, Decision | None]] = []  # (number, seat, move, decision)
    for step in walk(record, seconds_per_move, worlds, progress):
        if run and run[-1][1] != step.seat:
            turns.append(_turn(len(turns), run, cuts, mapping, total))
            run = []
        decision = None
        if step.judgement is not None and step.observation is not None:
            seen[step.number] = step.observation
            progress_now = step.number / total
            decision = placed(step.judgement, len(turns), mapping, solo, cuts, progress_now)
            decisions.append(decision)
        run.append((step.number, step.seat, step.move, decision))
    if run:
        turns.append(_turn(len(turns), run, cuts, mapping, total))
    summaries = tuple(_summary(seat, decisions, turns, seen) for seat in range(record.players))
    return Analysis(record.game, record.players, total, tuple(decisions), tuple(turns), summaries)


def placed(
    judgement: Judgement,
    turn: int,
    mapping: WinChance,
    solo: bool,
    cuts: Thresholds,
    progress: float,
) -> Decision:
    """A judgement on the win-chance scale (a solo game's points on a 2-player scale), marked."""
    if solo:
        loss = _as_if_even(mapping, judgement.loss, progress)
        return Decision(judgement, turn, None, None, loss, cuts.mark(loss))
    played = mapping.chance(judgement.played_value, progress)
    best = mapping.chance(judgement.best_value, progress)
    loss = max(0.0, best - played)
    mark = Mark.BEST if judgement.played == judgement.best else cuts.mark(loss)
    return Decision(judgement, turn, played, best, loss, mark)


def _as_if_even(mapping: WinChance, points: float, progress: float) -> float:
    """A solo game's point loss as the win chance it would cost in an even 2-player game."""
    return 0.5 - mapping.chance(-points, progress) if points else 0.0


def _turn(
    number: int,
    run: list[tuple[int, int, str, Decision | None]],
    cuts: Thresholds,
    mapping: WinChance,
    total: int,
) -> Turn:
    judged = [d for _, _, _, d in run if d is not None]
    first_move, seat = run[0][0], run[0][1]
    played = tuple(text for _, _, text, _ in run)
    if not judged:
        return Turn(number, seat, first_move, played, played[0], 0.0, 0.0, Mark.BEST)
    first, last = judged[0].judgement, judged[-1].judgement
    loss = max(0.0, first.best_value - last.played_value)
    if judged[0].chance_best is None:  # solo
        chance_loss = _as_if_even(mapping, loss, first.number / total)
    else:
        reached = mapping.chance(last.played_value, last.number / total)
        chance_loss = max(0.0, judged[0].chance_best - reached)
    all_best = all(d.mark is Mark.BEST for d in judged)
    mark = Mark.BEST if all_best else cuts.mark(chance_loss)
    return Turn(number, seat, first_move, played, first.best, loss, chance_loss, mark)


def _summary(
    seat: int, decisions: list[Decision], turns: list[Turn], seen: dict[int, Observation]
) -> SeatSummary:
    own = [d for d in decisions if d.judgement.seat == seat]
    marks = {mark.value: sum(1 for d in own if d.mark is mark) for mark in Mark}
    if not own:
        return SeatSummary(seat, 0, 100.0, marks, 0.0, ())
    own_turns = [t for t in turns if t.seat == seat and t.chance_loss > 0]
    worst = max(own_turns, key=lambda t: t.chance_loss).number if own_turns else None
    biggest = sorted(own, key=lambda d: (-d.chance_loss, -d.judgement.loss))[:SWINGS]
    swings = tuple(explain(seen[d.judgement.number], d) for d in biggest if d.mark is not Mark.BEST)
    return SeatSummary(
        seat=seat,
        decisions=len(own),
        accuracy=sum(accuracy(d.chance_loss) for d in own) / len(own),
        marks=marks,
        mean_loss=sum(d.judgement.loss for d in own) / len(own),
        swings=swings,
        worst_turn=worst,
    )


def explain(observation: Observation, decision: Decision) -> Swing:
    """The decision told in words, with the scoring categories in which the best move ends
    ahead of the move played after playing on, averaged over a few shared worlds."""
    judgement = decision.judgement
    gains = category_gains(observation, judgement.played, judgement.best, judgement.number)
    words = (
        f"move {judgement.number}: played {judgement.played}; {judgement.best} kept "
        f"{judgement.loss:.1f} points more"
    )
    if decision.chance_played is not None and decision.chance_best is not None:
        words += f" (win chance {decision.chance_best:.0%} instead of {decision.chance_played:.0%})"
    return Swing(judgement.number, judgement.seat, words + gained_by(gains), gains)


def gained_by(gains: dict[str, float]) -> str:
    """ ", by water +2.0, animals +1.5": the categories a move leads in by half a point or more."""
    ahead = [f"{name} +{gain:.1f}" for name, gain in gains.items() if gain >= 0.5]
    return ", by " + ", ".join(ahead) if ahead else ""


def category_gains(
    observation: Observation, played: str, best: str, number: int
) -> dict[str, float]:
    """For each scoring category, how many more points the seat holds after playing on from
    `best` than from `played`, the mean over a few worlds the two share, largest first."""
    seat = observation.seat
    rng = generator(observation, number)
    totals: dict[str, float] = {}
    for _ in range(EXPLAIN_WORLDS):
        seed = rng.next_u64()
        after = [_played_on(observation, text, seed) for text in (best, played)]
        points = [
            after[0].game.points_now(after[0], seat),
            after[1].game.points_now(after[1], seat),
        ]
        for name in points[0].keys() | points[1].keys():
            totals[name] = totals.get(name, 0.0) + points[0].get(name, 0) - points[1].get(name, 0)
    gains = {name: round(total / EXPLAIN_WORLDS, 2) for name, total in totals.items()}
    return dict(sorted(gains.items(), key=lambda item: -item[1]))


def _played_on(observation: Observation, text: str, seed: int) -> State:
    world = observation.world(Rng(seed))
    world.apply(world.parse_action(text))
    return play_round(world, observation.seat)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
