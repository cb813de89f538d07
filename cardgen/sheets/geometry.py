"""Imposition geometry: where each card, back, crop mark and margin note goes on a page.

Pure arithmetic in millimetres from the page's top-left corner (y grows downwards), so it can be
tested and reasoned about without a PDF. The PDF writer converts to points at the last moment.

- The grid is as many cards as fit inside MIN_MARGIN on each side (3 x 3 poker on Letter and A4),
  centred on the page, portrait. With `gap` 0 the cards share cut lines; otherwise there is a
  gap between neighbours.
- Bleed is drawn only where it fits: half the gap between neighbours (none on shared cut lines),
  and on the outer edges as much as leaves MARK_ROOM of margin for the crop marks (NOTE_ROOM on
  the side that carries the print-at-100% note and the rulers).
- Backs: long-edge duplex mirrors the page left-right (the columns), short-edge duplex mirrors it
  top-bottom (the rows); calibration offsets then move the whole back page by (dx, dy).
- Fold-over: faces fill the left half of the page and their backs the mirror image in the right
  half, so folding along the centre line puts each back behind its face.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PAPERS = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}   # portrait width x height, mm
MIN_MARGIN = 5.0      # kept clear on every side: the printer's unprintable strip and the crop marks
MARK_ROOM = 3.0       # outer bleed gives way so that crop marks keep at least this much margin
NOTE_ROOM = 7.0       # ... and the margin with the notes keeps this much (two lines and a ruler)
MARK_GAP = 1.0        # crop marks start this far outside the trim (or the bleed)
MARK_LEN = 5.0
EDGE_CLEAR = 0.5      # nothing is drawn closer than this to the paper's edge
FOLD_GUTTER = 4.0     # fold-over: space between a face and its back (the fold runs in the middle)
CUT_CLEAR = 1.5       # margin notes keep this far from the line of a crop mark
BACK_MODES = ("duplex-long", "duplex-short", "separate", "fold", "none")


@dataclass(frozen=True)
class Slot:
    """A card's place on a page: trim top-left (mm) and how much bleed fits on each side."""

    x: float
    y: float
    bleed: tuple[float, float, float, float]   # left, top, right, bottom


@dataclass(frozen=True)
class Band:
    """A strip of margin for notes: `side` of the card block ("bottom" or "left"), `depth` mm from
    the paper's edge (less EDGE_CLEAR) to just short of the cards. `free` lists the stretches along
    it (x for the bottom, y for the left) between crop-mark lines, where a note may go.
    """

    side: str
    depth: float
    free: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Imposition:
    paper: str
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int
    gap: float
    bleed: float          # bleed asked for (0: cards are cut at the trim)
    fold: bool = False

    # -- the grid --------------------------------------------------------------------------------

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def block_w(self) -> float:
        return self.cols * self.card_w + (self.cols - 1) * self.gap

    @property
    def block_h(self) -> float:
        return self.rows * self.card_h + (self.rows - 1) * self.gap

    @property
    def left(self) -> float:
        if self.fold:   # faces sit against the fold gutter in the left half
            return self.page_w / 2 - FOLD_GUTTER / 2 - self.block_w
        return (self.page_w - self.block_w) / 2

    @property
    def top(self) -> float:
        return (self.page_h - self.block_h) / 2

    @property
    def note_side(self) -> str:
        """Where the notes go: the wider of the bottom and the left margin of the grid."""
        return "bottom" if self.page_h - self.top - self.block_h >= self.left else "left"

    def outer_bleed(self) -> tuple[float, float, float, float]:
        """Bleed on the outside edges of the block (left, top, right, bottom): as much as leaves
        MARK_ROOM of margin for the crop marks, NOTE_ROOM on the side with the notes. Fold-over: the
        faces' right edge faces the fold, so it gets half the gutter."""
        if not self.bleed:
            return (0.0, 0.0, 0.0, 0.0)
        right = self.page_w - self.left - self.block_w
        bottom = self.page_h - self.top - self.block_h
        note = self.note_side
        left, top, right, bottom = (max(0.0, min(self.bleed, m - (NOTE_ROOM if side == note else MARK_ROOM)))
                                    for side, m in (("left", self.left), ("top", self.top), ("right", right),
                                                    ("bottom", bottom)))
        if self.fold:
            right = min(self.bleed, FOLD_GUTTER / 2)
        return (left, top, right, bottom)

    def slot(self, index: int) -> Slot:
        """The face slot `index` (row by row, left to right) of a page."""
        col, row = index % self.cols, index // self.cols
        return Slot(self.left + col * (self.card_w + self.gap), self.top + row * (self.card_h + self.gap),
                    self._bleed_at(col, row))

    def _bleed_at(self, col: int, row: int) -> tuple[float, float, float, float]:
        inner = min(self.bleed, self.gap / 2) if self.bleed else 0.0
        ol, ot, orr, ob = self.outer_bleed()
        return (ol if col == 0 else inner, ot if row == 0 else inner,
                orr if col == self.cols - 1 else inner, ob if row == self.rows - 1 else inner)

    def back_slot(self, index: int, mode: str, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where the back of face slot `index` goes: on the back page (duplex, separate) or in the
        right half of the same page (fold). Offsets move back pages only, never fold-over backs."""
        face = self.slot(index)
        col, row = index % self.cols, index // self.cols
        left, top, right, bottom = face.bleed
        if mode == "fold":   # the mirror image across the fold line
            x, y = self.page_w - face.x - self.card_w, face.y
            bleed = (right, top, left, bottom)
        elif mode in ("duplex-long", "separate"):   # the grid is centred: the mirror is a grid slot
            x, y = self.page_w - face.x - self.card_w, face.y
            bleed = self._bleed_at(self.cols - 1 - col, row)
        elif mode == "duplex-short":
            x, y = face.x, self.page_h - face.y - self.card_h
            bleed = self._bleed_at(col, self.rows - 1 - row)
        else:
            raise ValueError(f"no backs in mode {mode!r}")
        if mode != "fold":
            x, y = x + offset[0], y + offset[1]
        return Slot(x, y, bleed)

    # -- marks and notes -------------------------------------------------------------------------

    def cut_lines(self, slots: list[Slot]) -> tuple[list[float], list[float]]:
        """The distinct x of vertical cut lines and y of horizontal ones through these slots."""
        xs = sorted({round(v, 4) for s in slots for v in (s.x, s.x + self.card_w)})
        ys = sorted({round(v, 4) for s in slots for v in (s.y, s.y + self.card_h)})
        return xs, ys

    def crop_marks(self, slots: list[Slot]) -> list[tuple[float, float, float, float]]:
        """Crop-mark segments (x1, y1, x2, y2) in the margins around these slots, outside every card
        and its bleed: each cut line is carried out into the paper's margin on both ends."""
        if not slots:
            return []
        xs, ys = self.cut_lines(slots)
        x0 = min(s.x - s.bleed[0] for s in slots)
        x1 = max(s.x + self.card_w + s.bleed[2] for s in slots)
        y0 = min(s.y - s.bleed[1] for s in slots)
        y1 = max(s.y + self.card_h + s.bleed[3] for s in slots)
        marks = []

        def run(start: float, direction: int, limit: float):
            a = start + direction * MARK_GAP
            b = a + direction * MARK_LEN
            b = max(b, limit) if direction < 0 else min(b, limit)
            return (a, b) if (b - a) * direction > 0.3 else None

        for x in xs:
            for seg in (run(y0, -1, EDGE_CLEAR), run(y1, 1, self.page_h - EDGE_CLEAR)):
                if seg:
                    marks.append((x, seg[0], x, seg[1]))
        for y in ys:
            for seg in (run(x0, -1, EDGE_CLEAR), run(x1, 1, self.page_w - EDGE_CLEAR)):
                if seg:
                    marks.append((seg[0], y, seg[1], y))
        return marks

    def note_band(self, slots: list[Slot], fold_x: float | None = None) -> Band | None:
        """The margin strip for the print-at-100% note and the rulers: the wider of the bottom and
        left margins, split into stretches that keep clear of the crop-mark lines."""
        if not slots:
            return None
        xs, ys = self.cut_lines(slots)
        x0 = min(s.x - s.bleed[0] for s in slots)
        y1 = max(s.y + self.card_h + s.bleed[3] for s in slots)
        bottom = self.page_h - y1 - MARK_GAP - EDGE_CLEAR
        left = x0 - MARK_GAP - EDGE_CLEAR
        if bottom >= left:
            side, depth, cuts, length = "bottom", bottom, xs + ([fold_x] if fold_x else []), self.page_w
        else:
            side, depth, cuts, length = "left", left, ys, self.page_h
        edges = [EDGE_CLEAR + 2.0] + [v for c in sorted(cuts) for v in (c - CUT_CLEAR, c + CUT_CLEAR)] \
            + [length - EDGE_CLEAR - 2.0]
        free = tuple((a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a > 4.0)
        return Band(side, depth, free) if depth > 2.5 else None


def impose(paper: str, card_w: float, card_h: float, *, gap: float = 0.0, bleed: float = 0.0,
           fold: bool = False) -> Imposition:
    """The grid for this paper and card size. Fold-over turns the page to landscape when that fits
    more cards. Raises ValueError when not even one card fits."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: expected one of {', '.join(PAPERS)}")
    pw, ph = PAPERS[paper]
    best = None
    for w, h in ((pw, ph), (ph, pw)) if fold else ((pw, ph),):
        room_w = (w / 2 - FOLD_GUTTER / 2 - MIN_MARGIN) if fold else (w - 2 * MIN_MARGIN)
        cols = math.floor((room_w + gap) / (card_w + gap) + 1e-9)
        rows = math.floor((h - 2 * MIN_MARGIN + gap) / (card_h + gap) + 1e-9)
        if cols >= 1 and rows >= 1 and (best is None or cols * rows > best.per_page):
            best = Imposition(paper, w, h, card_w, card_h, cols, rows, gap, bleed, fold)
    if best is None:
        raise ValueError(f"a {card_w:g} x {card_h:g} mm card does not fit on {paper} paper"
                         + (" folded in half" if fold else ""))
    return best


def max_gap(imp: Imposition) -> float:
    """The widest gap that keeps this grid (0 when only shared cut lines fit it)."""
    room_w = (imp.page_w / 2 - FOLD_GUTTER / 2 - MIN_MARGIN) if imp.fold else (imp.page_w - 2 * MIN_MARGIN)
    room_h = imp.page_h - 2 * MIN_MARGIN
    gaps = []
    if imp.cols > 1:
        gaps.append((room_w - imp.cols * imp.card_w) / (imp.cols - 1))
    if imp.rows > 1:
        gaps.append((room_h - imp.rows * imp.card_h) / (imp.rows - 1))
    return max(0.0, math.floor(min(gaps, default=0.0) * 10) / 10)
