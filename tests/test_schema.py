"""`cardgen schema` output: valid JSON Schema that accepts the game's own files and flags mistakes."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.schema import card_file_schema, deck_file_schema, game_schemas
from cardgen.yamlio import parse_yaml, read_yaml
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


def test_schema_command_writes_the_card_deck_and_layouts_schemas(tmp_path):
    result = subprocess.run([sys.executable, "-m", "cardgen", "schema", str(GUILD), "--out",
                             str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["lantern-guild.cards.schema.json", "lantern-guild.deck.schema.json",
                     "lantern-guild.layouts.schema.json"]
    assert json.loads((tmp_path / names[0]).read_text())["title"] == "Lantern Guild card file"


# -- a mistake is named where it is -------------------------------------------------------------

@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    from cardgen.scaffold import new_game

    folder = tmp_path_factory.mktemp("starter") / "bees"
    new_game(folder, "Bees")
    return folder


def card_per_type(game):
    """One card of each type the game has cards of, as a card file would hold it."""
    out = {}
    for card in game.cards.values():
        out.setdefault(card.type, {"name": card.name, "type": card.type, **plain(card.fields)})
    return out


def misspelt(field: str, taken) -> str:
    """The field's name with a letter dropped (or, for a short one, doubled): not a field itself."""
    for i in range(1, len(field)):
        candidate = field[:i] + field[i + 1:] if len(field) > 3 else field + field[-1]
        if candidate not in taken:
            return candidate
    raise AssertionError(f"no misspelling of {field!r}")


@pytest.mark.parametrize("ref", [*GAMES, "starter"], ids=str)
def test_a_misspelt_field_is_named_with_the_fields_of_its_card_type(ref, request):
    """Each card type is a branch of its own: a card with a misspelt field is reported as that
    field, with the fields its type has, not as a card that matches none of the types."""
    game = load_game(request.getfixturevalue("starter") if ref == "starter" else ref)
    validator = jsonschema.Draft7Validator(card_file_schema(game))
    for type_id, card in card_per_type(game).items():
        allowed = ["name", "type", "copies", *game.card_types[type_id].fields]
        assert not list(validator.iter_errors([card])), type_id
        field = next(iter(game.card_types[type_id].fields), "copies")
        wrong = misspelt(field, allowed)
        bad = {**card, wrong: card.get(field, 1)}
        untyped = {k: v for k, v in bad.items() if k != "type"}
        for document, where in (([bad], [0]), (bad, []),
                                ({"defaults": {"type": type_id}, "cards": [untyped]}, ["cards", 0])):
            error = jsonschema.exceptions.best_match(validator.iter_errors(document))
            assert list(error.absolute_path) == where, (type_id, error.message)
            assert repr(wrong) in error.message, error.message
            assert all(repr(name) in error.message for name in allowed), error.message


@pytest.mark.parametrize("ref", [*GAMES, "starter"], ids=str)
def test_a_wrong_typed_value_is_named_by_its_field(ref, request):
    game = load_game(request.getfixturevalue("starter") if ref == "starter" else ref)
    schema = card_file_schema(game)
    validator = jsonschema.Draft7Validator(schema)
    checked = 0
    for type_id, card in card_per_type(game).items():
        for field, spec in game.card_types[type_id].fields.items():
            # a value of a JSON type the field does not take (a mapping, where a text or number is)
            value = next((v for v in ({"x": 1}, ["x"], 12345, "lots") if not _accepts(spec, v, game)), None)
            if value is None:
                continue
            error = jsonschema.exceptions.best_match(validator.iter_errors([{**card, field: value}]))
            assert list(error.absolute_path)[:2] == [0, field], (type_id, field, error.message)
            checked += 1
    assert checked


def _accepts(spec, value, game) -> bool:
    """Whether a field's own schema takes the value (names filled in as the file's schema has them)."""
    from cardgen.schema import _fill_names

    return jsonschema.Draft7Validator(_fill_names(spec.schema(), game)).is_valid(value)


def test_a_misspelt_deck_key_or_card_is_named():
    game = load_game(GUILD)
    deck = jsonschema.Draft7Validator(deck_file_schema(game))
    error = jsonschema.exceptions.best_match(deck.iter_errors({"gmae": "x", "cards": {"Wick Runner": 2}}))
    assert "'gmae'" in error.message and "'game'" in error.message
    error = jsonschema.exceptions.best_match(deck.iter_errors({"game": "x", "cards": {"Wick Runer": 2}}))
    assert list(error.absolute_path) == ["cards"] and "'Wick Runer'" in error.message
    assert "'Wick Runner'" in error.message
    error = jsonschema.exceptions.best_match(deck.iter_errors({"game": "x", "cards": {"Wick Runner": "2"}}))
    assert list(error.absolute_path) == ["cards", "Wick Runner"]


# -- layouts.yaml ---------------------------------------------------------------------------------

LAYOUT_GAMES = [*(ROOT / "content" / name for name in bundled_game_ids()),
                ROOT / "tests" / "data" / "harbour-watch"]


@pytest.mark.parametrize("folder", LAYOUT_GAMES, ids=lambda p: p.name)
def test_the_layouts_schema_takes_every_bundled_layout(folder):
    schema = game_schemas(load_game(folder))["layouts"]
    jsonschema.Draft7Validator.check_schema(schema)
    layouts = plain(read_yaml(folder / "layouts.yaml"))
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(layouts))
    assert not errors, [e.message for e in errors[:5]]


@pytest.mark.parametrize("change,wrong", [
    (("rotate: 90}", "rotate: 400}"), "400"),
    (("rotate: 90}", "rotation: 90}"), "rotation"),
    (("outline: {width: 0.35, colour: ink}", "outline: {width: 0.35, color: ink}"), "color"),
    (("shadow: {dx: 0.5,", "shadow: {dx: 50,"), "50"),
    (("sizes: {ship: tarot}", "sizes: {ship: taro}"), "taro"),
    (("sizes: {ship: tarot}", "sizes: {shp: tarot}"), "shp"),
])
def test_the_layouts_schema_underlines_the_new_settings_mistakes(change, wrong):
    _assert_underlined(ROOT / "tests" / "data" / "harbour-watch", change, wrong)


def _assert_underlined(folder, change, wrong):
    """The layouts schema finds the mistake `wrong` that `change` makes in the folder's layouts."""
    schema = game_schemas(load_game(folder))["layouts"]
    text = (folder / "layouts.yaml").read_text()
    assert change[0] in text
    data = plain(parse_yaml(text.replace(*change, 1), folder / "layouts.yaml"))
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(data))
    assert errors and any(wrong in str(e.message) or wrong in str(list(e.context)) for e in errors), \
        [e.message for e in errors]


@pytest.mark.parametrize("change,wrong", [
    (("    each: character", "    each: fighter"), "fighter"),
    (("    each: character", "    each: character\n    colour: red"), "colour"),
    (("    size: [50, 50]", "    size: [50]"), "[50]"),
])
def test_the_layouts_schema_underlines_component_mistakes(change, wrong):
    """components: (each:, its settings, its size) as the loader checks them (tests/test_components.py)."""
    _assert_underlined(ROOT / "content" / "combo-fighter", change, wrong)
