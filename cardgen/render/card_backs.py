"""Backs drawn from their own card: double-faced cards (Combo Fighter's character sheets, whose
reverse tells the fighter's story).

A back whose own elements read the card (`{{ card.backstory }}`; Layouts.card_backs) is laid out for
each card that takes it; any other back is laid out once and shared. A back's face is named by
its back and, when drawn from its card, the card: "sheet/Amaya Sol" (the PNG
backs/sheet-amaya-sol.png), or plain "default" (backs/default.png). Every output that prints a
back (render, proxy sheets, singles, TTS, the rulebook's pictures) names it so, and keys it by
the card it is drawn from (cardgen.inputs.face_key), so an edited card redraws only its own back.
"""

from __future__ import annotations

from cardgen.filenames import file_stem
from cardgen.model import Card
from cardgen.render.display import Face
from cardgen.render.layout import Layouts, back_name, layout_back


def back_face(layouts: Layouts, card: Card, deck=None) -> str:
    """The back face `card` takes (chosen for `deck` when one is printed): "NAME" or "NAME/CARD"."""
    name = back_name(layouts, card, deck)
    return f"{name}/{card.name}" if name in layouts.card_backs else name


def split(layouts: Layouts, face: str) -> tuple[str, Card | None]:
    """A back face's name -> (the back, the card it is drawn from or None)."""
    if face in layouts.backs:
        return face, None
    name, _, card = face.partition("/")
    return name, layouts.game.cards[card]


def back_stem(game, face: str) -> str:
    """Its PNG's name: the back's, and the card's when drawn from its card (sheet-amaya-sol)."""
    name, _, card = face.partition("/")
    return f"{file_stem(name)}-{game.cards[card].stem}" if card in game.cards else file_stem(face)


def back_key(layouts: Layouts, face: str) -> str:
    """What a back face is drawn from (cardgen.inputs.face_key): with its card, when it has one."""
    from cardgen.inputs import face_key

    name, card = split(layouts, face)
    return face_key(layouts, card, f"back:{name}")


def draw_back(layouts: Layouts, face: str, size: tuple[float, float] | None = None) -> Face:
    """Lay out a back face, at `size` (default: its card's, or that of the cards taking it)."""
    name, card = split(layouts, face)
    drawn = layout_back(layouts, name, card, size)
    drawn.name = f"back: {face}"
    return drawn
