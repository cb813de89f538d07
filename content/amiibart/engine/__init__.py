"""Amiibart TCG reference engine: two players, five slots each, the whole deck in hand.

Card texts are read once by the grammar in `grammar.py` into effect programs, so a new card
written in the same words just works; `unsupported_cards()` lists any text it cannot read.

Turn structure. A coin flip (`state.rng`) picks the first player. Each player's first turn is turn
one: their two Powers come into play and they put 3 fighters into empty slots for free (nothing
else; "When played" abilities and Passive Powers still trigger); the turn ends by itself after the
third. Later turns: Energy is 10; any number of actions in any order, then `end`.

Resolution. An action queues jobs (an effect program, an attack step, a pick...) that run in
order; a trigger met while a job runs is queued at the front (it resolves next), except deaths,
whose triggers go to the back: during an attack that is step 8, after steps 1-7. A job that needs
a choice (a triggered target, a Forge option, a card to return) stops the queue and asks its
owner, who may be the player whose turn it is not. When nothing in play reacts to attacks, an
attack skips the empty steps and only deals its damage (step 5).

Actions (tuples of ints; `t` is a fighter position, player * 5 + slot index 0..4, -1 for none):
  (0,)                    end the turn
  (1, card, slot)         play a fighter card from hand into an empty slot (0..4)
  (2, card, t1, t2)       cast a spell (a Hazard goes into play; t1/t2 the spell's targets in order)
  (3, power, t1, t2)      use Active Power number `power` (0 or 1, in deck order); each Active
                          Power once per turn, so both may be used in the same turn
  (4, slot, attack, t)    the fighter in `slot` attacks: attack 0 = basic, 1/2 = its special attacks;
                          t = the opposing slot (0..4) or -1 for an attack that targets nobody
  (5, card)               play a Stage
  (9, option)             answer a pending choice (a triggered target, a Forge option, a card from
                          the discard pile, a Hazard): option = fighter position 0..9,
                          1000 + card id (Hazard), 2000 + card id (discard card), 3000 + i (Forge
                          option i), 3999 (done, for "up to" picks); so a game has at most 1000 cards
Cards are numbered by their position in `engine.names`.

Scenario forms (YAML). Players are `A` (player 0) and `B` (player 1); slots are 1..5.
  setup:
    turn: A                   # whose turn it is (default A), in its main phase
    variants: [update-in-place]   # optional: house variants the position plays (default: none)
    turn_one: true            # optional: that player is in turn one instead (3 free fighters)
    energy: 10                # that player's Energy left (default 10)
    A:                        # and B: the same keys
      hand: {Gentle Light: 1}             # cards not played yet (default: none)
      powers: [Morning Prayer, Heavy Armor]   # default: no Powers
      slots: {1: Dawn Squire, 2: {card: Gloom Bat, health: 100, attack: 300, fresh: true,
              attacked: true, keywords: [Block], poison: 100, bound: true}}
      hazards: [Caltrops]     stage: Iron Bastion      discard: [Flare Shot]
      death_tokens: 2         stall: 2 (turns in a row without acting)   played: 1 (fighters this turn)
      empty_start: true       (began this turn with no fighter)
      power_used: true | [Overclock]      (Active Powers used this turn: all, or those named)
  actions: a list of
    end
    {play: Signal Jammer, slot: 2}
    {cast: Gentle Light, target: A1, target2: B3}       (hazards and untargeted spells: no target)
    {stage: Iron Bastion}
    {power: Morning Prayer, target: A1, target2: B2}
    {attack: A1, with: basic | <special attack name>, target: B2}   (no target for untargeted ones)
    {choose: B2} | {choose: <card name>} (a Hazard or a discard card) | {choose: "forge 1"} (1-based)
    | {choose: done}
  Powers are in play for both players; nothing triggers when the position is set up.
  observe(state) gives:
    {turn: A|B|null, over, winner: A|B|null,
     reason: null | death tokens | no fighters | no cards and no fighters | stalled,
     pending: null | {player, options: [...]},          (options named as `choose` takes them)
     A: {death_tokens, energy, hand: {name: n}, discard: [...], void: [...], hazards: [...],
         stage, stall, powers: [...], powers_used: [...] (Active Powers used this turn),
         slots: {1: null | {name, attack, health, max_health, keywords: [...], token, bound,
                            fresh, attacked, ward, poison, stunned}, ...}},
     B: {...}}

The modules (each part of the engine class is a mixin of its own module; core.py joins them):
  grammar.py    card texts -> effect programs          state.py      constants, CardInfo, the state
  tables.py     tables by slot mask, event bit sets    zones.py      small functions on the state
  cards.py      reading the cards, once                setups.py     matchups and initial states
  legal.py      legal_actions and its caches           actions.py    apply_chosen, the player's actions
  turns.py      the job loop and the turns             triggers.py   what answers an event
  attacks.py    attacks and their steps                damage.py     entering, damage, healing, deaths
  effects.py    running programs, selectors, effects   picks.py      choices asked of a player
  scenarios.py  scenario_state, parse_action, observe  replay.py     describe, describe_outcome
  core.py       AmiibartEngine
"""

from .core import AmiibartEngine

ENGINE = AmiibartEngine
