"""Dojo Duel deck advice that the declared checks cannot express.

Every round both players lose points at the same time: each loses the opponent's total Yang
minus their own total Yin, when that is above zero. The published rules ask only that a deck
hold 15 to 40 cards, so the strongest deck is simply the one with the highest Yin + Yang, and
decks that lean hard one way either stall (all Yin) or end a bout in a few rounds (all Yang).
Two pieces of advice keep deck building a choice. They are WARNINGS (severity "warning"): printed
by `cardgen validate`, but the deck stays legal (unless --strict):

- deck-power: the deck's total Yin + Yang is at most `max_average` (9) per card;
- deck-balance: the deck's lean (total Yang minus total Yin) is between `min_lean_per_card` (0)
  and `max_lean_per_card` (2) per card.

The numbers come from game.yaml `tables.deck_power` and `tables.deck_balance`, with the
defaults below when a copied game folder leaves them out. Deck size (a rule) and copies (advice)
are declared checks in game.yaml, and unknown names and bad counts are core checks: none is
re-reported here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardgen.errors import Problem

RULES = {
    "deck-power": (
        "Advice (a warning; the deck stays legal): the deck's total Yin + Yang is more than 9 "
        "per card (an average above 9); strong techniques are best paid for with light ones."
    ),
    "deck-balance": (
        "Advice (a warning; the deck stays legal): the deck's total Yang is below its total Yin, "
        "or above its total Yin by more than 2 per card."
    ),
}

# What these findings are: advice the published rules do not make, never a reason to refuse a deck.
SEVERITY = "warning"

DEFAULT_MAX_AVERAGE = 9
DEFAULT_MIN_LEAN = 0
DEFAULT_MAX_LEAN_PER_CARD = 2


def _table_number(game: Any, table: str, key: str, default: int | float) -> int | float:
    value = (getattr(game, "tables", None) or {}).get(table)
    value = value.get(key, default) if isinstance(value, dict) else default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return value


def _int_value(card: Any, field: str) -> int:
    value = card.fields.get(field, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _num(x: int | float) -> str:
    """2 -> '2', 2.5 -> '2.5', 9.466.. -> '9.47'."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0").rstrip(".")


def totals(deck: Any) -> tuple[int, int, int]:
    """(cards, total Yin, total Yang) over the entries that name a card with a usable count."""
    cards = yin = yang = 0
    for entry in deck.entries:
        count, card = entry.count, entry.card
        if card is None or isinstance(count, bool) or not isinstance(count, int) or count < 1:
            continue
        cards += count
        yin += count * _int_value(card, "yin")
        yang += count * _int_value(card, "yang")
    return cards, yin, yang


def check(deck: Any, game: Any) -> Iterator[Problem]:
    cards, yin, yang = totals(deck)
    if cards == 0:
        return
    line = deck.line_of("cards")

    max_average = _table_number(game, "deck_power", "max_average", DEFAULT_MAX_AVERAGE)
    power, limit = yin + yang, max_average * cards
    if power > limit:
        yield Problem(
            "deck-power",
            f"total Yin + Yang is {power} over {_plural(cards, 'card')} (average "
            f"{_num(power / cards)}): advised at most {_num(limit)} ({_num(max_average)} per "
            "card)",
            line,
            severity=SEVERITY,
        )

    min_lean = _table_number(game, "deck_balance", "min_lean_per_card", DEFAULT_MIN_LEAN)
    max_lean = _table_number(game, "deck_balance", "max_lean_per_card", DEFAULT_MAX_LEAN_PER_CARD)
    lean = yang - yin
    over = _plural(cards, "card")
    if lean < min_lean * cards:
        if yang < yin:
            said = f"total Yang {yang} is below total Yin {yin} by {yin - yang} over {over}"
        else:
            said = f"total Yang {yang} is above total Yin {yin} by only {lean} over {over}"
        if min_lean == 0:
            need = "Yang is advised to be at least Yin"
        else:
            least = _num(min_lean * cards)
            need = f"Yang is advised to exceed Yin by at least {least} ({_num(min_lean)} per card)"
        yield Problem("deck-balance", f"{said}: {need}", line, severity=SEVERITY)
    elif lean > max_lean * cards:
        yield Problem(
            "deck-balance",
            f"total Yang {yang} is above total Yin {yin} by {lean} over {over}: advised at most "
            f"{_num(max_lean * cards)} ({_num(max_lean)} per card)",
            line,
            severity=SEVERITY,
        )
