"""A.D.A.P.T.: Attacks, Rams, Bait and School (AttacksMixin)."""

from __future__ import annotations

from .constants import (
    CHECK_DIE,
    CRITICAL_DIE,
    ELECTRO_BONUS,
    GUPPY_DIE,
    IM_CA,
    IM_FEAR,
    IM_POISON,
    IM_SCHOOL,
    IM_SHOCK,
    IM_STUN,
    LANDING_BONUS,
    P_SECOND,
    R_CA,
    R_RAM,
    R_SCHOOL,
    R_SHOCK,
    SA_BAIT,
    SA_RAM,
    SCHOOL_DAMAGE,
)


class AttacksMixin:
    __slots__ = ()

    # -- Attacks and Special Actions ----------------------------------------------------------------
    def _attack(self, st, p, q, ram):
        """Resolve an Attack (or Ram); False if a Hide check stopped it (choose again)."""
        roll = self._roll
        fish = st.fish
        a, d = fish[p], fish[q]
        sa, sd = a.s, d.s
        if d.hide:
            r = roll(st, CHECK_DIE)
            if r <= d.hide:
                st.blocked |= 1 << q
                st.last = (p, q, ram, "hidden", r, 0, 0, 0, 0, 0, False)
                return False
        if sd.fear and not sa.imm & IM_FEAR:
            r = roll(st, CHECK_DIE)
            if r <= sd.fear:
                st.last = (p, q, ram, "feared", r, 0, 0, 0, 0, 0, False)
                return True
        st.attacked = st.turnno
        extra = 0
        nat = total = 0
        surv = sd.surv
        if ram:
            dmg = sa.ram - sd.armor - sd.res[R_RAM]
            result = "hit"
            if sa.cd[SA_RAM]:
                a.cd[SA_RAM] = sa.cd[SA_RAM]
                a.rare = True
        else:
            die = sa.die
            nat = roll(st, die) if die else roll(st, GUPPY_DIE)
            fer = sa.fer
            if sa.electro and sd.level < sa.level:
                fer += ELECTRO_BONUS
            if a.splash:
                fer += LANDING_BONUS
            total = nat + fer
            leth = sa.leth if sa.leth < self.leth_cap else self.leth_cap
            crit = sa.crit and die and nat == die
            if total > surv:
                dmg = total - surv + leth
                result = "hit"
            elif total == surv:
                dmg = self.tie_dmg + leth
                result = "tie"
            elif crit:
                # A Critical hits whatever the totals: a hit by a margin of 0 deals its Lethality
                # (and the d4 below), with none of a tie's Damage or Experience.
                dmg = leth
                result = "hit"
            else:
                gained = surv - total
                if gained > self.miss_cap:
                    gained = self.miss_cap
                st.last = (p, q, False, "miss", nat, total, surv, 0, 0, gained, False)
                self._gain(st, p, gained)
                if sd.sneaky:
                    self._gain(st, q, sd.sneaky)
                return True
            if crit:
                extra = roll(st, CRITICAL_DIE)
            dmg -= sd.armor
        if dmg < 0:
            dmg = 0
        dmg += extra
        # (Conditional expressions rather than max(0, x): the builtin call costs more.)
        shock_d = 0
        if sa.shock and not sd.imm & IM_SHOCK:
            shock_d = sa.shock - sd.res[R_SHOCK]
            if shock_d < 0:
                shock_d = 0
        counter = 0
        if sd.counter and not sa.imm & IM_CA:
            counter = sd.counter - sa.armor - sa.res[R_CA]
            if counter < 0:
                counter = 0
        shock_a = 0
        if sd.shock and not sa.imm & IM_SHOCK:
            shock_a = sd.shock - sa.res[R_SHOCK]
            if shock_a < 0:
                shock_a = 0
        mp = self.max_poison
        # Each chance is rolled whenever its owner has the ability, so the dice line up in order.
        if sa.pois and not ram and roll(st, CHECK_DIE) <= sa.pois and not sd.imm & IM_POISON \
                and d.poison < mp:
            d.poison += 1
            d.rare = True
        if sa.stun and roll(st, CHECK_DIE) <= sa.stun and not sd.imm & IM_STUN:
            d.stun = True
            d.rare = True
        if sd.cpois and roll(st, CHECK_DIE) <= sd.cpois and not sa.imm & IM_POISON and a.poison < mp:
            a.poison += 1
            a.rare = True
        self._hurt(st, q, dmg + shock_d)
        if counter or shock_a:
            self._hurt(st, p, counter + shock_a)
        gained = 0
        if result == "tie":
            gained = self.tie_exp
            self._gain(st, p, gained)
        st.last = (p, q, ram, result, nat, total, surv, dmg + shock_d, counter + shock_a, gained,
                   bool(extra))
        if not a.alive or not d.alive:
            self._check_over(st)
        return True

    def _bait(self, st, p, q):
        f = st.fish[p]
        st.exp[st.cfg.team[p]] -= self.bait_cost
        if f.s.cd[SA_BAIT]:
            f.cd[SA_BAIT] = f.s.cd[SA_BAIT]
            f.rare = True
        if self._roll(st, CHECK_DIE) <= f.s.bait:
            st.fish[q].bait = p
            st.fish[q].rare = True
        st.phase = P_SECOND

    def _school(self, st, p, q):
        d = st.fish[q]
        if not d.s.imm & IM_SCHOOL:
            self._hurt(st, q, SCHOOL_DAMAGE - d.s.res[R_SCHOOL])
            if not d.alive:
                self._check_over(st)
        self._end_turn(st)
