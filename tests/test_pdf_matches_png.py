"""The two painters agree on colour: a face whose items change colour and translucency in every way
the PDF painter tracks, drawn as vector PDF and rasterised, has the same colours as its PNG.

The PDF painter writes its own operators and keeps the fill colour, alphas and line width between
items (and between runs of one text object); a slip there recolours text or makes a watermark
opaque without moving anything, which position tests alone would not notice.

Shaped text (kerning, ligatures) puts each glyph at the same place in both, and where shaping put
it: the PNG draws glyph by glyph, the PDF through TJ arrays.
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
    expected = _same_colour_at(pictures, SPOTS[spot], spot, 12)
    assert expected != (255, 255, 255), f"{spot}: the swatch is not under this spot in the PNG"


def _same_colour_at(pictures, spot_mm, spot: str, tolerance: int):
    """The PNG's colour at a spot (mm from the trim corner), checked against each PDF copy's."""
    png, pdf_pages = pictures
    x, y = spot_mm
    k = DPI / 25.4
    at = (round((x + 3.0) * k), round((y + 3.0) * k))
    expected = png.getpixel(at)
    for page, pdf in enumerate(pdf_pages, 1):
        found = pdf.getpixel(at)
        assert all(abs(a - b) <= tolerance for a, b in zip(expected, found, strict=True)), (
            f"{spot} (copy {page}): PNG has {expected}, PDF has {found}")
    return expected


# -- SVG art and inline icons: drawn by resvg in the PNG, as vector shapes by svglib in the PDF ----

ART_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient>
    <radialGradient id="r" gradientUnits="userSpaceOnUse" cx="150" cy="75" r="40">
    <stop offset="0" stop-color="#ffff00"/><stop offset="1" stop-color="#008000"/></radialGradient></defs>
  <rect width="200" height="50" fill="url(#g)"/>
  <rect y="50" width="100" height="50" fill="#1e3cdc" fill-opacity="0.5"/>
  <circle cx="150" cy="75" r="25" fill="url(#r)"/>
  <path d="M10 90 L40 60 L70 90 Z" fill="none" stroke="#000" stroke-width="6"/>
</svg>"""
ICON_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
  <circle cx="5" cy="5" r="5" fill="#00aa00"/></svg>"""


@pytest.fixture(scope="module")
def svg_pictures(tmp_path_factory):
    from cardgen.render.display import Picture

    folder = tmp_path_factory.mktemp("svg")
    (folder / "art.svg").write_text(ART_SVG)
    (folder / "icon.svg").write_text(ICON_SVG)
    face = Face("svg art", 63.5, 88.9, 3.0, [
        Rect(-3, -3, 69.5, 94.9, fill=(255, 255, 255, 255)),
        Picture(5, 5, 50, 25, str(folder / "art.svg"), "cover"),        # the box's shape: no crop
        Picture(5, 35, 50, 40, str(folder / "art.svg"), "contain"),     # letterboxed, centred
        Picture(5, 78, 8, 8, str(folder / "icon.svg"), "contain", tint=RED),    # an icon like its text
        Picture(20, 78, 8, 8, str(folder / "icon.svg"), "contain"),              # in its own colour
    ])
    # As a proxy sheet draws it: the gradients inside a form need the form's own Shading resources
    return paint_png(face, dpi=DPI), rasterise_pdf(face)


SVG_SPOTS = {
    "gradient, red end": (7, 8), "gradient, middle": (30, 8), "gradient, blue end": (53, 8),
    "half-transparent blue": (10, 25), "radial centre": (42.5, 23.75), "radial rim": (42.5 + 5.5, 23.75),
    "stroke": (12.5, 27.2), "contained gradient": (30, 47), "letterbox stays white": (30, 38),
    "tinted icon": (9, 82), "icon in its own colours": (24, 82),
}


@pytest.mark.parametrize("spot", list(SVG_SPOTS))
def test_svg_art_and_icons_show_the_same_in_the_pdf_as_in_the_png(svg_pictures, spot):
    _same_colour_at(svg_pictures, SVG_SPOTS[spot], spot, 16)


def test_svg_art_as_a_whole_differs_little_between_pdf_and_png(svg_pictures):
    """Beyond the spots: the mean difference of every pixel (edges antialias differently)."""
    from PIL import ImageChops, ImageStat

    png, pdf_pages = svg_pictures
    for pdf in pdf_pages:
        assert ImageStat.Stat(ImageChops.difference(png, pdf).convert("L")).mean[0] < 2.0


# -- shaped text: kerning and ligatures at the same places in both ---------------------------------

def shaped_face() -> Face:
    book = FontBook()
    slab, barlow = book.face("Alfa Slab One"), book.face("Barlow Condensed")
    return Face("shaped", 63.5, 88.9, 3.0, [
        Rect(-3, -3, 69.5, 94.9, fill=(255, 255, 255, 255)),
        Run(4, 20, "AVATAR Tower", slab.path, slab.name, 20.0, INK),          # kerned pairs
        Run(4, 45, "office AVATAR fly", barlow.path, barlow.name, 22.0, INK),  # ligatures and kerning
    ])


def _pdf_bytes(face: Face) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    b = face.bleed
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=((face.width + 2 * b) * MM, (face.height + 2 * b) * MM), invariant=1)
    draw_face(canvas, face, b * MM, (face.height + b) * MM)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _ink_columns(image, top_mm: float, bottom_mm: float) -> set[int]:
    """The pixel columns with ink (darker than mid-grey) between two heights."""
    k = DPI / 25.4
    band = image.convert("L").crop((0, round((top_mm + 3) * k), image.width, round((bottom_mm + 3) * k)))
    return {x for x in range(band.width) if band.crop((x, 0, x + 1, band.height)).getextrema()[0] < 128}


@pytest.mark.parametrize("band", [(12, 21), (37, 46)])
def test_shaped_text_has_its_glyphs_at_the_same_places_in_the_pdf_and_the_png(band):
    """Every column with ink in one has ink within a pixel in the other (kerning moves glyphs by
    several pixels at this size: a painter that placed them unkerned would leave gaps unmatched)."""
    face = shaped_face()
    png, pdf = _ink_columns(paint_png(face, dpi=DPI), *band), _ink_columns(rasterise_pdf(face)[0], *band)
    assert len(png) > 100
    near = {x + d for x in pdf for d in (-1, 0, 1)}
    near_png = {x + d for x in png for d in (-1, 0, 1)}
    assert not png - near and not pdf - near_png, (sorted(png - near), sorted(pdf - near_png))


def test_the_pdf_places_each_glyph_where_shaping_put_it_and_keeps_the_text():
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    from cardgen.render.fonts import load_face
    from cardgen.render.shaping import glyphs

    face = shaped_face()
    page = pdfium.PdfDocument(_pdf_bytes(face))[0]
    text = page.get_textpage()
    assert text.get_text_range().split() == ["AVATAR", "Tower", "office", "AVATAR", "fly"]   # searchable
    kerned = face.items[1]
    font = load_face(kerned.font)
    expected = [kerned.x + x / font.upem * kerned.size * 25.4 / 72
                for _g, x, _y in glyphs(kerned.font, kerned.text).glyphs]
    x, y = ctypes.c_double(), ctypes.c_double()
    found = []
    for i in range(len(kerned.text)):
        raw.FPDFText_GetCharOrigin(text.raw, i, ctypes.byref(x), ctypes.byref(y))
        found.append(x.value / MM - face.bleed)
    assert found == pytest.approx(expected, abs=0.02)
