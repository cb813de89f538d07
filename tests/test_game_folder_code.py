"""A game is one folder, for everyone: its Python (engine, deck checks, aid builder) is loaded from
the folder by cardgen/gamecode.py, the same way for the bundled games and for a designer's.

tests/data/tide-runners is a designer's game with all three hooks, its engine in several files;
nothing in the cardgen package knows it.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys

import pytest

from cardgen.engines import load_engine
from cardgen.errors import ContentError
from cardgen.gamecode import load_hook, package_name
from cardgen.model import load_deck, load_game
from cardgen.paths import bundled_game_ids
from cardgen.publish.aid import aid_sections
from cardgen.rules import check_deck, rule_ids
from cardgen.sim.runner import simulate
from cardgen.sim.scenarios import check_game
from tests.conftest import ROOT

TIDE = ROOT / "tests" / "data" / "tide-runners"


@pytest.fixture
def tide(tmp_path):
    folder = tmp_path / "tide-runners"
    shutil.copytree(TIDE, folder)
    return folder


def _cardgen(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


# -- the designer's game goes through every path a bundled game does ------------------------------

def test_its_engine_spans_several_files_of_one_private_package():
    game = load_game(TIDE)
    engine = load_engine(game)
    module = type(engine).__module__
    assert module == f"{package_name(game)}.engine.rules"
    assert sys.modules[f"{package_name(game)}.common"].ROWER == "rower"   # shared with the deck check
    results, _ = simulate(game, matches=200, seed=1, jobs=1, engine=engine)
    assert all(r.finished and not r.conflicts for r in results)
    assert {r.winner for r in results} >= {0, 1}
    assert [r.ok for r in check_game(game, engine)] == [True, True, True]


def test_its_deck_check_in_python_runs_beside_the_declared_ones(tide):
    assert rule_ids(load_game(tide))["more-rowers"].startswith("A deck holds more rowers")
    deck = tide / "decks" / "windy.yaml"
    deck.write_text("game: ..\nname: Windy\ncards:\n  Oarsman: 4\n  Light Breeze: 3\n  Squall: 2\n")
    problems = check_deck(load_deck(deck))
    assert [(p.rule, p.line) for p in problems] == [("more-rowers", 3)]
    result = _cardgen("validate", deck)
    assert result.returncode == 1
    assert result.stdout.strip() == (f"{deck}:3: more-rowers: 4 rowers and 5 gusts: a deck needs more "
                                     "rowers than gusts")


def test_its_aid_builder_makes_the_player_aid():
    sections, missing = aid_sections(load_game(TIDE))
    assert [s.title for s in sections] == ["Turn", "The cards", "Winning"] and missing == []
    assert ["Squall", "3", "Gust"] in sections[1].nodes[0]["rows"]


def test_it_builds_and_simulates_from_the_command_line(tmp_path):
    built = _cardgen("build", TIDE, "--out", tmp_path / "out")
    assert built.returncode == 0, built.stdout + built.stderr
    out = tmp_path / "out" / "tide-runners"
    assert {p.name for p in (out / "cards").glob("*.png")} == {
        "deckhand.png", "oarsman.png", "stroke-captain.png", "harbour-pilot.png", "light-breeze.png",
        "squall.png"}
    for name in ("proxies-letter.pdf", "rulebook.pdf", "player-aids.pdf", "simulation.json"):
        assert (out / name).is_file(), name
    assert "scenarios 3/3 hold" in built.stdout
    report = json.loads((out / "simulation.json").read_text())
    assert report["conflicts"] == []
    info = _cardgen("info", TIDE)
    assert "rules engine: tests/data/tide-runners/engine, 3 scenarios" in info.stdout
    assert "deck checks tests/data/tide-runners/checks/deck.py" in info.stdout


def test_nothing_is_written_into_the_game_folder(tide):
    load_engine(load_game(tide))
    check_deck(load_deck(tide / "decks" / "steady.yaml"))
    aid_sections(load_game(tide))
    assert not list(tide.rglob("__pycache__")) and not list(tide.rglob("*.pyc"))


# -- the package is confined to the folder and re-read when edited --------------------------------

def test_an_edited_module_of_the_package_is_read_again(tide):
    assert load_engine(load_game(tide)).describe(None, ("pass",)) == "passes: no card in hand"
    _edit(tide / "engine" / "words.py", '"passes: no card in hand"', '"rests"')
    assert load_engine(load_game(tide)).describe(None, ("pass",)) == "rests"


def test_an_unchanged_package_keeps_its_classes():
    first, second = load_engine(load_game(TIDE)), load_engine(load_game(TIDE))
    assert type(first) is type(second)


def test_a_module_linked_from_outside_the_folder_is_not_imported(tide, tmp_path):
    outside = tmp_path / "words.py"
    shutil.move(tide / "engine" / "words.py", outside)
    (tide / "engine" / "words.py").symlink_to(outside)
    with pytest.raises(ContentError) as caught:
        load_engine(load_game(tide))
    (issue,) = caught.value.issues
    assert issue.file == tide / "engine" / "rules.py" and issue.line == 12      # from .words import
    assert "ModuleNotFoundError" in issue.message and "words" in issue.message


def test_a_hook_whose_package_reaches_out_of_the_folder_is_refused(tide, tmp_path):
    outside = tmp_path / "elsewhere"
    shutil.copytree(tide / "engine", outside)
    shutil.rmtree(tide / "engine")
    (tide / "engine").symlink_to(outside)
    with pytest.raises(ContentError, match="outside the game folder"):
        load_game(tide)


@pytest.mark.parametrize("hook, file, old, new, words", [
    ("deck_checks", "checks/deck.py", "RULES = ", "RULEZ = ", "must define RULES"),
    ("aids", "aids.py", "def build(", "def make(", "must define build(aid)"),
    ("engine", "engine/state.py", 'PLAY = "play"', 'PLAY = "play" + 1', "TypeError"),
    ("deck_checks", "common.py", "from ..nowhere import x\n", None, "ImportError"),
])
def test_a_mistake_in_a_hook_is_reported_at_its_file(tide, hook, file, old, new, words):
    if new is None:      # prepend
        (tide / file).write_text(old + (tide / file).read_text())
    else:
        _edit(tide / file, old, new)
    with pytest.raises(ContentError) as caught:
        load_hook(load_game(tide), hook) if hook != "engine" else load_engine(load_game(tide))
        if hook == "deck_checks":
            check_deck(load_deck(tide / "decks" / "steady.yaml"))
        if hook == "aids":
            aid_sections(load_game(tide))
    (issue,) = caught.value.issues
    assert words in str(issue)
    assert issue.file.name == file.split("/")[-1] or issue.file.name == "__init__.py"


def test_a_crash_in_a_deck_check_is_its_line_and_exit_2(tide):
    _edit(tide / "checks" / "deck.py", "    counts = card_counts(deck)\n",
          "    counts = card_counts(deck)\n    counts['x'].append(1)\n")
    result = _cardgen("validate", tide / "decks" / "steady.yaml")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{tide / 'checks' / 'deck.py'}:12: the deck checks failed: KeyError" in result.stderr


def test_an_engine_written_before_apply_chosen_still_plays(tide):
    """Designer engines of earlier versions wrote `apply` (checking the move themselves)."""
    _edit(tide / "engine" / "rules.py", "    def apply_chosen(self, s: RaceState, action) -> RaceState:\n",
          "    def apply(self, s: RaceState, action) -> RaceState:\n"
          "        assert action in self.legal_actions(s)\n")
    game = load_game(tide)
    results, _ = simulate(game, matches=50, seed=1, jobs=1)
    assert all(r.finished and not r.conflicts for r in results)


# -- no module of cardgen knows a particular game -------------------------------------------------

def _code_words(path) -> set[str]:
    """Identifiers, imported names and string constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.add(node.value)
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.alias):
            words.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.add(node.module)
    return words


def test_no_module_of_cardgen_names_a_game():
    games = [*bundled_game_ids(), "tide-runners"]
    names = {g for game in games for g in (game, game.replace("-", "_"), game.replace("-", " "))}
    pattern = re.compile(r"(?<![a-z])(" + "|".join(map(re.escape, names)) + r")(?![a-z])", re.I)
    found = {}
    for path in sorted((ROOT / "cardgen").rglob("*.py")):
        hits = sorted({m.group(0) for w in _code_words(path) for m in pattern.finditer(w)})
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert found == {}


def test_the_old_code_key_says_where_the_python_went(tmp_path):
    folder = tmp_path / "guild"
    shutil.copytree(ROOT / "tests" / "data" / "lantern-guild", folder)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("\nname:", "\ncode: dojo_duel\nname:", 1))
    with pytest.raises(ContentError) as caught:
        load_game(folder)
    (issue,) = caught.value.issues
    assert issue.field == "code" and "engine:, deck_checks: and aids:" in issue.message


@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_a_bundled_engine_is_split_into_readable_modules(game_id):
    """An engine is split by concern (state, legal actions, effects, replay text...): no module of
    it runs past about 800 lines, and the package exports ENGINE from a small __init__.py."""
    folder = ROOT / "content" / game_id / "engine"
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in folder.glob("*.py")}
    assert len(sizes) >= 4 and max(sizes.values()) <= 800, sizes


@pytest.mark.parametrize("command", [("simulate", "--matches", "60"), ("replay", "--seed", "1"),
                                     ("simulate", "--matches", "3", "--jobs", "1")])
def test_an_engine_calling_sys_exit_is_reported_at_its_line(tide, command):
    """Issue 20, item 8: sys.exit() in an engine hung simulate's workers, and ended replay and
    --jobs 1 with exit 3 and no word."""
    rules = tide / "engine" / "rules.py"
    text = rules.read_text()
    anchor = "        p, o = s.cur, 1 - s.cur\n"
    assert anchor in text
    rules.write_text(text.replace(anchor, anchor + "        import sys; sys.exit(3)\n", 1))
    line = text[:text.index(anchor)].count("\n") + 2
    result = subprocess.run([sys.executable, "-m", "cardgen", command[0], str(tide), *command[1:],
                             "--out", str(tide.parent / "out")] if command[0] == "simulate" else
                            [sys.executable, "-m", "cardgen", command[0], str(tide), *command[1:]],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    said = result.stdout + result.stderr
    assert f"SystemExit: 3 (rules.py:{line})" in said, said
    assert result.returncode == 1 and "Traceback" not in said
