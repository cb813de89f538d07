"""Display nodes: game data turned into a few printable shapes the templates know how to draw.

Every generated part of a rulebook or player aid is a list of nodes (plain dicts), so one set of
template macros prints them all and a game can restyle them by overriding one template:

    {"kind": "text", "text": Markup}                 a paragraph
    {"kind": "note", "text": Markup}                 a small italic remark (a table's `doc`)
    {"kind": "list", "items": [Markup], "ordered": bool}
    {"kind": "table", "head": [str], "rows": [[Markup]], "cls": str}
    {"kind": "fields", "pairs": [(str, Markup)]}     a two-column key/value table
    {"kind": "group", "title": str, "nodes": [...], "cls": str}
    {"kind": "html", "html": Markup}                 already-safe HTML (templates, Markdown)

All text from content goes through `rich`, which escapes it and only then turns `{icon}` tokens
into symbol spans.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from cardgen.model.fields import ICON_TOKEN

MAX_TABLE_COLUMNS = 6     # wider mappings print as one block per key: narrow columns are unreadable
_ACRONYMS = {"pgp": "PGP", "ai": "AI", "exp": "Exp", "sa": "SA", "pb": "PB", "x": "X"}


def human(key: Any) -> str:
    """A table key as a heading: starting_points -> Starting points."""
    if isinstance(key, bool):
        return "yes" if key else "no"
    if not isinstance(key, str):
        return str(key)
    if " " in key or any(c.isupper() for c in key):
        return key[:1].upper() + key[1:]
    words = re.split(r"[_-]+", key)
    words = [_ACRONYMS.get(w, w) for w in words if w]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def rich(value: Any, icons: dict[str, str | Markup] | None = None) -> Markup:
    """Escaped text with {icon} tokens drawn as symbols: `icons` maps a name to its characters,
    or to the HTML that shows it (cardgen.publish.icons.html_icons: pictures too)."""
    if value is None:
        return Markup("")
    if isinstance(value, bool):
        return Markup("yes" if value else "no")
    if isinstance(value, (list, tuple)):
        return Markup(", ").join(rich(v, icons) for v in value)
    if isinstance(value, dict):
        return Markup("; ").join(Markup("{}: {}").format(human(k), rich(v, icons))
                                 for k, v in value.items())
    text = str(escape(str(value)))
    if icons:
        def icon(m: re.Match) -> str:
            glyph = icons.get(m.group(1))
            if glyph is None:
                return m.group(0)
            if isinstance(glyph, Markup):
                return str(glyph)
            return f'<span class="icon" title="{m.group(1)}">{escape(glyph)}</span>'

        text = ICON_TOKEN.sub(icon, text)
    return Markup(text)


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def is_flat(value: Any) -> bool:
    """A scalar, or a list of scalars: fits in one table cell."""
    return is_scalar(value) or (isinstance(value, list) and all(is_scalar(v) for v in value))


def is_doc_key(key: Any) -> bool:
    return isinstance(key, str) and (key == "doc" or key.endswith("_doc"))


def to_nodes(value: Any, icons: dict[str, str] | None = None) -> list[dict]:
    """Any game.yaml table value as display nodes."""
    if is_scalar(value):
        return [] if value is None else [{"kind": "text", "text": rich(value, icons)}]
    if isinstance(value, list):
        if all(is_scalar(v) for v in value):
            return [{"kind": "list", "items": [rich(v, icons) for v in value], "ordered": False}]
        if all(isinstance(v, dict) for v in value):
            cols = _columns(value)
            if all(is_flat(v) for item in value for v in item.values()):
                return [{"kind": "table", "head": [human(c) for c in cols], "cls": "data",
                         "rows": [[rich(item.get(c), icons) for c in cols] for item in value]}]
            return [{"kind": "group", "title": "", "cls": "item", "nodes": to_nodes(item, icons)}
                    for item in value]
        return [{"kind": "list", "ordered": False,
                 "items": [Markup(" ").join(_inline(v, icons)) for v in value]}]
    if isinstance(value, dict):
        notes = [{"kind": "note", "text": rich(v, icons)} for k, v in value.items() if is_doc_key(k)]
        body = {k: v for k, v in value.items() if not is_doc_key(k)}
        nodes: list[dict] = []
        if not body:
            pass
        elif all(is_flat(v) for v in body.values()):
            nodes.append({"kind": "fields", "pairs": [(human(k), rich(v, icons)) for k, v in body.items()]})
        elif all(isinstance(v, dict) and all(is_flat(x) for k2, x in v.items() if not is_doc_key(k2))
                 for v in body.values()) and len(_columns(list(body.values()))) <= MAX_TABLE_COLUMNS:
            rows = list(body.items())
            cols = _columns([{k: x for k, x in v.items() if not is_doc_key(k)} for _, v in rows])
            nodes.append({"kind": "table", "head": [""] + [human(c) for c in cols], "cls": "data keyed",
                          "rows": [[Markup("<b>{}</b>").format(human(k))] + [rich(v.get(c), icons)
                                                                            for c in cols]
                                   for k, v in rows]})
            for k, v in rows:
                for dk, dv in v.items():
                    if is_doc_key(dk):
                        notes.append({"kind": "note", "text": Markup("{}: {}").format(human(k),
                                                                                      rich(dv, icons))})
        else:
            flat = {k: v for k, v in body.items() if is_flat(v)}
            if flat:
                nodes.append({"kind": "fields", "pairs": [(human(k), rich(v, icons))
                                                          for k, v in flat.items()]})
            for k, v in body.items():
                if not is_flat(v):
                    nodes.append({"kind": "group", "title": human(k), "cls": "sub",
                                  "nodes": to_nodes(v, icons)})
        return nodes + notes
    return [{"kind": "text", "text": rich(str(value), icons)}]


def _inline(value: Any, icons) -> list[Markup]:
    if isinstance(value, dict):
        return [Markup("<b>{}</b>: {}").format(human(k), rich(v, icons)) for k, v in value.items()]
    return [rich(value, icons)]


def _columns(items: list[dict]) -> list:
    cols: list = []
    for item in items:
        for key in item:
            if key not in cols:
                cols.append(key)
    return cols
