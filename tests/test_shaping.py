"""Card text is shaped as the rulebook's: every bundled card title, as its card sets it (font, size,
line), is as wide as WeasyPrint (HarfBuzz through Pango) sets the same string in the same font and
size, within 0.5%. Unkerned advances made them 1.8-3.8% wider."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.render.display import Run
from cardgen.render.fonts import PT_TO_MM, load_face
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.shaping import glyphs
from tests.conftest import ROOT

PX_TO_MM = 25.4 / 96


def title_runs(game_id: str) -> list[Run]:
    """Each card's title as its face draws it: the runs whose text is part of the card's name."""
    game = load_game(game_id)
    layouts = load_layouts(game)
    runs = {}
    for card in game.cards.values():
        for item in layout_face(layouts, card).items:
            if isinstance(item, Run) and len(item.text) > 2 and item.text in card.name:
                runs[item.font, item.size, item.text] = item
    return list(runs.values())


def weasyprint_widths(runs: list[Run]) -> list[float]:
    """The width in mm of each run's text as WeasyPrint sets it, one paragraph each."""
    from markupsafe import escape
    from weasyprint import HTML

    families = {font: f"f{i}" for i, font in enumerate(sorted({r.font for r in runs}))}
    faces = "".join(f"@font-face {{ font-family: {name}; src: url({Path(font).as_uri()}) }}"
                    for font, name in families.items())
    paragraphs = "".join(f'<p style="font-family: {families[r.font]}; font-size: {r.size}pt">'
                         f'{escape(r.text)}</p>' for r in runs)
    page = "@page { size: 2000mm 4000mm } p { margin: 0; white-space: pre }"
    html = f"<style>{faces} {page}</style>{paragraphs}"
    document = HTML(string=html).render()
    widths = []

    def walk(box):
        if type(box).__name__ == "TextBox":
            widths.append(box.width * PX_TO_MM)
        for child in getattr(box, "children", None) or []:
            walk(child)

    for page in document.pages:
        walk(page._page_box)
    assert len(widths) == len(runs), "one text box per title"
    return widths


@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_card_titles_are_as_wide_as_the_rulebook_sets_them(game_id):
    runs = title_runs(game_id)
    assert len(runs) >= 5, "the game's titles were found"
    off = []
    for run, theirs in zip(runs, weasyprint_widths(runs), strict=True):
        ours = load_face(run.font).width_mm(run.text, run.size)
        if abs(ours - theirs) > 0.005 * theirs:
            off.append(f"{run.text!r} at {run.size}pt: {ours:.2f} mm here, {theirs:.2f} mm in the book "
                       f"({100 * (ours / theirs - 1):+.1f}%)")
    assert not off, "\n".join(off)


def test_kerning_and_ligatures_are_applied():
    face = load_face(str(ROOT / "fonts" / "alfa-slab-one" / "AlfaSlabOne-Regular.ttf"))
    unkerned = sum(face.advances[ord(c)] for c in "AVATAR") / face.upem
    assert face.em("AVATAR") < unkerned * 0.95          # A-V, V-A, A-T pulled together
    assert len(glyphs(face.path, "office").glyphs) == 4  # o, the ffi ligature, c, e
    assert face.width_mm("AV AV", 10) == pytest.approx((2 * face.em("AV") + face.em(" ")) * 10 * PT_TO_MM)


def test_runs_are_joined_only_where_shaping_them_together_moves_no_glyph():
    from cardgen.render.text import _merge

    face = load_face(str(ROOT / "fonts" / "alfa-slab-one" / "AlfaSlabOne-Regular.ttf"))

    def run(x, text):
        return Run(x, 10, text, face.path, face.name, 20, (0, 0, 0, 255))

    # touching pieces of one word ("A" then "V", split by a span): joined, the pair would kern
    assert [r.text for r in _merge([run(0, "A"), run(face.width_mm("A", 20), "V")])] == ["A", "V"]
    assert [r.text for r in _merge([run(0, "AB"), run(face.width_mm("AB ", 20), "CD")])] == ["AB CD"]
