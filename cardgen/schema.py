"""JSON Schemas for a game's card files and deck files, for editors (YAML language server).

Each card type is a branch of its own (`if: {type: X} then: ...`), and every object lists the
keys it takes (`propertyNames`): a misspelt field is reported as that field, with the fields its
card type has, not as a card that matches none of the types. Written in draft-07, which every
version of VS Code's YAML extension reads (2020-12 only its newest)."""

from __future__ import annotations

import json
from pathlib import Path

from cardgen import fsutil
from cardgen.errors import ContentError, Issue
from cardgen.model import Game
from cardgen.model.fields import IntSpec, record_schema

DRAFT = "http://json-schema.org/draft-07/schema#"
# Every schema file says who wrote it: `cardgen schema` replaces only a file that says so (or any
# in its own out/ folder), never a file of the user's that happens to have the same name.
MARK = "Written by cardgen schema, which replaces this file when run again."
MAX_SCHEMA_BYTES = 64 * 1024 * 1024


def game_schemas(game: Game) -> dict[str, dict]:
    """The game's schemas by kind: "cards" (a card file), "deck" (a deck file), "layouts" (its
    layouts.yaml)."""
    return {"cards": card_file_schema(game), "deck": deck_file_schema(game), "layouts": _layouts(game)}


def _layouts(game: Game) -> dict:
    from cardgen.layout_schema import layouts_schema

    return {"$schema": DRAFT, "$comment": MARK, **layouts_schema(game)}


def schema_text(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schemas(game: Game, folder: Path, own_folder: bool) -> list[Path]:
    """Write the card and deck file schemas into `folder`. A file already there is replaced only
    when cardgen wrote it (`own_folder`: out/, cardgen's own); otherwise nothing is written and
    the refusal names it."""
    files = {Path(folder) / f"{game.id}.{kind}.schema.json": schema_text(schema)
             for kind, schema in game_schemas(game).items()}
    write_ours(files, own_folder, "choose another --out folder")
    return list(files)


def write_ours(files: dict[Path, str], own_folder: bool, advice: str) -> list[Path]:
    """Write each file whose content differs from what is there (an editor watching it is not
    made to reload for nothing), all or none: a file cardgen did not write refuses the lot,
    the refusal naming it and ending with `advice`. Returns the files written."""
    refused = [Issue(path, None, None, f"already exists and {why}; remove it or {advice}")
               for path in files if (why := _not_ours(path, own_folder))]
    if refused:
        raise ContentError(refused)
    return [fsutil.write_atomic(path, text) for path, text in files.items()
            if _current(path) != text.encode("utf-8")]


def _current(path: Path) -> bytes | None:
    try:
        return fsutil.read_confined(path, None, MAX_SCHEMA_BYTES)
    except (fsutil.UnsafeFile, OSError):
        return None


def _not_ours(path: Path, own_folder: bool) -> str | None:
    """Why the file at `path` may not be replaced, or None (no file, or one cardgen wrote)."""
    if not path.is_symlink() and not path.exists():
        return None
    if path.is_symlink() or not path.is_file():
        return "is not a plain file"
    if own_folder:
        return None
    try:
        written = json.loads(_current(path) or b"")
    except ValueError:
        written = None
    if isinstance(written, dict) and written.get("$comment") == MARK:
        return None
    return "was not written by cardgen schema"


def closed(props: dict, **rest) -> dict:
    """An object of these keys and no others: an unknown key is named, with the keys it may be."""
    return {"type": "object", "properties": props, "propertyNames": {"enum": sorted(props)}, **rest}


def _ref(name: str) -> dict:
    return {"$ref": f"#/definitions/{name}"}


def card_file_schema(game: Game) -> dict:
    """A card file is a list of cards, one card, or `cards:` with `defaults:` for each of them."""
    types = list(game.card_types)
    # (a type's branch is named by its place: a type id may hold any character, a name here not)
    branch = {t: f"type-{i}" for i, t in enumerate(types)}
    defs = {branch[t]: _type_branch(game, t) for t in types}
    defs["card"] = {
        "properties": {"type": {"enum": types, "description": "The card's type (game.yaml)."}},
        # (the fields of the card's own type: the first branch whose `if` holds)
        "allOf": [{"if": {"type": "object", "properties": {"type": {"const": t}}, "required": ["type"]},
                   "then": _ref(branch[t])} for t in types],
    }
    defs["listed-card"] = {"type": "object", "required": ["name", "type"], "allOf": [_ref("card")]}
    defs["file-with-defaults"] = closed({
        "defaults": {"type": ["object", "null"], "allOf": [_ref("card")],
                     "description": "Fields every card of this file gets, unless it says otherwise."},
        "cards": {"type": "array", "items": {"type": "object", "required": ["name"],
                                             "allOf": [_ref("card")]}},
    }, required=["cards"], allOf=[
        # a card that names no type of its own has the one from `defaults:`
        *({"if": _defaults_type({"const": t}),
           "then": {"properties": {"cards": {"items": {"if": {"not": {"required": ["type"]}},
                                                       "then": _ref(branch[t])}}}}} for t in types),
        {"if": _defaults_type({}), "else": {"properties": {"cards": {"items": {"required": ["type"]}}}}},
    ])
    schema = {
        "$schema": DRAFT,
        "$comment": MARK,
        "title": f"{game.name} card file",
        "definitions": defs,
        "if": {"type": "array"},
        "then": {"items": _ref("listed-card")},
        "else": {"if": {"type": "object", "required": ["cards"]}, "then": _ref("file-with-defaults"),
                 "else": _ref("listed-card")},
    }
    return _fill_names(schema, game)


def _defaults_type(type_schema: dict) -> dict:
    """`if` the file's defaults give a type (matching `type_schema`)."""
    return {"required": ["defaults"],
            "properties": {"defaults": {"type": "object", "required": ["type"],
                                        "properties": {"type": type_schema}}}}


def _type_branch(game: Game, type_id: str) -> dict:
    """The fields a card of this type may have, and no others."""
    from cardgen.model.loader import MAX_COPIES

    card_type = game.card_types[type_id]
    props = {
        "name": {"type": "string", "description": "The card's name, unique in the game."},
        "type": {"const": type_id, "description": card_type.doc or card_type.label},
        "copies": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES,
                   "description": "How many the box holds."},
        **record_schema(card_type.fields, [])["properties"],
    }
    # (only `name` is ever required, elsewhere: the fields may come from the file's `defaults:`,
    # and cardgen itself reports every missing field with its line)
    return {"title": card_type.label, **closed(props)}


def deck_file_schema(game: Game) -> dict:
    deckable = sorted(n for n, c in game.cards.items() if game.card_types[c.type].in_decks)
    props = {
        "game": {"type": "string", "description": "A bundled game id, or a game folder path."},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "notes": {"type": "string"},
        "cards": {"description": "Card names with their counts, or `all`: every card at its box count.",
                  "if": {"type": "string"}, "then": {"const": "all"},
                  "else": {"type": "object", "propertyNames": {"enum": deckable},
                           "additionalProperties": IntSpec(1).schema()}},
    }
    playable = [v.id for v in game.variants.values() if v.played]
    if playable:
        props["variants"] = {"type": "array", "uniqueItems": True,
                             "items": {"enum": playable},
                             "description": "The game's variants this deck is meant for."}
    props.update(record_schema(game.deck_fields, [])["properties"])
    schema = {"$schema": DRAFT, "$comment": MARK, "title": f"{game.name} deck file",
              **closed(props, required=["game", "cards"])}
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
