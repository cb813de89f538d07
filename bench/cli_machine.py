"""The command line for machines and shells (issue 21, item 5): what --format json and tab
completion cost.

For `games`, `info dojo-duel` and `check dojo-duel`: the whole process's wall time in text and in
json mode, and the JSON document's size. For `cardgen completion bash|zsh`: the time to make the
script, its size, and in bash (zsh is not timed) the time to source it and to answer one Tab (a
command, an option, a bundled game id). Medians of several runs.

    .venv/bin/python bench/cli_machine.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (["games"], ["info", "dojo-duel"], ["check", "dojo-duel"])
TABS = ("cardgen ren", "cardgen check --f", "cardgen info dojo")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def timed(argv: list[str], runs: int) -> tuple[float, str]:
    """Median wall seconds of running argv, and the last run's stdout."""
    seconds, out = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, text=True, check=False).stdout
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), out


def cardgen(*args: str) -> list[str]:
    return [sys.executable, "-m", "cardgen", *args]


def tab_driver(script: Path, line: str, times: int) -> str:
    """bash that sources the script, then completes `line` `times` times (COMP_* as bash sets them)."""
    return (f"source {script}\n"
            f"COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; read -ra COMP_WORDS <<< \"$COMP_LINE\"\n"
            "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
            f"for i in $(seq {times}); do COMPREPLY=(); _shtab_cardgen; done\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per row, the median shown (default: 5)")
    runs = parser.parse_args().runs

    print("| command | text s | json s | json bytes |")
    print("|---|---:|---:|---:|")
    for words in COMMANDS:
        text, _ = timed(cardgen(*words), runs)
        json_s, doc = timed(cardgen(*words, "--format", "json"), runs)
        print(f"| cardgen {' '.join(words)} | {text:.2f} | {json_s:.2f} | {len(doc.encode()):,} |")

    print("\n| completion | make s | script bytes | source in bash ms | one Tab ms |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        for shell in ("bash", "zsh"):
            made, script = timed(cardgen("completion", shell), runs)
            path = Path(scratch) / f"cardgen.{shell}"
            path.write_text(script)
            sourced = tab = "-"
            if shell == "bash" and shutil.which("bash"):
                empty, _ = timed(["bash", "-c", ":"], runs)
                loaded, _ = timed(["bash", "-c", f"source {path}"], runs)
                sourced = f"{(loaded - empty) * 1000:.1f}"
                tabs = 200
                many = statistics.median(timed(["bash", "-c", tab_driver(path, line, tabs)], runs)[0]
                                         for line in TABS)
                tab = f"{(many - loaded) / tabs * 1000:.2f}"
            print(f"| {shell} | {made:.2f} | {len(script.encode()):,} | {sourced} | {tab} |")


if __name__ == "__main__":
    main()
