"""Fighters in play: a fighter entering a slot, its Attack and keywords with auras and grants,
damage (with reductions and caps), healing, and deaths (with their triggers and Death Tokens)."""

from __future__ import annotations

from .grammar import (
    BLOCK,
    EV_ATTACK_KILLS,
    EV_DIES,
    EV_FRIEND_DIED_AFTER,
    EV_FRIEND_DIES,
    EV_OPP_DIES,
    EV_OPP_HEALED,
    SWIFT,
)
from .state import J_FX, J_HAZRES, Fighter
from .tables import (
    _BIT,
    _BIT_ATTACK_KILLS,
    _BIT_DIES,
    _BIT_FRIEND_DIED_AFTER,
    _BIT_FRIEND_DIES,
    _BIT_OPP_DIES,
    _BITS_DEATH,
    _KEEP_OTHER,
    _PBIT,
    _SHIFT,
    _SLOTS_OF,
)
from .zones import _clear, _fits


class DamageMixin:
    """Fighters entering, taking damage, healing and dying (AmiibartEngine)."""

    def _enter(self, s, p, pl, c, slot):
        """A new fighter of card c enters the empty slot of player p (pl); returns it. The slot
        summaries (Player) follow: without keyword grants on the side (pl.gk) a fighter's Block
        is its own, so a known block mask only gains its bit, and a new fighter is fresh: ready
        only with Swift."""
        info = self.ci[c]
        f = Fighter()           # (a type call costs less than Fighter.__new__(Fighter))
        s.uid += 1
        f.uid = s.uid
        f.card = c
        f.token = info.token
        f.elem = info.elem
        f.atk = info.atk
        f.hp = f.maxhp = info.hp
        f.kw = info.kw
        f.arows = info.attack_rows
        f.evs = info.evs
        f.tkw = f.nkw = f.tmp = f.poison = f.burn = f.gain = 0
        f.bound = f.ign = f.ward = f.stun = f.noatk = f.done = f.doomed = False
        f.fresh = True
        pl.slots[slot] = f
        bit = _BIT[slot]
        pl.om |= bit
        if info.xa:
            pl.xm |= bit
        pl.sd = -1
        if pl.lm > -1:
            pl.lm |= info.evs       # (_listen: it is not bound)
        if pl.gk:
            pl.bm = pl.rm = -1
        else:
            if pl.bm > -1 and info.kw & BLOCK:
                pl.bm |= bit
            if info.kw & SWIFT:
                pl.rm = -1
        if info.hp <= 0:
            s.dead |= _PBIT[p][slot]
        return f

    def _atk(self, pl, f):
        v = f.atk + f.tmp
        if pl.au:
            for g in pl.slots:
                if g is not None and g is not f and g.card in self.aura_cards and not g.bound:
                    elem, n = self.ci[g.card].aura
                    if f.elem == elem:
                        v += n
        return v if v > 0 else 0

    def _kw(self, pl, f):
        k = f.kw | f.tkw | f.nkw
        if pl.gk and (pl.stage in self.grant_cards or (pl.on and pl.pg) or self.fighter_grants):
            g = self._grant_bits(pl)
            if g:
                k |= g.get(f.elem, 0)
        return k

    def _grant_bits(self, pl):
        """Keywords player pl's Stage, Powers and fighters give its fighters, by Element."""
        gc = self.grant_cards
        if not gc:
            return None
        srcs = []
        if pl.stage in gc:
            srcs.append(pl.stage)
        if pl.on and pl.pg:
            srcs += [pw for pw in pl.powers if pw in gc]
        if self.fighter_grants:
            srcs += [g.card for g in pl.slots if g is not None and g.card in gc and not g.bound]
        if not srcs:
            return None
        out = {}
        for c in srcs:
            for elem, bits in self.ci[c].grant:
                out[elem] = out.get(elem, 0) | bits
        return out

    def _damage(self, s, p, slot, f, n, attack):
        """Deal n damage to fighter f (player p's, in slot): returns the damage it took."""
        if f.ward or n <= 0:
            return 0
        ci = self.ci
        info = ci[f.card]
        red = 0
        if not f.bound:
            red = info.dr_all + (info.dr_atk if attack else 0)
        if attack:
            pl = s.p[p]
            if pl.cv:
                if slot > 0:
                    g = pl.slots[slot - 1]
                    if g is not None and not g.bound:
                        red += ci[g.card].cover
                if slot < 4:
                    g = pl.slots[slot + 1]
                    if g is not None and not g.bound:
                        red += ci[g.card].cover
            if pl.stage >= 0:
                st = ci[pl.stage]
                if st.dr_block and self._kw(pl, f) & BLOCK:
                    red += st.dr_block
                if st.dr_elem and st.dr_elem[0] == f.elem:
                    red += st.dr_elem[1]
            if pl.on and pl.pdr:
                for pw in pl.pdr:
                    info2 = ci[pw]
                    if info2.dr_elem and info2.dr_elem[0] == f.elem:
                        red += info2.dr_elem[1]
                    if info2.dr_block and self._kw(pl, f) & BLOCK:
                        red += info2.dr_block
        n -= red
        if n <= 0:
            return 0
        if info.cap and not f.bound and n > info.cap:
            n = info.cap
        f.hp -= n
        if f.hp <= 0:
            s.dirty = True
            s.dead |= _PBIT[p][slot]
        s.acc += n
        return n

    def _heal(self, s, p, f, n):
        if f.hp >= f.maxhp or n <= 0:
            return
        o = 1 - p
        if s.p[o].hazards and s.cur != o:
            for h in s.p[o].hazards:
                if self.ci[h].hazard_ev == EV_OPP_HEALED:
                    slot = self._slot_of(s, p, f)
                    saved = s.heal_amt
                    s.heal_amt = n
                    self._take_hazard(s, o, h)
                    prog = self.ci[h].trig[EV_OPP_HEALED][0][2]
                    self._exec(s, o, prog, 0, None, (p, slot, f.uid), (), False)
                    s.heal_amt = saved
                    s.queue.insert(0, (J_HAZRES, o))
                    return
        f.hp = f.hp + n if f.hp + n < f.maxhp else f.maxhp

    def _slot_of(self, s, p, f):
        return s.p[p].slots.index(f)

    def _deaths(self, s):
        """Fighters without Health or doomed leave play (only the positions in s.dead, where
        such a fighter may be, are looked at), then their death triggers and a death-token loss."""
        s.dirty = False
        ci = self.ci
        P = s.p
        cur = s.cur
        deaths = []
        for p in (cur, 1 - cur):
            pl = P[p]
            slots = pl.slots
            look = _SLOTS_OF[(s.dead >> _SHIFT[p]) & pl.om]
            s.dead &= _KEEP_OTHER[p]
            # an Update instead of dying refills slot i or a slot left of it (the left-most empty
            # one) with an unhurt fighter: the slots still to look at keep theirs
            for i in look:
                f = slots[i]
                if f is None or (f.hp > 0 and not f.doomed):
                    continue
                info = ci[f.card]
                if info.would_die is not None and not f.bound:
                    f.doomed = False
                    self._exec(s, p, info.would_die, 0, (p, i, f.uid), (p, i, f.uid), (), False)
                    if slots[i] is f and f.hp <= 0:
                        s.dead |= _PBIT[p][i]       # not updated: a later look finds it again
                    continue
                _clear(pl, i)
                if not f.token:
                    (pl.void if info.void else pl.discard).append(f.card)      # _to_discard
                    pl.tokens += 1
                deaths.append((p, i, f))
        if not deaths:
            return
        q = s.queue
        # who listens to deaths (None: no card of the match does)
        listen = None
        if (P[0].lsup | P[1].lsup) & _BITS_DEATH:       # (_listen, its cache hits inlined)
            p0, p1 = P
            listen = (p0.lm if p0.lm >= 0 else self._listen(p0), p1.lm if p1.lm >= 0 else self._listen(p1))
        for p, _i, f in deaths:
            o = 1 - p
            if P[p].hazards and cur != p:
                subject = (f.elem, f.token)
                for h in list(P[p].hazards):
                    ev = ci[h].hazard_ev
                    if ev in (EV_FRIEND_DIED_AFTER, EV_FRIEND_DIES):
                        elem, nontoken, _ = ci[h].trig[ev][0]
                        if _fits(elem, nontoken, subject):
                            q.extend(self._hazard_jobs(s, p, h, None))
            if not f.bound and f.evs & _BIT_DIES:
                for _, _, prog in ci[f.card].trig[EV_DIES]:
                    q.append((J_FX, p, prog, 0, None, None, ()))
            if listen is None:
                continue
            # _listen covers exactly the sources _source_jobs reads: a side that does not
            # listen to an event would give no job for it
            lp, lo = listen[p], listen[o]
            if not ((lp | lo) & _BITS_DEATH):
                continue
            subject = (f.elem, f.token)
            first, second = (p, o) if cur == p else (o, p)
            for who in (first, second):
                if who == p:
                    if lp & _BIT_FRIEND_DIES:
                        q.extend(self._source_jobs(s, p, EV_FRIEND_DIES, None, subject))
                    if lp & _BIT_FRIEND_DIED_AFTER:
                        q.extend(self._source_jobs(s, p, EV_FRIEND_DIED_AFTER, None, subject))
                elif lo & _BIT_OPP_DIES:
                    q.extend(self._source_jobs(s, o, EV_OPP_DIES, None, subject))
                if who == o and s.kill_side == p and lo & _BIT_ATTACK_KILLS:
                    q.extend(self._source_jobs(s, o, EV_ATTACK_KILLS, None, subject))
        lose = self.lose_tokens
        t0 = P[0].tokens >= lose
        t1 = P[1].tokens >= lose
        if t0 or t1:
            self._lose(s, [i for i, t in ((0, t0), (1, t1)) if t], "death tokens")

    def _to_discard(self, pl, c):
        if self.ci[c].void:
            pl.void.append(c)
        else:
            pl.discard.append(c)
