"""The pictures of docs/layouts.md's layout features, drawn by cardgen from tests/data/harbour-watch
(so they show what the code does today): turned text and art, outline and shadow, card sizes.
Writes docs/images/layout-*.png (small palette PNGs) and prints a table of what it wrote.

    PYTHONPATH=. python bench/doc_images.py [--into docs/images]
"""

from __future__ import annotations

import argparse
import io
from dataclasses import replace
from pathlib import Path

from PIL import Image

from cardgen.model import load_game
from cardgen.render.layout import layout_back, layout_face, load_layouts
from cardgen.render.paint_png import paint_png

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "tests" / "data" / "harbour-watch"
GAP, BACKGROUND = 16, (255, 255, 255)


def side_by_side(images: list[Image.Image]) -> Image.Image:
    """The images in a row on white, bottoms aligned (cards of two sizes stand on one line)."""
    width = sum(i.width for i in images) + GAP * (len(images) + 1)
    height = max(i.height for i in images) + 2 * GAP
    out = Image.new("RGB", (width, height), BACKGROUND)
    x = GAP
    for image in images:
        out.paste(image, (x, height - GAP - image.height))
        x += image.width + GAP
    return out


def cut(face, dpi: int) -> Image.Image:
    """A face painted and cut at its trim (as it prints)."""
    image = paint_png(face, dpi)
    edge = round(face.bleed * dpi / 25.4)
    return image.crop((edge, edge, image.width - edge, image.height - edge))


def rotate_picture(layouts, game) -> Image.Image:
    """A crew card (its role turned a quarter in a tall box), a ship (its art and name turned) and
    the back (its title turned -30 degrees)."""
    faces = [layout_face(layouts, game.cards["Old Brannock"]), layout_face(layouts, game.cards["The Gull"]),
             layout_back(layouts, "default")]
    return side_by_side([cut(face, 110) for face in faces])


def effects_picture(layouts, game) -> Image.Image:
    """The crew name over its art: plain, with an outline, with an outline and a shadow."""
    style = layouts.styles["name"]
    crops = []
    for outline, shadow in ((None, None), (style.outline, None), (style.outline, style.shadow)):
        layouts.styles["name"] = replace(style, outline=outline, shadow=shadow)
        layouts.fixed.clear()
        face = layout_face(layouts, game.cards["Deckhand Ada"])
        image = cut(face, 220)
        k = 220 / 25.4
        crops.append(image.crop((round(3 * k), round(30 * k), round(50 * k), round(49 * k))))
    layouts.styles["name"] = style
    layouts.fixed.clear()
    return side_by_side(crops)


def sizes_picture(layouts, game) -> Image.Image:
    """A poker crew card beside a tarot ship, at one scale."""
    faces = [layout_face(layouts, game.cards["Deckhand Ada"]), layout_face(layouts, game.cards["The Gull"]),
             layout_back(layouts, "ship")]
    return side_by_side([cut(face, 90) for face in faces])


PICTURES = {"layout-rotate.png": rotate_picture, "layout-outline.png": effects_picture,
            "layout-sizes.png": sizes_picture}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--into", type=Path, default=ROOT / "docs" / "images",
                        help="the folder to write into (default: docs/images)")
    args = parser.parse_args()
    game = load_game(GAME)
    layouts = load_layouts(game)
    print(f"{'file':<22} {'pixels':>11} {'bytes':>8}")
    for name, draw in PICTURES.items():
        image = draw(layouts, game).quantize(colors=96, method=Image.Quantize.MEDIANCUT)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=True)
        (args.into / name).write_bytes(buffer.getvalue())
        print(f"{name:<22} {image.width:>5} x {image.height:<4} {len(buffer.getvalue()):>8}")


if __name__ == "__main__":
    main()
