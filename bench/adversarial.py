"""Issue 20's adversarial inputs, run and counted: tracebacks, wrong exit codes, silent wrongs, hangs.

Each case breaks a fresh copy of the starter game (`cardgen new`) the way a careless or hostile
user would, runs one command and checks what came back against the contract: 2 for input the
user can fix (one `file:line: field: message` line), 1 for findings, 0 for success, never a
traceback, never a silent wrong, never a hang. Prints one row per case and the totals.

    .venv/bin/python bench/adversarial.py                  # this tree
    .venv/bin/python bench/adversarial.py --tree /other    # another checkout, for before/after
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60          # seconds before a case counts as a hang

BEE_LAYOUT = "  bee:\n    - {use: frame}\n"
ART_LAYOUT = '    - {image: "art/{{ card.name | slug }}.png", at: [18.75, 27, 26, 26], optional: true}\n'


@dataclass
class Run:
    code: int | None            # None: killed after LIMIT seconds
    out: str
    err: str
    seconds: float
    folder: Path
    outdir: Path
    wrong: str | None = None    # what came out wrong although the exit code was right


@dataclass
class Case:
    item: str
    name: str
    argv: list[str]                           # {g}: the game folder, {out}: an out folder, {tmp}
    expect: int
    mutate: Callable[[Path], None] = lambda g: None
    wrong: Callable[[Run], str | None] = lambda r: None      # a silent wrong despite the exit code
    file_limit: int | None = None             # RLIMIT_FSIZE bytes: a disk that fills up


# -- mutations ------------------------------------------------------------------------------------

def edit(rel: str, old: str, new: str):
    def mutate(g: Path) -> None:
        path = g / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{rel}: no {old!r}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return mutate


def add(rel: str, text: str | bytes):
    def mutate(g: Path) -> None:
        path = g / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8") if isinstance(text, str) else text
        path.write_bytes((path.read_bytes() if path.exists() else b"") + data)
    return mutate


def link(rel: str, target: str):
    def mutate(g: Path) -> None:
        path = g / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)
    return mutate


def fifo(rel: str):
    return lambda g: os.mkfifo(g / rel)


def both(*mutations):
    def mutate(g: Path) -> None:
        for m in mutations:
            m(g)
    return mutate


def with_art(art: Callable[[Path], None]):
    """The bees' layout shows art/<name>.png where it exists; `art` puts a bad one there."""
    return both(edit("layouts.yaml", BEE_LAYOUT, BEE_LAYOUT + ART_LAYOUT), art)


def body_size(value: str):
    body = "body: {font: Barlow Condensed, size:"
    return edit("layouts.yaml", f"{body} 10,", f"{body} {value},")


def deck_check(text: str):
    return edit("game.yaml", "  checks:\n", f"  checks:\n    - {text}\n")


def chapter_image(rel: str):
    return add("rules/01-overview.md", f"\n![A bee at work]({rel})\n")


def png_bytes(size=(40, 40)) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", size, "red").save(buf, "PNG")
    return buf.getvalue()


def bomb_png() -> bytes:
    """A small file that decodes to 40,000 x 40,000 pixels (1.6 gigapixels)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("1", (40_000, 40_000)).save(buf, "PNG")
    return buf.getvalue()


def alias_bomb() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\ngame: ..\ncards: {Worker Bee: 1}\n"


# -- silent wrongs --------------------------------------------------------------------------------

def pdf_text(path: Path) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    return "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


def rulebook_says(needle: str, why: str):
    def wrong(r: Run) -> str | None:
        for path in r.outdir.rglob("rulebook.pdf"):
            if needle in pdf_text(path):
                return why
        return None
    return wrong


def printed(needle: str, why: str):
    return lambda r: why if needle in r.out + r.err else None


def says(needle: str, why: str):
    return lambda r: None if needle in r.out + r.err else why


def unchanged(rel: str, text: str):
    def wrong(r: Run) -> str | None:
        path = r.folder.parent / rel
        return None if path.read_text() == text else f"{rel} was overwritten"
    return wrong


def other_cards_drawn(r: Run) -> str | None:
    drawn = list((r.outdir).rglob("*.png"))    # (the starter has 9 cards, 5 of them bees, and a back)
    return None if len(drawn) >= 2 else f"only {len(drawn)} card images: the other cards were not drawn"


def hint(*words: str):
    def wrong(r: Run) -> str | None:
        return None if all(w.lower() in r.err.lower() for w in words) else f"no hint ({' '.join(words)})"
    return wrong


def no_aliases_talk(r: Run) -> str | None:
    return "a plain file refused with a message about aliases" if "alias" in r.err else None


# -- the cases ------------------------------------------------------------------------------------

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'
BIG_DECK = "game: ..\nname: big\ncards:\n" + "".join(f"  Card {i}: 1\n" for i in range(49_997))
OUT_COMMANDS = [["render", "{g}"], ["sheets", "{g}"], ["rulebook", "{g}"], ["aids", "{g}"],
                ["build", "{g}"], ["schema", "{g}"], ["site", "{g}"], ["tts", "{g}"],
                ["simulate", "{g}", "--matches", "10"], ["packs", "{g}", "--sheets"]]

CASES = [
    # item 1: only the folder's own regular files are read
    Case("1", "template links to a file outside", ["rulebook", "{g}", "--out", "{out}"], 2,
         link("templates/rulebook/cover.html.j2", "/etc/passwd"),
         rulebook_says("root:", "leaked /etc/passwd")),
    Case("1", "card file links outside", ["info", "{g}"], 2,
         link("cards/leak.yaml", "/etc/passwd"), printed("root:", "echoed /etc/passwd")),
    Case("1", "card file links to /dev/zero", ["info", "{g}"], 2, link("cards/zero.yaml", "/dev/zero")),
    Case("1", "card file is a FIFO", ["info", "{g}"], 2, fifo("cards/pipe.yaml")),
    Case("1", "deck links outside", ["validate", "{g}/decks/leak.yaml"], 2,
         link("decks/leak.yaml", "/etc/passwd"), printed("root:", "echoed /etc/passwd")),
    Case("1", "layouts.yaml is a FIFO", ["render", "{g}", "--out", "{out}"], 2,
         both(lambda g: (g / "layouts.yaml").unlink(), fifo("layouts.yaml")),
         says("not a regular file", "says the game has no layouts.yaml")),
    # item 3: chapter parsing is linear
    Case("3", "chapter line [[a: + 4,000 spaces", ["rulebook", "{g}", "--out", "{out}"], 0,
         add("rules/01-overview.md", "\n[[a:" + " " * 4000 + "x\n")),
    Case("3", "chapter heading of 8,000 spaces", ["rulebook", "{g}", "--out", "{out}"], 0,
         add("rules/01-overview.md", "\n#" + " " * 8000 + "x\n")),
    # item 4: names reach the terminal safely
    Case("4", "ESC sequence in a card name", ["info", "{g}"], 0,
         edit("cards/bees.yaml", "name: Nurse Bee", 'name: "Nurse \\e]0;owned\\a\\e[2J Bee"'),
         printed("\x1b", "raw ESC reached the terminal")),
    # item 7: bounds
    Case("7", "copies: 10^12", ["sheets", "{g}", "--out", "{out}"], 2,
         edit("cards/bees.yaml", "copies: 3", "copies: 1000000000000")),
    Case("7", "--jobs 1000", ["render", "{g}", "--jobs", "1000", "--out", "{out}"], 2),
    # item 8: an engine calling sys.exit()
    Case("8", "engine calls sys.exit()", ["simulate", "{g}", "--matches", "20", "--out", "{out}"], 1,
         edit("engine.py", "    def legal_actions(self, s: HiveState) -> list:\n",
              "    def legal_actions(self, s: HiveState) -> list:\n        raise SystemExit(0)\n"),
         says("engine.py:", "the engine's line is not named")),
    Case("8", "engine calls sys.exit(), --jobs 1", ["simulate", "{g}", "--matches", "20", "--jobs", "1",
                                                     "--out", "{out}"], 1,
         edit("engine.py", "    def legal_actions(self, s: HiveState) -> list:\n",
              "    def legal_actions(self, s: HiveState) -> list:\n        raise SystemExit(0)\n"),
         says("engine.py:", "the engine's line is not named")),
    # item 9: the machine refuses
    Case("9", "disk fills up (render)", ["render", "{g}", "--out", "{out}"], 2, file_limit=20_000),
    Case("9", "disk fills up (sheets)", ["sheets", "{g}", "--out", "{out}"], 2, file_limit=20_000),
    Case("9", "disk fills up (rulebook)", ["rulebook", "{g}", "--out", "{out}"], 2, file_limit=20_000),
    Case("9", "out folder cannot be made", ["render", "{g}", "--out", "/proc/cardgen-out"], 2),
    *[Case("9", f"--out names a file ({cmd[0]})", [*cmd, "--out", "{tmp}/afile"], 2,
           add("../afile", "mine"), unchanged("afile", "mine")) for cmd in OUT_COMMANDS],
    Case("9", "new onto a file", ["new", "{tmp}/afile"], 2, add("../afile", "mine"),
         unchanged("afile", "mine")),
    # item 9: art that is not an image
    Case("9", "art: text named .png", ["render", "{g}", "--out", "{out}"], 2,
         with_art(add("art/worker-bee.png", "not a picture\n")), other_cards_drawn),
    Case("9", "art: truncated PNG", ["render", "{g}", "--out", "{out}"], 2,
         with_art(add("art/worker-bee.png", png_bytes()[:60])), other_cards_drawn),
    Case("9", "art: empty file", ["render", "{g}", "--out", "{out}"], 2,
         with_art(add("art/worker-bee.png", b"")), other_cards_drawn),
    Case("9", "art: decompression bomb", ["render", "{g}", "--out", "{out}"], 2,
         with_art(add("art/worker-bee.png", bomb_png())), other_cards_drawn),
    Case("9", "art: SVG", ["render", "{g}", "--out", "{out}"], 2,
         with_art(add("art/worker-bee.png", SVG)),
         other_cards_drawn),
    Case("9", "art: a folder named .png", ["render", "{g}", "--out", "{out}"], 2,
         with_art(lambda g: (g / "art" / "worker-bee.png").mkdir(parents=True))),
    Case("9", "art: sheets with a truncated PNG", ["sheets", "{g}", "--out", "{out}"], 2,
         with_art(add("art/worker-bee.png", png_bytes()[:60]))),
    # item 9 and 10: layout values
    Case("9", "layout size: big", ["render", "{g}", "--out", "{out}"], 2,
         body_size("big")),
    Case("9", "layout leading: loose", ["render", "{g}", "--out", "{out}"], 2,
         edit("layouts.yaml", "leading: 1.15", "leading: loose")),
    Case("9", "layout size: 0", ["render", "{g}", "--out", "{out}"], 2,
         body_size("0")),
    Case("10", "layout size: -5", ["render", "{g}", "--out", "{out}"], 2,
         body_size("-5")),
    Case("9", "layout size: .nan", ["render", "{g}", "--out", "{out}"], 2,
         body_size(".nan")),
    Case("9", "layout bleed: 1000", ["render", "{g}", "--out", "{out}"], 2,
         edit("layouts.yaml", "bleed: 3.175", "bleed: 1000")),
    Case("9", "template divides by zero", ["render", "{g}", "--out", "{out}"], 2,
         edit("layouts.yaml", '"Makes {{ card.honey }}', '"Makes {{ card.honey / 0 }}'), other_cards_drawn),
    # item 9 and 10: declared deck checks
    Case("9", "copies check by a list field", ["validate", "{g}/decks/starter.yaml"], 2,
         deck_check("{check: copies, id: kw, field: keywords, limits: {Swarm: 1}}")),
    Case("9", "distinct check by a list field", ["validate", "{g}/decks/starter.yaml"], 1,
         deck_check("{check: distinct, id: kw, field: keywords, max: 1}"),
         says("kw: has 2 keywords", "the check did not count the list's values")),
    Case("10", "declared check field typo", ["validate", "{g}/decks/starter.yaml"], 2,
         deck_check("{check: distinct, id: kw, field: keyword, max: 1}")),
    # item 10: rulebook and schema
    Case("10", "rulebook image missing", ["rulebook", "{g}", "--out", "{out}"], 2,
         chapter_image("art/missing.png")),
    Case("10", "rulebook image not an image", ["rulebook", "{g}", "--out", "{out}"], 2,
         both(add("art/page.png", "just text\n"), chapter_image("art/page.png"))),
    Case("10", "starter rulebook as made", ["rulebook", "{g}", "--out", "{out}"], 0,
         wrong=rulebook_says("[[", "a [[placeholder]] printed literally")),
    Case("10", "[[table:...]] inline", ["rulebook", "{g}", "--out", "{out}"], 2,
         add("rules/02-playing.md", "\nThe turn in short: [[table:phases]] as above.\n")),
    Case("10", "schema --out over a user's file", ["schema", "{g}", "--out", "{tmp}/mine"], 2,
         add("../mine/hive.cards.schema.json", "mine"),
         unchanged("mine/hive.cards.schema.json", "mine")),
    # item 11: the alias guard
    Case("11", "plain deck of 49,997 entries", ["validate", "{g}/decks/big.yaml"], 1,
         add("decks/big.yaml", BIG_DECK), no_aliases_talk),
    Case("11", "YAML alias bomb", ["validate", "{g}/decks/bomb.yaml"], 2,
         add("decks/bomb.yaml", alias_bomb())),
    # item 12: YAML 1.1 surprises
    Case("12", "card named Yes", ["info", "{g}"], 2,
         edit("cards/bees.yaml", "name: Nurse Bee", "name: Yes"), hint("quote")),
    Case("12", "text: 1:30", ["info", "{g}"], 2,
         edit("cards/bees.yaml", "    copies: 3", "    copies: 3\n    text: 1:30"),
         hint("quote")),
    Case("12", "version: 1.10", ["info", "{g}"], 2, edit("game.yaml", 'version: "0.1"', "version: 1.10"),
         hint("quote")),
    Case("12", "comma inside {...}", ["info", "{g}"], 2,
         add("cards/events.yaml", "  - {name: Bumble, type: bee, cost: 1, honey: 1, text: Go, then rest}\n"),
         hint("comma")),
    Case("12", "BOM in a deck list", ["deck", "import", "{tmp}/list.txt", "--game", "{g}"], 0,
         add("../list.txt", "\ufeff3 Worker Bee\n2 Forager\n"),
         lambda r: None if "Worker Bee: 3" in r.out else "the first line was lost"),
]


# -- running --------------------------------------------------------------------------------------

def run_case(case: Case, tree: Path, python: str) -> Run:
    tmp = Path(tempfile.mkdtemp(prefix="cardgen-adv-"))
    try:
        g = tmp / "hive"
        subprocess.run([python, "-m", "cardgen", "new", str(g), "--name", "Hive"], check=True, cwd=tmp,
                       capture_output=True, env=_env(tree))
        case.mutate(g)
        subst = {"{g}": str(g), "{out}": str(tmp / "out"), "{tmp}": str(tmp)}
        argv = [_fill(a, subst) for a in case.argv]

        def limit_files():
            if case.file_limit:
                resource.setrlimit(resource.RLIMIT_FSIZE, (case.file_limit, case.file_limit))

        start = time.perf_counter()
        proc = subprocess.Popen([python, "-m", "cardgen", *argv], cwd=tmp, env=_env(tree), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                preexec_fn=limit_files)
        try:
            out, err = proc.communicate(timeout=LIMIT)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            out, err = proc.communicate()
            code = None
        result = Run(code, out, err, time.perf_counter() - start, g, tmp / "out")
        result.wrong = case.wrong(result) if code is not None else None
        return result
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _fill(arg: str, subst: dict) -> str:
    for key, value in subst.items():
        arg = arg.replace(key, value)
    return arg


def _env(tree: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the cardgen checkout to run")
    parser.add_argument("--only", default=None, help="cases whose name contains this")
    args = parser.parse_args()
    tree = args.tree.resolve()
    cases = [c for c in CASES if not args.only or args.only in c.name]
    counts = {"traceback": 0, "wrong exit": 0, "silent wrong": 0, "hang": 0}
    print(f"cardgen at {tree} ({_commit(tree)}), {len(cases)} cases\n")
    print(f"{'item':>4}  {'case':40} {'want':>4} {'got':>4} {'s':>5}  verdict")
    for case in cases:
        r = run_case(case, tree, sys.executable)
        verdicts = []
        if r.code is None:
            counts["hang"] += 1
            verdicts.append(f"HANG (> {LIMIT} s)")
        else:
            if "Traceback (most recent call last)" in r.err:
                counts["traceback"] += 1
                verdicts.append("TRACEBACK")
            if r.code != case.expect:
                if r.code == 0:
                    counts["silent wrong"] += 1
                    verdicts.append("SILENT (exit 0)")
                else:
                    counts["wrong exit"] += 1
                    verdicts.append("WRONG EXIT")
            if r.wrong:
                counts["silent wrong"] += 1
                verdicts.append(f"SILENT: {r.wrong}")
        verdict = "; ".join(verdicts) or "ok: " + _last_line(r.err or r.out)
        print(f"{case.item:>4}  {case.name[:40]:40} {case.expect:>4} {str(r.code):>4} {r.seconds:5.1f}  "
              f"{verdict[:110]}", flush=True)
    print("\n" + ", ".join(f"{name}: {n}" for name, n in counts.items()) + f" (of {len(cases)} cases)")
    return 0


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return re.sub(r"/tmp/cardgen-adv-\w+/", "", lines[-1]) if lines else ""


def _commit(tree: Path) -> str:
    found = subprocess.run(["git", "-C", str(tree), "log", "-1", "--format=%h"], capture_output=True,
                           text=True)
    return found.stdout.strip() or "?"


if __name__ == "__main__":
    raise SystemExit(main())
