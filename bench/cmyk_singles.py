"""What CMYK print-on-demand singles cost against RGB ones (`cardgen sheets --singles --cmyk`).

For each bundled game, writes the whole set's singles twice in this process, RGB then CMYK for
an ICC output profile (Ghostscript's SWOP profile by default), each laid out from a warm cache
(the cards' layout is shared; the drawing and the colour conversion are what differ), and prints
seconds and megabytes of each, best of --repeat runs. The machine may be shared: compare the two
columns of one run, not runs on different days.

    PYTHONPATH=. .venv/bin/python bench/cmyk_singles.py [--profile FILE.icc] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import pypdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.model import load_game  # noqa: E402
from cardgen.sheets import SheetOptions, make_sheets  # noqa: E402

GAMES = ("adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel")
PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")


def best_of(game, out: Path, options: SheetOptions, repeat: int) -> tuple[float, float]:
    """Seconds (best of `repeat`) and the file's size in MB."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        [path] = make_sheets(game, out, options=options, force=True, jobs=1)
        times.append(time.perf_counter() - start)
    return min(times), path.stat().st_size / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", type=Path, default=PROFILE,
                        help=f"a CMYK ICC profile (default: {PROFILE})")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the best counted (default: 3)")
    args = parser.parse_args()
    print(f"{'game':<15}{'pages':>7}{'RGB s':>9}{'CMYK s':>9}{'ratio':>8}{'RGB MB':>9}{'CMYK MB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for game_id in GAMES:
            game = load_game(game_id)
            out = Path(tmp) / game_id
            rgb = SheetOptions(papers=(), singles=True)
            make_sheets(game, out, options=rgb, force=True, jobs=1)      # warms the layout cache
            rgb_s, rgb_mb = best_of(game, out, rgb, args.repeat)
            cmyk_s, cmyk_mb = best_of(game, out, SheetOptions(papers=(), singles=True, cmyk=args.profile),
                                      args.repeat)
            pages = len(pypdf.PdfReader(out / "proxies-singles.pdf").pages)
            print(f"{game_id:<15}{pages:>7}{rgb_s:>9.2f}{cmyk_s:>9.2f}{cmyk_s / rgb_s:>8.2f}"
                  f"{rgb_mb:>9.2f}{cmyk_mb:>9.2f}")


if __name__ == "__main__":
    main()
