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


@pytest.mark.parametrize("ref", GAMES, ids=str)
def test_a_misspelt_field_gets_a_message_that_names_it(ref):
    """An editor shows the most relevant error (jsonschema's best_match, as the YAML language
    server does): with one `anyOf` branch per card type it read "... is not valid under any of the
    given schemas", whichever field was wrong. Each card type is now an if/then branch on `type`."""
    game = load_game(ref)
    validator = jsonschema.Draft202012Validator(card_file_schema(game))
    for card in game.cards.values():
        written = plain(read_yaml(card.file))
        cards = written["cards"] if isinstance(written, dict) and "cards" in written else written
        [raw] = [c for c in (cards if isinstance(cards, list) else [cards]) if c.get("name") == card.name]
        if "type" not in raw:
            continue        # (its type comes from the file's defaults)
        for shape in ([{**raw, "colour_of_sky": 1}], {"cards": [{**raw, "colour_of_sky": 1}]}):
            error = jsonschema.exceptions.best_match(validator.iter_errors(shape))
            assert error is not None and "'colour_of_sky' was unexpected" in error.message, (card.name, error)


def new_folder(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardgen", "new", str(tmp_path / "bees")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return tmp_path / "bees"


def test_new_sets_up_vs_code_to_check_card_and_deck_files(tmp_path):
    """The settings map each schema, relative to the folder as VS Code reads them, to globs that
    take in every card and deck file; each file passes its schema, and a misspelt field is named."""
    folder = new_folder(tmp_path)
    mapping = json.loads((folder / ".vscode" / "settings.json").read_text())["yaml.schemas"]
    covered = {}
    for schema_path, globs in mapping.items():
        schema = json.loads((folder / schema_path).read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        for glob in globs:
            for path in folder.glob(glob):
                covered[path] = schema
    assert set(covered) == set(folder.glob("cards/**/*.yaml")) | set(folder.glob("decks/**/*.yaml"))
    for path, schema in covered.items():
        jsonschema.validate(plain(read_yaml(path)), schema)
    cards = plain(read_yaml(folder / "cards" / "bees.yaml"))
    listed = cards["cards"] if isinstance(cards, dict) else cards
    listed[0]["flaver"] = "x"
    validator = jsonschema.Draft202012Validator(covered[folder / "cards" / "bees.yaml"])
    assert "'flaver' was unexpected" in jsonschema.exceptions.best_match(validator.iter_errors(cards)).message


def test_the_check_stage_keeps_a_set_up_folders_schemas_current(tmp_path):
    from cardgen.build import build_game

    folder = new_folder(tmp_path)
    deck_schema = folder / ".cardgen" / "deck.schema.json"
    before = deck_schema.stat().st_mtime_ns
    build_game(str(folder), tmp_path / "out", stages=["check"])
    assert deck_schema.stat().st_mtime_ns == before          # unchanged cards: not written again
    with (folder / "cards" / "bees.yaml").open("a", encoding="utf-8") as cards:
        cards.write("  - name: Night Moth\n    cost: 1\n    honey: 1\n")
    build_game(str(folder), tmp_path / "out", stages=["check"])
    assert "Night Moth" in deck_schema.read_text()


def test_a_folder_not_set_up_is_never_written_into_and_a_users_file_is_kept(tmp_path):
    import shutil

    from cardgen.build import build_game

    stranger = tmp_path / "guild"
    shutil.copytree(GUILD, stranger)
    [build] = [build_game(str(stranger), tmp_path / "out", stages=["check"])]
    assert not (stranger / ".cardgen").exists() and not (stranger / ".vscode").exists()
    folder = new_folder(tmp_path)
    mine = folder / ".cardgen" / "cards.schema.json"
    mine.write_text('{"title": "my own schema"}')
    build = build_game(str(folder), tmp_path / "out", stages=["check"])
    assert any("was not written by cardgen schema" in issue.message for issue in build.errors)
    assert mine.read_text() == '{"title": "my own schema"}'
