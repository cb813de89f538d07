"""What shaping card text with HarfBuzz costs (issue 23, item 3), and which cards it changed.

Two cardgen trees run side by side: BEFORE (a worktree of main at the commit this branch started
from: `git worktree add --detach ../base <commit>`) and this one. Each round starts one fresh
process per tree, in turn, and each process times, over every card face of the five bundled games:

- fit cold: the text fitter (text._fit) over every text the faces fit, in a fresh process (shaping
  and font caches empty; the fitted-text cache is bypassed);
- fit warm: the same calls again (shaped words cached; the fitted-text cache still bypassed);
- layout: every face laid out, cold (the fitter's own cache on, as `cardgen render` runs);
- paint: every face painted to a PNG at 150 dpi after layout (glyph caches cold).

Medians over the rounds. With --changes it lists instead the cards whose text is set differently
(a font size, a line break, a word's position by 0.05 mm or more) and how.

    PYTHONPATH=. python bench/text_shaping.py --before ../base [--rounds 5] [--changes]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel")


def _faces():
    from cardgen.model import load_game
    from cardgen.render.layout import layout_face, load_layouts

    loaded = [(g, load_game(g)) for g in GAMES]
    layouts = {g: load_layouts(game) for g, game in loaded}
    return [(g, card, layouts[g]) for g, game in loaded for card in game.cards.values()], layout_face


def worker(changes: bool) -> dict:
    from cardgen.render import filecache, text

    cards, layout_face = _faces()
    calls = []
    original = text._fit

    def recording(*args, **kwargs):
        calls.append((args, kwargs))
        return original(*args, **kwargs)

    if changes:
        from cardgen.render.display import Run

        out = {}
        for game_id, card, layouts in cards:
            runs = [r for r in layout_face(layouts, card).items if isinstance(r, Run)]
            out[f"{game_id}: {card.name}"] = [(r.text, r.size, round(r.x, 2), round(r.y, 2)) for r in runs]
        return out
    text._fit = recording
    for _g, card, layouts in cards:                    # (records the fitter's calls; not timed)
        layout_face(layouts, card)
    text._fit = original
    for clear in filecache._CLEARERS:
        clear()
    text._FITTED.clear()
    result = {}
    for label in ("fit cold", "fit warm"):
        start = time.perf_counter()
        for args, kwargs in calls:
            with contextlib.suppress(text.Overflow):
                original(*args, **kwargs)
        result[label] = time.perf_counter() - start
    for clear in filecache._CLEARERS:
        clear()
    text._FITTED.clear()
    start = time.perf_counter()
    faces = [layout_face(layouts, card) for _g, card, layouts in cards]
    result["layout"] = time.perf_counter() - start
    from cardgen.render.paint_png import paint_png

    start = time.perf_counter()
    for face in faces:
        paint_png(face, dpi=150)
    result["paint"] = time.perf_counter() - start
    result["fits"], result["faces"] = len(calls), len(faces)
    return result


def _run(tree: Path, changes: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, str(Path(__file__).resolve()), "--worker"] + (["--changes"] if changes else [])
    done = subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _changes(before: dict, after: dict) -> None:
    """Print each face whose text changed size or runs (line breaks, merged words); count those
    whose words only moved (centred and right-aligned text moves by half or all of its kerning)."""
    changed, moved, most = 0, 0, 0.0
    for card, old in before.items():
        new = after.get(card)
        if new == old:
            continue
        old_sizes, new_sizes = sorted({r[1] for r in old}), sorted({r[1] for r in new})
        old_runs, new_runs = [r[0] for r in old], [r[0] for r in new]
        notes = []
        if old_sizes != new_sizes:
            notes.append(f"sizes {old_sizes} -> {new_sizes}")
        if old_runs != new_runs:
            notes.append(f"now {[t for t in new_runs if t not in old_runs]}, "
                         f"was {[t for t in old_runs if t not in new_runs]}")
        elif any(abs(a[3] - b[3]) >= 0.05 for a, b in zip(old, new, strict=True)):
            notes.append("the same runs on other lines: "
                         f"{[a[0] for a, b in zip(old, new, strict=True) if abs(a[3] - b[3]) >= 0.05]}")
        if notes:
            changed += 1
            print(f"{card}: " + "; ".join(notes))
        else:
            moved += 1
            most = max([most, *(abs(a[2] - b[2]) for a, b in zip(old, new, strict=True))])
    print(f"{changed} of {len(before)} faces changed a size or a line; {moved} more only moved words "
          f"(by up to {most:.2f} mm)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="a cardgen tree at the base commit (default: none)")
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds (default: 5)")
    parser.add_argument("--changes", action="store_true",
                        help="list the faces set differently (default: off)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.changes)))
        return
    if args.before is None:
        parser.error("--before: a worktree of main at the base commit")
    if args.changes:
        _changes(_run(args.before.resolve(), True), _run(ROOT, True))
        return
    rows: dict[str, list[dict]] = {"before": [], "after": []}
    for _ in range(args.rounds):
        rows["before"].append(_run(args.before.resolve(), False))
        rows["after"].append(_run(ROOT, False))
    first = rows["after"][0]
    print(f"{first['faces']} faces, {first['fits']} fitted texts; medians of {args.rounds} paired rounds, ms")
    print(f"{'':10} {'before':>9} {'after':>9} {'after/before':>13}")
    for label in ("fit cold", "fit warm", "layout", "paint"):
        old = statistics.median(r[label] for r in rows["before"]) * 1000
        new = statistics.median(r[label] for r in rows["after"]) * 1000
        print(f"{label:10} {old:9.1f} {new:9.1f} {new / old:13.2f}")


if __name__ == "__main__":
    main()
