"""Text outlines and shadows, and turned (rotated) elements: layouts.yaml's `outline:`, `shadow:`
and `rotate:` as display items.

Both are made of the items the painters already draw, so the PNG and the PDF agree: a shadow is
the text again, offset and in its colour, drawn first; an outline is the text again as outline
runs (Run.outline), under the letters; a turned element is laid out upright in its box turned to
the nearest quarter turn, then drawn turned about the box's centre (display.Turned).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from cardgen.render import limits
from cardgen.render.display import Colour, Run, Turned

EFFECTS = {            # setting -> its keys and their defaults (a colour as written)
    "outline": {"width": 0.3, "colour": "#000000"},
    "shadow": {"dx": 0.4, "dy": 0.4, "colour": "#000000"},
}
OFF = ("none", False)  # `outline: none` takes away what a style it extends has


def effect_problems(key: str, value, colour_of: Callable[[object], Colour | None]
                    ) -> tuple[tuple | None, list[tuple[str, str]]]:
    """An outline or shadow setting as the Style holds it ((width, colour) or (dx, dy, colour);
    None: off), and what is wrong with it as (sub-key or "", message) pairs."""
    if value in OFF or value is None:
        return None, []
    keys = EFFECTS[key]
    if not isinstance(value, dict):
        return None, [("", f"expected a mapping of {', '.join(keys)} (or none), got {value!r}")]
    problems = []
    for sub in value:
        if sub not in keys:
            problems.append((str(sub), f"unknown setting ({', '.join(keys)})"))
    out = []
    for sub, default in keys.items():
        given = value.get(sub, default)
        if sub == "colour":
            colour = colour_of(given)
            if colour is None:
                problems.append((sub, f"unknown colour {given!r} (#rrggbb, #rrggbbaa or a named colour)"))
            out.append(colour)
        else:
            problem = limits.EFFECT_NUMBERS[f"{key}.{sub}"].problem(given)
            if problem:
                problems.append((sub, problem))
            out.append(given)
    return (None if problems else tuple(out)), problems


def with_effects(items: list, style) -> list:
    """Text items (runs and inline pictures) with the style's shadow and outline added under them."""
    if style.outline is None and style.shadow is None:
        return items
    out: list = []
    if style.shadow is not None:
        dx, dy, colour = style.shadow
        shifted = [_moved(item, dx, dy, colour) for item in items]
        out += _outlined(shifted, style.outline, colour) + shifted
    out += _outlined(items, style.outline, None)
    return out + items


def _moved(item, dx: float, dy: float, colour: Colour):
    if isinstance(item, Run):
        return replace(item, x=item.x + dx, y=item.y + dy, colour=colour)
    return replace(item, x=item.x + dx, y=item.y + dy, tint=colour)    # a picture: its silhouette


def _outlined(items: list, outline, colour: Colour | None) -> list:
    """Outline runs for the runs among `items` (inline pictures get none), in the outline's colour
    or `colour` (a shadow's)."""
    if outline is None:
        return []
    width, own = outline
    return [replace(item, outline=width, colour=colour or own) for item in items if isinstance(item, Run)]


def shadow_upright(style, angle: float):
    """The style for text laid out upright and then turned `angle` degrees: its shadow's offset
    turned back, so that the shadow falls the same way on the card whatever the text's turn."""
    if style.shadow is None or not angle:
        return style
    dx, dy, colour = style.shadow
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    return replace(style, shadow=(dx * cos + dy * sin, -dx * sin + dy * cos, colour))


def reach(style) -> float:
    """How far past its letters a style's outline and shadow draw (mm)."""
    out = style.outline[0] if style.outline else 0.0
    if style.shadow:
        out += max(abs(style.shadow[0]), abs(style.shadow[1]))
    return out


# -- turning ---------------------------------------------------------------------------------------

def upright(box, angle: float) -> tuple[float, float, float, float]:
    """The box an element turned `angle` degrees is laid out in: `box` itself, or for a turn
    nearer a quarter or three quarters, its width and height swapped about its centre (text
    turned 90 degrees in a tall box runs along its height)."""
    x, y, w, h = box
    if round(angle / 90) % 2:
        return (x + (w - h) / 2, y + (h - w) / 2, h, w)
    return box


def turned(box, angle: float, items: list, margin: float = 0.0) -> Turned:
    """`items`, laid out in upright(box, angle), turned about the box's centre."""
    x, y, w, h = upright(box, angle)
    reach = (x - margin, y - margin, w + 2 * margin, h + 2 * margin)
    return Turned(x + w / 2, y + h / 2, float(angle), reach, items)


def turned_box(box, angle: float) -> tuple[float, float, float, float]:
    """Where on the card an element of this box and angle draws: the turned box's bounds."""
    if not angle:
        return tuple(box)
    return turned(box, angle, []).bounds()

