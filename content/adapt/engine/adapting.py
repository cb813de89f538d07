"""A.D.A.P.T.: Adapting, the Gene Stream (Wipe, cycling, Auto-Adapt) and Random Selection
(AdaptingMixin)."""

from __future__ import annotations

from .constants import IM_BAIT, IM_POISON, IM_STUN, NO_CARD, NO_CARDS, NOBODY, P_CHOICE, PERCENTILE


class AdaptingMixin:
    __slots__ = ()

    # -- Adapting, the stream -----------------------------------------------------------------------
    def _adapt(self, st, p, c):
        """Fish p Adapts card instance c (already paid for and out of where it was): it takes its
        slot, what it replaces goes under the Fish, and the Stats follow."""
        f = st.fish[p]
        cfg = st.cfg
        slot = cfg.islot[c]
        if slot:                         # (not BODY_SLOT: a part)
            old = f.parts[slot - 1]
            f.parts[slot - 1] = c
        else:
            old = f.body
            f.body = c
            f.hold = None                # a new Body Level
        if old >= 0:
            f.under.append(old)
        st.quiet = 0
        ischool = cfg.ischool
        if ischool[c] or ischool[old]:
            f.sblock = st.turnno
        s = f.s
        t = cfg.ct[c]
        if f.own:
            self._swap_card(s, slot, t)
        elif s.memo is None:
            s = f.s = s.copy()       # (shared with a clone or a memo: changed only as a copy)
            f.own = True
            self._swap_card(s, slot, t)
        else:
            # A Guppy's first or second card: nearly every Fish of a match makes one of a few
            # hundred such transitions, so their Stats are shared, kept in the memo of the Stats
            # they start from (by card type; the Guppy's results have memos of their own).
            ns = s.memo.get(t)
            if ns is None:
                ns = s.memo[t] = s.copy()
                self._swap_card(ns, slot, t)
                if s is self.guppy_s:
                    ns.memo = {}
            s = f.s = ns
        # Adapting never defeats a Fish: above its Health it is 1 Damage from defeat.
        f.fragile = f.dmg > s.hp
        if s.regen:
            f.rare = True
        imm = s.imm
        if imm:
            if imm & IM_POISON:
                f.poison = 0
            if imm & IM_STUN:
                f.stun = False
            if imm & IM_BAIT:
                f.bait = NOBODY

    def _wipe(self, st, p):
        st.wiped = st.turnno
        st.removed = True
        stream = st.stream
        st.discard.extend(stream if -1 not in stream else [c for c in stream if c >= 0])
        stream[:] = [-1] * len(stream)          # = NO_CARD (a literal: a Wipe is a common Action)
        cfg = st.cfg
        bonus = cfg.wipe_bonus
        tm = cfg.team[p]
        e = st.exp[tm] + bonus
        if bonus > 0 and e < cfg.plain_gain_below and e <= cfg.cap:
            st.exp[tm] = e                 # what _gain does when nothing caps or triggers
        else:
            self._gain(st, p, bonus)

    def _cycle(self, st):
        """Remove, slide towards the high slots, refill from the highest empty slot. (-1 is
        NO_CARD, a literal here: this runs at the end of many Turns.)"""
        stream = st.stream
        deck = st.deck
        if not st.removed:
            last = stream.pop()                    # nothing left this Turn: the last slot expires
            if last >= 0:
                st.discard.append(last)
            stream.insert(0, deck.pop() if deck else self._draw(st))
            if -1 not in stream:
                return
        holes = stream.count(-1)
        if not holes:
            return
        if holes == 1:
            stream.remove(-1)
            stream.insert(0, deck.pop() if deck else self._draw(st))
        else:
            if holes < len(stream):                # (after a Wipe every slot is empty)
                stream[holes:] = [c for c in stream if c >= 0]
            if len(deck) >= holes:
                # One card at a time from the highest empty slot down, off the top (the end)
                # of the deck: the top `holes` cards, in the order they lie.
                stream[:holes] = deck[-holes:]
                del deck[-holes:]
            else:
                for i in range(holes - 1, -1, -1):
                    stream[i] = deck.pop() if deck else self._draw(st)
        st.removed = False

    def _auto_adapt(self, st, p):
        f = st.fish[p]
        ids = st.cfg.body_at.get(f.s.level + 1, NO_CARDS)      # the Bodies one Level up
        fits = ids.__contains__
        f.auto += 1
        f.rare = True
        for i, c in enumerate(f.pgp):
            if fits(c):
                del f.pgp[i]
                f.hold = None
                self._adapt(st, p, c)
                return
        stream = st.stream
        for i in range(len(stream) - 1, -1, -1):
            c = stream[i]
            if fits(c):
                stream[i] = NO_CARD
                st.removed = True
                self._pay_auto(st, p, c)
                return
        if ids.isdisjoint(st.deck) and ids.isdisjoint(st.discard):
            return                                       # no such Body left: nothing happens
        deck = st.deck
        m = len(stream)
        while True:
            # The stream cycles by one card at a time: the last slot's card goes to the discards,
            # the others slide up and slot 1 is dealt (into the list's front: a fitting card is
            # taken, the slot left empty). While the deck lasts, in slices: the cards dealt before
            # the fitting one (the top of the deck, the list's end) pass through the stream, and
            # what falls off its end is discarded in the order it falls.
            k = len(deck) - 1
            while k >= 0 and deck[k] not in ids:
                k -= 1
            if k >= 0:
                c = deck[k]
                passing = [NO_CARD, *deck[k + 1:], *stream]
                del deck[k:]
            else:
                passing = [*deck, *stream]
                deck.clear()
            stream[:] = passing[:m]
            st.discard.extend([x for x in reversed(passing[m:]) if x >= 0])
            if k >= 0:
                st.removed = True
                self._pay_auto(st, p, c)
                return
            # The deck ran out: one card, the discards shuffled into a new deck (_draw).
            last = stream.pop()
            if last >= 0:
                st.discard.append(last)
            c = self._draw(st)
            if fits(c):
                stream.insert(0, NO_CARD)
                st.removed = True
                self._pay_auto(st, p, c)
                return
            stream.insert(0, c)

    def _pay_auto(self, st, p, c):
        tm = st.cfg.team[p]
        st.exp[tm] = max(0, st.exp[tm] - self.cost[st.cfg.ct[c]])
        self._adapt(st, p, c)

    # -- Random Selection ---------------------------------------------------------------------------
    def _rs_roll(self, st, p, resume, roll=None):
        """Adapt by Random Selection (with `roll`, the opening's: the roll that set the order;
        else a new percentile roll); True if it waits for a "card of your choice"."""
        if roll is None:
            roll = self._roll(st, PERCENTILE)
        chart = st.cfg.chart
        for row in chart:
            if roll <= row[0]:
                break
        else:
            row = chart[-1]
        _, gain, arg = row
        if gain == "experience":
            st.rslog.append((p, roll, "exp", NO_CARD, "exp"))
            self._gain(st, p, arg)
            return False
        if gain == "slot":
            self._rs_take(st, p, arg - 1, f"slot {arg}", roll)
            return False
        if not any(c >= 0 for c in st.stream):
            st.rslog.append((p, roll, "choice", NO_CARD, "empty"))
            return False
        st.rslog.append((p, roll, "choice", NO_CARD, "choosing"))
        st.phase = P_CHOICE
        st.chooser = p
        st.resume = resume
        return True

    def _rs_take(self, st, p, i, result, roll=None):
        f = st.fish[p]
        cfg = st.cfg
        ct = cfg.ct
        if roll is None:           # the choice of a "card of your choice" result
            p0, roll, _, _, _ = st.rslog.pop()
        c = st.stream[i] if 0 <= i < len(st.stream) else NO_CARD
        if c < 0:
            st.rslog.append((p, roll, result, NO_CARD, "empty"))
            return
        t = ct[c]
        if self.is_body[t]:
            tgp = f.s.level
            for x in f.pgp:
                if self.is_body[ct[x]]:
                    tgp = max(tgp, self.level[ct[x]])
            if self.level[t] <= tgp:
                st.rslog.append((p, roll, result, c, "left"))
                return
        st.stream[i] = NO_CARD
        st.removed = True
        extra = self._adapt_cost(cfg, f, t, st.exp[cfg.team[p]])
        if extra >= 0:
            st.exp[cfg.team[p]] -= extra
            self._adapt(st, p, c)
            outcome = "adapted"
        elif len(f.pgp) < self.pgp_max:
            f.pgp.append(c)
            f.hold = None
            outcome = "pgp"
        else:
            st.discard.append(c)
            outcome = "discarded"
        st.rslog.append((p, roll, result, c, outcome))
