"""The search bot: Monte Carlo tree search over the Engine API, for any game, hidden cards too.

Information-set MCTS with a single tree (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", 2012): every playout starts from a new determinization, the position as the
bot's player may believe it to be (`Engine.determinize`: the cards they cannot see dealt again);
it walks the tree by UCB among the actions legal in that determinization (each counts how often
it was available, so a move the opponent has only in some worlds is not favoured for being rare),
adds one node, scores it and credits the score to every node on the way, each to the player who
chose its move. Before the first playout each root move is scored as the greedy bot scores it,
and that counts as PRIOR playouts of it. The bot plays the root move tried most often (and
stops searching once no other move could catch up with it in the playouts left). The
score is the engine's heuristic at the new node, relative to the position thought about and
squashed into 0..1 (an engine without a heuristic: a random playout to the end, 1 a win, 0 a
loss).

Nodes are keyed by action, not by state: chance inside a move (a roll, a draw) is not a node, and
the tree's statistics average over it ("open loop").

Strength, as `--bots` writes it: `search` (the default, DEFAULT_PLAYOUTS playouts per move),
`search:N` (N playouts per move) or `search:Ts` (T seconds per move: stronger on a fast machine,
but a match no longer replays from its seed). The bot draws one number from the match generator
per decision and nothing else from it, so with playouts a seed still decides the whole match.
"""

from __future__ import annotations

import random
import time
from math import exp, log, sqrt

from cardgen.engines.base import Engine
from cardgen.sim.watchdog import still_going

DEFAULT_PLAYOUTS = 200
# Each root move starts with the greedy bot's look at it (the heuristic after the move), worth
# this many playouts: a few hundred playouts give noisy averages (the worlds and the dice differ
# from one to the next), and this keeps the search from losing greedy's exact one-ply view. 10:
# measured with 10 and 40 (40 plays too much like greedy: Combo Fighter 48% against it).
PRIOR = 10
EXPLORATION = 0.7       # UCB's constant, for rewards between 0 and 1
# How often (in playouts) the search checks whether its choice is already settled.
SETTLED_EVERY = 10


class Node:
    """A move's statistics: who chose it, how often it was played and how often it was
    available, and the reward its chooser got from it."""

    __slots__ = ("player", "children", "visits", "reward", "avail")

    def __init__(self, player: int):
        self.player = player
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


def parse_strength(text: str) -> tuple[int, float | None]:
    """`search:`'s strength as (playouts, seconds): "200" -> (200, None), "0.5s" -> (0, 0.5).
    ValueError with a sentence for anything else."""
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if seconds > 0:
                return 0, seconds
        elif int(text) > 0:
            return int(text), None
    except ValueError:
        pass
    raise ValueError(f"a search bot's strength is a number of playouts per move (search:200) or "
                     f"seconds per move (search:0.5s), not {text!r}")


class SearchBot:
    name = "search"
    slow = True         # (its matches take seconds: the runner hands them out a few at a time)

    def __init__(self, engine, rng: random.Random, player: int, level: str | None = None):
        self.engine, self.rng, self.player = engine, rng, player
        self.playouts, self.seconds = parse_strength(level) if level else (DEFAULT_PLAYOUTS, None)
        # With a heuristic, a playout stops at the new node and is scored by it: a few hundred
        # such playouts beat the greedy bot on every bundled game, as random playouts to the end
        # did not. Without one (an engine that left it out) a playout plays to the end.
        rated = type(engine).heuristic is not Engine.heuristic
        self.depth = 0 if rated else engine.max_actions

    def choose(self, state, actions):
        if len(actions) == 1:
            return actions[0]
        engine, player = self.engine, self.player
        rng = random.Random(self.rng.random())     # (one draw: the match's chance stays its own)
        root = Node(player)
        self._base_world, self._base = engine.determinize(state, player, rng), {}
        self._size, self._sized = 0.0, 0
        if not self.depth:
            self._seed(root, actions)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        children = root.children
        while (done < self.playouts) if deadline is None else (time.perf_counter() < deadline
                                                                 or not done):
            self._playout(root, engine.determinize(state, player, rng), rng)
            done += 1
            still_going()
            if (deadline is None and done % SETTLED_EVERY == 0
                    and self._settled(children, self.playouts - done)):
                break
        # the root move played most often (a move of the real list: the worlds agree on it)
        return max(actions, key=lambda a: children[a].visits if a in children else -1)

    @staticmethod
    def _settled(children: dict, left: int) -> bool:
        """Whether the root move tried most often stays so whatever the `left` playouts to come
        do: then they cannot change the move played, and are skipped (the bot's choice, and so
        the match, is the same as with every playout made; only the time differs)."""
        most = second = 0
        for child in children.values():
            v = child.visits
            if v > most:
                most, second = v, most
            elif v > second:
                second = v
        return most - second > left

    def _seed(self, root: Node, actions) -> None:
        """Start each root move with the greedy bot's look at it, worth PRIOR playouts: the
        heuristic after the move in one world (the player's own move: what they cannot see does
        not change it; a chance inside it is drawn from that world's generator)."""
        engine, world, player, prior = self.engine, self._base_world, self.player, PRIOR
        for a in actions:
            trial = engine.clone(world)
            engine.apply_chosen(trial, a)
            child = root.children[a] = Node(player)
            child.visits = child.avail = prior
            child.reward = prior * self._rewards(trial)(player)

    def _playout(self, root: Node, world, rng: random.Random) -> None:
        engine = self.engine
        is_over, legal_actions, current_player = engine.is_over, engine.legal_actions, engine.current_player
        apply = engine.apply_chosen
        rnd = rng.random
        node, path = root, []
        # down the tree: UCB among the moves legal in this world, until a move never tried
        while not is_over(world):
            legal = legal_actions(world)
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                action = untried[int(rnd() * len(untried))]
                node = children[action] = Node(current_player(world))
                apply(world, action)
                path.append(node)
                break
            best, best_score = None, -1.0
            for a in legal:
                child = children[a]
                score = child.reward / child.visits + EXPLORATION * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = a, score
            node = children[best]
            apply(world, best)
            path.append(node)
        # then at random, to the end or for `depth` moves
        steps = 0
        depth = self.depth
        while steps < depth and not is_over(world):
            legal = legal_actions(world)
            apply(world, legal[int(rnd() * len(legal))])
            steps += 1
        rewards = self._rewards(world)
        for node in path:
            node.visits += 1
            node.reward += rewards(node.player)

    def _rewards(self, world):
        """player -> the playout's reward for them: 1 a win, 0 a loss, a share of 1 a draw; for a
        playout stopped before the end, the engine's heuristic squashed between 0 and 1 (its
        scale: the mean size of the values met in this search so far)."""
        engine = self.engine
        if engine.is_over(world):
            winner = engine.winner(world)
            if winner is None:
                return lambda p: 0.5
            return lambda p: 1.0 if p == winner else 0.0
        scores = {}

        def reward(p):
            r = scores.get(p)
            if r is None:
                base = self._base.get(p)
                if base is None:
                    base = self._base[p] = engine.heuristic(self._base_world, p)
                h = engine.heuristic(world, p) - base
                self._size += abs(h)
                self._sized += 1
                scale = self._size / self._sized or 1.0
                r = scores[p] = 1.0 / (1.0 + exp(-2.0 * h / scale))
            return r
        return reward
