"""How fast this machine runs right now: a fixed pure-Python workload, timed.

Shared and virtual machines change speed from minute to minute (this one by up to 2x with
nothing else running), so a bench's seconds mean little alone. Each bench prints this check
before and after its stages: compare two runs only when their checks are close.
"""

from __future__ import annotations

import time


def _workload() -> int:
    # dict, list and integer work, like the engines and the layout code do
    counts: dict[int, int] = {}
    total = 0
    for i in range(200_000):
        key = (i * 7919) % 1009
        counts[key] = counts.get(key, 0) + 1
        total += len(str(i)) + (key & 3)
    return total + len(counts)


def speed_check(repeats: int = 5) -> float:
    """Milliseconds for the workload, best of `repeats` (lower is faster)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        _workload()
        best = min(best, time.perf_counter() - start)
    return best * 1000
