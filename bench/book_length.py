"""How long each bundled rulebook is: pages and words, beside its published source and its target.

    .venv/bin/python bench/book_length.py [--before TREE] [GAME...]

Each book is built (A5, no cache) in a fresh process by the cardgen of this tree, and with
`--before TREE` also by the cardgen of another checkout (say /work/main), so a change is measured
before and after in the same run. Words (tokens with a letter or digit, so not the contents' dot
leaders) are counted in the PDF's text (pypdfium2), cover to back page; the source words are
those of the published rulebook in /work/shared/seeds/ (or $CARDGEN_SEEDS), when it is there.
The target is game.yaml `rulebook.target_pages`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("CARDGEN_SEEDS", "/work/shared/seeds"))
SOURCES = {"amfibido": "000_", "amiibart": "001_", "adapt": "002_", "dojo-duel": "003_",
           "combo-fighter": "004_"}

# Run in a child process with PYTHONPATH set to the tree being measured.
CHILD = r"""
import json, sys, tempfile
from pathlib import Path
import pypdfium2
from cardgen.model import load_game
from cardgen.publish import build_rulebook
game = load_game(sys.argv[1])
with tempfile.TemporaryDirectory() as out:
    result = build_rulebook(game, Path(out), use_cache=False)
    pdf = pypdfium2.PdfDocument(str(result.path))
    # a word holds a letter or digit: the contents' dot leaders are not words
    words = sum(sum(any(ch.isalnum() for ch in w) for w in page.get_textpage().get_text_range().split())
                for page in pdf)
    print(json.dumps({"pages": len(pdf), "words": words}))
"""


def measure(tree: Path, game: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", CHILD, game], env=env, cwd=tree, capture_output=True,
                          text=True, timeout=600)
    if done.returncode:
        return {"pages": None, "words": None, "error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def source_words(game: str) -> int | None:
    prefix = SOURCES.get(game)
    files = sorted(SEEDS.glob(f"{prefix}*")) if prefix and SEEDS.is_dir() else []
    return len(files[0].read_text(errors="replace").split()) if files else None


def target_pages(game: str) -> int | None:
    sys.path.insert(0, str(ROOT))
    from cardgen.model import load_game
    from cardgen.publish.length import target_pages as target

    return target(load_game(game))


def main(argv: list[str]) -> int:
    before = None
    if argv[:1] == ["--before"]:
        before, argv = Path(argv[1]).resolve(), argv[2:]
    games = argv or ["adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel"]
    head = f"{'game':15} {'source words':>12}"
    if before:
        head += f" {'before pages':>12} {'before words':>12}"
    head += f" {'pages':>6} {'words':>6} {'target pages':>12} {'words/source':>12}"
    print(head)
    for game in games:
        row = f"{game:15} {source_words(game) or '-':>12}"
        if before:
            old = measure(before, game)
            row += f" {old['pages'] or '-':>12} {old['words'] or '-':>12}"
        new = measure(ROOT, game)
        src = source_words(game)
        ratio = f"{new['words'] / src:.1f}x" if src and new["words"] else "-"
        target = target_pages(game) or "-"
        row += f" {new['pages'] or '-':>6} {new['words'] or '-':>6} {target:>12} {ratio:>12}"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
