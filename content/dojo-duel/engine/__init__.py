"""Dojo Duel: the reference engine (two players, Yin against Yang, 20 points each).

The match, as the engine plays it by default: the published rules, with game.yaml `rulings` where
they are silent (game.yaml `tables` holds the numbers, `variants` the house rules):

- Setup: each player shuffles their deck; a coin toss (``state.rng``) decides who goes first.
- First Draw: both draw to 5; each places one card of their hand face down as their kicker (the
  first-Turn player chooses first; the other's choice does not depend on it), then each may draw
  one more card (the extra-draw phase: ``draw`` or ``pass``, the first-Turn player first; a
  player with nothing left to draw is not asked).
- A Round is two Turns. In a Turn the turning player points at a card of the opponent's hand
  without seeing it: the pick is blind, so the engine draws it uniformly from that hand with
  ``state.rng``. The opponent puts it face up on their field; the turning player answers with a
  card of their choice from their own hand. The toss winner takes the first Turn of every round.
- After both Turns, the kicker window: the player who took the second Turn says first whether they
  reveal their face-down kicker, then the other player. A revealed kicker adds its Yin and its Yang
  to its owner's totals for that round and is recycled at the Clean; a kicker is never replaced.
- The comparison, on round totals (two field cards plus a revealed kicker): each player loses the
  opponent's Yang minus their own Yin, if that is above 0. Both losses happen at once.
- The Clean: field cards and revealed kickers go to their owner's recycle pile; a face-down kicker
  stays. Then the game ends if a player is at 0 or below; else both draw to 5 (an empty deck is
  refilled by shuffling the recycle pile; with both empty a player keeps what they hold) and the
  next round begins.
- End: at 0 or below you lose at the end of the round; if both players are, the game is a tie
  (a draw), whatever the scores. There is no round limit: a bout the rules cannot end runs into
  ``max_actions`` and the simulator reports it as a turn-cap conflict with its seed.

Variants (``variants`` below; Setup.options["variants"], ``cardgen simulate --variant``, a
deck file's ``variants`` or a scenario setup's ``variants``), all house rules, off by default:

- round-limit: the bout ends after round 20 (tables.round_limit.rounds); more points wins, equal
  points is a draw.
- below-zero-tiebreak: both at 0 or below after the same round, more points left (counting below
  0) wins; equal is a draw.
- alternate-first-turn: the first Turn passes to the other player every round.
- quick-bout: both start on 10 points and the bout ends after round 10 (tables.quick_bout), as
  with the round limit.

Setups: every ordered pair of the given decks (default: the sample decks in decks/), so each deck
meets each other deck from both seats; a single deck plays the mirror match. A setup plays the
variants asked for plus those either deck file names.

Cards: a technique's only effect is its two numbers, so `unsupported_cards` names any card without
whole-number Yin and Yang, or carrying printed text or keywords, which no rule here reads.

A pair of decks in which no Yang total can ever get through any Yin total (the three best Yang of
one deck never beat the two lowest Yin of the other, both ways) can never end under the published
rules: `initial_state` raises RuleConflict ("stalemate") for it, rather than playing up to the
action cap. Other bouts that cannot end (say, only a kicker gets through) meet the cap.

Actions (tuples):
    ("kicker", "Card Name")   place that card of your hand face down as your kicker (first Draw)
    ("pick",)                 point blind at a card of the opponent's hand
    ("answer", "Card Name")   answer from your own hand
    ("draw",) / ("pass",)     at the first Draw, after both kickers: take the extra card or not
    ("reveal",) / ("keep",)   in the kicker window: reveal your kicker, or keep it face down

Scenario actions (`parse_action`): the tuple as a list (``[answer, Mirror Guard]``), a string
(``pick``, ``draw``, ``pass``, ``reveal``, ``keep``, ``answer Mirror Guard``, ``kicker Temple
Wall``) or a one-key
mapping (``{answer: Mirror Guard}``).

Scenario setup (every key optional; players are ``p0`` and ``p1``)::

    variants: [round-limit]   # house variants to play (default: none, the published rules)
    round: 1            # the round number
    first: 0            # who takes the first Turn of this round
    phase: pick         # kicker | extra-draw | pick | answer | reveal
    turn: 1             # 1 or 2: which Turn of the round (pick and answer phases)
    to_move: 1          # reveal phase: who is asked now (default: second-Turn player, or the
                        # first-Turn player if the other has no face-down kicker); extra-draw
                        # phase: who decides now (default: the first-Turn player)
    p0:
      points: 20
      hand: [Card, ...]
      deck: [Card, ...] # top card first
      recycle: [Card, ...]
      field: [Card, ...]
      kicker: Card      # face down (or null for none)
      kicker_revealed: false
      kicker_used: false  # true: this player has already used their one kicker
    p1: {...}

With ``phase: kicker`` the hands are as given and nobody has a kicker yet (``first`` places first).
With ``phase: extra-draw`` the kickers are as given and ``to_move`` decides next.

Observe (what `expect:` is compared against)::

    round, phase (kicker|extra-draw|pick|answer|reveal|over), to_move (-1 once over), first,
    turn (1|2),
    points: [p0, p1], over: bool, winner: 0 | 1 | "draw" | null (still playing),
    last_loss: [p0, p1]       # points each lost at the last comparison
    p0 / p1: {points, hand (sorted names), hand_size, deck_size, deck (top first), recycle (sorted),
              recycle_size, field (names, in play order), yin, yang (field totals with a revealed
              kicker), kicker (name or null), kicker_state: face-down | revealed | used | none,
              last_yin, last_yang (the totals at the last comparison)}
"""

from __future__ import annotations

from cardgen.engines.base import Engine

from .heuristic import HeuristicMixin
from .replay import ReplayMixin
from .rules import RulesMixin
from .scenarios import ScenarioMixin


class DojoDuelEngine(RulesMixin, HeuristicMixin, ReplayMixin, ScenarioMixin, Engine):
    game_id = "dojo-duel"
    max_actions = 1000
    keywords = frozenset()


ENGINE = DojoDuelEngine
