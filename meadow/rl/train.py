"""`meadow train`: learn a game's evaluation and policy by self-play (PyTorch, CPU).

A run is rounds of: play self-play games (`meadow.rl.selfplay`, worker processes), fit the
two networks on every round's games so far (warm-started from the round before), write the
model file (`meadow.bots.learned`), then measure it: the policy as a player against the
opponents asked for, and the evaluation inside greedy (`greedy:eval=learned` against
`greedy`). Each round's games and a line of the learning curve are written as the round
ends, so a run cut short resumes at the round it was in; the same seed plays the same games.

PyTorch is needed only here (`pip install 'meadow-tabletop[train]'`); playing with a model needs
numpy alone.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import platform
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from meadow.bots.learned import FORMAT, Card, Model, model_path
from meadow.core import registry
from meadow.core.encoding import Encoding, encoding
from meadow.core.errors import MeadowError
from meadow.rl.selfplay import TARGETS, Games, Recipe, play

VALUE_HIDDEN = 64
POLICY_HIDDEN = 128
HELD_OUT = 0.1  # share of the newest round's games kept out of the fit, to measure it


@dataclass
class Plan:
    """What a training run does; written beside its model as `made`."""

    game: str
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    rounds: int = 4
    games: int = 100  # self-play games a round
    epochs: int = 6  # passes over the games so far, each round
    careless: float = 0.1  # share of the teacher's decisions played at random
    targets: str = "end"  # the value's: the final lead, or what a round played on added
    seed: int = 1
    jobs: int = 2
    against: tuple[str, ...] = ("random", "greedy")  # the policy's opponents in the curve
    curve_games: int = 20  # games per opponent and round (seats swapped)
    batch: int = 256
    learning_rate: float = 1e-3


@dataclass
class Point:
    """One round's line of the learning curve."""

    round: int
    games: int  # self-play games played so far
    seconds: float  # training time so far (self-play, fitting and measuring)
    value_error: float  # held-out root mean square error of the value's target, points
    hand_error: float  # the same for the hand-written evaluation alone
    policy_agreement: float  # held-out share of the teacher's choices the policy picks
    win_share: dict[str, float]  # the policy's share of points against each opponent
    evaluation_share: float  # greedy:eval=learned's share against greedy


@contextmanager
def _workers(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """Worker processes for games, spawned (a fork of a process holding PyTorch's threads
    can hang). A run stopped part way (Ctrl-C, an error) stops its workers too, rather than
    leaving them to play out the games still queued."""
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
    try:
        yield pool
    except BaseException:
        workers = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        raise
    pool.shutdown()


def _commit() -> str:
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).parent,
        )
        return found.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


class Trainer:
    """One run: the plan, where it writes, and the networks being fitted."""

    def __init__(self, plan: Plan, out: Path, advance: Callable[[str], None] | None = None) -> None:
        import torch

        self.torch = torch
        self.plan = plan
        self.out = out
        self.advance = advance or (lambda _what: None)
        game = registry.get(plan.game)
        self.coding: Encoding = encoding(game, plan.players, plan.options)
        self.options = self.coding.options.model_dump(mode="json")
        self.name = f"{plan.game}-{plan.players}p"
        self.data = out / "data" / self.name
        self.curve_path = out / f"{self.name}-curve.jsonl"
        torch.manual_seed(plan.seed)
        torch.set_num_threads(max(1, plan.jobs))
        size, actions = self.coding.observation_size, self.coding.size
        nn = torch.nn
        self.value = nn.Sequential(
            nn.Linear(size, VALUE_HIDDEN), nn.ReLU(), nn.Linear(VALUE_HIDDEN, 1)
        )
        self.policy = nn.Sequential(
            nn.Linear(size, POLICY_HIDDEN), nn.ReLU(), nn.Linear(POLICY_HIDDEN, actions)
        )
        self.scale = 0.0  # points per unit of the value's output, set from the first round
        self.shrink = 1.0  # the share of the value's correction kept (see _shrink)
        # the last fit's games, and which of their rows and examples it held out
        self._held: tuple[Games, np.ndarray, np.ndarray] | None = None
        self.seconds = 0.0

    # -- the run -------------------------------------------------------------------------

    def run(self) -> list[Point]:
        """Every round not yet played, then the curve so far."""
        done = self._resume()
        for number in range(len(done), self.plan.rounds):
            started = time.perf_counter()
            games = self._self_play(number)
            parts = [Games.load(self._round_file(k)) for k in range(number)] + [games]
            if not self.scale:
                self.scale = max(1.0, float(np.nanstd(games.targets)))
            self._fit(Games.join(parts), held_from=sum(len(p) for p in parts[:-1]))
            self._write_model(number)
            point = self._measure(number, started)
            done.append(point)
            with self.curve_path.open("a", encoding="utf-8") as curve:
                curve.write(json.dumps(asdict(point)) + "\n")
            self._write_model(number, done)
            self._keep_snapshot(number)
            self._plot(done)
        return done

    def _round_file(self, number: int) -> Path:
        return self.data / f"round-{number:02d}.npz"

    def _snapshot(self, number: int) -> Path:
        """The model as it stood after a round: the next round's teacher plays by it."""
        return self.data / f"after-round-{number:02d}.json"

    def _keep_snapshot(self, number: int) -> None:
        card = model_path(self.plan.game, self.plan.players, self.out)
        snapshot = self._snapshot(number)
        # the networks as trained, unshrunk, for a resumed run to go on from
        np.savez_compressed(self._trained(number), **self.weights(shrunk=False))
        for suffix in (".npz", ".json"):  # the card last: it is what says the pair is whole
            shutil.copyfile(card.with_suffix(suffix), snapshot.with_suffix(suffix))

    def _trained(self, number: int) -> Path:
        return self.data / f"after-round-{number:02d}-trained.npz"

    def _resume(self) -> list[Point]:
        """The curve of the rounds already played; the networks from the model file."""
        if not self.curve_path.is_file():
            return []
        points = [
            Point(**json.loads(line))
            for line in self.curve_path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        kept: list[Point] = []
        for point in points:  # a round counts once its games and its model are both kept
            if point.round != len(kept) or not self._snapshot(point.round).is_file():
                break
            if (
                not self._round_file(point.round).is_file()
                or not self._trained(point.round).is_file()
            ):
                break
            kept.append(point)
        if kept:
            snapshot = self._snapshot(kept[-1].round)
            model = Model.load(snapshot)
            model.check(self.coding)
            self.scale = model.card.scale
            self.shrink = float(model.card.made.get("shrink", 1.0))
            self._load_weights(self._trained(kept[-1].round))
            self.seconds = kept[-1].seconds
            card = model_path(self.plan.game, self.plan.players, self.out)
            for suffix in (".npz", ".json"):
                shutil.copyfile(snapshot.with_suffix(suffix), card.with_suffix(suffix))
        self.curve_path.write_text(
            "".join(json.dumps(asdict(point)) + "\n" for point in kept), encoding="utf-8"
        )
        return kept

    def _self_play(self, number: int) -> Games:
        """This round's games: the saved file if the round was played before it was cut."""
        path = self._round_file(number)
        if path.is_file():
            found = Games.load(path)
            played = int(found.game_of_row.max()) + 1 if len(found) else 0
            if played != self.plan.games:
                raise MeadowError(
                    f"{path} holds {played} games, this run plays {self.plan.games} a round: "
                    "go on with the --games it was started with, or train into another --out"
                )
            return found
        teacher = "greedy:eval=learned" if number else "greedy"
        recipes = [
            Recipe(
                self.plan.game,
                self.plan.players,
                self.options,
                teacher,
                self.plan.careless,
                seed=self.plan.seed * 1_000_003 + number * 10_007 + k,
                models=str(self.out) if number else None,
                targets=self.plan.targets,
            )
            for k in range(self.plan.games)
        ]
        played: list[Games] = []
        with _workers(self.plan.jobs) as pool:
            for games in pool.map(play, recipes):
                played.append(games)
                self.advance("game")
        joined = Games.join(played)
        joined.save(path)
        return joined

    # -- fitting ---------------------------------------------------------------------------

    def _fit(self, data: Games, held_from: int) -> None:
        """Both networks on every row but the held-out games of the newest round, which
        `_measure` and the shrink are worked out on."""
        torch = self.torch
        newest_games = np.unique(data.game_of_row[held_from:])
        cut = max(1, int(len(newest_games) * HELD_OUT))
        held_games = set(newest_games[-cut:].tolist())
        held_rows = np.isin(data.game_of_row, list(held_games))
        taught = np.isfinite(data.targets)  # rows played with targets "round" have none
        value_rows = np.flatnonzero(~held_rows & taught)
        policy_examples = np.flatnonzero(~held_rows[data.chosen_rows])
        observations = torch.from_numpy(data.observations.astype(np.float32))
        seen = self._value_inputs(observations).numpy()
        targets = torch.from_numpy(np.nan_to_num(data.targets) / self.scale)
        # a little weight decay: the targets are mostly chance, and a small network still fits it
        value_opt = torch.optim.AdamW(
            self.value.parameters(), lr=self.plan.learning_rate, weight_decay=0.01
        )
        policy_opt = torch.optim.Adam(self.policy.parameters(), lr=self.plan.learning_rate)
        generator = np.random.default_rng(self.plan.seed + len(data))
        for _ in range(self.plan.epochs):
            for batch in _batches(value_rows, self.plan.batch, generator):
                shown = self.coding.relabelled(seen[batch], generator)
                guess = self.value(torch.from_numpy(shown))[:, 0]
                loss = torch.nn.functional.smooth_l1_loss(guess, targets[torch.from_numpy(batch)])
                value_opt.zero_grad()
                loss.backward()
                value_opt.step()
            for batch in _batches(policy_examples, self.plan.batch, generator):
                logits = self.policy(observations[torch.from_numpy(data.chosen_rows[batch])])
                logits = logits + self._mask(data, batch)
                chosen = torch.from_numpy(data.chosen[batch].astype(np.int64))
                loss = torch.nn.functional.cross_entropy(logits, chosen)
                policy_opt.zero_grad()
                loss.backward()
                policy_opt.step()
            self.advance("epoch")
        held_values = np.flatnonzero(held_rows & taught)
        self._held = (data, held_values, np.flatnonzero(held_rows[data.chosen_rows]))
        self.shrink = self._shrink(data, held_values)

    def _shrink(self, data: Games, rows: np.ndarray) -> float:
        """The share of the correction that fits the held-out games best (least squares,
        from 0 to 1). A correction that learned only the noise of the games it saw (the
        final lead is the hand-written lead plus much chance) is kept small or dropped, so
        the learned evaluation is never further from the held-out results than the
        hand-written one."""
        if not len(rows):
            return 1.0
        with self.torch.no_grad():
            seen = self._value_inputs(
                self.torch.from_numpy(data.observations[rows].astype(np.float32))
            )
            found = self.value(seen)
        guess = found[:, 0].numpy().astype(np.float64)
        truth = data.targets[rows].astype(np.float64) / self.scale
        energy = float(guess @ guess)
        return 0.0 if energy == 0 else min(1.0, max(0.0, float(guess @ truth) / energy))

    def _value_inputs(self, observations: Any) -> Any:
        """The observations as the value reads them: the points already scored left out
        (`Encoder.points_blocks`), as the exported network leaves them out too."""
        found = observations.clone()
        found[:, self.coding.points_columns()] = 0.0
        return found

    def _mask(self, data: Games, examples: np.ndarray) -> Any:
        """A large negative number on every index not legal in each example."""
        torch = self.torch
        mask = torch.full((len(examples), self.coding.size), -1e9)
        for row, example in enumerate(examples):
            start = int(data.legal_ends[example - 1]) if example else 0
            legal = data.legal[start : int(data.legal_ends[example])]
            mask[row, torch.from_numpy(legal.astype(np.int64))] = 0.0
        return mask

    # -- the model file ----------------------------------------------------------------------

    def weights(self, shrunk: bool = True) -> dict[str, np.ndarray]:
        """The networks as numpy arrays; the value's output scaled by the shrink (the file's
        form), or as trained (the form training goes on from)."""
        found: dict[str, np.ndarray] = {}
        for name, network in (("value", self.value), ("policy", self.policy)):
            first, second = network[0], network[2]
            found[f"{name}.first"] = first.weight.detach().numpy().T.copy()
            found[f"{name}.first_bias"] = first.bias.detach().numpy().copy()
            found[f"{name}.second"] = second.weight.detach().numpy().T.copy()
            found[f"{name}.second_bias"] = second.bias.detach().numpy().copy()
        found["value.first"][self.coding.points_columns()] = 0.0  # see _value_inputs
        if shrunk:
            found["value.second"] *= self.shrink
            found["value.second_bias"] *= self.shrink
        return found

    def _load_weights(self, path: Path) -> None:
        torch = self.torch
        with np.load(path, allow_pickle=False) as found:
            for name, network in (("value", self.value), ("policy", self.policy)):
                first, second = network[0], network[2]
                with torch.no_grad():
                    first.weight.copy_(torch.from_numpy(found[f"{name}.first"].T.copy()))
                    first.bias.copy_(torch.from_numpy(found[f"{name}.first_bias"]))
                    second.weight.copy_(torch.from_numpy(found[f"{name}.second"].T.copy()))
                    second.bias.copy_(torch.from_numpy(found[f"{name}.second_bias"]))

    def _write_model(self, number: int, curve: list[Point] | None = None) -> None:
        left_out = ", ".join(self.coding.encoder.points_blocks) or "none"
        error_name, taught = TARGETS[self.plan.targets]
        made = {
            "command": self.command(),
            "plan": asdict(self.plan) | {"against": list(self.plan.against)},
            "rounds_played": number + 1,
            "self_play_games": (number + 1) * self.plan.games,
            "data": f"data/{self.name}/round-*.npz (self-play, teacher greedy then "
            "greedy:eval=learned)",
            "value": f"{self.coding.observation_size} -> {VALUE_HIDDEN} -> 1 (ReLU), the points "
            f"already scored left out ({left_out}): {taught}, in units of `scale` points",
            "policy": f"{self.coding.observation_size} -> {POLICY_HIDDEN} -> "
            f"{self.coding.size} (ReLU, softmax over the legal indices)",
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "commit": _commit(),
            "machine": f"{platform.machine()}, Python {platform.python_version()}",
            "seconds": round(self.seconds, 1),
            "shrink": round(self.shrink, 4),
        }
        if curve:
            last = curve[-1]
            made["summary"] = (
                f"{made['self_play_games']} self-play games, {last.seconds / 60:.0f} min; "
                f"{error_name} error {last.value_error:.1f} points "
                f"(hand-written {last.hand_error:.1f})"
            )
            made["curve"] = [asdict(point) for point in curve]
        card = Card(
            game=self.plan.game,
            players=self.plan.players,
            options=self.options,
            fingerprint=self.coding.fingerprint(),
            observation_size=self.coding.observation_size,
            actions=self.coding.size,
            scale=self.scale,
            made=made,
        )
        path = model_path(self.plan.game, self.plan.players, self.out)
        model = Model(card, self.weights())
        model.save(path, self.weights())

    def command(self) -> str:
        plan = self.plan
        parts = [f"meadow train {plan.game}", f"--players {plan.players}"]
        defaults = self.coding.game.options(plan.players, {}).model_dump(mode="json")
        parts += [
            f"--option {key}={json.dumps(value).strip(chr(34))}"
            for key, value in self.options.items()
            if defaults.get(key) != value
        ]
        parts += [
            f"--rounds {plan.rounds}",
            f"--games {plan.games}",
            f"--epochs {plan.epochs}",
            f"--seed {plan.seed}",
            f"--against {','.join(plan.against)}",
            f"--curve-games {plan.curve_games}",
        ]
        if plan.targets != "end":
            parts.append(f"--targets {plan.targets}")
        return " ".join(parts)

    # -- measuring --------------------------------------------------------------------------

    def _measure(self, number: int, started: float) -> Point:
        torch = self.torch
        assert self._held is not None, "measured before a fit"
        data, rows, examples = self._held
        with torch.no_grad():
            observations = torch.from_numpy(data.observations[rows].astype(np.float32))
            seen = self._value_inputs(observations)
            guess = self.value(seen)[:, 0].numpy() * self.scale * self.shrink
            policy_rows = torch.from_numpy(
                data.observations[data.chosen_rows[examples]].astype(np.float32)
            )
            logits = self.policy(policy_rows) + self._mask(data, examples)
            picked = logits.argmax(dim=1).numpy()
        truth = data.targets[rows]
        value_error = float(np.sqrt(np.mean((guess - truth) ** 2))) if len(rows) else math.nan
        hand_error = float(np.sqrt(np.mean(truth**2))) if len(rows) else math.nan
        agreement = float(np.mean(picked == data.chosen[examples])) if len(examples) else math.nan
        shares = {
            opponent: self._share("policy:learned", opponent, number)
            for opponent in self.plan.against
        }
        judged = self._share("greedy:eval=learned", "greedy", number)
        self.seconds += time.perf_counter() - started
        return Point(
            round=number,
            games=(number + 1) * self.plan.games,
            seconds=round(self.seconds, 1),
            value_error=round(value_error, 2),
            hand_error=round(hand_error, 2),
            policy_agreement=round(agreement, 3),
            win_share={k: round(v, 3) for k, v in shares.items()},
            evaluation_share=round(judged, 3),
        )

    def _share(self, spec: str, opponent: str, number: int) -> float:
        """`spec`'s share of the points (a win 1, a shared first place 1/2) against
        `opponent` over `curve_games` games, each deal played twice with seats swapped."""
        from meadow.rl.duel import Duel, duel

        deals = max(1, self.plan.curve_games // 2)
        duels = [
            Duel(
                self.plan.game,
                self.plan.players,
                self.options,
                (spec, opponent) if swap == 0 else (opponent, spec),
                seed=90_000 + number * 1_000 + k,
                models=str(self.out),
            )
            for k in range(deals)
            for swap in (0, 1)
        ]
        points = 0.0
        with _workers(self.plan.jobs) as pool:
            for found, match in zip(pool.map(duel, duels), duels, strict=True):
                points += found[match.specs.index(spec)]
                self.advance("duel")
        return points / len(duels)

    def _plot(self, curve: list[Point]) -> None:
        """The learning curve as a picture beside the model (docs/research.md shows it)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axis = plt.subplots(figsize=(6, 3.6), dpi=100)
        games = [p.games for p in curve]
        for opponent in self.plan.against:
            axis.plot(
                games,
                [p.win_share[opponent] for p in curve],
                marker="o",
                label=f"policy vs {opponent}",
            )
        axis.plot(
            games,
            [p.evaluation_share for p in curve],
            marker="s",
            linestyle="--",
            label="greedy with the learned evaluation vs greedy",
        )
        axis.set_ylim(-0.02, 1.02)
        axis.set_xlabel("self-play games")
        axis.set_ylabel("share of points")
        title = registry.get(self.plan.game).title
        axis.set_title(
            f"{title}, {self.plan.players} players: {curve[-1].seconds / 60:.0f} min of training"
        )
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7, loc="lower right")
        figure.tight_layout()
        figure.savefig(self.out / f"{self.name}-curve.png")
        plt.close(figure)


def _batches(rows: np.ndarray, size: int, generator: np.random.Generator) -> Iterator[np.ndarray]:
    shuffled = generator.permutation(rows)
    for start in range(0, len(shuffled), size):
        yield shuffled[start : start + size]


def check_plan(plan: Plan) -> None:
    """Refuse a plan that cannot run, with the setting and its range.

    Raises:
        MeadowError: a count out of range.
    """
    for name, least in (
        ("rounds", 1),
        ("games", 2),
        ("epochs", 1),
        ("jobs", 1),
        ("curve_games", 0),
    ):
        value = getattr(plan, name)
        if not isinstance(value, int) or value < least or value > 100_000:
            raise MeadowError(
                f"--{name.replace('_', '-')} {value!r}: a whole number from {least} to 100000"
            )
    if plan.targets not in TARGETS:
        raise MeadowError(f"--targets {plan.targets!r}: one of {', '.join(TARGETS)}")
    if not 0 <= plan.careless < 1:
        raise MeadowError(f"--careless {plan.careless!r}: a share from 0 up to (not including) 1")
    if plan.players != 2:
        raise MeadowError(
            f"--players {plan.players}: the learned evaluation weighs two seats' views against "
            "each other; training is for 2 players"
        )


__all__ = ["FORMAT", "Plan", "Point", "Trainer", "check_plan"]
