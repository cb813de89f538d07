"""A rulebook's target length: game.yaml `rulebook.target_pages`, the length of a good published
rulebook of the game's size that the designer aims at. `cardgen rulebook` notes a book over it."""

from __future__ import annotations

from cardgen.model import Game


def target_pages(game: Game) -> int | None:
    settings = game.meta.get("rulebook")
    target = settings.get("target_pages") if isinstance(settings, dict) else None
    return target if isinstance(target, int) else None


def length_note(game: Game, pages: int) -> str | None:
    """What to tell the designer of a book longer than its target, or None."""
    target = target_pages(game)
    if target is None or pages <= target:
        return None
    return (f"the rulebook runs {pages} pages, {pages - target} over its target of {target} "
            "(game.yaml rulebook.target_pages)")
