"""What SVG art and picture icons cost to draw (issue 23): paired rounds in one process, medians.

- art: one card face with a full-width art box, its art an SVG (content/amiibart's Fire Pit Arena,
  gradients and paths) against the same picture as a PNG (resvg's own rendering of it, saved at
  600 x 269 px): the card PNG at 300 dpi, and the face drawn into a PDF page. The painters'
  caches are emptied before every draw, so each row is a first draw (a card drawn again in one
  process reuses the scaled picture).
- icons: a rules text with six icons fitted and painted, the icons picture icons (SVG) against
  font icons (the same text, the icon font's characters).

    PYTHONPATH=. python bench/svg_art.py [--rounds 9]
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "content" / "amiibart" / "art" / "fire-pit-arena.svg"
GEM = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M5 0 10 4 5 10 0 4Z"/></svg>'
TEXT = "Pay {e}{e}: deal 2 to a creature. If it was {s}, draw a card {e}. Then {s}{s} and {e}."


def _clear_caches() -> None:
    from cardgen.render import art, filecache, paint_pdf, paint_png, text

    for clear in filecache._CLEARERS:
        clear()
    art.load_art.cache_clear()
    art.load_svg.cache_clear()
    paint_png.scaled_picture.cache_clear()
    paint_png._LAYERS.clear()
    paint_pdf._IMAGES.clear()
    text._FITTED.clear()


def _pdf(face) -> None:
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.paint_pdf import MM, draw_face

    canvas = Canvas(io.BytesIO(), pagesize=(80 * MM, 100 * MM))
    draw_face(canvas, face, 5 * MM, 95 * MM)
    canvas.showPage()
    canvas.save()


def _time(work) -> float:
    _clear_caches()
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="paired rounds (default: 9)")
    args = parser.parse_args()

    from cardgen.render.display import Face, Picture, Rect
    from cardgen.render.fonts import FontBook
    from cardgen.render.paint_png import encode_png, paint_png
    from cardgen.render.svg import clean_svg, rasterise
    from cardgen.render.text import InlineImage, Style, fit_text

    folder = Path(tempfile.mkdtemp())
    try:
        shutil.copy(SVG, folder / "art.svg")
        rasterise(clean_svg(SVG.read_bytes()), 600, 269).save(folder / "art.png")
        (folder / "gem.svg").write_text(GEM)
        paper = Rect(-3.175, -3.175, 69.85, 95.25, fill=(250, 250, 250, 255))
        faces = {kind: Face(kind, 63.5, 88.9, 3.175,
                            [paper, Picture(3.4, 18.6, 56.7, 25.4, str(folder / f"art.{kind}"))])
                 for kind in ("svg", "png")}
        book = FontBook()
        style = Style(size=9, min_size=6)
        gem = InlineImage(str(folder / "gem.svg"), 1.0)
        icons = {"pictures": {"e": gem, "s": gem}, "font": {"e": "\u26a1", "s": "\u2605"}}

        def text_face(kind):
            runs = fit_text(TEXT, (5, 50, 53.5, 20), style, book, icons[kind], [])
            return Face(kind, 63.5, 88.9, 3.175, [paper, *runs])

        rows = {
            "art: card PNG, SVG art": lambda: encode_png(paint_png(faces["svg"])),
            "art: card PNG, PNG art": lambda: encode_png(paint_png(faces["png"])),
            "art: PDF page, SVG art (vector)": lambda: _pdf(faces["svg"]),
            "art: PDF page, PNG art": lambda: _pdf(faces["png"]),
            "text: fit + card PNG, 6 picture icons": lambda: encode_png(paint_png(text_face("pictures"))),
            "text: fit + card PNG, 6 font icons": lambda: encode_png(paint_png(text_face("font"))),
            "text: fit + PDF page, 6 picture icons": lambda: _pdf(text_face("pictures")),
            "text: fit + PDF page, 6 font icons": lambda: _pdf(text_face("font")),
        }
        for work in rows.values():      # warm up: imports, fonts
            work()
        times: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(args.rounds):
            for name, work in rows.items():
                times[name].append(_time(work))
    finally:
        shutil.rmtree(folder)
    print(f"median of {args.rounds} paired rounds, first draw (caches emptied), ms")
    print(f"| {'what':40} | median | min | max |")
    print(f"|{'-' * 42}|-------:|----:|----:|")
    for name, values in times.items():
        print(f"| {name:40} | {statistics.median(values):6.1f} | {min(values):5.1f} | {max(values):5.1f} |")


if __name__ == "__main__":
    main()
