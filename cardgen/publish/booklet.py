"""A rulebook as a saddle-stitched booklet: its pages padded to a multiple of 4, and imposed two
to a sheet side in folding order, so a duplex print of rulebook-booklet.pdf (flipped on the short
edge), folded down the middle and stapled, reads 1, 2, 3... with the quick reference on the back."""

from __future__ import annotations

from pathlib import Path

from cardgen.fsutil import write_atomic

MM = 72 / 25.4
# Sheets a pair of pages is printed on (landscape width, height in mm): two A5 pages (296 mm)
# go on A4 with the pair centred, so the fold stays in the middle of the sheet.
SHEETS = [(297.0, 210.0), (279.4, 215.9)]
NEAR_MM = 2.0


def sheet_for(width: float, height: float) -> tuple[float, float]:
    """The sheet side (pt) two pages of width x height (pt) are laid on: a standard paper when the
    pair nearly fills one, else just the pair."""
    for sheet_w, sheet_h in SHEETS:
        if 0 <= sheet_w * MM - 2 * width <= NEAR_MM * MM and abs(sheet_h * MM - height) <= NEAR_MM * MM:
            return sheet_w * MM, sheet_h * MM
    return 2 * width, height


def padding(pages: int) -> int:
    """Blank pages that bring `pages` to a multiple of 4 (a sheet folded once holds 4 pages)."""
    return -pages % 4


def folding_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page indexes (0-based) of each sheet side, front then back, sheet by sheet:
    the outer sheet's front holds the last page and the first."""
    if pages % 4:
        raise ValueError(f"a booklet needs a multiple of 4 pages, not {pages}")
    sides = []
    for sheet in range(pages // 4):
        sides.append((pages - 1 - 2 * sheet, 2 * sheet))              # front
        sides.append((2 * sheet + 1, pages - 2 - 2 * sheet))          # back
    return sides


def impose(source: Path, target: Path) -> tuple[Path, int]:
    """Write `target`: every two pages of `source` side by side on one sheet side, in folding
    order; returns (path, sheet sides)."""
    import io

    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    reader = PdfReader(str(source))
    pages = list(reader.pages)
    width, height = float(pages[0].mediabox.width), float(pages[0].mediabox.height)
    writer = PdfWriter()
    sheet_w, sheet_h = sheet_for(width, height)
    x, y = sheet_w / 2 - width, (sheet_h - height) / 2
    for left, right in folding_order(len(pages)):
        side = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        side.merge_transformed_page(pages[left], Transformation().translate(tx=x, ty=y))
        side.merge_transformed_page(pages[right], Transformation().translate(tx=x + width, ty=y))
        writer.add_page(side)
    writer.add_metadata({"/Title": f"{reader.metadata.title if reader.metadata else ''} (booklet)".strip()})
    data = io.BytesIO()
    writer.write(data)
    return write_atomic(target, data.getvalue()), len(writer.pages)
