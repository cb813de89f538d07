"""The Combo Fighter effect grammar: printed text -> effect objects, built once per engine.

Three vocabularies, one sentence at a time (a sentence ends with a full stop):

Action cards (`text`)::

    Opener: <effect>[, then <effect>].     when it was your first card and you won the round
    Linked: <effect>[, then <effect>].     when you play it as the 2nd or later card of a combo
      <effect> = draw N card(s) | Recover N | Foresee N
               | if your Power Token shows side A|B, Flip it [without discarding any cards]
    Starts each fight Set Aside.                                   (reminder of the token)
    On side A|B of your Power Token you may play it from there, once per fight, as the next
    card of a combo.                                               (reminder of the token)
    Your Power Token may Set Aside this card at the end of a round you won.   (reminder)

Power Token sides (`power_token.a` / `.b`)::

    X is N.
    X is the number of cards you played before this card this round[, plus N].
    X is the number of <cards> Set Aside.
    <card> starts each fight Set Aside.
    Your attack cards have +N Speed.
    Your defense|footwork cards have Priority.
    Your opponent's hand limit is N.
    Once per round, after the cards are revealed, you may discard the top N cards of your deck
    to Flip this token.
    Once per fight, you may play <card> from set aside as the next card of a combo, if the
    combo box allows it.
    At the end of a round[, if your deck holds N or fewer cards], Flip this token.
    At the end of the round, Flip this token.
    At the end of a round you won|lost, Flip this token.
    At the end of a round you won with a(n) <type> card as your first card, Flip this token.
    At the end of a round you won, Set Aside one <card> you played this round[; then, if N
    <cards> are Set Aside, Flip this token].
    Set Aside no more <cards>.                                     (reminder: this side sets none)

Solo rules (`solo`)::

    While her|his|its token shows <side name>, the AI adds <card> to the end of its combo
    whenever the last card's combo box allows it, even if another combo would deal more damage.
    The AI starts each fight with N <card> Set Aside.
    When it wins a round it plays the most damaging combo that holds a(n) <card>, if any combo
    does.
    After the AI wins a round, the drawn <type> cards it did not play go to the bottom of its deck
    instead of its discard pile, and deal no damage.
    When the AI reveals an attack card that loses or ties to your attack card on Speed, and N more
    Speed would win the round, it discards the top M cards of its deck to flip to <side name>.

A sentence that matches none of these is reported by `unsupported_cards()`.
"""

from __future__ import annotations

import re

TYPES = ("attack", "defense", "footwork")
TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}

# Card effect operations.
DRAW, RECOVER, FORESEE, FLIP_IF = 0, 1, 2, 3
OP_NAMES = ("draw", "recover", "foresee", "flip")

# X modes of a token side.
X_NONE, X_CONST, X_BEFORE, X_ASIDE = 0, 1, 2, 3

# End-of-round conditions of a token side.
EOR_ALWAYS, EOR_WON, EOR_LOST, EOR_WON_FIRST, EOR_DECK_LE = 0, 1, 2, 3, 4


def sentences(text: str) -> list[str]:
    text = " ".join(str(text or "").split())
    return [s for s in re.split(r"(?<=\.)\s+", text) if s]


_EFFECT = [
    (re.compile(r"draw (\d+) cards?", re.I), lambda m: (DRAW, int(m[1]))),
    (re.compile(r"Recover (\d+)"), lambda m: (RECOVER, int(m[1]))),
    (re.compile(r"Foresee (\d+)"), lambda m: (FORESEE, int(m[1]))),
    (re.compile(r"if your Power Token shows side ([AB]), Flip it(?: without discarding any cards)?"),
     lambda m: (FLIP_IF, "AB".index(m[1]))),
]


def parse_effects(body: str) -> list[tuple[int, int]] | None:
    """'draw 1 card, then Recover 1' -> [(DRAW, 1), (RECOVER, 1)]; None when a part is unknown."""
    out = []
    for part in re.split(r",? then ", body.rstrip(".")):
        for pattern, build in _EFFECT:
            m = pattern.fullmatch(part.strip())
            if m:
                out.append(build(m))
                break
        else:
            return None
    return out


class CardRules:
    """What an action card's text does: triggered effects and token reminders."""

    __slots__ = ("opener", "linked", "reminders", "problems")

    def __init__(self):
        self.opener: list[tuple[int, int]] = []
        self.linked: list[tuple[int, int]] = []
        self.reminders: list[tuple[str, int]] = []   # (kind, side or -1), checked against the token
        self.problems: list[str] = []


_REMIND_STARTS = re.compile(r"Starts each fight Set Aside\.")
_REMIND_PLAY = re.compile(r"On side ([AB]) of your Power Token you may play it from there, once per "
                          r"fight, as the next card of a combo\.")
_REMIND_TOKEN_ASIDE = re.compile(r"Your Power Token may Set Aside this card at the end of a round "
                                 r"you won\.")


def parse_card_text(text: str | None) -> CardRules:
    rules = CardRules()
    for sentence in sentences(text or ""):
        m = re.fullmatch(r"(Opener|Linked): (.+)", sentence)
        if m:
            effects = parse_effects(m[2])
            if effects is None:
                rules.problems.append(f"no rule for the {m[1]} effect {m[2]!r}")
            else:
                (rules.opener if m[1] == "Opener" else rules.linked).extend(effects)
            continue
        if _REMIND_STARTS.fullmatch(sentence):
            rules.reminders.append(("starts_aside", -1))
        elif (m := _REMIND_PLAY.fullmatch(sentence)):
            rules.reminders.append(("play_from_aside", "AB".index(m[1])))
        elif _REMIND_TOKEN_ASIDE.fullmatch(sentence):
            rules.reminders.append(("token_aside", -1))
        else:
            rules.problems.append(f"no rule matches {sentence!r}")
    return rules


class TokenSide:
    """One side of a Power Token, as rules the engine applies (card names, resolved later)."""

    __slots__ = ("name", "x_mode", "x_val", "x_card", "speed_bonus", "prio", "opp_hand_limit",
                 "reveal_cost", "aside_card", "aside_flip_at", "eor", "play_from_aside",
                 "starts_aside", "no_more_aside")

    def __init__(self, name: str):
        self.name = name
        self.x_mode = X_NONE
        self.x_val = 0
        self.x_card: str | None = None        # X_ASIDE: the card counted
        self.speed_bonus = 0                  # added to the Speed of your attack cards
        self.prio = [False, False, False]     # by card type: your cards of that type have Priority
        self.opp_hand_limit = 0               # 0: no change
        self.reveal_cost = -1                 # >= 0: discard that many from the deck to Flip
        self.aside_card: str | None = None    # set aside one such card you played in a won round
        self.aside_flip_at = 0                # then Flip once this many are set aside (0: never)
        self.eor: list[tuple[int, int]] = []  # (condition, argument): Flip at the end of a round
        self.play_from_aside: str | None = None
        self.starts_aside: list[str] = []
        self.no_more_aside: str | None = None


def _card_lookup(resolve, problems: list[str], where: str):
    """resolve(word) -> card name, noting a word that names no card in `problems`."""
    def card(word: str) -> str | None:
        found = resolve(word)
        if found is None:
            problems.append(f"{where}: {word!r} is not a card")
        return found
    return card


def parse_token_side(name: str, text: str, resolve) -> tuple[TokenSide, list[str]]:
    side = TokenSide(name)
    problems: list[str] = []

    card = _card_lookup(resolve, problems, name)

    for s in sentences(text):
        if (m := re.fullmatch(r"X is (\d+)\.", s)):
            side.x_mode, side.x_val = X_CONST, int(m[1])
        elif (m := re.fullmatch(r"X is the number of cards you played before this card this "
                                r"round(?:, plus (\d+))?\.", s)):
            side.x_mode, side.x_val = X_BEFORE, int(m[1] or 0)
        elif (m := re.fullmatch(r"X is the number of (.+?) Set Aside\.", s)):
            side.x_mode, side.x_card = X_ASIDE, card(m[1])
        elif (m := re.fullmatch(r"(.+?) starts each fight Set Aside\.", s)):
            c = card(m[1])
            if c:
                side.starts_aside.append(c)
        elif (m := re.fullmatch(r"Your attack cards have \+(\d+) Speed\.", s)):
            side.speed_bonus = int(m[1])
        elif (m := re.fullmatch(r"Your (attack|defense|footwork) cards have Priority\.", s)):
            side.prio[TYPE_INDEX[m[1]]] = True
        elif (m := re.fullmatch(r"Your opponent's hand limit is (\d+)\.", s)):
            side.opp_hand_limit = int(m[1])
        elif (m := re.fullmatch(r"Once per round, after the cards are revealed, you may discard the "
                                r"top (\d+) cards? of your deck to Flip this token\.", s)):
            side.reveal_cost = int(m[1])
        elif (m := re.fullmatch(r"Once per fight, you may play (.+?) from set aside as the next card "
                                r"of a combo, if the combo box allows it\.", s)):
            side.play_from_aside = card(m[1])
        elif (m := re.fullmatch(r"At the end of (?:a|the) round, if your deck holds (\d+) or fewer "
                                r"cards, Flip this token\.", s)):
            side.eor.append((EOR_DECK_LE, int(m[1])))
        elif re.fullmatch(r"At the end of (?:a|the|each) round, Flip this token\.", s):
            side.eor.append((EOR_ALWAYS, 0))
        elif (m := re.fullmatch(r"At the end of a round you (won|lost), Flip this token\.", s)):
            side.eor.append((EOR_WON if m[1] == "won" else EOR_LOST, 0))
        elif (m := re.fullmatch(r"At the end of a round you won with an? (attack|defense|footwork) "
                                r"card as your first card, Flip this token\.", s)):
            side.eor.append((EOR_WON_FIRST, TYPE_INDEX[m[1]]))
        elif (m := re.fullmatch(r"At the end of a round you won, Set Aside one (.+?) you played this "
                                r"round(?:; then, if (\d+) (.+?) are Set Aside, Flip this token)?\.",
                                s)):
            side.aside_card = card(m[1])
            side.aside_flip_at = int(m[2] or 0)
            if m[3] and resolve(m[3]) != side.aside_card:
                problems.append(f"{name}: {m[3]!r} should name the card set aside")
        elif (m := re.fullmatch(r"Set Aside no more (.+?)\.", s)):
            side.no_more_aside = card(m[1])
        else:
            problems.append(f"{name}: no rule matches {s!r}")
    if side.no_more_aside and side.aside_card:
        problems.append(f"{name}: sets aside {side.aside_card} and says it sets none")
    return side, problems


class SoloRules:
    """A fighter's extra solo-mode AI rule."""

    __slots__ = ("append_card", "append_side", "start_aside", "prefer_card", "bottom_type",
                 "speed_flip", "speed_flip_cost")

    def __init__(self):
        self.append_card: str | None = None   # ends its combo with this card when it can...
        self.append_side = -1                 # ...while the token shows this side
        self.start_aside: list[str] = []      # set aside at the start of each fight
        self.prefer_card: str | None = None   # the most damaging combo holding this card first
        self.bottom_type = -1                 # drawn unplayed cards of this type go to the bottom
        self.speed_flip = 0                   # >0: pay the token's reveal cost when that much
        self.speed_flip_cost = 0              # Speed would turn a lost or tied attack clash


def parse_solo(text: str, resolve, side_names: tuple[str, str]) -> tuple[SoloRules, list[str]]:
    rules = SoloRules()
    problems: list[str] = []

    def side_of(word: str) -> int:
        for i, n in enumerate(side_names):
            if word in (n, f"side {'AB'[i]}", f"its {'AB'[i]}-side"):
                return i
        problems.append(f"solo: {word!r} is not a side of the token")
        return -1

    card = _card_lookup(resolve, problems, "solo")

    for s in sentences(text):
        if (m := re.fullmatch(r"While (?:her|his|its|their) token shows (.+?), the AI adds (.+?) to "
                              r"the end of its combo whenever the last card's combo box allows it, "
                              r"even if another combo would deal more damage\.", s)):
            rules.append_side, rules.append_card = side_of(m[1]), card(m[2])
        elif (m := re.fullmatch(r"The AI starts each fight with (\d+) (.+?) Set Aside\.", s)):
            c = card(m[2])
            if c:
                rules.start_aside.extend([c] * int(m[1]))
        elif (m := re.fullmatch(r"When it wins a round it plays the most damaging combo that holds "
                                r"an? (.+?), if any combo does\.", s)):
            rules.prefer_card = card(m[1])
        elif (m := re.fullmatch(r"After the AI wins a round, the drawn (attack|defense|footwork) "
                                r"cards it did not play go to the bottom of its deck instead of its "
                                r"discard pile, and deal no damage\.", s)):
            rules.bottom_type = TYPE_INDEX[m[1]]
        elif (m := re.fullmatch(r"When the AI reveals an attack card that loses or ties to your "
                                r"attack card on Speed, and (\d+) more Speed would win the round, it "
                                r"discards the top (\d+) cards of its deck to flip to (.+?)\.", s)):
            rules.speed_flip, rules.speed_flip_cost = int(m[1]), int(m[2])
            if side_of(m[3]) != 1:
                problems.append("solo: the flip must go to side B")
        else:
            problems.append(f"solo: no rule matches {s!r}")
    return rules, problems


_STAGGER = [re.compile(r"Staggering: your discard pile has become your new deck\."),
            re.compile(r"The next time you take any damage, you are knocked out\.")]


def parse_staggering(text: str) -> list[str]:
    return [f"no rule matches {s!r}" for s in sentences(text)
            if not any(p.fullmatch(s) for p in _STAGGER)]
