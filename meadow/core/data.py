"""Game data files, with drop-in replacements.

Every game loads its components from `meadow/games/<game>/data/`. A host replaces any of them
without a code change by putting a file of the same name in `$MEADOW_DATA/<game id>/`: that is
how printed values replace stand-ins (Renature's boards, Mystic Vale's cards).
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

ENV = "MEADOW_DATA"


def override(game_id: str, name: str) -> Path | None:
    """The drop-in file for `name`, if the host provides one."""
    root = os.environ.get(ENV)
    if root:
        path = Path(root) / game_id / name
        if path.is_file():
            return path
    return None


def load_json(package: str, game_id: str, name: str) -> Any:
    """A game's data file: the drop-in if there is one, else the packaged file."""
    path = override(game_id, name)
    if path is not None:
        return json.loads(path.read_text("utf-8"))
    text = resources.files(package).joinpath("data").joinpath(name).read_text("utf-8")
    return json.loads(text)
