"""`cardgen watch DIR`: rebuild what changed each time a file of the game folder is saved.

Polls file times (no extra dependency, works on every file system) and runs only the stages a
change touches; the card cache makes a one-card edit a one-card redraw. Errors are reported and
watching goes on: fix the file and save again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from cardgen.build import build_game

WATCHED = (".yaml", ".yml", ".md", ".html", ".css", ".ttf", ".png", ".jpg", ".jpeg", ".py")


def snapshot(folder: Path) -> dict[Path, tuple[int, int]]:
    out = {}
    for path in folder.rglob("*"):
        inside_out = path.relative_to(folder).parts[0] == "out"
        if path.suffix.lower() in WATCHED and path.is_file() and not inside_out:
            stat = path.stat()
            out[path] = (stat.st_mtime_ns, stat.st_size)
    return out


def stages_for(changed: list[Path], folder: Path) -> tuple[str, ...]:
    """The build stages a set of changed files calls for."""
    stages = {"check"}
    for path in changed:
        parts = path.relative_to(folder).parts
        top = parts[0] if len(parts) > 1 else path.name
        if top in ("cards", "game.yaml", "layouts.yaml", "fonts", "art"):
            stages |= {"cards", "sheets", "site", "rulebook"}
        elif top in ("rules", "templates", "scenarios"):
            stages.add("rulebook")
        elif top == "decks":
            stages |= {"sheets", "site"}
        elif path.suffix == ".py":        # the game's own rules engine: play its sample matches again
            stages.add("matches")
    order = ("check", "cards", "sheets", "site", "rulebook", "matches")
    return tuple(s for s in order if s in stages)


def watch(folder: Path, out_root: Path, *, interval: float = 0.5, stop: threading.Event | None = None,
          say: Callable[[str], None] = print) -> None:
    folder = Path(folder).resolve()
    stop = stop or threading.Event()
    seen = snapshot(folder)
    _build(folder, out_root, ("check", "cards", "sheets", "site", "rulebook"), say, [])
    say(f"watching {folder} (Ctrl-C to stop)")
    while not stop.wait(interval):
        now = snapshot(folder)
        changed = sorted(p for p in set(now) | set(seen) if now.get(p) != seen.get(p))
        if not changed:
            continue
        time.sleep(min(0.1, interval))  # let an editor finish writing
        seen = snapshot(folder)
        _build(folder, out_root, stages_for(changed, folder), say, changed)


def _build(folder: Path, out_root: Path, stages, say, changed: list[Path]) -> None:
    start = time.perf_counter()
    names = ", ".join(str(p.relative_to(folder)) for p in changed[:3]) + (" ..." if len(changed) > 3 else "")
    if changed:
        say(f"changed: {names}")
    result = build_game(str(folder), out_root, stages, log=say)
    for issue in result.errors:
        say(f"  error: {issue}")
    for deck in result.decks:
        for problem in deck.problems:
            say(f"  {deck.path.name}:{problem.line}: {problem.rule}: {problem.message}")
    for stage in result.stages:
        for issue in stage.errors:
            say(f"  error: {issue}")
    status = "ok" if result.ok else "with errors (watching on)"
    say(f"  rebuilt in {time.perf_counter() - start:.2f}s, {status}")
