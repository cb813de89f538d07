"""Fonts by family name, their metrics, and glyph fallback.

Text is measured once, here, from the fonts' own (unhinted) advance widths, and both painters
place every run where this layout put it: the PNG and the PDF break lines identically. A
character the chosen font lacks is drawn from the icon font (DejaVu Sans), and a character no
font has is an error: ReportLab would drop it silently and Pillow would draw a box.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardgen.paths import fonts_dir

PT_TO_MM = 25.4 / 72

# Family -> variant -> file under fonts/. A missing variant falls back to "regular".
BUILTIN_FAMILIES: dict[str, dict[str, str]] = {
    "Barlow Condensed": {
        "regular": "barlow-condensed/BarlowCondensed-Regular.ttf",
        "bold": "barlow-condensed/BarlowCondensed-Bold.ttf",
        "italic": "barlow-condensed/BarlowCondensed-Italic.ttf",
        "bold_italic": "barlow-condensed/BarlowCondensed-BoldItalic.ttf",
    },
    "Barlow Condensed Medium": {
        "regular": "barlow-condensed/BarlowCondensed-Medium.ttf",
        "bold": "barlow-condensed/BarlowCondensed-Bold.ttf",
        "italic": "barlow-condensed/BarlowCondensed-Italic.ttf",
    },
    "Barlow Condensed SemiBold": {
        "regular": "barlow-condensed/BarlowCondensed-SemiBold.ttf",
        "bold": "barlow-condensed/BarlowCondensed-Bold.ttf",
        "italic": "barlow-condensed/BarlowCondensed-BoldItalic.ttf",
    },
    "Barlow Condensed Bold": {
        "regular": "barlow-condensed/BarlowCondensed-Bold.ttf",
        "italic": "barlow-condensed/BarlowCondensed-BoldItalic.ttf",
    },
    "Alfa Slab One": {"regular": "alfa-slab-one/AlfaSlabOne-Regular.ttf"},
    "DejaVu Sans": {
        "regular": "dejavu/DejaVuSans.ttf", "bold": "dejavu/DejaVuSans-Bold.ttf",
        "italic": "dejavu/DejaVuSans-Oblique.ttf",
    },
    "DejaVu Sans Condensed": {
        "regular": "dejavu/DejaVuSansCondensed.ttf", "bold": "dejavu/DejaVuSansCondensed-Bold.ttf",
    },
    "DejaVu Serif": {
        "regular": "dejavu/DejaVuSerif.ttf", "bold": "dejavu/DejaVuSerif-Bold.ttf",
        "italic": "dejavu/DejaVuSerif-Italic.ttf",
    },
}
ICON_FAMILY = "DejaVu Sans"
VARIANTS = ("regular", "bold", "italic", "bold_italic")


@dataclass(frozen=True)
class Face:
    """One font file with what layout needs: which characters it has and how wide they are."""

    path: str
    name: str               # PostScript-ish name, unique per file, for the PDF painter
    upem: int
    ascent: float           # in em
    descent: float          # in em, positive
    advances: dict          # codepoint -> advance in font units

    def has(self, char: str) -> bool:
        return ord(char) in self.advances

    def width_mm(self, text: str, size_pt: float) -> float:
        return self.em(text) * size_pt * PT_TO_MM

    def em(self, text: str) -> float:
        """The text's advance width in em (at 1 pt it is this many points)."""
        adv = self.advances
        return sum(adv.get(ord(c), 0) for c in text) / self.upem


@lru_cache(maxsize=16)
def _open(path: str):
    """A font whose glyphs are named by their index: layout needs no glyph names, and naming them
    from the 'post' table is the slowest part of opening a big font (DejaVu: 6,000 names).
    Kept open: the metrics and the glyph boxes read the same character map."""
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    font.setGlyphOrder([f"glyph{i}" for i in range(font["maxp"].numGlyphs)])
    return font


@lru_cache(maxsize=64)
def load_face(path: str) -> Face:
    font = _open(path)
    if "glyf" not in font:
        raise ValueError(f"{path}: only TrueType outline fonts (.ttf with glyf) can be embedded "
                         "in PDFs by ReportLab; convert CFF/OpenType-CFF fonts first")
    cmap = font.getBestCmap() or {}
    metrics = font["hmtx"].metrics
    advances = {cp: metrics[glyph][0] for cp, glyph in cmap.items() if glyph in metrics}
    upem = font["head"].unitsPerEm
    hhea = font["hhea"]
    name = "cg_" + Path(path).stem.replace(" ", "")
    return Face(str(path), name, upem, hhea.ascent / upem, -hhea.descent / upem, advances)


@lru_cache(maxsize=16)
def _glyph_boxes(path: str):
    """(codepoint -> glyph index, the raw 'loca' and 'glyf' tables, loca's format, units per em).
    Each glyph's ink box is in the first bytes of its record, so no glyph is parsed."""
    font = _open(path)
    order = {name: i for i, name in enumerate(font.getGlyphOrder())}
    cmap = {cp: order[name] for cp, name in (font.getBestCmap() or {}).items()}
    return cmap, font.reader["loca"], font.reader["glyf"], font["head"].indexToLocFormat, \
        font["head"].unitsPerEm


@lru_cache(maxsize=512)
def glyph_bounds(path: str, text: str) -> tuple[float, float, float, float]:
    """Ink bounds of a string's glyphs in em (xmin, ymin, xmax, ymax), for centring icons."""
    cmap, loca, glyf, long_offsets, upem = _glyph_boxes(path)
    boxes = []
    for char in text:
        index = cmap[ord(char)]
        if long_offsets:
            start, end = struct.unpack_from(">II", loca, 4 * index)
        else:
            start, end = (2 * v for v in struct.unpack_from(">HH", loca, 2 * index))
        if end > start:                     # an empty record is a glyph without outlines (a space)
            contours, *box = struct.unpack_from(">hhhhh", glyf, start)
            if contours:
                boxes.append(box)
    if not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(b[0] for b in boxes) / upem, min(b[1] for b in boxes) / upem,
            max(b[2] for b in boxes) / upem, max(b[3] for b in boxes) / upem)


class FontBook:
    """Families a game can use: the built-in ones plus a game's own (files inside its folder)."""

    def __init__(self, extra: dict[str, dict[str, Path]] | None = None):
        root = fonts_dir()
        self.families: dict[str, dict[str, str]] = {
            family: {v: str(root / f) for v, f in files.items()}
            for family, files in BUILTIN_FAMILIES.items()}
        for family, files in (extra or {}).items():
            self.families[family] = {v: str(p) for v, p in files.items()}

    def face(self, family: str, bold: bool = False, italic: bool = False) -> Face:
        files = self.families[family]
        wanted = "bold_italic" if bold and italic else "bold" if bold else "italic" if italic else "regular"
        for variant in (wanted, "bold" if bold else "italic" if italic else "regular", "regular"):
            if variant in files:
                return load_face(files[variant])
        return load_face(next(iter(files.values())))

    def icon_face(self, bold: bool = False) -> Face:
        return self.face(ICON_FAMILY, bold=bold)
