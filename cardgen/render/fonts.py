"""Fonts by family name, their metrics, and glyph fallback.

Text is measured once, here, from the fonts' own (unhinted) advance widths as HarfBuzz shapes
them (kerning, ligatures: cardgen/render/shaping.py), and both painters place every glyph where
this layout put it: the PNG and the PDF break lines identically. A
character the chosen font lacks is drawn from the icon font (DejaVu Sans), and a character no
font has is an error: ReportLab would drop it silently and Pillow would draw a box.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardgen.paths import fonts_dir
from cardgen.render import filecache, shaping

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
        """The text's shaped advance width in em (at 1 pt it is this many points): kerned, with
        ligatures, as both painters draw it (cardgen/render/shaping.py)."""
        return shaping.advance(self.path, text) / self.upem


@dataclass(frozen=True)
class _Font:
    """What layout reads from a TrueType file: its tables as raw bytes and its character map."""

    tables: dict            # tag -> the table's bytes
    cmap: dict              # codepoint -> glyph index
    upem: int               # units per em (from 'head')

    def table(self, tag: str) -> bytes:
        found = self.tables.get(tag)
        if found is None:
            raise ValueError(f"no '{tag}' table (not a TrueType font?)")
        return found


# Which character map a font is read through, best first (as fontTools' getBestCmap): Unicode
# full repertoire, then Unicode BMP.
_CMAP_PREFERENCE = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


@lru_cache(maxsize=16)
def _open(path: str) -> _Font:
    """The font file's tables and character map, read directly: importing and running fontTools
    for this cost ~0.1 s in every process that lays out cards."""
    filecache.seen(path)
    data = Path(path).read_bytes()
    if data[:4] == b"ttcf":
        raise ValueError("font collections (.ttc) are not supported: use a single .ttf")
    try:
        (count,) = struct.unpack_from(">H", data, 4)
        tables = {}
        for i in range(count):
            tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            tables[tag.decode("latin-1")] = data[offset:offset + length]
        for tag in ("cmap", "head", "hhea", "hmtx", "maxp"):
            if tag not in tables:
                raise ValueError(f"no '{tag}' table: not a TrueType font")
        (upem,) = struct.unpack_from(">H", tables["head"], 18)
        return _Font(tables, _best_cmap(tables["cmap"]), upem)
    except (struct.error, IndexError) as exc:
        raise ValueError(f"not a TrueType font, or a damaged one ({exc})") from None


def _best_cmap(cmap: bytes) -> dict[int, int]:
    _version, count = struct.unpack_from(">HH", cmap, 0)
    subtables = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
        subtables.setdefault((platform, encoding), offset)
    for key in _CMAP_PREFERENCE:
        if key in subtables:
            offset = subtables[key]
            (fmt,) = struct.unpack_from(">H", cmap, offset)
            if fmt in _CMAP_READERS:
                return _CMAP_READERS[fmt](cmap, offset)
            raise ValueError(f"character map format {fmt} is not supported")
    return {}


def _cmap_format_4(cmap: bytes, offset: int) -> dict[int, int]:
    """Segments of consecutive codepoints (the BMP); the last segment only ends the table."""
    (seg_x2,) = struct.unpack_from(">H", cmap, offset + 6)
    n = seg_x2 // 2
    ends = struct.unpack_from(f">{n}H", cmap, offset + 14)
    starts = struct.unpack_from(f">{n}H", cmap, offset + 16 + seg_x2)
    deltas = struct.unpack_from(f">{n}h", cmap, offset + 16 + 2 * seg_x2)
    range_at = offset + 16 + 3 * seg_x2             # where the idRangeOffset array starts
    ranges = struct.unpack_from(f">{n}H", cmap, range_at)
    out = {}
    for i in range(n - 1):
        start, end, delta, rng = starts[i], ends[i], deltas[i], ranges[i]
        if rng == 0:
            for code in range(start, end + 1):
                out[code] = (code + delta) & 0xFFFF
            continue
        base = range_at + 2 * i + rng                # idRangeOffset counts from its own position
        for code in range(start, end + 1):
            (glyph,) = struct.unpack_from(">H", cmap, base + 2 * (code - start))
            out[code] = (glyph + delta) & 0xFFFF if glyph else 0
    return out


def _cmap_format_12(cmap: bytes, offset: int) -> dict[int, int]:
    """Groups of consecutive codepoints mapped to consecutive glyphs (the whole of Unicode)."""
    (groups,) = struct.unpack_from(">I", cmap, offset + 12)
    out = {}
    for start, end, glyph in struct.iter_unpack(">III", cmap[offset + 16:offset + 16 + 12 * groups]):
        for code in range(start, end + 1):
            out[code] = glyph + code - start
    return out


def _cmap_format_0(cmap: bytes, offset: int) -> dict[int, int]:
    """One byte per codepoint 0-255 (old Mac fonts)."""
    return dict(enumerate(cmap[offset + 6:offset + 262]))


def _cmap_format_6(cmap: bytes, offset: int) -> dict[int, int]:
    """One run of consecutive codepoints."""
    first, count = struct.unpack_from(">HH", cmap, offset + 6)
    glyphs = struct.unpack_from(f">{count}H", cmap, offset + 10)
    return {first + i: glyph for i, glyph in enumerate(glyphs)}


_CMAP_READERS = {0: _cmap_format_0, 4: _cmap_format_4, 6: _cmap_format_6, 12: _cmap_format_12}


@lru_cache(maxsize=64)
def load_face(path: str) -> Face:
    font = _open(path)
    if "glyf" not in font.tables:
        raise ValueError(f"{path}: only TrueType outline fonts (.ttf with glyf) can be embedded "
                         "in PDFs by ReportLab; convert CFF/OpenType-CFF fonts first")
    try:
        (glyphs,) = struct.unpack_from(">H", font.table("maxp"), 4)
        hhea = font.table("hhea")
        ascent, descent = struct.unpack_from(">hh", hhea, 4)
        (long_metrics,) = struct.unpack_from(">H", hhea, 34)
        widths = [w for w, _lsb in struct.iter_unpack(">Hh", font.table("hmtx")[:4 * long_metrics])]
        widths += [widths[-1]] * (glyphs - long_metrics)     # the rest share the last advance
    except (struct.error, IndexError) as exc:
        raise ValueError(f"{path}: a damaged font ({exc})") from None
    advances = {cp: widths[glyph] for cp, glyph in font.cmap.items() if glyph < glyphs}
    name = "cg_" + Path(path).stem.replace(" ", "")
    upem = font.upem
    return Face(str(path), name, upem, ascent / upem, -descent / upem, advances)


@lru_cache(maxsize=16)
def _glyph_boxes(path: str):
    """(codepoint -> glyph index, the raw 'loca' and 'glyf' tables, loca's format, units per em).
    Each glyph's ink box is in the first bytes of its record, so no glyph is parsed."""
    font = _open(path)
    (long_offsets,) = struct.unpack_from(">h", font.table("head"), 50)
    return font.cmap, font.table("loca"), font.table("glyf"), long_offsets, font.upem


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


for _cache in (_open, load_face, _glyph_boxes, glyph_bounds):
    filecache.on_change(_cache.cache_clear)
