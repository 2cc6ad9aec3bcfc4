"""The one shuffle of the game's random generator (the deal's and the solo tokens')."""
from __future__ import annotations

import random


def shuffle(rng: random.Random, x: list) -> None:
    """``rng.shuffle(x)``: the same draws from ``rng`` and the same order, without a method call
    per element (``tests/rules/test_api.py`` compares the two)."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    bits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()   # Random._randbelow_with_getrandbits
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]
