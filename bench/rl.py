"""Agent steps per second through each research API, per game, beside PettingZoo's own
connect four.

    python -m bench.rl [--seconds 5] [--repeat 3] [--game topiary]

A *step* is one decision of a uniformly random masked agent, with everything an agent pays
for: the observation array and mask of the seat to move, and applying the chosen index.
PettingZoo: `env.last()` and `env.step()` for every seat. Gymnasium: `env.step()` for the
agent's seat, the other seat played by Meadow's random bot (its decisions are not counted as
steps, but their time is in). OpenSpiel: `legal_actions()`, `observation_tensor()` and
`apply_action()` of the player to move; "OpenSpiel, observer" reads the observation through
`make_observation(game).set_from()` instead, a numpy array, as OpenSpiel's Python algorithms
do. 2 players, default options; one process, one core.
With `--repeat N` each row is measured N times and the fastest run is kept, which filters
out other processes taking the core for a while (the machine is shared). Each row gives a
decision's cost in engine decisions twice: by a game's whole time, and by the time inside
the API's own calls alone (issue 46's measure: not the agent's pick).
Connect four (PettingZoo 1.27's `connect_four_v3`, which needs pygame) gets the same loop as
the Meadow PettingZoo rows.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from meadow import games

# steps, games, seconds, and the seconds inside the API's own calls (not the agent's pick)
Result = tuple[int, int, float, float]


def _pettingzoo_loop(make: Callable[[], object], seconds: float) -> Result:
    env = make()
    rng = np.random.default_rng(2026)
    steps = played = 0
    inside = 0.0
    clock = time.perf_counter
    started = clock()
    while clock() - started < seconds:
        at = clock()
        env.reset(seed=played)  # type: ignore[attr-defined]
        inside += clock() - at
        for _agent in env.agent_iter():  # type: ignore[attr-defined]
            at = clock()
            observation, _, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
            if terminated or truncated:
                env.step(None)  # type: ignore[attr-defined]
                inside += clock() - at
                continue
            inside += clock() - at
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            at = clock()
            env.step(action)  # type: ignore[attr-defined]
            inside += clock() - at
            steps += 1
        played += 1
    return steps, played, clock() - started, inside


def pettingzoo(game_id: str, seconds: float) -> Result:
    import meadow.rl

    return _pettingzoo_loop(lambda: meadow.rl.env(game_id, 2), seconds)


def connect_four(seconds: float) -> Result | None:
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:  # it draws with pygame, which Meadow does not need
        return None
    return _pettingzoo_loop(connect_four_v3.env, seconds)


def gymnasium(game_id: str, seconds: float) -> Result:
    from meadow.rl.gym import MeadowGymEnv

    env = MeadowGymEnv(game_id, players=2, opponents="random")
    rng = np.random.default_rng(2026)
    steps = played = 0
    inside = 0.0
    clock = time.perf_counter
    started = clock()
    while clock() - started < seconds:
        at = clock()
        observation, _ = env.reset(seed=played)
        inside += clock() - at
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            at = clock()
            observation, _, terminated, truncated, _ = env.step(action)
            inside += clock() - at
            done = terminated or truncated
            steps += 1
        played += 1
    return steps, played, clock() - started, inside


def openspiel(game_id: str, seconds: float, observer: bool = False) -> Result:
    """With `observer`, the observation is read as OpenSpiel's Python algorithms read it
    (`open_spiel.python.observation.make_observation`: the observer's numpy tensor), where
    `observation_tensor()` copies it into a new Python list of floats."""
    from open_spiel.python.observation import make_observation

    from meadow.rl import openspiel as spiel

    game = spiel.load(game_id, players=2)
    observation = make_observation(game) if observer else None
    rng = np.random.default_rng(2026)
    steps = played = 0
    inside = 0.0
    clock = time.perf_counter
    started = clock()
    while clock() - started < seconds:
        at = clock()
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.integers(spiel.DEAL_OUTCOMES)))
        inside += clock() - at
        while not state.is_terminal():
            at = clock()
            if observation is None:
                state.observation_tensor(state.current_player())
            else:
                observation.set_from(state, state.current_player())
            legal = state.legal_actions()
            inside += clock() - at
            action = int(rng.choice(legal))
            at = clock()
            state.apply_action(action)
            inside += clock() - at
            steps += 1
        played += 1
    return steps, played, clock() - started, inside


def engine(game_id: str, seconds: float) -> Result:
    """The engine alone (legal list and apply), for scale."""
    game = games.get(game_id)
    rng = np.random.default_rng(2026)
    steps = played = 0
    inside = 0.0
    clock = time.perf_counter
    started = clock()
    while clock() - started < seconds:
        at = clock()
        state = game.setup(2, seed=played)
        inside += clock() - at
        while not state.is_over:
            at = clock()
            legal = state.legal_actions()
            inside += clock() - at
            action = legal[int(rng.integers(len(legal)))]
            at = clock()
            state.apply(action)
            inside += clock() - at
            steps += 1
        played += 1
    return steps, played, clock() - started, inside


def best(measure: Callable[[], Result | None], repeat: int) -> Result | None:
    """The fastest of `repeat` runs (steps per second)."""
    runs = [measure() for _ in range(repeat)]
    found = [r for r in runs if r is not None]
    return max(found, key=lambda r: r[0] / r[2]) if found else None


def _row(name: str, api: str, result: Result, engine: Result) -> str:
    """A row; the last two columns are what one decision costs through the API, in engine
    decisions: the time of a game through the API over the engine's time for its
    decisions (Gymnasium's opponents' decisions are in both), and the same for the time
    inside the API's own calls only (not the agent's pick), over the engine's time inside
    `legal_actions()` and `apply()`."""
    steps, played, elapsed, inside = result
    rates = f"{steps / elapsed:,.0f} | {played / elapsed:,.1f} | {steps / played:.1f}"
    decisions = engine[0] / engine[1]  # a game's decisions
    cost = (elapsed / played) / (decisions * engine[2] / engine[0])
    cost_inside = (inside / played) / (decisions * engine[3] / engine[0])
    return f"| {name} | {api} | {rates} | {cost:.2f} | {cost_inside:.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per game and API")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row; the fastest counts")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args()
    seconds, repeat = args.seconds, args.repeat
    chosen = args.game or games.ids()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, best of {repeat} x {seconds:g} s per row, 2 players, "
        "default options"
    )
    print()
    print(
        "| game | API | agent steps/s | games/s | agent steps per game "
        "| cost of a decision, in engine decisions | the API's calls only |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    apis: list[tuple[str, Callable[[str, float], Result]]] = [
        ("engine only", engine),
        ("PettingZoo", pettingzoo),
        ("Gymnasium", gymnasium),
        ("OpenSpiel", openspiel),
        ("OpenSpiel, observer", partial(openspiel, observer=True)),
    ]
    for game_id in chosen:
        alone: Result | None = None
        for api, measure in apis:
            result = best(lambda m=measure, g=game_id: m(g, seconds), repeat)
            assert result is not None
            alone = alone or result  # the engine is measured first
            print(_row(game_id, api, result, alone), flush=True)
    four = best(lambda: connect_four(seconds), repeat)
    if four is None:
        print("| connect four | PettingZoo | (needs pygame) | | | | |")
    else:
        steps, played, elapsed, _ = four
        print(
            f"| connect four | PettingZoo | {steps / elapsed:,.0f} | {played / elapsed:,.1f} "
            f"| {steps / played:.1f} | | |"
        )


if __name__ == "__main__":
    main()
