"""Dojo Duel: the state of a match and the constants every module of the engine shares (phases,
results, the fixed actions, the card fields no rule reads)."""

from __future__ import annotations

# Phases (DojoState.phase); PHASE_NAMES[phase] is the word scenarios and observe use. EXTRA: at the
# first Draw, after both kickers are placed, each player may draw one more card.
KICKER, PICK, ANSWER, REVEAL, OVER, EXTRA = 0, 1, 2, 3, 4, 5
PHASE_NAMES = ("kicker", "pick", "answer", "reveal", "over", "extra-draw")
# DojoState.result: RUNNING, DRAW, or the winner (0 or 1).
RUNNING, DRAW = -2, -1
# DojoState.kick[p] when the player has no kicker (face down or revealed).
NO_CARD = -1
# current_player once the match is over.
NOBODY = -1
# DojoState.turn: which Turn of the round.
FIRST_TURN, SECOND_TURN = 0, 1

PICK_ACTION = ("pick",)
REVEAL_ACTION = ("reveal",)
KEEP_ACTION = ("keep",)
PICK_LIST = [PICK_ACTION]
REVEAL_LIST = [REVEAL_ACTION, KEEP_ACTION]
DRAW_ACTION = ("draw",)
PASS_ACTION = ("pass",)
EXTRA_LIST = [DRAW_ACTION, PASS_ACTION]

# The house variants the engine plays (Setup.options["variants"], a scenario's `variants`).
ROUND_LIMIT = "round-limit"
BELOW_ZERO_TIEBREAK = "below-zero-tiebreak"
ALTERNATE_FIRST_TURN = "alternate-first-turn"
QUICK_BOUT = "quick-bout"

# Fields a technique may carry without needing a rule of the engine.
PLAIN_FIELDS = frozenset({"yin", "yang", "school", "flavour"})


class Info:
    """Per-match data that never changes, shared (not copied) between clones: the cards and the
    rules the match is played by (the published rules, or the variants asked for)."""

    __slots__ = ("owned", "avg_yin", "avg_yang", "start", "limit", "tiebreak", "alternate",
                 "variants")

    def __init__(self, owned, avg_yin, avg_yang, start=20, limit=0, tiebreak=False,
                 alternate=False, variants=()):
        self.owned = owned          # [sorted kinds of player 0, of player 1]: every card they own
        self.avg_yin = avg_yin      # [player 0, player 1]: average Yin of their cards
        self.avg_yang = avg_yang
        self.start = start          # starting points
        self.limit = limit          # the last round (round-limit, quick-bout); 0: no limit
        self.tiebreak = tiebreak    # below-zero-tiebreak: both at 0 or below, more points wins
        self.alternate = alternate  # alternate-first-turn: the first Turn passes every round
        self.variants = variants    # the variant names, sorted


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
        self.turn = FIRST_TURN     # FIRST_TURN of the round, or SECOND_TURN
        self.round = 1
        self.points = [0, 0]
        self.hands = [[], []]      # card kinds (ints)
        self.decks = [[], []]      # top of the deck is the END of the list
        self.recycle = [[], []]
        self.field = [[], []]
        self.kick = [NO_CARD, NO_CARD]  # face-down or revealed kicker kind, NO_CARD for none
        self.krev = [False, False]  # kicker revealed this round
        self.kused = [False, False]  # the one kicker of the game has been used (recycled)
        self.result = RUNNING      # RUNNING, DRAW, or the winner
        self.last_loss = [0, 0]
        self.last_totals = [0, 0, 0, 0]   # Yin and Yang of player 0, then of player 1


def is_count(value) -> bool:
    """A whole number of 0 or more (not a bool): a printed Yin or Yang the engine can use."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
