"""Tide Runners' rules: setups, legal moves and what a move does."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from cardgen.engines.base import Engine, Setup

from .state import GUST, PASS, PLAY, ROWER, RaceState
from .words import WordsMixin


class TideEngine(WordsMixin, Engine):
    keywords = frozenset({"Anchor"})
    variants = {"long-race": "the finish line is tables.long_race_finish"}

    def __init__(self, game):
        super().__init__(game)
        self.finish = int(game.tables.get("finish_line", 12))
        self.long_finish = int(game.tables.get("long_race_finish", self.finish))
        self.hand_size = int(game.tables.get("hand_size", 3))
        self.kind = {name: card.type for name, card in game.cards.items()}
        self.number = {name: int(card.get("strength") or card.get("push") or 0)
                       for name, card in game.cards.items()}
        self.anchor = {name: "Anchor" in (card.get("keywords") or ()) for name, card in game.cards.items()}

    def setups(self, decks=None, *, players=None, variants=()) -> list[Setup]:
        if not decks:
            from cardgen.model import load_deck

            decks = [load_deck(p) for p in sorted(Path(self.game.folder, "decks").glob("*.yaml"))]
        lists = [(d.name, [e.card.name for e, n in d.counted_entries() for _ in range(n)]) for d in decks]
        pairs = list(itertools.permutations(lists, 2)) or [(d, d) for d in lists[:1]]
        finish = self.long_finish if "long-race" in variants else self.finish
        return [Setup(label=f"{a[0]} vs {b[0]}", seats=[a[0], b[0]],
                      options={"decks": [a[1], b[1]], "finish": finish},
                      seat_cards=(frozenset(a[1]), frozenset(b[1]))) for a, b in pairs]

    def initial_state(self, setup: Setup, rng: random.Random) -> RaceState:
        s = RaceState()
        s.rng = rng
        s.finish = setup.options.get("finish", self.finish)
        s.decks = [list(cards) for cards in setup.options["decks"]]
        for deck in s.decks:
            rng.shuffle(deck)
        s.owned = [len(d) for d in s.decks]
        s.hands, s.discards = [[], []], [[], []]
        s.distance, s.anchored = [0, 0], [False, False]
        s.over, s.winner = False, None
        s.first = s.cur = rng.randrange(2)
        for p in (0, 1):
            for _ in range(self.hand_size):
                self._draw(s, p)
        return s

    def current_player(self, s: RaceState) -> int:
        return -1 if s.over else s.cur

    def first_player(self, s: RaceState) -> int:
        return s.first

    def is_over(self, s: RaceState) -> bool:
        return s.over

    def winner(self, s: RaceState):
        return s.winner

    def clone(self, s: RaceState) -> RaceState:
        return s.copy()

    def legal_actions(self, s: RaceState) -> list:
        if s.over:
            return []
        hand = s.hands[s.cur]
        return [(PLAY, name) for name in dict.fromkeys(hand)] if hand else [PASS]

    def apply_chosen(self, s: RaceState, action) -> RaceState:
        p, o = s.cur, 1 - s.cur
        if action[0] == PLAY:
            name = action[1]
            s.hands[p].remove(name)
            s.discards[p].append(name)
            if self.kind[name] == ROWER:
                s.distance[p] += self.number[name]
                s.anchored[p] = self.anchor[name]
            elif self.kind[name] == GUST and not s.anchored[o]:
                s.distance[o] = max(0, s.distance[o] - self.number[name])
            if s.distance[p] >= s.finish:
                s.over, s.winner = True, p
                return s
        self._draw(s, p)
        if not any(s.hands) and not any(s.decks):
            s.over = True
            d = s.distance
            s.winner = None if d[0] == d[1] else (0 if d[0] > d[1] else 1)
            return s
        s.cur = o
        return s

    def _draw(self, s: RaceState, p: int) -> None:
        if s.decks[p]:
            s.hands[p].append(s.decks[p].pop())

    def invariants(self, s: RaceState) -> list[str]:
        out = []
        for p in (0, 1):
            held = len(s.decks[p]) + len(s.hands[p]) + len(s.discards[p])
            if held != s.owned[p]:
                out.append(f"P{p + 1} holds {held} cards, not {s.owned[p]}")
            if s.distance[p] < 0:
                out.append(f"P{p + 1}'s boat is behind the start")
        return out

    def card_of(self, s: RaceState, action) -> str | None:
        return action[1] if action[0] == PLAY else None

    def heuristic(self, s: RaceState, player: int) -> float:
        if s.over:
            return 0.0 if s.winner is None else 100.0 if s.winner == player else -100.0
        return float(s.distance[player] - s.distance[1 - player])
