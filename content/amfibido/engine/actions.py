"""Amfibido: applying a chosen action (field, equip, combo, play, ability, pass, a pending
choice), paying costs, and draining pending choices until a player must choose (a mixin)."""

from __future__ import annotations

from cardgen.engines.base import IllegalAction

from .grammar import C_DISCARD, C_HAND_TO_KO, C_RETIRE_SELF
from .state import (
    CODE,
    DONE,
    EOR,
    FIELD,
    P_COST,
    P_DISCARD,
    P_EOR,
    P_OVERCAP,
    P_STEP,
    PICK1,
    PICK2,
    SENSEI_PH,
)


class ActionsMixin:
    """apply_chosen and the moves it is made of."""

    __slots__ = ()

    # -- apply ----------------------------------------------------------------------------------
    def apply_chosen(self, st, action):
        st.legal = None
        if st.pend:
            self._resolve_pending(st, action)
            self._settle(st)
            return st
        kind = action[0]
        ph = st.phase
        if ph == FIELD:
            p = st.turn
            if kind == "pass":
                st.passed[p] = True
            elif kind == "field":
                self._field(st, p, self.d_of[action[1]], action[2] - 1)
            elif kind == "equip":
                self._equip(st, p, self.d_of[action[1]], action[2] - 1,
                            CODE[action[3]][2] if len(action) > 3 else -1)
            elif kind == "combo":
                c = self._take(st.hand[p], self.d_of[action[1]], st.box.dof)
                st.combos[p][action[2] - 1].append(c)
            elif kind == "play":
                ci = self.by_name[action[1]]
                c = self._take(st.hand[p], ci.d, st.box.dof)
                self._exec(st, p, ci.steps, 0, None, action[2:], ci.steps[0].count, True, ())
                # resolved first, then discarded: with choices still to make, once they are made
                (st.resolving if st.pend else st.discard).append(c)
            elif kind == "ability":
                self._ability(st, p, action[1], action[2:])
            if not st.pend:
                # the common case of _settle (a field action never ends the field phase by
                # itself): nothing pending, the turn passes on
                p = st.turn
                passed = st.passed
                if not passed[1 - p]:
                    st.turn = 1 - p
                    return st
                if not passed[p]:
                    return st
            self._settle(st)
        elif ph == SENSEI_PH:
            p = st.turn
            dealt = st.draft[p]
            c = self._take(dealt, self.d_of[action[1]], st.box.dof)
            st.sensei[p] = c
            st.sdeck[0:0] = dealt
            st.draft[p] = []
            if p == 0:
                st.turn = 1
            else:
                self._start_round(st)
        else:   # draft picks
            p = st.turn
            draft = st.draft
            dealt = draft[p]
            dd = self.d_of[action[1]]
            dof = st.box.dof
            for i, c in enumerate(dealt):
                if dof[c] == dd:
                    del dealt[i]
                    break
            else:
                raise IllegalAction("no such card there")
            st.hand[p].append(c)
            n = st.dstep = st.dstep + 1
            if n == 2:
                draft[0], draft[1] = draft[1], draft[0]
            if n < 4:
                # the common case of _draft_flow: the next picker has cards
                q = st.start if n % 2 == 0 else 1 - st.start
                if draft[q]:
                    st.turn = q
                    st.phase = PICK1 if n < 2 else PICK2
                    return st
            self._draft_flow(st)
        return st

    @staticmethod
    def _take(ids, d, dof):
        for i, c in enumerate(ids):
            if dof[c] == d:
                del ids[i]
                return c
        raise IllegalAction("no such card there")

    def _field(self, st, p, dd, d):
        box = st.box
        hand = st.hand[p]
        dof = box.dof
        for i, c in enumerate(hand):
            if dof[c] == dd:
                del hand[i]
                break
        else:
            raise IllegalAction("no such card there")
        Fp = st.fighter[p]
        if Fp[d] >= 0:
            self._leave(st, p, d, st.discard)
        Fp[d] = c
        n = st.nseq = st.nseq + 1
        st.seq[c] = n
        ci = box.info[c]
        if ci.enter_discard or len(st.equip[p][d]) >= 2:
            trig = []
            self._entered(st, p, c, trig)
            self._check_cap(st, p, d, trig)
            if trig:
                st.pend[0:0] = trig

    def _equip(self, st, p, dd, d, k):
        c = self._take(st.hand[p], dd, st.box.dof)
        E = st.equip[p][d]
        if k < 0:
            if not E or (len(E) < 2 and self._cap(st, p, d) == 2):
                E.append(c)
            else:
                k = 0
        if k >= 0:
            old = E[k]
            E[k] = c
            st.discard.append(old)
            self._cleanup(st, old)
        st.nseq += 1
        st.seq[c] = st.nseq

    def _ability(self, st, p, src, opt):
        info = st.box.info
        kind_d = CODE.get(src)
        if kind_d is None:
            c = st.sensei[p]
        elif kind_d[0] == 0:
            c = st.fighter[p][kind_d[1]]
        else:
            c = st.equip[p][kind_d[1]][kind_d[2]]
        ci = info[c]
        st.used.append(c)
        cost = ci.cost
        if cost == C_RETIRE_SELF:
            del st.equip[p][kind_d[1]][kind_d[2]]
            st.discard.append(c)
            self._cleanup(st, c)
        elif cost in (C_DISCARD, C_HAND_TO_KO):
            hand = st.hand[p]
            dof = st.box.dof
            first = dof[hand[0]]
            for x in hand:
                if dof[x] != first:
                    break
            else:
                first = -1
            if first < 0:
                self._pay(st, p, cost, hand[0])
            else:
                st.pend.insert(0, (P_COST, p, cost, (ci.ab_steps, src, opt)))
                return
        steps = ci.ab_steps
        self._exec(st, p, steps, 0, src, opt, steps[0].count, True, ())

    def _pay(self, st, p, cost, c):
        st.hand[p].remove(c)
        # a card put in the knockout pile now sits out the next round (see AState.ko_new)
        (st.discard if cost == C_DISCARD else st.ko_new[p]).append(c)

    def _resolve_pending(self, st, a):
        pe = st.pend.pop(0)
        kind = pe[0]
        if kind == P_STEP:
            if a is DONE or a == DONE:
                return
            _, p, steps, i, src, left, optional, moved = pe
            self._exec(st, p, steps, i, src, a[1:], left, not optional, moved)
        elif kind == P_COST:
            p, cost, (steps, src, opt) = pe[1], pe[2], pe[3]
            c = self._take(st.hand[p], self.d_of[a[1]], st.box.dof)
            (st.discard if cost == C_DISCARD else st.ko_new[p]).append(c)
            self._exec(st, p, steps, 0, src, opt, steps[0].count, True, ())
        elif kind == P_DISCARD:
            p, n = pe[1], pe[2]
            c = self._take(st.hand[p], self.d_of[a[1]], st.box.dof)
            st.discard.append(c)
            if n > 1 and st.hand[p]:
                st.pend.insert(0, (P_DISCARD, p, n - 1))
        elif kind == P_OVERCAP:
            p, d = pe[1], pe[2]
            k = CODE[a[1]][2]
            E = st.equip[p][d]
            c = E.pop(k)
            st.discard.append(c)
            self._cleanup(st, c)
        else:   # P_EOR
            self._eor_apply(st, pe[1], pe[2], a[2])

    def _drain(self, st) -> bool:
        """Resolve pending choices that are not choices (none or one option). True when none left."""
        pend = st.pend
        while pend:
            pe = pend[0]
            kind = pe[0]
            if kind == P_EOR:
                return False
            if kind == P_STEP and pe[6]:
                if not self._options(st, pe[1], pe[2][pe[3]], pe[4], pe[7]):
                    pend.pop(0)
                    continue
                return False
            acts = self._pending_actions(st, pe)
            if not acts:
                pend.pop(0)
            elif len(acts) == 1:
                self._resolve_pending(st, acts[0])
            else:
                st.legal = acts     # a real choice: these are the legal actions now
                return False
        return True

    def _settle(self, st):
        st.legal = None
        if st.phase == FIELD:
            if st.pend and not self._drain(st):
                return
            if st.resolving:
                st.discard += st.resolving
                st.resolving = []
            p = st.turn
            o = 1 - p
            if not st.passed[o]:
                st.turn = o
                return
            if not st.passed[p]:
                return
            self._fight(st)
        while st.phase == EOR:
            if st.pend and not self._drain(st):
                return
            self._eor_step(st)
