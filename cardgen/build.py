"""`cardgen build`: everything a game needs, written under out/<game>/.

Stages run in order for each game; a stage runs when the game has what it needs (a layouts.yaml
for card faces and sheets, an engine for sample matches) and says why when it is skipped:

  check     load the game, validate its sample decks, write report.txt / report.json
  cards     card faces and backs as PNG (cached, on every core)
  sheets    proxy-sheet PDFs (Letter and A4) and the Tabletop Simulator export
  site      the card database: out/<game>/site/index.html, offline
  rulebook  rulebook.pdf and player-aids.pdf
  matches   a short seeded simulation: balance figures and rule conflicts
  schemas   the editor's schemas of card and deck files, in a game folder set up for them
            (cardgen.editor): rewritten when they change, never written into any other folder
"""

from __future__ import annotations

import contextlib
import importlib
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

STAGES = ("check", "cards", "sheets", "site", "rulebook", "matches", "schemas")
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
                log: Callable[[str], None] | None = None,
                finished: Callable[[GameBuild], None] | None = None,
                jobs: int | None = None) -> list[GameBuild]:
    """Build several games: their stages are tasks over the CPUs this process may use, `jobs`
    at most (cardgen.schedule), side by side across games. `log` gets each game's lines (its
    name, then one line a stage) in the games' order, and `finished` each game's result once
    its stages are done, in the same order."""
    refs = refs or bundled_game_ids()
    builds = [GameBuild(ref) for ref in refs]
    lines = _InOrder(builds, log, finished)
    for i, result in enumerate(builds):
        lines.say(i, f"{result.ref}:")
        _check(result, out_root, lambda line, i=i: lines.say(i, line))
    _run_stages(builds, out_root, stages, progress, jobs, lines)
    return builds


def build_game(ref: str, out_root: Path, stages=STAGES, progress: bool = False,
               log: Callable[[str], None] | None = None, jobs: int | None = None,
               stage_done: Callable[[GameBuild], None] | None = None) -> GameBuild:
    """Build one game (`cardgen watch`): `log` gets a line as each stage ends, and `stage_done`
    the result so far (`cardgen serve` shows it: the cards' text after the check, their faces
    after the cards stage)."""
    result = GameBuild(ref)
    lines = _InOrder([result], log, None)
    _check(result, out_root, lambda line: lines.say(0, line))
    if stage_done:
        stage_done(result)
    _run_stages([result], out_root, stages, progress, jobs, lines, stage_done)
    return result


def _check(result: GameBuild, out_root: Path, log: Callable[[str], None]) -> None:
    """The check stage, here before any other: load the game, validate its sample decks and
    write report.txt and report.json. A game that does not load gets its errors instead."""
    try:
        result.game = load_game(result.ref)
    except ContentError as exc:
        result.errors = exc.issues
        return
    game = result.game
    out_dir = out_root / game.id
    result.decks = validate_decks(sorted((game.folder / "decks").glob("*.yaml")))
    result.written.append(write_atomic(out_dir / "report.txt", report_text(game, result.decks)))
    result.written.append(write_atomic(out_dir / "report.json",
                                       json.dumps(report_data(game, result.decks), indent=2,
                                                  ensure_ascii=False)))
    legal = sum(d.legal for d in result.decks)
    log(f"  check     {len(game.cards)} cards, {legal}/{len(result.decks)} sample decks legal")


def _run_stages(builds: list[GameBuild], out_root: Path, stages, progress: bool, jobs: int | None,
                lines: _InOrder, stage_done: Callable[[GameBuild], None] | None = None) -> None:
    """Every stage of every loaded game, each stage's parts as tasks (cardgen.schedule): a stage
    waits for the stages whose outputs it reads; the rest run side by side."""
    from cardgen.schedule import Task, run_tasks

    wanted = [STAGE_PLAN[name] for name in stages if name in STAGE_PLAN]
    tasks = []
    for i, result in enumerate(builds):
        if result.game is None:
            continue
        cards = len(result.game.cards)
        for stage in wanted:
            after = tuple((i, dep, k) for dep in stage.after if dep in stages
                          for k in range(len(STAGE_PLAN[dep].parts)))
            tasks += [Task((i, stage.name, j), _run_part, (part, stage, result.game, out_root, progress),
                           after=after, seconds=part.seconds(cards), widest=stage.widest,
                           label=f"the {stage.name} stage of {result.game.id}", before=stage.preload)
                      for j, part in enumerate(stage.parts)]
    parts_done: dict = {}
    stages_done: dict[int, dict[str, StageResult]] = {}

    def part_done(task, part_result: StageResult) -> None:
        i, name, j = task.key
        parts_done.setdefault((i, name), {})[j] = part_result
        if progress:
            count = sum(map(len, parts_done.values()))
            lines.status(f"  {count}/{len(tasks)} tasks done" if count < len(tasks) else "")
        if len(parts_done[i, name]) < len(STAGE_PLAN[name].parts):
            return
        done = stages_done.setdefault(i, {})
        done[name] = _merge(name, [part_result for _j, part_result in sorted(parts_done[i, name].items())])
        # each line once the stages before it (in STAGES order) have theirs
        while len(builds[i].stages) < len(wanted) and wanted[len(builds[i].stages)].name in done:
            stage = done[wanted[len(builds[i].stages)].name]
            builds[i].stages.append(stage)
            lines.say(i, f"  {stage.name:9} {stage.summary} ({stage.seconds:.1f}s)")
            if stage_done:
                stage_done(builds[i])
        if len(builds[i].stages) == len(wanted):
            lines.done(i)

    for i, result in enumerate(builds):
        if result.game is None or not wanted:
            lines.done(i)
    run_tasks(tasks, jobs, done=part_done)


def _run_part(jobs: int | None, part: Part, stage: Stage, game: Game, out_root: Path,
              progress: bool) -> StageResult:
    """One part of a stage, in a task's process (jobs: the processes it may use) or here, one
    after another (jobs None: every CPU, and progress bars)."""
    start = time.perf_counter()
    name = stage.name
    try:
        with own_code_errors():            # (a game's own code failing outside a match)
            stage = part.run(game, out_root, jobs, progress and jobs is None)
    except ContentError as exc:
        stage = StageResult(name, False, f"{len(exc.issues)} errors", errors=exc.issues)
    stage.seconds = time.perf_counter() - start
    return stage


def _merge(name: str, parts: list[StageResult]) -> StageResult:
    """A stage's result from its parts' (in order)."""
    if len(parts) == 1:
        return parts[0]
    return StageResult(name, all(p.ok for p in parts), ", ".join(p.summary for p in parts),
                       seconds=sum(p.seconds for p in parts),
                       errors=[e for p in parts for e in p.errors], findings=any(p.findings for p in parts))


class _InOrder:
    """Each game's lines and its result, given out in the games' order, a later game's held
    until the games before it are done: a build's output reads the same however its tasks
    interleaved."""

    def __init__(self, builds: list[GameBuild], log, finished):
        self.builds, self.log, self.finished = builds, log, finished
        self.held: dict[int, list[str]] = {}
        self.ended: set[int] = set()
        self.current = 0

    def say(self, i: int, line: str) -> None:
        if i != self.current:
            self.held.setdefault(i, []).append(line)
        elif self.log:
            shown = self.shown
            self.status("")
            self.log(line)
            self.status(shown)

    shown = ""

    def status(self, text: str) -> None:
        """A line on the terminal (stderr) that the next says how far the build is."""
        if text or self.shown:
            print(f"\r\033[K{text}", end="", file=sys.stderr, flush=True)
        self.shown = text

    def done(self, i: int) -> None:
        self.ended.add(i)
        while self.current in self.ended:
            if self.finished:
                self.finished(self.builds[self.current])
            self.current += 1
            for line in self.held.pop(self.current, []):
                self.say(self.current, line)


def _stage_cards(game: Game, out_root: Path, jobs: int | None, progress: bool) -> StageResult:
    if not (game.folder / "layouts.yaml").is_file():
        return StageResult("cards", True, "skipped: no layouts.yaml")
    from cardgen.render import render_game

    # (the site's thumbnails too, from the pictures in memory: the site stage need not decode them)
    rendered = render_game(game, out_root, progress=progress, jobs=jobs, thumbnails=True)
    summary = f"{len(rendered.written)} drawn, {rendered.skipped} unchanged"
    if rendered.errors:
        return StageResult("cards", False, f"{summary}, {len(rendered.errors)} failed",
                           errors=rendered.errors)
    return StageResult("cards", True, summary)


def _stage_sheets(game: Game, out_root: Path, jobs: int | None, progress: bool) -> StageResult:
    if not (game.folder / "layouts.yaml").is_file():
        return StageResult("sheets", True, "skipped: no layouts.yaml")
    try:
        from cardgen.sheets import build_sheets
    except ImportError:
        return StageResult("sheets", True, "skipped: proxy sheets not available")

    paths = build_sheets(game, out_root / game.id, jobs=jobs)
    return StageResult("sheets", True, ", ".join(p.name for p in paths) or "nothing to write")


def _stage_site(game: Game, out_root: Path, jobs: int | None, progress: bool) -> StageResult:
    from cardgen.site import build_site

    written = build_site(game, out_root / game.id)
    return StageResult("site", True, f"site/index.html, {len(written)} files")


def _stage_book(game: Game, out_root: Path, jobs: int | None, progress: bool) -> StageResult:
    try:
        from cardgen.publish import build_rulebook
    except ImportError:
        return StageResult("rulebook", True, "skipped: publishing not available")

    return StageResult("rulebook", True, build_rulebook(game, out_root / game.id).path.name)


def _stage_aids(game: Game, out_root: Path, jobs: int | None, progress: bool) -> StageResult:
    try:
        from cardgen.publish import build_aids
    except ImportError:
        return StageResult("rulebook", True, "skipped: publishing not available")

    return StageResult("rulebook", True, build_aids(game, out_root / game.id).path.name)


def _worst_words(report: dict) -> str:
    """The sample matches' furthest outlier, for the summary line (random bots: `cardgen balance`
    looks at every level of play)."""
    from cardgen.sim.balance import outliers

    found = outliers(report)
    if not found:
        return "no deck outside its fair share"
    o = found[0]
    return (f"worst outlier {o['seat']} {100 * o['win_rate']:.0f}% "
            f"(95% CI {100 * o['ci95'][0]:.0f}-{100 * o['ci95'][1]:.0f}%, fair {100 * o['fair']:.0f}%)")


def _stage_matches(game: Game, out_root: Path, jobs: int | None, progress: bool) -> StageResult:
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
    from cardgen.sim.runner import deck_contents, simulate, static_conflicts
    from cardgen.sim.scenarios import check_game
    from cardgen.sim.variants import sample_variants

    engine = load_engine(game)
    results, seconds = simulate(game, matches=SAMPLE_MATCHES, seed=1, progress=progress, engine=engine,
                                jobs=jobs)
    pool, seat_cards = deck_contents(engine)
    report = build_report(game, results, seconds, static=static_conflicts(engine), bots=["random"], seed=1,
                          pool=pool, seat_cards=seat_cards)
    report["variants"], variant_conflicts = sample_variants(game, engine, matches=SAMPLE_VARIANT_MATCHES,
                                                            jobs=jobs)
    write_atomic(out / "simulation.json", json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    write_atomic(out / "simulation.html", format_html(report))
    conflicts = report["conflicts"]
    first = 100 * (report["first_player"]["win_rate"] or 0)
    summary = f"{report['matches']} matches, first player wins {first:.0f}%, {_worst_words(report)}, " \
              f"{len(conflicts)} rule conflicts"
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


def _stage_schemas(game: Game, out_root: Path, jobs: int | None, progress: bool) -> StageResult:
    from cardgen.editor import is_set_up, update_schemas

    if not is_set_up(game.folder):
        return StageResult("schemas", True, "skipped: no editor set-up (cardgen schema GAME --into-folder)")
    written = update_schemas(game)
    return StageResult("schemas", True, ", ".join(display_path(p) for p in written) or "unchanged")


MATCHES_RECORD = ".matches.json"     # the key of the last sample matches, their summary and findings


@dataclass(frozen=True)
class Part:
    """A piece of a stage that runs as a task of its own: run(game, out_root, jobs, progress),
    and its estimated seconds for a game of n distinct cards (rough, from the bundled games:
    they only decide which task starts first)."""

    run: Callable[[Game, Path, int | None, bool], StageResult]
    base: float
    per_card: float = 0.0

    def seconds(self, cards: int) -> float:
        return self.base + self.per_card * cards


@dataclass(frozen=True)
class Stage:
    name: str
    parts: tuple[Part, ...]
    after: tuple[str, ...] = ()     # stages whose outputs it reads (site and TTS: the card PNGs)
    widest: int = 1                 # processes each part can use
    imports: tuple[str, ...] = ()   # loaded before the tasks fork, so that each need not

    def preload(self) -> None:
        """Import what the stage needs here, once, as its first task starts (WeasyPrint takes
        0.8 s): its tasks' processes inherit it. Not before: the first tasks start sooner."""
        for module in self.imports:
            with contextlib.suppress(ImportError):      # (the stage says so itself)
                importlib.import_module(module)


MANY = 64       # (a stage that spreads its own work over as many processes as it is given)
STAGE_PLAN = {stage.name: stage for stage in (
    Stage("cards", (Part(_stage_cards, 0.1, 0.008),), widest=MANY, imports=("cardgen.render.paint_png",)),
    Stage("sheets", (Part(_stage_sheets, 0.3, 0.025),), after=("cards",), widest=MANY,
          imports=("cardgen.sheets", "cardgen.sheets.tts")),
    # (the site no longer decodes card PNGs: the render makes its thumbnails)
    Stage("site", (Part(_stage_site, 0.2, 0.005),), after=("cards",), imports=("cardgen.site",)),
    Stage("rulebook", (Part(_stage_book, 2.5), Part(_stage_aids, 1.2)),
          imports=("cardgen.publish", "weasyprint")),
    Stage("matches", (Part(_stage_matches, 1.0),), widest=MANY,
          imports=("cardgen.sim.runner", "cardgen.engines")),
    Stage("schemas", (Part(_stage_schemas, 0.05, 0.0002),)),
)}


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
