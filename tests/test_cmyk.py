"""CMYK print-on-demand singles (`cardgen sheets --singles --cmyk PROFILE.icc`): every colour of
every page, form and image in DeviceCMYK, the shop's profile embedded as the output intent.

The conversion needs a CMYK output profile. None ships with Python's libraries: the tests use
Ghostscript's (Debian's libgs-common, /usr/share/color/icc/ghostscript/default_cmyk.icc), and
are skipped where it is not installed; the refusals need no profile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import ContentStream

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.render.display import Face, Picture, Rect
from cardgen.sheets import SheetOptions, make_sheets
from tests.conftest import ROOT

PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
needs_profile = pytest.mark.skipif(not PROFILE.is_file(), reason=f"no CMYK output profile at {PROFILE}")
RGB_OPS = {"rg", "RG"}
CMYK_OPS = {"k", "K"}


def colour_use(path: Path) -> tuple[dict[str, int], dict[str, int], list]:
    """The colour operators of every page and form, the colour spaces of every image, and the
    document's output intents."""
    reader = PdfReader(path)
    ops: dict[str, int] = {}
    spaces: dict[str, int] = {}
    seen: set[int] = set()

    def walk(owner, content):
        for _operands, op in ContentStream(content, reader).operations:
            op = op.decode() if isinstance(op, bytes) else op
            if op in RGB_OPS | CMYK_OPS | {"g", "G", "cs", "CS", "sc", "scn", "SC", "SCN"}:
                ops[op] = ops.get(op, 0) + 1
        resources = owner.get("/Resources") or {}
        resources = resources.get_object() if hasattr(resources, "get_object") else resources
        for ref in (resources.get("/XObject") or {}).values():
            xobject = ref.get_object()
            if id(xobject) in seen:
                continue
            seen.add(id(xobject))
            if xobject["/Subtype"] == "/Image":
                space = str(xobject.get("/ColorSpace"))
                spaces[space] = spaces.get(space, 0) + 1
                if "/SMask" in xobject:      # its alpha, as a soft mask
                    spaces["SMask " + str(xobject["/SMask"].get_object().get("/ColorSpace"))] = 1
            else:
                walk(xobject, xobject)

    for page in reader.pages:
        walk(page, page.get_contents())
    return ops, spaces, list(reader.trailer["/Root"].get("/OutputIntents") or [])


@needs_profile
def test_cmyk_singles_have_no_rgb_left_and_carry_the_profile(tmp_path):
    game = load_game("amiibart")     # SVG art: its shapes' colours go through the profile too
    options = SheetOptions(papers=(), singles=True, cmyk=PROFILE)
    [pdf] = make_sheets(game, tmp_path, options=options, force=True)
    ops, spaces, intents = colour_use(pdf)
    assert not RGB_OPS & set(ops), ops
    assert ops.get("k", 0) > 100 and ops.get("K", 0) > 10
    [intent] = intents
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFX"
    embedded = intent["/DestOutputProfile"].get_object()
    assert embedded["/N"] == 4 and embedded.get_data() == PROFILE.read_bytes()
    # printed in one run with the proxy sheets (whose cards are drawn once and shared): the sheets
    # stay RGB, the singles are CMYK all the same
    sheets, singles = make_sheets(game, tmp_path / "both", force=True,
                                  options=SheetOptions(papers=("a4",), singles=True, cmyk=PROFILE))
    rgb_ops, _, rgb_intents = colour_use(sheets)
    assert "rg" in rgb_ops and not rgb_intents
    cmyk_ops, _, [_intent] = colour_use(singles)
    assert not RGB_OPS & set(cmyk_ops)


@needs_profile
def test_cmyk_colours_are_the_profiles_and_raster_art_keeps_its_alpha(tmp_path):
    from cardgen.sheets.cmyk import Converter
    from cardgen.sheets.pdf import Deckload, singles_pdf

    art = tmp_path / "art.png"
    image = Image.new("RGBA", (40, 40), (200, 50, 43, 255))
    image.paste((0, 0, 0, 0), (0, 0, 20, 40))          # the left half transparent
    image.save(art)
    face = Face("test", 63.5, 88.9, 3.0, [Rect(-3, -3, 69.5, 94.9, fill=(200, 50, 43, 255)),
                                           Picture(10, 10, 40, 40, str(art), "contain")])
    converter = Converter(PROFILE)
    pdf = tmp_path / "singles.pdf"
    pdf.write_bytes(singles_pdf(Deckload("test", [face], [None]), False, cmyk=converter))
    ops, spaces, _ = colour_use(pdf)
    assert spaces == {"/DeviceCMYK": 1, "SMask /DeviceGray": 1}      # the art, and its alpha
    assert not RGB_OPS & set(ops)
    # the fill's four numbers are what LittleCMS gives for that sRGB colour through the profile
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)),
                                        "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    want = ImageCms.applyTransform(Image.new("RGB", (1, 1), (200, 50, 43)), transform).getpixel((0, 0))
    assert f"{' '.join(f'{v / 255:.3f}' for v in want)} k" in _streams(pdf)


def _streams(pdf: Path) -> str:
    reader = PdfReader(pdf)
    out = []
    for page in reader.pages:
        out.append(page.get_contents().get_data().decode("latin-1"))
        for ref in (page["/Resources"].get("/XObject") or {}).values():
            xobject = ref.get_object()
            if xobject["/Subtype"] == "/Form":
                out.append(xobject.get_data().decode("latin-1"))
    return "\n".join(out)


def test_a_profile_that_is_not_cmyk_or_not_a_profile_is_refused(tmp_path):
    from cardgen.sheets.cmyk import Converter

    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    text = tmp_path / "notes.icc"
    text.write_text("not a profile")
    for path, says in ((rgb, "colour space is RGB"), (text, "not an ICC profile"),
                       (tmp_path / "missing.icc", "no such file")):
        with pytest.raises(ContentError) as caught:
            Converter(path)
        [issue] = caught.value.issues
        assert issue.field == "--cmyk" and says in issue.message


def test_cli_asks_for_singles_with_cmyk(tmp_path, capsys):
    from cardgen.cli import main

    status = main(["sheets", str(ROOT / "content" / "dojo-duel"), "--cmyk", str(tmp_path / "x.icc"),
                   "--out", str(tmp_path)])
    assert status == 2
    assert "add --singles" in capsys.readouterr().err
