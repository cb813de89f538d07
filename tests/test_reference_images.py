"""One card of every type of every game, rasterised and compared with a stored reference image.

A layout change that moves, drops or recolours something shows up here. After an intended change,
regenerate the references with CARDGEN_UPDATE_REFERENCES=1 and look at them before committing.
"""

from __future__ import annotations

import os

import pytest
from PIL import Image, ImageChops, ImageStat

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.paint_png import paint_png
from tests.conftest import ROOT

REFERENCES = ROOT / "tests" / "data" / "reference-images"
DPI = 100                  # small references; layout positions still resolve to 0.25 mm
MEAN_TOLERANCE = 1.5       # mean absolute difference per channel (0-255)
PIXEL_TOLERANCE = 0.01     # share of pixels allowed to differ by more than 40
UPDATE = os.environ.get("CARDGEN_UPDATE_REFERENCES") == "1"


def cases():
    for game_id in bundled_game_ids():
        if not (ROOT / "content" / game_id / "layouts.yaml").is_file():
            continue
        game = load_game(game_id)
        for type_id in game.card_types:
            card = next((c for c in game.cards.values() if c.type == type_id), None)
            if card is not None:
                yield pytest.param(game_id, card.name, id=f"{game_id}-{type_id}")


@pytest.mark.parametrize("game_id, card_name", list(cases()))
def test_card_matches_its_reference_image(game_id, card_name):
    game = load_game(game_id)
    card = game.cards[card_name]
    image = paint_png(layout_face(load_layouts(game), card), dpi=DPI)
    path = REFERENCES / f"{game_id}-{card.type}.png"
    if UPDATE:
        image.save(path, optimize=True)
    assert path.is_file(), f"no reference image {path.name}: run with CARDGEN_UPDATE_REFERENCES=1"
    with Image.open(path) as reference:
        assert reference.size == image.size, "the card's size changed"
        diff = ImageChops.difference(reference.convert("RGB"), image)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    # (the histogram: get_flattened_data is Pillow 12.1's, getdata is deprecated there)
    far = sum(diff.convert("L").histogram()[41:]) / (image.width * image.height)
    assert mean <= MEAN_TOLERANCE and far <= PIXEL_TOLERANCE, (
        f"{card_name}: differs from {path.name} (mean {mean:.2f}, {100 * far:.2f}% of pixels far off)")
