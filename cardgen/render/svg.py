"""SVG art, made safe to draw: a stranger's drawing is read without DTDs or entities, may refer to
nothing outside itself (no file, no address: only its own `#id`s and embedded `data:` pictures),
and is bounded in size and in how far its `<use>` copies multiply it. What passes is drawn by
resvg for card PNGs (rasterised at the card's dpi) and by svglib as vector shapes in the PDFs;
neither renderer is given anything that could fetch.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

MAX_SVG_BYTES = 10 << 20
MAX_ELEMENTS = 50_000            # elements as written
MAX_DRAWN = 200_000              # elements once every <use> is expanded ("billion laughs" by <use>)
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_EMBEDDED = re.compile(r"data:image/(png|jpeg|jpg|webp);base64,", re.I)
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)([^)'\"]*)", re.I)
_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")


class SvgError(ValueError):
    """Why an SVG drawing is refused, in words that follow its file name."""


# What resvg's slowest filter effects cost, in work units per pixel of the raster (one unit: about
# 2 ns here, bench/svg_filters.py): a dilate/erode looks at every pixel within its radius, a
# turbulence computes noise once per octave, a convolution multiplies its whole kernel. A drawing
# whose effects add up to more than MAX_FILTER_WORK at the size it is drawn is refused: a
# stranger's `<feMorphology radius="10">` took minutes on one card, and a bound in work units (not
# seconds) gives every machine the same answer.
MAX_FILTER_WORK = 1.5e9
TURBULENCE_OCTAVE_WORK = 90.0
CONVOLVE_CELL_WORK = 3.0


@dataclass(frozen=True)
class FilterLoad:
    """One costly filter effect, as often as the drawing applies it."""

    kind: str               # feMorphology | feTurbulence | feConvolveMatrix
    line: int
    size: float             # the radius (in the drawing's units), the octaves or the kernel cells
    times: int              # how many drawn elements use its filter

    def work_per_pixel(self, scale: float) -> float:
        if self.kind == "feMorphology":
            return self.times * (2 * self.size * scale + 1) ** 2
        if self.kind == "feTurbulence":
            return self.times * TURBULENCE_OCTAVE_WORK * self.size
        return self.times * CONVOLVE_CELL_WORK * self.size


@dataclass(frozen=True)
class CleanSvg:
    """A checked SVG: its text (as read, nothing outside it referred to), its size in CSS px and
    its costly filter effects."""

    text: str
    width: float
    height: float
    filters: tuple[FilterLoad, ...] = ()

    def drawing_problem(self, width: int, height: int) -> str | None:
        """Why drawing it at width x height pixels would take too long (None: it would not)."""
        scale = max(width / self.width, height / self.height)
        work = sum(f.work_per_pixel(scale) for f in self.filters) * width * height
        if work <= MAX_FILTER_WORK:
            return None
        worst = max(self.filters, key=lambda f: f.work_per_pixel(scale))
        what = {"feMorphology": f"radius {worst.size:g}", "feTurbulence": f"numOctaves {worst.size:g}",
                "feConvolveMatrix": f"a kernel of {worst.size:g} cells"}[worst.kind]
        uses = f", used by {worst.times} elements" if worst.times > 1 else ""
        return (f"line {worst.line}: its <{worst.kind}> ({what}{uses}) would take too long to draw at "
                f"{width} x {height} px ({work / MAX_FILTER_WORK:.0f}x cardgen's limit): make the effect "
                "smaller, or draw it into the picture")


def looks_like_svg(data: bytes) -> bool:
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<?xml", b"<svg", b"<!doctype svg")) and b"<svg" in data[:4096].lower() \
        or head.startswith(b"<svg")


def clean_svg(data: bytes) -> CleanSvg:
    """The drawing checked for everything that could leak, fetch or hang. Raises SvgError."""
    from lxml import etree

    if len(data) > MAX_SVG_BYTES:
        raise SvgError(f"is too large for an SVG drawing ({len(data):,} bytes; at most "
                       f"{MAX_SVG_BYTES >> 20} MB)")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise SvgError(f"is not a well-formed SVG drawing (line {exc.lineno}: {exc.msg})") from None
    if root.getroottree().docinfo.internalDTD is not None:
        raise SvgError("declares a DTD (<!DOCTYPE ... [ ... ]>): cardgen reads SVG without DTDs or "
                       "entities; remove that block")
    if etree.QName(root).localname != "svg":
        raise SvgError(f"is XML but not an SVG drawing (its root is <{etree.QName(root).localname}>)")
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    if len(elements) > MAX_ELEMENTS:
        raise SvgError(f"has {len(elements):,} elements (at most {MAX_ELEMENTS:,}): simplify it")
    for el in root.iter():
        if not isinstance(el.tag, str):     # an entity reference left as it was
            raise SvgError(f"line {el.sourceline}: uses an XML entity; cardgen expands none")
    ids = {el.get("id"): el for el in elements if el.get("id")}
    for el in elements:
        _check_references(el)
    if _drawn(root, ids, {}, ()) > MAX_DRAWN:
        raise SvgError(f"expands to more than {MAX_DRAWN:,} elements through <use>: simplify it")
    width, height = _size(root)
    return CleanSvg(etree.tostring(root, encoding="unicode"), width, height,
                    _filter_loads(root, elements, ids, max(width, height)))


def _check_references(el) -> None:
    from lxml import etree

    name = etree.QName(el).localname
    for attr, value in el.attrib.items():
        local = etree.QName(attr).localname
        if local == "href" and not (value.startswith("#") or _EMBEDDED.match(value.strip())):
            raise SvgError(f"line {el.sourceline}: <{name}> refers to {value[:80]!r} outside the drawing: "
                           "cardgen draws only what the file holds (embed pictures as data: PNG or JPEG)")
        _check_css(value, el, f"{local}=")
    if name == "style" and el.text:
        if "@import" in el.text:
            raise SvgError(f"line {el.sourceline}: <style> imports a style sheet (@import): cardgen "
                           "reads no files the drawing names")
        _check_css(el.text, el, "<style>")


def _check_css(text: str, el, where: str) -> None:
    outside = _OUTSIDE_URL.search(text)
    if outside and not _EMBEDDED.match(outside.group(1).strip()):
        raise SvgError(f"line {el.sourceline}: {where} url({outside.group(1)[:80]}) refers outside "
                       "the drawing: only url(#id) is drawn")


def _drawn(el, ids: dict, memo: dict, stack: tuple) -> int:
    """How many elements `el` draws, every <use> counted as the element it copies."""
    key = id(el)
    if key in memo:
        return memo[key]
    if key in stack:
        raise SvgError(f"line {el.sourceline}: a <use> copies itself (directly or through others)")
    stack = (*stack, key)
    total = 1
    href = el.get("href") or el.get(XLINK_HREF) or ""
    if isinstance(el.tag, str) and el.tag.endswith("use") and href.startswith("#") and href[1:] in ids:
        total += _drawn(ids[href[1:]], ids, memo, stack)
    for child in el:
        if isinstance(child.tag, str):
            total += _drawn(child, ids, memo, stack)
        if total > MAX_DRAWN:
            break
    memo[key] = total
    return total


_FILTER_URL = re.compile(r"url\(\s*['\"]?\s*#([^)'\"\s]+)")


def _filter_loads(root, elements: list, ids: dict, extent: float) -> tuple[FilterLoad, ...]:
    """The costly filter effects, each with how many drawn elements use it (every <use> counted
    as the elements it copies). A filter a <style> sheet names counts as used by every element."""
    from lxml import etree

    uses: dict[str, int] = {}
    styled = {m.group(1) for el in elements if etree.QName(el).localname == "style" and el.text
              for m in _FILTER_URL.finditer(el.text)}
    draws = _draw_counts(root, elements, ids)
    for el in elements:
        named = el.get("filter") or ""
        for part in (el.get("style") or "").split(";"):
            key, _, value = part.partition(":")
            if key.strip() == "filter":
                named = value
        match = _FILTER_URL.search(named)
        if match:
            uses[match.group(1)] = uses.get(match.group(1), 0) + draws.get(id(el), 1)
    everything = sum(draws.values())
    for name in styled:
        uses[name] = uses.get(name, 0) + everything
    loads = []
    for name, times in uses.items():
        flt = ids.get(name)
        if flt is None:
            continue
        by_box = flt.get("primitiveUnits") == "objectBoundingBox"
        for prim in flt:
            if not isinstance(prim.tag, str):
                continue
            kind = etree.QName(prim).localname
            size = _effect_size(kind, prim, extent if by_box else 1.0)
            if size:
                loads.append(FilterLoad(kind, prim.sourceline or 0, size, times))
    return tuple(loads)


_NUMBER = re.compile(r"[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?")


def _effect_size(kind: str, prim, unit: float) -> float:
    """A costly effect's size: the radius (its larger value), the octaves or the kernel cells."""
    def numbers(name: str, default: str) -> list[float]:
        return [abs(float(v)) for v in _NUMBER.findall(prim.get(name) or default)] or [0.0]

    if kind == "feMorphology":
        return max(numbers("radius", "0")) * unit
    if kind == "feTurbulence":
        return max(numbers("numOctaves", "1"))
    if kind == "feConvolveMatrix":
        order = numbers("order", "3")
        return order[0] * (order[1] if len(order) > 1 else order[0])
    return 0.0


def _draw_counts(root, elements: list, ids: dict) -> dict[int, int]:
    """How many times each element is drawn: once where it stands, and again each time a <use>
    copies it or an element around it (a <use> inside a copy counts once per copy)."""
    parents = {id(child): el for el in elements for child in el if isinstance(child.tag, str)}
    copied_by: dict[int, list] = {}
    for el in elements:
        href = el.get("href") or el.get(XLINK_HREF) or ""
        if el.tag.endswith("use") and href.startswith("#") and href[1:] in ids:
            copied_by.setdefault(id(ids[href[1:]]), []).append(el)
    counts: dict[int, int] = {}

    def count(el) -> int:       # (no cycles: clean_svg refused them first)
        key = id(el)
        if key not in counts:
            parent = parents.get(key)
            total = count(parent) if parent is not None else 1
            total += sum(count(use) for use in copied_by.get(key, ()))
            counts[key] = min(total, MAX_DRAWN)
        return counts[key]

    for el in elements:
        count(el)
    return counts


def _size(root) -> tuple[float, float]:
    """The drawing's size in CSS px: width and height, else its viewBox."""
    box = (root.get("viewBox") or "").replace(",", " ").split()
    view = None
    if len(box) == 4:
        try:
            view = (float(box[2]), float(box[3]))
        except ValueError:
            view = None
    sizes = [_length(root.get(name)) for name in ("width", "height")]
    if all(sizes):
        return sizes[0], sizes[1]
    if view and view[0] > 0 and view[1] > 0:
        if sizes[0]:
            return sizes[0], sizes[0] * view[1] / view[0]
        if sizes[1]:
            return sizes[1] * view[0] / view[1], sizes[1]
        return view
    raise SvgError("has no size: give the <svg> a viewBox (or width and height)")


def _length(value: str | None) -> float | None:
    match = _LENGTH.match(value or "")
    if not match:
        return None         # missing, a percentage, or em: the viewBox says
    size = float(match.group(1)) * _UNITS[match.group(2) or ""]
    return size if size > 0 else None


# -- drawing --------------------------------------------------------------------------------------

def raster_size(svg: CleanSvg, width: int, height: int, fit: str) -> tuple[int, int]:
    """The pixels an SVG is drawn at to show in a width x height box: scaled to fit inside it
    (`contain`) or to fill it (`cover`, the overflow cropped after)."""
    scale = (max if fit == "cover" else min)(width / svg.width, height / svg.height)
    return max(1, round(svg.width * scale)), max(1, round(svg.height * scale))


def rasterise(svg: CleanSvg, width: int, height: int):
    """The drawing as an RGBA PIL image of exactly width x height pixels (resvg). SvgError when
    its filter effects would take too long at that size."""
    import resvg_py
    from PIL import Image

    from cardgen.paths import fonts_dir

    problem = svg.drawing_problem(width, height)
    if problem:
        raise SvgError(problem)

    try:
        png = resvg_py.svg_to_bytes(svg_string=svg.text, width=width, height=height, skip_system_fonts=True,
                                    font_dirs=[str(fonts_dir())])
    except ValueError as exc:
        raise SvgError(f"cannot be drawn ({exc})") from None
    image = Image.open(io.BytesIO(bytes(png)))
    image.load()
    image = image.convert("RGBA")
    return image if image.size == (width, height) else image.resize((width, height))


def drawing(svg: CleanSvg):
    """The drawing as a ReportLab Drawing of vector shapes (svglib), sized in points."""
    import logging

    from svglib.svglib import svg2rlg

    logging.getLogger("svglib.svglib").setLevel(logging.ERROR)     # (each unsupported attribute, once a draw)
    shapes = svg2rlg(io.BytesIO(svg.text.encode()), resolve_entities=False)
    if shapes is None:
        raise SvgError("cannot be drawn as vector shapes (svglib read nothing)")
    return shapes


def tint_drawing(shapes, colour) -> None:
    """Every filled and stroked shape of a ReportLab Drawing in one colour (an inline icon tinted
    like its text): the silhouette the PNG painter fills through the raster's alpha."""
    from reportlab.lib.colors import Color

    r, g, b, a = (c / 255 for c in colour)
    paint = Color(r, g, b, alpha=a)
    todo = [shapes]
    while todo:
        node = todo.pop()
        for attr in ("fillColor", "strokeColor"):
            if getattr(node, attr, None) is not None:
                setattr(node, attr, paint)
        todo.extend(getattr(node, "contents", ()) or ())
