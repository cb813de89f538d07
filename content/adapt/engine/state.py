"""A.D.A.P.T.: the state of a match (AdaptState, a Fish, its Stats, the per-match Config) and
the seeded shuffle."""

from __future__ import annotations

from math import floor


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
                 "islot", "ischool", "plain_gain_below", "exp_start", "bare_hold")


class AdaptState:
    __slots__ = ("rng", "cfg", "fish", "exp", "stream", "deck", "discard", "turn", "phase",
                 "chooser", "resume", "removed", "attacked", "wiped", "blocked", "over", "win",
                 "turnno", "forced", "rsdue", "legal", "last", "queue", "first", "rslog", "rolls",
                 "quiet", "alive", "air")


_SIZES = [float(k + 1) for k in range(128)]       # _SIZES[i] = i + 1 as a float


def _shuffle(rng, cards):
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
