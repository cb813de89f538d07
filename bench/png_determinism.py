"""Does a card's PNG come out as the same bytes every time it is drawn? And what does each deflate
library cost? Prints a table (cardgen/render/deflate.py chose zlib-ng from it).

For each library installed (zlib, zlib-ng, and isal, ISA-L's, the `fast` extra before), --runs
fresh processes each draw every bundled card --rounds times and count the drawings whose PNG
bytes differ from that card's first drawing in the process, the pixels being the same. Then, in
a process of its own for each (one ISA-L call slows later zlib calls in a process, FIELD-NOTES),
the median time to encode 75 drawn cards and their mean size.

    .venv/bin/python bench/png_determinism.py [--runs 20] [--rounds 4]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = [("zlib", "zlib", 1), ("zlib-ng", "zlib_ng.zlib_ng", 1), ("zlib-ng", "zlib_ng.zlib_ng", 2),
             ("zlib-ng", "zlib_ng.zlib_ng", 3), ("isal", "isal.isal_zlib", 1)]


def _use(module: str):
    from cardgen.render import paint_png

    paint_png.deflater = importlib.import_module(module)
    return paint_png


def repeat_run(module: str, level: int, rounds: int) -> dict:
    """One process: every bundled card drawn `rounds` times."""
    from cardgen.model import load_game
    from cardgen.paths import bundled_game_ids
    from cardgen.render.layout import layout_face, load_layouts

    paint_png = _use(module)
    drawn = differ = 0
    for game_id in bundled_game_ids():
        game = load_game(game_id)
        layouts = load_layouts(game)
        first: dict[str, tuple[bytes, bytes]] = {}
        for round_ in range(rounds):
            for name, card in game.cards.items():
                image = paint_png.paint_png(layout_face(layouts, card), 300)
                png = paint_png.encode_png(image, level=level)
                drawn += 1
                if round_ == 0:
                    first[name] = (png, image.tobytes())
                elif png != first[name][0]:
                    assert image.tobytes() == first[name][1], f"{name}: other pixels"
                    differ += 1
    return {"drawn": drawn, "differ": differ}


def speed_run(module: str, level: int) -> dict:
    """One process: 75 cards drawn once, encoded 5 times; the median ms a card, the mean size."""
    from cardgen.model import load_game
    from cardgen.render.layout import layout_face, load_layouts

    paint_png = _use(module)
    images = []
    for game_id in ("amfibido", "dojo-duel", "adapt"):
        game = load_game(game_id)
        layouts = load_layouts(game)
        images += [paint_png.paint_png(layout_face(layouts, card), 300)
                   for card in list(game.cards.values())[:25]]
    times, size = [], 0
    for _ in range(5):
        start = time.perf_counter()
        size = sum(len(paint_png.encode_png(image, level=level)) for image in images)
        times.append((time.perf_counter() - start) / len(images) * 1000)
    return {"ms": statistics.median(times), "bytes": size / len(images)}


def _child(kind: str, module: str, level: int, rounds: int) -> dict:
    arguments = f"{module!r}, {level}" + (f", {rounds}" if kind == "repeat_run" else "")
    code = (f"import json, sys; sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'bench')!r}]\n"
            "import png_determinism as b\n"
            f"print(json.dumps(b.{kind}({arguments})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    rows = []
    for name, module, level in LIBRARIES:
        if importlib.util.find_spec(module.split(".")[0]) is None:
            print(f"{name}: not installed, skipped", file=sys.stderr)
            continue
        runs = [_child("repeat_run", module, level, args.rounds) for _ in range(args.runs)]
        speed = _child("speed_run", module, level, 0)
        rows.append((name, level, len(runs), sum(r["drawn"] for r in runs),
                     sum(1 for r in runs if r["differ"]), sum(r["differ"] for r in runs),
                     speed["ms"], speed["bytes"] / 1024))
    print("| deflate | level | runs | drawings | runs with a card's bytes changed | drawings changed "
          "| encode ms/card | KiB/card |")
    print("|---|---|---|---|---|---|---|---|")
    for name, level, runs, drawn, bad_runs, bad, ms, kib in rows:
        print(f"| {name} | {level} | {runs} | {drawn:,} | {bad_runs} | {bad} | {ms:.2f} | {kib:.1f} |")


if __name__ == "__main__":
    main()
