"""Deck lists as players paste them in chats: "4 Card Name", one card a line.

    // Tech Assassins           <- comments start with //  (# works too)
    powers: Overclock, Night Veil   <- a deck field of the game: `name: value` (lists comma-separated)
    4 Circuit Knight
    2x Gear Up!                 <- "2x" is accepted

Import reads such a file into a deck YAML; every line it cannot read, and every name that is not a
card of the game, is reported with its line: nothing is skipped silently.
"""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.errors import ContentError, Issue, did_you_mean
from cardgen.model import Game

ENTRY = re.compile(r"^(\d+)\s*[xX]?\s+(.+?)\s*$")
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
    issues: list[Issue] = []
    deck: dict = {"game": game.id}
    cards: dict[str, int] = {}
    name = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("//") or line.startswith("#"):
            comment = line.lstrip("/#").strip()
            if name is None and comment:
                name = comment
            continue
        entry = ENTRY.match(line)
        if entry:
            count, card = int(entry.group(1)), entry.group(2)
            if card not in game.cards:
                issues.append(Issue(path, number, None, f"{card!r} is not a card of {game.name}"
                                                        f"{did_you_mean(card, game.cards)}"))
                continue
            if count < 1:
                issues.append(Issue(path, number, None, f"{count} copies of {card}: a count is 1 or more"))
                continue
            cards[card] = cards.get(card, 0) + count
            continue
        field = FIELD.match(line)
        if field:
            key = field.group(1).strip().lower().replace(" ", "_").replace("-", "_")
            value = field.group(2).strip()
            if key == "name":
                name = value
                continue
            if key not in game.deck_fields:
                known = ", ".join(["name", *game.deck_fields]) or "name"
                issues.append(Issue(path, number, None, f"unknown field {field.group(1)!r}"
                                                        f"{did_you_mean(key, game.deck_fields)} "
                                                        f"(a {game.id} deck list may set: {known})"))
                continue
            spec = game.deck_fields[key]
            is_list = type(spec).__name__ == "ListSpec"
            deck[key] = [v.strip() for v in value.split(",") if v.strip()] if is_list else value
            continue
        mark = (" (it holds an invisible byte-order mark, U+FEFF: delete it)" if BOM in line else "")
        issues.append(Issue(path, number, None, f"cannot read {line!r}: expected '4 Card Name', "
                                                f"'4x Card Name', 'field: value' or a // comment{mark}"))
    if issues:
        raise ContentError(issues)
    if not cards:
        raise ContentError([Issue(path, None, None, "no cards in the list")])
    deck["name"] = name or (path.stem if path else "Imported deck")
    deck["cards"] = cards
    return {k: deck[k] for k in ("game", "name", *[f for f in game.deck_fields if f in deck], "cards")}


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
