"""Card faces and proxy sheets against issue 3's goals. Prints a table.

- PNG: the whole bundled set (every game with a layouts.yaml) rendered cold (no cache) with
  cardgen's default number of processes through cardgen.render.render_games, as `cardgen render`
  with several games does: cards per second of the whole stage process (Python's start and the
  imports included, as a user waits for them). A game's row is timed inside the process and
  includes loading its layouts, which overlaps the game before it.   goal >= 100 cards/s
- PDF: the proxy sheets (Letter and A4, long-edge backs) for every bundled card through
  cardgen.sheets.make_sheets_many, as `cardgen sheets` with several games does (games side by
  side, two at a time), cold (nothing cached), again with the laid-out cards cached, and again
  with nothing changed: seconds, and each PDF's size. A game's row is its own process's time.
                                                                       goal <= 2 s, < 10 MB a PDF
- Rebuild: one card's name edited, then load + render_game with its cache: seconds.
                                                                       goal <= 1.5 s
- Peak memory of each stage, summed over its process and the workers it started: RSS (pages
  shared by forked workers counted in each) and PSS (counted once), see bench/proctree.py.
                                                                       goal < 400 MiB

Each stage runs in a fresh process, so imports and font loading count; the PNG and PDF stages
run three times and the median is reported, with every run listed. Times are wall-clock;
"cpu" is the processor time of the stage and its workers, which a busy machine does not inflate.
Games without a layouts.yaml yet are listed as skipped. Run: .venv/bin/python bench/render_and_sheets.py
`cardgen render` itself, default beside --jobs 1, and build and the code before a change beside
this one: bench/whole_process.py.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine import speed_check
from proctree import Usage, measure

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REPEATS = 3
GOALS = {"png": 100.0, "pdf_s": 2.0, "pdf_mb": 10.0, "rebuild_s": 1.5, "peak_mib": 400.0}


def cpu() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class Timer:
    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), cpu()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.wall, cpu() - self.cpu


def games_with_layouts() -> tuple[list[str], list[str]]:
    from cardgen.paths import bundled_game_ids

    ids = bundled_game_ids()
    have = [g for g in ids if (ROOT / "content" / g / "layouts.yaml").is_file()]
    return have, [g for g in ids if g not in have]


# -- stages (each in its own process) ---------------------------------------------------------

def loadable(game_id: str) -> str | None:
    """None when the game and its layouts load, else the first problem (layouts being written)."""
    from cardgen.errors import ContentError
    from cardgen.model import load_game
    from cardgen.render.layout import load_layouts

    try:
        load_layouts(load_game(game_id))
    except ContentError as exc:
        return f"{exc.issues[0]}"[:70] + f" ({len(exc.issues)} errors)"
    return None


def stage_png(out: Path) -> dict:
    from cardgen.errors import ContentError
    from cardgen.model import load_game
    from cardgen.render import render_games

    rows, broken = [], {}
    with Timer() as total:
        games = [load_game(game_id) for game_id in games_with_layouts()[0]]
        for game, result in zip(games, render_games(games, out, use_cache=False), strict=True):
            if isinstance(result, ContentError):     # layouts still being written: listed, not measured
                broken[game.id] = f"{result.issues[0]}"[:70] + f" ({len(result.issues)} errors)"
                continue
            rows.append({"game": game.id, "cards": len(result.written), "wall": result.seconds,
                         "errors": len(result.errors)})
    return {"rows": rows, "wall": total.wall, "cpu": total.cpu, "broken": broken}


def stage_pdf(out: Path) -> dict:
    from cardgen.errors import ContentError
    from cardgen.model import load_game
    from cardgen.sheets import SheetOptions, make_sheets_many

    rows, runs = [], []
    for run in ("cold", "cached", "unchanged"):
        with Timer() as total:
            games = [load_game(game_id) for game_id in games_with_layouts()[0]]
            results = make_sheets_many([(game, None) for game in games], out, SheetOptions(),
                                       force=run == "cached")
        for game, result in zip(games, results, strict=True):
            if run == "cold" and not isinstance(result, ContentError):   # broken: the PNG stage lists it
                rows.append({"game": game.id, "cards": sum(c.copies for c in game.cards.values()),
                             "distinct": len(game.cards), "wall": result.seconds,
                             "pdfs": {p.name: p.stat().st_size / 1e6 for p in result.paths}})
        runs.append({"wall": total.wall, "cpu": total.cpu})
    return {"rows": rows, "cold": runs[0], "cached": runs[1], "unchanged": runs[2]}


def stage_rebuild(out: Path) -> dict:
    from cardgen.model import load_game
    from cardgen.render import render_game
    from cardgen.sheets import SheetOptions, make_sheets

    have = [g for g in games_with_layouts()[0] if not loadable(g)]
    if not have:
        return {"none": True}
    game_id = max(have, key=lambda g: len(load_game(g).cards))
    folder = out / "game" / game_id
    shutil.copytree(ROOT / "content" / game_id, folder, ignore=shutil.ignore_patterns("scenarios"))
    game_file = folder / "game.yaml"
    game_file.write_text("".join(line for line in game_file.read_text().splitlines(keepends=True)
                                 if not line.startswith("code:")))
    game = load_game(folder)
    render_game(game, out / "png")                               # the first build fills the caches
    make_sheets(game, out / "pdf", None, SheetOptions())
    card = next(iter(game.cards.values()))
    text = card.file.read_text()
    lines = text.splitlines(keepends=True)
    lines[card.line - 1] = lines[card.line - 1].replace(card.name, card.name + " II", 1)
    card.file.write_text("".join(lines))
    with Timer() as t:
        game = load_game(folder)
        result = render_game(game, out / "png")
    with Timer() as sheets:
        make_sheets(game, out / "pdf", None, SheetOptions())
    return {"game": game_id, "wall": t.wall, "cpu": t.cpu, "drawn": len(result.written),
            "cached": result.skipped, "sheets_wall": sheets.wall, "sheets_cpu": sheets.cpu}


STAGES = {"png": stage_png, "pdf": stage_pdf, "rebuild": stage_rebuild}


def run_stage(name: str) -> tuple[dict, Usage]:
    """The stage's own figures (the last line it prints), and its whole process tree's usage."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log"
        usage = measure([sys.executable, __file__, "--stage", name, tmp], cwd=ROOT, env=dict(os.environ),
                        log=log)
        lines = log.read_text(errors="replace").strip().splitlines()
    if usage.exit_code:
        raise SystemExit(f"stage {name} failed:\n" + "\n".join(lines[-30:]))
    return json.loads(lines[-1]), usage


def median_run(runs: list[tuple[dict, Usage]], wall) -> tuple[dict, Usage]:
    """The run whose wall(run) is the median (the upper middle one of an even number)."""
    ordered = sorted(runs, key=wall)
    return ordered[len(ordered) // 2]


def memory(runs: list[tuple[dict, Usage]]) -> tuple[float, float]:
    """Median over runs of the peak RSS and PSS summed over the stage's processes, MiB."""
    return (statistics.median(usage.rss_mib for _, usage in runs),
            statistics.median(usage.pss_mib for _, usage in runs))


def row(label: str, value: str, goal: str = "", ok: bool | None = None) -> str:
    result = "" if ok is None else ("ok" if ok else "MISSED")
    return f"{label:46} {value:>22}  {goal:10} {result}"


def png_lines(pngs: list[tuple[dict, Usage]]) -> list[str]:
    png, usage = median_run(pngs, lambda run: run[1].wall)
    lines = [row(f"  png {r['game']} ({r['cards']} cards)",
                 f"{r['cards'] / r['wall']:.0f} c/s, {r['wall']:.2f} s") for r in png["rows"]]
    cards = sum(r["cards"] for r in png["rows"])
    rate = cards / usage.wall
    lines.append(row("PNG, whole set, cold, whole process", f"{rate:.0f} cards/s", f">= {GOALS['png']:.0f}",
                     rate >= GOALS["png"]))
    lines.append(row("", f"cpu {usage.cpu:.1f} s ({usage.cores:.2f} cores) for {cards} cards"))
    lines.append(row("", "runs: " + ", ".join(f"{cards / u.wall:.0f}" for _, u in pngs) + " cards/s"))
    return lines


def pdf_lines(pdfs: list[tuple[dict, Usage]]) -> list[str]:
    pdf, _ = median_run(pdfs, lambda run: run[0]["cold"]["wall"])
    lines, biggest = [], 0.0
    for r in pdf["rows"]:
        lines.append(row(f"  pdf {r['game']} ({r['cards']} cards, {r['distinct']} distinct)",
                         f"{r['wall']:.2f} s"))
        for name, mb in r["pdfs"].items():
            biggest = max(biggest, mb)
            lines.append(row(f"    {name}", f"{mb:.2f} MB"))
    cold, cached, unchanged = pdf["cold"], pdf["cached"], pdf["unchanged"]
    lines += [row("proxy PDFs, every bundled card, cold", f"{cold['wall']:.2f} s (cpu {cold['cpu']:.2f})",
                  f"<= {GOALS['pdf_s']:g} s", cold["wall"] <= GOALS["pdf_s"]),
              row("", "runs: " + ", ".join(f"{r['cold']['wall']:.2f}" for r, _ in pdfs) + " s"),
              row("  again, laid-out cards cached, PDFs rewritten", f"{cached['wall']:.2f} s "
                                                                     f"(cpu {cached['cpu']:.2f})"),
              row("  again, nothing changed (files kept)", f"{unchanged['wall']:.2f} s "
                                                            f"(cpu {unchanged['cpu']:.2f})"),
              row("largest proxy PDF", f"{biggest:.2f} MB", f"< {GOALS['pdf_mb']:g} MB",
                  biggest < GOALS["pdf_mb"])]
    return lines


def rebuild_lines(rebuild: dict) -> list[str]:
    if rebuild.get("none"):
        return [row("one-card-edit rebuild", "no game has layouts")]
    return [row(f"one-card-edit rebuild ({rebuild['game']}, PNG)",
                f"{rebuild['wall']:.2f} s (cpu {rebuild['cpu']:.2f})", f"<= {GOALS['rebuild_s']:g} s",
                rebuild["wall"] <= GOALS["rebuild_s"]),
            row(f"  {rebuild['drawn']} drawn, {rebuild['cached']} from the cache; then its PDFs",
                f"{rebuild['sheets_wall']:.2f} s (cpu {rebuild['sheets_cpu']:.2f})")]


def memory_lines(stages: dict[str, list[tuple[dict, Usage]]]) -> list[str]:
    """The largest stage's peak memory summed over its processes, as RSS and as PSS."""
    peaks = {name: memory(runs) for name, runs in stages.items()}
    goal = GOALS["peak_mib"]
    lines = []
    for kind, index in (("RSS", 0), ("PSS", 1)):
        peak = max(rss_pss[index] for rss_pss in peaks.values())
        lines.append(row(f"peak memory, summed {kind} (largest stage)", f"{peak:.0f} MiB",
                         f"< {goal:.0f} MiB", peak < goal))
    lines.append(row("", ", ".join(f"{name} {rss:.0f}/{pss:.0f}" for name, (rss, pss) in peaks.items())
                     + " MiB"))
    return lines


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--stage":
        print(json.dumps(STAGES[sys.argv[2]](Path(sys.argv[3]))))
        return 0
    have, missing = games_with_layouts()
    before = speed_check()
    # The machine is shared: other work slows a run, never speeds it up. Each stage runs REPEATS
    # times in fresh processes and the median run is reported, with every run.
    pngs = [run_stage("png") for _ in range(REPEATS)]
    pdfs = [run_stage("pdf") for _ in range(REPEATS)]
    rebuild = run_stage("rebuild")
    lines = [row("measure", "value"), "-" * 88, *png_lines(pngs), *pdf_lines(pdfs),
             *rebuild_lines(rebuild[0]), *memory_lines({"png": pngs, "pdf": pdfs, "rebuild": [rebuild]})]
    lines += [f"  skipped {game_id}: no layouts.yaml yet" for game_id in missing]
    broken = pngs[0][0]["broken"]
    lines += [f"  skipped {game_id}: its layouts do not load: {problem}"
              for game_id, problem in broken.items()]
    measured = [g for g in have if g not in broken]
    lines.append(f"(games measured: {', '.join(measured) or 'none'}; medians of {REPEATS} runs; "
                 f"Python {sys.version.split()[0]})")
    lines.append(f"(machine check: {before:.0f} ms before, {speed_check():.0f} ms after; lower is faster, "
                 "see bench/machine.py)")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
