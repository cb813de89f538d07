"""A.D.A.P.T.: the engine's names: card locations, abilities, Special Actions, phases, the
action tuples and the bit-mask tables of sets of Fish (shared by every module of the engine)."""

from __future__ import annotations

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
