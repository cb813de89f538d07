"""Components that are not cards (layouts.yaml `components:`) and the player aids' own back
(`reference_back:`): A.D.A.P.T.'s rulebook asks for a double-sided Player Mat, and its aids,
like Combo Fighter's, must not pass for deck cards face down."""

from __future__ import annotations

import shutil

import pytest
from pypdf import PdfReader

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.render.layout import load_layouts
from cardgen.sheets import SheetOptions, make_sheets
from tests.conftest import ROOT
from tests.pdf_marks import printable_length, read_page


def _pages_with(reader, text):
    return [i for i, page in enumerate(reader.pages) if text in (page.extract_text() or "")]


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("backs, offset", [("duplex-long", (0.0, 0.0)), ("duplex-short", (1.5, -0.8)),
                                           ("separate", (0.0, 0.0))])
def test_adapt_player_mat_prints_double_sided_behind_itself(tmp_path, paper, backs, offset):
    game = load_game("adapt")
    mat = load_layouts(game).components["player-mat"]
    [pdf] = make_sheets(game, tmp_path, options=SheetOptions(papers=(paper,), backs=backs, offset=offset),
                        force=True)
    reader = PdfReader(pdf)
    fronts, guppy_time = _pages_with(reader, "Player Mat · front"), _pages_with(reader, "Player Mat · back")
    assert len(fronts) == len(guppy_time) == mat.copies == game.meta["players"]["max"]
    for front, back in zip(fronts, guppy_time, strict=True):
        assert back == front + 1                     # its back on the very next page
        _, [face], (page_w, page_h) = read_page(reader.pages[front])
        marks, [rear], _ = read_page(reader.pages[back])
        # centred: the mirror of the face is the face, so the back lands behind it on either flip
        assert (rear.x0, rear.y0) == pytest.approx((face.x0 + offset[0], face.y0 + offset[1]), abs=1e-3)
        assert (rear.x1 - rear.x0, rear.y1 - rear.y0) == pytest.approx((face.x1 - face.x0, face.y1 - face.y0))
        assert page_w - face.x1 == pytest.approx(face.x0, abs=1e-3)
        # the whole mat and its bleed on the paper, a quarter turn where only that fits
        size = sorted((face.x1 - face.x0, face.y1 - face.y0))
        assert size == pytest.approx(sorted((mat.width + 2 * mat.bleed, mat.height + 2 * mat.bleed)))
        # eight crop marks, each printing at least 2 mm where a 5 mm-border printer prints
        front_marks, _, _ = read_page(reader.pages[front])
        for found in (front_marks, marks):
            assert len(found) == 8
            assert all(printable_length(seg, page_w, page_h) >= 2.0 for seg in found)


def test_player_mat_pages_are_their_own_size_in_the_singles(tmp_path):
    game = load_game("adapt")
    mat = load_layouts(game).components["player-mat"]
    options = SheetOptions(papers=(), backs="duplex-long", singles=True)
    [pdf] = make_sheets(game, tmp_path, options=options, force=True)
    reader = PdfReader(pdf)
    mm = 72 / 25.4
    sizes = [(round(float(p.mediabox.width) / mm, 2), round(float(p.mediabox.height) / mm, 2))
             for p in reader.pages]
    mat_size = (round(mat.width + 2 * mat.bleed, 2), round(mat.height + 2 * mat.bleed, 2))
    assert sizes[-2 * mat.copies:] == [mat_size] * (2 * mat.copies)
    assert mat_size not in sizes[:-2 * mat.copies]
    assert "GUPPY TIME" in reader.pages[-1].extract_text()


@pytest.mark.parametrize("game_id", ["adapt", "combo-fighter"])
def test_player_aids_print_on_their_own_back(tmp_path, game_id):
    """Face down, an aid shows "PLAYER AID", never a deck card's back."""
    game = load_game(game_id)
    layouts = load_layouts(game)
    aids = len(layouts.reference) * layouts.game.meta["players"]["max"]
    options = SheetOptions(papers=("letter",), backs="separate")
    [pdf] = make_sheets(game, tmp_path, options=options, force=True)
    reader = PdfReader(pdf)
    texts = [page.extract_text() or "" for page in reader.pages]
    backs_text = "\n".join(text for text in texts if " · backs " in text)
    assert backs_text.count("PLAYER AID") == aids


def _game_copy(tmp_path, extra: str):
    folder = tmp_path / "game"
    shutil.copytree(ROOT / "tests" / "data" / "lantern-guild", folder)
    with (folder / "layouts.yaml").open("a", encoding="utf-8") as out:
        out.write(extra)
    return load_game(str(folder)), folder / "layouts.yaml"


def test_a_component_too_big_for_the_paper_is_refused_at_its_line(tmp_path):
    game, path = _game_copy(tmp_path, "\ncomponents:\n  board:\n    size: [400, 300]\n"
                                      "    front: [{rect: bleed, fill: '#224466'}]\n")
    line = path.read_text(encoding="utf-8").splitlines().index("  board:") + 1
    with pytest.raises(ContentError) as caught:
        make_sheets(game, tmp_path / "out", options=SheetOptions(papers=("a4",)), force=True)
    [issue] = caught.value.issues
    assert (issue.line, issue.field) == (line, "components.board.size")
    assert "at most" in issue.message


def test_component_and_reference_back_mistakes_are_all_reported(tmp_path):
    game, path = _game_copy(tmp_path, "\nreference_back: nope\ncomponents:\n  board:\n    size: [100]\n"
                                      "    copies: many\n    colour: red\n"
                                      "    back: [{rect: bleed, fill: '#224466'}]\n")
    with pytest.raises(ContentError) as caught:
        load_layouts(game)
    fields = {issue.field for issue in caught.value.issues}
    assert {"reference_back", "components.board.size", "components.board.copies", "components.board.colour",
            "components.board.front"} <= fields


def test_place_turns_a_component_only_when_that_is_what_fits():
    from cardgen.sheets.component_pages import place

    assert not place(210, 297, 150, 200, 3).turned
    assert place(210, 297, 250, 180, 3).turned
    with pytest.raises(ValueError, match="at most"):
        place(210, 297, 300, 250, 3)


def test_amfibido_score_board_prints_its_round_track_from_the_tables(tmp_path):
    """The setup places a round marker on round 1 and a token on the 0 of both score paths."""
    game = load_game("amfibido")
    [pdf] = make_sheets(game, tmp_path, options=SheetOptions(papers=("letter",), backs="duplex-long"),
                        force=True)
    reader = PdfReader(pdf)
    [board] = _pages_with(reader, "Score Board · front")
    assert not _pages_with(reader, "Score Board · back")          # single-sided
    text = reader.pages[board].extract_text()
    numerals = {level: row["numeral"] for level, row in game.tables["belts"].items()}
    for levels in game.tables["draft"]["active_levels"].values():
        assert " · ".join(numerals[level] for level in levels) in text
    assert "GRAND SENSEI" in text and str(game.tables["wins_needed"]) in text


def _fighters(game):
    return [card for card in game.cards.values() if card.type == "character"]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_combo_fighter_power_tokens_print_side_a_with_side_b_behind(tmp_path, paper):
    """The rulebook lists 4 Power Tokens, side A up at setup: one per fighter, drawn from the
    fighter's card, side B on its back."""
    game = load_game("combo-fighter")
    [pdf] = make_sheets(game, tmp_path, options=SheetOptions(papers=(paper,), backs="duplex-long"),
                        force=True)
    reader = PdfReader(pdf)
    texts = [page.extract_text() or "" for page in reader.pages]
    fighters = _fighters(game)
    assert len(fighters) == 4
    for fighter in fighters:
        token = fighter.fields["power_token"]
        [front] = [i for i, t in enumerate(texts) if token["a_name"].upper() in t and "SIDE A" in t]
        [back] = [i for i, t in enumerate(texts) if token["b_name"].upper() in t and "SIDE B" in t]
        assert back > front
        assert fighter.name.upper() in texts[front] and fighter.name.upper() in texts[back]


def test_each_names_a_card_type_and_its_fields_are_checked_at_their_lines(tmp_path):
    """`each:` an unknown card type or not a name at all, a field the card type does not have and a
    '/' in a component's name, each at its line; `cardgen sheets` says so as file:line: field:
    message and exits 2."""
    import subprocess
    import sys

    game, path = _game_copy(tmp_path, "\ncomponents:\n  badge:\n    each: lamplighters\n    size: [40, 40]\n"
                                      "    front: [{rect: bleed, fill: '#224466'}]\n"
                                      "  crest:\n    each: lamplighter\n    size: [40, 40]\n"
                                      "    front: [{text: '{{ card.glw }}', at: [5, 5, 30, 8], "
                                      "style: name}]\n"
                                      "  seal:\n    each: [lamplighter]\n    size: [40, 40]\n"
                                      "    front: []\n  a/b:\n    size: [40, 40]\n    front: []\n")
    lines = path.read_text(encoding="utf-8").splitlines()
    with pytest.raises(ContentError) as caught:
        load_layouts(game)
    messages = {(issue.line, issue.field): issue.message for issue in caught.value.issues}
    found = set(messages)
    assert (lines.index("    each: lamplighters") + 1, "components.badge.each") in found
    seal = lines.index("    each: [lamplighter]") + 1
    assert "expected a card type" in messages[seal, "components.seal.each"]
    assert "'/'" in messages[lines.index("  a/b:") + 1, "components.a/b"]
    assert any(field.startswith("components.crest.front") and line == lines.index("    front: [{text: "
               "'{{ card.glw }}', at: [5, 5, 30, 8], style: name}]") + 1 for line, field in found)
    done = subprocess.run([sys.executable, "-m", "cardgen", "sheets", str(game.folder), "--out",
                           str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert f"layouts.yaml:{lines.index('    each: lamplighters') + 1}: components.badge.each: no card type" \
        in done.stderr
    assert "Traceback" not in done.stderr


CREST = """
components:
  crest:
    name: Crest
    each: lamplighter
    size: [40, 40]
    front: [{text: 'CREST {{ card.name }} {{ card.glow }}', at: [4, 4, 32, 8], style: name}]
    back: [{text: 'REAR {{ card.name }}', at: [4, 4, 32, 8], style: name}]
"""


def test_a_component_made_for_each_card_reads_that_card(tmp_path):
    game, _path = _game_copy(tmp_path, CREST)
    [pdf] = make_sheets(game, tmp_path / "out", options=SheetOptions(papers=("a4",)), force=True)
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(pdf).pages)
    lamplighters = [card for card in game.cards.values() if card.type == "lamplighter"]
    assert lamplighters
    for card in lamplighters:
        assert f"CREST {card.name} {card.fields['glow']}" in text and f"REAR {card.name}" in text


def test_combo_fighter_character_sheets_print_on_a_back_no_action_card_has(tmp_path):
    """Character sheets lie face up beside the deck and never join it: face down, one must not
    pass for an action card (they printed on the fighter's deck back)."""
    game = load_game("combo-fighter")
    layouts = load_layouts(game)
    from cardgen.render.layout import back_name

    sheets = [card for card in game.cards.values() if card.type == "character"]
    actions = [card for card in game.cards.values() if card.type in ("attack", "defense", "footwork")]
    sheet_backs = {back_name(layouts, card) for card in sheets}
    assert not sheet_backs & {back_name(layouts, card) for card in actions}
    options = SheetOptions(papers=("letter",), backs="separate")
    [pdf] = make_sheets(game, tmp_path, options=options, force=True)
    texts = [page.extract_text() or "" for page in PdfReader(pdf).pages]
    assert "\n".join(t for t in texts if " · backs " in t).count("CHARACTER SHEET") == len(sheets) == 4


def test_amiibart_prints_the_death_tokens_its_players_count(tmp_path):
    """"When a player has 5 Death Tokens, they lose": five for each of the two players, on the
    proxy pages (they were not printed; the book sent players to find counters)."""
    game = load_game("amiibart")
    [pdf] = make_sheets(game, tmp_path, options=SheetOptions(papers=("letter",), backs="duplex-long"),
                        force=True)
    texts = [page.extract_text() or "" for page in PdfReader(pdf).pages]
    assert "\n".join(texts).count("DEATH TOKEN") == 2 * 2 * game.tables["death_tokens_to_lose"]


def test_the_rulebook_lists_the_components_that_are_not_cards():
    """The book's components table is what a player prints and cuts out: the mats, boards and
    tokens too, each with its count (they were missing: the table listed only cards)."""
    from cardgen.publish.sections import components

    expected = {"adapt": ("Player Mat", 6), "amfibido": ("Score Board", 1),
                "amiibart": ("Death Token", 10), "combo-fighter": ("Power Token", 4)}
    for game_id, (name, count) in expected.items():
        rows = components(load_game(game_id))[0]["rows"]
        assert [str(row[0]) for row in rows if f"<b>{name}</b>" in str(row[1])] == [str(count)], game_id
