"""What the Tabletop Simulator export's decks (tts.py) and component tiles (tts_tiles.py) share:
the limits of its images, how a face is painted cut at its trim, how images are encoded, and the
objects' ids."""

from __future__ import annotations

import hashlib
import io

MAX_PX, MAX_DPI = 4096, 300         # TTS's largest image side; no finer than print


def painted_at_trim(face, size: tuple[int, int], dpi: float):
    """The face painted at `dpi`, cut at its trim to `size` px (the trim rounded, never beyond it)."""
    from cardgen.render.paint_png import paint_png

    image = paint_png(face, dpi)
    edge = round(face.bleed * dpi / 25.4)
    return image.crop((edge, edge, edge + size[0], edge + size[1]))


def encode(image, fmt: str) -> bytes:
    buf = io.BytesIO()
    if fmt == "png":
        image.save(buf, "PNG", optimize=False, compress_level=6)
    else:
        image.save(buf, "JPEG", quality=90, subsampling=0)
    return buf.getvalue()


def guid(*parts) -> str:
    """A TTS object's GUID, the same for the same parts in every export."""
    return hashlib.sha256("\x00".join(map(str, parts)).encode()).hexdigest()[:6]
