"""The two painters agree on colour: a face whose items change colour and translucency in every way
the PDF painter tracks, drawn as vector PDF and rasterised, has the same colours as its PNG.

The PDF painter writes its own operators and keeps the fill colour, alphas and line width between
items (and between runs of one text object); a slip there recolours text or makes a watermark
opaque without moving anything, which position tests alone would not notice.
"""

from __future__ import annotations

import io

import pytest

from cardgen.render.display import Face, Line, Polygon, Rect, Run
from cardgen.render.fonts import FontBook
from cardgen.render.paint_pdf import MM, draw_face
from cardgen.render.paint_png import paint_png

DPI = 150
BLOCK = "\u2588\u2588"          # full blocks: solid ink to sample
RED, BLUE, GREEN, INK = (220, 30, 30, 255), (30, 60, 220, 255), (30, 160, 60, 255), (0, 0, 0, 255)
SHADE = (0, 0, 0, 64)           # a watermark: black at a quarter


def swatch_face() -> Face:
    font = FontBook().icon_face()

    def run(x, y, colour, size=30.0):
        return Run(x, y, BLOCK, font.path, font.name, size, colour)

    return Face("swatches", 63.5, 88.9, 3.0, [
        Rect(-3, -3, 69.5, 94.9, fill=(255, 255, 255, 255)),
        run(5, 20, RED), run(35, 20, BLUE),                 # a colour change inside one text object
        run(5, 40, SHADE), run(35, 40, GREEN),              # translucent, then opaque again
        Rect(5, 50, 12, 8, fill=(30, 60, 220, 128)),        # translucent shape after the text
        Rect(35, 50, 12, 8, fill=RED, stroke=INK, stroke_width=0.5),
        run(5, 75, INK, 20.0),                              # text after shapes: colour set again
        Line(35, 70, 55, 70, (30, 160, 60, 255), 2.0),
        Polygon([(35, 78), (55, 78), (45, 86)], fill=(30, 60, 220, 255)),
    ])


SPOTS = {                       # (x, y) in mm from the trim corner, inside each swatch
    "red text": (8, 16), "blue text": (38, 16), "watermark": (8, 36), "green after watermark": (38, 36),
    "translucent rect": (11, 54), "opaque rect": (41, 54), "black text after shapes": (7, 72),
    "green line": (45, 70), "blue polygon": (45, 80),
}


def rasterise_pdf(face: Face):
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    b = face.bleed
    width, height = (face.width + 2 * b) * MM, (face.height + 2 * b) * MM
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(width, height), invariant=1)
    # as a form, drawn twice, as the proxy sheets do: the second copy must not depend on the
    # colour and alpha state the first one left behind
    canvas.beginForm("card", 0, 0, width, height)
    draw_face(canvas, face, b * MM, height - b * MM, clip="bleed")
    canvas.endForm()
    canvas.beginForm("again", 0, 0, width, height)
    draw_face(canvas, face, b * MM, height - b * MM, clip="bleed")
    canvas.endForm()
    canvas.doForm("card")
    canvas.showPage()
    canvas.doForm("again")
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buf.getvalue())
    return [document[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(2)]


@pytest.fixture(scope="module")
def pictures():
    face = swatch_face()
    return paint_png(face, dpi=DPI), rasterise_pdf(face)


@pytest.mark.parametrize("spot", list(SPOTS))
def test_the_pdf_shows_the_colour_the_png_shows(pictures, spot):
    png, pdf_pages = pictures
    x, y = SPOTS[spot]
    k = DPI / 25.4
    at = (round((x + 3.0) * k), round((y + 3.0) * k))
    expected = png.getpixel(at)
    assert expected != (255, 255, 255), f"{spot}: the swatch is not under this spot in the PNG"
    for page, pdf in enumerate(pdf_pages, 1):
        found = pdf.getpixel(at)
        assert all(abs(a - b) <= 12 for a, b in zip(expected, found, strict=True)), (
            f"{spot} (copy {page}): PNG has {expected}, PDF has {found}")
