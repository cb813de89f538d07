"""The contract every reference engine follows (one file per game, OpenSpiel-style).

An engine is plain Python with no I/O. All chance (shuffles, dice, coin flips, random picks)
draws from `state.rng`, the `random.Random` handed to `initial_state`, so one seed replays a
match exactly. The simulator's bots draw their choices from the same generator, between moves.

Players are numbered 0..n-1. Actions are small immutable values (tuples of str/int), equal
when they mean the same move, so a recorded match replays and a scenario can name them.
`apply` mutates the state and returns it; `clone` makes an independent copy (bots that look
ahead clone first).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from cardgen.errors import ContentError, Issue

Action = Hashable


def is_listed(action: Action, legal: list) -> bool:
    """Whether the action is on the legal list: found by identity first (a move taken from the
    list is the very object, and `is` costs less than comparing tuples), then by equality."""
    for x in legal:
        if x is action:
            return True
    return action in legal


def shuffle(rng: random.Random, cards: list) -> None:
    """rng.shuffle(cards), the very same order from the same generator, in half the time: its
    swaps with the generator's draws taken inline (random.Random.shuffle calls a method for
    each card; the search bot shuffles a game's decks every playout)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:                       # (as Random._randbelow: no bias)
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def redeal(rng: random.Random, zones: list[list], kind=None) -> None:
    """Deal the cards of `zones` (lists, changed in place) again at random: each zone keeps its
    size, and with `kind` (card -> anything hashable) each place keeps the kind of its card (a
    level, a card back), so only cards that look alike from outside trade places. For
    `determinize`: the zones are those the player cannot see."""
    if kind is None:
        pool = [card for zone in zones for card in zone]
        shuffle(rng, pool)
        at = 0
        for zone in zones:
            zone[:] = pool[at:at + len(zone)]
            at += len(zone)
        return
    # kind -> (its cards in zone order, [(zone, the indices of its cards there, or None for the
    # whole zone)]); a zone of one kind (a deck of one level) is taken whole, card by card only
    # when it mixes kinds (the search bot redeals every playout: this is its hot path)
    places: dict = {}
    for zone in zones:
        kinds = list(map(kind, zone))
        if kinds and kinds.count(kinds[0]) == len(kinds):
            cards, spots = places.get(kinds[0]) or places.setdefault(kinds[0], ([], []))
            cards.extend(zone)
            spots.append((zone, None))
            continue
        mine: dict = {}
        for i, (k, card) in enumerate(zip(kinds, zone, strict=True)):
            cards, spots = places.get(k) or places.setdefault(k, ([], []))
            cards.append(card)
            at = mine.get(k)
            if at is None:
                at = mine[k] = []
                spots.append((zone, at))
            at.append(i)
    for cards, spots in places.values():
        shuffle(rng, cards)
        at = 0
        for zone, indices in spots:
            if indices is None:
                zone[:] = cards[at:at + len(zone)]
                at += len(zone)
                continue
            for i in indices:
                zone[i] = cards[at]
                at += 1


class IllegalAction(Exception):
    """Raised by `apply` for an action that is not legal in that state."""


class RuleConflict(Exception):
    """Raised when the rules cannot go on (e.g. a transform that can find no card to become).

    The simulator reports it as a rule conflict with the seed, not as a crash of the tool.
    """


def action_words(spec) -> list:
    """A scenario's written action as [verb] or [verb, argument].

    Scenarios may write an action as a mapping `{attack: Circuit Knight}`, a string
    "attack Circuit Knight", or a list `[attack, Circuit Knight]`.
    """
    if isinstance(spec, dict):
        if len(spec) != 1:
            raise ValueError(f"an action mapping has one key: {spec!r}")
        ((verb, arg),) = spec.items()
        return [str(verb)] + ([] if arg is None else [arg])
    if isinstance(spec, str):
        verb, _, rest = spec.strip().partition(" ")
        return [verb, rest.strip()] if rest.strip() else [verb]
    return list(spec)


@dataclass
class Setup:
    """One matchup: a label for the report and whatever the engine needs (decks, characters)."""

    label: str
    seats: list[str]                  # one name per player, e.g. deck or character names
    options: dict[str, Any] = field(default_factory=dict)
    # The names of the cards the seats may play (their decks, characters...): a card here that no
    # match played is a dead card. Empty when the engine does not say.
    cards: frozenset[str] = frozenset()
    # Each seat's own cards (its deck, its character's cards), in seat order, when the seats hold
    # cards of their own; empty when they draw from one shared deck or box. The report's per-card
    # "in the deck" figures (play rate, win rate) come from it.
    seat_cards: tuple[frozenset[str], ...] = ()
    # Seats whose bot the setup itself fixes (seat -> bot name), over the simulator's --bots: a solo
    # mode's AI seat must be played by the AI's rules whatever the user picks for the other seats.
    bots: dict[int, str] = field(default_factory=dict)

    def __post_init__(self):
        self.seat_cards = tuple(frozenset(cards) for cards in self.seat_cards)
        if self.seat_cards and len(self.seat_cards) != len(self.seats):
            raise ValueError(f"setup {self.label!r}: seat_cards names {len(self.seat_cards)} seats' "
                             f"cards for {len(self.seats)} seats")
        if not self.cards:
            self.cards = frozenset().union(*self.seat_cards)


class Engine:
    game_id: str = ""
    max_actions: int = 2000           # a match still running after this many actions is a conflict
    # Keywords whose rules this engine implements; a card keyword outside it is a conflict.
    keywords: frozenset[str] = frozenset()
    # The player counts `setups(players=N)` accepts, and the variants it plays, by name (name ->
    # what it changes, in one line). game.yaml `variants:` declares each one fully (docs/engines.md).
    player_counts: tuple[int, ...] = (2,)
    variants: dict[str, str] = {}

    def __init__(self, game):
        self.game = game

    # -- the match ------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        """The matchups to play: from the given decks, or the game's defaults.

        `players` (one of player_counts; None: the engine's usual counts) and `variants` (keys of
        `variants`) come from `cardgen simulate --players/--variant`, which has checked the names.
        A combination the rules cannot play raises ContentError saying why. Several decks meet in
        every ordered pair (both seatings), so a bot per seat meets each deck from both sides.
        """
        raise NotImplementedError

    def check_match_options(self, players: int | None = None, variants=()) -> None:
        """Raise ContentError for a player count outside player_counts or a variant name not in
        variants: what `setups(players=, variants=)` may be asked for at all."""
        issues = []
        for name in dict.fromkeys(variants):
            problem = self.game.variant_problem(name, tuple(self.variants))
            if problem:
                issues.append(Issue(None, None, "--variant", problem))
        if players is not None and players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            issues.append(Issue(None, None, "--players", f"{self.game.id} plays with {counts} players, "
                                                         f"not {players}"))
        if issues:
            raise ContentError(issues)

    def initial_state(self, setup: Setup, rng: random.Random):
        raise NotImplementedError

    def current_player(self, state) -> int:
        """Whose decision it is (-1 once the match is over)."""
        raise NotImplementedError

    def legal_actions(self, state) -> list[Action]:
        raise NotImplementedError

    def apply(self, state, action: Action):
        """Apply a move that may not be legal (a scenario's, a replayed one): IllegalAction unless
        it is on `legal_actions(state)`, else `apply_chosen`. A state that keeps its legal list in
        a `legal` attribute (None when stale) is not asked for it again."""
        legal = getattr(state, "legal", None)
        if legal is None:
            legal = self.legal_actions(state)
        if not is_listed(action, legal):
            raise IllegalAction(f"{action!r} is not legal here")
        return self.apply_chosen(state, action)

    def apply_chosen(self, state, action: Action):
        """Apply a move taken from `legal_actions(state)`: mutate the state and return it. The
        simulator and the bots call this with their choices; `apply` checks other moves first."""
        if type(self).apply is not Engine.apply:    # an engine written when `apply` was the one to
            return self.apply(state, action)        # write (it checks its moves itself) still works
        raise NotImplementedError

    def first_player(self, state) -> int:
        """Who moves first in this match (for the first-player advantage figure)."""
        return self.current_player(state)

    def is_over(self, state) -> bool:
        raise NotImplementedError

    def winner(self, state) -> int | None:
        """The winning player once over; None for a draw."""
        raise NotImplementedError

    def clone(self, state):
        raise NotImplementedError

    def determinize(self, state, player: int, rng: random.Random):
        """A copy of the state as `player` may believe it to be: every card they cannot see
        (the opponents' hands, the order of any deck, a face-down card) dealt again at random from
        the cards they could be, so the copy agrees with all that `player` knows. Its own `rng` is
        new, seeded from `rng`, so what chance does in it is not what the match will do. The
        search bot plays its look-ahead on such copies.

        This default is right for a game with no hidden information (chance still hidden, as
        the new generator hides it); a game with hidden cards overrides it (`redeal` helps)."""
        world = self.clone(state)
        world.rng = random.Random(rng.random())
        return world

    # -- checking -------------------------------------------------------------------------------
    def invariants(self, state) -> list[str]:
        """Broken invariants, as messages (cards neither created nor lost, counters in range)."""
        return []

    def unsupported_cards(self) -> dict[str, str]:
        """Cards whose printed effect no rule of the engine implements (name -> why).

        The simulator reports each as a rule conflict, like an undefined keyword.
        """
        return {}

    # -- reporting ------------------------------------------------------------------------------
    def describe(self, state, action: Action) -> str:
        """The action in words, for `cardgen replay` (state is the one before the action)."""
        return repr(action)

    def describe_outcome(self, before, after, action: Action) -> str:
        """What the action led to that its description could not say before it was taken (a die
        roll, a blind pick, damage, a player out), in words for `cardgen replay`; `before` is a
        clone of the state before the action, `after` the state now. Empty: nothing to add."""
        return ""

    def card_of(self, state, action: Action) -> str | None:
        """The card an action plays, for per-card play and win rates."""
        return None

    def heuristic(self, state, player: int) -> float:
        """How good the state looks for `player` (the greedy bot maximises it)."""
        return 0.0

    def bots(self) -> dict[str, Any]:
        """Extra bots this game has (name -> factory(engine, rng, player)), e.g. a solo-mode AI."""
        return {}

    def check_bots(self, bot_names: list[str]) -> None:
        """Raise ContentError (field "--bots") for a bot the user may not seat by name, such as an
        AI whose own rules only a setup can give its seat (Setup.bots seats it)."""

    # -- scenarios ------------------------------------------------------------------------------
    def scenario_state(self, setup: dict, rng: random.Random):
        """A position described by a scenario file's `setup:`."""
        raise NotImplementedError

    def parse_action(self, state, spec) -> Action:
        """A scenario's written action (as the engine documents it) -> an Action."""
        raise NotImplementedError

    def observe(self, state) -> dict:
        """Plain nested data a scenario's `expect:` is compared against."""
        raise NotImplementedError

    def table_setup(self, setup: dict) -> dict:
        """A scenario's `setup:` as [[example-table]] draws it: {"p0": {zone: [card names]},
        "p1": {...}, zone: [...]}, a zone named by its game.yaml play_area `state` key. The
        default is the setup as written, for an engine whose setup already has that form."""
        return setup
