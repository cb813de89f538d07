"""Combo Fighter's moves: apply_chosen (a move of the legal list, per phase), the combo and the
result window's moves, and clone."""

from __future__ import annotations

import random

from cardgen.engines.base import IllegalAction, redeal

from .shuffle import shuffle
from .state import (
    ASSIST,
    CHOOSE,
    COMBO,
    DAMAGE,
    DISCARD,
    DISCARD_ANY,
    FLIP,
    FORESEE,
    NO_CARD,
    NO_SIG,
    PASS,
    PICK,
    PICK_ACTS,
    REACT,
    RECOVER,
    START,
    START_ACTS,
    STAY,
    STOP,
    TAG,
    TAG_OUT,
    TEAM,
    TOP,
    TWO_VS_TWO,
    CFState,
    Fighter,
)


class MovesMixin:
    __slots__ = ()

    def apply_chosen(self, s: CFState, action) -> CFState:
        s.fresh = False
        ph = s.phase
        if ph == CHOOSE:
            seat = s.cur
            f = s.fs[s.act[seat]]
            if action == TOP and not f.hand:
                if not (f.deck or f.discard):
                    raise IllegalAction("no card left to play")
                self._play_top(s, seat)
            else:
                try:
                    c = self.a_play[action]
                    f.hand.remove(c)
                except (KeyError, ValueError, TypeError):
                    raise IllegalAction(f"{action!r}: not a card in hand") from None
                s.choice[seat] = c
                s.played[seat].append(c)
            self._next_chooser(s)
        elif ph == DISCARD:
            seat = s.cur
            f = s.fs[s.act[seat]]
            f.discard.extend(self._take_from_hand(f, action, "discard", DISCARD_ANY))
            self._refill(s, seat)
            s.dseat += 1
            self._discard_next(s)
        elif ph == COMBO:
            self._apply_combo(s, action)
        elif ph == DAMAGE:
            seat = s.cur
            f = s.fs[s.act[seat]]
            t = s.take[seat]
            deck = f.deck
            least = t - len(deck)           # the points the deck cannot pay come from the hand
            if (least > 0 and isinstance(action, tuple) and len(action) == 2
                    and isinstance(action[1], tuple) and len(action[1]) < least):
                raise IllegalAction(f"{action!r}: the deck holds {len(deck)} cards, so at least "
                                    f"{least} of the {t} points come from the hand")
            taken = self._take_from_hand(f, action, "hit", t)
            f.discard.extend(taken)
            for _ in range(t - len(taken)):     # the rest from the top of the deck
                f.discard.append(deck.pop())
            s.take[seat] = 0
            self._damage(s)
        elif ph == REACT:
            self._apply_react(s, action)
        elif ph == RECOVER:
            f = s.fs[s.act[s.rec_seat]]
            c = self.a_rec.get(action)
            if c is None or c not in f.discard:
                raise IllegalAction(f"{action!r}: not a card in the discard pile")
            f.discard.remove(c)
            f.deck.append(c)
            s.rec_left -= 1
            if s.rec_left <= 0 or not f.discard:
                shuffle(s.rng, f.deck)
                self._run_fx(s)
        elif ph == FORESEE:
            if action not in self._orders(s):
                raise IllegalAction(f"{action!r}: not an order of the top cards")
            f = s.fs[s.act[s.cur]]
            n = s.fore_n
            f.deck[-n:] = [self.kind[x] for x in reversed(action[1])]
            self._run_fx(s)
        elif ph == ASSIST:
            team = s.cur
            if action != PASS:
                b = s.fs[self._bench(s, team)]
                c = self.a_rec.get(action)
                if c is None or c not in b.discard:
                    raise IllegalAction(f"{action!r}: not in the teammate's discard pile")
                b.discard.remove(c)
                b.deck.append(c)
                shuffle(s.rng, b.deck)
            s.phase = TAG
        elif ph == TAG:
            if action == TAG_OUT:
                s.act[s.cur] = self._bench(s, s.cur)
            elif action != STAY:
                raise IllegalAction(f"{action!r}: tag or stay")
            self._begin_round(s)
        elif ph == START:
            if action not in START_ACTS:
                raise IllegalAction(f"{action!r}: start 0 or start 1")
            s.starts[s.cur] = action[1]
            if s.cur == 0:
                s.cur = 1
            else:
                s.act = [TEAM[0][s.starts[0]], TEAM[1][s.starts[1]]]
                self._begin_round(s)
        elif ph == PICK:
            if action not in PICK_ACTS:
                raise IllegalAction(f"{action!r}: pick 0 or pick 1")
            s.tpicks[1 - s.cur] = action[1]
            if s.cur == s.tp1:
                s.cur = 1 - s.tp1
            else:
                s.fs = [s.pool[0][s.tpicks[0]], s.pool[1][s.tpicks[1]]]
                self._new_fight(s)
        else:
            raise IllegalAction("the match is over")
        return s

    def _take_from_hand(self, f: Fighter, action, verb: str, limit: int):
        """The hand cards an action names (checked against the hand), as indexes; taken out of
        the hand. An action of a cached legal list already knows its card indexes."""
        try:
            taken = self._cards_of.get(action)
        except TypeError:                   # unhashable: the full check below refuses it
            taken = None
        if taken is not None and action[0] == verb and len(action[1]) <= limit:
            if taken:
                hand = f.hand[:]
                try:
                    for c in taken:
                        hand.remove(c)
                except ValueError:
                    raise IllegalAction(f"{action!r}: not cards of the hand") from None
                f.hand = hand
            return taken
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == verb
                and isinstance(action[1], tuple) and len(action[1]) <= limit):
            raise IllegalAction(f"{action!r}: expected ({verb!r}, (cards...)), at most {limit}")
        if not action[1]:
            return []
        hand = f.hand[:]
        kind = self.kind
        taken = []
        try:
            for n in action[1]:
                c = kind[n]
                hand.remove(c)
                taken.append(c)
        except (KeyError, ValueError, TypeError):
            raise IllegalAction(f"{action!r}: not cards of the hand") from None
        f.hand = hand
        return taken

    def _apply_combo(self, s: CFState, action) -> None:
        w = s.cur
        f = s.fs[s.act[w]]
        pl = s.played[w]
        if action == STOP:
            self._finish(s, NO_SIG)
            return
        kind = action[0] if isinstance(action, tuple) and action else None
        if kind == "call":
            i = f.ch.sig_index.get(action[1], NO_SIG)
            if i < 0 or f.ch.sigs[i][1] != tuple(pl):
                raise IllegalAction(f"{action!r}: the cards played are not that signature combo")
            self._finish(s, i)
            return
        if kind == "play":
            c = self.a_play.get(action)
            if c is None or c not in f.hand:
                raise IllegalAction(f"{action!r}: not a card in hand")
            if not self.cbox[pl[-1]] >> self.button[c] & 1:
                raise IllegalAction(f"{action!r}: its button is not in the combo box")
            f.hand.remove(c)
        elif kind == "aside":
            c = self.a_aside.get(action, NO_CARD)
            if (c < 0 or c != f.ch.sides[f.side].play_aside or f.used or c not in f.aside
                    or not self.cbox[pl[-1]] >> self.button[c] & 1):
                raise IllegalAction(f"{action!r}: cannot be played from set aside now")
            f.aside.remove(c)
            f.used = True
        else:
            raise IllegalAction(f"{action!r}: play, aside, stop or call")
        x = self.cd_x[c]
        s.dmg[w] += self.cd_c[c] + (x * self._x(f, len(pl)) if x else 0)
        pl.append(c)
        lk = self.linked[c]
        if lk:
            s.fx = [(w, o, a) for o, a in lk]
            self._run_fx(s)
        else:
            self._combo(s)

    def _apply_react(self, s: CFState, action) -> None:
        seat = s.cur
        s.asked[seat] = True
        if action == FLIP:
            f = s.fs[s.act[seat]]
            cost = f.ch.sides[f.side].reveal_cost
            if cost < 0 or len(f.deck) < cost:
                raise IllegalAction("the token cannot be flipped now")
            for _ in range(cost):           # (a cost is no draw: an emptied deck is not Staggering)
                f.discard.append(f.deck.pop())
            f.side ^= 1
            s.result = self._compare(s)
        elif action != PASS:
            raise IllegalAction(f"{action!r}: flip or pass")
        self._react_next(s)

    def determinize(self, s: CFState, player: int, rng: random.Random) -> CFState:
        """The match as `player` may believe it: each opposing fighter's hand dealt again from
        its hand and deck (with its face-down card while the cards are chosen), and every deck in
        a new order but for the cards the player is foreseeing on top of their own."""
        w = super().determinize(s, player, rng)
        if not w.fs:
            return w
        o = 1 - player
        for seat in (0, 1):
            for i in (TEAM[seat] if w.mode == TWO_VS_TWO else (seat,)):
                f = w.fs[i]
                if seat == player:
                    seen = w.fore_n if w.phase == FORESEE and w.cur == player and i == w.act[seat] else 0
                    unseen = f.deck[:len(f.deck) - seen]
                    redeal(rng, [unseen])
                    f.deck[:len(unseen)] = unseen
                    continue
                face_down = [w.choice[o]] if (w.phase == CHOOSE and i == w.act[o]
                                              and w.choice[o] != NO_CARD) else []
                redeal(rng, [f.hand, f.deck, face_down])
                if face_down:
                    w.choice[o] = w.played[o][0] = face_down[0]
        return w

    def clone(self, s: CFState) -> CFState:
        c = CFState.__new__(CFState)
        rng = random.Random.__new__(random.Random)
        rng.setstate(s.rng.getstate())
        c.rng = rng
        c.mode = s.mode
        c.fs = [f.copy() for f in s.fs]
        if s.pool is not None:
            # Tournament: the chosen fighters are pool members; keep them the same objects.
            pool = [[f.copy() for f in r] for r in s.pool]
            if s.fs:
                c.fs = [pool[0][s.tpicks[0]], pool[1][s.tpicks[1]]]
            c.pool = pool
        else:
            c.pool = None
        c.act = s.act[:]
        c.phase, c.cur = s.phase, s.cur
        c.choice = s.choice[:]
        c.played = [s.played[0][:], s.played[1][:]]
        c.result = s.result
        c.dmg = s.dmg[:]
        c.take = s.take[:]
        c.asked = s.asked[:]
        c.canreact = s.canreact[:]
        c.fx = s.fx[:]
        c.rec_left, c.rec_seat, c.fore_n, c.dseat = s.rec_left, s.rec_seat, s.fore_n, s.dseat
        c.wins = s.wins[:]
        c.fights = s.fights
        c.results = s.results[:]
        c.win, c.round, c.fresh, c.last, c.sig = s.win, s.round, s.fresh, s.last, s.sig
        c.starts = s.starts[:]
        c.tp1 = s.tp1
        c.tpicks = s.tpicks[:]
        c.late = s.late
        return c

