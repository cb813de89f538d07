"""A book's colours from the game's own: the accent is layouts.yaml's colour `accent` when the
designer names one, else its strongest mid-toned colour (the one that carries the card design),
so each game's cover and headings wear the colours of its cards."""

from __future__ import annotations

import colorsys
import math
import re

from cardgen.errors import ContentError
from cardgen.model import Game


def _hex(rgb) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in rgb)


def _mix(rgb, other, t: float):
    return tuple(a + (b - a) * t for a, b in zip(rgb, other, strict=True))


def strength(rgb) -> float:
    """How well a colour carries a cover: saturated and mid-dark (white text must read on it)."""
    _h, light, sat = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    if not 0.18 <= light <= 0.48:
        return 0.0
    return sat * (1 - abs(light - 0.38) * 1.5)


def pick_accent(colours: dict, source: str = "") -> tuple[int, int, int] | None:
    """`colours`: name -> (r, g, b, a); `source`: the layouts' text, where a colour the design
    leans on is named most often. None when no colour is strong enough."""
    opaque = {name: c[:3] for name, c in colours.items() if len(c) < 4 or c[3] == 255}
    if "accent" in opaque:
        return opaque["accent"]

    def score(name: str) -> float:
        uses = len(re.findall(rf"\b{re.escape(name)}\b", source))
        return strength(opaque[name]) * math.log(2 + uses)

    ranked = sorted(opaque, key=score, reverse=True)
    return opaque[ranked[0]] if ranked and strength(opaque[ranked[0]]) > 0.2 else None


def game_palette(game: Game, layouts=None) -> dict | None:
    """accent, accent_dark, accent_light, accent_faint from the game's layouts.yaml, or None."""
    if layouts is None:
        try:
            from cardgen.render.layout import load_layouts

            layouts = load_layouts(game)
        except (ContentError, OSError):
            return None
    accent = pick_accent(layouts.colours, layouts.source)
    if accent is None:
        return None
    black, white = (0, 0, 0), (255, 255, 255)
    return {"accent": _hex(accent), "accent_dark": _hex(_mix(accent, black, 0.35)),
            "accent_light": _hex(_mix(accent, white, 0.55)), "accent_faint": _hex(_mix(accent, white, 0.9))}
