"""Golden games ("playthroughs"), like perft files: a header, one action per line, the result.

    # game: topiary
    # players: 2
    # options: {"take": "mandatory", ...}
    # seed: 42
    # source: random playout, written by `python -m meadow.core.playthrough`
    visit O-N2
    take r1c2
    ...
    = {"scores": [...], "breakdown": [...], ...}

Replaying the actions must give exactly the recorded result. Regenerate one only on purpose,
after a rule change that is meant to change it.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from meadow.core import registry
from meadow.core.actions import JSON
from meadow.core.errors import RecordError
from meadow.core.options import parse_option_pairs
from meadow.core.record import GameRecord


@dataclass
class Playthrough:
    record: GameRecord
    result: dict[str, JSON]
    source: str


def read(text: str) -> Playthrough:
    header: dict[str, str] = {}
    actions: list[str] = []
    result: dict[str, JSON] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            header[key.strip()] = value.strip()
        elif line.startswith("="):
            result = json.loads(line[1:])
        elif result is not None:
            raise RecordError(f"line {number}: an action after the result line")
        else:
            actions.append(line)
    missing = {"game", "players", "options", "seed"} - set(header)
    if missing or result is None:
        raise RecordError(f"playthrough lacks {sorted(missing) or 'the result line'}")
    record = GameRecord(
        game=header["game"],
        players=int(header["players"]),
        options=json.loads(header["options"]),
        seed=int(header["seed"]),
        actions=actions,
    )
    return Playthrough(record, result, header.get("source", ""))


def write(playthrough: Playthrough) -> str:
    record = playthrough.record
    lines = [
        f"# game: {record.game}",
        f"# players: {record.players}",
        f"# options: {json.dumps(record.options, sort_keys=True)}",
        f"# seed: {record.seed}",
        f"# source: {playthrough.source}",
        *record.actions,
        "= " + json.dumps(playthrough.result, sort_keys=True),
    ]
    return "\n".join(lines) + "\n"


def random_playthrough(game_id: str, players: int, seed: int, options: dict[str, str]) -> str:
    """A new golden game of random moves (the moves drawn from `seed` too)."""
    record, state = GameRecord.random(registry.get(game_id), players, options, seed)
    command = " ".join(["python -m meadow.core.playthrough", game_id, str(players), str(seed)])
    command += "".join(f" {k}={v}" for k, v in options.items())
    source = f"random moves, written by `{command}`"
    return write(Playthrough(record, state.result().to_json(), source))


if __name__ == "__main__":
    game_arg, players_arg, seed_arg, *pairs = sys.argv[1:]
    sys.stdout.write(
        random_playthrough(game_arg, int(players_arg), int(seed_arg), parse_option_pairs(pairs))
    )
