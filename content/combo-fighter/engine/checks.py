"""Combo Fighter's invariants: cheap checks of the cards and counters after each move, and the
messages that say what is off."""

from __future__ import annotations

from .state import CHOOSE, DAMAGE, NOBODY, OVER, TIE, CFState

HAND_BOUND = 11         # no rule lets a hand hold more cards


class ChecksMixin:
    __slots__ = ()

    def invariants(self, s: CFState) -> list[str]:
        """Cheap on most steps (the two fighters in the ring: card count); every fighter's cards by
        checksum, and the match counters, once a round when the face-down cards are chosen.
        Messages are worked out only when something is off. (A deck may be empty without
        Staggering: damage and costs empty it, only a draw makes the fighter Staggering.)"""
        ph = s.phase
        fs = s.fs
        if fs and ph != CHOOSE and ph != OVER:
            played = s.played
            f = fs[s.act[0]]
            if len(f.hand) + len(f.deck) + len(f.discard) + len(f.aside) + len(played[0]) != f.total:
                return self._explain(s)
            f = fs[s.act[1]]
            if len(f.hand) + len(f.deck) + len(f.discard) + len(f.aside) + len(played[1]) != f.total:
                return self._explain(s)
            return []
        ok = True
        over = ph == OVER
        if fs:
            a0, a1 = s.act
            played = s.played
            for i, f in enumerate(fs):
                h, d, x, a = f.hand, f.deck, f.discard, f.aside
                n = len(h) + len(d) + len(x) + len(a)
                t = sum(h) + sum(d) + sum(x) + sum(a)
                if i == a0:
                    n += len(played[0])
                    t += sum(played[0])
                elif i == a1:
                    n += len(played[1])
                    t += sum(played[1])
                if n != f.total or t != f.checksum or len(h) > HAND_BOUND or (f.ko and not over):
                    ok = False
        w0, w1 = s.wins
        if over:
            ok = ok and s.cur == NOBODY and s.win in (0, 1) and s.wins[s.win] > s.wins[1 - s.win]
        else:
            ok = (ok and w0 < self.fights_to_win and w1 < self.fights_to_win and 0 <= s.cur <= 1
                  and s.take[0] >= 0 and s.take[1] >= 0
                  and not (ph == CHOOSE and s.choice[s.cur] >= 0))
        if ok and len(s.results) == s.fights:
            return []
        return self._explain(s)

    def _explain(self, s: CFState) -> list[str]:
        out = []
        fs = s.fs
        inring = {s.act[0]: 0, s.act[1]: 1} if fs else {}
        for i, f in enumerate(fs):
            n = len(f.hand) + len(f.deck) + len(f.discard) + len(f.aside)
            total = sum(f.hand) + sum(f.deck) + sum(f.discard) + sum(f.aside)
            seat = inring.get(i)
            if seat is not None:
                n += len(s.played[seat])
                total += sum(s.played[seat])
            if n != f.total or total != f.checksum:
                out.append(f"{f.label}: {n} cards across zones, the deck has {f.total} "
                           "(cards created or lost)")
            if len(f.hand) > HAND_BOUND:
                out.append(f"{f.label}: {len(f.hand)} cards in hand")
            if f.ko and s.phase not in (OVER, DAMAGE):   # (a tie's other damage still pending)
                out.append(f"{f.label}: knocked out while the fight goes on")
        w0, w1 = s.wins
        need = self.fights_to_win
        if s.phase == OVER:
            if s.win not in (0, 1) or s.wins[s.win] <= s.wins[1 - s.win]:
                out.append(f"winner {s.win} does not match fight wins {s.wins}")
            if s.cur != NOBODY:
                out.append("a player to move after the end")
        else:
            if w0 >= need or w1 >= need:
                out.append(f"fight wins {s.wins} but the match goes on")
            if s.cur not in (0, 1):
                out.append(f"player to move {s.cur}")
            if min(s.take) < 0:
                out.append(f"damage still to take {s.take}")
            if s.phase == CHOOSE and s.choice[s.cur] >= 0:
                out.append("asked to choose a second face-down card")
        if len(s.results) != s.fights or w0 + w1 + s.results.count(TIE) != s.fights:
            out.append(f"{s.fights} fights but results {s.results}")
        return out

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self._unsupported)

