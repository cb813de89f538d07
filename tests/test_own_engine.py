"""A designer's own rules engine, from their game folder (game.yaml `engine:`), and the starter
game's engine that `cardgen new` writes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardgen.engines import has_engine, load_engine
from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.scaffold import new_game
from cardgen.sim.runner import simulate, static_conflicts
from cardgen.sim.scenarios import check_game
from cardgen.watch import stages_for
from tests.conftest import ROOT


@pytest.fixture
def hive(tmp_path):
    folder = tmp_path / "hive"
    new_game(folder, "Hive Test")
    return folder


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_starter_game_plays_its_matches_on_two_cores(hive):
    game = load_game(hive)
    assert has_engine(game)
    engine = load_engine(game)
    assert static_conflicts(engine) == []
    results, _ = simulate(game, matches=300, seed=1, jobs=2)
    assert len(results) == 300
    assert all(r.finished and not r.conflicts for r in results)
    # both sample decks win matches, and some matches fill the last jar before the season ends
    by_deck = {}
    for r in results:
        if r.winner is not None:
            by_deck[r.seats[r.winner]] = by_deck.get(r.seats[r.winner], 0) + 1
    assert set(by_deck) == {"Starter hive", "Frost and wasps"}
    assert min(by_deck.values()) > 30


def test_the_starter_game_answers_its_scenarios(hive):
    results = check_game(load_game(hive))
    assert len(results) == 9
    assert [r.message for r in results if not r.ok] == []


def test_a_broken_scenario_answer_fails(hive):
    _edit(hive / "scenarios" / "swarm-counts-other-bees.yaml", "honey: 2, bees", "honey: 3, bees")
    failed = [r for r in check_game(load_game(hive)) if not r.ok]
    assert len(failed) == 1 and "p0.honey" in failed[0].message


def test_an_edited_engine_is_read_again(hive):
    engine = load_engine(load_game(hive))
    assert engine.jars_to_win == 6
    _edit(hive / "engine.py", 'int(tables.get("jars_to_win", 6))', '7')
    assert load_engine(load_game(hive)).jars_to_win == 7


def test_a_card_whose_text_has_no_rule_is_reported(hive):
    with open(hive / "cards" / "events.yaml", "a", encoding="utf-8") as f:
        f.write("  - name: Pollen Storm\n    cost: 2\n    text: \"Each player discards a bee.\"\n")
    found = static_conflicts(load_engine(load_game(hive)))
    assert [(c.kind, c.message.split(":")[0]) for c in found] == [("card-text", "Pollen Storm")]


def test_a_keyword_without_rule_is_reported(hive):
    _edit(hive / "game.yaml", "keywords:\n", "keywords:\n  Buzz: Makes noise.\n")
    _edit(hive / "cards" / "bees.yaml", "keywords: [Swarm]", "keywords: [Swarm, Buzz]")
    found = static_conflicts(load_engine(load_game(hive)))
    assert [c.kind for c in found] == ["keyword"] and "Buzz" in found[0].message


@pytest.mark.parametrize("old, new, line, words", [
    ("class HiveState:", "class HiveState(", "class HiveState(", "Python syntax error"),
    ('STINGS = {"Wasp Raid": 2}', 'STINGS = {"Wasp Raid": 2 + None}', 'STINGS = ', "TypeError"),
    ('int(tables.get("jar_cost", 5))', 'int(tables["jar_costs"])', 'tables["jar_costs"]', "KeyError"),
    ("ENGINE = HiveEngine", "ENGINE = 3", None, "ENGINE"),
])
def test_mistakes_in_the_engine_file_name_its_line(hive, old, new, line, words):
    _edit(hive / "engine.py", old, new)
    with pytest.raises(ContentError) as caught:
        load_engine(load_game(hive))
    (issue,) = caught.value.issues
    assert issue.file == (hive / "engine.py").resolve()
    assert words in str(issue)
    if line is not None:
        lines = (hive / "engine.py").read_text().splitlines()
        assert line in lines[issue.line - 1]


@pytest.mark.parametrize("value, words", [
    ("../engine.py", "outside the game folder"),
    ("/tmp/engine.py", "an absolute path"),
    ("rules.py", "no file 'rules.py'"),
    ("engine.txt", "not a Python file"),
])
def test_game_yaml_names_an_engine_file_inside_the_folder(hive, value, words):
    _edit(hive / "game.yaml", "engine: engine.py", f"engine: {value}")
    with pytest.raises(ContentError) as caught:
        load_game(hive)
    (issue,) = caught.value.issues
    assert issue.field == "engine" and issue.line == 10 and words in issue.message


def test_an_engine_reached_through_a_link_out_of_the_folder_is_refused(hive, tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text((hive / "engine.py").read_text())
    (hive / "linked.py").symlink_to(outside)
    _edit(hive / "game.yaml", "engine: engine.py", "engine: linked.py")
    with pytest.raises(ContentError, match="outside the game folder"):
        load_game(hive)


def test_a_game_without_engine_says_how_to_add_one(hive):
    _edit(hive / "game.yaml", "engine: engine.py", "")
    game = load_game(hive)
    assert not has_engine(game)
    with pytest.raises(ContentError, match="engine: engine.py"):
        load_engine(game)


def _cardgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": ""})


def test_simulate_replay_and_check_run_the_folder_engine(hive, tmp_path):
    sim = _cardgen("simulate", hive, "--matches", 60, "--out", tmp_path / "out", cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert "60 finished" in sim.stdout and "rule conflicts: none" in sim.stdout
    replay = _cardgen("replay", hive, "--seed", 3, cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert "ends the turn" in replay.stdout and "collects" in replay.stdout
    check = _cardgen("check", hive, cwd=tmp_path)
    assert check.returncode == 0 and "9 passed, 0 failed" in check.stdout


def test_a_broken_engine_is_an_error_message_not_a_traceback(hive, tmp_path):
    _edit(hive / "engine.py", 'STINGS = {"Wasp Raid": 2}', 'STINGS = {"Wasp Raid": 2 + None}')
    for args in (("simulate", hive, "--matches", 5), ("replay", hive, "--seed", 1), ("check", hive)):
        run = _cardgen(*args, cwd=tmp_path)
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert "engine.py:" in run.stderr and "TypeError" in run.stderr
        assert "Traceback" not in run.stderr
    built = _cardgen("build", hive, "--only", "matches", "--out", tmp_path / "out", cwd=tmp_path)
    assert built.returncode == 2 and "engine.py:" in built.stdout + built.stderr   # as simulate says it
    assert not (tmp_path / "out" / "hive-test" / "simulation.html").exists()


def test_an_engine_edit_reruns_the_matches_when_watching(hive):
    assert "matches" in stages_for([hive / "engine.py"], hive)
    assert "matches" in stages_for([hive / "cards" / "bees.yaml"], hive)    # the engine reads the cards
    assert "matches" not in stages_for([hive / "rules" / "02-playing.md"], hive)


def test_build_reports_a_card_without_rule_and_info_names_the_engine(hive, tmp_path):
    with open(hive / "cards" / "bees.yaml", "a", encoding="utf-8") as f:
        f.write("  - name: Royal Jelly Bee\n    cost: 4\n    honey: 2\n    text: \"Draw a card.\"\n")
    built = _cardgen("build", hive, "--only", "matches", "--out", tmp_path / "out", cwd=tmp_path)
    assert built.returncode == 1
    said = built.stdout + built.stderr
    assert "card-text: Royal Jelly Bee: its text has no rule in engine.py" in said
    assert "--seed None" not in said          # found without playing: no match to replay
    info = _cardgen("info", hive, cwd=tmp_path)
    assert "rules engine: hive/engine.py, 9 scenarios" in info.stdout


STUCK_FILL = '''        elif verb == "fill":
            import time
            give_up = time.monotonic() + 3      # (without a watchdog the test fails, not hangs)
            while s.jars[p] == 2 and time.monotonic() < give_up:    # a rule that does not end
                try:
                    s.honey[p] += 0
                except Exception:       # (an engine's own handler cannot swallow the watchdog)
                    pass
            s.filled = True'''


@pytest.mark.parametrize("jobs, matches", [(1, 12), (2, 60)])
def test_a_match_stuck_inside_one_action_is_stopped_and_reported(hive, jobs, matches):
    _edit(hive / "engine.py", '''        elif verb == "fill":
            s.filled = True''', STUCK_FILL)
    game = load_game(hive)
    results, _ = simulate(game, matches=matches, seed=1, jobs=jobs, time_limit=0.05)
    assert len(results) == matches
    stuck = [r for r in results if any(c.kind == "stuck" for c in r.conflicts)]
    assert stuck and len(stuck) < matches
    assert all(not r.finished and r.conflicts[0].seed == r.seed for r in stuck)
    assert all(r.finished and not r.conflicts for r in results if r not in stuck)


def test_replay_of_a_stuck_match_stops_after_its_moves(hive):
    from cardgen.sim.runner import play_match
    from cardgen.sim.watchdog import watching

    _edit(hive / "engine.py", '''        elif verb == "fill":
            s.filled = True''', STUCK_FILL)
    engine = load_engine(load_game(hive))
    results, _ = simulate(engine.game, matches=12, seed=1, jobs=1, time_limit=0.05)
    seed = next(r.seed for r in results if r.conflicts)
    with watching(0.05):
        log = play_match(engine, engine.setups(), seed, ["random"], log=True)
    assert [c.kind for c in log.result.conflicts] == ["stuck"]
    assert log.moves[-1][2].startswith("fills a jar (3 of 6)")


def test_build_checks_the_scenarios_the_rulebook_prints(hive, tmp_path):
    out = tmp_path / "out"
    built = _cardgen("build", hive, "--only", "matches", "--out", out, cwd=tmp_path)
    assert built.returncode == 0 and "scenarios 9/9 hold" in built.stdout
    _edit(hive / "scenarios" / "swarm-counts-other-bees.yaml", "honey: 2, bees", "honey: 3, bees")
    built = _cardgen("build", hive, "--only", "matches", "--out", out, cwd=tmp_path)
    assert built.returncode == 1 and "scenarios 8/9 hold" in built.stdout
    assert ("swarm-counts-other-bees.yaml: scenario: Swarm counts your other bees, not the new one: "
            "p0.honey: expected 3, got 2") in built.stdout + built.stderr


def test_an_engine_crash_in_a_scenario_fails_that_scenario_only(hive, tmp_path):
    _edit(hive / "scenarios" / "one-jar-a-turn.yaml", "  p0:\n    honey: 10", "  p0: [10]")
    check = _cardgen("check", hive, cwd=tmp_path)
    assert check.returncode == 1 and "Traceback" not in check.stderr
    assert "8 passed, 1 failed" in check.stdout
    assert "object has no attribute 'get' (engine.py:" in check.stdout


def test_a_scenario_stuck_inside_an_action_fails_instead_of_hanging(hive):
    _edit(hive / "engine.py", '''        elif verb == "fill":
            s.filled = True''', STUCK_FILL)
    _edit(hive / "scenarios" / "one-jar-a-turn.yaml", "    honey: 10", "    honey: 10\n    jars: 2")
    results = check_game(load_game(hive), time_limit=0.05)
    failed = [r for r in results if not r.ok]
    assert [r.scenario.path.name for r in failed] == ["one-jar-a-turn.yaml"]
    assert failed[0].message == "the engine was still in action 1 after 0.05 s: a loop inside the rules"


SETUPS_LINE = "        pairs = list(itertools.permutations(lists, 2)) or [(d, d) for d in lists[:1]]"


@pytest.mark.parametrize("new, words", [
    ("        pairs = []", "hive/engine.py: setups: the engine's setups() gave no matchup to play"),
    (SETUPS_LINE + "\n        pairs[0][0].nothing",
     "hive/engine.py:{line}: the engine failed: AttributeError: 'tuple' object has no attribute 'nothing'"),
])
def test_an_engine_failing_outside_a_match_is_one_error_on_every_path(hive, tmp_path, new, words):
    _edit(hive / "engine.py", SETUPS_LINE, new)
    lines = (hive / "engine.py").read_text().splitlines()
    words = words.format(line=next((i for i, text in enumerate(lines, 1) if ".nothing" in text), None))
    # in this process (few matches), on a pool of workers (many), in a replay, and in the build,
    # whose 500 matches go to the pool: its workers must not each fail to start, over and over
    # (each exits 2: the engine is the designer's input to fix, not a finding about the rules)
    for args in (("simulate", "hive", "--matches", 20), ("simulate", "hive", "--matches", 200),
                 ("replay", "hive", "--seed", 2),
                 ("build", "hive", "--only", "matches", "--out", tmp_path / "out")):
        run = _cardgen(*args, cwd=tmp_path)
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert words in run.stdout + run.stderr and "Traceback" not in run.stderr


def test_an_engine_failing_in_its_card_checks_is_an_error_at_its_line(hive, tmp_path):
    _edit(hive / "engine.py", "        ruled = set(WHEN_PLAYED)", "        ruled = set(WHEN_PLAYED) | 1")
    run = _cardgen("simulate", "hive", "--matches", 20, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "hive/engine.py:" in run.stderr and "TypeError: unsupported operand" in run.stderr


def test_a_rule_for_a_renamed_card_is_an_error_not_a_silent_no_op(hive):
    _edit(hive / "cards" / "events.yaml", "name: Clover Field", "name: Clover Patch")
    _edit(hive / "decks" / "starter.yaml", "Clover Field", "Clover Patch")
    _edit(hive / "decks" / "frost-and-wasps.yaml", "Clover Field", "Clover Patch")
    with pytest.raises(ContentError, match=r"rules for cards the game does not have: Clover Field "
                                           r"\(renamed or removed\?\)"):
        load_engine(load_game(hive))


def test_the_watchdog_gives_back_the_callers_alarm():
    import signal
    import time

    from cardgen.sim.watchdog import watching

    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with watching(5.0):
            time.sleep(0.05)
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] < 0.3     # its time goes on, less ours
        time.sleep(0.4)
        assert fired == [True]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
