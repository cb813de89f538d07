"""Print-and-play output: proxy sheets (PDF), print-on-demand singles, Tabletop Simulator decks.

`cardgen sheets GAME|DECK` imposes the cards on Letter and A4 (geometry.py), draws them as vector
art from the same display lists as the card PNGs (pdf.py) and writes out/<game>/proxies-letter.pdf
and proxies-a4.pdf, or <deck>-letter.pdf ... for a deck file; `--singles` adds <...>-singles.pdf.
`cardgen tts` is tts.py. Cards are laid out once, on every core, and remembered in
out/<game>/.sheets-cache.json (faces.py); a file whose inputs have not changed is not rewritten
(out/<game>/.sheets-stamps.json). `build_sheets` is the `cardgen build` stage.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass
from pathlib import Path

from cardgen import outputs
from cardgen.errors import ContentError, Issue
from cardgen.fsutil import write_atomic
from cardgen.model import Deck, Game
from cardgen.parallel import can_fork, usable_cpus
from cardgen.sheets.geometry import BACK_MODES, PAPERS, impose, max_gap
from cardgen.sheets.printing import load_target, output_stem, prepare, print_list

CACHE_NAME = ".sheets-cache.json"   # laid-out cards, beside the PDFs (see faces.py)
PARALLEL_FROM = 48                  # distinct cards from which each PDF gets its own process
__all__ = ["BACK_MODES", "CACHE_NAME", "PAPERS", "SheetOptions", "SheetsDone", "build_sheets", "load_target",
           "make_sheets", "make_sheets_many", "prepare", "print_list"]


@dataclass(frozen=True)
class SheetOptions:
    papers: tuple[str, ...] = ("letter", "a4")
    backs: str = "duplex-long"        # duplex-long | duplex-short | separate | fold | none
    offset: tuple[float, float] = (0.0, 0.0)   # mm the back pages move: +x right, +y down
    gap: float = 0.0                  # mm between cards; 0 = shared cut lines
    bleed: bool = True                # draw bleed where it fits (False: every card cut at the trim)
    singles: bool = False             # also one page per card at trim + bleed
    cmyk: Path | None = None          # the singles in CMYK for this ICC output profile (cmyk.py)


def make_sheets(game: Game, out_dir: Path, deck: Deck | None = None,
                options: SheetOptions = SheetOptions(), notes: list[str] | None = None,
                jobs: int | None = None, force: bool = False, layouts=None) -> list[Path]:
    """Write the proxy sheets (one PDF per paper) and, with `singles`, the print-on-demand PDF into
    `out_dir` (out/<game>); returns their paths. A file whose inputs (cards, layouts, options,
    code) have not changed since it was written is left alone unless `force`. Raises ContentError
    for unknown cards or cards that cannot be laid out. `notes` (optional) receives one line per
    file: its grid, pages, and any warning. Cards are laid out on up to `jobs` cores; the papers
    are then finished in parallel, in forked copies of one document in which the cards are drawn.
    `layouts`: the game's layouts when already loaded (make_sheets_many loads them ahead)."""
    from cardgen.inputs import prints_key
    from cardgen.render.layout import load_layouts
    from cardgen.sheets.faces import remember, unchanged

    if options.backs not in BACK_MODES:
        raise ValueError(f"unknown backs mode {options.backs!r}")
    if options.backs == "fold" and options.offset != (0.0, 0.0):
        raise ValueError("fold-over sheets have no back pages for the offsets to move")
    out_dir = Path(out_dir)
    if layouts is None:
        layouts = load_layouts(game)
    wanted = print_list(game, deck)
    count = sum(n for _, n in wanted)
    if not count:
        where = deck.path if deck is not None else game.folder
        raise ContentError([Issue(where, None, "cards", "nothing to print: no cards with copies")])
    stem = output_stem(deck)
    title = game.name if deck is None else f"{game.name}: {deck.name}"
    docs = []    # (path, imposition (of each size) or None for singles, digest of its inputs)
    counts = _counts_by_size(layouts, wanted, deck)
    for paper in options.papers:
        imps = {}
        for size in counts:
            try:
                imps[size] = impose(paper, *size, gap=options.gap, fold=options.backs == "fold",
                                    bleed=layouts.bleed if options.bleed else 0.0)
            except ValueError as exc:
                raise ContentError([Issue(layouts.path, None, "card.size", str(exc))]) from None
        imp = next(iter(imps.values())) if len(imps) == 1 else imps
        if deck is None:
            _check_components_fit(layouts, next(iter(imps.values())))    # (the paper's size counts)
        digest = prints_key(layouts, wanted, title, imp, options.backs, options.offset)
        docs.append((out_dir / f"{stem}-{paper}.pdf", imp, digest))
        if notes is not None:
            notes.append("; ".join(_describe(imps[size], n, options) + (f" ({size[0]:g} x {size[1]:g} mm)"
                                                                      if len(imps) > 1 else "")
                                   for size, n in counts.items())
                         + (_describe_components(layouts) if deck is None else ""))
    converter = None
    if options.singles and options.cmyk is not None:
        from cardgen.sheets.cmyk import Converter

        converter = Converter(options.cmyk)     # a bad profile is refused before anything is drawn
    if options.singles:
        digest = prints_key(layouts, wanted, title, "singles", options.backs != "none",
                            _profile_digest(converter))
        docs.append((out_dir / f"{stem}-singles.pdf", None, digest))
        if notes is not None:
            notes.append(f"{count} cards, one page each at trim + {layouts.bleed:g} mm bleed"
                         + (", each followed by its back" if options.backs != "none" else "")
                         + (f", CMYK for {converter.name}" if converter else ""))
    todo = [i for i, (path, _imp, digest) in enumerate(docs)
            if force or not unchanged(out_dir, path.name, digest)]
    if todo:
        load, _ = prepare(game, deck, options.backs != "none", out_dir / CACHE_NAME, jobs, layouts)
        distinct = len({id(face) for face in load.faces})
        # the cards are drawn once as forms and each paper finished in a forked copy of the
        # document: that saves drawing them again even when only one core is ours
        if len(todo) > 1 and distinct >= PARALLEL_FROM and can_fork():
            _write_forked(load, options, [docs[i] for i in todo], jobs, converter)
        else:
            for i in todo:
                _write_doc(load, options, docs[i], None, converter)
        remember(out_dir, {docs[i][0].name: docs[i][2] for i in todo})
    outputs.remember(game, out_dir, {f"sheets {_paper(imp) if imp else 'singles'}": [path]
                                     for path, imp, _digest in docs}, deck.path if deck else None)
    return [path for path, _imp, _digest in docs]


def _counts_by_size(layouts, wanted, deck) -> dict[tuple[float, float], int]:
    """How many copies print at each card size (card.sizes), the sizes in the order they come;
    the whole set's player aids are the card's size."""
    counts: dict[tuple[float, float], int] = {}
    for card, n in wanted:
        size = layouts.size_of(card.type)
        counts[size] = counts.get(size, 0) + n
    if deck is None and layouts.reference:
        size = (layouts.width, layouts.height)
        counts[size] = counts.get(size, 0)
    return counts


def _paper(imp) -> str:
    return (next(iter(imp.values())) if isinstance(imp, dict) else imp).paper


@dataclass
class SheetsDone:
    """What make_sheets wrote for one target: the files, a note on each (grid, pages...), and
    how long it took."""

    paths: list[Path]
    notes: list[str]
    seconds: float


def make_sheets_many(targets: list[tuple[Game, Deck | None]], out_root: Path,
                     options: SheetOptions = SheetOptions(), jobs: int | None = None,
                     force: bool = False) -> list[SheetsDone | ContentError]:
    """make_sheets for several games or decks, each into out_root/<game>: one result per target,
    in order, a ContentError for a target that cannot be printed (the others still are).

    Each game gets its own process, `jobs` (default: every core) at a time, the largest first,
    and lays out its cards there: a game's sheets are a chain of steps that cannot all use two
    cores (its forms are drawn once, in one process), so the cores are kept busy by working on
    several games at once. Targets of one game share a process, since they share its cache files.
    """
    jobs = max(1, jobs or usable_cpus())
    by_game: dict[str, list[int]] = {}
    for i, (game, _deck) in enumerate(targets):
        by_game.setdefault(str(game.folder.resolve()), []).append(i)
    groups = sorted(by_game.values(), key=lambda group: -sum(_weight(*targets[i]) for i in group))
    results: list = [None] * len(targets)
    if jobs == 1 or len(groups) == 1 or not can_fork():
        for group in groups:
            results_for = _sheets_group([targets[i] for i in group], out_root, options, jobs, force)
            for i, result in zip(group, results_for, strict=True):
                results[i] = result
        return results
    from multiprocessing.connection import wait

    from cardgen.sheets.pdf import warm_up

    context = multiprocessing.get_context("fork")
    waiting, running, warm, preloaded = list(groups), {}, False, {}
    while waiting or running:
        while waiting and len(running) < jobs:
            if running and not warm:
                # the first game has started (it loads what it needs itself); meanwhile this
                # process loads it once for all the others, which will be forked from it
                preloaded = warm_up([targets[i][0] for group in waiting for i in group])
                warm = True
            group = waiting.pop(0)
            receive, send = context.Pipe(duplex=False)
            worker = context.Process(target=_sheets_child, args=(
                send, [targets[i] for i in group], out_root, options, 1, force, preloaded))
            worker.start()
            send.close()
            running[receive] = (group, worker)
        for receive in wait(list(running)):
            group, worker = running.pop(receive)
            try:
                outcome = receive.recv()
            except EOFError:
                outcome = None
            worker.join()
            if outcome is None:
                names = ", ".join(targets[i][0].name for i in group)
                raise RuntimeError(f"printing {names} failed (see the error above)")
            for i, result in zip(group, outcome, strict=True):
                results[i] = ContentError(result) if isinstance(result, list) else result
    return results


def _weight(game: Game, deck: Deck | None) -> int:
    """How long a target's sheets take, roughly: its distinct cards."""
    return len(game.cards) if deck is None else len(deck.entries)


def _sheets_group(targets, out_root: Path, options: SheetOptions, jobs: int | None, force: bool,
                  preloaded: dict | None = None):
    results = []
    for game, deck in targets:
        notes: list[str] = []
        start = time.perf_counter()
        try:
            paths = make_sheets(game, Path(out_root) / game.id, deck, options, notes, jobs, force,
                                (preloaded or {}).get(id(game)))
        except ContentError as exc:
            results.append(exc)
        else:
            results.append(SheetsDone(paths, notes, time.perf_counter() - start))
    return results


def _sheets_child(send, targets, out_root, options, jobs, force, preloaded) -> None:
    """In a forked process: print `targets` and send back the results (issues as plain lists, since
    an exception does not survive pickling with its issues)."""
    results = _sheets_group(targets, out_root, options, jobs, force, preloaded)
    send.send([r.issues if isinstance(r, ContentError) else r for r in results])
    send.close()


def _profile_digest(converter) -> str | None:
    if converter is None:
        return None
    import hashlib

    return hashlib.sha256(converter.data).hexdigest()


def _write_doc(load, options: SheetOptions, doc, started=None, cmyk=None) -> Path:
    from cardgen.sheets.pdf import sheets_pdf, singles_pdf

    path, imp, _digest = doc
    if imp is None:
        return write_atomic(path, singles_pdf(load, options.backs != "none", started, cmyk))
    return write_atomic(path, sheets_pdf(load, imp, options.backs, options.offset, started))


def _write_forked(load, options: SheetOptions, docs, jobs: int | None, cmyk=None) -> None:
    """Draw the cards once, then finish each PDF in a forked copy of that document, `jobs`
    (default: every CPU this process may use) at a time."""
    from cardgen.sheets.pdf import start

    started = start(load, options.backs != "none")
    context = multiprocessing.get_context("fork")
    at_once = max(1, jobs or usable_cpus())
    failed = []
    for first in range(0, len(docs), at_once):
        batch = docs[first:first + at_once]
        workers = [context.Process(target=_write_doc, args=(load, options, doc, started, cmyk))
                   for doc in batch]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        failed += [doc[0].name for doc, worker in zip(batch, workers, strict=True) if worker.exitcode]
    if failed:
        raise RuntimeError(f"writing {', '.join(failed)} failed (see the error above)")


def _check_components_fit(layouts, imp) -> None:
    """Every component (a player mat) fits the paper with its bleed and crop marks, or the file
    says which does not and the most that fits."""
    from cardgen.sheets.component_pages import place

    issues = []
    for key, component in layouts.components.items():
        try:
            place(imp.page_w, imp.page_h, component.width, component.height, component.bleed)
        except ValueError as exc:
            issues.append(Issue(layouts.path, component.line, f"components.{key}.size",
                                f"on {imp.paper}: {exc}"))
    if issues:
        raise ContentError(issues)


def _describe_components(layouts) -> str:
    from cardgen.render.components import printed

    counts = {key: len(printed(c, layouts.game)) for key, c in layouts.components.items()}
    return "".join(f"; {counts[key]} x {c.name} ({c.width:g} x {c.height:g} mm)"
                   for key, c in layouts.components.items() if counts[key])


def _describe(imp, count: int, options: SheetOptions) -> str:
    sheets = -(-count // imp.per_page)
    pages = sheets * (2 if options.backs in ("duplex-long", "duplex-short", "separate") else 1)
    landscape = " (landscape)" if imp.page_w > imp.page_h else ""
    plural = "s" if pages != 1 else ""
    text = (f"{count} cards, {imp.cols} x {imp.rows} a page{landscape}, {pages} page{plural}, "
            f"backs: {options.backs}")
    if options.gap:
        shared = impose(imp.paper, imp.card_w, imp.card_h, fold=imp.fold)
        if shared.per_page > imp.per_page:
            fits = max_gap(shared)
            text += (f" (a {options.gap:g} mm gap leaves room for {imp.per_page} cards, shared cut lines "
                     f"fit {shared.per_page}; a gap of at most {fits:.1f} mm keeps "
                     f"{shared.cols} x {shared.rows})")
    return text


def build_sheets(game: Game, out_dir: Path, jobs: int | None = None) -> list[Path]:
    """For `cardgen build`: the whole set's proxy sheets on Letter and A4 (long-edge duplex backs)
    in `out_dir` (out/<game>), and its Tabletop Simulator deck in out_dir/tts (from the card PNGs
    `cardgen render` left there when they are current). Files whose inputs have not changed are
    not rewritten. A game without a layouts.yaml has no card faces yet: returns []. `jobs`: the
    processes it may use (default: every CPU this process may use)."""
    if not (game.folder / "layouts.yaml").is_file():
        return []
    from cardgen.sheets.tts import export_tts

    out_dir = Path(out_dir)
    paths = make_sheets(game, out_dir, jobs=jobs)
    tts = export_tts(game, out_dir / "tts", cache=out_dir / CACHE_NAME, rendered=out_dir)
    return paths + tts.images + [tts.json_path]
