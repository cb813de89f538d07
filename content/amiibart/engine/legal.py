"""legal_actions and what it reads: the plans of a hand (HandPlan, cached by hand composition),
the action tables by slot mask, the masks of the fighters that may attack or have Block, the
targets a spell or Power may choose, and what spells cost."""

from __future__ import annotations

from .grammar import BLOCK, F_NOBLOCK, FRIEND, OPP, SWIFT
from .state import A_ATTACK, A_CHOOSE, A_POWER, END, O_DONE, SLOTS
from .tables import _BIT, _SLOTS_OF, _by_mask

# legal_actions' kind of each card in hand (engine._lk): a fighter, a Hazard, an untargeted spell, a
# spell returning a card from the discard pile, a spell with one plain friendly / opposing target,
# another targeted spell, a Stage, nothing to play
(LK_FIGHTER, LK_HAZARD, LK_PLAIN, LK_DISCARD, LK_FRIEND, LK_OPP, LK_TARGETED, LK_STAGE,
 LK_NONE) = range(9)
# How legal_actions adds an Active Power's actions (_power_entries): the one untargeted action, by
# friendly / opposing slot mask, or by a _target_adder
PW_PLAIN, PW_FRIEND, PW_OPP, PW_ADDER = range(4)

_E_TABLE = 40                    # the least length of the HandPlan tables by Energy
_LOWER = (0, 1, 3, 7, 15)        # [i]: the slots below slot i
_CHOICES = [(A_CHOOSE, o) for o in range(O_DONE + 1)]     # the answer actions, made once


def _basic_attacks():
    """[r][t]: the basic attacks of the fighters in slot mask r on the target slot mask t, in slot
    order (each r's row is a smaller mask's plus its highest slot's attacks)."""
    out = [[()] * (1 << SLOTS)]
    for r in range(1, 1 << SLOTS):
        h = r.bit_length() - 1
        mine = _by_mask([(A_ATTACK, h, 0, t) for t in range(SLOTS)])
        out.append([a + b for a, b in zip(out[r ^ (1 << h)], mine, strict=True)])
    return out


_BASIC_ATTACKS = _basic_attacks()


class HandPlan:
    """The cards of one hand composition, sorted by what legal_actions does with them (see
    LK_... for the kinds): fighter cards (their play actions by empty-slot mask are cached in
    fplay); Stages and untargeted spells as (energy, action); one-target spells as (energy,
    actions by side and slot mask, 1 for an opposing target); the rest as (card, kind, energy,
    the _target_adder of an LK_TARGETED spell).
    Stages, untargeted and one-target spells are also kept by the Energy there is to pay
    (stages_at[e], spells_at[e] = (untargeted cast actions, one-target entries); at least
    _E_TABLE entries, the last one for e past the dearest), so legal_actions tests no costs.

    A plan joins two parts that the deck's cache (pl.plans) shares between hands: the fighter
    cards with their play actions, and the other cards (see _plan). A match visits far fewer
    compositions of either than of whole hands, so a part's tables are made once for many."""

    __slots__ = ("fighters", "stages", "plain", "single", "other", "spells", "fplay", "stages_at",
                 "spells_at")

    def __init__(self, fighter_part, card_part):
        self.fighters, self.fplay = fighter_part
        (self.stages, self.plain, self.single, self.other, self.spells, self.stages_at,
         self.spells_at) = card_part


def _card_part(engine, cards):
    """The HandPlan fields of a hand's cards other than fighters (cards: in deck order)."""
    lk, EN = engine._lk, engine.EN
    stages, plain, single, other = [], [], [], []
    for c in cards:
        k = lk[c]
        if k == LK_STAGE:
            stages.append((EN[c], engine._stage[c]))
        elif k == LK_PLAIN:
            plain.append((EN[c], engine._cast0[c]))
        elif k in (LK_FRIEND, LK_OPP):
            single.append((EN[c], engine._cast_rows[c], k == LK_OPP))
        elif k != LK_NONE:
            other.append((c, k, EN[c], engine._targets[c]))
    return (tuple(stages), tuple(plain), tuple(single), tuple(other),
            bool(plain or single or other), _by_energy(stages),
            _spells_by_energy(plain, single))


def _spells_by_energy(plain, single):
    """For each Energy 0..the dearest cost (and up to _E_TABLE): (the untargeted cast actions it
    pays for, the one-target spells (rows, opposing) it pays for)."""
    top = max([0] + [en for en, _ in plain] + [en for en, _, _ in single])
    by_e = [(tuple(a for en, a in plain if en <= e),
             tuple((rows, opposing) for en, rows, opposing in single if en <= e))
            for e in range(top + 1)]
    return tuple(by_e + by_e[-1:] * (_E_TABLE - len(by_e)))


def _by_energy(entries):
    """(energy, item) pairs -> for each Energy 0..the dearest cost (and up to _E_TABLE), the items
    it pays for."""
    top = max((en for en, _ in entries), default=0)
    rows = [tuple(item for en, item in entries if en <= e) for e in range(top + 1)]
    return tuple(rows + rows[-1:] * (_E_TABLE - len(rows)))


def _at_energy(table, e):
    """table[e] of a _by_energy table, for e past its end (legal_actions reads the rest)."""
    return table[min(e, len(table) - 1)]


def _target_table(head):
    """An action's targeted forms: ([side][m]: head + (t, -1) for the positions t of slot mask m
    on that side, [t][u]: head + (t, u) for positions t and u, head + (-1, -1))."""
    return ([_by_mask([head + (side * SLOTS + i, -1) for i in range(SLOTS)]) for side in (0, 1)],
            [[head + (t, u) for u in range(2 * SLOTS)] for t in range(2 * SLOTS)], head + (-1, -1))


def _target_adder(tab, tsel):
    """A function (engine, s, p, acts) adding an action's forms (tab: _target_table) for the
    targets its selectors (tsel) allow now, as _targeted does: for the usual single selectors
    (by Element; without Block) the mask is worked out in place."""
    sel = tsel[0] if len(tsel) == 1 else None
    if sel is not None and sel.side in (FRIEND, OPP) and not sel.flags and sel.elem:
        rows, friendly, elem = tab[0], sel.side == FRIEND, sel.elem

        def add(self, s, p, acts):
            side = p if friendly else 1 - p
            pl = s.p[side]
            slots = pl.slots
            m = 0
            for i in _SLOTS_OF[pl.om]:
                if slots[i].elem == elem:
                    m |= _BIT[i]
            acts += rows[side][m]
        return add
    if sel is not None and sel.side in (FRIEND, OPP) and sel.flags == F_NOBLOCK and not sel.elem:
        rows, friendly = tab[0], sel.side == FRIEND

        def add(self, s, p, acts):
            side = p if friendly else 1 - p
            pl = s.p[side]
            acts += rows[side][pl.om & ~(pl.bm if pl.bm >= 0 else self._block_mask(pl))]
        return add
    target = (tab, tsel)

    def add(self, s, p, acts):
        self._targeted(s, p, target, acts)
    return add


def _within_health(actions, slots, most):
    """The attack actions whose target (in slots) has at most `most` Health."""
    return [a for a in actions if slots[a[3]].hp <= most]


class LegalMixin:
    """The legal actions of a state (AmiibartEngine)."""

    def legal_actions(self, s):
        acts = s.legal
        if acts is not None:
            return acts
        if s.over:
            s.legal = []
            return s.legal
        pend = s.pending
        if pend is not None:
            s.legal = acts = [_CHOICES[o] for o in pend[1]]
            return acts
        p = s.cur
        P = s.p
        pl = P[p]
        emask = 31 ^ pl.om          # (literals in this hot function: 31 = ALL_SLOTS)
        plan = pl.hk
        if plan is None:            # _plan, its cache hit inlined
            plan = pl.hk = pl.plans.get(pl.hm) or self._new_plan(pl)
        if s.turn_one:
            if emask and plan.fighters:
                acts = list(plan.fplay[emask] or self._fplay(plan, emask))
                if acts:
                    s.legal = acts
                    return acts
            s.legal = [END]
            return s.legal
        acts = [END]
        e = pl.energy
        if emask and plan.fighters and pl.played < self.per_turn and e >= self.fighter_cost:
            acts += plan.fplay[emask] or self._fplay(plan, emask)
        opp = P[1 - p]
        tmask = opp.om
        if plan.stages and e >= 0:
            acts += plan.stages_at[e] if e < _E_TABLE else _at_energy(plan.stages_at, e)
        if plan.spells:
            if pl.dd:               # spells cost less by it (_spell_disc, its cache hit inlined)
                e += pl.disc + (pl.sd if pl.sd >= 0 else self._spell_disc(pl))
            else:
                e += pl.disc
            if e >= 0:
                plain, single = plan.spells_at[e] if e < _E_TABLE else _at_energy(plan.spells_at, e)
                acts += plain
                for rows, opposing in single:
                    acts += rows[1 - p][tmask] if opposing else rows[p][31 ^ emask]
            if plan.other:          # (many hands have none: no loop, no tuple iterator)
                for c, k, en, target in plan.other:
                    if en > e:
                        continue
                    if k == 1:                  # = LK_HAZARD
                        if c not in pl.hazards:
                            acts.append(self._cast0[c])
                    elif k == 3:                # = LK_DISCARD
                        if self._has_discard(pl, self.RD[c]):
                            acts.append(self._cast0[c])
                    else:
                        target(self, s, p, acts)
            e = pl.energy
        if pl.pa:                   # the Active Powers not used yet this turn (each once a turn)
            for _i, energy, rd, mode, data in pl.pa:
                if energy > e:
                    continue
                if rd is not None and not self._has_discard(pl, rd):
                    continue
                if mode == 0:                   # = PW_PLAIN
                    acts.append(data)
                elif mode == 1:                 # = PW_FRIEND
                    acts += data[p][31 ^ emask]
                elif mode == 2:                 # = PW_OPP
                    acts += data[1 - p][tmask]
                else:
                    data(self, s, p, acts)
        if not tmask:
            s.legal = acts
            return acts
        rmask = pl.rm
        if rmask < 0:
            rmask = self._ready_mask(pl)
        if not rmask:
            s.legal = acts
            return acts
        # the opposing slots with Block (attacks must target one of them, if any)
        bmask = opp.bm
        if bmask < 0:
            bmask = self._block_mask(opp)
        tl = bmask or tmask         # an attack's targets, unless it ignores Block
        # The fighters outside pl.xm only have their basic attack, on tl: each run of them between
        # the others takes one table lookup.
        xm = rmask & pl.xm
        plain = rmask ^ xm
        slots = pl.slots
        for i in _SLOTS_OF[xm]:
            run = plain & _LOWER[i]
            if run:
                acts += _BASIC_ATTACKS[run][tl]
                plain ^= run
            f = slots[i]
            basic, specials, card_ign = f.arows[i]
            ign = bmask and (f.ign or (card_ign and not f.bound))
            acts += basic[tmask if ign else tl]
            if not specials:        # (most fighters: no loop, no tuple iterator)
                continue
            for energy, row, targeted, ignore_block, mh in specials:
                if energy > e:
                    continue
                if not targeted:
                    acts.append(row[32])        # (32: the untargeted form, after the masks)
                    continue
                al = tmask if (ign or ignore_block) else tl
                if mh:
                    acts += _within_health(row[al], opp.slots, mh)
                else:
                    acts += row[al]
        if plain:
            acts += _BASIC_ATTACKS[plain][tl]
        s.legal = acts
        return acts

    def _plan(self, pl):
        """The HandPlan of the cards in pl's hand (pl.hk), from the deck's cache or made now.
        The cache holds plans by hand mask, their parts by ("fighters" | "cards", the part's
        bits of the hand mask) and under "fighter bits" the bits of the deck's fighter cards."""
        plan = pl.plans.get(pl.hm)
        if plan is None:
            plan = self._new_plan(pl)
        pl.hk = plan
        return plan

    def _new_plan(self, pl):
        """_plan for a hand mask not in the cache yet."""
        plans = pl.plans
        m = pl.hm
        hb = pl.hb
        fm = m & plans["fighter bits"]
        fighter_part = plans.get(("fighters", fm))
        if fighter_part is None:
            fighter_part = plans["fighters", fm] = (tuple(c for c in pl.deck if fm & hb[c]),
                                                    [None] * (1 << SLOTS))
        cm = m ^ fm
        card_part = plans.get(("cards", cm))
        if card_part is None:
            card_part = plans["cards", cm] = _card_part(self, [c for c in pl.deck if cm & hb[c]])
        plan = plans[m] = HandPlan(fighter_part, card_part)
        return plan

    def _fplay(self, plan, emask):
        """The play actions of every fighter card of a plan into the empty slots emask (kept in
        the fplay table its fighter part shares)."""
        acts = ()
        rows = self._play_rows
        for c in plan.fighters:
            acts += rows[c][emask]
        plan.fplay[emask] = acts
        return acts

    def _ready_mask(self, pl):
        """The slots of pl's fighters that may attack now: not done, not stunned, and not played
        this turn unless Swift (kept in pl.rm)."""
        gc = self.grant_cards
        swift = 0
        m = 0
        slots = pl.slots
        for i in _SLOTS_OF[pl.om]:
            f = slots[i]
            if f.done or f.noatk:
                continue
            if f.fresh:
                if swift == 0:
                    swift = (self._grant_bits(pl) if pl.gk and (
                        self.fighter_grants or pl.stage in gc or (pl.on and pl.pg)) else None)
                k = f.kw | f.tkw | f.nkw
                if swift:
                    k |= swift.get(f.elem, 0)
                if not k & SWIFT:
                    continue
            m |= _BIT[i]
        pl.rm = m
        return m

    def _block_mask(self, pl):
        """The slots of pl's fighters with Block (kept in pl.bm until a keyword can change)."""
        gc = self.grant_cards
        g = (self._grant_bits(pl) if pl.gk and (
            self.fighter_grants or pl.stage in gc or (pl.on and pl.pg)) else None)
        bmask = 0
        slots = pl.slots
        for j in _SLOTS_OF[pl.om]:
            h = slots[j]
            if (h.kw | h.tkw | h.nkw) & BLOCK or (g and g.get(h.elem, 0) & BLOCK):
                bmask |= _BIT[j]
        pl.bm = bmask
        return bmask

    def _power_entries(self, powers):
        """Per Active Power of a player: (index, energy, discard check, mode, actions)."""
        key = tuple(powers)
        out = self._pwcache.get(key)
        if out is not None:
            return out
        out = []
        for i, pw in enumerate(powers):
            info = self.ci[pw]
            if not info.active:
                continue
            body = info.body
            rd = body.effs[0] if body.effs and body.effs[0][0] == "ret_discard" else None
            tsel = body.tsel
            if not tsel:
                out.append((i, info.energy, rd, PW_PLAIN, (A_POWER, i, -1, -1)))
                continue
            sel = tsel[0]
            if len(tsel) == 1 and not (sel.flags or sel.elem) and sel.side in (FRIEND, OPP):
                table = [[tuple((A_POWER, i, side * SLOTS + j, -1) for j in range(SLOTS) if m & (1 << j))
                          for m in range(1 << SLOTS)] for side in (0, 1)]
                out.append((i, info.energy, rd, PW_FRIEND if sel.side == FRIEND else PW_OPP, table))
                continue
            out.append((i, info.energy, rd, PW_ADDER, _target_adder(_target_table((A_POWER, i)), tsel)))
        out = tuple(out)
        self._pwcache[key] = out
        return out

    def _targeted(self, s, p, target, acts):
        """Add an action's forms for the targets its selectors allow; target: (its forms by
        target (_target_table), the selectors). A selector without filters may choose any
        fighter of its side (sel.side: 0 friendly, 1 opposing)."""
        tab, tsel = target
        if not tsel:
            acts.append(tab[2])
            return
        P = s.p
        sel = tsel[0]
        m1 = P[p ^ sel.side].om if not (sel.flags or sel.elem) else self._free_cands(s, p, sel)
        if not m1:
            return
        side1 = p if sel.side == FRIEND else 1 - p
        if len(tsel) > 1:
            sel = tsel[1]
            m2 = P[p ^ sel.side].om if not (sel.flags or sel.elem) else self._free_cands(s, p, sel)
            if m2:
                # (loops, not comprehensions: those would give this hot function closure cells)
                second = self._pos[p if sel.side == FRIEND else 1 - p][m2]
                for t in self._pos[side1][m1]:
                    row = tab[1][t]
                    for u in second:
                        acts.append(row[u])
                return
        acts += tab[0][side1][m1]

    def _spell_disc(self, pl):
        """What pl's fighters, Stage and Powers take off spells (besides pl.disc), kept in pl.sd
        until a slot, the Stage, a Bind or the Powers coming into play changes it (-1)."""
        d = pl.sd
        if d >= 0:
            return d
        d = 0
        dc = self.disc_cards
        if dc and pl.dd:
            for f in pl.slots:
                if f is not None and f.card in dc and not f.bound:
                    d += self.ci[f.card].spell_disc
            if pl.stage in dc:
                d += self.ci[pl.stage].spell_disc
            if pl.on:
                for pw in pl.powers:
                    if pw in dc:
                        d += self.ci[pw].spell_disc
        pl.sd = d
        return d
