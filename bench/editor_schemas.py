"""The editor's schemas (issue 21, item 3): how big they are and what keeping them current costs.

For every bundled game and the starter, set up in a scratch copy of its folder: the size of the
card and deck schemas, the time to make them (load aside), and the build's `schemas` stage when
nothing changed (made again, compared, not written) and when a card was renamed (written).
Medians of several runs; in-process, so the numbers are the stage's own work.

    .venv/bin/python bench/editor_schemas.py [--runs 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.build import STAGE_PLAN  # noqa: E402
from cardgen.editor import SCHEMA_FILES, set_up  # noqa: E402
from cardgen.model import load_game  # noqa: E402
from cardgen.paths import bundled_game_ids, resolve_game_folder  # noqa: E402
from cardgen.scaffold import new_game  # noqa: E402
from cardgen.schema import game_schemas  # noqa: E402


def median_ms(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each timing (default: 7)")
    args = parser.parse_args()
    stage = STAGE_PLAN["schemas"].parts[0].run
    print(f"{'game':16} {'cards':>5} {'cards KB':>8} {'deck KB':>7} {'make ms':>7} "
          f"{'unchanged ms':>12} {'written':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        folders = []
        for ref in bundled_game_ids():
            folder = Path(tmp) / ref
            shutil.copytree(resolve_game_folder(ref), folder, ignore=shutil.ignore_patterns("out"))
            folders.append(folder)
        new_game(Path(tmp) / "starter", "Starter")
        folders.append(Path(tmp) / "starter")
        for folder in folders:
            game = load_game(str(folder))
            set_up(game)
            sizes = [(folder / SCHEMA_FILES[kind]).stat().st_size / 1024 for kind in ("cards", "deck")]
            make = median_ms(lambda game=game: game_schemas(game), args.runs)
            unchanged = median_ms(lambda game=game: stage(game, Path(tmp) / "out", None, False), args.runs)
            first = next(iter(game.cards.values()))
            first.name += " Renamed"
            game.cards = {c.name: c for c in game.cards.values()}
            written = stage(game, Path(tmp) / "out", None, False).summary != "unchanged"
            print(f"{folder.name:16} {len(game.cards):5} {sizes[0]:8.1f} {sizes[1]:7.1f} {make:7.1f} "
                  f"{unchanged:12.1f} {'yes' if written else 'NO':>7}")


if __name__ == "__main__":
    main()
