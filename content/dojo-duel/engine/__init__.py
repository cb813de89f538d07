"""Dojo Duel: the reference engine (two players, Yin against Yang, 20 points each).

The match, as the engine plays it (content/dojo-duel/game.yaml `tables` holds the numbers and the
rulings):

- Setup: each player shuffles their deck; a coin toss (``state.rng``) decides who takes the first
  Turn of round 1.
- First Draw: both draw to 5; each places one card of their hand face down as their kicker (the
  first-Turn player chooses first; the other's choice does not depend on it), then both draw one
  more card.
- A Round is two Turns. In a Turn the turning player points at a card of the opponent's hand
  without seeing it: the pick is blind, so the engine draws it uniformly from that hand with
  ``state.rng``. The opponent puts it face up on their field; the turning player answers with a
  card of their choice from their own hand. The first Turn alternates every round.
- After both Turns, the kicker window: the player who took the second Turn says first whether they
  reveal their face-down kicker, then the other player. A revealed kicker adds its Yin and its Yang
  to its owner's totals for that round and is recycled at the Clean; a kicker is never replaced.
- The comparison, on round totals (two field cards plus a revealed kicker): each player loses the
  opponent's Yang minus their own Yin, if that is above 0. Both losses happen at once.
- The Clean: field cards and revealed kickers go to their owner's recycle pile; a face-down kicker
  stays. Then the game ends if a player is at 0 or below, or after round 20; else both draw to 5
  (an empty deck is refilled by shuffling the recycle pile; with both empty a player keeps what
  they hold) and the next round begins.
- End: at 0 or below you lose at the end of the round; if both are, more points (counting below 0)
  wins and equal is a draw; after round 20 more points wins, equal is a draw.

Setups: every ordered pair of the given decks (default: the sample decks in decks/), so each deck
meets each other deck from both seats; a single deck plays the mirror match.

Cards: a technique's only effect is its two numbers, so `unsupported_cards` names any card without
whole-number Yin and Yang, or carrying printed text or keywords, which no rule here reads.

A pair of decks in which no Yang total can ever get through any Yin total (the three best Yang of
one deck never beat the two lowest Yin of the other, both ways) cannot produce a winner:
`initial_state` raises RuleConflict for it.

Actions (tuples):
    ("kicker", "Card Name")   place that card of your hand face down as your kicker (first Draw)
    ("pick",)                 point blind at a card of the opponent's hand
    ("answer", "Card Name")   answer from your own hand
    ("reveal",) / ("keep",)   in the kicker window: reveal your kicker, or keep it face down

Scenario actions (`parse_action`): the tuple as a list (``[answer, Mirror Guard]``), a string
(``pick``, ``reveal``, ``keep``, ``answer Mirror Guard``, ``kicker Temple Wall``) or a one-key
mapping (``{answer: Mirror Guard}``).

Scenario setup (every key optional; players are ``p0`` and ``p1``)::

    round: 1            # the round number
    first: 0            # who takes the first Turn of this round
    phase: pick         # kicker | pick | answer | reveal
    turn: 1             # 1 or 2: which Turn of the round (pick and answer phases)
    to_move: 1          # only for the reveal phase: who is asked now (default: second-Turn player,
                        # or the first-Turn player if the other has no face-down kicker)
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

Observe (what `expect:` is compared against)::

    round, phase (kicker|pick|answer|reveal|over), to_move (-1 once over), first, turn (1|2),
    points: [p0, p1], over: bool, winner: 0 | 1 | "draw" | null (still playing),
    last_loss: [p0, p1]       # points each lost at the last comparison
    p0 / p1: {points, hand (sorted names), hand_size, deck_size, deck (top first), recycle (sorted),
              recycle_size, field (names, in play order), yin, yang (field totals with a revealed
              kicker), kicker (name or null), kicker_state: face-down | revealed | used | none,
              last_yin, last_yang (the totals at the last comparison)}
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from cardgen.engines.base import Engine, IllegalAction, RuleConflict, Setup, action_words

# Phases
KICKER, PICK, ANSWER, REVEAL, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("kicker", "pick", "answer", "reveal", "over")
RUNNING, DRAW = -2, -1

PICK_ACTION = ("pick",)
REVEAL_ACTION = ("reveal",)
KEEP_ACTION = ("keep",)
PICK_LIST = [PICK_ACTION]
REVEAL_LIST = [REVEAL_ACTION, KEEP_ACTION]

# Fields a technique may carry without needing a rule of the engine.
PLAIN_FIELDS = frozenset({"yin", "yang", "school", "flavour"})


class Info:
    """Per-match data that never changes, shared (not copied) between clones."""

    __slots__ = ("owned", "avg_yin", "avg_yang")

    def __init__(self, owned, avg_yin, avg_yang):
        self.owned = owned          # [sorted kinds of player 0, of player 1]: every card they own
        self.avg_yin = avg_yin      # [player 0, player 1]: average Yin of their cards
        self.avg_yang = avg_yang


class DojoState:
    __slots__ = ("rng", "info", "phase", "to_move", "first", "turn", "round", "points", "hands",
                 "decks", "recycle", "field", "kick", "krev", "kused", "result", "last_loss",
                 "last_totals")

    def __init__(self):
        self.rng = None
        self.info = None
        self.phase = PICK
        self.to_move = 0
        self.first = 0
        self.turn = 0              # 0: the first Turn of the round, 1: the second
        self.round = 1
        self.points = [0, 0]
        self.hands = [[], []]      # card kinds (ints)
        self.decks = [[], []]      # top of the deck is the END of the list
        self.recycle = [[], []]
        self.field = [[], []]
        self.kick = [-1, -1]       # face-down or revealed kicker kind, -1 for none
        self.krev = [False, False]  # kicker revealed this round
        self.kused = [False, False]  # the one kicker of the game has been used (recycled)
        self.result = RUNNING      # RUNNING, DRAW, or the winner
        self.last_loss = [0, 0]
        self.last_totals = [0, 0, 0, 0]   # Yin and Yang of player 0, then of player 1


class DojoDuelEngine(Engine):
    game_id = "dojo-duel"
    max_actions = 1000
    keywords = frozenset()

    def __init__(self, game):
        super().__init__(game)
        tables = game.tables or {}
        self.start_points = int(tables.get("starting_points", 20))
        self.hand_size = int(tables.get("hand_size", 5))
        end = tables.get("end") or {}
        self.round_limit = int(end.get("round_limit", 20)) if isinstance(end, dict) else 20
        first_draw = tables.get("first_draw") or {}
        self.extra_draw = int(first_draw.get("extra_draw", 1)) if isinstance(first_draw, dict) else 1

        # The effect grammar of this game is the two printed numbers: a technique adds its Yin to
        # its owner's cushion and its Yang to their attack. Anything else printed needs a rule.
        self._unsupported: dict[str, str] = {}
        names, yins, yangs = [], [], []
        for card in game.cards.values():
            yin, yang = card.fields.get("yin"), card.fields.get("yang")
            extra = sorted(k for k, v in card.fields.items() if k not in PLAIN_FIELDS and v)
            if not _is_count(yin) or not _is_count(yang):
                self._unsupported[card.name] = "a technique needs whole-number yin and yang"
            elif extra:
                self._unsupported[card.name] = (
                    f"printed {', '.join(extra)} matches no rule: a Dojo Duel technique is its "
                    "Yin and Yang only")
            names.append(card.name)
            yins.append(yin if _is_count(yin) else 0)
            yangs.append(yang if _is_count(yang) else 0)
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
        # from both sides); a single deck plays the mirror match.
        pairs = list(itertools.permutations(loaded, 2)) or [(d, d) for d in loaded[:1]]
        return [Setup(label=f"{a[0]} vs {b[0]}", seats=[a[0], b[0]],
                      options={"decks": [list(a[1]), list(b[1])]}, cards=frozenset([*a[1], *b[1]]))
                for a, b in pairs]

    def _deck_list(self, deck) -> tuple[str, list[str]]:
        """(name, card names with repeats) from a Deck, a deck file path, or (name, names)."""
        if isinstance(deck, (str, Path)):
            from cardgen.model import load_deck

            deck = load_deck(Path(deck))
        if isinstance(deck, tuple):
            return deck[0], list(deck[1])
        cards: list[str] = []
        for entry, count in deck.counted_entries():
            cards.extend([entry.card.name] * count)
        return deck.name, cards

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
        s = DojoState()
        s.rng = rng
        s.info = self._info(kinds)
        s.points = [self.start_points, self.start_points]
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

    def _info(self, kinds) -> Info:
        yin, yang = self.yin, self.yang
        avg_yin = [sum(yin[k] for k in d) / len(d) if d else 0.0 for d in kinds]
        avg_yang = [sum(yang[k] for k in d) / len(d) if d else 0.0 for d in kinds]
        return Info([sorted(d) for d in kinds], avg_yin, avg_yang)

    def _check_can_score(self, kinds) -> None:
        """RuleConflict when no round can ever cost anybody a point (a match with no winner)."""
        for a in (0, 1):
            attack = sum(sorted((self.yang[k] for k in kinds[a]), reverse=True)[:3])
            guard = sum(sorted(self.yin[k] for k in kinds[1 - a])[:2])
            if attack > guard:
                return
        raise RuleConflict("stalemate: no Yang total these decks can make (two field cards and a "
                           "kicker) ever beats the lowest Yin total, so nobody can lose a point")

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
        return -1 if state.phase == OVER else state.to_move

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
            k = self._answer_kind.get(action, -1)
            hand = s.hands[p]
            if k < 0 or k not in hand:
                raise IllegalAction(f"{action!r}: not a card in player {p}'s hand to answer with")
            hand.remove(k)
            s.field[p].append(k)
            if s.turn == 0:
                s.turn = 1
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
            k = self._kicker_kind.get(action, -1)
            hand = s.hands[p]
            if k < 0 or k not in hand:
                raise IllegalAction(f"{action!r}: not a card in player {p}'s hand")
            hand.remove(k)
            s.kick[p] = k
            if p == s.first:
                s.to_move = 1 - p
                return s
            for q in (0, 1):
                self._draw(s, q, self.extra_draw)
            s.phase = PICK
            s.to_move = s.first
            s.turn = 0
            return s
        raise IllegalAction(f"{action!r}: the match is over")

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
                kick[q] = -1
                krev[q] = False
                s.kused[q] = True
        # The end
        a, b = pts
        if a <= 0 or b <= 0 or s.round >= self.round_limit:
            s.result = 0 if a > b else 1 if b > a else DRAW
            s.phase = OVER
            s.to_move = -1
            return s
        # The next round: the Draw, then the other player takes the first Turn
        s.round += 1
        s.first = first = 1 - s.first
        s.turn = 0
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
        rng = random.Random()
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

    # -- checking -------------------------------------------------------------------------------
    def invariants(self, s: DojoState) -> list[str]:
        out = []
        for p in (0, 1):
            zones = s.hands[p] + s.decks[p] + s.recycle[p] + s.field[p]
            if s.kick[p] >= 0:
                zones.append(s.kick[p])
            if sorted(zones) != s.info.owned[p]:
                out.append(f"player {p}: cards were created or lost across zones")
            if s.points[p] > self.start_points:
                out.append(f"player {p} has {s.points[p]} points, above the start")
            if len(s.hands[p]) > self.hand_size + (1 if s.phase == KICKER else 0):
                out.append(f"player {p} holds {len(s.hands[p])} cards")
            if len(s.field[p]) > 2:
                out.append(f"player {p} has {len(s.field[p])} field cards")
            if s.krev[p] and s.kick[p] < 0:
                out.append(f"player {p} revealed a kicker they do not have")
            if s.kused[p] and s.kick[p] >= 0:
                out.append(f"player {p} has a second kicker")
        if not 1 <= s.round <= self.round_limit:
            out.append(f"round {s.round} outside 1..{self.round_limit}")
        if s.phase == OVER:
            if s.result == RUNNING:
                out.append("the match is over without a result")
            elif min(s.points) > 0 and s.round < self.round_limit:
                out.append("the match ended with both players above 0 before the round limit")
            else:
                a, b = s.points
                want = 0 if a > b else 1 if b > a else DRAW
                if s.result != want:
                    out.append(f"result {s.result} does not match points {s.points}")
        else:
            if s.result != RUNNING:
                out.append("a result while the match goes on")
            if min(s.points) <= 0:
                out.append(f"points {s.points} at 0 or below but the match goes on")
            if s.phase != KICKER and (s.field[0] or s.field[1]):
                placed = len(s.field[0]) + len(s.field[1])
                expect = {(PICK, 1): 2, (ANSWER, 0): 1, (ANSWER, 1): 3}.get((s.phase, s.turn), 4)
                if placed != expect:
                    out.append(f"{placed} field cards in phase {PHASE_NAMES[s.phase]}")
        return out

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self._unsupported)

    # -- reporting ------------------------------------------------------------------------------
    def describe(self, state: DojoState, action) -> str:
        p = state.to_move
        verb = action[0] if isinstance(action, tuple) and action else action
        if verb == "pick":
            return f"picks blind from the opponent's hand (round {state.round}, turn {state.turn + 1})"
        if verb == "answer" and action[1] in self.kind:
            k = self.kind[action[1]]
            return f"answers with {action[1]} ({self.yin[k]} Yin / {self.yang[k]} Yang)"
        if verb == "kicker":
            return "places a kicker face down"
        if verb == "reveal":
            k = state.kick[p] if p >= 0 else -1
            return f"reveals their kicker, {self.names[k] if k >= 0 else '?'}"
        if verb == "keep":
            return "keeps their kicker face down"
        return repr(action)

    def describe_outcome(self, before: DojoState, after: DojoState, action) -> str:
        """The blind pick, a revealed kicker's numbers, and when the action ends the round: the
        comparison (each Yang against the other's Yin, points lost), the Clean and the score."""
        p = before.to_move
        verb = action[0] if isinstance(action, tuple) and action else action
        lines = []
        if verb == "pick":
            # the picked card is the one the engine just laid on the defender's field
            lines.append(f"the blind pick is {self._card(after.field[1 - p][-1])}, face up on "
                         f"P{2 - p}'s field")
        elif verb == "reveal":
            k = before.kick[p]
            lines.append(f"its +{self.yin[k]} Yin / +{self.yang[k]} Yang count this round")
        if after.round != before.round or (after.phase == OVER and before.phase != OVER):
            lines += self._round_result(before, after)
        return "\n".join(lines)

    def _card(self, k: int) -> str:
        return f"{self.names[k]} ({self.yin[k]} Yin / {self.yang[k]} Yang)"

    @staticmethod
    def _why_over(pts, rnd) -> str:
        down = [f"P{q + 1}" for q in (0, 1) if pts[q] <= 0]
        if len(down) == 2:
            return "both at 0 or below, more points wins"
        return f"{down[0]} is at 0 or below" if down else f"round {rnd} was the last"

    def _round_result(self, before: DojoState, after: DojoState) -> list[str]:
        """The comparison of the round `before` was in, its Clean, then the score or the end."""
        t, loss, pts = after.last_totals, after.last_loss, after.points
        lines = [f"round {before.round}: P1 {t[0]} Yin / {t[1]} Yang, P2 {t[2]} Yin / {t[3]} Yang"]
        for q in (0, 1):            # q's Yang meets the other's Yin
            o = 1 - q
            meets = f"P{q + 1}'s {t[2 * q + 1]} Yang meets P{o + 1}'s {t[2 * o]} Yin"
            lines.append(f"{meets}: P{o + 1} loses {loss[o]} point{'s' * (loss[o] != 1)}"
                         if loss[o] else f"{meets}: it does not get through")
        # The Clean: a revealed kicker is spent; a deck that ran dry took back its recycle pile
        for q in (0, 1):
            k = before.kick[q]
            if k >= 0 and after.kused[q] and not before.kused[q]:
                lines.append(f"the Clean: P{q + 1}'s kicker {self.names[k]} goes to the recycle pile")
            cleaned = len(before.recycle[q]) + 2 + (k >= 0 and after.kused[q] and not before.kused[q])
            if after.phase != OVER and len(after.recycle[q]) < cleaned:
                lines.append(f"P{q + 1}'s deck ran out: the recycle pile is shuffled into a new deck")
        score = f"P1 {pts[0]}, P2 {pts[1]}"
        if after.phase != OVER:
            lines.append(f"score: {score}")
        elif after.result == DRAW:
            lines.append(f"{self._why_over(pts, before.round)}: a draw, {score}")
        else:
            lines.append(f"{self._why_over(pts, before.round)}: P{after.result + 1} wins, {score}")
        return lines

    def card_of(self, state: DojoState, action) -> str | None:
        """The answer card, or the kicker when it is revealed (placing it face down plays nothing
        yet; a picked card is chosen blind, so it is not known before the move)."""
        if isinstance(action, tuple) and len(action) == 2 and action[0] == "answer":
            return action[1]
        if action == REVEAL_ACTION:
            k = state.kick[state.to_move]
            return self.names[k] if k >= 0 else None
        return None

    # Weights of the greedy heuristic: a face-down kicker in reserve, the cards in hand.
    KICKER_WEIGHT = 0.5
    HAND_WEIGHT = 0.05

    def heuristic(self, s: DojoState, player: int) -> float:
        """Points lead, plus the expected result of the round under way (unknown cards at their
        owner's average), a face-down kicker in reserve and the hand. Reads no hidden card of the
        opponent: only public zones, the player's own hand and kicker, and deck averages."""
        o = 1 - player
        r = s.result
        if r != RUNNING:
            return 1000.0 if r == player else -1000.0 if r == o else 0.0
        v = float(s.points[player] - s.points[o])
        yin, yang = self.yin, self.yang
        fp, fo = s.field[player], s.field[o]
        if fp or fo:
            info = s.info
            my_yin = my_yang = 0.0
            for k in fp:
                my_yin += yin[k]
                my_yang += yang[k]
            missing = 2 - len(fp)
            if missing:
                hand = s.hands[player]
                if hand:
                    n = len(hand)
                    my_yin += missing * sum(yin[k] for k in hand) / n
                    my_yang += missing * sum(yang[k] for k in hand) / n
            o_yin = o_yang = 0.0
            for k in fo:
                o_yin += yin[k]
                o_yang += yang[k]
            missing = 2 - len(fo)
            if missing:
                o_yin += missing * info.avg_yin[o]
                o_yang += missing * info.avg_yang[o]
            if s.krev[player]:
                k = s.kick[player]
                my_yin += yin[k]
                my_yang += yang[k]
            if s.krev[o]:
                k = s.kick[o]
                o_yin += yin[k]
                o_yang += yang[k]
            v += (my_yang - o_yin if my_yang > o_yin else 0.0) - (o_yang - my_yin if o_yang > my_yin
                                                                 else 0.0)
        k = s.kick[player]
        if k >= 0 and not s.krev[player] and s.round < self.round_limit:
            v += self.KICKER_WEIGHT * self.value[k]
        value = self.value
        v += self.HAND_WEIGHT * sum(value[k] for k in s.hands[player])
        return v

    # -- scenarios ------------------------------------------------------------------------------
    def scenario_state(self, setup: dict, rng: random.Random) -> DojoState:
        setup = setup or {}
        s = DojoState()
        s.rng = rng
        s.round = int(setup.get("round", 1))
        s.first = int(setup.get("first", 0))
        phase_name = setup.get("phase", "pick")
        if phase_name not in PHASE_NAMES[:4]:
            raise ValueError(f"phase {phase_name!r}: one of kicker, pick, answer, reveal")
        s.phase = PHASE_NAMES.index(phase_name)
        s.turn = int(setup.get("turn", 1)) - 1
        if s.turn not in (0, 1):
            raise ValueError("turn is 1 or 2")
        kinds = []
        for p in (0, 1):
            spec = setup.get(f"p{p}") or {}
            unknown = set(spec) - {"points", "hand", "deck", "recycle", "field", "kicker",
                                   "kicker_revealed", "kicker_used"}
            if unknown:
                raise ValueError(f"p{p}: unknown setup keys {sorted(unknown)}")
            s.points[p] = int(spec.get("points", self.start_points))
            s.hands[p] = self._kinds(spec.get("hand", []))
            s.decks[p] = self._kinds(spec.get("deck", []))[::-1]
            s.recycle[p] = self._kinds(spec.get("recycle", []))
            s.field[p] = self._kinds(spec.get("field", []))
            kicker = spec.get("kicker")
            s.kick[p] = self.kind[kicker] if kicker else -1
            s.krev[p] = bool(spec.get("kicker_revealed", False)) and kicker is not None
            s.kused[p] = bool(spec.get("kicker_used", False))
            owned = s.hands[p] + s.decks[p] + s.recycle[p] + s.field[p]
            if kicker:
                owned.append(s.kick[p])
            kinds.append(owned)
        s.info = self._info(kinds)
        first, second = len(s.field[s.first]), len(s.field[1 - s.first])
        want = {KICKER: (0, 0), PICK: ((0, 0), (1, 1)), ANSWER: ((0, 1), (2, 1)),
                REVEAL: (2, 2)}[s.phase]
        if s.phase in (PICK, ANSWER):
            want = want[s.turn]
        if (first, second) != want:
            raise ValueError(f"in phase {phase_name} (turn {s.turn + 1}) the first-Turn player has "
                             f"{want[0]} field cards and the other {want[1]}, not {first} and "
                             f"{second}")
        if s.phase == KICKER:
            s.to_move = s.first
        elif s.phase in (PICK, ANSWER):
            s.to_move = s.first if s.turn == 0 else 1 - s.first
        else:
            second = 1 - s.first
            default = second if s.kick[second] >= 0 and not s.krev[second] else s.first
            s.to_move = int(setup.get("to_move", default))
        return s

    def _kinds(self, names) -> list[int]:
        try:
            return [self.kind[n] for n in names]
        except KeyError as err:
            raise ValueError(f"no card named {err.args[0]!r}") from None

    def parse_action(self, state: DojoState, spec):
        parts = action_words(spec)
        verb = str(parts[0]).lower()
        if verb in ("pick", "reveal", "keep") and len(parts) == 1:
            return (verb,)
        if verb in ("answer", "kicker") and len(parts) == 2:
            if parts[1] not in self.kind:
                raise ValueError(f"no card named {parts[1]!r}")
            return (verb, parts[1])
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, s: DojoState) -> dict:
        names, yin, yang = self.names, self.yin, self.yang
        out = {
            "round": s.round,
            "phase": PHASE_NAMES[s.phase],
            "to_move": self.current_player(s),
            "first": s.first,
            "turn": s.turn + 1,
            "points": list(s.points),
            "over": s.phase == OVER,
            "winner": None if s.result == RUNNING else "draw" if s.result == DRAW else s.result,
            "last_loss": list(s.last_loss),
        }
        last = s.last_totals
        for p in (0, 1):
            k = s.kick[p]
            field = s.field[p]
            f_yin = sum(yin[c] for c in field) + (yin[k] if s.krev[p] else 0)
            f_yang = sum(yang[c] for c in field) + (yang[k] if s.krev[p] else 0)
            state = (("revealed" if s.krev[p] else "face-down") if k >= 0
                     else "used" if s.kused[p] else "none")
            out[f"p{p}"] = {
                "points": s.points[p],
                "hand": sorted(names[c] for c in s.hands[p]),
                "hand_size": len(s.hands[p]),
                "deck": [names[c] for c in reversed(s.decks[p])],
                "deck_size": len(s.decks[p]),
                "recycle": sorted(names[c] for c in s.recycle[p]),
                "recycle_size": len(s.recycle[p]),
                "field": [names[c] for c in field],
                "yin": f_yin,
                "yang": f_yang,
                "kicker": names[k] if k >= 0 else None,
                "kicker_state": state,
                "last_yin": last[2 * p],
                "last_yang": last[2 * p + 1],
            }
        return out


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


ENGINE = DojoDuelEngine
