"""Paint a display list into a ReportLab canvas: vector shapes, embedded subset fonts."""

from __future__ import annotations

from cardgen.render.display import Ellipse, Face, Line, Picture, Polygon, Rect, Run

MM = 72 / 25.4   # points per millimetre


def _forms_keep_transparency() -> None:
    """ReportLab (5.1) records a form's transparency states but leaves them out of the form's
    resources, so translucent colours drawn inside a form (the proxy sheets draw each card once as
    a form) come out opaque. Give forms the same ExtGState resources a page gets."""
    from reportlab.pdfbase import pdfdoc

    if getattr(pdfdoc.PDFFormXObject, "_cardgen_extgstate", False):
        return
    original = pdfdoc.PDFFormXObject.format

    def format(self, document):
        if not self.Resources and getattr(self, "ExtGState", None):
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            if self.hasImages:
                resources.allProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            resources.ExtGState = self.ExtGState
            self.Resources = resources
        return original(self, document)

    pdfdoc.PDFFormXObject.format = format
    pdfdoc.PDFFormXObject._cardgen_extgstate = True
_REGISTERED: set[str] = set()
_IMAGES: dict = {}


def register_font(name: str, path: str) -> None:
    if name in _REGISTERED:
        return
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont(name, path))
    _REGISTERED.add(name)


def _colour(canvas, colour, fill: bool) -> None:
    r, g, b, a = colour
    if fill:
        canvas.setFillColorRGB(r / 255, g / 255, b / 255, alpha=a / 255)
    else:
        canvas.setStrokeColorRGB(r / 255, g / 255, b / 255, alpha=a / 255)


def _set_paint(canvas, item) -> tuple[int, int]:
    """Set fill and stroke for a shape; returns ReportLab's (stroke, fill) flags."""
    if item.fill:
        _colour(canvas, item.fill, True)
    if item.stroke:
        _colour(canvas, item.stroke, False)
        canvas.setLineWidth(item.stroke_width * MM)
    return int(bool(item.stroke)), int(bool(item.fill))


def draw_face(canvas, face: Face, left: float, top: float, clip: str = "bleed") -> None:
    """Draw `face` with its trim box's top-left corner at (left, top) in points (PDF y grows up).

    clip: "bleed" keeps the bleed, "trim" cuts the face at the trim line, "none" draws all.
    """
    _forms_keep_transparency()
    canvas.saveState()
    b = face.bleed
    if clip != "none":
        margin = b if clip == "bleed" else 0.0
        path = canvas.beginPath()
        path.rect(left - margin * MM, top - (face.height + margin) * MM, (face.width + 2 * margin) * MM,
                  (face.height + 2 * margin) * MM)
        canvas.clipPath(path, stroke=0, fill=0)

    def X(x: float) -> float:
        return left + x * MM

    def Y(y: float) -> float:
        return top - y * MM

    for item in face.items:
        if isinstance(item, Rect):
            stroke, fill = _set_paint(canvas, item)
            args = (X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM)
            if item.radius > 0:
                canvas.roundRect(*args, item.radius * MM, stroke=stroke, fill=fill)
            else:
                canvas.rect(*args, stroke=stroke, fill=fill)
        elif isinstance(item, Run):
            register_font(item.font_name, item.font)
            _colour(canvas, item.colour, True)
            canvas.setFont(item.font_name, item.size)
            canvas.drawString(X(item.x), Y(item.y), item.text)
        elif isinstance(item, Line):
            _colour(canvas, item.colour, False)
            canvas.setLineWidth(item.width * MM)
            canvas.line(X(item.x1), Y(item.y1), X(item.x2), Y(item.y2))
        elif isinstance(item, Ellipse):
            stroke, fill = _set_paint(canvas, item)
            canvas.ellipse(X(item.x), Y(item.y + item.h), X(item.x + item.w), Y(item.y),
                           stroke=stroke, fill=fill)
        elif isinstance(item, Polygon):
            stroke, fill = _set_paint(canvas, item)
            path = canvas.beginPath()
            first, *rest = item.points
            path.moveTo(X(first[0]), Y(first[1]))
            for x, y in rest:
                path.lineTo(X(x), Y(y))
            path.close()
            canvas.drawPath(path, stroke=stroke, fill=fill)
        elif isinstance(item, Picture):
            _draw_picture(canvas, item, X(item.x), Y(item.y + item.h))
    canvas.restoreState()


def _draw_picture(canvas, item: Picture, left: float, bottom: float) -> None:
    """Like the PNG painter: `contain` fits the image inside the box, `cover` fills it and crops."""
    from reportlab.lib.utils import ImageReader

    reader = _IMAGES.get(item.path)
    if reader is None:
        reader = _IMAGES[item.path] = ImageReader(item.path)
    iw, ih = reader.getSize()
    bw, bh = item.w * MM, item.h * MM
    scale = (max if item.fit == "cover" else min)(bw / iw, bh / ih)
    w, h = iw * scale, ih * scale
    canvas.saveState()
    if item.fit == "cover":
        path = canvas.beginPath()
        path.rect(left, bottom, bw, bh)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.drawImage(reader, left + (bw - w) / 2, bottom + (bh - h) / 2, w, h, mask="auto")
    canvas.restoreState()
