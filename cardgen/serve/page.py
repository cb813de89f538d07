"""The preview page of `cardgen serve`, as HTML sections, from a build's result so far.

Each section is rendered by a template of templates/serve/ (Jinja2, autoescaped) and sent whole
to the page, which replaces the sections that changed. The files of out/<game> are linked as
/out/<path>?v=<time and size>: a file drawn again gets a new address, so the browser fetches it
instead of showing the copy it has.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from cardgen.build import MATCHES_RECORD, GameBuild
from cardgen.fsutil import read_record
from cardgen.model import Game
from cardgen.paths import templates_dir
from cardgen.watch import BuildWatcher, problem_lines

SECTIONS = ("status", "problems", "cards", "prints", "matches")
BOOKS = ("rulebook.pdf", "player-aids.pdf")      # the rulebook stage's; any other PDF is a proxy sheet


def file_url(out_dir: Path, rel: str) -> str | None:
    """The page's address of a file of out/<game> (None when it is not there), with its time and
    size in the query: a new version of the file is a new address."""
    try:
        info = (out_dir / rel).stat()
    except OSError:
        return None
    return f"/out/{quote(rel)}?v={info.st_mtime_ns:x}-{info.st_size:x}"


class Preview(BuildWatcher):
    """Follows a watch's builds and publishes the page after each stage: the cards' text once the
    game is loaded, their faces once drawn, the prints, the rulebook and the sample matches as
    their stages end. When the game does not load, the problems are shown above the cards of the
    last build that did load."""

    def __init__(self, out_root: Path, publish: Callable[[dict], None]):
        from jinja2 import Environment, FileSystemLoader, select_autoescape

        self.out_root = Path(out_root).resolve()
        self.publish = publish
        self.env = Environment(loader=FileSystemLoader(str(templates_dir() / "serve")),
                               autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
        self.game: Game | None = None       # the last game that loaded
        self.version = 0
        self.changed: list[str] = []
        self.ended: float | None = None     # the seconds the last build took, once it ends
        self.result: GameBuild | None = None    # the last build's, until the next one has its own
        self.backs: tuple[Game | None, dict[str, str]] = (None, {})     # (a game, its cards' backs)

    def started(self, changed: list[Path]) -> None:
        self.changed = [p.name for p in changed[:3]] + (["..."] if len(changed) > 3 else [])
        self.ended = None
        self.show()

    def stage_done(self, result: GameBuild) -> None:
        self.result = result
        if result.game is not None:
            self.game = result.game
        self.show()

    def finished(self, result: GameBuild, seconds: float) -> None:
        self.ended = seconds
        self.stage_done(result)

    def show(self) -> None:
        self.version += 1
        out_dir = self.out_root / self.game.id if self.game is not None else None
        if self.game is not None and self.backs[0] is not self.game:     # (each build loads its game)
            self.backs = (self.game, back_files(self.game, out_dir))
        sections = render_sections(self.env, self.game, self.result, out_dir, status={
            "building": self.ended is None, "changed": self.changed, "seconds": self.ended,
            "clock": time.strftime("%H:%M:%S")}, backs=self.backs[1])
        self.publish({"version": self.version, "out": str(out_dir) if out_dir else None,
                      "title": f"{self.game.name if self.game else 'cardgen'}: preview",
                      "sections": sections})


def render_sections(env, game: Game | None, result: GameBuild | None, out_dir: Path | None,
                    status: dict, backs: dict[str, str] | None = None) -> dict[str, str]:
    """{section: HTML} for the page. `game`: the last game that loaded (None: none yet);
    `result`: the build so far (None: before the first check); `backs`: the PNG of each card's
    back (back_files)."""
    problems = problem_lines(result) if result is not None else []
    common = {"game": game, "result": result, "status": status, "problems": problems,
              "stale": result is not None and result.game is None and game is not None}
    if game is not None:
        from cardgen.engines import has_engine
        from cardgen.site import fields_for_page, show_value

        backs = backs or {}
        common["cards"] = [_card(game, card, out_dir, fields_for_page(game, card), backs.get(card.name))
                           for card in game.cards.values()]
        common["two_sided"] = any(card["back"] for card in common["cards"])
        common["show"] = lambda value: show_value(value, game)
        pdfs = sorted(p.name for p in out_dir.glob("*.pdf"))
        common["sheets"] = [(name, file_url(out_dir, name)) for name in pdfs if name not in BOOKS]
        common["books"] = [(name, file_url(out_dir, name)) for name in BOOKS if name in pdfs]
        common["links"] = {rel: file_url(out_dir, rel)
                           for rel in ("simulation.html", "report.txt", "site/index.html")}
        common["matches"] = read_record(out_dir / MATCHES_RECORD).get("summary")
        common["engine"] = has_engine(game)
    return {name: env.get_template(f"{name}.html").render(common) for name in SECTIONS}


def _card(game: Game, card, out_dir: Path, fields, back: str | None) -> dict:
    from cardgen.errors import display_path
    from cardgen.render import png_path

    return {"name": card.name, "stem": card.stem, "type": game.card_types[card.type].label,
            "copies": card.copies, "fields": fields, "where": f"{display_path(card.file)}:{card.line}",
            "image": file_url(out_dir, png_path(out_dir, game, "card", card.name).relative_to(out_dir)
                              .as_posix()),
            "back": file_url(out_dir, back) if back else None}


def back_files(game: Game, out_dir: Path) -> dict[str, str]:
    """Each card's back as the site shows it (the back it takes with no deck given): card name ->
    its PNG inside out/<game>, "backs/<stem>.png". Empty when the layouts do not load (the cards
    stage says why). The page links the file with its time and size, so a back drawn again after
    an edit (layouts.yaml's back, the card a back is drawn from) is shown afresh."""
    from cardgen.errors import ContentError
    from cardgen.render.layout import load_layouts
    from cardgen.site import back_picture

    try:
        layouts = load_layouts(game)
    except ContentError:
        return {}
    pictures = {card.name: back_picture(layouts, card, out_dir) for card in game.cards.values()}
    return {name: found[1].relative_to(out_dir).as_posix() for name, found in pictures.items() if found}
