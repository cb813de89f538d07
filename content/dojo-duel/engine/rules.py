"""Dojo Duel rules: the engine's card tables, setups (deck pairings), the match (initial state,
legal actions, applying an action, the comparison and the Clean), cloning and invariants."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from cardgen.engines.base import IllegalAction, RuleConflict, Setup, redeal

from .state import (
    ALTERNATE_FIRST_TURN,
    ANSWER,
    BELOW_ZERO_TIEBREAK,
    DRAW,
    DRAW_ACTION,
    EXTRA,
    EXTRA_LIST,
    FIRST_TURN,
    KEEP_ACTION,
    KICKER,
    NO_CARD,
    OVER,
    PASS_ACTION,
    PHASE_NAMES,
    PICK,
    PICK_ACTION,
    PICK_LIST,
    PLAIN_FIELDS,
    QUICK_BOUT,
    REVEAL,
    REVEAL_ACTION,
    REVEAL_LIST,
    ROUND_LIMIT,
    RUNNING,
    SECOND_TURN,
    DojoState,
    Info,
    is_count,
)


def _number(tables: dict, table: str, key: str, default: int) -> int:
    value = tables.get(table)
    value = value.get(key, default) if isinstance(value, dict) else default
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default


class RulesMixin:
    """The rules half of DojoDuelEngine (cardgen.engines.base.Engine comes after it in the MRO)."""

    # The house variants it plays (game.yaml `variants` says what each departs from); with none
    # the match follows the published rules.
    variants = {
        ROUND_LIMIT: "the bout ends after round 20 (tables.round_limit): more points wins, equal "
                     "points is a draw",
        BELOW_ZERO_TIEBREAK: "both players at 0 or below after the same round: the one with more "
                             "points left (counting below 0) wins, equal points is a draw",
        ALTERNATE_FIRST_TURN: "the first Turn passes to the other player every round",
        QUICK_BOUT: "both start on 10 points and the bout ends after round 10 (tables.quick_bout), "
                    "as with the round limit",
    }

    def __init__(self, game):
        super().__init__(game)
        tables = game.tables if isinstance(game.tables, dict) else {}
        self.start_points = int(tables.get("starting_points", 20))
        self.hand_size = int(tables.get("hand_size", 5))
        self.limit_rounds = _number(tables, "round_limit", "rounds", 20)
        self.quick_points = _number(tables, "quick_bout", "points", 10)
        self.quick_rounds = _number(tables, "quick_bout", "rounds", 10)
        self.extra_draw = _number(tables, "first_draw", "extra_draw", 1)

        # The effect grammar of this game is the two printed numbers: a technique adds its Yin to
        # its owner's cushion and its Yang to their attack. Anything else printed needs a rule.
        self._unsupported: dict[str, str] = {}
        names, yins, yangs = [], [], []
        for card in game.cards.values():
            yin, yang = card.fields.get("yin"), card.fields.get("yang")
            extra = sorted(k for k, v in card.fields.items() if k not in PLAIN_FIELDS and v)
            if not is_count(yin) or not is_count(yang):
                self._unsupported[card.name] = "a technique needs whole-number yin and yang"
            elif extra:
                self._unsupported[card.name] = (
                    f"printed {', '.join(extra)} matches no rule: a Dojo Duel technique is its "
                    "Yin and Yang only")
            names.append(card.name)
            yins.append(yin if is_count(yin) else 0)
            yangs.append(yang if is_count(yang) else 0)
        self.names = names
        self.kind = {n: i for i, n in enumerate(names)}
        self.yin = yins
        self.yang = yangs
        self.value = [a + b for a, b in zip(yins, yangs, strict=True)]
        self.answer_action = [("answer", n) for n in names]
        self.kicker_action = [("kicker", n) for n in names]
        self._answer_kind = {a: i for i, a in enumerate(self.answer_action)}
        self._kicker_kind = {a: i for i, a in enumerate(self.kicker_action)}

    # -- setups ---------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        if not decks:
            folder = Path(self.game.folder) / "decks"
            decks = sorted(folder.glob("*.yaml"))
        loaded = [self._deck_list(d) for d in decks]
        # Every pair of different decks, in both seatings (so a bot per seat meets every deck
        # from both sides); a single deck plays the mirror match. A match plays the variants
        # asked for plus those either deck file names.
        pairs = list(itertools.permutations(loaded, 2)) or [(d, d) for d in loaded[:1]]
        return [Setup(label=f"{a[0]} vs {b[0]}", seats=[a[0], b[0]],
                      options={"decks": [list(a[1]), list(b[1])],
                               "variants": sorted({*variants, *a[2], *b[2]})},
                      seat_cards=(frozenset(a[1]), frozenset(b[1])))
                for a, b in pairs]

    def _deck_list(self, deck) -> tuple[str, list[str], tuple[str, ...]]:
        """(name, card names with repeats, variants) from a Deck, a deck file path, or
        (name, names)."""
        if isinstance(deck, (str, Path)):
            from cardgen.model import load_deck

            deck = load_deck(Path(deck))
        if isinstance(deck, tuple):
            return deck[0], list(deck[1]), ()
        cards: list[str] = []
        for entry, count in deck.counted_entries():
            cards.extend([entry.card.name] * count)
        own = getattr(deck, "variants", None) or ()
        return deck.name, cards, tuple(v for v in own if isinstance(v, str))

    def _rules(self, variants) -> dict:
        """Info's rule settings for a match with these variants (unknown names: ValueError)."""
        variants = sorted(set(variants or ()))
        unknown = [v for v in variants if v not in self.variants]
        if unknown:
            raise ValueError(f"no variant {', '.join(map(repr, unknown))} (the engine plays "
                             f"{', '.join(self.variants)})")
        limits = []
        if ROUND_LIMIT in variants:
            limits.append(self.limit_rounds)
        if QUICK_BOUT in variants:
            limits.append(self.quick_rounds)
        return {"start": self.quick_points if QUICK_BOUT in variants else self.start_points,
                "limit": min(limits) if limits else 0,
                "tiebreak": BELOW_ZERO_TIEBREAK in variants,
                "alternate": ALTERNATE_FIRST_TURN in variants,
                "variants": tuple(variants)}

    # -- the match ------------------------------------------------------------------------------
    def initial_state(self, setup: Setup, rng: random.Random) -> DojoState:
        kinds = []
        for p, names in enumerate(setup.options["decks"]):
            try:
                deck = [self.kind[n] for n in names]
            except KeyError as err:
                raise RuleConflict(f"player {p}'s deck names {err.args[0]!r}, no card of the game") \
                    from None
            if len(deck) < 3:
                raise RuleConflict(f"player {p}'s deck has {len(deck)} cards: a round needs at "
                                   "least 2 besides the kicker")
            kinds.append(deck)
        self._check_can_score(kinds)
        try:
            rules = self._rules(setup.options.get("variants"))
        except ValueError as err:
            raise RuleConflict(str(err)) from None
        s = DojoState()
        s.rng = rng
        s.info = info = self._info(kinds, rules)
        s.points = [info.start, info.start]
        for p in (0, 1):
            deck = list(kinds[p])
            rng.shuffle(deck)
            s.decks[p] = deck
        s.first = rng.randrange(2)
        for p in (0, 1):
            self._draw(s, p, self.hand_size)
        s.phase = KICKER
        s.to_move = s.first
        return s

    def _info(self, kinds, rules: dict) -> Info:
        yin, yang = self.yin, self.yang
        avg_yin = [sum(yin[k] for k in d) / len(d) if d else 0.0 for d in kinds]
        avg_yang = [sum(yang[k] for k in d) / len(d) if d else 0.0 for d in kinds]
        return Info([sorted(d) for d in kinds], avg_yin, avg_yang, **rules)

    def _check_can_score(self, kinds) -> None:
        """RuleConflict when no round can ever cost anybody a point (a match with no winner)."""
        for a in (0, 1):
            attack = sum(sorted((self.yang[k] for k in kinds[a]), reverse=True)[:3])
            guard = sum(sorted(self.yin[k] for k in kinds[1 - a])[:2])
            if attack > guard:
                return
        raise RuleConflict("stalemate: no Yang total these decks can make (two field cards and a "
                           "kicker) ever beats the lowest Yin total, so nobody can lose a point "
                           "and the bout can never end")

    def _draw(self, s: DojoState, p: int, n: int) -> None:
        hand, deck = s.hands[p], s.decks[p]
        for _ in range(n):
            if not deck:
                rec = s.recycle[p]
                if not rec:
                    return                      # ruling: keep playing with what you hold
                s.rng.shuffle(rec)
                s.decks[p] = deck = rec
                s.recycle[p] = []
            hand.append(deck.pop())

    def current_player(self, state: DojoState) -> int:
        return -1 if state.phase == OVER else state.to_move   # -1 = NOBODY

    def legal_actions(self, state: DojoState) -> list:
        phase = state.phase
        if phase == PICK:
            return PICK_LIST
        if phase == ANSWER:
            acts = self.answer_action
            return [acts[k] for k in sorted(set(state.hands[state.to_move]))]
        if phase == REVEAL:
            return REVEAL_LIST
        if phase == KICKER:
            acts = self.kicker_action
            return [acts[k] for k in sorted(set(state.hands[state.to_move]))]
        if phase == EXTRA:
            return EXTRA_LIST
        return []

    def apply_chosen(self, s: DojoState, action) -> DojoState:
        phase = s.phase
        p = s.to_move
        if phase == PICK:
            if action != PICK_ACTION:
                raise IllegalAction(f"{action!r}: the turning player must pick")
            hand = s.hands[1 - p]
            n = len(hand)
            if not n:
                raise RuleConflict(f"player {1 - p} has no card in hand to be picked")
            i = int(s.rng.random() * n)
            card = hand[i]
            hand[i] = hand[-1]
            hand.pop()
            s.field[1 - p].append(card)
            s.phase = ANSWER
            return s
        if phase == ANSWER:
            k = self._answer_kind.get(action, -1)      # -1 = NO_CARD
            hand = s.hands[p]
            if k < 0 or k not in hand:
                raise IllegalAction(f"{action!r}: not a card in player {p}'s hand to answer with")
            hand.remove(k)
            s.field[p].append(k)
            if s.turn == 0:                 # = FIRST_TURN
                s.turn = 1                  # = SECOND_TURN
                s.to_move = 1 - p
                s.phase = PICK
                return s
            return self._open_window(s)
        if phase == REVEAL:
            if action == REVEAL_ACTION:
                s.krev[p] = True
            elif action != KEEP_ACTION:
                raise IllegalAction(f"{action!r}: reveal or keep the kicker")
            first = s.first
            if p != first and s.kick[first] >= 0 and not s.krev[first]:
                s.to_move = first
                return s
            return self._resolve(s)
        if phase == KICKER:
            k = self._kicker_kind.get(action, -1)      # -1 = NO_CARD
            hand = s.hands[p]
            if k < 0 or k not in hand:
                raise IllegalAction(f"{action!r}: not a card in player {p}'s hand")
            hand.remove(k)
            s.kick[p] = k
            if p == s.first:
                s.to_move = 1 - p
                return s
            # Both kickers are down: each may now draw one more card, the first-Turn player
            # deciding first.
            return self._offer_extra(s, s.first)
        if phase == EXTRA:
            if action == DRAW_ACTION:
                self._draw(s, p, self.extra_draw)
            elif action != PASS_ACTION:
                raise IllegalAction(f"{action!r}: draw the extra card or pass")
            if p == s.first:
                return self._offer_extra(s, 1 - p)
            return self._start_turns(s)
        raise IllegalAction(f"{action!r}: the match is over")

    def _offer_extra(self, s: DojoState, p: int) -> DojoState:
        """Ask player p whether they draw the first Draw's extra card; skip a player with nothing
        left to draw (deck and recycle pile empty), and after the second player start the Turns."""
        if s.decks[p] or s.recycle[p]:
            s.phase = EXTRA
            s.to_move = p
            return s
        if p == s.first:
            return self._offer_extra(s, 1 - p)
        return self._start_turns(s)

    def _start_turns(self, s: DojoState) -> DojoState:
        s.phase = PICK
        s.to_move = s.first
        s.turn = 0                          # = FIRST_TURN
        return s

    def _open_window(self, s: DojoState) -> DojoState:
        """After both Turns: ask about face-down kickers (second-Turn player first), or resolve."""
        second = 1 - s.first
        if s.kick[second] >= 0 and not s.krev[second]:
            s.phase = REVEAL
            s.to_move = second
            return s
        first = s.first
        if s.kick[first] >= 0 and not s.krev[first]:
            s.phase = REVEAL
            s.to_move = first
            return s
        return self._resolve(s)

    def _resolve(self, s: DojoState) -> DojoState:
        yin, yang = self.yin, self.yang
        f0, f1 = s.field
        yin0 = yang0 = yin1 = yang1 = 0
        for k in f0:
            yin0 += yin[k]
            yang0 += yang[k]
        for k in f1:
            yin1 += yin[k]
            yang1 += yang[k]
        kick, krev = s.kick, s.krev
        if krev[0]:
            yin0 += yin[kick[0]]
            yang0 += yang[kick[0]]
        if krev[1]:
            yin1 += yin[kick[1]]
            yang1 += yang[kick[1]]
        loss0 = yang1 - yin0 if yang1 > yin0 else 0
        loss1 = yang0 - yin1 if yang0 > yin1 else 0
        pts = s.points
        pts[0] -= loss0
        pts[1] -= loss1
        s.last_loss = [loss0, loss1]
        s.last_totals = [yin0, yang0, yin1, yang1]
        # The Clean
        rec = s.recycle
        rec[0].extend(f0)
        rec[1].extend(f1)
        s.field = [[], []]
        for q in (0, 1):
            if krev[q]:
                rec[q].append(kick[q])
                kick[q] = -1                # = NO_CARD
                krev[q] = False
                s.kused[q] = True
        # The end: reduced to 0 or below, you lose; both at once is a tie (below-zero-tiebreak:
        # more points wins). Only a round limit (a variant) ends a bout otherwise.
        a, b = pts
        info = s.info
        if a <= 0 or b <= 0:
            if a > 0:
                s.result = 0
            elif b > 0:
                s.result = 1
            elif info.tiebreak:
                s.result = 0 if a > b else 1 if b > a else DRAW
            else:
                s.result = DRAW
            s.phase = OVER
            s.to_move = -1              # = NOBODY
            return s
        if info.limit and s.round >= info.limit:
            s.result = 0 if a > b else 1 if b > a else DRAW
            s.phase = OVER
            s.to_move = -1              # = NOBODY
            return s
        # The next round: the Draw; the toss winner takes the first Turn again
        # (alternate-first-turn: the other player does)
        s.round += 1
        if info.alternate:
            s.first = 1 - s.first
        first = s.first
        s.turn = 0                          # = FIRST_TURN
        hs = self.hand_size
        for q in (0, 1):
            short = hs - len(s.hands[q])
            if short > 0:
                self._draw(s, q, short)
        s.phase = PICK
        s.to_move = first
        return s

    def first_player(self, state: DojoState) -> int:
        return state.first

    def is_over(self, state: DojoState) -> bool:
        return state.phase == OVER

    def winner(self, state: DojoState) -> int | None:
        r = state.result
        return r if r >= 0 else None

    def clone(self, state: DojoState) -> DojoState:
        c = DojoState.__new__(DojoState)
        rng = random.Random.__new__(random.Random)   # (no seeding from the OS: setstate sets it)
        rng.setstate(state.rng.getstate())
        c.rng = rng
        c.info = state.info
        c.phase = state.phase
        c.to_move = state.to_move
        c.first = state.first
        c.turn = state.turn
        c.round = state.round
        c.points = state.points[:]
        h, d, r, f = state.hands, state.decks, state.recycle, state.field
        c.hands = [h[0][:], h[1][:]]
        c.decks = [d[0][:], d[1][:]]
        c.recycle = [r[0][:], r[1][:]]
        c.field = [f[0][:], f[1][:]]
        c.kick = state.kick[:]
        c.krev = state.krev[:]
        c.kused = state.kused[:]
        c.result = state.result
        c.last_loss = state.last_loss
        c.last_totals = state.last_totals
        return c

    def determinize(self, state: DojoState, player: int, rng: random.Random) -> DojoState:
        """The match as `player` may believe it: the opponent's hand and face-down kicker dealt
        again from those cards and their deck, the player's own deck in a new order."""
        w = super().determinize(state, player, rng)
        o = 1 - player
        kicker = [w.kick[o]] if w.kick[o] != NO_CARD and not w.krev[o] else []
        redeal(rng, [w.hands[o], w.decks[o], kicker])
        if kicker:
            w.kick[o] = kicker[0]
        redeal(rng, [w.decks[player]])
        return w

    # -- checking -------------------------------------------------------------------------------
    def invariants(self, s: DojoState) -> list[str]:
        out = []
        for p in (0, 1):
            zones = s.hands[p] + s.decks[p] + s.recycle[p] + s.field[p]
            if s.kick[p] >= 0:
                zones.append(s.kick[p])
            if sorted(zones) != s.info.owned[p]:
                out.append(f"player {p}: cards were created or lost across zones")
            if s.points[p] > s.info.start:
                out.append(f"player {p} has {s.points[p]} points, above the start")
            if len(s.hands[p]) > self.hand_size + (1 if s.phase == KICKER else 0):
                out.append(f"player {p} holds {len(s.hands[p])} cards")
            if len(s.field[p]) > 2:
                out.append(f"player {p} has {len(s.field[p])} field cards")
            if s.krev[p] and s.kick[p] < 0:
                out.append(f"player {p} revealed a kicker they do not have")
            if s.kused[p] and s.kick[p] >= 0:
                out.append(f"player {p} has a second kicker")
        limit = s.info.limit
        if s.round < 1 or (limit and s.round > limit):
            out.append(f"round {s.round} outside 1..{limit or 'no limit'}")
        if s.phase == OVER:
            a, b = s.points
            if s.result == RUNNING:
                out.append("the match is over without a result")
            elif min(a, b) > 0 and not (limit and s.round == limit):
                out.append("the match ended with both players above 0 before any round limit")
            else:
                if min(a, b) > 0 or s.info.tiebreak or max(a, b) > 0:
                    want = 0 if a > b else 1 if b > a else DRAW
                else:
                    want = DRAW         # both at 0 or below: a tie
                if s.result != want:
                    out.append(f"result {s.result} does not match points {s.points}")
        else:
            if s.result != RUNNING:
                out.append("a result while the match goes on")
            if min(s.points) <= 0:
                out.append(f"points {s.points} at 0 or below but the match goes on")
            if s.phase not in (KICKER, EXTRA) and (s.field[0] or s.field[1]):
                placed = len(s.field[0]) + len(s.field[1])
                expect = {(PICK, SECOND_TURN): 2, (ANSWER, FIRST_TURN): 1,
                          (ANSWER, SECOND_TURN): 3}.get((s.phase, s.turn), 4)
                if placed != expect:
                    out.append(f"{placed} field cards in phase {PHASE_NAMES[s.phase]}")
        return out

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self._unsupported)
