"""Nested field values as a player reads them on the card, for the card database's pages and
`cardgen serve`: read from the field's spec in game.yaml, never from a game's name.

- A map whose keys are keywords (abilities) is one line per keyword: **Armor** 2, **Sneaky**
  (a `true` value is the keyword alone), **Resist** Poison 2, **Immune** Poison, Stun.
- A map from cards to numbers (a deck list) is one line per card: 3 × Jab.
- A record reads like a card's line: its `name` in bold first, then each number with its label
  (3 energy, 300 damage), its text, and its other fields; a `foo_name` beside a `foo` is a
  heading with its text (**A · First Light** and side A's text).
- A list of records is one block per record; a record's list of cards that may repeat is an
  order (a combo: Jab → Hook → Uppercut), any other list a set (Jab, Hook).
"""

from __future__ import annotations

from markupsafe import Markup

from cardgen.model.fields import (
    BoolSpec,
    CardRefSpec,
    IntSpec,
    KeywordSpec,
    ListSpec,
    MapSpec,
    OneOfSpec,
    RecordSpec,
    StrSpec,
)

ARROW = Markup(" → ")


def show_field(value, spec, game, rich, in_record: bool = False) -> Markup:
    """`value` as HTML, laid out as its spec says; `rich` turns card text into HTML ({icon}, bold).
    `in_record`: the value is a record's field."""
    if isinstance(spec, OneOfSpec):
        spec = _option_for(value, spec)
    if isinstance(spec, MapSpec) and isinstance(value, dict):
        return _map(value, spec, game, rich)
    if isinstance(spec, RecordSpec) and isinstance(value, dict):
        return _record(value, spec, game, rich)
    if isinstance(spec, ListSpec) and isinstance(value, list):
        if all(isinstance(v, dict) for v in value) and value:
            return Markup("").join(Markup("<div class='record'>{}</div>").format(
                show_field(v, spec.items, game, rich)) for v in value)
        joiner = ARROW if _is_order(spec, in_record) else Markup(", ")
        return joiner.join(show_field(v, spec.items, game, rich) for v in value)
    if isinstance(value, bool):
        return Markup("yes" if value else "no")
    return rich(value)


def _unlabelled(key: str, spec, named: bool) -> bool:
    """A record's field that reads without its label: its text, and a named record's order of
    cards (a combo: High Noon: Jab → Hook)."""
    return key == "text" or (isinstance(spec, StrSpec) and spec.text) or (named and _is_order(spec, True))


def _is_order(spec, in_record: bool) -> bool:
    """A record's list of cards that may repeat is an order (a combo's cards)."""
    return (in_record and isinstance(spec, ListSpec) and isinstance(spec.items, CardRefSpec)
            and not spec.unique)


def _option_for(value, spec: OneOfSpec):
    """The option of a one_of that a value is written in (the first whose kind fits)."""
    kinds = ((MapSpec, RecordSpec), dict), ((ListSpec,), list), ((BoolSpec,), bool)
    for spec_kinds, value_kind in kinds:
        if isinstance(value, value_kind):
            return next((o for o in spec.options if isinstance(o, spec_kinds)), None)
    return next((o for o in spec.options if isinstance(o, (IntSpec, StrSpec))), None)


def _map(value: dict, spec: MapSpec, game, rich) -> Markup:
    lines = []
    for key, item in value.items():
        if isinstance(spec.keys, CardRefSpec) and isinstance(item, int) and not isinstance(item, bool):
            lines.append(Markup("{} × {}").format(item, rich(key)))
            continue
        shown = show_field(item, spec.values, game, rich)
        if item is True:
            shown = Markup("")
        elif isinstance(item, list):
            shown = Markup(": ") + shown
        head = Markup("<b>{}</b>").format(key) if isinstance(spec.keys, KeywordSpec) else rich(key)
        gap = "" if isinstance(item, list) else " "
        lines.append(Markup("{}{}{}").format(head, gap, shown) if shown else head)
    return Markup("<br>").join(lines)


def _record(value: dict, spec: RecordSpec, game, rich) -> Markup:
    fields = spec.fields
    order = [k for k in fields if k in value] + [k for k in value if k not in fields]
    headings = {k[: -len("_name")] for k in order if k.endswith("_name") and k[: -len("_name")] in value}
    name = Markup("<b>{}</b>").format(value["name"]) if "name" in value else None
    parts, lines = [], []
    for key in order:
        if key == "name" or key in headings or (key.endswith("_name") and key[:-5] in headings):
            continue
        item, item_spec = value[key], fields.get(key)
        shown = show_field(item, item_spec, game, rich, in_record=True)
        label = key.replace("_", " ")
        if isinstance(item, int) and not isinstance(item, bool):
            parts.append(Markup("{} {}").format(item, label))
        elif _unlabelled(key, item_spec, name is not None):
            parts.append(shown)
        else:
            parts.append(Markup("{}: {}").format(label, shown))
    for key in order:
        if key in headings:    # a side letter as the card prints it: A · First Light
            side = key.upper() if len(key) == 1 else key.replace("_", " ").capitalize()
            text = show_field(value[key], fields.get(key), game, rich)
            lines.append(Markup("<b>{} · {}</b> {}").format(side, value[f"{key}_name"], text))
    line = Markup(" · ").join(parts)
    if name is not None:
        line = Markup("{}: {}").format(name, line) if parts else name
    return Markup("<br>").join([x for x in [*lines, line] if x])

