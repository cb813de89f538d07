"""Tide Runners in words: replay lines and the scenario forms (setup, actions, observe)."""

from __future__ import annotations

import random

from cardgen.engines.base import action_words

from .state import PASS, PLAY, ROWER, RaceState


class WordsMixin:
    def describe(self, s: RaceState, action) -> str:
        if action == PASS:
            return "passes: no card in hand"
        name = action[1]
        if self.kind[name] == ROWER:
            return f"rows with {name} ({self.number[name]})"
        return f"whistles up {name} against the rival boat ({self.number[name]})"

    def describe_outcome(self, before: RaceState, after: RaceState, action) -> str:
        d = after.distance
        line = f"boats at {d[0]} and {d[1]} of {after.finish}"
        if after.over:
            line += "; a draw" if after.winner is None else f"; P{after.winner + 1} wins"
        return line

    def scenario_state(self, setup: dict, rng: random.Random) -> RaceState:
        setup = setup or {}
        s = RaceState()
        s.rng = rng
        s.finish = self.long_finish if "long-race" in (setup.get("variants") or ()) else self.finish
        s.first = s.cur = int(setup.get("to_move", 0))
        s.over, s.winner = False, None
        s.distance, s.anchored = [0, 0], [False, False]
        s.hands, s.decks, s.discards = [[], []], [[], []], [[], []]
        for p in (0, 1):
            seat = setup.get(f"p{p}") or {}
            s.distance[p] = int(seat.get("distance", 0))
            s.anchored[p] = bool(seat.get("anchored", False))
            s.hands[p] = [self._card(n) for n in seat.get("hand") or ()]
            s.decks[p] = [self._card(n) for n in reversed(seat.get("deck") or ())]
        s.owned = [len(s.hands[p]) + len(s.decks[p]) for p in (0, 1)]
        return s

    def _card(self, name) -> str:
        if name not in self.kind:
            raise ValueError(f"no card named {name!r}")
        return name

    def parse_action(self, s: RaceState, spec):
        words = action_words(spec)
        if words == ["pass"]:
            return PASS
        if len(words) == 2 and str(words[0]).lower() == "play":
            return (PLAY, self._card(str(words[1]).strip()))
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, s: RaceState) -> dict:
        out = {"to_move": self.current_player(s), "over": s.over,
               "winner": (s.winner if s.winner is not None else "draw") if s.over else None}
        for p in (0, 1):
            out[f"p{p}"] = {"distance": s.distance[p], "hand": sorted(s.hands[p]),
                            "deck_size": len(s.decks[p]), "anchored": s.anchored[p]}
        return out
