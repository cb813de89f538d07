"""The deflate that card PNGs and proxy-sheet PDF streams are packed with: zlib-ng's where it is
installed (the `fast` extra), else Python's zlib.

Either gives the same bytes for the same pixels every time, so a build repeated from the same
inputs writes the same files. ISA-L's (isal, the extra before) is faster still but does not: in
bench/png_determinism.py, 8 of 20 processes that drew every bundled card four times wrote some
card's PNG as other bytes than its first drawing (44 of 32,960 drawings), pixels identical.
"""

from __future__ import annotations

import zlib

try:
    from zlib_ng import zlib_ng as deflater
except ImportError:                     # pragma: no cover - zlib-ng has wheels for the usual platforms
    deflater = zlib

# Card PNGs: zlib-ng's level 2 packs cards about as small as zlib's level 1, at about 3x its
# speed (its level 1 is faster again but 20% larger).
PNG_LEVEL = 2 if deflater is not zlib else 1
