"""Crop marks and card placements read back from a proxy sheet's page content stream, for the
tests and bench/sheet_marks.py. Nothing here comes from cardgen's geometry: the segments are the
stroked lines of the mark width, the cards are the Form XObjects placed on the page, both in mm
from the page's top-left corner.

A printer leaves a strip along every paper edge unprinted (4.2 mm on a typical laser, up to 5 mm
on inkjets): `printable_length` is how much of a segment lies at least that far in.
"""

from __future__ import annotations

from dataclasses import dataclass

import pypdf
from pypdf.generic import ContentStream

PT = 72 / 25.4
MARK_WIDTH = 0.3          # points: the crop marks' line width (the rulers and fold line differ)
UNPRINTABLE = 5.0         # mm along each paper edge that a printer may not print


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float
    grey: float           # stroke colour (0 black, 1 white)

    @property
    def vertical(self) -> bool:
        return abs(self.x1 - self.x2) < 1e-6

    @property
    def horizontal(self) -> bool:
        return abs(self.y1 - self.y2) < 1e-6

    @property
    def length(self) -> float:
        return abs(self.x2 - self.x1) + abs(self.y2 - self.y1)


@dataclass(frozen=True)
class Placed:
    """A card drawn on the page: its form's box (trim plus the form's bleed) in mm, and the clip
    it is drawn through (trim plus the bleed that fits there), or None."""

    x0: float
    y0: float
    x1: float
    y1: float
    clip: tuple[float, float, float, float] | None = None

    def trim(self, card_w: float, card_h: float) -> tuple[float, float, float, float]:
        bx = (self.x1 - self.x0 - card_w) / 2
        by = (self.y1 - self.y0 - card_h) / 2
        return (self.x0 + bx, self.y0 + by, self.x1 - bx, self.y1 - by)


def _mul(a, b):
    """The product of two PDF matrices [a b c d e f] (a applied first)."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def read_page(page: pypdf.PageObject) -> tuple[list[Segment], list[Placed], tuple[float, float]]:
    """The mark segments and placed cards of a page, and its size, all in mm (y down)."""
    w_pt, h_pt = float(page.mediabox.width), float(page.mediabox.height)
    content = ContentStream(page.get_contents(), page.pdf)
    forms = page["/Resources"].get("/XObject", {})
    ctm, width, grey, clip, stack = [1, 0, 0, 1, 0, 0], 1.0, 0.0, None, []
    path, rect, segments, placed = [], None, [], []

    def at(x, y):
        px = ctm[0] * x + ctm[2] * y + ctm[4]
        py = ctm[1] * x + ctm[3] * y + ctm[5]
        return px / PT, (h_pt - py) / PT

    for operands, op in content.operations:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append((ctm, width, grey, clip))
        elif op == "Q":
            ctm, width, grey, clip = stack.pop()
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            (ax, ay), (bx, by) = at(x, y), at(x + w, y + h)
            rect = (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
        elif op in ("W", "W*"):
            clip = rect
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == "w":
            width = float(operands[0])
        elif op == "RG":
            grey = sum(float(v) for v in operands) / 3
        elif op == "G":
            grey = float(operands[0])
        elif op == "m":
            path = [at(float(operands[0]), float(operands[1]))]
        elif op == "l":
            path.append(at(float(operands[0]), float(operands[1])))
        elif op == "S":
            if abs(width - MARK_WIDTH) < 1e-6:
                segments += [Segment(*a, *b, grey) for a, b in zip(path, path[1:], strict=False)]
            path = []
        elif op in ("n", "f", "B", "b", "s"):
            path = []
        elif op == "Do":
            box = [float(v) for v in forms[operands[0]].get_object()["/BBox"]]
            (ax, ay), (bx, by) = at(box[0], box[1]), at(box[2], box[3])
            placed.append(Placed(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by), clip))
    return segments, placed, (w_pt / PT, h_pt / PT)


def printable_length(seg: Segment, page_w: float, page_h: float, border: float = UNPRINTABLE) -> float:
    """How much of the segment lies at least `border` mm in from every paper edge."""
    if seg.vertical:
        if not border <= seg.x1 <= page_w - border:
            return 0.0
        lo, hi = sorted((seg.y1, seg.y2))
        return max(0.0, min(hi, page_h - border) - max(lo, border))
    if seg.horizontal:
        if not border <= seg.y1 <= page_h - border:
            return 0.0
        lo, hi = sorted((seg.x1, seg.x2))
        return max(0.0, min(hi, page_w - border) - max(lo, border))
    return 0.0


def edge_coverage(segments: list[Segment], trim, page_w: float, page_h: float,
                  border: float = UNPRINTABLE) -> dict[str, float]:
    """For each edge of a card's trim (left, top, right, bottom): the printable length of dark mark
    segments lying on that edge's line, within the edge's span or its extension beyond the card
    (a mark anywhere along the cut line shows where to cut)."""
    x0, y0, x1, y1 = trim
    out = {}
    for name, vertical, at in (("left", True, x0), ("top", False, y0), ("right", True, x1),
                               ("bottom", False, y1)):
        on_line = [seg for seg in segments if seg.grey <= 0.5 and (
            (vertical and seg.vertical and abs(seg.x1 - at) < 0.02)
            or (not vertical and seg.horizontal and abs(seg.y1 - at) < 0.02))]
        out[name] = sum(printable_length(seg, page_w, page_h, border) for seg in on_line)
    return out
