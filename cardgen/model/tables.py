"""game.yaml `tables:` looked up by a dotted name (`draft.deal_order`), as the rulebook's
[[table:NAME]], [[ruling:NAME]] and {{ tables.NAME }} name them and a ruling's `box` does."""

from __future__ import annotations

from typing import Any


def lookup(tables: dict, path: str) -> Any:
    """tables['a']['b'] for 'a.b' (integer keys too); KeyError naming the missing part."""
    value: Any = tables
    done = []
    for part in path.split("."):
        done.append(part)
        if isinstance(value, dict):
            if part in value:
                value = value[part]
                continue
            if part.lstrip("-").isdigit() and int(part) in value:
                value = value[int(part)]
                continue
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
            continue
        raise KeyError(f"game.yaml tables has no {'.'.join(done)}")
    return value


def doc_of(table) -> str | None:
    """What a [[ruling:NAME]] box prints of a table: its `doc` line, or the table itself when it is
    a line of text; None when it has neither."""
    doc = table.get("doc") if isinstance(table, dict) else table
    return doc if isinstance(doc, str) and doc.strip() else None


def doc_line(tables: dict, path: str) -> str | None:
    """doc_of the table named `path`; None when there is no such table."""
    try:
        return doc_of(lookup(tables, path))
    except KeyError:
        return None
