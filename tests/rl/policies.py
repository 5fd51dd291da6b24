"""Policies for the policy-bot tests, imported as `policy:tests.rl.policies:<name>`."""

from __future__ import annotations

import numpy as np


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return int(np.flatnonzero(action_mask)[0])


def last_legal(observation: np.ndarray, action_mask: np.ndarray) -> np.int64:
    return np.flatnonzero(action_mask)[-1]  # numpy integers are indices too


def first_illegal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return int(np.flatnonzero(action_mask == 0)[0])


not_callable = 3
