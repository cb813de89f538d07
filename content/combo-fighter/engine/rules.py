"""Combo Fighter's rules resolution: a fight's start, the face-down choice, the reveal and the win
circle, the result window, opening damage and effects, the combo, damage, the end of the round
(discards, refills, end-of-round token effects, 2v2's assist and tag) and the end of a fight.

Each step runs on until a player must decide, leaving the phase and the player to move."""

from __future__ import annotations

from . import grammar as G
from .shuffle import shuffle
from .state import (
    ASSIST,
    ATT,
    BEATS,
    CHOOSE,
    COMBO,
    DAMAGE,
    DEF,
    DISCARD,
    FORESEE,
    LAST_PLAYED,
    NO_CARD,
    NO_SIG,
    NO_TYPE,
    NOBODY,
    NOT_PICKED,
    OVER,
    REACT,
    RECOVER,
    SIDE_A,
    SIDE_B,
    SOLO_DRAW,
    START,
    TAG,
    TEAM,
    TIE,
    TWO_VS_TWO,
    UNDECIDED,
    CFState,
    Fighter,
    Side,
)


class RulesMixin:
    __slots__ = ()

    def _reset(self, s: CFState, f: Fighter) -> None:
        cards = list(f.cards)
        aside = list(f.start_aside)
        for c in aside:
            cards.remove(c)
        hand = []
        if not f.solo:
            hand = list(f.start_hand)
            for c in hand:
                cards.remove(c)
        shuffle(s.rng, cards)
        f.hand, f.deck, f.discard, f.aside = hand, cards, [], aside
        f.side, f.stag, f.used, f.ko = SIDE_A, False, False, False

    def _new_fight(self, s: CFState) -> None:
        for f in s.fs:
            self._reset(s, f)
        s.round = 0
        s.played = [[], []]
        s.choice = [NO_CARD, NO_CARD]
        if s.mode == TWO_VS_TWO:
            s.starts = [NOT_PICKED, NOT_PICKED]
            s.phase, s.cur = START, 0
            return
        self._begin_round(s)

    def _begin_round(self, s: CFState) -> None:
        s.late = False
        s.round += 1
        s.choice = [NO_CARD, NO_CARD]
        s.played = [[], []]
        s.result = UNDECIDED
        s.dmg = [0, 0]
        s.sig = NO_SIG
        s.phase = CHOOSE
        self._next_chooser(s)

    def _next_chooser(self, s: CFState) -> None:
        for seat in (0, 1):
            if s.choice[seat] < 0:
                f = s.fs[s.act[seat]]
                if f.hand and not f.solo:
                    s.cur = seat
                    return
                if not (f.deck or f.discard):
                    f.ko = True                 # nothing left to play
                    self._end_fight(s)
                    return
                if not f.solo:
                    s.cur = seat                # an empty hand plays the top card ("top")
                    return
                self._play_top(s, seat)
        self._reveal(s)

    def _play_top(self, s: CFState, seat: int) -> None:
        f = s.fs[s.act[seat]]
        if not f.deck:
            self._deck_out(s, f)
        c = f.deck.pop()
        if not f.deck:
            self._deck_out(s, f)
        s.choice[seat] = c
        s.played[seat].append(c)

    def _deck_out(self, s: CFState, f: Fighter) -> None:
        """A draw took the last card of the deck, or a draw is due from a deck already empty (damage
        or a cost emptied it): Staggering, and the discard pile is shuffled into the new deck."""
        f.stag = True
        if f.discard:
            f.deck = f.discard
            f.discard = []
            shuffle(s.rng, f.deck)

    def _draw(self, s: CFState, f: Fighter) -> bool:
        deck = f.deck
        if not deck:
            if not f.discard:
                return False
            self._deck_out(s, f)
            deck = f.deck
        f.hand.append(deck.pop())
        if not deck:
            self._deck_out(s, f)
        return True

    def _x(self, f: Fighter, pos: int) -> int:
        side = f.ch.sides[f.side]
        m = side.x_mode
        if m == G.X_CONST:
            return side.x_val
        if m == G.X_BEFORE:
            return pos + side.x_val
        if m == G.X_ASIDE:
            return f.aside.count(side.x_card)
        return 0

    def _clash(self, c0: int, c1: int, s0: Side, s1: Side, extra0: int = 0, extra1: int = 0) -> int:
        """The win circle: 0 or 1 for the winning seat, TIE."""
        t0, t1 = self.ctype[c0], self.ctype[c1]
        if t0 == t1:
            if t0 == ATT:
                sp0 = self.speed[c0] + s0.speed + extra0
                sp1 = self.speed[c1] + s1.speed + extra1
                if sp0 != sp1:
                    return 0 if sp0 > sp1 else 1
                q0, q1 = self.quick[c0], self.quick[c1]
                if q0 != q1:
                    return 0 if q0 else 1
                return TIE
            p0 = self.prio[c0] or s0.prio[t0]
            p1 = self.prio[c1] or s1.prio[t1]
            if p0 != p1:
                return 0 if p0 else 1
            return TIE
        if t0 == ATT and t1 == DEF:
            return 0 if self.gbreak[c0] and not (self.prio[c1] or s1.prio[DEF]) else 1
        if t1 == ATT and t0 == DEF:
            return 1 if self.gbreak[c1] and not (self.prio[c0] or s0.prio[DEF]) else 0
        return 0 if BEATS[t0] == t1 else 1

    def _compare(self, s: CFState) -> int:
        f0, f1 = s.fs[s.act[0]], s.fs[s.act[1]]
        return self._clash(s.choice[0], s.choice[1], f0.ch.sides[f0.side], f1.ch.sides[f1.side])

    def _reveal(self, s: CFState) -> None:
        """The face-down cards are revealed: the win circle, then the result window for each
        fighter that can pay its token's reveal cost (done in place: once a round)."""
        s.fresh = True
        f0, f1 = s.fs[s.act[0]], s.fs[s.act[1]]
        side0, side1 = f0.ch.sides[f0.side], f1.ch.sides[f1.side]
        s.result = self._clash(s.choice[0], s.choice[1], side0, side1)
        cost0, cost1 = side0.reveal_cost, side1.reveal_cost
        r0 = cost0 >= 0 and len(f0.deck) >= cost0
        r1 = cost1 >= 0 and len(f1.deck) >= cost1
        if r0 or r1:
            s.canreact = [r0, r1]
            s.asked = [False, False]
            self._react_next(s)
        else:
            self._settle(s)

    def _react_next(self, s: CFState) -> None:
        r = s.result
        first = 1 - r if r >= 0 else 0
        for seat in (first, 1 - first):
            if s.canreact[seat] and not s.asked[seat]:
                s.phase, s.cur = REACT, seat
                return
        self._settle(s)

    def _open_dmg(self, s: CFState, seat: int) -> int:
        c = s.choice[seat]
        x = self.od_x[c]
        return self.od_c[c] + (x * self._x(s.fs[s.act[seat]], 0) if x else 0)

    def _settle(self, s: CFState) -> None:
        """The round's result is final: opening damage, Opener effects, then the combo."""
        r = s.result
        if r == TIE:
            s.dmg[0] = self._open_dmg(s, 0)
            s.dmg[1] = self._open_dmg(s, 1)
            self._deal(s)
            return
        s.dmg[r] = self._open_dmg(s, r)
        f = s.fs[s.act[r]]
        if f.solo:
            for _ in range(SOLO_DRAW):
                if not self._draw(s, f):
                    break
        op = self.opener[s.choice[r]]
        if op:
            s.fx = [(r, o, a) for o, a in op]
            self._run_fx(s)
        else:
            self._combo(s)

    def _run_fx(self, s: CFState) -> None:
        fx = s.fx
        while fx:
            seat, op, arg = fx.pop(0)
            f = s.fs[s.act[seat]]
            if op == G.DRAW:
                for _ in range(arg):
                    if not self._draw(s, f):
                        break
            elif op == G.FLIP_IF:
                if f.side == arg:
                    f.side ^= 1
            elif op == G.RECOVER:
                n = min(arg, len(f.discard))
                if n:
                    s.rec_left, s.rec_seat = n, seat
                    s.phase, s.cur = RECOVER, seat
                    return
            elif op == G.FORESEE:
                n = min(arg, len(f.deck))
                if n > 1:
                    s.fore_n = n
                    s.phase, s.cur = FORESEE, seat
                    return
        self._combo(s)

    def _combo(self, s: CFState) -> None:
        """The winner combos on while a card of the hand (or the token's set-aside card) fits the
        last card's combo box or the cards played are a signature combo; else the round ends."""
        w = s.result
        if w < 0:
            self._deal(s)
            return
        f = s.fs[s.act[w]]
        pl = s.played[w]
        fits = self.follows[pl[-1]]
        for c in f.hand:
            if fits[c]:
                s.phase, s.cur = COMBO, w
                return
        pa = f.ch.sides[f.side].play_aside
        if ((pa >= 0 and not f.used and fits[pa] and pa in f.aside)
                or (len(pl) >= 2 and tuple(pl) in f.ch.sig_by_cards)):
            s.phase, s.cur = COMBO, w
        else:
            self._finish(s, NO_SIG)

    def _finish(self, s: CFState, sig: int) -> None:
        w = s.result
        if sig >= 0:
            f = s.fs[s.act[w]]
            _name, _cards, basic, power = f.ch.sigs[sig]
            s.dmg[w] = power if f.side == SIDE_B and power else basic
            s.sig = sig
        self._deal(s)

    def _deal(self, s: CFState) -> None:
        r = s.result
        d0 = s.dmg[0] if s.dmg[0] > 0 else 0
        d1 = s.dmg[1] if s.dmg[1] > 0 else 0
        if r == TIE:
            s.take = [d1, d0]
        elif r == 0:
            d1 = 0
            s.take = [0, d0]
        else:
            d0 = 0
            s.take = [d1, 0]
        sig = None
        if s.sig >= 0:
            sig = s.fs[s.act[r]].ch.sigs[s.sig][0]
        s.last = (r, d0, d1, tuple(s.played[0]), tuple(s.played[1]), sig)
        self._damage(s)

    def _damage(self, s: CFState) -> None:
        """Each seat takes the points it owes (both in a tie), one card a point from hand or deck.
        A fighter who is Staggering, or whose points reach the last card left in hand and deck, is
        knocked out; both at once (a tie) is a drawn fight. A knockout ends the fight before anyone
        chooses cards to lose (those would all go back into the decks). Damage never makes a
        fighter Staggering: only a draw does."""
        take = s.take
        out = False
        for seat in (0, 1):
            t = take[seat]
            if t:
                f = s.fs[s.act[seat]]
                if f.stag or len(f.hand) + len(f.deck) <= t:
                    f.ko = out = True
        if out:
            s.take = [0, 0]
            self._end_fight(s)
            return
        for seat in (0, 1):
            t = take[seat]
            if not t:
                continue
            f = s.fs[s.act[seat]]
            if f.hand and not f.solo:
                s.phase, s.cur = DAMAGE, seat
                return
            deck = f.deck
            while t and deck:
                f.discard.append(deck.pop())
                t -= 1
            while t:                        # (the solo AI: its drawn cards, once the deck is gone)
                f.discard.append(f.hand.pop())
                t -= 1
            take[seat] = 0
        if s.late:                          # the solo AI's leftovers, at the end of the round
            self._refills(s)
        else:
            self._end_round(s)

    def _end_round(self, s: CFState) -> None:
        """The round's cards go to the discard piles. The solo AI's drawn cards it did not play are
        discarded too (or go under its deck, by its sheet's rule), each dealing 1 damage to its
        opponent, taken now; then the discards and refills."""
        r = s.result
        for seat in (0, 1):
            f = s.fs[s.act[seat]]
            f.discard.extend(s.played[seat])
            if f.solo and f.hand:
                bottom = f.ch.solo.bottom_type if r == seat else NO_TYPE
                hits = 0
                for c in f.hand:
                    if self.ctype[c] == bottom:
                        f.deck.insert(0, c)
                    else:
                        f.discard.append(c)
                        hits += 1
                f.hand = []
                s.take[1 - seat] += hits
        s.played = [[], []]
        if s.take[0] or s.take[1]:
            s.late = True
            self._damage(s)
            return
        self._refills(s)

    def _refills(self, s: CFState) -> None:
        s.late = False
        s.dseat = 0
        self._discard_next(s)

    def _discard_next(self, s: CFState) -> None:
        while s.dseat < 2:
            seat = s.dseat
            f = s.fs[s.act[seat]]
            if not f.solo:
                if f.hand:
                    s.phase, s.cur = DISCARD, seat
                    return
                self._refill(s, seat)
            s.dseat += 1
        self._eor(s)

    def _limit(self, s: CFState, seat: int) -> int:
        o = s.fs[s.act[1 - seat]]
        lim = o.ch.sides[o.side].opp_limit
        return lim if 0 < lim < self.hand_limit else self.hand_limit

    def _refill(self, s: CFState, seat: int) -> None:
        f = s.fs[s.act[seat]]
        need = self._limit(s, seat) - len(f.hand)
        if need <= 0:
            return
        deck = f.deck
        if len(deck) > need:                # the common case: no Staggering on the way
            f.hand.extend(deck[:-need - 1:-1])
            del deck[-need:]
            return
        while need > 0 and self._draw(s, f):
            need -= 1

    def _eor(self, s: CFState) -> None:
        """End-of-round effects, the winner's first; then 2v2's assist and tag; next round."""
        r = s.result
        first = r if r >= 0 else 0
        for seat in (first, 1 - first):
            f = s.fs[s.act[seat]]
            side = f.ch.sides[f.side]
            if not side.eor and side.aside_card < 0:
                continue
            won, flip = r == seat, False
            ac = side.aside_card
            if ac >= 0 and won and ac in s.last[LAST_PLAYED + seat]:
                if ac in f.discard:
                    f.discard.remove(ac)
                    f.aside.append(ac)
                elif ac in f.deck:
                    f.deck.remove(ac)       # (an emptied deck waits for the next draw)
                    f.aside.append(ac)
                if side.aside_flip_at and f.aside.count(ac) >= side.aside_flip_at:
                    flip = True
            for cond, arg in side.eor:
                if (cond == G.EOR_ALWAYS or (cond == G.EOR_WON and won)
                        or (cond == G.EOR_LOST and r == 1 - seat)
                        or (cond == G.EOR_WON_FIRST and won and self.ctype[s.choice[seat]] == arg)
                        or (cond == G.EOR_DECK_LE and len(f.deck) <= arg)):
                    flip = True
            if flip:
                f.side ^= 1
        if s.mode == TWO_VS_TWO and r >= 0:
            if s.fs[self._bench(s, r)].discard:
                s.phase, s.cur = ASSIST, r
            else:
                s.phase, s.cur = TAG, r
            return
        self._begin_round(s)

    @staticmethod
    def _bench(s: CFState, team: int) -> int:
        """2v2: the team's fighter on the bench (index into s.fs)."""
        a, b = TEAM[team]
        return b if s.act[team] == a else a

    def _end_fight(self, s: CFState) -> None:
        s.late = False
        k0, k1 = s.fs[s.act[0]].ko, s.fs[s.act[1]].ko
        res = TIE if k0 and k1 else (1 if k0 else 0)
        s.results.append(res)
        if res >= 0:
            s.wins[res] += 1
        s.fights += 1
        w0, w1 = s.wins
        need = self.fights_to_win
        if w0 >= need or w1 >= need or (s.fights >= self.best_of and w0 != w1):
            s.win = 0 if w0 > w1 else 1
            s.phase, s.cur = OVER, NOBODY
            return
        self._new_fight(s)

