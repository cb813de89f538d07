"""Shared test helpers, and how the suite runs on several CPUs (pytest-xdist, `make test`)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cardgen.errors import ContentError
from cardgen.model import load_deck
from cardgen.parallel import usable_cpus
from cardgen.rules import check_deck as _check_deck

ROOT = Path(__file__).resolve().parent.parent
THREAD_END_SECONDS = 30     # how long a thread a test started is given to end after the test


def pytest_addoption(parser):
    parser.addoption("--mindeps", action="store_true",
                     help="also install cardgen at its dependency floors and build with it "
                          "(bench/mindeps.py, some 20 s; make test does)")


def pytest_collection_modifyitems(items):
    """Tests marked `early` first: each is long, and under xdist it then runs on one worker while
    the others take the rest, not alone at the end (--dist loadscope hands out modules in this
    order).

    make test sends whole modules to the workers (--dist loadscope), not single tests: a module's
    fixtures build things once for its tests (a game's cards, its rulebook), and with its tests
    spread over both workers each built them. Measured on the whole suite, two runs of each,
    alternated: 72-76 s and 143-136 CPU seconds, against 77-81 s and 150-145 sending single tests
    (--dist loadgroup)."""
    items.sort(key=lambda item: item.get_closest_marker("early") is None)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_auto_num_workers(config) -> int | None:
    """`-n auto`: one worker per CPU this process may use (xdist counts the machine's physical
    cores when psutil is installed, and never reads a cgroup quota); on one CPU, no worker at all:
    the tests run in pytest's own process, as without xdist, not in one worker beside it."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None     # (xdist's own setting, read by xdist)
    cpus = usable_cpus()
    return cpus if cpus > 1 else 0


@pytest.fixture(autouse=True)
def threads_end_with_their_test():
    """A thread a test started has ended when the next test begins. cardgen forks workers only
    while its process has one thread (parallel.can_fork), so a thread still ending (Playwright's
    event loop leaves its executor's threads ending) made whatever test ran next in that process
    draw without forking: under xdist that test can be any test, and one asserts that it forks."""
    before = set(threading.enumerate())
    yield
    started = [thread for thread in threading.enumerate() if thread not in before]
    for thread in started:
        thread.join(THREAD_END_SECONDS)
    running = [thread.name for thread in started if thread.is_alive()]
    assert not running, f"threads this test started still run {THREAD_END_SECONDS} s after it: {running}"


@pytest.fixture
def check_deck(tmp_path):
    """check_deck(deck_yaml_text) -> list of Problems for that deck.

    Raises ContentError when the deck file cannot be read at all (exit 2 territory).
    """
    counter = iter(range(10_000))

    def run(text: str, name: str | None = None):
        path = tmp_path / (name or f"deck{next(counter)}.yaml")
        path.write_text(text, encoding="utf-8")
        return _check_deck(load_deck(path))

    return run


@pytest.fixture
def write(tmp_path):
    """write('rel/path.yaml', text) -> the Path, creating folders."""

    def run(rel: str, text: str | bytes) -> Path:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return run


__all__ = ["ContentError", "ROOT"]


def game_code(game_id: str, hook: str, submodule: str | None = None):
    """A bundled game's own Python module (its `engine`, `deck_checks` or `aids` hook, or a
    submodule of it), loaded the way cardgen loads any game folder's code."""
    import importlib

    from cardgen.gamecode import load_hook
    from cardgen.model import load_game

    module = load_hook(load_game(game_id), hook)
    return importlib.import_module(f"{module.__name__}.{submodule}") if submodule else module


# Test games that play by a bundled game's rules: their game.yaml says `engine: engine`, and the
# bundled game's engine package is copied in beside it (a game folder's code never reaches out).
BORROWED_ENGINES = {"broken-keyword": "dojo-duel", "broken-dojo": "dojo-duel", "broken-amfibido": "amfibido"}


def borrowed_engine(name: str, into: Path) -> Path:
    """tests/data/<name> copied into `into`, with the engine it borrows; returns the folder."""
    import shutil

    folder = into / name
    shutil.copytree(ROOT / "tests" / "data" / name, folder)
    shutil.copytree(ROOT / "content" / BORROWED_ENGINES[name] / "engine", folder / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return folder


class Watching:
    """`cardgen watch` on a folder in a thread, for a test: what it said, and waiting for a line."""

    def __init__(self, folder: Path, out: Path):
        import threading

        from cardgen.watch import watch

        self.lines: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=watch, args=(folder, out), daemon=True, kwargs={
            "interval": 0.05, "stop": self.stop, "say": self.lines.append})

    def wait_for(self, text: str, seconds: float = 60) -> None:
        import time

        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(text in line for line in self.lines):
                return
            time.sleep(0.05)
        raise AssertionError(f"never saw {text!r} in {self.lines}")

    def __enter__(self):
        self.thread.start()
        self.wait_for("watching")
        self.lines.clear()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=120)
        # a watch left building would run on beside the next tests, in their process
        assert not self.thread.is_alive(), "the watch thread did not stop"

