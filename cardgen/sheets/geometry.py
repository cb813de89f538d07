"""Imposition geometry: where each card, back, crop mark and margin note goes on a page.

Pure arithmetic in millimetres from the page's top-left corner (y grows downwards), so it can be
tested and reasoned about without a PDF. The PDF writer converts to points at the last moment.

- The grid is as many cards as fit inside MIN_MARGIN on each side (3 x 3 poker on Letter and A4),
  centred on the page, portrait. With `gap` 0 the cards share cut lines; otherwise there is a
  gap between neighbours.
- Bleed is drawn where it fits: half the gap between neighbours (none on shared cut lines), and
  on the outer edges as much as the margin holds (NOTE_ROOM stays clear on the side that carries
  the print-at-100% note and the rulers), the same on opposite sides so that backs keep it.
- Cut lines are drawn where a printer prints: no closer than PRINTABLE to any paper edge (home
  printers leave 4-5 mm unprinted, and the margins of Letter are 6.35 mm above and below the
  cards). Each cut line is drawn through the block of cards as a guide, on the line itself (it
  runs along card edges and through bleed, never over a card's face, and the cut takes it away),
  so neighbours of one colour still show where to cut; crop marks carry it out into the margin
  where the margin has printable room for them.
- Backs: long-edge duplex mirrors the page left-right (the columns), short-edge duplex mirrors it
  top-bottom (the rows); calibration offsets then move the whole back page by (dx, dy).
- Fold-over: faces fill the left half of the page and their backs the mirror image in the right
  half, so folding along the centre line puts each back behind its face.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PAPERS = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}   # portrait width x height, mm
MIN_MARGIN = 5.0      # kept clear on every side: the printer's unprintable strip
PRINTABLE = 5.0       # marks and notes keep this far from the paper's edges, where printers print
MARK_GAP = 1.0        # crop marks start this far outside the trim (or the bleed)
MARK_LEN = 5.0
MIN_MARK = 2.0        # a crop mark shorter than this is left out (the guide still shows the line)
NOTE_ROOM = PRINTABLE + MARK_GAP + 3.5   # the margin with the notes keeps one printable line and a ruler
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
    """A strip of margin for notes: `side` of the card block ("bottom" or "left"), starting `base` mm
    from the paper's edge (PRINTABLE where the margin has room, else EDGE_CLEAR) and `depth` mm deep,
    to just short of the cards. `free` lists the stretches along it (x for the bottom, y for the
    left) between crop-mark lines, where a note may go.
    """

    side: str
    depth: float
    free: tuple[tuple[float, float], ...]
    base: float = EDGE_CLEAR


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
        """Bleed on the outside edges of the block (left, top, right, bottom): as much as the margin
        holds short of EDGE_CLEAR, and short of NOTE_ROOM on the side with the notes. Opposite sides
        get the same, so that a back (mirrored left-right or top-bottom) has its face's bleed.
        Fold-over: the faces' right edge faces the fold, so it gets half the gutter."""
        if not self.bleed:
            return (0.0, 0.0, 0.0, 0.0)
        right = self.page_w - self.left - self.block_w
        bottom = self.page_h - self.top - self.block_h
        note = self.note_side
        left, top, right, bottom = (max(0.0, min(self.bleed, m - (NOTE_ROOM if side == note else EDGE_CLEAR)))
                                    for side, m in (("left", self.left), ("top", self.top), ("right", right),
                                                    ("bottom", bottom)))
        if self.fold:
            return (left, min(top, bottom), min(self.bleed, FOLD_GUTTER / 2), min(top, bottom))
        return (min(left, right), min(top, bottom), min(left, right), min(top, bottom))

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

    def _extent(self, slots: list[Slot]) -> tuple[float, float, float, float]:
        """The block these slots cover, bleed included: x0, y0, x1, y1."""
        return (min(s.x - s.bleed[0] for s in slots), min(s.y - s.bleed[1] for s in slots),
                max(s.x + self.card_w + s.bleed[2] for s in slots),
                max(s.y + self.card_h + s.bleed[3] for s in slots))

    def _printable(self, x1: float, y1: float, x2: float, y2: float, least: float):
        """The part of an upright segment no closer than PRINTABLE to the paper's edges, or None
        when that is shorter than `least`."""
        lo_x, hi_x = PRINTABLE, self.page_w - PRINTABLE
        lo_y, hi_y = PRINTABLE, self.page_h - PRINTABLE
        if x1 == x2:
            if not lo_x <= x1 <= hi_x:
                return None
            y1, y2 = sorted((y1, y2))
            y1, y2 = max(y1, lo_y), min(y2, hi_y)
            return (x1, y1, x2, y2) if y2 - y1 >= least else None
        if not lo_y <= y1 <= hi_y:
            return None
        x1, x2 = sorted((x1, x2))
        x1, x2 = max(x1, lo_x), min(x2, hi_x)
        return (x1, y1, x2, y2) if x2 - x1 >= least else None

    def cut_guides(self, slots: list[Slot]) -> list[tuple[float, float, float, float]]:
        """Each cut line through the block (x1, y1, x2, y2): along card edges and through bleed and
        gutters, never across a card (every cut line of a grid is a column or row boundary)."""
        if not slots:
            return []
        xs, ys = self.cut_lines(slots)
        x0, y0, x1, y1 = self._extent(slots)
        lines = [(x, y0, x, y1) for x in xs] + [(x0, y, x1, y) for y in ys]
        return [seg for seg in (self._printable(*line, 0.3) for line in lines) if seg]

    def crop_marks(self, slots: list[Slot]) -> list[tuple[float, float, float, float]]:
        """Crop-mark segments (x1, y1, x2, y2) in the margins around these slots, outside every card
        and its bleed: each cut line carried out into the margin, where at least MIN_MARK of it
        falls where printers print."""
        if not slots:
            return []
        xs, ys = self.cut_lines(slots)
        x0, y0, x1, y1 = self._extent(slots)
        near, far = MARK_GAP, MARK_GAP + MARK_LEN
        lines = [(x, y0 - far, x, y0 - near) for x in xs] + [(x, y1 + near, x, y1 + far) for x in xs]
        lines += [(x0 - far, y, x0 - near, y) for y in ys] + [(x1 + near, y, x1 + far, y) for y in ys]
        return [seg for seg in (self._printable(*line, MIN_MARK) for line in lines) if seg]

    def note_band(self, slots: list[Slot], fold_x: float | None = None) -> Band | None:
        """The margin strip for the print-at-100% note and the rulers: the wider of the bottom and
        left margins, split into stretches that keep clear of the crop-mark lines."""
        if not slots:
            return None
        xs, ys = self.cut_lines(slots)
        x0, _y0, _x1, y1 = self._extent(slots)
        bottom = self.page_h - y1 - MARK_GAP
        left = x0 - MARK_GAP
        if bottom >= left:
            side, margin, cuts, length = "bottom", bottom, xs + ([fold_x] if fold_x else []), self.page_w
        else:
            side, margin, cuts, length = "left", left, ys, self.page_h
        base = PRINTABLE if margin - PRINTABLE > 2.5 else EDGE_CLEAR
        edges = [base + 2.0] + [v for c in sorted(cuts) for v in (c - CUT_CLEAR, c + CUT_CLEAR)] \
            + [length - base - 2.0]
        free = tuple((a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a > 4.0)
        return Band(side, margin - base, free, base) if margin - base > 2.5 else None


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
