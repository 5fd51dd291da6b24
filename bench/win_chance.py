"""Fit the coach's win-chance mapping on self-play records, per game and player count.

    python -m bench.win_chance [--games 200] [--game topiary] [--write]

For each game and player count, `--games` games of `greedy:0.1` against itself (greedy, one
decision in ten at random, so that games differ and leads swing), on seeds 1, 2, ...; at every
second decision each seat's lead by the game's evaluation (its evaluation less the best other
seat's) and the game's progress (moves played / the game's moves) are kept with how that seat
finished (1 for a win, 1/k for a win shared by k, 0 otherwise). The logistic
`bias + lead * (early * (1 - progress) + late * progress)` is fitted by Newton's method on
three games in four and measured on the fourth (log loss against the base rate's, Brier
score, how often the favourite won, calibration by tenths); the mapping kept is then fitted on
all of them.
`--write` stores it in meadow/analysis/win_chance.json (numpy is needed here, not to play).
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np
import orjson

from meadow import games
from meadow.bots import make_bot, observe
from meadow.core.game import margins
from meadow.core.rng import Rng

OUT = Path(__file__).resolve().parents[1] / "meadow" / "analysis" / "win_chance.json"
BOT = "greedy:0.1"
EVERY = 2  # every second decision: neighbouring positions say nearly the same
FLOOR = 0.005  # the least weight of a point of lead, in log-odds (monotone in the lead)


def self_play(game_id: str, players: int, seed: int) -> list[tuple[float, float, float]]:
    """(lead, progress, outcome) for each seat at every `EVERY`th decision of one game."""
    state = games.get(game_id).setup(players, {}, seed)
    bots, rng = [make_bot(BOT) for _ in range(players)], Rng(seed)
    seen: list[tuple[int, list[float]]] = []
    moves = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if moves % EVERY == 0:
            values = state.game.evaluate(state)
            seen.append((moves, [margins(values, s) for s in range(players)]))
        state.apply(bots[seat].choose(observe(state, seat), rng))
        moves += 1
    winners = state.result().winners
    rows = []
    for number, leads in seen:
        for seat, lead in enumerate(leads):
            won = 1.0 / len(winners) if seat in winners else 0.0
            rows.append((lead, number / moves, won))
    return rows


def features(rows: np.ndarray) -> np.ndarray:
    lead, progress = rows[:, 0], rows[:, 1]
    return np.column_stack([np.ones(len(rows)), lead * (1 - progress), lead * progress])


def fit(rows: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton's method (a little ridge keeps it well posed), with the
    weight of a point early and late kept at FLOOR or above: a coefficient the free fit puts
    below is held there and the others fitted again."""
    x, y = features(rows), rows[:, 2]
    held: dict[int, float] = {}
    while True:
        w = _newton(x, y, held)
        low = [k for k in (1, 2) if k not in held and w[k] < FLOOR]
        if not low:
            return w
        held[low[0]] = FLOOR


def _newton(x: np.ndarray, y: np.ndarray, held: dict[int, float]) -> np.ndarray:
    free = [k for k in range(x.shape[1]) if k not in held]
    offset = sum(x[:, k] * value for k, value in held.items()) if held else 0.0
    w = np.zeros(len(free))
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x[:, free] @ w + offset)))
        gradient = x[:, free].T @ (p - y) + 1e-6 * w
        hessian = (x[:, free] * (p * (1 - p))[:, None]).T @ x[:, free] + 1e-6 * np.eye(len(free))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    whole = np.zeros(x.shape[1])
    whole[free] = w
    for k, value in held.items():
        whole[k] = value
    return whole


def measure(w: np.ndarray, rows: np.ndarray) -> dict[str, object]:
    y = rows[:, 2]
    p = np.clip(1 / (1 + np.exp(-(features(rows) @ w))), 1e-9, 1 - 1e-9)
    base = np.clip(y.mean(), 1e-9, 1 - 1e-9)
    decided = (y == 0) | (y == 1)
    calibration = []
    for low in np.arange(0, 1, 0.1):
        inside = (p >= low) & (p < low + 0.1)
        if inside.sum() >= 20:
            calibration.append(
                [
                    round(float(p[inside].mean()), 3),
                    round(float(y[inside].mean()), 3),
                    int(inside.sum()),
                ]
            )
    return {
        "log_loss": round(float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()), 4),
        "base_log_loss": round(float(-(y * np.log(base) + (1 - y) * np.log(1 - base)).mean()), 4),
        "brier": round(float(((p - y) ** 2).mean()), 4),
        "favourite_won": round(float(((p[decided] > 0.5) == (y[decided] == 1)).mean()), 3),
        "calibration": calibration,  # [mean chance said, share that won, positions] by tenths
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=games.ids(), action="append")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    chosen = args.game or games.ids()
    stored = orjson.loads(OUT.read_bytes()) if OUT.exists() else {"fits": {}}
    print(f"# {platform.processor() or platform.machine()}, python {platform.python_version()}")
    print(f"# python -m bench.win_chance --games {args.games}")
    print(
        "| game | players | positions | log loss (base) | Brier | favourite won "
        "| a point early → late | seconds |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for game_id in chosen:
        for players in games.get(game_id).player_counts:
            if players < 2:
                continue
            started = time.perf_counter()
            per_game = [self_play(game_id, players, seed) for seed in range(1, args.games + 1)]
            train = np.array([r for k, g in enumerate(per_game) if k % 4 for r in g])
            held = np.array([r for k, g in enumerate(per_game) if not k % 4 for r in g])
            figures = measure(fit(train), held)
            w = fit(np.array([r for g in per_game for r in g]))
            took = time.perf_counter() - started
            stored["fits"][f"{game_id}/{players}"] = {
                "bias": round(float(w[0]), 5),
                "early": round(float(w[1]), 5),
                "late": round(float(w[2]), 5),
                "games": args.games,
                "positions": len(train) + len(held),
                "held_out": figures,
            }
            print(
                f"| {game_id} | {players} | {len(train) + len(held)} | "
                f"{figures['log_loss']} ({figures['base_log_loss']}) | {figures['brier']} | "
                f"{figures['favourite_won']} | {w[1]:.3f} → {w[2]:.3f} | {took:.0f} |",
                flush=True,
            )
    stored["how"] = (
        f"python -m bench.win_chance --games {args.games} --write: self-play of {BOT} "
        f"against itself, every {EVERY}nd decision, each seat's lead by the evaluation and "
        "progress (moves played / the game's moves) against how it finished; a logistic in "
        "lead x (1 - progress) and lead x progress fitted by Newton's method, each weight "
        f"at least {FLOOR}; held_out: fitted on three games "
        "in four, measured on the fourth"
    )
    if args.write:
        OUT.write_bytes(orjson.dumps(stored, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))


if __name__ == "__main__":
    main()
