"""The deck shuffle: random.Random.shuffle's very draws, without its per-card method calls."""

from __future__ import annotations

import random

# By deck size, shuffle's steps: (position, positions to draw from, their bit length), worked
# out once rather than per card of every shuffle (15% of a shuffle).
_SHUFFLE_STEPS: dict[int, tuple] = {}


def shuffle(rng: random.Random, cards: list) -> None:
    """rng.shuffle(cards) with the very same draws (same order, same RNG state after), about
    twice as fast: without the method call per card of random.Random._randbelow (a shuffle of a
    45-card deck is a good part of a fight's cost). Another RNG class keeps its own shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    steps = _SHUFFLE_STEPS.get(len(cards))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(cards)] = tuple((i, i + 1, (i + 1).bit_length())
                                                   for i in range(len(cards) - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]

