"""Deck legality: the always-on checks, the checks a game declares, then its own code (the game
folder's `deck_checks:` hook, see cardgen/gamecode.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from types import ModuleType

from cardgen.errors import Problem, did_you_mean
from cardgen.gamecode import load_hook, own_code_errors, require
from cardgen.model import Deck, Game
from cardgen.model.loader import MAX_COPIES
from cardgen.rules.generic import DECLARED_CHECKS

# The always-on rule ids, with the one-line explanation docs/rules.md expands.
CORE_RULES = {
    "unknown-card": "A name that is not a card of the deck's game (the closest names are suggested).",
    "bad-count": f"A count that is not a whole number from 1 to {MAX_COPIES}.",
}


def game_module(game: Game) -> ModuleType | None:
    """The game's own deck-check code (game.yaml `deck_checks:`), if it has any."""
    module = load_hook(game, "deck_checks")
    if module is not None:
        require(game, "deck_checks", module, "RULES", "check")
    return module


def rule_ids(game: Game) -> dict[str, str]:
    """Every rule id a deck of this game can be reported under, with its explanation."""
    out = dict(CORE_RULES)
    for check in game.deck_checks:
        out[check.id] = check.doc or DECLARED_CHECKS[check.kind].__doc__.strip().splitlines()[0]
    module = game_module(game)
    if module is not None:
        out.update(module.RULES)
    return out


def check_deck(deck: Deck) -> list[Problem]:
    """Every problem of the deck, in file order (problems without a line last); those of a
    check declared `severity: warning`, or that the game's code yields as warnings, are advice."""
    problems = list(_core_checks(deck))
    problems.extend(deck.field_problems)
    for check in deck.game.deck_checks:
        problems.extend(replace(p, severity=check.severity)
                        for p in DECLARED_CHECKS[check.kind](deck, check))
    module = game_module(deck.game)
    if module is not None:
        with own_code_errors():
            problems.extend(module.check(deck, deck.game))
    return sorted(problems, key=lambda p: (p.line is None, p.line or 0))


def _core_checks(deck: Deck) -> Iterator[Problem]:
    names = list(deck.game.cards)
    for entry in deck.entries:
        if entry.card is None:
            yield Problem("unknown-card", f"{entry.name!r} is not a card of "
                                          f"{deck.game.name}{did_you_mean(entry.name, names)}",
                          entry.line)
        count = entry.count
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COPIES:
            yield Problem("bad-count", f"{entry.name}: the count must be a whole number from 1 to "
                                       f"{MAX_COPIES}, got {count!r}", entry.line)
