"""What turned text and outlined, shadowed text cost to paint (issue 23, item 4): one crew card of
tests/data/harbour-watch painted as a 300 dpi PNG and drawn into a PDF page, its name plain, with
an outline, with an outline and a shadow, and its role label turned or not. Paired rounds in one
process, medians; the painters' text caches are emptied before every draw, so each is a first
draw (a card type's labels are cached after the first card).

    PYTHONPATH=. python bench/layout_effects.py [--rounds 9]
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from dataclasses import replace
from pathlib import Path

from cardgen.model import load_game
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.paint_pdf import draw_face
from cardgen.render.paint_png import _LAYERS, _glyph, _run_mask, paint_png

GAME = Path(__file__).resolve().parent.parent / "tests" / "data" / "harbour-watch"


def _variants(layouts, game):
    """name -> face: the card with its name's effects and its role's turn changed."""
    style = layouts.styles["name"]
    role = layouts.types["crew"][4]
    out = {}
    both = (style.outline, style.shadow)
    for label, outline, shadow, turn in (("plain name, role upright", None, None, 0),
                                         ("outlined name", style.outline, None, 0),
                                         ("outline + shadow", *both, 0),
                                         ("outline + shadow, role turned 90", *both, 90),
                                         ("outline + shadow, role turned 30", *both, 30)):
        layouts.styles["name"] = replace(style, outline=outline, shadow=shadow)
        role["rotate"] = turn
        role["at"] = [51, 50, 8.5, 34] if turn == 90 else [6, 50, 43, 8] if not turn else [20, 62, 30, 8]
        layouts.fixed.clear()
        out[label] = layout_face(layouts, game.cards["Deckhand Ada"])
    return out


def _png(face) -> float:
    for cache in (_glyph, _run_mask):
        cache.cache_clear()
    _LAYERS.clear()
    start = time.perf_counter()
    paint_png(face, 300)
    return time.perf_counter() - start


def _pdf(face) -> float:
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO(), pagesize=(200, 300))
    start = time.perf_counter()
    draw_face(canvas, face, 10, 290)
    canvas.showPage()
    canvas.save()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="paired rounds (default: 9)")
    args = parser.parse_args()
    game = load_game(GAME)
    faces = _variants(load_layouts(game), game)
    times = {name: ([], []) for name in faces}
    for _ in range(args.rounds):
        for name, face in faces.items():
            times[name][0].append(_png(face))
            times[name][1].append(_pdf(face))
    print(f"{'Deckhand Ada, first draw':<36} {'PNG ms':>8} {'PDF ms':>8}")
    for name, (png, pdf) in times.items():
        print(f"{name:<36} {statistics.median(png) * 1000:>8.1f} {statistics.median(pdf) * 1000:>8.1f}")


if __name__ == "__main__":
    main()
