"""Search-bot matches per second per core, for each bundled game at the default strength.

Each game plays MATCHES seeded matches on one core, the search bot (`search`, its default
playouts per move) against greedy, seats alternating, invariant checks off; the table gives
matches/s, the search bot's decisions/s and its score against greedy (draws count half). The
machine may be shared: run it twice and read the faster row.
Usage: .venv/bin/python bench/search_bot.py [MATCHES]   (default 10)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.engines import load_engine  # noqa: E402
from cardgen.model import load_game  # noqa: E402
from cardgen.paths import bundled_game_ids  # noqa: E402
from cardgen.sim.runner import match_setups, play_match  # noqa: E402
from cardgen.sim.search import DEFAULT_PLAYOUTS  # noqa: E402


def main() -> int:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    print(f"search ({DEFAULT_PLAYOUTS} playouts per move) against greedy, {matches} matches a game, one core")
    print(f"{'game':<15} {'matches/s':>10} {'s/match':>8} {'actions/match':>14} {'score':>8}")
    for game_id in bundled_game_ids():
        engine = load_engine(load_game(game_id))
        setups = match_setups(engine, None)
        score = actions = 0.0
        start = time.perf_counter()
        for seed in range(matches):
            seats = ["search", "greedy"] if seed % 2 == 0 else ["greedy", "search"]
            r = play_match(engine, setups, seed, seats, check_invariants=False)
            actions += r.actions
            score += 0.5 if r.winner is None else r.bots[r.winner] == "search"
        seconds = time.perf_counter() - start
        print(f"{game_id:<15} {matches / seconds:>10.2f} {seconds / matches:>8.2f} "
              f"{actions / matches:>14.0f} {score / matches:>8.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
