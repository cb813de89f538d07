"""Rulebook chapters: content/<game>/rules/*.md -> safe HTML, with placeholders for generated parts.

A chapter file is Markdown with an optional front matter block:

    ---
    title: How to play        # default: the first "# Heading" of the file, else the file name
    order: 30                 # default: files sort by name
    page: back                # this chapter is the quick reference printed on the back page
    ---

A line holding only `[[name]]` or `[[name:argument]]` is replaced by a generated section (see
docs/rulebooks.md); `[[value:path.in.tables]]` inside a line prints one value from game.yaml tables.
Any other placeholder inside a line is an error naming the line (it would print as written).

Safety: raw HTML in Markdown is not interpreted (it is printed as text); links keep only http,
https, mailto and #fragment targets; images must be files inside the game folder.
"""

from __future__ import annotations

import html as htmllib
import re
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from cardgen.errors import ContentError, Issue, IssueList
from cardgen.fsutil import read_user_text

VALUE_INLINE = re.compile(r"\[\[\s*value\s*:\s*([A-Za-z0-9_.\- ]+?)\s*\]\]")
PLACEHOLDER_NAME = re.compile(r"[a-z][a-z0-9-]*")


# A line is parsed with str methods, not one regular expression: the patterns these replace
# backtracked, so one line of 4,000 spaces took seconds (cubic time). These are linear.
def placeholder(line: str) -> tuple[str, str | None] | None:
    """`[[name]]` or `[[name: arg]]` alone on a line: (name, arg or None); else None."""
    return _placeholder(line.strip())


def _placeholder(text: str) -> tuple[str, str | None] | None:
    if not (text.startswith("[[") and text.endswith("]]")) or len(text) < 5:
        return None
    name, colon, arg = text[2:-2].partition(":")
    name = name.strip()
    if not PLACEHOLDER_NAME.fullmatch(name):
        return None
    return name, (arg.strip() if colon else None)


def inline_placeholders(line: str) -> list[tuple[str, str | None, str]]:
    """Every `[[name]]` or `[[name: arg]]` inside a line, outside `code` spans: (name, arg, the
    text as written). Linear time: each stretch of the line is searched once."""
    found = []
    for i, part in enumerate(line.split("`")):
        if i % 2:                       # between backticks: code, printed as written
            continue
        pos = 0
        while (end := part.find("]]", pos)) >= 0:
            start = part.rfind("[[", pos, end)
            written = part[start:end + 2] if start >= 0 else ""
            parsed = _placeholder(written)
            if parsed:
                found.append((*parsed, written))
            pos = end + 2
    return found


def heading(line: str) -> str | None:
    """The text of a `# Heading` line (closing #s dropped), or None."""
    if len(line) < 2 or line[0] != "#" or not line[1].isspace():
        return None
    text = line[1:].strip()
    return text.rstrip("#").rstrip() or text[:1] or None
SAFE_LINK_SCHEMES = ("http", "https", "mailto")
MAX_CHAPTER_BYTES = 1024 * 1024


@dataclass
class Block:
    """A piece of a chapter: Markdown-made HTML, or a placeholder to fill with a generated section."""

    html: Markup | None = None
    name: str | None = None
    arg: str | None = None
    line: int = 0
    nodes: list | None = None     # filled in by the rulebook builder


@dataclass
class Chapter:
    title: str
    slug: str
    blocks: list[Block]
    source: Path | None = None
    order: float = 0
    page: str | None = None                  # "back" for the quick reference
    sections: list[tuple[str, str]] = field(default_factory=list)   # (id, title) of h2s
    images: list[tuple[str, int | None]] = field(default_factory=list)  # (file URL, line)


def slugify(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def read_chapter_files(folder: Path) -> list[tuple[Path, str]]:
    files = sorted(p for p in folder.glob("*.md") if p.is_file()) if folder.is_dir() else []
    out = []
    game_folder = folder.resolve().parent
    for path in files:
        text = read_user_text(path, game_folder, MAX_CHAPTER_BYTES, label="chapter")
        out.append((path, text.replace("\r\n", "\n")))
    return out


def split_front_matter(text: str, path: Path) -> tuple[dict, str, int]:
    """(front matter, body, line number where the body starts)."""
    if not text.startswith("---\n"):
        return {}, text, 1
    end = text.find("\n---", 4)
    if end < 0:
        raise ContentError([Issue(path, 1, None, "front matter opened with --- is never closed")])
    from cardgen.yamlio import parse_yaml

    meta = parse_yaml(text[4:end], path) or {}
    issues = IssueList(path)
    if not isinstance(meta, dict):
        issues.add(2, "front matter", "must be a mapping (title, order, page)")
        issues.raise_if_any()
    for key in meta:
        if key not in ("title", "order", "page"):
            issues.add(2, "front matter", f"unknown key {key!r}: use title, order or page")
    if "order" in meta and (isinstance(meta["order"], bool) or
                            not isinstance(meta["order"], (int, float))):
        issues.add(2, "order", "must be a number")
    if "page" in meta and meta["page"] != "back":
        issues.add(2, "page", "the only page value is 'back' (the quick reference)")
    if "title" in meta and not isinstance(meta["title"], str):
        issues.add(2, "title", "must be text")
    issues.raise_if_any()
    body_start = text.count("\n", 0, end + 4) + 1      # the line of the closing ---
    rest = text[end + 4:]
    if rest.startswith("\n"):                         # the body starts on the line after it
        rest = rest[1:]
        body_start += 1
    return meta, rest, body_start


class _SafeLinks:
    """Markdown tree processor: strips unsafe link targets and checks image files."""

    def __init__(self, check_image):
        self.check_image = check_image

    def run(self, root):
        for el in root.iter():
            if el.tag == "a":
                href = el.get("href", "")
                if not _safe_href(href):
                    el.attrib.pop("href", None)
            elif el.tag == "img":
                src = el.get("src", "")
                el.set("src", self.check_image(src))
        return root


def _safe_href(href: str) -> bool:
    href = href.strip()
    if href.startswith("#"):
        return True
    scheme = href.split(":", 1)[0].lower() if ":" in href else ""
    return scheme in SAFE_LINK_SCHEMES


def make_markdown(check_image):
    import markdown
    from markdown.treeprocessors import Treeprocessor

    md = markdown.Markdown(extensions=["tables", "sane_lists", "smarty", "def_list"],
                           output_format="html")
    # No raw HTML: the block and inline HTML handlers are removed, so "<script>" stays text and
    # is escaped on output.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")

    class SafeLinks(Treeprocessor):
        def run(self, root):
            return _SafeLinks(check_image).run(root)

    md.treeprocessors.register(SafeLinks(md), "cardgen-safe-links", 0)
    return md


def parse_chapter(path: Path, text: str, value_of, image_url, taken: set[str]) -> Chapter:
    """Split one chapter file into HTML blocks and placeholders."""
    meta, body, first_line = split_front_matter(text, path)
    lines = body.split("\n")
    title = meta.get("title")
    # The first "# Heading" is the chapter title (printed by the template, not in the body).
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        found = heading(line)
        if found:
            title = title or found
            lines[i] = ""
        break
    title = title or path.stem.split("-", 1)[-1].replace("-", " ").capitalize()
    issues = IssueList(path)
    values: list[str] = []

    def inline_value(m: re.Match, line_no: int) -> str:
        try:
            values.append(str(value_of(m.group(1))))
        except KeyError as exc:
            issues.add(line_no, None, f"[[value:{m.group(1)}]]: {exc.args[0]}")
            values.append("")
        return f"CGVALUE{len(values) - 1}X"

    images: list[tuple[str, int | None]] = []

    def check_image(src: str) -> str:
        # (Markdown keeps no line numbers: an image is on the first line that names its file.)
        where = next((first_line + i for i, ln in enumerate(lines) if src in ln), None)
        try:
            url = image_url(src)
        except ValueError as exc:
            issues.add(where, "image", f"{src}: {exc}")
            return ""
        images.append((url, where))
        return url

    md = make_markdown(check_image)
    blocks: list[Block] = []
    pending: list[str] = []

    def flush():
        if any(ln.strip() for ln in pending):
            html = md.reset().convert("\n".join(pending))
            html = re.sub(r"CGVALUE(\d+)X", lambda m: str(escape(values[int(m.group(1))])), html)
            blocks.append(Block(html=Markup(html)))
        pending.clear()

    for i, line in enumerate(lines):
        found = placeholder(line)
        if found and found[0] != "value":
            flush()
            blocks.append(Block(name=found[0], arg=found[1], line=first_line + i))
        else:
            text = VALUE_INLINE.sub(lambda mm, n=first_line + i: inline_value(mm, n), line)
            for name, arg, written in inline_placeholders(text):
                issues.add(first_line + i, written, misplaced(name, arg))
            pending.append(text)
    flush()
    issues.raise_if_any()
    chapter = Chapter(title=str(title), slug=slugify(str(title), taken), blocks=blocks, source=path,
                      order=meta.get("order", 0), page=meta.get("page"), images=images)
    for block in blocks:
        if block.html is not None:
            block.html = _number_headings(block.html, chapter, taken)
    return chapter


def misplaced(name: str, arg: str | None) -> str:
    """What to do about a placeholder written inside a sentence (it would print as written)."""
    if name == "value":
        return ("expects a path into game.yaml tables: letters, digits, _ and - joined by dots, "
                "like [[value:draft.rounds]]")
    fix = (f"to print one value inside a sentence, write [[value:{arg}]]" if name == "table" and arg
           else "put it on a line of its own")
    return f"a placeholder prints a block (a table, a list...) and must be alone on its line; {fix}"


def _number_headings(html: Markup, chapter: Chapter, taken: set[str]) -> Markup:
    """Give every h2 an id (for the contents and the PDF outline) and record it."""

    def repl(m: re.Match) -> str:
        inner = m.group(1)
        text = _strip_tags(inner)
        slug = slugify(f"{chapter.slug}-{text}", taken)
        chapter.sections.append((slug, text))
        return f'<h2 id="{slug}">{inner}</h2>'

    return Markup(re.sub(r"<h2>(.*?)</h2>", repl, str(html), flags=re.S))


def _strip_tags(markup: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", "", markup))
