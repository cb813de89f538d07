"""Where the bundled games, templates and fonts are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding content/, templates/ and fonts/.

    An installed wheel carries them in cardgen/_data; a checkout (or editable install) has them
    beside the package.
    """
    bundled = _PACKAGE / "_data"
    return bundled if (bundled / "content").is_dir() else _PACKAGE.parent


def content_dir() -> Path:
    return data_root() / "content"


def templates_dir() -> Path:
    return data_root() / "templates"


def fonts_dir() -> Path:
    return data_root() / "fonts"


def bundled_game_ids() -> list[str]:
    root = content_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())


def resolve_game_folder(ref: str, relative_to: Path | None = None) -> Path | None:
    """A game id names a bundled game; anything else is a folder path (relative to `relative_to`).

    Returns None when nothing matches.
    """
    candidates = []
    if "/" not in ref and "\\" not in ref and ref not in (".", ".."):
        candidates.append(content_dir() / ref)
    path = Path(ref).expanduser()
    if not path.is_absolute() and relative_to is not None:
        candidates.append(relative_to / path)
    candidates.append(path)
    for candidate in candidates:
        if candidate.is_file() and candidate.name == "game.yaml":
            return candidate.parent
        if (candidate / "game.yaml").is_file():
            return candidate
    return None
