"""Turned text and pictures (`rotate:`) and text outlines and shadows (`outline:`, `shadow:`) in
layouts.yaml (issue 23, item 4): fitted in the turned box, checked against the safe zone and
shown in the rulebook's card anatomy by the area they cover, each mistake reported at its line.
(The PDF draws what the PNG draws: tests/test_pdf_matches_png.py.)"""

from __future__ import annotations

import shutil

import pytest

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.render.display import Picture, Run, Turned
from cardgen.render.fonts import load_face
from cardgen.render.layout import field_boxes, layout_back, layout_face, load_layouts
from cardgen.render.paint_png import paint_png
from tests.conftest import ROOT

WATCH = ROOT / "tests" / "data" / "harbour-watch"


@pytest.fixture
def watch(tmp_path):
    folder = tmp_path / "watch"
    shutil.copytree(WATCH, folder)
    return folder


def _with(folder, old: str, new: str):
    path = folder / "layouts.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return folder


def _card(folder, name: str):
    game = load_game(folder)
    layouts = load_layouts(game)
    return layouts, game.cards[name]


def test_turned_text_runs_along_the_height_of_a_tall_box():
    """The role label's box is 8.5 mm wide and 34 tall: turned 90 degrees, "Navigator" is set at
    its full size (it would not fit 8.5 mm across) along the 34 mm."""
    layouts, card = _card(WATCH, "Old Brannock")
    face = layout_face(layouts, card)
    [turned] = [i for i in face.items if isinstance(i, Turned)]
    assert turned.angle == 90
    [run] = turned.items
    assert run.text == "Navigator" and run.size == layouts.styles["label"].size
    width = load_face(run.font).width_mm(run.text, run.size)
    assert 8.5 < width <= 34
    # upright, it was fitted in the box turned: 34 wide and 8.5 tall, about the same centre
    x, y, w, h = turned.box
    assert (w, h) == pytest.approx((34, 8.5)) and (x + w / 2, y + h / 2) == pytest.approx((55.25, 67))
    # turned clockwise, the start of the word is at the top of the box and its end lower down
    start = turned.to_card(run.x, run.y)
    end = turned.to_card(run.x + width, run.y)
    assert start[1] < end[1] and abs(start[0] - end[0]) < 1e-6
    assert start[1] >= 50 and end[1] <= 84


def test_without_rotate_the_same_label_cannot_be_set_whole(watch):
    """Upright in 8.5 mm, "Navigator" is shrunk to the style's minimum and broken (or cannot be
    set at all): never the one line at full size the turn gives it."""
    _with(watch, 'style: label, rotate: 90}', "style: label}")
    layouts, card = _card(watch, "Old Brannock")
    from cardgen.render.layout import LayoutError

    try:
        face = layout_face(layouts, card)
    except LayoutError as exc:
        assert "does not fit" in str(exc)
        return
    label = [r for r in face.items if isinstance(r, Run) and r.colour[:3] == (0xb9, 0x8a, 0x4e)]   # rope
    assert label and all(r.size == layouts.styles["label"].min_size for r in label)
    assert len({r.y for r in label}) > 1 and "Navigator" not in [r.text for r in label]


def test_a_turned_picture_is_fitted_to_the_box_turned_and_turned_back(watch):
    layouts, card = _card(WATCH, "The Gull")
    face = layout_face(layouts, card)
    [turned] = [i for i in face.items if isinstance(i, Turned) and isinstance(i.items[0], Picture)]
    [picture] = turned.items
    assert (picture.w, picture.h) == pytest.approx((72, 46))          # the 46 x 72 box, turned
    assert turned.bounds() == pytest.approx((16, 8, 46, 72))          # covers the box on the card


def test_the_anatomy_and_the_safe_zone_use_the_turned_box(watch):
    layouts, card = _card(WATCH, "Old Brannock")
    _face, boxes = field_boxes(layouts, card)
    [role] = [b for b in boxes if b.fields == ("role",)]
    assert role.box == pytest.approx((51, 50, 8.5, 34))
    # the back's title is turned 30 degrees: its box on the card is what the turned box covers
    back = layout_back(layouts, "default")
    [title] = [i for i in back.items if isinstance(i, Turned)]
    x, y, w, h = title.bounds((6, 34, 51.5, 20))
    assert w > 51.5 and h > 20
    # a quarter turn covers its box; a box low on the card turned 30 degrees reaches below the
    # safe zone, which the box itself does not
    _with(watch, "at: [51, 50, 8.5, 34], style: label, rotate: 90",
          "at: [6, 70, 44, 8], style: label, rotate: 30")
    with pytest.raises(ContentError) as caught:
        load_layouts(load_game(watch))
    [issue] = [i for i in caught.value.issues if "safe zone" in i.message]
    assert issue.field == "types.crew[5].at" and "turned" in issue.message and issue.line == 27


def test_outline_and_shadow_are_drawn_under_the_letters(watch):
    layouts, card = _card(WATCH, "Wren")
    face = layout_face(layouts, card)
    runs = [i for i in face.items if isinstance(i, Run) and i.text == "Wren"]
    # shadow (outline, then letters), outline, letters
    assert [(r.outline, r.colour) for r in runs] == [
        (0.35, (0, 0, 0, 0x88)), (0.0, (0, 0, 0, 0x88)), (0.35, (0x1d, 0x27, 0x31, 255)),
        (0.0, (255, 255, 255, 255))]
    shadow, letters = runs[0], runs[-1]
    assert (shadow.x - letters.x, shadow.y - letters.y) == pytest.approx((0.5, 0.6))
    # and the PNG shows the dark outline right before each white stroke across the word
    image = paint_png(face, 300)
    k = 300 / 25.4
    b = layouts.bleed
    width = load_face(letters.font).width_mm("Wren", letters.size)
    y = round((letters.y - 1.5 + b) * k)
    row = [sum(image.getpixel((x, y))) for x in range(round((letters.x + b) * k) - 10,
                                                      round((letters.x + width + b) * k) + 10)]
    strokes = [i for i in range(1, len(row)) if row[i] > 740 >= row[i - 1]]    # white starts
    assert len(strokes) >= 4, row
    outline_px = round(0.35 * k)
    for start in strokes:
        assert min(row[max(0, start - outline_px - 2):start]) < 150, (start, row)


@pytest.mark.parametrize("setting,field,message", [
    ("outline: {width: 5, colour: ink}", "styles.name.outline.width",
     "expected an outline width in mm from 0 to 3"),
    ("outline: {width: 0.3, colour: inky}", "styles.name.outline.colour", "unknown colour 'inky'"),
    ("outline: {width: 0.3, blur: 2}", "styles.name.outline.blur", "unknown setting (width, colour)"),
    ("shadow: 3", "styles.name.shadow", "expected a mapping of dx, dy, colour (or none)"),
    ("shadow: {dx: 20}", "styles.name.shadow.dx", "expected an offset in mm from -10 to 10"),
])
def test_a_wrong_outline_or_shadow_in_a_style_is_reported_at_its_line(watch, setting, field, message):
    outline = setting.startswith("outline")
    old = ("    outline: {width: 0.35, colour: ink}\n" if outline
           else '    shadow: {dx: 0.5, dy: 0.6, colour: "#00000088"}\n')
    _with(watch, old, f"    {setting}\n")
    with pytest.raises(ContentError) as caught:
        load_layouts(load_game(watch))
    [issue] = [i for i in caught.value.issues if i.field == field]
    assert message in issue.message and issue.line == (16 if outline else 17)


def test_a_wrong_setting_on_an_element_is_reported_at_its_line(watch):
    _with(watch, "outline: {width: 0.2, colour: ink}}", "outline: {width: 0.2, colour: nope}, rotate: 400}")
    with pytest.raises(ContentError) as caught:
        load_layouts(load_game(watch))
    found = {i.field: (i.line, i.message) for i in caught.value.issues}
    assert found["types.ship[6].outline.colour"][0] == 38
    assert "unknown colour 'nope'" in found["types.ship[6].outline.colour"][1]
    assert found["types.ship[6].rotate"] == (38, "expected an angle in degrees (clockwise) from -360 to 360, "
                                                 "got 400")


def test_outline_none_takes_away_the_outline_a_style_extends(watch):
    _with(watch, "  label: {font:", "  plain: {extends: name, outline: none, shadow: none}\n  label: {font:")
    layouts = load_layouts(load_game(watch))
    assert layouts.styles["plain"].outline is None and layouts.styles["name"].outline is not None


def test_a_turned_texts_shadow_falls_the_same_way_on_the_card():
    """The ship's name is turned 270 degrees; its shadow still falls right and down on the card,
    0.5 and 0.6 mm, as the crew names' upright shadows do."""
    layouts, card = _card(WATCH, "The Gull")
    [name] = [i for i in layout_face(layouts, card).items
              if isinstance(i, Turned) and isinstance(i.items[0], Run) and i.items[-1].text == "The Gull"]
    shadow, letters = name.items[0], name.items[-1]
    (sx, sy), (lx, ly) = name.to_card(shadow.x, shadow.y), name.to_card(letters.x, letters.y)
    assert (sx - lx, sy - ly) == pytest.approx((0.5, 0.6))
