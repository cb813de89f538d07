"""`cardgen rulebook GAME`: rules/*.md + generated sections -> Jinja2 -> WeasyPrint -> rulebook.pdf."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from cardgen.errors import ContentError, Issue
from cardgen.model import Game
from cardgen.outputs import remember
from cardgen.publish import anatomy, sections
from cardgen.publish.chapters import Block, Chapter, parse_chapter, read_chapter_files, slugify
from cardgen.publish.document import PAPER, base_context, make_fetcher, palette, render_template, write_pdf
from cardgen.publish.nodes import lookup

DEFAULT_PAPER = "a5"
TOC_SECTION_LIMIT = 30


@dataclass
class Book:
    """What the rulebook template gets, and what the tests and the build read back."""

    chapters: list[Chapter]
    warnings: list[str] = field(default_factory=list)
    extra_files: list[Path] = field(default_factory=list)


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

    keywords_printed = any(b.name == "keywords" for c in chapters for b in c.blocks)
    for chapter in chapters:
        has_prose = False
        has_generated = False
        for block in chapter.blocks:
            if block.html is not None:
                has_prose = True
                continue
            block.nodes = (sections.glossary(game, block.arg, keywords_printed)
                           if block.name == "glossary" else
                           _fill(game, block, chapter, scenarios, out_dir, book))
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
            anatomy.pick_anatomy_card(game, block.arg)
        except KeyError:
            pass   # generate() reports it with the chapter's file and line
        else:
            try:
                path = anatomy.anatomy_image(game, out_dir, block.arg)
            except ContentError as exc:
                path = None
                book.warnings.append(f"card anatomy printed without a picture: {exc.issues[0]}")
            if path is not None:
                book.extra_files.append(path)
                image = {"url": path.resolve().as_uri(), "path": str(path)} | anatomy.trim(game, block.arg)
    return sections.generate(game, block.name, block.arg, chapter.source, block.line, image)


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
    # the card anatomy pictures: one of a card that is gone (or no longer shown) goes
    remember(game, out_dir, {"rulebook": [f for p in book.extra_files for f in anatomy.anatomy_files(p)]})
    html = render_html(game, book, paper)
    source = game.folder / "rules" if (game.folder / "rules").is_dir() else game.folder / "game.yaml"
    fetcher = make_fetcher(game, source, book.extra_files)
    for chapter in book.chapters:
        for url, line in chapter.images:
            fetcher.sources.setdefault(url, (chapter.source, line))    # its first use is blamed
    path, pages = write_pdf(html, out_dir / "rulebook.pdf", game, fetcher, "rulebook", use_cache)
    return path, pages, book
