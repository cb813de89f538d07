"""`cardgen schema` output: valid JSON Schema that accepts the game's own files and flags mistakes."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.schema import card_file_schema, deck_file_schema
from cardgen.yamlio import read_yaml
from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"
GAMES = [GUILD, *bundled_game_ids()]


def plain(value):
    """LineDict/LineList -> plain JSON-able values."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@pytest.mark.parametrize("ref", GAMES, ids=str)
def test_schemas_accept_the_games_own_files(ref):
    game = load_game(ref)
    cards_schema, deck_schema = card_file_schema(game), deck_file_schema(game)
    jsonschema.Draft202012Validator.check_schema(cards_schema)
    jsonschema.Draft202012Validator.check_schema(deck_schema)
    for path in sorted((game.folder / "cards").rglob("*.yaml")):
        jsonschema.validate(plain(read_yaml(path)), cards_schema)
    for path in sorted((game.folder / "decks").glob("*.yaml")):
        jsonschema.validate(plain(read_yaml(path)), deck_schema)


def test_schema_flags_a_bad_value_an_unknown_field_and_an_unknown_card():
    game = load_game(GUILD)
    cards = jsonschema.Draft202012Validator(card_file_schema(game))
    good = {"name": "X", "type": "lamplighter", "cost": 1, "district": "Market", "rarity": "common",
            "glow": 2}
    assert not list(cards.iter_errors([good]))
    assert list(cards.iter_errors([{**good, "glow": 12}]))
    assert list(cards.iter_errors([{**good, "glowing": 2}]))
    assert list(cards.iter_errors([{**good, "keywords": ["Gusty"]}]))
    deck = jsonschema.Draft202012Validator(deck_file_schema(game))
    assert not list(deck.iter_errors({"game": "x", "cards": {"Wick Runner": 2}}))
    assert list(deck.iter_errors({"game": "x", "cards": {"Wick Runer": 2}}))
    assert list(deck.iter_errors({"game": "x", "cards": {"Sea Fog": 1}}))  # not a deck card
    assert list(deck.iter_errors({"game": "x", "cards": {}, "captain": "Spare Oil"}))


def test_schema_command_writes_both_files(tmp_path):
    result = subprocess.run([sys.executable, "-m", "cardgen", "schema", str(GUILD), "--out",
                             str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["lantern-guild.cards.schema.json", "lantern-guild.deck.schema.json"]
    assert json.loads((tmp_path / names[0]).read_text())["title"] == "Lantern Guild card file"
