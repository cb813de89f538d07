"""Loading 1,000 cards from a spreadsheet (.xlsx, .ods, .csv) against the same cards in YAML.

A game folder per format, built from tests/data/lantern-guild's game.yaml with 1,000 generated
cards (numbers, enums, text with icons, keyword lists, a nested list of records); the sheets are
written by `cardgen cards export` (.ods by tests/sheet_support.py). Each round loads every folder
once, in a shuffled order (paired runs: the machine's noise falls on all formats alike); the table
gives medians, and what the sheet formats spend before the cards are checked: the zip's safety
scan (entries unpacked and counted, cells' extent) and the reader (python-calamine).

    .venv/bin/python bench/sheets_load.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.model import load_game  # noqa: E402
from cardgen.model.sheetfile import _workbook_tables, _zip_problem  # noqa: E402
from cardgen.sheetexport import export_bytes, worksheets  # noqa: E402
from tests.sheet_support import game_with_sheet, ods_bytes  # noqa: E402

SOURCE = ROOT / "tests" / "data" / "lantern-guild"
CARDS = 1000
DISTRICTS = ["Harbour", "Market", "Old Town", "Neutral"]
RARITIES = ["common", "uncommon", "rare"]


def card_yaml(i: int) -> str:
    """One generated card as a YAML list item: lamplighters (with keywords and tools) and tricks."""
    name = f"Card {i:04d}"
    if i % 3:
        tools = f"\n    tools: [{{name: Hook {i}, uses: {1 + i % 3}}}]" if i % 5 == 0 else ""
        keywords = "\n    keywords: [Kindle, Gust]" if i % 4 == 0 else ""
        return (f"  - name: {name}\n    type: lamplighter\n    cost: {i % 7}\n"
                f"    district: {DISTRICTS[i % 4]}\n    rarity: {RARITIES[i % 3]}\n    glow: {1 + i % 9}\n"
                f"    text: \"Pay {{oil}}: light street {i}.\"{keywords}{tools}\n")
    return (f"  - name: {name}\n    type: trick\n    cost: {i % 7}\n    district: {DISTRICTS[i % 4]}\n"
            f"    rarity: {RARITIES[i % 3]}\n    text: Put out lamp {i}. {{flame}}\n")


def make_folders(work: Path) -> dict[str, Path]:
    yaml_folder = work / "yaml"
    shutil.copytree(SOURCE, yaml_folder, ignore=shutil.ignore_patterns("decks", "rules"))
    shutil.rmtree(yaml_folder / "cards")
    (yaml_folder / "cards").mkdir()
    (yaml_folder / "cards" / "cards.yaml").write_text(
        "cards:\n" + "".join(card_yaml(i) for i in range(CARDS)))
    game = load_game(yaml_folder)
    folders = {"yaml": yaml_folder}
    for suffix in (".xlsx", ".csv", ".ods"):
        data = ods_bytes(worksheets(game, [])) if suffix == ".ods" else export_bytes(game, suffix)
        folders[suffix] = game_with_sheet(yaml_folder, work / suffix[1:], f"cards{suffix}", data)
    return folders


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="paired rounds (default: 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folders = make_folders(Path(tmp))
        sheets = {s: folders[s] / "cards" / f"cards{s}" for s in (".xlsx", ".ods")}
        loads = {f: [] for f in folders}
        scans = {s: [] for s in sheets}
        reads = {s: [] for s in sheets}
        for f in folders:                          # (warm: imports, first reads)
            assert len(load_game(folders[f]).cards) == CARDS
        for _ in range(args.rounds):
            for f in random.sample(list(folders), len(folders)):
                loads[f].append(timed(lambda f=f: load_game(folders[f])))
            for s, path in sheets.items():
                data = path.read_bytes()
                scans[s].append(timed(lambda data=data, s=s: _zip_problem(data, s)))
                reads[s].append(timed(lambda data=data, path=path: _workbook_tables(data, path)))
        base = statistics.median(loads["yaml"])
        print(f"{CARDS:,} cards, {args.rounds} paired rounds, medians (ms)")
        print(f"{'cards in':<10} {'file KB':>8} {'load':>8} {'vs YAML':>8} {'zip scan':>9} {'reader':>8}")
        for f, times in loads.items():
            path = next((folders[f] / "cards").iterdir())
            load = statistics.median(times)
            scan = f"{statistics.median(scans[f]) * 1000:9.1f}" if f in scans else f"{'-':>9}"
            read = f"{statistics.median(reads[f]) * 1000:8.1f}" if f in reads else f"{'-':>8}"
            print(f"{f:<10} {path.stat().st_size / 1024:8.0f} {load * 1000:8.1f} {load / base:7.2f}x "
                  f"{scan} {read}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
