"""Issue 24's goals measured as a user meets them: whole `cardgen` processes, paired runs, medians.

Sections (pick some with --only; default: all):
  build   `cardgen build --out OUT`: the bundled games, cold (OUT removed first)
  render  `cardgen render GAME... --out OUT`: every bundled game with a layouts.yaml, cold;
          cardgen's default number of processes, and --jobs 1
  busy    the same render while another process keeps one core busy (a Python loop, not pinned)
  pinned  the same render pinned to one CPU (its affinity set before exec, as `taskset -c 0` does)

Each checkout (this one and any --tree, e.g. the code before a change: it comes first and is what
ratios are taken against) runs every variant of a section in turn, and the turns repeat --repeats
times in alternating order (A B C D, D C B A, ...): on a shared machine a slow minute falls on
all the variants, not on one. A figure is the median of its runs; a ratio is the median of the
ratios within each turn. Every run's wall time is listed too.

Each run is made twice in a row: once only waited for, which gives its wall and CPU seconds, and
once sampled, which gives its memory. The sampler polls /proc some 60 times a second (0.06-0.08
cores, and a PSS reading locks the process's page tables as it walks them): on two CPUs that is
taken from a render's two drawing processes. Paired in one run (8 turns), the sampled default was
3% slower and its --jobs 1 / default ratio 1.74 against 1.77 unsampled.

The checkouts' modules are compiled to bytecode first, and the runs may use it (this workplace
sets PYTHONDONTWRITEBYTECODE, which made every run compile cardgen's sources again, some 0.05 s of
work a user's installed cardgen never does).

Per run (bench/proctree.py says how each is taken): wall seconds; CPU seconds of the whole
process tree, and cores = cpu / wall; the peak memory SUMMED over all the tree's processes, as
RSS (a page shared by forked processes counts in each of them: how issue 24 measured "558-573
MiB") and as PSS (shared pages counted once: what the machine really spends); the largest single
process; and "others", the cores the rest of the machine used meanwhile (the busy loop included,
in `busy`). The machine check (bench/machine.py) is printed before and after each section.

Usage: .venv/bin/python bench/whole_process.py [--tree DIR ...] [--only SECTION ...] [--repeats N]
                                               [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import operator
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from machine import speed_check
from proctree import Usage, check_proc, measure

HERE = Path(__file__).resolve().parent.parent
NOISY = 0.25            # cores the rest of the machine may use before a section is called not quiet


@dataclass(frozen=True)
class Tree:
    path: Path
    name: str               # folder@commit ("+" when it has uncommitted changes)


@dataclass(frozen=True)
class Variant:
    tree: Tree
    jobs: str | None        # None: cardgen's default

    @property
    def label(self) -> str:
        return f"{self.tree.name} {'default' if self.jobs is None else '--jobs ' + self.jobs}"


Runs = dict[Variant, list[Usage]]


@dataclass(frozen=True)
class Section:
    name: str
    title: str
    arguments: Callable[[Path], list[str]]      # cardgen's arguments in a checkout, --out aside
    jobs: tuple[str | None, ...] = (None, "1")
    busy_core: bool = False
    pinned: bool = False


def games_with_layouts(tree: Path) -> list[str]:
    return sorted(p.parent.name for p in (tree / "content").glob("*/layouts.yaml"))


def render_arguments(tree: Path) -> list[str]:
    return ["render", *games_with_layouts(tree)]


SECTIONS = [
    Section("build", "cold build of the bundled games", lambda tree: ["build"], jobs=(None,)),
    Section("render", "whole-set render, cold, quiet machine", render_arguments),
    Section("busy", "whole-set render, cold, one core kept busy", render_arguments, busy_core=True),
    Section("pinned", "whole-set render, cold, pinned to one CPU", render_arguments, pinned=True),
]


# -- running ----------------------------------------------------------------------------------

def checkout(path: Path) -> Tree:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True,
                              check=False).stdout.strip()

    dirty = "+" if git("status", "--porcelain", "--untracked-files=no") else ""
    return Tree(path, f"{path.name}@{git('rev-parse', '--short', 'HEAD') or '?'}{dirty}")


@contextlib.contextmanager
def busy_core():
    """Another process spinning on a core, wherever the scheduler puts it."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def pin_to_one_cpu() -> None:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def run_once(section: Section, variant: Variant, scratch: Path) -> Usage:
    """One cold run, timed with nothing sampling it; and another, sampled, for its memory."""
    timed = run_cold(section, variant, scratch, sample=False)
    sampled = run_cold(section, variant, scratch, sample=True)
    return replace(sampled, wall=timed.wall, cpu=timed.cpu, others_cores=timed.others_cores)


def run_cold(section: Section, variant: Variant, scratch: Path, sample: bool) -> Usage:
    """The out folder removed, the command measured to its end."""
    out, log = scratch / "out", scratch / "log"
    shutil.rmtree(out, ignore_errors=True)
    argv = [sys.executable, "-m", "cardgen", *section.arguments(variant.tree.path), "--out", str(out)]
    if variant.jobs is not None:
        argv += ["--jobs", variant.jobs]
    env = {**user_environment(), "PYTHONPATH": str(variant.tree.path)}
    with busy_core() if section.busy_core else contextlib.nullcontext():
        usage = measure(argv, cwd=variant.tree.path, env=env, log=log,
                        preexec_fn=pin_to_one_cpu if section.pinned else None, sample=sample)
    if usage.exit_code:
        raise SystemExit(f"{variant.label}: `cardgen {' '.join(argv[3:])}` exited {usage.exit_code}:\n"
                         + log.read_text(errors="replace")[-3000:])
    return usage


def user_environment() -> dict[str, str]:
    """This environment, as a user's would be: bytecode used and kept."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def compile_bytecode(tree: Tree) -> None:
    """Its cardgen compiled, as installing a package does (into __pycache__, which git ignores)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree.path / "cardgen")],
                   env=user_environment(), check=True, stdout=subprocess.DEVNULL)


def run_section(section: Section, trees: list[Tree], repeats: int, scratch: Path) -> Runs:
    """Every variant once per turn, in alternating order; each run's usage, by variant."""
    variants = [Variant(tree, jobs) for tree in trees for jobs in section.jobs]
    runs: Runs = {variant: [] for variant in variants}
    for turn in range(repeats):
        for variant in variants if turn % 2 == 0 else variants[::-1]:
            usage = run_once(section, variant, scratch)
            runs[variant].append(usage)
            print(f"  {section.name} {turn + 1}/{repeats} {variant.label}: {usage.wall:.1f} s, "
                  f"{usage.cores:.2f} cores, {usage.pss_mib:.0f} MiB PSS", file=sys.stderr, flush=True)
    return runs


# -- figures ----------------------------------------------------------------------------------

def median(runs: list[Usage], field: str) -> float:
    return statistics.median(getattr(run, field) for run in runs)


def paired_ratio(top: list[Usage], bottom: list[Usage], field: str = "wall") -> float:
    """The median over turns of top's figure / bottom's, each pair taken in the same turn."""
    return statistics.median(getattr(a, field) / getattr(b, field) for a, b in zip(top, bottom, strict=True))


def find(runs: Runs, tree: Tree, jobs: str | None) -> list[Usage] | None:
    return runs.get(Variant(tree, jobs))


def speedup_over_one_job(runs: Runs, tree: Tree, trees: list[Tree]) -> float | None:
    default, single = find(runs, tree, None), find(runs, tree, "1")
    return paired_ratio(single, default) if default and single else None


def wall_against_first(runs: Runs, tree: Tree, trees: list[Tree]) -> float | None:
    return None if tree == trees[0] else paired_ratio(find(runs, tree, None), find(runs, trees[0], None))


def of_default(field: str) -> Callable[[Runs, Tree, list[Tree]], float]:
    return lambda runs, tree, trees: median(find(runs, tree, None), field)


@dataclass(frozen=True)
class Goal:
    section: str
    text: str
    figure: Callable[[Runs, Tree, list[Tree]], float | None]
    compare: str            # ">=", "<=" or "<"
    target: float
    form: str = "{:.2f}"


COMPARE = {">=": operator.ge, "<=": operator.le, "<": operator.lt}
GOALS = [
    Goal("build", "cold build: cores used", of_default("cores"), ">=", 1.8),
    Goal("build", "cold build: wall / the first tree's", wall_against_first, "<=", 0.5),
    Goal("build", "cold build: peak MiB, summed RSS", of_default("rss_mib"), "<", 400, "{:.0f}"),
    Goal("build", "cold build: peak MiB, summed PSS", of_default("pss_mib"), "<", 400, "{:.0f}"),
    Goal("render", "render, quiet: --jobs 1 wall / default's", speedup_over_one_job, ">=", 1.8),
    Goal("busy", "render, one core busy: --jobs 1 / default", speedup_over_one_job, ">=", 1.0),
    Goal("pinned", "render, pinned to one CPU: --jobs 1 / default", speedup_over_one_job, ">=", 1.0),
]


# -- report -----------------------------------------------------------------------------------

COLUMNS = [("wall s", "wall", "{:.2f}"), ("cpu s", "cpu", "{:.2f}"), ("cores", "cores", "{:.2f}"),
           ("RSS MiB", "rss_mib", "{:.0f}"), ("PSS MiB", "pss_mib", "{:.0f}"),
           ("largest", "largest_mib", "{:.0f}"), ("others", "others_cores", "{:.2f}")]


def section_table(section: Section, runs: Runs, trees: list[Tree], checks: tuple[float, float]) -> list[str]:
    width = max(len(variant.label) for variant in runs) + 2
    lines = [f"{section.name}: {section.title}  (machine check {checks[0]:.0f} ms before, "
             f"{checks[1]:.0f} ms after)",
             f"  {'':{width}}" + "".join(f"{title:>9}" for title, _, _ in COLUMNS) + "   runs, wall s"]
    for variant, usages in runs.items():
        figures = "".join(f"{form.format(median(usages, field)):>9}" for _, field, form in COLUMNS)
        lines.append(f"  {variant.label:{width}}{figures}   " + " ".join(f"{u.wall:.1f}" for u in usages))
    lines += [f"  {line}" for line in ratio_lines(section, runs, trees) + noise_lines(section, runs)]
    return lines


def noise_lines(section: Section, runs: Runs) -> list[str]:
    """A warning when the rest of the machine was busy: its figures are then not a quiet machine's."""
    others = statistics.median(u.others_cores for usages in runs.values() for u in usages)
    others -= 1 if section.busy_core else 0            # the busy loop is meant to be there
    if others < NOISY:
        return []
    aside = ", the busy loop aside" if section.busy_core else ""
    return [f"NOTE: the rest of the machine used {others:.2f} cores meanwhile (median{aside}): not quiet"]


def ratio_lines(section: Section, runs: Runs, trees: list[Tree]) -> list[str]:
    lines = []
    if "1" in section.jobs:
        lines.append("--jobs 1 wall / default's: " + ", ".join(
            f"{tree.name} {speedup_over_one_job(runs, tree, trees):.2f}" for tree in trees))
    for tree in trees[1:]:
        for jobs in section.jobs:
            now, then = find(runs, tree, jobs), find(runs, trees[0], jobs)
            ratios = ", ".join(f"{name} {paired_ratio(now, then, field):.2f}"
                               for name, field in (("wall", "wall"), ("cpu", "cpu"), ("PSS", "pss_mib")))
            lines.append(f"{Variant(tree, jobs).label} / {trees[0].name}: {ratios}")
    return lines


def goals_table(results: dict[str, Runs], trees: list[Tree]) -> list[str]:
    width = max(len(goal.text) for goal in GOALS) + 2
    lines = [f"{'goal (issue 24)':{width}}{'target':>8}" + "".join(f"{tree.name:>26}" for tree in trees)]
    for goal in GOALS:
        if goal.section not in results:
            continue
        cells = "".join(f"{goal_cell(goal, goal.figure(results[goal.section], tree, trees)):>26}"
                        for tree in trees)
        lines.append(f"{goal.text:{width}}{f'{goal.compare} {goal.target:g}':>8}{cells}")
    return lines


def goal_cell(goal: Goal, value: float | None) -> str:
    if value is None:
        return "-"
    return f"{goal.form.format(value)} {'ok' if COMPARE[goal.compare](value, goal.target) else 'MISSED'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="another checkout to run beside this one (first in the table)")
    parser.add_argument("--only", nargs="+", choices=[s.name for s in SECTIONS])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="every run's figures, written to this file")
    args = parser.parse_args()
    check_proc()
    paths = [*(p.resolve() for p in args.tree), HERE]
    trees = [checkout(p) for p in dict.fromkeys(paths)]
    sections = [s for s in SECTIONS if not args.only or s.name in args.only]
    for tree in trees:
        compile_bytecode(tree)
    results: dict[str, Runs] = {}
    report = []
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as scratch:
        for section in sections:
            before = speed_check()
            results[section.name] = run_section(section, trees, args.repeats, Path(scratch))
            report += [*section_table(section, results[section.name], trees, (before, speed_check())), ""]
    report += goals_table(results, trees)
    sampler = max(u.sampler_cores for runs in results.values() for usages in runs.values() for u in usages)
    report.append(f"({args.repeats} runs of each, medians; the sampler took at most {sampler:.2f} cores; "
                  f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
                  f"Python {sys.version.split()[0]})")
    print("\n".join(report))
    if args.json:
        args.json.write_text(json.dumps({name: {variant.label: [asdict(u) for u in usages]
                                                for variant, usages in runs.items()}
                                         for name, runs in results.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
