"""The painters keep what they read from files in memory for the life of the process (a font's
tables and glyphs, an image scaled to its box): a file saved again while the process lives
(`cardgen watch`, a test that builds twice) must not be drawn from that memory.

Each cache says which files it read (`seen`) and how to empty itself (`on_change`);
`forget_changed`, called whenever a game's layouts are loaded, empties them all when one of those
files is no longer the version that was read. That happens rarely, so it costs a stat per file
read, once per load, and nothing per card.
"""

from __future__ import annotations

import os
from collections.abc import Callable

_SEEN: dict[str, tuple] = {}
_CLEARERS: list[Callable[[], None]] = []


def _version(path: str) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return ()
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def seen(path) -> None:
    """A cache has just read this file."""
    _SEEN.setdefault(str(path), _version(str(path)))


def on_change(clear: Callable[[], None]) -> None:
    """Register how a cache is emptied."""
    _CLEARERS.append(clear)


def forget_changed() -> bool:
    """Empty every cache when a file one of them read has changed since; True when it did."""
    if all(_version(path) == version for path, version in _SEEN.items()):
        return False
    for clear in _CLEARERS:
        clear()
    _SEEN.clear()
    return True
