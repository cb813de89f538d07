"""Simulation throughput per game: matches/s and actions/s on one core and on every core.

Goals (issue 5): 100,000 actions/s per core; 10,000 matches of each game in 20 s on two cores.
Random bots, per-step invariant checks on (as `cardgen simulate` runs by default) and off.
This machine's speed drifts (by up to 2x from one minute to the next, with nothing else running),
so each one-core row is run three times, the games taking turns, and the fastest is shown (as
timeit does), with every run's actions/s after it.
Usage: .venv/bin/python bench/simulate.py [MATCHES]   (default 10000)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import speed_check  # noqa: E402

from cardgen.engines import load_engine  # noqa: E402
from cardgen.errors import ContentError  # noqa: E402
from cardgen.model import load_game  # noqa: E402
from cardgen.paths import bundled_game_ids  # noqa: E402
from cardgen.sim.runner import simulate  # noqa: E402

REPEATS = 3


def main() -> int:
    if len(sys.argv) > 1 and not sys.argv[1].isdigit():
        print(__doc__.strip())          # -h, --help, or anything that is not a match count
        return 0 if sys.argv[1] in ("-h", "--help") else 2
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    before = speed_check()
    cores = os.cpu_count() or 1
    games = []
    for game_id in bundled_game_ids():
        game = load_game(game_id)
        try:
            load_engine(game)
        except ContentError:
            print(f"{game_id:14} (no engine yet)")
            continue
        games.append((game_id, game))
    # The one-core runs take turns across the games, so that a slow spell of the machine costs
    # each game one of its runs rather than all of them.
    small = max(200, matches // 5)
    runs: dict[tuple[str, bool], list] = {}
    for _ in range(REPEATS):
        for game_id, game in games:
            for check in (False, True):
                runs.setdefault((game_id, check), []).append(
                    simulate(game, matches=small, seed=1, jobs=1, check_invariants=check))
    print(f"{'game':14} {'jobs':>4} {'invariants':>10} {'matches':>8} {'seconds':>8} "
          f"{'matches/s':>10} {'actions/s':>10} {'actions/match':>13}  {'goal':10} runs")
    for game_id, game in games:
        for check in (False, True):
            _row(game_id, 1, check, small, matches, runs[game_id, check])
        _row(game_id, cores, True, matches, matches,
             [simulate(game, matches=matches, seed=1, jobs=cores, check_invariants=True)])
    print(f"(machine check: {before:.0f} ms before, {speed_check():.0f} ms after; lower is faster, "
          "see bench/machine.py)")
    return 0


def _row(game_id: str, jobs: int, check: bool, n: int, matches: int, runs: list) -> None:
    """One table row: the fastest of `runs` (each (results, seconds) for n matches), judged
    against the goals, and every run's actions/s when there are several."""
    results, seconds = min(runs, key=lambda run: run[1])
    actions = sum(r.actions for r in results)
    goal = ""
    if jobs > 1:
        goal = "ok" if seconds * matches / n <= 20 else "over 20 s"
    elif not check:
        goal = "ok" if actions / seconds >= 100_000 else "under 100k"
    each = ", ".join(f"{actions / s / 1000:.0f}k" for _, s in runs) if len(runs) > 1 else ""
    print(f"{game_id:14} {jobs:4} {'on' if check else 'off':>10} {n:8} {seconds:8.2f} "
          f"{n / seconds:10.0f} {actions / seconds:10.0f} {actions / n:13.1f}  {goal:10} {each}")


if __name__ == "__main__":
    raise SystemExit(main())
