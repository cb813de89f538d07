"""The minimum-versions check: cardgen installed with every dependency at the floor pyproject.toml
declares, then quick builds of three games, so a floor that is not true fails here, not for a user.

pip has no lowest-version resolver: the floors are read from pyproject.toml (each dependency's
`>=X`, the `fast` extra's included) and given to pip as `name==X` constraints; what the floors
themselves need is left to pip. Only wheels are taken (--only-binary): a floor that installs only
by compiling its sdist (PyYAML 5.4.1 no longer does) is no floor for a pip-only install. Then, from
a folder outside the tree (so the installed wheel is what runs, templates and fonts included):

    cardgen new starter; cardgen build starter        cards, sheets, site, rulebook, matches
    cardgen build tests/data/tide-runners              a game with art and rulebook images
    cardgen rulebook dojo-duel                         a bundled game's rulebook
    cardgen cards export starter starter.xlsx; cardgen info from-sheet
                                                       the starter's cards to a sheet and back

Every command must exit 0, print nothing on stderr (no fallback notice: at the floors cardgen's
fast paths must still find what they use) and write a valid PNG and PDF.

    .venv/bin/python bench/mindeps.py                      # scratch venv, removed afterwards
    .venv/bin/python bench/mindeps.py --venv /tmp/vmin     # kept, and reused while the pins match
    .venv/bin/python bench/mindeps.py --pin weasyprint==67.0 --tests tests/test_publish.py
                                                           # try one version (finding a floor)
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ["fast"]                      # optional dependencies installed (at their floors) too
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*)(;.*)?$")
# what the tests need beside cardgen's own dependencies (any version): for --tests
TEST_TOOLS = ["pytest", "pypdf", "pypdfium2", "hypothesis", "fonttools", "jsonschema"]


def floors(pyproject: Path = ROOT / "pyproject.toml", extras=EXTRAS) -> dict[str, str]:
    """{distribution name: lowest allowed version} of every dependency and of the given extras.

    A dependency without a `>=` floor is an error: an open bottom is a floor nobody checked."""
    project = tomllib.loads(pyproject.read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project.get("optional-dependencies", {}).get(extra, [])
    found = {}
    for requirement in requirements:
        m = REQUIREMENT.match(requirement)
        if not m:
            raise SystemExit(f"mindeps: cannot read the requirement {requirement!r}")
        name, specifiers = m.group(1), [s.strip() for s in m.group(3).split(",") if s.strip()]
        lows = [s[2:].strip() for s in specifiers if s.startswith(">=")]
        if len(lows) != 1:
            raise SystemExit(f"mindeps: {requirement!r} declares no single '>=' floor")
        found[name.lower()] = lows[0]
    return found


def run(command: list, cwd: Path, log: list, env=None, check: bool = True) -> subprocess.CompletedProcess:
    started = time.perf_counter()
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    shown = " ".join(Path(c).name if i == 0 else str(c).split("\n")[0] for i, c in enumerate(command))
    log.append(f"  {seconds:6.1f}s  {shown}")
    print(log[-1], flush=True)
    if check and done.returncode != 0:
        sys.stdout.write(done.stdout[-4000:])
        sys.stderr.write(_quiet(done.stderr)[-4000:])
        raise SystemExit(f"mindeps: FAILED (exit {done.returncode}): {shown}")
    return done


def _quiet(text: str) -> str:
    """pip's output without its lines about configured package folders missing on this machine."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not re.match(r"WARNING: Location '.*' is ignored", line))


def make_venv(venv: Path, pins: dict[str, str], log: list, tests: bool, trial: bool = False) -> None:
    """A venv with cardgen installed from this tree under `pins`; reused when its stamp matches."""
    stamp = venv / ".mindeps"
    wanted = hashlib.sha256(repr((sorted(pins.items()), tests, trial, sys.version,
                                  (ROOT / "pyproject.toml").read_bytes())).encode()).hexdigest()
    python = venv / "bin" / "python"
    if stamp.is_file() and stamp.read_text() == wanted and python.exists():
        # cardgen's own code may have changed: reinstall it alone, nothing else moves
        run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", ROOT],
            ROOT, log)
        return
    if venv.exists():
        shutil.rmtree(venv)
    run([sys.executable, "-m", "venv", venv], ROOT, log)
    constraints = venv / "constraints.txt"
    constraints.write_text("".join(f"{name}=={version}\n" for name, version in sorted(pins.items())))
    extras = f"[{','.join(EXTRAS)}]" if EXTRAS else ""
    if trial:      # a version below a declared floor: the dependencies by name, cardgen on its own
        run([python, "-m", "pip", "install", "--quiet", "--only-binary", ":all:", "-c", constraints,
             *sorted(pins)], ROOT, log)
        run([python, "-m", "pip", "install", "--quiet", "--no-deps", ROOT], ROOT, log)
    else:
        run([python, "-m", "pip", "install", "--quiet", "--only-binary", ":all:", "-c", constraints,
             f"{ROOT}{extras}"], ROOT, log)
    if tests:
        run([python, "-m", "pip", "install", "--quiet", "-c", constraints, *TEST_TOOLS], ROOT, log)
    stamp.write_text(wanted)


def installed(python: Path, names, log: list) -> dict[str, str]:
    code = ("import importlib.metadata as m, sys\n"
            "for n in sys.argv[1:]:\n"
            "    try: print(n, m.version(n))\n"
            "    except m.PackageNotFoundError: print(n, '-')\n")
    done = run([python, "-c", code, *names], ROOT, log)
    return dict(line.split() for line in done.stdout.splitlines())


def _release(version: str | None) -> tuple:
    """1.6 and 1.6.0 alike (what pip's == compares)."""
    parts = [int(p) if p.isdigit() else p for p in (version or "-").split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def check_file(path: Path, magic: bytes) -> None:
    if not path.is_file() or not path.read_bytes().startswith(magic):
        raise SystemExit(f"mindeps: FAILED: {path} is missing or not a {magic!r} file")


def quick_build(venv: Path, work: Path, log: list) -> None:
    """The builds and the spreadsheet round trip; each must exit 0 with an empty stderr and write
    its files."""
    cardgen = [venv / "bin" / "python", "-m", "cardgen"]

    def quiet(*args):
        done = run([*cardgen, *args], work, log)
        # (cardgen's own notes, such as a book over its target length, are not a dependency's noise)
        if any(line.strip() and not line.startswith("note: ") for line in done.stderr.splitlines()):
            sys.stderr.write(done.stderr[-4000:])
            raise SystemExit(f"mindeps: FAILED: cardgen {' '.join(map(str, args))} wrote on stderr")

    quiet("new", "starter")
    quiet("build", "starter", "--out", "out")
    check_file(work / "out" / "starter" / "rulebook.pdf", b"%PDF-")
    check_file(work / "out" / "starter" / "proxies-letter.pdf", b"%PDF-")
    check_file(next((work / "out" / "starter" / "cards").rglob("*.png")), b"\x89PNG\r\n\x1a\n")
    quiet("build", ROOT / "tests" / "data" / "tide-runners", "--out", "out")
    check_file(work / "out" / "tide-runners" / "rulebook.pdf", b"%PDF-")
    quiet("rulebook", "dojo-duel", "--out", "out")
    check_file(work / "out" / "dojo-duel" / "rulebook.pdf", b"%PDF-")
    # the starter's cards as a spreadsheet (XlsxWriter), and a game loaded from it (python-calamine)
    run([*cardgen, "cards", "export", "starter", "starter.xlsx"], work, log)
    shutil.copytree(work / "starter", work / "from-sheet", ignore=shutil.ignore_patterns("cards"))
    (work / "from-sheet" / "cards").mkdir()
    shutil.move(work / "starter.xlsx", work / "from-sheet" / "cards" / "cards.xlsx")
    quiet("info", "from-sheet")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, help="keep the venv here and reuse it while the pins match")
    parser.add_argument("--pin", action="append", default=[], metavar="NAME==VERSION",
                        help="install this version instead of the floor (to try a candidate floor)")
    parser.add_argument("--tests", nargs="+", default=[], metavar="PATH",
                        help="also run these tests (with pytest) in the venv, from this tree")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    pins = floors()
    for pin in args.pin:
        name, _, version = pin.partition("==")
        pins[name.strip().lower()] = version.strip()
    print("mindeps: " + ", ".join(f"{n}=={v}" for n, v in sorted(pins.items())), flush=True)
    log: list[str] = []
    scratch = Path(tempfile.mkdtemp(prefix="cardgen-mindeps-"))
    venv = args.venv.resolve() if args.venv else scratch / "venv"
    try:
        make_venv(venv, pins, log, bool(args.tests), trial=bool(args.pin))
        python = venv / "bin" / "python"
        versions = installed(python, sorted(pins), log)
        wrong = {n: versions.get(n) for n, v in pins.items() if _release(versions.get(n)) != _release(v)}
        if wrong:
            raise SystemExit(f"mindeps: FAILED: installed {wrong}, not the pinned versions")
        work = scratch / "work"
        work.mkdir()
        quick_build(venv, work, log)
        if args.tests:
            run([python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *args.tests], ROOT, log)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"mindeps: ok, {len(pins)} dependencies at their floors "
          f"({time.perf_counter() - started:.0f}s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
