"""Amfibido heuristic for the greedy bots: score lead, the fight as it stands, the hand and
the knockout pile."""

from __future__ import annotations

from .state import OVER, R3


class HeuristicMixin:
    __slots__ = ()

    def heuristic(self, st, player) -> float:
        o = 1 - player
        info = st.box.info
        v = 100.0 * (st.score[player] - st.score[o])
        if st.phase == OVER:
            return v
        neut = self._neut(st)
        fight, home = self._board(st, neut)
        mine = theirs = draws = 0
        margin = 0.0
        for d in R3:
            a, b = fight[player][d], fight[o][d]
            if a < 0 and b < 0:
                draws += 1
                continue
            pa = self._power(st, player, d, a, home[player][d], b, neut) if a >= 0 else -1
            pb = self._power(st, o, d, b, home[o][d], a, neut, True) if b >= 0 else -1
            if pa > pb:
                mine += 1
            elif pb > pa:
                theirs += 1
            else:
                draws += 1
            m = pa - pb
            margin += 5 if m > 5 else (-5 if m < -5 else m)
        if mine >= 2 or (mine == 1 and draws == 2):
            v += 30
        elif theirs >= 2 or (theirs == 1 and draws == 2):
            v -= 30
        v += 6 * (mine - theirs) + 0.3 * margin
        v += 0.35 * sum(info[c].value for c in st.hand[player])
        v += 0.25 * sum(info[c].value for c in st.ko[player])
        if st.ko_new[player] or st.aside[player]:
            v += 0.2 * sum(info[c].value for c in st.ko_new[player] + st.aside[player])
        return v
