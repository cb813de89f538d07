"""Proxy sheets, read back from the PDF: page sizes, where every card really lands (rasterised),
mirrored backs, calibration offsets, crop marks outside the cards, embedded fonts, page boxes.

Card positions are measured from pixels: a test game whose faces are a solid colour inset
0.5 mm from the trim (a white hairline frame, then yellow bleed) is rendered at 1200 dpi in thin
strips, and the edges of the colour are found to a fraction of a pixel. The expected numbers are
worked out here from the paper and card sizes, not read from cardgen's own constants.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from cardgen.model import load_deck, load_game
from cardgen.sheets import SheetOptions, make_sheets, print_list
from cardgen.sheets.geometry import impose
from tests.conftest import ROOT
from tests.pdf_marks import read_page

GUILD = ROOT / "tests" / "data" / "lantern-guild"
PT = 72 / 25.4                      # points per mm
LETTER, A4 = (215.9, 279.4), (210.0, 297.0)
POKER = (63.5, 88.9)
TOL = 0.1                           # mm
DPI = 1200

# Solid colours inset 0.5 mm inside the trim, yellow bleed outside it.
MARKER_LAYOUTS = """
card: {size: poker, bleed: 3.175, safe: 3.175}
colours: {lamp: "#c00000", trick: "#00a000", relic: "#0000c0", fog: "#000000", back: "#606060",
          bleed: "#ffe000"}
templates:
  edge: [{rect: bleed, fill: bleed}, {rect: trim, fill: "#ffffff"}]
types:
  lamplighter: [{use: edge}, {rect: [0.5, 0.5, 62.5, 87.9], fill: lamp}]
  trick: [{use: edge}, {rect: [0.5, 0.5, 62.5, 87.9], fill: trick}]
  relic: [{use: edge}, {rect: [0.5, 0.5, 62.5, 87.9], fill: relic}]
  fog: [{use: edge}, {rect: [0.5, 0.5, 62.5, 87.9], fill: fog}, {text: "{{ card.name }}", at: [5, 5, 50, 10]}]
backs:
  default: [{use: edge}, {rect: [0.5, 0.5, 62.5, 87.9], fill: back}]
  fog: [{use: edge}, {rect: [0.5, 0.5, 62.5, 87.9], fill: fog}]
back_for: "{{ 'fog' if card.type == 'fog' else 'default' }}"
"""
BLANK_LAYOUTS = """
card: {size: poker}
types: {lamplighter: [], trick: [], relic: [], fog: []}
backs: {default: []}
"""
COLOURS = {"lamp": (192, 0, 0), "trick": (0, 160, 0), "relic": (0, 0, 192), "fog": (0, 0, 0),
           "back": (96, 96, 96)}


def guild_copy(tmp: Path, layouts: str) -> Path:
    folder = tmp / "guild"
    shutil.copytree(GUILD, folder)
    (folder / "layouts.yaml").write_text(layouts)
    return folder


@pytest.fixture(scope="module")
def marker(tmp_path_factory):
    return guild_copy(tmp_path_factory.mktemp("marker"), MARKER_LAYOUTS)


def build(folder: Path, out: Path, deck: str | None = None, **options) -> dict[str, Path]:
    game = load_game(folder)
    deck_obj = load_deck(folder / "decks" / deck) if deck else None
    paths = make_sheets(game, out, deck_obj, SheetOptions(**options))
    return {p.stem.rsplit("-", 1)[1]: p for p in paths}


# -- reading pixels --------------------------------------------------------------------------------

def luminance_line(page, along: str, at_mm: float, dpi: int = DPI) -> tuple[list[int], float]:
    """Grey values along a 1-pixel line through the page: horizontal (along x) at y = at_mm from
    the top, or vertical (along y) at x = at_mm. Returns the values and pixels per mm."""
    w_pt, h_pt = page.get_size()
    half = 0.25 * PT
    if along == "x":
        top = at_mm * PT - half
        crop = (0, h_pt - top - 2 * half, 0, top)
    else:
        left = at_mm * PT - half
        crop = (left, 0, w_pt - left - 2 * half, 0)
    image = page.render(scale=dpi / 72, crop=crop).to_pil().convert("L")
    if along == "x":
        line = image.crop((0, image.height // 2, image.width, image.height // 2 + 1))
    else:
        line = image.crop((image.width // 2, 0, image.width // 2 + 1, image.height))
    return list(line.tobytes()), dpi / 25.4


def dark_runs(values: list[int], px_per_mm: float, threshold: int = 128) -> list[tuple[float, float]]:
    """(start, end) in mm of every dark stretch, edges interpolated between pixel centres."""
    runs, start = [], None
    for i in range(1, len(values)):
        a, b = values[i - 1], values[i]
        if a > threshold >= b:
            start = (i - 1 + (a - threshold) / (a - b) + 0.5) / px_per_mm
        elif a <= threshold < b and start is not None:
            runs.append((start, (i - 1 + (threshold - a) / (b - a) + 0.5) / px_per_mm))
            start = None
    return runs


def card_runs(page, along: str, at_mm: float) -> list[tuple[float, float]]:
    """Stretches longer than 20 mm: card colour, not marks or margin notes."""
    values, k = luminance_line(page, along, at_mm)
    return [r for r in dark_runs(values, k) if r[1] - r[0] > 20]


def measured_cards(page, cols: list[float], rows: list[float]) -> list[tuple[float, float, float, float]]:
    """Trim rectangles (x0, y0, x1, y1) of the cards crossed by lines through these column and row
    centres: the colour's edges, grown by the 0.5 mm white frame."""
    y_runs = {x: card_runs(page, "y", x) for x in cols}
    rects = []
    for y in rows:
        for x0, x1 in card_runs(page, "x", y):
            col = min(cols, key=lambda c, mid=(x0 + x1) / 2: abs(c - mid))
            spans = [r for r in y_runs[col] if r[0] <= y <= r[1]]
            assert spans, f"a card at x {x0:.2f}-{x1:.2f} has no vertical extent at x={col}"
            y0, y1 = spans[0]
            rects.append((x0 - 0.5, y0 - 0.5, x1 + 0.5, y1 + 0.5))
    return rects


def expected_grid(paper, card=POKER, cols=3, rows=3, gap=0.0):
    """Trim rectangles of a centred grid, worked out from the paper and card sizes."""
    pw, ph = paper
    left = (pw - (cols * card[0] + (cols - 1) * gap)) / 2
    top = (ph - (rows * card[1] + (rows - 1) * gap)) / 2
    return [(left + c * (card[0] + gap), top + r * (card[1] + gap),
             left + c * (card[0] + gap) + card[0], top + r * (card[1] + gap) + card[1])
            for r in range(rows) for c in range(cols)]


def centres(rects):
    xs = sorted({round((r[0] + r[2]) / 2, 3) for r in rects})
    ys = sorted({round((r[1] + r[3]) / 2, 3) for r in rects})
    return xs, ys


def assert_rects(measured, expected):
    assert len(measured) == len(expected), (measured, expected)
    for got, want in zip(sorted(measured, key=lambda r: (round(r[1]), r[0])),
                         sorted(expected, key=lambda r: (round(r[1]), r[0])), strict=True):
        assert all(abs(g - w) <= TOL for g, w in zip(got, want, strict=True)), (got, want)


def colour_at(page, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    w_pt, h_pt = page.get_size()
    x, y = x_mm * PT, y_mm * PT
    image = page.render(scale=1, crop=(x - 2, h_pt - y - 2, w_pt - x - 2, y - 2)).to_pil().convert("RGB")
    return image.getpixel((image.width // 2, image.height // 2))


def near(colour, name):
    return all(abs(a - b) <= 24 for a, b in zip(colour, COLOURS[name], strict=True))


# -- page sizes and the nine card positions --------------------------------------------------------

@pytest.mark.parametrize("paper,size_pt", [("letter", (612, 792)), ("a4", (595.28, 841.89))])
def test_page_sizes(marker, tmp_path, paper, size_pt):
    pdf = pypdf.PdfReader(build(marker, tmp_path, papers=(paper,))[paper])
    for page in pdf.pages:
        assert float(page.mediabox.width) == pytest.approx(size_pt[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size_pt[1], abs=0.01)


@pytest.mark.parametrize("paper,dims", [("letter", LETTER), ("a4", A4)])
@pytest.mark.parametrize("gap", [0.0, 1.0])
def test_nine_poker_cards_land_where_they_should(marker, tmp_path, paper, dims, gap):
    path = build(marker, tmp_path, papers=(paper,), gap=gap)[paper]
    expected = expected_grid(dims, gap=gap)
    page = pdfium.PdfDocument(path)[0]
    xs, ys = centres(expected)
    assert_rects(measured_cards(page, xs, ys), expected)


def test_shared_cut_lines_have_no_gap_and_bleed_only_outside(marker, tmp_path):
    path = build(marker, tmp_path, papers=("letter",), bleed=True)["letter"]
    page = pdfium.PdfDocument(path)[0]
    expected = expected_grid(LETTER)
    xs, ys = centres(expected)
    assert_rects(measured_cards(page, xs, ys), expected)
    # between neighbours: the two white frames, no yellow bleed (the cut guide runs on the line itself)
    w_pt, h_pt = page.get_size()
    for x in (76.2, 139.7):
        crop = ((x - 0.45) * PT, h_pt - (ys[0] + 5) * PT, w_pt - (x + 0.45) * PT, (ys[0] - 5) * PT)
        strip = page.render(scale=1200 / 72, crop=crop).to_pil().convert("RGB")
        assert not [c for _n, c in strip.getcolors(1 << 20) if c[0] > 200 and c[1] > 180 and c[2] < 80], \
            "shared cut line: no yellow bleed between neighbours"
    # outside the block: yellow bleed (1/8 in fits in Letter's side margin)
    left = colour_at(page, 12.7 - 1.5, ys[1])
    assert left[0] > 200 and left[2] < 80, left


def test_gap_with_bleed_keeps_the_bleed_within_half_the_gap(marker, tmp_path):
    path = build(marker, tmp_path, papers=("a4",), gap=4.0, bleed=True)["a4"]
    page = pdfium.PdfDocument(path)[0]
    expected = expected_grid(A4, gap=4.0)
    xs, ys = centres(expected)
    assert_rects(measured_cards(page, xs, ys), expected)
    right_edge = expected[0][2]
    assert colour_at(page, right_edge + 1.0, ys[0])[2] < 80        # bleed inside half the gap
    values, k = luminance_line(page, "x", ys[0])
    # the bleed stops at the middle of the gap: yellow either side meets without overlap
    i = round((right_edge + 2.0) * k)
    assert min(values[i - 3:i + 3]) > 150


def test_crop_marks_extend_the_cut_lines_into_the_margin(marker, tmp_path):
    path = build(marker, tmp_path, papers=("a4",))["a4"]
    page = pdfium.PdfDocument(path)[0]
    expected = expected_grid(A4)
    top = expected[0][1]
    values, k = luminance_line(page, "x", top - 2.5)        # through the top margin
    marks = [(a + b) / 2 for a, b in dark_runs(values, k, threshold=200) if b - a < 1]
    cuts = sorted({r[0] for r in expected} | {r[2] for r in expected})
    assert len(marks) == len(cuts)
    for mark, cut in zip(marks, cuts, strict=True):
        assert abs(mark - cut) <= TOL


@pytest.mark.parametrize("bleed", [False, True])
def test_nothing_is_drawn_in_letters_unprintable_strip_above_the_cards(marker, tmp_path, bleed):
    """Letter's margins above and below a poker grid are 6.35 mm: a crop mark there would fall in
    the strip printers leave blank (up to 5 mm), so the cut lines are shown on the cards' edges."""
    page = pdfium.PdfDocument(build(marker, tmp_path, papers=("letter",), bleed=bleed)["letter"])[0]
    for y in (1.0, 3.0, 4.8):
        values, k = luminance_line(page, "x", y)
        assert not dark_runs(values, k, threshold=200), f"something drawn {y} mm from the top"


@pytest.mark.parametrize("gap,bleed", [(0.0, False), (0.0, True), (3.0, True)])
@pytest.mark.parametrize("backs", ["duplex-long", "fold"])
def test_nothing_but_cards_inside_the_cards(tmp_path, gap, bleed, backs):
    """Blank cards: whatever is drawn (crop marks, notes, rulers, fold line) is outside every card."""
    folder = guild_copy(tmp_path, BLANK_LAYOUTS)
    game = load_game(folder)
    for paper in ("letter", "a4"):
        imp = impose(paper, *POKER, gap=gap, bleed=3.175 if bleed else 0.0, fold=backs == "fold")
        path = make_sheets(game, tmp_path / "out", None,
                           SheetOptions((paper,), backs, (0.0, 0.0), gap, bleed))[0]
        pdf = pdfium.PdfDocument(path)
        image = pdf[0].render(scale=150 / 72).to_pil().convert("L")
        k = 150 / 25.4
        slots = [imp.slot(i) for i in range(imp.per_page)]
        if backs == "fold":
            slots += [imp.back_slot(i, "fold") for i in range(imp.per_page)]
        for s in slots:
            # the card, shrunk by two pixels (0.34 mm) for anti-aliasing: the cut guides run on its
            # edges and through its bleed, on the cut lines, and hairlines render a pixel wide
            box = (round(s.x * k) + 2, round(s.y * k) + 2, round((s.x + POKER[0]) * k) - 2,
                   round((s.y + POKER[1]) * k) - 2)
            low, _high = image.crop(box).getextrema()
            assert low > 245, f"{paper}: something drawn over the card at {s}"
        # and the margin is not empty: the marks and the notes are there
        assert image.getextrema()[0] < 60


# -- backs --------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,offset", [("duplex-long", (0.0, 0.0)), ("duplex-short", (0.0, 0.0)),
                                         ("duplex-long", (1.5, -2.0)), ("duplex-short", (-3.0, 1.2))])
@pytest.mark.parametrize("bleed", [False, True])
def test_backs_are_mirrored_and_offsets_move_them(marker, tmp_path, mode, offset, bleed):
    """The set has 10 cards: sheet 2 holds only the fog bank, top left. Its back must be behind it:
    top right after a long-edge flip, bottom left after a short-edge flip, moved by the offsets.
    With bleed, each back has its face's bleed, mirrored: the cut shows the same on both sides."""
    path = build(marker, tmp_path, papers=("letter",), backs=mode, offset=offset, bleed=bleed)["letter"]
    pdf = pdfium.PdfDocument(path)
    assert len(pdf) == 4                               # face, back, face, back
    face_page, back_page = pdf[2], pdf[3]
    face = expected_grid(LETTER)[0]
    xs, ys = centres([face])
    [measured] = measured_cards(face_page, xs, ys)
    assert_rects([measured], [face])
    assert near(colour_at(face_page, xs[0], ys[0]), "fog")
    pw, ph = LETTER
    if mode == "duplex-long":
        back = (pw - face[2], face[1], pw - face[0], face[3])
    else:
        back = (face[0], ph - face[3], face[2], ph - face[1])
    back = (back[0] + offset[0], back[1] + offset[1], back[2] + offset[0], back[3] + offset[1])
    bx, by = centres([back])
    [got] = measured_cards(back_page, bx, by)
    assert_rects([got], [back])
    assert near(colour_at(back_page, bx[0], by[0]), "fog")
    # the full first sheet: every back is the mirror image of its face, offset included
    grid = expected_grid(LETTER)
    if mode == "duplex-long":
        backs = [(pw - r[2], r[1], pw - r[0], r[3]) for r in grid]
    else:
        backs = [(r[0], ph - r[3], r[2], ph - r[1]) for r in grid]
    backs = [(a + offset[0], b + offset[1], c + offset[0], d + offset[1]) for a, b, c, d in backs]
    bxs, bys = centres(backs)
    assert_rects(measured_cards(pdf[1], bxs, bys), backs)
    # the bleed each copy is drawn with (its clip in the content stream), face against back
    reader = pypdf.PdfReader(path)
    faces_drawn, backs_drawn = read_page(reader.pages[0])[1], read_page(reader.pages[1])[1]
    assert len(faces_drawn) == len(backs_drawn) == 9
    for face, back in zip(faces_drawn, backs_drawn, strict=True):
        x0, y0, x1, y1 = face.clip
        want = (pw - x1, y0, pw - x0, y1) if mode == "duplex-long" else (x0, ph - y1, x1, ph - y0)
        want = (want[0] + offset[0], want[1] + offset[1], want[2] + offset[0], want[3] + offset[1])
        assert back.clip == pytest.approx(want, abs=0.01)
    # Letter has room for the full 1/8 in on the block's outer edges (none between neighbours)
    corner, trim = faces_drawn[0].clip, faces_drawn[0].trim(*POKER)
    outer = 3.175 if bleed else 0.0
    grown = (trim[0] - corner[0], trim[1] - corner[1], corner[2] - trim[2])
    assert grown == pytest.approx((outer, outer, 0.0), abs=0.01)


def test_separate_back_pages_follow_the_faces(marker, tmp_path):
    pdf = pdfium.PdfDocument(build(marker, tmp_path, papers=("a4",), backs="separate")["a4"])
    xs, ys = centres(expected_grid(A4))
    assert len(pdf) == 4
    assert near(colour_at(pdf[0], xs[0], ys[0]), "lamp")
    assert near(colour_at(pdf[1], xs[0], ys[0]), "fog")            # faces, sheet 2
    assert near(colour_at(pdf[2], xs[0], ys[0]), "back")           # backs, sheet 1
    assert near(colour_at(pdf[3], xs[2], ys[0]), "fog")            # the fog's back, mirrored
    assert colour_at(pdf[3], xs[0], ys[0]) == (255, 255, 255)


def test_fold_over_puts_each_back_beside_its_face_across_the_fold(marker, tmp_path):
    pdf = pdfium.PdfDocument(build(marker, tmp_path, papers=("letter",), backs="fold")["letter"])
    page = pdf[0]
    w_pt, h_pt = page.get_size()
    assert (round(w_pt), round(h_pt)) == (792, 612)                # landscape: 2 x 2 each side
    pw, ph = LETTER[1], LETTER[0]
    gutter = 4.0
    faces = [(pw / 2 - gutter / 2 - (2 - c) * POKER[0], (ph - 2 * POKER[1]) / 2 + r * POKER[1],
              pw / 2 - gutter / 2 - (1 - c) * POKER[0], (ph - 2 * POKER[1]) / 2 + (r + 1) * POKER[1])
             for r in range(2) for c in range(2)]
    backs = [(pw - r[2], r[1], pw - r[0], r[3]) for r in faces]
    xs, ys = centres(faces + backs)
    assert_rects(measured_cards(page, xs, ys), faces + backs)
    for f in faces:
        assert near(colour_at(page, (f[0] + f[2]) / 2, (f[1] + f[3]) / 2), "lamp")
        assert near(colour_at(page, pw - (f[0] + f[2]) / 2, (f[1] + f[3]) / 2), "back")
    # the fold line is marked, dashed, in the margin above the cards
    values, k = luminance_line(page, "y", pw / 2)
    assert min(values[: round(faces[0][1] * k)]) < 180


def test_no_backs_means_faces_only(marker, tmp_path):
    pdf = pypdf.PdfReader(build(marker, tmp_path, papers=("letter",), backs="none")["letter"])
    assert len(pdf.pages) == 2


# -- copies ---------------------------------------------------------------------------------------

def test_copies_come_from_the_deck_file(marker, tmp_path):
    """harbour.yaml: Wick Runner 3, Harbour Warden 2, Wandering Tinker 3, Spare Oil 3 (tricks),
    Harbour Lantern 1 (relic): 12 cards, in the deck's order."""
    deck = load_deck(marker / "decks" / "harbour.yaml")
    assert [(c.name, n) for c, n in print_list(deck.game, deck)] == [
        ("Wick Runner", 3), ("Harbour Warden", 2), ("Wandering Tinker", 3), ("Spare Oil", 3),
        ("Harbour Lantern", 1)]
    paths = build(marker, tmp_path, deck="harbour.yaml", papers=("letter",), backs="none")
    assert paths["letter"].name == "harbour-letter.pdf"
    pdf = pdfium.PdfDocument(paths["letter"])
    xs, ys = centres(expected_grid(LETTER))
    slots = [(x, y) for y in ys for x in xs]
    seen = [colour_at(pdf[p], *slots[i]) for p in range(len(pdf)) for i in range(9)]
    kinds = ["lamp"] * 8 + ["trick"] * 3 + ["relic"]
    for colour, kind in zip(seen, kinds, strict=False):
        assert near(colour, kind), (colour, kind)
    assert all(c == (255, 255, 255) for c in seen[12:])


def test_cards_all_takes_the_box_counts(marker, tmp_path):
    (marker / "decks" / "box.yaml").write_text("game: ..\nname: Box\ncards: all\n")
    try:
        deck = load_deck(marker / "decks" / "box.yaml")
        counts = print_list(deck.game, deck)
        assert sum(n for _, n in counts) == 9             # the fog bank is not a deck card
        assert all(n == c.copies for c, n in counts)
    finally:
        (marker / "decks" / "box.yaml").unlink()


def test_unknown_card_in_a_deck_is_an_error(marker, tmp_path):
    from cardgen.errors import ContentError

    (tmp_path / "bad.yaml").write_text(f"game: {marker}\nname: Bad\ncards:\n  Wick Runer: 2\n")
    deck = load_deck(tmp_path / "bad.yaml")
    with pytest.raises(ContentError, match="did you mean: Wick Runner"):
        print_list(deck.game, deck)


# -- the PDF itself -------------------------------------------------------------------------------

def all_fonts(reader: pypdf.PdfReader):
    seen = {}

    def visit(resources):
        if not resources:
            return
        resources = resources.get_object()
        for name, font in (resources.get("/Font") or {}).items():
            seen[name] = font.get_object()
        for xobj in (resources.get("/XObject") or {}).values():
            xobj = xobj.get_object()
            if xobj.get("/Subtype") == "/Form":
                visit(xobj.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return seen


@pytest.mark.parametrize("game_ref", ["dojo-duel", str(GUILD)])
def test_every_font_is_embedded_as_a_subset(tmp_path, game_ref):
    game = load_game(game_ref)
    paths = make_sheets(game, tmp_path, None, SheetOptions(("letter",), singles=True))
    for path in paths:
        fonts = all_fonts(pypdf.PdfReader(path))
        assert fonts, "vector text needs fonts"
        for font in fonts.values():
            assert re.match(r"/[A-Z]{6}\+", font["/BaseFont"]), f"{font['/BaseFont']} is not a subset"
            descriptor = font["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile2", "/FontFile", "/FontFile3")), \
                f"{font['/BaseFont']} is not embedded"


def test_print_at_100_note_and_rulers_are_in_the_margin(tmp_path):
    paths = make_sheets(load_game("dojo-duel"), tmp_path, None, SheetOptions())
    for path in paths:
        reader = pypdf.PdfReader(path)
        text = reader.pages[0].extract_text()
        assert "PRINT AT 100%" in text and "1 in" in text and "2 cm" in text
        # the rulers' end ticks are exactly 1 inch and 2 cm apart: look for them in the margins
        page = pdfium.PdfDocument(path)[0]
        w_pt, h_pt = page.get_size()
        k = 1200 / 25.4
        left = page.render(scale=1200 / 72, crop=(0, 0, w_pt - 14 * PT, 0)).to_pil().convert("L")
        bottom = page.render(scale=1200 / 72, crop=(0, 0, 0, h_pt - 17 * PT)).to_pil().convert("L")
        lines = [list(left.crop((i, 0, i + 1, left.height)).tobytes()) for i in range(0, left.width, 24)]
        lines += [list(bottom.crop((0, i, bottom.width, i + 1)).tobytes())
                  for i in range(0, bottom.height, 24)]
        found = set()
        for values in lines:
            ticks = [(a + b) / 2 for a, b in dark_runs(values, k) if b - a < 0.3]
            for i, a in enumerate(ticks):
                for b in ticks[i + 1:]:
                    found |= {length for length in (25.4, 20.0) if abs(b - a - length) <= 0.05}
        assert found == {25.4, 20.0}, f"{path.name}: rulers found {found}"


def test_trim_and_bleed_boxes(marker, tmp_path):
    path = build(marker, tmp_path, papers=("letter",), bleed=True)["letter"]
    page = pypdf.PdfReader(path).pages[0]
    x0, y0, x1, y1 = (float(v) / PT for v in page.trimbox)
    block = expected_grid(LETTER)
    assert (x0, LETTER[1] - y1, x1, LETTER[1] - y0) == pytest.approx(
        (block[0][0], block[0][1], block[-1][2], block[-1][3]), abs=0.01)
    bx0, by0, bx1, by1 = (float(v) / PT for v in page.bleedbox)
    assert bx0 == pytest.approx(x0 - 3.175, abs=0.01) and bx1 == pytest.approx(x1 + 3.175, abs=0.01)
    assert by0 < y0 and by1 > y1


def test_singles_are_one_card_a_page_at_trim_plus_bleed(marker, tmp_path):
    path = build(marker, tmp_path, papers=(), singles=True)["singles"]
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 20                      # 10 cards, each followed by its back
    b = 3.175
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx((63.5 + 2 * b) * PT, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx((88.9 + 2 * b) * PT, abs=0.01)
        trim = [float(v) / PT for v in page.trimbox]
        assert trim == pytest.approx([b, b, 63.5 + b, 88.9 + b], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([float(v) for v in page.mediabox])
    pdf = pdfium.PdfDocument(path)
    # the trim is where the colour (inset 0.5 mm) starts: measured, not assumed
    runs = card_runs(pdf[0], "x", (88.9 + 2 * b) / 2)
    assert runs[0][0] == pytest.approx(b + 0.5, abs=TOL) and runs[0][1] == pytest.approx(b + 63.0, abs=TOL)
    assert near(colour_at(pdf[0], 35, 47), "lamp") and near(colour_at(pdf[1], 35, 47), "back")


def test_output_is_byte_identical_between_runs(tmp_path):
    game = load_game("dojo-duel")
    first = make_sheets(game, tmp_path / "a", None, SheetOptions(("letter",)))[0].read_bytes()
    second = make_sheets(game, tmp_path / "b", None, SheetOptions(("letter",)))[0].read_bytes()
    assert first == second


def test_the_whole_dojo_duel_set_on_both_papers(tmp_path):
    paths = make_sheets(load_game("dojo-duel"), tmp_path, None, SheetOptions())
    assert [p.name for p in paths] == ["proxies-letter.pdf", "proxies-a4.pdf"]
    for path in paths:
        assert len(pypdf.PdfReader(path).pages) == 10      # 40 cards: 5 sheets, each with its backs
        assert path.stat().st_size < 1_000_000


@pytest.mark.parametrize("size,letter,a4", [
    ((63.5, 88.9), (3, 3), (3, 3)),       # poker
    ((57.15, 88.9), (3, 3), (3, 3)),      # bridge
    ((44.45, 63.5), (4, 4), (4, 4)),      # mini
    ((69.85, 120.65), (2, 2), (2, 2)),    # tarot
    ((63.5, 63.5), (3, 4), (3, 4)),       # square
])
def test_grid_follows_the_card_size(size, letter, a4):
    for paper, want in (("letter", letter), ("a4", a4)):
        imp = impose(paper, *size)
        assert (imp.cols, imp.rows) == want
        block_w = imp.cols * size[0]
        block_h = imp.rows * size[1]
        assert imp.page_w - block_w >= 10 and imp.page_h - block_h >= 10   # margins for the marks


def test_cli_sheets_for_a_deck(tmp_path):
    import subprocess
    import sys

    deck = ROOT / "content" / "dojo-duel" / "decks" / "crane-path.yaml"
    result = subprocess.run([sys.executable, "-m", "cardgen", "sheets", str(deck), "--paper", "a4",
                             "--backs", "duplex-short", "--offset-x", "1", "--bleed", "--out",
                             str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "dojo-duel" / "crane-path-a4.pdf").is_file()
    assert "15 cards, 3 x 3 a page, 4 pages, backs: duplex-short" in result.stdout
    assert "Print at 100%" in result.stdout


def test_laid_out_cards_are_cached_and_an_edit_is_picked_up(tmp_path, monkeypatch):
    from cardgen.sheets import CACHE_NAME, faces

    folder = guild_copy(tmp_path, (GUILD / "layouts.yaml").read_text())
    out = tmp_path / "out"
    options = SheetOptions(("letter",))
    first = make_sheets(load_game(folder), out, None, options, jobs=1)[0].read_bytes()
    assert (out / CACHE_NAME).is_file()
    laid_out = []
    real = faces._one
    monkeypatch.setattr(faces, "_one", lambda layouts, name: laid_out.append(name) or real(layouts, name))
    path = out / "proxies-letter.pdf"
    path.write_bytes(first + b"%unchanged")
    make_sheets(load_game(folder), out, None, options, jobs=1)
    assert path.read_bytes().endswith(b"%unchanged"), "nothing changed: the file is left alone"
    again = make_sheets(load_game(folder), out, None, options, jobs=1, force=True)[0].read_bytes()
    assert laid_out == [] and again == first                  # from the cache, byte for byte
    make_sheets(load_game(folder), out, None, SheetOptions(("letter",), bleed=False), jobs=1)
    assert path.read_bytes() != first                          # other options: written again
    cards = folder / "cards" / "lamplighters.yaml"
    cards.write_text(cards.read_text().replace("name: Wick Runner", "name: Wick Sprinter"))
    path = make_sheets(load_game(folder), out, None, options, jobs=1)[0]
    assert laid_out == ["Wick Sprinter"]
    assert "Wick Sprinter" in pypdf.PdfReader(path).pages[0].extract_text()


@pytest.mark.parametrize("size", ["poker", "bridge", "mini", "euro-mini", "tarot", "square"])
@pytest.mark.parametrize("backs,bleed", [("duplex-long", False), ("duplex-long", True), ("fold", True)])
def test_every_card_size_gets_its_notes_and_rulers(tmp_path, size, backs, bleed):
    folder = guild_copy(tmp_path, BLANK_LAYOUTS.replace("size: poker", f"size: {size}"))
    options = SheetOptions(backs=backs, bleed=bleed)
    for path in make_sheets(load_game(folder), tmp_path / "out", None, options, jobs=1):
        for page in pypdf.PdfReader(path).pages:
            text = page.extract_text()
            for wanted in ("PRINT AT 100%", "1 in", "2 cm", "Lantern Guild ·"):
                assert wanted in text, f"{path.name} ({size}, {backs}): no {wanted!r}"


def test_parallel_documents_are_the_same_bytes_as_serial_ones(tmp_path, monkeypatch):
    import threading

    import cardgen.sheets as sheets
    from cardgen.parallel import can_fork
    from cardgen.sheets import faces

    folder = guild_copy(tmp_path, MARKER_LAYOUTS)
    extra = "\n".join(f"- {{name: Trick {i:02}, type: trick, cost: 1, district: Market, rarity: common, "
                      f"text: Nothing.}}" for i in range(50))
    (folder / "cards" / "more.yaml").write_text(extra + "\n")
    game = load_game(folder)
    forked = []
    real = sheets._write_forked
    monkeypatch.setattr(sheets, "_write_forked", lambda *a: forked.append(1) or real(*a))
    options = SheetOptions(singles=True)
    with monkeypatch.context() as serial_only:
        serial_only.setattr(sheets, "can_fork", lambda: False)
        serial_only.setattr(faces, "can_fork", lambda: False)
        serial = make_sheets(game, tmp_path / "serial", None, options, jobs=2)
    assert not forked
    # what make_sheets was told when it asked, not what can_fork says later: another thread of
    # this process (one a test left running) may end in between
    answers = []
    monkeypatch.setattr(sheets, "can_fork", lambda: answers.append(can_fork()) or answers[-1])
    parallel = make_sheets(game, tmp_path / "parallel", None, options, jobs=2)
    assert answers and forked == [1] * answers[-1], (answers, forked)
    if sys.platform.startswith("linux"):
        assert answers[-1], f"60 distinct cards on two cores fork (threads: {threading.enumerate()})"
    for a, b in zip(serial, parallel, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_several_targets_print_side_by_side_and_a_broken_one_does_not_stop_the_others(tmp_path):
    from cardgen.errors import ContentError
    from cardgen.sheets import SheetsDone, make_sheets_many

    folder = guild_copy(tmp_path, MARKER_LAYOUTS)
    bad = folder / "decks" / "bad.yaml"
    bad.write_text("game: ..\nname: Bad\ncaptain: Harbour Warden\ncards:\n  Wick Runner: 3\n"
                   "  Wick Runer: 2\n")
    dojo = load_deck(ROOT / "content" / "dojo-duel" / "decks" / "crane-path.yaml")
    targets = [(load_game(folder), None), (dojo.game, dojo), (load_game(folder), load_deck(bad))]
    options = SheetOptions(("a4",))
    whole, deck, broken = make_sheets_many(targets, tmp_path / "many", options)
    assert isinstance(whole, SheetsDone) and isinstance(deck, SheetsDone)
    assert isinstance(broken, ContentError)
    assert [(i.file, i.line, i.field) for i in broken.issues] == [(bad, 6, "cards")]
    assert "no card 'Wick Runer'" in broken.issues[0].message
    assert [p.name for p in whole.paths] == ["proxies-a4.pdf"] and "4 pages" in whole.notes[0]
    alone = make_sheets(load_game(folder), tmp_path / "alone", None, options)
    assert whole.paths[0].read_bytes() == alone[0].read_bytes()
    assert deck.paths == [tmp_path / "many" / "dojo-duel" / "crane-path-a4.pdf"]
    assert not (tmp_path / "many" / "guild" / "bad-a4.pdf").exists()


def test_several_games_one_with_broken_layouts_prints_the_others_and_names_the_line(tmp_path):
    # the other games' layouts are loaded ahead in the parent process; a broken one is left to
    # its own process, which reports it like a single `cardgen sheets` would
    from cardgen.errors import ContentError
    from cardgen.sheets import SheetsDone, make_sheets_many

    broken_folder = guild_copy(tmp_path / "a", MARKER_LAYOUTS.replace("safe: 3.175}", "safe: lots}"))
    dojo, adapt = load_game(ROOT / "content" / "dojo-duel"), load_game(ROOT / "content" / "adapt")
    targets = [(adapt, None), (load_game(broken_folder), None), (dojo, None)]
    done_adapt, broken, done_dojo = make_sheets_many(targets, tmp_path / "many", SheetOptions(("a4",)))
    assert isinstance(done_adapt, SheetsDone) and isinstance(done_dojo, SheetsDone)
    assert isinstance(broken, ContentError)
    issue = broken.issues[0]
    assert (issue.file, issue.line) == (broken_folder / "layouts.yaml", 2) and "safe" in str(issue)
    alone = make_sheets(dojo, tmp_path / "alone", None, SheetOptions(("a4",)))
    assert done_dojo.paths[0].read_bytes() == alone[0].read_bytes()


def test_cli_sheets_for_several_targets_reports_the_broken_one(tmp_path):
    import subprocess
    import sys

    folder = guild_copy(tmp_path, MARKER_LAYOUTS)
    bad = folder / "decks" / "bad.yaml"
    bad.write_text("game: ..\nname: Bad\ncaptain: Harbour Warden\ncards:\n  Wick Runer: 2\n")
    deck = ROOT / "content" / "dojo-duel" / "decks" / "crane-path.yaml"
    result = subprocess.run([sys.executable, "-m", "cardgen", "sheets", str(bad), str(deck), "--paper", "a4",
                             "--out", str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert "bad.yaml:5: cards: no card 'Wick Runer'" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "out" / "dojo-duel" / "crane-path-a4.pdf").is_file()
    assert "crane-path-a4.pdf: 15 cards" in result.stdout


def test_a_fighters_deck_prints_its_shared_moves_on_the_fighters_back():
    from cardgen.sheets import prepare

    deck = load_deck(ROOT / "content" / "combo-fighter" / "decks" / "amaya-sol.yaml")
    shared = [e.name for e in deck.entries if not e.card.fields.get("character")]
    assert shared, "the deck should hold shared moves for this test to mean anything"
    load, _ = prepare(deck.game, deck, jobs=1)
    assert {back.name for back in load.backs} == {"back: amaya-sol"}
    whole, _ = prepare(deck.game, None, jobs=1)       # the whole set: shared moves keep the default
    by_card = {face.name: back.name for face, back in zip(whole.faces, whole.backs, strict=True)}
    assert {by_card[name] for name in shared} == {"back: default"}


@pytest.mark.parametrize("extra,outer", [([], 3.175), (["--no-bleed"], 0.0), (["--bleed"], 3.175)])
def test_bleed_is_printed_by_default_where_it_fits(marker, tmp_path, extra, outer):
    """`cardgen sheets` gives the cards the bleed the sheet has room for unless --no-bleed: 1/8 in
    on Letter's outer edges (its BleedBox), none on shared cut lines."""
    from cardgen.cli import main

    assert main(["sheets", str(marker), "--paper", "letter", "--out", str(tmp_path)] + extra) == 0
    page = pypdf.PdfReader(tmp_path / "lantern-guild" / "proxies-letter.pdf").pages[0]
    trim = [float(v) / PT for v in page.trimbox]
    bleed = [float(v) / PT for v in page.bleedbox]
    grown = [t - b for t, b in zip(trim[:2], bleed[:2], strict=True)]
    grown += [b - t for t, b in zip(trim[2:], bleed[2:], strict=True)]
    assert grown == pytest.approx([outer] * 4, abs=0.01)


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", [(63.5, 88.9), (57.15, 88.9), (69.85, 120.65), (63.5, 63.5), (41.0, 63.0)])
@pytest.mark.parametrize("gap", [0.0, 1.0, 3.0])
@pytest.mark.parametrize("mode", ["duplex-long", "duplex-short", "separate", "fold"])
def test_every_back_has_its_faces_bleed_mirrored(paper, size, gap, mode):
    imp = impose(paper, *size, gap=gap, bleed=3.175, fold=mode == "fold")
    for i in range(imp.per_page):
        left, top, right, bottom = imp.slot(i).bleed
        back = imp.back_slot(i, mode).bleed
        want = (left, bottom, right, top) if mode == "duplex-short" else (right, top, left, bottom)
        assert back == pytest.approx(want), f"{paper} {size} gap {gap}: slot {i}"


@pytest.mark.parametrize("flags", [["--offset-x", "1"], ["--offset-y", "-0.5"]])
def test_fold_mode_refuses_back_offsets(marker, tmp_path, capsys, flags):
    """Fold-over prints each back beside its face: the offsets, which move back pages, used to be
    dropped without a word."""
    from cardgen.cli import main

    status = main(["sheets", str(marker), "--backs", "fold", "--out", str(tmp_path)] + flags)
    err = capsys.readouterr().err
    assert status == 2 and "--offset-x/--offset-y" in err and "fold" in err and "Traceback" not in err
    assert not (tmp_path / "lantern-guild").exists()
    with pytest.raises(ValueError):
        make_sheets(load_game(marker), tmp_path, None, SheetOptions(backs="fold", offset=(1.0, 0.0)))
