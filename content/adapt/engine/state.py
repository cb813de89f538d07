"""A.D.A.P.T.: the state of a match (AdaptState, a Fish, its Stats, the per-match Config), a new
state and Fish, and the seeded shuffle."""

from __future__ import annotations

from math import floor

from .constants import N_LOCATIONS, N_SA, NO_CARD, NO_TURN, NOBODY, P_ACTION, RES_END


class Stats:
    """A Fish's totals from its Body and Adapted parts, capped.

    A Fish changes its Stats in place when it Adapts (AdaptEngine._swap_card: the sums move by
    the two cards' difference), so Adapting allocates nothing and needs no cache of card
    combinations: a match meets about a dozen new ones, and building, caching and collecting a
    shared Stats object for each was the largest single cost of a match. Clones share a Stats
    until one of them Adapts (Fish.own says whether the Fish may change it); the Guppy's, those
    `_stats` builds for bots and scenarios and those of a Guppy with one or two cards (kept in
    `memo`, see AdaptEngine._adapt) are shared and never changed."""

    __slots__ = ("level", "die", "fer", "surv", "leth", "hp", "armor", "counter", "pois", "cpois",
                 "stun", "fear", "hide", "jump", "ram", "regen", "shock", "bait", "smart",
                 "sneaky", "crit", "electro", "school", "res", "imm", "cd", "flags", "key",
                 "roll", "strike", "special", "raw", "rimm", "nums", "memo")

    def copy(self):
        """An unshared copy (its key and sums lists are its own) for a Fish about to Adapt."""
        c = Stats.__new__(Stats)
        c.level, c.die, c.fer, c.surv, c.leth, c.hp = (self.level, self.die, self.fer, self.surv,
                                                       self.leth, self.hp)
        c.nums = self.nums
        (c.armor, c.bait, c.counter, c.cpois, c.fear, c.hide, c.jump, c.pois, c.ram, c.regen,
         c.shock, c.stun) = self.nums
        c.smart, c.sneaky, c.crit, c.electro, c.school = (self.smart, self.sneaky, self.crit,
                                                          self.electro, self.school)
        c.res, c.imm, c.cd, c.flags = self.res, self.imm, self.cd, self.flags
        c.key = self.key[:]
        c.raw = self.raw
        c.rimm = self.rimm
        c.roll, c.strike, c.special = self.roll, self.strike, self.special
        c.memo = None
        return c


class Fish:
    """One Fish: its cards (instance numbers; NO_CARD for the Guppy's Body or an empty location),
    Damage and timers, and `s`, its Stats. `rare` says that its start of Turn has more to do than
    gain Experience (AdaptEngine._turn_start_rare); `hold` caches what legal_actions reads of its
    Body Level and PGP (LegalMixin._hold), None when either changed."""

    __slots__ = ("body", "parts", "under", "pgp", "dmg", "peak", "poison", "stun", "hide", "jump", "jlen",
                 "splash", "cd", "bait", "alive", "fragile", "auto", "sblock", "s", "own", "rare",
                 "hold")

    def copy(self):
        c = Fish.__new__(Fish)
        c.body = self.body
        c.parts = self.parts[:]
        c.under = self.under[:]
        c.pgp = self.pgp[:]
        c.dmg = self.dmg
        c.peak = self.peak
        c.poison = self.poison
        c.stun = self.stun
        c.hide = self.hide
        c.jump = self.jump
        c.jlen = self.jlen
        c.splash = self.splash
        c.cd = self.cd[:]
        c.bait = self.bait
        c.alive = self.alive
        c.fragile = self.fragile
        c.auto = self.auto
        c.sblock = self.sblock
        c.s = self.s
        c.rare = self.rare
        c.hold = self.hold
        c.own = self.own = False        # the Stats is shared now: whichever Adapts first copies it
        return c


class Config:
    """Per-match numbers that never change, shared (not copied) between clones."""

    __slots__ = ("n", "slots", "turn_exp", "wipe_bonus", "step", "skip", "chart", "cap", "bmax",
                 "skipcost", "blev", "ilev", "icost", "iloc", "ids", "iadapt", "iname",
                 "team", "nteams", "school_battle", "multi", "ct", "seats", "variants", "total",
                 "bbit", "above", "body_at", "price", "fullprice", "buyprice", "adaptprice", "foes",
                 "islot", "ischool", "plain_gain_below", "exp_start", "bare_hold", "stalemate")


class AdaptState:
    """A match: the Fish, the Experience by team (a School battle's Schools share one pool), the
    Gene Stream (a slot per index, slot 1 first), the deck (its top at the list's end) and the
    discards, whose Turn and what phase it is in; `legal` caches the legal actions until the next
    action, `alive` and `air` are the living and airborne Fish as bit masks."""

    __slots__ = ("rng", "cfg", "fish", "exp", "stream", "deck", "discard", "turn", "phase",
                 "chooser", "resume", "removed", "attacked", "wiped", "blocked", "over", "win",
                 "turnno", "forced", "rsdue", "legal", "last", "queue", "first", "rslog", "rolls",
                 "quiet", "alive", "air")


_SIZES = [float(k + 1) for k in range(128)]       # _SIZES[i] = i + 1 as a float


def shuffle(rng, cards):
    """Fisher-Yates on rng.random(): the same order for the same seed, faster than rng.shuffle.
    j = int(random() * (i + 1)), computed as floor(random() * _SIZES[i]): a float product and
    math.floor cost less than an int-float product and int(), with the same result."""
    rnd = rng.random
    sizes = _SIZES
    if len(cards) > len(sizes):
        sizes.extend(float(k + 1) for k in range(len(sizes), len(cards)))
    for i in range(len(cards) - 1, 0, -1):
        j = floor(rnd() * sizes[i])
        cards[i], cards[j] = cards[j], cards[i]


def new_state(cfg, rng, guppy) -> AdaptState:
    """A match before its deck is dealt: every Fish a Guppy (`guppy`: its shared Stats)."""
    st = AdaptState()
    st.rng = rng
    st.cfg = cfg
    st.fish = [new_fish(guppy) for _ in range(cfg.n)]
    if cfg.school_battle:
        for f in st.fish:
            f.rare = True
    st.exp = cfg.exp_start[:]
    st.stream = [NO_CARD] * cfg.slots
    st.deck = []
    st.discard = []
    st.turn = 0
    st.phase = P_ACTION
    st.chooser = NOBODY
    st.resume = RES_END
    st.removed = False              # a card left the stream this Turn (it cycles without expiring)
    st.attacked = NO_TURN           # the turnno of the last Turn with an Attack (or Ram)
    st.wiped = NO_TURN              # the turnno of the last Turn with a Wipe
    st.blocked = 0                  # the Fish hidden from this Turn's Fish (a Hide check held)
    st.over = False
    st.win = None
    st.turnno = 0
    st.forced = None                # scenario dice: the next results, the next one last
    st.rsdue = [False] * cfg.nteams     # a School's Random Selection due at its next Turn
    st.legal = None
    st.last = None                  # the last Attack or Ram, for observe and the replay text
    st.queue = []                   # the opening Random Selections still to make, by seat
    st.first = 0
    st.rslog = []                   # the Random Selections: (fish, roll, result, card, outcome)
    st.rolls = []                   # the opening percentile rolls, by seat
    st.quiet = 0                    # Turns since a Fish's Damage climbed or a Fish Adapted (the
                                    # stalemate variant's count; without it, never read)
    st.alive = (1 << cfg.n) - 1     # the living Fish, as bits
    st.air = 0                      # the Fish in the air (jumping), as bits
    return st


def new_fish(guppy) -> Fish:
    """A Guppy with no cards."""
    f = Fish()
    f.body = NO_CARD
    f.parts = [NO_CARD] * N_LOCATIONS
    f.under = []                    # the cards it replaced
    f.pgp = []
    f.dmg = f.peak = 0              # Damage, and the most it has had (Fish with Regeneration)
    f.poison = 0
    f.stun = False
    f.hide = 0                      # the Hide score attackers roll against until its next Turn
    f.jump = 0                      # Rounds left in the air
    f.jlen = 0                      # the Jump score when it Jumped (its Cooldown is this + 1)
    f.splash = False                # landed this Turn
    f.cd = [0] * N_SA               # Cooldowns, by Special Action
    f.bait = NOBODY                 # the Fish that Baited it
    f.alive = True
    f.fragile = False               # above its Health after Adapting: 1 Damage from defeat
    f.auto = 0                      # Auto-Adapts so far
    f.sblock = NO_TURN              # the turnno in which it Adapted a School card (no School then)
    f.s = guppy
    f.own = False                   # whether its Stats is its own to change (not shared)
    f.rare = False
    f.hold = None
    return f
