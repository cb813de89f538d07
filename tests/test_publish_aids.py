"""Player aids: each table's needs, read back from the PDF and compared with the game data."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from cardgen.model import load_game
from cardgen.publish import build_aids, publish_game
from cardgen.publish.aid import aid_sections
from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"


@pytest.fixture(scope="module")
def aids(tmp_path_factory):
    out = tmp_path_factory.mktemp("aids")
    built = {}

    def get(ref: str):
        if ref not in built:
            game = load_game(ref)
            result = build_aids(game, out / game.id)
            built[ref] = (game, result)
        return built[ref]

    return get


def text_of(path: Path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()
    text = re.sub(r"[-\u2010]\r?\n(?=[a-z])", "", text.replace("\u00ad", ""))
    return re.sub(r"\s+", " ", text).replace("\u2019", "'")


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", str(text))


def test_adapt_charts_costs_actions_and_ability_caps(aids):
    game, result = aids("adapt")
    text = text_of(result.path)
    charts = game.tables["random_selection"]["charts"]
    assert set(charts) == {2, 3}
    for players, chart in charts.items():
        assert f"{players} players" in text
        for row in chart:
            lo, hi = row["roll"]
            assert f"{lo}–{hi}" in text
    for level, cost in game.tables["body_costs"].items():
        assert re.search(rf"\b{level} {cost} ★", text), (level, cost)
    for action in game.tables["actions"]:
        assert action["name"] in text
    for name, spec in game.tables["abilities"].items():
        cap = spec["cap"]
        assert re.search(rf"{re.escape(name)} (◆ Passive|☀ Action) {cap if cap is not None else '–'} ",
                         text), name


def test_combo_fighter_sheets_and_win_circle(aids):
    game, result = aids("combo-fighter")
    text = text_of(result.path)
    assert "Attack beats Footwork" in text and "Footwork beats Defense" in text
    assert "Defense beats Attack" in text
    for sheet in game.cards_of_type("character"):
        assert sheet.name in text
        assert f"Deck composition ({sum(sheet.get('deck').values())} cards)" in text
        assert ", ".join(sheet.get("starting_hand")) in text
        for combo in sheet.get("signature_combos"):
            assert combo["name"] in text
            assert " → ".join(combo["cards"]) in text
        token = sheet.get("power_token")
        assert f"A · {token['a_name']}" in text and f"B · {token['b_name']}" in text
        assert squash(token["b"]) in text
    # one sheet per character, each starting a page
    assert result.pages >= 1 + len(game.cards_of_type("character"))


def test_amiibart_turn_trigger_order_and_keywords(aids):
    game, result = aids("amiibart")
    text = text_of(result.path)
    assert "Turn structure" in text and "Attack trigger order" in text
    for step in game.tables["attack_trigger_order"]["steps"]:
        assert squash(step).replace('"', "") in text.replace('"', "").replace("“", "").replace("”", "")
    for keyword in game.keywords:
        assert keyword in text
    reader = PdfReader(str(result.path))
    fonts = {str(f.get_object()["/BaseFont"]) for page in reader.pages
             for f in (page["/Resources"].get("/Font") or {}).values()}
    assert any("CG-Symbols" in f for f in fonts)      # the element icons


def test_amfibido_and_dojo_duel_aids(aids):
    game, result = aids("amfibido")
    text = text_of(result.path)
    assert "Fight resolution" in text and "Draft" in text
    for ruling in game.rulings:
        assert squash(ruling.rule)[:50] in text
    game, result = aids("dojo-duel")
    text = text_of(result.path)
    for phase in ("Setup", "Draw", "Turn, twice", "Kicker", "Round", "Clean"):
        assert phase in text
    assert squash(game.tables["kicker"]["doc"]) in text


def test_missing_tables_are_reported_not_invented():
    game = load_game("amfibido")
    _, missing = aid_sections(game)
    for name in missing:
        assert name not in game.tables


def test_designer_game_gets_an_aid(aids):
    game, result = aids(str(GUILD))
    text = text_of(result.path)
    for keyword in game.keywords:
        assert keyword in text


def test_publish_game_writes_both_pdfs(tmp_path):
    game = load_game(str(GUILD))
    paths = publish_game(game, tmp_path / "out")
    assert [p.name for p in paths] == ["rulebook.pdf", "player-aids.pdf"]
    assert all(p.is_file() and p.read_bytes().startswith(b"%PDF") for p in paths)
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_an_unchanged_book_is_not_laid_out_again(tmp_path):
    import shutil

    from cardgen.publish import build_rulebook

    folder = tmp_path / "lantern-guild"
    shutil.copytree(GUILD, folder)
    game = load_game(str(folder))
    first = build_rulebook(game, tmp_path / "out")
    stamp = first.path.stat().st_mtime_ns
    again = build_rulebook(game, tmp_path / "out")
    assert again.pages == first.pages and again.path.stat().st_mtime_ns == stamp
    chapter = folder / "rules" / "01-the-fog-is-coming.md"
    chapter.write_text(chapter.read_text() + "\nOne more line.\n")
    changed = build_rulebook(load_game(str(folder)), tmp_path / "out")
    assert changed.path.stat().st_mtime_ns != stamp


def _page_fill(page) -> float:
    """How far down its text area (12 mm top, 13 mm bottom margins) a page's text reaches, 0-1."""
    mm = 72 / 25.4
    height = page.get_height()
    text = page.get_textpage()
    bottoms = [text.get_charbox(i)[1] for i in range(text.count_chars())]
    lowest = min((b for b in bottoms if b > 13 * mm), default=height - 12 * mm)   # above the footer
    return (height - 12 * mm - lowest) / (height - 25 * mm)


@pytest.mark.parametrize("game_id", ["adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel"])
def test_no_aid_ends_on_a_near_empty_page(aids, game_id):
    """A.D.A.P.T.'s aid ended on a page holding one note and a three-row table (15% of it)."""
    _game, result = aids(game_id)
    pages = result.pages
    pdf = pdfium.PdfDocument(str(result.path))
    try:
        fill = _page_fill(pdf[len(pdf) - 1])
    finally:
        pdf.close()
    assert pages == 1 or fill >= 0.3, (game_id, pages, round(fill, 2))
