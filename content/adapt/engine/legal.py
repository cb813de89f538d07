"""A.D.A.P.T.: the legal actions (LegalMixin)."""

from __future__ import annotations

from .constants import (
    BAIT,
    BUY,
    CHOOSE,
    END,
    HIDE,
    IM_BAIT,
    JUMP,
    MASK_BITS,
    P_ACTION,
    P_SCHOOL,
    P_SECOND,
    PASS,
    RANDOM,
    RIVALS,
    SA_BAIT,
    SA_HIDE,
    SA_JUMP,
    SA_RAM,
    SCHOOL,
    STRIKES,
    WIPE,
)


class LegalMixin:
    __slots__ = ()

    # -- legal actions ----------------------------------------------------------------------------
    def legal_actions(self, st):
        acts = st.legal
        if acts is not None:
            return acts
        ph = st.phase
        if ph > P_SECOND:                # not P_ACTION nor P_SECOND (a match over is in P_OVER)
            acts = st.legal = self._other_phase_actions(st)
            return acts
        # The Action phase, every Turn's one choice (this runs once per action the simulator takes),
        # and the optional Buy or Adapt after Hide or Bait (P_SECOND): Adapt and Buy, then for a
        # whole Action the strikes, the special actions and the Wipe. (One function for both: the
        # Adapt and Buy part costs no extra call.)
        p = st.turn
        fish = st.fish
        f = fish[p]
        s = f.s
        cfg = st.cfg
        my = cfg.team[p]
        # A whole Action: not after Hide or Bait, not in the air, not stunned. How it can strike
        # (the STRIKES kind): STRIKE_ATTACK an Attack roll, STRIKE_RAM a Ram off Cooldown, or both.
        if not (ph or f.rare):           # P_ACTION (0), and none of f.rare's conditions
            whole = True                 # (no Cooldown runs, not in the air, stunned nor Baited)
            strike = s.strike
        else:
            whole = ph == P_ACTION and f.jump <= 0 and not f.stun
            if whole:
                strike = s.strike if not f.cd[SA_RAM] else s.roll
                b = f.bait
                if b >= 0 and strike and (st.alive & ~(st.air | st.blocked)) >> b & 1:
                    # Baited: the Action must be an Attack on the Fish that Baited it.
                    acts = st.legal = list(STRIKES[strike][1 << b])
                    return acts
        e = st.exp[my]
        useless, _, price, adapt_cands = f.hold or self._hold(cfg, f)
        acts = []
        # Adapt from the PGP.
        for need, a in adapt_cands:
            if need <= e:
                acts.append(a)
        # Buy; bm: the bit mask of the Body Levels in the stream (bit L for a Level-L Body), which
        # the Wipe rule reads.
        bbit = cfg.bbit
        bm = 0
        others = -1
        i = -1                       # the slot (a counter costs less than enumerate)
        for c in st.stream:
            i += 1
            b = bbit[c]
            if b:                    # a Body (a part, the usual card, takes the elif)
                bm |= b
                if price[c] > e:
                    continue
                if b < useless:
                    # A Body it has no use for: only when no other Fish is below its Level.
                    if others < 0:
                        others = 99
                        for q in RIVALS[st.alive][p]:
                            level = fish[q].s.level
                            if level < others:
                                others = level
                    if b >> (others + 1):
                        continue
            elif price[c] > e:
                continue
            acts.append(BUY[i])
        if not whole:
            if ph == P_SECOND:
                acts.append(END)
            elif not acts:
                # Nothing to Buy or Adapt: in the air it passes; Stunned it may Adapt by Random
                # Selection or let the Turn go.
                acts = [PASS] if f.jump > 0 else [RANDOM, PASS]
            st.legal = acts
            return acts
        if strike:
            # The Fish it can Attack: foes, alive, not in the air, not hidden from it this Turn.
            targets = st.alive & cfg.foes[my]
            if st.air or st.blocked:
                targets &= ~(st.air | st.blocked)
            if targets:
                acts += STRIKES[strike][targets]
        if s.special:
            cd = f.cd
            if s.hide and not cd[SA_HIDE] and e >= s.level:
                acts.append(HIDE)
            if s.bait and not cd[SA_BAIT] and e >= self.bait_cost:
                for q in MASK_BITS[st.alive & ~st.air & cfg.foes[my]]:
                    if not fish[q].s.imm & IM_BAIT:
                        acts.append(BAIT[q])
            if s.jump and not cd[SA_JUMP]:
                acts.extend(JUMP[1:s.jump + 1])
        if bm:
            # No Wipe while a Body in the stream is one another living Fish could Adapt at once as
            # a step up (its hold's wipe block).
            for q in RIVALS[st.alive][p]:
                g = fish[q]
                if bm & (g.hold or self._hold(cfg, g))[1]:
                    # (no Action at all: it may Adapt by Random Selection or let the Turn go)
                    acts = st.legal = acts or [RANDOM, PASS]
                    return acts
        acts.append(WIPE)
        st.legal = acts
        return acts

    @staticmethod
    def _hold(cfg, f):
        """What legal_actions reads of a Fish's Body Level and PGP, cached as f.hold until either
        changes (whatever changes them sets f.hold = None): (useless: 2 << tgp, tgp the highest
        Body Level it has or holds in its PGP, so that a Body's Level bit below it is a Level it
        needs no more; its wipe block: the Body Levels in the stream that forbid a rival's
        Wipe, those in (its Level, bmax[Level]] above tgp; its Buy price row; the Experience each
        PGP card takes to Adapt now with its adapt action, once per card name)."""
        bl = f.s.level
        if not f.pgp:
            h = f.hold = cfg.bare_hold[bl]
            return h
        tgp = bl
        blev = cfg.blev
        aprice = cfg.adaptprice[bl]
        iadapt = cfg.iadapt
        cands = []
        for c in f.pgp:
            if blev[c] > tgp:
                tgp = blev[c]
            cand = (aprice[c], iadapt[c])
            if cand not in cands:        # (two copies of a card cost the same)
                cands.append(cand)
        useless = 2 << tgp
        h = f.hold = (useless, cfg.above[bl] & -useless, cfg.buyprice[bl][len(f.pgp)], cands)
        return h

    def _other_phase_actions(self, st):
        ph = st.phase
        if st.over:
            acts = []
        elif ph == P_SCHOOL:
            acts = [SCHOOL[q] for q in MASK_BITS[st.alive & st.cfg.foes[st.cfg.team[st.turn]]]]
            acts.append(END)
        else:
            acts = [CHOOSE[i] for i, c in enumerate(st.stream) if c >= 0]
        return acts

    def _adapt_cost(self, cfg, f, t, exp):
        """Extra Experience to Adapt type t now (0 usually), or -1 if it cannot be Adapted now."""
        lvl = self.level[t]
        bl = f.s.level
        if not self.is_body[t]:
            return 0 if lvl <= bl + self.part_margin else -1
        if lvl > cfg.bmax[bl]:
            return -1
        extra = cfg.skipcost[bl][lvl]
        return extra if extra <= exp else -1
