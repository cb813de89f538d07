"""The display list: what a laid-out card is, in millimetres from the top-left of the trim box.

Coordinates may be negative or past the trim size: that is the bleed. Colours are RGBA tuples.
Both painters (PNG and PDF) draw exactly these items, so the two outputs cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Colour = tuple[int, int, int, int]
MM_PER_INCH = 25.4
PRINT_DPI = 300     # what every print preset draws cards at (cardgen.render.PRESETS)


@dataclass(slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0
    radius: float = 0.0


@dataclass(slots=True)
class Ellipse:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0


@dataclass(slots=True)
class Polygon:
    points: list[tuple[float, float]]
    fill: Colour | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0


@dataclass(slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: Colour
    width: float


@dataclass(slots=True)
class Run:
    """Text in one font at one size; (x, y) is the left end of its baseline."""

    x: float
    y: float
    text: str
    font: str          # font file path
    font_name: str     # a stable name for the PDF painter
    size: float        # points
    colour: Colour


@dataclass(slots=True)
class Picture:
    x: float
    y: float
    w: float
    h: float
    path: str
    fit: str = "cover"   # cover: fill the box, cropping; contain: fit inside it
    # None: the picture's own colours; a colour: its silhouette (alpha) in that colour (an inline
    # icon tinted like its text)
    tint: Colour | None = None


Item = Rect | Ellipse | Polygon | Line | Run | Picture


@dataclass
class Face:
    """One side of one card, ready to paint."""

    name: str
    width: float          # trim size, mm
    height: float
    bleed: float
    items: list[Item] = field(default_factory=list)
    radius: float = 0.0   # corner radius of the cut card (shown on previews, not cut by sheets)
