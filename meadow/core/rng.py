"""The seeded random generator every game state carries.

We use SplitMix64 rather than `random.Random`: its whole state is one 64-bit integer, so a state
clones and serialises in a few bytes, and its draws are fixed by this file alone, so a stored
record replays identically under any Python version.
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_SPAN = 1 << 64
_MASK = _SPAN - 1
_GOLDEN = 0x9E3779B97F4A7C15

MAX_SEED = _MASK


def new_seed() -> int:
    """A fresh seed from the operating system, for games started without one."""
    return secrets.randbits(63)


class Rng:
    """SplitMix64: small, fast, and reproducible from a 64-bit seed.

    >>> a, b = Rng(7), Rng(7)
    >>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
    True
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= _MASK:
            raise ValueError(f"seed {seed} is outside 0..{_MASK}")
        self._state = seed

    def next_u64(self) -> int:
        self._state = z = (self._state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below({n}): n must be positive")
        limit = _SPAN - _SPAN % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next_u64() >> 11) / (1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates), each draw as `below` makes it: the same order
        from the same state. `next_u64` and `below` are written out in the loop, since the
        searches' determinizations shuffle every hidden pile at every iteration and two
        Python calls per card were most of it."""
        state = self._state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self._state = state

    def spawn(self) -> Rng:
        """An independent generator seeded from this one."""
        return Rng(self.next_u64())

    def clone(self) -> Rng:
        return Rng(self._state)

    def to_json(self) -> str:
        return f"{self._state:016x}"

    @classmethod
    def from_json(cls, data: str) -> Rng:
        return cls(int(data, 16))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other._state == self._state

    def __hash__(self) -> int:
        return hash(self._state)

    def __repr__(self) -> str:
        # The internal state is a secret of the server; never print it.
        return "Rng(...)"
