"""Where a component that is not a card (a player mat, a board, a token) goes on a sheet of paper.

Components of a size that fits a page more than once (tokens) share pages: `gang` imposes them
as the cards are (geometry.py: the grid, the backs mirrored for either duplex flip, crop marks
where printers print). The rest:

Each side gets a page of its own, centred, so its back lands exactly behind it whichever edge a
duplex printer flips on (the back pages' offsets still apply). A component wider than the
paper's width but not its height is turned a quarter (its top to the page's left, on front and
back alike). Crop marks run out from each corner to 5 mm from the paper's edge, where printers
print; a component with no room for them (or no room at all) is refused with its size and the
most that fits: design it smaller.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from cardgen.sheets.geometry import MARK_GAP, PRINTABLE, Imposition, impose

MIN_MARK = 2.0       # the shortest crop mark worth printing, mm
OUTER_CUT = PRINTABLE + MARK_GAP    # a ganged grid's outer cut lines keep this far from the edge


@dataclass(frozen=True)
class Placement:
    x: float            # the trim's top-left on the page, mm (page coordinates, y down)
    y: float
    w: float            # the trim's size on the page (after any quarter turn)
    h: float
    bleed: float
    turned: bool        # drawn a quarter turn anticlockwise: the component's top at the page's left


def room(page_w: float, page_h: float, bleed: float) -> tuple[float, float]:
    """The largest trim that fits a page with its bleed and crop marks (width, height)."""
    margin = PRINTABLE + MIN_MARK + MARK_GAP + bleed
    return page_w - 2 * margin, page_h - 2 * margin


def place(page_w: float, page_h: float, width: float, height: float, bleed: float,
          offset: tuple[float, float] = (0.0, 0.0)) -> Placement:
    """The component centred on the page (turned if only that fits), moved by `offset` (backs).
    Raises ValueError when it does not fit either way."""
    max_w, max_h = room(page_w, page_h, bleed)
    if width <= max_w and height <= max_h:
        w, h, turned = width, height, False
    elif height <= max_w and width <= max_h:
        w, h, turned = height, width, True
    else:
        raise ValueError(f"{width:g} x {height:g} mm does not fit on the paper with its bleed and crop "
                         f"marks: at most {max_w:.0f} x {max_h:.0f} mm (or {max_h:.0f} x {max_w:.0f})")
    return Placement((page_w - w) / 2 + offset[0], (page_h - h) / 2 + offset[1], w, h, bleed, turned)


def crop_marks(pl: Placement, page_w: float, page_h: float) -> list[tuple[float, float, float, float]]:
    """Segments (x1, y1, x2, y2) along the trim lines, from just outside the bleed to 5 mm from
    the paper's edge, at each corner."""
    out = []
    start = pl.bleed + MARK_GAP
    x0, y0, x1, y1 = pl.x, pl.y, pl.x + pl.w, pl.y + pl.h
    for x, outward in ((x0, -1), (x1, 1)):        # horizontal marks at each corner's side
        end = PRINTABLE if outward < 0 else page_w - PRINTABLE
        for y in (y0, y1):
            a = x + outward * start
            if (end - a) * outward >= MIN_MARK:
                out.append((a, y, end, y))
    for y, outward in ((y0, -1), (y1, 1)):        # vertical marks above and below
        end = PRINTABLE if outward < 0 else page_h - PRINTABLE
        for x in (x0, x1):
            a = y + outward * start
            if (end - a) * outward >= MIN_MARK:
                out.append((x, a, x, end))
    return out


def gang(cards: Imposition, width: float, height: float, bleed: float) -> Imposition | None:
    """The grid for components of this size on the cards' paper, with the cards' gap, fold and
    bleed option (the component's own bleed where the cards have bleed): None when no more than
    one fits a page."""
    try:
        imp = impose(cards.paper, width, height, gap=cards.gap, bleed=bleed if cards.bleed else 0.0,
                     fold=cards.fold)
    except ValueError:
        return None
    # the grid may reach MIN_MARGIN, where its outer cut lines would print only in part or not
    # at all (40 mm tiles five across A4 cut 5.0 mm from the edge): a column or row less
    while imp.cols > 1 and imp.left < OUTER_CUT:
        imp = dataclasses.replace(imp, cols=imp.cols - 1)
    while imp.rows > 1 and imp.top < OUTER_CUT:
        imp = dataclasses.replace(imp, rows=imp.rows - 1)
    return imp if imp.per_page > 1 else None
