"""The resolution loop (_run: the queued jobs, in order, until one asks a player to choose) and the
turn machinery: turn one, the end and the start of a turn, the ways to lose."""

from __future__ import annotations

from .grammar import EV_END, EV_HAZARD_RESOLVES, EV_OPP_CAST, EV_START, EV_SUMMON, EV_YOU_CAST, Program
from .state import ALL_SLOTS, J_ASTEP, J_CAST, J_FORGE, J_FX, J_HAZRES, J_PICKD, J_PICKH, J_PLAYED, J_SUMMONED
from .tables import _BIT, _BIT_OPP_CAST, _BIT_START, _BIT_YOU_CAST, _SLOTS_OF
from .zones import _changed

# the programs of poison (at the start of its owner's turn) and burn (at the end of the turn)
_POISON_TICK = Program([("tick_poison",)], ())
_BURN_TICK = Program([("tick_burn",)], ())


class TurnsMixin:
    """The job queue and the turns (AmiibartEngine)."""

    def _run(self, s):
        q = s.queue
        while True:
            while q and s.pending is None and not s.over:
                job = q.pop(0)
                k = job[0]
                if k == J_FX:
                    _, ctl, prog, i, src, ev, tgts = job
                    self._exec(s, ctl, prog, i, src, ev, tgts, False)
                elif k == J_ASTEP:
                    self._astep(s, job[1])
                elif k == J_PLAYED:
                    self._played_event(s, job[1], job[2], job[3])
                elif k == J_CAST:
                    pj, po = s.p[job[1]], s.p[1 - job[1]]
                    # (_listen, its cache hits inlined)
                    if ((pj.lsup & _BIT_YOU_CAST
                         and (pj.lm if pj.lm >= 0 else self._listen(pj)) & _BIT_YOU_CAST)
                            or (po.lsup & _BIT_OPP_CAST
                                and (po.lm if po.lm >= 0 else self._listen(po)) & _BIT_OPP_CAST)):
                        jobs = self._source_jobs(s, job[1], EV_YOU_CAST, None, None)
                        jobs += self._source_jobs(s, 1 - job[1], EV_OPP_CAST, None, None)
                        if jobs:
                            q[0:0] = jobs
                elif k == J_PICKD:
                    self._pick_discard(s, job)
                elif k == J_FORGE:
                    self._forge(s, job)
                elif k == J_PICKH:
                    self._pick_hazard(s, job)
                elif k == J_HAZRES:
                    self._event(s, job[1], EV_HAZARD_RESOLVES, None, None)
                elif k == J_SUMMONED:
                    self._event(s, job[1], EV_SUMMON, job[2], None)
                if s.dirty and not s.over:
                    self._deaths(s)
            if s.over:
                q.clear()
                s.pending = None
                s.atk = None
                return
            if s.pending is not None:
                return
            # the queue is empty: state checks, then the turn machinery
            p0, p1 = s.p
            if (not p0.nh or not p1.nh) and self._lose_checks(s):
                continue
            if s.ending:
                s.ending = False
                self._next_turn(s)
                continue
            if s.turn_one and (s.p[s.cur].played >= self.opening or not self._can_open(s.p[s.cur])):
                s.ending = True
                self._end_triggers(s, s.cur)
                continue
            return

    def _can_open(self, pl):
        if pl.om == ALL_SLOTS:
            return False
        return bool((pl.hk or self._plan(pl)).fighters)

    def _lose_checks(self, s):
        """A player with no cards left to play and no fighter in play loses."""
        losers = []
        for i in (0, 1):
            pl = s.p[i]
            if not pl.nh and pl.turns and not pl.om:
                losers.append(i)
        if losers:
            self._lose(s, losers, "no cards and no fighters")
            return True
        return False

    def _lose(self, s, losers, reason):
        loser = s.cur if len(losers) == 2 else losers[0]
        s.over = True
        s.win = 1 - loser
        s.reason = reason

    def _start_first_turn(self, s, p):
        """Player p's turn one begins: their Powers come into play (later turns: _next_turn)."""
        pl = s.p[p]
        pl.turns = 1
        s.turn_one = True           # (p is s.cur)
        pl.played = pl.disc = pl.energy = pl.used = 0
        pl.acted = pl.empty = False
        pl.on = True
        pl.pa = pl.apw
        _changed(pl)

    def _end_triggers(self, s, p):
        pl = s.p[p]
        ci = self.ci
        jobs = []
        ev_bit = 1 << EV_END
        # nothing in this match, or nothing in play (_listen), waits for it: skip the lookups
        listen = pl.lsup & ev_bit and (pl.lm if pl.lm >= 0 else self._listen(pl)) & ev_bit
        if listen:
            self._passive_jobs(pl, p, EV_END, jobs)
        slots = pl.slots
        for i in _SLOTS_OF[pl.om]:
            f = slots[i]
            if listen and not f.bound and f.evs & ev_bit:
                ref = (p, i, f.uid)
                for _, _, prog in ci[f.card].trig[EV_END]:
                    jobs.append((J_FX, p, prog, 0, ref, ref, ()))
            if f.burn:
                ref = (p, i, f.uid)
                jobs.append((J_FX, p, _BURN_TICK, 0, ref, ref, ()))
        if jobs:
            s.queue[0:0] = jobs

    def _next_turn(self, s):
        """The turn of s.cur ends (this-turn effects end, then a stalled player or one who had
        no fighter and played none loses) and, unless it lost, the other player's turn starts:
        one pass over each side's fighters does both the end and the start."""
        p = s.cur
        pl = s.p[p]
        loss = None
        if pl.turns > 1:
            pl.stall = 0 if pl.acted else pl.stall + 1
            if pl.stall >= self.stall_turns:
                loss = "stalled"
            elif pl.empty and pl.played == 0:
                loss = "no fighters"
        pl.bm = pl.rm = -1            # this-turn keywords end
        slots = pl.slots
        for i in _SLOTS_OF[pl.om]:
            f = slots[i]
            f.tmp = f.tkw = f.burn = 0
            f.ign = f.fresh = f.done = f.noatk = False
        o = 1 - p
        nxt = s.p[o]
        nxt.bm = nxt.rm = -1
        slots = nxt.slots
        if loss is not None or not nxt.turns:
            for i in _SLOTS_OF[nxt.om]:
                f = slots[i]
                f.tmp = f.tkw = f.burn = 0
                f.ign = f.fresh = f.done = False
            if loss is not None:
                self._lose(s, [p], loss)
                return
            s.cur = o
            s.turn += 1
            self._start_first_turn(s, o)
            return
        s.cur = o
        s.turn += 1
        # the start of a later turn, with the end of this turn for the same fighters
        nxt.turns += 1
        s.turn_one = False
        nxt.played = nxt.disc = nxt.used = 0
        nxt.acted = False
        nxt.pa = nxt.apw
        nxt.energy = self.energy_per_turn
        nxt.empty = not nxt.om
        q = s.queue
        ci = self.ci
        # nothing in this match, or nothing in play (_listen), waits for it: skip the lookups
        listen = nxt.lsup & _BIT_START and (nxt.lm if nxt.lm >= 0 else self._listen(nxt)) & _BIT_START
        if listen:
            self._passive_jobs(nxt, o, EV_START, q)
        # _ready_mask at once: none of them is fresh or has attacked, the stunned may not attack
        ready = nxt.om
        for i in _SLOTS_OF[ready]:
            f = slots[i]
            f.tmp = f.tkw = f.burn = f.nkw = 0
            f.ign = f.fresh = f.done = f.ward = False
            f.noatk = f.stun
            if f.stun:
                ready ^= _BIT[i]
                f.stun = False
            if f.poison:
                ref = (o, i, f.uid)
                q.append((J_FX, o, _POISON_TICK, 0, ref, ref, ()))
            if listen and not f.bound and f.evs & _BIT_START:
                ref = (o, i, f.uid)
                for _, _, prog in ci[f.card].trig[EV_START]:
                    q.append((J_FX, o, prog, 0, ref, ref, ()))
        nxt.rm = ready
