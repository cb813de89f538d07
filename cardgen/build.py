"""`cardgen build`: everything a game needs, written under out/<game>/.

Stages run in order for each game; a stage runs when the game has what it needs (a layouts.yaml
for card faces and sheets, an engine for sample matches) and says why when it is skipped:

  check     load the game, validate its sample decks, write report.txt / report.json
  cards     card faces and backs as PNG (cached, on every core)
  sheets    proxy-sheet PDFs (Letter and A4) and the Tabletop Simulator export
  site      the card database: out/<game>/site/index.html, offline
  rulebook  rulebook.pdf and player-aids.pdf
  matches   a short seeded simulation: balance figures and rule conflicts
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.errors import ContentError, Issue, display_path
from cardgen.fsutil import read_record, write_atomic
from cardgen.gamecode import own_code_errors
from cardgen.model import Game, load_game
from cardgen.paths import bundled_game_ids
from cardgen.validate import DeckReport, validate_decks

STAGES = ("check", "cards", "sheets", "site", "rulebook", "matches")
SAMPLE_MATCHES = 500
SAMPLE_VARIANT_MATCHES = 100     # per variant the engine plays, each beside the published rules


@dataclass
class StageResult:
    name: str
    ok: bool
    summary: str
    seconds: float = 0.0
    errors: list[Issue] = field(default_factory=list)
    findings: bool = False      # its errors are findings about the rules (exit 1), not input to fix (2)


@dataclass
class GameBuild:
    ref: str
    game: Game | None = None
    errors: list[Issue] = field(default_factory=list)
    decks: list[DeckReport] = field(default_factory=list)
    stages: list[StageResult] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and all(d.legal for d in self.decks) and all(s.ok for s in self.stages)

    @property
    def needs_fixing(self) -> bool:
        """Input that cannot be used (a file, a card's art, a layout value, a deck that does not
        load), as against findings (an illegal deck, a rule conflict, a failed scenario)."""
        return bool(self.errors or any(d.errors for d in self.decks)
                    or any(s.errors and not s.findings for s in self.stages))


def build_games(refs: list[str] | None, out_root: Path, stages=STAGES, progress: bool = False,
                log: Callable[[str], None] | None = None) -> list[GameBuild]:
    return [build_game(ref, out_root, stages, progress, log) for ref in (refs or bundled_game_ids())]


def build_game(ref: str, out_root: Path, stages=STAGES, progress: bool = False,
               log: Callable[[str], None] | None = None) -> GameBuild:
    result = GameBuild(ref)
    try:
        result.game = load_game(ref)
    except ContentError as exc:
        result.errors = exc.issues
        return result
    game = result.game
    out_dir = out_root / game.id
    result.decks = validate_decks(sorted((game.folder / "decks").glob("*.yaml")))
    result.written.append(write_atomic(out_dir / "report.txt", report_text(game, result.decks)))
    result.written.append(write_atomic(out_dir / "report.json",
                                       json.dumps(report_data(game, result.decks), indent=2,
                                                  ensure_ascii=False)))
    if log:
        legal = sum(d.legal for d in result.decks)
        log(f"  check     {len(game.cards)} cards, {legal}/{len(result.decks)} sample decks legal")
    for name in stages:
        if name == "check":
            continue
        start = time.perf_counter()
        try:
            with own_code_errors():            # (a game's own code failing outside a match)
                stage = _STAGES[name](game, out_root, progress)
        except ContentError as exc:
            stage = StageResult(name, False, f"{len(exc.issues)} errors", errors=exc.issues)
        stage.seconds = time.perf_counter() - start
        result.stages.append(stage)
        if log:
            log(f"  {name:9} {stage.summary} ({stage.seconds:.1f}s)")
    return result


def _stage_cards(game: Game, out_root: Path, progress: bool) -> StageResult:
    if not (game.folder / "layouts.yaml").is_file():
        return StageResult("cards", True, "skipped: no layouts.yaml")
    from cardgen.render import render_game

    rendered = render_game(game, out_root, progress=progress)
    summary = f"{len(rendered.written)} drawn, {rendered.skipped} unchanged"
    if rendered.errors:
        return StageResult("cards", False, f"{summary}, {len(rendered.errors)} failed",
                           errors=rendered.errors)
    return StageResult("cards", True, summary)


def _stage_sheets(game: Game, out_root: Path, progress: bool) -> StageResult:
    if not (game.folder / "layouts.yaml").is_file():
        return StageResult("sheets", True, "skipped: no layouts.yaml")
    try:
        from cardgen.sheets import build_sheets
    except ImportError:
        return StageResult("sheets", True, "skipped: proxy sheets not available")

    paths = build_sheets(game, out_root / game.id)
    return StageResult("sheets", True, ", ".join(p.name for p in paths) or "nothing to write")


def _stage_site(game: Game, out_root: Path, progress: bool) -> StageResult:
    from cardgen.site import build_site

    written = build_site(game, out_root / game.id)
    return StageResult("site", True, f"site/index.html, {len(written)} files")


def _stage_rulebook(game: Game, out_root: Path, progress: bool) -> StageResult:
    try:
        from cardgen.publish import publish_game
    except ImportError:
        return StageResult("rulebook", True, "skipped: publishing not available")

    paths = publish_game(game, out_root / game.id)
    return StageResult("rulebook", True, ", ".join(p.name for p in paths))


def _stage_matches(game: Game, out_root: Path, progress: bool) -> StageResult:
    from cardgen.engines import has_engine, load_engine

    if not has_engine(game):
        return StageResult("matches", True, "skipped: no rules engine")
    from cardgen.inputs import stage_key

    out = out_root / game.id
    # Nothing the matches play changed (cards, decks, scenarios, game.yaml, the game's Python,
    # cardgen's simulator): the last report stands, and so do its findings.
    key = stage_key(game.folder, "matches", "sim", "engines",
                    options=(SAMPLE_MATCHES, SAMPLE_VARIANT_MATCHES, 1, "random"))
    last = read_record(out / MATCHES_RECORD)
    if last.get("key") == key and (out / "simulation.json").is_file():
        issues = [Issue(Path(f) if f else None, None, kind, message) for f, kind, message in last["issues"]]
        return StageResult("matches", not issues, f"{last['summary']} (unchanged)", errors=issues,
                           findings=True)
    from cardgen.sim.report import build_report, format_html
    from cardgen.sim.runner import card_pool, simulate, static_conflicts
    from cardgen.sim.scenarios import check_game
    from cardgen.sim.variants import sample_variants

    engine = load_engine(game)
    results, seconds = simulate(game, matches=SAMPLE_MATCHES, seed=1, progress=progress, engine=engine)
    report = build_report(game, results, seconds, static=static_conflicts(engine), bots=["random"], seed=1,
                          pool=card_pool(engine))
    report["variants"], variant_conflicts = sample_variants(game, engine, matches=SAMPLE_VARIANT_MATCHES)
    write_atomic(out / "simulation.json", json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    write_atomic(out / "simulation.html", format_html(report))
    conflicts = report["conflicts"]
    first = 100 * (report["first_player"]["win_rate"] or 0)
    summary = f"{report['matches']} matches, first player wins {first:.0f}%, {len(conflicts)} rule conflicts"
    sampled = sum(row.get("matches") is not None for row in report["variants"])
    if sampled:
        summary += f"; {sampled} variant{'s' if sampled > 1 else ''} sampled apart"
    issues = [_conflict_issue(game.id, c) for c in conflicts]
    issues += [_conflict_issue(game.id, c, vid) for vid, c in variant_conflicts if c["seed"] is not None]
    # The rulebook prints the scenarios' answers: the build says when the engine disagrees with one.
    scenarios = check_game(game, engine)
    if scenarios:
        held = sum(r.ok for r in scenarios)
        summary += f"; scenarios {held}/{len(scenarios)} hold"
        issues += [Issue(r.scenario.path, None, "scenario", f"{r.scenario.title}: {r.message}")
                   for r in scenarios if not r.ok]
    write_atomic(out / MATCHES_RECORD, json.dumps({"key": key, "summary": summary, "issues": [
        [str(i.file) if i.file else None, i.field, i.message] for i in issues]}, indent=1))
    return StageResult("matches", not issues, summary, errors=issues, findings=True)


def _conflict_issue(game_id: str, c: dict, variant: str | None = None) -> Issue:
    """A rule conflict of the sample matches as a build finding, with the command that replays it
    (a conflict found without playing, such as a keyword no rule defines, has no seed)."""
    if c["seed"] is None:
        return Issue(None, None, c["kind"], c["message"])
    on = f" --variant {variant}" if variant else ""
    return Issue(None, None, c["kind"], f"{'with variant ' + variant + ': ' if variant else ''}"
                                        f"{c['message']} (replay: cardgen replay {game_id}{on} "
                                        f"--seed {c['seed']})")


MATCHES_RECORD = ".matches.json"     # the key of the last sample matches, their summary and findings


_STAGES = {"cards": _stage_cards, "sheets": _stage_sheets, "site": _stage_site, "rulebook": _stage_rulebook,
           "matches": _stage_matches}


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
        lines += [f"    line {p.line}: {'' if deck.counts(p) else 'warning: '}{p.rule}: {p.message}"
                  for p in deck.problems]
        lines += [f"    {e}" for e in deck.errors]
    return "\n".join(lines) + "\n"


def print_stage_errors(result: GameBuild) -> None:
    for stage in result.stages:
        for issue in stage.errors:
            print(f"  error: {issue}", file=sys.stderr)
