"""`cardgen rulebook GAME`: rules/*.md + generated sections -> Jinja2 -> WeasyPrint -> rulebook.pdf."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import write_atomic
from cardgen.model import Game
from cardgen.publish import sections
from cardgen.publish.chapters import Block, Chapter, parse_chapter, read_chapter_files, slugify
from cardgen.publish.document import PAPER, base_context, make_fetcher, render_template, write_pdf
from cardgen.publish.nodes import lookup

# Cover and heading colours: (accent, dark, light, faint). A game gets one by its id.
PALETTES = [
    ("#9b2226", "#6a1518", "#d9a3a5", "#f7ecec"),   # lacquer red
    ("#1d4e89", "#12345c", "#9fb8d8", "#edf2f8"),   # indigo
    ("#2d6a4f", "#1b4332", "#a7cbb8", "#edf5f0"),   # pine
    ("#7b2cbf", "#521d80", "#c8a6e6", "#f4eefa"),   # violet
    ("#b5651d", "#7f4513", "#e2bf9c", "#faf2ea"),   # copper
    ("#005f73", "#003f4d", "#94c5cf", "#e9f3f5"),   # teal
]
DEFAULT_PAPER = "a5"
TOC_SECTION_LIMIT = 30


@dataclass
class Book:
    """What the rulebook template gets, and what the tests and the build read back."""

    chapters: list[Chapter]
    warnings: list[str] = field(default_factory=list)
    extra_files: list[Path] = field(default_factory=list)


def palette(game: Game) -> dict:
    accent, dark, light, faint = PALETTES[zlib.crc32(game.id.encode()) % len(PALETTES)]
    return {"accent": accent, "accent_dark": dark, "accent_light": light, "accent_faint": faint}


def players_text(game: Game) -> str:
    players = game.meta.get("players") or {}
    lo, hi = players.get("min"), players.get("max")
    if lo and hi and lo != hi:
        return f"{lo}–{hi}"
    return str(lo or hi or "")


def default_chapters() -> list[tuple[str, list[Block]]]:
    """The chapters of a game that has no rules/ folder yet: everything game.yaml can tell."""
    return [
        ("About the game", [Block(name="about")]),
        ("Components", [Block(name="components"), Block(name="card-anatomy")]),
        ("Keywords", [Block(name="keywords")]),
        ("Reference tables", [Block(name="tables")]),
        ("Examples and questions", [Block(name="examples"), Block(name="faq")]),
        ("Glossary", [Block(name="glossary")]),
        ("Credits", [Block(name="credits")]),
    ]


def _about(game: Game) -> list[dict]:
    nodes = []
    for key in ("summary", "description"):
        if game.meta.get(key):
            nodes.append({"kind": "text", "text": escape(game.meta[key])})
    nodes.append({"kind": "note", "text": Markup(
        "This edition is generated from the game files alone; the full rules chapters are "
        "still being written.")})
    return nodes


def anatomy_image(game: Game, out_dir: Path, card_name: str | None) -> Path | None:
    """A rendered card for the anatomy section, when the card renderer is available."""
    try:
        from cardgen.render import render_card_png  # the card faces issue's renderer
    except ImportError:
        return None
    card = sections.pick_anatomy_card(game, card_name)
    if card is None:
        return None
    target = out_dir / "rulebook-assets" / f"anatomy-{slugify(card.name, set())}.png"
    stamp = target.with_suffix(".key")
    key = _render_key(game, card)
    if key and target.is_file() and stamp.is_file() and stamp.read_text() == key:
        return target                                   # unchanged card and layout: reuse it
    target.parent.mkdir(parents=True, exist_ok=True)
    path = Path(render_card_png(game, card.name, target))
    if key:
        write_atomic(stamp, key)
    return path


def _render_key(game: Game, card) -> str | None:
    """What the rendered card depends on (the renderer's own cache key), or None."""
    try:
        from cardgen.render import cache_key
        from cardgen.render.layout import load_layouts

        return cache_key(load_layouts(game), card, "rulebook-anatomy")
    except Exception:
        return None


def assemble(game: Game, out_dir: Path | None = None) -> Book:
    """Read the chapters, fill every placeholder and pick the back page."""
    taken: set[str] = set()
    files = read_chapter_files(game.folder / "rules")

    def value_of(path: str):
        return lookup(game.tables, path)

    def image_url(src: str) -> str:
        return _image_url(game, src)

    chapters: list[Chapter] = []
    if files:
        for path, text in files:
            chapters.append(parse_chapter(path, text, value_of, image_url, taken))
        chapters.sort(key=lambda c: (c.order, c.source.name if c.source else ""))
    else:
        for title, blocks in default_chapters():
            chapters.append(Chapter(title=title, slug=slugify(title, taken), blocks=blocks))

    book = Book(chapters=[])
    scenarios = sections.load_scenarios(game)
    back = [c for c in chapters if c.page == "back"]
    if len(back) > 1:
        raise ContentError([Issue(back[1].source, 2, "page", "only one chapter can be the back page")])
    if not back:
        back_chapter = Chapter(title="Quick reference", slug=slugify("Quick reference", taken),
                               blocks=[Block(name="quick-reference")], page="back")
        chapters.append(back_chapter)
    else:
        chapters.remove(back[0])
        chapters.append(back[0])

    for chapter in chapters:
        has_prose = False
        has_generated = False
        for block in chapter.blocks:
            if block.html is not None:
                has_prose = True
                continue
            block.nodes = _fill(game, block, chapter, scenarios, out_dir, book)
            has_generated = has_generated or bool(block.nodes)
        chapter.blocks = [b for b in chapter.blocks if b.html is not None or b.nodes]
        if has_prose or has_generated:
            book.chapters.append(chapter)
    return book


def _fill(game: Game, block: Block, chapter: Chapter, scenarios, out_dir, book: Book) -> list[dict]:
    if block.name == "about":
        return _about(game)
    if block.name in ("faq", "examples"):
        func = sections.faq if block.name == "faq" else sections.examples
        return func(game, block.arg, scenarios=scenarios)
    if block.name == "rulings":
        try:
            return sections.rulings(game, block.arg, scenarios=scenarios)
        except KeyError as exc:
            raise ContentError([Issue(chapter.source, block.line, None,
                                      f"[[rulings:{block.arg}]]: {exc.args[0]}")]) from None
    image = None
    if block.name == "card-anatomy" and out_dir is not None:
        try:
            sections.pick_anatomy_card(game, block.arg)
        except KeyError:
            pass   # generate() reports it with the chapter's file and line
        else:
            try:
                path = anatomy_image(game, out_dir, block.arg)
            except ContentError as exc:
                path = None
                book.warnings.append(f"card anatomy printed without a picture: {exc.issues[0]}")
            if path is not None:
                book.extra_files.append(path)
                image = {"url": path.resolve().as_uri()} | _trim(game, block.arg)
    return sections.generate(game, block.name, block.arg, chapter.source, block.line, image)


ANATOMY_WIDTH_MM = 44
ANATOMY_GUTTER_MM = 7


def _trim(game: Game, card_name: str | None) -> dict:
    """How to show the rendered card cut at its trim line (the PNG carries the bleed), and where
    each callout's number goes on it: found by matching the callout's value with the card's text."""
    try:
        from cardgen.render.layout import layout_face, load_layouts

        layouts = load_layouts(game)
        width, height, bleed = layouts.width, layouts.height, layouts.bleed
        card = sections.pick_anatomy_card(game, card_name)
        runs = [item for item in layout_face(layouts, card).items
                if type(item).__name__ == "Run" and item.text.strip()]
    except Exception:   # the picture still shows, bleed and all, with the list beside it
        return {"frame_w": ANATOMY_WIDTH_MM, "frame_h": None, "img_w": 100.0, "offset": 0.0,
                "runs": [], "size": None}
    return {"frame_w": ANATOMY_WIDTH_MM, "frame_h": round(ANATOMY_WIDTH_MM * height / width, 2),
            "gutter": ANATOMY_GUTTER_MM,
            "img_w": round(100 * (width + 2 * bleed) / width, 3),
            "offset": round(100 * bleed / width, 3), "runs": runs, "size": (width, height)}


def place_markers(image: dict, callouts: list[dict]) -> list[dict]:
    """Numbered markers on the card picture, one per callout whose value is printed on the card."""
    if not image or not image.get("runs"):
        return []
    width, height = image["size"]
    runs, used, markers = image["runs"], set(), []
    for number, callout in enumerate(callouts, 1):
        raw = str(callout.get("raw") or "").strip().lower()
        if not raw:
            continue
        free = [i for i in range(len(runs)) if i not in used]
        # The same text can be printed twice (an attack's 500 and the Attack box's 500): the
        # biggest print is the one the callout means.
        exact = [i for i in free if runs[i].text.strip().lower() == raw]
        found = max(exact, key=lambda i: runs[i].size) if exact else None
        if found is None:
            for i in free:
                text = runs[i].text.strip().lower()
                if text.startswith(raw + " ") or (len(text) >= 8 and raw.startswith(text)):
                    found = i
                    break
        if found is None:
            continue
        used.add(found)
        run = runs[found]
        scale = image["frame_w"] / width                      # picture mm per card mm
        middle = (run.y - run.size * 0.3528 * 0.35) * scale      # the text's x-height middle
        text_w = len(run.text.strip()) * run.size * 0.3528 * 0.5
        right = run.x + text_w / 2 > width / 2 and run.x > width * 0.3
        if right:
            start = min(run.x + text_w + 0.8, width) * scale
            markers.append({"n": number, "side": "right", "top": round(middle, 2),
                            "line_from": round(start, 2),
                            "line_w": round(image["frame_w"] - start + ANATOMY_GUTTER_MM - 4.6, 2)})
        else:
            end = max(run.x - 0.8, 0) * scale
            markers.append({"n": number, "side": "left", "top": round(middle, 2),
                            "line_w": round(end + ANATOMY_GUTTER_MM - 4.6, 2)})
    return markers


def _image_url(game: Game, src: str) -> str:
    """A Markdown image path -> file URL inside the game folder (ValueError says why not)."""
    if not src:
        raise ValueError("empty image path")
    if ":" in src.split("/", 1)[0]:
        raise ValueError("only image files inside the game folder can be used, not URLs")
    from cardgen.publish.fetcher import ConfinedFetcher

    path = (game.folder / src) if not Path(src).is_absolute() else Path(src)
    problem = ConfinedFetcher([game.folder]).check_local_path(path)
    if problem:
        raise ValueError(problem)
    return path.resolve().as_uri()


def render_html(game: Game, book: Book, paper: str = DEFAULT_PAPER, lang: str = "en") -> str:
    n_sections = sum(len(c.sections) for c in book.chapters) + len(book.chapters)
    size = PAPER.get(paper, paper)
    context = base_context(game, paper) | palette(game) | {
        "chapters": book.chapters, "lang": lang, "players": players_text(game),
        "toc_sections": n_sections <= TOC_SECTION_LIMIT,
        "cover_height": size.split()[-1] if " " in size else "210mm",
    }
    return render_template(game, "rulebook/rulebook.html.j2", context)


def build_rulebook(game: Game, out_dir: Path, paper: str = DEFAULT_PAPER,
                   use_cache: bool = True) -> tuple[Path, int, Book]:
    """Write out_dir/rulebook.pdf; returns (path, pages, the assembled book)."""
    out_dir = Path(out_dir)
    book = assemble(game, out_dir)
    html = render_html(game, book, paper)
    source = game.folder / "rules" if (game.folder / "rules").is_dir() else game.folder / "game.yaml"
    fetcher = make_fetcher(game, source, book.extra_files)
    for chapter in book.chapters:
        for block in chapter.blocks:
            if block.html is not None and chapter.source is not None:
                for url in _img_urls(str(block.html)):
                    fetcher.sources[url] = (chapter.source, None)
    path, pages = write_pdf(html, out_dir / "rulebook.pdf", game, fetcher, "rulebook", use_cache)
    return path, pages, book


def _img_urls(html: str) -> list[str]:
    import re

    return [m.group(1) for m in re.finditer(r'<img[^>]*\ssrc="([^"]*)"', html)]
