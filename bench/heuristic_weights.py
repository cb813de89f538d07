"""Greedy with other heuristic weights against greedy as the engine has them: duplicate matches.

An engine's heuristic often reads weights it keeps as class attributes (Dojo Duel's KICKER_WEIGHT,
the worth of a face-down kicker kept for later). This plays, for each setting asked, a greedy bot
whose engine has those attributes changed against the engine's own greedy bot, in duplicate
matches (cardgen/sim/duplicate.py: each seed once with the changed bot in every seat), on both
cores. A setting that scores above 50% with its interval clear of it plays better; the row of the
engine's own weights is 50% exactly (the same bot on both sides). "first" is the changed bot's score
when its seat took the first turn.

The seeds start at FIRST_SEED, away from tests/test_search_bot.py's (1000 on), so weights tuned
here are not tuned to the matches the tests play.

    .venv/bin/python bench/heuristic_weights.py GAME [--seeds N] NAME=VALUE[,NAME=VALUE] ...
    e.g. bench/heuristic_weights.py content/dojo-duel KICKER_WEIGHT=0.5 KICKER_WEIGHT=0.9
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.engines import load_engine  # noqa: E402
from cardgen.model import load_game  # noqa: E402
from cardgen.sim import bots as bots_module  # noqa: E402
from cardgen.sim.bots import GreedyBot  # noqa: E402
from cardgen.sim.duplicate import duplicate_matches  # noqa: E402

FIRST_SEED = 2000


def weights(text: str) -> dict[str, float]:
    out = {}
    for part in text.split(","):
        name, equals, value = part.partition("=")
        if not equals:
            raise argparse.ArgumentTypeError(f"{part!r}: write NAME=VALUE")
        out[name.strip()] = float(value)
    return out


def greedy_with(engine, changes: dict[str, float]):
    """A greedy bot class whose engine is a copy of `engine` with these attributes set."""
    changed = copy.copy(engine)
    for name, value in changes.items():
        if not hasattr(engine, name):
            raise SystemExit(f"the engine has no attribute {name}")
        setattr(changed, name, value)

    class Changed(GreedyBot):
        def __init__(self, _engine, rng, player):
            super().__init__(changed, rng, player)

    return Changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game folder, e.g. content/dojo-duel")
    parser.add_argument("settings", nargs="+", type=weights, help="NAME=VALUE[,NAME=VALUE]")
    parser.add_argument("--seeds", type=int, default=1000, help="seeds a row (default: 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    args = parser.parse_args()
    engine = load_engine(load_game(args.game))
    seeds = range(FIRST_SEED, FIRST_SEED + args.seeds)
    print(f"{args.game}: greedy with the weights below against greedy with the engine's, duplicate "
          f"matches, seeds {seeds[0]}-{seeds[-1]}")
    print(f"{'weights':<40} {'score':>6} {'95% interval':>13} {'first':>6}")
    for changes in args.settings:
        bots_module.BUILTIN_BOTS["changed"] = greedy_with(engine, changes)
        result = duplicate_matches(engine, "changed", "greedy", seeds, jobs=args.jobs)
        low, high = result.interval
        first = result.by_first_turn[0]
        label = ", ".join(f"{k}={v:g}" for k, v in changes.items())
        print(f"{label:<40} {result.score:>6.1%} {f'{low:.1%}-{high:.1%}':>13} "
              f"{f'{first:.1%}' if first is not None else '-':>6}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
