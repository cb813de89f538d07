"""Card faces: layouts (data) -> display lists -> PNG (Pillow) or PDF (ReportLab).

`render_game` writes out/<game>/cards/<stem>.png for every card (Card.stem) and backs/ and
reference/ PNGs for every back and card-sized player aid, in parallel on every core, skipping
cards whose inputs have not changed.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.errors import ContentError, Issue
from cardgen.filenames import file_stem
from cardgen.fsutil import read_record, write_atomic
from cardgen.inputs import face_key
from cardgen.model import Game
from cardgen.outputs import remember
from cardgen.parallel import can_fork, can_spawn, first_of_each, usable_cpus, worker_pool
from cardgen.render.layout import (
    LayoutError,
    Layouts,
    back_name,
    compile_templates,
    layout_back,
    layout_face,
    layout_reference,
    load_layouts,
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


FOLDERS = {"card": "cards", "back": "backs", "reference": "reference"}


def png_path(out_dir: Path, game: Game, kind: str, name: str) -> Path:
    """Where out/<game> holds the PNG of a card, a back or a reference card, by kind and name."""
    stem = game.cards[name].stem if kind == "card" else file_stem(name)
    return out_dir / FOLDERS[kind] / f"{stem}.png"


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


def render_game(game: Game, out_root: Path, *, only: list[str] | None = None, preset: str | None = None,
                jobs: int | None = None, progress: bool = False, use_cache: bool = True) -> RenderResult:
    """Render every card (or `only` those) and every back of a game to PNG."""
    (result,) = render_games([game], out_root, only=only, preset=preset, jobs=jobs, progress=progress,
                             use_cache=use_cache)
    if isinstance(result, ContentError):
        raise result
    return result


def render_games(games: list[Game], out_root: Path, *, only: list[str] | None = None,
                 preset: str | None = None, jobs: int | None = None, progress: bool = False,
                 use_cache: bool = True) -> list[RenderResult | ContentError]:
    """Render several games, one after another, each on every core.

    While the workers draw one game, this process loads the next one's layouts and draws its
    first card of each type (compiling its expressions, loading its fonts and glyphs, painting
    its backgrounds), so no core waits for that and the next workers start with it all.
    A game whose layouts do not load gets its ContentError in the list instead of a result.
    """
    results: list[RenderResult | ContentError] = []
    upcoming = _prepare_or_error(games[0], out_root, only, preset, use_cache, False) if games else None
    for i in range(len(games)):
        job = upcoming
        if isinstance(job, ContentError):
            results.append(job)
            upcoming = (_prepare_or_error(games[i + 1], out_root, only, preset, use_cache, False)
                        if i + 1 < len(games) else None)
            continue
        with _drawing(job, jobs) as (outputs, in_workers):
            upcoming = (_prepare_or_error(games[i + 1], out_root, only, preset, use_cache, in_workers)
                        if i + 1 < len(games) else None)
            results.append(_collect(job, outputs, progress))
    return results


@dataclass
class _Job:
    """One game's render, ready to hand to workers."""

    game: Game
    layouts: Layouts
    preset: str | None
    out_dir: Path
    tasks: list[tuple[str, str, str | None, str]]   # (kind, name, back name, cache key)
    cache: dict
    result: RenderResult
    start: float
    early: list = field(default_factory=list)     # drawn while preparing (see _draw_firsts)
    files: list[Path] = field(default_factory=list)   # every PNG this render stands for, drawn or not
    whole: bool = True                             # all of them (not `--only` some cards)


def _prepare_or_error(game: Game, out_root: Path, only, preset, use_cache,
                      ahead: bool) -> _Job | ContentError:
    try:
        return _prepare(game, out_root, only, preset, use_cache, ahead)
    except ContentError as exc:
        return exc


def _prepare(game: Game, out_root: Path, only, preset, use_cache, ahead: bool) -> _Job:
    """A game's render job: its layouts and the cards to draw (not the unchanged ones). When
    `ahead` (prepared while another game's workers draw), its first card of each type is drawn
    here too, for the workers to inherit. With no workers running, drawing them here would leave
    the other core idle: the workers start at once instead and each warms up on its own."""
    start = time.perf_counter()
    layouts = _with_preset(load_layouts(game), preset)
    out_dir = out_root / game.id
    cards = [game.cards[n] for n in only] if only else list(game.cards.values())
    cache = read_record(out_dir / "cards" / ".cache.json") if use_cache else {}
    job = _Job(game, layouts, preset, out_dir, [], cache, RenderResult(), start, whole=not only)
    for card in cards:
        key = face_key(layouts, card)
        path = png_path(out_dir, game, "card", card.name)
        job.files.append(path)
        if cache.get(path.name) == key and path.is_file():
            job.result.skipped += 1
            continue
        job.tasks.append(("card", card.name, None, key))
    backs = sorted(_backs_taken(layouts, game, job.result.errors) | (
        {"default"} if "default" in layouts.backs else set()))
    others = [("back", name) for name in backs]
    others += [("reference", name) for name in (layouts.reference if not only else ())]
    for kind, name in others:
        key = face_key(layouts, None, f"{kind}:{name}")
        path = png_path(out_dir, game, kind, name)
        job.files.append(path)
        if cache.get(f"{kind}:{path.name}") == key and path.is_file():
            job.result.skipped += 1
            continue
        job.tasks.append((kind, name, name, key))
    if len(job.tasks) > 1:
        compile_templates(layouts)
        if ahead:
            _draw_firsts(job)
    return job


def _backs_taken(layouts: Layouts, game: Game, errors: list[Issue]) -> set[str]:
    """The backs the cards take; a card whose `back_for` fails is reported in `errors`."""
    names = set()
    for card in game.cards.values():
        try:
            names.add(back_name(layouts, card))
        except LayoutError as exc:
            errors.append(exc.issue())
    return names


@contextmanager
def _drawing(job: _Job, jobs: int | None):
    """Draw a job's cards for the block: yields (an iterator of finished chunks, whether workers
    draw them); the workers are stopped when the block is left."""
    tasks, out_dir = job.tasks, str(job.out_dir)
    jobs = max(1, min(jobs or usable_cpus(), len(tasks) // 8 or 1))
    if not (can_fork() or can_spawn()):     # inside a worker, or beside other threads: draw here
        jobs = 1
    _keep_freed_memory()
    _use(job.game, job.layouts, job.preset)
    from cardgen.render.paint_png import fast_pillow

    fast_pillow()       # tried here, before the workers fork, so a notice is printed once, not per worker
    if jobs == 1:
        yield map(_render_chunk, [(tasks[i:i + 16], out_dir) for i in range(0, len(tasks), 16)]), False
        return
    import multiprocessing

    # Small chunks: when the last ones run, no core idles long waiting for the other.
    chunk = max(2, len(tasks) // (jobs * 32))
    chunks = [(tasks[i:i + chunk], out_dir) for i in range(0, len(tasks), chunk)]
    if can_fork():
        # Forked workers inherit the loaded game, layouts, fonts and compiled expressions.
        context, start = multiprocessing.get_context("fork"), ()
    else:                                   # spawned workers load the game themselves
        context = multiprocessing.get_context("spawn")
        start = (_init_worker, (str(job.game.folder), job.preset))
    with worker_pool(context, jobs, *start) as pool:
        yield pool.imap(_render_chunk, chunks), True


def _collect(job: _Job, outputs, progress: bool) -> RenderResult:
    result, total, count = job.result, len(job.early) + len(job.tasks), 0
    for part in itertools.chain([job.early], outputs):
        for item in part:
            if isinstance(item, Issue):
                result.errors.append(item)
            else:
                kind, _name, key, path = item
                job.cache[path.name if kind == "card" else f"{kind}:{path.name}"] = key
                result.written.append(path)
            count += 1
        if progress:
            width = 30
            filled = width * count // max(total, 1)
            print(f"\r  {job.game.id}: [{'#' * filled}{'.' * (width - filled)}] {count}/{total}",
                  end="", file=sys.stderr, flush=True)
    if progress and total:
        print(file=sys.stderr)
    if total:
        write_atomic(job.out_dir / "cards" / ".cache.json", json.dumps(job.cache, indent=0, sort_keys=True))
    # (a card that failed keeps the PNG it had; the PNGs of cards that are gone go)
    remember(job.game, job.out_dir, {"cards": [p for p in job.files if p.is_file()]}, complete=job.whole,
             earlier={"cards": _cached_files(job.out_dir, job.cache)})
    result.seconds = time.perf_counter() - job.start
    return result


_WORKER: dict = {}


def _keep_freed_memory() -> None:
    """Ask glibc to reuse freed image buffers instead of returning them to the kernel.

    Every card allocates and frees a few 3-4 MB buffers (the picture, its bytes, the PNG). By
    default glibc maps each afresh and unmaps it on free, and touching new pages costs a page
    fault per 4 KB: measured 300k-540k faults and ~15% of the CPU time of a whole-set render.
    Other platforms and C libraries are left alone.
    """
    if not sys.platform.startswith("linux") or _WORKER.get("malloc_tuned"):
        return
    _WORKER["malloc_tuned"] = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3
        libc.mallopt(m_mmap_threshold, 32 << 20)     # blocks under 32 MB come from the heap...
        libc.mallopt(m_trim_threshold, 256 << 20)    # ...which keeps up to 256 MB free for reuse
    except (OSError, AttributeError):                # not glibc (musl, for one): nothing to tune
        pass


def _use(game: Game, layouts: Layouts, preset) -> None:
    """Make `game` the one this process (and any worker forked from it) renders."""
    _WORKER.update(game=game, layouts=layouts, dpi=PRESETS.get(preset or "tgc")["dpi"])


def _draw_firsts(job: _Job) -> None:
    """Draw the first card of each type (and the first back, the first aid) here, before the
    workers fork, and write it like any other: the workers inherit its glyphs, fitted labels
    and painted backgrounds."""
    dpi = PRESETS.get(job.preset or "tgc")["dpi"]
    cards = job.game.cards
    firsts, job.tasks = first_of_each(job.tasks, lambda t: cards[t[1]].type if t[0] == "card" else t[0])
    job.early += [_render_task(job.game, job.layouts, dpi, task, job.out_dir) for task in firsts]


def _init_worker(folder: str, preset) -> None:
    """For spawned workers (no fork): load the game from its folder."""
    from cardgen.model import load_game

    game = load_game(folder)
    _use(game, _with_preset(load_layouts(game), preset), preset)


def _render_chunk(args):
    tasks, out_dir = args
    game, layouts, dpi = _WORKER["game"], _WORKER["layouts"], _WORKER["dpi"]
    return [_render_task(game, layouts, dpi, task, Path(out_dir)) for task in tasks]


def _render_task(game: Game, layouts: Layouts, dpi: int, task, out_dir: Path):
    """Draw and write one card, back or player aid: (kind, name, key, path), or the Issue."""
    from cardgen.render.paint_png import png_bytes

    kind, name, back, key = task
    try:
        if kind == "card":
            face = layout_face(layouts, game.cards[name])
        elif kind == "reference":
            face = layout_reference(layouts, back)
        else:
            face = layout_back(layouts, back)
        path = write_atomic(png_path(out_dir, game, kind, name), png_bytes(face, dpi))
        return (kind, name, key, path)
    except LayoutError as exc:
        return exc.issue()


def _cached_files(out_dir: Path, cache: dict) -> list[Path]:
    """The PNGs the render cache lists ("name.png", "back:name.png", "reference:name.png"): what an
    earlier cardgen drew here before it kept the outputs record, so a first build with the record
    also removes the PNGs of cards deleted back then."""
    files = []
    for entry in cache:
        kind, _, name = entry.rpartition(":")
        folder = FOLDERS.get(kind or "card")
        if folder and name.endswith(".png") and "/" not in name:
            files.append(out_dir / folder / name)
    return files
