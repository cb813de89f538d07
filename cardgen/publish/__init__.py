"""Rulebooks and player aids, from the same loaded game as the cards.

    from cardgen.publish import publish_game
    paths = publish_game(game, Path("out") / game.id)     # rulebook.pdf, player-aids.pdf

WeasyPrint (about 0.8 s to import) is imported only when a PDF is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardgen.model import Game

__all__ = ["Published", "build_aids", "build_rulebook", "publish_game", "publish"]


@dataclass
class Published:
    path: Path
    pages: int
    seconds: float
    warnings: list[str] = field(default_factory=list)


def build_rulebook(game: Game, out_dir: Path, paper: str = "a5", use_cache: bool = True,
                   booklet: bool = False) -> Published:
    import time

    from cardgen.publish import rulebook

    start = time.perf_counter()
    path, pages, book = rulebook.build_rulebook(game, out_dir, paper, use_cache, booklet)
    return Published(path, pages, time.perf_counter() - start, book.warnings)


def build_aids(game: Game, out_dir: Path, paper: str = "letter", use_cache: bool = True) -> Published:
    import time

    from cardgen.publish import aidsdoc

    start = time.perf_counter()
    path, pages, missing = aidsdoc.build_aids(game, out_dir, paper, use_cache)
    warnings = [f"player aid: game.yaml has no tables.{name} yet (see docs/rulebooks.md)"
                for name in missing]
    return Published(path, pages, time.perf_counter() - start, warnings)


def publish(game: Game, out_dir: Path, paper: str | None = None) -> list[Published]:
    """Rulebook (A5 booklet pages by default) and player aids (Letter by default)."""
    return [build_rulebook(game, out_dir, paper or "a5"), build_aids(game, out_dir, paper or "letter")]


def publish_game(game: Game, out_dir: Path) -> list[Path]:
    """For `cardgen build`: write out_dir/rulebook.pdf and out_dir/player-aids.pdf."""
    return [p.path for p in publish(game, Path(out_dir))]
