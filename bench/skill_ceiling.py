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

Each row: one bot in one seat (going round the seats), greedy (or the opponent named) in the
others, seeds FIRST_SEED on; the score counts a draw as an equal share; the interval is Wilson's
95%; CPU is the process time of the row. The machine may be shared: CPU times are noisy, scores
are not (a seed replays its match).

    .venv/bin/python bench/skill_ceiling.py GAME [--matches N] [--rollouts R] [--rows ROW ...]
    e.g. bench/skill_ceiling.py content/dojo-duel --matches 200
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.engines import load_engine  # noqa: E402
from cardgen.model import load_game  # noqa: E402
from cardgen.sim import bots as bots_module  # noqa: E402
from cardgen.sim.bots import GreedyBot  # noqa: E402
from cardgen.sim.report import wilson  # noqa: E402
from cardgen.sim.runner import match_setups, play_match  # noqa: E402

FIRST_SEED = 1000
ROWS = ["greedy-random", "search-greedy", "rollout-greedy", "oracle-greedy"]


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


def score_row(engine, bot: str, opponent: str, matches: int) -> tuple[float, float]:
    """The bot's score over `matches` seeded matches against `opponent` in the other seats, and
    the CPU seconds it took."""
    setups = match_setups(engine, None)
    players = len(setups[0].seats)
    score, start = 0.0, time.process_time()
    for seed in range(FIRST_SEED, FIRST_SEED + matches):
        seats = [opponent] * players
        seats[seed % players] = bot
        result = play_match(engine, setups, seed, seats, check_invariants=False)
        if result.conflicts:
            raise SystemExit(f"seed {seed}: {result.conflicts[0]}")
        score += 1 / players if result.winner is None else result.bots[result.winner] == bot
    return score, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game folder, e.g. content/dojo-duel")
    parser.add_argument("--matches", type=int, default=100, help="matches a row (default: 100)")
    parser.add_argument("--rollouts", type=int, default=8,
                        help="greedy rollouts a move for rollout and oracle (default: 8)")
    parser.add_argument("--rows", nargs="+", default=ROWS,
                        help=f"BOT-OPPONENT pairs to play (default: {' '.join(ROWS)})")
    args = parser.parse_args()
    RolloutBot.rollouts = args.rollouts
    bots_module.BUILTIN_BOTS.update(rollout=RolloutBot, oracle=OracleBot)
    engine = load_engine(load_game(args.game))
    print(f"{args.game}: seeds {FIRST_SEED}-{FIRST_SEED + args.matches - 1}, {args.rollouts} rollouts "
          "a move for rollout/oracle, seats alternating, draws an equal share")
    print(f"{'bot':<12} {'against':<10} {'matches':>7} {'score':>7} {'rate':>5} {'95% interval':>13} "
          f"{'CPU s':>7}")
    for row in args.rows:
        bot, _, opponent = row.partition("-")
        score, cpu = score_row(engine, bot, opponent or "greedy", args.matches)
        low, high = wilson(score, args.matches)
        print(f"{bot:<12} {opponent or 'greedy':<10} {args.matches:>7} {score:>7.4g} "
              f"{score / args.matches:>5.0%} {f'{low:.0%}-{high:.0%}':>13} {cpu:>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
