"""Combo Fighter: the reference engine (two fighters, decks that are also life bars).

The match, as the engine plays it (content/combo-fighter/game.yaml `tables` holds the numbers,
its `rulings:` the readings of the rulebook played here and its `variants:` the optional rules;
card, token and solo texts are read by the grammar in engine/grammar.py):

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
  The damaged player makes one choice per hit: which hand cards go (at least as many as the deck
  cannot pay); they go first, the rest comes off the deck (the order never matters: only the
  count of cards left in hand and deck does). A Staggering fighter who takes any damage, or one
  whose points reach the last card left in hand and deck, is knocked out. In a tie, player 0
  takes their damage first, then player 1; both knocked out = a drawn fight. Only a draw makes a
  fighter Staggering: drawing the last card of the deck, or having to draw from a deck already
  emptied (by damage or a cost); the discard pile is then shuffled into a new deck.
- End of round: played cards go to the discard pile; each player (0, then 1) may discard any cards
  from hand, then refills to the hand limit (5; 4 against Noor's Meridian Lock); then end-of-round
  effects, the winner's first (in a tie seat 0 first).
- Solo mode (Setup.options ``solo: seat``): that seat is the AI fighter. It has no starting hand
  (its whole deck is shuffled), plays the top card of its deck (the engine does it), draws 4 when it
  wins a round and its bot plays the most damaging combo from them; cards it drew but did not play
  are discarded at the end of the round (before the refills), each dealing 1 damage to its
  opponent. Sheet solo rules (start set aside, cards to the bottom of the deck) are engine rules;
  combo choices and the token flip are `bots()["solo"]`.
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
different decks, both seatings (a single deck plays the mirror). A deck other than its sheet's
standard deck (cards and starting hand) is a custom deck, which only the house variant
``custom-decks`` allows (``--variant custom-decks``, or the deck file's own ``variants:``); with
that variant and no decks given, the box's deck files play. The rulebook's formats (`cardgen
simulate --variant`, one at a time, with custom-decks or not) build other matches from the same
decks: ``solo`` plays every such
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

    variants: [solo]        # game.yaml variants on (`cardgen check --variant`): solo makes seat
                            # 1 the AI unless solo: says; custom-decks changes nothing here;
                            # 2v2 and tournament are refused (a scenario is one 1-vs-1 fight)
    solo: 1                 # that seat is the solo AI (its listed hand goes on top of its deck)
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

from cardgen.engines.base import Engine

from .cards import CardsMixin
from .checks import ChecksMixin
from .heuristic import BotsMixin
from .legal import LegalMixin
from .moves import MovesMixin
from .replay import ReplayMixin
from .rules import RulesMixin
from .scenarios import ScenariosMixin
from .setups import SetupsMixin
from .state import KEYWORDS, OVER, CFState


# The engine, one concern a module: setups (matchups, decks, the match start), cards (the card
# and character tables built at load), rules (resolution, round to fight), legal (the moves of
# each phase), moves (apply_chosen, clone), checks (invariants), replay (describe, what a move led
# to), heuristic (bots, heuristic), scenarios (scenario_state, parse_action, observe). The state
# classes and shared constants are in state, the text grammar in grammar, the solo AI in solo.
class ComboFighterEngine(SetupsMixin, CardsMixin, RulesMixin, LegalMixin, MovesMixin, ChecksMixin,
                         ReplayMixin, BotsMixin, ScenariosMixin, Engine):
    game_id = "combo-fighter"
    max_actions = 5000
    keywords = KEYWORDS
    player_counts = (2,)
    variants = {
        "2v2": "2 vs 2: two teams of 2 fighters, tag outs, first KO wins the fight (needs 4 decks)",
        "tournament": "tournament games: rosters of 2 different fighters, each picks the foe (needs 4 decks)",
        "solo": "solo mode: one seat is the rulebook's solo AI (bot 'solo'), in both seats",
        "custom-decks": "house rule: decks of the players' own (without --decks: the box's deck files)",
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

    # -- the contract ---------------------------------------------------------------------------
    def current_player(self, state: CFState) -> int:
        return state.cur

    def is_over(self, state: CFState) -> bool:
        return state.phase == OVER

    def winner(self, state: CFState) -> int | None:
        return state.win if state.phase == OVER else None


ENGINE = ComboFighterEngine
