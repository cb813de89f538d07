"""Scenarios: the rulebook's worked examples and FAQ answers, checked by the game's engine.

A scenario file sets up a position, applies moves and states the expected result; see
docs/engines.md. `cardgen check GAME` runs them all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from cardgen.engines.base import IllegalAction
from cardgen.errors import ContentError, Issue, IssueList, crash_words
from cardgen.model.fields import (
    AnySpec,
    CheckContext,
    EnumSpec,
    IntSpec,
    ListSpec,
    StrSpec,
    check_fields,
)
from cardgen.sim.watchdog import ACTION_SECONDS, WATCH, MatchStuck, watching
from cardgen.yamlio import read_yaml

SCENARIO_FIELDS = {
    "title": StrSpec(), "source": EnumSpec(["faq", "example", "ruling", "check"]),
    "question": StrSpec(text=True), "answer": StrSpec(text=True), "seed": IntSpec(0),
    "setup": AnySpec(), "actions": ListSpec(AnySpec()), "expect": AnySpec(),
    "expect_legal": ListSpec(AnySpec()), "expect_illegal": ListSpec(AnySpec()),
    "order": IntSpec(), "notes": StrSpec(text=True),
}


@dataclass
class Scenario:
    path: Path
    data: dict

    @property
    def title(self) -> str:
        return self.data.get("title", self.path.stem)


@dataclass
class ScenarioResult:
    scenario: Scenario
    ok: bool
    message: str = ""


def load_scenario(path: Path) -> Scenario:
    data = read_yaml(path, Path(path).absolute().parent.parent)     # (the game folder)
    issues = IssueList(path)
    if not isinstance(data, dict):
        issues.add(1, None, "a scenario is a mapping with title, setup, actions and expect")
        issues.raise_if_any()
    check_fields(data, SCENARIO_FIELDS, ["title", "setup"], data.line, "", CheckContext(issues))
    issues.raise_if_any()
    return Scenario(path, data)


def scenario_files(game) -> list[Path]:
    return sorted((game.folder / "scenarios").glob("*.yaml"))


def run_scenario(engine, scenario: Scenario, variants: tuple[str, ...] = ()) -> ScenarioResult:
    """Play a scenario; `variants` (`cardgen check --variant`) join those its setup names."""
    data = scenario.data
    step = 0        # the action under way (the watchdog reads it, see sim/watchdog.py)
    watch = WATCH
    watch.match += 1
    watch.running = True
    try:
        state = engine.scenario_state(with_variants(data["setup"], variants),
                                      random.Random(data.get("seed", 0)))
        for step, spec in enumerate(data.get("actions") or [], 1):
            action = engine.parse_action(state, spec)
            if action not in engine.legal_actions(state):
                return ScenarioResult(scenario, False, f"action {step} ({spec!r}) is not legal here")
            engine.apply(state, action)
        observed = engine.observe(state)
        mismatch = subset_mismatch(data.get("expect") or {}, observed, "")
        if mismatch:
            return ScenarioResult(scenario, False, mismatch)
        legal = engine.legal_actions(state)
        for spec in data.get("expect_legal") or []:
            if engine.parse_action(state, spec) not in legal:
                return ScenarioResult(scenario, False, f"expected {spec!r} to be legal at the end")
        for spec in data.get("expect_illegal") or []:
            try:
                action = engine.parse_action(state, spec)
            except (IllegalAction, ValueError, KeyError):
                continue
            if action in legal:
                return ScenarioResult(scenario, False, f"expected {spec!r} not to be legal at the end")
    except MatchStuck:
        return ScenarioResult(scenario, False, f"the engine was still in action {step} after "
                                               f"{watch.limit:g} s: a loop inside the rules")
    except (IllegalAction, ValueError, KeyError) as exc:
        return ScenarioResult(scenario, False, f"{type(exc).__name__}: {exc}")
    except (Exception, SystemExit) as exc:  # an engine crash fails the scenario, where it happened
        return ScenarioResult(scenario, False, crash_words(exc))
    finally:
        watch.running = False
    return ScenarioResult(scenario, True)


WATCH.codes.add(run_scenario.__code__)


def with_variants(setup, variants: tuple[str, ...]):
    """The setup with `variants` added to its own `variants:` list (where engines read them)."""
    if not variants or not isinstance(setup, dict):
        return setup
    own = setup.get("variants") if isinstance(setup.get("variants"), list) else []
    return {**setup, "variants": list(dict.fromkeys([*own, *variants]))}


def _variant_issues(game, scenario: Scenario) -> list[Issue]:
    """A scenario's `setup: variants:` must name variants of the game that the engine plays."""
    setup = scenario.data.get("setup")
    names = setup.get("variants") if isinstance(setup, dict) else None
    if not isinstance(names, list) or not game.variants:
        return []
    line = setup.line_of("variants") if hasattr(setup, "line_of") else None
    return [Issue(scenario.path, line, "setup.variants", problem) for name in names
            if (problem := game.variant_problem(str(name)))]


def run_scenario_file(engine, path: Path) -> ScenarioResult:
    return run_scenario(engine, load_scenario(Path(path)))


def subset_mismatch(expected, observed, where: str) -> str:
    """'' when `expected` is contained in `observed`, else what differs and where."""
    if isinstance(expected, dict):
        if not isinstance(observed, dict):
            return f"{where or 'result'}: expected a mapping, got {observed!r}"
        for key, value in expected.items():
            at = f"{where}.{key}" if where else str(key)
            if key not in observed:
                return f"{at}: not observed (have: {', '.join(map(str, observed))})"
            found = subset_mismatch(value, observed[key], at)
            if found:
                return found
        return ""
    if _plain(expected) != _plain(observed):
        return f"{where}: expected {expected!r}, got {observed!r}"
    return ""


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def check_game(game, engine=None, time_limit: float | None = ACTION_SECONDS,
               variants: tuple[str, ...] = ()) -> list[ScenarioResult]:
    """Run every scenario of a game (with `engine`, if it is loaded already); one stuck in an action
    for `time_limit` seconds fails. Unreadable files raise ContentError with all their issues.
    `variants`: played in every scenario besides those its setup names (`check --variant`)."""
    from cardgen.engines import load_engine

    engine = engine or load_engine(game)
    issues = []
    scenarios = []
    for path in scenario_files(game):
        try:
            scenarios.append(load_scenario(path))
        except ContentError as exc:
            issues.extend(exc.issues)
            continue
        issues.extend(_variant_issues(game, scenarios[-1]))
    if issues:
        raise ContentError(issues)
    with watching(time_limit):
        return [run_scenario(engine, s, variants) for s in scenarios]
