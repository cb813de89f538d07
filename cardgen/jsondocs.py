"""The documents `--format json` prints for check, build, info and games: one JSON document on
stdout, its shape versioned (`format`) and described in docs/cli.md, with a JSON Schema per
command in docs/cli-schemas/. Every document has the same envelope:

  {"format": 1, "command": "check", "exit": 0, "errors": [...], "result": {...} or null}

`errors` holds every problem the command reported as an `error:` line, each as separate keys
(file, line, field, message); `result` is null when the command stopped before it had one (a game
that does not load, an internal error).
"""

from __future__ import annotations

from cardgen.errors import Cell, Issue, display_path

FORMAT = 1      # raised when a key is renamed or removed, or its meaning changes; new keys keep it


def document(command: str, exit_code: int, errors: list[Issue], result: dict | None) -> dict:
    return {"format": FORMAT, "command": command, "exit": exit_code,
            "errors": [issue_data(i) for i in errors], "result": result}


def issue_data(issue: Issue) -> dict:
    data = {"file": None if issue.file is None else display_path(issue.file),
            "line": None if issue.line is None else int(issue.line),
            "field": issue.field, "message": issue.message}
    if isinstance(issue.line, Cell):    # a spreadsheet's cell: its row is the line
        data["cell"] = str(issue.line)
    return data


def _path(path) -> str | None:
    return None if path is None else display_path(path)


def game_summary(game) -> dict:
    """What `cardgen info` prints, as data."""
    from cardgen.engines import has_engine
    from cardgen.rules import rule_ids
    from cardgen.sim.scenarios import scenario_files

    counts = game.count_by_type()
    engine = None
    if has_engine(game):
        engine = {"file": _path(game.hooks["engine"]), "scenarios": len(scenario_files(game))}
    return {
        "id": game.id, "name": game.name, "folder": _path(game.folder),
        "cards": {"distinct": len(game.cards), "in_box": sum(counts.values()),
                  "by_type": {t: {"label": ct.label, "distinct": len(game.cards_of_type(t)),
                                  "copies": counts[t], "in_decks": ct.in_decks}
                              for t, ct in game.card_types.items()}},
        "keywords": sorted(game.keywords),
        "sample_decks": [d.name for d in sorted((game.folder / "decks").glob("*.yaml"))],
        "deck_rules": list(rule_ids(game)),
        "engine": engine,
        "game_code": {k: _path(p) for k, p in game.hooks.items() if k != "engine"},
        "variants": [{"id": v.id, "name": v.name, "source": v.source, "played": v.played, "rule": v.rule,
                      "why": v.why, "cites": v.cites} for v in game.variants.values()],
        "rulings": [{"rule": r.rule, "cites": r.cites} for r in game.rulings],
    }


def games_entry(game_id: str, game=None, errors: list[Issue] = ()) -> dict:
    """One line of `cardgen games`: a bundled game, or the errors that stop it loading."""
    return {"id": game_id, "name": game.name if game else None,
            "cards": len(game.cards) if game else None, "errors": [issue_data(i) for i in errors]}


def check_result(game, variants, results) -> dict:
    failed = sum(not r.ok for r in results)
    return {"game": game.id, "variants": list(variants),
            "scenarios": [{"file": _path(r.scenario.path), "title": r.scenario.title, "ok": r.ok,
                           "message": None if r.ok else r.message} for r in results],
            "passed": len(results) - failed, "failed": failed}


def build_result(builds, out) -> dict:
    return {"out": _path(out), "games": [_build_entry(b) for b in builds]}


def build_errors(build) -> list[Issue]:
    """A game's problems, in the order `cardgen build` prints them as `error:` lines."""
    return [*build.errors, *(i for d in build.decks for i in d.errors),
            *(i for s in build.stages for i in s.errors)]


def _build_entry(build) -> dict:
    decks = []
    for deck in build.decks:
        entry = deck.as_dict()
        entry["errors"] = [issue_data(i) for i in deck.errors]
        decks.append(entry)
    return {"ref": build.ref, "game": build.game.id if build.game else None,
            "ok": build.ok, "needs_fixing": build.needs_fixing,
            "errors": [issue_data(i) for i in build.errors],
            "decks": decks,
            "stages": [{"name": s.name, "ok": s.ok, "summary": s.summary, "seconds": round(s.seconds, 3),
                        "findings": s.findings, "errors": [issue_data(i) for i in s.errors]}
                       for s in build.stages]}
