"""Triggers: what listens to an event (Powers, the Stage, fighters, Hazards) and the jobs that
answer it."""

from __future__ import annotations

from .grammar import EV_OPP_PLAY, EV_OPP_PLAY_AFTER, EV_OPP_PLAY_SECOND, EV_YOU_PLAY
from .state import J_FX, J_HAZRES
from .tables import _BIT_YOU_PLAY, _BITS_OPP_PLAY, _SLOTS_OF
from .zones import _fits, _get


class TriggersMixin:
    """Triggered abilities and Hazards (AmiibartEngine)."""

    def _passive_jobs(self, pl, p, ev, out: list) -> None:
        """Add to `out` the programs that player p's Powers (once in play) and Stage run on event `ev`."""
        ci, ev_bit = self.ci, 1 << ev
        for c in self._passive_sources(pl):
            if ci[c].evs & ev_bit:
                for _, _, prog in ci[c].trig[ev]:
                    out.append((J_FX, p, prog, 0, None, None, ()))

    def _passive_sources(self, pl):
        out = []
        if pl.on:
            out.extend(pl.powers)
        if pl.stage >= 0:
            out.append(pl.stage)
        return out

    def _hazards(self, s, q, ev):
        """Player q's Hazards waiting for ev (only during q's opponent's turn), in play order."""
        if s.cur == q:
            return []
        ci = self.ci
        return [h for h in s.p[q].hazards if ci[h].hazard_ev == ev]

    def _take_hazard(self, s, q, h):
        pl = s.p[q]
        pl.hazards.remove(h)
        self._to_discard(pl, h)

    def _hazard_now(self, s, q, h, evref):
        """A Hazard that resolves before the action that triggered it, at once."""
        self._take_hazard(s, q, h)
        prog = self.ci[h].trig[self.ci[h].hazard_ev][0][2]
        self._exec(s, q, prog, 0, None, evref, (), False)
        if s.dirty and not s.over:
            self._deaths(s)
        s.queue.insert(0, (J_HAZRES, q))

    def _hazard_jobs(self, s, q, h, evref):
        self._take_hazard(s, q, h)
        prog = self.ci[h].trig[self.ci[h].hazard_ev][0][2]
        return [(J_FX, q, prog, 0, None, evref, ()), (J_HAZRES, q)]

    def _event(self, s, p, ev, evref, subject):
        """Passive triggers of player p's Powers, Stage and fighters for a non-self event."""
        jobs = self._source_jobs(s, p, ev, evref, subject)
        if jobs:
            s.queue[0:0] = jobs

    def _listen(self, pl):
        """The events player pl's Powers, Stage and fighters wait for (a bit set), kept in pl.lm
        until a slot, the Stage, a Bind or the Powers coming into play changes it (-1)."""
        m = pl.lm
        if m >= 0:
            return m
        m = pl.pev if pl.on else 0
        if pl.stage >= 0:
            m |= self.EVS[pl.stage]
        slots = pl.slots
        for i in _SLOTS_OF[pl.om]:
            f = slots[i]
            if not f.bound:
                m |= f.evs
        pl.lm = m
        return m

    def _source_jobs(self, s, p, ev, evref, subject, exclude_uid=-1):
        pl = s.p[p]
        bit = 1 << ev
        if not pl.lsup & bit:
            return []
        EVS = self.EVS
        jobs = []
        if pl.on and pl.pev & bit:
            for c in pl.powers:
                if EVS[c] & bit:
                    for elem, nontoken, prog in self.ci[c].trig[ev]:
                        if _fits(elem, nontoken, subject):
                            jobs.append((J_FX, p, prog, 0, None, evref, ()))
        c = pl.stage
        if c >= 0 and EVS[c] & bit:
            for elem, nontoken, prog in self.ci[c].trig[ev]:
                if _fits(elem, nontoken, subject):
                    jobs.append((J_FX, p, prog, 0, None, evref, ()))
        slots = pl.slots
        for i in _SLOTS_OF[pl.om]:
            f = slots[i]
            if not f.evs & bit or f.bound or f.uid == exclude_uid:
                continue
            for elem, nontoken, prog in self.ci[f.card].trig[ev]:
                if _fits(elem, nontoken, subject):
                    jobs.append((J_FX, p, prog, 0, (p, i, f.uid), evref, ()))
        return jobs

    def _played_event(self, s, p, ref, nth):
        f = _get(s, ref)
        subject = None if f is None else (f.elem, f.token)
        o = 1 - p
        jobs = []
        if s.p[o].hazards:
            for h in list(s.p[o].hazards):
                ev = self.ci[h].hazard_ev
                if ((ev == EV_OPP_PLAY_AFTER or (ev == EV_OPP_PLAY_SECOND and nth == 2))
                        and s.cur != o):
                    jobs += self._hazard_jobs(s, o, h, ref)
        if subject is not None:
            # (_listen, its cache hits inlined)
            pl, po = s.p[p], s.p[o]
            if pl.lsup & _BIT_YOU_PLAY and (pl.lm if pl.lm >= 0 else self._listen(pl)) & _BIT_YOU_PLAY:
                jobs += self._source_jobs(s, p, EV_YOU_PLAY, ref, subject, f.uid)
            lo = (po.lm if po.lm >= 0 else self._listen(po)) if po.lsup & _BITS_OPP_PLAY else 0
            if lo & _BITS_OPP_PLAY:
                jobs += self._source_jobs(s, o, EV_OPP_PLAY, ref, subject)
                jobs += self._source_jobs(s, o, EV_OPP_PLAY_AFTER, ref, subject)
                if nth == 2:
                    jobs += self._source_jobs(s, o, EV_OPP_PLAY_SECOND, ref, subject)
        if jobs:
            s.queue[0:0] = jobs
