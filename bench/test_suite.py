"""`make test` in two trees, before and after: whole runs, paired and alternated, medians.

Goal (issue 24, item 5): `make test` at least 1.6x faster than before, on 2 cores. Each tree runs as
a developer runs it, with its own .venv (made by its `make test` on first use: pass --warm to run
each once, untimed, first). 'make' is the whole `make test`; 'pytest' is the pytest line of the
tree's test target alone, without --mindeps (the dependency floors' check). Runs alternate
(before, after, before, after, ...) so a shared machine's changing speed falls on both alike; the
machine check (bench/machine.py) is taken before each run.

    .venv/bin/python bench/test_suite.py --before /tmp/main-clone --pairs 2 --warm
    .venv/bin/python bench/test_suite.py --before A --after B --what pytest
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import speed_check

ROOT = Path(__file__).resolve().parent.parent
GOAL = 1.6


def pytest_line(tree: Path) -> str:
    """The pytest command of the tree's `make test`, without the floors' check."""
    recipe, in_test = [], False
    for line in (tree / "Makefile").read_text().splitlines():
        if line.startswith("test:"):
            in_test = True
        elif in_test and not line.startswith("\t"):
            break
        elif in_test:
            recipe.append(line.strip())
    found = [line for line in recipe if "-m pytest" in line]
    if not found:
        raise SystemExit(f"test_suite: no pytest line in {tree}/Makefile's test target")
    words = [w for w in shlex.split(found[0].replace("$(BIN)", ".venv/bin")) if w != "--mindeps"]
    return shlex.join(words)


def command(tree: Path, what: str) -> str:
    return "make test" if what == "make" else pytest_line(tree)


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (or taken by its host) since it started: from
    /proc/stat, which counts other users' processes too (0 where there is none)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def run(tree: Path, what: str, log: Path) -> dict:
    """One run: wall and CPU seconds (every process it waited for), the cores that others used
    meanwhile (a shared machine), exit code, last line."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("PYTEST_")}
    check = speed_check()
    before, busy = resource.getrusage(resource.RUSAGE_CHILDREN), machine_busy()
    start = time.perf_counter()
    with log.open("w") as out:
        done = subprocess.run(["bash", "-c", command(tree, what)], cwd=tree, env=env, stdout=out,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after, busy = resource.getrusage(resource.RUSAGE_CHILDREN), machine_busy() - busy
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    return {"wall": wall, "cpu": cpu, "others": max(0.0, busy - cpu) / wall, "code": done.returncode,
            "last": lines[-1] if lines else "", "check": check}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the tree as it was")
    parser.add_argument("--after", type=Path, default=ROOT, help="the tree as it is (this one)")
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--what", nargs="+", choices=["make", "pytest"], default=["make", "pytest"])
    parser.add_argument("--warm", action="store_true", help="run each tree's `make test` once first")
    parser.add_argument("--logs", type=Path, default=Path("/tmp/cardgen-test-suite"))
    args = parser.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    args.logs.mkdir(parents=True, exist_ok=True)
    if args.warm:
        for label, tree in trees.items():
            warm = run(tree, "make", args.logs / f"warm-{label}.log")
            print(f"warm-up {label}: {warm['wall']:.0f} s, exit {warm['code']}", flush=True)
    results = {(what, label): [] for what in args.what for label in trees}
    for pair in range(args.pairs):
        for what in args.what:
            for label, tree in trees.items():
                r = run(tree, what, args.logs / f"{what}-{label}-{pair}.log")
                results[what, label].append(r)
                print(f"  {what:6} {label:6} {r['wall']:6.1f} s wall  {r['cpu']:6.1f} s CPU  "
                      f"others {r['others']:4.2f} cores  exit {r['code']}  (machine {r['check']:.0f} ms)  "
                      f"{r['last'][-50:]}", flush=True)
    print()
    print(f"{'what':6}  {'tree':6}  {'median s':>8}  {'runs s':>18}  {'CPU s':>6}  {'cores':>5}  "
          f"{'others':>6}  command")
    for (what, label), rs in results.items():
        walls = [r["wall"] for r in rs]
        cpu = statistics.median(r["cpu"] for r in rs)
        others = statistics.median(r["others"] for r in rs)
        print(f"{what:6}  {label:6}  {statistics.median(walls):8.1f}  "
              f"{' '.join(f'{w:.1f}' for w in walls):>18}  {cpu:6.1f}  "
              f"{cpu / statistics.median(walls):5.2f}  {others:6.2f}  {command(trees[label], what)}")
    for what in args.what:
        before = statistics.median(r["wall"] for r in results[what, "before"])
        after = statistics.median(r["wall"] for r in results[what, "after"])
        ok = "ok" if before / after >= GOAL else f"under {GOAL}x"
        print(f"{what}: after is {before / after:.2f}x faster than before (medians; goal {GOAL}x: {ok})")
    failed = [r for rs in results.values() for r in rs if r["code"] != 0]
    checks = [r["check"] for rs in results.values() for r in rs]
    print(f"(cores: CPU s / wall s of the run; others: cores the machine's other processes used "
          f"meanwhile, from /proc/stat; machine check {min(checks):.0f}-{max(checks):.0f} ms over the runs, "
          f"lower is faster, see bench/machine.py; {len(failed)} runs failed; logs in {args.logs})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
