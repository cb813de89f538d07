"""The player's actions: apply_chosen and what each kind of action does before the resolution loop
(turns.py) runs the jobs it queued. Attacks are in attacks.py."""

from __future__ import annotations

from .grammar import EV_OPP_CAST, EV_OPP_POWER, EV_PLAYED
from .state import J_CAST, J_FORGE, J_FX, J_PLAYED
from .tables import _BIT_OPP_CAST, _BIT_PLAYED, _BIT_YOU_CAST
from .zones import _changed, _from_hand, _refs


class ActionsMixin:
    """What a chosen action does (AmiibartEngine)."""

    def apply_chosen(self, s, a):
        # (apply without looking `a` up: the caller took it from legal_actions(s))
        s.legal = None
        kind = a[0]
        p = s.cur
        pl = s.p[p]
        # the kinds by how often they are played (literals, not the names: the hot path)
        if kind == 1:                       # = A_PLAY
            self._play_fighter(s, p, pl, a[1], a[2])
        elif kind == 4:                     # = A_ATTACK
            self._declare_attack(s, p, pl, a[1], a[2], a[3])
        elif kind == 2:                     # = A_CAST
            self._cast(s, p, pl, a[1], a[2], a[3])
        elif kind == 0:                     # = A_END
            s.ending = True
            self._end_triggers(s, p)        # the queue is empty between actions: they run first
        elif kind == 9:                     # = A_CHOOSE
            self._choose(s, a[1])
        elif kind == 3:                     # = A_POWER
            self._use_power(s, p, pl, a[1], a[2], a[3])
        elif kind == 5:                     # = A_STAGE
            self._play_stage(s, p, pl, a[1])
        self._run(s)
        return s

    def _play_fighter(self, s, p, pl, c, slot):
        info = self.ci[c]
        _from_hand(pl, c)
        if not s.turn_one:
            pl.energy -= self.fighter_cost
        pl.played += 1
        pl.acted = True
        f = self._enter(s, p, pl, c, slot)
        ref = (p, slot, f.uid)
        q = s.queue
        if info.evs & _BIT_PLAYED:
            for _, _, prog in info.trig[EV_PLAYED]:
                q.append((J_FX, p, prog, 0, ref, ref, ()))
        if info.forge:
            q.append((J_FORGE, p, c, ref, self._forge_count(s, p), 0))
        # the "a fighter was played" job, unless no card of the match can answer it (pl.heard is
        # fixed for the match and no Hazard comes into play while jobs resolve)
        if pl.heard or s.p[1 - p].hazards:
            if q:
                q.append((J_PLAYED, p, ref, pl.played))
            else:       # the job would be next: run it now (it only queues jobs)
                self._played_event(s, p, ref, pl.played)

    def _forge_count(self, s, p):
        pl = s.p[p]
        if pl.on:
            for pw in pl.powers:
                if self.ci[pw].forge_two:
                    return 2
        if pl.stage >= 0 and self.ci[pl.stage].forge_two:
            return 2
        return 1

    def _cast(self, s, p, pl, c, t1, t2):
        info = self.ci[c]
        cost = info.energy - (pl.disc + self._spell_disc(pl) if pl.dd else pl.disc)
        pl.disc = 0
        if cost > 0:
            pl.energy -= cost
        _from_hand(pl, c)
        pl.acted = True
        q = s.queue
        opp = 1 - p
        s.flag = 0
        if s.p[opp].hazards:
            for h in self._hazards(s, opp, EV_OPP_CAST):
                self._hazard_now(s, opp, h, None)
                if s.over:
                    return
        answered = pl.lsup & _BIT_YOU_CAST or s.p[opp].lsup & _BIT_OPP_CAST   # else no J_CAST
        if s.flag:          # cancelled: no effect, discarded
            self._to_discard(pl, c)
        elif info.hazard:
            pl.hazards.append(c)
        else:
            self._to_discard(pl, c)
            tg = _refs(s, len(info.body.tsel), t1, t2)
            if info.body.effs and info.body.effs[0][0] == "forge":
                q.append((J_FORGE, p, c, None, self._forge_count(s, p), 0))
            elif not q:
                # the spell's job would run first: run it now, as _run would, J_CAST behind it
                if answered:
                    q.append((J_CAST, p))
                self._exec(s, p, info.body, 0, None, None, tg, False)
                if s.dirty and not s.over:
                    self._deaths(s)
                return
            else:
                q.append((J_FX, p, info.body, 0, None, None, tg))
        if answered:
            q.append((J_CAST, p))

    def _use_power(self, s, p, pl, i, t1, t2):
        info = self.ci[pl.powers[i]]
        pl.energy -= info.energy
        pl.used |= 1 << i           # spent for this turn; each Active Power has its own bit
        pl.pa = tuple(x for x in pl.pa if x[0] != i)
        pl.acted = True
        opp = 1 - p
        s.flag = 0
        if s.p[opp].hazards:
            for h in self._hazards(s, opp, EV_OPP_POWER):
                self._hazard_now(s, opp, h, None)
                if s.over:
                    return
        if s.flag:
            return
        tg = _refs(s, len(info.body.tsel), t1, t2)
        s.queue.append((J_FX, p, info.body, 0, None, None, tg))
        s.queue.extend(self._source_jobs(s, opp, EV_OPP_POWER, None, None))

    def _play_stage(self, s, p, pl, c):
        pl.energy -= self.ci[c].energy
        _from_hand(pl, c)
        pl.acted = True
        if pl.stage >= 0:
            self._to_discard(pl, pl.stage)
        pl.stage = c
        _changed(pl)
