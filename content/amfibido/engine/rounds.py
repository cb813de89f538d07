"""Amfibido rounds: starting a round and its draft, the fight, and the end of round in the
rulebook's order (abilities, knockout piles, combo moves, losing fighters) (a mixin)."""

from __future__ import annotations

from .state import (
    DRAW,
    DRAWN,
    EMPTY,
    EOR,
    EOR_ABILITIES,
    EOR_CLEANUP,
    EOR_NEXT,
    FC,
    FIELD,
    LOSE,
    ND,
    NO_CARD,
    NOBODY,
    NOFIGHT,
    OVER,
    P_EOR,
    PICK1,
    PICK2,
    R3,
    WIN,
)

# the dojo each player's fighters fight from when no Komodo Dragon is in play: their own
_OWN_DOJOS = (0, 1, 2)
# the fight results and knockouts between rounds (a fight stores new lists)
_NO_RESULTS = ((NOFIGHT,) * ND, (NOFIGHT,) * ND)
_NO_KNOCKOUTS = ((False,) * ND, (False,) * ND)


class RoundsMixin:
    """Round flow of AmfibidoEngine: draft, fight, end of round."""

    __slots__ = ()

    # -- rounds ---------------------------------------------------------------------------------
    def _start_round(self, st):
        plan, fallback = self.plans[min(st.round, self.last_table_round)]
        decks = st.decks
        for p in (st.start, 1 - st.start):
            dealt = []
            for lv in plan:
                deck = decks[lv]
                if deck:
                    dealt.append(deck.pop())
                    continue
                c = self._draw_level(st, lv)
                if c < 0:
                    for other in fallback[lv]:
                        c = self._draw_level(st, other)
                        if c >= 0:
                            break
                if c >= 0:
                    dealt.append(c)
            st.draft[p] = dealt
        st.dstep = 0
        if st.draft[st.start]:
            # the usual case of _draft_flow: the starting player picks first
            st.turn = st.start
            st.phase = PICK1
        else:
            self._draft_flow(st)

    def _draft_flow(self, st):
        ds = st.dstep
        start = st.start
        draft = st.draft
        while ds < 4:
            p = start if ds % 2 == 0 else 1 - start
            if draft[p]:
                st.turn = p
                st.phase = PICK1 if ds < 2 else PICK2
                return
            ds = st.dstep = ds + 1
            if ds == 2:
                draft[0], draft[1] = draft[1], draft[0]
        for p in (0, 1):
            st.discard.extend(st.draft[p])
            st.draft[p] = []
        st.phase = FIELD
        st.turn = st.start
        st.passed = [False, False]

    def _fight(self, st):
        neut = self._neut(st)
        st.fneut = neut
        F0, F1 = st.fighter
        kset = st.box.kset
        if kset.isdisjoint(F0) and kset.isdisjoint(F1):
            # no Komodo Dragon in play: each fighter fights in its own dojo (no board to build)
            fight0, fight1 = F0, F1
            home0 = home1 = _OWN_DOJOS
        else:
            (fight0, fight1), (home0, home1) = self._board(st, neut)
        power = self._power
        info = st.box.info
        res0 = [NOFIGHT] * ND
        res1 = [NOFIGHT] * ND
        kod = [[False] * ND, [False] * ND]
        powers0 = [None] * ND
        powers1 = [None] * ND
        wins0 = wins1 = draws = 0
        for d in R3:
            a = fight0[d]
            b = fight1[d]
            if a >= 0:
                pa = powers0[d] = power(st, 0, d, a, home0[d], b, neut)
                if b >= 0:
                    pb = powers1[d] = power(st, 1, d, b, home1[d], a, neut)
                    if pa == pb:
                        res0[d] = res1[d] = DRAW
                        draws += 1
                        continue
                    w = 0 if pa > pb else 1
                else:
                    w = 0
            elif b >= 0:
                powers1[d] = power(st, 1, d, b, home1[d], a, neut)
                w = 1
            else:
                res0[d] = res1[d] = DRAW
                draws += 1
                continue
            if w == 0:
                res0[d] = WIN
                res1[d] = LOSE
                wins0 += 1
                wc, lc, home_w, home_lo = a, b, home0, home1
            else:
                res1[d] = WIN
                res0[d] = LOSE
                wins1 += 1
                wc, lc, home_w, home_lo = b, a, home1, home0
            lo = 1 - w
            # a knockout needs a card that can give one (most winners have none)
            if lc >= 0 and home_lo[d] == d and (info[wc].ko or st.tmp_ko or st.equip[w][d]) \
                    and self._has_ko(st, w, d, wc, home_w[d], neut) \
                    and not self._protected(st, lo, d, lc, neut):
                kod[lo][d] = True
        res = [res0, res1]
        st.res, st.kod = res, kod
        rw = NOBODY                 # a drawn round
        if wins0 >= 2 or (wins0 == 1 and draws == 2):
            rw = 0
        if wins1 >= 2 or (wins1 == 1 and draws == 2):
            rw = 1
        st.rwin = rw
        knocked = [[], []]
        for p in (0, 1):
            kp = kod[p]
            if True in kp:
                Fp = st.fighter[p]
                knocked[p] = [Fp[d] for d in R3 if kp[d]]
        st.last = (res, [powers0, powers1], rw, knocked)
        if rw >= 0:
            st.score[rw] += 1
            if st.score[rw] >= self.wins_needed:
                st.phase = OVER
                st.over = True
                st.result = rw
                return
        if st.limit and st.round >= st.limit:
            # the round-limit house variant: the published game goes on until 4 round wins
            st.phase = OVER
            st.over = True
            a, b = st.score
            st.result = 0 if a > b else 1 if b > a else DRAWN
            return
        st.phase = EOR
        st.eor_stage = EOR_ABILITIES

    def _eor_step(self, st):
        """Run the end-of-round stages in order (abilities, cleanup, next round), stopping after
        a stage that leaves a choice pending: st.eor_stage says where to resume."""
        info = st.box.info
        stage = st.eor_stage
        if stage == EOR_ABILITIES:
            stage = EOR_CLEANUP
            F, E = st.fighter, st.equip
            E0, E1 = E
            if not st.box.eset.isdisjoint([*F[0], *F[1], *E0[0], *E0[1], *E0[2], *E1[0], *E1[1],
                                           *E1[2]]):
                self._eor_abilities(st, info)
                if st.pend:
                    st.eor_stage = EOR_CLEANUP
                    return
        if stage == EOR_CLEANUP:
            neut = st.fneut
            order = (st.start, 1 - st.start)
            ko = st.ko
            hand = st.hand
            discard = st.discard
            ko_new = st.ko_new
            for p in order:
                # the knockout pile comes back, except the cards put there during this round
                if ko[p]:
                    hand[p].extend(ko[p])
                ko[p] = ko_new[p]
                ko_new[p] = []
            aside = st.aside
            for p in order:
                Cp = st.combos[p]
                if Cp[0] or Cp[1] or Cp[2]:
                    for d in R3:
                        C = Cp[d]
                        if C:
                            for m in C:
                                (ko[p] if info[m].boom else discard).append(m)
                            Cp[d] = []
                if aside[p]:
                    ko[p].extend(aside[p])
                    aside[p] = []
            res = st.res
            for p in order:
                rp = res[p]
                if LOSE not in rp:
                    continue
                Fp = st.fighter[p]
                for d in R3:
                    f = Fp[d]
                    if f < 0 or rp[d] != LOSE:
                        continue
                    if info[f].stay_if_lost and f not in neut:
                        continue
                    Fp[d] = NO_CARD
                    (ko[p] if st.kod[p][d] else hand[p]).append(f)
                    if len(st.equip[p][d]) >= 2:
                        self._check_cap(st, p, d, st.pend)
            if st.pend:
                st.eor_stage = EOR_NEXT
                return
        w = st.rwin
        if w >= 0:
            st.start = w
        else:
            ds = [p for p in (0, 1) if st.sensei[p] >= 0 and info[st.sensei[p]].draw_start]
            st.start = ds[0] if len(ds) == 1 else 1 - st.start
        st.round += 1
        st.tmp_neut = []
        st.tmp_ko = []
        st.tmp_plus = []
        st.used = []
        st.res = _NO_RESULTS    # read-only until the next fight makes new ones
        st.kod = _NO_KNOCKOUTS
        st.fneut = EMPTY
        self._start_round(st)

    def _eor_abilities(self, st, info):
        """End-of-round abilities of the winning fighters: applied, or offered as choices."""
        neut = st.fneut
        for p in (st.start, 1 - st.start):
            s = st.sensei[p]
            sm = info[s] if s >= 0 else self.no_sensei
            for d in R3:
                f = st.fighter[p][d]
                if f < 0 or st.res[p][d] != WIN:
                    continue
                fi = info[f]
                opts = []
                if fi.eor_retire and f not in neut:
                    opts.append("hand" if sm.s_shell[fi.creature] else "retire")
                boots = False
                for e in st.equip[p][d]:
                    if e in neut:
                        continue
                    ei = info[e]
                    if ei.eor_transform and "transform" not in opts:
                        opts.append("transform")
                    if ei.boots:
                        boots = True
                if boots:
                    if "hand" not in opts:
                        opts.append("hand")
                    if len(opts) == 1:
                        opts.append("stay")
                if len(opts) == 1:
                    self._eor_apply(st, p, d, opts[0])
                elif opts:
                    st.pend.append((P_EOR, p, d, tuple(opts)))

    def _eor_apply(self, st, p, d, what):
        if what == "stay":
            return
        if what == "transform":
            trig = []
            self._transform(st, p, FC[d], trig)
            st.pend[0:0] = trig
            return
        f = st.fighter[p][d]
        st.fighter[p][d] = NO_CARD
        (st.hand[p] if what == "hand" else st.discard).append(f)
        trig = []
        self._check_cap(st, p, d, trig)
        st.pend[0:0] = trig
