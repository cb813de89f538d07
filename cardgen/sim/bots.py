"""Bots choose among legal actions. They draw from the match's generator, the one the game's chance
draws from too (so a seed decides a whole match), never from `random`'s."""

from __future__ import annotations

import random
from typing import Protocol

from cardgen.sim.search import SearchBot, parse_strength


class Bot(Protocol):
    """What the simulator asks of a bot: pick one of the legal actions.

    A bot is made by factory(engine, rng, player) with the match's generator. It must not change the
    state it is shown (clone it to look ahead) nor read hidden information from it, the generator's
    state included: it only draws from it.
    """

    def choose(self, state, actions: list): ...


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, engine, rng: random.Random, player: int):
        self.rng = rng
        self._random = rng.random

    def choose(self, state, actions):
        # int(random() * n) is uniform over 0..n-1 and about three times cheaper than randrange.
        # (play_match makes this same choice itself when every seat is this bot: keep the two alike.)
        return actions[int(self._random() * len(actions))]


class GreedyBot:
    """One-ply lookahead: the action whose resulting state the engine's heuristic likes best.

    Ties are broken at random. Chance inside `apply` is sampled on a clone with a generator of its
    own (seeded by one draw), so the lookahead does not replay the real match's dice.
    """

    name = "greedy"

    def __init__(self, engine, rng: random.Random, player: int):
        self.engine, self.rng, self.player = engine, rng, player

    def choose(self, state, actions):
        if len(actions) == 1:
            return actions[0]
        engine, best, best_score = self.engine, [], float("-inf")
        for action in actions:
            trial = engine.clone(state)
            trial.rng = random.Random(self.rng.random())
            engine.apply_chosen(trial, action)      # (taken from the legal list)
            if engine.is_over(trial):
                won = engine.winner(trial)
                score = 1e9 if won == self.player else (-1e9 if won is not None else 0.0)
            else:
                score = engine.heuristic(trial, self.player)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[self.rng.randrange(len(best))]


BUILTIN_BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
# Built-in bots whose strength `--bots` may set after a colon (search:200): name -> its parser
LEVELS = {"search": parse_strength}


def any_slow(names: list[str], engine) -> bool:
    """Whether a seat's bot thinks for a while each move (a class with `slow = True`, as the search
    bot): its matches are handed out a few at a time, not by the twenty."""
    for name in names:
        base = name.partition(":")[0]
        factory = BUILTIN_BOTS.get(base) or engine.bots().get(name)
        if getattr(factory, "slow", False):
            return True
    return False


def bot_names(engine) -> list[str]:
    return [*BUILTIN_BOTS, *engine.bots()]


def bot_problem(name: str, engine) -> str | None:
    """Why `--bots` cannot seat this name (unknown, or a strength that is no strength), or None."""
    base, colon, level = name.partition(":")
    if not colon:
        return None if name in bot_names(engine) else f"unknown bot {name!r}"
    if base not in LEVELS:
        return f"unknown bot {name!r} (only {', '.join(LEVELS)} takes a strength after a colon)"
    try:
        LEVELS[base](level)
    except ValueError as exc:
        return str(exc)
    return None


def make_bot(name: str, engine, rng: random.Random, player: int):
    base, colon, level = name.partition(":")
    if colon and base in LEVELS:
        return BUILTIN_BOTS[base](engine, rng, player, level)
    factory = BUILTIN_BOTS.get(name) or engine.bots().get(name)
    if factory is None:
        raise KeyError(name)
    return factory(engine, rng, player)
