"""The Amiibart match state and its constants: card types, action kinds, slots, job kinds, the
attack under way, choice answers; a card's precomputed rules (CardInfo), a fighter in a slot
(Fighter), a player's side (Player), the match (State)."""

from __future__ import annotations

from .grammar import COMBAT_KW, KW_BITS, VOID

T_FIGHTER, T_SPELL, T_STAGE, T_POWER, T_TOKEN = range(5)
_TYPES = {"fighter": T_FIGHTER, "spell": T_SPELL, "stage": T_STAGE, "power": T_POWER, "token": T_TOKEN}

# Action kinds: an action is a tuple of ints, its kind first (the package's docstring has the forms).
A_END, A_PLAY, A_CAST, A_POWER, A_ATTACK, A_STAGE, A_CHOOSE = 0, 1, 2, 3, 4, 5, 9
END = (A_END,)

# Slots: a fighter's position is player * SLOTS + slot; a slot mask has bit i for slot i.
SLOTS = 5
ALL_SLOTS = (1 << SLOTS) - 1        # 31: the mask of every slot

# Jobs waiting in state.queue (tuples; the first item says which). The end-of-turn triggers are
# not a job: they are gathered at once, the queue being empty then.
J_FX, J_ASTEP, J_PLAYED, J_CAST, J_PICKD, J_FORGE, J_PICKH, J_HAZRES, J_SUMMONED = range(9)

# State.atk, the attack under way: [attacker ref, attack index (0: basic), target ref (None: no
# target), nullified, the target had Block, ended] (refs: (player, slot, uid))
AT_ATTACKER, AT_INDEX, AT_TARGET, AT_NULL, AT_BLOCK, AT_ENDED = range(6)

# Choice answers: card ids must stay below the next base (a set of 129 cards once collided at 100).
MAX_CARDS = 1000
O_HAZ, O_DISC, O_FORGE, O_DONE = MAX_CARDS, 2 * MAX_CARDS, 3 * MAX_CARDS, 4 * MAX_CARDS - 1
SIDE = "AB"

# Variants (house rules, off unless asked for; game.yaml `variants:`), a bit each in Player.vr.
V_RAISED_CAP = 1        # "+N Health" also raises the Health a fighter may be healed up to
V_UPDATE_IN_PLACE = 2   # an Update's new fighter takes the old one's slot
VARIANT_BITS = {"raised-health-cap": V_RAISED_CAP, "update-in-place": V_UPDATE_IN_PLACE}


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
        self.refs = frozenset()   # the cards its texts name (CardsMixin._read_game)
        self.why = None           # why no rule implements its text (unsupported_cards)
        # its attack actions as legal_actions reads them, by slot (CardsMixin._read_game):
        # (basic attack actions by target mask, special attacks, the card ignores Block), a
        # special attack being (energy, actions by target mask (index 32: untargeted),
        # targeted, ignores Block, max target Health or 0)
        self.attack_rows = ()
        self.xa = False           # it has special attacks or ignores Block (CardsMixin._read_game)


class Fighter:
    """A fighter in a slot. kw: its keywords (printed or gained for good); tkw: this turn only;
    nkw: until the start of its owner's next turn. maxhp: the Health healing stops at (printed on
    its card, or set by a Bind); gain: the Health "+N Health" effects gave it on top (so Health
    may pass maxhp by gain; with the raised-health-cap variant they raise maxhp instead). arows,
    evs: its card's attack_rows and evs (CardInfo: its attack actions, the events it listens
    to), kept here for the hot path."""

    __slots__ = ("uid", "card", "token", "elem", "atk", "hp", "maxhp", "gain", "kw", "tkw", "nkw",
                 "tmp", "bound", "ign", "ward", "poison", "burn", "stun", "noatk", "fresh", "done",
                 "doomed", "arows", "evs")

    def copy(self):
        g = Fighter()
        g.uid, g.card, g.token, g.elem = self.uid, self.card, self.token, self.elem
        g.atk, g.hp, g.maxhp, g.gain, g.kw, g.tkw, g.nkw, g.tmp = (
            self.atk, self.hp, self.maxhp, self.gain, self.kw, self.tkw, self.nkw, self.tmp)
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
    this player's plays (fixed for the match, as lsup). used: the Active Powers used this turn,
    bit i for Power i (each may be used once per turn); pa: the entries of apw (the Active Powers'
    actions) of those not used yet this turn, () until the Powers are in play. vr: the match's
    variants (V_... bits, the same on both sides)."""

    __slots__ = ("hand", "deck", "total", "discard", "void", "slots", "hazards", "stage", "powers",
                 "on", "used", "tokens", "energy", "played", "stall", "acted", "empty", "turns",
                 "disc", "nh", "pg", "pev", "dd", "apw", "hb", "hm", "plans", "lsup", "hk", "nm", "om",
                 "pdr", "au", "gk", "lm", "cv", "bm", "rm", "heard", "xm", "sd", "vr", "pa")

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
        q.om, q.pdr, q.au, q.gk, q.lm, q.cv, q.bm, q.rm, q.heard, q.xm, q.sd, q.vr = (
            self.om, self.pdr, self.au, self.gk, self.lm, self.cv, self.bm, self.rm, self.heard, self.xm,
            self.sd, self.vr)
        q.pa = self.pa
        q.hazards = self.hazards[:]
        q.stage, q.on, q.used, q.tokens, q.energy = self.stage, self.on, self.used, self.tokens, self.energy
        q.played, q.stall, q.acted, q.empty, q.turns, q.disc = (self.played, self.stall, self.acted,
                                                               self.empty, self.turns, self.disc)
        return q


class State:
    """A match. Besides the zones in p and the job queue: dead, a bit per position (player * 5 +
    slot) where a fighter without Health or doomed may be (set with s.dirty, _deaths looks only
    there); turn_one, whether s.cur is in their turn one."""

    __slots__ = ("p", "cur", "turn", "rng", "queue", "pending", "over", "win", "uid", "atk",
                 "ending", "legal", "dirty", "kill_side", "heal_amt", "flag", "first", "acc",
                 "reason", "dead", "turn_one")
