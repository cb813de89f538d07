"""How a search-bot sweep of each bundled game splits across 2 local worker processes.

Each game plays the same seeded matches twice through `cardgen simulate`'s runner (the search
bot at its default strength against greedy, seats alternating, invariant checks off): on one
process (`--jobs 1`) and on two (`--jobs 2`); the table gives the seconds of each, the speed-up
and whether the two sweeps' reports are the same (they must be: a match depends only on its
seed; the report's time left out). The issue asks for 1,000 matches a game: at about 0.5 s
(Amfibido) and 0.8 s (Combo Fighter) a match that is 8 and 14 minutes on one core, so the
default is fewer (MATCHES). The runner hands a slow bot's seeds out two at a time (fast bots' by the twenty or
more), so both workers stay busy to the end. The machine may be shared: a busy second core lowers
the speed-up.
Usage: .venv/bin/python bench/search_sweep.py [MATCHES [GAME...]]   (default 80, every bundled
game)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.model import load_game  # noqa: E402
from cardgen.paths import bundled_game_ids  # noqa: E402
from cardgen.sim.report import build_report  # noqa: E402
from cardgen.sim.runner import simulate_tally  # noqa: E402

BOTS = ["search", "greedy"]


def sweep(game, matches: int, jobs: int) -> tuple[str, float]:
    """The sweep's report (as JSON, its time left out) and the seconds it took."""
    tally, seconds = simulate_tally(game, matches=matches, jobs=jobs, bots=BOTS, check_invariants=False)
    return json.dumps(build_report(game, tally, 0.0, bots=BOTS), sort_keys=True), seconds


def main() -> int:
    if len(sys.argv) > 1 and not sys.argv[1].isdigit():
        print(__doc__.strip())
        return 0 if sys.argv[1] in ("-h", "--help") else 2
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    games = sys.argv[2:] or bundled_game_ids()
    print(f"{matches} matches a game, search ({' vs '.join(BOTS)}), --jobs 1 against --jobs 2")
    print(f"{'game':<15} {'jobs 1 (s)':>11} {'jobs 2 (s)':>11} {'speed-up':>9} {'matches/s 2':>12} "
          f"{'same':>5}")
    for game_id in games:
        game = load_game(game_id)
        one, t1 = sweep(game, matches, 1)
        two, t2 = sweep(game, matches, 2)
        print(f"{game_id:<15} {t1:>11.1f} {t2:>11.1f} {t1 / t2:>8.2f}x {matches / t2:>12.2f} "
              f"{'yes' if one == two else 'NO':>5}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
