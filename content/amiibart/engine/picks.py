"""Picks: the jobs that may ask a player to choose (a card from the discard pile, a Forge option,
an opposing Hazard) and the answer to a pending choice (_choose)."""

from __future__ import annotations

from .state import J_FORGE, J_FX, J_PICKD, J_PICKH, O_DISC, O_DONE, O_FORGE, O_HAZ, T_FIGHTER, T_SPELL
from .zones import _ref, _to_hand


class PicksMixin:
    """Choices asked of a player (AmiibartEngine)."""

    def _discard_opts(self, pl, job_or_eff):
        # eff: ("ret_discard", count, upto, kind, elem, stars)
        _, _, _, kind, elem, stars = job_or_eff[:6]
        want = T_FIGHTER if kind == "fighter" else T_SPELL
        out = []
        for c in pl.discard:
            info = self.ci[c]
            if info.type != want or (elem and info.elem != elem):
                continue
            if stars and not stars & (1 << info.stars):
                continue
            if c not in out:
                out.append(c)
        return sorted(out)

    def _has_discard(self, pl, eff):
        """Whether _discard_opts(pl, eff) would offer a card (without building the list)."""
        if not pl.discard:
            return False
        _, _, _, kind, elem, stars = eff[:6]
        want = T_FIGHTER if kind == "fighter" else T_SPELL
        ci = self.ci
        for c in pl.discard:
            info = ci[c]
            if info.type == want and not (elem and info.elem != elem) and not (
                    stars and not stars & (1 << info.stars)):
                return True
        return False

    def _pick_discard(self, s, job):
        _, ctl, left, upto, kind, elem, stars, taken = job
        pl = s.p[ctl]
        opts = self._discard_opts(pl, ("", 0, 0, kind, elem, stars))
        if not opts or left <= 0:
            return
        options = [O_DISC + c for c in opts]
        if upto:
            options.append(O_DONE)
        elif len(options) == 1:
            self._do_pick_discard(s, job, options[0])
            return
        s.pending = (ctl, tuple(options), job)

    def _do_pick_discard(self, s, job, o):
        _, ctl, left, upto, kind, elem, stars, taken = job
        if o == O_DONE:
            return
        pl = s.p[ctl]
        c = o - O_DISC
        pl.discard.remove(c)
        _to_hand(pl, c)
        if left > 1:
            s.queue.insert(0, (J_PICKD, ctl, left - 1, upto, kind, elem, stars, taken + 1))

    def _forge(self, s, job):
        _, ctl, c, src, left, mask = job
        opts = [O_FORGE + i for i in range(len(self.ci[c].forge)) if not mask & (1 << i)]
        if left <= 0 or not opts:
            return
        if len(opts) == 1:
            self._do_forge(s, job, opts[0])
            return
        s.pending = (ctl, tuple(opts), job)

    def _do_forge(self, s, job, o):
        _, ctl, c, src, left, mask = job
        i = o - O_FORGE
        jobs = [(J_FX, ctl, self.ci[c].forge[i], 0, src, src, ())]
        if left > 1:
            jobs.append((J_FORGE, ctl, c, src, left - 1, mask | (1 << i)))
        s.queue[0:0] = jobs

    def _pick_hazard(self, s, job):
        ctl = job[1]
        opp = s.p[1 - ctl]
        opts = sorted(set(opp.hazards))
        if not opts:
            return
        if len(opts) == 1:
            self._take_hazard(s, 1 - ctl, opts[0])
            return
        s.pending = (ctl, tuple(O_HAZ + h for h in opts), job)

    def _choose(self, s, o):
        ctl, _, job = s.pending
        s.pending = None
        k = job[0]
        if k == J_FX:
            _, ctl, prog, i, src, ev, tgts = job
            s.queue.insert(0, (J_FX, ctl, prog, i, src, ev, tgts + (_ref(s, o),)))
        elif k == J_PICKD:
            self._do_pick_discard(s, job, o)
        elif k == J_FORGE:
            self._do_forge(s, job, o)
        elif k == J_PICKH:
            self._take_hazard(s, 1 - ctl, o - O_HAZ)
