"""`cardgen validate`: check deck files and report every problem as PATH:LINE: RULE-ID: message."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.errors import ContentError, Issue, Problem, display_path
from cardgen.model import Game, load_deck
from cardgen.paths import resolve_game_folder
from cardgen.rules import check_deck


@dataclass
class DeckReport:
    path: Path
    game: str | None
    problems: list[Problem] = field(default_factory=list)
    errors: list[Issue] = field(default_factory=list)   # the deck could not be read at all

    strict: bool = False        # warnings count as errors (`--strict`)

    @property
    def legal(self) -> bool:
        return not self.errors and not any(self.counts(p) for p in self.problems)

    def counts(self, problem: Problem) -> bool:
        """Whether this finding makes the deck illegal."""
        return problem.is_error or self.strict

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    @property
    def rules(self) -> list[str]:
        return [p.rule for p in self.problems]

    def as_dict(self) -> dict:
        out = {"deck": display_path(self.path), "game": self.game, "legal": self.legal,
               "problems": [p.as_dict() for p in self.problems],
               "warnings": len(self.warnings)}
        if self.errors:
            out["errors"] = [str(e) for e in self.errors]
        return out


def expand_targets(targets: list[str]) -> list[Path]:
    """Deck files as given; a game id or game folder stands for the decks in its decks/ folder."""
    paths: list[Path] = []
    for target in targets:
        path = Path(target)
        if path.is_file():
            paths.append(path)
            continue
        folder = resolve_game_folder(target) if not path.suffix else None
        if folder is not None:
            paths.extend(sorted((folder / "decks").glob("*.yaml")))
        else:
            paths.append(path)  # reported as unreadable
    return paths


def validate_decks(paths: list[Path], games: dict[Path, Game] | None = None, *,
                   strict: bool = False) -> list[DeckReport]:
    """`games`: games already loaded, by resolved folder (their decks do not load them again).
    `strict`: warnings make a deck illegal too."""
    games = {} if games is None else games
    reports = []
    for path in paths:
        try:
            deck = load_deck(path, games)
        except ContentError as exc:
            reports.append(DeckReport(path, None, errors=exc.issues))
            continue
        reports.append(DeckReport(path, deck.game.id, check_deck(deck), strict=strict))
    return reports


def format_text(reports: list[DeckReport]) -> tuple[str, str]:
    """(stdout, stderr) for the terminal: problems on stdout, unreadable input on stderr."""
    out, err = [], []
    for report in reports:
        where = display_path(report.path)
        for issue in report.errors:
            if f"error: {issue}" not in err:    # (the decks of one broken game share its errors)
                err.append(f"error: {issue}")
        for p in report.problems:
            # advice reads like a compiler's warning; a rule the deck breaks has its id first
            kind = "" if report.counts(p) else "warning: "
            out.append(f"{where}:{p.line}: {kind}{p.rule}: {p.message}" if p.line
                       else f"{where}: {kind}{p.rule}: {p.message}")
        if report.legal:
            advice = len(report.warnings)
            out.append(f"{where}: ok ({report.game}"
                       + (f", {advice} warning{'s' if advice > 1 else ''})" if advice else ")"))
    return "\n".join(out), "\n".join(err)


def format_json(reports: list[DeckReport]) -> str:
    return json.dumps([r.as_dict() for r in reports], indent=2, ensure_ascii=False)


def exit_code(reports: list[DeckReport]) -> int:
    if any(r.errors for r in reports):
        return 2
    return 1 if not all(r.legal for r in reports) else 0
