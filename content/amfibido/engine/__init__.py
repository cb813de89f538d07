"""Amfibido: the reference engine (two players, three dojos, first to 4 round wins).

The match, as the engine plays it (content/amfibido/game.yaml `tables` holds the numbers,
`rulings` the choices made where the rulebook is silent and `variants` the optional rules):

- Setup: the five level decks are shuffled separately (``state.rng``); each player draws 3 level I
  cards. With sensei (the default; Setup option ``sensei: false`` for a first game) each player is
  dealt 3 sensei, keeps 1 (player 0 chooses first) and the other 2 go to the bottom of the sensei
  deck. A random player starts round 1. `setups()` gives one Setup per box deck (decks/*.yaml:
  the first-game box without sensei, the standard box with them); options are ``box`` (card name
  -> copies), ``sensei`` (false for a box without sensei, or with the first-game variant),
  ``round_limit`` (0, or the last round under the round-limit variant) and
  ``failed_transform_stays`` (the failed-transform-stays variant). The variants come from
  `setups(variants=...)` and each deck's own ``variants:``; a scenario names them in its setup
  (``variants: [round-limit]``).
- Draft: each player is dealt 3 cards from the active levels of the round table (highest level
  first, cycling; the starting player is dealt first), picks 1 (starting player first), passes the
  other 2, picks 1 of the 2 received and discards the last. An empty level deck is refilled from
  that level's discards, else the nearest active level with cards deals (lower first).
- Field phase: from the starting player, players alternate single actions until both have passed
  (after passing you take no more actions; the other goes on alone). Actions: field a fighter
  (replacing = retiring the one there), add equipment (one per dojo, two where the fighter allows
  it), play a combo move on one of your fighters, play an action card, use an action ability
  (once per round per card; its cost is paid first), pass.
- Fight: per dojo, the fighter with the higher total power wins (equal: draw; unopposed: wins;
  empty on both sides: draw). Total power = base + equipment + abilities + combo moves, checked at
  the fight, never below 0. A round is won with 2-3 fight wins or 1 win and 2 draws, otherwise it
  is a draw. 4 round wins end the game, however many rounds that takes: the published game has
  no last round and no drawn match (only the round-limit house variant ends it after
  tables.round_limit rounds, more round wins taking it, equal wins a draw).
- End of round, in the rulebook's order: end-of-round abilities (a player chooses when two of
  their own apply to one fighter, or whether to use a "may"); knockout piles go back to hand;
  combo moves are discarded (boomerang ones go to the knockout pile, with those set aside when
  their fighter left the dojos during the round); losing fighters go back to
  hand, or to the knockout pile if knocked out; winners and draws stay. The round winner starts
  the next round; after a drawn round the player who did not start does.
- Keywords: Transform (retire; reveal the next level's deck, level V stays at V, until a card of
  the same type shows; the rest go to the bottom in random order; it keeps its combo moves and
  does not enter the dojo; no such card available: it stays retired and its place empty, or with
  the failed-transform-stays variant it stays where it was; none in the whole box:
  RuleConflict), Knockout, Boomerang, Switcheroo (move to another of your dojos, swapping with a
  card of the same type there; a moved fighter enters its new dojo, its combo moves follow it),
  Neutralize (text and action ability ignored, printed power still counts; mutual neutralizers:
  the one that came into play last wins).

Card text is read by a small grammar (grammar.py in this package); `unsupported_cards()` names
every card with a sentence it does not know. The rest of the package: state.py (the state, the
box and shared constants), cards.py (the per-card tables), match.py (setups, initial state,
clone), legal.py (legal actions), actions.py (applying an action), effects.py (effect steps and
keywords), power.py (total power, knockout, neutralization), rounds.py (draft, fight, end of
round), heuristic.py (the greedy bots' evaluation), checks.py (invariants), replay.py (describe,
describe_outcome, card_of) and scenarios.py (scenario setups, parse_action, observe).

Actions (tuples; dojos are numbered 1-3; a position code names a card in a dojo: ``F2`` is the
fighter of dojo 2, ``E2`` its (first) equipment, ``E2b`` its second equipment; ``S`` is your
sensei; whose card a code means follows from the effect: "an opposing fighter" reads the
opponent's dojos)::

    ("sensei", "Master Ripple")           keep this sensei (setup)
    ("pick", "Tree Frog")                 draft pick
    ("pass",)
    ("field", "Tree Frog", 2)             field a fighter from hand into dojo 2
    ("equip", "Sai", 2)                   add equipment to dojo 2 (replaces the one there, unless
                                          the fighter there allows a second and there is room)
    ("equip", "Sai", 2, "E2b")            ... a full two-equipment dojo: which one to replace
    ("combo", "Jab", 2)                   play a combo move on your fighter in dojo 2
    ("play", "Disarm", "E3")              play an action; its first choice follows the name:
                                          a position code, a switcheroo move ("F1", "F3") = from,
                                          to, a card name (knockout pile), a level (draw), or
                                          nothing (effects without a choice)
    ("ability", "E1", ...)                use the action ability of a card (its position code, or
                                          "S"), then the effect's first choice as for "play"
    ("choose", ...)                       a pending choice: the next target of an effect, the card
                                          a cost or an "enters a dojo: discard" takes (its name),
                                          the equipment to retire from an over-full dojo ("E2b"),
                                          an end-of-round choice ("F1", "retire" | "hand" |
                                          "transform" | "stay")
    ("done",)                             stop an "up to two" / "any number" effect early

Scenario actions (`parse_action`): the tuple written as a YAML list (``[field, Tree Frog, 2]``,
``[play, Quick Step, F1, F2]``) or one word (``pass``, ``done``).

Scenario setup (every key optional; cards come from the full box, the rest is shuffled into the
level decks with the scenario seed)::

    round: 1              # round number (decides the active levels)
    starting: 0           # starting player of this round (and the first player)
    turn: 0               # who acts now (default: the starting player)
    phase: field          # field | draft
    scores: [0, 0]
    passed: [false, false]
    players:              # a list of two mappings (player 0, player 1)
      - hand: [Jab, Tree Frog]
        knockout: []
        set_aside: []     # boomerang moves whose fighter left the dojos this round
        sensei: Master Ripple
        draft: []         # phase draft: the cards dealt to this player
        used: []          # names of cards whose action ability was used this round
        dojos:            # up to 3, in order (or a mapping 1/2/3 -> dojo)
          - {fighter: Tree Frog, equipment: [White Belt], combos: [Jab]}
    discard: [Sai]
    decks: {2: [Painted Turtle]}   # the top of a level deck, top card first

Observe (what `expect:` is compared against)::

    round, phase (sensei|draft|field|end of round|over), to_move (-1 once over), starting, first,
    scores: [p0, p1], over, winner (0 | 1 | "draw" | null), passed: [p0, p1],
    pending (null, or "target" | "cost" | "discard" | "retire equipment" | "end of round"),
    p0 / p1: {hand (sorted names), hand_size, knockout (sorted), set_aside (sorted: boomerang
              moves waiting for the end of the round), sensei, draft (sorted),
              dojos: {1: {fighter, equipment: [...], combos: [...], fighting (the card fighting
              there: the fighter, or a Komodo Dragon from another dojo), power (total power if
              the fight were now; null without a fighter), knockout (it would knock out a beaten
              opponent), neutralized (sorted names of its neutralized cards)}, 2: ..., 3: ...},
              powers: [dojo 1, dojo 2, dojo 3]},
    discard (sorted), resolving (the action card whose effect still waits for a choice: it goes to
    the discard pile once resolved), decks: {1: size, ..., 5: size}, deck_tops: {level: top card
    or null},
    last_round (null, or {results: {p0: [win|lose|draw x3], p1: [...]}, powers: {p0, p1},
                winner: 0 | 1 | "draw", knocked_out: {p0: [names], p1: [names]}})
"""

from __future__ import annotations

from cardgen.engines.base import Engine

from .actions import ActionsMixin
from .cards import CardsMixin
from .checks import ChecksMixin
from .effects import EffectsMixin
from .heuristic import HeuristicMixin
from .legal import LegalMixin
from .match import MatchMixin
from .power import PowerMixin
from .replay import ReplayMixin
from .rounds import RoundsMixin
from .scenarios import ScenarioMixin


class AmfibidoEngine(CardsMixin, MatchMixin, LegalMixin, ActionsMixin, EffectsMixin, RoundsMixin,
                     PowerMixin, HeuristicMixin, ChecksMixin, ReplayMixin, ScenarioMixin, Engine):
    game_id = "amfibido"
    # a match still running after this many actions is reported as a conflict: the published game
    # has no last round (a match is some 60-160 actions)
    max_actions = 1500
    keywords = frozenset({"Transform", "Knockout", "Boomerang", "Switcheroo", "Neutralize"})
    # the variants it plays (game.yaml `variants:` declares each with its rulebook sentence)
    variants = {
        "first-game": "the first game: the sensei stay in the box",
        "round-limit": "house rule: after tables.round_limit rounds the player with more round "
                       "wins takes the match, equal wins a draw",
        "failed-transform-stays": "house rule: a transform that finds no card of its type leaves "
                                  "the card where it was instead of retired",
    }
    # more than 30 attributes: all in slots, one added in __init__ too (docs/engines.md says why)
    __slots__ = ("game", "wins_needed", "active", "last_table_round", "round_limit", "deal", "plans",
                 "creatures", "grammar", "no_sensei", "_unsupported", "infos", "by_name", "d_of", "A_pick",
                 "A_sensei", "A_field", "A_equip", "A_equip_r", "A_combo", "A_choose_name", "A_play",
                 "kind_d", "step0", "A_combo_to", "cost_from_hand", "play_chooser", "ability_chooser",
                 "pw_extra", "_boxes", "_box_last")      # (is_over: in __dict__, over the method)


ENGINE = AmfibidoEngine
