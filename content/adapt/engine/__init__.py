"""A.D.A.P.T.: the reference engine (2 to 6 Fish, last Fish swimming wins).

The match, as the engine plays it (numbers and rulings come from content/adapt/game.yaml
`tables`; `tables.rulings` lists every choice made where the rulebook is silent):

- Setup: every Fish starts as a Guppy with 1 Experience. The gene stream deck (the Setup's deck,
  the whole box by default; with 4+ players two boxes) is shuffled and the Gene Stream dealt from
  its highest-numbered slot (3 slots for 2 players, +1 per player beyond, +1 each for the kids'
  and sailfish variants). Every Fish rolls percentile dice (ties roll again); from the highest
  roll down each Adapts by Random Selection (the 2- or 3-player chart) and the stream cycles after
  each. The highest roller takes the first Turn.
- A Turn: Hiding ends; Regeneration; Poison Damage; Experience (3, +1 per player beyond 2, max 5;
  +1 Smart, +1 sailfish, -1 airborne); Cooldown and Jump timers drop (a Jump that reaches 0
  lands: +2 Ferocity on an Attack this Turn, then Cooldown Jump + 1). Then ONE Action: Adapt from
  the PGP, Buy from the stream, Attack, a Special Action (Ram, Hide, Bait, Jump) or Wipe the
  stream. Hide and Bait are followed by an optional Buy or Adapt. A Fish with School may then
  deal 1 Damage (not on a Turn it Attacked, Rammed, Wiped, jumped or Adapted the School card).
  Then the stream cycles (remove, slide, refill from the highest empty slot; with nothing
  removed the last slot expires) and the next living Fish clockwise plays.
- A Fish with no legal Action Adapts by Random Selection, which ends its Turn; an airborne Fish
  with nothing to Buy or Adapt passes.
- Auto-Adapt: the first time a Fish's Experience reaches 20 it takes a Body one Level up (PGP,
  then the slots from the highest down, then the deck cycled one card at a time) and pays for it
  unless it came from the PGP. School battle replaces it with a Random Selection at 30.
- End: a Fish is defeated when its Damage exceeds its Health; the last Fish (or School) wins; if
  the last Fish fall together the match is a draw (winner None). So is a sea that has settled:
  `tables.stalemate.rounds` Rounds (20) in which no Fish's Damage climbed above its highest so far
  and none Adapted a card (Damage healed as fast as it comes, Poison against Regeneration, ends
  nothing).

Setup options (`Setup.options`): players (2-6, default 2), variants (list of kids, sailfish,
school-battle, multi-auto-adapt), deck (card names with repeats; default the whole box, minus the
kids' locations with `kids`), boxes (copies of that deck; default 1, 2 with 4+ players).
School battle needs 4 or 6 players: Schools of two alternate seats (team = seat % schools) and
share one Experience pool (max 30); `winner` is the lowest living seat of the winning School.

`setups(decks, players=, variants=)` (`cardgen simulate --players N --variant NAME`): each deck
(default: the box; decks are not paired, every Fish shares the one gene stream) with its own
`variants` plus the asked ones, at `players` or at 2 and 3 (school battle: 4). With `kids` the
special, horn, organ and skin parts leave any deck. ContentError (at the deck file's `variants`
when the deck asked for it, else at the option): school battle at other than 4 or 6 players,
school battle with multi-auto-adapt (it replaces Auto-Adapting), kingfish.

Actions (tuples):
    ("adapt", "Card Name")  Adapt that card from your PGP
    ("buy", slot)           Buy the card in that Gene Stream slot (1 = lowest-numbered)
    ("attack", fish)        Attack that Fish (seat number)
    ("ram", fish)           Ram that Fish (Special Action)
    ("hide",)  ("bait", fish)  ("jump", rounds)   the other Special Actions
    ("wipe",)               Wipe the Gene Stream
    ("random",)             Adapt by Random Selection (only when no other Action is legal)
    ("pass",)               an airborne Fish with nothing to Buy or Adapt
    ("choose", slot)        the Random Selection result "the card of your choice"
    ("school", fish)        School: 1 Damage to that Fish
    ("end",)                end the Turn (after Hide or Bait, or declining School)

Scenario actions (`parse_action`): the tuple as a list (``[attack, 1]``), a string (``attack 1``,
``adapt Sail Fin``, ``wipe``) or a one-key mapping (``{buy: 2}``).

Scenario setup (every key optional)::

    players: 2              # number of Fish
    variants: [sailfish]    # as the Setup option
    seats: [Amber, Violet]  # names
    turn: 0                 # whose Turn it is (its start-of-Turn steps are already done)
    start: false            # true: run the start-of-Turn steps for `turn` first
    phase: action           # action | setup (setup: roll the opening Random Selection now)
    first: 0                # who took the first Turn (first_player)
    stream: [Card, null]    # slot 1 first; missing slots are dealt from the deck
    deck: [Card, ...]       # top card first; default: the rest of the box, shuffled
    discard: [Card, ...]
    dice: [12, 3]           # the next die results, in the order the engine rolls them
    fish:                   # one mapping per Fish (missing Fish: a fresh Guppy)
      - body: Clownfish     # null: the Guppy
        parts: [Sail Fin]   # Adapted parts
        under: [Card]       # replaced cards kept under the Fish
        pgp: [Card]
        exp: 1              # (school battle: the School's pool, set on any one of its Fish)
        damage: 0
        poison: 0
        stunned: false
        hiding: 0           # the Hide score rolled against until its next Turn
        jumping: 0          # Rounds left in the air
        jump_length: 0      # the Rounds of that Jump (its Cooldown is this + 1)
        splash: false       # landed this Turn
        baited_by: null     # seat of the Fish that Baited it
        cooldowns: {Ram: 1}
        auto_adapted: 0
        alive: true

The engine rolls, in this order: a Hide check (d10), a Fear check (d10), the Attack Die (a Guppy
rolls a d2: 1 or 2), a Critical d4, then the d10s for Poisonous, Stun and Counter Poison; Bait
rolls a d10; Random Selection a d100.

Observe (what `expect:` is compared against)::

    turn, current (-1 once over), phase (action|second|school|choice|over), over, winner,
    first, stream (names by slot, null for empty), deck (count), discard (count),
    slots, exp_per_turn, wipe_bonus, opening_rolls (the percentile rolls, by seat),
    last_attack: {attacker, target, kind (attack|ram), result (hit|tie|miss|hidden|feared), roll,
                  total, survival, damage (to the target), counter (Counter Attack and Shock to
                  the attacker), exp_gained, critical}
    selections: [{fish, roll, result (exp|slot N|choice), card (or null),
                  outcome (exp|adapted|pgp|discarded|left|empty)}]
    fish: {seat number: {seat, alive, body (Guppy or a name), level, parts {location: name},
           pgp, under, exp, damage, health, ferocity, survival, lethality, die, poison, stunned,
           hiding, jumping, splash, baited_by, cooldowns {Action: n}, auto_adapted, fragile,
           abilities {name: effective score, or true}}}

`fish` is a mapping so that `expect:` can name only the Fish it cares about (``fish: {1:
{damage: 6}}``); lists such as `selections` must match whole.

Bots: `bots()` adds "shark", a quick rule-of-thumb player (expected Damage of each Attack, stat
gain of each card; no lookahead). `heuristic` scores a Fish's Health left, stats, Level and
Experience against its strongest rival, for the simulator's greedy bot.

Not played: the Kingfish Battle Royale variant (simultaneous School Turns); asking for it
raises RuleConflict.
"""

from __future__ import annotations

import random
import re
import struct
from math import floor
from operator import getitem
from pathlib import Path

from cardgen.engines.base import Engine, RuleConflict, Setup, action_words
from cardgen.errors import ContentError, Issue

from . import replay

LOCATIONS = ("dorsal", "horn", "mouth", "skin", "side", "organ", "tail", "special")
LOC_INDEX = {name: i for i, name in enumerate(LOCATIONS)}

# Special Actions that have a timer: index into Fish.cd and Stats.cd.
SA_RAM, SA_HIDE, SA_BAIT, SA_JUMP = 0, 1, 2, 3
SA_NAMES = ("Ram", "Hide", "Bait", "Jump")
SA_INDEX = {n: i for i, n in enumerate(SA_NAMES)}

# Effects that Resist and Immune can name.
R_POISON, R_SHOCK, R_SCHOOL, R_CA, R_RAM = 0, 1, 2, 3, 4
RESIST_NAMES = ("Poison", "Shock", "School", "Counter Attack", "Ram")
IMMUNE_BITS = {"Poison": 1, "Stun": 2, "Shock": 4, "School": 8, "Counter Attack": 16, "Bait": 32,
               "Fear": 64}
IM_POISON, IM_STUN, IM_SHOCK, IM_SCHOOL, IM_CA, IM_BAIT, IM_FEAR = 1, 2, 4, 8, 16, 32, 64

# Numeral abilities (they add up across the Fish) and flags (they never stack).
NUMERALS = ("Armor", "Bait", "Counter Attack", "Counter Poison", "Fear", "Hide", "Jump",
            "Poisonous", "Ram", "Regeneration", "Shock", "Stun")
FLAGS = ("Amphibious", "Critical", "Electroreception", "School", "Smart", "Sneaky", "Toxic")
DEFAULT_CAPS = {"Armor": 2, "Bait": 10, "Counter Attack": 3, "Counter Poison": 10, "Fear": 4,
                "Hide": 4, "Jump": 3, "Poisonous": 10, "Ram": 5, "Regeneration": 2, "Shock": 2,
                "Stun": 10}
STAT_FIELDS = ("ferocity", "survival", "lethality", "health")
NUM_INDEX = {n: i for i, n in enumerate(NUMERALS)}
FLAG_BITS = {n: 1 << i for i, n in enumerate(FLAGS)}
AMPH_TOXIC = FLAG_BITS["Amphibious"] | FLAG_BITS["Toxic"]
FL_AMPHIBIOUS, FL_TOXIC, FL_SMART, FL_SNEAKY, FL_CRITICAL, FL_ELECTRO, FL_SCHOOL = (
    FLAG_BITS[k] for k in ("Amphibious", "Toxic", "Smart", "Sneaky", "Critical",
                           "Electroreception", "School"))
# By flag bits: (smart, sneaky, crit, electro, school) as Stats holds them.
FLAG_FIELDS = tuple((1 if m & FL_SMART else 0, 1 if m & FL_SNEAKY else 0, bool(m & FL_CRITICAL),
                     bool(m & FL_ELECTRO), bool(m & FL_SCHOOL)) for m in range(1 << len(FLAGS)))
_ZERO5 = (0,) * 5
_ZERO4 = (0,) * 4
_NO_CD = [0, 0, 0, 0]          # a Fish's cooldowns when none runs (compared against, never changed)
_NONE = frozenset()
INF = 1 << 30                  # an Experience price nothing can pay (not possible now)
N_HIDE, N_JUMP, N_POIS, N_CPOIS = (NUM_INDEX[k] for k in ("Hide", "Jump", "Poisonous",
                                                          "Counter Poison"))
NUM_ATTR = {"Armor": "armor", "Bait": "bait", "Counter Attack": "counter",
            "Counter Poison": "cpois", "Fear": "fear", "Hide": "hide", "Jump": "jump",
            "Poisonous": "pois", "Ram": "ram", "Regeneration": "regen", "Shock": "shock",
            "Stun": "stun"}

# Phases of a Turn (P_ACTION must stay 0 and P_SECOND 1: the phase tests read them as numbers).
P_ACTION, P_SECOND, P_SCHOOL, P_CHOICE, P_OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("action", "second", "school", "choice", "over")
# Where a "card of your choice" Random Selection returns to.
RES_SETUP, RES_END, RES_ACTION = 0, 1, 2

WIPE = ("wipe",)
HIDE = ("hide",)
RANDOM = ("random",)
PASS = ("pass",)
END = ("end",)
BUY = tuple(("buy", i + 1) for i in range(16))
CHOOSE = tuple(("choose", i + 1) for i in range(16))
ATTACK = tuple(("attack", q) for q in range(8))
RAM = tuple(("ram", q) for q in range(8))
BAIT = tuple(("bait", q) for q in range(8))
SCHOOL = tuple(("school", q) for q in range(8))
JUMP = tuple(("jump", r) for r in range(8))
# Sets of Fish are bit masks (bit q: Fish q; 2 to 6 Fish), so the legal actions need no scan of
# every Fish. MASK_BITS[mask]: the Fish in the set. NEXT_ALIVE[mask][p]: the next Fish clockwise
# after p in the set. STRIKES[kind][mask]: the Attack and Ram actions on the set, by what the
# attacker can do (kind 1: Attack, 2: Ram, 3: both).
MASK_BITS = tuple(tuple(q for q in range(6) if m >> q & 1) for m in range(64))
NEXT_ALIVE = tuple(tuple(next(((p + k) % 6 for k in range(1, 7) if m >> ((p + k) % 6) & 1), -1)
                         for p in range(6)) for m in range(64))
# RIVALS[mask][p]: the Fish in the set other than p (as MASK_BITS[mask & ~(1 << p)]: in 3.11 a bit
# operation is a generic, slower instruction, a tuple index a specialized one).
RIVALS = tuple(tuple(MASK_BITS[m & ~(1 << p)] for p in range(6)) for m in range(64))
STRIKES = (None,
           *(tuple(tuple(a for q in MASK_BITS[m] for a in ((ATTACK[q],) if kind & 1 else ())
                         + ((RAM[q],) if kind & 2 else ()))
                   for m in range(64)) for kind in (1, 2, 3)))

# The grammar of a card's `text:` (anything its `abilities` do not say): sentences, each one of
# these patterns. Each match becomes the same effects an ability or a stat field would give.
_WORD = r"(?:\{(\w+)\}|([A-Z][a-z]+))"
TEXT_PATTERNS = [
    (re.compile(r"^([+-]\d+) " + _WORD + r"$"), "stat"),
    (re.compile(r"^(" + "|".join(NUMERALS) + r") (\d+)$"), "numeral"),
    (re.compile(r"^(" + "|".join(FLAGS) + r")$"), "flag"),
    (re.compile(r"^Resist (" + "|".join(RESIST_NAMES) + r") (\d+)$"), "resist"),
    (re.compile(r"^Immune to ((?:" + "|".join(IMMUNE_BITS) + r")(?:(?:, | and )(?:"
                + "|".join(IMMUNE_BITS) + r"))*)$"), "immune"),
    (re.compile(r"^Cooldown (\d+)$"), "cooldown"),
]


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


# The numeral sums of a card or a Fish as one int, NUM_BITS bits a numeral (signed), above 7 zero
# bits: the sums of two Fish differ by the difference of two cards, one subtraction and one
# addition, and raw | amph_toxic (7 bits) keys the _numerals cache. With no negative numeral on
# any card (the usual case) the fields are plain 16-bit unsigned ints, which struct reads at once
# (on a cache miss: some 1,600 of them in the first 300 matches).
NUM_BITS = 16
_UNPACK_PLAIN = struct.Struct(f"<{len(NUMERALS)}H").unpack


def _pack_numerals(num) -> int:
    return sum(x << (NUM_BITS * i) for i, x in enumerate(num)) << 7


def _unpack_numerals(raw: int) -> list:
    raw >>= 7
    out = []
    for _ in NUMERALS:
        x = raw & ((1 << NUM_BITS) - 1)
        if x >> (NUM_BITS - 1):
            x -= 1 << NUM_BITS
        out.append(x)
        raw = (raw - x) >> NUM_BITS
    return out


def _longest_cooldowns(cd: tuple, card: tuple) -> tuple:
    """The Cooldowns `cd` with a card's (special action, Cooldown) pairs: the longer of each."""
    out = list(cd)
    for i, x in card:
        if x > out[i]:
            out[i] = x
    return tuple(out)


def _die_sides(value) -> int:
    if isinstance(value, str) and value.startswith("d") and value[1:].isdigit():
        return int(value[1:])
    return 0


class AdaptEngine(Engine):
    game_id = "adapt"
    max_actions = 6000
    keywords = frozenset(NUMERALS + FLAGS + ("Resist", "Immune", "Cooldown"))
    player_counts = (2, 3, 4, 5, 6)
    # `cardgen simulate --variant NAME`: added to every deck's own `variants`
    variants = {
        "kids": "Gaming with your Guppies: no special, horn, organ or skin parts; stream +1; "
                "Bodies climb 2 Levels",
        "sailfish": "the speed variant (Sailfish Speed Options): +1 Experience a Turn, stream +1, "
                    "Bodies climb 2 Levels",
        "multi-auto-adapt": "Auto-Adapt each time Experience reaches 20, -1 Experience a Turn "
                            "per Auto-Adapt after the first",
        "school-battle": "the team variant: Schools of two, seated alternately, share Experience "
                         "(4 or 6 players)",
    }
    # more than 30 attributes: all in slots, one added in __init__ too (docs/engines.md says why)
    __slots__ = ("game", "tables", "caps", "toxic_bonus", "max_poison", "bait_cost", "leth_cap",
                 "miss_cap", "tie_dmg", "tie_exp", "guppy_min_fer", "pgp_max", "part_margin",
                 "guppy_max", "exp_cap", "exp_start", "auto_at", "stalemate", "settle_min",
                 "guppy_names", "guppy_stats", "names", "index", "is_body", "level", "cost", "loc",
                 "die", "copies", "stat", "fx", "unsupported", "has_school", "adapt_action",
                 "cap_list", "cap_eff", "lowest_cap", "clamp_rows", "vec", "plain_numerals",
                 "part_vec", "body_vec", "level_die", "_stats_cache", "_numerals_cache",
                 "_config_cache", "guppy_s")

    def __init__(self, game):
        super().__init__(game)
        t = game.tables or {}
        self.tables = t
        abil = t.get("abilities") or {}
        self.caps = {k: (abil.get(k) or {}).get("cap", DEFAULT_CAPS.get(k)) or DEFAULT_CAPS.get(k)
                     for k in NUMERALS}
        self.toxic_bonus = (abil.get("Toxic") or {}).get("bonus", 2)
        self.max_poison = (abil.get("Poisonous") or {}).get("max_poison_level", 2)
        self.bait_cost = (abil.get("Bait") or {}).get("cost", 2)
        att = t.get("attack") or {}
        self.leth_cap = att.get("lethality_cap", 4)
        self.miss_cap = att.get("failed_experience_cap", 5)
        self.tie_dmg = att.get("tie_damage", 1)
        self.tie_exp = att.get("tie_experience", 2)
        self.guppy_min_fer = att.get("guppy_min_ferocity", 2)
        self.pgp_max = (t.get("personal_gene_pool") or {}).get("max_cards", 3)
        self.part_margin = (t.get("adapting") or {}).get("part_margin", 2)
        self.guppy_max = (t.get("adapting") or {}).get("guppy_max_body_level", 2)
        self.exp_cap = (t.get("experience") or {}).get("max", 20)
        self.exp_start = (t.get("experience") or {}).get("start", 1)
        self.auto_at = (t.get("auto_adapt") or {}).get("at_experience", 20)
        self.stalemate = int((t.get("stalemate") or {}).get("rounds", 20))
        self.settle_min = 2 * self.stalemate     # (the stalemate test's cheap first half)

        # Card data by type index: the bodies and parts in file order (a Guppy is type -1).
        guppies = game.cards_of_type("guppy")
        self.guppy_names = [c.name for c in guppies] or ["Guppy"]
        g = guppies[0].fields if guppies else {"ferocity": 0, "survival": 3, "lethality": 0,
                                              "health": 5}
        self.guppy_stats = tuple(int(g.get(k, 0) or 0) for k in STAT_FIELDS)
        stream_cards = [c for c in game.cards.values() if c.type in ("body", "part")]
        self.names = [c.name for c in stream_cards]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.is_body = [c.type == "body" for c in stream_cards]
        self.level = [int(c.get("level", 1) or 1) for c in stream_cards]
        self.cost = [int(c.get("cost", 4 * lvl) or 0)
                     for c, lvl in zip(stream_cards, self.level, strict=True)]
        self.loc = [LOC_INDEX.get(c.get("location"), -1) for c in stream_cards]
        self.die = [_die_sides(c.get("attack_die")) for c in stream_cards]
        self.copies = [c.copies for c in stream_cards]
        self.stat = [tuple(int(c.get(k, 0) or 0) for k in STAT_FIELDS) for c in stream_cards]
        self.fx = []
        self.unsupported: dict[str, str] = {}
        for c in stream_cards:
            fx, why = self._parse_card(c)
            self.fx.append(fx)
            if why:
                self.unsupported[c.name] = why
        self.has_school = [any(e[0] == "flag" and e[1] == "School" for e in fx) for fx in self.fx]
        self.adapt_action = [("adapt", n) for n in self.names]
        self.cap_list = [self.caps.get(k) or 0 for k in NUMERALS]
        self.cap_eff = [c or 1 << 62 for c in self.cap_list]       # 0: no cap
        self.lowest_cap = min(self.cap_eff)
        # By numeral: its effective score for a sum x in -128..127, at index x (a negative x reads
        # from the end, as Python does: 0).
        self.clamp_rows = [[min(x, cap) for x in range(128)] + [0] * 128 for cap in self.cap_eff]
        self.vec = self._card_vectors()
        # The numeral sums of nine cards stay below 2**15 and never borrow (see _UNPACK_PLAIN).
        self.plain_numerals = all(0 <= x < 3000 for v in self.vec for x in _unpack_numerals(v[4]))
        # The same with one more entry, read as index -1: an empty part slot, and the Guppy that
        # an empty Body slot stands for.
        self.part_vec = [*self.vec, (0, 0, 0, 0, 0, None, ())]
        self.body_vec = [*self.vec, (*self.guppy_stats, 0, None, ())]
        self.level_die = [(lvl, sides) for lvl, sides in zip(self.level, self.die, strict=True)]
        self.level_die.append((0, 0))          # the Guppy (Body type -1)
        self._stats_cache: dict = {}       # the Stats `_stats` built (for bots and scenarios)
        self._numerals_cache: dict = {}
        self._config_cache: dict = {}
        self.guppy_s = self._guppy_stats()

    # -- the card grammar -------------------------------------------------------------------------
    def _parse_card(self, card):
        """(effects, why-unsupported): abilities and `text:` sentences -> effect tuples."""
        fx = []
        problems = []
        sas = []
        cooldown = None
        abilities = card.get("abilities") or {}
        if not isinstance(abilities, dict):
            return fx, "abilities is not a mapping"
        for key, value in abilities.items():
            if key in NUMERALS and isinstance(value, int) and not isinstance(value, bool):
                fx.append(("num", key, value))
                if key in SA_INDEX:
                    sas.append(key)
            elif key in FLAGS and value is True:
                fx.append(("flag", key))
            elif key == "Resist" and isinstance(value, dict) and all(
                    k in RESIST_NAMES and isinstance(v, int) for k, v in value.items()):
                fx.extend(("resist", k, v) for k, v in value.items())
            elif key == "Immune" and isinstance(value, list) and all(
                    v in IMMUNE_BITS for v in value):
                fx.extend(("immune", v) for v in value)
            elif key == "Cooldown" and isinstance(value, int) and not isinstance(value, bool):
                cooldown = value
            else:
                problems.append(f"ability {key}: {value!r} matches no rule")
        text = card.get("text")
        if text:
            for sentence in [s.strip() for s in re.split(r"\.\s*", str(text)) if s.strip()]:
                effect = self._parse_sentence(sentence)
                if effect is None:
                    problems.append(f"text {sentence!r} matches no pattern")
                    continue
                for e in effect:
                    if e[0] == "cooldown":
                        cooldown = e[1]
                    else:
                        fx.append(e)
                        if e[0] == "num" and e[1] in SA_INDEX:
                            sas.append(e[1])
        if cooldown is not None:
            if not sas:
                problems.append("Cooldown on a card with no Special Action")
            fx.extend(("cooldown", sa, cooldown) for sa in sas)
        return fx, "; ".join(problems)

    def _parse_sentence(self, sentence):
        for pattern, kind in TEXT_PATTERNS:
            m = pattern.match(sentence)
            if not m:
                continue
            if kind == "stat":
                word = (m.group(2) or m.group(3) or "").lower()
                if word not in STAT_FIELDS:
                    return None
                return [("stat", word, int(m.group(1)))]
            if kind == "numeral":
                return [("num", m.group(1), int(m.group(2)))]
            if kind == "flag":
                return [("flag", m.group(1))]
            if kind == "resist":
                return [("resist", m.group(1), int(m.group(2)))]
            if kind == "immune":
                return [("immune", v) for v in re.split(r", | and ", m.group(1))]
            if kind == "cooldown":
                return [("cooldown", int(m.group(1)))]
        return None

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self.unsupported)

    def _card_vectors(self):
        """Per card type: (ferocity, survival, lethality, health, its numerals packed in one int
        (_pack_numerals), (flag bits, immune bits, cooldowns) or None if it has none, resists)."""
        vec = []
        for t, fx in enumerate(self.fx):
            fer, surv, leth, hp = self.stat[t]
            num = [0] * len(NUMERALS)
            flags = 0
            res = [0] * 5
            imm = 0
            cd = [0] * 4
            for e in fx:
                kind = e[0]
                if kind == "num":
                    num[NUM_INDEX[e[1]]] += e[2]
                elif kind == "flag":
                    flags |= FLAG_BITS[e[1]]
                elif kind == "resist":
                    res[RESIST_NAMES.index(e[1])] += e[2]
                elif kind == "immune":
                    imm |= IMMUNE_BITS[e[1]]
                elif kind == "cooldown":
                    i = SA_INDEX[e[1]]
                    cd[i] = max(cd[i], e[2])
                elif kind == "stat":
                    if e[1] == "ferocity":
                        fer += e[2]
                    elif e[1] == "survival":
                        surv += e[2]
                    elif e[1] == "lethality":
                        leth += e[2]
                    else:
                        hp += e[2]
            r = tuple((i, x) for i, x in enumerate(res) if x)
            co = tuple((i, x) for i, x in enumerate(cd) if x)
            fic = (flags, imm, co) if flags or imm or co else None
            vec.append((fer, surv, leth, hp, _pack_numerals(num), fic, r))
        return vec

    def _stats(self, body, parts) -> Stats:
        """Totals for a Body type (-1: the Guppy) and 8 part types (-1: empty), cached; shared,
        never changed."""
        key = (body, *parts)
        s = self._stats_cache.get(key)
        if s is None:
            s = self.guppy_s.copy()
            for slot, t in enumerate(key):
                if t >= 0:
                    self._swap_card(s, slot, t)
            if len(self._stats_cache) > 20000:
                self._stats_cache.clear()
            self._stats_cache[key] = s
        return s

    def _guppy_stats(self) -> Stats:
        """A Fish with no cards: the Guppy."""
        s = Stats()
        s.level = s.die = 0
        s.fer, s.surv, s.leth, s.hp = self.guppy_stats
        s.raw = 0
        s.nums = self._numerals(0, 0)
        (s.armor, s.bait, s.counter, s.cpois, s.fear, s.hide, s.jump, s.pois, s.ram, s.regen,
         s.shock, s.stun) = s.nums
        s.flags = 0
        s.smart, s.sneaky, s.crit, s.electro, s.school = FLAG_FIELDS[0]
        s.res = _ZERO5
        s.rimm = s.imm = 0
        s.cd = _ZERO4
        s.key = [-1] * 9
        s.roll = s.fer >= self.guppy_min_fer
        s.strike = int(s.roll)
        s.special = 0
        s.memo = {}
        return s

    def _swap_card(self, s, slot, new):
        """Card type `new` takes `slot` (0: the Body, 1-8: the part locations) of Stats s, in
        place: the sums move by the two cards' difference, and whatever neither card touches
        (the numerals, the Resists, the flags) stays as it is, and so does what derives from it."""
        key = s.key
        old = key[slot]
        key[slot] = new
        fer0, surv0, leth0, hp0, pn0, fic0, r0 = (self.part_vec if slot else self.body_vec)[old]
        fer1, surv1, leth1, hp1, pn1, fic1, r1 = self.vec[new]
        fer = s.fer = s.fer - fer0 + fer1
        s.surv += surv1 - surv0
        s.leth += leth1 - leth0
        s.hp += hp1 - hp0
        restrike = fer0 != fer1               # whether s.roll and s.strike may change
        if not slot:
            s.level, s.die = self.level_die[new]
            restrike = True
        flags = was = s.flags
        imm = -1                                 # -1: the immunities stay as they are
        if fic0:
            # A flag, an immunity or a Cooldown cannot be subtracted: gather them again.
            flags = imm = 0
            cd = _ZERO4
            vec = self.vec
            for t in key:
                if t >= 0:
                    fic = vec[t][5]
                    if fic:
                        flags |= fic[0]
                        imm |= fic[1]
                        if fic[2]:
                            cd = _longest_cooldowns(cd, fic[2])
            s.cd = cd
        elif fic1:
            flags = was | fic1[0]
            imm = s.rimm | fic1[1]
            if fic1[2]:
                s.cd = _longest_cooldowns(s.cd, fic1[2])
        if flags != was:
            s.flags = flags
            s.smart, s.sneaky, s.crit, s.electro, s.school = FLAG_FIELDS[flags]
        if pn0 != pn1 or (flags ^ was) & AMPH_TOXIC:
            raw = s.raw = s.raw - pn0 + pn1
            nums = self._numerals_cache.get(raw | flags & AMPH_TOXIC)
            if nums is None:
                nums = self._numerals(raw, flags & AMPH_TOXIC)
            if nums != s.nums:
                s.nums = nums
                (s.armor, s.bait, s.counter, s.cpois, s.fear, s.hide, s.jump, s.pois, s.ram,
                 s.regen, s.shock, s.stun) = nums
                s.special = s.hide or s.bait or s.jump   # (read for its truth only: no bool())
                restrike = True
                if imm < 0:
                    imm = s.rimm
        if r0 or r1:
            res = list(s.res)
            for i, x in r0:
                res[i] -= x
            for i, x in r1:
                res[i] += x
            s.res = tuple(res)
        if imm >= 0:
            s.rimm = imm                  # the plain immunities, for the next swap
            s.imm = imm | IM_SHOCK if s.shock else imm     # a Fish with Shock is Immune to Shock
        if restrike:
            roll = s.roll = s.level > 0 or fer >= self.guppy_min_fer    # can make an Attack roll
            s.strike = roll + (2 if s.ram else 0)        # as legal_actions reads it (STRIKES kind)

    def _numerals(self, raw, amph_toxic):
        """The effective numerals from their sums (packed, as _pack_numerals): the Amphibious and
        Toxic bonuses, then the caps. Cached by raw | amph_toxic: far fewer sums than Fish (the
        clamping was a third of a Stats miss)."""
        key = raw | amph_toxic
        out = self._numerals_cache.get(key)
        if out is not None:
            return out
        if self.plain_numerals:
            num = list(_UNPACK_PLAIN((raw >> 7).to_bytes(2 * len(NUMERALS), "little")))
        else:
            num = _unpack_numerals(raw)
        if amph_toxic & FL_AMPHIBIOUS:
            if num[N_HIDE]:
                num[N_HIDE] += 1
            if num[N_JUMP]:
                num[N_JUMP] += 1
        if amph_toxic & FL_TOXIC:
            if num[N_POIS]:
                num[N_POIS] += self.toxic_bonus
            if num[N_CPOIS]:
                num[N_CPOIS] += self.toxic_bonus
        lo = min(num)
        hi = max(num)
        if lo >= 0 and hi <= self.lowest_cap:
            out = tuple(num)                 # nothing to clamp (the usual case: a few small sums)
        elif lo >= -128 and hi < 128:
            out = tuple(map(getitem, self.clamp_rows, num))       # (a table look-up per sum, in C)
        else:
            caps = self.cap_eff
            # (enumerate, not zip(..., strict=True): a keyword argument makes zip build a dict)
            out = tuple([0 if x <= 0 else (x if x <= caps[i] else caps[i])
                         for i, x in enumerate(num)])
        if len(self._numerals_cache) < 50000:
            self._numerals_cache[key] = out
        return out

    def _abilities(self, s) -> dict:
        """A Stats object's abilities as {name: effective score or true}, for observe."""
        out = {}
        for name in NUMERALS:
            v = getattr(s, NUM_ATTR[name])
            if v:
                out[name] = v
        for name in FLAGS:
            if s.flags & FLAG_BITS[name]:
                out[name] = True
        for i, r in enumerate(s.res):
            if r:
                out[f"Resist {RESIST_NAMES[i]}"] = r
        for name, bit in IMMUNE_BITS.items():
            if s.imm & bit:
                out[f"Immune {name}"] = True
        return out

    # -- setups -------------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        """Each deck (default: the box) with its own `variants` plus `variants`, at `players` or,
        by default, at 2 and 3 players (school battle: 4). A deck is the gene stream all the Fish
        share, so decks are not paired: each is played on its own."""
        sources = [self._deck_source(d) for d in decks] if decks else [("box", None, [], None)]
        out = []
        for name, cards, own, where in sources:
            merged = list(dict.fromkeys([*own, *variants]))
            counts = self._check_setup(merged, own, where, players)
            if cards is not None and "kids" in merged:
                # The kids' game takes the four corner locations out of whatever deck it plays.
                gone = self._kids_removed()
                kept = [c for c in cards if c not in self.index or self.loc[self.index[c]] < 0
                        or LOCATIONS[self.loc[self.index[c]]] not in gone]
                if not kept:
                    self._check_fail(where, "kids" in own, "--variant",
                                     f"kids takes every {', '.join(sorted(gone))} part out of the "
                                     f"deck, and this deck has nothing else")
                cards = kept
            out.extend(self._setup(name, cards, merged, n) for n in counts)
        return out

    def _kids_removed(self):
        kids = (self.tables.get("variants") or {}).get("kids") or {}
        return set(kids.get("remove_locations") or ("special", "horn", "organ", "skin"))

    @staticmethod
    def _check_fail(where, deck_fault, field, message):
        """ContentError at the deck file's `variants` (deck_fault) or at the command-line option."""
        if deck_fault:
            path, line = where or (None, None)
            raise ContentError([Issue(path, line, "variants", message)])
        raise ContentError([Issue(None, None, field, message)])

    def _school_counts(self):
        """The player counts school battle can play: Schools of team_size, at least two of them."""
        size = self._school_size()
        return tuple(n for n in self.player_counts if n % size == 0 and n // size >= 2)

    def _school_size(self) -> int:
        return int(((self.tables.get("variants") or {}).get("school-battle") or {}).get("team_size", 2))

    def _check_setup(self, variants, own, where, players) -> tuple[int, ...]:
        """The player counts to play `variants` at; ContentError for what the rules cannot play.

        `own`: the variants the deck file asked for, `where`: (deck path, line of its `variants`)
        or None; a problem the deck's own variants cause is reported there, else at the option."""
        def fail(field, message, deck_fault):
            self._check_fail(where, deck_fault, field, message)

        unknown = [v for v in variants if v not in type(self).variants]
        if unknown:
            fail("--variant", f"the rules engine does not play {', '.join(unknown)} (it plays "
                              f"{', '.join(type(self).variants)})", any(v in own for v in unknown))
        if "school-battle" in variants and "multi-auto-adapt" in variants:
            fail("--variant", "multi-auto-adapt changes Auto-Adapting, which school-battle replaces "
                              "(Random Selection at 30 shared Experience): use one or the other",
                 "school-battle" in own and "multi-auto-adapt" in own)
        if "school-battle" not in variants:
            return (players,) if players else (2, 3)
        school = self._school_counts()
        if not players:
            return school[:1]
        if players not in school:
            words = " or ".join(map(str, school))
            fail("--players", ("this deck asks for school-battle, which" if "school-battle" in own
                               else "school-battle") + f" needs {words} players (Schools of two), "
                 f"not {players}", "school-battle" in own)
        return (players,)

    def _setup(self, name, cards, variants, players, **extra) -> Setup:
        label = f"{name}, {players} players" + (f" ({', '.join(variants)})" if variants else "")
        options = {"players": players, "variants": list(variants), "deck": cards, **extra}
        pool = frozenset(cards) if cards is not None else frozenset(
            self.names[t] for t in self._deck_types(None, variants, 1))
        seats = self._seat_names(players)
        if "school-battle" in variants:
            # A School wins as one, and the match names its lowest living seat the winner: with its
            # School in each seat's name a report's seat figures add up by School.
            schools = players // self._school_size()
            seats = [f"{seat} of School {i % schools + 1}" for i, seat in enumerate(seats)]
        return Setup(label=label, seats=seats, options=options, cards=pool)

    def _seat_names(self, n):
        base = [g.split()[0] for g in self.guppy_names]
        return [base[i % len(base)] + ("" if i < len(base) else f" {i // len(base) + 1}")
                for i in range(n)]

    def _deck_source(self, deck):
        """(name, card names with repeats, variants, where the variants are written: (path, line) or
        None) from a Deck, a deck path or a (name, names[, variants]) tuple."""
        if isinstance(deck, (str, Path)):
            from cardgen.model import load_deck

            deck = load_deck(Path(deck))
        if isinstance(deck, tuple):
            return deck[0], list(deck[1]), list(deck[2]) if len(deck) > 2 else [], None
        cards = []
        for entry, count in deck.counted_entries():
            if entry.card.type in ("body", "part"):
                cards.extend([entry.card.name] * count)
        where = (deck.path, deck.line_of("variants") if "variants" in deck.fields else None)
        return deck.name, cards, list(deck.fields.get("variants") or []), where

    # -- configuration --------------------------------------------------------------------------
    def _config(self, players, variants, seats=None) -> Config:
        t = self.tables
        unknown = set(variants) - {"kids", "sailfish", "school-battle", "multi-auto-adapt"}
        if unknown:
            raise RuleConflict(f"variants the engine does not play: {', '.join(sorted(unknown))}")
        if not 2 <= players <= 6:
            raise RuleConflict(f"A.D.A.P.T. is for 2 to 6 players, not {players}")
        cfg = Config()
        cfg.n = players
        cfg.variants = tuple(variants)
        slots = (t.get("gene_stream") or {}).get("slots_by_players") or {}
        cfg.slots = int(slots.get(players, slots.get(str(players), players + 1)))
        tv = t.get("variants") or {}
        for v in ("kids", "sailfish"):
            if v in variants:
                cfg.slots += int((tv.get(v) or {}).get("gene_stream_extra_slots", 1))
        per = (t.get("experience") or {}).get("per_turn_by_players") or {}
        cfg.turn_exp = int(per.get(players, per.get(str(players), min(5, players + 1))))
        if "sailfish" in variants:
            cfg.turn_exp += int((tv.get("sailfish") or {}).get("experience_per_turn_bonus", 1))
        bonus = (t.get("wipe") or {}).get("bonus") or {}
        cfg.wipe_bonus = int(bonus.get(players, bonus.get(str(players), 3 if players == 2 else 4)))
        four = (t.get("adapting") or {}).get("four_plus_players") or {}
        cfg.step = 1
        cfg.skip = 0
        if players >= 4:
            cfg.step = int(four.get("body_step", 2))
            cfg.skip = int(four.get("skip_cost_per_level", 2))
        if "kids" in variants or "sailfish" in variants:
            cfg.step = 2
        cfg.bmax = [max(self.guppy_max, cfg.step)] + [bl + cfg.step for bl in range(1, 6)]
        # The Body Levels (as bits) a Fish of each Level could Adapt at once as a step up.
        cfg.above = [max(0, (2 << top) - (2 << level)) for level, top in enumerate(cfg.bmax)]
        cfg.skipcost = [[sum(cfg.skip * k for k in range(bl + 1, lv)) if bl and cfg.skip else 0
                         for lv in range(12)] for bl in range(6)]
        charts = (t.get("random_selection") or {}).get("charts") or {}
        key = players if players in charts else (t.get("random_selection") or {}).get(
            "chart_for_more_players", 3)
        cfg.chart = tuple((int(r["roll"][1]), r["gain"], int(r.get("slot", r.get("amount", 0)) or 0))
                          for r in charts.get(key, charts.get(str(key), [])))
        if not cfg.chart:
            raise RuleConflict("no Random Selection chart in tables.random_selection")
        cfg.school_battle = "school-battle" in variants
        if cfg.school_battle:
            sb = tv.get("school-battle") or {}
            size = self._school_size()
            if players % size or players // size < 2:
                raise RuleConflict(f"School battle needs Schools of {size}: {players} players")
            cfg.nteams = players // size
            cfg.team = tuple(p % cfg.nteams for p in range(players))
            cfg.cap = int(sb.get("shared_experience_max", 30))
        else:
            cfg.nteams = players
            cfg.team = tuple(range(players))
            cfg.cap = self.exp_cap
        cfg.multi = "multi-auto-adapt" in variants
        # A Turn's Experience that stays below this triggers nothing (no Auto-Adapt, no School
        # pool filling up), so it is added without the _gain checks.
        cfg.plain_gain_below = -1 if cfg.school_battle else self.auto_at
        # By team: the Fish of the other teams, as a bit mask.
        cfg.foes = [sum(1 << q for q in range(players) if cfg.team[q] != tm)
                    for tm in range(cfg.nteams)]
        cfg.seats = list(seats or self._seat_names(players))
        # By team: the Experience a match starts with (each Fish brings exp_start to its pool).
        cfg.exp_start = [0] * cfg.nteams
        for p in range(players):
            cfg.exp_start[cfg.team[p]] = min(cfg.cap, cfg.exp_start[cfg.team[p]] + self.exp_start)
        return cfg

    def _finish_config(self, cfg):
        """Per-instance data once the deck is known; index -1 (an empty slot) reads as 0."""
        cfg.total = len(cfg.ct)
        cfg.blev = [self.level[t] if self.is_body[t] else 0 for t in cfg.ct] + [0]
        cfg.ilev = [self.level[t] for t in cfg.ct]
        cfg.icost = [self.cost[t] for t in cfg.ct]
        cfg.iloc = [self.loc[t] for t in cfg.ct]
        cfg.ids = list(range(cfg.total))
        cfg.iadapt = [self.adapt_action[t] for t in cfg.ct]
        cfg.iname = [self.names[t] for t in cfg.ct] + [None]
        cfg.islot = [0 if self.is_body[t] else self.loc[t] + 1 for t in cfg.ct]  # 0: the Body
        cfg.ischool = [self.has_school[t] for t in cfg.ct] + [False]
        cfg.bbit = [1 << lv if lv else 0 for lv in cfg.blev]     # a Body's Level as one bit
        cfg.body_at = {}
        for c, t in enumerate(cfg.ct):
            if self.is_body[t]:
                cfg.body_at.setdefault(self.level[t], set()).add(c)
        cfg.body_at = {lv: frozenset(ids) for lv, ids in cfg.body_at.items()}
        # By the Fish's Body Level and card instance: the Experience Adapting it takes (as
        # _adapt_cost: a Body's skipped-Level price; INF: not now). What a Buy needs, by instance
        # (the last entry: an empty slot): its cost; with a full PGP the card must be Adapted at
        # once, so its cost plus that price.
        cfg.adaptprice = []
        for bl in range(len(cfg.bmax)):
            row = []
            for c, lv in enumerate(cfg.ilev):
                if cfg.blev[c]:
                    row.append(cfg.skipcost[bl][lv] if lv <= cfg.bmax[bl] else INF)
                else:
                    row.append(0 if lv <= bl + self.part_margin else INF)
            cfg.adaptprice.append(row)
        cfg.price = cfg.icost + [INF]
        cfg.fullprice = [[k + a if a < INF else INF for k, a in zip(cfg.icost, row, strict=True)]
                         + [INF] for row in cfg.adaptprice]
        # By Body Level and PGP size: the price row a Buy reads (a full PGP: the full price; the
        # spare rows cover a scenario that overfills a PGP).
        cfg.buyprice = [[cfg.price] * self.pgp_max + [full] * 16 for full in cfg.fullprice]
        # By Body Level: a Fish's hold (_hold) while its PGP is empty.
        cfg.bare_hold = [(2 << bl, cfg.above[bl] & -(2 << bl), cfg.buyprice[bl][0], ())
                         for bl in range(len(cfg.bmax))]

    def _deck_types(self, cards, variants, boxes):
        if cards is None:
            removed = set()
            if "kids" in variants:
                removed = self._kids_removed()
            types = []
            for t in range(len(self.names)):
                if self.loc[t] >= 0 and LOCATIONS[self.loc[t]] in removed:
                    continue
                types.extend([t] * self.copies[t])
        else:
            try:
                types = [self.index[n] for n in cards]
            except KeyError as exc:
                raise RuleConflict(f"the deck names {exc.args[0]!r}, which is no body or part") \
                    from None
        return types * boxes

    def _new_state(self, cfg, rng) -> AdaptState:
        st = AdaptState()
        st.rng = rng
        st.cfg = cfg
        st.fish = [self._new_fish() for _ in range(cfg.n)]
        if cfg.school_battle:
            for f in st.fish:
                f.rare = True
        st.exp = cfg.exp_start[:]
        st.stream = [-1] * cfg.slots
        st.deck = []
        st.discard = []
        st.turn = 0
        st.phase = P_ACTION
        st.chooser = -1
        st.resume = RES_END
        st.removed = False
        st.attacked = -1                # the turnno of the last Turn with an Attack (or Ram)
        st.wiped = -1                   # the turnno of the last Turn with a Wipe
        st.blocked = 0
        st.over = False
        st.win = None
        st.turnno = 0
        st.forced = None
        st.rsdue = [False] * cfg.nteams
        st.legal = None
        st.last = None
        st.queue = []
        st.first = 0
        st.rslog = []
        st.rolls = []
        st.quiet = 0
        st.alive = (1 << cfg.n) - 1     # the living Fish, as bits
        st.air = 0                      # the Fish in the air (jumping), as bits
        return st

    def _new_fish(self) -> Fish:
        f = Fish()
        f.body = -1
        f.parts = [-1] * 8
        f.under = []
        f.pgp = []
        f.dmg = f.peak = 0
        f.poison = 0
        f.stun = False
        f.hide = 0
        f.jump = 0
        f.jlen = 0
        f.splash = False
        f.cd = [0, 0, 0, 0]
        f.bait = -1
        f.alive = True
        f.fragile = False
        f.auto = 0
        f.sblock = -1
        f.s = self.guppy_s
        f.own = False
        f.rare = False
        f.hold = None
        return f

    # -- the match ------------------------------------------------------------------------------
    def initial_state(self, setup: Setup, rng: random.Random) -> AdaptState:
        o = setup.options or {}
        players = int(o.get("players", len(setup.seats) or 2))
        variants = tuple(o.get("variants") or ())
        boxes = int(o.get("boxes") or (2 if players >= 4 else 1))
        deck = o.get("deck")
        seats = tuple(setup.seats) if len(setup.seats) == players else None
        key = (players, variants, None if deck is None else tuple(deck), boxes, seats)
        cfg = self._config_cache.get(key)
        if cfg is None:
            cfg = self._config(players, variants, seats)
            cfg.ct = self._deck_types(deck, variants, boxes)
            self._finish_config(cfg)
            self._config_cache[key] = cfg
        st = self._new_state(cfg, rng)
        st.deck = deck = list(range(cfg.total))
        _shuffle(rng, deck)
        slots = cfg.slots
        if len(deck) >= slots:
            # Dealt from the highest slot down, one card at a time off the top (the list's end):
            # the top `slots` cards, in the order they lie.
            st.stream = deck[-slots:]
            del deck[-slots:]
        else:
            for i in range(slots - 1, -1, -1):
                st.stream[i] = self._draw(st)
        self._opening_selection(st)
        return st

    def _opening_selection(self, st):
        n = st.cfg.n
        while True:
            rolls = [self._roll(st, 100) for _ in range(n)]
            if len(set(rolls)) == n:
                break
        st.rolls = rolls
        order = sorted(range(n), key=rolls.__getitem__, reverse=True)      # (no ties)
        st.first = order[0]
        st.queue = order
        self._setup_next(st)

    def _setup_next(self, st):
        while st.queue:
            p = st.queue.pop(0)
            st.removed = False
            if self._rs_roll(st, p, RES_SETUP):
                return
            self._cycle(st)
        self._end_turn(st, begin=st.first)

    def first_player(self, state) -> int:
        return state.first

    def current_player(self, st) -> int:
        if not st.phase:                 # P_ACTION (0), the usual case; a match over is in P_OVER
            return st.turn
        ph = st.phase
        if st.over:
            return -1
        return st.chooser if ph == P_CHOICE else st.turn

    def is_over(self, st) -> bool:
        return st.over

    def winner(self, st):
        return st.win

    @staticmethod
    def _roll(st, sides):
        f = st.forced
        if f:
            return f.pop()
        return floor(st.rng.random() * sides) + 1         # (as int(), for a product >= 0)

    def _draw(self, st):
        deck = st.deck
        if not deck:
            if not st.discard:
                return -1
            deck.extend(st.discard)
            st.discard.clear()
            _shuffle(st.rng, deck)
        return deck.pop()

    # -- legal actions ----------------------------------------------------------------------------
    def legal_actions(self, st):
        acts = st.legal
        if acts is not None:
            return acts
        ph = st.phase
        if ph > P_SECOND:                # not P_ACTION nor P_SECOND (a match over is in P_OVER)
            acts = st.legal = self._other_phase_actions(st)
            return acts
        # The Action phase, every Turn's one choice (this runs once per action the simulator takes),
        # and the optional Buy or Adapt after Hide or Bait (P_SECOND): Adapt and Buy, then for a
        # whole Action the strikes, the special actions and the Wipe. (One function for both: the
        # Adapt and Buy part costs no extra call.)
        p = st.turn
        fish = st.fish
        f = fish[p]
        s = f.s
        cfg = st.cfg
        my = cfg.team[p]
        # A whole Action: not after Hide or Bait, not in the air, not stunned. How it can strike
        # (the STRIKES kind): 1 an Attack roll, 2 a Ram off Cooldown, 3 both.
        if not (ph or f.rare):           # P_ACTION (0), and none of f.rare's conditions
            whole = True                 # (no Cooldown runs, not in the air, stunned nor Baited)
            strike = s.strike
        else:
            whole = ph == P_ACTION and f.jump <= 0 and not f.stun
            if whole:
                strike = s.strike if not f.cd[SA_RAM] else s.roll
                b = f.bait
                if b >= 0 and strike and (st.alive & ~(st.air | st.blocked)) >> b & 1:
                    # Baited: the Action must be an Attack on the Fish that Baited it.
                    acts = st.legal = list(STRIKES[strike][1 << b])
                    return acts
        e = st.exp[my]
        useless, _, price, adapt_cands = f.hold or self._hold(cfg, f)
        acts = []
        # Adapt from the PGP.
        for need, a in adapt_cands:
            if need <= e:
                acts.append(a)
        # Buy; bm: the bit mask of the Body Levels in the stream (bit L for a Level-L Body), which
        # the Wipe rule reads.
        bbit = cfg.bbit
        bm = 0
        others = -1
        i = -1                       # the slot (a counter costs less than enumerate)
        for c in st.stream:
            i += 1
            b = bbit[c]
            if b:                    # a Body (a part, the usual card, takes the elif)
                bm |= b
                if price[c] > e:
                    continue
                if b < useless:
                    # A Body it has no use for: only when no other Fish is below its Level.
                    if others < 0:
                        others = 99
                        for q in RIVALS[st.alive][p]:
                            level = fish[q].s.level
                            if level < others:
                                others = level
                    if b >> (others + 1):
                        continue
            elif price[c] > e:
                continue
            acts.append(BUY[i])
        if not whole:
            if ph == P_SECOND:
                acts.append(END)
            elif not acts:
                acts = [PASS if f.jump > 0 else RANDOM]
            st.legal = acts
            return acts
        if strike:
            # The Fish it can Attack: foes, alive, not in the air, not hidden from it this Turn.
            targets = st.alive & cfg.foes[my]
            if st.air or st.blocked:
                targets &= ~(st.air | st.blocked)
            if targets:
                acts += STRIKES[strike][targets]
        if s.special:
            cd = f.cd
            if s.hide and not cd[SA_HIDE] and e >= s.level:
                acts.append(HIDE)
            if s.bait and not cd[SA_BAIT] and e >= self.bait_cost:
                for q in MASK_BITS[st.alive & ~st.air & cfg.foes[my]]:
                    if not fish[q].s.imm & IM_BAIT:
                        acts.append(BAIT[q])
            if s.jump and not cd[SA_JUMP]:
                acts.extend(JUMP[1:s.jump + 1])
        if bm:
            # No Wipe while a Body in the stream is one another living Fish could Adapt at once as
            # a step up (its hold's wipe block).
            for q in RIVALS[st.alive][p]:
                g = fish[q]
                if bm & (g.hold or self._hold(cfg, g))[1]:
                    acts = st.legal = acts or [RANDOM]
                    return acts
        acts.append(WIPE)
        st.legal = acts
        return acts

    @staticmethod
    def _hold(cfg, f):
        """What legal_actions reads of a Fish's Body Level and PGP, cached as f.hold until either
        changes (whatever changes them sets f.hold = None): (useless: 2 << tgp, tgp the highest
        Body Level it has or holds in its PGP, so that a Body's Level bit below it is a Level it
        needs no more; its wipe block: the Body Levels in the stream that forbid a rival's
        Wipe, those in (its Level, bmax[Level]] above tgp; its Buy price row; the Experience each
        PGP card takes to Adapt now with its adapt action, once per card name)."""
        bl = f.s.level
        if not f.pgp:
            h = f.hold = cfg.bare_hold[bl]
            return h
        tgp = bl
        blev = cfg.blev
        aprice = cfg.adaptprice[bl]
        iadapt = cfg.iadapt
        cands = []
        for c in f.pgp:
            if blev[c] > tgp:
                tgp = blev[c]
            cand = (aprice[c], iadapt[c])
            if cand not in cands:        # (two copies of a card cost the same)
                cands.append(cand)
        useless = 2 << tgp
        h = f.hold = (useless, cfg.above[bl] & -useless, cfg.buyprice[bl][len(f.pgp)], cands)
        return h

    def _other_phase_actions(self, st):
        ph = st.phase
        if st.over:
            acts = []
        elif ph == P_SCHOOL:
            acts = [SCHOOL[q] for q in MASK_BITS[st.alive & st.cfg.foes[st.cfg.team[st.turn]]]]
            acts.append(END)
        else:
            acts = [CHOOSE[i] for i, c in enumerate(st.stream) if c >= 0]
        return acts

    def _adapt_cost(self, cfg, f, t, exp):
        """Extra Experience to Adapt type t now (0 usually), or -1 if it cannot be Adapted now."""
        lvl = self.level[t]
        bl = f.s.level
        if not self.is_body[t]:
            return 0 if lvl <= bl + self.part_margin else -1
        if lvl > cfg.bmax[bl]:
            return -1
        extra = cfg.skipcost[bl][lvl]
        return extra if extra <= exp else -1

    # -- applying actions ---------------------------------------------------------------------------
    def apply_chosen(self, st, action):
        # (The unchecked simulator's entry, so the check lives in apply, which calls this.)
        st.legal = None
        kind = action[0]
        p = st.turn
        # (A legal "choose" is the P_CHOICE phase's only action, so the kind says the phase.)
        if kind == "buy":
            # Buy (inline: the most common action): pay its cost, then Adapt it at once if the
            # Fish can also pay that, else it waits in the PGP.
            f = st.fish[p]
            cfg = st.cfg
            stream = st.stream
            i = action[1] - 1
            c = stream[i]
            stream[i] = -1
            st.removed = True
            exp = st.exp
            tm = cfg.team[p]
            e = exp[tm] - cfg.icost[c]
            extra = cfg.adaptprice[f.s.level][c]
            if extra <= e:
                exp[tm] = e - extra
                self._adapt(st, p, c)
            else:
                exp[tm] = e
                f.pgp.append(c)
                f.hold = None
            if f.s.school:
                self._after_action(st)
            else:
                self._end_turn(st)                  # no School to send: the Turn ends
        elif kind == "wipe":
            self._wipe(st, p)
            if st.fish[p].s.school:
                self._after_action(st)
            else:
                self._end_turn(st)                  # no School to send: the Turn ends
        elif kind == "attack" or kind == "ram":
            done = self._attack(st, p, action[1], kind == "ram")
            if done and not st.over:
                if st.fish[p].s.school:
                    self._after_action(st)
                else:
                    self._end_turn(st)
        elif kind == "adapt":
            f = st.fish[p]
            ct = st.cfg.ct
            iname = st.cfg.iname
            name = action[1]
            for c in f.pgp:
                if iname[c] == name:
                    break
            team = st.cfg.team[p]
            extra = self._adapt_cost(st.cfg, f, ct[c], st.exp[team])
            f.pgp.remove(c)
            f.hold = None
            st.exp[team] -= extra
            self._adapt(st, p, c)
            self._after_action(st)
        elif kind == "end":
            if st.phase == P_SCHOOL:
                self._end_turn(st)
            else:
                self._after_action(st)
        elif kind == "school":
            self._school(st, p, action[1])
        elif kind == "hide":
            f = st.fish[p]
            st.exp[st.cfg.team[p]] -= f.s.level
            f.hide = f.s.hide
            f.rare = True
            if f.s.cd[SA_HIDE]:
                f.cd[SA_HIDE] = f.s.cd[SA_HIDE]
            st.phase = P_SECOND
        elif kind == "bait":
            self._bait(st, p, action[1])
        elif kind == "jump":
            f = st.fish[p]
            f.jump = f.jlen = action[1]
            f.rare = True
            st.air |= 1 << p
            self._after_action(st)
        elif kind == "random":
            if not self._rs_roll(st, p, RES_END):
                self._end_turn(st)
        elif kind == "choose":
            p = st.chooser
            self._rs_take(st, p, action[1] - 1, "choice")
            st.phase = P_ACTION
            st.chooser = -1
            self._resume(st)
        else:  # pass
            self._after_action(st)
        return st

    def _resume(self, st):
        r = st.resume
        if r == RES_SETUP:
            self._cycle(st)
            self._setup_next(st)
        elif r == RES_END:
            self._end_turn(st)
        # RES_ACTION: the Turn goes on with its Action

    def _after_action(self, st):
        if st.over:
            return
        p = st.turn
        f = st.fish[p]
        if (f.s.school and f.alive and st.attacked != st.turnno and st.wiped != st.turnno and f.jump == 0
                and f.sblock != st.turnno and st.alive & st.cfg.foes[st.cfg.team[p]]):
            st.phase = P_SCHOOL
            return
        self._end_turn(st)

    def _end_turn(self, st, begin=None):
        """The Turn ends (the stream cycles) and the next living Fish's Turn begins, with its
        start-of-Turn steps; with `begin` (a seat), only Fish begin's Turn begins (the setup,
        scenarios). One function for both, as nearly every action ends a Turn."""
        fish = st.fish
        if begin is None:
            p = st.turn
            f = fish[p]
            # The stream cycles (as _cycle; its two common cases inline).
            stream = st.stream
            deck = st.deck
            if st.removed:
                if deck and stream.count(-1) == 1:
                    stream.remove(-1)
                    stream.insert(0, deck.pop())    # (the next Turn clears st.removed)
                else:
                    self._cycle(st)
            elif deck and -1 not in stream:
                st.discard.append(stream.pop())    # nothing left this Turn: the last slot expires
                stream.insert(0, deck.pop())
            else:
                self._cycle(st)
            if f.rare:
                f.stun = False
                f.bait = -1
                f.splash = False
            if st.over:
                st.phase = P_OVER
                return
            p = NEXT_ALIVE[st.alive][p]
        else:
            p = begin
        cfg = st.cfg
        while True:
            st.turn = p
            st.phase = P_ACTION
            st.removed = False           # (st.attacked and st.wiped hold a turnno: no reset)
            st.blocked = 0
            st.turnno += 1
            quiet = st.quiet = st.quiet + 1
            if quiet > self.settle_min and quiet > self.stalemate * st.alive.bit_count():
                # No Damage and no Adapting for that many Rounds: the sea has settled, a tie.
                st.over = True
                st.win = None
                st.phase = P_OVER
                return
            f = fish[p]
            gain = cfg.turn_exp + f.s.smart
            if f.rare:
                gain = self._turn_start_rare(st, p, f, gain)
                if gain is None:
                    # Defeated at the start of its Turn: the Turn ends, the stream still cycles.
                    self._check_over(st)
                    if st.over:
                        st.phase = P_OVER
                        return
                    self._cycle(st)
                    p = NEXT_ALIVE[st.alive][p]
                    continue
            if gain > 0:
                exp = st.exp
                tm = cfg.team[p]
                e = exp[tm] + gain
                if e < cfg.plain_gain_below:
                    exp[tm] = e                        # nothing to trigger: the common case
                elif exp[tm] != cfg.cap:
                    # (At the cap, which late in a match is every Turn, a gain changes nothing
                    # and triggers nothing: _gain fills the pool only when it was below.)
                    self._gain(st, p, gain)
            if cfg.school_battle:
                tm = cfg.team[p]
                if st.rsdue[tm]:
                    st.rsdue[tm] = False
                    self._rs_roll(st, p, RES_ACTION)
            return

    def _turn_start_rare(self, st, p, f, gain):
        """The start-of-Turn steps of a Fish with f.rare set (Hiding, Damage and Regeneration,
        Poison, Cooldowns, a Jump, more than one Auto-Adapt, stunned, Baited, landed; every Fish
        in a School battle): the Turn's Experience `gain` as they change it, or None if Poison
        defeated the Fish. A Fish with none of these only gains its Experience, so the usual Turn
        start skips all their tests. (The Cooldowns and the Jump tick before the Experience is
        added, not after: the Experience, and an Auto-Adapt it triggers, reads neither.)
        Whatever sets one of them again sets f.rare."""
        s = f.s
        f.hide = 0
        if f.dmg and s.regen:
            f.dmg = max(0, f.dmg - s.regen)
            if f.fragile and f.dmg <= s.hp:
                f.fragile = False
        if f.poison:
            if s.imm & IM_POISON:
                f.poison = 0
            elif f.poison > s.res[R_POISON]:
                self._hurt(st, p, f.poison - s.res[R_POISON])
                if not f.alive:
                    return None
        multi = st.cfg.multi
        if f.jump > 0:
            gain -= 1
        if f.auto > 1 and multi:
            gain -= f.auto - 1
        cd = f.cd
        if cd != _NO_CD:
            for i in range(4):
                if cd[i]:
                    cd[i] -= 1
        if f.jump > 0:
            f.jump -= 1
            if f.jump == 0:
                st.air &= ~(1 << p)
                f.splash = True
                cd[SA_JUMP] = max(cd[SA_JUMP], f.jlen + 1)
        # (The likeliest first; only its truth is read.)
        f.rare = (cd != _NO_CD or f.jump or f.poison or (f.dmg and s.regen) or f.splash or f.stun
                  or f.bait >= 0 or (f.auto > 1 and multi) or st.cfg.school_battle)
        return gain

    def _gain(self, st, p, amount):
        f = st.fish[p]
        if not f.alive or amount <= 0:
            return
        cfg = st.cfg
        tm = cfg.team[p]
        e = st.exp[tm]
        cap = cfg.cap
        ne = e + amount
        if ne > cap:
            ne = cap
        st.exp[tm] = ne
        if cfg.school_battle:
            if ne == cap and e < cap:
                st.rsdue[tm] = True
        elif ne >= self.auto_at > e and (cfg.multi or f.auto == 0) and f.s.level < 5:
            self._auto_adapt(st, p)

    def _hurt(self, st, q, d):
        if d <= 0:
            return
        f = st.fish[q]
        if not f.alive:
            return
        f.dmg += d
        if f.s.regen:
            f.rare = True
            # Only Damage beyond the highest so far unsettles the sea: Damage healed as fast as it
            # comes (Poison against Regeneration) could otherwise go on for ever. Regeneration is the
            # only healing, so a Fish without it has never had more Damage than now: every hit of
            # it counts at once, and f.peak is kept for Fish with Regeneration only.
            if f.dmg > f.peak:
                f.peak = f.dmg
                st.quiet = 0
        else:
            st.quiet = 0
        if f.fragile or f.dmg > f.s.hp:
            f.alive = False
            st.alive &= ~(1 << q)

    def _check_over(self, st):
        team = st.cfg.team
        alive = {team[q] for q, f in enumerate(st.fish) if f.alive}
        if len(alive) <= 1:
            st.over = True
            st.phase = P_OVER
            if alive:
                (tm,) = alive
                st.win = min(q for q, f in enumerate(st.fish) if f.alive and team[q] == tm)
            else:
                st.win = None

    # -- Adapting, Buying, the stream ---------------------------------------------------------------
    def _adapt(self, st, p, c):
        f = st.fish[p]
        cfg = st.cfg
        slot = cfg.islot[c]
        if slot:
            old = f.parts[slot - 1]
            f.parts[slot - 1] = c
        else:
            old = f.body
            f.body = c
            f.hold = None                # a new Body Level
        if old >= 0:
            f.under.append(old)
        st.quiet = 0
        ischool = cfg.ischool
        if ischool[c] or ischool[old]:
            f.sblock = st.turnno
        s = f.s
        t = cfg.ct[c]
        if f.own:
            self._swap_card(s, slot, t)
        elif s.memo is None:
            s = f.s = s.copy()       # (shared with a clone or a memo: changed only as a copy)
            f.own = True
            self._swap_card(s, slot, t)
        else:
            # A Guppy's first or second card: nearly every Fish of a match makes one of a few
            # hundred such transitions, so their Stats are shared, kept in the memo of the Stats
            # they start from (by card type; the Guppy's results have memos of their own).
            ns = s.memo.get(t)
            if ns is None:
                ns = s.memo[t] = s.copy()
                self._swap_card(ns, slot, t)
                if s is self.guppy_s:
                    ns.memo = {}
            s = f.s = ns
        # Adapting never defeats a Fish: above its Health it is 1 Damage from defeat.
        f.fragile = f.dmg > s.hp
        if s.regen:
            f.rare = True
        imm = s.imm
        if imm:
            if imm & IM_POISON:
                f.poison = 0
            if imm & IM_STUN:
                f.stun = False
            if imm & IM_BAIT:
                f.bait = -1

    def _wipe(self, st, p):
        st.wiped = st.turnno
        st.removed = True
        stream = st.stream
        st.discard.extend(stream if -1 not in stream else [c for c in stream if c >= 0])
        stream[:] = [-1] * len(stream)
        cfg = st.cfg
        bonus = cfg.wipe_bonus
        tm = cfg.team[p]
        e = st.exp[tm] + bonus
        if bonus > 0 and e < cfg.plain_gain_below and e <= cfg.cap:
            st.exp[tm] = e                 # what _gain does when nothing caps or triggers
        else:
            self._gain(st, p, bonus)

    def _cycle(self, st):
        """Remove, slide towards the high slots, refill from the highest empty slot."""
        stream = st.stream
        deck = st.deck
        if not st.removed:
            last = stream.pop()                    # nothing left this Turn: the last slot expires
            if last >= 0:
                st.discard.append(last)
            stream.insert(0, deck.pop() if deck else self._draw(st))
            if -1 not in stream:
                return
        holes = stream.count(-1)
        if not holes:
            return
        if holes == 1:
            stream.remove(-1)
            stream.insert(0, deck.pop() if deck else self._draw(st))
        else:
            if holes < len(stream):                # (after a Wipe every slot is empty)
                stream[holes:] = [c for c in stream if c >= 0]
            if len(deck) >= holes:
                # One card at a time from the highest empty slot down, off the top (the end)
                # of the deck: the top `holes` cards, in the order they lie.
                stream[:holes] = deck[-holes:]
                del deck[-holes:]
            else:
                for i in range(holes - 1, -1, -1):
                    stream[i] = deck.pop() if deck else self._draw(st)
        st.removed = False

    def _auto_adapt(self, st, p):
        f = st.fish[p]
        ids = st.cfg.body_at.get(f.s.level + 1, _NONE)      # the Bodies one Level up
        fits = ids.__contains__
        f.auto += 1
        f.rare = True
        for i, c in enumerate(f.pgp):
            if fits(c):
                del f.pgp[i]
                f.hold = None
                self._adapt(st, p, c)
                return
        stream = st.stream
        for i in range(len(stream) - 1, -1, -1):
            c = stream[i]
            if fits(c):
                stream[i] = -1
                st.removed = True
                self._pay_auto(st, p, c)
                return
        if ids.isdisjoint(st.deck) and ids.isdisjoint(st.discard):
            return                                       # no such Body left: nothing happens
        deck = st.deck
        m = len(stream)
        while True:
            # The stream cycles by one card at a time: the last slot's card goes to the discards,
            # the others slide up and slot 1 is dealt (into the list's front: a fitting card is
            # taken, the slot left empty). While the deck lasts, in slices: the cards dealt before
            # the fitting one (the top of the deck, the list's end) pass through the stream, and
            # what falls off its end is discarded in the order it falls.
            k = len(deck) - 1
            while k >= 0 and deck[k] not in ids:
                k -= 1
            if k >= 0:
                c = deck[k]
                passing = [-1, *deck[k + 1:], *stream]
                del deck[k:]
            else:
                passing = [*deck, *stream]
                deck.clear()
            stream[:] = passing[:m]
            st.discard.extend([x for x in reversed(passing[m:]) if x >= 0])
            if k >= 0:
                st.removed = True
                self._pay_auto(st, p, c)
                return
            # The deck ran out: one card, the discards shuffled into a new deck (_draw).
            last = stream.pop()
            if last >= 0:
                st.discard.append(last)
            c = self._draw(st)
            if fits(c):
                stream.insert(0, -1)
                st.removed = True
                self._pay_auto(st, p, c)
                return
            stream.insert(0, c)

    def _pay_auto(self, st, p, c):
        tm = st.cfg.team[p]
        st.exp[tm] = max(0, st.exp[tm] - self.cost[st.cfg.ct[c]])
        self._adapt(st, p, c)

    # -- Random Selection ---------------------------------------------------------------------------
    def _rs_roll(self, st, p, resume):
        """Adapt by Random Selection; True if it waits for a "card of your choice"."""
        roll = self._roll(st, 100)
        chart = st.cfg.chart
        for row in chart:
            if roll <= row[0]:
                break
        else:
            row = chart[-1]
        _, gain, arg = row
        if gain == "experience":
            st.rslog.append((p, roll, "exp", -1, "exp"))
            self._gain(st, p, arg)
            return False
        if gain == "slot":
            self._rs_take(st, p, arg - 1, f"slot {arg}", roll)
            return False
        if not any(c >= 0 for c in st.stream):
            st.rslog.append((p, roll, "choice", -1, "empty"))
            return False
        st.rslog.append((p, roll, "choice", -1, "choosing"))
        st.phase = P_CHOICE
        st.chooser = p
        st.resume = resume
        return True

    def _rs_take(self, st, p, i, result, roll=None):
        f = st.fish[p]
        cfg = st.cfg
        ct = cfg.ct
        if roll is None:           # the choice of a "card of your choice" result
            p0, roll, _, _, _ = st.rslog.pop()
        c = st.stream[i] if 0 <= i < len(st.stream) else -1
        if c < 0:
            st.rslog.append((p, roll, result, -1, "empty"))
            return
        t = ct[c]
        if self.is_body[t]:
            tgp = f.s.level
            for x in f.pgp:
                if self.is_body[ct[x]]:
                    tgp = max(tgp, self.level[ct[x]])
            if self.level[t] <= tgp:
                st.rslog.append((p, roll, result, c, "left"))
                return
        st.stream[i] = -1
        st.removed = True
        extra = self._adapt_cost(cfg, f, t, st.exp[cfg.team[p]])
        if extra >= 0:
            st.exp[cfg.team[p]] -= extra
            self._adapt(st, p, c)
            outcome = "adapted"
        elif len(f.pgp) < self.pgp_max:
            f.pgp.append(c)
            f.hold = None
            outcome = "pgp"
        else:
            st.discard.append(c)
            outcome = "discarded"
        st.rslog.append((p, roll, result, c, outcome))

    # -- Attacks and Special Actions ----------------------------------------------------------------
    def _attack(self, st, p, q, ram):
        """Resolve an Attack (or Ram); False if a Hide check stopped it (choose again)."""
        roll = self._roll
        fish = st.fish
        a, d = fish[p], fish[q]
        sa, sd = a.s, d.s
        if d.hide:
            r = roll(st, 10)
            if r <= d.hide:
                st.blocked |= 1 << q
                st.last = (p, q, ram, "hidden", r, 0, 0, 0, 0, 0, False)
                return False
        if sd.fear and not sa.imm & IM_FEAR:
            r = roll(st, 10)
            if r <= sd.fear:
                st.last = (p, q, ram, "feared", r, 0, 0, 0, 0, 0, False)
                return True
        st.attacked = st.turnno
        extra = 0
        nat = total = 0
        surv = sd.surv
        if ram:
            dmg = sa.ram - sd.armor - sd.res[R_RAM]
            result = "hit"
            if sa.cd[SA_RAM]:
                a.cd[SA_RAM] = sa.cd[SA_RAM]
                a.rare = True
        else:
            die = sa.die
            nat = roll(st, die) if die else roll(st, 2)
            fer = sa.fer
            if sa.electro and sd.level < sa.level:
                fer += 2
            if a.splash:
                fer += 2
            total = nat + fer
            leth = sa.leth if sa.leth < self.leth_cap else self.leth_cap
            crit = sa.crit and die and nat == die
            if total > surv:
                dmg = total - surv + leth
                result = "hit"
            elif total == surv or crit:
                dmg = self.tie_dmg + leth
                result = "tie"
            else:
                gained = surv - total
                if gained > self.miss_cap:
                    gained = self.miss_cap
                st.last = (p, q, False, "miss", nat, total, surv, 0, 0, gained, False)
                self._gain(st, p, gained)
                if sd.sneaky:
                    self._gain(st, q, sd.sneaky)
                return True
            if crit:
                extra = roll(st, 4)
            dmg -= sd.armor
        if dmg < 0:
            dmg = 0
        dmg += extra
        # (Conditional expressions rather than max(0, x): the builtin call costs more.)
        shock_d = 0
        if sa.shock and not sd.imm & IM_SHOCK:
            shock_d = sa.shock - sd.res[R_SHOCK]
            if shock_d < 0:
                shock_d = 0
        counter = 0
        if sd.counter and not sa.imm & IM_CA:
            counter = sd.counter - sa.armor - sa.res[R_CA]
            if counter < 0:
                counter = 0
        shock_a = 0
        if sd.shock and not sa.imm & IM_SHOCK:
            shock_a = sd.shock - sa.res[R_SHOCK]
            if shock_a < 0:
                shock_a = 0
        mp = self.max_poison
        # Each chance is rolled whenever its owner has the ability, so the dice line up in order.
        if sa.pois and not ram and roll(st, 10) <= sa.pois and not sd.imm & IM_POISON \
                and d.poison < mp:
            d.poison += 1
            d.rare = True
        if sa.stun and roll(st, 10) <= sa.stun and not sd.imm & IM_STUN:
            d.stun = True
            d.rare = True
        if sd.cpois and roll(st, 10) <= sd.cpois and not sa.imm & IM_POISON and a.poison < mp:
            a.poison += 1
            a.rare = True
        self._hurt(st, q, dmg + shock_d)
        if counter or shock_a:
            self._hurt(st, p, counter + shock_a)
        gained = 0
        if result == "tie":
            gained = self.tie_exp
            self._gain(st, p, gained)
        st.last = (p, q, ram, result, nat, total, surv, dmg + shock_d, counter + shock_a, gained,
                   bool(extra))
        if not a.alive or not d.alive:
            self._check_over(st)
        return True

    def _bait(self, st, p, q):
        f = st.fish[p]
        st.exp[st.cfg.team[p]] -= self.bait_cost
        if f.s.cd[SA_BAIT]:
            f.cd[SA_BAIT] = f.s.cd[SA_BAIT]
            f.rare = True
        if self._roll(st, 10) <= f.s.bait:
            st.fish[q].bait = p
            st.fish[q].rare = True
        st.phase = P_SECOND

    def _school(self, st, p, q):
        d = st.fish[q]
        if not d.s.imm & IM_SCHOOL:
            self._hurt(st, q, 1 - d.s.res[R_SCHOOL])
            if not d.alive:
                self._check_over(st)
        self._end_turn(st)

    # -- clone and checks ---------------------------------------------------------------------------
    def clone(self, st):
        c = AdaptState.__new__(AdaptState)
        cls = type(st.rng)
        rng = cls.__new__(cls)
        rng.setstate(st.rng.getstate())
        c.rng = rng
        c.cfg = st.cfg
        c.fish = [f.copy() for f in st.fish]
        c.exp = st.exp[:]
        c.stream = st.stream[:]
        c.deck = st.deck[:]
        c.discard = st.discard[:]
        c.turn = st.turn
        c.phase = st.phase
        c.chooser = st.chooser
        c.resume = st.resume
        c.removed = st.removed
        c.attacked = st.attacked
        c.wiped = st.wiped
        c.blocked = st.blocked
        c.over = st.over
        c.win = st.win
        c.turnno = st.turnno
        c.forced = st.forced[:] if st.forced else None
        c.rsdue = st.rsdue[:]
        c.legal = st.legal
        c.last = st.last
        c.queue = st.queue[:]
        c.first = st.first
        c.rslog = st.rslog[:]
        c.rolls = st.rolls
        c.quiet = st.quiet
        c.alive = st.alive
        c.air = st.air
        return c

    def invariants(self, st) -> list[str]:
        out = []
        cfg = st.cfg
        cards = st.deck + st.discard + st.stream
        for f in st.fish:
            cards += f.pgp
            cards += f.under
            cards += f.parts
            cards.append(f.body)
        cards.sort()
        k = cards.count(-1)
        if cards[k:] != cfg.ids:
            out.extend(self._lost_cards(st, cards[k:]))
        if len(st.stream) != cfg.slots:
            out.append(f"the stream has {len(st.stream)} slots, not {cfg.slots}")
        for tm, e in enumerate(st.exp):
            if not 0 <= e <= cfg.cap:
                out.append(f"Experience {e} of side {tm} outside 0..{cfg.cap}")
        iloc = cfg.iloc
        alive_teams = set()
        alive = air = 0
        for p, f in enumerate(st.fish):
            s = f.s
            if f.alive:
                alive |= 1 << p
                if f.jump > 0:
                    air |= 1 << p
                alive_teams.add(cfg.team[p])
                if f.dmg > s.hp and not f.fragile:
                    out.append(f"fish {p} is alive with {f.dmg} Damage over {s.hp} Health")
            if len(f.pgp) > self.pgp_max:
                out.append(f"fish {p} holds {len(f.pgp)} cards in its PGP")
            if f.dmg < 0 or not 0 <= f.poison <= self.max_poison:
                out.append(f"fish {p}: damage {f.dmg}, poison {f.poison}")
            if min(f.cd) < 0 or f.jump < 0 or f.hide < 0:
                out.append(f"fish {p}: a negative timer")
            if f.body >= 0 and iloc[f.body] != -1:
                out.append(f"fish {p}: a part as its Body")
            for i, c in enumerate(f.parts):
                if c >= 0 and iloc[c] != i:
                    out.append(f"fish {p}: a part at the wrong location")
        if st.alive != alive or st.air & alive != air:
            out.append("the alive or airborne bit masks disagree with the Fish")
        settled = st.over and st.win is None and st.quiet > self.stalemate * st.alive.bit_count()
        if st.over != (len(alive_teams) <= 1) and not settled:
            out.append(f"over={st.over} with {len(alive_teams)} side(s) alive")
        if st.over:
            if st.win is not None and not st.fish[st.win].alive:
                out.append(f"the winner {st.win} is defeated")
        else:
            if not st.fish[st.turn].alive:
                out.append(f"the Turn belongs to defeated fish {st.turn}")
            if st.phase == P_CHOICE and not 0 <= st.chooser < cfg.n:
                out.append("a choice with no chooser")
        return out

    def _lost_cards(self, st, cards):
        total = st.cfg.total
        seen = [0] * total
        out = []
        for c in cards:
            if 0 <= c < total:
                seen[c] += 1
            else:
                out.append(f"unknown card instance {c}")
        names = self.names
        ct = st.cfg.ct
        lost = [names[ct[i]] for i, k in enumerate(seen) if k == 0]
        twice = [names[ct[i]] for i, k in enumerate(seen) if k > 1]
        if lost:
            out.append(f"cards lost: {', '.join(lost)}")
        if twice:
            out.append(f"cards in two places: {', '.join(twice)}")
        return out

    # -- reporting ----------------------------------------------------------------------------------
    def _card_name(self, st, c):
        return self.names[st.cfg.ct[c]] if c >= 0 else None

    def describe(self, st, action) -> str:
        seats = st.cfg.seats
        p = self.current_player(st)
        who = seats[p] if 0 <= p < len(seats) else "?"
        kind = action[0]
        if kind in ("buy", "choose"):
            i = action[1] - 1
            c = st.stream[i] if 0 <= i < len(st.stream) else -1
            name = self._card_name(st, c) or "nothing"
            if kind == "choose":
                return f"{who} chooses {name} (slot {action[1]}) by Random Selection"
            return f"{who} buys {name} from slot {action[1]} for {self.cost[st.cfg.ct[c]]} exp"
        if kind == "adapt":
            return f"{who} adapts {action[1]} from the PGP"
        if kind in ("attack", "ram", "bait", "school"):
            verb = {"attack": "attacks", "ram": "rams", "bait": "baits",
                    "school": "sends its School at"}[kind]
            return f"{who} {verb} {seats[action[1]]}"
        if kind == "jump":
            return f"{who} jumps for {action[1]} round(s)"
        return {"hide": f"{who} hides", "wipe": f"{who} wipes the Gene Stream",
                "random": f"{who} adapts by Random Selection", "pass": f"{who} passes (airborne)",
                "end": f"{who} ends the Turn"}.get(kind, repr(action))

    def card_of(self, st, action):
        kind = action[0]
        if kind == "buy" or kind == "choose":
            i = action[1]
            cfg = st.cfg                 # (cfg.slots: the stream's length)
            return cfg.iname[st.stream[i - 1]] if 0 < i <= cfg.slots else None  # iname[-1]: None
        if kind == "adapt":
            return action[1]
        return None

    def describe_outcome(self, before, after, action) -> str:
        """What chance and the rules made of the action, in words for `cardgen replay` (see
        adapt_parts/replay.py)."""
        return replay.describe_outcome(self, before, after, action)

    def _power(self, st, q):
        f = st.fish[q]
        if not f.alive:
            return 0.0
        s = f.s
        left = 0.5 if f.fragile else s.hp - f.dmg
        attack = (s.die + 1) * 0.5 + s.fer if s.die else (1.5 + s.fer if s.fer >= 2 else 0)
        return (20.0 + 2.2 * left + 1.6 * s.surv + 1.4 * attack + 1.2 * min(s.leth, 4)
                + 2.0 * s.armor + 1.5 * s.counter + 1.5 * s.regen + 1.0 * s.shock + 2.0 * s.level
                + 0.25 * st.exp[st.cfg.team[q]] + 0.8 * len(f.pgp) - 2.0 * f.poison
                + (0.6 if s.smart else 0.0) + 0.3 * (s.pois + s.stun + s.ram))

    def heuristic(self, st, player) -> float:
        if st.over:
            w = st.win
            if w is None:
                return 0.0
            return 1e6 if st.cfg.team[w] == st.cfg.team[player] else -1e6
        team = st.cfg.team
        mine = 0.0
        best = 0.0
        for q in range(st.cfg.n):
            v = self._power(st, q)
            if team[q] == team[player]:
                mine += v
            elif v > best:
                best = v
        return mine - best

    def bots(self):
        return {"shark": SharkBot}

    # -- scenarios --------------------------------------------------------------------------------
    def scenario_state(self, setup: dict, rng: random.Random) -> AdaptState:
        setup = dict(setup or {})
        players = int(setup.get("players", len(setup.get("fish") or []) or 2))
        variants = list(setup.get("variants") or [])
        cfg = self._config(players, variants, setup.get("seats"))
        types = []
        pool = {}
        for t in self._deck_types(None, variants, 2 if players >= 4 else 1):
            pool[t] = pool.get(t, 0) + 1

        def inst(name):
            if name not in self.index:
                raise ValueError(f"no body or part named {name!r}")
            t = self.index[name]
            types.append(t)
            if pool.get(t):
                pool[t] -= 1
            return len(types) - 1

        cfg.ct = types
        st = self._new_state(cfg, rng)
        fish_specs = list(setup.get("fish") or [])
        for p in range(players):
            spec = fish_specs[p] if p < len(fish_specs) else {}
            f = st.fish[p]
            for name in spec.get("under") or []:
                f.under.append(inst(name))
            if spec.get("body"):
                f.body = inst(spec["body"])
            for name in spec.get("parts") or []:
                c = inst(name)
                i = self.loc[types[c]]
                if i < 0:
                    raise ValueError(f"{name} is not a part")
                if f.parts[i] >= 0:
                    f.under.append(f.parts[i])
                f.parts[i] = c
            f.pgp = [inst(n) for n in spec.get("pgp") or []]
            f.dmg = f.peak = int(spec.get("damage", 0))
            f.poison = int(spec.get("poison", 0))
            f.stun = bool(spec.get("stunned", False))
            f.hide = int(spec.get("hiding", 0))
            f.jump = int(spec.get("jumping", 0))
            f.jlen = int(spec.get("jump_length", f.jump))
            f.splash = bool(spec.get("splash", False))
            b = spec.get("baited_by")
            f.bait = -1 if b is None else int(b)
            for k, v in (spec.get("cooldowns") or {}).items():
                f.cd[SA_INDEX[k]] = int(v)
            f.auto = int(spec.get("auto_adapted", 0))
            f.alive = bool(spec.get("alive", True))
            f.rare = True
            f.hold = None
            f.s = self._stats(types[f.body] if f.body >= 0 else -1,
                              tuple(types[c] if c >= 0 else -1 for c in f.parts))
            f.own = False
            f.fragile = f.dmg > f.s.hp and f.alive
            if "exp" in spec:
                st.exp[cfg.team[p]] = int(spec["exp"])
        st.alive = sum(1 << p for p, f in enumerate(st.fish) if f.alive)
        st.air = sum(1 << p for p, f in enumerate(st.fish) if f.jump > 0)
        stream = list(setup.get("stream") or [])
        if len(stream) > cfg.slots:
            raise ValueError(f"the stream has {cfg.slots} slots, not {len(stream)}")
        st.stream = [inst(n) if n else -1 for n in stream] + [-1] * (cfg.slots - len(stream))
        st.discard = [inst(n) for n in setup.get("discard") or []]
        if "deck" in setup:
            st.deck = [inst(n) for n in reversed(setup.get("deck") or [])]
        else:
            rest = [t for t, k in sorted(pool.items()) for _ in range(k)]
            _shuffle(rng, rest)
            st.deck = [inst(self.names[t]) for t in rest]
        missing = [i for i, c in enumerate(st.stream) if c < 0 and i >= len(stream)]
        for i in sorted(missing, reverse=True):
            st.stream[i] = self._draw(st)
        self._finish_config(cfg)
        dice = setup.get("dice")
        if dice:
            st.forced = [int(x) for x in reversed(dice)]
        st.turn = int(setup.get("turn", 0))
        st.first = int(setup.get("first", st.turn))
        st.turnno = 1
        self._check_over(st)
        if st.over:
            return st
        if setup.get("phase") == "setup":
            self._opening_selection(st)
        elif setup.get("start"):
            st.turnno = 0
            self._end_turn(st, begin=st.turn)
        return st

    def parse_action(self, st, spec):
        parts = action_words(spec)
        verb = str(parts[0]).lower()
        if len(parts) == 1 and verb in ("wipe", "hide", "random", "pass", "end"):
            return (verb,)
        if len(parts) == 2:
            if verb == "adapt":
                if parts[1] not in self.index:
                    raise ValueError(f"no card named {parts[1]!r}")
                return ("adapt", str(parts[1]))
            if verb in ("buy", "choose", "attack", "ram", "bait", "jump", "school"):
                return (verb, int(parts[1]))
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, st) -> dict:
        cfg = st.cfg
        name = self._card_name
        fish = {}
        for p, f in enumerate(st.fish):
            s = f.s
            fish[p] = ({
                "seat": cfg.seats[p], "alive": f.alive,
                "body": name(st, f.body) if f.body >= 0 else "Guppy",
                "level": s.level,
                "parts": {LOCATIONS[i]: name(st, c) for i, c in enumerate(f.parts) if c >= 0},
                "pgp": [name(st, c) for c in f.pgp],
                "under": [name(st, c) for c in f.under],
                "exp": st.exp[cfg.team[p]], "damage": f.dmg, "health": s.hp,
                "ferocity": s.fer, "survival": s.surv, "lethality": s.leth, "die": s.die,
                "poison": f.poison, "stunned": f.stun, "hiding": f.hide, "jumping": f.jump,
                "splash": f.splash, "baited_by": None if f.bait < 0 else f.bait,
                "cooldowns": {SA_NAMES[i]: v for i, v in enumerate(f.cd) if v},
                "auto_adapted": f.auto, "fragile": f.fragile, "abilities": self._abilities(s),
            })
        last = None
        if st.last is not None:
            a, q, ram, result, nat, total, surv, dmg, counter, gained, crit = st.last
            last = {"attacker": a, "target": q, "kind": "ram" if ram else "attack",
                    "result": result, "roll": nat, "total": total, "survival": surv,
                    "damage": dmg, "counter": counter, "exp_gained": gained, "critical": crit}
        return {
            "turn": st.turn, "current": self.current_player(st),
            "phase": "over" if st.over else PHASE_NAMES[st.phase],
            "over": st.over, "winner": st.win if st.over else None, "first": st.first,
            "stream": [name(st, c) for c in st.stream],
            "deck": len(st.deck), "discard": len(st.discard), "slots": cfg.slots,
            "exp_per_turn": cfg.turn_exp, "wipe_bonus": cfg.wipe_bonus,
            "opening_rolls": list(st.rolls),
            "last_attack": last,
            "selections": [{"fish": p, "roll": r, "result": res,
                            "card": name(st, c) if c >= 0 else None, "outcome": out}
                           for p, r, res, c, out in st.rslog],
            "fish": fish,
        }


def _stat_value(s) -> float:
    """What a Fish's totals are worth to the shark bot (Health counted apart)."""
    attack = (s.die + 1) * 0.5 + s.fer if s.die else 0.0
    return (1.6 * s.surv + 1.4 * attack + 1.2 * min(s.leth, 4) + 2.0 * s.armor + 1.5 * s.counter
            + 1.5 * s.regen + 1.0 * s.shock + 2.0 * s.level + 2.2 * s.hp + 0.6 * s.smart
            + 0.3 * (s.pois + s.stun + s.ram + s.fear + s.hide))


class SharkBot:
    """A quick rule-of-thumb player: the move with the best expected gain, no lookahead.

    An Attack is worth its expected Damage (averaged over the Attack Die, after Armor, Hide and
    Fear checks, minus the Counter Attack and Shock it draws), more if it can sink the target; a
    card is worth what it adds to the Fish now (or a share of it if it has to wait in the PGP)
    minus its cost; Experience, School and the Special Actions get small fixed values.
    """

    name = "shark"

    def __init__(self, engine, rng, player):
        self.engine, self.rng, self.player = engine, rng, player

    def choose(self, state, actions):
        if len(actions) == 1:
            return actions[0]
        best, best_score = [], float("-inf")
        for action in actions:
            score = self.score(state, action)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[self.rng.randrange(len(best))]

    def score(self, st, action) -> float:
        e = self.engine
        p = e.current_player(st)
        f = st.fish[p]
        kind = action[0]
        if kind in ("attack", "ram"):
            return self.attack_value(st, f, st.fish[action[1]], kind == "ram")
        if kind in ("buy", "choose"):
            c = st.stream[action[1] - 1]
            cost = e.cost[st.cfg.ct[c]] if kind == "buy" else 0
            return self.card_value(st, f, c) - 0.35 * cost
        if kind == "adapt":
            c = next(c for c in f.pgp if e.names[st.cfg.ct[c]] == action[1])
            return self.card_value(st, f, c, waiting=False)
        if kind == "school":
            return 2.5
        if kind == "wipe":
            return 0.3 * st.cfg.wipe_bonus
        if kind == "hide":
            return 1.0 if f.dmg * 2 > f.s.hp else -0.5
        if kind == "jump":
            return 0.8 if f.dmg * 2 > f.s.hp and action[1] == f.s.jump else -0.5
        if kind == "bait":
            return 0.4
        return 0.0

    def card_value(self, st, f, c, waiting=True) -> float:
        e = self.engine
        cfg = st.cfg
        t = cfg.ct[c]
        key = list(f.s.key)
        key[0 if e.is_body[t] else e.loc[t] + 1] = t
        new = e._stats(key[0], tuple(key[1:]))
        gain = _stat_value(new) - _stat_value(f.s)
        if waiting and e._adapt_cost(cfg, f, t, st.exp[cfg.team[self.player]]) < 0:
            return 0.3 * gain - 1.0           # waits in the PGP for a bigger Body
        return gain

    def attack_value(self, st, a, d, ram) -> float:
        sa, sd = a.s, d.s
        if ram:
            dmg = max(0, sa.ram - sd.armor - sd.res[R_RAM])
        else:
            die = sa.die or 2
            fer = sa.fer + (2 if sa.electro and sd.level < sa.level else 0) + (2 if a.splash else 0)
            leth = min(sa.leth, self.engine.leth_cap)
            total_dmg = 0.0
            for face in range(1, die + 1):
                total = face + fer
                if total > sd.surv:
                    total_dmg += max(0, total - sd.surv + leth - sd.armor)
                elif total == sd.surv or (sa.crit and sa.die and face == die):
                    total_dmg += max(0, 1 + leth - sd.armor)
                else:
                    total_dmg -= 0.15 * min(sd.surv - total, 5)   # a miss pays Experience
            dmg = total_dmg / die
        chance = (1 - d.hide / 10) * (1 - (0 if sa.imm & IM_FEAR else sd.fear) / 10)
        need = 1 if d.fragile else sd.hp - d.dmg + 1      # Damage that sinks the target
        value = 2.2 * dmg + (8.0 if dmg >= need else 0.0)
        value -= 2.2 * (max(0, sd.counter - sa.armor) + (0 if sa.imm & IM_SHOCK else sd.shock))
        return chance * value


ENGINE = AdaptEngine
