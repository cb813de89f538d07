"""The rulebook's tables across a page break (issue 25: a table started with one row at the foot
of Combo Fighter's page 5): the book's CSS keeps a table's first two rows together, and its last
two, so no page holds a lone row of a table."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from jinja2 import Environment, FileSystemLoader

from cardgen.paths import templates_dir

ROWS = 8


def _pages(filler_mm: float) -> list[str]:
    from weasyprint import HTML

    css = Environment(loader=FileSystemLoader(str(templates_dir()))).get_template(
        "rulebook/base.css.j2").render(accent="#224466", accent_faint="#eef2f6", accent_light="#99aabb")
    rows = "".join(f"<tr><td>ROW{i}</td><td>value</td></tr>" for i in range(1, ROWS + 1))
    html = (f"<html><head><style>{css} @page {{ size: 100mm 100mm; margin: 10mm; }}</style></head><body>"
            f"<div style='height: {filler_mm}mm'></div>"
            f"<table><thead><tr><th>Card</th><th>Value</th></tr></thead><tbody>{rows}</tbody></table>"
            "</body></html>")
    pdf = pdfium.PdfDocument(io.BytesIO(HTML(string=html).write_pdf()))
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


@pytest.mark.parametrize("filler_mm", range(0, 78, 3))
def test_no_page_holds_a_lone_row_of_a_table(filler_mm):
    """The filler moves the table down the first page, so that every split of it comes up: one
    row left at the first page's foot, one row carried over to the next, and all between."""
    for text in _pages(filler_mm):
        rows = [i for i in range(1, ROWS + 1) if f"ROW{i}" in text]
        assert len(rows) != 1, (filler_mm, rows)
