"""`cardgen aids GAME`: the player aid sections -> Jinja2 -> WeasyPrint -> player-aids.pdf."""

from __future__ import annotations

from pathlib import Path

from cardgen.model import Game
from cardgen.publish.aid import aid_sections
from cardgen.publish.document import base_context, make_fetcher, palette, render_template, write_pdf


def render_html(game: Game, paper: str = "letter", lang: str = "en") -> tuple[str, list[str]]:
    sections, missing = aid_sections(game)
    context = base_context(game, paper) | palette(game) | {"sections": sections, "lang": lang}
    return render_template(game, "aids/aids.html.j2", context), missing


def build_aids(game: Game, out_dir: Path, paper: str = "letter",
               use_cache: bool = True) -> tuple[Path, int, list[str]]:
    html, missing = render_html(game, paper)
    fetcher = make_fetcher(game, game.folder / "game.yaml")
    path, pages = write_pdf(html, Path(out_dir) / "player-aids.pdf", game, fetcher, "player-aids",
                            use_cache)
    return path, pages, missing
