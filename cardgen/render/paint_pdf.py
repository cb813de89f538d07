"""Paint a display list into a ReportLab canvas: vector shapes, embedded subset fonts."""

from __future__ import annotations

import io

from cardgen.render import fallback, filecache, shaping
from cardgen.render.art import art_bytes, load_art, load_svg, tinted
from cardgen.render.display import Ellipse, Face, Line, Picture, Polygon, Rect, Run, Turned

MM = 72 / 25.4   # points per millimetre


# The four adjustments below replace ReportLab internals (reportlab.pdfbase.pdfdoc) at run time;
# pyproject keeps ReportLab below its next major version for them. Each first checks that what it
# replaces is still there in the shape it knows; when not, ReportLab is left as it is (the same
# PDF, slower, and for the first one translucent colours in proxy sheets' cards print opaque) and
# one line says so.
def _pdfdoc():
    from reportlab.pdfbase import pdfdoc

    return pdfdoc


def _missing(pdfdoc, *names: str) -> str | None:
    """The first of the dotted names that pdfdoc lacks (or that is not callable), or None."""
    for name in names:
        obj = pdfdoc
        for part in name.split("."):
            obj = getattr(obj, part, None)
        if not callable(obj):
            return f"reportlab.pdfbase.pdfdoc.{name}"
    return None


def _forms_keep_transparency() -> None:
    """ReportLab (5.1) records a form's transparency states and gradients (shadings) but leaves
    them out of the form's resources, so translucent colours drawn inside a form (the proxy sheets
    draw each card once as a form) come out opaque, and an SVG's gradients black. Give forms the
    same ExtGState and Shading resources a page gets (Canvas.endForm hands the form its shadings).
    (docs/upstream/reportlab-form-transparency.md: the report for ReportLab.)"""
    pdfdoc = _pdfdoc()
    missing = _missing(pdfdoc, "PDFFormXObject.format", "PDFResourceDictionary.basicFonts",
                       "PDFResourceDictionary.allProcs", "PDFResourceDictionary.setShading")
    if missing:
        fallback.notice("ReportLab", missing)
        return
    if getattr(pdfdoc.PDFFormXObject, "_cardgen_extgstate", False):
        return
    from reportlab.pdfgen.canvas import Canvas

    original, end_form = pdfdoc.PDFFormXObject.format, Canvas.endForm

    def format(self, document):
        shadings = getattr(self, "_cardgen_shadings", None)
        if not self.Resources and (getattr(self, "ExtGState", None) or shadings):
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            if self.hasImages:
                resources.allProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            if getattr(self, "ExtGState", None):
                resources.ExtGState = self.ExtGState
            if shadings:
                resources.setShading(shadings)
            self.Resources = resources
        return original(self, document)

    def endForm(self, **extra):
        extra.setdefault("_cardgen_shadings", dict(getattr(self, "_shadingUsed", None) or {}))
        return end_form(self, **extra)

    pdfdoc.PDFFormXObject.format = format
    pdfdoc.PDFFormXObject._cardgen_extgstate = True
    Canvas.endForm = endForm


def _deflate_fast() -> None:
    """ReportLab deflates every stream (pages, card forms, font subsets) with zlib's default
    level, which was most of the time spent saving a proxy sheet. Level 1 of cardgen's deflate
    (cardgen.render.deflate) is many times faster for a few per cent more bytes."""
    pdfdoc = _pdfdoc()
    missing = _missing(pdfdoc, "PDFZCompress.encode")
    if missing:
        fallback.notice("ReportLab", missing)
        return
    if getattr(pdfdoc.PDFZCompress, "_cardgen_fast", False):
        return
    from cardgen.render.deflate import deflater as deflate

    def encode(text):
        return deflate.compress(text.encode("utf-8") if isinstance(text, str) else text, 1)   # as ReportLab

    pdfdoc.PDFZCompress.encode = encode
    pdfdoc.PDFZCompress._cardgen_fast = True


def _encode_fast() -> None:
    """ReportLab turns each content stream (text) into bytes with its PDFDocEncoding codec, a
    character map that took a tenth of the time spent drawing the card forms. Our streams are
    ASCII, where that encoding is ASCII except for the control characters 24-31: such text is
    encoded as ASCII (the same bytes, 100x faster) and anything else goes to ReportLab's codec."""
    import re

    pdfdoc = _pdfdoc()
    missing = _missing(pdfdoc, "pdfdocEnc")
    if missing:
        fallback.notice("ReportLab", missing)
        return
    if getattr(pdfdoc.pdfdocEnc, "_cardgen_fast", False):
        return
    original, differs = pdfdoc.pdfdocEnc, re.compile("[\x18-\x1f]").search

    def encode(text):
        if isinstance(text, str) and text.isascii() and not differs(text):
            return text.encode("ascii")
        return original(text)

    encode._cardgen_fast = True
    pdfdoc.pdfdocEnc = encode


def _names_memoised() -> None:
    """ReportLab escapes every dictionary key of the document character by character each time it
    is written (a few thousand times per proxy sheet, for a handful of distinct names). The escape
    is a pure function of the name, so it is worked out once per name."""
    from functools import lru_cache

    pdfdoc = _pdfdoc()
    missing = _missing(pdfdoc, "PDFName")
    if missing:
        fallback.notice("ReportLab", missing)
        return
    if hasattr(pdfdoc.PDFName, "cache_info"):
        return
    pdfdoc.PDFName = lru_cache(maxsize=4096)(pdfdoc.PDFName)


def prepare_reportlab() -> None:
    """Our adjustments to ReportLab: translucent colours inside forms, faster deflate, encoding and
    names."""
    _forms_keep_transparency()
    _deflate_fast()
    _encode_fast()
    _names_memoised()


_REGISTERED: set[str] = set()
_IMAGES: dict = {}
filecache.on_change(_REGISTERED.clear)
filecache.on_change(_IMAGES.clear)


def register_font(name: str, path: str) -> None:
    if name in _REGISTERED:
        return
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    filecache.seen(path)
    pdfmetrics.registerFont(TTFont(name, path))     # (registering a name again replaces the font)
    _REGISTERED.add(name)


def shaped_text(item: Run) -> tuple[str, str]:
    """What a run writes into the text object, and the marked-content start that gives its
    ligatures their letters back ("" when none is needed).

    The glyphs are placed where the layout shaped them (cardgen/render/shaping.py), through
    ReportLab's own shaped strings (ttfonts.ShapedStr, ReportLab >= 4.0.5): each glyph's position
    goes into a TJ array beside it, so a kerned word stays one string that a reader selects and
    searches. A glyph no character maps to (a ligature) is written with a private-use character
    ReportLab maps to it; /ActualText around the run makes copying and searching read the run's
    own text. A run whose glyphs are its characters at their own advances is written as plain text.
    """
    shaped = shaping.glyphs(item.font, item.text)
    if shaped.plain:
        return item.text, ""
    try:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr

        font = pdfmetrics.getFont(item.font_name)
        if not font.shapable:
            raise ValueError("the font cannot be shaped (uharfbuzz not found by ReportLab)")
        font.hbFont()                       # (sets up hbAddPrivate, for glyphs without a character)
        to_char, widths, scale = font.face.glyphToChar, font.face.charWidths, font.pdfScale
        chars, data = [], []
        ends = [x for _g, x, _y in shaped.glyphs[1:]] + [shaped.advance]
        for i, ((glyph, x, y), end) in enumerate(zip(shaped.glyphs, ends, strict=True)):
            own = shaping.character_of(item.font, glyph)
            code = ord(own) if own else to_char[glyph][0] if to_char.get(glyph) else font.hbAddPrivate(
                f"cg{glyph}", glyph, end - x)
            chars.append(chr(code))
            data.append(ShapeData(i, scale(end - x), 0, 0, scale(y), widths[code]))
    except Exception as exc:            # anything at all: the text unshaped, as before
        fallback.notice("ReportLab", "ttfonts.ShapedStr (shaped text)", exc)
        return item.text, ""
    actual = ""
    if "".join(chars) != item.text:          # a ligature, or a glyph standing for other letters
        actual = f"/Span <</ActualText <FEFF{item.text.encode('utf-16-be').hex().upper()}>>> BDC"
    return ShapedStr("".join(chars), shapeData=data), actual


KAPPA = 0.5522847498   # control-point distance of a Bezier quarter circle, as a fraction of its radius


# Numbers in the content stream have two decimals: 1/100 pt (0.0035 mm) is far below what a printer
# shows.
_RGB: dict = {}


def _rgb(r: int, g: int, b: int) -> str:
    """A colour as the stream's three numbers (0-1), worked out once per colour."""
    text = _RGB.get((r, g, b))
    if text is None:
        text = _RGB[r, g, b] = f"{r / 255:.2f} {g / 255:.2f} {b / 255:.2f}"
    return text


class _Literal:
    """The canvas's stream through its public addLiteral, for a ReportLab whose Canvas._code changed."""

    def __init__(self, canvas):
        self.append = canvas.addLiteral


_FAST_CANVAS: dict = {}


def fast_canvas(canvas) -> bool:
    """Whether the fast drawing can write into this ReportLab canvas: its stream is the list
    Canvas._code and text objects have the same, with _textOut (the bytes of textOut without its
    measuring). When not, faces are drawn with addLiteral, setFillColorRGB and textOut (public),
    with a notice: the same page, slower."""
    kind = type(canvas)
    fast = _FAST_CANVAS.get(kind)
    if fast is None:
        text = canvas.beginText()
        missing = next((name for name, ok in (
            ("Canvas._code", isinstance(getattr(canvas, "_code", None), list)),
            ("PDFTextObject._code", isinstance(getattr(text, "_code", None), list)),
            ("PDFTextObject._textOut", callable(getattr(text, "_textOut", None))),
        ) if not ok), None)
        if missing:
            fallback.notice("ReportLab", missing)
        fast = _FAST_CANVAS[kind] = missing is None
    return fast


class _Pen:
    """Writes shapes as PDF operators and sets colours, alphas and line widths only when they change.

    ReportLab's path and colour objects cost more Python time than drawing itself; a card has
    a few dozen items, and every distinct card is drawn once per document as a form.
    """

    def __init__(self, canvas, fast: bool = True):
        self.canvas = canvas
        # the stream under construction (what addLiteral appends to)
        self.code = canvas._code if fast else _Literal(canvas)
        self.out = self.code               # where colours go: the stream, or the open text object
        self.fill = self.stroke = self.width = None
        self.fill_alpha = self.stroke_alpha = None
        # a CMYK document (print-on-demand singles for a shop's profile): colours as k/K operands
        self.cmyk = getattr(canvas, "cardgen_cmyk", None)

    def set_fill(self, colour) -> None:
        r, g, b, a = colour
        if (r, g, b) != self.fill:
            self.fill = (r, g, b)
            self.out.append(f"{self.cmyk.operands(r, g, b)} k" if self.cmyk else f"{_rgb(r, g, b)} rg")
        if a != self.fill_alpha:
            self.fill_alpha = a
            self.canvas.setFillAlpha(a / 255)

    def set_stroke(self, colour, width: float) -> None:
        r, g, b, a = colour
        if (r, g, b) != self.stroke:
            self.stroke = (r, g, b)
            self.code.append(f"{self.cmyk.operands(r, g, b)} K" if self.cmyk else f"{_rgb(r, g, b)} RG")
        if a != self.stroke_alpha:
            self.stroke_alpha = a
            self.canvas.setStrokeAlpha(a / 255)
        if width != self.width:
            self.width = width
            self.code.append(f"{width:.2f} w")

    def paint(self, item) -> str:
        """Set up fill and stroke for a shape; the operator that paints its path."""
        if item.fill:
            self.set_fill(item.fill)
        if item.stroke:
            self.set_stroke(item.stroke, item.stroke_width * MM)
        return ("B" if item.fill else "S") if item.stroke else ("f" if item.fill else "n")


# Paths as one format string each: a single %-format of many numbers costs a fraction of formatting
# them one by one (a proxy sheet draws every distinct card's shapes once).
_ROUND_RECT = ("%.2f %.2f m %.2f %.2f l %.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f l "
               "%.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f l %.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f l "
               "%.2f %.2f %.2f %.2f %.2f %.2f c h")
_ELLIPSE = ("%.2f %.2f m %.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f %.2f %.2f %.2f %.2f c "
            "%.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f %.2f %.2f %.2f %.2f c h")


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    r = min(r, w / 2, h / 2)
    k = r * KAPPA
    right, top = x + w, y + h
    return _ROUND_RECT % (
        x + r, y, right - r, y,
        right - r + k, y, right, y + r - k, right, y + r, right, top - r,
        right, top - r + k, right - r + k, top, right - r, top, x + r, top,
        x + r - k, top, x, top - r + k, x, top - r, x, y + r,
        x, y + r - k, x + r - k, y, x + r, y)


def _ellipse(x: float, y: float, w: float, h: float) -> str:
    rx, ry = w / 2, h / 2
    cx, cy = x + rx, y + ry
    kx, ky = rx * KAPPA, ry * KAPPA
    return _ELLIPSE % (
        cx + rx, cy,
        cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry,
        cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy,
        cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry,
        cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)


def _polygon(points, X, Y) -> str:
    (x0, y0), *rest = points
    numbers = [v for x, y in rest for v in (X(x), Y(y))]
    return f"{X(x0):.2f} {Y(y0):.2f} m {' '.join(['%.2f %.2f l'] * len(rest)) % tuple(numbers)} h"


def draw_face(canvas, face: Face, left: float, top: float, clip: str = "bleed") -> None:
    """Draw `face` with its trim box's top-left corner at (left, top) in points (PDF y grows up).

    clip: "bleed" keeps the bleed, "trim" cuts the face at the trim line, "none" draws all.
    """
    prepare_reportlab()
    fast = fast_canvas(canvas)
    canvas.saveState()
    b = face.bleed
    if clip != "none":
        margin = b if clip == "bleed" else 0.0
        path = canvas.beginPath()
        path.rect(left - margin * MM, top - (face.height + margin) * MM, (face.width + 2 * margin) * MM,
                  (face.height + 2 * margin) * MM)
        canvas.clipPath(path, stroke=0, fill=0)
    pen = _Pen(canvas, fast)
    code = pen.code
    text = None          # consecutive runs share one text object (BT ... ET)
    font = None

    def X(x: float) -> float:
        return left + x * MM

    def Y(y: float) -> float:
        return top - y * MM

    for item in face.items:
        if isinstance(item, (Turned, Run)) and (isinstance(item, Turned) or item.outline):
            if text is not None:
                canvas.drawText(text)
                text, pen.out = None, code
            (_draw_turned if isinstance(item, Turned) else _draw_outline)(canvas, item, left, top)
            pen = _Pen(canvas, fast)             # its own save/restore: the state is unknown
            code = pen.code
            continue
        if isinstance(item, Run):
            register_font(item.font_name, item.font)
            # an alpha change is a graphics-state operator: it goes between text objects, not
            # inside one (and without the text object's stream, so does a colour change)
            if text is not None and (item.colour[3] != pen.fill_alpha
                                     or not fast and tuple(item.colour[:3]) != pen.fill):
                canvas.drawText(text)
                text, pen.out = None, code
            if text is None:
                pen.set_fill(item.colour)        # colour and alpha before BT
                text, font = canvas.beginText(), None
                pen.out = text._code if fast else None
            else:
                pen.set_fill(item.colour)        # a colour change inside the text object
            if (item.font_name, item.size) != font:
                font = (item.font_name, item.size)
                text.setFont(item.font_name, item.size)
            text.setTextOrigin(X(item.x), Y(item.y))
            shaped, actual = shaped_text(item)
            if fast:
                # textOut's bytes, without measuring the text to move the cursor: the next run
                # sets its own origin; /ActualText goes around them inside the text object
                if actual:
                    text._code.append(actual)
                text._textOut(shaped)
                if actual:
                    text._code.append("EMC")
            else:
                text.textOut(shaped)
            continue
        if text is not None:
            canvas.drawText(text)
            text, pen.out = None, code
        if isinstance(item, Rect):
            op = pen.paint(item)
            x, y, w, h = X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM
            if item.radius > 0:
                code.append(f"{_round_rect(x, y, w, h, item.radius * MM)} {op}")
            else:
                code.append(f"{x:.2f} {y:.2f} {w:.2f} {h:.2f} re {op}")
        elif isinstance(item, Line):
            pen.set_stroke(item.colour, item.width * MM)
            code.append(f"{X(item.x1):.2f} {Y(item.y1):.2f} m {X(item.x2):.2f} {Y(item.y2):.2f} l S")
        elif isinstance(item, Ellipse):
            op = pen.paint(item)
            code.append(f"{_ellipse(X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM)} {op}")
        elif isinstance(item, Polygon):
            op = pen.paint(item)
            code.append(f"{_polygon(item.points, X, Y)} {op}")
        elif isinstance(item, Picture):
            _draw_picture(canvas, item, X(item.x), Y(item.y + item.h))
            pen = _Pen(canvas, fast)             # the picture's own save/restore: state unknown
            code = pen.code
    if text is not None:
        canvas.drawText(text)
    canvas.restoreState()


def _draw_turned(canvas, item: Turned, left: float, top: float) -> None:
    """Turned items: drawn as any others, in a coordinate system turned about their centre."""
    cx, cy = left + item.cx * MM, top - item.cy * MM
    canvas.saveState()
    canvas.translate(cx, cy)
    canvas.rotate(-item.angle)          # (PDF turns anticlockwise, y up; ours clockwise, y down)
    canvas.translate(-cx, -cy)
    draw_face(canvas, Face("turned", 0.0, 0.0, 0.0, list(item.items)), left, top, clip="none")
    canvas.restoreState()


def _draw_outline(canvas, item: Run, left: float, top: float) -> None:
    """An outline run: its glyphs stroked (text render mode 1) with round joins, the line twice
    the outline's width, as the stroke is centred on the glyph's edge; the letters drawn after it
    cover its inner half. (Mode 2, fill then stroke, would paint that half over the letters.)"""
    from dataclasses import replace

    canvas.saveState()
    r, g, b, a = item.colour
    canvas.setStrokeColorRGB(r / 255, g / 255, b / 255, alpha=a / 255)
    canvas.setLineWidth(2 * item.outline * MM)
    canvas.setLineJoin(1)
    canvas.addLiteral("1 Tr")           # (text state: kept across the text objects until restored)
    draw_face(canvas, Face("outline", 0.0, 0.0, 0.0, [replace(item, outline=0.0)]), left, top, clip="none")
    canvas.restoreState()


def _draw_picture(canvas, item: Picture, left: float, bottom: float) -> None:
    """Like the PNG painter: `contain` fits the image inside the box, `cover` fills it and crops.
    An SVG is drawn as vector shapes; a tinted picture as its silhouette in the tint colour."""
    cmyk = getattr(canvas, "cardgen_cmyk", None)
    drawn = _IMAGES.get((item.path, item.tint, cmyk))
    if drawn is None:
        filecache.seen(item.path)
        drawn = _IMAGES[item.path, item.tint, cmyk] = (_readable(item) if cmyk is None
                                                       else _cmyk_readable(item, cmyk))
    vector = not hasattr(drawn, "getSize")
    iw, ih = (drawn.width, drawn.height) if vector else drawn.getSize()
    bw, bh = item.w * MM, item.h * MM
    scale = (max if item.fit == "cover" else min)(bw / iw, bh / ih)
    w, h = iw * scale, ih * scale
    canvas.saveState()
    if item.fit == "cover":
        path = canvas.beginPath()
        path.rect(left, bottom, bw, bh)
        canvas.clipPath(path, stroke=0, fill=0)
    x, y = left + (bw - w) / 2, bottom + (bh - h) / 2
    if not vector:
        canvas.drawImage(drawn, x, y, w, h, mask="auto")
    else:
        from reportlab.graphics import renderPDF

        canvas.translate(x, y)
        canvas.scale(scale, scale)
        renderPDF.draw(drawn, canvas, 0, 0, showBoundary=False)
    canvas.restoreState()


def _cmyk_readable(item: Picture, cmyk):
    """_readable for a CMYK document: raster art through the shop's profile, its alpha kept as
    the soft mask (SVG shapes' colours go through the canvas's enforceColorSpace)."""
    from reportlab.lib.utils import ImageReader

    drawn = _readable(item)
    if not hasattr(drawn, "getSize"):
        return drawn
    image, alpha = cmyk.image(tinted(load_art(item.path), item.tint) if item.tint is not None
                              else load_art(item.path))

    class WithAlpha(ImageReader):
        def getRGBData(self):   # ReportLab takes the soft mask from _dataA, which this call resets
            data = super().getRGBData()
            self._dataA = ImageReader(alpha) if alpha is not None else None
            return data

    return WithAlpha(image)


def _readable(item: Picture):
    """What ReportLab draws for a picture: an ImageReader (raster; JPEG kept as it is), or a
    Drawing of vector shapes (SVG)."""
    from reportlab.lib.utils import ImageReader

    svg = load_svg(item.path)
    if svg is not None:
        from cardgen.render.svg import drawing, tint_drawing

        shapes = drawing(svg)
        if item.tint is not None:
            tint_drawing(shapes, item.tint)
        return shapes
    if item.tint is not None:
        return ImageReader(tinted(load_art(item.path), item.tint))
    return ImageReader(io.BytesIO(art_bytes(item.path)))
