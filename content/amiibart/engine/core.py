"""The Amiibart engine class: its parts (the mixins of the other modules) joined, and what is left
of the Engine contract: whose move it is, the winner, clones, invariants and the greedy bot's
heuristic."""

from __future__ import annotations

import random

from cardgen.engines.base import Engine

from .actions import ActionsMixin
from .attacks import AttacksMixin
from .cards import CardsMixin
from .damage import DamageMixin
from .effects import EffectsMixin
from .grammar import BLOCK, KW_BITS
from .legal import LegalMixin
from .picks import PicksMixin
from .replay import ReplayMixin
from .scenarios import ScenariosMixin
from .setups import SetupsMixin
from .state import State
from .triggers import TriggersMixin
from .turns import TurnsMixin


class AmiibartEngine(CardsMixin, SetupsMixin, LegalMixin, ActionsMixin, TurnsMixin, TriggersMixin,
                     AttacksMixin, DamageMixin, EffectsMixin, PicksMixin, ScenariosMixin, ReplayMixin,
                     Engine):
    """The Amiibart TCG rules (the package's docstring); each part is a mixin of its own module."""

    game_id = "amiibart"
    max_actions = 3000
    keywords = frozenset(KW_BITS)
    # The house variants it plays (game.yaml `variants:` says each in full; state.VARIANT_BITS)
    variants = {
        "raised-health-cap": '"+N Health" also raises the Health a fighter may be healed up to',
        "update-in-place": "an Update's new fighter takes the old one's slot, not the left-most empty one",
    }

    def __init__(self, game):
        super().__init__(game)
        self._read_game(game)

    def current_player(self, s) -> int:
        if s.over:
            return -1
        if s.pending is not None:
            return s.pending[0]
        return s.cur

    def first_player(self, s) -> int:
        return s.first

    def is_over(self, s) -> bool:
        return s.over

    def winner(self, s):
        return s.win

    def clone(self, s):
        c = State.__new__(State)
        c.p = [s.p[0].copy(), s.p[1].copy()]
        c.cur, c.turn, c.first, c.turn_one = s.cur, s.turn, s.first, s.turn_one
        r = random.Random.__new__(random.Random)
        r.setstate(s.rng.getstate())
        c.rng = r
        c.queue = s.queue[:]
        c.pending, c.over, c.win, c.uid = s.pending, s.over, s.win, s.uid
        c.atk = None if s.atk is None else s.atk[:]
        c.ending, c.legal, c.dirty, c.kill_side = s.ending, None, s.dirty, s.kill_side
        c.heal_amt, c.flag, c.acc, c.reason, c.dead = s.heal_amt, s.flag, s.acc, s.reason, s.dead
        return c

    def invariants(self, s):
        bad = []
        over = s.over
        for i in (0, 1):
            pl = s.p[i]
            nh = sum(pl.hand)
            n = nh + len(pl.hazards) + len(pl.discard) + len(pl.void) + (pl.stage >= 0)
            for f in pl.slots:
                if f is None:
                    continue
                if not f.token:
                    n += 1
                if f.hp > f.maxhp + f.gain:
                    bad.append(f"player {i}: {self.names[f.card]} has {f.hp} Health, above {f.maxhp} "
                               f"and the {f.gain} it gained")
                if f.hp <= 0 and s.pending is None and not over:
                    bad.append(f"player {i}: dead {self.names[f.card]} still in play")
            if n != pl.total:
                bad.append(f"player {i}: {n} cards across zones, deck has {pl.total}")
            if nh != pl.nh or min(map(pl.hand.__getitem__, pl.deck), default=0) < 0:
                bad.append(f"player {i}: hand size {pl.nh} but {nh} cards in hand")
            if not 0 <= pl.tokens <= 2 * self.lose_tokens:
                bad.append(f"player {i}: {pl.tokens} death tokens")
            if pl.tokens >= self.lose_tokens and not over:
                bad.append(f"player {i} has {pl.tokens} death tokens but the match goes on")
            if pl.energy < 0:
                bad.append(f"player {i}: energy {pl.energy}")
            if len(pl.hazards) > 1 and len(set(pl.hazards)) != len(pl.hazards):
                bad.append(f"player {i}: two copies of one Hazard in play")
            if pl.pa != (tuple(x for x in pl.apw if not pl.used >> x[0] & 1) if pl.on else ()):
                bad.append(f"player {i}: the Active Powers left this turn do not match those used")
            if pl.played > (self.opening if pl.turns == 1 else self.per_turn):
                bad.append(f"player {i}: {pl.played} fighters played this turn")
        if over and s.win not in (0, 1):
            bad.append("over without a winner")
        if not over and s.pending is None and s.queue:
            bad.append("jobs left in the queue between actions")
        return bad

    def heuristic(self, s, player):
        if s.over:
            return 1e6 if s.win == player else -1e6
        v = 0.0
        for i in (0, 1):
            pl = s.p[i]
            sign = 1.0 if i == player else -1.0
            side = -1000.0 * pl.tokens
            for f in pl.slots:
                if f is not None:
                    # (a "this turn" bonus is worth nothing once the turn ends: the damage it
                    # adds shows in the opposing Health when the attack lands)
                    a = max(self._atk(pl, f) - f.tmp, 0)
                    side += 120 + a * 0.8 + f.hp * 0.6
                    if f.kw & BLOCK:
                        side += 40
                    if f.token:
                        side -= 60
            if pl.stall:
                side -= 150 * pl.stall * pl.stall
            v += sign * side
        return v

    def bots(self):
        return {}
