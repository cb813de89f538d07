"""Plain-text deck lists: export, import, round trip, and every bad line reported."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardgen.decklist import deck_yaml, format_decklist, parse_decklist
from cardgen.errors import ContentError
from cardgen.model import load_deck, load_game
from cardgen.paths import bundled_game_ids
from cardgen.yamlio import parse_yaml
from tests.conftest import ROOT


def cardgen(*args):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_every_sample_deck_round_trips(game_id):
    game = load_game(game_id)
    for path in sorted((game.folder / "decks").glob("*.yaml")):
        deck = load_deck(path)
        if deck.raw["cards"] == "all":
            continue
        parsed = parse_decklist(format_decklist(deck), game)
        assert parsed["cards"] == {e.name: e.count for e in deck.entries}
        for key, value in deck.fields.items():
            assert parsed[key] == value, (path, key)
        assert parse_yaml(deck_yaml(parsed))["cards"] == parsed["cards"]


def test_accepts_4x_comments_and_adds_up_repeats():
    game = load_game("amiibart")
    text = ("// Sparks\n# another comment\n2x Gear Up!\n1 Gear Up!\n\n3 Circuit Knight\n"
            "powers: Overclock, Night Veil\n")
    deck = parse_decklist(text, game)
    assert deck["name"] == "Sparks"
    assert deck["cards"] == {"Gear Up!": 3, "Circuit Knight": 3}
    assert deck["powers"] == ["Overclock", "Night Veil"]


def refusals(text: str, game_id: str = "amiibart") -> list[tuple[int, str]]:
    """(line, message) of each line of a deck list that parse_decklist refuses."""
    with pytest.raises(ContentError) as info:
        parse_decklist(text, load_game(game_id))
    return [(i.line, i.message) for i in info.value.issues]


def test_every_bad_line_is_reported_with_its_number():
    lines = refusals("// x\n4 Circut Knight\nfour Gear Up!\n2 Gear Up!\ncolour: red\n0 Circuit Knight\n")
    assert [n for n, _ in lines] == [2, 3, 5, 6]
    assert "did you mean: Circuit Knight?" in lines[0][1]
    assert "cannot read 'four Gear Up!'" in lines[1][1]
    assert "unknown field 'colour'" in lines[2][1]


def test_import_command_writes_a_valid_deck_and_never_overwrites(tmp_path):
    source = tmp_path / "list.txt"
    exported = cardgen("deck", "export", ROOT / "content/combo-fighter/decks/amaya-sol.yaml")
    assert exported.returncode == 0, exported.stderr
    source.write_text("game: combo-fighter\n" + exported.stdout)
    out = tmp_path / "deck.yaml"
    result = cardgen("deck", "import", source, "-o", out)
    assert result.returncode == 0, result.stderr
    assert cardgen("validate", out).returncode == 0
    again = cardgen("deck", "import", source, "-o", out)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_import_with_errors_exits_2_without_traceback(tmp_path):
    source = tmp_path / "list.txt"
    source.write_text("game: amiibart\n4 Circut Knight\nnonsense\n")
    result = cardgen("deck", "import", source)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"{source}:2:" in result.stderr and f"{source}:3:" in result.stderr


def test_reads_the_shapes_players_paste():
    """`Name x4`, `4 x Name`, a set code and collector number after the name (Arena), names in
    any case or with a typographic apostrophe, and a `Deck` header: all one deck."""
    game = load_game("amiibart")
    text = ("\ufeffDeck\n"
            "Gear Up! x2\n"
            "4 x circuit knight\n"
            "1 Gear Up! (AMB) 12\n"
            "2 ALLEY CUTPURSE (AMB)\n"
            "Venom Fang (x3)\n")
    deck = parse_decklist(text, game)
    assert deck["cards"] == {"Gear Up!": 3, "Circuit Knight": 4, "Alley Cutpurse": 2, "Venom Fang": 3}


def test_a_typographic_apostrophe_matches_the_cards_own():
    game = load_game("amiibart")
    [name] = [n for n in game.cards if "'" in n][:1] or pytest.skip("no card name with an apostrophe")
    deck = parse_decklist(f"1 {name.replace(chr(39), chr(8217))}\n", game)
    assert deck["cards"] == {name: 1}


def test_a_section_the_game_has_no_place_for_is_reported_not_dropped():
    issues = refusals("Deck\n4 Circuit Knight\n\nSideboard\n2 Gear Up!\nCommander\n1 Venom Fang\n")
    assert [n for n, _ in issues] == [4, 6]
    assert all("decks have no sideboard, commander or other section" in m for _, m in issues)
