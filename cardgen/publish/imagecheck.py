"""Whether a file handed to WeasyPrint as an image can be printed whole.

WeasyPrint does not stop at an image it cannot read: it logs a warning and prints the alt text
instead, and a truncated PNG comes out half black. So an image is decoded here, in full, before it
is handed over, and a failure is an error naming the chapter line that asked for it.
"""

from __future__ import annotations

import io
from pathlib import PurePath

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff",
                            ".svg"})
UNREADABLE = "cannot be read as an image"


def is_image_name(path: PurePath) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES


def image_problem(data: bytes, name: PurePath) -> str | None:
    """Why these bytes cannot be printed as an image, in words for `file: message`; None if they can.
    Like WeasyPrint: a .svg name is read as SVG, anything else as a raster image, then as SVG."""
    if not data:
        return f"{UNREADABLE}: the file is empty"
    if name.suffix.lower() == ".svg":
        return _svg_problem(data)
    raster = _raster_problem(data)
    if raster is None or _svg_problem(data) is None:
        return None
    return raster


def _raster_problem(data: bytes) -> str | None:
    from PIL import Image, UnidentifiedImageError

    from cardgen.render.art import strict_decoding

    try:
        with strict_decoding(), Image.open(io.BytesIO(data)) as image:
            image.load()                          # every pixel: a cut-short file fails here
    except UnidentifiedImageError:
        return f"{UNREADABLE}: it is not in an image format (save it as PNG, JPEG or SVG)"
    except Image.DecompressionBombError:
        return f"{UNREADABLE}: it has more than {2 * Image.MAX_IMAGE_PIXELS:,} pixels"
    except Exception as exc:                      # noqa: BLE001 (any decoder failure: unreadable)
        if "truncated" in str(exc):
            return f"{UNREADABLE}: the file is cut short (save or copy it again)"
        return f"{UNREADABLE}: {exc}"
    return None


def _svg_problem(data: bytes) -> str | None:
    from xml.etree import ElementTree

    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        return f"{UNREADABLE}: it is not well-formed SVG ({exc})"
    if not str(root.tag).endswith("svg"):
        return f"{UNREADABLE}: it is XML but not SVG"
    return None
