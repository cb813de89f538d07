"""Combo Fighter's state: the constants every part of the engine shares (card kinds, phases,
match modes, round results, the prebuilt actions) and the state classes (a Power Token side, a
character sheet, a fighter with its zones, the match state)."""

from __future__ import annotations

from . import grammar as G

ATT, DEF, FOOT = 0, 1, 2            # card types, in grammar.TYPES order
BEATS = (FOOT, ATT, DEF)          # attack beats footwork, defense attack, footwork defense
BUTTONS = ("triangle", "square", "circle")

(PICK, START, CHOOSE, REACT, RECOVER, FORESEE, COMBO, DAMAGE, DISCARD, ASSIST, TAG,
 OVER) = range(12)
PHASE_NAMES = ("pick", "start", "choose", "react", "recover", "foresee", "combo", "damage",
               "discard", "assist", "tag", "over")
STANDARD, TWO_VS_TWO, TOURNAMENT = 0, 1, 2      # match modes (CFState.mode)
TIE, UNDECIDED = -1, -2             # a round's result besides the winning seat (0 or 1)
SIDE_A, SIDE_B = 0, 1               # Power Token sides (Fighter.side; a Flip is side ^ 1)
SIDE_LETTERS = "AB"
NO_CARD = -1                        # an empty card slot: no face-down card yet, none on a token side
NO_TYPE = -1                        # a card type no card has
NO_SIG = -1                         # no signature combo called
NOBODY = -1                         # nobody to move (the match is over), no winner yet
NOT_PICKED = -1                     # 2v2 start, tournament pick: not made yet
TEAM = ((0, 1), (2, 3))             # 2v2: each team's two fighters (indexes into CFState.fs)
# CFState.last, the last resolved round: (result, dealt by p0, dealt by p1, cards p0 played,
# cards p1 played, signature combo's name or None); a seat's damage is at LAST_DEALT + seat, its
# cards at LAST_PLAYED + seat.
LAST_RESULT, LAST_DEALT, LAST_PLAYED, LAST_SIG = 0, 1, 3, 5
DISCARD_ANY = 99                    # the discard limit: any number of hand cards

TOP = ("top",)
STOP = ("stop",)
FLIP = ("flip",)
PASS = ("pass",)
KEEP = ("discard", ())
HIT_DECK = ("hit", ())
TAG_OUT = ("tag",)
STAY = ("stay",)
START_ACTS = [("start", 0), ("start", 1)]
PICK_ACTS = [("pick", 0), ("pick", 1)]
REACT_ACTS = [FLIP, PASS]
TAG_ACTS = [TAG_OUT, STAY]
SOLO_DRAW = 4                       # cards the solo AI draws when it wins a round
NO_CARDS: tuple = ()

# The rules keywords of game.yaml that this engine implements.
KEYWORDS = frozenset({"Opener", "Linked", "Quick", "Guard Break", "Recover", "Set Aside", "Flip",
                      "Foresee"})




class Side:
    """One Power Token side with card names resolved to indexes."""

    __slots__ = ("name", "x_mode", "x_val", "x_card", "speed", "prio", "opp_limit", "reveal_cost",
                 "aside_card", "aside_flip_at", "eor", "play_aside")

    def __init__(self, t: G.TokenSide, idx):
        self.name = t.name
        self.x_mode, self.x_val = t.x_mode, t.x_val
        self.x_card = idx.get(t.x_card, NO_CARD)
        self.speed = t.speed_bonus
        self.prio = tuple(t.prio)
        self.opp_limit = t.opp_hand_limit
        self.reveal_cost = t.reveal_cost
        self.aside_card = idx.get(t.aside_card, NO_CARD)
        self.aside_flip_at = t.aside_flip_at
        self.eor = tuple(t.eor)
        self.play_aside = idx.get(t.play_from_aside, NO_CARD)


class Char:
    """A character sheet: token sides, signature combos, solo rules, standard deck."""

    __slots__ = ("name", "sides", "sigs", "sig_by_cards", "sig_index", "solo", "starts_aside",
                 "solo_aside", "deck", "hand")


class Fighter:
    __slots__ = ("ch", "cards", "start_hand", "start_aside", "total", "checksum", "solo", "label",
                 "avg", "comp", "hand", "deck", "discard", "aside", "side", "stag", "used", "ko")

    def copy(self) -> Fighter:
        f = Fighter.__new__(Fighter)
        f.ch, f.cards, f.start_hand, f.start_aside = self.ch, self.cards, self.start_hand, self.start_aside
        f.total, f.checksum, f.solo, f.label = self.total, self.checksum, self.solo, self.label
        f.avg, f.comp = self.avg, self.comp
        f.hand = self.hand[:]
        f.deck = self.deck[:]
        f.discard = self.discard[:]
        f.aside = self.aside[:]
        f.side, f.stag, f.used, f.ko = self.side, self.stag, self.used, self.ko
        return f


class CFState:
    __slots__ = ("rng", "mode", "fs", "act", "phase", "cur", "choice", "played", "result", "dmg",
                 "take", "asked", "canreact", "fx", "rec_left", "rec_seat", "fore_n", "dseat",
                 "wins", "fights", "results", "win", "round", "fresh", "last", "sig", "starts",
                 "pool", "tp1", "tpicks", "late")

    def __init__(self):
        self.rng = None
        self.mode = STANDARD
        self.fs: list[Fighter] = []
        self.act = [0, 1]               # the fighter in the ring for each seat (index into fs)
        self.phase = CHOOSE
        self.cur = 0
        self.choice = [NO_CARD, NO_CARD]  # first card of the round, per seat
        self.played = [[], []]          # cards played this round, in order, per seat
        self.result = UNDECIDED         # TIE, UNDECIDED or the winning seat of the round
        self.dmg = [0, 0]               # damage each seat deals this round
        self.take = [0, 0]              # points each seat still has to take
        self.asked = [False, False]
        self.canreact = [False, False]
        self.fx: list = []              # pending effects: (seat, op, arg)
        self.rec_left = 0
        self.rec_seat = 0
        self.fore_n = 0
        self.dseat = 0
        self.wins = [0, 0]
        self.fights = 0
        self.results: list = []
        self.win = NOBODY
        self.round = 0
        self.fresh = False              # the last apply revealed the face-down cards
        self.last = (UNDECIDED, 0, 0, NO_CARDS, NO_CARDS, None)
        self.sig = NO_SIG                # the signature combo called this round (index into ch.sigs)
        self.starts = [NOT_PICKED, NOT_PICKED]     # 2v2: each team's fighter to start
        self.pool = None                # tournament: [[Fighter, Fighter], [Fighter, Fighter]]
        self.tp1 = 0
        self.tpicks = [NOT_PICKED, NOT_PICKED]     # tournament: each seat's fighter
        self.late = False               # the damage under way is the solo AI's leftovers' (end of round)

