"""The rules engine of this game: what `cardgen simulate`, `cardgen replay` and `cardgen check` play.

game.yaml names this file (`engine: engine.py`). cardgen runs it as ordinary Python, with the
contract of cardgen/engines/base.py, explained in docs/engines.md. Change it with your rules: the
simulator then tells you when a match loops, gets stuck or breaks a count, and how often each card
is played and wins.

The match, as this engine plays it (the numbers come from game.yaml `tables`):

- Setup: each player shuffles their deck, draws `hand_size` cards and takes `start_honey` honey;
  a coin flip decides who starts.
- A turn: Collect (`meadow_honey` from the meadow, and each of your bees makes its honey); then,
  in any order, play cards from your hand by paying their cost and fill at most one jar by paying
  `jar_cost` honey; then end the turn (Queens may fill a jar; draw back up to `hand_size`).
  Unspent honey stays for later turns.
- A card drawn from an empty deck: the discard pile is shuffled into a new deck first. With both
  empty, the player draws nothing.
- The end: filling your `jars_to_win`-th jar wins at once. After `season_rounds` rounds the frost
  ends the season: more jars wins, then more honey; equal in both is a draw.

Cards: a bee without text needs no code here: its cost, honey and keywords come from its card
file. A card whose text does something has its rule below, by card name, in one of the tables
WHEN_PLAYED, STINGS, AT_END_OF_TURN and GUARDS. A card with text in none of them is reported by
`cardgen simulate` as a rule conflict ("card-text"), so a new card is never played as if blank.

Actions (tuples):
    ("play", "Card Name")        play a card from your hand
    ("play", "Card Name", i)     play a card that stings: i is the opposing bee, by its place in play
                                 (0 first); with no bee it may sting, it is played without one
    ("fill",)                    pay jar_cost honey to fill a jar (once a turn)
    ("end",)                     end the turn
    ("keep",) / ("bottom",)      after Forager: leave the top card of your deck, or put it at the bottom

Scenario actions (`parse_action`): "play Worker Bee", "play Wasp Raid on Forager" (the first
opposing bee of that name), "fill", "end", "keep", "bottom".

Scenario setup (every key optional; the players are p0 and p1)::

    round: 1          # the round number
    first: 0          # who started the match (a round ends when the turn comes back to them)
    to_move: 0        # whose turn it is; it is already past their Collect
    filled: false     # whether that player has filled a jar this turn
    p0: {honey: 0, jars: 0, hand: [...], deck: [...top card first], discard: [...], bees: [...],
         frost: false}   # frost: this player's bees make no honey at their next Collect
    p1: {...}

Observe (what a scenario's `expect:` is compared with)::

    round, to_move (-1 once over), over, winner (0, 1, "draw", or null while playing), looking
    (whether a Forager's choice is waiting), p0 / p1: {honey, jars, hand (sorted), hand_size, deck
    (top card first), deck_size, discard (sorted), bees (in play order), frost}
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from cardgen.engines.base import Engine, Setup, action_words, redeal
from cardgen.errors import ContentError, Issue

END, FILL, KEEP, BOTTOM = ("end",), ("fill",), ("keep",), ("bottom",)


# -- what card texts do ----------------------------------------------------------------------------
# Each rule is a function of (engine, state, player). Add one for every card whose text does
# something, under the card's name.

def _gain_honey(amount):
    def gain(engine, s, p):
        s.honey[p] += amount
    return gain


def _frost_opponent(engine, s, p):
    s.frost[1 - p] = True


def _look_at_top(engine, s, p):
    if s.decks[p]:              # (an empty deck has nothing to look at)
        s.looking = True        # the player now chooses ("keep",) or ("bottom",)


def _queen_fills(engine, s, p):
    if len(s.bees[p]) >= 3:
        engine.fill_jar(s, p)


WHEN_PLAYED = {               # after the card is paid for and, for a bee, is in play
    "Clover Field": _gain_honey(2),
    "Sudden Frost": _frost_opponent,
    "Forager": _look_at_top,
}
STINGS = {"Wasp Raid": 2}     # card -> the highest cost of an opposing bee it may discard
AT_END_OF_TURN = {"Queen of the Meadow": _queen_fills}
GUARDS = {"Guard Bee"}        # while one is in play, its owner's other bees cannot be stung


class HiveState:
    __slots__ = ("rng", "cur", "first", "round", "honey", "jars", "hands", "decks", "discards",
                 "bees", "frost", "filled", "looking", "over", "winner", "owned")

    def copy(self) -> HiveState:
        c = HiveState()
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c.cur, c.first, c.round = self.cur, self.first, self.round
        c.filled, c.looking, c.over, c.winner = self.filled, self.looking, self.over, self.winner
        c.owned = self.owned
        c.honey, c.jars, c.frost = self.honey[:], self.jars[:], self.frost[:]
        c.hands = [h[:] for h in self.hands]
        c.decks = [d[:] for d in self.decks]          # top card last
        c.discards = [d[:] for d in self.discards]
        c.bees = [b[:] for b in self.bees]
        return c


class HiveEngine(Engine):
    keywords = frozenset({"Swarm", "Shelter"})

    def __init__(self, game):
        super().__init__(game)
        tables = game.tables
        self.jars_to_win = int(tables.get("jars_to_win", 6))
        self.hand_size = int(tables.get("hand_size", 4))
        self.jar_cost = int(tables.get("jar_cost", 5))
        self.season_rounds = int(tables.get("season_rounds", 20))
        self.start_honey = int(tables.get("start_honey", 2))
        self.meadow_honey = int(tables.get("meadow_honey", 1))
        self.cost, self.makes, self.is_bee, self.kw, self.text = {}, {}, {}, {}, {}
        for name, card in game.cards.items():
            f = card.fields
            self.cost[name] = int(f.get("cost", 0))
            self.is_bee[name] = card.type == "bee"
            self.makes[name] = int(f.get("honey", 0))
            self.kw[name] = frozenset(f.get("keywords") or ())
            self.text[name] = f.get("text")
        # A rule under a name that is no card (renamed, removed, misspelt) would never run: say so.
        stale = sorted({*WHEN_PLAYED, *STINGS, *AT_END_OF_TURN, *GUARDS} - set(game.cards))
        if stale:
            raise ContentError([Issue(Path(__file__), None, None, "rules for cards the game does not "
                                      f"have: {', '.join(stale)} (renamed or removed?)")])

    def unsupported_cards(self) -> dict[str, str]:
        ruled = set(WHEN_PLAYED) | set(STINGS) | set(AT_END_OF_TURN) | set(GUARDS)
        return {name: "its text has no rule in engine.py (add one to WHEN_PLAYED, STINGS, "
                      "AT_END_OF_TURN or GUARDS)"
                for name, text in self.text.items() if text and name not in ruled}

    # -- the match ------------------------------------------------------------------------------
    def setups(self, decks=None, *, players=None, variants=()) -> list[Setup]:
        if not decks:
            from cardgen.model import load_deck

            decks = [load_deck(path) for path in sorted(Path(self.game.folder, "decks").glob("*.yaml"))]
        lists = [(d.name, [e.card.name for e, n in d.counted_entries() for _ in range(n)]) for d in decks]
        # every pair of decks in both seatings; a single deck plays the mirror match
        pairs = list(itertools.permutations(lists, 2)) or [(d, d) for d in lists[:1]]
        return [Setup(label=f"{a[0]} vs {b[0]}", seats=[a[0], b[0]], options={"decks": [a[1], b[1]]},
                      seat_cards=(frozenset(a[1]), frozenset(b[1]))) for a, b in pairs]

    def initial_state(self, setup: Setup, rng: random.Random) -> HiveState:
        s = HiveState()
        s.rng = rng
        s.decks = [list(cards) for cards in setup.options["decks"]]
        for deck in s.decks:
            rng.shuffle(deck)
        s.owned = [len(d) for d in s.decks]
        s.hands, s.discards, s.bees = [[], []], [[], []], [[], []]
        s.honey, s.jars, s.frost = [self.start_honey] * 2, [0, 0], [False, False]
        s.round, s.filled, s.looking, s.over, s.winner = 1, False, False, False, None
        s.first = s.cur = rng.randrange(2)          # the coin flip
        for p in (0, 1):
            self.draw_up(s, p)
        self._collect(s, s.cur)
        return s

    def current_player(self, s: HiveState) -> int:
        return -1 if s.over else s.cur

    def first_player(self, s: HiveState) -> int:
        return s.first

    def is_over(self, s: HiveState) -> bool:
        return s.over

    def winner(self, s: HiveState):
        return s.winner

    def clone(self, s: HiveState) -> HiveState:
        return s.copy()

    def determinize(self, s: HiveState, player: int, rng: random.Random) -> HiveState:
        """The match as `player` may believe it, for the search bot: what they cannot see (the
        opponent's hand, the order of both decks) dealt again at random. A Forager's player knows
        the top card they are looking at, so it stays. Add here any card your rules hide."""
        w = super().determinize(s, player, rng)      # a clone with a generator of its own
        o = 1 - player
        redeal(rng, [w.hands[o], w.decks[o]])
        seen = 1 if w.looking and w.cur == player else 0
        unseen = w.decks[player][:len(w.decks[player]) - seen]     # (the top card is the last)
        redeal(rng, [unseen])
        w.decks[player][:len(unseen)] = unseen
        return w

    def legal_actions(self, s: HiveState) -> list:
        if s.over:
            return []
        if s.looking:
            return [KEEP, BOTTOM]
        p = s.cur
        honey = s.honey[p]
        actions = [END]
        for name in dict.fromkeys(s.hands[p]):      # each different card once, in hand order
            if self.cost[name] > honey:
                continue
            if name in STINGS:
                targets = self.sting_targets(s, p, STINGS[name])
                actions += [("play", name, i) for i in targets] or [("play", name)]
            else:
                actions.append(("play", name))
        if not s.filled and honey >= self.jar_cost:
            actions.append(FILL)
        return actions

    def sting_targets(self, s: HiveState, p: int, max_cost: int) -> list[int]:
        """The places of the opposing bees a sting may discard: cost at most max_cost, no
        Shelter, and none while their owner has a Guard Bee in play."""
        bees = s.bees[1 - p]
        if any(b in GUARDS for b in bees):
            return []
        return [i for i, b in enumerate(bees) if self.cost[b] <= max_cost and "Shelter" not in self.kw[b]]

    def apply_chosen(self, s: HiveState, action) -> HiveState:
        # (a move from legal_actions(s): the base class's apply checks any other move first)
        verb = action[0]
        p = s.cur
        if verb == "play":
            self._play(s, p, action[1], action[2] if len(action) > 2 else None)
        elif verb == "fill":
            s.filled = True
            s.honey[p] -= self.jar_cost
            self.fill_jar(s, p)
        elif verb in ("keep", "bottom"):
            s.looking = False
            if verb == "bottom":
                s.decks[p].insert(0, s.decks[p].pop())
        else:
            self._end_turn(s, p)
        return s

    def _play(self, s: HiveState, p: int, name: str, target: int | None) -> None:
        s.hands[p].remove(name)
        s.honey[p] -= self.cost[name]
        if "Swarm" in self.kw[name]:        # one honey for each other bee you have in play
            s.honey[p] += len(s.bees[p])
        if self.is_bee[name]:
            s.bees[p].append(name)
        else:
            s.discards[p].append(name)
        if target is not None:
            o = 1 - p
            s.discards[o].append(s.bees[o].pop(target))
        rule = WHEN_PLAYED.get(name)
        if rule is not None:
            rule(self, s, p)

    def fill_jar(self, s: HiveState, p: int) -> None:
        s.jars[p] += 1
        if s.jars[p] >= self.jars_to_win:
            s.over, s.winner = True, p

    def _end_turn(self, s: HiveState, p: int) -> None:
        for name in list(s.bees[p]):
            rule = AT_END_OF_TURN.get(name)
            if rule is not None and not s.over:
                rule(self, s, p)
        if s.over:
            return
        self.draw_up(s, p)
        o = 1 - p
        if o == s.first:
            s.round += 1
            if s.round > self.season_rounds:
                self._frost_ends_season(s)
                return
        s.cur, s.filled = o, False
        self._collect(s, o)

    def _collect(self, s: HiveState, p: int) -> None:
        s.honey[p] += self.meadow_honey
        if s.frost[p]:
            s.frost[p] = False          # frosted bees make nothing this once
        else:
            s.honey[p] += sum(self.makes[b] for b in s.bees[p])

    def _frost_ends_season(self, s: HiveState) -> None:
        s.over = True
        j, h = s.jars, s.honey
        if j[0] != j[1]:
            s.winner = 0 if j[0] > j[1] else 1
        elif h[0] != h[1]:
            s.winner = 0 if h[0] > h[1] else 1

    def draw_up(self, s: HiveState, p: int) -> None:
        hand = s.hands[p]
        while len(hand) < self.hand_size:
            self.refill_deck(s, p)
            if not s.decks[p]:
                return
            hand.append(s.decks[p].pop())

    def refill_deck(self, s: HiveState, p: int) -> None:
        """An empty deck takes the shuffled discard pile."""
        if not s.decks[p] and s.discards[p]:
            s.decks[p], s.discards[p] = s.discards[p], []
            s.rng.shuffle(s.decks[p])

    # -- checking and reporting -----------------------------------------------------------------
    def invariants(self, s: HiveState) -> list[str]:
        out = []
        for p in (0, 1):
            held = len(s.decks[p]) + len(s.hands[p]) + len(s.discards[p]) + len(s.bees[p])
            if held != s.owned[p]:
                out.append(f"P{p + 1} holds {held} cards in all, not the {s.owned[p]} of their deck")
            if s.honey[p] < 0:
                out.append(f"P{p + 1} has {s.honey[p]} honey")
            if not 0 <= s.jars[p] <= self.jars_to_win:
                out.append(f"P{p + 1} has {s.jars[p]} jars")
        return out

    def card_of(self, s: HiveState, action) -> str | None:
        return action[1] if action[0] == "play" else None

    def describe(self, s: HiveState, action) -> str:
        verb = action[0]
        p = s.cur
        if verb == "play":
            name = action[1]
            what = f"plays {name} for {self.cost[name]} honey"
            if len(action) > 2:
                what += f", stinging P{2 - p}'s {s.bees[1 - p][action[2]]}"
            return what
        if verb == "fill":
            return f"fills a jar ({s.jars[p] + 1} of {self.jars_to_win})"
        if verb == "keep":
            return "leaves the top card of their deck"
        if verb == "bottom":
            return "puts the top card of their deck at the bottom"
        return f"ends the turn with {s.honey[p]} honey"

    def describe_outcome(self, before: HiveState, after: HiveState, action) -> str:
        p = before.cur
        notes = []
        if after.jars[p] > before.jars[p] and action != FILL:
            notes.append(f"a Queen fills a jar ({after.jars[p]} of {self.jars_to_win})")
        if action == END and not after.over:
            o = after.cur
            notes.append(f"P{o + 1} collects {after.honey[o] - before.honey[o]} honey "
                         f"({after.honey[o]} in all)")
        if after.over:
            w = after.winner
            notes.append("the season ends in a draw" if w is None else f"P{w + 1} wins with "
                         f"{after.jars[w]} jars")
        return "; ".join(notes)

    def heuristic(self, s: HiveState, player: int) -> float:
        """Jars, honey and what the bees in play make, against the opponent's (public zones only)."""
        if s.over:
            return 0.0 if s.winner is None else 1000.0 if s.winner == player else -1000.0

        def worth(p):
            return s.jars[p] * self.jar_cost * 2 + s.honey[p] + 2 * sum(self.makes[b] for b in s.bees[p])
        return float(worth(player) - worth(1 - player))

    # -- scenarios ------------------------------------------------------------------------------
    def scenario_state(self, setup: dict, rng: random.Random) -> HiveState:
        setup = setup or {}
        s = HiveState()
        s.rng = rng
        s.round = int(setup.get("round", 1))
        s.first = int(setup.get("first", 0))
        s.cur = int(setup.get("to_move", s.first))
        s.filled = bool(setup.get("filled", False))
        s.looking, s.over, s.winner = False, False, None
        s.honey, s.jars, s.frost = [0, 0], [0, 0], [False, False]
        s.hands, s.decks, s.discards, s.bees = [[], []], [[], []], [[], []], [[], []]
        for p in (0, 1):
            seat = setup.get(f"p{p}") or {}
            s.honey[p] = int(seat.get("honey", 0))
            s.jars[p] = int(seat.get("jars", 0))
            s.frost[p] = bool(seat.get("frost", False))
            for zone, key in ((s.hands, "hand"), (s.discards, "discard"), (s.bees, "bees")):
                zone[p] = [self._card(n) for n in seat.get(key) or ()]
            s.decks[p] = [self._card(n) for n in reversed(seat.get("deck") or ())]
        s.owned = [len(s.hands[p]) + len(s.decks[p]) + len(s.discards[p]) + len(s.bees[p]) for p in (0, 1)]
        return s

    def _card(self, name) -> str:
        if name not in self.cost:
            raise ValueError(f"no card named {name!r}")
        return name

    def parse_action(self, s: HiveState, spec):
        words = action_words(spec)
        verb = str(words[0]).lower()
        if verb in ("end", "fill", "keep", "bottom") and len(words) == 1:
            return (verb,)
        if verb == "play" and len(words) == 2:
            name, _, target = str(words[1]).partition(" on ")
            name = self._card(name.strip())
            if not target:
                return ("play", name)
            bees = s.bees[1 - s.cur]
            if target.strip() not in bees:
                raise ValueError(f"no opposing bee named {target.strip()!r} in play")
            return ("play", name, bees.index(target.strip()))
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, s: HiveState) -> dict:
        out = {"round": s.round, "to_move": self.current_player(s), "over": s.over,
               "winner": (s.winner if s.winner is not None else "draw") if s.over else None,
               "looking": s.looking}
        for p in (0, 1):
            out[f"p{p}"] = {
                "honey": s.honey[p], "jars": s.jars[p], "hand": sorted(s.hands[p]),
                "hand_size": len(s.hands[p]), "deck": s.decks[p][::-1], "deck_size": len(s.decks[p]),
                "discard": sorted(s.discards[p]), "bees": list(s.bees[p]), "frost": s.frost[p]}
        return out


ENGINE = HiveEngine
