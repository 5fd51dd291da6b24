"""Bots think in worker processes: a search holds the Python interpreter for its whole time
budget, so it must not share the process that answers people."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, NamedTuple

from meadow import games
from meadow.bots import Bot, observe
from meadow.bots.bounds import GRACE, Overran, hard_bound
from meadow.bots.levels import Bounded
from meadow.core.rng import Rng, new_seed
from meadow.rl.players import make_player


def thinkers(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        workers,
        mp_context=get_context("spawn"),
        initializer=leave_with,
        initargs=(os.getpid(),),
    )


class Thought(NamedTuple):
    """A worker's answer: the move, and whether the bot overran its bound (then the move
    is a random legal one, played in its place)."""

    move: str
    overran: bool = False


def think(
    game_id: str, state_json: dict[str, Any], seat: int, bot_name: str, limit: float
) -> Thought:
    """In a worker process: the bot's move, chosen from its seat's observation only, in at
    most `limit` seconds of search whatever budget its name asks for. A bot still thinking
    `GRACE` seconds past that is stopped (`hard_bound`) and a random legal move is played:
    a table never waits on a think that does not end."""
    state = games.get(game_id).state_from_json(state_json)
    observation = observe(state, seat)  # the bot's only window on the game
    bot = _kept(game_id, bot_name, seat)
    if isinstance(bot, Bounded):  # MCTS, the turn planner, a level (passed on to its bot)
        bot.time_limit = limit
    rng = Rng(new_seed())
    try:
        with hard_bound(limit + GRACE):
            return Thought(str(bot.choose(observation, rng)))
    except Overran:
        _KEPT.pop((game_id, bot_name, seat), None)  # a plan cut short is not to be followed
        return Thought(str(observation.legal[rng.below(len(observation.legal))]), overran=True)


# A worker keeps its bots between decisions: a bot that plans a whole turn (the turn planner)
# then plays the rest of its plan instead of planning again at each decision. A kept plan is
# only played in the position it was made for (the bot checks), so sharing a bot between
# tables in the same position costs nothing but a fresh plan.
_KEPT: OrderedDict[tuple[str, str, int], Bot] = OrderedDict()
KEPT_BOTS = 64


def _kept(game_id: str, bot_name: str, seat: int) -> Bot:
    key = (game_id, bot_name, seat)
    bot = _KEPT.pop(key, None) or make_player(bot_name)
    _KEPT[key] = bot
    while len(_KEPT) > KEPT_BOTS:
        _KEPT.popitem(last=False)
    return bot


def leave_with(server: int) -> None:
    """In a bot worker: exit once the server that started it is gone. A server killed
    outright (SIGKILL, out of memory) cannot stop its workers, and they would linger."""

    # Ctrl-C at a terminal reaches every process of the group: the server stops its workers
    # itself, and a worker interrupted mid-think would print a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-server", daemon=True).start()
