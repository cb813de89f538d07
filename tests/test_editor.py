"""Editor set-up in a game folder (cardgen.editor): VS Code's YAML extension finds the schemas
from the folder's settings, and build keeps them current, in a folder that asked for them only."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from cardgen.build import build_game
from cardgen.editor import SCHEMA_FILES, SETTINGS
from cardgen.scaffold import new_game
from cardgen.schema import MARK
from cardgen.yamlio import read_yaml
from tests.conftest import ROOT
from tests.test_schema import GUILD, plain

# yaml-language-server (src/languageservice/utils/paths.ts): a schema path of yaml.schemas that
# matches this is relative, and joined to the workspace folder; any other is taken as a URI.
RELATIVE = re.compile(r"^(((\.\.?)|([\w\-@. ]+))(\/|\\\\?))*[\w\-. ]*\.[\w-]+$", re.I)


def vscode_glob(pattern: str) -> re.Pattern:
    """A yaml.schemas file glob as the extension matches it: "**/" put before it (a leading "/"
    dropped), against the file's whole path; "**/" is any number of folders, "*" part of a name."""
    pattern = "**/" + pattern.removeprefix("/")
    out = ""
    for piece in re.split(r"(\*\*/|\*)", pattern):
        out += {"**/": "(?:.*/)?", "*": "[^/]*"}.get(piece, re.escape(piece))
    return re.compile(out + r"\Z")


def schemas_by_file(folder: Path) -> dict[Path, Path]:
    """Every YAML file of the game folder that VS Code gives a schema, with that schema's file,
    read from the folder's settings as the extension reads them (the game folder opened)."""
    settings = json.loads((folder / SETTINGS).read_text())
    out = {}
    for schema, globs in settings["yaml.schemas"].items():
        assert RELATIVE.match(schema), schema
        globs = [vscode_glob(g) for g in globs]
        for path in folder.rglob("*.y*ml"):
            if any(g.match(path.as_posix()) for g in globs):
                assert path not in out, f"{path} has two schemas"
                out[path] = (folder / schema).resolve()
    return out


@pytest.fixture
def bees(tmp_path):
    folder = tmp_path / "bees"
    new_game(folder, "Bees")
    return folder


def test_new_game_sets_up_schemas_that_check_its_card_and_deck_files(bees):
    found = schemas_by_file(bees)
    cards = sorted((bees / "cards").glob("*.yaml"))
    decks = sorted((bees / "decks").glob("*.yaml"))
    assert sorted(found) == sorted([*cards, *decks, bees / "layouts.yaml"])
    for path, schema_file in found.items():
        assert schema_file.is_relative_to(bees) and schema_file.is_file(), schema_file
        schema = json.loads(schema_file.read_text())
        assert schema["$comment"] == MARK
        jsonschema.Draft7Validator.check_schema(schema)
        jsonschema.validate(plain(read_yaml(path)), schema, cls=jsonschema.Draft7Validator)
    # a card file in a folder of its own is checked too, and only a card file against the card schema
    (bees / "cards" / "spring").mkdir()
    (bees / "cards" / "spring" / "blossom.yml").write_text("name: Blossom\ntype: event\n")
    assert schemas_by_file(bees)[bees / "cards" / "spring" / "blossom.yml"] == found[cards[0]]
    assert found[cards[0]] != found[decks[0]]


def test_build_keeps_the_schemas_current_and_rewrites_them_only_when_they_change(bees, tmp_path):
    deck_schema = bees / SCHEMA_FILES["deck"]
    before = deck_schema.stat()
    result = build_game(str(bees), tmp_path / "out", ("check", "schemas"))
    assert [s.summary for s in result.stages] == ["unchanged"]
    after = deck_schema.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)

    cards = bees / "cards" / "bees.yaml"
    cards.write_text(cards.read_text().replace("name: Forager", "name: Forager Bee"))
    result = build_game(str(bees), tmp_path / "out", ("check", "schemas"))
    assert result.stages[0].ok and SCHEMA_FILES["deck"] in result.stages[0].summary
    names = json.loads(deck_schema.read_text())["properties"]["cards"]["else"]["propertyNames"]["enum"]
    assert "Forager Bee" in names and "Forager" not in names


def test_build_writes_no_schemas_into_a_folder_that_did_not_ask(tmp_path):
    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    files = sorted(folder.rglob("*"))
    result = build_game(str(folder), tmp_path / "out", ("check", "schemas"))
    assert result.stages[0].summary.startswith("skipped")
    assert sorted(folder.rglob("*")) == files


def test_settings_that_point_at_the_schemas_ask_for_them(tmp_path):
    """A fresh clone of a game whose .cardgen/ is not kept in git: the settings are, and the
    build writes the schemas they point at."""
    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    (folder / ".vscode").mkdir()
    (folder / SETTINGS).write_text('{\n  // mine\n  "yaml.schemas": {"./.cardgen/cards.schema.json": '
                                   '"cards/**/*.yaml"}\n}\n')
    build_game(str(folder), tmp_path / "out", ("check", "schemas"))
    assert json.loads((folder / SCHEMA_FILES["cards"]).read_text())["title"] == "Lantern Guild card file"


def test_a_file_of_the_designers_in_the_schemas_place_is_never_replaced(bees, tmp_path):
    mine = bees / SCHEMA_FILES["cards"]
    mine.write_text('{"mine": true}')
    result = build_game(str(bees), tmp_path / "out", ("check", "schemas"))
    assert not result.ok and "was not written by cardgen" in str(result.stages[0].errors[0])
    assert mine.read_text() == '{"mine": true}'


def test_the_schemas_folder_may_not_be_a_link_out(bees, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.move(bees / ".cardgen", elsewhere)
    (bees / ".cardgen").symlink_to(elsewhere)
    result = build_game(str(bees), tmp_path / "out", ("check", "schemas"))
    assert not result.ok and "is a link" in str(result.stages[0].errors[0])


def test_schema_into_folder_sets_up_an_existing_game_and_leaves_the_designers_settings(tmp_path):
    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    run = [sys.executable, "-m", "cardgen", "schema", str(folder), "--into-folder"]
    made = subprocess.run(run, capture_output=True, text=True, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    assert sorted(schemas_by_file(folder)) == sorted([*(folder / "cards").rglob("*.yaml"),
                                                      *(folder / "decks").glob("*.yaml"),
                                                      folder / "layouts.yaml"])

    again = tmp_path / "guild2"
    shutil.copytree(GUILD, again)
    (again / ".vscode").mkdir()
    (again / SETTINGS).write_text('{"editor.tabSize": 2}\n')
    made = subprocess.run([*run[:4], str(again), "--into-folder"], capture_output=True, text=True, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    assert (again / SETTINGS).read_text() == '{"editor.tabSize": 2}\n'
    assert '"./.cardgen/cards.schema.json"' in made.stdout and "is yours" in made.stdout
    assert (again / SCHEMA_FILES["cards"]).is_file()
