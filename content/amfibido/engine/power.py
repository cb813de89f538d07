"""Amfibido power: who fights in each dojo, total power, knockout, protection and
neutralization (a mixin)."""

from __future__ import annotations

from .grammar import FIGHTER, KO_ALWAYS, KO_COMBO, KO_OTHER
from .state import EMPTY, ND, R3


class PowerMixin:
    """What the fight reads: the board, total power, knockouts, neutralized cards."""

    __slots__ = ()

    def _board(self, st, neut):
        """Who fights in each dojo: (fight card ids, home dojo of each) per player."""
        F0, F1 = st.fighter
        kset = st.box.kset
        if kset.isdisjoint(F0) and kset.isdisjoint(F1):
            return [F0[:], F1[:]], [
                [0 if F0[0] >= 0 else -1, 1 if F0[1] >= 0 else -1, 2 if F0[2] >= 0 else -1],
                [0 if F1[0] >= 0 else -1, 1 if F1[1] >= 0 else -1, 2 if F1[2] >= 0 else -1]]
        info = st.box.info
        fight = [[-1] * ND, [-1] * ND]      # -1 = NO_CARD (literals: the heuristic calls this often)
        home = [[-1] * ND, [-1] * ND]
        for p in (0, 1):
            F = st.fighter[p]
            kom = -1                        # = NO_CARD
            for d in R3:
                f = F[d]
                if f >= 0 and info[f].komodo and f not in neut:
                    kom = d
                    break
            fp, hp = fight[p], home[p]
            for d in R3:
                if F[d] >= 0:
                    fp[d] = F[d]
                    hp[d] = d
                elif kom >= 0:
                    fp[d] = F[kom]
                    hp[d] = kom
        return fight, home

    def _power(self, st, p, d, f, h, of, neut, hidden=False) -> int:
        """Total power of card f of player p fighting in dojo d (its own dojo is h).

        hidden: p's hand is not known to whoever asks (the heuristic looking at the opponent):
        count half of the hand as fighters instead of looking."""
        info = st.box.info
        fi = info[f]
        s = st.sensei[p]
        sm = info[s] if s >= 0 else self.no_sensei
        cr = fi.creature
        fneut = f in neut
        total = fi.power + sm.s_plus[cr]
        E = st.equip[p][d]
        C = st.combos[p][h]
        if E or C:
            per_combo = sm.s_combo[cr]
            wx = sm.s_weapon[cr]
            if not fneut:
                per_combo += fi.combo_extra
                wx += fi.weapon_extra
            for e in E:
                ei = info[e]
                total += ei.power
                if ei.weapon:
                    total += wx
                if (ei.cond_n or ei.belt_n) and e not in neut:
                    if ei.cond_n and cr in ei.cond_crs:
                        total += ei.cond_n
                    if ei.belt_n and (ei.belt_cr < 0 or ei.belt_cr == cr):
                        per_combo += ei.belt_n
            for c in C:
                ci = info[c]
                total += ci.bonus + per_combo
                if ci.cond_n and cr in ci.cond_crs:
                    total += ci.cond_n
        if not fneut and self.pw_extra[fi.d]:
            if fi.hand_fighter:
                hand = st.hand[p]
                total += fi.hand_fighter * (len(hand) // 2 if hidden else
                                            sum(1 for x in hand if info[x].type == FIGHTER))
            if fi.per_other_n:
                total += fi.per_other_n * self._others(st, p, f, fi.per_other_cr)
            if fi.if_other_n and self._others(st, p, f, fi.if_other_cr):
                total += fi.if_other_n
            if fi.if_behind and st.score[p] < st.score[1 - p]:
                total += fi.if_behind
            if fi.if_equipped and E:
                total += fi.if_equipped
        if sm.s_per_other[cr]:
            total += sm.s_per_other[cr] * self._others(st, p, f, cr)
        if st.tmp_plus:
            for x, n in st.tmp_plus:
                if x == f:
                    total += n
        if of >= 0 and of not in neut:
            total -= info[of].opp_minus
        return total if total > 0 else 0

    @staticmethod
    def _others(st, p, f, cr) -> int:
        info = st.box.info
        n = 0
        for x in st.fighter[p]:     # a plain loop: no generator frame on this hot path
            if x >= 0 and x != f and info[x].creature == cr:
                n += 1
        return n

    def _has_ko(self, st, p, d, f, h, neut) -> bool:
        info = st.box.info
        fi = info[f]
        if f in st.tmp_ko:
            return True
        if f not in neut:
            k = fi.ko
            if k == KO_ALWAYS:
                return True
            if k == KO_COMBO and st.combos[p][h]:
                return True
            if k == KO_OTHER and self._others(st, p, f, fi.ko_cr):
                return True
        for e in st.equip[p][d]:  # noqa: SIM110 - a plain loop: no generator frame
            if info[e].grant_ko and e not in neut:
                return True
        return False

    def _protected(self, st, p, d, f, neut) -> bool:
        info = st.box.info
        if info[f].no_ko and f not in neut:
            return True
        for e in st.equip[p][d]:  # noqa: SIM110 - a plain loop: no generator frame
            if info[e].protect and e not in neut:
                return True
        return False

    def _neut(self, st):
        """The set of card ids whose abilities are ignored right now."""
        box = st.box
        nset = box.nset
        F, E = st.fighter, st.equip
        E0, E1 = E
        equip = [*E0[0], *E0[1], *E0[2], *E1[0], *E1[1], *E1[2]]
        tmp = st.tmp_neut
        if nset.isdisjoint(F[0]) and nset.isdisjoint(F[1]) and nset.isdisjoint(equip):
            if not tmp:
                return EMPTY    # the usual board: no neutralize source, nothing neutralized
            srcs = None
        else:
            srcs = self._neut_sources(st)
        info = box.info
        immune = set()
        if not box.jset.isdisjoint(equip):
            for p in (0, 1):
                for d in R3:
                    for e in E[p][d]:
                        if info[e].jade:
                            immune.add(e)
                            if F[p][d] >= 0:
                                immune.add(F[p][d])
        out = set(tmp)
        if immune:
            out -= immune
        if srcs is None:
            return out
        sources = {s for s, _ in srcs}
        if all(sources.isdisjoint(tg) for _, tg in srcs):
            # no source targets another source (the usual board): each one not neutralized
            # itself neutralizes its targets, no need to settle who wins
            for s, tg in srcs:
                if s not in out:
                    for t in tg:
                        if t not in immune:
                            out.add(t)
            return out
        attackers = {s: [] for s, _ in srcs}
        for s, tg in srcs:
            for t in tg:
                if t in attackers:
                    attackers[t].append(s)
        active = {}
        for s, _ in srcs:
            if s in out:
                active[s] = False
            elif s in immune or not attackers[s]:
                active[s] = True
        undecided = [s for s, _ in srcs if s not in active]
        while undecided:
            progress = False
            for s in list(undecided):
                att = attackers[s]
                if any(active.get(a) is True for a in att):
                    active[s] = False
                elif all(active.get(a) is False for a in att):
                    active[s] = True
                else:
                    continue
                undecided.remove(s)
                progress = True
            if not progress:
                s = max(undecided, key=lambda x: st.seq[x])
                active[s] = True
                undecided.remove(s)
        for s, tg in srcs:
            if active[s]:
                for t in tg:
                    if t not in immune:
                        out.add(t)
        return out

    @staticmethod
    def _neut_sources(st):
        info = st.box.info
        F, E = st.fighter, st.equip
        srcs = []
        for p in (0, 1):
            o = 1 - p
            Fp, Ep, Fo, Eo = F[p], E[p], F[o], E[o]
            for d in R3:
                for c in ([Fp[d]] if Fp[d] >= 0 else []) + Ep[d]:
                    ci = info[c]
                    if ci.neut_f or ci.neut_e:
                        tg = []
                        if ci.neut_f and Fo[d] >= 0:
                            tg.append(Fo[d])
                        if ci.neut_e:
                            tg.extend(Eo[d])
                        srcs.append((c, tg))
        return srcs
