"""Deck lists as players paste them in chats: "4 Card Name", one card a line.

    // Tech Assassins           <- comments start with //  (# works too)
    powers: Overclock, Night Veil   <- a deck field of the game: `name: value` (lists comma-separated)
    Deck                        <- a section header, as Arena writes it (Deck, Main, Mainboard)
    4 Circuit Knight
    2x Gear Up!                 <- "2x" and "2 x" are accepted...
    Gear Up! x2                 <- ...and so is the count after the name ("x2", "(x2)")
    1 Circuit Knight (AMB) 12   <- a set code and collector number after the name are dropped

Names are matched whatever their case, spacing or apostrophes (' or the typographic ’). A card on
several lines counts once with their counts added. A section no deck of cardgen's has (Sideboard,
Commander, Companion, Maybeboard) is reported at its header, with its cards left out.

Import reads such a file into a deck YAML; every line it cannot read, and every name that is not a
card of the game, is reported with its line: nothing is skipped silently.
"""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.errors import ContentError, Issue, did_you_mean
from cardgen.model import Game

ENTRY = re.compile(r"^(\d+)\s*[xX]?\s+(.+?)\s*$")
COUNT_AFTER = re.compile(r"^(.+?)\s+\(?[xX](\d+)\)?$")
PRINTING = re.compile(r"\s+\([A-Za-z0-9]{2,6}\)(\s+[A-Za-z0-9-]+)?$")      # " (SET) 12", as Arena adds
MAIN_HEADERS = {"deck", "main", "maindeck", "main deck", "mainboard"}
OTHER_HEADERS = {"sideboard", "side", "commander", "companion", "maybeboard", "considering"}
FIELD = re.compile(r"^([A-Za-z][A-Za-z _-]*?)\s*:\s*(.*)$")
MAX_LIST_BYTES = 1024 * 1024
BOM = "\ufeff"


def read_decklist(path: Path) -> str:
    """The text of a deck list file: a regular file of at most 1 MB, UTF-8. The byte-order mark
    some editors (Windows Notepad) put at the start is dropped: it is invisible and means nothing."""
    from cardgen.fsutil import read_user_text

    return read_user_text(path, None, MAX_LIST_BYTES, encoding_hint=": save the list as UTF-8")


def parse_decklist(text: str, game: Game, path: Path | None = None) -> dict:
    """The text as a deck mapping (game, name, fields, cards); raises ContentError with every bad line."""
    tally = Tally(game, path)
    other_section = False
    for number, raw in enumerate(text.removeprefix(BOM).splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        header = line.rstrip(":").strip().lower()
        if header in MAIN_HEADERS | OTHER_HEADERS:
            other_section = header in OTHER_HEADERS
            if other_section:
                tally.other_section(number, f"the cards under {line.rstrip(':')!r}")
            continue
        if other_section:
            continue
        if line.startswith("//") or line.startswith("#"):
            tally.comment(line.lstrip("/#").strip())
            continue
        entry = _entry(line)
        if entry:
            tally.card(number, *entry)
            continue
        field = FIELD.match(line)
        if field:
            tally.field(number, field.group(1), field.group(2))
            continue
        mark = (" (it holds an invisible byte-order mark, U+FEFF: delete it)" if BOM in line else "")
        tally.refuse(number, f"cannot read {line!r}: expected '4 Card Name', '4x Card Name', "
                             f"'Card Name x4', 'field: value' or a // comment{mark}")
    return tally.deck(path.stem if path else "Imported deck")


class Tally:
    """A deck list's cards and fields as its lines are read (whatever the list's format), and each
    line refused, with its number."""

    def __init__(self, game: Game, path: Path | None):
        self.game, self.path = game, path
        self.names = _name_keys(game)
        self.cards: dict[str, int] = {}
        self.fields: dict = {}
        self.name: str | None = None
        self.issues: list[Issue] = []

    def refuse(self, number: int | None, message: str) -> None:
        self.issues.append(Issue(self.path, number, None, message))

    def comment(self, text: str) -> None:
        """A comment: the first names the deck."""
        if self.name is None and text:
            self.name = text

    def other_section(self, number: int | None, what: str) -> None:
        self.refuse(number, f"{self.game.name} decks have no sideboard, commander or other section: "
                            f"{what} are left out; put those you want in the deck")

    def card(self, number: int | None, count: int, written: str) -> None:
        card = _card_named(written, self.names)
        if card is None:
            self.refuse(number, f"{written!r} is not a card of {self.game.name}"
                                f"{did_you_mean(written, self.game.cards)}")
        elif count < 1:
            self.refuse(number, f"{count} copies of {card}: a count is 1 or more")
        else:
            self.cards[card] = self.cards.get(card, 0) + count

    def field(self, number: int | None, label: str, value: str) -> None:
        """`label: value`: the deck's name, or one of the game's deck fields."""
        key = label.strip().lower().replace(" ", "_").replace("-", "_")
        value = value.strip()
        if key == "name":
            self.name = value
            return
        fields = self.game.deck_fields
        if key not in fields:
            known = ", ".join(["name", *fields]) or "name"
            self.refuse(number, f"unknown field {label!r}{did_you_mean(key, fields)} "
                                f"(a {self.game.id} deck list may set: {known})")
            return
        is_list = type(fields[key]).__name__ == "ListSpec"
        self.fields[key] = [v.strip() for v in value.split(",") if v.strip()] if is_list else value

    def deck(self, fallback_name: str) -> dict:
        """The deck mapping (game, name, fields, cards); a ContentError with every line refused."""
        if self.issues:
            raise ContentError(self.issues)
        if not self.cards:
            raise ContentError([Issue(self.path, None, None, "no cards in the list")])
        ordered = {f: self.fields[f] for f in self.game.deck_fields if f in self.fields}
        return {"game": self.game.id, "name": self.name or fallback_name, **ordered, "cards": self.cards}


def _entry(line: str) -> tuple[int, str] | None:
    """(count, the card's name as written) of a card line, in any of its shapes; None for another
    kind of line."""
    match = ENTRY.match(line)
    if match:
        return int(match.group(1)), match.group(2)
    match = COUNT_AFTER.match(line)
    return (int(match.group(2)), match.group(1)) if match else None


def _name_key(name: str) -> str:
    """A card name as it is matched: case, runs of spaces and typographic apostrophes aside."""
    return " ".join(name.replace("\u2019", "'").replace("\u2018", "'").casefold().split())


def _name_keys(game: Game) -> dict[str, str]:
    return {_name_key(name): name for name in game.cards}


def _card_named(written: str, names: dict[str, str]) -> str | None:
    """The card a written name means, a set code and number after it aside; None for no card."""
    card = names.get(_name_key(written))
    if card is None and PRINTING.search(written):
        card = names.get(_name_key(PRINTING.sub("", written)))
    return card


def deck_yaml(deck: dict) -> str:
    """A deck mapping as YAML, keys in the order a person writes them."""
    import yaml

    lines = [f"game: {deck['game']}", f"name: {_scalar(deck['name'])}"]
    for key, value in deck.items():
        if key in ("game", "name", "cards"):
            continue
        if isinstance(value, list):
            lines.append(f"{key}: [{', '.join(_scalar(v) for v in value)}]")
        else:
            lines.append(f"{key}: {_scalar(value)}")
    lines.append("cards:")
    lines += [f"  {_scalar(name)}: {count}" for name, count in deck["cards"].items()]
    text = "\n".join(lines) + "\n"
    yaml.safe_load(text)  # what we write must read back
    return text


def _scalar(value) -> str:
    import json

    text = str(value)
    plain = re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 '.!?&()-]*", text) and not text.endswith(" ") \
        and text.lower() not in ("yes", "no", "true", "false", "null", "on", "off")
    return text if plain and ": " not in text else json.dumps(text, ensure_ascii=False)


def format_decklist(deck) -> str:
    """A loaded Deck as the plain text format."""
    lines = [f"// {deck.name}", f"// {deck.game.name}"]
    for key, value in deck.fields.items():
        label = key.replace("_", " ")
        lines.append(f"{label}: {', '.join(map(str, value)) if isinstance(value, list) else value}")
    for entry in deck.entries:
        lines.append(f"{entry.count} {entry.name}")
    return "\n".join(lines) + "\n"
