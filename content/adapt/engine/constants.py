"""A.D.A.P.T.: the engine's names, shared by every module of engine/: card locations, abilities,
Special Actions, phases, dice and fixed rule numbers, the action tuples and the bit-mask tables of
sets of Fish.

A card is an instance number (0 .. Config.total - 1, its type in Config.ct); NO_CARD (-1) stands
for none: an empty stream or part slot, the Guppy's Body, no card to draw. The hot paths
(legal_actions, apply_chosen, the end of a Turn, the stream cycling, Adapting) keep the literal
-1, with a `# = NO_CARD` note: a constant costs less there than a global look-up. So do a few
other hot literals, each with its `# = NAME` note.
"""

from __future__ import annotations

NO_CARD = -1
NOBODY = -1                    # no seat: no chooser, not Baited, no winner yet as a seat
NO_TURN = -1                   # a turnno before any Turn (st.attacked, st.wiped, f.sblock)

LOCATIONS = ("dorsal", "horn", "mouth", "skin", "side", "organ", "tail", "special")
LOC_INDEX = {name: i for i, name in enumerate(LOCATIONS)}
N_LOCATIONS = len(LOCATIONS)
NO_LOCATION = -1                # a Body's (card data: the loc of a card type)
# A Fish's card slots (Stats.key): the Body, then one per part location (slot = location + 1).
BODY_SLOT = 0
CARD_SLOTS = 1 + N_LOCATIONS
MAX_LEVEL = 5                  # the highest Body Level (no Auto-Adapt past it)

# Special Actions that have a timer: index into Fish.cd and Stats.cd.
SA_RAM, SA_HIDE, SA_BAIT, SA_JUMP = 0, 1, 2, 3
SA_NAMES = ("Ram", "Hide", "Bait", "Jump")
SA_INDEX = {n: i for i, n in enumerate(SA_NAMES)}
N_SA = len(SA_NAMES)

# Effects that Resist and Immune can name.
R_POISON, R_SHOCK, R_SCHOOL, R_CA, R_RAM = 0, 1, 2, 3, 4
RESIST_NAMES = ("Poison", "Shock", "School", "Counter Attack", "Ram")
N_RESISTS = len(RESIST_NAMES)
IM_POISON, IM_STUN, IM_SHOCK, IM_SCHOOL, IM_CA, IM_BAIT, IM_FEAR = 1, 2, 4, 8, 16, 32, 64
IMMUNE_BITS = {"Poison": IM_POISON, "Stun": IM_STUN, "Shock": IM_SHOCK, "School": IM_SCHOOL,
               "Counter Attack": IM_CA, "Bait": IM_BAIT, "Fear": IM_FEAR}

# Numeral abilities (they add up across the Fish) and flags (they never stack).
NUMERALS = ("Armor", "Bait", "Counter Attack", "Counter Poison", "Fear", "Hide", "Jump",
            "Poisonous", "Ram", "Regeneration", "Shock", "Stun")
FLAGS = ("Amphibious", "Critical", "Electroreception", "School", "Smart", "Sneaky", "Toxic")
DEFAULT_CAPS = {"Armor": 2, "Bait": 10, "Counter Attack": 3, "Counter Poison": 10, "Fear": 10,
                "Hide": 4, "Jump": 3, "Poisonous": 10, "Ram": 5, "Regeneration": 2, "Shock": 2,
                "Stun": 10}
NO_CAP = 1 << 62               # the effective cap of a numeral whose cap is 0 (none)
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
NO_RESISTS = (0,) * N_RESISTS
NO_COOLDOWNS = (0,) * N_SA
IDLE_CD = [0] * N_SA           # a Fish's cooldowns when none runs (compared against, never changed)
NO_CARDS = frozenset()
INF = 1 << 30                  # an Experience price nothing can pay (not possible now)
N_HIDE, N_JUMP, N_POIS, N_CPOIS = (NUM_INDEX[k] for k in ("Hide", "Jump", "Poisonous",
                                                          "Counter Poison"))
NUM_ATTR = {"Armor": "armor", "Bait": "bait", "Counter Attack": "counter",
            "Counter Poison": "cpois", "Fear": "fear", "Hide": "hide", "Jump": "jump",
            "Poisonous": "pois", "Ram": "ram", "Regeneration": "regen", "Shock": "shock",
            "Stun": "stun"}

# Dice (the sides _roll is asked for) and rule numbers the tables do not print.
CHECK_DIE = 10                 # Hide, Fear, Poisonous, Stun, Counter Poison and Bait checks
GUPPY_DIE = 2                  # a Guppy's Attack Die (a Body has its own)
CRITICAL_DIE = 4               # a Critical's extra Damage
PERCENTILE = 100               # the opening rolls and Random Selection
ELECTRO_BONUS = 2              # Ferocity against a lower-Level Fish with Electroreception
LANDING_BONUS = 2              # Ferocity on an Attack in the Turn a Jump lands
SCHOOL_DAMAGE = 1              # what a School deals
AIRBORNE_EXP = 1               # the Experience a Fish in the air gains less a Turn

# Phases of a Turn (P_ACTION must stay 0 and P_SECOND 1: the phase tests read them as numbers).
P_ACTION, P_SECOND, P_SCHOOL, P_CHOICE, P_OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("action", "second", "school", "choice", "over")
# Where a "card of your choice" Random Selection returns to.
RES_SETUP, RES_END, RES_ACTION = 0, 1, 2

# The actions, made once (legal_actions hands out these tuples, never new ones).
MAX_FISH = 6
FISH_SETS = 1 << MAX_FISH      # the sets of Fish, as bit masks
MAX_SLOTS = 16                 # Gene Stream slots the Buy and choose actions cover
ACTION_SEATS = 8               # seat numbers the Fish-targeting actions cover (more than MAX_FISH)
MAX_JUMP = 7                   # the longest Jump an action covers
WIPE = ("wipe",)
HIDE = ("hide",)
RANDOM = ("random",)
PASS = ("pass",)
END = ("end",)
BUY = tuple(("buy", i + 1) for i in range(MAX_SLOTS))
CHOOSE = tuple(("choose", i + 1) for i in range(MAX_SLOTS))
ATTACK = tuple(("attack", q) for q in range(ACTION_SEATS))
RAM = tuple(("ram", q) for q in range(ACTION_SEATS))
BAIT = tuple(("bait", q) for q in range(ACTION_SEATS))
SCHOOL = tuple(("school", q) for q in range(ACTION_SEATS))
JUMP = tuple(("jump", r) for r in range(MAX_JUMP + 1))
# Sets of Fish are bit masks (bit q: Fish q; 2 to 6 Fish), so the legal actions need no scan of
# every Fish. MASK_BITS[mask]: the Fish in the set. NEXT_ALIVE[mask][p]: the next Fish clockwise
# after p in the set. STRIKES[kind][mask]: the Attack and Ram actions on the set, by what the
# attacker can do (its Stats.strike: STRIKE_ATTACK, STRIKE_RAM or both added up).
STRIKE_ATTACK, STRIKE_RAM = 1, 2          # (STRIKE_ATTACK stays 1: Stats.strike adds a bool)
MASK_BITS = tuple(tuple(q for q in range(MAX_FISH) if m >> q & 1) for m in range(FISH_SETS))
NEXT_ALIVE = tuple(tuple(next(((p + k) % MAX_FISH for k in range(1, MAX_FISH + 1)
                               if m >> ((p + k) % MAX_FISH) & 1), NOBODY)
                         for p in range(MAX_FISH)) for m in range(FISH_SETS))
# RIVALS[mask][p]: the Fish in the set other than p (as MASK_BITS[mask & ~(1 << p)]: in 3.11 a bit
# operation is a generic, slower instruction, a tuple index a specialized one).
RIVALS = tuple(tuple(MASK_BITS[m & ~(1 << p)] for p in range(MAX_FISH)) for m in range(FISH_SETS))
STRIKES = (None,
           *(tuple(tuple(a for q in MASK_BITS[m]
                         for a in ((ATTACK[q],) if kind & STRIKE_ATTACK else ())
                         + ((RAM[q],) if kind & STRIKE_RAM else ()))
                   for m in range(FISH_SETS))
             for kind in (STRIKE_ATTACK, STRIKE_RAM, STRIKE_ATTACK | STRIKE_RAM)))
