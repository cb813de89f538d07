"""What cardgen wrote in out/<game>/, so that outputs follow the cards.

Each command records, per scope (the card PNGs, the site, one TTS export, one proxy PDF...), the
files it wrote in out/<game>/.outputs.json. When a scope is written again, the files it wrote
before and no longer writes (a deleted or renamed card's PNG, page and thumbnail, a back no card
uses) are removed; a scope made for a deck file (a deck's PDFs, its TTS export) goes when that
file is gone. Nothing else is ever removed: a file cardgen did not record (a user's own file put
in out/<game>/cards/), a file another scope still lists, and any recorded path that leads outside
out/<game>/ are left alone.

    {"format": 1, "scopes": {"cards": {"files": ["backs/default.png", "cards/fire-bolt.png"]},
                             "sheets letter decks/red.yaml": {"files": ["red-letter.pdf"],
                                                              "deck": "decks/red.yaml"}}}
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from cardgen.fsutil import write_atomic
from cardgen.model import Game

RECORD = ".outputs.json"
FORMAT = 1


def remember(game: Game, root: Path, scopes: dict[str, list[Path]], deck: Path | None = None,
             complete: bool = True, earlier: dict[str, list[Path]] | None = None) -> list[Path]:
    """Record the files each of `scopes` wrote in `root` (out/<game>), and remove what they wrote
    before and no longer write (with `complete`; a partial run, such as `render --only`, only adds
    to them), and everything written for deck files that are gone. `earlier`: files a scope wrote
    before this record existed (a cache of an older cardgen lists them), taken as its record when it
    has none. Returns the files removed."""
    root = Path(root)
    with _locked(root):
        return _remember(game, root, scopes, deck, complete, earlier)


def _remember(game: Game, root: Path, scopes: dict[str, list[Path]], deck: Path | None,
              complete: bool, earlier: dict[str, list[Path]] | None) -> list[Path]:
    record = _read(root)
    before = json.dumps(record, sort_keys=True)
    paths = _Paths(root)
    owner = _deck_ref(game, deck) if deck is not None else None
    stale: set[str] = set()
    for scope, files in scopes.items():
        key = scope if owner is None else f"{scope} {owner}"
        if key in record:
            old = set(record[key]["files"])
        else:
            old = {rel for rel in map(paths.relative, (earlier or {}).get(scope, ())) if rel}
        new = {rel for rel in map(paths.relative, files) if rel is not None}
        if complete:
            stale |= old - new
        else:
            new |= old
        record[key] = {"files": sorted(new)} | ({"deck": owner} if owner is not None else {})
    for key, entry in list(record.items()):
        if "deck" in entry and not _deck_exists(game, entry["deck"]):
            stale |= set(entry["files"])
            del record[key]
    wanted = {rel for entry in record.values() for rel in entry["files"]}
    removed = [path for path in (paths.inside(rel) for rel in sorted(stale - wanted))
               if path is not None and _remove(path)]
    if json.dumps(record, sort_keys=True) != before or not (root / RECORD).is_file():
        write_atomic(root / RECORD, json.dumps({"format": FORMAT, "scopes": record}, indent=1,
                                               ensure_ascii=False, sort_keys=True) + "\n")
    return removed


@contextmanager
def _locked(root: Path):
    """The record to this process alone for the block: `cardgen build` runs a game's stages in
    several processes at once, and two read-modify-writes of the record at once lost one's files
    (never removed when their card went). An advisory lock on out/<game> itself, so that no lock
    file is left behind; where there is no flock (Windows), stages do not run side by side."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    root.mkdir(parents=True, exist_ok=True)
    folder = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        yield
    finally:
        os.close(folder)        # (closing it releases the lock)


def _read(root: Path) -> dict[str, dict]:
    """The record's scopes; anything damaged or unknown in it counts as never written."""
    try:
        data = json.loads((root / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("scopes"), dict):
        return {}
    scopes = {}
    for key, entry in data["scopes"].items():
        if isinstance(entry, dict) and isinstance(entry.get("files"), list):
            files = [f for f in entry["files"] if isinstance(f, str)]
            deck = entry.get("deck")
            scopes[key] = {"files": files} | ({"deck": deck} if isinstance(deck, str) else {})
    return scopes


class _Paths:
    """Paths inside root as the record holds them. Each folder is resolved once: a render records
    some hundreds of files in a few folders, and resolving every file's whole path took 0.18 s."""

    def __init__(self, root: Path):
        self.root, self.real_root = root, root.resolve()
        self._folders: dict[Path, Path] = {}

    def relative(self, path: Path) -> str | None:
        """`path` as recorded: relative to root, in / form; None for a path outside root."""
        path = Path(path)
        if path.name in ("", "..") or path.is_symlink():
            real = path.resolve()
        else:
            folder = self._folders.get(path.parent)
            if folder is None:
                folder = self._folders[path.parent] = path.parent.resolve()
            real = folder / path.name
        try:
            return real.relative_to(self.real_root).as_posix()
        except ValueError:
            return None

    def inside(self, rel: str) -> Path | None:
        """The file a recorded path names, or None when it would lead outside root (a record edited
        by hand, a folder replaced by a link elsewhere): such a path is never touched."""
        parts = PurePosixPath(rel).parts
        if not parts or PurePosixPath(rel).is_absolute() or ".." in parts or "\\" in rel or ":" in rel:
            return None
        path = self.root.joinpath(*parts)
        return path if self.relative(path) == rel else None


def _remove(path: Path) -> bool:
    if path.is_symlink() or not path.is_file():
        return False        # cardgen writes plain files only: anything else is not its own
    path.unlink()
    return True


def _deck_ref(game: Game, deck: Path) -> str:
    """A deck file as recorded: relative to the game folder when inside it (the folder may move)."""
    deck = Path(deck).resolve()
    try:
        return deck.relative_to(game.folder.resolve()).as_posix()
    except ValueError:
        return str(deck)


def _deck_exists(game: Game, ref: str) -> bool:
    return (game.folder / ref).is_file()     # (an absolute ref replaces the folder)
