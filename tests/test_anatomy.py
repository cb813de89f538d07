"""The card anatomy of every bundled rulebook (issue 25): each field it lists has a numbered
marker whose leader ends inside that field's element box (from the layout, not found by
searching the text), and no leader line crosses any text or icon printed on the card."""

from __future__ import annotations

import pytest

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.publish import anatomy
from cardgen.render.display import Run
from cardgen.render.fonts import PT_TO_MM, load_face
from cardgen.render.layout import field_boxes, load_layouts


def printed_text(face):
    """Every run's ink box (left, top, right, bottom), from its font's ascent and descent."""
    boxes = []
    for run in face.items:
        if isinstance(run, Run) and run.text.strip():
            font, mm = load_face(run.font), run.size * PT_TO_MM
            boxes.append((run.x, run.y - font.ascent * mm, run.x + font.width_mm(run.text, run.size),
                          run.y + font.descent * mm))
    return boxes


def through_text(start, end, boxes, steps=400):
    """The first text box a straight line passes inside (0.1 mm in from its edge), if any."""
    for i in range(steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        for box in boxes:
            if box[0] + 0.1 < x < box[2] - 0.1 and box[1] + 0.1 < y < box[3] - 0.1:
                return box
    return None


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_every_field_has_a_marker_on_its_element_and_no_leader_crosses_text(ref):
    game = load_game(ref)
    card = anatomy.pick_anatomy_card(game)
    layouts = load_layouts(game)
    face, boxes = field_boxes(layouts, card)
    node = anatomy.anatomy(game, None, {"url": "card.png"} | anatomy.trim(game, None))[0]
    markers = {m["n"]: m for m in node["markers"]}
    text = printed_text(face)
    assert len(node["callouts"]) >= 4
    for number, callout in enumerate(node["callouts"], 1):
        field = callout.get("field") or callout["label"].lower().replace(" ", "_")
        assert number in markers, f"{ref}: {callout['label']} has no marker"
        x, y = markers[number]["target"]
        elements = [b.box for b in boxes if field in b.fields]
        if field == "type":     # a type no element names alone is shown by the whole face
            elements.append((0, 0, layouts.width, layouts.height))
        assert any(bx - 1e-6 <= x <= bx + bw + 1e-6 and by - 1e-6 <= y <= by + bh + 1e-6
                   for bx, by, bw, bh in elements), f"{ref}: {field}'s marker is off its element"
        crossed = through_text(markers[number]["start"], (x, y), text)
        assert crossed is None, f"{ref}: {field}'s leader crosses the text at {crossed}"
    sides = {}
    for m in node["markers"]:      # markers on one side do not overlap
        sides.setdefault(m["side"], []).append(m["top"])
    for tops in sides.values():
        tops.sort()
        assert all(b - a >= anatomy.MARKER_MM for a, b in zip(tops, tops[1:], strict=False))


def test_a_field_no_element_shows_is_not_listed():
    game = load_game("amfibido")
    node = anatomy.anatomy(game, None, {"url": "card.png"} | anatomy.trim(game, None))[0]
    shown = {f for b in field_boxes(load_layouts(game), anatomy.pick_anatomy_card(game))[1]
             for f in b.fields}
    assert {c["field"] for c in node["callouts"]} - {"name", "type"} <= shown


def test_an_unchanged_rebuild_reuses_the_markers_and_a_moved_text_places_them_again(tmp_path, monkeypatch):
    game = load_game("combo-fighter")
    picture = tmp_path / "anatomy-card.png"
    image = {"url": picture.as_uri(), "path": str(picture)} | anatomy.trim(game, None)
    [first] = anatomy.anatomy(game, None, image)
    assert first["markers"] and (tmp_path / "anatomy-card.markers.json").is_file()
    placed = []
    real = anatomy.place_markers
    monkeypatch.setattr(anatomy, "place_markers", lambda *a: placed.append(1) or real(*a))
    [again] = anatomy.anatomy(game, None, image)
    assert again["markers"] == first["markers"] and not placed      # read back, exactly as placed
    moved = image | {"text_boxes": [(x0, y0 + 1, x1, y1 + 1) for x0, y0, x1, y1 in image["text_boxes"]]}
    anatomy.anatomy(game, None, moved)
    assert placed == [1]
