"""Game options: a pydantic model per game, so every option is typed, defaulted and described.

The model's JSON schema is what a lobby form is built from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from meadow.core.errors import OptionError


class GameOptions(BaseModel):
    """Base of every game's options. Unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


def parse_options(
    model: type[GameOptions], game_id: str, raw: Mapping[str, Any] | GameOptions | None
) -> GameOptions:
    """Validate `raw` against `model`, turning pydantic's report into one readable sentence.

    Raises:
        OptionError: an option the game does not have, or a value it does not accept.
    """
    if isinstance(raw, model):
        return raw
    if isinstance(raw, GameOptions):
        raw = raw.model_dump()
    data = dict(raw or {})
    known = sorted(model.model_fields)
    unknown = sorted(k for k in data if k not in model.model_fields)
    if unknown:
        raise OptionError(
            f"{game_id} has no option {', '.join(repr(k) for k in unknown)}; "
            f"its options are: {', '.join(known) or 'none'}"
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = ".".join(str(p) for p in err["loc"]) or "options"
            problems.append(f"option {name!r} = {err.get('input')!r}: {err['msg']}")
        raise OptionError(f"{game_id}: " + "; ".join(problems)) from None


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Read `key=value` strings from a command line.

    >>> parse_option_pairs(["take=optional", "draft=true"])
    {'take': 'optional', 'draft': 'true'}
    """
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} is not of the form key=value")
        options[key.strip()] = value.strip()
    return options


def describe_options(model: type[GameOptions]) -> list[dict[str, Any]]:
    """Name, type, default, allowed values and description of each option (JSON-safe)."""
    schema = model.model_json_schema()
    described = []
    for name, prop in schema.get("properties", {}).items():
        described.append(
            {
                "name": name,
                "type": prop.get("type", "string"),
                "default": prop.get("default"),
                "choices": prop.get("enum"),
                "description": " ".join(prop.get("description", "").split()),
            }
        )
    return described
