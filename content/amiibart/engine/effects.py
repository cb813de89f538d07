"""Effects: running a program (_exec: its targets, chosen or asked for, then its effects one by
one), the fighters a selector names, and what each effect does (_eff)."""

from __future__ import annotations

from .grammar import (
    BLOCK,
    EV_SUMMON,
    F_ADJ,
    F_BLOCK,
    F_DAMAGED,
    F_HPMAX,
    F_NOBLOCK,
    F_NONTOKEN,
    F_OTHER,
    FRIEND,
    K_ADJ_ATK_TARGET,
    K_ATK_TARGET,
    K_ATTACKER,
    K_EACH,
    K_EVENT,
    K_RANDOM,
    K_REF,
    K_SAME_SLOT,
    K_SELF,
    K_TARGET,
)
from .state import (
    ALL_SLOTS,
    AT_ATTACKER,
    AT_NULL,
    AT_TARGET,
    J_FX,
    J_PICKD,
    J_PICKH,
    SLOTS,
    V_UPDATE_IN_PLACE,
)
from .tables import _BIT, _PBIT, _SLOTS_OF
from .zones import _alive, _buff, _changed, _clear, _one, _ref, _to_hand


class EffectsMixin:
    """Effect programs and selectors (AmiibartEngine)."""

    def _exec(self, s, ctl, prog, i, src, ev, tgts, attack):
        run = prog.run
        if run is not None and not i and len(tgts) >= prog.need[0]:
            # (the loop below for a one-effect program whose targets are known, see _fast_run)
            run(self, s, ctl, src, ev, tgts, attack)
            if s.dirty and not attack:
                self._deaths(s)
            return
        effs = prog.effs
        need = prog.need
        n = len(effs)
        while i < n:
            k = need[i]
            while len(tgts) < k:
                cands = self._cands(s, ctl, prog.tsel[len(tgts)], src)
                if not cands:
                    tgts = tgts + (None,)
                elif len(cands) == 1:
                    tgts = tgts + (_ref(s, cands[0]),)
                else:
                    s.pending = (ctl, tuple(cands), (J_FX, ctl, prog, i, src, ev, tgts))
                    return
            if self._eff(s, ctl, effs[i], src, ev, tgts, attack, prog, i):
                return
            if s.dirty and not attack:
                self._deaths(s)
            if s.over:
                return
            i += 1

    def _cands(self, s, ctl, sel, src):
        """Fighter positions (player * 5 + slot) a target selector may choose."""
        side = ctl if sel.side == FRIEND else 1 - ctl
        pl = s.p[side]
        slots = pl.slots
        base = side * SLOTS
        fl = sel.flags
        elem = sel.elem
        if not fl:
            if not elem:
                return self._pos[side][pl.om]       # shared: callers only read it
            out = []
            for i in _SLOTS_OF[pl.om]:
                if slots[i].elem == elem:
                    out.append(base + i)
            return out
        out = []
        sel_ok = self._sel_ok
        for i in _SLOTS_OF[pl.om]:
            if sel_ok(pl, slots[i], sel, src, side, i):
                out.append(base + i)
        return out

    def _free_cands(self, s, ctl, sel):
        """_cands(s, ctl, sel, None) as a mask of the side's slots, for an action's targets (no
        source fighter): Block is read from the side's block mask (pl.bm), so only Element and
        Health need a look at the slots."""
        side = ctl if sel.side == FRIEND else 1 - ctl
        pl = s.p[side]
        m = pl.om
        fl = sel.flags
        if fl:
            if fl & F_ADJ:
                return 0            # adjacent to no source fighter: nobody
            if fl & (F_BLOCK | F_NOBLOCK):
                b = pl.bm if pl.bm >= 0 else self._block_mask(pl)
                if fl & F_BLOCK:
                    m &= b
                if fl & F_NOBLOCK:
                    m &= ~b
            if fl & (F_NONTOKEN | F_DAMAGED | F_HPMAX):
                slots = pl.slots
                for i in _SLOTS_OF[m]:
                    f = slots[i]
                    if ((fl & F_NONTOKEN and f.token) or (fl & F_DAMAGED and f.hp >= f.maxhp)
                            or (fl & F_HPMAX and f.hp > sel.hp)):
                        m ^= _BIT[i]
        elem = sel.elem
        if elem:
            slots = pl.slots
            for i in _SLOTS_OF[m]:
                if slots[i].elem != elem:
                    m ^= _BIT[i]
        return m

    def _sel_ok(self, pl, f, sel, src, side, i):
        fl = sel.flags
        if sel.elem and f.elem != sel.elem:
            return False
        if fl & F_NONTOKEN and f.token:
            return False
        if fl & (F_BLOCK | F_NOBLOCK):
            b = self._kw(pl, f) & BLOCK
            if fl & F_BLOCK and not b:
                return False
            if fl & F_NOBLOCK and b:
                return False
        if fl & F_DAMAGED and f.hp >= f.maxhp:
            return False
        if fl & F_HPMAX and f.hp > sel.hp:
            return False
        if fl & F_OTHER and src is not None and f.uid == src[2]:
            return False
        return not (fl & F_ADJ and (src is None or side != src[0] or abs(i - src[1]) != 1))

    def _resolve(self, s, ctl, sel, src, ev, tgts):
        """The fighters a selector names now: [(player, slot, fighter)]."""
        kind = sel.kind
        if kind in (K_TARGET, K_REF):       # a chosen target
            r = tgts[sel.k] if sel.k < len(tgts) else None
        elif kind == K_SELF:
            r = src
        elif kind == K_EVENT:
            r = ev
        else:
            return self._resolve_other(s, ctl, sel, src, kind)
        # the one fighter of reference r, if it is still there (_one, inlined: the hot path)
        if r is None:
            return ()
        f = s.p[r[0]].slots[r[1]]
        return ((r[0], r[1], f),) if f is not None and f.uid == r[2] else ()

    def _resolve_other(self, s, ctl, sel, src, kind):
        """_resolve for the selectors that name no single reference of the job."""
        if kind == K_EACH:
            side = ctl if sel.side == FRIEND else 1 - ctl
            pl = s.p[side]
            out = []
            for i in range(SLOTS):
                f = pl.slots[i]
                if f is not None and (not (sel.flags or sel.elem) or
                                      self._sel_ok(pl, f, sel, src, side, i)):
                    out.append((side, i, f))
            return out
        if kind == K_ATTACKER:
            return _one(s, s.atk[AT_ATTACKER] if s.atk else None)
        if kind == K_ATK_TARGET:
            return _one(s, s.atk[AT_TARGET] if s.atk else None)
        if kind == K_ADJ_ATK_TARGET:
            r = s.atk[AT_TARGET] if s.atk else None
            if r is None:
                return []
            slots = s.p[r[0]].slots
            out = []
            for i in (r[1] - 1, r[1] + 1):
                if 0 <= i < SLOTS and slots[i] is not None:
                    out.append((r[0], i, slots[i]))
            return out
        if kind == K_SAME_SLOT:
            if src is None:
                return []
            o = 1 - src[0]
            f = s.p[o].slots[src[1]]
            return [] if f is None else [(o, src[1], f)]
        return []

    def _eff(self, s, ctl, e, src, ev, tgts, attack, prog, i):
        """Apply one effect. True when it handed over to a job of its own (a pick)."""
        op = e[0]
        if op == "dmg":
            sel = e[1]
            n = e[2] * (s.p[ctl].tokens if e[3] else 1)
            if sel.kind == K_RANDOM:
                side = ctl if sel.side == FRIEND else 1 - ctl
                pl = s.p[side]
                for _ in range(e[4]):
                    live = _alive(pl.slots)
                    if not live:
                        break
                    j = live[s.rng.randrange(len(live))]
                    self._damage(s, side, j, pl.slots[j], n, attack)
                return False
            for p, j, f in self._resolve(s, ctl, sel, src, ev, tgts):
                self._damage(s, p, j, f, n, attack)
        elif op == "heal":
            for p, _, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                self._heal(s, p, f, e[2])
        elif op == "buff":
            _, sel, atk, hp, kw, temp = e
            for bp, _, f in self._resolve(s, ctl, sel, src, ev, tgts):
                _buff(s.p[bp], f, atk, hp, kw, temp)
        elif op == "summon":
            for _ in range(e[2]):
                self._summon(s, ctl, self.ids[e[1]], -1)
        elif op == "ret_discard":
            s.queue[0:0] = [(J_PICKD, ctl, e[1], e[2], e[3], e[4], e[5], 0),
                            (J_FX, ctl, prog, i + 1, src, ev, tgts)]
            return True
        elif op == "destroy":
            for p, j, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.doomed = True
                s.dirty = True
                s.dead |= _PBIT[p][j]
        elif op == "cond_hp":
            hit = self._resolve(s, ctl, e[1], src, ev, tgts)
            if hit and hit[0][2].hp <= e[2]:
                for sub in e[3]:
                    self._eff(s, ctl, sub, src, ev, tgts, attack, prog, i)
        elif op == "cond_empty":
            if s.p[ctl].slots.count(None) >= e[1]:
                for sub in e[2]:
                    self._eff(s, ctl, sub, src, ev, tgts, attack, prog, i)
        elif op == "coin":
            if s.rng.getrandbits(1):
                for sub in e[1]:
                    self._eff(s, ctl, sub, src, ev, tgts, attack, prog, i)
        elif op == "energy":
            s.p[ctl].energy += e[1]
        elif op == "bind":
            for bp, j, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.atk = e[2]
                f.hp = f.maxhp = e[3]
                f.kw = f.tkw = f.nkw = f.tmp = f.poison = f.burn = f.gain = 0
                f.ign = f.ward = f.stun = f.noatk = False
                f.bound = True
                _changed(s.p[bp])
                if f.hp <= 0:
                    s.dirty = True
                    s.dead |= _PBIT[bp][j]
        elif op == "update":
            for p, j, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                pl = s.p[p]
                _clear(pl, j)
                if not f.token:
                    self._to_discard(pl, f.card)
                # a summoned fighter goes into the left-most empty slot (the update-in-place
                # variant: into the slot the old one left)
                self._summon(s, p, self.ids[e[2]], j if pl.vr & V_UPDATE_IN_PLACE else -1)
        elif op == "kwnext":
            for bp, _, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.nkw |= e[2]
                s.p[bp].bm = s.p[bp].rm = -1
        elif op == "ward":
            for _, _, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.ward = True
        elif op == "ignblock":
            for bp, j, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.ign = True
                s.p[bp].xm |= _BIT[j]       # (until it leaves play: xm may say too much)
        elif op == "burn":
            for _, _, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.burn += e[2]
        elif op == "poison":
            for _, _, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.poison += e[2]
        elif op == "stun":
            for _, _, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                f.stun = True
        elif op == "bounce":
            for p, j, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                _clear(s.p[p], j)
                if not f.token:
                    _to_hand(s.p[p], f.card)
        elif op == "untoken":
            pl = s.p[ctl]
            pl.tokens = max(0, pl.tokens - e[1])
        elif op == "discount":
            s.p[ctl].disc += e[1]
        elif op == "destroy_hazard":
            opp = s.p[1 - ctl]
            if opp.hazards:
                s.queue[0:0] = [(J_PICKH, ctl), (J_FX, ctl, prog, i + 1, src, ev, tgts)]
                return True
        elif op == "wither":
            for p, j, f in self._resolve(s, ctl, e[1], src, ev, tgts):
                self._damage(s, p, j, f, s.heal_amt, False)
        elif op in ("cancel", "nullify"):
            s.flag = 1
        elif op == "null_attack":
            if s.atk is not None:
                s.atk[AT_NULL] = 1
        elif op == "tick_poison":
            for p, j, f in _one(s, src):
                self._damage(s, p, j, f, f.poison, False)
        elif op == "tick_burn":
            for p, j, f in _one(s, src):
                n = f.burn
                f.burn = 0
                self._damage(s, p, j, f, n, False)
        return False

    def _summon(self, s, p, c, slot):
        pl = s.p[p]
        if slot < 0:
            if pl.om == ALL_SLOTS:
                return
            slot = pl.slots.index(None)
        f = self._enter(s, p, pl, c, slot)
        jobs = self._source_jobs(s, p, EV_SUMMON, (p, slot, f.uid), (f.elem, True))
        if jobs:
            s.queue[0:0] = jobs
