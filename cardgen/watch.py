"""`cardgen watch DIR`: rebuild what changed each time a file of the game folder is saved.

Polls file times (no extra dependency, works on every file system) and runs only the stages that
read a changed file (cardgen.inputs says which); their keys make a one-card edit a one-card redraw
and an edited art file a redraw of the cards that show it. Errors are reported and
watching goes on: fix the file and save again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from cardgen.build import STAGES, GameBuild, build_game
from cardgen.errors import display_path
from cardgen.inputs import game_files, stages_reading


def snapshot(folder: Path) -> dict[Path, tuple[int, int]]:
    """Every file of the game folder (cardgen.inputs.game_files), with its time and size."""
    out = {}
    for path in game_files(folder):
        try:
            stat = path.stat()
        except OSError:         # (gone since it was listed)
            continue
        out[path] = (stat.st_mtime_ns, stat.st_size)
    return out


def stages_for(changed: list[Path], folder: Path) -> tuple[str, ...]:
    """The build stages a set of changed files calls for: those that read one of them
    (cardgen.inputs.STAGE_READS); each stage's own keys then decide what it really redoes."""
    return ("check", *(s for s in stages_reading(folder, changed) if s != "check"))


class BuildWatcher:
    """What a watch tells besides its lines, as it builds (`cardgen serve` shows it in a page):
    nothing here."""

    def started(self, changed: list[Path]) -> None:
        """A build begins (changed: the saved files; none for the first build)."""

    def stage_done(self, result: GameBuild) -> None:
        """A stage ended: the build's result so far (build.build_game's stage_done)."""

    def finished(self, result: GameBuild, seconds: float) -> None:
        """The build ended."""


def watch(folder: Path, out_root: Path, *, interval: float = 0.5, stop: threading.Event | None = None,
          say: Callable[[str], None] = print, watcher: BuildWatcher | None = None) -> None:
    folder = Path(folder).resolve()
    stop = stop or threading.Event()
    watcher = watcher or BuildWatcher()
    seen = snapshot(folder)
    _build(folder, out_root, STAGES, say, [], watcher)
    say(f"watching {folder} (Ctrl-C to stop)")
    while not stop.wait(interval):
        now = snapshot(folder)
        changed = sorted(p for p in set(now) | set(seen) if now.get(p) != seen.get(p))
        if not changed:
            continue
        time.sleep(min(0.1, interval))  # let an editor finish writing
        seen = snapshot(folder)
        _build(folder, out_root, stages_for(changed, folder), say, changed, watcher)


def problem_lines(result: GameBuild) -> list[str]:
    """What a build found, a line each, as the command line prints it (`file:line: field: message`):
    files that do not load, deck problems, and each stage's errors and findings so far."""
    lines = [f"error: {issue}" for issue in result.errors]
    for deck in result.decks:
        lines += [f"{display_path(deck.path)}:{p.line}: {p.rule}: {p.message}" for p in deck.problems]
        lines += [f"error: {issue}" for issue in deck.errors]
    for stage in result.stages:
        lines += [f"error: {issue}" for issue in stage.errors]
    return list(dict.fromkeys(lines))      # (a deck that does not load stops each stage that reads it)


def _build(folder: Path, out_root: Path, stages, say, changed: list[Path], watcher: BuildWatcher) -> None:
    start = time.perf_counter()
    names = ", ".join(str(p.relative_to(folder)) for p in changed[:3]) + (" ..." if len(changed) > 3 else "")
    if changed:
        say(f"changed: {names}")
    watcher.started(changed)
    result = build_game(str(folder), out_root, stages, log=say, stage_done=watcher.stage_done)
    for line in problem_lines(result):
        say(f"  {line}")
    seconds = time.perf_counter() - start
    status = "ok" if result.ok else "with errors (watching on)"
    say(f"  rebuilt in {seconds:.2f}s, {status}")
    watcher.finished(result, seconds)
