"""Card faces: layouts (data) -> display lists -> PNG (Pillow) or PDF (ReportLab).

`render_game` writes out/<game>/cards/<slug>.png for every card and out/<game>/backs/<name>.png
for every back, in parallel on every core, skipping cards whose inputs have not changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from cardgen import __version__
from cardgen.errors import Issue
from cardgen.fsutil import write_atomic
from cardgen.model import Card, Game
from cardgen.render.layout import (
    LayoutError,
    Layouts,
    back_name,
    layout_back,
    layout_face,
    layout_reference,
    load_layouts,
    slug,
)

# Print-shop presets: what each asks for at poker size. Other sizes keep the shop's bleed.
PRESETS = {
    "tgc": {"label": "The Game Crafter", "bleed": 3.175, "dpi": 300},      # 825 x 1125 px poker
    "mpc": {"label": "MakePlayingCards", "bleed": 3.048, "dpi": 300},      # 822 x 1122 px poker
    "dtc": {"label": "DriveThruCards", "bleed": 3.175, "dpi": 300},        # RGB PNG; they prefer CMYK PDF
}


@dataclass
class RenderResult:
    written: list[Path] = field(default_factory=list)
    skipped: int = 0
    errors: list[Issue] = field(default_factory=list)
    seconds: float = 0.0


def card_filename(card: Card) -> str:
    return f"{slug(card.name)}.png"


def render_card_png(game: Game, card_name: str, out_path: Path, preset: str | None = None) -> Path:
    """One card's face as a PNG (the rulebook's card anatomy uses this)."""
    layouts = _with_preset(load_layouts(game), preset)
    from cardgen.render.paint_png import png_bytes

    face = layout_face(layouts, game.cards[card_name])
    return write_atomic(Path(out_path), png_bytes(face, PRESETS.get(preset or "tgc")["dpi"]))


def _with_preset(layouts: Layouts, preset: str | None) -> Layouts:
    if preset:
        layouts.bleed = PRESETS[preset]["bleed"]
    return layouts


def cache_key(layouts: Layouts, card: Card | None, extra: str = "") -> str:
    """Everything a card's picture depends on: its fields, the layouts, the game's icons and keywords."""
    digest = hashlib.sha256()
    digest.update(__version__.encode())
    digest.update(layouts.source.encode())
    digest.update(json.dumps([layouts.game.icons, sorted(layouts.game.keywords), layouts.bleed],
                             sort_keys=True).encode())
    if card is not None:
        digest.update(json.dumps([card.name, card.type, card.copies, card.fields], sort_keys=True,
                                 default=str).encode())
    digest.update(extra.encode())
    return digest.hexdigest()[:20]


def render_game(game: Game, out_root: Path, *, only: list[str] | None = None, preset: str | None = None,
                jobs: int | None = None, progress: bool = False, use_cache: bool = True) -> RenderResult:
    """Render every card (or `only` those) and every back of a game to PNG."""
    start = time.perf_counter()
    layouts = _with_preset(load_layouts(game), preset)
    out_dir = out_root / game.id
    cards = [game.cards[n] for n in only] if only else list(game.cards.values())
    cache_file = out_dir / "cards" / ".cache.json"
    cache = _read_cache(cache_file) if use_cache else {}
    tasks: list[tuple[str, str, str | None, str]] = []   # (kind, name, back name, key)
    result = RenderResult()
    for card in cards:
        key = cache_key(layouts, card)
        path = out_dir / "cards" / card_filename(card)
        if cache.get(path.name) == key and path.is_file():
            result.skipped += 1
            continue
        tasks.append(("card", card.name, None, key))
    backs = sorted({back_name(layouts, c) for c in game.cards.values()} | (
        {"default"} if "default" in layouts.backs else set()))
    others = [("back", "backs", name) for name in backs]
    others += [("reference", "reference", name) for name in (layouts.reference if not only else ())]
    for kind, folder, name in others:
        key = cache_key(layouts, None, f"{kind}:{name}")
        path = out_dir / folder / f"{slug(name)}.png"
        if cache.get(f"{kind}:{path.name}") == key and path.is_file():
            result.skipped += 1
            continue
        tasks.append((kind, name, name, key))
    done = _run(game, preset, tasks, out_dir, jobs, progress, result)
    for kind, _name, key, path in done:
        cache[path.name if kind == "card" else f"{kind}:{path.name}"] = key
        result.written.append(path)
    if tasks:
        write_atomic(cache_file, json.dumps(cache, indent=0, sort_keys=True))
    result.seconds = time.perf_counter() - start
    return result


def _run(game: Game, preset, tasks, out_dir: Path, jobs, progress, result: RenderResult):
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks) // 8 or 1))
    done = []
    if jobs == 1:
        _use(game, preset)
        chunks = [tasks[i:i + 16] for i in range(0, len(tasks), 16)]
        outputs = map(_render_chunk, [(c, str(out_dir)) for c in chunks])
    else:
        import multiprocessing

        chunk = max(4, len(tasks) // (jobs * 6) or 1)
        chunks = [tasks[i:i + chunk] for i in range(0, len(tasks), chunk)]
        if sys.platform != "win32":
            # Forked workers inherit the loaded game, layouts and fonts: no reloading per worker.
            _use(game, preset)
            _warm(game)
            pool = multiprocessing.get_context("fork").Pool(jobs)
        else:
            pool = multiprocessing.get_context("spawn").Pool(jobs, _init_worker, (str(game.folder), preset))
        outputs = pool.imap(_render_chunk, [(c, str(out_dir)) for c in chunks])
    count = 0
    try:
        for part in outputs:
            for item in part:
                if isinstance(item, Issue):
                    result.errors.append(item)
                else:
                    done.append(item)
                count += 1
            if progress:
                width = 30
                filled = width * count // max(len(tasks), 1)
                print(f"\r  {game.id}: [{'#' * filled}{'.' * (width - filled)}] {count}/{len(tasks)}",
                      end="", file=sys.stderr, flush=True)
    finally:
        if jobs > 1:
            pool.close()
            pool.join()
    if progress and tasks:
        print(file=sys.stderr)
    return done


_WORKER: dict = {}


def _use(game: Game, preset) -> None:
    """Make `game` the one this process (and any worker forked from it) renders."""
    _WORKER.update(game=game, layouts=_with_preset(load_layouts(game), preset),
                   dpi=PRESETS.get(preset or "tgc")["dpi"])


def _warm(game: Game) -> None:
    """Lay out one card of each type before forking, so fonts, glyph tables and compiled
    expressions are loaded once and shared by every worker instead of once per worker."""
    layouts = _WORKER["layouts"]
    seen = set()
    for card in game.cards.values():
        if card.type not in seen:
            seen.add(card.type)
            with contextlib.suppress(LayoutError):  # reported when the worker lays it out
                layout_face(layouts, card)


def _init_worker(folder: str, preset) -> None:
    """For spawned workers (no fork): load the game from its folder."""
    from cardgen.model import load_game

    _use(load_game(folder), preset)


def _render_chunk(args):
    from cardgen.render.paint_png import png_bytes

    tasks, out_dir = args
    out_dir = Path(out_dir)
    game, layouts, dpi = _WORKER["game"], _WORKER["layouts"], _WORKER["dpi"]
    out = []
    for kind, name, back, key in tasks:
        try:
            if kind == "card":
                card = game.cards[name]
                face = layout_face(layouts, card)
                path = out_dir / "cards" / card_filename(card)
            elif kind == "reference":
                face = layout_reference(layouts, back)
                path = out_dir / "reference" / f"{slug(back)}.png"
            else:
                face = layout_back(layouts, back)
                path = out_dir / "backs" / f"{slug(back)}.png"
            write_atomic(path, png_bytes(face, dpi))
            out.append((kind, name, key, path))
        except LayoutError as exc:
            out.append(exc.issue())
    return out


def _read_cache(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}

