"""Picture icons in card text (issue 23, item 2): game.yaml `icons:` may name a PNG or SVG; {name}
draws it at the text's size standing on the baseline, tinted like the text unless it says
`colour: original` (or another colour), measured by the fitter, and redrawn when the file changes.
(The PDF shows what the PNG shows: tests/test_pdf_matches_png.py.)"""

from __future__ import annotations

import shutil

import pytest
from PIL import Image

from cardgen import cli
from cardgen.model import load_game
from cardgen.render.display import Picture, Run
from cardgen.render.fonts import PT_TO_MM
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.text import INLINE_HEIGHT
from tests.conftest import ROOT

GEM = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M5 0 10 4 5 10 0 4Z"/></svg>'
SUN = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 12 10"><circle cx="6" cy="5" r="5" '
       'fill="#f5a623"/></svg>')
ICONS = """
icons:
  gem: {image: icons/gem.svg}
  sun: {image: icons/sun.png, colour: original}
  star: "\u2605"
"""


@pytest.fixture
def isles(tmp_path):
    folder = tmp_path / "isles"
    shutil.copytree(ROOT / "tests" / "data" / "painted-isles", folder)
    (folder / "art").mkdir()
    for name in ("wolf", "heron"):
        Image.new("RGB", (120, 100), (120, 90, 60)).save(folder / "art" / f"{name}.png")
    (folder / "fonts").mkdir()
    shutil.copy(ROOT / "fonts" / "crimson-text" / "CrimsonText-Regular.ttf", folder / "fonts" / "Title.ttf")
    (folder / "icons").mkdir()
    (folder / "icons" / "gem.svg").write_text(GEM)
    Image.new("RGBA", (24, 20), (245, 166, 35, 255)).save(folder / "icons" / "sun.png")
    with (folder / "game.yaml").open("a") as handle:
        handle.write(ICONS)
    cards = folder / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 to a creature.",
                                               '"Pay {gem}{gem}: deal 2 {sun} to a creature {star}."'))
    return folder


def _ember(folder):
    game = load_game(folder)
    layouts = load_layouts(game)
    return layouts, layout_face(layouts, game.cards["Ember"])


def test_a_picture_icon_stands_on_the_baseline_at_the_text_size_in_the_text_colour(isles):
    layouts, face = _ember(isles)
    pictures = [i for i in face.items if isinstance(i, Picture)]
    runs = [i for i in face.items if isinstance(i, Run)]
    gems = [p for p in pictures if p.path.endswith("gem.svg")]
    [sun] = [p for p in pictures if p.path.endswith("sun.png")]
    assert len(gems) == 2
    text = next(r for r in runs if r.text.startswith("Pay"))
    for picture in (*gems, sun):
        assert picture.y + picture.h == pytest.approx(text.y)                    # on the baseline
        assert picture.h == pytest.approx(INLINE_HEIGHT * text.size * PT_TO_MM)
    assert gems[0].w == pytest.approx(gems[0].h)                                 # its own shape (1:1)
    assert sun.w == pytest.approx(sun.h * 24 / 20)
    assert gems[0].tint == layouts.styles["spell"].colour and sun.tint is None   # `colour: original`
    assert gems[1].x == pytest.approx(gems[0].x + gems[0].w)                     # side by side
    # the text after the icons starts after them, not on them
    after = next(r for r in runs if r.y == text.y and r.x > gems[1].x)
    assert after.x >= gems[1].x + gems[1].w - 1e-6
    star = next(r for r in runs if "\u2605" in r.text)                            # a font icon still
    assert star.text == "\u2605"


def test_the_png_shows_the_icon_in_the_text_colour(isles, tmp_path):
    layouts, face = _ember(isles)
    gem = next(i for i in face.items if isinstance(i, Picture) and i.path.endswith("gem.svg"))
    assert cli.main(["render", str(isles), "--out", str(tmp_path / "out")]) == 0
    k = 300 / 25.4
    with Image.open(tmp_path / "out" / "painted-isles" / "cards" / "ember.png") as png:
        centre = ((gem.x + gem.w / 2 + face.bleed) * k, (gem.y + gem.h / 2 + face.bleed) * k)
        assert png.convert("RGB").getpixel(centre) == layouts.styles["spell"].colour[:3]


def test_the_fitter_measures_picture_icons_no_line_runs_past_its_box(isles):
    cards = isles / "cards" / "cards.yaml"
    many = " ".join(["{gem}{gem}{gem}{sun}"] * 12)
    cards.write_text(cards.read_text().replace('"Pay {gem}{gem}: deal 2 {sun} to a creature {star}."',
                                               f'"{many}"'))
    (isles / "game.yaml").write_text((isles / "game.yaml").read_text().replace(
        "max_length: 80", "max_length: 400"))
    _, face = _ember(isles)
    pictures = [i for i in face.items if isinstance(i, Picture) and "icons" in i.path]
    assert len(pictures) == 48
    box_left, box_top, box_w, box_h = 6, 20, 51.5, 40            # the spell text box (layouts.yaml)
    assert len({p.y for p in pictures}) > 1                      # wrapped onto several lines
    for p in pictures:
        assert p.x >= box_left - 1e-6 and p.x + p.w <= box_left + box_w + 1e-6
        assert p.y >= box_top - 1e-6 and p.y + p.h <= box_top + box_h + 1e-6


def test_a_changed_icon_redraws_the_cards_that_show_it_and_no_other(isles, tmp_path):
    from cardgen.build import build_game

    out = tmp_path / "out"
    assert build_game(str(isles), out, ("check", "cards")).ok
    (isles / "icons" / "gem.svg").write_text(GEM.replace("<path", '<path fill="#f00"'))
    result = build_game(str(isles), out, ("check", "cards"))
    assert {s.name: s.summary for s in result.stages}["cards"] == "1 drawn, 4 unchanged"


@pytest.mark.parametrize("content, words", [
    (None, "game.yaml:{line}: icons.gem: no image file 'icons/gem.svg'"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><image href="/etc/hosts"/></svg>',
     "game.yaml:{line}: icons.gem: icons/gem.svg line 1: <image> refers to '/etc/hosts' outside the drawing"),
    ("not a picture", "game.yaml:{line}: icons.gem: icons/gem.svg is not a picture"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><filter id="f"><feMorphology radius="4"/>'
     '</filter><path d="M0 0h9v9z" filter="url(#f)"/></svg>',
     "game.yaml:{line}: icons.gem: icons/gem.svg line 1: its <feMorphology> (radius 4) would take too long"),
])
def test_an_icon_that_cannot_be_drawn_is_game_yaml_s_error_at_its_line(isles, tmp_path, capsys, content,
                                                                      words):
    gem = isles / "icons" / "gem.svg"
    gem.unlink()
    if content is not None:
        gem.write_text(content)
    line = (isles / "game.yaml").read_text().splitlines().index("  gem: {image: icons/gem.svg}") + 1
    assert cli.main(["render", str(isles), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert words.format(line=line) in err and "Traceback" not in err


def test_an_icon_mapping_is_checked_when_game_yaml_is_read(isles, tmp_path, capsys):
    (isles / "game.yaml").write_text((isles / "game.yaml").read_text().replace(
        "gem: {image: icons/gem.svg}", "gem: {picture: icons/gem.svg}"))
    assert cli.main(["check", str(isles)]) == 2
    assert "icons.gem" in capsys.readouterr().err


def _data_pictures(html: str) -> dict[str, Image.Image]:
    import base64
    import io
    import re

    return {alt: Image.open(io.BytesIO(base64.b64decode(data))).convert("RGBA")
            for alt, data in re.findall(r'<img class="icon picture" alt="([^"]+)"[^>]*'
                                        r'src="data:image/png;base64,([^"]+)"', html)}


def _opaque_colours(image: Image.Image) -> set[tuple]:
    data = image.tobytes()
    return {tuple(data[i:i + 3]) for i in range(0, len(data), 4) if data[i + 3] == 255}


def test_the_site_and_the_books_show_picture_icons_not_their_names(isles, tmp_path):
    from cardgen.publish.icons import BOOK_INK, SITE_INK, html_icons
    from cardgen.publish.nodes import rich

    assert cli.main(["build", str(isles), "--out", str(tmp_path / "out"), "--only", "site"]) == 0
    page = (tmp_path / "out" / "painted-isles" / "site" / "card" / "ember.html").read_text()
    assert "{gem}" not in page and "{sun}" not in page and "{star}" not in page
    pictures = _data_pictures(page)
    assert set(pictures) == {"gem", "sun"}
    # gem in the page's text colour; sun (colour: original) in its own orange
    assert _opaque_colours(pictures["gem"]) == {SITE_INK[:3]}
    assert _opaque_colours(pictures["sun"]) == {(245, 166, 35)}
    book = str(rich("Pay {gem}, then {star}.", html_icons(load_game(isles))))
    assert _opaque_colours(_data_pictures(book)["gem"]) == {BOOK_INK[:3]}
    assert '<span class="icon" title="star">\u2605</span>' in book
