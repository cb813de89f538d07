"""Writing output safely (a reader never sees a half-written file), and reading back the small
JSON records cardgen keeps beside its outputs."""

from __future__ import annotations

import json
import os
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
