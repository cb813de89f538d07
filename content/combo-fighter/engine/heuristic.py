"""Combo Fighter's bots and heuristic: the solo AI bot, and a position's value for the search
bots (fight wins, cards left, the round under way, the hand; no hidden card read)."""

from __future__ import annotations

from . import grammar as G
from .solo import SoloBot
from .state import CHOOSE, COMBO, DAMAGE, FORESEE, OVER, REACT, RECOVER, CFState, Fighter


class BotsMixin:
    __slots__ = ()

    def bots(self) -> dict:
        return {"solo": SoloBot}

    def _hp(self, f: Fighter) -> float:
        return -3.0 if f.stag else float(len(f.hand) + len(f.deck))

    def heuristic(self, s: CFState, player: int) -> float:
        """Fight wins, cards left to lose, the round under way and the hand's quality, on one
        scale in every phase (the search bot compares positions across phases).

        Reads no hidden card: while the face-down cards are chosen (and on the state right after
        the reveal, which a one-ply lookahead of the second chooser would otherwise peek at) the
        round under way is valued by the player's own card against the opponent's whole deck
        list."""
        if s.phase == OVER:
            return 1000.0 if s.win == player else -1000.0
        if not s.fs:
            return 0.0
        o = 1 - player
        fp, fo = s.fs[s.act[player]], s.fs[s.act[o]]
        v = 40.0 * (s.wins[player] - s.wins[o]) + self._hp(fp) - self._hp(fo)
        value = self.value
        avg = fp.avg
        v += 0.1 * sum(value[c] - avg for c in fp.hand)
        side = fp.ch.sides[fp.side]
        if side.x_mode == G.X_ASIDE:
            v += 0.8 * fp.aside.count(side.x_card)
        v += 0.5 * fp.side - 0.5 * fo.side
        if s.fresh or (s.phase == CHOOSE and s.choice[player] >= 0):
            return v + self._choice_value(s, player)
        ph = s.phase
        r = s.result
        if ph in (COMBO, RECOVER, FORESEE):
            if r == player:
                v += s.dmg[player] + 0.5 * self._follow_ups(s, player)
            elif r == o:
                v -= s.dmg[o] + 1.5
        elif ph == REACT:
            v += 2.0 if r == player else -2.0 if r == o else 0.0
        elif ph == DAMAGE:
            v += s.take[o] - s.take[player]
        return v

    def _avg(self, cards) -> float:
        value = self.value
        return sum(value[c] for c in cards) / max(1, len(cards))

    def _follow_ups(self, s: CFState, seat: int) -> int:
        f = s.fs[s.act[seat]]
        pl = s.played[seat]
        mask = self.cbox[pl[-1]] if pl else 0
        return sum(1 for c in f.hand if mask >> self.button[c] & 1)

    def _choice_value(self, s: CFState, p: int) -> float:
        """Expected round swing of p's face-down card against the opponent's deck list."""
        c = s.choice[p]
        if c < 0 or not s.fs:
            return 0.0
        fp, fo = s.fs[s.act[p]], s.fs[s.act[1 - p]]
        sp, so = fp.ch.sides[fp.side], fo.ch.sides[fo.side]
        xp, xo = self._x(fp, 0), self._x(fo, 0)
        od_c, od_x, cbox = self.od_c, self.od_x, self.cbox
        mine = od_c[c] + od_x[c] * xp
        total = 0.0
        for k, m in fo.comp:
            r = self._clash(c, k, sp, so)
            theirs = od_c[k] + od_x[k] * xo
            if r == 0:
                total += m * (mine + (1.5 if cbox[c] else 0.0))
            elif r == 1:
                total -= m * (theirs + (1.5 if cbox[k] else 0.0))
            else:
                total += m * (mine - theirs)
        # (the card's value as it left the hand is counted by the hand term)
        return total / max(1, len(fo.cards))

