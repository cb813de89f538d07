"""Real cards drawn small for the rulebook's cover and diagrams: faces and backs rendered by the
card renderer at a low resolution, cut at the trim, and kept in out/<game>/rulebook-assets/
beside a stamp of what they were drawn from, so an unchanged card is not drawn again."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.errors import ContentError
from cardgen.fsutil import write_atomic
from cardgen.model import Card, Game

ASSETS = "rulebook-assets"


@dataclass
class Faces:
    """Draws the faces a book asks for; `files` lists every file it wrote or kept."""

    game: Game
    out_dir: Path | None
    files: list[Path]
    _layouts: object = None

    def layouts(self):
        if self._layouts is None:
            from cardgen.render.layout import load_layouts

            self._layouts = load_layouts(self.game)
            self._layouts.bleed = 0.0          # drawn at the trim: a diagram shows cut cards
        return self._layouts

    def size(self) -> tuple[float, float]:
        """The card's trim size in mm (poker size when the game has no layouts)."""
        try:
            layouts = self.layouts()
        except (ContentError, OSError):
            return 63.5, 88.9
        return layouts.width, layouts.height

    def png(self, card: Card, dpi: int, back: bool = False) -> Path | None:
        """A PNG of `card` (its back with `back`), or None when the game has nothing to draw it with."""
        if self.out_dir is None:
            return None
        from cardgen.inputs import face_key
        from cardgen.render.card_backs import back_face, back_key, back_stem, draw_back
        from cardgen.render.layout import LayoutError, layout_face
        from cardgen.render.paint_png import png_bytes

        try:
            layouts = self.layouts()
            name = back_face(layouts, card) if back else None
            # (a shared back is drawn at the card's size: cards of several sizes may share it)
            drawn = back_key(layouts, name) if back else face_key(layouts, card)
            key = f"{drawn} {dpi} {layouts.size_of(card.type)}"
            stem = f"back-{back_stem(layouts.game, name)}" if back else card.stem
            target = Path(self.out_dir) / ASSETS / f"small-{stem}-{dpi}.png"
            stamp = target.with_suffix(".key")
            self.files += [target, stamp]
            if target.is_file() and stamp.is_file() and stamp.read_text() == key:
                return target
            face = (draw_back(layouts, name, layouts.size_of(card.type)) if back
                    else layout_face(layouts, card))
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, png_bytes(face, dpi))
            write_atomic(stamp, key)
            return target
        except (ContentError, LayoutError, OSError):   # (the card check reports them): the book goes on
            return None


def cards_of(game: Game, wanted: list[str]) -> list[Card]:
    """The cards a zone names: each entry a card type (its cards in file order) or one card's name."""
    out: list[Card] = []
    for name in wanted:
        if name in game.cards:
            out.append(game.cards[name])
        else:
            out += [c for c in game.cards.values() if c.type == name]
    return out


def showcase(game: Game, count: int = 3) -> list[Card]:
    """Cards for the cover: one of each of the largest card types in turn (a third of the way
    into each type's files, past the plainest first cards), then more of them."""
    by_type: dict[str, list[Card]] = {}
    for card in game.cards.values():
        by_type.setdefault(card.type, []).append(card)
    ranked = sorted(by_type.values(), key=len, reverse=True)
    picked: dict[str, Card] = {}
    for depth in range(max((len(cards) for cards in ranked), default=0)):
        for cards in ranked:
            card = cards[(len(cards) // 3 + depth * 5) % len(cards)]
            if len(picked) < count:
                picked.setdefault(card.name, card)
    return list(picked.values())
