"""Without the private interfaces the fast paths use (a Pillow or ReportLab past pyproject's upper
bound), or without the optional zlib-ng, cards, PNGs and PDFs come out the same through the public
API, with one line on stderr per process instead of a traceback."""

from __future__ import annotations

import io
import subprocess
import sys
import types

import pytest
from PIL import Image, ImageChops

from cardgen.model import load_game
from cardgen.render import fallback, paint_pdf, paint_png
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.memo import BoundedCache, image_bytes
from tests.conftest import ROOT


def faces(game_id: str = "dojo-duel", count: int = 3):
    game = load_game(game_id)
    layouts = load_layouts(game)
    return [layout_face(layouts, card) for card in list(game.cards.values())[:count]]


@pytest.fixture
def fresh(monkeypatch):
    """Nothing said yet, nothing decided yet, no background painted yet: as in a new process."""
    monkeypatch.setattr(fallback, "_SAID", set())
    monkeypatch.setattr(paint_png, "_LAYERS", BoundedCache(1 << 30, image_bytes))
    monkeypatch.setattr(paint_pdf, "_FAST_CANVAS", {}, raising=False)
    forget()
    yield
    forget()


def forget() -> None:
    """Let the next card try Pillow's internals again."""
    if hasattr(paint_png, "fast_pillow"):
        paint_png.fast_pillow.cache_clear()


def gone_for_cardgen(owner, name: str, monkeypatch) -> None:
    """`owner.name` as a Pillow that no longer has it would look to cardgen, while Pillow's own
    code (which uses the same internals today: Image.new, Image.save) goes on working."""
    original = getattr(owner, name)

    def removed(*args, **kwargs):
        if not sys._getframe(1).f_globals.get("__name__", "").startswith("PIL"):
            raise AttributeError(f"module {owner.__name__!r} has no attribute {name!r}")
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, removed)


GONE_FOR_CARDGEN = ("def gone(owner, name):\n"
                    "    original = getattr(owner, name)\n"
                    "    def removed(*args, **kwargs):\n"
                    "        if not sys._getframe(1).f_globals.get('__name__', '').startswith('PIL'):\n"
                    "            raise AttributeError(name)\n"
                    "        return original(*args, **kwargs)\n"
                    "    setattr(owner, name, removed)\n")


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image


@pytest.mark.parametrize("owner, name", [("Image", "_getencoder"), ("core", "fill")])
def test_without_pillows_internals_cards_are_the_same_pixels(fresh, monkeypatch, capsys, owner, name):
    cards = faces()
    fast = [paint_png.png_bytes(face) for face in cards]
    capsys.readouterr()

    gone_for_cardgen(Image if owner == "Image" else Image.core, name, monkeypatch)
    forget()
    paint_png._LAYERS.clear()
    public = [paint_png.png_bytes(face) for face in cards]

    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardgen: Pillow ") and name in err, err
    assert "public API" in err
    for before, after in zip(fast, public, strict=True):
        a, b = decoded(before), decoded(after)
        assert b.mode == "RGB" and b.size == a.size
        assert tuple(round(v) for v in b.info["dpi"]) == (300, 300)
        assert ImageChops.difference(a, b).getbbox() is None     # every pixel the same


def test_a_render_without_pillows_encoder_says_so_once_and_writes_valid_pngs(tmp_path):
    """A whole render (the parent draws the first card of each type, forked workers the rest)."""
    code = ("import sys, PIL.Image\n"
            + GONE_FOR_CARDGEN +
            "gone(PIL.Image, '_getencoder')\n"
            "from cardgen.cli import main\n"
            "sys.exit(main(['render', 'dojo-duel', '--out', sys.argv[1]]))\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if line.startswith("cardgen: Pillow")]
    assert len(notices) == 1, done.stderr
    assert "Traceback" not in done.stderr
    pngs = list(tmp_path.rglob("*.png"))
    assert len(pngs) >= 40
    for png in pngs[:5]:
        assert round(decoded(png.read_bytes()).info["dpi"][0]) == 300


def test_reportlab_adjustments_leave_a_reportlab_without_those_internals_alone(fresh, monkeypatch, capsys):
    stand_in = types.SimpleNamespace()                  # a pdfdoc that has none of them
    monkeypatch.setattr(paint_pdf, "_pdfdoc", lambda: stand_in)
    paint_pdf.prepare_reportlab()
    paint_pdf.prepare_reportlab()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardgen: ReportLab "), err
    assert "reportlab.pdfbase.pdfdoc.PDFFormXObject.format" in err
    assert vars(stand_in) == {}


def sheet_pixels(draw_face_fast: bool, monkeypatch) -> Image.Image:
    """One card drawn into a form on a page, as the proxy sheets do, rendered at 100 dpi."""
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    monkeypatch.setattr(paint_pdf, "_FAST_CANVAS", {})
    if not draw_face_fast:
        monkeypatch.setattr(paint_pdf, "fast_canvas", lambda canvas: False)
    face = faces("amfibido", 1)[0]
    buffer = io.BytesIO()
    w, h = (face.width + 2 * face.bleed) * paint_pdf.MM, (face.height + 2 * face.bleed) * paint_pdf.MM
    canvas = Canvas(buffer, pagesize=(w, h), invariant=1)
    canvas.beginForm("card", 0, 0, w, h)
    paint_pdf.draw_face(canvas, face, face.bleed * paint_pdf.MM, h - face.bleed * paint_pdf.MM)
    canvas.endForm()
    canvas.doForm("card")
    canvas.showPage()
    canvas.save()
    pdf = pdfium.PdfDocument(buffer.getvalue())
    return pdf[0].render(scale=100 / 72).to_pil().convert("RGB")


def test_faces_drawn_through_reportlabs_public_api_look_the_same(fresh, monkeypatch):
    fast = sheet_pixels(True, monkeypatch)
    public = sheet_pixels(False, monkeypatch)
    assert public.size == fast.size
    assert ImageChops.difference(fast, public).getbbox() is None


def test_a_canvas_without_reportlabs_internals_is_drawn_through_its_public_api(fresh, capsys):
    from reportlab.pdfgen.canvas import Canvas

    class Future(Canvas):        # a ReportLab whose stream is no longer the list Canvas._code
        pass

    canvas = Future(io.BytesIO())
    canvas._code = tuple(canvas._code)
    assert not paint_pdf.fast_canvas(canvas)
    assert not paint_pdf.fast_canvas(canvas)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Canvas._code" in err, err


def test_without_zlib_ng_cards_and_sheets_are_deflated_by_zlib(tmp_path):
    """zlib-ng is the optional `fast` extra: without it (an import that fails), zlib does the work."""
    code = ("import sys, zlib\n"
            "sys.modules['zlib_ng'] = None          # as if zlib-ng were not installed\n"
            "from cardgen.render import deflate\n"
            "assert deflate.deflater is zlib and deflate.PNG_LEVEL == 1, deflate.deflater\n"
            "from cardgen.cli import main\n"
            # (--jobs 1: the stages run in this process, whose modules are looked at below)
            "code = main(['build', 'dojo-duel', '--only', 'cards', 'sheets', '--jobs', '1',\n"
            "             '--out', sys.argv[1]])\n"
            "from reportlab.pdfbase import pdfdoc\n"
            "assert pdfdoc.PDFZCompress._cardgen_fast\n"
            "assert 'zlib_ng' not in {m.split('.')[0] for m, v in sys.modules.items() if v is not None}\n"
            "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr.strip() == "", done.stderr
    pngs = list(tmp_path.rglob("*.png"))
    assert len(pngs) >= 40
    assert decoded(pngs[0].read_bytes()).size[0] > 0
    from pypdf import PdfReader

    pdf = tmp_path / "dojo-duel" / "proxies-letter.pdf"
    assert len(PdfReader(pdf).pages) >= 5


def test_cards_are_deflated_by_a_library_whose_bytes_depend_on_the_input_alone():
    """The same pixels must give the same PNG bytes in every build. ISA-L's deflate (the `fast`
    extra before zlib-ng) does not: bench/png_determinism.py counts its changed drawings."""
    from cardgen.render import deflate, paint_png

    assert deflate.deflater.__name__ in {"zlib", "zlib_ng.zlib_ng"}, deflate.deflater
    assert paint_png.deflater is deflate.deflater


def test_zlib_ng_is_an_optional_extra_and_every_dependency_has_a_floor():
    """`pip install cardgen` works without zlib-ng (zlib does its work); `cardgen[fast]` brings it."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import mindeps
    finally:
        sys.path.remove(str(ROOT / "bench"))
    floors = mindeps.floors(extras=[])
    assert "zlib-ng" not in floors
    assert "zlib-ng" in mindeps.floors(extras=["fast"])
    assert {"pyyaml", "pillow", "reportlab", "jinja2", "markupsafe", "markdown", "weasyprint"} <= set(floors)


def test_a_weasyprint_older_than_the_floor_is_named_not_a_traceback(monkeypatch):
    from cardgen.errors import ContentError
    from cardgen.publish.fetcher import ConfinedFetcher

    monkeypatch.setitem(sys.modules, "weasyprint.urls", types.ModuleType("weasyprint.urls"))   # 62-67
    with pytest.raises(ContentError, match=r"WeasyPrint .* has no weasyprint.urls.URLFetcher.* 68 or later"):
        ConfinedFetcher([ROOT]).weasyprint_fetcher()


def test_without_jinjas_internals_layout_expressions_give_the_same_cards(fresh, monkeypatch, capsys):
    """A Jinja2 whose TemplateExpression keeps its template under another name: every card of
    two games is laid out as before, through compile_expression's and render's public calls."""
    from jinja2.environment import TemplateExpression

    from cardgen.render import layout

    def layouts_of(game_id):
        game = load_game(game_id)
        layouts = load_layouts(game)
        return [layout_face(layouts, card) for card in game.cards.values()]

    monkeypatch.setattr(layout, "_FAST_JINJA", [], raising=False)
    before = {game_id: layouts_of(game_id) for game_id in ("amfibido", "adapt")}
    capsys.readouterr()
    original_init = TemplateExpression.__init__

    def init(self, template, undefined_to_none):
        original_init(self, template, undefined_to_none)
        self._renamed = vars(self).pop("_template")

    def call(self, *args, **kwargs):
        context = self._renamed.new_context(dict(*args, **kwargs))
        for _ in self._renamed.root_render_func(context):
            pass
        value = context.vars["result"]
        return None if self._undefined_to_none and isinstance(value, layout_undefined()) else value

    monkeypatch.setattr(TemplateExpression, "__init__", init)
    monkeypatch.setattr(TemplateExpression, "__call__", call)
    monkeypatch.setattr(layout, "_FAST_JINJA", [], raising=False)
    after = {game_id: layouts_of(game_id) for game_id in ("amfibido", "adapt")}
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardgen: Jinja2 ") and "_template" in err, err
    assert layout._FAST_JINJA == [False]
    assert after == before


def layout_undefined():
    from jinja2 import Undefined

    return Undefined


def test_a_reportlab_without_shaped_strings_writes_the_text_unshaped_and_says_so(fresh, monkeypatch, capsys):
    from reportlab.pdfbase import ttfonts
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.display import Face, Run
    from cardgen.render.fonts import FontBook

    monkeypatch.delattr(ttfonts, "ShapedStr")
    slab = FontBook().face("Alfa Slab One")
    face = Face("t", 63.5, 88.9, 0.0, [Run(4, 20, "AVATAR", slab.path, slab.name, 20.0, (0, 0, 0, 255))])
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 300))
    paint_pdf.draw_face(canvas, face, 0, 300)
    canvas.save()
    err = capsys.readouterr().err
    assert err.startswith("cardgen: ReportLab ") and "ttfonts.ShapedStr (shaped text)" in err
    from pypdf import PdfReader

    assert "AVATAR" in PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text()
