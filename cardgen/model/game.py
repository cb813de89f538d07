"""The checked model of a game: what every renderer, checker and engine reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.filenames import file_stem
from cardgen.model.fields import Spec


@dataclass
class CardType:
    id: str
    label: str
    doc: str | None
    fields: dict[str, Spec]          # every field this type may carry, by name
    required: list[str]
    in_decks: bool = True


@dataclass
class Card:
    name: str
    type: str
    copies: int
    fields: dict[str, Any]           # the card's other fields, as plain values
    file: Path
    line: int
    field_lines: dict[str, int] = field(default_factory=dict)
    # what every file made for this card is called (cards/<stem>.png, site/card/<stem>.html...)
    stem: str = ""

    def __post_init__(self):
        self.stem = self.stem or file_stem(self.name)

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass
class DeckCheck:
    """A deck check declared in game.yaml: `kind` is the generic check, `id` the rule users see."""

    kind: str
    id: str
    options: dict[str, Any]
    doc: str | None = None


@dataclass
class Game:
    id: str
    name: str
    folder: Path
    meta: dict[str, Any]             # version, players, play_time, ages, summary, card_size...
    icons: dict[str, str]
    keywords: dict[str, str]
    card_types: dict[str, CardType]
    cards: dict[str, Card]
    deck_fields: dict[str, Spec]
    deck_checks: list[DeckCheck]
    tables: dict[str, Any]
    # the game folder's Python (game.yaml `engine:`, `deck_checks:`, `aids:`): hook -> file or package
    hooks: dict[str, Path] = field(default_factory=dict)

    def cards_of_type(self, *types: str) -> list[Card]:
        return [c for c in self.cards.values() if c.type in types]

    def count_by_type(self) -> dict[str, int]:
        """Cards in the box by type, counting copies."""
        counts = {t: 0 for t in self.card_types}
        for card in self.cards.values():
            counts[card.type] += card.copies
        return counts
