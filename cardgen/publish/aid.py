"""Player aids: what each table needs during play, built from game.yaml tables and the card data.

`aid_sections(game)` returns (sections, missing): the sections to print, and the table names an aid
would use but the game does not define yet (reported by the build, never invented here). A
section marked `quick` also goes on the rulebook's back page as the quick reference.

A game's own builder is its folder's `aids:` hook, a module defining `build(aid)` that adds
sections to the `Aid` it is given (docs/game-format.md); a game without one gets
`build_generic`: its turn (tables.phases), its flat numbers, its keywords and its other tables.
Every number, rule and ruling comes from the game files, so the aid cannot disagree with the
cards or the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from cardgen.gamecode import load_hook, own_code_errors, require
from cardgen.model import Game
from cardgen.publish.icons import html_icons
from cardgen.publish.keywords import keywords as keyword_nodes
from cardgen.publish.nodes import human, is_flat, rich, to_nodes

__all__ = ["Aid", "AidSection", "Markup", "aid_sections", "build_generic", "human", "is_flat",
           "keyword_nodes", "rich", "to_nodes"]


@dataclass
class AidSection:
    title: str
    nodes: list[dict]
    quick: bool = False
    new_page: bool = False
    cls: str = ""
    subtitle: str = ""
    extra: dict = field(default_factory=dict)


class Aid:
    """What an aid builder gets: the game, its tables, and helpers that make printable nodes.

    Every string it is given is escaped when printed; `r()` reads {icon} and *emphasis*."""

    def __init__(self, game: Game):
        self.game = game
        self.t = game.tables if isinstance(game.tables, dict) else {}
        self.icons = html_icons(game)
        self.sections: list[AidSection] = []
        self.missing: list[str] = []

    def r(self, value) -> Markup:
        return rich(value, self.icons)

    def get(self, name: str, default=None):
        return self.t.get(name, default)

    def need(self, *names: str):
        """The first of these tables that exists; records the first name as missing otherwise."""
        for name in names:
            if name in self.t:
                return self.t[name]
        self.missing.append(names[0])
        return None

    def doc(self, name: str):
        value = self.t.get(name)
        return value.get("doc") if isinstance(value, dict) else None

    def add(self, title, nodes, **kw):
        nodes = [n for n in nodes if n]
        if nodes:
            self.sections.append(AidSection(title, nodes, **kw))

    def steps(self, items, ordered=True):
        return {"kind": "list", "ordered": ordered, "items": [self.r(i) for i in items]}

    def rulings(self):
        """The game's rulings (game.yaml `rulings:`) as a list, without their citations."""
        return self.steps([r.rule for r in self.game.rulings], ordered=False) if self.game.rulings else None

    def phase_table(self, rows):
        """[(step name, text)] as a two-column steps table."""
        return {"kind": "table", "cls": "phases", "head": [],
                "rows": [[Markup("<b>{}</b>").format(name), text] for name, text in rows if text]}

    def generic_phases(self):
        """tables.phases (a list of {name, doc} or of strings) when a game defines it."""
        phases = self.t.get("phases")
        if isinstance(phases, list):
            if all(isinstance(p, dict) for p in phases):
                return self.phase_table([(p.get("name", ""), self.r(p.get("doc", "")))
                                         for p in phases])
            return self.steps(phases)
        if isinstance(phases, dict):
            return self.phase_table([(human(k), self.r(v)) for k, v in phases.items() if is_flat(v)])
        return None


def aid_sections(game: Game) -> tuple[list[AidSection], list[str]]:
    aid = Aid(game)
    module = load_hook(game, "aids")
    build = require(game, "aids", module, "build")[0] if module is not None else build_generic
    with own_code_errors():
        build(aid)
    return aid.sections, aid.missing


def build_generic(aid: Aid):
    """The aid of a game with no builder of its own."""
    phases = aid.generic_phases()
    if phases:
        aid.add("Turn", [phases], quick=True)
    numbers = {k: v for k, v in aid.t.items() if k != "phases" and is_flat(v)}
    if numbers:
        aid.add("Numbers to know", [{"kind": "fields", "pairs": [(human(k), aid.r(v))
                                                                 for k, v in numbers.items()]}],
                quick=True)
    if aid.game.keywords:
        aid.add("Keywords", keyword_nodes(aid.game), quick=True)
    for name, value in aid.t.items():
        if name != "phases" and not is_flat(value):
            aid.add(human(name), to_nodes(value, aid.icons))
    aid.add("Rulings", [aid.rulings()])
