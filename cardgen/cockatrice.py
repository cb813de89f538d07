"""Cockatrice's deck files (.cod): XML with the deck's name, comments and zones of cards.

    <?xml version="1.0" encoding="UTF-8"?>
    <cockatrice_deck version="1">
        <deckname>Tech Assassins</deckname>
        <comments>game: amiibart
    powers: Overclock, Night Veil</comments>
        <zone name="main">
            <card number="4" name="Circuit Knight"/>
        </zone>
    </cockatrice_deck>

A deck's fields (which Cockatrice has no place for) are written in the comments as `field: value`
lines, and read back from them. A zone other than "main" (Cockatrice's "side", "tokens") is
reported: no deck of cardgen's has one.

The XML is read with expat and no document type: a file with a DOCTYPE or an entity declaration
is refused before parsing (Cockatrice never writes one), so no entity is ever expanded.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from cardgen.decklist import FIELD, Tally
from cardgen.errors import ContentError, Issue
from cardgen.model import Game

ROOT_TAG = "cockatrice_deck"
DECLARATIONS = re.compile(r"<!(DOCTYPE|ENTITY)", re.IGNORECASE)


def looks_like_cod(text: str) -> bool:
    """Whether a deck list's text is XML (a .cod file), whatever the file is called."""
    return text.lstrip("\ufeff \t\r\n").startswith("<")


def game_in_comments(text: str) -> str | None:
    """The game a .cod file's comments name (`game: ID`), as cardgen writes them; None if none."""
    comments = re.search(r"<comments>(.*?)</comments>", text, re.DOTALL)
    found = re.search(r"(?im)^\s*game\s*:\s*(\S.*?)\s*$", comments.group(1)) if comments else None
    return found.group(1) if found else None


def parse_cod(text: str, game: Game, path: Path | None = None) -> dict:
    """A .cod file as a deck mapping (game, name, fields, cards); ContentError with every problem."""
    declared = DECLARATIONS.search(text)
    if declared:
        line = text.count("\n", 0, declared.start()) + 1
        raise ContentError([Issue(path, line, None, "a document type or entity declaration is never "
                                                    "read (Cockatrice writes none): remove it")])
    reader = _CodReader(game, path)
    try:
        reader.parser.Parse(text.removeprefix("\ufeff"), True)
    except expat.ExpatError as exc:
        reason = f"not a readable Cockatrice deck: {expat.ErrorString(exc.code)}"
        raise ContentError([Issue(path, exc.lineno, None, reason)]) from None
    if reader.root != ROOT_TAG:
        raise ContentError([Issue(path, 1, None, f"not a Cockatrice deck: its root element is "
                                                 f"<{reader.root}>, not <{ROOT_TAG}>")])
    return reader.tally.deck(path.stem if path else "Imported deck")


class _CodReader:
    """The expat handlers: cards of the main zone tallied, each with its line."""

    def __init__(self, game: Game, path: Path | None):
        self.tally = Tally(game, path)
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.characters
        self.root: str | None = None
        self.zone: str | None = None
        self.text: list[str] = []       # of the deckname or comments element being read
        self.text_line = 0

    def start(self, tag: str, attributes: dict) -> None:
        line = self.parser.CurrentLineNumber
        self.root = self.root or tag
        self.text, self.text_line = [], line
        if tag == "zone":
            self.zone = attributes.get("name", "")
            if self.zone != "main":
                self.tally.other_section(line, f"the cards of the zone {self.zone!r}")
        elif tag == "card" and self.zone == "main":
            number = attributes.get("number", "1")
            if not number.isdigit():
                self.tally.refuse(line, f"number={number!r}: expected a count such as \"4\"")
            else:
                self.tally.card(line, int(number), attributes.get("name", ""))

    def end(self, tag: str) -> None:
        text = "".join(self.text)
        if tag == "deckname" and text.strip():
            self.tally.name = text.strip()
        elif tag == "comments":
            self.comments(text)
        elif tag == "zone":
            self.zone = None

    def characters(self, data: str) -> None:
        self.text.append(data)

    def comments(self, text: str) -> None:
        """`field: value` lines are the deck's fields (a game: line names the game); other lines
        are a designer's notes, kept out of the deck."""
        for offset, line in enumerate(text.splitlines()):
            field = FIELD.match(line.strip())
            if field and field.group(1).strip().lower() != "game":
                self.tally.field(self.text_line + offset, field.group(1), field.group(2))


def format_cod(deck) -> str:
    """A loaded Deck as a Cockatrice .cod file."""
    comments = [f"game: {deck.game.id}"] + [
        f"{key.replace('_', ' ')}: {', '.join(map(str, value)) if isinstance(value, list) else value}"
        for key, value in deck.fields.items()]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<cockatrice_deck version="1">',
             f"    <deckname>{escape(deck.name)}</deckname>",
             f"    <comments>{escape(chr(10).join(comments))}</comments>",
             '    <zone name="main">']
    lines += [f'        <card number="{entry.count}" name={quoteattr(entry.name)}/>'
              for entry in deck.entries]
    lines += ["    </zone>", "</cockatrice_deck>"]
    return "\n".join(lines) + "\n"
