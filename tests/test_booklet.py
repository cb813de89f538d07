"""`cardgen rulebook --booklet` (issue 25): the book padded to a multiple of 4 with the quick
reference still on its back page, and rulebook-booklet.pdf imposed in folding order, read back
from the PDF: each half of each sheet side holds the page the fold puts there."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from cardgen.model import load_game
from cardgen.publish import build_rulebook
from cardgen.publish.booklet import folding_order, impose, padding
from cardgen.publish.rulebook import BOOKLET_FILE
from tests.conftest import ROOT


def test_folding_order_of_two_sheets():
    # sheet 1: front 8|1, back 2|7; sheet 2: front 6|3, back 4|5 (pages counted from 1)
    assert [(a + 1, b + 1) for a, b in folding_order(8)] == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert [padding(n) for n in (4, 5, 6, 7, 8)] == [0, 3, 2, 1, 0]
    with pytest.raises(ValueError):
        folding_order(6)


def halves(path) -> list[tuple[str, str]]:
    """The text of the left and right half of every page of a PDF."""
    pdf = pdfium.PdfDocument(str(path))
    out = []
    for page in pdf:
        width, height = page.get_size()
        text = page.get_textpage()
        out.append((text.get_text_bounded(0, 0, width / 2, height).strip(),
                    text.get_text_bounded(width / 2, 0, width, height).strip()))
    return out


def numbered_pdf(path, pages: int) -> None:
    from reportlab.lib.pagesizes import A5
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path), pagesize=A5)
    for n in range(1, pages + 1):
        canvas.setFont("Helvetica", 40)
        canvas.drawCentredString(A5[0] / 2, A5[1] / 2, f"P{n}")
        canvas.showPage()
    canvas.save()


def test_impose_puts_each_page_where_the_fold_needs_it(tmp_path):
    numbered_pdf(tmp_path / "book.pdf", 12)
    path, sides = impose(tmp_path / "book.pdf", tmp_path / "booklet.pdf")
    assert sides == 6
    assert halves(path) == [(f"P{a + 1}", f"P{b + 1}") for a, b in folding_order(12)]
    width, height = pdfium.PdfDocument(str(path))[0].get_size()
    assert (round(width), round(height)) == (842, 595)        # two A5 pages: an A4 sheet side


def test_a_booklet_is_padded_before_its_back_page(tmp_path):
    game = load_game(ROOT / "tests" / "data" / "lantern-guild")
    plain = build_rulebook(game, tmp_path / "plain", use_cache=False)
    result = build_rulebook(game, tmp_path / "booklet", use_cache=False, booklet=True)
    assert result.pages % 4 == 0 and result.pages - plain.pages == padding(plain.pages)
    texts = [p.get_textpage().get_text_range() for p in pdfium.PdfDocument(str(result.path))]
    plain_texts = [p.get_textpage().get_text_range() for p in pdfium.PdfDocument(str(plain.path))]
    assert texts[-1].split("Page")[0] == plain_texts[-1].split("Page")[0]   # the same back page
    assert all(not t.strip() for t in texts[plain.pages - 1:-1])            # blank padding
    imposed = halves(result.path.with_name(BOOKLET_FILE))
    assert len(imposed) == result.pages // 2
    assert imposed[0][0].startswith(texts[-1].strip()[:20])          # the back page beside the cover
