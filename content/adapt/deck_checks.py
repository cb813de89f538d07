"""A.D.A.P.T. box checks.

A.D.A.P.T. has no player-built decks: the "deck" is the box's gene stream deck (every body and
part; guppies and status trackers are set aside). These checks ask whether that box can play a
whole game: Bodies at every Level for every Fish to climb, a part at every location the deck's
variants keep, a Guppy per player, enough cards to keep the gene stream flowing, and card data
that fits the ability rules (caps, value forms, body costs).

The published rules make only some of them rules: guppies and status trackers stay out of the
deck, the kids' variant takes its four locations out, and card data must be readable (value
forms) and priced by the buying table. The rest (ADVICE) are warnings: a box with few Bodies at a
Level, no part at a location, few cards or a card listed twice (two boxes, as the 4-6 player rules
combine them) is still a deck the rules can play.

The numbers come from the game's `tables:` (box_checks, gene_stream, body_costs, abilities,
ability_rules, variants), so a designer who changes a table gets checks that follow it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from cardgen.errors import Problem
from cardgen.model.fields import show

RULES = {
    "body-levels": (
        "A Body Level (1-5) has fewer Bodies than the Fish of a 3-player core game need to climb "
        "(an Adapted Body never returns to the stream; with none, Adapting cannot climb past it)."
    ),
    "part-locations": (
        "A part location (dorsal, horn, mouth, skin, side, organ, tail, special) has no part, "
        "although none of the deck's variants removes it."
    ),
    "variant-locations": (
        "A part from a location the deck's variants remove (kids: special, horn, organ, skin)."
    ),
    "guppy-count": "The game has fewer Guppies than the 3 players of the core game.",
    "stream-supply": (
        "The gene stream deck holds fewer cards than the 3-player gene stream needs at setup "
        "(plus the slots the deck's variants add) and 10 cycles after it."
    ),
    "ability-cap": "A single card's ability value already exceeds that ability's cap.",
    "ability-form": (
        "An ability value of the wrong form: a number for an ability without numerals, true for "
        "one with numerals, an effect Resist or Immune cannot name, or a Cooldown on a card "
        "with no Special Action."
    ),
    "body-cost": "A Body whose cost is not the buying table's cost for its Level (4 per Level).",
    "box-copies": "A card is listed with more copies than the box holds (the card's `copies`).",
}

# Advice, not rules of the game: the published rulebook says nothing about what a box holds (its
# multi-player rules even combine two boxes), and caps apply to a Fish's totals, not to one card.
# These findings are warnings: printed, and the deck stays legal unless `validate --strict`.
ADVICE = frozenset({"body-levels", "part-locations", "guppy-count", "stream-supply", "box-copies",
                    "ability-cap"})

LEVELS = (1, 2, 3, 4, 5)
STREAM_TYPES = ("body", "part")

# Used when game.yaml has no tables for them (a copied or trimmed game folder).
DEFAULT_LOCATIONS = ("dorsal", "horn", "mouth", "skin", "side", "organ", "tail", "special")
DEFAULT_BODY_COSTS = {1: 4, 2: 8, 3: 12, 4: 16, 5: 20}
DEFAULT_SLOTS = {2: 3, 3: 4, 4: 5, 5: 6, 6: 7}
DEFAULT_BOX = {"min_bodies_per_level": 3, "core_max_players": 3, "stream_players": 3,
               "stream_cycles": 10}
DEFAULT_REMOVED = {"kids": ("special", "horn", "organ", "skin")}
DEFAULT_EXTRA_SLOTS = {"kids": 1, "sailfish": 1}


# ---------------------------------------------------------------------------------------------
# Reading the game's tables


def _table(game: Any, *keys: Any, default: Any = None) -> Any:
    value: Any = getattr(game, "tables", None) or {}
    for key in keys:
        if not isinstance(value, dict):
            return default
        if key in value:
            value = value[key]
        elif str(key) in value:
            value = value[str(key)]
        else:
            return default
    return value


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _box(game: Any, key: str) -> int:
    found = _int(_table(game, "box_checks", key))
    return found if found is not None else DEFAULT_BOX[key]


def _locations(game: Any) -> list[str]:
    part = getattr(game, "card_types", {}).get("part")
    spec = part.fields.get("location") if part is not None else None
    values = getattr(spec, "values", None)
    return [str(v) for v in values] if values else list(DEFAULT_LOCATIONS)


def _variants(deck: Any) -> list[str]:
    found = getattr(deck, "variants", None) or []
    return [str(v) for v in found] if isinstance(found, (list, tuple)) else []


def _removed_locations(game: Any, variants: list[str]) -> dict[str, str]:
    """Location -> the variant that removes it."""
    out: dict[str, str] = {}
    for variant in variants:
        removed = _table(game, "variants", variant, "remove_locations",
                         default=DEFAULT_REMOVED.get(variant, ()))
        for location in removed or ():
            out.setdefault(str(location), variant)
    return out


def _stream_slots(game: Any, variants: list[str]) -> tuple[int, int, int]:
    """(players, base slots for them, extra slots the variants add)."""
    players = _box(game, "stream_players")
    slots = _int(_table(game, "gene_stream", "slots_by_players", players))
    if slots is None:
        slots = DEFAULT_SLOTS.get(players, 4)
    extra = 0
    for variant in variants:
        more = _int(_table(game, "variants", variant, "gene_stream_extra_slots"))
        extra += more if more is not None else DEFAULT_EXTRA_SLOTS.get(variant, 0)
    return players, slots, extra


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def _where(card: Any, field: str | None = None) -> str:
    """Where a card (or one of its fields) is written, for messages about card data."""
    file = getattr(card, "file", None)
    line = (getattr(card, "field_lines", {}) or {}).get(field) if field else None
    line = line or getattr(card, "line", None)
    if file is None:
        return ""
    parts = file.parts
    rel = "/".join(parts[parts.index("cards"):]) if "cards" in parts else file.name
    return f" ({rel}:{line})" if line else f" ({rel})"


# ---------------------------------------------------------------------------------------------
# The checks


def check(deck: Any, game: Any) -> Iterator[Problem]:
    for problem in _findings(deck, game):
        yield replace(problem, severity="warning") if problem.rule in ADVICE else problem


def _findings(deck: Any, game: Any) -> Iterator[Problem]:
    variants = _variants(deck)
    counted = deck.counted_entries()
    yield from _body_levels(deck, game, counted)
    yield from _part_locations(deck, game, counted, variants)
    yield from _guppy_count(deck, game)
    yield from _stream_supply(deck, game, counted, variants)
    yield from _box_copies(deck, counted)
    seen: set[str] = set()
    for entry in deck.entries:
        card = entry.card
        if card is None or card.name in seen:
            continue
        seen.add(card.name)
        yield from _variant_location(entry, game, variants)
        yield from _body_cost(entry, game)
        yield from _abilities(entry, game)


def _body_levels(deck, game, counted) -> Iterator[Problem]:
    need = _box(game, "min_bodies_per_level")
    fish = _box(game, "core_max_players")
    bodies: Counter = Counter()
    for entry, n in counted:
        if entry.card.type == "body":
            bodies[entry.card.get("level")] += n
    for level in LEVELS:
        have = bodies[level]
        if have >= need:
            continue
        why = f"at least {need} needed (one per Fish of a {fish}-player game)"
        if have == 0:
            stuck = ("a Guppy's Auto-Adapt finds no Body" if level == 1
                     else f"no Fish can Adapt past Level {level - 1}")
            yield Problem("body-levels", f"has no body at Level {level}: {why}; {stuck}",
                          deck.line_of("cards"))
        else:
            yield Problem("body-levels", f"has {_plural(have, 'body', 'bodies')} at Level "
                                         f"{level}: {why}", deck.line_of("cards"))


def _part_locations(deck, game, counted, variants) -> Iterator[Problem]:
    removed = _removed_locations(game, variants)
    parts: Counter = Counter()
    for entry, n in counted:
        if entry.card.type == "part":
            parts[entry.card.get("location")] += n
    for location in _locations(game):
        if location in removed or parts[location] > 0:
            continue
        hint = ""
        kids = set(_table(game, "variants", "kids", "remove_locations",
                          default=DEFAULT_REMOVED["kids"]) or ())
        if "kids" not in variants and location in kids:
            hint = " (a kids' box should say `variants: [kids]`)"
        yield Problem("part-locations", f"has no {location} part: every location the deck's "
                                        f"variants keep needs at least 1{hint}",
                      deck.line_of("cards"))


def _variant_location(entry, game, variants) -> Iterator[Problem]:
    card = entry.card
    if card.type != "part":
        return
    removed = _removed_locations(game, variants)
    location = card.get("location")
    if location in removed:
        article = "an" if str(location)[:1] in "aeiou" else "a"
        yield Problem("variant-locations", f"{card.name} is {article} {location} part: the "
                                           f"{removed[location]} variant removes {location} parts",
                      entry.line)


def _guppy_count(deck, game) -> Iterator[Problem]:
    need = _box(game, "core_max_players")
    guppies = sum(c.copies for c in game.cards.values() if c.type == "guppy")
    if guppies < need:
        yield Problem("guppy-count", f"the game has {_plural(guppies, 'guppy', 'guppies')}: "
                                     f"at least {need} needed (one per player of the "
                                     f"{need}-player core game)", deck.line_of("game"))


def _stream_supply(deck, game, counted, variants) -> Iterator[Problem]:
    in_decks = [t for t, ct in game.card_types.items() if ct.in_decks] or list(STREAM_TYPES)
    total = sum(n for e, n in counted if e.card.type in in_decks)
    players, slots, extra = _stream_slots(game, variants)
    cycles = _box(game, "stream_cycles")
    need = slots + extra + cycles
    if total < need:
        how = f"{slots} slots for {players} players"
        if extra:
            how += f" + {extra} for {', '.join(variants)}"
        yield Problem("stream-supply", f"has {_plural(total, 'card')} for the gene stream: at "
                                       f"least {need} needed ({how} + {cycles} cycles)",
                      deck.line_of("cards"))


def _box_copies(deck, counted) -> Iterator[Problem]:
    if deck.raw.get("cards") == "all":
        return
    totals: Counter = Counter()
    first: dict = {}
    for entry, n in counted:
        totals[entry.card.name] += n
        first.setdefault(entry.card.name, entry)
    for name, n in totals.items():
        card = first[name].card
        if n > card.copies:
            yield Problem("box-copies", f"has {n} copies of {name}: the box holds "
                                        f"{card.copies}", first[name].line)


def _body_cost(entry, game) -> Iterator[Problem]:
    card = entry.card
    if card.type != "body":
        return
    level, cost = card.get("level"), card.get("cost")
    table = _table(game, "body_costs", default=None) or DEFAULT_BODY_COSTS
    want = _int(table.get(level, table.get(str(level)))) if isinstance(table, dict) else None
    if want is not None and cost != want:
        yield Problem("body-cost", f"{card.name}{_where(card, 'cost')} costs {cost} exp: a Level "
                                   f"{level} body costs {want} exp", entry.line)


def _abilities(entry, game) -> Iterator[Problem]:
    card = entry.card
    abilities = card.get("abilities")
    if not isinstance(abilities, dict):
        return
    where = _where(card, "abilities")
    info = _table(game, "abilities", default={}) or {}
    rules = _table(game, "ability_rules", default={}) or {}
    resist = set(rules.get("resist_effects") or ())
    immune = set(rules.get("immune_effects") or ())
    actions = {name for name, spec in info.items()
               if isinstance(spec, dict) and spec.get("kind") == "SA"}
    for name, value in abilities.items():
        spec = info.get(name)
        if not isinstance(spec, dict):
            yield Problem("ability-form", f"{card.name}{where}: {name} has no entry in "
                                          "tables.abilities (kind, form, cap)", entry.line)
            continue
        form, cap = spec.get("form"), _int(spec.get("cap"))
        if form == "numeral":
            if _int(value) is None:
                yield Problem("ability-form", f"{card.name}{where}: {name} takes a number, "
                                              f"got {show(value)}", entry.line)
            elif cap is not None and value > cap:
                yield Problem("ability-cap", f"{card.name}{where} has {name} {value}: cap "
                                             f"{cap}", entry.line)
        elif form == "flag":
            if value is not True:
                yield Problem("ability-form", f"{card.name}{where}: {name} has no numerals, "
                                              f"write `{name}: true`, got {show(value)}", entry.line)
        elif form == "effects":
            allowed = resist if name == "Resist" else immune
            if name == "Resist" and isinstance(value, dict):
                effects = list(value)
                for effect, score in value.items():
                    if cap is not None and _int(score) is not None and score > cap:
                        yield Problem("ability-cap", f"{card.name}{where} has {name} {effect} "
                                                     f"{score}: cap {cap}", entry.line)
            elif name != "Resist" and isinstance(value, list):
                effects = list(value)
            else:
                shape = "{effect: score}" if name == "Resist" else "a list of effects"
                yield Problem("ability-form", f"{card.name}{where}: {name} takes {shape}, "
                                              f"got {show(value)}", entry.line)
                continue
            for effect in effects:
                if allowed and effect not in allowed:
                    yield Problem("ability-form", f"{card.name}{where}: {name} cannot name "
                                                  f"{effect} (one of: {', '.join(sorted(allowed))})",
                                  entry.line)
    if "Cooldown" in abilities and not actions & set(abilities):
        yield Problem("ability-form", f"{card.name}{where} has Cooldown but no Special Action "
                                      f"({', '.join(sorted(actions))}) for it to delay",
                      entry.line)
