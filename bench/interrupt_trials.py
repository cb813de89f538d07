"""Ctrl-C trials: does every command stop at once, in one line, leaving nothing behind?

Each trial starts a cardgen command in its own process group with an empty --out, waits a random
time, then sends SIGINT to the whole group (as a terminal's Ctrl-C does) or, one trial in three,
to the main process alone (`kill -INT`). It counts: hangs (not ended HANG_SECONDS after the
signal; a second SIGINT is then sent, as a user would, and SIGKILL after that), tracebacks on
stderr, stderr that is not the one line "interrupted" ("stopped" for watch), exit codes other
than 130 (-2: ended by the signal), processes of the group still running once the command has
ended, and temporary files (.*.tmp) left in out/ or in the game folder. A command that ended
before its signal, or with its own result because the signal came as it was ending, is tried
again with half the delay. Issue 20 (item 5) reported, for rendering: 1 in 30 hung, 6 in 30
printed worker tracebacks, 1 in 30 left a temporary file.

Usage: .venv/bin/python bench/interrupt_trials.py [--trials N] [--seed S] [--tree DIR ...]
  --trials  trials per command (default 6: 42 in all)
  --tree    a cardgen checkout to try (repeatable; default: this one). With two, e.g. the code
            before a change and after it, both get the same commands, delays and signals.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HANG_SECONDS = 5.0

# (name, arguments, earliest and latest delay in seconds: from once Python and cardgen's command line
# have loaded to a little under the command's usual running time here, the line it ends with).
# `check` is not tried: its work takes some 50 ms here, after 150 ms of starting Python.
COMMANDS = [
    ("render", ["render", "amiibart", "--no-cache", "--jobs", "2"], 0.4, 3.0, "interrupted"),
    ("sheets", ["sheets", "amiibart"], 0.4, 2.4, "interrupted"),
    ("rulebook", ["rulebook", "amiibart"], 0.4, 7.0, "interrupted"),
    ("aids", ["aids", "amiibart"], 0.4, 1.8, "interrupted"),
    ("simulate", ["simulate", "amiibart", "--matches", "20000", "--jobs", "2"], 0.4, 5.0, "interrupted"),
    ("build", ["build", "tests/data/tide-runners"], 0.4, 3.4, "interrupted"),
    # several games: their stages run side by side, each in a process of its own
    ("build games", ["build", "dojo-duel", "combo-fighter"], 0.4, 12.0, "interrupted"),
    ("watch", ["watch", "tests/data/tide-runners"], 0.4, 4.0, "stopped"),
]


@dataclass
class Outcome:
    stop_seconds: float = 0.0
    hung: bool = False
    traceback: bool = False
    not_one_line: bool = False
    wrong_exit: bool = False
    exit_code: int | None = None
    strays: bool = False
    temps: list[str] = field(default_factory=list)
    stderr: str = ""
    finished_first: int = 0         # times it ended before its signal (then tried sooner)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=6)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--tree", type=Path, action="append")
    args = parser.parse_args()
    # A command started in the background of a shell script ignores SIGINT (and so would every
    # command this starts): handle it, so that the commands start with Ctrl-C working.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    trees = [t.resolve() for t in args.tree or [HERE]]
    rng = random.Random(args.seed)
    plan = [(name, argv, rng.uniform(earliest, latest), earliest, word, rng.random() < 2 / 3)
            for _ in range(args.trials) for name, argv, earliest, latest, word in COMMANDS]
    outcomes: dict[Path, list[tuple[str, Outcome]]] = {tree: [] for tree in trees}
    for i, (name, argv, delay, earliest, word, group) in enumerate(plan, 1):
        for tree in trees:
            outcome = trial(tree, argv, delay, earliest, word, group)
            outcomes[tree].append((name, outcome))
            print(f"  [{i}/{len(plan)}] {tree.name:18} {name:9} {'group ' if group else 'parent'} "
                  f"at {delay:4.1f}s: {describe(outcome)}", file=sys.stderr, flush=True)
    for tree in trees:
        table(tree, outcomes[tree])
    return 0


def trial(tree: Path, argv: list[str], delay: float, earliest: float, word: str, group: bool) -> Outcome:
    outcome = Outcome()
    while True:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            err_path = Path(tmp) / "stderr"
            with open(err_path, "wb") as err:
                proc = subprocess.Popen([sys.executable, "-m", "cardgen", *argv, "--out", str(out)],
                                        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=err, start_new_session=True)
                time.sleep(delay)
                if proc.poll() is not None:
                    outcome.finished_first += 1
                    delay /= 2
                    _kill_group(proc.pid)
                    if delay < earliest / 2:
                        return outcome
                    continue
                (os.killpg if group else os.kill)(proc.pid, signal.SIGINT)
                sent = time.monotonic()
                try:
                    proc.wait(HANG_SECONDS)
                except subprocess.TimeoutExpired:
                    outcome.hung = True
                    os.killpg(proc.pid, signal.SIGINT)      # a second Ctrl-C
                    try:
                        proc.wait(HANG_SECONDS)
                    except subprocess.TimeoutExpired:
                        _kill_group(proc.pid)
                        proc.wait()
                outcome.stop_seconds = time.monotonic() - sent
                outcome.strays = _group_alive(proc.pid)
                if outcome.strays:          # give them a moment (they may still write), then stop them
                    time.sleep(1.0)
                    _kill_group(proc.pid)
            stderr = outcome.stderr = err_path.read_text(errors="replace")
            if proc.returncode in (0, 1) and word not in stderr and "Traceback" not in stderr \
                    and argv[0] != "watch":                 # (watch never ends by itself)
                # it ended with its own result: the signal came as it was ending (a Ctrl-C after
                # the work is done is ignored): try again sooner
                outcome.finished_first += 1
                outcome.stop_seconds = 0.0
                delay /= 2
                if delay < earliest / 2:
                    return outcome
                continue
            outcome.traceback = "Traceback" in stderr
            outcome.not_one_line = stderr.strip().splitlines() != [word]
            outcome.exit_code = proc.returncode
            outcome.wrong_exit = proc.returncode != 130
            game = tree / argv[1] if "/" in argv[1] else tree / "content" / argv[1]
            outcome.temps = [str(p) for root in (out, game) for p in root.rglob(".*.tmp")]
            for temp in outcome.temps:      # (never leave one in the game folder)
                Path(temp).unlink(missing_ok=True)
            return outcome


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs (a zombie, dead and waiting for init to reap
    it, does not: the compiler that ctypes.util.find_library runs leaves such ones)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def describe(o: Outcome) -> str:
    if o.finished_first and not o.stop_seconds:
        return "ended before every signal"
    bad = [word for word, flag in (("HUNG", o.hung), ("traceback", o.traceback),
                                   ("not one line", o.not_one_line), (f"exit {o.exit_code}", o.wrong_exit),
                                   ("stray processes", o.strays), (f"{len(o.temps)} temp", o.temps)) if flag]
    said = f" (stderr: {o.stderr.strip()[-300:]!r})" if bad and o.stderr.strip() != "interrupted" else ""
    return f"stopped in {o.stop_seconds:.2f}s" + (": " + ", ".join(bad) if bad else "") + said


def table(tree: Path, rows: list[tuple[str, Outcome]]) -> None:
    print(f"\n{tree} (SIGINT to the process group in about 2 trials of 3, to the main process alone "
          "in the others)")
    head = (f"{'command':10} {'trials':>6} {'hangs':>6} {'tracebacks':>10} {'temp files':>10} "
            f"{'exit != 130':>11} {'stderr not 1 line':>17} {'strays':>6} {'slowest stop':>12}")
    print(head)
    names = list(dict.fromkeys(name for name, _ in rows)) + ["all"]
    for name in names:
        mine = [o for n, o in rows if (n == name or name == "all") and o.stop_seconds]
        if not mine:
            print(f"{name:10} {0:6}   (ended before every signal)")
            continue
        print(f"{name:10} {len(mine):6} {sum(o.hung for o in mine):6} {sum(o.traceback for o in mine):10} "
              f"{sum(len(o.temps) for o in mine):10} {sum(o.wrong_exit for o in mine):11} "
              f"{sum(o.not_one_line for o in mine):17} {sum(o.strays for o in mine):6} "
              f"{max(o.stop_seconds for o in mine):11.2f}s")


if __name__ == "__main__":
    sys.exit(main())
