"""Reading the cards, once, when the engine is built: each card's texts into effect programs
(grammar.py) and its CardInfo, then the engine's tables by card (costs, events, action tables), and
the fast path of the usual one-effect programs (_fast_run)."""

from __future__ import annotations

from cardgen.errors import ContentError, Issue

from .grammar import (
    EV_OPP_CAST,
    EV_OPP_HEALED,
    EV_OPP_POWER,
    EV_OPP_SPECIAL,
    EV_WOULD_DIE,
    EV_YOU_FORGE,
    FRIEND,
    HAZARD_EVENTS,
    HAZARD_ONLY,
    K_EVENT,
    K_REF,
    K_SELF,
    K_TARGET,
    SELF_EVENTS,
    Attack,
    Program,
    Unsupported,
    parse_program,
    parse_static,
    parse_trigger,
    split_trigger,
)
from .legal import (
    LK_DISCARD,
    LK_FIGHTER,
    LK_FRIEND,
    LK_HAZARD,
    LK_NONE,
    LK_OPP,
    LK_PLAIN,
    LK_STAGE,
    LK_TARGETED,
    _target_adder,
    _target_table,
)
from .state import (
    A_ATTACK,
    A_CAST,
    A_PLAY,
    A_STAGE,
    MAX_CARDS,
    SLOTS,
    T_FIGHTER,
    T_POWER,
    T_SPELL,
    T_STAGE,
    T_TOKEN,
    CardInfo,
)
from .tables import _SLOTS_OF, _by_mask
from .zones import _buff

# Hazard-only effects and the triggers they answer.
_HAZARD_OPS = {"wither": (EV_OPP_HEALED,), "cancel": (EV_OPP_CAST,),
               "nullify": (EV_OPP_POWER, EV_OPP_CAST), "null_attack": (EV_OPP_SPECIAL,)}


def _val(v, default, key="value"):
    if v is None:
        return default
    if isinstance(v, dict):
        return v.get(key, default)
    return v


def _programs(ci):
    """The programs of a card's texts that _exec may run."""
    for prog in (ci.body, ci.would_die):
        if prog is not None:
            yield prog
    yield from ci.forge
    for entries in ci.trig.values():
        for _, _, prog in entries:
            yield prog
    for atk in ci.attacks:
        for prog in (atk.step3, atk.step5, atk.step7):
            if prog is not None:
                yield prog


def _fast_run(prog):
    """For a program of one usual effect (damage, heal or buff on the fighter of one reference:
    a chosen target, the source or the event's fighter), a function doing what _eff does with
    it, without its dispatch and _resolve's result tuple; else None."""
    if len(prog.effs) != 1:
        return None
    e = prog.effs[0]
    op = e[0]
    if op not in ("dmg", "heal", "buff") or (op == "dmg" and e[3]):
        return None
    kind, k = e[1].kind, e[1].k
    if kind in (K_TARGET, K_REF):
        ref = 0             # tgts[k] (_exec runs it once the targets are there)
    elif kind == K_SELF:
        ref = 1
    elif kind == K_EVENT:
        ref = 2
    else:
        return None
    dmg, heal = op == "dmg", op == "heal"
    _, _, n, hp, kw, temp = e if op == "buff" else (None, None, e[2], 0, 0, 0)

    def run(self, s, ctl, src, ev, tgts, attack):
        r = tgts[k] if ref == 0 else src if ref == 1 else ev
        if r is None:
            return
        f = s.p[r[0]].slots[r[1]]
        if f is None or f.uid != r[2]:
            return
        if dmg:
            self._damage(s, r[0], r[1], f, n, attack)
        elif heal:
            self._heal(s, r[0], f, n)
        else:               # buff: n is the Attack
            _buff(s.p[r[0]], f, n, hp, kw, temp)
    return run


class CardsMixin:
    """The rules of the cards, read from the game (AmiibartEngine)."""

    def _read_game(self, game):
        """The engine's numbers (game.yaml's tables) and the rules of its cards, with the tables
        the hot path reads by card."""
        tables = game.tables
        self.energy_per_turn = int(_val(tables.get("energy_per_turn"), 10))
        self.nslots = int(_val(tables.get("slots"), 5))
        self.lose_tokens = int(_val(tables.get("death_tokens_to_lose"), 5))
        self.stall_turns = int(_val(tables.get("stall_turns"), 3))
        self.per_turn = int(_val(tables.get("fighters_per_turn"), 2))
        self.fighter_cost = int(_val(tables.get("fighter_play_cost"), 1))
        self.opening = int(_val(tables.get("opening"), 3, "fighters"))
        self.names = list(game.cards)
        if len(self.names) > MAX_CARDS:
            raise ContentError([Issue(game.folder / "game.yaml", None, "cards",
                                      f"the Amiibart engine plays at most {MAX_CARDS} cards; this game "
                                      f"has {len(self.names)}")])
        self.ids = {n: i for i, n in enumerate(self.names)}
        tokens = {c.name: c for c in game.cards.values() if c.type == "token"}
        self.ci = [CardInfo(i, game.cards[n]) for i, n in enumerate(self.names)]
        # Few instance attributes on purpose: past 29, CPython 3.11 stops specialising the
        # `self.x` loads of the hot path (the instance dict is no longer a shared-key one).
        for ci in self.ci:
            try:
                self._compile(ci, game.cards[ci.name], tokens)
            except Unsupported as exc:
                ci.why = str(exc)
        self.grant_cards = frozenset(ci.id for ci in self.ci if ci.grant)
        self.EN = [ci.energy for ci in self.ci]
        self.EVS = [ci.evs for ci in self.ci]
        # Spell targets (None for a Hazard) and every action tuple, made once; `...m` tables are
        # indexed by a bit mask of slots (bit i = slot i).
        self.TS = [None if ci.hazard or ci.body is None else ci.body.tsel for ci in self.ci]
        # a Spell whose first effect returns cards from the discard pile (it needs one there)
        self.RD = [ci.body.effs[0] if ci.body is not None and ci.body.effs
                   and ci.body.effs[0][0] == "ret_discard" else None for ci in self.ci]
        n = len(self.ci)
        masks = range(1 << SLOTS)

        slots_of = _SLOTS_OF.__getitem__

        self._cast0 = [(A_CAST, c, -1, -1) for c in range(n)]
        self._stage = [(A_STAGE, c) for c in range(n)]
        # attack actions by slot i, then attack index ai (0 basic), then target slot mask (index
        # 32: the untargeted attack)
        by_slot = [[_by_mask([(A_ATTACK, i, ai, t) for t in range(SLOTS)]) + [(A_ATTACK, i, ai, -1)]
                    for ai in range(3)] for i in range(SLOTS)]
        for ci in self.ci:
            ci.attack_rows = tuple(
                (rows[0], tuple((atk.energy, rows[ai], atk.targeted, atk.ignore_block, atk.max_hp)
                                for ai, atk in enumerate(ci.attacks, 1)), ci.ign)
                for rows in by_slot)
            ci.xa = bool(ci.attacks) or ci.ign
        self.fighter_grants = any(ci.grant for ci in self.ci if ci.type in (T_FIGHTER, T_TOKEN))
        # legal_actions' kind of each card in hand (legal.LK_...)
        lk = []
        for c, ci in enumerate(self.ci):
            t = ci.type
            if t == T_FIGHTER:
                lk.append(LK_FIGHTER)
            elif t == T_STAGE:
                lk.append(LK_STAGE)
            elif t == T_SPELL:
                tsel = self.TS[c]
                if tsel is None:
                    lk.append(LK_HAZARD)
                elif not tsel:
                    lk.append(LK_PLAIN if self.RD[c] is None else LK_DISCARD)
                elif len(tsel) == 1 and not (tsel[0].flags or tsel[0].elem):
                    lk.append(LK_FRIEND if tsel[0].side == FRIEND else LK_OPP)
                else:
                    lk.append(LK_TARGETED)
            else:
                lk.append(LK_NONE)
        self._lk = lk
        self._pos = [[[side * SLOTS + i for i in slots_of(m)] for m in masks] for side in (0, 1)]
        self._pwcache = {}
        self._pcache = {}
        # The cards each card's texts name (a summoned token, an Update...): with the decks,
        # all the cards that can ever come into play in a match (see _finish_lsup).
        for ci in self.ci:
            named = set()

            def walk(x, named=named):
                if isinstance(x, str):
                    if x in self.ids:
                        named.add(self.ids[x])
                elif isinstance(x, (tuple, list)):
                    for y in x:
                        walk(y)
                elif isinstance(x, Program):
                    walk(x.effs)

            walk([ci.body, ci.forge, ci.would_die, ci.statics,
                  [t[2] for ts in ci.trig.values() for t in ts],
                  [(a.step3, a.step5, a.step7) for a in ci.attacks]])
            ci.refs = frozenset(named)
        # The action tables of every card, by card: _play_rows[c], a fighter's play actions by
        # empty-slot mask; _cast_rows[c], a one-target spell's cast actions by side (0, 1) and
        # occupied-slot mask; _targets[c], the _target_adder of an LK_TARGETED spell.
        self._play_rows = [None] * n
        self._cast_rows = [None] * n
        self._targets = [None] * n
        for c, k in enumerate(lk):
            if k == LK_FIGHTER:
                self._play_rows[c] = _by_mask([(A_PLAY, c, i) for i in range(SLOTS)])
            elif k in (LK_FRIEND, LK_OPP):
                self._cast_rows[c] = tuple(_by_mask([(A_CAST, c, side * SLOTS + i, -1) for i in range(SLOTS)])
                                           for side in (0, 1))
            elif k == LK_TARGETED:
                self._targets[c] = _target_adder(_target_table((A_CAST, c)), self.TS[c])
        self.aura_cards = frozenset(ci.id for ci in self.ci if ci.aura)
        for ci in self.ci:
            for prog in _programs(ci):
                prog.run = _fast_run(prog)
        self.disc_cards = frozenset(ci.id for ci in self.ci if ci.spell_disc)

    def _compile(self, ci: CardInfo, card, tokens):
        f = card.fields
        fighter = ci.type in (T_FIGHTER, T_TOKEN)
        for ab in f.get("abilities") or []:
            self._ability(ci, ab["text"], fighter, tokens, "ability")
        for rec in f.get("attacks") or []:
            ci.attacks.append(Attack(rec, tokens))
        for opt in f.get("forge") or []:
            ci.forge.append(parse_program(opt, "forge", fighter, tokens))
        text = f.get("text")
        if ci.type == T_SPELL:
            if ci.hazard:
                body = text.strip()
                if not body.startswith("Hazard. "):
                    raise Unsupported("a Hazard's text starts with 'Hazard.'")
                head, rest = split_trigger(body[len("Hazard. "):])
                if head is None:
                    raise Unsupported("a Hazard needs a trigger")
                ev, elem, nontoken = parse_trigger(head)
                if ev not in HAZARD_EVENTS:
                    raise Unsupported(f"a Hazard cannot wait for {head!r}")
                prog = parse_program(rest, "hazard", False, tokens)
                if ev in (EV_OPP_CAST, EV_OPP_POWER, EV_OPP_HEALED, EV_OPP_SPECIAL) and prog.tsel:
                    raise Unsupported("a Hazard that resolves before an action cannot choose targets")
                for e in prog.effs:
                    if e[0] in _HAZARD_OPS and ev not in _HAZARD_OPS[e[0]]:
                        raise Unsupported(f"{head!r} cannot be answered that way")
                    if e[0] in ("forge", "forge_two"):
                        raise Unsupported("a Hazard has no Forge options")
                ci.trig.setdefault(ev, []).append((elem, nontoken, prog))
                ci.evs |= 1 << ev
                ci.hazard_ev = ev
            else:
                ci.body = parse_program(text, "spell", False, tokens)
                ops = [e[0] for e in ci.body.effs]
                if "forge" in ops and (ops != ["forge"] or not ci.forge):
                    raise Unsupported("a Forge spell reads 'Forge: apply one of this card's Forge "
                                      "options' and has Forge options")
        elif ci.type == T_STAGE:
            self._ability(ci, text, False, tokens, "stage")
        elif ci.type == T_POWER:
            if ci.active:
                ci.body = parse_program(text, "power", False, tokens)
                if any(e[0] in ("forge", "forge_two") for e in ci.body.effs):
                    raise Unsupported("a Power has no Forge options")
            else:
                self._ability(ci, text, False, tokens, "power")
        if (ci.forge and not any(e[0] == "forge" for e in (ci.body.effs if ci.body else ()))
                and ci.type == T_SPELL):
            raise Unsupported("Forge options but no Forge text")

    def _ability(self, ci, text, fighter, tokens, ctx):
        head, rest = split_trigger(text)
        if head is None:
            st = parse_static(text, fighter)
            ci.statics.append(st)
            kind = st[0]
            if kind == "aura":
                ci.aura = (st[1], st[2])
            elif kind == "grant":
                ci.grant.append((st[1], st[2]))
            elif kind == "dr":
                _, who, elem, n, attacks = st
                if who == "self":
                    if attacks:
                        ci.dr_atk += n
                    else:
                        ci.dr_all += n
                elif who == "adj":
                    ci.cover += n
                elif who == "block":
                    ci.dr_block += n
                else:
                    ci.dr_elem = (elem, n)
                if who in ("adj", "block", "elem") and not attacks:
                    raise Unsupported("only 'from attacks' is read for other fighters")
                if who in ("block", "elem") and fighter:
                    raise Unsupported("a fighter cannot protect every friendly fighter")
            elif kind == "cap":
                ci.cap = st[1]
            elif kind == "spell_discount":
                ci.spell_disc += st[1]
            elif kind == "ignore_block":
                ci.ign = True
            return
        ev, elem, nontoken = parse_trigger(head)
        if ev in HAZARD_ONLY:
            raise Unsupported(f"only a Hazard may wait for {head!r}")
        if ev in SELF_EVENTS and not fighter:
            raise Unsupported(f"{head!r} on a card that is no fighter")
        prog = parse_program(rest, ctx, fighter, tokens)
        if ev == EV_WOULD_DIE:
            if len(prog.effs) != 1 or prog.effs[0][0] != "update" or not rest.startswith("instead"):
                raise Unsupported("'would die' reads only 'instead Update it into ...'")
            ci.would_die = prog
            return
        if ev == EV_YOU_FORGE:
            if [e[0] for e in prog.effs] != ["forge_two"]:
                raise Unsupported("'Whenever you play a card with Forge' reads only 'apply two'")
            ci.forge_two = True
            return
        if any(e[0] in ("wither", "cancel", "nullify", "null_attack", "forge_two", "forge")
               for e in prog.effs):
            raise Unsupported("that effect only exists on a Hazard or a Forge card")
        ci.trig.setdefault(ev, []).append((elem, nontoken, prog))
        ci.evs |= 1 << ev

    def unsupported_cards(self):
        return {ci.name: ci.why for ci in self.ci if ci.why is not None}
