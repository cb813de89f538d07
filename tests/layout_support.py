"""What the layout tests of several games share: reading the text a laid-out card draws."""

from __future__ import annotations

import re

from cardgen.render.display import Run


def runs(face) -> list[Run]:
    return [item for item in face.items if isinstance(item, Run)]


def squashed(face) -> str:
    """All text of a face in drawing order, without spaces (runs split words at bold keywords)."""
    return re.sub(r"\s+", "", "".join(r.text for r in runs(face)))


def plain(text: str, game) -> str:
    """Card text as it prints: icons as their symbols, markup and spaces gone."""
    for name, symbol in game.icons.items():
        text = text.replace("{" + name + "}", symbol)
    return re.sub(r"\s+", "", text.replace("**", ""))


def alone(face, text: str) -> bool:
    """True when some run draws exactly this text (a stat in its own badge, a label)."""
    return any(r.text.strip() == text for r in runs(face))


def cards_of(game, card_type):
    return [c for c in game.cards.values() if c.type == card_type]
