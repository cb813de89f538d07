"""Lines and frames close to the cut: a warning, not an error.

A hand cut, or a trimmer, lands up to a millimetre off. A border or rule that runs along an edge
a little inside the trim (an outlined frame, the edge of a filled panel, a `line`) then shows the
error plainly: 2 mm of frame on one side, 1 mm on the other. Designs keep such lines NEAR_TRIM mm
or more inside the trim (or run them into the bleed). Only elements whose position is written as
numbers are checked; a box computed per card is not.
"""

from __future__ import annotations

from cardgen.errors import Issue

NEAR_TRIM = 3.0       # mm: an edge-parallel line closer than this to the trim shows a cutting error
MIN_RUN = 10.0        # mm: shorter edges (a badge, a pip) read as shapes, not as a frame
PARALLEL = 0.05       # mm a line may lean and still run along the edge


def _numbers(value, count: int) -> list[float] | None:
    if isinstance(value, list) and len(value) == count and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return [float(v) for v in value]
    return None


def _edges(element) -> list[tuple[str, float, float]]:
    """The element's straight edges as (axis, position, length): axis "x" for a vertical edge at
    x = position, "y" for a horizontal one."""
    if "rect" in element:
        box = _numbers(element["rect"], 4)
        if box is None:
            return []
        x, y, w, h = box
        return [("x", x, h), ("x", x + w, h), ("y", y, w), ("y", y + h, w)]
    if "line" in element:
        pts = _numbers(element["line"], 4)
        if pts is None:
            return []
        x1, y1, x2, y2 = pts
        if abs(x1 - x2) <= PARALLEL:
            return [("x", (x1 + x2) / 2, abs(y2 - y1))]
        if abs(y1 - y2) <= PARALLEL:
            return [("y", (y1 + y2) / 2, abs(x2 - x1))]
    return []


def near_trim(element, width: float, height: float, offset=(0.0, 0.0)) -> list[str]:
    """What is wrong with one element (no message when nothing is): each of its long edges that
    runs along the trim, inside the card and closer to it than NEAR_TRIM."""
    found = []
    for axis, at, length in _edges(element):
        if length < MIN_RUN:
            continue
        at += offset[0] if axis == "x" else offset[1]
        size = width if axis == "x" else height
        inset = min(at, size - at)
        if PARALLEL < inset < NEAR_TRIM:
            near_side = at < size / 2
            side = ("left" if near_side else "right") if axis == "x" else ("top" if near_side else "bottom")
            kind = "frame" if "rect" in element else "line"
            found.append(f"a {kind} edge {inset:.1f} mm inside the {side} cut shows a cutting error: keep "
                         f"it {NEAR_TRIM:g} mm or more inside the trim, or run it into the bleed")
    return found


def trim_warnings(layouts) -> list[Issue]:
    """Warnings for every element of the layouts (types, backs, reference cards and the templates
    they use, at their fixed group offsets) with an edge closer to the trim than NEAR_TRIM."""
    out: list[Issue] = []

    def walk(elements, where, offset, size, depth=0):
        if depth > 8 or not isinstance(elements, list):
            return
        for i, element in enumerate(elements):
            if not isinstance(element, dict):
                continue
            here = f"{where}[{i + 1}]"
            line = elements.line_of(i) if hasattr(elements, "line_of") else None
            for message in near_trim(element, *size, offset):
                out.append(Issue(layouts.path, line, here, message))
            if "use" in element and element["use"] in layouts.templates:
                walk(layouts.templates[element["use"]], f"templates.{element['use']}", offset, size,
                     depth + 1)
            shift = _numbers(element.get("offset", [0, 0]), 2)
            if "group" in element and shift is not None:
                moved = (offset[0] + shift[0], offset[1] + shift[1])
                walk(element["group"], f"{here}.group", moved, size, depth + 1)

    for section in ("types", "backs", "reference"):
        for name, elements in getattr(layouts, section).items():
            # (each type at its own size: card.sizes)
            size = layouts.size_of(name if section == "types" else None)
            walk(elements, f"{section}.{name}", (0.0, 0.0), size)
    return list(dict.fromkeys(out))
