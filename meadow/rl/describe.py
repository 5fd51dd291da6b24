"""The action space and observation layout of each game as Markdown, for docs/research.md.

    python -m meadow.rl.describe            # every game, 2 players, default options

A test checks that docs/research.md holds exactly these tables, so the documentation cannot
drift from the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow import games
from meadow.rl.encoding import Encoding, encoding


def action_table(coding: Encoding) -> str:
    """Consecutive runs of one kind of action: first index, count, an example."""
    rows = ["| indices | action | count | first |", "|---|---|---:|---|"]
    start = 0
    actions = coding.actions
    for i in range(1, len(actions) + 1):
        if i == len(actions) or actions[i].kind != actions[start].kind:
            rows.append(
                f"| {start}-{i - 1} | `{actions[start].kind}` | {i - start} | `{actions[start]}` |"
            )
            start = i
    return "\n".join(rows)


def layout_table(coding: Encoding) -> str:
    rows = ["| offset | block | shape | meaning |", "|---:|---|---|---|"]
    for block in coding.layout():
        shape = " x ".join(str(n) for n in block["shape"])
        rows.append(f"| {block['offset']} | `{block['name']}` | {shape} | {block['doc']} |")
    return "\n".join(rows)


def section(game_id: str, players: int = 2, options: Mapping[str, Any] | None = None) -> str:
    coding = encoding(game_id, players, options)
    return "\n".join(
        [
            f"### {coding.game.title}",
            "",
            f"{players} players, default options: {coding.size:,} actions, "
            f"observation of {coding.observation_size:,} numbers.",
            "",
            action_table(coding),
            "",
            layout_table(coding),
        ]
    )


def main() -> None:
    print("\n\n".join(section(game_id) for game_id in games.ids()))


if __name__ == "__main__":
    main()
