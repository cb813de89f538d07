"""The checked model of a game: what every renderer, checker and engine reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.errors import did_you_mean
from cardgen.filenames import file_stem
from cardgen.model.fields import Spec

DEFAULT_LIST_SEPARATOR = ";"        # game.yaml spreadsheets.list_separator, when it gives none


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
    severity: str = "error"          # "warning": advice, printed, but the deck stays legal


@dataclass
class Ruling:
    """How the game is played where its published rules are silent or unclear (game.yaml
    `rulings:`): the engine plays it and the rulebook prints it as a ruling."""

    rule: str
    cites: str | None = None         # the rulebook sentence it fills in or reads
    line: int | None = None
    box: str | None = None           # the table whose [[ruling:TABLE]] box states it in a chapter


@dataclass
class Variant:
    """A named, opt-in change to the published rules (game.yaml `variants:`). `source` says whose:
    "rulebook" (an optional rule the published rulebook offers) or "house" (the game folder's own
    addition). Off unless asked for by `--variant` or a deck's `variants:`."""

    id: str
    name: str
    source: str
    rule: str
    cites: str | None = None         # the rulebook sentence it departs from, or that offers it
    played: bool = True              # False: described, but the engine does not play it
    why: str | None = None           # why the engine does not play it
    line: int | None = None

    @property
    def label(self) -> str:
        return f"{self.id} ({self.name})" if self.name != self.id else self.id

    def unplayed_message(self, game_name: str) -> str:
        return (f"{game_name}'s engine does not play the {self.label} variant"
                f"{': ' + self.why if self.why else ''}")


@dataclass(frozen=True)
class IconImage:
    """An icon of game.yaml drawn from a picture (PNG, SVG...) instead of font characters."""

    image: str                  # its file, from the game folder
    colour: str | None = None   # None: the text's colour; "original": its own; else a colour
    line: int | None = None     # in game.yaml, for errors about the file


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
    rulings: list[Ruling] = field(default_factory=list)
    variants: dict[str, Variant] = field(default_factory=dict)
    list_separator: str = DEFAULT_LIST_SEPARATOR     # between a list's items in a spreadsheet cell
    icon_images: dict[str, IconImage] = field(default_factory=dict)   # `icons:` drawn from pictures

    @property
    def icon_names(self) -> set[str]:
        """Every {name} card text may use: font icons and picture icons."""
        return set(self.icons) | set(self.icon_images)

    def variant_problem(self, name: str, also: tuple[str, ...] = ()) -> str | None:
        """Why `name` cannot be asked for (`--variant`, a deck's `variants:`), or None. `also`: the
        names an engine written before game.yaml `variants:` offers in its code."""
        variant = self.variants.get(name)
        if variant is None and name in also:
            return None
        if variant is None:
            offered = ", ".join(dict.fromkeys([*(v.id for v in self.variants.values() if v.played),
                                               *also]))
            return (f"{self.name} has no variant {name!r}{did_you_mean(name, self.variants)} "
                    f"({'variants: ' + offered if offered else 'it declares no variants'})")
        if not variant.played:
            return variant.unplayed_message(self.name)
        return None

    def cards_of_type(self, *types: str) -> list[Card]:
        return [c for c in self.cards.values() if c.type in types]

    def count_by_type(self) -> dict[str, int]:
        """Cards in the box by type, counting copies."""
        counts = {t: 0 for t in self.card_types}
        for card in self.cards.values():
            counts[card.type] += card.copies
        return counts
