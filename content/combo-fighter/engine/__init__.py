"""Combo Fighter: the reference engine (two fighters, decks that are also life bars).

The match, as the engine plays it (content/combo-fighter/game.yaml `tables` holds the numbers and
the rulings; card, token and solo texts are read by the grammar in combo_fighter_parts/grammar.py):

- A game is best of 3 fights (first to 2 fight wins); a drawn fight (both knocked out in the same
  round) counts for nobody, and if 3 fights leave the score level, extra fights are played until
  one player leads. At the start of every fight each fighter takes all 50 cards back, turns the
  Power Token to side A, sets aside what the token sets aside, takes the starting hand and
  shuffles the rest into the deck (top of the deck = end of the list).
- A round: player 0, then player 1 puts a card from hand face down (the second chooser's options
  never depend on the first's card). Reveal; the win circle decides: attack beats footwork,
  footwork beats defense, defense beats attack (Guard Break attacks beat defense without
  Priority); two attacks compare Speed (token bonus included; equal Speed: a lone Quick card
  wins, else tie); two defense or two footwork cards: a lone Priority card wins (token Priority
  included), else tie.
- Result window: a fighter whose token can be flipped after the reveal (Teodor's Banked Embers)
  is asked, the one who would lose first, then the other (in a tie seat 0 first); each at most once.
- The round's result is then final. First cards' X is worked out now. A tie: both first cards deal
  their opening damage, nobody combos. A win: the winner's first card deals opening damage, its
  Opener effects happen, and the winner may combo: each further card's button must be in the
  previous card's combo box; it deals combo damage (X worked out as it is played) and its Linked
  effects happen. The winner stops, or calls a signature combo when the cards played this round
  are exactly that combo (basic damage, or power damage while the token shows side B).
- Damage: the total is taken one point (one card) at a time from the hand or the top of the deck.
  The damaged player makes one choice per hit: which hand cards go; they go first, the rest comes
  off the deck (taking hand cards first is never worse: a deck emptied part-way through a hit
  knocks out on the next point). A deck that runs out (by drawing, damage or a cost) makes the
  fighter Staggering at once: the discard pile is shuffled into a new deck. A Staggering fighter,
  or one with no card in hand and deck, who must take a point is knocked out. In a tie, player 0
  takes their damage first, then player 1; both knocked out = a drawn fight.
- End of round: played cards go to the discard pile; each player (0, then 1) may discard any cards
  from hand, then refills to the hand limit (5; 4 against Noor's Meridian Lock); then end-of-round
  effects, the winner's first (in a tie seat 0 first).
- Solo mode (Setup.options ``solo: seat``): that seat is the AI fighter. It has no starting hand
  (its whole deck is shuffled), plays the top card of its deck (the engine does it), draws 4 when it
  wins a round and its bot plays the most damaging combo from them; cards it drew but did not play
  are discarded at the end of the round, 1 damage each. Sheet solo rules (start set aside, cards to
  the bottom of the deck) are engine rules; combo choices and the token flip are `bots()["solo"]`.
- 2 vs 2 (``mode: 2v2``, ``teams: [[deck, deck], [deck, deck]]``): the two players are the teams.
  At the start of each fight each team picks its fighter in the ring (team 0 first, team 1's
  options independent). When a team wins a round: at the end of the round its benched fighter may
  Recover 1, then the team may tag out. Benched fighters keep hand and token and take no damage.
  The first team to knock out an opposing fighter wins the fight; best of 3 fights.
- Tournament (``mode: tournament``, ``rosters: [[deck, deck], [deck, deck]]``, two different
  fighters each): the RNG picks Player 1; Player 1 picks which of Player 2's fighters to face, then
  Player 2 picks which of Player 1's; they keep them for the whole game (best of 3).

A deck is a Deck, a deck file path, a character name (its sheet's standard deck), or a mapping
``{name, character, cards: {card: copies}, starting_hand: [...]}``. `setups()` plays the given
decks (without any: the four sheets' standard decks, in name order) in every ordered pair of
different decks, both seatings (a single deck plays the mirror). Its variants (`cardgen simulate
--variant`, one at a time) build the other formats from the same decks: ``solo`` plays every such
pair twice, the solo AI in seat 1 then in seat 0 (Setup.bots seats the "solo" bot there; `--bots
solo` in a standard seat is refused, see check_bots); ``2v2`` and ``tournament`` make each side two
decks of different characters and meet every two sides with no deck in common, both seatings (four
decks at least; the four standard decks give 3 splits x 2 seatings).

Actions (tuples; a card is named by its name)::

    ("play", card)        choose a face-down card from hand; or play it as the next combo card
    ("top",)              (empty hand) play the top card of the deck face down
    ("aside", card)       play that card from set aside as the next combo card (Zenith)
    ("stop",)             end the combo;  ("call", combo) end it calling that signature combo
    ("flip",) / ("pass",) result window: pay the token's cost and Flip it, or not
    ("recover", card)     Recover: shuffle that card from the discard pile into the deck (2v2:
                          the benched teammate's; ("pass",) declines)
    ("order", (c1, ...))  Foresee: the looked-at cards, top first
    ("hit", (c1, ...))    take the damage owed: those hand cards first, the rest from the top of
                          the deck (("hit", ()) takes it all from the deck)
    ("discard", (c, ...)) end of round: discard those cards from hand, then refill (("discard", ())
                          discards nothing)
    ("tag",) / ("stay",)  2v2: tag out or not;  ("start", i) 2v2: fighter i of the team starts
    ("pick", i)           tournament: fight the opponent's fighter i

The card tuples of hit and discard list names in card order (the order of the engine's `names`),
repeats included. A decision with one possible answer (the solo AI's face-down card, damage with
an empty hand, a combo with no card that fits) is made by the engine and is not an action.

Scenario actions (`parse_action`): a string ``play Flick Kick``, ``hit deck``, ``hit Jab, Jab``,
``discard Guard Up``, ``keep`` (= discard nothing), ``order A, B, C``, ``call High Noon`` ...,
optionally prefixed by the seat that must be to move (``p1: keep``), or the tuple as a list.

Scenario setup (standard or solo; every key optional)::

    solo: 1                 # that seat is the solo AI
    wins: [0, 0]            # fights won so far
    fights: 0               # fights played so far (drawn ones included)
    p0:
      character: Amaya Sol  # default: Amaya Sol for p0, Oskar Brannvik for p1
      hand: [Card, ...]
      deck: [Card, ...]     # top card first
      discard: [Card, ...]
      aside: [Card, ...]
      side: A               # A | B
      staggering: false
      fill: false           # true: the rest of the sheet's 50 cards go under the listed deck
                            # (in sheet order), and the token's start cards aside if no aside
    p1: {...}
  The position is the start of a round (both players about to choose).

Observe (what `expect:` is compared against)::

    phase (pick|start|choose|react|recover|foresee|combo|damage|discard|assist|tag|over),
    to_move, over, winner (0 | 1, null while playing), wins [p0, p1], fights (results so far: 0, 1 or
    "draw"), round,
    result ("p0" | "p1" | "tie" | null: the round under way once revealed, else the last one),
    dealt [by p0, by p1] (damage of the last resolved round), signature (called last round or
    null), played [[names], [names]] (this round once revealed, else the last round),
    p0 / p1: {character, side (A|B), hand (sorted), hand_size, deck (top first), deck_size,
              discard (sorted), discard_size, aside (sorted), staggering, knocked_out,
              hand_limit, x (X of the next card this fighter plays this round)}
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from operator import eq
from pathlib import Path

from cardgen.engines.base import Engine, IllegalAction, RuleConflict, Setup, action_words
from cardgen.errors import ContentError, Issue

from . import grammar as G
from . import replay
from .solo import SoloBot

ATT, DEF, FOOT = 0, 1, 2
BEATS = (FOOT, ATT, DEF)          # attack beats footwork, defense attack, footwork defense
BUTTONS = ("triangle", "square", "circle")

(PICK, START, CHOOSE, REACT, RECOVER, FORESEE, COMBO, DAMAGE, DISCARD, ASSIST, TAG,
 OVER) = range(12)
PHASE_NAMES = ("pick", "start", "choose", "react", "recover", "foresee", "combo", "damage",
               "discard", "assist", "tag", "over")
STANDARD, TWO_VS_TWO, TOURNAMENT = 0, 1, 2
TIE, UNDECIDED = -1, -2

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
SOLO_DRAW = 4
NO_CARDS: tuple = ()

# The rules keywords of game.yaml that this engine implements.
KEYWORDS = frozenset({"Opener", "Linked", "Quick", "Guard Break", "Recover", "Set Aside", "Flip",
                      "Foresee"})


# By deck size, _shuffle's steps: (position, positions to draw from, their bit length), worked
# out once rather than per card of every shuffle (15% of a shuffle).
_SHUFFLE_STEPS: dict[int, tuple] = {}


def _shuffle(rng: random.Random, cards: list) -> None:
    """rng.shuffle(cards) with the very same draws (same order, same RNG state after), about
    twice as fast: without the method call per card of random.Random._randbelow (a shuffle of a
    45-card deck is a good part of a fight's cost). Another RNG class keeps its own shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    steps = _SHUFFLE_STEPS.get(len(cards))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(cards)] = tuple((i, i + 1, (i + 1).bit_length())
                                                   for i in range(len(cards) - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


class Side:
    """One Power Token side with card names resolved to indexes."""

    __slots__ = ("name", "x_mode", "x_val", "x_card", "speed", "prio", "opp_limit", "reveal_cost",
                 "aside_card", "aside_flip_at", "eor", "play_aside")

    def __init__(self, t: G.TokenSide, idx):
        self.name = t.name
        self.x_mode, self.x_val = t.x_mode, t.x_val
        self.x_card = idx.get(t.x_card, -1)
        self.speed = t.speed_bonus
        self.prio = tuple(t.prio)
        self.opp_limit = t.opp_hand_limit
        self.reveal_cost = t.reveal_cost
        self.aside_card = idx.get(t.aside_card, -1)
        self.aside_flip_at = t.aside_flip_at
        self.eor = tuple(t.eor)
        self.play_aside = idx.get(t.play_from_aside, -1)


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
                 "pool", "tp1", "tpicks")

    def __init__(self):
        self.rng = None
        self.mode = STANDARD
        self.fs: list[Fighter] = []
        self.act = [0, 1]               # the fighter in the ring for each seat (index into fs)
        self.phase = CHOOSE
        self.cur = 0
        self.choice = [-1, -1]          # first card of the round, per seat
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
        self.win = -1
        self.round = 0
        self.fresh = False              # the last apply revealed the face-down cards
        self.last = (UNDECIDED, 0, 0, NO_CARDS, NO_CARDS, None)
        self.sig = -1
        self.starts = [-1, -1]
        self.pool = None                # tournament: [[Fighter, Fighter], [Fighter, Fighter]]
        self.tp1 = 0
        self.tpicks = [-1, -1]


class ComboFighterEngine(Engine):
    game_id = "combo-fighter"
    max_actions = 5000
    keywords = KEYWORDS
    player_counts = (2,)
    variants = {
        "2v2": "2 vs 2: two teams of 2 fighters, tag outs, first KO wins the fight (needs 4 decks)",
        "tournament": "tournament games: rosters of 2 different fighters, each picks the foe (needs 4 decks)",
        "solo": "solo mode: one seat is the rulebook's solo AI (bot 'solo'), in both seats",
    }
    # more than 30 attributes: all in slots, one added in __init__ too (docs/engines.md says why)
    __slots__ = ("game", "hand_limit", "fights_to_win", "best_of", "_unsupported", "_hand_cache", "_by_cards",
                 "_cards_of", "_shapes", "_protos", "names", "kind", "ctype", "button", "cbox", "speed",
                 "prio", "quick", "gbreak", "owner", "od_c", "od_x", "cd_c", "cd_x", "opener", "linked",
                 "reminders", "follows", "PLAY", "ASIDE", "REC", "a_play", "a_aside", "a_rec", "value",
                 "chars", "CALL")

    def __init__(self, game):
        super().__init__(game)
        tables = game.tables or {}
        self.hand_limit = int(tables.get("hand_limit", 5))
        self.fights_to_win = int(tables.get("fights_to_win", 2))
        self.best_of = int(tables.get("best_of", 3))
        self._unsupported: dict[str, str] = {}
        self._hand_cache: dict = {}
        self._by_cards: dict = {}       # verb -> {card index tuple: the shared hit/discard action}
        self._cards_of: dict = {}       # a shared hit/discard action -> its card index tuple
        self._shapes: dict = {}
        self._protos: dict = {}
        self._build_cards(game)
        self._build_chars(game)
        self._check_reminders(game)

    # -- precomputed data -----------------------------------------------------------------------
    def _build_cards(self, game) -> None:
        actions = [c for c in game.cards.values() if c.type in G.TYPES]
        self.names = [c.name for c in actions]
        self.kind = {n: i for i, n in enumerate(self.names)}
        n = len(actions)
        self.ctype = [G.TYPE_INDEX[c.type] for c in actions]
        self.button = [BUTTONS.index(c.get("button", "triangle")) for c in actions]
        self.cbox = [sum(1 << BUTTONS.index(b) for b in (c.get("combo") or [])) for c in actions]
        self.speed = [int(c.get("speed", 0) or 0) for c in actions]
        self.prio = [bool(c.get("priority")) for c in actions]
        self.quick = [("Quick" in (c.get("keywords") or [])) for c in actions]
        self.gbreak = [("Guard Break" in (c.get("keywords") or [])) for c in actions]
        self.owner = [c.get("character") for c in actions]
        self.od_c, self.od_x, self.cd_c, self.cd_x = [0] * n, [0] * n, [0] * n, [0] * n
        self.opener: list[tuple] = [()] * n
        self.linked: list[tuple] = [()] * n
        self.reminders: list[list] = [[] for _ in range(n)]
        for i, c in enumerate(actions):
            for key, const, mult in (("opening_damage", self.od_c, self.od_x),
                                     ("combo_damage", self.cd_c, self.cd_x)):
                value = c.get(key, 0)
                if isinstance(value, int):
                    const[i] = value
                else:
                    text = str(value).strip()
                    if text.endswith("X") and (text[:-1] == "" or text[:-1].isdigit()):
                        mult[i] = int(text[:-1] or 1)
                    else:
                        self._unsupported[c.name] = f"{key} {value!r} is neither a number nor nX"
            rules = G.parse_card_text(c.get("text"))
            self.opener[i] = tuple(rules.opener)
            self.linked[i] = tuple(rules.linked)
            self.reminders[i] = rules.reminders
            if rules.problems:
                self._unsupported[c.name] = "; ".join(rules.problems)
        # follows[a][b]: card b's button is in card a's combo box (b can follow a in a combo);
        # one list index instead of a shift and a mask per card.
        self.follows = [tuple(bool(self.cbox[a] >> self.button[b] & 1) for b in range(n))
                        for a in range(n)]
        # Prebuilt actions, indexed by card.
        self.PLAY = [("play", x) for x in self.names]
        self.ASIDE = [("aside", x) for x in self.names]
        self.REC = [("recover", x) for x in self.names]
        self.a_play = {a: i for i, a in enumerate(self.PLAY)}
        self.a_aside = {a: i for i, a in enumerate(self.ASIDE)}
        self.a_rec = {a: i for i, a in enumerate(self.REC)}
        # Card values for the heuristic and the bots: damage, combo reach, Priority, Speed.
        self.value = [
            self.od_c[i] + self.od_x[i] * 1.5 + 0.5 * (self.cd_c[i] + self.cd_x[i] * 1.5)
            + 0.3 * bin(self.cbox[i]).count("1") + (0.5 if self.prio[i] else 0.0)
            + 0.08 * self.speed[i] + 0.6 * len(self.opener[i]) + 0.4 * len(self.linked[i])
            for i in range(n)]

    def _resolve(self, word: str) -> str | None:
        word = word.strip()
        for cand in (word, word[:-1] if word.endswith("s") else word,
                     word[:-2] if word.endswith("es") else word):
            if cand in self.kind:
                return cand
        return None

    def _build_chars(self, game) -> None:
        self.chars: dict[str, Char] = {}
        for card in game.cards.values():
            if card.type == "staggering":
                problems = G.parse_staggering(card.get("text", ""))
                if problems:
                    self._unsupported[card.name] = "; ".join(problems)
            if card.type != "character":
                continue
            problems: list[str] = []
            token = card.get("power_token") or {}
            sides = []
            for key in ("a", "b"):
                side, found = G.parse_token_side(str(token.get(f"{key}_name", key.upper())),
                                                 str(token.get(key, "")), self._resolve)
                sides.append(side)
                problems.extend(found)
            ch = Char()
            ch.name = card.name
            ch.sides = [Side(s, self.kind) for s in sides]
            field_aside = [str(x) for x in token.get("starts_set_aside") or []]
            text_aside = sides[0].starts_aside
            if field_aside and text_aside and sorted(field_aside) != sorted(text_aside):
                problems.append("starts_set_aside and side A's text name different cards")
            if sides[1].starts_aside:
                problems.append("only side A can set cards aside at the start of a fight")
            ch.starts_aside = tuple(self.kind[x] for x in (field_aside or text_aside) if x in self.kind)
            solo, found = G.parse_solo(str(card.get("solo", "")), self._resolve,
                                       (sides[0].name, sides[1].name))
            problems.extend(found)
            if solo.speed_flip and solo.speed_flip_cost != sides[0].reveal_cost:
                problems.append("solo: the flip cost differs from side A's")
            ch.solo = solo
            ch.solo_aside = tuple(self.kind[x] for x in solo.start_aside)
            sigs = []
            for combo in card.get("signature_combos") or []:
                names = [str(x) for x in combo.get("cards") or []]
                missing = [x for x in names if x not in self.kind]
                if missing:
                    problems.append(f"signature combo {combo.get('name')}: unknown {missing}")
                    continue
                sigs.append((str(combo.get("name")), tuple(self.kind[x] for x in names),
                             int(combo.get("basic_damage", 0)), int(combo.get("power_damage", 0) or 0)))
            ch.sigs = sigs
            ch.sig_by_cards = {}
            for i, sig in enumerate(sigs):
                ch.sig_by_cards.setdefault(sig[1], []).append(i)
            ch.sig_index = {sig[0]: i for i, sig in enumerate(sigs)}
            deck = card.get("deck") or {}
            ch.deck = {str(k): int(v) for k, v in deck.items()}
            ch.hand = [str(x) for x in card.get("starting_hand") or []]
            for i, c in enumerate(self.names):
                uses_x = self.od_x[i] or self.cd_x[i]
                if uses_x and self.owner[i] == card.name and any(s.x_mode == G.X_NONE for s in sides):
                    problems.append(f"{c} deals X but a token side does not say what X is")
            if problems:
                self._unsupported[card.name] = "; ".join(problems)
            self.chars[card.name] = ch
        self.CALL = {name: ("call", name) for ch in self.chars.values() for name in ch.sig_index}

    def _check_reminders(self, game) -> None:
        """Token reminders on action cards must agree with their owner's token; shared cards with
        X need every fighter's token to say what X is."""
        for i, name in enumerate(self.names):
            owner = self.chars.get(self.owner[i]) if self.owner[i] else None
            problems = []
            for kind, side in self.reminders[i]:
                if owner is None:
                    problems.append(f"{kind} reminder on a card with no fighter")
                elif kind == "starts_aside" and i not in owner.starts_aside:
                    problems.append(f"{owner.name}'s token does not set it aside")
                elif kind == "play_from_aside" and owner.sides[side].play_aside != i:
                    problems.append(f"{owner.name}'s side {'AB'[side]} does not play it from set aside")
                elif kind == "token_aside" and all(s.aside_card != i for s in owner.sides):
                    problems.append(f"{owner.name}'s token never sets it aside")
            if (owner is None and (self.od_x[i] or self.cd_x[i])
                    and any(s.x_mode == G.X_NONE for ch in self.chars.values() for s in ch.sides)):
                problems.append("a shared card with X needs every token side to define X")
            if problems:
                prior = self._unsupported.get(name)
                self._unsupported[name] = "; ".join(([prior] if prior else []) + problems)

    # -- setups ---------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        """The matchups: the given decks (or the four sheets' standard decks, by name) in every
        ordered pair of different decks (a single deck plays the mirror), or one match format:

        - ``2v2`` / ``tournament``: a side (team, roster) is two decks of different characters;
          every two sides with no deck in common meet, both seatings (so each four decks are split
          into two sides in all 3 ways). Four decks at least.
        - ``solo``: every ordered pair as above, once with the AI (bot "solo", Setup.bots) in
          seat 1 and once in seat 0; the AI's seat is named "<deck> (solo AI)".
        """
        self.check_match_options(players, variants)
        chosen = list(dict.fromkeys(variants))
        if len(chosen) > 1:
            raise ContentError([Issue(None, None, "--variant", f"{' and '.join(chosen)} cannot be "
                                      "combined: each is a match format of its own (pick one)")])
        fmt = chosen[0] if chosen else None
        specs = [self.deck_spec(d) for d in (decks or sorted(self.chars))]
        if fmt in ("2v2", "tournament"):
            return self._side_setups(specs, fmt)
        pairs = list(itertools.permutations(specs, 2)) or [(specs[0], specs[0])]
        if fmt == "solo":
            out = []
            for a, b in pairs:
                for ai in (1, 0):
                    seats = [a["name"], b["name"]]
                    seats[ai] += " (solo AI)"
                    out.append(Setup(label=f"{seats[0]} vs {seats[1]}", seats=seats,
                                     options={"decks": [a, b], "solo": ai}, cards=self._pool(a, b),
                                     bots={ai: "solo"}))
            return out
        return [Setup(label=f"{a['name']} vs {b['name']}", seats=[a["name"], b["name"]],
                      options={"decks": [a, b]}, cards=self._pool(a, b))
                for a, b in pairs]

    @staticmethod
    def _pool(*specs) -> frozenset:
        return frozenset(c for spec in specs for c in (*spec["cards"], *spec["starting_hand"]))

    def _side_setups(self, specs: list[dict], fmt: str) -> list[Setup]:
        """2 vs 2 teams or tournament rosters: two decks of different characters a side (the
        rulebook's "2 non-identical characters"; a 2v2 team likewise); sides with no deck in
        common meet, in both seatings."""
        what = "2v2 needs two teams" if fmt == "2v2" else "a tournament game needs two rosters"
        if len(specs) < 4:
            raise ContentError([Issue(None, None, "--decks", f"{what} of 2 fighters each: at least 4 decks "
                                      f"(4 different characters without --decks), got {len(specs)}")])
        sides = [(i, j) for i, j in itertools.combinations(range(len(specs)), 2)
                 if specs[i]["character"] != specs[j]["character"]]
        matches = [(p, q) for p in sides for q in sides if not set(p) & set(q)]
        if not matches:
            chars = sorted({s["character"] for s in specs})
            raise ContentError([Issue(None, None, "--decks", f"{what} of 2 different characters each, with "
                                      f"no deck on both sides: the decks name only {', '.join(chars)}")])
        key = "teams" if fmt == "2v2" else "rosters"
        out = []
        for p, q in matches:
            sides_ = [[specs[i] for i in p], [specs[i] for i in q]]
            seats = [" & ".join(d["name"] for d in side) for side in sides_]
            out.append(Setup(label=f"{seats[0]} vs {seats[1]} ({fmt})", seats=seats,
                             options={"mode": fmt, key: sides_}, cards=self._pool(*sides_[0], *sides_[1])))
        return out

    def check_bots(self, bot_names: list[str]) -> None:
        """For the CLI: refuse a --bots entry that only a setup may seat. The solo bot plays the
        solo AI's seat, whose rules (no starting hand, the top card played, 4 drawn on a win) the
        setup itself must set: `--variant solo` seats it (Setup.bots)."""
        if "solo" in bot_names:
            raise ContentError([Issue(None, None, "--bots", "the solo bot plays the solo AI's rules, which "
                                      "a standard seat does not follow: use --variant solo (the AI's seat "
                                      "gets the solo bot; --bots picks the other seat's)")])

    def deck_spec(self, deck) -> dict:
        """A plain-data deck: {name, character, cards: {card: copies}, starting_hand}."""
        if isinstance(deck, dict):
            if deck.get("character") not in self.chars:
                raise ContentError([Issue(None, None, "character", f"deck {deck.get('name')!r}: "
                                          f"{self._no_character(deck.get('character'))}")])
            ch = self.chars[deck["character"]]
            cards = dict(deck.get("cards") or ch.deck)
            return {"name": str(deck.get("name", ch.name)), "character": ch.name, "cards": cards,
                    "starting_hand": list(deck.get("starting_hand") or ch.hand)}
        if isinstance(deck, str) and deck in self.chars:
            ch = self.chars[deck]
            return {"name": ch.name, "character": ch.name, "cards": dict(ch.deck),
                    "starting_hand": list(ch.hand)}
        if isinstance(deck, (str, Path)):
            from cardgen.model import load_deck

            deck = load_deck(Path(deck))
        character = str(deck.fields.get("character"))
        if character not in self.chars:
            raise ContentError([Issue(deck.path, deck.line_of("character"), "character",
                                      self._no_character(deck.fields.get("character")))])
        cards: dict[str, int] = {}
        for entry, count in deck.counted_entries():
            if entry.card.type in G.TYPES:
                cards[entry.name] = cards.get(entry.name, 0) + count
        hand = deck.fields.get("starting_hand") or self.chars[character].hand
        return {"name": deck.name, "character": character, "cards": cards,
                "starting_hand": [str(x) for x in hand]}

    def _no_character(self, name) -> str:
        return f"{name!r} is no character of the game ({', '.join(sorted(self.chars))})"

    def _fighter(self, spec, solo: bool = False) -> Fighter:
        """A fighter for a deck; the static part is built once per deck and shared."""
        key = None
        if isinstance(spec, dict):
            key = (spec.get("name"), spec.get("character"), tuple((spec.get("cards") or {}).items()),
                   tuple(spec.get("starting_hand") or ()), solo)
        elif isinstance(spec, str):
            key = (spec, solo)
        proto = self._protos.get(key) if key is not None else None
        if proto is None:
            proto = self._build_fighter(spec, solo)
            if key is not None:
                self._protos[key] = proto
        return proto.copy()

    def _build_fighter(self, spec, solo: bool) -> Fighter:
        spec = self.deck_spec(spec)
        f = Fighter()
        f.ch = self.chars[spec["character"]]
        try:
            f.cards = tuple(self.kind[n] for n, k in spec["cards"].items() for _ in range(int(k)))
            f.start_hand = tuple(self.kind[n] for n in spec["starting_hand"])
        except KeyError as err:
            raise RuleConflict(f"{spec['name']}: no action card named {err.args[0]!r}") from None
        f.start_aside = f.ch.starts_aside + (f.ch.solo_aside if solo else ())
        if Counter(f.start_aside) + Counter(() if solo else f.start_hand) - Counter(f.cards):
            raise RuleConflict(f"{spec['name']}: the deck cannot supply its set-aside cards and "
                               "starting hand")
        f.total, f.checksum = len(f.cards), sum(f.cards)
        f.solo, f.label, f.avg = solo, spec["name"], self._avg(f.cards)
        f.comp = tuple(Counter(f.cards).items())
        f.hand, f.deck, f.discard, f.aside = [], list(f.cards), [], []
        f.side, f.stag, f.used, f.ko = 0, False, False, False
        return f

    # -- the match ------------------------------------------------------------------------------
    def initial_state(self, setup: Setup, rng: random.Random) -> CFState:
        opts = setup.options or {}
        s = CFState()
        s.rng = rng
        mode = str(opts.get("mode", "standard")).lower()
        if mode in ("2v2", "two_vs_two", "2 vs 2"):
            s.mode = TWO_VS_TWO
            teams = opts.get("teams")
            if not teams or len(teams) != 2 or any(len(t) != 2 for t in teams):
                raise ValueError("2v2 needs teams: [[deck, deck], [deck, deck]]")
            s.fs = [self._fighter(d) for team in teams for d in team]
            s.act = [0, 2]
            self._new_fight(s)
        elif mode == "tournament":
            s.mode = TOURNAMENT
            rosters = opts.get("rosters")
            if not rosters or len(rosters) != 2 or any(len(r) != 2 for r in rosters):
                raise ValueError("a tournament game needs rosters: [[deck, deck], [deck, deck]]")
            s.pool = [[self._fighter(d) for d in r] for r in rosters]
            for r in s.pool:
                if r[0].ch is r[1].ch:
                    raise RuleConflict("tournament rosters hold 2 different fighters each")
            s.tp1 = rng.randrange(2)
            s.phase, s.cur = PICK, s.tp1
        else:
            decks = opts.get("decks") or setup.seats
            solo = opts.get("solo")
            solo_seats = {solo} if isinstance(solo, int) and not isinstance(solo, bool) else set(
                solo or ())
            if len(decks) < 2 or solo_seats - {0, 1} or len(solo_seats) > 1:
                raise ValueError("two decks, and at most one solo AI seat (0 or 1)")
            s.fs = [self._fighter(d, seat in solo_seats) for seat, d in enumerate(decks[:2])]
            self._new_fight(s)
        return s

    def _reset(self, s: CFState, f: Fighter) -> None:
        cards = list(f.cards)
        aside = list(f.start_aside)
        for c in aside:
            cards.remove(c)
        hand = []
        if not f.solo:
            hand = list(f.start_hand)
            for c in hand:
                cards.remove(c)
        _shuffle(s.rng, cards)
        f.hand, f.deck, f.discard, f.aside = hand, cards, [], aside
        f.side, f.stag, f.used, f.ko = 0, False, False, False

    def _new_fight(self, s: CFState) -> None:
        for f in s.fs:
            self._reset(s, f)
        s.round = 0
        s.played = [[], []]
        s.choice = [-1, -1]
        if s.mode == TWO_VS_TWO:
            s.starts = [-1, -1]
            s.phase, s.cur = START, 0
            return
        self._begin_round(s)

    def _begin_round(self, s: CFState) -> None:
        s.round += 1
        s.choice = [-1, -1]
        s.played = [[], []]
        s.result = UNDECIDED
        s.dmg = [0, 0]
        s.sig = -1
        s.phase = CHOOSE
        self._next_chooser(s)

    def _next_chooser(self, s: CFState) -> None:
        for seat in (0, 1):
            if s.choice[seat] < 0:
                f = s.fs[s.act[seat]]
                if f.hand and not f.solo:
                    s.cur = seat
                    return
                if not (f.deck or f.discard):
                    f.ko = True                 # nothing left to play
                    self._end_fight(s)
                    return
                if not f.solo:
                    s.cur = seat                # an empty hand plays the top card ("top")
                    return
                self._play_top(s, seat)
        self._reveal(s)

    def _play_top(self, s: CFState, seat: int) -> None:
        f = s.fs[s.act[seat]]
        if not f.deck:
            self._deck_out(s, f)
        c = f.deck.pop()
        if not f.deck:
            self._deck_out(s, f)
        s.choice[seat] = c
        s.played[seat].append(c)

    def _deck_out(self, s: CFState, f: Fighter) -> None:
        """The deck ran out: Staggering, and the discard pile becomes the new deck."""
        f.stag = True
        if f.discard:
            f.deck = f.discard
            f.discard = []
            _shuffle(s.rng, f.deck)

    def _draw(self, s: CFState, f: Fighter) -> bool:
        deck = f.deck
        if not deck:
            if not f.discard:
                return False
            self._deck_out(s, f)
            deck = f.deck
        f.hand.append(deck.pop())
        if not deck:
            self._deck_out(s, f)
        return True

    def _x(self, f: Fighter, pos: int) -> int:
        side = f.ch.sides[f.side]
        m = side.x_mode
        if m == G.X_CONST:
            return side.x_val
        if m == G.X_BEFORE:
            return pos + side.x_val
        if m == G.X_ASIDE:
            return f.aside.count(side.x_card)
        return 0

    def _clash(self, c0: int, c1: int, s0: Side, s1: Side, extra0: int = 0, extra1: int = 0) -> int:
        """The win circle: 0 or 1 for the winning seat, TIE."""
        t0, t1 = self.ctype[c0], self.ctype[c1]
        if t0 == t1:
            if t0 == ATT:
                sp0 = self.speed[c0] + s0.speed + extra0
                sp1 = self.speed[c1] + s1.speed + extra1
                if sp0 != sp1:
                    return 0 if sp0 > sp1 else 1
                q0, q1 = self.quick[c0], self.quick[c1]
                if q0 != q1:
                    return 0 if q0 else 1
                return TIE
            p0 = self.prio[c0] or s0.prio[t0]
            p1 = self.prio[c1] or s1.prio[t1]
            if p0 != p1:
                return 0 if p0 else 1
            return TIE
        if t0 == ATT and t1 == DEF:
            return 0 if self.gbreak[c0] and not (self.prio[c1] or s1.prio[DEF]) else 1
        if t1 == ATT and t0 == DEF:
            return 1 if self.gbreak[c1] and not (self.prio[c0] or s0.prio[DEF]) else 0
        return 0 if BEATS[t0] == t1 else 1

    def _compare(self, s: CFState) -> int:
        f0, f1 = s.fs[s.act[0]], s.fs[s.act[1]]
        return self._clash(s.choice[0], s.choice[1], f0.ch.sides[f0.side], f1.ch.sides[f1.side])

    def _reveal(self, s: CFState) -> None:
        """The face-down cards are revealed: the win circle, then the result window for each
        fighter that can pay its token's reveal cost (done in place: once a round)."""
        s.fresh = True
        f0, f1 = s.fs[s.act[0]], s.fs[s.act[1]]
        side0, side1 = f0.ch.sides[f0.side], f1.ch.sides[f1.side]
        s.result = self._clash(s.choice[0], s.choice[1], side0, side1)
        cost0, cost1 = side0.reveal_cost, side1.reveal_cost
        r0 = cost0 >= 0 and len(f0.deck) >= cost0
        r1 = cost1 >= 0 and len(f1.deck) >= cost1
        if r0 or r1:
            s.canreact = [r0, r1]
            s.asked = [False, False]
            self._react_next(s)
        else:
            self._settle(s)

    def _react_next(self, s: CFState) -> None:
        r = s.result
        first = 1 - r if r >= 0 else 0
        for seat in (first, 1 - first):
            if s.canreact[seat] and not s.asked[seat]:
                s.phase, s.cur = REACT, seat
                return
        self._settle(s)

    def _open_dmg(self, s: CFState, seat: int) -> int:
        c = s.choice[seat]
        x = self.od_x[c]
        return self.od_c[c] + (x * self._x(s.fs[s.act[seat]], 0) if x else 0)

    def _settle(self, s: CFState) -> None:
        """The round's result is final: opening damage, Opener effects, then the combo."""
        r = s.result
        if r == TIE:
            s.dmg[0] = self._open_dmg(s, 0)
            s.dmg[1] = self._open_dmg(s, 1)
            self._deal(s)
            return
        s.dmg[r] = self._open_dmg(s, r)
        f = s.fs[s.act[r]]
        if f.solo:
            for _ in range(SOLO_DRAW):
                if not self._draw(s, f):
                    break
        op = self.opener[s.choice[r]]
        if op:
            s.fx = [(r, o, a) for o, a in op]
            self._run_fx(s)
        else:
            self._combo(s)

    def _run_fx(self, s: CFState) -> None:
        fx = s.fx
        while fx:
            seat, op, arg = fx.pop(0)
            f = s.fs[s.act[seat]]
            if op == G.DRAW:
                for _ in range(arg):
                    if not self._draw(s, f):
                        break
            elif op == G.FLIP_IF:
                if f.side == arg:
                    f.side ^= 1
            elif op == G.RECOVER:
                n = min(arg, len(f.discard))
                if n:
                    s.rec_left, s.rec_seat = n, seat
                    s.phase, s.cur = RECOVER, seat
                    return
            elif op == G.FORESEE:
                n = min(arg, len(f.deck))
                if n > 1:
                    s.fore_n = n
                    s.phase, s.cur = FORESEE, seat
                    return
        self._combo(s)

    def _combo(self, s: CFState) -> None:
        """The winner combos on while a card of the hand (or the token's set-aside card) fits the
        last card's combo box or the cards played are a signature combo; else the round ends."""
        w = s.result
        if w < 0:
            self._deal(s)
            return
        f = s.fs[s.act[w]]
        pl = s.played[w]
        fits = self.follows[pl[-1]]
        for c in f.hand:
            if fits[c]:
                s.phase, s.cur = COMBO, w
                return
        pa = f.ch.sides[f.side].play_aside
        if ((pa >= 0 and not f.used and fits[pa] and pa in f.aside)
                or (len(pl) >= 2 and tuple(pl) in f.ch.sig_by_cards)):
            s.phase, s.cur = COMBO, w
        else:
            self._finish(s, -1)

    def _finish(self, s: CFState, sig: int) -> None:
        w = s.result
        if sig >= 0:
            f = s.fs[s.act[w]]
            _name, _cards, basic, power = f.ch.sigs[sig]
            s.dmg[w] = power if f.side == 1 and power else basic
            s.sig = sig
        self._deal(s)

    def _deal(self, s: CFState) -> None:
        r = s.result
        d0 = s.dmg[0] if s.dmg[0] > 0 else 0
        d1 = s.dmg[1] if s.dmg[1] > 0 else 0
        if r == TIE:
            s.take = [d1, d0]
        elif r == 0:
            d1 = 0
            s.take = [0, d0]
        else:
            d0 = 0
            s.take = [d1, 0]
        sig = None
        if s.sig >= 0:
            sig = s.fs[s.act[r]].ch.sigs[s.sig][0]
        s.last = (r, d0, d1, tuple(s.played[0]), tuple(s.played[1]), sig)
        self._damage(s)

    def _damage(self, s: CFState) -> None:
        take = s.take
        for seat in (0, 1):
            t = take[seat]
            if not t:
                continue
            f = s.fs[s.act[seat]]
            while t:
                if f.stag or not (f.hand or f.deck):
                    f.ko = True
                    break
                if f.hand and not f.solo:
                    take[seat] = t
                    s.phase, s.cur = DAMAGE, seat
                    return
                f.discard.append(f.deck.pop())
                t -= 1
                if not f.deck:
                    self._deck_out(s, f)
            take[seat] = 0
        if s.fs[s.act[0]].ko or s.fs[s.act[1]].ko:
            self._end_fight(s)
        else:
            self._end_round(s)

    def _end_round(self, s: CFState) -> None:
        r = s.result
        ko = False
        for seat in (0, 1):
            f = s.fs[s.act[seat]]
            f.discard.extend(s.played[seat])
            if f.solo and f.hand:
                bottom = f.ch.solo.bottom_type if r == seat else -1
                for c in f.hand:
                    if self.ctype[c] == bottom:
                        f.deck.insert(0, c)
                    else:
                        if f.stag:
                            f.ko = ko = True
                        f.discard.append(c)
                f.hand = []
        s.played = [[], []]
        if ko:
            self._end_fight(s)
            return
        s.dseat = 0
        self._discard_next(s)

    def _discard_next(self, s: CFState) -> None:
        while s.dseat < 2:
            seat = s.dseat
            f = s.fs[s.act[seat]]
            if not f.solo:
                if f.hand:
                    s.phase, s.cur = DISCARD, seat
                    return
                self._refill(s, seat)
            s.dseat += 1
        self._eor(s)

    def _limit(self, s: CFState, seat: int) -> int:
        o = s.fs[s.act[1 - seat]]
        lim = o.ch.sides[o.side].opp_limit
        return lim if 0 < lim < self.hand_limit else self.hand_limit

    def _refill(self, s: CFState, seat: int) -> None:
        f = s.fs[s.act[seat]]
        need = self._limit(s, seat) - len(f.hand)
        if need <= 0:
            return
        deck = f.deck
        if len(deck) > need:                # the common case: no Staggering on the way
            f.hand.extend(deck[:-need - 1:-1])
            del deck[-need:]
            return
        while need > 0 and self._draw(s, f):
            need -= 1

    def _eor(self, s: CFState) -> None:
        """End-of-round effects, the winner's first; then 2v2's assist and tag; next round."""
        r = s.result
        first = r if r >= 0 else 0
        for seat in (first, 1 - first):
            f = s.fs[s.act[seat]]
            side = f.ch.sides[f.side]
            if not side.eor and side.aside_card < 0:
                continue
            won, flip = r == seat, False
            ac = side.aside_card
            if ac >= 0 and won and ac in s.last[3 + seat]:
                if ac in f.discard:
                    f.discard.remove(ac)
                    f.aside.append(ac)
                elif ac in f.deck:
                    f.deck.remove(ac)
                    f.aside.append(ac)
                    if not f.deck:
                        self._deck_out(s, f)
                if side.aside_flip_at and f.aside.count(ac) >= side.aside_flip_at:
                    flip = True
            for cond, arg in side.eor:
                if (cond == G.EOR_ALWAYS or (cond == G.EOR_WON and won)
                        or (cond == G.EOR_LOST and r == 1 - seat)
                        or (cond == G.EOR_WON_FIRST and won and self.ctype[s.choice[seat]] == arg)
                        or (cond == G.EOR_DECK_LE and len(f.deck) <= arg)):
                    flip = True
            if flip:
                f.side ^= 1
        if s.mode == TWO_VS_TWO and r >= 0:
            if s.fs[self._bench(s, r)].discard:
                s.phase, s.cur = ASSIST, r
            else:
                s.phase, s.cur = TAG, r
            return
        self._begin_round(s)

    @staticmethod
    def _bench(s: CFState, team: int) -> int:
        return 4 * team + 1 - s.act[team]

    def _end_fight(self, s: CFState) -> None:
        k0, k1 = s.fs[s.act[0]].ko, s.fs[s.act[1]].ko
        res = TIE if k0 and k1 else (1 if k0 else 0)
        s.results.append(res)
        if res >= 0:
            s.wins[res] += 1
        s.fights += 1
        w0, w1 = s.wins
        need = self.fights_to_win
        if w0 >= need or w1 >= need or (s.fights >= self.best_of and w0 != w1):
            s.win = 0 if w0 > w1 else 1
            s.phase, s.cur = OVER, -1
            return
        self._new_fight(s)

    # -- the contract ---------------------------------------------------------------------------
    def current_player(self, state: CFState) -> int:
        return state.cur

    def is_over(self, state: CFState) -> bool:
        return state.phase == OVER

    def winner(self, state: CFState) -> int | None:
        return state.win if state.phase == OVER else None

    def legal_actions(self, s: CFState) -> list:
        ph = s.phase
        if ph == CHOOSE:
            hand = s.fs[s.act[s.cur]].hand
            if hand:
                return list(map(self.PLAY.__getitem__, dict.fromkeys(hand)))
            return [TOP]
        if ph == DISCARD:
            return self._hand_actions("discard", s.fs[s.act[s.cur]].hand, 99)
        if ph == COMBO:
            return self._combo_actions(s)
        if ph == DAMAGE:
            return self._hand_actions("hit", s.fs[s.act[s.cur]].hand, s.take[s.cur])
        if ph == REACT:
            return list(REACT_ACTS)
        if ph == RECOVER:
            rec = self.REC
            return [rec[c] for c in dict.fromkeys(s.fs[s.act[s.rec_seat]].discard)]
        if ph == FORESEE:
            return self._orders(s)
        if ph == ASSIST:
            rec = self.REC
            acts = [rec[c] for c in dict.fromkeys(s.fs[self._bench(s, s.cur)].discard)]
            acts.append(PASS)
            return acts
        if ph == TAG:
            return list(TAG_ACTS)
        if ph == START:
            return list(START_ACTS)
        if ph == PICK:
            return list(PICK_ACTS)
        return []

    def _hand_actions(self, verb: str, hand: list, limit: int) -> list:
        """(verb, cards) for every sub-multiset of the hand of at most `limit` cards (the empty
        one first, names in card order); cached by hand (hands repeat a lot; the cache is
        bounded). An action tuple is made once per card multiset and shared between hands."""
        n = len(hand)
        key = (verb, tuple(sorted(hand)), limit if limit < n else n)
        acts = self._hand_cache.get(key)
        if acts is None:
            cards_of = self._cards_of
            if len(self._hand_cache) >= 60000 or len(cards_of) >= 200000:
                self._hand_cache.clear()
                cards_of.clear()
                self._by_cards.clear()
            by_cards = self._by_cards.setdefault(verb, {})
            names = self.names.__getitem__
            acts = []
            for cards in self._subsets(key[1], key[2]):
                a = by_cards.get(cards)
                if a is None:
                    a = by_cards[cards] = (verb, tuple(map(names, cards)))
                    cards_of[a] = cards
                acts.append(a)
            self._hand_cache[key] = acts
        return acts[:]

    def _subsets(self, ordered: tuple, limit: int) -> list:
        """The sub-multisets of a sorted hand (card indexes) with at most `limit` cards, as sorted
        card index tuples. Each answer's pattern (positions in the sorted hand) depends only on
        which neighbours are equal and on the limit, and is cached by that."""
        same = tuple(map(eq, ordered, ordered[1:]))
        patterns = self._shapes.get((same, limit))
        if patterns is None:
            counts = [1] if ordered else []
            for dup in same:
                if dup:
                    counts[-1] += 1
                else:
                    counts.append(1)
            patterns = [()]
            first = 0                       # position of the current card's first copy
            for m in counts:
                patterns = [p + tuple(range(first, first + k)) for p in patterns
                            for k in range(min(m, limit - len(p)) + 1)]
                first += m
            self._shapes[(same, limit)] = patterns
        take = ordered.__getitem__
        return [tuple(map(take, p)) for p in patterns]

    def _take_from_hand(self, f: Fighter, action, verb: str, limit: int):
        """The hand cards an action names (checked against the hand), as indexes; taken out of
        the hand. An action of a cached legal list already knows its card indexes."""
        try:
            taken = self._cards_of.get(action)
        except TypeError:                   # unhashable: the full check below refuses it
            taken = None
        if taken is not None and action[0] == verb and len(action[1]) <= limit:
            if taken:
                hand = f.hand[:]
                try:
                    for c in taken:
                        hand.remove(c)
                except ValueError:
                    raise IllegalAction(f"{action!r}: not cards of the hand") from None
                f.hand = hand
            return taken
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == verb
                and isinstance(action[1], tuple) and len(action[1]) <= limit):
            raise IllegalAction(f"{action!r}: expected ({verb!r}, (cards...)), at most {limit}")
        if not action[1]:
            return []
        hand = f.hand[:]
        kind = self.kind
        taken = []
        try:
            for n in action[1]:
                c = kind[n]
                hand.remove(c)
                taken.append(c)
        except (KeyError, ValueError, TypeError):
            raise IllegalAction(f"{action!r}: not cards of the hand") from None
        f.hand = hand
        return taken

    def _combo_actions(self, s: CFState) -> list:
        w = s.cur
        f = s.fs[s.act[w]]
        pl = s.played[w]
        fits = self.follows[pl[-1]]
        play = self.PLAY
        acts = [play[c] for c in dict.fromkeys(f.hand) if fits[c]]
        pa = f.ch.sides[f.side].play_aside
        if pa >= 0 and not f.used and fits[pa] and pa in f.aside:
            acts.append(self.ASIDE[pa])
        acts.append(STOP)
        if len(pl) >= 2:
            sigs = f.ch.sig_by_cards.get(tuple(pl))
            if sigs:
                acts.extend(self.CALL[f.ch.sigs[i][0]] for i in sigs)
        return acts

    def _orders(self, s: CFState) -> list:
        f = s.fs[s.act[s.cur]]
        n = s.fore_n
        top = [self.names[c] for c in reversed(f.deck[-n:])]
        return [("order", p) for p in dict.fromkeys(itertools.permutations(top))]

    def apply_chosen(self, s: CFState, action) -> CFState:
        s.fresh = False
        ph = s.phase
        if ph == CHOOSE:
            seat = s.cur
            f = s.fs[s.act[seat]]
            if action == TOP and not f.hand:
                if not (f.deck or f.discard):
                    raise IllegalAction("no card left to play")
                self._play_top(s, seat)
            else:
                try:
                    c = self.a_play[action]
                    f.hand.remove(c)
                except (KeyError, ValueError, TypeError):
                    raise IllegalAction(f"{action!r}: not a card in hand") from None
                s.choice[seat] = c
                s.played[seat].append(c)
            self._next_chooser(s)
        elif ph == DISCARD:
            seat = s.cur
            f = s.fs[s.act[seat]]
            f.discard.extend(self._take_from_hand(f, action, "discard", 99))
            self._refill(s, seat)
            s.dseat += 1
            self._discard_next(s)
        elif ph == COMBO:
            self._apply_combo(s, action)
        elif ph == DAMAGE:
            seat = s.cur
            f = s.fs[s.act[seat]]
            t = s.take[seat]
            taken = self._take_from_hand(f, action, "hit", t)
            f.discard.extend(taken)
            t -= len(taken)
            while t:                        # the rest from the top of the deck
                if f.stag or not f.deck:
                    f.ko = True
                    break
                f.discard.append(f.deck.pop())
                t -= 1
                if not f.deck:
                    self._deck_out(s, f)
            s.take[seat] = 0
            self._damage(s)
        elif ph == REACT:
            self._apply_react(s, action)
        elif ph == RECOVER:
            f = s.fs[s.act[s.rec_seat]]
            c = self.a_rec.get(action)
            if c is None or c not in f.discard:
                raise IllegalAction(f"{action!r}: not a card in the discard pile")
            f.discard.remove(c)
            f.deck.append(c)
            s.rec_left -= 1
            if s.rec_left <= 0 or not f.discard:
                _shuffle(s.rng, f.deck)
                self._run_fx(s)
        elif ph == FORESEE:
            if action not in self._orders(s):
                raise IllegalAction(f"{action!r}: not an order of the top cards")
            f = s.fs[s.act[s.cur]]
            n = s.fore_n
            f.deck[-n:] = [self.kind[x] for x in reversed(action[1])]
            self._run_fx(s)
        elif ph == ASSIST:
            team = s.cur
            if action != PASS:
                b = s.fs[self._bench(s, team)]
                c = self.a_rec.get(action)
                if c is None or c not in b.discard:
                    raise IllegalAction(f"{action!r}: not in the teammate's discard pile")
                b.discard.remove(c)
                b.deck.append(c)
                _shuffle(s.rng, b.deck)
            s.phase = TAG
        elif ph == TAG:
            if action == TAG_OUT:
                s.act[s.cur] = self._bench(s, s.cur)
            elif action != STAY:
                raise IllegalAction(f"{action!r}: tag or stay")
            self._begin_round(s)
        elif ph == START:
            if action not in START_ACTS:
                raise IllegalAction(f"{action!r}: start 0 or start 1")
            s.starts[s.cur] = action[1]
            if s.cur == 0:
                s.cur = 1
            else:
                s.act = [s.starts[0], 2 + s.starts[1]]
                self._begin_round(s)
        elif ph == PICK:
            if action not in PICK_ACTS:
                raise IllegalAction(f"{action!r}: pick 0 or pick 1")
            s.tpicks[1 - s.cur] = action[1]
            if s.cur == s.tp1:
                s.cur = 1 - s.tp1
            else:
                s.fs = [s.pool[0][s.tpicks[0]], s.pool[1][s.tpicks[1]]]
                self._new_fight(s)
        else:
            raise IllegalAction("the match is over")
        return s

    def _apply_combo(self, s: CFState, action) -> None:
        w = s.cur
        f = s.fs[s.act[w]]
        pl = s.played[w]
        if action == STOP:
            self._finish(s, -1)
            return
        kind = action[0] if isinstance(action, tuple) and action else None
        if kind == "call":
            i = f.ch.sig_index.get(action[1], -1)
            if i < 0 or f.ch.sigs[i][1] != tuple(pl):
                raise IllegalAction(f"{action!r}: the cards played are not that signature combo")
            self._finish(s, i)
            return
        if kind == "play":
            c = self.a_play.get(action)
            if c is None or c not in f.hand:
                raise IllegalAction(f"{action!r}: not a card in hand")
            if not self.cbox[pl[-1]] >> self.button[c] & 1:
                raise IllegalAction(f"{action!r}: its button is not in the combo box")
            f.hand.remove(c)
        elif kind == "aside":
            c = self.a_aside.get(action, -1)
            if (c < 0 or c != f.ch.sides[f.side].play_aside or f.used or c not in f.aside
                    or not self.cbox[pl[-1]] >> self.button[c] & 1):
                raise IllegalAction(f"{action!r}: cannot be played from set aside now")
            f.aside.remove(c)
            f.used = True
        else:
            raise IllegalAction(f"{action!r}: play, aside, stop or call")
        x = self.cd_x[c]
        s.dmg[w] += self.cd_c[c] + (x * self._x(f, len(pl)) if x else 0)
        pl.append(c)
        lk = self.linked[c]
        if lk:
            s.fx = [(w, o, a) for o, a in lk]
            self._run_fx(s)
        else:
            self._combo(s)

    def _apply_react(self, s: CFState, action) -> None:
        seat = s.cur
        s.asked[seat] = True
        if action == FLIP:
            f = s.fs[s.act[seat]]
            cost = f.ch.sides[f.side].reveal_cost
            if cost < 0 or len(f.deck) < cost:
                raise IllegalAction("the token cannot be flipped now")
            for _ in range(cost):
                f.discard.append(f.deck.pop())
                if not f.deck:
                    self._deck_out(s, f)
            f.side ^= 1
            s.result = self._compare(s)
        elif action != PASS:
            raise IllegalAction(f"{action!r}: flip or pass")
        self._react_next(s)

    def clone(self, s: CFState) -> CFState:
        c = CFState.__new__(CFState)
        rng = random.Random.__new__(random.Random)
        rng.setstate(s.rng.getstate())
        c.rng = rng
        c.mode = s.mode
        c.fs = [f.copy() for f in s.fs]
        if s.pool is not None:
            # Tournament: the chosen fighters are pool members; keep them the same objects.
            pool = [[f.copy() for f in r] for r in s.pool]
            if s.fs:
                c.fs = [pool[0][s.tpicks[0]], pool[1][s.tpicks[1]]]
            c.pool = pool
        else:
            c.pool = None
        c.act = s.act[:]
        c.phase, c.cur = s.phase, s.cur
        c.choice = s.choice[:]
        c.played = [s.played[0][:], s.played[1][:]]
        c.result = s.result
        c.dmg = s.dmg[:]
        c.take = s.take[:]
        c.asked = s.asked[:]
        c.canreact = s.canreact[:]
        c.fx = s.fx[:]
        c.rec_left, c.rec_seat, c.fore_n, c.dseat = s.rec_left, s.rec_seat, s.fore_n, s.dseat
        c.wins = s.wins[:]
        c.fights = s.fights
        c.results = s.results[:]
        c.win, c.round, c.fresh, c.last, c.sig = s.win, s.round, s.fresh, s.last, s.sig
        c.starts = s.starts[:]
        c.tp1 = s.tp1
        c.tpicks = s.tpicks[:]
        return c

    # -- checking -------------------------------------------------------------------------------
    def invariants(self, s: CFState) -> list[str]:
        """Cheap on most steps (the two fighters in the ring: card count, an empty deck only while
        Staggering); every fighter's cards by checksum, and the match counters, once a round when
        the face-down cards are chosen. Messages are worked out only when something is off."""
        ph = s.phase
        fs = s.fs
        if fs and ph != CHOOSE and ph != OVER:
            played = s.played
            f = fs[s.act[0]]
            d = f.deck
            if (len(f.hand) + len(d) + len(f.discard) + len(f.aside) + len(played[0]) != f.total
                    or not (d or f.stag)):
                return self._explain(s)
            f = fs[s.act[1]]
            d = f.deck
            if (len(f.hand) + len(d) + len(f.discard) + len(f.aside) + len(played[1]) != f.total
                    or not (d or f.stag)):
                return self._explain(s)
            return []
        ok = True
        over = ph == OVER
        if fs:
            a0, a1 = s.act
            played = s.played
            for i, f in enumerate(fs):
                h, d, x, a = f.hand, f.deck, f.discard, f.aside
                n = len(h) + len(d) + len(x) + len(a)
                t = sum(h) + sum(d) + sum(x) + sum(a)
                if i == a0:
                    n += len(played[0])
                    t += sum(played[0])
                elif i == a1:
                    n += len(played[1])
                    t += sum(played[1])
                if (n != f.total or t != f.checksum or (not d and not f.stag and not over)
                        or len(h) > 11 or (f.ko and not over)):
                    ok = False
        w0, w1 = s.wins
        if over:
            ok = ok and s.cur == -1 and s.win in (0, 1) and s.wins[s.win] > s.wins[1 - s.win]
        else:
            ok = (ok and w0 < self.fights_to_win and w1 < self.fights_to_win and 0 <= s.cur <= 1
                  and s.take[0] >= 0 and s.take[1] >= 0
                  and not (ph == CHOOSE and s.choice[s.cur] >= 0))
        if ok and len(s.results) == s.fights:
            return []
        return self._explain(s)

    def _explain(self, s: CFState) -> list[str]:
        out = []
        fs = s.fs
        inring = {s.act[0]: 0, s.act[1]: 1} if fs else {}
        for i, f in enumerate(fs):
            n = len(f.hand) + len(f.deck) + len(f.discard) + len(f.aside)
            total = sum(f.hand) + sum(f.deck) + sum(f.discard) + sum(f.aside)
            seat = inring.get(i)
            if seat is not None:
                n += len(s.played[seat])
                total += sum(s.played[seat])
            if n != f.total or total != f.checksum:
                out.append(f"{f.label}: {n} cards across zones, the deck has {f.total} "
                           "(cards created or lost)")
            if not f.deck and not f.stag and s.phase != OVER:
                out.append(f"{f.label}: an empty deck without Staggering")
            if len(f.hand) > 11:
                out.append(f"{f.label}: {len(f.hand)} cards in hand")
            if f.ko and s.phase not in (OVER, DAMAGE):   # (a tie's other damage still pending)
                out.append(f"{f.label}: knocked out while the fight goes on")
        w0, w1 = s.wins
        need = self.fights_to_win
        if s.phase == OVER:
            if s.win not in (0, 1) or s.wins[s.win] <= s.wins[1 - s.win]:
                out.append(f"winner {s.win} does not match fight wins {s.wins}")
            if s.cur != -1:
                out.append("a player to move after the end")
        else:
            if w0 >= need or w1 >= need:
                out.append(f"fight wins {s.wins} but the match goes on")
            if s.cur not in (0, 1):
                out.append(f"player to move {s.cur}")
            if min(s.take) < 0:
                out.append(f"damage still to take {s.take}")
            if s.phase == CHOOSE and s.choice[s.cur] >= 0:
                out.append("asked to choose a second face-down card")
        if len(s.results) != s.fights or w0 + w1 + s.results.count(TIE) != s.fights:
            out.append(f"{s.fights} fights but results {s.results}")
        return out

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self._unsupported)

    # -- reporting ------------------------------------------------------------------------------
    def describe(self, s: CFState, action) -> str:
        """The move in words (the replay prints who moves in front of it)."""
        p = s.cur
        verb = action[0] if isinstance(action, tuple) and action else str(action)
        arg = action[1] if isinstance(action, tuple) and len(action) > 1 else None
        if verb == "play":
            return f"plays {arg} face down" if s.phase == CHOOSE else f"combos into {arg}"
        if verb == "top":
            return "plays the top card of the deck face down"
        if verb == "aside":
            return f"combos into {arg} from set aside"
        if verb == "stop":
            return f"ends the combo: {s.dmg[p]} damage"
        if verb == "call":
            return f"calls the signature combo {arg}!"
        if verb == "flip":
            return "pays the cost and flips the Power Token"
        if verb == "pass":
            return "passes"
        if verb == "recover":
            whose = "the benched teammate's" if s.phase == ASSIST else "the"
            return f"shuffles {arg} from {whose} discard pile into the deck"
        if verb == "order":
            return f"puts the top cards back as {', '.join(arg)} (top first)"
        if verb == "hit":
            n = s.take[p] if 0 <= p < 2 else 0
            cards = f"{', '.join(arg)} from hand, " if arg else ""
            return f"takes {n} damage: {cards}{n - len(arg)} from the top of the deck"
        if verb == "discard":
            return f"discards {', '.join(arg)} and refills" if arg else "refills"
        if verb == "tag":
            return "tags out"
        if verb == "stay":
            return "stays in the ring"
        if verb == "start":
            return "picks the team's fighter for the ring (face down)"
        if verb == "pick":
            return f"picks the opponent's fighter {arg + 1}"
        return repr(action)

    def describe_outcome(self, before: CFState, after: CFState, action) -> str:
        """In words for `cardgen replay`: see combo_fighter_parts/replay.py."""
        return replay.describe_outcome(self, before, after, action)

    def card_of(self, s: CFState, action) -> str | None:
        if isinstance(action, tuple) and action:
            if action[0] in ("play", "aside"):
                return action[1]
            if action == TOP and s.fs:
                deck = s.fs[s.act[s.cur]].deck
                return self.names[deck[-1]] if deck else None
        return None

    # -- bots -----------------------------------------------------------------------------------
    def bots(self) -> dict:
        return {"solo": SoloBot}

    def _hp(self, f: Fighter) -> float:
        return -3.0 if f.stag else float(len(f.hand) + len(f.deck))

    def heuristic(self, s: CFState, player: int) -> float:
        """Fight wins, cards left to lose, the round under way and the hand's quality.

        Reads no hidden card: while the face-down cards are chosen (and on the state right after
        the reveal, which a one-ply lookahead of the second chooser would otherwise peek at) it
        values only the player's own card against the opponent's whole deck list."""
        if s.phase == OVER:
            return 1000.0 if s.win == player else -1000.0
        if s.fresh or (s.phase == CHOOSE and s.choice[player] >= 0):
            return self._choice_value(s, player)
        if not s.fs:
            return 0.0
        o = 1 - player
        fp, fo = s.fs[s.act[player]], s.fs[s.act[o]]
        v = 40.0 * (s.wins[player] - s.wins[o]) + self._hp(fp) - self._hp(fo)
        ph = s.phase
        r = s.result
        if ph in (COMBO, RECOVER, FORESEE):
            if r == player:
                v += s.dmg[player] + 0.5 * self._follow_ups(s, player)
            elif r == o:
                v -= s.dmg[o] + 1.5
        elif ph == REACT:
            v += 2.0 if r == player else -2.0 if r == o else 0.0
        elif ph == DAMAGE:
            v += s.take[o] - s.take[player]
        value = self.value
        avg = fp.avg
        v += 0.1 * sum(value[c] - avg for c in fp.hand)
        side = fp.ch.sides[fp.side]
        if side.x_mode == G.X_ASIDE:
            v += 0.8 * fp.aside.count(side.x_card)
        v += 0.5 * fp.side - 0.5 * fo.side
        return v

    def _avg(self, cards) -> float:
        value = self.value
        return sum(value[c] for c in cards) / max(1, len(cards))

    def _follow_ups(self, s: CFState, seat: int) -> int:
        f = s.fs[s.act[seat]]
        pl = s.played[seat]
        mask = self.cbox[pl[-1]] if pl else 0
        return sum(1 for c in f.hand if mask >> self.button[c] & 1)

    def _choice_value(self, s: CFState, p: int) -> float:
        """Expected round swing of p's face-down card against the opponent's deck list."""
        c = s.choice[p]
        if c < 0 or not s.fs:
            return 0.0
        fp, fo = s.fs[s.act[p]], s.fs[s.act[1 - p]]
        sp, so = fp.ch.sides[fp.side], fo.ch.sides[fo.side]
        xp, xo = self._x(fp, 0), self._x(fo, 0)
        od_c, od_x, cbox = self.od_c, self.od_x, self.cbox
        mine = od_c[c] + od_x[c] * xp
        total = 0.0
        for k, m in fo.comp:
            r = self._clash(c, k, sp, so)
            theirs = od_c[k] + od_x[k] * xo
            if r == 0:
                total += m * (mine + (1.5 if cbox[c] else 0.0))
            elif r == 1:
                total -= m * (theirs + (1.5 if cbox[k] else 0.0))
            else:
                total += m * (mine - theirs)
        return total / max(1, len(fo.cards)) - 0.1 * self.value[c]

    # -- scenarios ------------------------------------------------------------------------------
    def scenario_state(self, setup: dict, rng: random.Random) -> CFState:
        setup = setup or {}
        unknown = set(setup) - {"solo", "wins", "fights", "p0", "p1", "round"}
        if unknown:
            raise ValueError(f"unknown setup keys {sorted(unknown)}")
        s = CFState()
        s.rng = rng
        solo = setup.get("solo")
        defaults = ("Amaya Sol", "Oskar Brannvik")
        for seat in (0, 1):
            spec = dict(setup.get(f"p{seat}") or {})
            bad = set(spec) - {"character", "hand", "deck", "discard", "aside", "side",
                               "staggering", "fill"}
            if bad:
                raise ValueError(f"p{seat}: unknown setup keys {sorted(bad)}")
            ch = self.chars[spec.get("character", defaults[seat])]
            zones = {}
            for key in ("hand", "deck", "discard", "aside"):
                try:
                    zones[key] = [self.kind[n] for n in spec.get(key) or []]
                except KeyError as err:
                    raise ValueError(f"p{seat}: no action card named {err.args[0]!r}") from None
            if spec.get("fill") and "aside" not in spec:
                zones["aside"] = list(ch.starts_aside)
            listed = zones["hand"] + zones["deck"] + zones["discard"] + zones["aside"]
            deck = zones["deck"]
            if spec.get("fill"):
                rest = Counter({self.kind[n]: k for n, k in ch.deck.items()})
                rest.subtract(Counter(listed))
                extra = [c for c, k in rest.items() for _ in range(max(k, 0))]
                deck = deck + extra
                listed = listed + extra
            f = Fighter()
            f.ch = ch
            f.cards = tuple(listed)
            sheet_hand = [self.kind[n] for n in ch.hand]
            solo_seat = solo == seat
            start_aside = [c for c in ch.starts_aside + (ch.solo_aside if solo_seat else ())
                           if c in listed]
            f.start_aside = tuple(start_aside)
            fits = not (Counter(sheet_hand) + Counter(start_aside) - Counter(listed))
            hand = sheet_hand if fits else zones["hand"][:self.hand_limit]
            f.start_hand = tuple(() if solo_seat else hand)
            f.total, f.checksum = len(listed), sum(listed)
            f.solo, f.label, f.avg = solo == seat, ch.name, self._avg(listed)
            f.comp = tuple(Counter(listed).items())
            f.hand, f.deck = zones["hand"], deck[::-1]
            f.discard, f.aside = zones["discard"], zones["aside"]
            side = str(spec.get("side", "A")).upper()
            if side not in ("A", "B"):
                raise ValueError(f"p{seat}: side is A or B")
            f.side = "AB".index(side)
            f.stag = bool(spec.get("staggering", False))
            f.used, f.ko = False, False
            s.fs.append(f)
        s.wins = list(setup.get("wins", [0, 0]))
        s.fights = int(setup.get("fights", sum(s.wins)))
        s.results = [0] * s.wins[0] + [1] * s.wins[1] + [TIE] * (s.fights - sum(s.wins))
        s.round = int(setup.get("round", 1)) - 1
        self._begin_round(s)
        return s

    def parse_action(self, state: CFState, spec):
        if isinstance(spec, str):
            text = spec.strip()
            if len(text) > 3 and text[0] == "p" and text[1] in "0123" and text[2] == ":":
                seat = int(text[1])
                if seat != state.cur:
                    raise ValueError(f"{spec!r}: p{state.cur} is to move, not p{seat}")
                spec = text[3:]
        parts = action_words(spec)
        verb = str(parts[0]).lower()
        if verb == "keep" and len(parts) == 1:
            return ("discard", ())
        if verb in ("hit", "discard"):
            arg = parts[1] if len(parts) == 2 else ()
            if arg == "deck" or arg == "nothing":
                arg = ()
            names = [x.strip() for x in arg.split(",")] if isinstance(arg, str) else list(arg)
            for n in names:
                if n not in self.kind:
                    raise ValueError(f"no action card named {n!r}")
            return (verb, tuple(sorted(names, key=self.kind.__getitem__)))
        if len(parts) == 1 and verb in ("top", "stop", "flip", "pass", "tag", "stay"):
            return (verb,)
        if len(parts) == 2:
            arg = parts[1]
            if verb in ("play", "aside", "recover"):
                if arg not in self.kind:
                    raise ValueError(f"no action card named {arg!r}")
                return (verb, arg)
            if verb == "call":
                return ("call", str(arg))
            if verb in ("start", "pick"):
                return (verb, int(arg))
            if verb == "order":
                names = [x.strip() for x in arg.split(",")] if isinstance(arg, str) else list(arg)
                for n in names:
                    if n not in self.kind:
                        raise ValueError(f"no action card named {n!r}")
                return ("order", tuple(names))
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, s: CFState) -> dict:
        names = self.names
        if s.phase in (REACT, COMBO, RECOVER, FORESEE):     # the revealed round, still going on
            res, sig = s.result, None
            played = [s.played[0], s.played[1]]
            dealt = [s.dmg[0] if s.result != 1 else 0, s.dmg[1] if s.result != 0 else 0]
        else:                                               # the last resolved round
            res, d0, d1, p0, p1, sig = s.last
            played, dealt = [p0, p1], [d0, d1]
        out = {
            "phase": PHASE_NAMES[s.phase],
            "to_move": s.cur,
            "over": s.phase == OVER,
            "winner": (s.win if s.phase == OVER else None),
            "wins": list(s.wins),
            "fights": ["draw" if r == TIE else r for r in s.results],
            "round": s.round,
            "result": {TIE: "tie", 0: "p0", 1: "p1"}.get(res),
            "dealt": dealt,
            "signature": sig,
            "played": [[names[c] for c in p] for p in played],
        }
        if s.mode == TWO_VS_TWO:
            out["ring"] = [s.fs[s.act[0]].ch.name, s.fs[s.act[1]].ch.name]
        for seat in (0, 1):
            if not s.fs:
                break
            f = s.fs[s.act[seat]]
            out[f"p{seat}"] = {
                "character": f.ch.name,
                "side": "AB"[f.side],
                "hand": sorted(names[c] for c in f.hand),
                "hand_size": len(f.hand),
                "deck": [names[c] for c in reversed(f.deck)],
                "deck_size": len(f.deck),
                "discard": sorted(names[c] for c in f.discard),
                "discard_size": len(f.discard),
                "aside": sorted(names[c] for c in f.aside),
                "staggering": f.stag,
                "knocked_out": f.ko,
                "hand_limit": self._limit(s, seat),
                "x": self._x(f, len(s.played[seat])),
            }
        return out


ENGINE = ComboFighterEngine
