"""Writing output safely (a reader never sees a half-written file), and reading back the small
JSON records cardgen keeps beside its outputs."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

# mkstemp makes files only their owner can read; output files get the usual mode instead.
_UMASK = os.umask(0)
os.umask(_UMASK)
_MODE = 0o666 & ~_UMASK


def write_atomic(path: Path, data: bytes | str) -> Path:
    """Write to a temporary file beside `path`, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_record(path: Path) -> dict:
    """A JSON mapping cardgen wrote earlier (a cache, stamps, a key): {} when it is missing or
    damaged, so the outputs it speaks for are made again."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class UnsafeFile(Exception):
    """A file cardgen will not read: why, in words for `file: message` (never its contents)."""


def read_confined(path: Path, root: Path | None, limit: int) -> bytes:
    """The bytes of `path`, read only when it is a regular file (not a FIFO, device or folder) of
    at most `limit` bytes and, links followed, lies inside `root` (when given). The size is checked
    before anything is read, and opening never blocks. Raises UnsafeFile or OSError."""
    path = Path(path)
    if root is not None:
        real = path.resolve()
        if not real.is_relative_to(Path(root).resolve()):
            raise UnsafeFile(f"is a link to a file outside {display_root(root)}: only the folder's "
                             "own files are read")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile("is not a regular file (a folder, pipe or device is never read)")
        if info.st_size > limit:
            raise UnsafeFile(f"is larger than {_size(limit)}")
        data = handle.read(limit + 1)
    if len(data) > limit:           # (it grew while being read)
        raise UnsafeFile(f"is larger than {_size(limit)}")
    return data


def display_root(root: Path) -> str:
    return "the game folder" if (Path(root) / "game.yaml").exists() else f"its folder ({Path(root).name}/)"


def _size(n: int) -> str:
    return f"{n // 2**20} MB" if n >= 2**20 else f"{n // 1024} KB"
