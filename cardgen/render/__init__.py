"""Card faces: layouts (data) -> display lists -> PNG (Pillow) or PDF (ReportLab).

`render_games` writes out/<game>/cards/<stem>.png for every card (Card.stem), and backs/,
reference/ and components/ PNGs for every back, card-sized player aid and side of a component
(a player mat, a fighter's power token) of each game, over one set of processes,
skipping cards whose inputs have not changed; and, when asked, each drawn card's site thumbnail.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from cardgen.errors import ContentError, Issue
from cardgen.filenames import file_stem
from cardgen.fsutil import read_record, write_atomic
from cardgen.inputs import face_key
from cardgen.model import Card, Game
from cardgen.outputs import remember
from cardgen.parallel import can_fork, can_spawn, usable_cpus, worker_pool
from cardgen.render.card_backs import back_face, back_key, back_stem, draw_back
from cardgen.render.claims import Claims, chunk_counts, chunk_items
from cardgen.render.components import face_names, parse_face_name
from cardgen.render.layout import (
    LayoutError,
    Layouts,
    compile_templates,
    layout_component,
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


FOLDERS = {"card": "cards", "back": "backs", "reference": "reference", "component": "components"}


def png_path(out_dir: Path, game: Game, kind: str, name: str) -> Path:
    """Where out/<game> holds the PNG of a card, a back, a reference card or a component's side
    (named as components.face_names says), by kind and name."""
    from cardgen.render.components import face_file_stem

    if kind == "card":
        stem = game.cards[name].stem
    elif kind == "back":                    # ("NAME/CARD" when drawn from its card: card_backs)
        stem = back_stem(game, name)
    elif kind == "component":
        stem = face_file_stem(game, name)
    else:
        stem = file_stem(name)
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
                jobs: int | None = None, progress: bool = False, use_cache: bool = True,
                thumbnails: bool = False) -> RenderResult:
    """Render every card (or `only` those) and every back of a game to PNG."""
    (result,) = render_games([game], out_root, only=only, preset=preset, jobs=jobs, progress=progress,
                             use_cache=use_cache, thumbnails=thumbnails)
    if isinstance(result, ContentError):
        raise result
    return result


def render_games(games: list[Game], out_root: Path, *, only: list[str] | None = None,
                 preset: str | None = None, jobs: int | None = None, progress: bool = False,
                 use_cache: bool = True, thumbnails: bool = False) -> list[RenderResult | ContentError]:
    """Render several games over one set of processes, `jobs` of them (default: the CPUs this
    process may use). Each process draws a game a few cards at a time, and takes the next chunk of
    work as it becomes free (cardgen.render.claims): a game is drawn by one process as a whole
    unit, the largest first, and the last ones are shared so that every process ends together.
    With `thumbnails`, each card drawn also gets its site thumbnail (cardgen.render.thumbnail).
    A game whose layouts do not load gets its ContentError in the list instead of a result.
    """
    plan = _Plan(out_root, only, preset, use_cache, thumbnails, [game.folder for game in games],
                 [1 + len(_chosen_cards(game, only)) for game in games],
                 [read_record(out_root / game.id / "cards" / CACHE) if use_cache else {} for game in games])
    gathered = [_Gathered(plan, i, game) for i, game in enumerate(games)]
    _HERE.update(plan=plan, games=dict(enumerate(games)), ready={}, current=None)
    try:
        if len(games) == 1:
            # One game: made ready here, once, for the workers to inherit; and nothing is forked
            # when only a few of its cards changed.
            try:
                work = _ready(0).to_draw()
            except ContentError as exc:
                return [exc]
        else:
            work = sum(plan.items)
        processes = _processes(jobs, work)
        if processes > 1 and len(games) == 1:
            compile_templates(_ready(0).layouts)
        _draw_all(plan, processes, gathered, progress)
    finally:
        _HERE.clear()
    return [g.outcome() for g in gathered]


CACHE = ".cache.json"       # in out/<game>/cards: the key each PNG was drawn from


def _chosen_cards(game: Game, only: list[str] | None) -> list[Card]:
    return [game.cards[n] for n in only] if only else list(game.cards.values())


def _processes(jobs: int | None, work: int) -> int:
    """How many processes draw `work` faces: one for a few, never more than `jobs` (default: the
    CPUs this process may use); one inside a worker, or beside other threads (no fork)."""
    if not (can_fork() or can_spawn()):
        return 1
    return max(1, min(jobs or usable_cpus(), work // 8 or 1))


@dataclass
class _Plan:
    """What a render draws, as every drawing process sees it (sent to spawned ones): per game,
    its folder, its items (the backs and player aids as one, then each card) and its cache."""

    out_root: Path
    only: list[str] | None
    preset: str | None
    use_cache: bool
    thumbnails: bool
    folders: list[Path]
    items: list[int]
    caches: list[dict]


# This process's part of the render under way: the plan, the games (loaded; a spawned worker
# loads them as it needs them), those ready to draw, the one it is drawing, the claims.
_HERE: dict = {}


@dataclass
class _Ready:
    """A game ready to draw in this process: its layouts, its cards and its other faces."""

    game: Game
    layouts: Layouts
    dpi: int
    out_dir: Path
    cache: dict
    cards: list[Card]
    extras: list[tuple[str, str]]       # (kind, name): its backs, player aids and components' sides
    issues: list[Issue]                 # its cards whose back_for fails

    def needs_drawing(self, kind: str, name: str) -> tuple[Path, str, bool]:
        """(its PNG, its key, whether it must be drawn: new inputs, or no PNG)."""
        card = self.game.cards[name] if kind == "card" else None
        if kind == "component":                 # (drawn from its card, when made for each card)
            made_for = parse_face_name(name)[2]
            key = face_key(self.layouts, self.game.cards[made_for] if made_for else None, f"{kind}:{name}")
        elif kind == "back":                    # (drawn from its card, when it reads the card)
            key = back_key(self.layouts, name)
        else:
            key = face_key(self.layouts, card, "" if card is not None else f"{kind}:{name}")
        path = png_path(self.out_dir, self.game, kind, name)
        return path, key, self.cache.get(cache_entry(kind, path)) != key or not path.is_file()

    def to_draw(self) -> int:
        faces = [("card", card.name) for card in self.cards] + self.extras
        return sum(self.needs_drawing(kind, name)[2] for kind, name in faces)


def _ready(i: int) -> _Ready:
    """Game i of the render, ready to draw in this process (made so on first use)."""
    ready = _HERE["ready"].get(i)
    if ready is None:
        plan = _HERE["plan"]
        game = _HERE["games"].get(i)
        if game is None:                                # (a spawned worker)
            from cardgen.model import load_game

            game = _HERE["games"][i] = load_game(plan.folders[i])
        ready = _HERE["ready"][i] = _make_ready(game, plan, plan.caches[i])
    return ready


def _make_ready(game: Game, plan: _Plan, cache: dict) -> _Ready:
    layouts = _with_preset(load_layouts(game), plan.preset)
    issues: list[Issue] = []
    default = {"default"} if "default" in layouts.backs and "default" not in layouts.card_backs else set()
    backs = _backs_taken(layouts, game, issues) | default
    extras = [("back", name) for name in sorted(backs)]
    extras += [("reference", name) for name in (layouts.reference if not plan.only else ())]
    extras += [("component", name) for name in (face_names(layouts) if not plan.only else ())]
    return _Ready(game, layouts, PRESETS.get(plan.preset or "tgc")["dpi"], plan.out_root / game.id, cache,
                  _chosen_cards(game, plan.only), extras, issues)


def _backs_taken(layouts: Layouts, game: Game, errors: list[Issue]) -> set[str]:
    """The back faces the cards take ("NAME", or "NAME/CARD" for a back drawn from its card); a
    card whose `back_for` fails is reported in `errors`."""
    names = set()
    for card in game.cards.values():
        try:
            names.add(back_face(layouts, card))
        except LayoutError as exc:
            errors.append(exc.issue())
    return names


def cache_entry(kind: str, path: Path) -> str:
    """A face's entry in cards/.cache.json: "name.png", "back:name.png", "reference:name.png",
    "component:name.png"."""
    return path.name if kind == "card" else f"{kind}:{path.name}"


# -- drawing: in this process, or in workers ------------------------------------------------------

def _draw_all(plan: _Plan, processes: int, gathered: list[_Gathered], progress: bool) -> None:
    """Draw every chunk of the plan, and gather each as it comes."""
    from cardgen.render.paint_png import fast_pillow

    fast_pillow()       # tried here, before the workers fork, so a notice is printed once, not per worker
    bar = _Bar(plan, gathered, progress)
    with _drawing(plan, processes) as chunks:
        for chunk in chunks:
            gathered[chunk.game].add(chunk)
            bar.advance(chunk.items)
    bar.end()


@contextmanager
def _drawing(plan: _Plan, processes: int):
    """Yields the drawn chunks, as they are drawn; the workers are stopped when the block is left.

    Each worker draws chunk after chunk until none is left (one call of the pool), and sends each
    straight here on a queue of its own: the pool's own result queue wakes its worker-handling
    thread at every result, which then spins until another thread has read it (0.14 s of this
    process's CPU time on the bundled set, in chunks of 4)."""
    chunks = chunk_counts(plan.items)
    if processes == 1:
        _HERE["claims"] = Claims(chunks)
        _keep_freed_memory()
        yield iter(_draw_next, None)
        return
    import multiprocessing

    forked = can_fork()
    context = multiprocessing.get_context("fork" if forked else "spawn")
    _HERE.update(claims=Claims(chunks, context), drawn=context.SimpleQueue())
    # Forked workers inherit the games, the claims and the queue (and a lone game's layouts, fonts
    # and compiled expressions); spawned ones are sent the plan, the claims and the queue.
    start = () if forked else (plan, _HERE["claims"], _HERE["drawn"])
    # What is here now stays out of the workers' garbage collections, which would write to (and
    # so copy) every page it is on. (Left frozen when someone froze it before: build's tasks.)
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    try:
        with worker_pool(context, processes, _start_worker, start) as pool:
            _thaw(frozen_before)
            pool.map_async(_draw_until_done, range(processes), chunksize=1)
            yield _received(_HERE["drawn"], processes)
    finally:
        _thaw(frozen_before)


def _thaw(frozen_before: int) -> None:
    if not frozen_before:
        gc.unfreeze()


def _start_worker(plan: _Plan | None = None, claims: Claims | None = None, drawn=None) -> None:
    """First thing in a worker: a spawned one is given the plan, the claims and the queue (a forked
    one has them)."""
    if plan is not None:
        _HERE.update(plan=plan, claims=claims, drawn=drawn, games={}, ready={}, current=None)
    _keep_freed_memory()


def _draw_until_done(_call: int) -> None:
    """In a worker: draw chunks until none is left, each sent on the queue; then None, or what
    went wrong."""
    drawn = _HERE["drawn"]
    try:
        for chunk in iter(_draw_next, None):
            drawn.put(chunk)
    except Exception as exc:        # (a bug, a full disk): raised in the process that started the render
        drawn.put(_Raised(exc))
    else:
        drawn.put(None)


def _received(drawn, calls: int):
    """The chunks the workers send, until each of their calls has said it is done."""
    while calls:
        chunk = drawn.get()
        if chunk is None:
            calls -= 1
        elif isinstance(chunk, _Raised):
            raise chunk.exception
        else:
            yield chunk


class _Raised:
    """An exception a worker sends: itself when it can be pickled, else its traceback's text."""

    def __init__(self, exception: Exception):
        import pickle
        import traceback

        try:
            pickle.dumps(exception)
            self.exception = exception
        except Exception:
            self.exception = RuntimeError("".join(traceback.format_exception(exception)))


@dataclass
class _Chunk:
    """Some of a game's items, drawn (or found unchanged)."""

    game: int
    items: int                  # how many of the game's items it stands for
    faces: list[_Face]
    issues: list[Issue]         # the game's own (back_for), with its first chunk
    seconds: float
    failed: list[Issue] | None = None       # the game's layouts do not load: nothing was drawn


class _Face(NamedTuple):
    kind: str
    path: Path
    key: str
    drawn: bool = False
    issue: Issue | None = None
    thumbnail: Path | None = None


def _draw_next() -> _Chunk | None:
    """Claim the next chunk for this process and draw it; None when none is left."""
    claim = _HERE["claims"].take(_HERE["current"])
    if claim is None:
        return None
    game, chunk = claim
    _HERE["current"] = game
    start = time.perf_counter()
    items = chunk_items(chunk, _HERE["plan"].items[game])
    try:
        ready = _ready(game)
    except ContentError as exc:
        _HERE["claims"].give_up(game)
        return _Chunk(game, len(items), [], [], 0.0, failed=exc.issues)
    faces, issues = [], []
    for item in items:
        if item == 0:
            faces += [_draw_face(ready, kind, name) for kind, name in ready.extras]
            issues += ready.issues
        else:
            faces.append(_draw_face(ready, "card", ready.cards[item - 1].name))
    return _Chunk(game, len(items), faces, issues, time.perf_counter() - start)


def _draw_face(ready: _Ready, kind: str, name: str) -> _Face:
    """Draw and write one card, back or player aid, unless its PNG is current; and, with the plan's
    thumbnails, a card's thumbnail from the picture just painted."""
    from cardgen.render.paint_png import encode_png, paint_png

    path, key, needed = ready.needs_drawing(kind, name)
    if not needed:
        return _Face(kind, path, key)
    try:
        if kind == "card":
            face = layout_face(ready.layouts, ready.game.cards[name])
        elif kind == "reference":
            face = layout_reference(ready.layouts, name)
        elif kind == "component":
            component, side, made_for = parse_face_name(name)
            card = ready.game.cards[made_for] if made_for else None
            face = layout_component(ready.layouts, component, side, card)
        else:
            face = draw_back(ready.layouts, name)
    except LayoutError as exc:
        return _Face(kind, path, key, issue=exc.issue())
    image = paint_png(face, ready.dpi)
    write_atomic(path, encode_png(image, ready.dpi))
    thumbnail = None
    if kind in ("card", "back") and _HERE["plan"].thumbnails:
        thumbnail = _write_thumbnail(image, ready, kind, path)
    return _Face(kind, path, key, drawn=True, thumbnail=thumbnail)


def _write_thumbnail(image, ready: _Ready, kind: str, png: Path) -> Path:
    """The site's thumbnail of a card or a back (the site shows each card's back beside it)."""
    from cardgen.render.thumbnail import bleed_pixels, recorded_dpi, thumbnail_jpeg, thumbnail_of

    cut = bleed_pixels(ready.layouts.bleed, recorded_dpi(ready.dpi))
    return write_atomic(thumbnail_of(ready.out_dir, kind, png.stem), thumbnail_jpeg(image, cut))


def _keep_freed_memory() -> None:
    """Ask glibc to keep freed image buffers for reuse instead of returning them to the kernel.

    Every card allocates and frees a few 3-4 MB buffers (the picture, its bytes, the PNG); each
    one unmapped and mapped afresh costs a page fault per 4 KB it touches. Set in the processes
    that draw (a render's workers, or the one process drawing), never in one that forks others
    later: they would all inherit it. Up to 32 MB kept, not 256 MB: measured on the whole bundled
    set, the same page faults and CPU time (29k faults in one process; 31k with glibc's own
    settings, whose threshold rises after the first large free), and a process that goes on to
    other work after drawing keeps at most 32 MB of freed memory. Other platforms and C libraries
    are left alone.
    """
    if not sys.platform.startswith("linux") or _MALLOC.get("tuned"):
        return
    _MALLOC["tuned"] = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3
        libc.mallopt(m_mmap_threshold, 32 << 20)     # blocks under 32 MB come from the heap...
        libc.mallopt(m_trim_threshold, 32 << 20)     # ...which keeps up to 32 MB free for reuse
    except (OSError, AttributeError):                # not glibc (musl, for one): nothing to tune
        pass


_MALLOC: dict = {}


# -- gathering, in the process that started the render ---------------------------------------------

class _Gathered:
    """One game's drawn chunks, gathered here: once its last is in, its cache record, its outputs
    record and its thumbnails' keys are written."""

    def __init__(self, plan: _Plan, i: int, game: Game):
        self.game, self.out_dir, self.whole = game, plan.out_root / game.id, not plan.only
        self.left = plan.items[i]
        self.cache = dict(plan.caches[i])
        self.cards = _chosen_cards(game, plan.only)
        self.files = [png_path(self.out_dir, game, "card", card.name) for card in self.cards]
        self.makes_thumbnails = plan.thumbnails
        self.thumbnail_keys: dict[str, str] = {}        # of those made
        self.result = RenderResult()
        self.failed: list[Issue] | None = None
        self.started: float | None = None

    def add(self, chunk: _Chunk) -> None:
        from cardgen.render.thumbnail import thumbnail_name

        now = time.perf_counter()
        if self.started is None:
            self.started = now - chunk.seconds
        if chunk.failed is not None or self.failed is not None:
            self.failed = self.failed or chunk.failed
            return
        self.result.errors += chunk.issues
        for face in chunk.faces:
            if face.kind != "card":
                self.files.append(face.path)
            if face.issue is not None:
                self.result.errors.append(face.issue)
            elif not face.drawn:
                self.result.skipped += 1
            else:
                self.cache[cache_entry(face.kind, face.path)] = face.key
                self.result.written.append(face.path)
                if face.thumbnail is not None:
                    self.thumbnail_keys[thumbnail_name(self.out_dir, face.thumbnail)] = face.key
        self.left -= chunk.items
        if self.left == 0:
            self._finish()
            self.result.seconds = now - self.started

    def _finish(self) -> None:
        from cardgen.render.thumbnail import RECORD, thumbnail_of

        cards = self.out_dir / "cards"
        if self.result.written or self.result.errors:
            write_atomic(cards / CACHE, json.dumps(self.cache, indent=0, sort_keys=True))
        if self.thumbnail_keys:
            record = self.out_dir / "site" / "img" / RECORD
            made = read_record(record) | self.thumbnail_keys
            write_atomic(record, json.dumps(made, indent=0, sort_keys=True))
        # The PNGs of cards that are gone go (a card that failed keeps the PNG it had); and their
        # thumbnails, when this render makes them (else they are the site's to keep or remove).
        scopes = {"cards": [p for p in self.files if p.is_file()]}
        if self.makes_thumbnails:
            thumbnails = [thumbnail_of(self.out_dir, "card", card.stem) for card in self.cards]
            thumbnails += [thumbnail_of(self.out_dir, "back", p.stem) for p in self.files
                           if p.parent.name == FOLDERS["back"]]
            scopes["thumbnails"] = [p for p in thumbnails if p.is_file()]
        remember(self.game, self.out_dir, scopes, complete=self.whole,
                 earlier={"cards": _cached_files(self.out_dir, self.cache)})

    def outcome(self) -> RenderResult | ContentError:
        return ContentError(self.failed) if self.failed is not None else self.result


class _Bar:
    """A progress bar on stderr, over every item of the render."""

    WIDTH = 30

    def __init__(self, plan: _Plan, gathered: list[_Gathered], shown: bool):
        self.total, self.done, self.shown = sum(plan.items), 0, shown
        self.label = gathered[0].game.id if len(gathered) == 1 else f"{len(gathered)} games"

    def advance(self, items: int) -> None:
        self.done += items
        if self.shown:
            filled = self.WIDTH * self.done // max(self.total, 1)
            print(f"\r  {self.label}: [{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total}",
                  end="", file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.shown and self.done:
            print(file=sys.stderr)


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
