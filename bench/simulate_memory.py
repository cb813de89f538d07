"""Memory and speed of `cardgen simulate` as --matches grows: does memory stay flat?

Issue 20 (item 6): `cardgen simulate amiibart --matches 1000000000` built a list of about 36 GB
before playing a match, and ignored Ctrl-C for 25 s or more. Each checkout (--tree, repeatable:
the code before a change and after it) is measured on the same runs:

1. peak resident memory (VmHWM, sampled from /proc every 50 ms) of the main process and of the
   largest worker, for --matches 1,000, 10,000 and 100,000 of a fast game on two processes;
2. a run of --matches 1,000,000,000 interrupted after INTERRUPT_AFTER seconds: its memory second
   by second, and how long the Ctrl-C took. A checkout that lists every seed first is given
   --matches 100,000,000 instead (a tenth: about 3.6 GB), run under an address-space limit of
   LIMIT_GB, so that it cannot take the machine's memory;
3. throughput of the default 1,000 matches (the report's matches/s, and the whole command's
   seconds), best of REPEATS runs, the checkouts taking turns.

Usage: .venv/bin/python bench/simulate_memory.py [--tree DIR ...] [--game GAME] [--sizes N,N...]
       [--peak-only]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
INTERRUPT_AFTER = 10.0
LIMIT_GB = 6
REPEATS = 5
SIZES = (1_000, 10_000, 100_000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append")
    parser.add_argument("--game", default="tests/data/tide-runners",
                        help="a fast game (default: tide-runners)")
    parser.add_argument("--sizes", type=lambda text: [int(n) for n in text.split(",")], default=SIZES,
                        help="the --matches of part 1, comma-separated (default: 1000,10000,100000; "
                             "issue 22 asks for 1000000)")
    parser.add_argument("--peak-only", action="store_true",
                        help="part 1 only: no interrupted run, no throughput (default: all three)")
    args = parser.parse_args()
    signal.signal(signal.SIGINT, signal.default_int_handler)     # (see interrupt_trials.py)
    trees = [t.resolve() for t in args.tree or [HERE]]
    print(f"1. peak resident memory, {args.game}, --jobs 2")
    print(f"   {'checkout':22} {'matches':>9} {'seconds':>8} {'main MB':>8} {'worker MB':>9}")
    for matches in args.sizes:
        for tree in trees:
            run = Run(tree, ["simulate", args.game, "--matches", str(matches), "--jobs", "2",
                             "--format", "json"])
            run.wait()
            print(f"   {tree.name:22} {matches:9,} {run.seconds:8.1f} {run.peak_main:8.0f} "
                  f"{run.peak_worker:9.0f}")
    if args.peak_only:
        return 0
    for tree in trees:
        interrupted(tree, args.game)
    throughput(trees)
    return 0


def interrupted(tree: Path, game: str) -> None:
    streams = "simulate_tally" in (tree / "cardgen" / "sim" / "runner.py").read_text()
    matches = 1_000_000_000 if streams else 100_000_000
    print(f"\n2. {tree.name}: --matches {matches:,} --jobs 2, Ctrl-C after {INTERRUPT_AFTER:g} s"
          + ("" if streams else f" (it lists its seeds first: a tenth of a billion, under a {LIMIT_GB} GB "
                                "limit)"))
    print(f"   {'second':>6} {'main MB':>8} {'workers MB':>10}")
    run = Run(tree, ["simulate", game, "--matches", str(matches), "--jobs", "2"], limit=not streams)
    second = 1
    while run.alive() and run.elapsed() < INTERRUPT_AFTER:
        time.sleep(max(0.0, second - run.elapsed()))
        main_mb, workers_mb = run.now()
        print(f"   {second:6} {main_mb:8.0f} {workers_mb:10.0f}")
        second += 1
    if not run.alive():
        print(f"   ended by itself after {run.elapsed():.1f} s: exit {run.proc.returncode}: "
              f"{run.stderr()[-200:]!r}")
        return
    os.killpg(run.proc.pid, signal.SIGINT)
    sent = time.monotonic()
    run.wait(timeout=120)
    print(f"   Ctrl-C honoured in {time.monotonic() - sent:.2f} s: exit {run.proc.returncode}, "
          f"stderr {run.stderr().strip()[-120:]!r}; peak: main {run.peak_main:.0f} MB, "
          f"worker {run.peak_worker:.0f} MB")


def throughput(trees: list[Path]) -> None:
    print(f"\n3. the default 1,000 matches, --jobs 2, best of {REPEATS} (the checkouts taking turns)")
    print(f"   {'game':16} {'checkout':22} {'matches/s':>10} {'command s':>10}")
    for game in ("amiibart", "tests/data/tide-runners"):
        best: dict[Path, tuple[float, float]] = {}
        for _ in range(REPEATS):
            for tree in trees:
                run = Run(tree, ["simulate", game, "--jobs", "2", "--format", "json"])
                run.wait()
                rate = json.loads(run.stdout())["speed"]["matches_per_s"]
                old = best.get(tree, (0.0, float("inf")))
                best[tree] = (max(old[0], rate), min(old[1], run.seconds))
        for tree in trees:
            print(f"   {Path(game).name:16} {tree.name:22} {best[tree][0]:10.1f} {best[tree][1]:10.2f}")


class Run:
    """A cardgen command in its own process group, its memory sampled from /proc as it runs."""

    def __init__(self, tree: Path, argv: list[str], limit: bool = False):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = open(Path(self.tmp.name) / "stdout", "w+b")     # noqa: SIM115 (closed in wait)
        self.err = open(Path(self.tmp.name) / "stderr", "w+b")     # noqa: SIM115
        cap = LIMIT_GB * 2**30

        def limited():
            if limit:
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

        self.start = time.monotonic()
        command = [sys.executable, "-m", "cardgen", *argv, "--out", self.tmp.name + "/out"]
        self.proc = subprocess.Popen(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=self.err,
                                     start_new_session=True, preexec_fn=limited)
        self.peak_main = self.peak_worker = 0.0
        self.seconds = 0.0

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def alive(self) -> bool:
        self.now()
        return self.proc.poll() is None

    def now(self) -> tuple[float, float]:
        """(main MB, all workers MB) resident now; the peaks are kept as they are seen."""
        main = _status(self.proc.pid)
        workers = [_status(pid) for pid in _children(self.proc.pid)]
        self.peak_main = max(self.peak_main, main.get("VmHWM", 0))
        self.peak_worker = max([self.peak_worker, *(w.get("VmHWM", 0) for w in workers)])
        return main.get("VmRSS", 0), sum(w.get("VmRSS", 0) for w in workers)

    def wait(self, timeout: float = 3600) -> None:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.now()
            time.sleep(0.05)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.seconds = self.elapsed()

    def stdout(self) -> str:
        self.out.seek(0)
        return self.out.read().decode()

    def stderr(self) -> str:
        self.err.seek(0)
        return self.err.read().decode(errors="replace")


def _status(pid: int) -> dict[str, float]:
    """Memory lines of /proc/PID/status, in MB ({} once the process is gone)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return {key: int(value.split()[0]) / 1024 for key, _, value in (line.partition(":") for line in lines)
            if key in ("VmRSS", "VmHWM")}


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


if __name__ == "__main__":
    sys.exit(main())
