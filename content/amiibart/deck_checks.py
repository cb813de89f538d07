"""Amiibart TCG: the deck rules game.yaml's declared checks cannot express.

A deck brings exactly two Powers in its `powers:` field, one primary and one secondary, and every
non-Specialty Power needs at least one card of its Element among the deck's cards. The declared
checks (deck-size, copy-limit, fighter-limit, element-limit, token-in-deck) live in game.yaml.
"""

from __future__ import annotations

from collections.abc import Iterator

from cardgen.errors import Problem
from cardgen.model import Deck, Game

RULES = {
    "power-count": "A deck lists exactly 2 Powers under `powers:`, one primary and one secondary; "
                   "Powers never go under `cards:`.",
    "power-element": "A non-Specialty Power needs at least one card of its Element in the deck.",
}

POWER_TYPE = "power"
SLOTS = ("primary", "secondary")
# The types that make up the 30 cards; only these show which Elements a deck plays.
DECK_CARD_TYPES = ("fighter", "spell", "stage")
EXEMPT_ELEMENT = "Specialty"


def _listed_powers(deck: Deck) -> list:
    value = deck.fields.get("powers")
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def check(deck: Deck, game: Game) -> Iterator[Problem]:
    yield from _power_count(deck, game)
    yield from _power_element(deck, game)


def _power_count(deck: Deck, game: Game) -> Iterator[Problem]:
    # A Power listed with the cards instead of under `powers:`.
    for entry in deck.entries:
        if entry.card is not None and entry.card.type == POWER_TYPE:
            yield Problem("power-count", f"{entry.name} is a Power: list it under `powers:`, "
                                         "not under `cards:`", entry.line)

    listed = _listed_powers(deck)
    line = deck.line_of("powers")
    if len(listed) != 2:
        names = f" ({', '.join(map(str, listed))})" if listed else ""
        count = f"{len(listed)} power" + ("" if len(listed) == 1 else "s")
        yield Problem("power-count", f"has {count}{names}: a deck needs exactly 2, one primary "
                                     "and one secondary", line)
        return
    cards = [game.cards.get(n) if isinstance(n, str) else None for n in listed]
    if any(c is None or c.type != POWER_TYPE for c in cards):
        return  # an unknown name is reported as unknown-card; the slots cannot be judged
    slots = [c.get("slot") for c in cards]
    if sorted(slots) != sorted(SLOTS):
        slot = slots[0] if slots[0] == slots[1] else "/".join(map(str, slots))
        yield Problem("power-count", f"has 2 {slot} powers ({cards[0].name}, {cards[1].name}): "
                                     "a deck needs one primary and one secondary", line)


def _power_element(deck: Deck, game: Game) -> Iterator[Problem]:
    elements: dict[str, int] = {}
    for entry, n in deck.counted_entries():
        if entry.card.type in DECK_CARD_TYPES:
            element = entry.card.get("element")
            elements[element] = elements.get(element, 0) + n
    for index, name in enumerate(_listed_powers(deck)):
        card = game.cards.get(name) if isinstance(name, str) else None
        if card is None or card.type != POWER_TYPE:
            continue
        element = card.get("element")
        if element == EXEMPT_ELEMENT or elements.get(element):
            continue
        yield Problem("power-element", f"power {card.name} is {element}, but the deck has 0 "
                                       f"{element} cards (a non-{EXEMPT_ELEMENT} Power needs "
                                       "cards of its Element)", deck.line_of("powers", index))
