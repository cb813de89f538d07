"""Cut marks a printer can print, on every paper and option: read from the PDF's content streams
(tests/pdf_marks.py), measured against a 5 mm unprintable strip along every paper edge.

Home printers leave 4.2-5 mm of each edge blank; the margins of Letter above and below three
poker cards are 6.35 mm, so marks in those margins did not print and neighbours of one colour
showed nothing to cut along. Every mark segment must print whole, every card edge on a face page
must have a printed line along its cut line, and no mark may run over a card.
"""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from cardgen.model import load_game
from cardgen.sheets import SheetOptions, make_sheets
from tests.conftest import ROOT
from tests.pdf_marks import edge_coverage, printable_length, read_page

GUILD = ROOT / "tests" / "data" / "lantern-guild"
BLANK = """
card: {size: SIZE, bleed: 3.175}
types: {lamplighter: [], trick: [], relic: [], fog: []}
backs: {default: []}
"""
MIN_MARK = 2.0          # mm: a mark shorter than this is no help to a knife
MIN_ALONG = 3.0         # mm of printed line along each card edge's cut line, at the least
OFFSETS = [(0.0, 0.0), (1.5, -2.0)]
COMBOS = [(paper, backs, bleed, gap, offset)
          for paper, backs, bleed, gap in itertools.product(
              ("letter", "a4"), ("duplex-long", "duplex-short", "separate", "fold"), (False, True),
              (0.0, 3.0))
          for offset in (OFFSETS if backs != "fold" else OFFSETS[:1])]
SIZES = {"poker": (63.5, 88.9), "bridge": (57.15, 88.9), "tarot": (69.85, 120.65)}


def blank_game(tmp: Path, size: str) -> Path:
    folder = tmp / f"guild-{size}"
    shutil.copytree(GUILD, folder, ignore=shutil.ignore_patterns("out"))
    (folder / "layouts.yaml").write_text(BLANK.replace("SIZE", size))
    return folder


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("marks")
    return {size: load_game(blank_game(tmp, size)) for size in SIZES}


def problems(path: Path, card: tuple[float, float], offset, keep=None) -> list[str]:
    """What is wrong with the marks of every page (or of those `keep(segments, placed)` keeps)."""
    found = []
    for number, page in enumerate(pypdf.PdfReader(path).pages, 1):
        segments, placed, (w, h) = read_page(page)
        if keep is not None and not keep(segments, placed):
            continue
        back_page = " · backs " in page.extract_text()
        if not segments:
            found.append(f"page {number}: no marks")
        for seg in segments:
            printed = printable_length(seg, w, h)
            if printed < seg.length - 0.01 or printed < MIN_MARK:   # (coordinates are rounded in the file)
                found.append(f"page {number}: a {seg.length:.2f} mm mark prints {printed:.2f} mm "
                             f"({seg.x1:.2f},{seg.y1:.2f})-({seg.x2:.2f},{seg.y2:.2f})")
        trims = [p.trim(*card) for p in placed]
        for x0, y0, x1, y1 in trims:
            for seg in segments:     # a mark inside a card (more than its half-width) is on the art
                lo_x, hi_x = sorted((seg.x1, seg.x2))
                lo_y, hi_y = sorted((seg.y1, seg.y2))
                if lo_x < x1 - 0.06 and hi_x > x0 + 0.06 and lo_y < y1 - 0.06 and hi_y > y0 + 0.06:
                    found.append(f"page {number}: a mark over the card at {x0:.2f},{y0:.2f}")
        if back_page and offset != (0.0, 0.0):
            continue    # a moved back page may push a cut line into the blank strip; faces are cut
        for trim in trims:
            for edge, along in edge_coverage(segments, trim, w, h).items():
                if along < MIN_ALONG:
                    found.append(f"page {number}: the {edge} edge of the card at {trim[0]:.2f},{trim[1]:.2f} "
                                 f"has {along:.2f} mm of printed line to cut along")
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_every_mark_prints_on_every_paper_and_option(games, tmp_path, size):
    failures = []
    for paper, backs, bleed, gap, offset in COMBOS:
        options = SheetOptions((paper,), backs, offset, gap, bleed)
        [path] = make_sheets(games[size], tmp_path / f"{paper}-{backs}-{bleed}-{gap}-{offset}", None, options)
        failures += [f"{paper} {backs} bleed={bleed} gap={gap} offset={offset}: {p}"
                     for p in problems(path, SIZES[size], offset)]
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} in all)"


SOLID = """
card: {size: poker, bleed: 3.175}
colours: {dark: "#000000", light: "#ffffff"}
types:
  lamplighter: [{rect: bleed, fill: dark}]
  trick: [{rect: bleed, fill: light}]
  relic: [{rect: bleed, fill: light}]
  fog: [{rect: bleed, fill: dark}]
backs: {default: [{rect: bleed, fill: dark}]}
"""


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("bleed", [False, True])
def test_neighbours_of_one_colour_show_a_line_to_cut_along(tmp_path, paper, bleed):
    """Black cards side by side and white ones side by side, sharing cut lines: along the shared
    line, at least 5 mm in from the paper's edge, both light and dark pixels show (a guide)."""
    folder = blank_game(tmp_path, "poker")
    (folder / "layouts.yaml").write_text(SOLID)
    game = load_game(folder)
    [path] = make_sheets(game, tmp_path / "out", None, SheetOptions((paper,), "none", bleed=bleed))
    page = pdfium.PdfDocument(path)[0]
    w_pt, h_pt = page.get_size()
    pw, ph = w_pt / 72 * 25.4, h_pt / 72 * 25.4
    left, top = (pw - 3 * 63.5) / 2, (ph - 3 * 88.9) / 2
    image = page.render(scale=600 / 72).to_pil().convert("L")
    k = 600 / 25.4
    # five lamplighters (black), then tricks and relics (white): rows of black, black and white
    for row in range(3):
        y0, y1 = top + row * 88.9 + 5, top + (row + 1) * 88.9 - 5
        for col in (1, 2):
            x = left + col * 63.5
            line = [image.getpixel((round(x * k), round(y * k))) for y in
                    (y0 + i * 0.1 for i in range(int((y1 - y0) / 0.1)))]
            if max(line) - min(line) < 100:
                pytest.fail(f"row {row + 1}, the cut line at x={x:.2f} mm shows no line "
                            f"(grey {min(line)}-{max(line)})")
