"""The generic deck checks a game declares in game.yaml `deck.checks` (no code per game).

Each function takes the deck and the declared check and yields Problems under the check's id.
The first line of each docstring is the default explanation of a rule id in the docs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from cardgen.errors import Problem
from cardgen.model import Deck, DeckCheck


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _in_types(entry, types) -> bool:
    return not types or entry.card.type in types


def _kinds(types) -> str:
    return "/".join(types) + " " if types else ""


def _field(card, field: str):
    """A card's value of the field a check goes by: one of its fields, or its name or type."""
    if field == "name":
        return card.name
    if field == "type":
        return card.type
    return card.get(field)


def _values(card, field: str) -> list:
    """The values a card counts for: each item of a list field, else its one value."""
    value = _field(card, field)
    return list(value) if isinstance(value, list) else [value]


def _plural_of(field: str) -> str:
    return field if field.endswith("s") else f"{field}s"


def check_size(deck: Deck, check: DeckCheck) -> Iterator[Problem]:
    """The deck holds too few or too many cards."""
    types = check.options.get("types")
    lo, hi = check.options.get("min"), check.options.get("max")
    total = deck.total(types)
    if (lo is not None and total < lo) or (hi is not None and total > hi):
        if lo == hi:
            want = f"exactly {lo}"
        elif lo is not None and hi is not None:
            want = f"{lo} to {hi}"
        else:
            want = f"at least {lo}" if lo is not None else f"at most {hi}"
        yield Problem(check.id, f"has {_plural(total, _kinds(types) + 'card')}: a deck needs "
                                f"{want}", deck.line_of("cards"))


def check_copies(deck: Deck, check: DeckCheck) -> Iterator[Problem]:
    """A card has more copies than its limit allows."""
    types = check.options.get("types")
    field, limits, flat = check.options.get("field"), check.options.get("limits", {}), \
        check.options.get("max")
    totals: Counter = Counter()
    for entry, n in deck.counted_entries():
        totals[entry.card.name] += n
    reported = set()
    for entry, _n in deck.counted_entries():
        card = entry.card
        if card.name in reported or not _in_types(entry, types):
            continue
        if flat is not None:
            limit, why = flat, ""
        else:
            value = _field(card, field)
            limit = limits.get(value, limits.get(str(value)))
            if limit is None:
                continue
            why = f" ({_plural(value, field.rstrip('s'))})" if isinstance(value, int) else \
                f" ({field} {value})"
        if totals[card.name] > limit:
            reported.add(card.name)
            yield Problem(check.id, f"has {totals[card.name]} copies of {card.name}{why}: "
                                    f"limit {limit}", entry.line)


def check_type_count(deck: Deck, check: DeckCheck) -> Iterator[Problem]:
    """The deck holds too few or too many cards of some types."""
    types = check.options["types"]
    lo, hi = check.options.get("min"), check.options.get("max")
    total = deck.total(types)
    kind = "/".join(types)
    if hi is not None and total > hi:
        yield Problem(check.id, f"has {_plural(total, kind + ' card')}: at most {hi} allowed",
                      deck.line_of("cards"))
    if lo is not None and total < lo:
        yield Problem(check.id, f"has {_plural(total, kind + ' card')}: at least {lo} needed",
                      deck.line_of("cards"))


def check_distinct(deck: Deck, check: DeckCheck) -> Iterator[Problem]:
    """The deck mixes more different values of a field than allowed (each item of a list field counts)."""
    field, limit = check.options["field"], check.options["max"]
    exempt = set(check.options.get("exempt") or [])
    types = check.options.get("types")
    first_line: dict = {}
    for entry, _n in deck.counted_entries():
        if not _in_types(entry, types):
            continue
        for value in _values(entry.card, field):
            if value is not None and value not in exempt:
                first_line.setdefault(value, entry.line)
    if len(first_line) > limit:
        values = sorted(first_line, key=lambda v: first_line[v])
        extra = values[limit]
        not_counted = f" ({', '.join(map(str, sorted(exempt)))} not counted)" if exempt else ""
        yield Problem(check.id, f"has {len(values)} {_plural_of(field)} ({', '.join(map(str, values))}): "
                                f"at most {limit} allowed{not_counted}", first_line[extra])


def check_forbidden_types(deck: Deck, check: DeckCheck) -> Iterator[Problem]:
    """A card of a type that never goes in a deck."""
    types = check.options["types"]
    for entry, _n in deck.counted_entries():
        if entry.card.type in types:
            yield Problem(check.id, f"{entry.card.name} is a {entry.card.type} card: "
                                    f"{entry.card.type} cards never go in a deck", entry.line)


DECLARED_CHECKS = {
    "size": check_size,
    "copies": check_copies,
    "type-count": check_type_count,
    "distinct": check_distinct,
    "forbidden-types": check_forbidden_types,
}
