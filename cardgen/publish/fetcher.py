"""The only way WeasyPrint reads a file while cardgen publishes: a fetcher confined to a few folders.

Served: files inside the game folder, templates/ and fonts/ (after resolving symlinks, so a link
that points outside is refused like any other outside path), plus files cardgen itself generated
for this document and registered by path. Refused: http, https, ftp, data and every other scheme,
file: paths outside those folders, missing files, folders, and a file named as an image that does
not decode as one (WeasyPrint would print the alt text, or half a truncated PNG). A refusal stops
the build with a ContentError that names the content file (and line) the URL came from, so the CLI
prints it and exits 2.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import UnsafeFile, read_confined
from cardgen.publish.imagecheck import image_problem, is_image_name

MAX_FETCHED_BYTES = 64 * 1024 * 1024      # an image, a font or a stylesheet


class FetchRefused(BaseException):
    """Raised inside WeasyPrint's layout to stop it at once (WeasyPrint swallows Exceptions).

    BaseException on purpose: WeasyPrint turns ordinary exceptions from a fetcher into a logged
    warning and carries on with a missing image, which would hide the problem.
    """

    def __init__(self, issue: Issue):
        super().__init__(str(issue))
        self.issue = issue


class ConfinedFetcher:
    """Callable WeasyPrint URL fetcher. Build one per document.

    `sources` maps a URL (as written in the HTML) to the content file that wrote it, so a refusal
    can say where to look; anything else is blamed on `default_source`.
    """

    def __init__(self, roots: list[Path], default_source: Path | None = None,
                 extra_files: list[Path] | None = None):
        self.roots = [Path(r).resolve() for r in roots]
        self.extra = {Path(p).resolve() for p in extra_files or []}
        self.default_source = default_source
        self.sources: dict[str, tuple[Path | None, int | None]] = {}
        self.fetched: list[Path] = []
        self._impl = None

    # WeasyPrint 70 wants an object with the URLFetcher interface; build it lazily so this module
    # imports without WeasyPrint (the Markdown checks use `check_local_path` on their own).
    def weasyprint_fetcher(self):
        if self._impl is None:
            try:
                from weasyprint.urls import URLFetcher, URLFetcherResponse
            except ImportError:             # WeasyPrint 67 or older, installed past pyproject's floor
                from importlib.metadata import version

                raise ContentError([Issue(None, None, None, (
                    f"WeasyPrint {version('weasyprint')} has no weasyprint.urls.URLFetcher, which "
                    "cardgen needs to print rulebooks: install WeasyPrint 68 or later "
                    "(pip install 'weasyprint>=68,<71')"))]) from None

            outer = self

            class _Fetcher(URLFetcher):
                def fetch(self, url, headers=None):
                    path, data = outer.read(url)
                    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                    return URLFetcherResponse(path.as_uri(), data, {"Content-Type": mime})

            self._impl = _Fetcher(fail_on_errors=True)
        return self._impl

    def read(self, url: str) -> tuple[Path, bytes]:
        """The file a URL names and its bytes, or FetchRefused; an image is decoded in full first."""
        path = self.resolve_url(url)
        try:
            data = read_confined(path, None, MAX_FETCHED_BYTES)
        except (UnsafeFile, OSError) as exc:
            self.refuse(url, getattr(exc, "strerror", None) or str(exc))
        self.fetched.append(path)
        problem = image_problem(data, path) if is_image_name(path) else None
        if problem:
            raise FetchRefused(self.image_issue(url, problem))
        return path, data

    def refuse(self, url: str, why: str):
        source, line = self.sources.get(url, (self.default_source, None))
        raise FetchRefused(Issue(source, line, None, f"refused to load {url!r}: {why}"))

    def image_issue(self, url: str, problem: str) -> Issue:
        """`chapter.md:LINE: image: art/map.png: problem` for an image that cannot be printed."""
        source, line = self.sources.get(url, (self.default_source, None))
        return Issue(source, line, "image", f"{self.shown(url)}: {problem}")

    def shown(self, url: str) -> str:
        """A file URL as the designer wrote it: relative to the game folder when inside it."""
        path = Path(unquote(urlsplit(url).path))
        game = self.roots[0] if self.roots else None
        return path.relative_to(game).as_posix() if game and path.is_relative_to(game) else str(path)

    def resolve_url(self, url: str) -> Path:
        """The local file a URL names, or FetchRefused."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme != "file":
            what = {"http": "web addresses are never fetched (building works offline)",
                    "https": "web addresses are never fetched (building works offline)",
                    "data": "data: URLs are not accepted; put the file in the game folder"}
            self.refuse(url, what.get(scheme, f"the {scheme or 'empty'} scheme is not allowed; "
                                              "use a path inside the game folder"))
        if parts.netloc not in ("", "localhost"):
            self.refuse(url, "file URLs on another host are not allowed")
        path = Path(unquote(parts.path))
        problem = self.check_local_path(path)
        if problem:
            self.refuse(url, problem)
        return path.resolve()

    def check_local_path(self, path: Path) -> str | None:
        """Why this local path may not be read, or None when it may."""
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            return "the path cannot be resolved"
        inside = real in self.extra or any(real.is_relative_to(root) for root in self.roots)
        if not inside:
            if real != Path(os.path.abspath(path)):
                return f"it is a link to {real}, outside the game folder, templates/ and fonts/"
            return "outside the game folder, templates/ and fonts/"
        if real.is_dir():
            return "is a folder, not a file"
        if not real.exists():
            return "no such file"
        if not real.is_file():
            return "is not a regular file (a pipe or device is never read)"
        return None


def as_content_error(exc: FetchRefused) -> ContentError:
    return ContentError([exc.issue])
