"""Rulebook and player-aid PDFs for every bundled game: pages and seconds.

Goal (issue 4): 2 s or less for a rulebook of about 20 pages, WeasyPrint's import (about 0.8 s,
paid once per process) not included; it is timed on its own line. Each document is built twice
and the faster run is kept, since other work on the machine makes single timings noisy; the CPU
seconds of that run are shown too. The unchanged-PDF cache is off here; "rebuild" times a second
build that finds nothing changed. Run with `.venv/bin/python bench/publish.py [GAME...]`.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from machine import speed_check

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL = 2.0
RUNS = 2


def timed(build, game, out):
    best = None
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        result = build(game, out, use_cache=False)
        run = (time.perf_counter() - wall, time.process_time() - cpu, result.pages)
        best = run if best is None or run[0] < best[0] else best
    return best


def main(argv: list[str]) -> int:
    from cardgen.model import load_game
    from cardgen.paths import bundled_game_ids
    from cardgen.publish import build_aids, build_rulebook

    before = speed_check()
    start = time.perf_counter()
    import weasyprint  # noqa: F401  (timed on its own: the commands import it lazily)

    print(f"import weasyprint: {time.perf_counter() - start:.2f} s\n")
    print(f"{'game':15} {'document':12} {'pages':>5} {'seconds':>8} {'cpu s':>6} {'s/page':>7} "
          f"{'rebuild':>8}")
    over = []
    with tempfile.TemporaryDirectory() as tmp:
        for ref in argv or bundled_game_ids():
            game = load_game(ref)
            for name, build in (("rulebook", build_rulebook), ("player aids", build_aids)):
                wall, cpu, pages = timed(build, game, Path(tmp) / game.id)
                build(game, Path(tmp) / game.id)                 # writes the cache stamp
                again = time.perf_counter()
                build(game, Path(tmp) / game.id)
                again = time.perf_counter() - again
                print(f"{game.id:15} {name:12} {pages:5} {wall:8.2f} {cpu:6.2f} {wall / pages:7.3f} "
                      f"{again:8.2f}")
                if name == "rulebook" and wall > GOAL * max(pages, 20) / 20:
                    over.append(game.id)
    print(f"\ngoal: a 20-page rulebook in {GOAL:.1f} s or less (scaled by page count); "
          + ("over it: " + ", ".join(over) if over else "all within it"))
    print(f"(machine check: {before:.0f} ms before, {speed_check():.0f} ms after; lower is faster, "
          "see bench/machine.py)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
