"""Card-sized player aids (layouts.yaml `reference:`) print with the whole set, one per player."""

from __future__ import annotations

from pypdf import PdfReader

from cardgen.model import load_deck, load_game
from cardgen.render.display import Run
from cardgen.render.layout import layout_reference, load_layouts, reference_copies
from cardgen.sheets import SheetOptions, make_sheets
from tests.conftest import ROOT


def test_reference_card_reads_numbers_from_the_tables():
    game = load_game("dojo-duel")
    face = layout_reference(load_layouts(game), "round")
    text = " ".join(i.text for i in face.items if isinstance(i, Run))
    assert f"up to {game.tables['hand_size']}" in text
    assert str(game.tables["starting_points"]) in text


def test_whole_set_sheets_carry_one_aid_per_player_and_decks_do_not(tmp_path):
    game = load_game("dojo-duel")
    options = SheetOptions(papers=("letter",), backs="none")
    [whole] = make_sheets(game, tmp_path, options=options, force=True)
    text = "\n".join(p.extract_text() for p in PdfReader(whole).pages)
    assert text.count("A ROUND OF DOJO DUEL") == reference_copies(game) == 2
    deck = load_deck(ROOT / "content" / "dojo-duel" / "decks" / "crane-path.yaml")
    [deck_pdf] = make_sheets(game, tmp_path, deck=deck, options=options, force=True)
    assert "A ROUND OF DOJO DUEL" not in "\n".join(p.extract_text() for p in PdfReader(deck_pdf).pages)
