"""Small components several to a page (Combo Fighter's Power Tokens): imposed as the cards are,
each back behind its own front on either duplex flip, the marks where printers print. Measured
from the PDFs: placements from the content streams (tests/pdf_marks.py), and which token is where
from the text inside each trim."""

from __future__ import annotations

import itertools

import pypdf
import pypdfium2 as pdfium
import pytest

from cardgen.model import load_game
from cardgen.sheets import SheetOptions, make_sheets
from tests.pdf_marks import PT, read_page
from tests.test_sheet_marks import blank_game, problems

TOKEN = (50.0, 50.0)
CREST = """
components:
  crest:
    name: Crest
    each: lamplighter
    copies: 3
    size: [40, 40]
    front: [{rect: bleed, fill: '#224466'}]
    back: [{rect: bleed, fill: '#664422'}]
"""


def _token_pages(path, side: str) -> list[int]:
    return [i for i, page in enumerate(pypdf.PdfReader(path).pages)
            if f"SIDE {side} · " in (page.extract_text() or "")]


def _text_in(page, box, page_h: float) -> str:
    """The text inside a box (x0, y0, x1, y1 in mm from the top-left) of a pdfium page."""
    x0, y0, x1, y1 = box
    text = page.get_textpage()
    return " ".join(text.get_text_bounded(x0 * PT, (page_h - y1) * PT, x1 * PT, (page_h - y0) * PT).split())


def _trims(page) -> list[tuple[float, float, float, float]]:
    _segments, placed, _size = read_page(page)
    return [p.trim(*TOKEN) for p in placed]


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
def test_each_power_tokens_side_b_lands_behind_its_side_a(tmp_path, paper, backs):
    game = load_game("combo-fighter")
    [path] = make_sheets(game, tmp_path, options=SheetOptions(papers=(paper,), backs=backs), force=True)
    [front_no], [back_no] = _token_pages(path, "A"), _token_pages(path, "B")
    assert back_no == front_no + 1                  # duplex: the back page is the sheet's other side
    reader, doc = pypdf.PdfReader(path), pdfium.PdfDocument(path)
    fronts, rears = _trims(reader.pages[front_no]), _trims(reader.pages[back_no])
    page_w, page_h = (float(v) / PT for v in (reader.pages[front_no].mediabox.width,
                                              reader.pages[front_no].mediabox.height))
    fighters = [card for card in game.cards.values() if card.type == "character"]
    assert len(fronts) == len(rears) == len(fighters) == 4          # four tokens share one sheet
    seen = set()
    for x0, y0, x1, y1 in fronts:
        # where this spot of the face page lands on the back page after the flip
        behind = ((page_w - x1, y0, page_w - x0, y1) if backs == "duplex-long"
                  else (x0, page_h - y1, x1, page_h - y0))
        [rear] = [r for r in rears if all(abs(a - b) < 0.001 for a, b in zip(r, behind, strict=True))]
        a_side = _text_in(doc[front_no], (x0, y0, x1, y1), page_h)
        b_side = _text_in(doc[back_no], rear, page_h)
        [fighter] = [f for f in fighters if f.name.upper() in a_side]
        token = fighter.fields["power_token"]
        assert "SIDE A" in a_side and token["a_name"].upper() in a_side
        assert "SIDE B" in b_side and token["b_name"].upper() in b_side and fighter.name.upper() in b_side
        seen.add(fighter.name)
    assert len(seen) == 4


def _is_crest(placed) -> bool:
    """A form 40 mm and its bleed (3.175 mm, the cards') on each side: a crest."""
    return abs(placed.x1 - placed.x0 - 46.35) < 0.01 and abs(placed.y1 - placed.y0 - 46.35) < 0.01


def test_every_ganged_component_mark_prints_on_every_paper_and_option(tmp_path):
    """Fifteen 40 mm crests (three for each of five lamplighters) fill pages of their own:
    every mark prints whole at least 5 mm in, every crest edge has a printed line to cut along,
    no mark over a crest; on both papers, every back mode, with and without bleed and gap."""
    folder = blank_game(tmp_path, "poker")
    with (folder / "layouts.yaml").open("a", encoding="utf-8") as out:
        out.write(CREST)
    game = load_game(folder)
    failures, pages = [], 0
    for paper, backs, bleed, gap in itertools.product(("letter", "a4"), ("duplex-long", "duplex-short",
                                                                         "separate", "fold"),
                                                      (False, True), (0.0, 3.0)):
        options = SheetOptions((paper,), backs, (0.0, 0.0), gap, bleed)
        [path] = make_sheets(game, tmp_path / f"{paper}-{backs}-{bleed}-{gap}", None, options)
        placed = [read_page(p)[1] for p in pypdf.PdfReader(path).pages]
        crest_pages = [found for found in placed if found and all(_is_crest(p) for p in found)]
        # 15 crests and their backs (beside them when folded), several a page
        assert sum(map(len, crest_pages)) == 30 and all(len(found) > 1 for found in crest_pages)
        pages += len(crest_pages)
        failures += [f"{paper} {backs} bleed={bleed} gap={gap}: {p}"
                     for p in problems(path, (40.0, 40.0), (0.0, 0.0),
                                       keep=lambda _s, found: found and all(map(_is_crest, found)))]
    assert pages
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} in all)"


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_page_says_which_page_it_is(tmp_path, paper):
    """The margin's page label ("Combo Fighter · faces 25/25 · a4") is on every page, the token
    pages too: where their margin holds only three of the note, two rulers and the label, the
    2 cm ruler gives way (on A4 the label had been left out)."""
    [path] = make_sheets(load_game("combo-fighter"), tmp_path, options=SheetOptions(papers=(paper,)),
                         force=True)
    for number, page in enumerate(pypdf.PdfReader(path).pages, 1):
        text = page.extract_text() or ""
        for wanted in ("PRINT AT 100%", "1 in", "Combo Fighter · "):
            assert wanted in text, f"{paper} page {number}: no {wanted!r}"
