"""Amiibart TCG reference engine: two players, five slots each, the whole deck in hand.

Card texts are read once by the grammar in `amiibart_parts/grammar.py` into effect programs, so a
new card written in the same words just works; `unsupported_cards()` lists any text it cannot read.

Turn structure. A coin flip (`state.rng`) picks the first player. Each player's first turn is turn
one: their two Powers come into play and they put 3 fighters into empty slots for free (nothing
else; "When played" abilities and Passive Powers still trigger); the turn ends by itself after the
third. Later turns: Energy is 10; any number of actions in any order, then `end`.

Resolution. An action queues jobs (an effect program, an attack step, a pick...) that run in
order; a trigger met while a job runs is queued at the front (it resolves next), except deaths,
whose triggers go to the back: during an attack that is step 8, after steps 1-7. A job that needs
a choice (a triggered target, a Forge option, a card to return) stops the queue and asks its
owner, who may be the player whose turn it is not. When nothing in play reacts to attacks, an
attack skips the empty steps and only deals its damage (step 5).

Actions (tuples of ints; `t` is a fighter position, player * 5 + slot index 0..4, -1 for none):
  (0,)                    end the turn
  (1, card, slot)         play a fighter card from hand into an empty slot (0..4)
  (2, card, t1, t2)       cast a spell (a Hazard goes into play; t1/t2 the spell's targets in order)
  (3, power, t1, t2)      use Active Power number `power` (0 or 1, in deck order)
  (4, slot, attack, t)    the fighter in `slot` attacks: attack 0 = basic, 1/2 = its special attacks;
                          t = the opposing slot (0..4) or -1 for an attack that targets nobody
  (5, card)               play a Stage
  (9, option)             answer a pending choice (a triggered target, a Forge option, a card from
                          the discard pile, a Hazard): option = fighter position 0..9,
                          1000 + card id (Hazard), 2000 + card id (discard card), 3000 + i (Forge
                          option i), 3999 (done, for "up to" picks); so a game has at most 1000 cards
Cards are numbered by their position in `engine.names`.

Scenario forms (YAML). Players are `A` (player 0) and `B` (player 1); slots are 1..5.
  setup:
    turn: A                   # whose turn it is (default A), in its main phase
    turn_one: true            # optional: that player is in turn one instead (3 free fighters)
    energy: 10                # that player's Energy left (default 10)
    A:                        # and B: the same keys
      hand: {Gentle Light: 1}             # cards not played yet (default: none)
      powers: [Morning Prayer, Heavy Armor]   # default: no Powers
      slots: {1: Dawn Squire, 2: {card: Gloom Bat, health: 100, attack: 300, fresh: true,
              attacked: true, keywords: [Block], poison: 100, bound: true}}
      hazards: [Caltrops]     stage: Iron Bastion      discard: [Flare Shot]
      death_tokens: 2         stall: 2 (turns in a row without acting)   played: 1 (fighters this turn)
      empty_start: true       (began this turn with no fighter)          power_used: true
  actions: a list of
    end
    {play: Signal Jammer, slot: 2}
    {cast: Gentle Light, target: A1, target2: B3}       (hazards and untargeted spells: no target)
    {stage: Iron Bastion}
    {power: Morning Prayer, target: A1, target2: B2}
    {attack: A1, with: basic | <special attack name>, target: B2}   (no target for untargeted ones)
    {choose: B2} | {choose: <card name>} (a Hazard or a discard card) | {choose: "forge 1"} (1-based)
    | {choose: done}
  Powers are in play for both players; nothing triggers when the position is set up.
  observe(state) gives:
    {turn: A|B|null, over, winner: A|B|null,
     reason: null | death tokens | no fighters | no cards and no fighters | stalled,
     pending: null | {player, options: [...]},          (options named as `choose` takes them)
     A: {death_tokens, energy, hand: {name: n}, discard: [...], void: [...], hazards: [...],
         stage, stall, powers: [...],
         slots: {1: null | {name, attack, health, max_health, keywords: [...], token, bound,
                            fresh, attacked, ward, poison, stunned}, ...}},
     B: {...}}
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from cardgen.engines.base import Engine, Setup
from cardgen.errors import ContentError, Issue

from . import replay
from .grammar import (
    BLOCK,
    COMBAT_KW,
    EV_AFTER_ATTACKED,
    EV_AFTER_ATTACKS,
    EV_ATTACK_KILLS,
    EV_ATTACKED,
    EV_ATTACKS,
    EV_DIES,
    EV_END,
    EV_FRIEND_AFTER_ATTACKED,
    EV_FRIEND_AFTER_ATTACKS,
    EV_FRIEND_ATTACKS,
    EV_FRIEND_DIED_AFTER,
    EV_FRIEND_DIES,
    EV_HAZARD_RESOLVES,
    EV_OPP_ATTACKS,
    EV_OPP_ATTACKS_BLOCK,
    EV_OPP_CAST,
    EV_OPP_DIES,
    EV_OPP_HEALED,
    EV_OPP_PLAY,
    EV_OPP_PLAY_AFTER,
    EV_OPP_PLAY_SECOND,
    EV_OPP_POWER,
    EV_OPP_SPECIAL,
    EV_PLAYED,
    EV_START,
    EV_SUMMON,
    EV_WOULD_DIE,
    EV_YOU_CAST,
    EV_YOU_FORGE,
    EV_YOU_PLAY,
    F_ADJ,
    F_BLOCK,
    F_DAMAGED,
    F_HPMAX,
    F_NOBLOCK,
    F_NONTOKEN,
    F_OTHER,
    FRIEND,
    HAZARD_EVENTS,
    HAZARD_ONLY,
    INSTAKILL,
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
    KW_BITS,
    LIFESTEAL,
    OPP,
    SELF_EVENTS,
    SWIFT,
    VOID,
    Attack,
    Program,
    Unsupported,
    parse_program,
    parse_static,
    parse_trigger,
    split_trigger,
)

T_FIGHTER, T_SPELL, T_STAGE, T_POWER, T_TOKEN = range(5)
_TYPES = {"fighter": T_FIGHTER, "spell": T_SPELL, "stage": T_STAGE, "power": T_POWER, "token": T_TOKEN}

# Jobs waiting in state.queue (tuples; the first item says which). The end-of-turn triggers are
# not a job: they are gathered at once, the queue being empty then.
J_FX, J_ASTEP, J_PLAYED, J_CAST, J_PICKD, J_FORGE, J_PICKH, J_HAZRES, J_SUMMONED = range(9)

END = (0,)
NONE_REF = None
# Choice answers: card ids must stay below the next base (a set of 129 cards once collided at 100).
MAX_CARDS = 1000
O_HAZ, O_DISC, O_FORGE, O_DONE = MAX_CARDS, 2 * MAX_CARDS, 3 * MAX_CARDS, 4 * MAX_CARDS - 1
SIDE = "AB"


class CardInfo:
    """Precomputed rules of one card (indexed by card id)."""

    __slots__ = ("id", "name", "type", "elem", "stars", "energy", "atk", "hp", "kw", "void",
                 "hazard", "active", "body", "forge", "attacks", "trig", "evs", "statics",
                 "aura", "grant", "dr_all", "dr_atk", "cover", "dr_block", "dr_elem", "cap",
                 "spell_disc", "ign", "would_die", "forge_two", "hazard_ev", "token", "value",
                 "refs", "why", "attack_rows", "xa")

    def __init__(self, cid, card):
        self.id = cid
        self.name = card.name
        self.type = _TYPES[card.type]
        f = card.fields
        self.elem = f.get("element")
        self.stars = int(f.get("stars") or 0)
        self.energy = int(f.get("energy") or 0)
        self.atk = int(f.get("attack") or 0)
        self.hp = int(f.get("health") or 0)
        kw = 0
        for k in f.get("keywords") or []:
            kw |= KW_BITS.get(k, 0)
        self.kw = kw & COMBAT_KW
        self.void = bool(kw & VOID)
        self.hazard = bool(f.get("hazard"))
        self.active = f.get("mode") == "active"
        self.body = None          # a spell's or Active Power's program
        self.forge = []           # Forge options (programs)
        self.attacks = []
        self.trig = {}            # event -> [(elem filter, non-token filter, program)]
        self.evs = 0              # bit set of events listened to
        self.statics = []
        self.aura = None
        self.grant = []
        self.dr_all = self.dr_atk = self.cover = 0
        self.dr_block = 0
        self.dr_elem = None
        self.cap = 0
        self.spell_disc = 0
        self.ign = False
        self.would_die = None
        self.forge_two = False
        self.hazard_ev = -1
        self.token = self.type == T_TOKEN
        self.value = self.atk + self.hp
        self.refs = frozenset()   # the cards its texts name (AmiibartEngine.__init__)
        self.why = None           # why no rule implements its text (unsupported_cards)
        # its attack actions as legal_actions reads them, by slot (AmiibartEngine.__init__):
        # (basic attack actions by target mask, special attacks, the card ignores Block), a
        # special attack being (energy, actions by target mask (index 32: untargeted),
        # targeted, ignores Block, max target Health or 0)
        self.attack_rows = ()
        self.xa = False           # it has special attacks or ignores Block (AmiibartEngine.__init__)


class Fighter:
    """A fighter in a slot. kw: its keywords (printed or gained for good); tkw: this turn only;
    nkw: until the start of its owner's next turn. arows, evs: its card's attack_rows and evs
    (CardInfo: its attack actions, the events it listens to), kept here for the hot path."""

    __slots__ = ("uid", "card", "token", "elem", "atk", "hp", "maxhp", "kw", "tkw", "nkw", "tmp",
                 "bound", "ign", "ward", "poison", "burn", "stun", "noatk", "fresh", "done",
                 "doomed", "arows", "evs")

    def copy(self):
        g = Fighter()
        g.uid, g.card, g.token, g.elem = self.uid, self.card, self.token, self.elem
        g.atk, g.hp, g.maxhp, g.kw, g.tkw, g.nkw, g.tmp = (self.atk, self.hp, self.maxhp, self.kw,
                                                           self.tkw, self.nkw, self.tmp)
        g.bound, g.ign, g.ward, g.poison, g.burn, g.stun = (self.bound, self.ign, self.ward,
                                                             self.poison, self.burn, self.stun)
        g.noatk, g.fresh, g.done, g.doomed = self.noatk, self.fresh, self.done, self.doomed
        g.arows, g.evs = self.arows, self.evs
        return g


class Player:
    """One side. Besides the zones, small summaries kept so the hot path does not rescan them:
    hb: card id -> its bit in hm (0 for a card outside the deck); hm: the deck's cards in hand
    (a bit mask); plans: hand mask -> HandPlan (and its parts, see _plan), shared by every
    player with this deck; hk: the plan of hm (None until legal_actions needs it); om: the
    occupied slots (bit i = slot i), kept with every write to slots; pdr: the Powers that
    reduce damage to fighters (most decks have none); au / gk / cv: whether a card with an
    aura / a keyword grant / cover for its neighbours can come into play on this side in this
    match; lm: _listen(pl), bm: _block_mask(pl), rm: _ready_mask(pl), each -1 when it must be
    worked out again (a slot, the Stage, a Bind, the Powers coming into play; for bm and rm any
    keyword change and the start and end of a turn, though _next_turn works out the rm of the
    player whose turn starts at once; for rm an attack). Without keyword grants
    (gk) a slot's Block and readiness are its fighter's own, so _enter and _clear keep bm and rm
    instead of dropping them; likewise a known lm takes in an entering fighter's events and is
    dropped only when a fighter that listened leaves. sd: _spell_disc(pl), -1 when a slot, the
    Stage, a Bind or the Powers coming into play changes it. xm: the slots whose attacks
    legal_actions must look at one by one (special attacks or ignoring Block; the others only
    have their basic attack on the usual targets). heard: whether some card of the match answers
    this player's plays (fixed for the match, as lsup)."""

    __slots__ = ("hand", "deck", "total", "discard", "void", "slots", "hazards", "stage", "powers",
                 "on", "used", "tokens", "energy", "played", "stall", "acted", "empty", "turns",
                 "disc", "nh", "pg", "pev", "dd", "apw", "hb", "hm", "plans", "lsup", "hk", "nm", "om",
                 "pdr", "au", "gk", "lm", "cv", "bm", "rm", "heard", "xm", "sd")

    def copy(self):
        q = Player.__new__(Player)
        q.hand = self.hand[:]
        q.deck, q.total, q.powers, q.nh, q.pg, q.pev, q.dd = (
            self.deck, self.total, self.powers, self.nh, self.pg, self.pev, self.dd)
        q.apw, q.hb, q.hm, q.plans, q.lsup, q.hk, q.nm = (self.apw, self.hb, self.hm, self.plans,
                                                          self.lsup, self.hk, self.nm)
        q.discard = self.discard[:]
        q.void = self.void[:]
        q.slots = [None if f is None else f.copy() for f in self.slots]
        q.om, q.pdr, q.au, q.gk, q.lm, q.cv, q.bm, q.rm, q.heard, q.xm, q.sd = (
            self.om, self.pdr, self.au, self.gk, self.lm, self.cv, self.bm, self.rm, self.heard, self.xm,
            self.sd)
        q.hazards = self.hazards[:]
        q.stage, q.on, q.used, q.tokens, q.energy = self.stage, self.on, self.used, self.tokens, self.energy
        q.played, q.stall, q.acted, q.empty, q.turns, q.disc = (self.played, self.stall, self.acted,
                                                               self.empty, self.turns, self.disc)
        return q


class HandPlan:
    """The cards of one hand composition, sorted by what legal_actions does with them (see
    `_lk` for the kinds): fighter cards (their play actions by empty-slot mask are cached in
    fplay); Stages and untargeted spells as (energy, action); one-target spells as (energy,
    actions by side and slot mask, 1 for an opposing target); the rest as (card, kind, energy,
    the _target_adder of a kind 6 spell).
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
        if k == 7:
            stages.append((EN[c], engine._stage[c]))
        elif k == 2:
            plain.append((EN[c], engine._cast0[c]))
        elif k in (4, 5):
            single.append((EN[c], engine._cast_rows[c], k == 5))
        elif k != 8:
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


class State:
    """A match. Besides the zones in p and the job queue: dead, a bit per position (player * 5 +
    slot) where a fighter without Health or doomed may be (set with s.dirty, _deaths looks only
    there); turn_one, whether s.cur is in their turn one."""

    __slots__ = ("p", "cur", "turn", "rng", "queue", "pending", "over", "win", "uid", "atk",
                 "ending", "legal", "dirty", "kill_side", "heal_amt", "flag", "first", "acc",
                 "reason", "dead", "turn_one")


class AmiibartEngine(Engine):
    game_id = "amiibart"
    max_actions = 3000
    keywords = frozenset(KW_BITS)

    def __init__(self, game):
        super().__init__(game)
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
        masks = range(32)

        slots_of = _SLOTS_OF.__getitem__

        self._cast0 = [(2, c, -1, -1) for c in range(n)]
        self._stage = [(5, c) for c in range(n)]
        # attack actions by slot i, then attack index ai (0 basic), then target slot mask (index
        # 32: the untargeted attack)
        by_slot = [[_by_mask([(4, i, ai, t) for t in range(5)]) + [(4, i, ai, -1)]
                    for ai in range(3)] for i in range(5)]
        for ci in self.ci:
            ci.attack_rows = tuple(
                (rows[0], tuple((atk.energy, rows[ai], atk.targeted, atk.ignore_block, atk.max_hp)
                                for ai, atk in enumerate(ci.attacks, 1)), ci.ign)
                for rows in by_slot)
            ci.xa = bool(ci.attacks) or ci.ign
        self.fighter_grants = any(ci.grant for ci in self.ci if ci.type in (T_FIGHTER, T_TOKEN))
        # legal_actions' kind of each card in hand: 0 fighter, 1 Hazard, 2 untargeted spell,
        # 3 spell returning from the discard pile, 4/5 spell with one plain friendly/opposing
        # target, 6 other targeted spell, 7 Stage, 8 nothing to play
        lk = []
        for c, ci in enumerate(self.ci):
            t = ci.type
            if t == T_FIGHTER:
                lk.append(0)
            elif t == T_STAGE:
                lk.append(7)
            elif t == T_SPELL:
                tsel = self.TS[c]
                if tsel is None:
                    lk.append(1)
                elif not tsel:
                    lk.append(2 if self.RD[c] is None else 3)
                elif len(tsel) == 1 and not (tsel[0].flags or tsel[0].elem):
                    lk.append(4 if tsel[0].side == FRIEND else 5)
                else:
                    lk.append(6)
            else:
                lk.append(8)
        self._lk = lk
        self._pos = [[[side * 5 + i for i in slots_of(m)] for m in masks] for side in (0, 1)]
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
        # occupied-slot mask; _targets[c], the _target_adder of a spell of kind 6.
        self._play_rows = [None] * n
        self._cast_rows = [None] * n
        self._targets = [None] * n
        for c, k in enumerate(lk):
            if k == 0:
                self._play_rows[c] = _by_mask([(1, c, i) for i in range(5)])
            elif k in (4, 5):
                self._cast_rows[c] = tuple(_by_mask([(2, c, side * 5 + i, -1) for i in range(5)])
                                           for side in (0, 1))
            elif k == 6:
                self._targets[c] = _target_adder(_target_table((2, c)), self.TS[c])
        self.aura_cards = frozenset(ci.id for ci in self.ci if ci.aura)
        for ci in self.ci:
            for prog in _programs(ci):
                prog.run = _fast_run(prog)
        self.disc_cards = frozenset(ci.id for ci in self.ci if ci.spell_disc)

    # -- reading the cards ---------------------------------------------------------------------
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

    # -- setups --------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        from cardgen.model import load_deck
        if not decks:
            decks = sorted((self.game.folder / "decks").glob("*.yaml"))
        specs = []
        # Decks of this game reuse the loaded game instead of reading its folder again.
        games = {Path(self.game.folder).resolve(): self.game}
        for d in decks:
            if isinstance(d, dict):
                specs.append(d)
                continue
            deck = d if hasattr(d, "entries") else load_deck(d, games)
            cards = {}
            for e in deck.entries:
                if e.card is not None and isinstance(e.count, int) and e.count > 0:
                    cards[e.name] = cards.get(e.name, 0) + e.count
            specs.append({"name": deck.name, "powers": list(deck.fields.get("powers") or []),
                          "cards": cards})
        # Every pair of different decks in both seatings (so a bot per seat meets every deck from
        # both sides); a single deck plays the mirror match.
        out = [Setup(f"{a['name']} vs {b['name']}", [a["name"], b["name"]], {"decks": [a, b]},
                     self._playable(a, b))
               for a, b in itertools.permutations(specs, 2)]
        if len(specs) == 1:
            out.append(Setup(f"{specs[0]['name']} mirror", [specs[0]["name"]] * 2,
                             {"decks": [specs[0], specs[0]]}, self._playable(specs[0])))
        return out

    def _playable(self, *specs) -> frozenset:
        """The cards of these decks and their Active Powers (a Setup's cards): a Passive Power is
        in play from the start and never played."""
        ids, ci = self.ids, self.ci
        return frozenset([*(n for spec in specs for n in spec["cards"]),
                          *(n for spec in specs for n in spec["powers"] if n in ids and ci[ids[n]].active)])

    def _template(self, hand_counts: dict, powers):
        """(the fields a new Player with these cards and Powers starts with, and the summaries
        of _finish_lsup at the start of a match by the opposing template's id), made once."""
        key = (tuple(hand_counts.items()), tuple(powers))
        entry = self._pcache.get(key)
        if entry is None:
            entry = self._pcache[key] = (self._make_player(hand_counts, powers), {})
        return entry

    def _new_player(self, hand_counts: dict, powers) -> Player:
        return self._player_from(self._template(hand_counts, powers)[0])

    def _player_from(self, t) -> Player:
        pl = Player.__new__(Player)
        (hand, pl.deck, pl.hb, pl.hm, pl.plans, pl.total, pl.powers, pl.nh, pl.pg, pl.dd, pl.pev,
         pl.apw, pl.lsup, pl.nm, pl.pdr) = t
        pl.hand = hand[:]
        pl.om = pl.xm = 0
        pl.lm = pl.bm = pl.rm = pl.sd = -1
        pl.au = pl.gk = pl.cv = pl.heard = False      # set for the match by _finish_lsup
        pl.hk = None
        pl.discard, pl.void = [], []
        pl.slots = [None] * self.nslots
        pl.hazards = []
        pl.stage = -1
        pl.on = pl.used = False
        pl.tokens = pl.energy = pl.played = pl.stall = pl.turns = pl.disc = 0
        pl.acted = pl.empty = False
        return pl

    def _make_player(self, hand_counts: dict, powers):
        pl = Player.__new__(Player)
        pl.hand = [0] * len(self.names)
        for name, n in hand_counts.items():
            pl.hand[self.ids[name]] += n
        pl.deck = tuple(sorted(self.ids[n] for n in hand_counts))
        self._hand_bits(pl)
        pl.total = sum(hand_counts.values())
        pl.discard, pl.void = [], []
        pl.slots = [None] * self.nslots
        pl.hazards = []
        pl.stage = -1
        pl.powers = tuple(self.ids[n] for n in powers)
        pl.nh = sum(pl.hand)
        pl.pg = any(c in self.grant_cards for c in pl.powers)
        pl.dd = any(c in self.disc_cards for c in pl.deck + pl.powers)
        pl.pev = 0
        pl.apw = self._power_entries(pl.powers)
        for c in pl.powers:
            pl.pev |= self.ci[c].evs
        return (pl.hand, pl.deck, pl.hb, pl.hm, pl.plans, pl.total, pl.powers, pl.nh, pl.pg, pl.dd,
                pl.pev, pl.apw, self._listen_sup(pl.deck, pl.powers), self._closure(pl.deck + pl.powers),
                tuple(c for c in pl.powers if self.ci[c].dr_elem or self.ci[c].dr_block))

    def _hand_bits(self, pl):
        """pl.hb, pl.hm and pl.plans for pl.deck and pl.hand (a fresh plan cache)."""
        hb = [0] * len(self.ci)
        for j, c in enumerate(pl.deck):
            hb[c] = 1 << j
        pl.hb = hb
        pl.hm = sum(hb[c] for c in pl.deck if pl.hand[c])
        pl.plans = {"fighter bits": sum(hb[c] for c in pl.deck if self._lk[c] == 0)}
        pl.hk = None

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
                                                    [None] * 32)
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

    def _listen_sup(self, deck, powers):
        """The events these cards listen to (_finish_lsup adds the cards they name)."""
        m = 0
        for c in deck:
            m |= self.EVS[c]
        for c in powers:
            m |= self.EVS[c]
        return m

    def _closure(self, cards):
        """Every card the texts of these cards name, and those cards' texts name, and so on."""
        seen = set()
        todo = list(cards)
        while todo:
            for r in self.ci[todo.pop()].refs:
                if r not in seen:
                    seen.add(r)
                    todo.append(r)
        return frozenset(seen)

    def _finish_lsup(self, s):
        """pl.lsup: a superset of every _listen(pl) of the match (either side's cards may put
        a card they name into pl's slots)."""
        extra = 0
        EVS = self.EVS
        named = s.p[0].nm | s.p[1].nm
        for c in named:
            extra |= EVS[c]
        for pl in s.p:
            pl.lsup |= extra
            cards = named.union(pl.deck, pl.powers, [f.card for f in pl.slots if f is not None])
            pl.au = not self.aura_cards.isdisjoint(cards)
            pl.gk = not self.grant_cards.isdisjoint(cards)
            pl.cv = any(self.ci[c].cover for c in cards)
        p0, p1 = s.p
        p0.heard = bool(p0.lsup & _BIT_YOU_PLAY or p1.lsup & _BITS_OPP_PLAY)
        p1.heard = bool(p1.lsup & _BIT_YOU_PLAY or p0.lsup & _BITS_OPP_PLAY)

    def _blank(self, rng) -> State:
        s = State.__new__(State)
        s.rng = rng
        s.queue, s.pending, s.over, s.win, s.uid, s.atk = [], None, False, None, 0, None
        s.ending, s.legal, s.dirty, s.kill_side, s.heal_amt, s.flag = False, None, False, -1, 0, 0
        s.acc = 0
        s.reason = None
        s.dead = 0
        s.turn = 1
        s.turn_one = False
        return s

    def initial_state(self, setup: Setup, rng: random.Random):
        s = self._blank(rng)
        d0, d1 = setup.options["decks"]
        e0 = self._template(d0["cards"], d0["powers"])
        e1 = self._template(d1["cards"], d1["powers"])
        s.p = [self._player_from(e0[0]), self._player_from(e1[0])]
        p0, p1 = s.p
        # _finish_lsup depends only on the two decks here (no fighter in play yet): once per pair
        # (the templates live as long as the engine, so their ids stay theirs)
        summary = e0[1].get(id(e1))
        if summary is None:
            self._finish_lsup(s)
            summary = e0[1][id(e1)] = ((p0.lsup, p0.au, p0.gk, p0.cv, p0.heard),
                                       (p1.lsup, p1.au, p1.gk, p1.cv, p1.heard))
        else:
            (p0.lsup, p0.au, p0.gk, p0.cv, p0.heard), (p1.lsup, p1.au, p1.gk, p1.cv, p1.heard) = summary
        s.first = s.cur = rng.getrandbits(1)       # the coin flip
        self._start_first_turn(s, s.cur)
        self._run(s)
        return s

    # -- the match -----------------------------------------------------------------------------
    def current_player(self, s) -> int:
        if s.over:
            return -1
        if s.pending is not None:
            return s.pending[0]
        return s.cur

    def first_player(self, s) -> int:
        return s.first

    def is_over(self, s) -> bool:
        return s.over

    def winner(self, s):
        return s.win

    def clone(self, s):
        c = State.__new__(State)
        c.p = [s.p[0].copy(), s.p[1].copy()]
        c.cur, c.turn, c.first, c.turn_one = s.cur, s.turn, s.first, s.turn_one
        r = random.Random.__new__(random.Random)
        r.setstate(s.rng.getstate())
        c.rng = r
        c.queue = s.queue[:]
        c.pending, c.over, c.win, c.uid = s.pending, s.over, s.win, s.uid
        c.atk = None if s.atk is None else s.atk[:]
        c.ending, c.legal, c.dirty, c.kill_side = s.ending, None, s.dirty, s.kill_side
        c.heal_amt, c.flag, c.acc, c.reason, c.dead = s.heal_amt, s.flag, s.acc, s.reason, s.dead
        return c

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
        emask = 31 ^ pl.om
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
                    if k == 1:
                        if c not in pl.hazards:
                            acts.append(self._cast0[c])
                    elif k == 3:
                        if self._has_discard(pl, self.RD[c]):
                            acts.append(self._cast0[c])
                    else:
                        target(self, s, p, acts)
            e = pl.energy
        if not pl.used and pl.on:
            for _i, energy, rd, mode, data in pl.apw:
                if energy > e:
                    continue
                if rd is not None and not self._has_discard(pl, rd):
                    continue
                if mode == 0:
                    acts.append(data)
                elif mode == 1:
                    acts += data[p][31 ^ emask]
                elif mode == 2:
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
                    acts.append(row[32])
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
                out.append((i, info.energy, rd, 0, (3, i, -1, -1)))
                continue
            sel = tsel[0]
            if len(tsel) == 1 and not (sel.flags or sel.elem) and sel.side in (FRIEND, OPP):
                table = [[tuple((3, i, side * 5 + j, -1) for j in range(5) if m & (1 << j))
                          for m in range(32)] for side in (0, 1)]
                out.append((i, info.energy, rd, 1 if sel.side == FRIEND else 2, table))
                continue
            out.append((i, info.energy, rd, 3, _target_adder(_target_table((3, i)), tsel)))
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

    def apply_chosen(self, s, a):
        # (apply without looking `a` up: the caller took it from legal_actions(s))
        s.legal = None
        kind = a[0]
        p = s.cur
        pl = s.p[p]
        # the kinds by how often they are played
        if kind == 1:
            self._play_fighter(s, p, pl, a[1], a[2])
        elif kind == 4:
            self._declare_attack(s, p, pl, a[1], a[2], a[3])
        elif kind == 2:
            self._cast(s, p, pl, a[1], a[2], a[3])
        elif kind == 0:
            s.ending = True
            self._end_triggers(s, p)        # the queue is empty between actions: they run first
        elif kind == 9:
            self._choose(s, a[1])
        elif kind == 3:
            self._use_power(s, p, pl, a[1], a[2], a[3])
        elif kind == 5:
            self._play_stage(s, p, pl, a[1])
        self._run(s)
        return s

    # -- player actions ------------------------------------------------------------------------
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
        pl.used = True
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
        # [attacker ref, attack index, target ref, nullified, target had Block, ended]
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

    # -- the resolution loop -------------------------------------------------------------------
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
        if pl.om == 31:
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
        pl.played = pl.disc = pl.energy = 0
        pl.used = pl.acted = pl.empty = False
        pl.on = True
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
        nxt.played = nxt.disc = 0
        nxt.used = nxt.acted = False
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

    # -- triggers ------------------------------------------------------------------------------
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

    # -- attacks -------------------------------------------------------------------------------
    def _astep(self, s, k):
        a = s.atk
        if a is None:
            return
        if k == 8:
            s.atk = None
            return
        if a[5]:
            return
        aref = a[0]
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

    # -- damage, healing, death ----------------------------------------------------------------
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
            # only slot i itself can be refilled during its turn (an Update instead of dying)
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
        f.tkw = f.nkw = f.tmp = f.poison = f.burn = 0
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

    # -- effects -------------------------------------------------------------------------------
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
        base = side * 5
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
            for i in range(5):
                f = pl.slots[i]
                if f is not None and (not (sel.flags or sel.elem) or
                                      self._sel_ok(pl, f, sel, src, side, i)):
                    out.append((side, i, f))
            return out
        if kind == K_ATTACKER:
            return _one(s, s.atk[0] if s.atk else None)
        if kind == K_ATK_TARGET:
            return _one(s, s.atk[2] if s.atk else None)
        if kind == K_ADJ_ATK_TARGET:
            r = s.atk[2] if s.atk else None
            if r is None:
                return []
            slots = s.p[r[0]].slots
            out = []
            for i in (r[1] - 1, r[1] + 1):
                if 0 <= i < 5 and slots[i] is not None:
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
                f.kw = f.tkw = f.nkw = f.tmp = f.poison = f.burn = 0
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
                self._summon(s, p, self.ids[e[2]], j)
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
                s.atk[3] = 1
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
            if pl.om == 31:
                return
            slot = pl.slots.index(None)
        f = self._enter(s, p, pl, c, slot)
        jobs = self._source_jobs(s, p, EV_SUMMON, (p, slot, f.uid), (f.elem, True))
        if jobs:
            s.queue[0:0] = jobs

    # -- picks ---------------------------------------------------------------------------------
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

    # -- checking ------------------------------------------------------------------------------
    def invariants(self, s):
        bad = []
        over = s.over
        for i in (0, 1):
            pl = s.p[i]
            nh = sum(pl.hand)
            n = nh + len(pl.hazards) + len(pl.discard) + len(pl.void) + (pl.stage >= 0)
            for f in pl.slots:
                if f is None:
                    continue
                if not f.token:
                    n += 1
                if f.hp > f.maxhp:
                    bad.append(f"player {i}: {self.names[f.card]} has {f.hp} Health, above {f.maxhp}")
                if f.hp <= 0 and s.pending is None and not over:
                    bad.append(f"player {i}: dead {self.names[f.card]} still in play")
            if n != pl.total:
                bad.append(f"player {i}: {n} cards across zones, deck has {pl.total}")
            if nh != pl.nh or min(map(pl.hand.__getitem__, pl.deck), default=0) < 0:
                bad.append(f"player {i}: hand size {pl.nh} but {nh} cards in hand")
            if not 0 <= pl.tokens <= 2 * self.lose_tokens:
                bad.append(f"player {i}: {pl.tokens} death tokens")
            if pl.tokens >= self.lose_tokens and not over:
                bad.append(f"player {i} has {pl.tokens} death tokens but the match goes on")
            if pl.energy < 0:
                bad.append(f"player {i}: energy {pl.energy}")
            if len(pl.hazards) > 1 and len(set(pl.hazards)) != len(pl.hazards):
                bad.append(f"player {i}: two copies of one Hazard in play")
            if pl.played > (self.opening if pl.turns == 1 else self.per_turn):
                bad.append(f"player {i}: {pl.played} fighters played this turn")
        if over and s.win not in (0, 1):
            bad.append("over without a winner")
        if not over and s.pending is None and s.queue:
            bad.append("jobs left in the queue between actions")
        return bad

    # -- reporting -----------------------------------------------------------------------------
    def card_of(self, s, a):
        k = a[0]
        if _PLAYS_CARD[k]:
            return self.names[a[1]]
        if k == 3:
            return self.names[s.p[s.cur].powers[a[1]]]
        return None

    def describe(self, s, a):
        k = a[0]
        me = SIDE[self.current_player(s)] if not s.over else "?"
        if k == 0:
            return f"{me} ends the turn"
        if k == 1:
            return f"{me} plays {self.names[a[1]]} into slot {a[2] + 1}"
        if k == 2:
            return f"{me} casts {self.names[a[1]]}" + _on(a[2], a[3])
        if k == 3:
            return f"{me} uses {self.names[s.p[s.cur].powers[a[1]]]}" + _on(a[2], a[3])
        if k == 4:
            f = s.p[s.cur].slots[a[1]]
            what = "a basic attack" if a[2] == 0 else self.ci[f.card].attacks[a[2] - 1].name
            tgt = f" on {SIDE[1 - s.cur]}{a[3] + 1}" if a[3] >= 0 else ""
            return f"{me}{a[1] + 1} {self.names[f.card]} uses {what}{tgt}"
        if k == 5:
            return f"{me} plays the Stage {self.names[a[1]]}"
        if k == 9:
            job = s.pending[2] if s.pending is not None else None
            text = job[2].text if job is not None and job[0] == J_FX else ""
            return f"{me} chooses {self._option_name(a[1])}" + (f" for: {text}" if text else "")
        return repr(a)

    def _option_name(self, o):
        if o < 10:
            return f"{SIDE[o // 5]}{o % 5 + 1}"
        if o == O_DONE:
            return "done"
        if o >= O_FORGE:
            return f"forge {o - O_FORGE + 1}"
        if o >= O_DISC:
            return self.names[o - O_DISC]
        return self.names[o - O_HAZ]

    def heuristic(self, s, player):
        if s.over:
            return 1e6 if s.win == player else -1e6
        v = 0.0
        for i in (0, 1):
            pl = s.p[i]
            sign = 1.0 if i == player else -1.0
            side = -1000.0 * pl.tokens
            for f in pl.slots:
                if f is not None:
                    a = self._atk(pl, f)
                    side += 120 + a * 0.8 + f.hp * 0.6
                    if f.kw & BLOCK:
                        side += 40
                    if f.token:
                        side -= 60
            if pl.stall:
                side -= 150 * pl.stall * pl.stall
            v += sign * side
        return v

    def bots(self):
        return {}

    # -- replays -------------------------------------------------------------------------------
    def describe_outcome(self, before, after, a):
        # the narration (a traced re-run of the move) is in amiibart_parts/replay.py
        return replay.describe_outcome(self, before, after, a)

    # -- scenarios -----------------------------------------------------------------------------
    def scenario_state(self, setup, rng):
        s = self._blank(rng)
        s.p = []
        cur = SIDE.index(setup.get("turn", "A"))
        for idx, side in enumerate(SIDE):
            spec = setup.get(side) or {}
            pl = self._new_player(dict(spec.get("hand") or {}), spec.get("powers") or [])
            s.p.append(pl)
            pl.turns = 1 if (setup.get("turn_one") and idx == cur) else 2
            pl.on = True
            for slot, fs in (spec.get("slots") or {}).items():
                if isinstance(fs, str):
                    fs = {"card": fs}
                f = self._enter(s, idx, pl, self.ids[fs["card"]], int(slot) - 1)
                f.fresh = bool(fs.get("fresh", False))
                f.done = bool(fs.get("attacked", False))
                if "attack" in fs:
                    f.atk = int(fs["attack"])
                if "max_health" in fs:
                    f.maxhp = int(fs["max_health"])
                if "health" in fs:
                    f.hp = int(fs["health"])
                for k in fs.get("keywords") or []:
                    f.kw |= KW_BITS[k]
                f.poison = int(fs.get("poison", 0))
                f.bound = bool(fs.get("bound", False))
                f.stun = bool(fs.get("stunned", False))
            _changed(pl)            # (the fighters were changed after they entered)
            pl.hazards = [self.ids[h] for h in spec.get("hazards") or []]
            if spec.get("stage"):
                pl.stage = self.ids[spec["stage"]]
            for d in spec.get("discard") or []:
                self._to_discard(pl, self.ids[d])
            pl.tokens = int(spec.get("death_tokens", 0))
            pl.stall = int(spec.get("stall", 0))
            pl.played = int(spec.get("played", 0))
            pl.empty = bool(spec.get("empty_start", False))
            pl.used = bool(spec.get("power_used", False))
            owned = [c for c in pl.deck if pl.hand[c]]
            owned += [f.card for f in pl.slots if f is not None and not f.token]
            owned += pl.hazards + pl.discard + pl.void + ([pl.stage] if pl.stage >= 0 else [])
            pl.deck = tuple(sorted(set(owned)))
            self._hand_bits(pl)
            inplay = pl.deck + tuple(f.card for f in pl.slots if f is not None)
            pl.lsup = self._listen_sup(inplay, pl.powers)
            pl.nm = self._closure(inplay + pl.powers)
            pl.nh = sum(pl.hand)
            pl.dd = any(c in self.disc_cards for c in pl.deck + pl.powers)
            pl.total = (sum(pl.hand) + sum(1 for f in pl.slots if f is not None and not f.token)
                        + len(pl.hazards) + (pl.stage >= 0) + len(pl.discard) + len(pl.void))
        s.cur = s.first = cur
        s.turn = 2
        s.turn_one = s.p[cur].turns == 1
        for i, pl in enumerate(s.p):
            pl.energy = int(setup.get("energy", self.energy_per_turn)) if i == cur else 0
        s.dead = _ALL_POSITIONS        # any fighter set up may be dead
        self._finish_lsup(s)
        self._run(s)
        return s

    def parse_action(self, s, spec):
        if spec == "end":
            return END
        if not isinstance(spec, dict):
            raise ValueError(f"unknown action {spec!r}")
        me = self.current_player(s)
        if "play" in spec:
            return (1, self.ids[spec["play"]], int(spec["slot"]) - 1)
        if "cast" in spec:
            c = self.ids[spec["cast"]]
            return (2, c, _pos(spec.get("target")), _pos(spec.get("target2")))
        if "stage" in spec:
            return (5, self.ids[spec["stage"]])
        if "power" in spec:
            c = self.ids[spec["power"]]
            return (3, s.p[me].powers.index(c), _pos(spec.get("target")), _pos(spec.get("target2")))
        if "attack" in spec:
            a = _pos(spec["attack"])
            f = s.p[a // 5].slots[a % 5]
            how = spec.get("with", "basic")
            ai = 0
            if how != "basic":
                names = [x.name for x in self.ci[f.card].attacks]
                ai = names.index(how) + 1
            t = _pos(spec.get("target"))
            return (4, a % 5, ai, t % 5 if t >= 0 else -1)
        if "choose" in spec:
            v = str(spec["choose"])
            if v == "done":
                return (9, O_DONE)
            if v.startswith("forge "):
                return (9, O_FORGE + int(v.split()[1]) - 1)
            if len(v) == 2 and v[0] in SIDE and v[1].isdigit():
                return (9, _pos(v))
            c = self.ids[v]
            opts = s.pending[1] if s.pending else ()
            return (9, O_HAZ + c) if O_HAZ + c in opts else (9, O_DISC + c)
        raise ValueError(f"unknown action {spec!r}")

    def observe(self, s):
        out = {"turn": None if s.over else SIDE[s.cur], "over": s.over,
               "winner": SIDE[s.win] if s.win is not None else None, "reason": s.reason,
               "pending": None if s.pending is None else {
                   "player": SIDE[s.pending[0]],
                   "options": [self._option_name(o) for o in s.pending[1]]}}
        for i, pl in enumerate(s.p):
            slots = {}
            for j, f in enumerate(pl.slots):
                slots[j + 1] = None if f is None else {
                    "name": self.names[f.card], "attack": self._atk(pl, f), "health": f.hp,
                    "max_health": f.maxhp,
                    "keywords": sorted(k for k, b in KW_BITS.items() if self._kw(pl, f) & b),
                    "token": f.token, "bound": f.bound, "fresh": f.fresh, "attacked": f.done,
                    "ward": f.ward, "poison": f.poison, "stunned": f.stun or f.noatk}
            out[SIDE[i]] = {
                "death_tokens": pl.tokens, "energy": pl.energy,
                "hand": {self.names[c]: pl.hand[c] for c in pl.deck if pl.hand[c]},
                "discard": [self.names[c] for c in pl.discard],
                "void": [self.names[c] for c in pl.void],
                "hazards": [self.names[c] for c in pl.hazards],
                "stage": self.names[pl.stage] if pl.stage >= 0 else None,
                "stall": pl.stall, "powers": [self.names[c] for c in pl.powers],
                "slots": slots}
        return out


# -- helpers -------------------------------------------------------------------------------------
# The jobs of an attack's steps, by a bit mask of the steps that run (_attack_steps).
_STEP_BIT = [1 << k for k in range(9)]
_ATTACK_STEPS = [tuple((J_ASTEP, k) for k in range(1, 9) if m & (1 << k)) for m in range(512)]
_R5 = range(5)
_CHOICES = [(9, o) for o in range(O_DONE + 1)]     # the answer actions, made once
_PLAYS_CARD = tuple(k in (1, 2, 5) for k in range(10))   # by action kind: a[1] is the card played
_SLOTS_OF = [tuple(i for i in range(5) if m & (1 << i)) for m in range(32)]


def _by_mask(items):
    """[m]: the tuple of items[i] for the slots i of mask m, in slot order (each mask's tuple is
    a shorter one plus its highest slot's item)."""
    out = [()]
    for m in range(1, 32):
        h = m.bit_length() - 1
        out.append(out[m ^ (1 << h)] + (items[h],))
    return out


def _basic_attacks():
    """[r][t]: the basic attacks of the fighters in slot mask r on the target slot mask t, in slot
    order (each r's row is a smaller mask's plus its highest slot's attacks)."""
    out = [[()] * 32]
    for r in range(1, 32):
        h = r.bit_length() - 1
        mine = _by_mask([(4, h, 0, t) for t in range(5)])
        out.append([a + b for a, b in zip(out[r ^ (1 << h)], mine, strict=True)])
    return out


_BASIC_ATTACKS = _basic_attacks()
_E_TABLE = 40                    # the least length of the HandPlan tables by Energy
_LOWER = (0, 1, 3, 7, 15)        # [i]: the slots below slot i
# State.dead: a bit per position (player * 5 + slot) where a fighter may have died
_PBIT = ((1, 2, 4, 8, 16), (32, 64, 128, 256, 512))
_SHIFT = (0, 5)
_KEEP_OTHER = (~31, ~(31 << 5))      # the bits of the other player's positions
_ALL_POSITIONS = 1023
# Hazard-only effects and the triggers they answer.
_HAZARD_OPS = {"wither": (EV_OPP_HEALED,), "cancel": (EV_OPP_CAST,),
               "nullify": (EV_OPP_POWER, EV_OPP_CAST), "null_attack": (EV_OPP_SPECIAL,)}
_BIT = (1, 2, 4, 8, 16)
_BIT_YOU_PLAY = 1 << EV_YOU_PLAY
_BIT_PLAYED = 1 << EV_PLAYED
_BIT_DIES = 1 << EV_DIES
_BIT_START = 1 << EV_START
_BITS_OPP_PLAY = (1 << EV_OPP_PLAY) | (1 << EV_OPP_PLAY_AFTER) | (1 << EV_OPP_PLAY_SECOND)
_BIT_YOU_CAST = 1 << EV_YOU_CAST
_BIT_OPP_CAST = 1 << EV_OPP_CAST
_BIT_FRIEND_DIES = 1 << EV_FRIEND_DIES
_BIT_FRIEND_DIED_AFTER = 1 << EV_FRIEND_DIED_AFTER
_BIT_OPP_DIES = 1 << EV_OPP_DIES
_BIT_ATTACK_KILLS = 1 << EV_ATTACK_KILLS
_BITS_DEATH = _BIT_FRIEND_DIES | _BIT_FRIEND_DIED_AFTER | _BIT_OPP_DIES | _BIT_ATTACK_KILLS
_ATK_EVS = 0
for _ev in (EV_ATTACKS, EV_FRIEND_ATTACKS, EV_OPP_ATTACKS, EV_OPP_SPECIAL, EV_ATTACKED,
            EV_AFTER_ATTACKED, EV_FRIEND_AFTER_ATTACKED, EV_OPP_ATTACKS_BLOCK, EV_AFTER_ATTACKS,
            EV_FRIEND_AFTER_ATTACKS):
    _ATK_EVS |= 1 << _ev
_STEP6_EVS = (1 << EV_FRIEND_AFTER_ATTACKED) | (1 << EV_OPP_ATTACKS_BLOCK) | (1 << EV_AFTER_ATTACKED)
_STEP7_EVS = (1 << EV_FRIEND_AFTER_ATTACKS) | (1 << EV_AFTER_ATTACKS)
_STEP1_EVS = (1 << EV_ATTACKS) | (1 << EV_FRIEND_ATTACKS)
# a basic attack's events (_quiet): those the attacker's side answers, those any fighter or Power of
# the defender's side answers, those only its target answers
_ATTACKER_EVS = _STEP1_EVS | _STEP7_EVS
_DEFENDER_EVS = (1 << EV_OPP_ATTACKS) | (1 << EV_FRIEND_AFTER_ATTACKED) | (1 << EV_OPP_ATTACKS_BLOCK)
_TARGET_EVS = (1 << EV_ATTACKED) | (1 << EV_AFTER_ATTACKED)
_BIT_OPP_ATTACKS = 1 << EV_OPP_ATTACKS
_BIT_OPP_SPECIAL = 1 << EV_OPP_SPECIAL
_BIT_ATTACKED = 1 << EV_ATTACKED
_POISON_TICK = Program([("tick_poison",)], ())
_BURN_TICK = Program([("tick_burn",)], ())


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


def _buff(pl, f, atk, hp, kw, temp):
    """Player pl's fighter f gains Attack, Health and keywords, for this turn if temp."""
    if kw:
        pl.bm = pl.rm = -1          # (its Block and Swift may have changed)
    if temp:
        f.tmp += atk
        f.tkw |= kw
    else:
        f.atk += atk
        f.kw |= kw
    if hp:
        f.hp += hp
        f.maxhp += hp


def _val(v, default, key="value"):
    if v is None:
        return default
    if isinstance(v, dict):
        return v.get(key, default)
    return v


def _ref(s, t):
    if t is None or t < 0:
        return None
    p, i = divmod(t, 5)
    f = s.p[p].slots[i]
    return None if f is None else (p, i, f.uid)


def _target_table(head):
    """An action's targeted forms: ([side][m]: head + (t, -1) for the positions t of slot mask m
    on that side, [t][u]: head + (t, u) for positions t and u, head + (-1, -1))."""
    return ([_by_mask([head + (side * 5 + i, -1) for i in range(5)]) for side in (0, 1)],
            [[head + (t, u) for u in range(10)] for t in range(10)], head + (-1, -1))


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


def _alive(slots):
    """The slots whose fighter has Health left."""
    return [i for i in _R5 if slots[i] is not None and slots[i].hp > 0]


def _within_health(actions, slots, most):
    """The attack actions whose target (in slots) has at most `most` Health."""
    return [a for a in actions if slots[a[3]].hp <= most]


def _refs(s, n, t1, t2):
    """tuple(_ref(s, t) for t in (t1, t2)[:n])"""
    if n <= 0:
        return ()
    if n == 1:
        return (_ref(s, t1),)
    return (_ref(s, t1), _ref(s, t2))


def _from_hand(pl, c):
    """One copy of card c leaves pl's hand (its plan changes when the last one goes)."""
    hand = pl.hand
    hand[c] -= 1
    pl.nh -= 1
    if not hand[c] and pl.hb[c]:
        pl.hm ^= pl.hb[c]
        pl.hk = None


def _to_hand(pl, c):
    hand = pl.hand
    hand[c] += 1
    pl.nh += 1
    if hand[c] == 1 and pl.hb[c]:
        pl.hm |= pl.hb[c]
        pl.hk = None


def _clear(pl, i):
    """Slot i of pl is emptied. Without keyword grants on the side (pl.gk) whether the others
    have Block or may attack does not change: known masks only lose the slot's bit. What pl
    listens to (pl.lm) changes only if the fighter listened to something."""
    f = pl.slots[i]
    pl.slots[i] = None
    bit = _BIT[i]
    pl.om &= ~bit
    pl.xm &= ~bit
    pl.sd = -1
    if f.evs and not f.bound:
        pl.lm = -1
    if pl.gk:
        pl.bm = pl.rm = -1
        return
    if pl.bm > 0:
        pl.bm &= ~bit
    if pl.rm > 0:
        pl.rm &= ~bit


def _changed(pl):
    """pl's Stage, Powers or a fighter's Bind changed what listens, grants, may attack and
    makes spells cheaper."""
    pl.lm = pl.bm = pl.rm = pl.sd = -1


def _get(s, r):
    if r is None:
        return None
    f = s.p[r[0]].slots[r[1]]
    return f if f is not None and f.uid == r[2] else None


def _one(s, r):
    f = _get(s, r)
    return [] if f is None else [(r[0], r[1], f)]


def _fits(elem, nontoken, subject):
    if elem is None and not nontoken:
        return True
    if subject is None:
        return False
    if elem is not None and subject[0] != elem:
        return False
    return not (nontoken and subject[1])


def _pos(v):
    if v is None:
        return -1
    v = str(v)
    return SIDE.index(v[0]) * 5 + int(v[1:]) - 1


def _on(t1, t2):
    parts = [f"{SIDE[t // 5]}{t % 5 + 1}" for t in (t1, t2) if t >= 0]
    return f" on {' and '.join(parts)}" if parts else ""


ENGINE = AmiibartEngine
