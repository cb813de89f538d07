"""`cardgen rulebook GAME`: rules/*.md + generated sections -> Jinja2 -> WeasyPrint -> rulebook.pdf."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from cardgen.errors import ContentError, Issue
from cardgen.model import Game
from cardgen.model.tables import lookup
from cardgen.outputs import remember
from cardgen.publish import anatomy, diagrams, sections
from cardgen.publish.booklet import impose, padding
from cardgen.publish.chapters import Block, Chapter, parse_chapter, read_chapter_files, slugify
from cardgen.publish.document import (
    PAPER,
    base_context,
    make_fetcher,
    page_count,
    palette,
    render_template,
    write_pdf,
)
from cardgen.publish.faces import Faces, showcase
from cardgen.publish.length import length_note

DEFAULT_PAPER = "a5"
BOOKLET_FILE = "rulebook-booklet.pdf"
TOC_SECTION_LIMIT = 30


@dataclass
class Book:
    """What the rulebook template gets, and what the tests and the build read back."""

    chapters: list[Chapter]
    warnings: list[str] = field(default_factory=list)
    extra_files: list[Path] = field(default_factory=list)
    faces: Faces | None = None          # the real cards the cover and diagrams draw
    ruling_boxes: set[str] = field(default_factory=set)   # the [[ruling:TABLE]] boxes it prints


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
        ("The table", [Block(name="play-area"), Block(name="setup")]),
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

    book = Book(chapters=[], faces=Faces(game, out_dir, []))
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

    book.ruling_boxes = {b.arg for c in chapters for b in c.blocks if b.name == "ruling" and b.arg}
    for chapter in chapters:
        for block in chapter.blocks:
            if block.html is None and block.name != "glossary":
                block.nodes = _fill(game, block, chapter, scenarios, out_dir, book)
    explained = _explained_terms(chapters)
    for chapter in chapters:
        for block in chapter.blocks:
            if block.name == "glossary" and block.html is None:
                block.nodes = sections.glossary(game, block.arg, explained)
        has_prose = any(b.html is not None for b in chapter.blocks)
        chapter.blocks = [b for b in chapter.blocks if b.html is not None or b.nodes]
        if has_prose or any(b.html is None for b in chapter.blocks):
            book.chapters.append(chapter)
    return book


def _explained_terms(chapters: list[Chapter]) -> dict[str, tuple[str, str]]:
    """Where the book already explains a keyword (the keyword reference) or a card field (the
    card anatomy): "keyword:NAME" / "field:NAME" -> (chapter title, slug), for the glossary."""
    where: dict[str, tuple[str, str]] = {}
    for chapter in chapters:
        for block in chapter.blocks:
            for node in block.nodes or []:
                if block.name == "keywords" and node.get("kind") == "defs":
                    for item in node["items"]:
                        where.setdefault(f"keyword:{item['term']}", (chapter.title, chapter.slug))
                if node.get("kind") == "anatomy":
                    for callout in node["callouts"]:
                        if callout.get("doc") and callout.get("field"):
                            where.setdefault(f"field:{callout['field']}", (chapter.title, chapter.slug))
    return where


def _fill(game: Game, block: Block, chapter: Chapter, scenarios, out_dir, book: Book) -> list[dict]:
    if block.name == "about":
        return _about(game)
    if block.name in ("faq", "examples"):
        func = sections.faq if block.name == "faq" else sections.examples
        return func(game, block.arg, scenarios=scenarios)
    if block.name == "rulings":
        try:
            return sections.rulings(game, block.arg, scenarios=scenarios, boxes=book.ruling_boxes)
        except KeyError as exc:
            raise ContentError([Issue(chapter.source, block.line, None,
                                      f"[[rulings:{block.arg}]]: {exc.args[0]}")]) from None
    if block.name in sections.DIAGRAMS:
        return _diagram(game, block, chapter, book)
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


def _diagram(game: Game, block: Block, chapter: Chapter, book: Book) -> list[dict]:
    """[[play-area]] or [[setup]]: the table drawn from game.yaml play_area."""
    if chapter.source is None and not game.meta.get("play_area"):
        return []                       # a game without rules/ nor a play area: nothing to draw
    accent = palette(game)["accent"]
    try:
        if block.name == "example-table":
            return diagrams.example_table(game, book.faces, block.arg, accent)
        return diagrams.diagram(game, book.faces, block.name == "setup", accent)
    except KeyError as exc:
        raise ContentError([Issue(chapter.source, block.line, None,
                                  f"[[{block.name}]]: {exc.args[0]}")]) from None


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


COVER_CARDS = 3
COVER_DPI = 150


def cover_cards(game: Game, book: Book) -> dict:
    """A few of the game's own cards for the cover, drawn by the card renderer."""
    if book.faces is None:
        return {"cover_cards": []}
    paths = [book.faces.png(card, COVER_DPI) for card in showcase(game, COVER_CARDS)]
    return {"cover_cards": [p.resolve().as_uri() for p in paths if p is not None]}


def render_html(game: Game, book: Book, paper: str = DEFAULT_PAPER, lang: str = "en",
                blank_pages: int = 0) -> str:
    n_sections = sum(len(c.sections) for c in book.chapters) + len(book.chapters)
    size = PAPER.get(paper, paper)
    context = base_context(game, paper) | palette(game) | cover_cards(game, book) | {
        "chapters": book.chapters, "lang": lang, "players": players_text(game),
        "toc_sections": n_sections <= TOC_SECTION_LIMIT,
        "cover_height": size.split()[-1] if " " in size else "210mm",
        "blank_pages": blank_pages,         # a booklet's padding, before the back page
    }
    return render_template(game, "rulebook/rulebook.html.j2", context)


def build_rulebook(game: Game, out_dir: Path, paper: str = DEFAULT_PAPER,
                   use_cache: bool = True, booklet: bool = False) -> tuple[Path, int, Book]:
    """Write out_dir/rulebook.pdf; returns (path, pages, the assembled book). With `booklet`,
    the book is padded with blank pages before its back page to a multiple of 4, and
    out_dir/rulebook-booklet.pdf holds it imposed for folding (cardgen.publish.booklet)."""
    out_dir = Path(out_dir)
    book = assemble(game, out_dir)
    html = render_html(game, book, paper)
    # the card anatomy and the cover's and diagrams' cards: one of a card that is gone (or no
    # longer shown) goes (after render_html, which draws the cover's)
    remember(game, out_dir, {"rulebook": [f for p in book.extra_files for f in anatomy.anatomy_files(p)]
                                         + book.faces.files})
    source = game.folder / "rules" if (game.folder / "rules").is_dir() else game.folder / "game.yaml"
    fetcher = make_fetcher(game, source, [*book.extra_files, *book.faces.files])
    for chapter in book.chapters:
        for url, line in chapter.images:
            fetcher.sources.setdefault(url, (chapter.source, line))    # its first use is blamed
    blank = 0
    if booklet:
        blank = padding(page_count(html, game, fetcher))
        if blank:
            html = render_html(game, book, paper, blank_pages=blank)
    path, pages = write_pdf(html, out_dir / "rulebook.pdf", game, fetcher, "rulebook", use_cache)
    if booklet:
        impose(path, out_dir / BOOKLET_FILE)
    note = length_note(game, pages - (blank if booklet else 0))
    if note:
        book.warnings.append(note)
    return path, pages, book
