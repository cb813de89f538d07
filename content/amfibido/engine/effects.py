"""Amfibido effects: executing effect steps (transform, switcheroo, neutralize, gain knockout or
power, retire, to hand, draw, knockout-pile return), leaving and entering dojos, the equipment
cap, and drawing from a level deck (a mixin)."""

from __future__ import annotations

from cardgen.engines.base import RuleConflict

from .grammar import (
    S_ALL_F,
    S_FACE_E,
    S_FACE_F,
    S_FACE_FE,
    S_HERE_F,
    S_KO_ALL,
    S_OPP_ALL,
    S_OPP_FDOJO,
    S_OWN_E,
    S_OWN_F,
    S_OWN_FE,
    TYPE_NAMES,
    V_DRAW,
    V_KO,
    V_KORET,
    V_NEUT,
    V_PLUS,
    V_RETIRE,
    V_SWITCH,
    V_TOHAND,
    V_TRANSFORM,
)
from .state import CODE, P_DISCARD, P_OVERCAP, P_STEP, R3, ROMAN, _shuffle


class EffectsMixin:
    """The effect steps of action cards and action abilities, and the keywords they use."""

    __slots__ = ()

    # -- effects --------------------------------------------------------------------------------
    def _exec(self, st, p, steps, i, src, opt, left, first, moved):
        step = steps[i]
        trig = []
        touched = self._do(st, p, step, src, opt, trig)
        if step.count > 1 and left > 1:
            trig.append((P_STEP, p, steps, i, src, left - 1, True, moved + (touched,)))
        if first and i + 1 < len(steps):
            trig.append((P_STEP, p, steps, i + 1, src, steps[i + 1].count, False, ()))
        if trig:
            st.pend[0:0] = trig

    def _do(self, st, p, step, src, opt, trig) -> int:
        """Carry out one effect step with its choice; returns the card it moved or changed."""
        v = step.verb
        sel = step.sel
        o = 1 - p
        if v == V_SWITCH:
            return self._switch(st, p, opt[0], opt[1], trig)
        if v == V_TRANSFORM:
            return self._transform(st, p, opt[0], trig)
        if v == V_DRAW:
            c = self._draw_level(st, opt[0])
            if c >= 0:
                st.hand[p].append(c)
            return c
        if v == V_KORET:
            ko, ko_new = st.ko[p], st.ko_new[p]
            if sel == S_KO_ALL:
                st.hand[p] += ko + ko_new
                ko.clear()
                ko_new.clear()
                return -1
            d = self.d_of[opt[0]]
            dof = st.box.dof
            c = self._take(ko if any(dof[x] == d for x in ko) else ko_new, d, dof)
            st.hand[p].append(c)
            return c
        if v == V_TOHAND:
            d = CODE[opt[0]][1]
            c = st.fighter[p][d]
            self._leave(st, p, d, st.hand[p])
            self._check_cap(st, p, d, trig)
            return c
        targets = self._targets(st, p, o, sel, src, opt)
        if v == V_NEUT:
            st.tmp_neut.extend(targets)
        elif v == V_KO:
            st.tmp_ko.extend(targets)
        elif v == V_PLUS:
            st.tmp_plus.extend((c, step.n) for c in targets)
        elif v == V_RETIRE:
            E = st.equip[o]
            for c in targets:
                for d in R3:
                    if c in E[d]:
                        E[d].remove(c)
                st.discard.append(c)
                self._cleanup(st, c)
        return targets[0] if targets else -1

    def _targets(self, st, p, o, sel, src, opt) -> list:
        """Card ids a neutralize / knockout / power / retire step acts on."""
        if opt:
            kind, d, k = CODE[opt[0]]
            side = p if sel in (S_OWN_F, S_OWN_E, S_OWN_FE) else o
            if kind == 0:
                c = st.fighter[side][d]
                if sel == S_OPP_FDOJO:
                    return [c] + st.equip[o][d]
                return [c]
            return [st.equip[side][d][k]]
        if sel == S_OPP_ALL:
            return [f for f in st.fighter[o] if f >= 0] + [e for E in st.equip[o] for e in E]
        if sel == S_ALL_F:
            return [f for f in st.fighter[p] if f >= 0]
        d = CODE[src][1]
        if sel == S_HERE_F:
            return [st.fighter[p][d]]
        out = []
        if sel in (S_FACE_F, S_FACE_FE) and st.fighter[o][d] >= 0:
            out.append(st.fighter[o][d])
        if sel in (S_FACE_E, S_FACE_FE):
            out.extend(st.equip[o][d])
        return out

    def _switch(self, st, p, a, b, trig) -> int:
        ka, da, ia = CODE[a]
        _, db, ib = CODE[b]
        if ka == 0:
            F = st.fighter[p]
            C = st.combos[p]
            x, y = F[da], F[db]
            F[da], F[db] = y, x
            C[da], C[db] = C[db], C[da]
            self._entered(st, p, x, trig)
            if y >= 0:
                self._entered(st, p, y, trig)
            self._check_cap(st, p, da, trig)
            self._check_cap(st, p, db, trig)
            return x
        Ea = st.equip[p][da]
        Eb = st.equip[p][db]
        x = Ea[ia]
        if ib < len(Eb):
            Ea[ia] = Eb[ib]
            Eb[ib] = x
        else:
            del Ea[ia]
            Eb.append(x)
        return x

    def _transform(self, st, p, code, trig) -> int:
        kind, d, k = CODE[code]
        info = st.box.info
        old = st.fighter[p][d] if kind == 0 else st.equip[p][d][k]
        oi = info[old]
        typ = oi.type
        nl = oi.level + 1 if oi.level < 5 else 5
        deck = st.decks[nl]
        rng = st.rng
        revealed = []
        found = -1                                   # = NO_CARD
        refilled = False
        while True:
            if not deck:
                if refilled:
                    break
                refilled = True
                pulled = [c for c in st.discard if info[c].level == nl]
                if not pulled:
                    break
                st.discard = [c for c in st.discard if info[c].level != nl]
                _shuffle(rng, pulled)
                deck.extend(pulled)
                continue
            c = deck.pop()
            if info[c].type == typ:
                found = c
                break
            revealed.append(c)
        if revealed:
            _shuffle(rng, revealed)
            deck[0:0] = revealed
        if found < 0:
            have = st.box.count[nl][typ] - (1 if oi.level == nl else 0)
            if have <= 0:
                other = "other " if oi.level == nl else ""
                raise RuleConflict(
                    f"{oi.name} (level {ROMAN.get(oi.level, oi.level)}) must transform into a "
                    f"level {ROMAN[nl]} {TYPE_NAMES[typ]}, but the box has no {other}level "
                    f"{ROMAN[nl]} {TYPE_NAMES[typ]}")
            if st.stays:                # the failed-transform-stays house variant
                return old
            # the card was retired before the search, and nothing takes its place
            if kind == 0:
                self._leave(st, p, d, st.discard)
                self._check_cap(st, p, d, trig)
            else:
                del st.equip[p][d][k]
                st.discard.append(old)
                self._cleanup(st, old)
            return old
        if kind == 0:
            st.fighter[p][d] = found
        else:
            st.equip[p][d][k] = found
        st.discard.append(old)
        st.nseq += 1
        st.seq[found] = st.nseq
        if st.tmp_neut:
            st.tmp_neut = [found if x == old else x for x in st.tmp_neut]
        if st.tmp_ko:
            st.tmp_ko = [found if x == old else x for x in st.tmp_ko]
        if st.tmp_plus:
            st.tmp_plus = [(found if x == old else x, n) for x, n in st.tmp_plus]
        if kind == 0:
            self._check_cap(st, p, d, trig)
        return found

    def _leave(self, st, p, d, dest):
        """The fighter of dojo d leaves its dojo before the round's cleanup; its combo moves go
        with it: discarded, except boomerang ones, which are set aside until the end of the round
        and only then go to the knockout pile (so they sit out the whole next round)."""
        c = st.fighter[p][d]
        st.fighter[p][d] = -1                # = NO_CARD
        dest.append(c)
        C = st.combos[p][d]
        if C:
            info = st.box.info
            for m in C:
                (st.aside[p] if info[m].boom else st.discard).append(m)
            st.combos[p][d] = []
        self._cleanup(st, c)

    @staticmethod
    def _cleanup(st, c):
        if st.tmp_neut and c in st.tmp_neut:
            st.tmp_neut = [x for x in st.tmp_neut if x != c]
        if st.tmp_ko and c in st.tmp_ko:
            st.tmp_ko = [x for x in st.tmp_ko if x != c]
        if st.tmp_plus:
            st.tmp_plus = [t for t in st.tmp_plus if t[0] != c]

    def _entered(self, st, p, c, trig):
        n = st.box.info[c].enter_discard
        if n and st.hand[p] and c not in self._neut(st):
            trig.append((P_DISCARD, p, n))

    def _check_cap(self, st, p, d, trig):
        E = st.equip[p][d]
        if len(E) >= 2:
            f = st.fighter[p][d]
            if f < 0 or not st.box.info[f].second_equip:
                trig.append((P_OVERCAP, p, d))

    def _draw_level(self, st, lv) -> int:
        deck = st.decks[lv]
        if not deck:
            info = st.box.info
            pulled = [c for c in st.discard if info[c].level == lv]
            if not pulled:
                return -1                       # = NO_CARD: nothing to draw
            st.discard = [c for c in st.discard if info[c].level != lv]
            _shuffle(st.rng, pulled)
            deck.extend(pulled)
        return deck.pop()
