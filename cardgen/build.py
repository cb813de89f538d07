"""`cardgen build`: everything a game needs, written under out/<game>/.

For now: load and check each game, validate its sample decks, write a report. Later stages
(card faces, sheets, rulebooks, sample matches) add their outputs here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.errors import ContentError, Issue, display_path
from cardgen.fsutil import write_atomic
from cardgen.model import Game, load_game
from cardgen.paths import bundled_game_ids
from cardgen.validate import DeckReport, validate_decks


@dataclass
class GameBuild:
    ref: str
    game: Game | None = None
    errors: list[Issue] = field(default_factory=list)
    decks: list[DeckReport] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and all(d.legal for d in self.decks)


def build_games(refs: list[str] | None, out_root: Path) -> list[GameBuild]:
    return [build_game(ref, out_root) for ref in (refs or bundled_game_ids())]


def build_game(ref: str, out_root: Path) -> GameBuild:
    result = GameBuild(ref)
    try:
        result.game = load_game(ref)
    except ContentError as exc:
        result.errors = exc.issues
        return result
    game = result.game
    result.decks = validate_decks(sorted((game.folder / "decks").glob("*.yaml")))
    out_dir = out_root / game.id
    result.written.append(write_atomic(out_dir / "report.txt", report_text(game, result.decks)))
    result.written.append(write_atomic(out_dir / "report.json",
                                       json.dumps(report_data(game, result.decks), indent=2,
                                                  ensure_ascii=False)))
    return result


def report_data(game: Game, decks: list[DeckReport]) -> dict:
    return {
        "game": game.id,
        "name": game.name,
        "cards": {"distinct": len(game.cards), "in_box": sum(c.copies for c in game.cards.values()),
                  "by_type": game.count_by_type()},
        "keywords": sorted(game.keywords),
        "decks": [d.as_dict() for d in decks],
    }


def report_text(game: Game, decks: list[DeckReport]) -> str:
    data = report_data(game, decks)
    lines = [f"{game.name} ({game.id})", "",
             f"cards: {data['cards']['distinct']} distinct, {data['cards']['in_box']} in the box"]
    lines += [f"  {t}: {n}" for t, n in data["cards"]["by_type"].items()]
    lines += [f"keywords: {len(game.keywords)}", "", "sample decks:"]
    for deck in decks:
        status = "legal" if deck.legal else "ILLEGAL"
        lines.append(f"  {display_path(deck.path)}: {status}")
        lines += [f"    line {p.line}: {p.rule}: {p.message}" for p in deck.problems]
        lines += [f"    {e}" for e in deck.errors]
    return "\n".join(lines) + "\n"
