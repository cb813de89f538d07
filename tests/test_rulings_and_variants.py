"""Published rules first: game.yaml says which rulings fill the rulebook's gaps and which variants
change it, each with the rulebook sentence; deck advice is a warning, never an illegal deck."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from cardgen.engines import load_engine
from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.publish.sections import colophon, rulings, variants
from tests.conftest import ROOT

TIDE = ROOT / "tests" / "data" / "tide-runners"
GUILD = ROOT / "tests" / "data" / "lantern-guild"


def cardgen(*args):
    return subprocess.run([sys.executable, "-m", "cardgen", *args], capture_output=True, text=True,
                          cwd=ROOT)


@pytest.fixture
def folder(tmp_path):
    """A copy of a test game whose game.yaml a test may edit: folder(game) -> (path, edit)."""
    def copy(source):
        target = tmp_path / source.name
        shutil.copytree(source, target)

        def edit(old: str, new: str):
            path = target / "game.yaml"
            text = path.read_text(encoding="utf-8")
            assert old in text
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return target, edit
    return copy


# -- rulings and variants in game.yaml -------------------------------------------------------------

def test_rulings_and_variants_are_read_with_their_citations():
    game = load_game(TIDE)
    first, second = game.rulings
    assert first.rule == "A gust cannot push a boat back past the start line."
    assert first.cites == "A gust pushes the rival boat back by its push." and first.line
    assert second.cites is None                       # a plain string is a ruling too
    (variant,) = game.variants.values()
    assert (variant.id, variant.name, variant.source, variant.played) == (
        "long-race", "The long race", "rulebook", True)


def test_a_house_variant_quotes_the_rule_it_changes_and_an_unplayed_one_says_why(folder):
    path, edit = folder(TIDE)
    edit("    source: rulebook\n", "    source: house\n    played: false\n")
    with pytest.raises(ContentError) as err:
        load_game(path)
    said = {(i.field, i.line) for i in err.value.issues}
    assert {f for f, _ in said} == {"variants.long-race.cites", "variants.long-race.why"}
    assert all(line for _, line in said)


def test_a_misspelt_variant_field_is_named_with_its_line(folder):
    path, edit = folder(TIDE)
    edit("    rule: The finish line", "    rules: The finish line")
    with pytest.raises(ContentError) as err:
        load_game(path)
    fields = {i.field for i in err.value.issues}
    assert "variants.long-race.rules" in fields and "variants.long-race.rule" in fields


def test_rulings_listed_twice_are_an_error(folder):
    path, edit = folder(TIDE)
    edit("  finish_line: 12\n", "  finish_line: 12\n  rulings: [Boats start level.]\n")
    with pytest.raises(ContentError) as err:
        load_game(path)
    assert [i.field for i in err.value.issues] == ["tables.rulings"]


def test_plain_tables_rulings_of_an_older_folder_still_read(folder):
    path, edit = folder(GUILD)
    edit("deck:\n", "tables:\n  rulings:\n    - Lanterns are lit at dusk.\ndeck:\n")
    game = load_game(path)
    assert [r.rule for r in game.rulings] == ["Lanterns are lit at dusk."]


def test_engine_and_game_yaml_must_name_the_same_variants(folder):
    path, edit = folder(TIDE)
    edit("variants:\n", "variants:\n  night-race:\n    name: Night race\n    source: rulebook\n"
                        "    rule: Rowers move 1 less.\n")
    with pytest.raises(ContentError) as err:
        load_engine(load_game(path))
    (issue,) = err.value.issues
    assert issue.field == "variants.night-race" and "does not play" in issue.message and issue.line


def test_a_variant_changes_the_match_and_the_report_says_which_rules_were_played(tmp_path):
    plain = cardgen("simulate", str(TIDE), "--matches", "30", "--format", "json", "--out", str(tmp_path))
    long = cardgen("simulate", str(TIDE), "--matches", "30", "--format", "json", "--out", str(tmp_path),
                   "--variant", "long-race")
    plain, long = json.loads(plain.stdout), json.loads(long.stdout)
    assert plain["rules"] == {"as_published": True, "variants": []}
    assert long["rules"]["variants"] == [{"id": "long-race", "name": "The long race", "source": "rulebook"}]
    assert long["length"]["mean"] > plain["length"]["mean"]


def test_the_build_report_shows_every_variant_beside_the_published_rules(tmp_path):
    built = cardgen("build", str(TIDE), "--only", "matches", "--out", str(tmp_path))
    assert built.returncode == 0, built.stderr
    report = json.loads((tmp_path / "tide-runners" / "simulation.json").read_text())
    assert report["rules"]["as_published"]
    (row,) = report["variants"]
    assert row["id"] == "long-race" and row["matches"] == 100 and row["conflicts"] == 0
    assert "0 rule conflicts; 1 variant sampled apart" in built.stdout
    assert "by variant" in (tmp_path / "tide-runners" / "simulation.html").read_text().lower()


def test_info_lists_variants_and_rulings_with_the_rulebook_sentence():
    out = cardgen("info", str(TIDE)).stdout
    assert "long-race: The long race, an optional rule of the rulebook" in out
    assert " 1. A gust cannot push a boat back past the start line." in out
    assert "rulebook: A gust pushes the rival boat back by its push." in out


def test_the_rulebook_prints_rulings_in_its_own_words_and_variants_as_optional_rules():
    game = load_game(TIDE)
    (node,) = rulings(game, scenarios=[])
    # the sentence a ruling fills in is the designer's note (cardgen info shows it): the book
    # states the rule in its chapters already, and quoting it again ran to 2 pages (issue 25)
    assert node["kind"] == "cited" and str(node["items"][0]["text"]).startswith("A gust cannot push")
    assert not node["items"][0]["cites"]
    lead, listed = variants(game)
    assert "agree to it" in str(lead["text"])
    (item,) = listed["items"]
    # the book speaks to players: the --variant name is in the colophon only (issue 25)
    assert item["title"] == "The long race" and item["meta"] == "Optional rule of the rulebook"
    assert "--variant long-race" in " ".join(str(i) for i in colophon(game)["items"])


# -- deck advice: severity ---------------------------------------------------------------------------

def _guild_with_warning(folder):
    path, edit = folder(GUILD)
    edit("{check: type-count, id: relic-limit, types: [relic], max: 1}",
         "{check: type-count, id: relic-limit, types: [relic], max: 1, severity: warning}")
    deck = path / "decks" / "relics.yaml"
    deck.write_text(f"game: {path}\nname: Relics\ncaptain: Harbour Warden\ncards:\n  Wick Runner: 3\n"
                    "  Harbour Warden: 2\n  Wandering Tinker: 3\n  Spare Oil: 2\n  Guild Charter: 1\n"
                    "  Harbour Lantern: 1\n", encoding="utf-8")
    return deck


def test_a_warning_is_printed_but_the_deck_is_legal(folder):
    deck = _guild_with_warning(folder)
    result = cardgen("validate", str(deck))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{deck}:4: warning: relic-limit: has 2 relic cards: at most 1 allowed" in result.stdout
    assert result.stdout.strip().endswith("ok (lantern-guild, 1 warning)")


def test_strict_makes_a_warning_an_error(folder):
    deck = _guild_with_warning(folder)
    result = cardgen("validate", "--strict", str(deck))
    assert result.returncode == 1
    assert f"{deck}:4: relic-limit: has 2 relic cards" in result.stdout and "ok" not in result.stdout


def test_json_gives_each_problem_its_severity(folder):
    deck = _guild_with_warning(folder)
    (report,) = json.loads(cardgen("validate", "--format", "json", str(deck)).stdout)
    assert report["legal"] and report["warnings"] == 1
    assert report["problems"][0]["severity"] == "warning"


def test_a_severity_that_is_neither_is_a_content_error(folder):
    path, edit = folder(GUILD)
    edit("max: 1}", "max: 1, severity: advice}")
    with pytest.raises(ContentError) as err:
        load_game(path)
    (issue,) = err.value.issues
    assert issue.field == "deck.checks[3].severity" and "error, warning" in issue.message


def test_check_plays_the_scenarios_with_a_variant_on_and_shows_what_it_changes():
    published = cardgen("check", str(TIDE))
    assert published.returncode == 0 and "3 passed, 0 failed" in published.stdout
    varied = cardgen("check", str(TIDE), "--variant", "long-race")
    assert varied.returncode == 1
    assert varied.stdout.startswith("with variant long-race on in every scenario")
    assert "FAIL tests/data/tide-runners/scenarios/first-to-the-line.yaml" in varied.stdout
    assert "2 passed, 1 failed" in varied.stdout
    refused = cardgen("check", str(TIDE), "--variant", "short-race")
    assert refused.returncode == 2 and "has no variant 'short-race'" in refused.stderr


def test_a_scenario_naming_a_variant_the_game_lacks_is_a_content_error(folder):
    path, _ = folder(TIDE)
    scenario = path / "scenarios" / "first-to-the-line.yaml"
    text = scenario.read_text().replace("  to_move: 0\n", "  to_move: 0\n  variants: [long-races]\n")
    scenario.write_text(text)
    result = cardgen("check", str(path))
    assert result.returncode == 2
    assert f"{scenario}:9: setup.variants: Tide Runners has no variant 'long-races'" in result.stderr
