"""Malformed content is reported with file, line and field, every mistake at once, never a crash."""

from __future__ import annotations

import shutil

import pytest

from cardgen.errors import ContentError
from cardgen.model import load_game
from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"


@pytest.fixture
def guild(tmp_path):
    """A writable copy of the designer's test game."""
    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    return folder


def errors_of(folder) -> list[str]:
    with pytest.raises(ContentError) as info:
        load_game(folder)
    return [str(i) for i in info.value.issues]


def test_the_designer_game_loads():
    game = load_game(GUILD)
    assert game.id == "lantern-guild"
    assert len(game.cards) == 10
    assert game.cards["Market Crier"].fields["tools"][0]["name"] == "Brass Bell"
    assert game.card_types["fog"].label == "Fog bank" and not game.card_types["fog"].in_decks


def test_out_of_range_value_names_file_line_field_expected_and_found(guild):
    path = guild / "cards" / "lamplighters.yaml"
    path.write_text(path.read_text().replace("glow: 4", "glow: 12"))
    assert errors_of(guild) == [f"{path}:13: glow: expected 1-9, got 12"]


def test_every_error_of_a_file_is_reported_at_once(guild):
    path = guild / "cards" / "lamplighters.yaml"
    text = path.read_text().replace("glow: 4", "glow: 12").replace("rarity: rare", "rarity: mythic")
    text = text.replace("cost: 2\n    district: Market", "cost: two\n    district: Market")
    path.write_text(text)
    errors = errors_of(guild)
    assert len(errors) == 3
    assert any(":13: glow: expected 1-9, got 12" in e for e in errors)
    assert any(':16: cost: expected 0-6, got "two"' in e for e in errors)
    assert any(':25: rarity: expected one of common, uncommon, rare, got "mythic"' in e for e in errors)


def test_unknown_field_suggests_the_closest(guild):
    path = guild / "cards" / "tricks.yaml"
    path.write_text(path.read_text().replace("keywords: [Gust]", "keyword: [Gust]"))
    assert errors_of(guild) == [f"{path}:1: keyword: unknown field (did you mean: keywords?)"]


def test_missing_required_field(guild):
    path = guild / "cards" / "tricks.yaml"
    path.write_text(path.read_text().replace(", text: Put out a lamp.", ""))
    assert errors_of(guild) == [f"{path}:1: text: missing required field"]


def test_duplicate_card_name_names_both_places(guild):
    path = guild / "cards" / "tricks.yaml"
    path.write_text(path.read_text().replace("name: Spare Oil", "name: Wick Runner"))
    assert errors_of(guild) == [f"{path}:2: name: duplicate card name 'Wick Runner' "
                                "(first at lamplighters.yaml:3)"]


def test_unknown_keyword_and_unknown_icon(guild):
    path = guild / "cards" / "tricks.yaml"
    path.write_text(path.read_text().replace("[Gust]", "[Gusty]").replace("{oil}{oil}", "{oyl}"))
    errors = errors_of(guild)
    assert any(':1: keywords[1]: expected a keyword declared in game.yaml, got "Gusty" '
               "(did you mean: Gust?)" in e for e in errors)
    assert any(":2: text: unknown icon {oyl} (did you mean: oil?)" in e for e in errors)


def test_wrong_type_of_value_in_a_nested_record(guild):
    path = guild / "cards" / "lamplighters.yaml"
    path.write_text(path.read_text().replace("{name: Brass Bell, uses: 2}", "{name: Brass Bell, uses: many}"))
    assert errors_of(guild) == [f'{path}:21: tools[1].uses: expected 1-3, got "many"']


def test_unknown_card_type(guild):
    path = guild / "cards" / "tricks.yaml"
    path.write_text(path.read_text().replace("type: trick", "type: tricks", 1))
    assert any("type: card 'Sudden Draught': expected one of lamplighter, trick, relic, fog, got "
               '"tricks" (did you mean: trick?)' in e for e in errors_of(guild))


@pytest.mark.parametrize("content, expected", [
    ("- {name: A\n", "YAML syntax error"),
    ("just a sentence\n", 'expected a list of cards, or a mapping with `cards:`, got "just a sentence"'),
    ("", "empty file"),
    ("# only a comment\n", "empty file"),
    ("- !!python/object:os.system {}\n", "YAML tag tag:yaml.org,2002:python/object:os.system is not allowed"),
    ("- name: !!python/name:os.system ''\n", "is not allowed"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
    (b"- name: caf\xe9\n", "not UTF-8 text"),
    ("- name: A\n  name: B\n", "name: duplicate key (first on line 1)"),
    ("cards: [{name: A, type: fog, text: x}]\ndefault: {}\n", "unknown key (did you mean: defaults?)"),
])
def test_malformed_card_files(guild, content, expected):
    path = guild / "cards" / "extra.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    errors = errors_of(guild)
    assert any(expected in e and e.startswith(str(path)) for e in errors), errors


def test_alias_bomb_is_refused_quickly(guild):
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    (guild / "cards" / "bomb.yaml").write_text("\n".join(lines) + "\n")
    errors = errors_of(guild)
    assert any("aliases add more than 100,000 values" in e for e in errors)


def test_a_large_plain_file_is_no_alias_bomb(tmp_path):
    """Issue 20, item 11: the guard counted every value, so 9,091 five-field cards (or a deck of
    49,997 entries) were refused with a message about aliases."""
    from cardgen.yamlio import parse_yaml

    cards = "".join(f"- {{name: Card {i}, type: fog, cost: 1, text: x, flavor: y}}\n"
                    for i in range(20_000))
    assert len(parse_yaml(cards)) == 20_000
    deck = "cards:\n" + "".join(f"  Card {i}: 1\n" for i in range(60_000))
    assert len(parse_yaml(deck)["cards"]) == 60_000


def test_game_yaml_mistakes_are_reported_with_lines(guild):
    path = guild / "game.yaml"
    text = path.read_text().replace("card_size: bridge", "card_size: bridgee")
    text = text.replace("{check: type-count, id: relic-limit", "{check: type-cont, id: relic-limit")
    text = text.replace("glow: {type: int, min: 1, max: 9}", "glow: {type: integer, min: 1, max: 9}")
    path.write_text(text)
    errors = errors_of(guild)
    assert any(':9: card_size: expected one of poker, bridge, mini, euro-mini, tarot, square, got '
               '"bridgee" (did you mean: bridge?)' in e for e in errors), errors
    assert any(":59: deck.checks[3].check: expected one of" in e and "did you mean: type-count" in e
               for e in errors), errors
    assert any(":32: card_types.lamplighter.fields.glow.type:" in e for e in errors), errors


def test_missing_game_is_a_clear_error(tmp_path):
    with pytest.raises(ContentError, match="no game '.*nowhere': not a bundled game id"):
        load_game(tmp_path / "nowhere")
