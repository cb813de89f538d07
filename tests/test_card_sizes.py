"""Card types of their own size (layouts.yaml `card.sizes`, issue 23, item 4): faces and backs
at that size, proxy sheets with each size on pages of its own (duplex backs still behind their
faces, measured from the content streams), print-on-demand singles page by page, one Tabletop
Simulator deck per size, the size checked when the layouts load."""

from __future__ import annotations

import json

import pypdf
import pytest

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.render.layout import CARD_SIZES, layout_back, layout_face, load_layouts
from cardgen.sheets import SheetOptions, make_sheets
from cardgen.sheets.geometry import impose
from cardgen.sheets.tts import export_tts
from tests.pdf_marks import read_page
from tests.test_sheets import LETTER, MARKER_LAYOUTS, POKER, guild_copy

TAROT = CARD_SIZES["tarot"]
BLEED = 3.175
# the marker game with its one fog card tarot-sized
SIZED_LAYOUTS = MARKER_LAYOUTS.replace("card: {size: poker, bleed: 3.175, safe: 3.175}",
                                       "card: {size: poker, bleed: 3.175, safe: 3.175, sizes: {fog: tarot}}")


@pytest.fixture(scope="module")
def sized(tmp_path_factory):
    return guild_copy(tmp_path_factory.mktemp("sized"), SIZED_LAYOUTS)


def test_a_sized_type_lays_out_at_its_size_and_its_back_too(sized):
    game = load_game(sized)
    layouts = load_layouts(game)
    fog = next(c for c in game.cards.values() if c.type == "fog")
    lamp = next(c for c in game.cards.values() if c.type == "lamplighter")
    face = layout_face(layouts, fog)
    assert (face.width, face.height) == TAROT
    assert (layout_face(layouts, lamp).width, layout_face(layouts, lamp).height) == POKER
    # `rect: bleed` fills the tarot card's bleed, not the poker card's
    bleed_rect = face.items[0]
    assert (bleed_rect.w, bleed_rect.h) == pytest.approx((TAROT[0] + 2 * BLEED, TAROT[1] + 2 * BLEED))
    back = layout_back(layouts, "fog", fog)
    assert (back.width, back.height) == TAROT
    assert (back.items[0].w, back.items[0].h) == pytest.approx((TAROT[0] + 2 * BLEED, TAROT[1] + 2 * BLEED))
    # the back's own picture (backs/fog.png) is the size of the cards that take it
    assert (layout_back(layouts, "fog").width, layout_back(layouts, "default").width) == (TAROT[0], POKER[0])


@pytest.mark.parametrize("mode", ["duplex-long", "duplex-short"])
@pytest.mark.parametrize("bleed", [False, True])
def test_each_size_has_its_own_pages_and_backs_stay_behind_their_faces(sized, tmp_path, mode, bleed):
    """9 poker cards fill sheet 1; the tarot fog bank gets sheet 2 to itself, imposed as tarot,
    its back mirrored behind it with its face's bleed, drawn at the tarot size."""
    [path] = make_sheets(load_game(sized), tmp_path, options=SheetOptions(("letter",), mode, bleed=bleed))
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 4                       # poker faces, backs; tarot face, back
    pages = [read_page(page)[1] for page in reader.pages]
    assert [len(p) for p in pages] == [9, 9, 1, 1]
    poker, tarot = (impose("letter", *size, bleed=BLEED if bleed else 0.0) for size in (POKER, TAROT))
    for n, placed in enumerate(pages[0]):
        slot = poker.slot(n)
        assert placed.trim(*POKER) == pytest.approx((slot.x, slot.y, slot.x + POKER[0], slot.y + POKER[1]),
                                                    abs=0.01)
    [face], [back] = pages[2], pages[3]
    slot = tarot.slot(0)
    assert face.trim(*TAROT) == pytest.approx((slot.x, slot.y, slot.x + TAROT[0], slot.y + TAROT[1]),
                                              abs=0.01)
    pw, ph = LETTER
    x0, y0, x1, y1 = face.trim(*TAROT)
    mirrored = (pw - x1, y0, pw - x0, y1) if mode == "duplex-long" else (x0, ph - y1, x1, ph - y0)
    assert back.trim(*TAROT) == pytest.approx(mirrored, abs=0.01)
    # the back's form is a tarot card with its bleed, and it is cut with its face's bleed, mirrored
    with_bleed = (TAROT[0] + 2 * BLEED, TAROT[1] + 2 * BLEED)
    assert (back.x1 - back.x0, back.y1 - back.y0) == pytest.approx(with_bleed, abs=0.01)
    cx0, cy0, cx1, cy1 = face.clip
    want = (pw - cx1, cy0, pw - cx0, cy1) if mode == "duplex-long" else (cx0, ph - cy1, cx1, ph - cy0)
    assert back.clip == pytest.approx(want, abs=0.01)


def test_singles_pages_take_each_cards_size(sized, tmp_path):
    paths = make_sheets(load_game(sized), tmp_path, options=SheetOptions(("letter",), singles=True))
    reader = pypdf.PdfReader(next(p for p in paths if p.stem.endswith("singles")))
    sizes = {(round(float(p.mediabox.width) / 72 * 25.4, 2), round(float(p.mediabox.height) / 72 * 25.4, 2))
             for p in reader.pages}
    assert sizes == {(round(POKER[0] + 2 * BLEED, 2), round(POKER[1] + 2 * BLEED, 2)),
                     (round(TAROT[0] + 2 * BLEED, 2), round(TAROT[1] + 2 * BLEED, 2))}


def test_tabletop_simulator_gets_one_deck_per_size(sized, tmp_path):
    from PIL import Image

    result = export_tts(load_game(sized), tmp_path)
    data = json.loads(result.json_path.read_text())
    objects = data["ObjectStates"]
    assert len(objects) == 2
    poker, tarot = objects
    assert poker["Name"] == "Deck" and len(poker["ContainedObjects"]) == 9
    assert tarot["Name"] == "Card" and tarot["Nickname"] == "Sea Fog"
    assert tarot["Transform"]["scaleZ"] == pytest.approx(TAROT[1] / POKER[1], abs=1e-3)
    assert tarot["Transform"]["posX"] > poker["Transform"]["posX"]
    # each deck's sheet holds cards of its own shape, and the tarot back is a tarot card
    [tarot_deck] = tarot["CustomDeck"].values()
    with Image.open(tmp_path / tarot_deck["FaceURL"]) as sheet:
        cell = (sheet.width / tarot_deck["NumWidth"], sheet.height / tarot_deck["NumHeight"])
    assert cell[1] / cell[0] == pytest.approx(TAROT[1] / TAROT[0], abs=0.01)
    with Image.open(tmp_path / tarot_deck["BackURL"]) as back:
        assert back.height / back.width == pytest.approx(TAROT[1] / TAROT[0], abs=0.01)


@pytest.mark.parametrize("sizes,where,message", [
    ("{fgo: tarot}", "card.sizes.fgo", "no card type 'fgo'"),
    ("{fog: taro}", "card.sizes.fog", "expected one of poker"),
    ("{fog: {width: 5, height: 100}}", "card.sizes.fog.width", "expected a length in mm from 10 to 300"),
    ("{fog: {width: 70}}", "card.sizes.fog", "expected a named size"),
    ("[fog]", "card.sizes", "expected a mapping of card type to size"),
])
def test_a_wrong_size_is_reported_at_its_line(tmp_path, sizes, where, message):
    layouts = SIZED_LAYOUTS.replace("sizes: {fog: tarot}", f"sizes: {sizes}")
    folder = guild_copy(tmp_path, layouts)
    with pytest.raises(ContentError) as caught:
        load_layouts(load_game(folder))
    found = [i for i in caught.value.issues if i.field == where]
    assert found and message in found[0].message and found[0].line == 2, caught.value.issues


def test_the_safe_zone_is_the_sized_types_own(tmp_path):
    """Text low on a tarot card is inside its safe zone; the same box on a poker card is not."""
    text = '{text: "{{ card.name }}", at: [5, 100, 50, 10]}'
    layouts = SIZED_LAYOUTS.replace('{text: "{{ card.name }}", at: [5, 5, 50, 10]}', text)
    load_layouts(load_game(guild_copy(tmp_path / "a", layouts)))         # fog is tarot: fine
    poker = layouts.replace("sizes: {fog: tarot}", "sizes: {}")
    with pytest.raises(ContentError) as caught:
        load_layouts(load_game(guild_copy(tmp_path / "b", poker)))
    assert any("past the safe zone" in i.message for i in caught.value.issues)


def test_a_backs_key_changes_with_the_size_of_the_cards_that_take_it(sized):
    """The fog back is tarot-sized because the fog cards are: a change that makes it another size
    (here the fog cards' size, as a card changing its type would) draws its PNG again."""
    from cardgen.inputs import face_key

    game = load_game(sized)
    tarot, poker = load_layouts(game), load_layouts(game)
    poker.sizes = {"lamplighter": TAROT}        # the fog cards poker-sized, the source unchanged
    assert face_key(tarot, None, "back:fog") != face_key(poker, None, "back:fog")
    assert face_key(tarot, None, "back:default") != face_key(poker, None, "back:default")
