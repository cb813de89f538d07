"""The site's card thumbnails: a card's picture cut at the trim line, 450 px wide, as JPEG; and
each back's the same way (site/img/backs/<stem>.jpg), shown beside the cards that take it.

Made by the render from the picture it has just painted (site/img/<stem>.jpg beside the card PNG),
and by the site from the PNG for a card the render drew without them. Both cut and shrink the same
way, so a thumbnail looks the same whoever made it. site/img/.keys.json holds, for each thumbnail,
the key of the card PNG it shows (cardgen.inputs.face_key, as in cards/.cache.json).
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

from cardgen.render.display import MM_PER_INCH

WIDTH = 450
RECORD = ".keys.json"


def thumbnail_path(out_dir: Path, stem: str) -> Path:
    """out/<game>/site/img/<stem>.jpg: the thumbnail of the card whose PNG is cards/<stem>.png."""
    return out_dir / "site" / "img" / f"{stem}.jpg"


def thumbnail_of(out_dir: Path, kind: str, stem: str) -> Path:
    """The thumbnail of a card ("card": cards/<stem>.png) or of a back ("back": backs/<stem>.png,
    shown beside the cards that take it: site/img/backs/<stem>.jpg, a folder of its own, as a back
    and a card may share a name)."""
    if kind == "card":
        return thumbnail_path(out_dir, stem)
    return out_dir / "site" / "img" / "backs" / f"{stem}.jpg"


def thumbnail_name(out_dir: Path, path: Path) -> str:
    """A thumbnail's entry in site/img/.keys.json: its path inside site/img ("fire-bolt.jpg",
    "backs/default.jpg")."""
    return path.relative_to(out_dir / "site" / "img").as_posix()


def recorded_dpi(dpi: float) -> float:
    """The dpi a PNG written at `dpi` reads back as (it stores whole pixels per metre: 300 dpi
    reads 299.9994), so that the render cuts the bleed off as the site does from the file."""
    return round(dpi / 0.0254) * 0.0254


def bleed_pixels(bleed_mm: float, dpi: float) -> int:
    return round(bleed_mm / MM_PER_INCH * dpi)


def thumbnail_jpeg(image, cut: int) -> bytes:
    """An RGB card picture without `cut` pixels of bleed on every side, WIDTH wide, as JPEG."""
    from PIL import Image

    box = (cut, cut, image.width - cut, image.height - cut)
    height = round((box[3] - box[1]) * WIDTH / (box[2] - box[0]))
    buffer = BytesIO()
    # Hamming, not Lanczos: half the time, and within JPEG's own noise of it (a mean difference
    # of 1-1.7 levels of 255 after JPEG, where JPEG itself differs by about 2 from the picture)
    image.resize((WIDTH, height), Image.HAMMING, box=box).save(buffer, "JPEG", quality=85)
    return buffer.getvalue()
