"""JSON Schemas for a game's card files and deck files, for editors (YAML language server)."""

from __future__ import annotations

import json
from pathlib import Path

from cardgen import fsutil
from cardgen.errors import ContentError, Issue
from cardgen.model import Game
from cardgen.model.fields import IntSpec, record_schema

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Every schema file says who wrote it: `cardgen schema` replaces only a file that says so (or any
# in its own out/ folder), never a file of the user's that happens to have the same name.
MARK = "Written by cardgen schema, which replaces this file when run again."
MAX_SCHEMA_BYTES = 64 * 1024 * 1024


def write_schemas(game: Game, folder: Path, own_folder: bool) -> list[Path]:
    """Write the card and deck file schemas into `folder`. A file already there is replaced only
    when cardgen wrote it (`own_folder`: out/, cardgen's own); otherwise nothing is written and
    the refusal names it."""
    files = {Path(folder) / f"{game.id}.{name}.schema.json": schema
             for name, schema in (("cards", card_file_schema(game)), ("deck", deck_file_schema(game)))}
    refused = [Issue(path, None, None, f"already exists and {why}; remove it or choose another "
                                       "--out folder")
               for path in files if (why := _not_ours(path, own_folder))]
    if refused:
        raise ContentError(refused)
    return [fsutil.write_atomic(path, json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
            for path, schema in files.items()]


def _not_ours(path: Path, own_folder: bool) -> str | None:
    """Why the file at `path` may not be replaced, or None (no file, or one cardgen wrote)."""
    if not path.is_symlink() and not path.exists():
        return None
    if path.is_symlink() or not path.is_file():
        return "is not a plain file"
    if own_folder:
        return None
    try:
        written = json.loads(fsutil.read_confined(path, None, MAX_SCHEMA_BYTES))
    except (fsutil.UnsafeFile, OSError, ValueError):
        written = None
    if isinstance(written, dict) and written.get("$comment") == MARK:
        return None
    return "was not written by cardgen schema"


def card_file_schema(game: Game) -> dict:
    variants = []
    for type_id, card_type in game.card_types.items():
        props = {
            "name": {"type": "string", "description": "The card's name, unique in the game."},
            "type": {"const": type_id, "description": card_type.doc or card_type.label},
            "copies": {"type": "integer", "minimum": 1, "description": "How many the box holds."},
        }
        body = record_schema(card_type.fields, [])
        props.update(body["properties"])
        # `name` and `type` may come from the file's `defaults:`, so only `name` is required here;
        # cardgen itself reports every missing field with its line.
        variants.append({"title": card_type.label, "type": "object", "properties": props,
                         "required": ["name"], "additionalProperties": False})
    card = {"anyOf": variants}
    defaults = {"type": "object", "description": "Fields every card of this file gets."}
    schema = {
        "$schema": DRAFT,
        "$comment": MARK,
        "title": f"{game.name} card file",
        "$defs": {"card": card},
        "anyOf": [
            {"type": "array", "items": {"$ref": "#/$defs/card"}},
            {"type": "object", "properties": {"defaults": defaults,
                                              "cards": {"type": "array",
                                                        "items": {"$ref": "#/$defs/card"}}},
             "required": ["cards"], "additionalProperties": False},
            {"$ref": "#/$defs/card"},
        ],
    }
    return _fill_names(schema, game)


def deck_file_schema(game: Game) -> dict:
    deckable = sorted(n for n, c in game.cards.items() if game.card_types[c.type].in_decks)
    props = {
        "game": {"type": "string", "description": "A bundled game id, or a game folder path."},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "notes": {"type": "string"},
        "cards": {"anyOf": [
            {"type": "object", "propertyNames": {"enum": deckable},
             "additionalProperties": IntSpec(1).schema()},
            {"const": "all", "description": "Every card at its box count."},
        ]},
    }
    playable = [v.id for v in game.variants.values() if v.played]
    if playable:
        props["variants"] = {"type": "array", "uniqueItems": True,
                             "items": {"enum": playable},
                             "description": "The game's variants this deck is meant for."}
    props.update(record_schema(game.deck_fields, [])["properties"])
    schema = {"$schema": DRAFT, "$comment": MARK, "title": f"{game.name} deck file", "type": "object",
              "properties": props, "required": ["game", "cards"], "additionalProperties": False}
    return _fill_names(schema, game)


def _fill_names(node, game: Game):
    """Replace the card and keyword placeholders with the game's actual names."""
    if isinstance(node, dict):
        out = {k: _fill_names(v, game) for k, v in node.items()
               if k not in ("x-cardgen-card", "x-cardgen-keyword")}
        if "x-cardgen-card" in node:
            types = node["x-cardgen-card"]
            out["enum"] = sorted(n for n, c in game.cards.items() if not types or c.type in types)
        if node.get("x-cardgen-keyword"):
            out["enum"] = sorted(game.keywords)
        return out
    if isinstance(node, list):
        return [_fill_names(v, game) for v in node]
    return node
