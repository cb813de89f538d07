"""Card art: the picture files `image:` elements draw, read like every other file of a game folder
(a regular file, its size checked before it is read) and decoded at most once per card.

A picture is a PNG, JPEG, WebP (GIF, BMP, TIFF too) or an SVG drawing, known by its content
whatever its name ends in; SVG is checked and drawn by cardgen.render.svg. A file that is not a
picture cardgen can draw is an ArtError whose words fit `file: message`: text saved as .png, an
empty or cut-short file, an SVG that refers outside itself, a picture too large to decode
safely. The layout checks every picture when it places it, so the card that shows a broken one
fails with its name and the others are drawn.
"""

from __future__ import annotations

import io
from contextlib import contextmanager
from functools import lru_cache

from cardgen.fsutil import UnsafeFile, read_confined
from cardgen.render import filecache

MAX_ART_BYTES = 100 << 20
# Decoded, a picture takes 4 bytes a pixel: 50 megapixels is 200 MB. A poker card at 300 dpi, bleed
# included, is 825 x 1125 pixels (under 1 megapixel); Pillow's own bomb warning starts at 89.
MAX_ART_PIXELS = 50_000_000
FORMATS = ("PNG", "JPEG", "GIF", "BMP", "TIFF", "WEBP")     # what Pillow is asked to read; no rarer codec


class ArtError(Exception):
    """A picture that cannot be drawn: why, in words that follow its file name."""


def check_art(path: str, shown_px: tuple[int, int] | None = None, fit: str = "contain") -> None:
    """Raise ArtError unless `path` is a picture cardgen can draw (decoding it: a cut-short file
    is found only then), and an SVG can be drawn in good time in a box of `shown_px` pixels. The
    picture stays decoded for the painter that draws it next."""
    svg = load_svg(path)
    if svg is None:
        load_art(path)
    elif shown_px is not None:
        from cardgen.render.svg import raster_size

        problem = svg.drawing_problem(*raster_size(svg, *shown_px, fit))
        if problem:
            raise ArtError(problem)


@lru_cache(maxsize=64)      # (a few drawings: art and the game's inline icons)
def load_svg(path: str):
    """The SVG drawing at `path`, checked (cardgen.render.svg.CleanSvg), or None when the file is
    not SVG. Raises ArtError."""
    from cardgen.render.svg import SvgError, clean_svg, looks_like_svg

    filecache.seen(path)
    data = _read(path)
    if not looks_like_svg(data):
        return None
    try:
        return clean_svg(data)
    except SvgError as exc:
        raise ArtError(str(exc)) from None


def art_size(path: str) -> tuple[float, float]:
    """A picture's width and height (pixels; an SVG's in CSS px), for its shape. Raises ArtError."""
    svg = load_svg(path)
    return (svg.width, svg.height) if svg is not None else load_art(path).size


@lru_cache(maxsize=2)       # the card being drawn: its layout checks the picture, its painter draws it
def load_art(path: str):
    """The raster picture at `path`, decoded, as RGBA. Raises ArtError."""
    filecache.seen(path)
    data = _read(path)
    image = _open(data)
    try:
        with strict_decoding():
            image.load()
    except Exception as exc:    # Pillow's decoders fail in assorted ways (OSError, SyntaxError...)
        raise ArtError(f"is damaged or cut short ({_words(exc)}): save it again as PNG or JPEG") from None
    return image.convert("RGBA")


@contextmanager
def strict_decoding():
    """Pillow fails on a cut-short file, within. WeasyPrint, once imported, tells Pillow to pad
    such files with black for the whole process (`cardgen build` makes a rulebook, then cards)."""
    from PIL import ImageFile

    lenient, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, False
    try:
        yield
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient


def tinted(img, colour):
    """The picture's silhouette in one colour: its alpha (times the colour's) as the mask."""
    from PIL import Image, ImageChops

    alpha = img.getchannel("A")
    if colour[3] != 255:
        alpha = ImageChops.multiply(alpha, Image.new("L", img.size, colour[3]))
    out = Image.new("RGBA", img.size, tuple(colour[:3]) + (0,))
    out.putalpha(alpha)
    return out


def art_bytes(path: str) -> bytes:
    """The file's bytes, for a painter that decodes them itself (the PDF's keeps JPEG as it is)."""
    return _read(path)


def _read(path: str) -> bytes:
    try:
        data = read_confined(path, None, MAX_ART_BYTES)
    except UnsafeFile as exc:
        raise ArtError(str(exc)) from None
    except IsADirectoryError:
        raise ArtError("is a folder, not a picture") from None
    except OSError as exc:
        raise ArtError(f"cannot be read ({exc.strerror or exc})") from None
    if not data:
        raise ArtError("is empty (0 bytes): save the picture again as PNG or JPEG")
    return data


def _open(data: bytes):
    """The picture's header read and its size checked, before any pixel is decoded."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ArtError(_too_large()) from None
    except UnidentifiedImageError:
        raise ArtError(_not_a_picture(data)) from None
    except Exception as exc:    # a header a decoder could not make sense of
        raise ArtError(f"is damaged ({_words(exc)}): save it again as PNG or JPEG") from None
    width, height = image.size
    if width * height > MAX_ART_PIXELS:
        raise ArtError(_too_large(f" ({width:,} x {height:,})"))
    return image


def _too_large(size: str = "") -> str:
    return (f"is too large{size}: art may have at most {MAX_ART_PIXELS // 1_000_000} megapixels "
            "(a poker card at 300 dpi, bleed included, is 825 x 1,125 pixels); scale it down")


def _not_a_picture(data: bytes) -> str:
    kind = " (it holds text)" if _is_text(data[:1024]) else ""
    return f"is not a picture{kind}: art is a PNG, JPEG, WebP, SVG, GIF, BMP or TIFF file"


def _is_text(head: bytes) -> bool:
    import codecs

    try:        # (the slice may end inside a character: not final)
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return b"\0" not in head


def _words(exc: Exception) -> str:
    return str(exc) or type(exc).__name__


filecache.on_change(load_art.cache_clear)
filecache.on_change(load_svg.cache_clear)
