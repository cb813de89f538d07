"""Amfibido box checks.

Amfibido has no player-built decks: the "deck" is the box, the five level decks (I-V) and the
optional sensei deck. These checks ask whether that box can play a whole game: enough cards in
every level deck for the draft, something to transform into at every level, every creature type
present, enough sensei for the sensei draft, and no card listed more often than the box holds it.

The rulebook prints no box contents, so only what its rules cannot do without is an error (a
level deck the draft or a transform needs, a sensei draft it cannot deal, more copies than the
box holds). How many cards a level deck holds and whether every creature type is there are
advice, given as warnings: the engine refills an empty level deck from the discard pile, and a
box without snakes still plays.

The numbers come from the game's `tables:` (draft.active_levels, draft.deal, sensei_draft.deal,
creatures), so a designer who changes the round table gets checks that follow it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

from cardgen.errors import Problem

RULES = {
    "level-missing": "A level (I-V) has no cards in the box, so its level deck does not exist.",
    "draft-supply": (
        "Warning: a level deck holds fewer cards than the draft deals from it over the rounds it "
        "is active (round table in tables.draft, seven rounds, 2 players), so it will be "
        "refilled from the discard pile."
    ),
    "transform-target": (
        "A level I-IV fighter or equipment has no card of its type at the next level to "
        "transform into; a level V one needs another level V card of its type."
    ),
    "creature-missing": "Warning: a creature type (frog, toad, ...) has no fighter in the box.",
    "sensei-supply": (
        "The box has sensei but fewer than the sensei draft deals (3 to each of the 2 players)."
    ),
    "box-copies": "A card is listed with more copies than the box holds (the card's `copies`).",
}

LEVELS = (1, 2, 3, 4, 5)
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}
LEVEL_TYPES = ("fighter", "equipment", "action")
TRANSFORMING = ("fighter", "equipment")

# Used when game.yaml has no tables for them (a copied or trimmed game folder).
DEFAULT_ACTIVE_LEVELS = {
    1: [1],
    2: [1, 2],
    3: [1, 2, 3],
    4: [2, 3, 4],
    5: [3, 4],
    6: [3, 4, 5],
    7: [4, 5],
}
DEFAULT_CREATURES = ("frog", "toad", "salamander", "crocodile", "turtle", "snake", "lizard")


# ---------------------------------------------------------------------------------------------
# Reading the game's tables


def _table(game: Any, *keys: str, default: Any = None) -> Any:
    value: Any = getattr(game, "tables", None) or {}
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return value


def _players(game: Any) -> int:
    """The largest player count the game allows (the worst case for supply)."""
    players = (getattr(game, "meta", None) or {}).get("players")
    if players is None:
        players = getattr(game, "players", None)
    if isinstance(players, dict):
        players = players.get("max")
    elif players is not None and not isinstance(players, int):
        players = getattr(players, "max", None)
    if isinstance(players, int) and not isinstance(players, bool) and players > 0:
        return players
    return 2


def active_levels(game: Any) -> dict[int, list[int]]:
    """Round number -> the level decks the draft deals from that round."""
    table = _table(game, "draft", "active_levels")
    if not isinstance(table, dict) or not table:
        table = DEFAULT_ACTIVE_LEVELS
    rounds: dict[int, list[int]] = {}
    for key, levels in table.items():
        try:
            number = int(key)
        except (TypeError, ValueError):
            continue
        if isinstance(levels, int):
            levels = [levels]
        if isinstance(levels, list):
            rounds[number] = [lv for lv in levels if isinstance(lv, int)]
    return dict(sorted(rounds.items()))


def deal_levels(levels: list[int], deal: int) -> list[int]:
    """The level of each card dealt to one player: highest active level first, cycling."""
    order = sorted(set(levels), reverse=True)
    if not order:
        return []
    return [order[i % len(order)] for i in range(deal)]


def draft_demand(game: Any) -> dict[int, tuple[int, list[int]]]:
    """Level -> (cards the draft deals from it over all rounds, the rounds it is active)."""
    deal = _table(game, "draft", "deal", default=3)
    if not isinstance(deal, int) or deal < 0:
        deal = 3
    players = _players(game)
    demand: dict[int, int] = Counter()
    rounds_active: dict[int, list[int]] = defaultdict(list)
    for number, levels in active_levels(game).items():
        for level in deal_levels(levels, deal):
            demand[level] += players
        for level in sorted(set(levels)):
            rounds_active[level].append(number)
    return {lv: (demand[lv], rounds_active[lv]) for lv in rounds_active}


def _rounds_text(rounds: list[int]) -> str:
    """[2, 3, 4] -> 'rounds 2-4'; [3, 5] -> 'rounds 3, 5'; [1] -> 'round 1'."""
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if rounds == list(range(rounds[0], rounds[-1] + 1)):
        return f"rounds {rounds[0]}-{rounds[-1]}"
    return "rounds " + ", ".join(str(r) for r in rounds)


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}" if word.endswith("ment") else f"{count} {word}s"


# ---------------------------------------------------------------------------------------------
# The check


def _count(entry: Any) -> int:
    count = entry.count
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        return 0  # the core reports bad-count; such an entry adds nothing to the box
    return count


def check(deck: Any, game: Any) -> Iterator[Problem]:
    box_line = deck.line_of("cards") or 1

    by_level: dict[int, Counter] = {lv: Counter() for lv in LEVELS}
    creatures: Counter = Counter()
    sensei = 0
    for entry in deck.entries:
        card = entry.card
        if card is None:
            continue
        count = _count(entry)
        if card.type == "sensei":
            sensei += count
            continue
        level = card.fields.get("level")
        if card.type in LEVEL_TYPES and level in by_level:
            by_level[level][card.type] += count
        if card.type == "fighter" and card.fields.get("creature"):
            creatures[card.fields["creature"]] += count

    totals = {lv: sum(by_level[lv].values()) for lv in LEVELS}
    demand = draft_demand(game)

    # level-missing
    for level in LEVELS:
        if totals[level] == 0:
            rounds = demand.get(level, (0, []))[1]
            dealt = f": {_rounds_text(rounds)} deal from it" if rounds else ""
            yield Problem(
                "level-missing",
                f"the box has no level {ROMAN[level]} cards{dealt}",
                box_line,
            )

    # draft-supply (an empty level is level-missing's)
    players = _players(game)
    for level in LEVELS:
        need, rounds = demand.get(level, (0, []))
        have = totals[level]
        if have and have < need:
            yield Problem(
                "draft-supply",
                f"level {ROMAN[level]} deck has {have} cards: the draft deals {need} from it "
                f"to {players} players over {_rounds_text(rounds)}",
                box_line,
                severity="warning",
            )

    # transform-target
    for level in LEVELS[:-1]:
        target = level + 1
        if totals[target] == 0:
            continue  # level-missing says it
        for kind in TRANSFORMING:
            have = by_level[level][kind]
            if have and by_level[target][kind] == 0:
                yield Problem(
                    "transform-target",
                    f"level {ROMAN[target]} has no {kind}: the {_plural(have, kind)} of level "
                    f"{ROMAN[level]} have nothing to transform into",
                    box_line,
                )
    top = LEVELS[-1]
    for kind in TRANSFORMING:
        if by_level[top][kind] == 1:
            yield Problem(
                "transform-target",
                f"level {ROMAN[top]} has 1 {kind}: a level {ROMAN[top]} {kind} transforms into "
                f"another level {ROMAN[top]} {kind}, so it needs at least 2",
                box_line,
            )

    # creature-missing
    kinds = _table(game, "creatures")
    kinds = list(kinds) if isinstance(kinds, dict) and kinds else list(DEFAULT_CREATURES)
    for creature in kinds:
        if creatures[creature] == 0:
            yield Problem(
                "creature-missing",
                f"the box has no {creature} fighter: every creature type needs at least one",
                box_line,
                severity="warning",
            )

    # sensei-supply (a box without sensei is the first-game box: fine)
    deal = _table(game, "sensei_draft", "deal", default=3)
    if not isinstance(deal, int) or deal < 1:
        deal = 3
    need = deal * players
    if 0 < sensei < need:
        yield Problem(
            "sensei-supply",
            f"the box has {sensei} sensei: "
            f"dealing {deal} to each of {players} players needs {need}",
            box_line,
        )

    # box-copies
    for entry in deck.entries:
        card = entry.card
        if card is None:
            continue
        count = _count(entry)
        held = getattr(card, "copies", 1) or 1
        if count > held:
            yield Problem(
                "box-copies",
                f"has {count} copies of {card.name}: the box holds {held}",
                entry.line,
            )
