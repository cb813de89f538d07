"""Amfibido engine state, boxes and the constants every part shares."""

from __future__ import annotations

from .grammar import (
    EQUIP,
    FIGHTER,
    S_FACE_E,
    S_FACE_F,
    S_FACE_FE,
    S_HERE_F,
    S_SELF,
    SENSEI,
)

# Phases
SENSEI_PH, PICK1, PICK2, FIELD, EOR, OVER = range(6)
PHASE_NAMES = ("sensei", "draft", "draft", "field", "end of round", "over")
RUNNING, DRAWN = -2, -1
# No card (an empty dojo, no sensei), and nobody (no player: the match is over, a drawn round)
NO_CARD = -1
NOBODY = -1
# End-of-round stages (AState.eor_stage): abilities, then the cleanup, then the next round
EOR_ABILITIES, EOR_CLEANUP, EOR_NEXT = 0, 1, 2
# Fight results (per player and dojo)
NOFIGHT, WIN, LOSE, DRAW = 0, 1, 2, 3
RESULT_NAMES = ("none", "win", "lose", "draw")
# Pending choices
P_STEP, P_COST, P_DISCARD, P_OVERCAP, P_EOR = range(5)
PENDING_NAMES = ("target", "cost", "discard", "retire equipment", "end of round")

ND = 3                  # dojos per player
R3 = range(ND)
# Card levels I to V (a level deck per level; index 0 of the per-level lists is unused)
NLEVELS = 5
LEVELS = range(1, NLEVELS + 1)
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}
FC = tuple(f"F{d + 1}" for d in R3)
EC = tuple((f"E{d + 1}", f"E{d + 1}b") for d in R3)
# A position code's place: (AT_FIGHTER or AT_EQUIP, dojo index, equipment slot)
AT_FIGHTER, AT_EQUIP = 0, 1
CODE = {}
for _d in R3:
    CODE[FC[_d]] = (AT_FIGHTER, _d, 0)
    CODE[EC[_d][0]] = (AT_EQUIP, _d, 0)
    CODE[EC[_d][1]] = (AT_EQUIP, _d, 1)
OPT_F = tuple((FC[d],) for d in R3)
OPT_E = tuple(((EC[d][0],), (EC[d][1],)) for d in R3)
SWF = tuple(tuple((FC[d], FC[e]) for e in R3) for d in R3)
SWE = tuple(tuple(tuple(tuple((EC[d][k], EC[e][k2]) for k2 in (0, 1)) for e in R3)
                        for k in (0, 1)) for d in R3)
NOOPT = ()
PASS = ("pass",)
DONE = ("done",)
EMPTY = frozenset()
AB_HEAD = {c: ("ability", c) for c in (*CODE, "S")}
K_NONE, K_FIGHTER, K_EQUIP, K_COMBO, K_ACTION = range(5)
DOJO_BOUND = (S_SELF, S_HERE_F, S_FACE_F, S_FACE_E, S_FACE_FE)

DEFAULT_ACTIVE = {1: [1], 2: [1, 2], 3: [1, 2, 3], 4: [2, 3, 4], 5: [3, 4], 6: [3, 4, 5], 7: [4, 5]}


def _shuffle(rng, x):
    """Shuffle in place from rng.random(): the same for a given seed, faster than rng.shuffle."""
    rnd = rng.random
    x.sort(key=lambda _: rnd())


class Box:
    """The cards of one box (a setup): instance ids -> CardInfo. Shared, never copied."""

    __slots__ = ("info", "n", "levels", "sensei", "count", "label", "kind", "dof", "ab", "nsrc",
                 "nocombo", "isf", "nset", "abset", "second", "jset", "kset", "eset", "abl", "nsl",
                 "deal")

    def __init__(self, infos, counts, label):
        self.info = []
        self.levels = [[] for _ in range(NLEVELS + 1)]
        self.sensei = []
        self.count = [[0, 0, 0, 0] for _ in range(NLEVELS + 1)]
        self.label = label
        for info in infos:
            for _ in range(counts.get(info.name, 0)):
                cid = len(self.info)
                self.info.append(info)
                if info.type == SENSEI:
                    self.sensei.append(cid)
                else:
                    self.levels[info.level].append(cid)
                    self.count[info.level][info.type] += 1
        self.n = len(self.info)
        info = self.info
        self.dof = [i.d for i in info]
        # what a hidden card looks like from outside (determinize deals it only among its like):
        # a sensei, or its level
        self.deal = [-1 if i.type == SENSEI else i.level for i in info]
        self.kind = [K_FIGHTER if i.type == FIGHTER else K_EQUIP if i.type == EQUIP
                     else K_COMBO if i.combo else K_ACTION if i.steps else K_NONE for i in info]
        self.ab = [bool(i.ab_steps) for i in info]
        self.nsrc = [bool(i.neut_f or i.neut_e) for i in info]
        self.nset = frozenset(c for c in range(self.n) if self.nsrc[c])
        self.abset = frozenset(c for c in range(self.n) if self.ab[c])
        # The same flags indexed by a place's card id, where -1 (an empty place) reads the
        # trailing False: hot loops test a place without checking that it holds a card.
        self.abl = [*self.ab, False]
        self.nsl = [*self.nsrc, False]
        self.nocombo = [i.no_combo for i in info]
        self.isf = [i.type == FIGHTER for i in info]
        self.second = [bool(i.second_equip) for i in info]
        self.jset = frozenset(c for c in range(self.n) if info[c].jade)
        self.kset = frozenset(c for c in range(self.n) if info[c].komodo)
        self.eset = frozenset(c for c in range(self.n)
                              if info[c].eor_retire or info[c].eor_transform or info[c].boots)


class NoSensei:
    """The sensei mods of a player without a sensei."""

    def __init__(self, n):
        self.s_plus = self.s_combo = self.s_weapon = self.s_per_other = [0] * n
        self.s_shell = [False] * n
        self.draw_start = False


class AState:
    __slots__ = ("rng", "box", "phase", "round", "first", "start", "turn", "dstep", "passed",
                 "score", "decks", "sdeck", "discard", "hand", "ko", "ko_new", "aside", "fighter",
                 "equip", "combos", "sensei", "draft", "tmp_neut", "tmp_ko", "tmp_plus", "used",
                 "seq", "nseq", "pend", "result", "last", "res", "kod", "fneut", "rwin", "eor_stage",
                 "legal", "over", "limit", "stays", "resolving")

    def __init__(self):
        self.rng = None
        self.box = None
        self.phase = FIELD
        self.round = 1
        self.first = 0
        self.start = 0
        self.turn = 0
        self.dstep = 0
        self.passed = [False, False]
        self.score = [0, 0]
        self.decks = [[] for _ in range(NLEVELS + 1)]  # index = level; top of a deck = end of list
        self.sdeck = []                           # sensei deck
        self.discard = []
        self.resolving = []                       # an action card whose effect is still resolving
        self.hand = [[], []]
        # A knockout pile is ko + ko_new. ko: back to hand at the end of this round; ko_new: put
        # there during this round, so back at the end of the next one (it sits that round out).
        self.ko = [[], []]
        self.ko_new = [[], []]
        self.aside = [[], []]                     # boomerang moves whose fighter left the dojos
        #                                           (to the knockout pile at the end of the round)
        self.fighter = [[NO_CARD] * ND, [NO_CARD] * ND]
        self.equip = [[[] for _ in R3], [[] for _ in R3]]
        self.combos = [[[] for _ in R3], [[] for _ in R3]]   # follow the fighter of that dojo
        self.sensei = [NO_CARD, NO_CARD]
        self.draft = [[], []]
        self.tmp_neut = []                        # card ids neutralized this round
        self.tmp_ko = []                          # card ids that gained Knockout this round
        self.tmp_plus = []                        # (card id, power) gained this round
        self.used = []                            # card ids whose action ability was used
        self.seq = []                             # per card id: when it came into play
        self.nseq = 0
        self.pend = []                            # pending choices, head first
        self.result = RUNNING
        self.last = None                          # the last fight, for observe
        self.res = [[NOFIGHT] * ND, [NOFIGHT] * ND]
        self.kod = [[False] * ND, [False] * ND]
        self.fneut = EMPTY
        self.rwin = NOBODY
        self.eor_stage = EOR_ABILITIES
        self.legal = None                         # cached legal actions
        self.over = False                         # phase == OVER
        # house variants (off: the published rules): the last round (round-limit; 0: none), and
        # a transform that finds nothing leaves the card in place (failed-transform-stays)
        self.limit = 0
        self.stays = False
