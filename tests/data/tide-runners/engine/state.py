"""The state of a Tide Runners match, and the action values."""

from __future__ import annotations

import random

from ..common import GUST, ROWER

PASS = ("pass",)
PLAY = "play"
__all__ = ["GUST", "PASS", "PLAY", "ROWER", "RaceState"]


class RaceState:
    __slots__ = ("rng", "cur", "first", "distance", "hands", "decks", "discards", "anchored",
                 "over", "winner", "owned", "finish")

    def copy(self) -> RaceState:
        c = RaceState()
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c.cur, c.first, c.over, c.winner, c.owned = self.cur, self.first, self.over, self.winner, self.owned
        c.finish = self.finish
        c.distance, c.anchored = self.distance[:], self.anchored[:]
        c.hands = [h[:] for h in self.hands]
        c.decks = [d[:] for d in self.decks]          # top card last
        c.discards = [d[:] for d in self.discards]
        return c
