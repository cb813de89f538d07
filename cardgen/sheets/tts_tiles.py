"""Components that are not cards (a player mat, a fighter's power token) in the Tabletop
Simulator export: each a Custom_Tile, its front the top image and its back (if it has one) the
bottom image, at its own proportions (Stretch off), one object per copy.

TTS gives a custom tile no size of its own in millimetres: it is scaled here against the cards
(a poker card, scale 1, is about 2.2 units wide), taking a tile at scale 1 to be 2 units across
its longer side. Images are painted at up to 300 dpi, within TTS's 4096 px limit, cut at the trim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardgen.fsutil import write_atomic
from cardgen.sheets.tts_shared import MAX_DPI, MAX_PX, encode, guid, painted_at_trim

UNIT_MM = 63.5 / 2.2            # one TTS unit, by a poker card's width at scale 1
TILE_UNITS = 2.0                # a custom tile's longer side at scale 1
THICKNESS = 0.1                 # TTS units: card stock


@dataclass
class Tiles:
    images: list[Path] = field(default_factory=list)
    objects: list[dict] = field(default_factory=list)


def export_tiles(parts, out_dir: Path, stem: str, fmt: str, game_id: str, z: float) -> Tiles:
    """Write each distinct side's image as <stem>-<label>-front|back.<fmt> into out_dir, and
    make a tile per copy (`parts`: cardgen.sheets.pdf.Part), in a row at z."""
    from cardgen.filenames import file_stem

    out = Tiles()
    urls: dict[int, str] = {}
    x = 0.0
    for n, part in enumerate(parts):
        for side, face in (("front", part.front), ("back", part.back)):
            if face is not None and id(face) not in urls:
                path = out_dir / f"{stem}-{file_stem(part.label)}-{side}.{fmt}"
                out.images.append(write_atomic(path, encode(_picture(face), fmt)))
                urls[id(face)] = path.name
        width = max(part.front.width, part.front.height) / UNIT_MM
        out.objects.append(_tile(part, urls[id(part.front)],
                                 urls[id(part.back)] if part.back is not None else urls[id(part.front)],
                                 x + width / 2, z, game_id, n))
        x += width + 0.5
    return out


def _picture(face):
    dpi = min(MAX_DPI, (MAX_PX - 1) / (max(face.width, face.height) / 25.4))
    size = (round(face.width * dpi / 25.4), round(face.height * dpi / 25.4))
    return painted_at_trim(face, size, dpi).convert("RGB")


def _tile(part, front: str, back: str, x: float, z: float, game_id: str, n: int) -> dict:
    scale = max(part.front.width, part.front.height) / UNIT_MM / TILE_UNITS
    return {
        "Name": "Custom_Tile", "Nickname": part.label, "Description": part.component,
        "Transform": {"posX": round(x, 2), "posY": 1.0, "posZ": round(z, 2), "rotX": 0.0, "rotY": 180.0,
                      "rotZ": 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)},
        "CustomImage": {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0,
                        "CustomTile": {"Type": 0, "Thickness": THICKNESS, "Stackable": False,
                                       "Stretch": False}},
        "GUID": guid(game_id, part.label, n),
    }
