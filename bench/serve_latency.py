"""`cardgen serve`: from a saved card file to the page showing it, in Chromium (issue 21, item 2).

The starter game (`cardgen new`) served as a designer serves it (`cardgen serve DIR --port 0`, a
process of its own), its page open in Debian's chromium through Playwright. Each save changes one
card's text; timed from just before the file is written to the moment the page shows:

  text   the new text in the card's fields (the check stage's end: the page's first update)
  face   the card's new PNG, loaded (the cards stage's end)
  built  the status line's "all good" (every stage done: sheets, rulebook, matches...)

The page's clock (performance.timeOrigin + now(), polled at every frame) against this process's
(time.time()): the same machine's wall clock. Each save waits for the build before it to end. For
the default --interval (0.5 s: the watch polls file times that often) and a short one.

    .venv/bin/python bench/serve_latency.py [--saves 8] [--intervals 0.5 0.1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.scaffold import new_game  # noqa: E402
from tests.browser import Served, chromium_page  # noqa: E402

TEXT = "When you play this, look at the top card of your deck. You may put it on the bottom."
NOW = "performance.timeOrigin + performance.now()"


def measure(interval: float, saves: int) -> dict[str, list[float]]:
    from playwright.sync_api import expect

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = tmp / "game"
        new_game(folder, "Latency")
        cards = folder / "cards" / "bees.yaml"
        good = cards.read_text()
        times: dict[str, list[float]] = {"text": [], "face": [], "built": []}
        with Served(folder, tmp / "out", tmp, "--interval", str(interval)) as served, \
                chromium_page() as page:
            page.goto(served.url)
            built = page.locator("#status .state.ok")
            expect(built).to_contain_text("all good", timeout=120_000)
            for n in range(saves):
                text = f"Look at the top {n + 2} cards of your deck."
                picture = page.locator("#card-forager img").get_attribute("src")
                start = time.time() * 1000
                cards.write_text(good.replace(TEXT, text))
                seen = page.wait_for_function(
                    f"t => document.querySelector('#card-forager .fields').textContent.includes(t) && {NOW}",
                    arg=text, polling="raf", timeout=30_000).json_value()
                drawn = page.wait_for_function(
                    f"""old => {{ const img = document.querySelector('#card-forager img');
                        return img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0
                               && {NOW}; }}""", arg=picture, polling="raf", timeout=60_000).json_value()
                done = page.wait_for_function(
                    f"() => document.querySelector('#status .state.ok') && {NOW}", polling="raf",
                    timeout=120_000).json_value()
                for key, at in (("text", seen), ("face", drawn), ("built", done)):
                    times[key].append(at - start)
        assert served.returncode == 130, served.stderr
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=8)
    parser.add_argument("--intervals", type=float, nargs="+", default=[0.5, 0.1])
    args = parser.parse_args()
    print(f"starter game, {args.saves} saves each; ms from the write to the page showing it")
    print(f"{'--interval':>10}  {'text median':>11} {'max':>6}  {'face median':>11} {'max':>6}  "
          f"{'built median':>12} {'max':>6}")
    for interval in args.intervals:
        times = measure(interval, args.saves)
        cells = "  ".join(f"{statistics.median(times[k]):>{w}.0f} {max(times[k]):>6.0f}"
                          for k, w in (("text", 11), ("face", 11), ("built", 12)))
        print(f"{interval:>10}  {cells}")


if __name__ == "__main__":
    main()
