"""Simulation throughput per game: matches/s and actions/s on one core and on every core.

Goals (issue 5): 100,000 actions/s per core; 10,000 matches of each game in 20 s on two cores.
Random bots, per-step invariant checks on (as `cardgen simulate` runs by default) and off.
Usage: .venv/bin/python bench/simulate.py [MATCHES]   (default 10000)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.engines import load_engine  # noqa: E402
from cardgen.errors import ContentError  # noqa: E402
from cardgen.model import load_game  # noqa: E402
from cardgen.paths import bundled_game_ids  # noqa: E402
from cardgen.sim.runner import simulate  # noqa: E402


def main() -> int:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    cores = os.cpu_count() or 1
    print(f"{'game':14} {'jobs':>4} {'invariants':>10} {'matches':>8} {'seconds':>8} "
          f"{'matches/s':>10} {'actions/s':>10} {'actions/match':>13}  goal")
    for game_id in bundled_game_ids():
        game = load_game(game_id)
        try:
            load_engine(game)
        except ContentError:
            print(f"{game_id:14} (no engine yet)")
            continue
        for jobs, check in ((1, False), (1, True), (cores, True)):
            n = matches if jobs > 1 else max(200, matches // 5)
            results, seconds = simulate(game, matches=n, seed=1, jobs=jobs, check_invariants=check)
            actions = sum(r.actions for r in results)
            goal = ""
            if jobs > 1:
                goal = "ok" if seconds * matches / n <= 20 else "over 20 s"
            elif not check:
                goal = "ok" if actions / seconds >= 100_000 else "under 100k"
            print(f"{game_id:14} {jobs:4} {'on' if check else 'off':>10} {n:8} {seconds:8.2f} "
                  f"{n / seconds:10.0f} {actions / seconds:10.0f} {actions / n:13.1f}  {goal}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
