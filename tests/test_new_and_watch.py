"""A designer's loop: `cardgen new` makes a game that builds, `cardgen watch` rebuilds on save."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardgen.scaffold import new_game
from cardgen.watch import stages_for
from tests.conftest import ROOT, Watching


def test_new_then_build_makes_cards_deck_report_and_more(tmp_path):
    folder = tmp_path / "honey"
    made = subprocess.run([sys.executable, "-m", "cardgen", "new", folder, "--name", "Honey Meadow"],
                          capture_output=True, text=True, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    out = tmp_path / "out"
    built = subprocess.run([sys.executable, "-m", "cardgen", "build", folder, "--out", out],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    game_out = out / "honey-meadow"
    assert len(list((game_out / "cards").glob("*.png"))) == 8
    assert (game_out / "backs" / "default.png").is_file()
    assert "starter.yaml: legal" in (game_out / "report.txt").read_text()


def test_new_never_writes_into_a_folder_with_files(tmp_path):
    from cardgen.errors import ContentError

    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(ContentError, match="not empty"):
        new_game(tmp_path)
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_new_copies_the_starter_game_without_python_caches(tmp_path, monkeypatch):
    """pip compiles the starter's engine.py when it installs the wheel: the __pycache__ it leaves
    beside it is not part of the game (and reading it as text was an internal error)."""
    import shutil

    import cardgen.scaffold

    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates" / "new-game", templates / "new-game",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (templates / "new-game" / "__pycache__").mkdir()
    (templates / "new-game" / "__pycache__" / "engine.cpython-311.pyc").write_bytes(b"\xa7\r\r\n\0")
    monkeypatch.setattr(cardgen.scaffold, "templates_dir", lambda: templates)
    written = new_game(tmp_path / "mine")
    assert (tmp_path / "mine" / "engine.py").is_file()
    assert not (tmp_path / "mine" / "__pycache__").exists()
    assert all("__pycache__" not in p.parts for p in written)


def test_stages_follow_what_changed(tmp_path):
    assert stages_for([tmp_path / "rules" / "a.md"], tmp_path) == ("check", "rulebook")
    # (and the editor's schemas: their names fill the deck schema)
    assert stages_for([tmp_path / "cards" / "x.yaml"], tmp_path) == ("check", "cards", "sheets", "site",
                                                                     "rulebook", "matches", "schemas")
    assert stages_for([tmp_path / ".cardgen" / "cards.schema.json"], tmp_path) == ("check",)
    # the rulebook prints the sample decks, and the matches play them
    assert stages_for([tmp_path / "decks" / "d.yaml"], tmp_path) == ("check", "sheets", "site", "rulebook",
                                                                     "matches")
    # art and fonts, wherever they lie: whatever draws cards
    for asset in ("art/hero.png", "fonts/Mine.otf", "frame.svg"):
        assert stages_for([tmp_path / asset], tmp_path) == ("check", "cards", "sheets", "site", "rulebook")
    assert stages_for([tmp_path / "templates" / "rulebook" / "cover.html.j2"], tmp_path) == ("check",
                                                                                            "rulebook")


def test_watch_rebuilds_on_save_and_survives_a_mistake(tmp_path):
    folder = tmp_path / "game"
    new_game(folder, "Watch Test")
    out = tmp_path / "out"
    png = out / "watch-test" / "cards" / "forager.png"
    cards = folder / "cards" / "bees.yaml"
    with Watching(folder, out) as watching:
        before = png.stat().st_mtime_ns
        cards.write_text(cards.read_text().replace("honey: 2\n", "honey: 3\n", 1))
        watching.wait_for("rebuilt")
        assert png.stat().st_mtime_ns != before
        assert any("1 drawn" in line for line in watching.lines), watching.lines
        # the editor's schemas are left as they are: no card name changed
        assert any("schemas   unchanged" in line for line in watching.lines), watching.lines
        watching.lines.clear()
        cards.write_text(cards.read_text().replace("honey: 3\n", "honey: 9\n", 1))
        watching.wait_for("rebuilt")
        assert any("honey: expected 0-4, got 9" in line for line in watching.lines), watching.lines
        assert watching.thread.is_alive()
        watching.lines.clear()
        cards.write_text(cards.read_text().replace("honey: 9\n", "honey: 2\n", 1))
        watching.wait_for("rebuilt")
        assert any(", ok" in line for line in watching.lines), watching.lines
        watching.lines.clear()
        cards.write_text(cards.read_text().replace("name: Forager\n", "name: Forager Bee\n", 1))
        watching.wait_for("rebuilt")
        assert "Forager Bee" in (folder / ".cardgen" / "deck.schema.json").read_text()


def test_a_watch_reports_a_deck_that_does_not_load_once(tmp_path):
    """(each stage that reads the deck stopped at it, and the watch printed its error as often)"""
    folder = tmp_path / "game"
    new_game(folder, "Deck Mistake")
    with Watching(folder, tmp_path / "out") as watching:
        (folder / "decks" / "starter.yaml").write_text("name: Starter\ncards: [\n")
        watching.wait_for("rebuilt")
    errors = [line for line in watching.lines if "starter.yaml:3: YAML syntax error" in line]
    assert len(errors) == 1, watching.lines


@pytest.mark.parametrize("name", ["Bees: The Game", 'The "Hive"', "#1 Hive", "Ökonomie der Bienen"])
def test_new_keeps_any_game_name_a_name(tmp_path, name):
    from cardgen.model import load_game

    new_game(tmp_path / "g", name)
    game = load_game(tmp_path / "g")
    assert game.name == name
    assert game.id == {"Bees: The Game": "bees-the-game", 'The "Hive"': "the-hive", "#1 Hive": "1-hive",
                       "Ökonomie der Bienen": "okonomie-der-bienen"}[name]
