"""Any player by name: one of Meadow's bots (`meadow.bots.make_bot`) or a policy trained
through the research APIs (`policy:...`, `meadow.rl.policy_bot`). The places that take a
bot's name from a person or a host (the server's seats, `meadow tournament`, `meadow play`,
the Gymnasium opponents) make it here.

A policy needs the research extra (numpy); everything else needs nothing of it, so this
module imports the policy code only when a policy is named.
"""

from __future__ import annotations

from meadow.bots import Bot, make_bot
from meadow.core.errors import MeadowError


def make_player(spec: str, trust_imports: bool = False) -> Bot:
    """A bot from its name (see `make_bot`), or a trained policy: policy:<name>, or with
    `trust_imports` policy:<module>:<attribute> and policy:<file.py>:<attribute> (importing
    runs the module's code, so only callers whose input is the host's own trust it).

    Raises:
        MeadowError: an unknown bot or budget, or a policy that cannot be loaded.
    """
    spec = spec.strip()
    if not spec.startswith("policy:"):
        return make_bot(spec)
    try:  # the research extra brings numpy; Meadow's own bots need nothing of it
        from meadow.rl.policy_bot import policy_bot
    except ImportError as exc:
        raise MeadowError(
            f"policy bots need the research extra (pip install 'meadow-tabletop[rl]'): {exc}"
        ) from None
    return policy_bot(spec.removeprefix("policy:"), trust_imports)
