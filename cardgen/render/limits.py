"""The range of every number a layout sets, and what true/false settings take.

Checked twice: when layouts.yaml loads (a number written in the file, reported at its line) and
when a card is laid out (a number an expression gave for that card). Outside these ranges a value
hides text (a size of -5), hangs the painter (a stroke a metre wide), asks for a gigantic image
(a bleed of a metre) or crashes it (NaN, infinity). The ranges hold every bundled game with room
to spare; docs/layouts.md states them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)     # (slots: read for every number of every card)
class Range:
    lo: float
    hi: float
    what: str               # "a size in points": the message says "expected <what> from lo to hi"
    whole: bool = False     # only whole numbers (a count)

    def problem(self, value) -> str | None:
        """None when `value` is a number in range, else what to write instead."""
        if self.holds(value):
            return None
        return f"expected {self.what} from {_number(self.lo)} to {_number(self.hi)}, got {value!r}"

    def holds(self, value) -> bool:
        kind = type(value)      # (not isinstance: a bool is an int, and is no number here)
        if kind is not float and kind is not int:
            return False
        # NaN compares false and the bounds are finite: NaN and infinity are outside
        return self.lo <= value <= self.hi and (not self.whole or value == int(value))


def _number(x: float) -> str:
    return f"{x:g}"


# card: (the trim size and the margins around and inside it)
CARD = {
    "width": Range(10, 300, "a length in mm"),
    "height": Range(10, 300, "a length in mm"),
    "bleed": Range(0, 10, "a bleed in mm"),          # print shops ask for 3-3.175 mm
    "safe": Range(0, 20, "a margin in mm"),
    "radius": Range(0, 20, "a corner radius in mm"),
}

# text styles, in styles: or on a text element or flow block
STYLE_NUMBERS = {
    "size": Range(4, 200, "a size in points"),
    "min_size": Range(4, 200, "a size in points"),
    "leading": Range(0.5, 3, "a line height (a multiple of the text size)"),
    "paragraph_gap": Range(0, 5, "a gap in lines"),
}
STYLE_FLAGS = ("bold", "italic", "bold_keywords")
STYLE_CHOICES = {"align": ("left", "center", "right"), "valign": ("top", "middle", "bottom")}

# the other numbers of elements (a flow block's rule `width` included)
ELEMENT_NUMBERS = {
    "stroke_width": Range(0, 10, "a line width in mm"),
    "width": Range(0, 10, "a line width in mm"),
    "radius": Range(0, 100, "a corner radius in mm"),
    "gap": Range(0, 50, "a gap in mm"),
    "min_scale": Range(0.1, 1, "a scale"),
    "repeat": Range(0, 100, "a whole number", whole=True),
    "rotate": Range(-360, 360, "an angle in degrees (clockwise)"),
}

# text outlines and shadows, and the angle of a turned element
EFFECT_NUMBERS = {
    "outline.width": Range(0, 3, "an outline width in mm"),
    "shadow.dx": Range(-10, 10, "an offset in mm"),
    "shadow.dy": Range(-10, 10, "an offset in mm"),
}

# coordinates: from the trim's top-left corner (negative in the bleed), and the sizes of boxes
POSITION = Range(-1000, 1000, "a position in mm")
SIZE = Range(0, 1000, "a size in mm")               # a shape's: 0 draws nothing
BOX_SIZE = Range(0.1, 1000, "a size in mm")         # the box text, an icon or a picture is fitted to
