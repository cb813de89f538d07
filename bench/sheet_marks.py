"""How much of the proxy sheets' crop marks a printer can print, on every paper and option.

Prints the sheets of tests/data/lantern-guild (as poker and as bridge cards) for each paper, back
mode, bleed, gap and back offset, reads every page's content stream (tests/pdf_marks.py) and gives,
per combination: the mark segments, the shortest printable length of a segment (the part at least
5 mm from every paper edge), how many segments print less than 90% of their length, the least
printable mark length along any card edge's cut line on the face pages (0: a card edge with
nothing to cut along), and how many card edges on back pages have less than 3 mm (backs are not
cut along, but a moved back page can push its cut lines into the unprintable strip). Not a
timing: run it on two trees to compare them.

    PYTHONPATH=. .venv/bin/python bench/sheet_marks.py
"""

from __future__ import annotations

import itertools
import shutil
import sys
import tempfile
from pathlib import Path

import pypdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.model import load_game  # noqa: E402
from cardgen.render.layout import load_layouts  # noqa: E402
from cardgen.sheets import SheetOptions, make_sheets  # noqa: E402
from tests.pdf_marks import edge_coverage, printable_length, read_page  # noqa: E402

MIN_ALONG = 3.0
COMBOS = [(paper, backs, bleed, gap, offset)
          for paper, backs, bleed, gap in itertools.product(
              ("letter", "a4"), ("duplex-long", "duplex-short", "fold"), (False, True), (0.0, 3.0))
          for offset in ([(0.0, 0.0)] + ([(1.5, -2.0)] if backs != "fold" else []))]


def measure(pdf_path: Path, card: tuple[float, float]) -> dict:
    reader = pypdf.PdfReader(pdf_path)
    lengths, short, worst, unmarked = [], 0, float("inf"), 0
    for page in reader.pages:
        segments, placed, (w, h) = read_page(page)
        for seg in segments:
            got = printable_length(seg, w, h)
            lengths.append(got)
            short += got < 0.9 * seg.length
        faces = " · faces " in page.extract_text()
        for placed_card in placed:
            along = edge_coverage(segments, placed_card.trim(*card), w, h).values()
            if faces:
                worst = min(worst, *along)
            else:
                unmarked += sum(v < MIN_ALONG for v in along)
    return {"segments": len(lengths), "min": min(lengths, default=0.0), "short": short, "edge": worst,
            "unmarked": unmarked}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "guild"
        shutil.copytree(ROOT / "tests" / "data" / "lantern-guild", folder,
                        ignore=shutil.ignore_patterns("out"))
        print("| card | paper | backs | bleed | gap | back offset | segments | shortest printable | "
              "printing < 90% | least along a face's edge | back edges < 3 mm |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        layouts_file = folder / "layouts.yaml"
        bridge = layouts_file.read_text()
        for size in ("poker", "bridge"):
            layouts_file.write_text(bridge.replace("size: bridge", f"size: {size}", 1))
            game = load_game(folder)
            layouts = load_layouts(game)
            for combo in COMBOS:
                print(f"| {size} " + row(game, layouts, Path(tmp) / "out", *combo))


def row(game, layouts, out: Path, paper, backs, bleed, gap, offset) -> str:
    """One table row (after the card size): the combination and what was measured."""
    options = SheetOptions((paper,), backs, offset, gap, bleed)
    [path] = make_sheets(game, out, None, options, force=True)
    m = measure(path, (layouts.width, layouts.height))
    return (f"| {paper} | {backs} | {'yes' if bleed else 'no'} | {gap:g} | {offset[0]:+g},{offset[1]:+g} "
            f"| {m['segments']} | {m['min']:.2f} mm | {m['short']} | {m['edge']:.2f} mm | {m['unmarked']} |")


if __name__ == "__main__":
    main()
