"""Issue 24, items 1-3 for card rendering, measured as whole processes: one checkout against another.

Sections (pick some with --only; default: all):
  render  `cardgen render GAME... --out OUT`, every bundled game with a layouts.yaml, cold: the
          default processes and --jobs 1, on a quiet machine, with one core kept busy (another
          process spinning, anywhere) and pinned to one CPU (as `taskset -c 0` does)
  site    `cardgen build --only cards site --out OUT`, cold: the cards and site stages' seconds
          (summed over the games, as build prints them), the whole process's wall and CPU

Each run is a fresh process tree, timed from start to exit. Per run: wall seconds; CPU seconds
(user + system of the tree); minor page faults of the tree (ru_minflt, workers included once
joined); peak memory summed over the tree's processes, as RSS and as PSS (bench/proctree.py);
"others", the cores the rest of the machine used meanwhile (the busy loop's included): a quiet
run has others near 0 (and near 1 when busy).
The variants run in turns, each turn in the opposite order to the last (A B C, C B A...), and a
figure is the median over turns; "--jobs 1 / default" is the median of the ratios within turns.
The machine check (bench/machine.py) is printed before and after.

Usage: .venv/bin/python bench/render_pool.py --tree BEFORE [--tree ...] [--only render site] [--repeats N]
(this checkout is measured after the --tree ones)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from machine import speed_check
from proctree import PeakSampler, machine_busy_seconds

HERE = Path(__file__).resolve().parent.parent
CONDITIONS = ("quiet", "busy", "pinned")


@dataclass
class Run:
    wall: float
    cpu: float
    faults: int
    rss_mib: float
    pss_mib: float
    others: float = 0.0         # cores the rest of the machine used meanwhile (a busy loop included)
    stages: dict[str, float] = field(default_factory=dict)      # build's stage seconds, summed


@dataclass(frozen=True)
class Variant:
    tree: Path
    jobs: str | None
    condition: str = "quiet"

    @property
    def label(self) -> str:
        jobs = "default" if self.jobs is None else f"--jobs {self.jobs}"
        return f"{self.tree.name} {jobs} {self.condition}"


def games(tree: Path) -> list[str]:
    return sorted(p.parent.name for p in (tree / "content").glob("*/layouts.yaml"))


def measure(argv: list[str], tree: Path, pinned: bool) -> tuple[Run, str]:
    """Run argv (cardgen's arguments) in `tree` to its end; its figures and its output."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    pin = (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if pinned else None
    with tempfile.TemporaryFile() as log:
        busy, own, start = machine_busy_seconds(), time.process_time(), time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "cardgen", *argv], cwd=tree, env=env, stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=pin)
        peaks = PeakSampler(proc.pid)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peaks.sample()
            time.sleep(0.015)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        output = log.read().decode(errors="replace")
    if proc.returncode:
        raise SystemExit(f"`cardgen {' '.join(argv)}` in {tree} exited {proc.returncode}:\n{output[-3000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    others = (machine_busy_seconds() - busy - cpu - (time.process_time() - own)) / wall
    return Run(wall, cpu, usage.ru_minflt, peaks.rss_kib / 1024, peaks.pss_kib / 1024, others), output


@contextlib.contextmanager
def condition(name: str):
    if name != "busy":
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def render_run(variant: Variant, out: Path) -> Run:
    argv = ["render", *games(variant.tree), "--out", str(out)]
    if variant.jobs is not None:
        argv += ["--jobs", variant.jobs]
    with condition(variant.condition):
        run, _ = measure(argv, variant.tree, variant.condition == "pinned")
    return run


STAGE_LINE = re.compile(r"^\s+(cards|site)\s+.*\((\d+\.\d+)s\)\s*$", re.M)


def site_run(variant: Variant, out: Path) -> Run:
    run, output = measure(["build", "--only", "cards", "site", "--out", str(out)], variant.tree, False)
    for stage, seconds in STAGE_LINE.findall(output):
        run.stages[stage] = run.stages.get(stage, 0.0) + float(seconds)
    return run


def run_turns(variants: list[Variant], once, repeats: int, scratch: Path,
              name: str) -> dict[Variant, list[Run]]:
    runs: dict[Variant, list[Run]] = {v: [] for v in variants}
    for turn in range(repeats):
        for variant in variants if turn % 2 == 0 else variants[::-1]:
            out = scratch / "out"
            shutil.rmtree(out, ignore_errors=True)
            run = once(variant, out)
            runs[variant].append(run)
            print(f"  {name} {turn + 1}/{repeats} {variant.label}: {run.wall:.2f} s, {run.cpu:.2f} cpu, "
                  f"{run.faults} faults, {run.pss_mib:.0f} MiB PSS", file=sys.stderr, flush=True)
    return runs


def median(runs: list[Run], get) -> float:
    return statistics.median(get(run) for run in runs)


COLUMNS = [("wall s", lambda r: r.wall, "{:.2f}"), ("cpu s", lambda r: r.cpu, "{:.2f}"),
           ("faults k", lambda r: r.faults / 1000, "{:.0f}"), ("RSS MiB", lambda r: r.rss_mib, "{:.0f}"),
           ("PSS MiB", lambda r: r.pss_mib, "{:.0f}"), ("others", lambda r: r.others, "{:.2f}")]


def table(runs: dict[Variant, list[Run]], extra: list[tuple[str, object, str]] = ()) -> list[str]:
    columns = COLUMNS + list(extra)
    width = max(len(v.label) for v in runs) + 2
    lines = [f"  {'':{width}}" + "".join(f"{title:>10}" for title, _, _ in columns) + "   walls"]
    for variant, done in runs.items():
        cells = "".join(f"{form.format(median(done, get)):>10}" for _, get, form in columns)
        lines.append(f"  {variant.label:{width}}{cells}   " + " ".join(f"{r.wall:.2f}" for r in done))
    return lines


def speedups(runs: dict[Variant, list[Run]], trees: list[Path]) -> list[str]:
    """--jobs 1 wall / default wall, the median of the ratios within turns, per tree and condition."""
    lines = []
    for cond in CONDITIONS:
        cells = []
        for tree in trees:
            default, single = runs.get(Variant(tree, None, cond)), runs.get(Variant(tree, "1", cond))
            if default and single:
                ratio = statistics.median(s.wall / d.wall for s, d in zip(single, default, strict=True))
                cells.append(f"{tree.name} {ratio:.2f}")
        if cells:
            lines.append(f"  --jobs 1 wall / default wall, {cond}: " + ", ".join(cells))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", default=[])
    parser.add_argument("--only", nargs="+", choices=["render", "site"], default=["render", "site"])
    parser.add_argument("--conditions", nargs="+", choices=CONDITIONS, default=list(CONDITIONS))
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    trees = list(dict.fromkeys([*(t.resolve() for t in args.tree), HERE]))
    report = [f"machine check {speed_check():.0f} ms (before)"]
    with tempfile.TemporaryDirectory(prefix="cardgen-render-pool-") as scratch:
        if "render" in args.only:
            variants = [Variant(t, j, c) for c in args.conditions for t in trees for j in (None, "1")]
            runs = run_turns(variants, render_run, args.repeats, Path(scratch), "render")
            report += ["render: the whole bundled set, cold", *table(runs), *speedups(runs, trees)]
        if "site" in args.only:
            variants = [Variant(t, None) for t in trees]
            runs = run_turns(variants, site_run, args.repeats, Path(scratch), "site")
            stages = [(f"{s} s", lambda r, s=s: r.stages.get(s, 0.0), "{:.2f}") for s in ("cards", "site")]
            report += ["build --only cards site, cold (stage seconds summed over the games)",
                       *table(runs, stages)]
    report.append(f"machine check {speed_check():.0f} ms (after); {args.repeats} turns, medians; "
                  f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
