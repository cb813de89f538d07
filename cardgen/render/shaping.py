"""Text shaped with HarfBuzz: which glyphs draw a string and where, kerning and ligatures included.

Every width the text fitter measures and every glyph the painters place comes from `glyphs()`,
so line breaks, the PNG and the PDF agree. A string is shaped word by word (split at spaces),
each space being the font's own space advance: the fitter measures words one at a time, and a
painted run of several words must put each word exactly where the fitter measured it. Kerning
across a space is rare in text faces and WeasyPrint's rulebooks show the same widths to 0.5%
(tests/test_shaping.py).

The script and direction are guessed from the text (a right-to-left word comes out in visual
order); the language is fixed, so a machine's locale never changes a card (HarfBuzz would take
its default language from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from cardgen.render import filecache

LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Shaped:
    """A string's glyphs: (glyph id, x, y) of each, its pen position from the string's start in
    font units (y up, as in the font), and the string's whole advance in font units."""

    glyphs: tuple[tuple[int, int, int], ...]
    advance: int
    plain: bool         # each glyph is its own character's, at its nominal advance (no kerning, no ligature)


@lru_cache(maxsize=32)
def _hb_font(path: str):
    import uharfbuzz as hb

    filecache.seen(path)
    return hb.Font(hb.Face(hb.Blob.from_file_path(path)))


@lru_cache(maxsize=32)
def _nominal(path: str) -> tuple[dict, dict]:
    """(codepoint -> glyph id, glyph id -> codepoint) of the font's character map."""
    font = _hb_font(path)
    cmap = {code: font.get_nominal_glyph(code) for code in font.face.unicodes}
    reverse: dict[int, int] = {}
    for code, glyph in sorted(cmap.items()):
        reverse.setdefault(glyph, code)
    return cmap, reverse


# A card game's texts have a few thousand distinct words; each entry holds a handful of tuples.
@lru_cache(maxsize=16384)
def _word(path: str, word: str) -> Shaped:
    import uharfbuzz as hb

    font = _hb_font(path)
    buf = hb.Buffer()
    buf.add_str(word)
    buf.guess_segment_properties()
    buf.language = LANGUAGE
    hb.shape(font, buf)
    pen = 0
    glyphs = []
    cmap = _nominal(path)[0]
    plain = len(buf.glyph_infos) == len(word)
    for i, (info, pos) in enumerate(zip(buf.glyph_infos, buf.glyph_positions, strict=True)):
        glyphs.append((info.codepoint, pen + pos.x_offset, pos.y_offset))
        if plain and (pos.x_offset or pos.y_offset or cmap.get(ord(word[i])) != info.codepoint
                      or pos.x_advance != font.get_glyph_h_advance(info.codepoint)):
            plain = False
        pen += pos.x_advance
    return Shaped(tuple(glyphs), pen, plain)


@lru_cache(maxsize=16384)
def glyphs(path: str, text: str) -> Shaped:
    """The glyphs of a run of text (words and single spaces, as the fitter sets them)."""
    if " " not in text:
        return _word(path, text)
    space = _word(path, " ")
    out: list[tuple[int, int, int]] = []
    pen = 0
    plain = True
    for i, word in enumerate(text.split(" ")):
        if i:
            out.extend((g, pen + x, y) for g, x, y in space.glyphs)
            pen += space.advance
        shaped = _word(path, word) if word else None
        if shaped is not None:
            out.extend((g, pen + x, y) for g, x, y in shaped.glyphs)
            pen += shaped.advance
            plain = plain and shaped.plain
    return Shaped(tuple(out), pen, plain and space.plain)


def advance(path: str, text: str) -> int:
    """The shaped width of `text` in font units."""
    return glyphs(path, text).advance


def character_of(path: str, glyph: int) -> str | None:
    """A character the font maps to this glyph, or None (a ligature, an alternate form)."""
    code = _nominal(path)[1].get(glyph)
    return None if code is None else chr(code)


class _SvgPen:
    """Collects a glyph outline from HarfBuzz as an SVG path (font units, y up) and its bounds."""

    def __init__(self):
        self.d: list[str] = []
        self.points: list[tuple[float, float]] = []

    def _add(self, op: str, *points) -> None:
        self.points.extend(points)
        self.d.append(op + " ".join(f"{x:g} {y:g}" for x, y in points))

    def moveTo(self, p):            # noqa: N802 (the pen protocol's names)
        self._add("M", p)

    def lineTo(self, p):            # noqa: N802
        self._add("L", p)

    def qCurveTo(self, *points):    # noqa: N802
        *controls, end = points
        for i, control in enumerate(controls):      # implied on-curve points between controls
            last = controls[i + 1] if i + 1 < len(controls) else end
            target = last if i + 1 == len(controls) else ((control[0] + last[0]) / 2,
                                                          (control[1] + last[1]) / 2)
            self._add("Q", control, target)

    def curveTo(self, *points):     # noqa: N802
        self._add("C", *points)

    def closePath(self):            # noqa: N802
        self.d.append("Z")

    def endPath(self):              # noqa: N802
        pass


@lru_cache(maxsize=1024)
def outline(path: str, glyph: int) -> tuple[tuple[float, float, float, float], str]:
    """A glyph's control-point bounds (xmin, ymin, xmax, ymax) and its outline as SVG path data,
    in font units with y up ("" for a glyph without ink)."""
    pen = _SvgPen()
    _hb_font(path).draw_glyph_with_pen(glyph, pen)
    if not pen.points:
        return (0.0, 0.0, 0.0, 0.0), ""
    xs, ys = [x for x, _ in pen.points], [y for _, y in pen.points]
    return (min(xs), min(ys), max(xs), max(ys)), " ".join(pen.d)


for _cache in (_hb_font, _nominal, _word, glyphs, outline):
    filecache.on_change(_cache.cache_clear)
