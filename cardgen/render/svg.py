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


@dataclass(frozen=True)
class CleanSvg:
    """A checked SVG: its text (as read, nothing outside it referred to) and its size in CSS px."""

    text: str
    width: float
    height: float


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
    return CleanSvg(etree.tostring(root, encoding="unicode"), width, height)


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

def rasterise(svg: CleanSvg, width: int, height: int):
    """The drawing as an RGBA PIL image of exactly width x height pixels (resvg)."""
    import resvg_py
    from PIL import Image

    from cardgen.paths import fonts_dir

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
