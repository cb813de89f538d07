"""HTML through Jinja2 (sandboxed, autoescaped) and WeasyPrint, with every file read confined."""

from __future__ import annotations

import logging
import os
import zlib
from pathlib import Path

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import UnsafeFile, read_confined, write_atomic
from cardgen.model import Game
from cardgen.paths import fonts_dir, templates_dir
from cardgen.publish.fetcher import MAX_FETCHED_BYTES, ConfinedFetcher, FetchRefused
from cardgen.publish.imagecheck import UNREADABLE

PAPER = {"a5": "148mm 210mm", "a4": "210mm 297mm", "letter": "8.5in 11in",
         "half-letter": "5.5in 8.5in"}


# Cover and heading colours: (accent, dark, light, faint). A game whose layouts.yaml gives no
# colour strong enough for a cover gets one of these by its id.
PALETTES = [
    ("#9b2226", "#6a1518", "#d9a3a5", "#f7ecec"),   # lacquer red
    ("#1d4e89", "#12345c", "#9fb8d8", "#edf2f8"),   # indigo
    ("#2d6a4f", "#1b4332", "#a7cbb8", "#edf5f0"),   # pine
    ("#7b2cbf", "#521d80", "#c8a6e6", "#f4eefa"),   # violet
    ("#b5651d", "#7f4513", "#e2bf9c", "#faf2ea"),   # copper
    ("#005f73", "#003f4d", "#94c5cf", "#e9f3f5"),   # teal
]
def palette(game: Game) -> dict:
    """The game's own colours (cardgen.publish.colours), else a stock palette chosen by its id."""
    from cardgen.publish.colours import game_palette

    own = game_palette(game)
    if own:
        return own
    accent, dark, light, faint = PALETTES[zlib.crc32(game.id.encode()) % len(PALETTES)]
    return {"accent": accent, "accent_dark": dark, "accent_light": light, "accent_faint": faint}


MAX_TEMPLATE_BYTES = 1024 * 1024


def _confined_loader(folder: Path, root: Path):
    """A Jinja loader of the templates in `folder` that reads only regular files inside `root`: a
    link out of it, a pipe or a device is an error naming the file, never read (a game folder's
    templates/ is a stranger's)."""
    import posixpath

    from jinja2 import FileSystemLoader
    from jinja2.loaders import split_template_path

    class ConfinedLoader(FileSystemLoader):
        def get_source(self, environment, template):
            pieces = split_template_path(template)
            filename = posixpath.join(str(folder), *pieces)
            if not os.path.lexists(filename):
                return super().get_source(environment, template)     # (its "not found")
            try:
                source = read_confined(Path(filename), root, MAX_TEMPLATE_BYTES).decode("utf-8")
            except UnsafeFile as exc:
                raise ContentError([Issue(Path(filename), None, None, f"this template {exc}")]) from None
            except (OSError, UnicodeDecodeError) as exc:
                raise ContentError([Issue(Path(filename), None, None,
                                          f"cannot read this template: {exc}")]) from None
            mtime = os.path.getmtime(filename)
            return source, os.path.normpath(filename), lambda: os.path.getmtime(filename) == mtime

    return ConfinedLoader(str(folder))


def jinja_env(game: Game):
    """Templates: the game's own templates/ folder first, then cardgen's templates/."""
    from jinja2 import ChoiceLoader
    from jinja2.sandbox import SandboxedEnvironment

    loaders = []
    own = game.folder / "templates"
    if own.is_dir():
        loaders.append(_confined_loader(own, game.folder))
    loaders.append(_confined_loader(templates_dir(), templates_dir()))
    env = SandboxedEnvironment(loader=ChoiceLoader(loaders), autoescape=True, trim_blocks=True,
                               lstrip_blocks=True)
    return env


def render_template(game: Game, name: str, context: dict) -> str:
    from jinja2 import TemplateError

    env = jinja_env(game)
    try:
        return env.get_template(name).render(**context)
    except TemplateError as exc:
        where = getattr(exc, "filename", None) or name
        raise ContentError([Issue(Path(where), getattr(exc, "lineno", None), None,
                                  f"template error: {exc.message or exc}")]) from None


def base_context(game: Game, paper: str) -> dict:
    return {"game": game, "meta": game.meta, "fonts_url": fonts_dir().resolve().as_uri(),
            "page_size": PAPER.get(paper, paper), "paper": paper}


class _Quiet(logging.Filter):
    """WeasyPrint logs unsupported CSS and the like as warnings; keep them out of the CLI output."""

    def filter(self, record):
        return record.levelno >= logging.ERROR


class _UnprintedImages(logging.Handler):
    """The images WeasyPrint could not draw during one render: it logs each and prints the alt text
    in its place. The fetcher decodes every file named as an image before handing it over; this
    catches the rest (an image named .txt, an SVG that parses but will not draw)."""

    MESSAGES = ("Failed to load image at", "Failed to render SVG image")

    def __init__(self):
        super().__init__(logging.ERROR)
        self.urls: list[str] = []

    def emit(self, record):
        if str(record.msg).startswith(self.MESSAGES) and record.args:
            self.urls.append(str(record.args[0]))


# 2: images are decoded before printing (a PDF stamped by format 1 may hold a broken one)
KEY_FORMAT = 2


def document_key(html: str, fetcher: ConfinedFetcher) -> str:
    """Everything a PDF depends on: the HTML (chapters, data and CSS are all in it) and the bytes
    of every local file it names (fonts, images), each read through the fetcher's checks."""
    import hashlib
    import re

    from cardgen import __version__

    digest = hashlib.sha256(f"cardgen {__version__} key {KEY_FORMAT}\n".encode())
    digest.update(html.encode())
    for url in sorted(set(re.findall(r"file://[^\s\"')]+", html))):
        try:
            digest.update(read_confined(fetcher.resolve_url(url), None, MAX_FETCHED_BYTES))
        except (FetchRefused, UnsafeFile, OSError):
            digest.update(b"refused")      # the real build will report it
    return digest.hexdigest()


def write_pdf(html: str, out_path: Path, game: Game, fetcher: ConfinedFetcher,
              title: str, use_cache: bool = True) -> tuple[Path, int]:
    """Lay out and write one PDF atomically; returns (path, page count).

    When nothing the PDF depends on changed since the last build, the PDF on disk is kept.
    """
    stamp = out_path.with_name(f".{out_path.name}.key")
    key = document_key(html, fetcher) if use_cache else None
    if key and out_path.is_file() and stamp.is_file():
        saved = stamp.read_text().split()
        if len(saved) == 2 and saved[0] == key and saved[1].isdigit():
            return out_path, int(saved[1])
    document = _layout(html, game, fetcher)
    data = document.write_pdf(pdf_identifier=f"cardgen-{game.id}-{title}".encode(), uncompressed_pdf=False)
    path = write_atomic(out_path, data)
    if key:
        write_atomic(stamp, f"{key} {len(document.pages)}\n")
    return path, len(document.pages)


def page_count(html: str, game: Game, fetcher: ConfinedFetcher) -> int:
    """How many pages `html` lays out to (a booklet pads to a multiple of 4 from it)."""
    return len(_layout(html, game, fetcher).pages)


def _layout(html: str, game: Game, fetcher: ConfinedFetcher):
    """WeasyPrint's laid-out document; a refused file or an image it cannot draw is a ContentError."""
    import weasyprint

    logger = logging.getLogger("weasyprint")
    if not any(isinstance(f, _Quiet) for f in logger.filters):
        logger.addFilter(_Quiet())
    unprinted = _UnprintedImages()
    logger.addHandler(unprinted)
    try:
        document = weasyprint.HTML(string=html, base_url=game.folder.resolve().as_uri() + "/",
                                   url_fetcher=fetcher.weasyprint_fetcher()).render()
    except FetchRefused as exc:
        raise ContentError([exc.issue]) from None
    except BaseException as exc:   # WeasyPrint's FatalURLFetchingError is a BaseException
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, FetchRefused):
            raise ContentError([cause.issue]) from None
        if type(exc).__name__ == "FatalURLFetchingError":
            raise ContentError([Issue(fetcher.default_source, None, None, str(exc))]) from None
        raise
    finally:
        logger.removeHandler(unprinted)
    if unprinted.urls:
        raise ContentError([fetcher.image_issue(url, f"{UNREADABLE} (WeasyPrint could not draw it)")
                            for url in dict.fromkeys(unprinted.urls)])
    return document


def make_fetcher(game: Game, default_source: Path | None, extra_files=()) -> ConfinedFetcher:
    return ConfinedFetcher([game.folder, templates_dir(), fonts_dir()], default_source,
                           list(extra_files))
