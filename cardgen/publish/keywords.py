"""The keyword reference: each keyword with its reminder text and how many cards carry it (the
rulebook's [[keywords]] and the player aids print the same list)."""

from __future__ import annotations

import re

from cardgen.model import Game
from cardgen.publish.icons import html_icons
from cardgen.publish.nodes import rich


def keyword_usage(game: Game) -> dict[str, list[str]]:
    """Keyword -> names of the cards that carry it (in a keyword list, an ability map or text)."""
    used: dict[str, list[str]] = {k: [] for k in game.keywords}
    patterns = {k: re.compile(rf"(?<![A-Za-z]){re.escape(k)}(?![a-z])") for k in game.keywords}

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for k, v in value.items():
                yield from strings(k)
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    for card in game.cards.values():
        texts = list(strings(card.fields))
        for kw, pattern in patterns.items():
            if any(t == kw or pattern.search(t) for t in texts):
                used[kw].append(card.name)
    return used


def keyword_id(name: str) -> str:
    """The id of a keyword's entry in the keyword reference (the glossary links to it)."""
    return f"kw-{name.lower().replace(' ', '-')}"


def keywords(game: Game, arg: str | None = None) -> list[dict]:
    if not game.keywords:
        return []
    usage = keyword_usage(game)
    items = []
    for name in sorted(game.keywords, key=str.lower):
        n = len(usage[name])
        meta = f"on {n} card{'s' if n != 1 else ''}" if n else "no card uses it yet"
        items.append({"term": name, "text": rich(game.keywords[name], html_icons(game)), "meta": meta,
                      "id": keyword_id(name)})
    return [{"kind": "defs", "cls": "keywords", "items": items}]
