"""Card faces: layouts load with clear errors, text fits or is reported, every glyph exists."""

from __future__ import annotations

import io
import shutil

import pytest
from PIL import Image

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.render import render_game
from cardgen.render.card_backs import back_face, draw_back
from cardgen.render.display import Run
from cardgen.render.fonts import load_face
from cardgen.render.layout import LayoutError, layout_back, layout_face, load_layouts
from cardgen.render.paint_png import encode_png, paint_png
from tests.conftest import ROOT

DOJO = ROOT / "content" / "dojo-duel"
GAMES_WITH_LAYOUTS = [g for g in bundled_game_ids() if (ROOT / "content" / g / "layouts.yaml").is_file()]


@pytest.fixture
def dojo(tmp_path):
    folder = tmp_path / "dojo"
    shutil.copytree(DOJO, folder, ignore=shutil.ignore_patterns("scenarios", "rules"))
    text = (folder / "game.yaml").read_text().replace("code: dojo_duel\n", "")
    (folder / "game.yaml").write_text(text)
    return folder


def layout_errors(folder) -> list[str]:
    with pytest.raises(ContentError) as info:
        load_layouts(load_game(folder))
    return [str(i) for i in info.value.issues]


@pytest.mark.parametrize("game_id", GAMES_WITH_LAYOUTS)
def test_every_card_and_back_lays_out_and_every_glyph_is_in_its_font(game_id):
    game = load_game(game_id)
    layouts = load_layouts(game)
    faces = [layout_face(layouts, card) for card in game.cards.values()]
    faces += [layout_back(layouts, name) for name in layouts.backs if name not in layouts.card_backs]
    # a back drawn from its card, for each card that takes it
    faces += [draw_back(layouts, back) for back in {back_face(layouts, card) for card in game.cards.values()}]
    for face in faces:
        for item in face.items:
            if isinstance(item, Run):
                font = load_face(item.font)
                missing = [c for c in item.text if not font.has(c) and c != " "]
                assert not missing, f"{face.name}: {missing} not in {item.font}"


def test_a_card_as_png_has_bleed_and_300_dpi(tmp_path):
    game = load_game("dojo-duel")
    result = render_game(game, tmp_path, only=["Tiger Claw"], jobs=1)
    assert not result.errors
    card = tmp_path / "dojo-duel" / "cards" / "tiger-claw.png"
    with Image.open(card) as image:
        assert image.size == (825, 1125)          # poker 63.5 x 88.9 mm + 1/8 in bleed at 300 dpi
        assert round(image.info["dpi"][0]) == 300
        assert image.mode == "RGB"
        # the school colour runs into the bleed; the paper panel sits inside the cut line
        assert image.getpixel((5, 5)) == (0xC0, 0x51, 0x2B)
        assert image.getpixel((100, 250)) == (0xF6, 0xEF, 0xE0)   # paper, inside the cut
    assert (tmp_path / "dojo-duel" / "backs" / "default.png").is_file()


def test_png_encoder_round_trips_pixels():
    game = load_game("dojo-duel")
    image = paint_png(layout_face(load_layouts(game), game.cards["Tiger Claw"]))
    with Image.open(io.BytesIO(encode_png(image))) as back:
        assert back.tobytes() == image.tobytes()


def test_unchanged_cards_are_not_redrawn(dojo, tmp_path):
    out = tmp_path / "out"
    game = load_game(dojo)
    first = render_game(game, out, jobs=1)
    assert len(first.written) == 42 and first.skipped == 0     # 40 cards, a back, a reference card
    again = render_game(load_game(dojo), out, jobs=1)
    assert again.written == [] and again.skipped == 42
    cards = dojo / "cards" / "tiger.yaml"
    cards.write_text(cards.read_text().replace("yang: 8", "yang: 7", 1))
    edited = render_game(load_game(dojo), out, jobs=1)
    assert [p.name for p in edited.written] == ["tiger-claw.png"]


def test_an_edited_layouts_yaml_redraws_what_it_draws(dojo, tmp_path):
    # (the file's text is in every face's key: once it was passed to the wrong field and every
    # edit of layouts.yaml left the old PNGs in place)
    out = tmp_path / "out"
    render_game(load_game(dojo), out, jobs=1)
    layouts = dojo / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace('paper_shade: "#e9dfc9"', 'paper_shade: "#e9dfca"'))
    edited = render_game(load_game(dojo), out, jobs=1)
    assert len(edited.written) == 42 and edited.skipped == 0


def test_text_that_cannot_fit_names_card_file_line_and_field(dojo, tmp_path):
    layouts = dojo / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace("at: [6.5, 60, 50.5, 9], style: flavour",
                                                   "at: [6.5, 60, 30, 5], style: flavour"))
    game = load_game(dojo)
    card = game.cards["Tiger Claw"]
    with pytest.raises(LayoutError) as info:
        layout_face(load_layouts(game), card)
    message = str(info.value)
    assert message.startswith(f"{card.file}:{card.line}: flavour: card 'Tiger Claw': text does not fit")
    result = render_game(game, tmp_path, jobs=1)
    assert result.errors and {e.field for e in result.errors} == {"flavour"}
    assert "Tiger Claw" in "\n".join(str(e) for e in result.errors)
    assert not (tmp_path / "dojo-duel" / "cards" / "tiger-claw.png").exists()


def test_layout_file_mistakes_are_reported_with_lines(dojo):
    path = dojo / "layouts.yaml"
    text = path.read_text()
    text = text.replace("style: flavour, field: flavour}", "style: flavor, field: flavour}")
    text = text.replace('{text: "{{ card.name }}", at: [5, 5, 53.5, 10], style: name}',
                        '{text: "{{ card.nmae }}", at: [1, 5, 53.5, 10], style: name, sise: 3}')
    text = text.replace("paper_shade: \"#e9dfc9\"", "paper_shade: \"#e9dfcz\"")
    path.write_text(text)
    errors = layout_errors(dojo)
    joined = "\n".join(errors)
    assert "style: no style 'flavor' (did you mean: flavour?)" in joined
    assert "card.nmae is not a field of these cards (did you mean: name?)" in joined
    assert "sise: not a setting of a text element (did you mean: size?)" in joined
    assert "reaches 2.2 mm past the safe zone" in joined
    assert "colours.paper_shade: expected #rrggbb" in joined
    assert all(e.startswith(f"{path}:") for e in errors)


def test_a_character_no_font_has_is_an_error_not_a_gap(dojo):
    cards = dojo / "cards" / "tiger.yaml"
    text = cards.read_text().replace("The tiger does not leap twice.", "The tiger \U0001F405 leaps.")
    cards.write_text(text)
    game = load_game(dojo)
    with pytest.raises(LayoutError, match="no font has the character"):
        layout_face(load_layouts(game), game.cards["Pouncing Strike"])


def test_pdf_and_png_share_one_layout():
    """The PDF painter draws the same runs at the same places as the PNG painter."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.paint_pdf import MM, draw_face

    game = load_game("dojo-duel")
    face = layout_face(load_layouts(game), game.cards["Tiger Claw"])
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(80 * MM, 100 * MM), invariant=1)
    draw_face(canvas, face, 5 * MM, 95 * MM)
    canvas.save()
    from pypdf import PdfReader

    text = PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text()
    for run in face.items:
        if isinstance(run, Run) and run.text.strip() and run.text.isascii():
            assert run.text.strip() in text


def test_translucent_text_is_blended_not_opaque():
    face_file = load_face(str(ROOT / "fonts" / "dejavu" / "DejaVuSans.ttf"))
    from cardgen.render.display import Face

    face = Face("t", 20, 20, 0, [Run(2, 15, "■", face_file.path, face_file.name, 40, (255, 0, 0, 60))])
    assert paint_png(face).getpixel((60, 120)) == (255, 195, 195)


def test_the_safe_zone_is_checked_inside_templates_and_moved_groups(dojo):
    path = dojo / "layouts.yaml"
    text = path.read_text().replace("types:\n", "templates:\n  plate:\n"
                                    "    - {text: x, at: [2, 40, 20, 5], style: name}\n"
                                    "types:\n", 1)
    text = text.replace("    - {line: [10, 15.5, 53.5, 15.5], colour: gold, width: 0.35}\n",
                        "    - {line: [10, 15.5, 53.5, 15.5], colour: gold, width: 0.35}\n"
                        "    - {use: plate}\n"
                        "    - {group: [{text: y, at: [40, 40, 20, 5], style: name}], offset: [3, 0]}\n")
    path.write_text(text)
    joined = "\n".join(layout_errors(dojo))
    assert "templates.plate[1].at: box [2, 40, 20, 5] reaches 1.2 mm past the safe zone" in joined
    assert ".group[1].at: box [40, 40, 20, 5] reaches 2.7 mm past the safe zone" in joined


def test_translucent_colours_survive_inside_pdf_forms():
    """The proxy sheets draw each card once as a form; transparency must not turn opaque there."""
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.display import Face, Rect
    from cardgen.render.paint_pdf import MM, draw_face

    face = Face("t", 20, 20, 0, [Rect(0, 0, 20, 20, (255, 0, 0, 60))])
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(30 * MM, 30 * MM))
    canvas.beginForm("card", 0, 0, 20 * MM, 20 * MM)
    draw_face(canvas, face, 0, 20 * MM)
    canvas.endForm()
    canvas.doForm("card")
    canvas.showPage()
    canvas.save()
    image = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=2).to_pil()
    r, g, b = image.getpixel((20, image.height - 20))[:3]
    assert r == 255 and 180 < g < 210 and 180 < b < 210


def test_several_games_render_in_one_command_and_a_broken_one_does_not_stop_the_others(dojo, tmp_path):
    import subprocess
    import sys

    layouts = dojo / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace("style: flavour, field: flavour}",
                                                   "style: flavor, field: flavour}"))
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "cardgen", "render", str(dojo), "combo-fighter",
                             "--out", str(out), "--jobs", "2"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{layouts}:" in result.stderr and "no style 'flavor'" in result.stderr
    assert result.stdout.startswith("combo-fighter: ") and " drawn, 0 unchanged" in result.stdout
    assert len(list((out / "combo-fighter" / "cards").glob("*.png"))) == len(load_game("combo-fighter").cards)
    assert not (out / "dojo-duel").exists()


def test_an_unknown_filter_is_a_layout_error_with_its_line(dojo):
    path = dojo / "layouts.yaml"
    text = path.read_text().replace('{text: "{{ card.name }}"', '{text: "{{ card.name | uper }}"', 1)
    path.write_text(text)
    errors = layout_errors(dojo)
    assert any("no filter named 'uper' (did you mean: upper?)" in e and e.startswith(f"{path}:")
               for e in errors), errors


def test_beside_other_threads_cards_are_drawn_without_forking(dojo, tmp_path, monkeypatch):
    """`cardgen watch` runs threads: a fork would copy locks they hold, so render draws in-process."""
    import multiprocessing
    import threading

    def no_pool(*args, **kwargs):
        raise AssertionError("render started worker processes beside other threads")

    monkeypatch.setattr(multiprocessing, "get_context", no_pool)
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        result = render_game(load_game(dojo), tmp_path, jobs=2, use_cache=False)
    finally:
        release.set()
        other.join()
    assert not result.errors and len(result.written) > 40


@pytest.mark.parametrize("path", sorted(str(p) for p in (ROOT / "fonts").glob("*/*.ttf")))
def test_fonts_read_directly_match_fonttools(path):
    """Layout reads cmap, hmtx and the glyph boxes itself: the same numbers fontTools gives."""
    from fontTools.ttLib import TTFont

    from cardgen.render.fonts import glyph_bounds

    reference = TTFont(path)
    metrics = reference["hmtx"].metrics
    face = load_face(path)
    assert face.advances == {cp: metrics[g][0] for cp, g in reference.getBestCmap().items()}
    assert face.upem == reference["head"].unitsPerEm
    assert face.ascent * face.upem == reference["hhea"].ascent
    glyf = reference["glyf"]
    for cp in list(face.advances)[::37]:
        glyph = glyf[reference.getBestCmap()[cp]]
        if getattr(glyph, "numberOfContours", 0) > 0:
            upem = face.upem
            assert glyph_bounds(path, chr(cp)) == (glyph.xMin / upem, glyph.yMin / upem,
                                                   glyph.xMax / upem, glyph.yMax / upem)


def test_elements_without_templates_are_laid_out_once_and_stay_the_same():
    """A label or frame with no template gives the same items on every card (laid out once per
    process); an element with a template is laid out for each card."""
    game = load_game("amfibido")
    layouts = load_layouts(game)
    cards = list(game.cards.values())[:8]
    first = [layout_face(layouts, card) for card in cards]
    shared = {key: items for key, items in layouts.fixed.items() if isinstance(items, tuple) and items}
    assert shared
    again = [layout_face(load_layouts(game), card) for card in cards]
    assert [face.items for face in first] == [face.items for face in again]
    # a frame every card has is one object, shared by every face
    faces_with = [sum(any(item is x for x in face.items) for face in first)
                  for items in shared.values() for item in items]
    assert max(faces_with) == len(cards)


def test_a_damaged_font_file_is_a_layout_error_with_its_line(dojo):
    (dojo / "fonts").mkdir()
    (dojo / "fonts" / "Broken.ttf").write_bytes(b"\x00\x01\x00\x00 not really a font")
    path = dojo / "layouts.yaml"
    path.write_text("fonts:\n  Broken Hand: {regular: fonts/Broken.ttf}\n" + path.read_text())
    errors = layout_errors(dojo)
    assert any(e.startswith(f"{path}:2:") and "cannot use fonts/Broken.ttf" in e and "TrueType" in e
               for e in errors), errors


def test_character_maps_of_every_common_format_are_read():
    """Formats 0 and 6 (older fonts) as well as 4 and 12, which the bundled fonts use."""
    import struct

    from cardgen.render.fonts import _best_cmap

    def table(platform, encoding, body):
        return struct.pack(">HHHHI", 0, 1, platform, encoding, 12) + body

    format_0 = struct.pack(">HHH", 0, 262, 0) + bytes(range(256))
    assert _best_cmap(table(0, 3, format_0))[65] == 65
    format_6 = struct.pack(">HHHHH", 6, 16, 0, 0x41, 3) + struct.pack(">HHH", 7, 8, 9)
    assert _best_cmap(table(3, 1, format_6)) == {0x41: 7, 0x42: 8, 0x43: 9}
    with pytest.raises(ValueError, match="format 2"):
        _best_cmap(table(3, 1, struct.pack(">H", 2)))
