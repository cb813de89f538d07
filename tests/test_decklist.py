"""Plain-text deck lists: export, import, round trip, and every bad line reported."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardgen.cockatrice import format_cod, parse_cod
from cardgen.decklist import deck_yaml, format_decklist, parse_decklist
from cardgen.errors import ContentError
from cardgen.model import load_deck, load_game
from cardgen.paths import bundled_game_ids
from cardgen.yamlio import parse_yaml
from tests.conftest import ROOT


def cardgen(*args):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize(("write", "read"), [(format_decklist, parse_decklist), (format_cod, parse_cod)],
                         ids=["text", "cod"])
@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_every_sample_deck_round_trips(game_id, write, read):
    game = load_game(game_id)
    for path in sorted((game.folder / "decks").glob("*.yaml")):
        deck = load_deck(path)
        if deck.raw["cards"] == "all":
            continue
        parsed = read(write(deck), game)
        assert parsed["name"] == deck.name
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


COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>Sparks &amp; Steel</deckname>
    <comments>Fast and loud.
powers: Overclock, Night Veil</comments>
    <zone name="main">
        <card number="3" name="circuit knight"/>
        <card number="2" name="Gear Up!"/>
    </zone>
</cockatrice_deck>
"""


def test_reads_a_cockatrice_deck():
    deck = parse_cod(COD, load_game("amiibart"))
    assert deck == {"game": "amiibart", "name": "Sparks & Steel", "powers": ["Overclock", "Night Veil"],
                    "cards": {"Circuit Knight": 3, "Gear Up!": 2}}


def test_every_problem_of_a_cockatrice_deck_is_reported_with_its_line():
    text = COD.replace('"circuit knight"', '"Circut Knight"').replace('number="2"', 'number="two"')
    text = text.replace("    </zone>\n", '    </zone>\n    <zone name="side">\n'
                                         '        <card number="1" name="Venom Fang"/>\n    </zone>\n')
    with pytest.raises(ContentError) as info:
        parse_cod(text, load_game("amiibart"))
    issues = [(i.line, i.message) for i in info.value.issues]
    assert [n for n, _ in issues] == [7, 8, 10]
    assert "did you mean: Circuit Knight?" in issues[0][1]
    assert "number='two'" in issues[1][1]
    assert "the cards of the zone 'side'" in issues[2][1]


@pytest.mark.parametrize(("text", "line", "message"), [
    ('<?xml version="1.0"?>\n<!DOCTYPE lol [<!ENTITY a "aaaa">]>\n<cockatrice_deck/>', 2,
     "a document type or entity declaration is never read"),
    ('<cockatrice_deck>\n<zone name="main">\n<card number="1"\n</cockatrice_deck>', 4,
     "not a readable Cockatrice deck"),
    ("<deck><card/></deck>", 1, "not a Cockatrice deck: its root element is <deck>"),
])
def test_a_file_that_is_no_cockatrice_deck_is_refused_at_its_line(text, line, message):
    with pytest.raises(ContentError) as info:
        parse_cod(text, load_game("amiibart"))
    [issue] = info.value.issues
    assert issue.line == line and issue.message.startswith(message), issue


def test_export_and_import_of_a_cod_file_by_the_command_line(tmp_path):
    cod = tmp_path / "amaya.cod"
    exported = cardgen("deck", "export", ROOT / "content/combo-fighter/decks/amaya-sol.yaml", "-o", cod)
    assert exported.returncode == 0, exported.stderr
    assert cod.read_text().startswith("<?xml")
    pasted = tmp_path / "pasted.txt"            # a .cod by its contents, whatever its name
    pasted.write_text(cod.read_text())
    out = tmp_path / "deck.yaml"
    imported = cardgen("deck", "import", pasted, "-o", out)     # the game from its comments
    assert imported.returncode == 0, imported.stderr
    assert cardgen("validate", out).returncode == 0
    def cards(path):
        return [(entry.name, entry.count) for entry in load_deck(path).entries]

    assert cards(out) == cards(ROOT / "content/combo-fighter/decks/amaya-sol.yaml")
