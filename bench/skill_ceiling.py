"""How far skill can get against the greedy bot: a game's bots, and two rollout players, against greedy.

For the question issue 22 asks of every bundled game (does the search bot beat greedy clearly?):
when it does not, is that the search's fault or the game's? Besides the simulator's bots this
plays two rollout players that think far more than the search bot does:

- `rollout`: for each legal move, ROLLOUTS determinizations of the position (what the player may
  believe it to be, `Engine.determinize`), the move, then greedy for every seat to the end; it
  plays the move that won most (draws half). A fair player: it sees what its seat sees.
- `oracle`: the same, but on copies of the true position: it sees the opponent's hand and every
  deck in order (not the dice, which are drawn anew each rollout). No fair player can know more,
  so against greedy it is an upper bound on what skill can do.

Each row plays duplicate matches (cardgen/sim/duplicate.py): every seed from FIRST_SEED once with
the bot in each seat in turn and greedy (or the opponent named) in the others, so the deal and the
seats' luck fall alike on both. The score counts a draw as an equal share; the interval is the 95%
interval of the mean over seeds; "first" and "not first" split the bot's score by whether its seat
took the first turn (the engine's `first_player`); the greedy mirror row gives what that seat
alone is worth. CPU is the process time of the row's workers. The machine may be shared:
CPU times are noisy, scores are not (a seed replays its match).

    .venv/bin/python bench/skill_ceiling.py GAME [--seeds N] [--rollouts R] [--rows ROW ...] [--jobs J]
    e.g. bench/skill_ceiling.py content/dojo-duel --seeds 300
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.engines import load_engine  # noqa: E402
from cardgen.model import load_game  # noqa: E402
from cardgen.sim import bots as bots_module  # noqa: E402
from cardgen.sim.bots import GreedyBot  # noqa: E402
from cardgen.sim.duplicate import duplicate_matches  # noqa: E402

FIRST_SEED = 1000
# greedy-greedy: the seat's share of a match, with equal players on both sides
ROWS = ["greedy-greedy", "greedy-random", "search-greedy", "rollout-greedy", "oracle-greedy"]


class RolloutBot:
    """Greedy rollouts to the end after each legal move, on determinizations (or, as the oracle,
    on copies of the true position); the move that won most. Draws one number from the match's
    generator a decision, so a seed still replays the match."""

    name = "rollout"
    sees_all = False
    rollouts = 8

    def __init__(self, engine, rng: random.Random, player: int):
        self.engine, self.rng, self.player = engine, rng, player

    def choose(self, state, actions):
        if len(actions) == 1:
            return actions[0]
        engine, player = self.engine, self.player
        own = random.Random(self.rng.random())
        seeds = [own.random() for _ in range(self.rollouts)]    # the same worlds for every move
        best, best_score = actions[0], -1.0
        for action in actions:
            score = 0.0
            for seed in seeds:
                world_rng = random.Random(seed)
                if self.sees_all:
                    world = engine.clone(state)
                    world.rng = random.Random(world_rng.random())
                else:
                    world = engine.determinize(state, player, world_rng)
                engine.apply_chosen(world, action)
                score += self._finish(world, world_rng)
            if score > best_score:
                best, best_score = action, score
        return best

    def _finish(self, world, rng: random.Random) -> float:
        engine = self.engine
        greedy = {}
        for _ in range(engine.max_actions):
            if engine.is_over(world):
                break
            p = engine.current_player(world)
            bot = greedy.get(p) or greedy.setdefault(p, GreedyBot(engine, rng, p))
            engine.apply_chosen(world, bot.choose(world, engine.legal_actions(world)))
        if not engine.is_over(world):
            return 0.5
        winner = engine.winner(world)
        return 0.5 if winner is None else float(winner == self.player)


class OracleBot(RolloutBot):
    name = "oracle"
    sees_all = True


def cpu_seconds() -> float:
    """CPU time of this process and of its workers that have ended."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game folder, e.g. content/dojo-duel")
    parser.add_argument("--seeds", type=int, default=100,
                        help="seeds a row, each played once per seat (default: 100)")
    parser.add_argument("--rollouts", type=int, default=8,
                        help="greedy rollouts a move for rollout and oracle (default: 8)")
    parser.add_argument("--rows", nargs="+", default=ROWS,
                        help=f"BOT-OPPONENT pairs to play (default: {' '.join(ROWS)})")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    args = parser.parse_args()
    RolloutBot.rollouts = args.rollouts
    bots_module.BUILTIN_BOTS.update(rollout=RolloutBot, oracle=OracleBot)
    engine = load_engine(load_game(args.game))
    seeds = range(FIRST_SEED, FIRST_SEED + args.seeds)
    print(f"{args.game}: duplicate matches, seeds {seeds[0]}-{seeds[-1]} each played with the bot in "
          f"every seat; {args.rollouts} rollouts a move for rollout/oracle; draws an equal share")
    print(f"{'bot':<12} {'against':<10} {'matches':>7} {'score':>6} {'95% interval':>13} {'first':>6} "
          f"{'not first':>9} {'CPU s':>7}")
    for row in args.rows:
        bot, _, opponent = row.partition("-")
        start = cpu_seconds()
        result = duplicate_matches(engine, bot, opponent or "greedy", seeds, jobs=args.jobs)
        cpu = cpu_seconds() - start
        low, high = result.interval
        first, other = (f"{x:.0%}" if x is not None else "-" for x in result.by_first_turn)
        print(f"{bot:<12} {opponent or 'greedy':<10} {len(result.matches):>7} {result.score:>6.1%} "
              f"{f'{low:.1%}-{high:.1%}':>13} {first:>6} {other:>9} {cpu:>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
