"""A.D.A.P.T.: the reference engine (2 to 6 Fish, last Fish swimming wins).

The match, as the engine plays it (numbers and rulings come from content/adapt/game.yaml
`tables`; `tables.rulings` lists every choice made where the rulebook is silent):

- Setup: every Fish starts as a Guppy with 1 Experience. The gene stream deck (the Setup's deck,
  the whole box by default; with 4+ players two boxes) is shuffled and the Gene Stream dealt from
  its highest-numbered slot (3 slots for 2 players, +1 per player beyond, +1 each for the kids'
  and sailfish variants). Every Fish rolls percentile dice (ties roll again); from the highest
  roll down each Adapts by Random Selection with that same roll (the 2- or 3-player chart) and
  the stream cycles after each card taken (nothing expires when none was). The highest roller
  takes the first Turn.
- A Turn: Hiding ends; Regeneration; Poison Damage; Experience (3, +1 per player beyond 2, max 5;
  +1 Smart, +1 sailfish, -1 airborne); Cooldown and Jump timers drop (a Jump that reaches 0
  lands: +2 Ferocity on an Attack this Turn, then Cooldown Jump score + 1). Then ONE Action:
  Adapt from the PGP, Buy from the stream, Attack, a Special Action (Ram, Hide, Bait, Jump) or
  Wipe the stream. Hide and Bait are followed by an optional Buy or Adapt. A Fish with School may
  then deal 1 Damage (not on a Turn it Attacked, Rammed, Wiped, jumped or Adapted the School card).
  Then the stream cycles (remove, slide, refill from the highest empty slot; with nothing
  removed the last slot expires) and the next living Fish clockwise plays.
- A Fish with no legal Action may Adapt by Random Selection, which ends its Turn, or pass (its
  Turn ends, School may still strike); an airborne Fish with nothing to Buy or Adapt passes.
- Auto-Adapt: the first time a Fish's Experience reaches 20 it takes a Body one Level up (PGP,
  then the slots from the highest down, then the deck cycled one card at a time) and pays for it
  unless it came from the PGP. School battle replaces it with a Random Selection at 30.
- End: a Fish is defeated when its Damage exceeds its Health; the last Fish (or School) wins; if
  the last Fish fall together the match is a draw (winner None). The published rules have no
  other end: a match that never ends runs into max_actions, which the simulator reports as a
  conflict (turn-cap) with its seed. The house variant `stalemate` adds one: a sea that has
  settled, `tables.stalemate.rounds` Rounds (20) in which no Fish's Damage climbed above its
  highest so far and none Adapted a card (Damage healed as fast as it comes, Poison against
  Regeneration, ends nothing), is a draw.

Setup options (`Setup.options`): players (2-6, default 2), variants (list of kids, sailfish,
school-battle, multi-auto-adapt, and the house rule stalemate), deck (card names with repeats;
default the whole box, minus the kids' locations with `kids`), boxes (copies of that deck;
default 1, 2 with 4+ players).
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
    ("pass",)               let the Turn go: a Fish with no legal Action that does not Adapt by
                            Random Selection, or an airborne one with nothing to Buy or Adapt
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
        jump_value: 0       # the Jump score it Jumped with (its Cooldown is this + 1; default: jumping)
        splash: false       # landed this Turn
        baited_by: null     # seat of the Fish that Baited it
        cooldowns: {Ram: 1}
        auto_adapted: 0
        alive: true

The engine rolls, in this order: a Hide check (d10), a Fear check (d10), the Attack Die (a Guppy
rolls a d2: 1 or 2), a Critical d4, then the d10s for Poisonous, Stun and Counter Poison; Bait
rolls a d10; Random Selection a d100 (the opening's reads the rolls that set the order).

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

Not played: the Kingfish Battle Royale variant (simultaneous School Turns). game.yaml declares
it `played: false` with the reason, and cardgen refuses it alike in validate and simulate; the
engine's own `_config` raises RuleConflict for any variant it does not play.

The code, by module (AdaptEngine is made of one mixin from each of the modules it imports; every
module imports only `constants`, `state` and the cardgen package, `adapt` imports the rest):
    constants   names: locations, abilities, Special Actions, phases, dice, the action tuples
                and the bit-mask tables of sets of Fish
    state       AdaptState, Fish, Stats, Config; a new state and Fish; the seeded shuffle
    cards       the card grammar, the per-card vectors, a Fish's Stats as its cards add up
    setups      the matchups, the variant checks and the per-match Config
    legal       the legal actions
    turns       initial_state, apply_chosen and the flow of a Turn; clone
    adapting    Adapting, the Gene Stream (Wipe, cycling, Auto-Adapt) and Random Selection
    attacks     Attacks, Rams, Bait and School
    checks      the invariants
    replay      describe, card_of and describe_outcome (the replay text)
    scenarios   scenario_state, parse_action and observe
    shark       the greedy bot's heuristic and the "shark" bot
    adapt       AdaptEngine: its options and the data it reads from the game when it loads
"""

from __future__ import annotations

from .adapt import AdaptEngine

ENGINE = AdaptEngine
