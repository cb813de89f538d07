"""What the layout tests of several games share: reading the text a laid-out card draws."""

from __future__ import annotations

import re

from cardgen.render.display import Run
from cardgen.render.fonts import load_face


def runs(face) -> list[Run]:
    return [item for item in face.items if isinstance(item, Run)]


def squashed(face) -> str:
    """All text of a face in drawing order, without spaces (runs split words at bold keywords)."""
    return re.sub(r"\s+", "", "".join(r.text for r in runs(face)))


def plain(text: str, game) -> str:
    """Card text as it prints: icons as their symbols, markup and spaces gone."""
    for name, symbol in game.icons.items():
        text = text.replace("{" + name + "}", symbol)
    return re.sub(r"\s+", "", text.replace("**", ""))


def alone(face, text: str) -> bool:
    """True when some run draws exactly this text (a stat in its own badge, a label)."""
    return any(r.text.strip() == text for r in runs(face))


def cards_of(game, card_type):
    return [c for c in game.cards.values() if c.type == card_type]


def in_box(run: Run, box) -> bool:
    """True when the run's baseline start lies in the box (x, y, w, h)."""
    x, y, w, h = box
    return x <= run.x <= x + w and y <= run.y <= y + h


def read_back(face, box=None) -> str:
    """The face's text runs (optionally only those in a box) read back in drawing order: runs that
    touch on one baseline (a bold keyword and the colon after it) are joined directly, anything
    else with a space."""
    out, last = "", None
    for run in runs(face):
        if box is not None and not in_box(run, box):
            continue
        end = run.x + load_face(run.font).width_mm(run.text, run.size)
        touching = last is not None and abs(run.y - last[0]) < 0.01 and abs(run.x - last[1]) < 0.05
        out += ("" if touching or last is None else " ") + run.text
        last = (run.y, end)
    return re.sub(r"\s+", " ", out.replace("\u00a0", " ")).strip()
