"""Combo Fighter deck checks that the declared checks cannot express.

A Combo Fighter deck is one fighter's 50-card action deck. game.yaml declares the size (exactly
50 action cards), keeps character sheets and staggering cards out of `cards:` and caps copies;
this module checks what ties the deck to its fighter's character sheet:

- character-missing: the deck names no fighter (`character:`), so nothing below can be checked;
- character-card: an action card whose `character` field names another fighter;
- starting-hand: the starting hand is not exactly 5 cards, or names a card more often than the
  deck can supply (cards the fighter's Power Token sets aside at the start of a fight, such as a
  finisher, cannot start in the hand);
- signature-combo: one of the fighter's signature combos plays a card more often than the deck
  holds it;
- token-card: the deck lacks a card the fighter's Power Token names (a finisher, needles).

The rulebook's only deck rules are the 50 cards and the 5-card starting hand of each fighter's own
deck; it has no custom decks. So a custom deck that cannot play a signature combo, or lacks its
Power Token's cards, is still legal: those two are warnings (advice), the rest are errors.

Unknown names, bad counts and card references of the wrong type are reported by the core and are
skipped here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from cardgen.errors import Problem

RULES = {
    "character-missing": (
        "The deck names no fighter: add `character:` with one of the game's character sheets."
    ),
    "character-card": (
        "An action card that belongs to another fighter (its `character` names a different sheet); "
        "shared moves, with no `character`, fit any deck."
    ),
    "starting-hand": (
        "The starting hand is not exactly 5 cards, or names a card more times than the deck can "
        "supply (cards the Power Token sets aside at the start of a fight are not available)."
    ),
    "signature-combo": (
        "A signature combo of the deck's fighter plays a card more times than the deck holds it."
    ),
    "token-card": (
        "The deck lacks a card that its fighter's Power Token names (a finisher, needles)."
    ),
}

ACTION_TYPES = ("attack", "defense", "footwork")
DEFAULT_HAND_SIZE = 5


def _copies(n: int, word: str = "copy") -> str:
    if n == 1:
        return f"1 {word}"
    return f"{n} {'copies' if word == 'copy' else word + 's'}"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _holds(n: int) -> str:
    return "none" if n == 0 else str(n)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _hand_size(game: Any) -> int:
    value = (getattr(game, "tables", None) or {}).get("starting_hand_size", DEFAULT_HAND_SIZE)
    return value if _is_count(value) else DEFAULT_HAND_SIZE


def _names(value: Any) -> list[str]:
    """A list-valued field as a list of names (anything else as an empty list)."""
    return [str(v) for v in value] if isinstance(value, list) else []


def check(deck: Any, game: Any) -> Iterator[Problem]:
    held: Counter[str] = Counter()
    first_line: dict[str, int] = {}
    for entry in deck.entries:
        if entry.card is None or not _is_count(entry.count):
            continue
        held[entry.name] += entry.count
        first_line.setdefault(entry.name, entry.line)

    name = deck.fields.get("character")
    if name is None:
        fighters = sorted(c.name for c in game.cards.values() if c.type == "character")
        yield Problem("character-missing",
                      f"the deck names no fighter: add `character:` ({', '.join(fighters)})",
                      deck.line_of("name"))
        return
    sheet = game.cards.get(str(name))
    if sheet is None or sheet.type != "character":
        return  # the core reports the reference as unknown-card
    fighter = sheet.name
    fighter_line = deck.line_of("character")

    yield from _character_cards(deck, fighter)
    token = sheet.fields.get("power_token") or {}
    set_aside = Counter(_names(token.get("starts_set_aside")))
    yield from _starting_hand(deck, game, fighter, held, set_aside)
    yield from _signature_combos(sheet, fighter, fighter_line, held, first_line)
    for card in _names(token.get("cards")):
        if held[card] == 0:
            yield Problem("token-card",
                          f"{fighter}'s Power Token needs {card}: the deck holds none",
                          fighter_line, severity="warning")


def _character_cards(deck: Any, fighter: str) -> Iterator[Problem]:
    for entry in deck.entries:
        card = entry.card
        if card is None or card.type not in ACTION_TYPES:
            continue
        owner = card.fields.get("character")
        if owner is not None and owner != fighter:
            yield Problem("character-card",
                          f"{entry.name} is one of {owner}'s moves, not {fighter}'s",
                          entry.line)


def _starting_hand(deck: Any, game: Any, fighter: str, held: Counter,
                   set_aside: Counter) -> Iterator[Problem]:
    size = _hand_size(game)
    if "starting_hand" not in deck.fields:
        yield Problem("starting-hand",
                      f"the deck has no starting_hand: list the {size} cards {fighter} starts "
                      f"each fight with", deck.line_of("character"))
        return
    hand = _names(deck.fields.get("starting_hand"))
    line = deck.line_of("starting_hand")
    if len(hand) != size:
        yield Problem("starting-hand",
                      f"the starting hand has {_copies(len(hand), 'card')}: it must have "
                      f"exactly {size}", line)
    seen: Counter[str] = Counter()
    reported: set[str] = set()
    wanted = Counter(hand)
    for index, card_name in enumerate(hand):
        seen[card_name] += 1
        card = game.cards.get(card_name)
        if card is None or card.type not in ACTION_TYPES or card_name in reported:
            continue  # unknown or wrong-type names are the core's unknown-card
        available = max(held[card_name] - set_aside[card_name], 0)
        if seen[card_name] <= available:
            continue
        reported.add(card_name)
        message = (f"the starting hand has {_copies(wanted[card_name])} of {card_name}: "
                   f"the deck holds {_holds(held[card_name])}")
        if set_aside[card_name]:
            k = set_aside[card_name]
            message += (f", of which {k} start{'s' if k == 1 else ''} each fight set aside, "
                        f"leaving {available} for the hand")
        yield Problem("starting-hand", message, deck.line_of("starting_hand", index))


def _signature_combos(sheet: Any, fighter: str, fighter_line: int, held: Counter,
                      first_line: dict[str, int]) -> Iterator[Problem]:
    """One problem per card short, naming every combo that plays it more often than held."""
    short: dict[str, list[tuple[str, int]]] = {}
    for combo in sheet.fields.get("signature_combos") or []:
        for card_name, n in Counter(_names(combo.get("cards"))).items():
            if held[card_name] < n:
                short.setdefault(card_name, []).append((str(combo.get("name")), n))
    for card_name, combos in short.items():
        names = [c for c, _ in combos]
        most = max(n for _, n in combos)
        if len(names) == 1:
            said = f"signature combo {names[0]} plays {card_name} {_times(most)}"
        else:
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            times = _times(most) if all(n == most for _, n in combos) else f"up to {most} times"
            said = f"signature combos {listed} play {card_name} {times}"
        yield Problem("signature-combo",
                      f"{fighter}'s {said}: the deck holds {_holds(held[card_name])}",
                      first_line.get(card_name, fighter_line), severity="warning")
