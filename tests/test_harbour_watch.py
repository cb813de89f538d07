"""The test game of issue 23's layout features (tests/data/harbour-watch): SVG art, a picture icon
in card text, turned text and pictures, outlined and shadowed names, and two card sizes (poker
crew, tarot ships), built whole by `cardgen build`: card PNGs and backs at their sizes, proxy
sheets with each size on its own pages, one Tabletop Simulator deck per size, the site showing
each card at its size, the rulebook."""

from __future__ import annotations

import json
import re
import shutil

import pypdf
import pytest
from PIL import Image

from cardgen import cli
from cardgen.render.layout import CARD_SIZES
from tests.conftest import ROOT

POKER, TAROT = CARD_SIZES["poker"], CARD_SIZES["tarot"]
BLEED = 3.175


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("watch")
    folder = tmp / "harbour-watch"
    shutil.copytree(ROOT / "tests" / "data" / "harbour-watch", folder)
    assert cli.main(["build", str(folder), "--out", str(tmp / "out")]) == 0
    return tmp / "out" / "harbour-watch"


def _px(mm: float) -> int:
    return round(mm * 300 / 25.4)


def test_cards_and_backs_are_drawn_at_their_types_sizes(built):
    for name, size in (("cards/deckhand-ada.png", POKER), ("cards/the-gull.png", TAROT),
                       ("backs/default.png", POKER), ("backs/ship.png", TAROT)):
        with Image.open(built / name) as image:
            assert image.size == (_px(size[0] + 2 * BLEED), _px(size[1] + 2 * BLEED)), name


def test_the_svg_art_and_the_picture_icon_are_drawn(built):
    with Image.open(built / "cards" / "deckhand-ada.png") as card:
        card = card.convert("RGB")
        # the portrait's sun (#f7d774) in the SVG's top right, and its sea below
        assert card.getpixel((_px(BLEED + 4 + 55.5 * 128 / 160), _px(BLEED + 4 + 44 * 22 / 100))) == \
            pytest.approx((247, 215, 116), abs=6)
    with Image.open(built / "cards" / "the-gull.png") as ship:
        ship = ship.convert("RGB")
        # the art is turned a quarter: its sky (#bcd8ee) now on the right of the box, the sea left
        assert ship.getpixel((_px(BLEED + 16 + 40), _px(BLEED + 40))) == pytest.approx((188, 216, 238), abs=6)
        assert ship.getpixel((_px(BLEED + 16 + 3), _px(BLEED + 40))) == pytest.approx((43, 93, 134), abs=6)


def test_proxy_sheets_print_each_size_on_its_own_pages(built):
    for paper in ("letter", "a4"):
        reader = pypdf.PdfReader(built / f"proxies-{paper}.pdf")
        assert len(reader.pages) == 4              # crew faces, backs; ship face, back
        text = [page.extract_text() for page in reader.pages]
        assert "63.5 x 88.9 mm" in text[0] and "69.85 x 120.65 mm" in text[2]


def test_tabletop_simulator_has_a_deck_of_each_size(built):
    data = json.loads((built / "tts" / "harbour-watch.json").read_text())
    names = [obj["Nickname"] for obj in data["ObjectStates"]]
    assert names == ["Harbour Watch (63.5 x 88.9 mm)", "The Gull"]
    files = sorted(p.name for p in (built / "tts").iterdir() if not p.name.startswith("."))
    assert files == ["harbour-watch-back-default.jpg", "harbour-watch-back-ship-69_85x120_65.jpg",
                     "harbour-watch-faces-1.jpg", "harbour-watch-faces-2.jpg", "harbour-watch.json"]


def test_the_site_shows_each_card_at_its_size(built):
    crew = (built / "site" / "card" / "deckhand-ada.html").read_text()
    ship = (built / "site" / "card" / "the-gull.html").read_text()
    scale = re.search(r'alt="Deckhand Ada" style="width: ([0-9.]+)%"', crew)
    assert scale and float(scale.group(1)) == pytest.approx(100 * POKER[0] / TAROT[0], abs=0.01)
    assert 'alt="The Gull" style=' not in ship
    script = (built / "site" / "cards.js").read_text()
    cards = json.loads(script.removeprefix("window.CARDGEN = ").rstrip(";\n"))
    assert {c["name"]: c["scale"] for c in cards["cards"]}["The Gull"] == 100.0
    assert (built / "rulebook.pdf").is_file()
