"""When a library no longer has a private interface a fast path of cardgen's uses, cardgen draws
through the library's public API instead and says so in one line on stderr, once per process.

pyproject.toml bounds Pillow and ReportLab below their next major version for this reason; the
fallback is for an install that got past the bound (or a minor release that changed an internal).
"""

from __future__ import annotations

import sys
import threading

_SAID: set[str] = set()
_LOCK = threading.Lock()         # (cardgen watch builds beside other threads)


def notice(library: str, interface: str, exc: BaseException | None = None) -> None:
    """One line on stderr, the first time `library` falls back in this process."""
    with _LOCK:
        if library in _SAID:
            return
        _SAID.add(library)
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version(library)
    except PackageNotFoundError:
        found = "?"
    why = f" ({type(exc).__name__}: {exc})" if exc is not None else ""
    print(f"cardgen: {library} {found} has no usable {interface}{why}; drawing through its public "
          f"API instead (slower, same output)", file=sys.stderr, flush=True)
