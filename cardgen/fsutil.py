"""Writing output safely (a reader never sees a half-written file), and reading back the small
JSON records cardgen keeps beside its outputs."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import stat
import time
from pathlib import Path

# A temporary file names the process writing it: .NAME.PID-RANDOM.tmp
_TEMP = re.compile(r"\..+\.(?P<pid>[0-9]+)-[0-9a-f]{16}\.tmp")
STALE_SECONDS = 60          # a writer renames its temporary file within moments of making it
_WRITING: set[Path] = set()     # the temporary files this process is writing now
_SWEPT: set[Path] = set()       # folders already rid of stale temporary files
if hasattr(os, "register_at_fork"):     # (a forked child's are its own, never its parent's)
    os.register_at_fork(after_in_child=_WRITING.clear)


def write_atomic(path: Path, data: bytes | str, replace: bool = True) -> Path:
    """Write to a temporary file beside `path`, then rename it into place. Interrupted at any
    moment (Ctrl-C, a full disk), it leaves no temporary file: its name is known, and listed in
    _WRITING for a worker stopped by its parent, before the file exists.

    replace=False: a file the user named, which must be new. The finished file is linked into
    place, which fails (FileExistsError) if one appeared there at any time, even after a check."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    _sweep_stale_temps(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(8)}.tmp")
    _WRITING.add(tmp)
    try:
        # 'x': a new file, with the usual mode (one of that name, which only a dead process with
        # this one's number could have left, is an error here, and is removed below)
        with open(tmp, "xb") as handle:
            handle.write(data)
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
            tmp.unlink(missing_ok=True)     # (gone already where it was renamed instead)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.filename is None:    # a failed write names no file (a full disk, a size limit)
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        _WRITING.discard(tmp)
    return path


def _link_new(tmp: Path, path: Path) -> None:
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:     # a file system without hard links: the check, then the rename
        if path.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(tmp, path)


def write_user_file(path: Path, data: bytes | str) -> Path:
    """Write a file the user named on the command line, which must be new: cardgen never replaces
    a user's file. One that exists is a ContentError naming it."""
    from cardgen.errors import ContentError, Issue

    try:
        return write_atomic(path, data, replace=False)
    except FileExistsError:
        raise ContentError([Issue(path, None, None, "already exists; choose another name or remove "
                                                    "it")]) from None


def discard_unfinished() -> None:
    """Remove the temporary files this process is writing (it is being stopped)."""
    for tmp in list(_WRITING):
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def _sweep_stale_temps(folder: Path) -> None:
    """Once per folder and process: remove the temporary files a writer left there when it was
    killed outright (kill -9, a power cut), which no rename will ever claim: those whose process
    is gone and that have not changed for STALE_SECONDS (a writer elsewhere, in a container
    sharing the folder, may have a number this machine does not run)."""
    if folder in _SWEPT:
        return
    _SWEPT.add(folder)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        with contextlib.suppress(OSError):      # (gone already, or not ours to remove)
            if _orphan(entry.name) and now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS:
                os.unlink(entry.path)


def remove_orphan_temps(root: Path, depth: int = 4) -> None:
    """Remove the temporary files whose writer is gone in `root` and its folders, `depth` deep
    (cardgen's outputs lie at most three below --out; a --out of ~ is not searched whole): on
    Ctrl-C, once the workers are stopped (a pool's end outright, in the middle of a write)."""
    top = len(Path(root).parts)
    for folder, dirs, files in os.walk(root):
        if len(Path(folder).parts) - top >= depth:
            dirs.clear()
        for name in files:
            if _orphan(name):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(folder, name))


def _orphan(name: str) -> bool:
    """Whether `name` is a temporary file of write_atomic's whose writer is not running."""
    match = _TEMP.fullmatch(name)
    return match is not None and not _running(int(match["pid"]))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):    # another user's process (EPERM), or not a process number
        return True
    try:                                # a zombie has ended: it only waits to be reaped
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):       # (no /proc: not Linux)
        return True


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


def read_user_bytes(path: Path, root: Path | None, limit: int, *, label: str = "this file") -> bytes:
    """A designer's file, read as read_confined reads it; each refusal a ContentError naming the
    file, `label` starting the message for one not read at all."""
    from cardgen.errors import ContentError, Issue

    try:
        return read_confined(path, root, limit)
    except UnsafeFile as exc:
        raise ContentError([Issue(path, None, None, f"{label} {exc}")]) from None
    except OSError as exc:
        raise ContentError([Issue(path, None, None, f"cannot read file: {exc.strerror}")]) from None


def read_user_text(path: Path, root: Path | None, limit: int, *, label: str = "this file",
                   encoding_hint: str = "") -> str:
    """A designer's text file (YAML, a chapter, a deck list), read as read_confined reads it and
    decoded as UTF-8 (a byte-order mark, which some editors write, is dropped). Each refusal is a
    ContentError naming the file: `label` starts the message for a file not read at all, and a
    file that is not UTF-8 text is reported at the line of its first bad byte."""
    from cardgen.errors import ContentError, Issue

    raw = read_user_bytes(path, root, limit, label=label)
    if b"\0" in raw:
        raise ContentError([Issue(path, None, None, "not a text file (it contains NUL bytes)")])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentError([Issue(path, line, None, f"not UTF-8 text{encoding_hint}")]) from None


def display_root(root: Path) -> str:
    return "the game folder" if (Path(root) / "game.yaml").exists() else f"its folder ({Path(root).name}/)"


def _size(n: int) -> str:
    return f"{n // 2**20} MB" if n >= 2**20 else f"{n // 1024} KB"
