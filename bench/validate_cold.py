"""Cold start of `cardgen validate` on a sample deck, beside `python -c pass`.

Goal (issue 2): under 0.25 s cold. Each run is a new process, so imports and game loading
count every time. Prints a table; run with `make bench` or `.venv/bin/python bench/validate_cold.py`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import speed_check

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15
GOAL = 0.25


def timed(cmd: list[str]) -> list[float]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    decks = sorted((ROOT / "content").glob("*/decks/*.yaml"))
    by_game: dict[str, Path] = {}
    for deck in decks:
        by_game.setdefault(deck.parent.parent.name, deck)
    before = speed_check()
    rows = [("python -c pass", timed([sys.executable, "-c", "pass"]))]
    for game, deck in sorted(by_game.items()):
        rows.append((f"validate {game}/{deck.name}",
                     timed([sys.executable, "-m", "cardgen", "validate", str(deck)])))
    width = max(len(r[0]) for r in rows)
    print(f"{'command':{width}}  {'median s':>9}  {'min s':>7}  {'max s':>7}  goal")
    for label, times in rows:
        goal = "" if label.startswith("python") else ("ok" if statistics.median(times) < GOAL
                                                      else f"over {GOAL}")
        median = statistics.median(times)
        print(f"{label:{width}}  {median:9.3f}  {min(times):7.3f}  {max(times):7.3f}  {goal}")
    print(f"({RUNS} runs each, {len(by_game)} games, Python {sys.version.split()[0]})")
    print(f"(machine check: {before:.0f} ms before, {speed_check():.0f} ms after; lower is faster, "
          "see bench/machine.py)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
