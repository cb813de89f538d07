"""What cardgen prints reaches a terminal: names and messages from a stranger's game folder must
not carry control sequences (ESC [ ... can rewrite the screen, retitle the window or hide text).
Every line cardgen prints goes through `safe_text`, which shows such characters as escapes."""

from __future__ import annotations

import re
import sys

# C0 controls but tab, newline and carriage return (cardgen's own progress bars use \r), DEL, the
# C1 controls, and the bidirectional overrides and isolates (text that reads backwards on screen).
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def safe_text(text: str) -> str:
    return _UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                       else f"\\u{ord(m.group()):04x}", text)


class SafeStream:
    """A text stream that writes through `safe_text`; everything else is the wrapped stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(safe_text(text))
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def guard_output() -> None:
    """Make sys.stdout and sys.stderr safe for the rest of the command."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, SafeStream):
            setattr(sys, name, SafeStream(stream))
