"""Attacks: the declaration, the steps that may do something in this match (1-4 and 6-7 react to
the attack, 5 deals its damage, 8 ends it), and the shortcut when nothing in play reacts.

The attack under way is State.atk; this module, the hot path, reads its items by literal index:
a[0] = AT_ATTACKER, a[1] = AT_INDEX, a[2] = AT_TARGET, a[3] = AT_NULL, a[4] = AT_BLOCK,
a[5] = AT_ENDED (state.py)."""

from __future__ import annotations

from .grammar import (
    EV_AFTER_ATTACKED,
    EV_AFTER_ATTACKS,
    EV_ATTACKED,
    EV_ATTACKS,
    EV_FRIEND_AFTER_ATTACKED,
    EV_FRIEND_AFTER_ATTACKS,
    EV_FRIEND_ATTACKS,
    EV_OPP_ATTACKS,
    EV_OPP_ATTACKS_BLOCK,
    EV_OPP_SPECIAL,
    INSTAKILL,
    LIFESTEAL,
)
from .state import J_ASTEP, J_FX
from .tables import (
    _ATK_EVS,
    _ATTACKER_EVS,
    _BIT,
    _BIT_ATTACKED,
    _BIT_OPP_ATTACKS,
    _BIT_OPP_SPECIAL,
    _DEFENDER_EVS,
    _PBIT,
    _STEP1_EVS,
    _STEP6_EVS,
    _STEP7_EVS,
    _TARGET_EVS,
)
from .zones import _get

# The jobs of an attack's steps, by a bit mask of the steps that run (_attack_steps).
_STEP_BIT = [1 << k for k in range(9)]
_ATTACK_STEPS = [tuple((J_ASTEP, k) for k in range(1, 9) if m & (1 << k)) for m in range(512)]


class AttacksMixin:
    """Attacks and their steps (AmiibartEngine)."""

    def _declare_attack(self, s, p, pl, slot, ai, t):
        f = pl.slots[slot]
        f.done = True
        if pl.rm > 0:
            pl.rm &= ~_BIT[slot]       # it has attacked: no longer ready
        pl.acted = True
        special = self.ci[f.card].attacks[ai - 1] if ai else None
        if special is not None:
            pl.energy -= special.energy
        d = 1 - p
        if t >= 0:
            pd = s.p[d]
            T = pd.slots[t]
            tref = (d, t, T.uid)
            bm = pd.bm if pd.bm >= 0 else self._block_mask(pd)
            tblock = 1 if bm & _BIT[t] else 0
        else:
            T, tref, tblock = None, None, 0
        # [attacker ref, attack index, target ref, nullified, target had Block, ended] (AT_...)
        s.atk = [(p, slot, f.uid), ai, tref, 0, tblock, 0]
        if self._quiet(s, p, special, T):
            # Nothing in play reacts to attacks: steps 1-4 and 6-7 are empty.
            self._damage_step(s, s.atk, f, special, T)
            s.atk = None
        else:
            s.queue.extend(self._attack_steps(s, p, special))

    def _attack_steps(self, s, ap, special):
        """The attack steps that may do something in this match: steps 5 (damage) and 8 (end),
        and a reacting step only when some card of the match listens to it (pl.lsup is fixed for
        the match) or the defender has a Hazard (none can be added while an attack resolves)."""
        pa, pd = s.p[ap], s.p[1 - ap]
        la, ld = pa.lsup, pd.lsup
        haz = bool(pd.hazards)
        m = _STEP_BIT[5] | _STEP_BIT[8]
        if la & _STEP1_EVS:
            m |= _STEP_BIT[1]
        if haz or ld & _BIT_OPP_ATTACKS or (special is not None and ld & _BIT_OPP_SPECIAL):
            m |= _STEP_BIT[2]
        if special is not None and special.step3 is not None:
            m |= _STEP_BIT[3]
        if ld & _BIT_ATTACKED:
            m |= _STEP_BIT[4]
        if haz or ld & _STEP6_EVS:
            m |= _STEP_BIT[6]
        if la & _STEP7_EVS or (special is not None and special.step7 is not None):
            m |= _STEP_BIT[7]
        return _ATTACK_STEPS[m]

    def _quiet(self, s, ap, special, T):
        """Whether nothing in play reacts to player ap's attack (special None: a basic one) on T
        (None: no target), so that its steps other than 5 and 8 would queue no job."""
        if special is not None and (special.step3 is not None or special.step7 is not None):
            return False
        P = s.p
        hazards = P[1 - ap].hazards
        if hazards:
            EVS = self.EVS
            for h in hazards:
                if EVS[h] & _ATK_EVS:
                    return False
        if special is None and T is not None:
            # A basic attack on T: the attacker's side answers only attack events of its own
            # (steps 1 and 7), the defender's side those of steps 2 and 6, and of the events that
            # wait for an attack only T's own count (steps 4 and 6), unless T is Bound.
            pa, pd = P[ap], P[1 - ap]
            if T.evs & _TARGET_EVS and not T.bound:
                return False
            if pa.lsup & _ATTACKER_EVS and (pa.lm if pa.lm >= 0 else self._listen(pa)) & _ATTACKER_EVS:
                return False
            return not (pd.lsup & _DEFENDER_EVS
                        and (pd.lm if pd.lm >= 0 else self._listen(pd)) & _DEFENDER_EVS)
        p0, p1 = P
        if p0.lsup & _ATK_EVS and (p0.lm if p0.lm >= 0 else self._listen(p0)) & _ATK_EVS:
            return False
        return not (p1.lsup & _ATK_EVS and (p1.lm if p1.lm >= 0 else self._listen(p1)) & _ATK_EVS)

    def _astep(self, s, k):
        a = s.atk
        if a is None:
            return
        if k == 8:
            s.atk = None
            return
        if a[5]:                # = AT_ENDED
            return
        aref = a[0]             # = AT_ATTACKER
        ap = aref[0]
        d = 1 - ap
        A = _get(s, aref)
        if A is None and k <= 5:
            a[5] = 1          # the attacker left play before dealing damage: the attack ends
            return
        ci = self.ci
        special = ci[A.card].attacks[a[1] - 1] if (a[1] and A is not None) else None
        jobs = []
        if k == 1:
            bit = (1 << EV_ATTACKS) | (1 << EV_FRIEND_ATTACKS)
            pl = s.p[ap]
            if not pl.lsup & bit:
                return
            for c in self._passive_sources(pl):
                if ci[c].evs & bit and EV_FRIEND_ATTACKS in ci[c].trig:
                    for _, _, prog in ci[c].trig[EV_FRIEND_ATTACKS]:
                        jobs.append((J_FX, ap, prog, 0, None, aref, ()))
            for i, f in enumerate(pl.slots):
                if f is None or f.bound or not f.evs & bit:
                    continue
                ev = EV_ATTACKS if f.uid == aref[2] else EV_FRIEND_ATTACKS
                for _, _, prog in ci[f.card].trig.get(ev, ()):
                    jobs.append((J_FX, ap, prog, 0, (ap, i, f.uid), aref, ()))
        elif k == 2:
            if s.p[d].hazards and s.cur != d:
                for h in list(s.p[d].hazards):
                    ev = ci[h].hazard_ev
                    if ev == EV_OPP_ATTACKS or (ev == EV_OPP_SPECIAL and special is not None):
                        if ev == EV_OPP_SPECIAL:
                            self._hazard_now(s, d, h, aref)      # resolves at once
                        else:
                            jobs += self._hazard_jobs(s, d, h, aref)
            jobs += self._source_jobs(s, d, EV_OPP_ATTACKS, aref, None)
            if special is not None:
                jobs += self._source_jobs(s, d, EV_OPP_SPECIAL, aref, None)
        elif k == 3:
            if special is not None and special.step3 is not None and not a[3]:
                self._exec(s, ap, special.step3, 0, aref, aref, (), True)
        elif k == 4:
            T = _get(s, a[2]) if a[2] is not None else None
            if T is not None and not T.bound and T.evs & (1 << EV_ATTACKED):
                for _, _, prog in ci[T.card].trig[EV_ATTACKED]:
                    jobs.append((J_FX, d, prog, 0, a[2], aref, ()))
        elif k == 5:
            self._damage_step(s, a, A, special, _get(s, a[2]))
        elif k == 6:
            if a[2] is not None:
                tref = a[2]
                if s.p[d].hazards and s.cur != d:
                    for h in list(s.p[d].hazards):
                        ev = ci[h].hazard_ev
                        if (ev == EV_OPP_ATTACKS_BLOCK and a[4]) or ev == EV_FRIEND_AFTER_ATTACKED:
                            jobs += self._hazard_jobs(s, d, h, aref)
                pl = s.p[d]
                if not pl.lsup & _STEP6_EVS:
                    pl = None
                for c in self._passive_sources(pl) if pl is not None else ():
                    for ev in (EV_FRIEND_AFTER_ATTACKED, EV_OPP_ATTACKS_BLOCK):
                        if ev == EV_OPP_ATTACKS_BLOCK and not a[4]:
                            continue
                        for _, _, prog in ci[c].trig.get(ev, ()):
                            jobs.append((J_FX, d, prog, 0, None, aref, ()))
                for i, f in enumerate(pl.slots) if pl is not None else ():
                    if f is None or f.bound or not f.evs:
                        continue
                    src = (d, i, f.uid)
                    evs = [EV_FRIEND_AFTER_ATTACKED]
                    if a[4]:
                        evs.append(EV_OPP_ATTACKS_BLOCK)
                    if f.uid == tref[2]:
                        evs.insert(0, EV_AFTER_ATTACKED)
                    for ev in evs:
                        for _, _, prog in ci[f.card].trig.get(ev, ()):
                            jobs.append((J_FX, d, prog, 0, src, aref, ()))
        elif k == 7:
            pl = s.p[ap]
            quiet = not pl.lsup & _STEP7_EVS
            for c in self._passive_sources(pl) if not quiet else ():
                for _, _, prog in ci[c].trig.get(EV_FRIEND_AFTER_ATTACKS, ()):
                    jobs.append((J_FX, ap, prog, 0, None, aref, ()))
            for i, f in enumerate(pl.slots) if not quiet else ():
                if f is None or f.bound or not f.evs:
                    continue
                ev = EV_AFTER_ATTACKS if f.uid == aref[2] else EV_FRIEND_AFTER_ATTACKS
                for _, _, prog in ci[f.card].trig.get(ev, ()):
                    jobs.append((J_FX, ap, prog, 0, (ap, i, f.uid), aref, ()))
            if special is not None and special.step7 is not None and not a[3] and A is not None:
                self._exec(s, ap, special.step7, 0, aref, aref, (), True)
        if jobs:
            s.queue[0:0] = jobs

    def _damage_step(self, s, a, A, special, T):
        """Step 5 of attack a by fighter A on T (the target still in play, None for none)."""
        ap = a[0][0]
        d = 1 - ap
        if a[2] is not None and T is None:
            a[5] = 1        # the target left play: nothing to hit
            return
        pa = s.p[ap]
        pd = s.p[d]
        s.kill_side = d
        if special is None:
            # _atk and _kw inlined for the usual side without auras or keyword grants
            da = self._atk(pa, A) if pa.au else A.atk + A.tmp
            dt = self._atk(pd, T) if pd.au else T.atk + T.tmp
            hit_t = self._damage(s, d, a[2][1], T, da, True) if da > 0 else 0
            hit_a = self._damage(s, ap, a[0][1], A, dt, True) if dt > 0 else 0
            ka = self._kw(pa, A) if pa.gk else A.kw | A.tkw | A.nkw
            if ka & INSTAKILL:
                T.doomed = True
                s.dirty = True
                s.dead |= _PBIT[d][a[2][1]]
            if hit_t and ka & LIFESTEAL:
                self._heal(s, ap, A, hit_t)
            if hit_a and (self._kw(pd, T) if pd.gk else T.kw | T.tkw | T.nkw) & LIFESTEAL:
                self._heal(s, d, T, hit_a)
        elif not a[3]:
            total = 0
            if T is not None:
                dmg = special.damage
                if special.bonus and T.elem == special.bonus_elem:
                    dmg += special.bonus
                if dmg:
                    total += self._damage(s, d, a[2][1], T, dmg, True)
                if (special.kw | self._kw(pa, A)) & INSTAKILL:
                    T.doomed = True
                    s.dirty = True
                    s.dead |= _PBIT[d][a[2][1]]
            if special.step5 is not None:
                s.flag = 0
                self._acc_reset(s)
                self._exec(s, ap, special.step5, 0, a[0], a[0], (), True)
                total += self._acc_take(s)
            A2 = _get(s, a[0])
            if A2 is not None and total and (special.kw | self._kw(pa, A2)) & LIFESTEAL:
                self._heal(s, ap, A2, total)
        if s.dirty:
            self._deaths(s)
        s.kill_side = -1

    def _acc_reset(self, s):
        s.acc = 0

    def _acc_take(self, s):
        v = s.acc
        s.acc = 0
        return v
