"""A policy trained through the research APIs, seated at a real table.

A policy is any callable `policy(observation, action_mask) -> index`: it gets the encoding's
observation array of its seat's view and the mask of legal indices (`meadow.rl.encoding`),
exactly what PettingZoo, Gymnasium and OpenSpiel gave it in training, and returns an action
index. Like every bot it sees an `Observation`, never the game state.

Bot specs (`meadow.rl.players.make_player`, `meadow tournament --bots`, a server seat):

- `policy:learned`: the policy network of the game's shipped model (`meadow train`);
- `policy:NAME`: a policy the host named, in `MEADOW_POLICIES` (`name=target` pairs joined
  by `;`) or with `register_policy`;
- `policy:TARGET`, TARGET being `package.module:attribute` or `path/to/file.py:attribute`:
  imported directly, but only where the caller trusts its input (`meadow tournament` and
  `meadow play` do; the server does not, since anyone may name a seat's bot there, and
  importing a module runs its code).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from meadow.bots.base import Bot, Observation
from meadow.core.actions import Action
from meadow.core.errors import MeadowError
from meadow.core.rng import Rng
from meadow.rl.encoding import encoding

Policy = Callable[[np.ndarray, np.ndarray], Any]
ENV = "MEADOW_POLICIES"

_registered: dict[str, Policy] = {}
_loaded_files: dict[Path, Any] = {}


class PolicyBot(Bot):
    """Plays the index a policy picks from its seat's observation array and action mask."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        if not callable(policy):
            raise MeadowError(f"bot {name!r}: the policy is not callable")
        self.policy = policy
        self.name = name

    def choose(self, observation: Observation, rng: Rng) -> Action:
        view = observation.view
        coding = encoding(observation.game, view["players"], view["options"])
        mask = coding.mask(observation.legal)
        index = self.policy(coding.observation(view), mask)
        if isinstance(index, np.ndarray) and index.size == 1:
            index = index.item()
        try:
            action = coding.action(index)
        except MeadowError as exc:
            raise MeadowError(f"bot {self.name}: {exc}") from None
        if action not in observation.legal:
            raise MeadowError(
                f"bot {self.name} chose index {index} ({action}), which is not legal now; "
                f"the action mask allowed {int(mask.sum())} indices"
            )
        return action


class LearnedPolicyBot(Bot):
    """`policy:learned`: the policy network of the game's model (`meadow train`), the most
    likely legal index for its seat's observation array. Like any policy it sees nothing
    but that array and the mask."""

    name = "policy:learned"

    def choose(self, observation: Observation, rng: Rng) -> Action:
        from meadow.bots.learned import Model, model_for

        view = observation.view
        coding = encoding(observation.game, view["players"], view["options"])
        found = model_for(coding)
        if not isinstance(found, Model):
            why = f"`meadow train {observation.game.id}` makes one" if found is None else found
            raise MeadowError(
                f"no learned policy for {observation.game.title} with {view['players']} "
                f"players and these options: {why}"
            )
        logits = found.policy(coding.observation(view))
        mask = coding.mask(observation.legal)
        logits[mask == 0] = -np.inf
        return coding.action(int(np.argmax(logits)))


def register_policy(name: str, policy: Policy) -> None:
    """Make `policy:NAME` a bot in this process."""
    if not name or ":" in name:
        raise MeadowError(f"policy name {name!r}: a name is not empty and has no ':'")
    _registered[name] = policy


def _host_policies() -> dict[str, str]:
    """Named policies from `MEADOW_POLICIES`: `ppo=agents.ppo:act;mine=/srv/mine.py:act`."""
    found = {}
    for pair in os.environ.get(ENV, "").split(";"):
        if not pair.strip():
            continue
        name, sep, target = pair.partition("=")
        if not sep or not name.strip() or ":" not in target:
            raise MeadowError(f"{ENV}: {pair!r} is not of the form name=module:attribute")
        found[name.strip()] = target.strip()
    return found


def load_target(target: str) -> Policy:
    """The callable that `package.module:attribute` or `file.py:attribute` names.

    Raises:
        MeadowError: the module, file or attribute cannot be found, or is not callable.
    """
    where, sep, attribute = target.rpartition(":")
    if not sep or not where or not attribute:
        raise MeadowError(f"policy {target!r}: expected module:attribute or file.py:attribute")
    if where.endswith(".py"):
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise MeadowError(f"policy {target!r}: no file {path}")
        module = _loaded_files.get(path)
        if module is None:
            spec = importlib.util.spec_from_file_location(
                f"meadow_policy_{len(_loaded_files)}", path
            )
            if spec is None or spec.loader is None:
                raise MeadowError(f"policy {target!r}: {path} cannot be imported")
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            _loaded_files[path] = module
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise MeadowError(f"policy {target!r}: cannot import {where}: {exc}") from None
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise MeadowError(f"policy {target!r}: {where} has no attribute {attribute!r}")
        found = getattr(found, part)
    if not callable(found):
        raise MeadowError(f"policy {target!r}: {attribute} is not callable")
    return found  # type: ignore[no-any-return]


def policy_bot(rest: str, trust_imports: bool = False) -> Bot:
    """The bot for the spec `policy:<rest>` (see the module's docstring).

    Raises:
        MeadowError: an unknown name, a target that cannot be loaded, or a target where
            imports are not trusted.
    """
    name = f"policy:{rest}"
    if rest == "learned":
        return LearnedPolicyBot()
    if rest in _registered:
        return PolicyBot(_registered[rest], name)
    named = _host_policies()
    if rest in named:
        return PolicyBot(load_target(named[rest]), name)
    if ":" not in rest:
        known = sorted(set(_registered) | set(named))
        raise MeadowError(
            f"no policy {rest!r}; named policies: {', '.join(known) or f'none (set {ENV})'}"
        )
    if not trust_imports:
        raise MeadowError(
            f"bot {name!r}: here a policy is chosen by name only; the host names policies "
            f"in {ENV} (for example {ENV}='mine={rest}')"
        )
    return PolicyBot(load_target(rest), name)
