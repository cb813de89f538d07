"""Tests in a real browser: Debian's chromium driven by Playwright (`make test` installs it;
CARDGEN_SKIP_BROWSER=1 skips these tests where no browser can be installed), and `cardgen serve`
run as a designer runs it, for the browser to look at."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
needs_browser = pytest.mark.skipif(os.environ.get("CARDGEN_SKIP_BROWSER") == "1",
                                   reason="CARDGEN_SKIP_BROWSER=1")


@contextmanager
def chromium_page(width: int = 1200, height: int = 900):
    """A page of a fresh headless chromium, closed after the block."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed (make test installs it)"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--no-first-run"])
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()


class Served:
    """`cardgen serve FOLDER --port 0` in a process of its own, its output in a file; stopped with
    Ctrl-C (SIGINT) when the block ends."""

    def __init__(self, folder: Path, out: Path, cwd: Path, *options: str):
        self.log = cwd / "serve.log"
        self.command = [sys.executable, "-m", "cardgen", "serve", str(folder), "--out", str(out),
                        "--port", "0", *options]
        self.cwd = cwd
        self.url = ""
        self.returncode: int | None = None
        self.stderr = ""

    def __enter__(self) -> Served:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        with self.log.open("w") as log:
            self.process = subprocess.Popen(self.command, cwd=self.cwd, env=env, stdout=log,
                                            stderr=subprocess.PIPE, text=True)
        self.url = self.wait_for_line(r"preview: (http://127\.0\.0\.1:\d+/)").group(1)
        return self

    def wait_for_line(self, pattern: str, seconds: float = 60) -> re.Match:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = re.search(pattern, self.log.read_text())
            if found:
                return found
            if self.process.poll() is not None:
                raise AssertionError(f"cardgen serve ended: {self.process.stderr.read()}")
            time.sleep(0.05)
        raise AssertionError(f"never saw {pattern!r} in {self.log.read_text()}")

    def __exit__(self, *exc) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            _, self.stderr = self.process.communicate(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        self.returncode = self.process.returncode
