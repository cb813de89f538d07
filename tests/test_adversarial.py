"""Issue 20's adversarial inputs: what a careless or hostile user can do to cardgen. Each ends in
one clear line and the right exit code (2: fix your input or machine; 1: findings; 3: a bug in
cardgen; 130: interrupted), never a traceback, never a silent wrong, never a hang."""

from __future__ import annotations

import errno
import shutil
import subprocess
import sys

import pytest

from cardgen import cli
from tests.conftest import ROOT

TIDE = ROOT / "tests" / "data" / "tide-runners"


def cardgen(*args, cwd=ROOT, timeout=180):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def test_an_internal_bug_is_one_line_and_exit_3(monkeypatch, capsys):
    def broken(args):
        return {}["missing"]

    monkeypatch.setattr(cli, "cmd_games", broken)
    assert cli.main(["games"]) == 3
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("internal error: a bug in cardgen") and "KeyError" in err and "--debug" in err


@pytest.mark.parametrize("where", [["--debug", "games"], ["games", "--debug"]])
def test_debug_shows_the_traceback_of_an_internal_bug(monkeypatch, capsys, where):
    monkeypatch.setattr(cli, "cmd_games", lambda args: 1 / 0)
    assert cli.main(where) == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and "ZeroDivisionError" in err


def test_a_full_disk_is_the_path_and_the_reason_exit_2(monkeypatch, capsys, tmp_path):
    import cardgen.fsutil as fsutil

    def full(path, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(fsutil, "write_atomic", full)
    assert cli.main(["schema", str(TIDE), "--out", str(tmp_path / "schema")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "No space left on device" in err and "schema" in err


@pytest.mark.parametrize("command", [["render", TIDE], ["sheets", TIDE], ["rulebook", TIDE],
                                     ["build", TIDE, "--only", "cards"], ["schema", TIDE]])
def test_out_naming_a_file_is_refused_before_any_work(tmp_path, command):
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    result = cardgen(*command, "--out", afile)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == f"error: --out {afile}: is a file, not a folder"
    assert afile.read_text() == "mine"


def test_new_onto_a_file_is_refused(tmp_path):
    afile = tmp_path / "mygame"
    afile.write_text("mine")
    result = cardgen("new", afile)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert afile.read_text() == "mine"


# item 1: only a game folder's own regular files are read (the rest of item 1 is in
# test_publish_security.py and test_loader_errors.py)

def test_a_layouts_file_that_is_a_pipe_is_refused_as_one(tmp_path):
    import os

    folder = tmp_path / "tide"
    shutil.copytree(TIDE, folder)
    (folder / "layouts.yaml").unlink()
    os.mkfifo(folder / "layouts.yaml")
    result = cardgen("render", folder, "--out", tmp_path / "out", timeout=60)
    assert result.returncode == 2
    assert "layouts.yaml: this file is not a regular file" in result.stderr, result.stderr


# item 10: rulebook and schema

GUILD = ROOT / "tests" / "data" / "lantern-guild"


def copy_game(source, tmp_path):
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    return folder


def a_png(path, size=(60, 40)):
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "red").save(path)
    return path


def make_text(path):
    path.write_text("hello, I am not a picture\n")


def make_truncated(path):
    data = a_png(path, (300, 200)).read_bytes()
    path.write_bytes(data[:len(data) // 2])


def make_empty(path):
    path.write_bytes(b"")


def make_folder(path):
    path.mkdir()


def make_bad_svg(path):
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect')


BROKEN_IMAGES = {"text named .png": ("map.png", make_text, "cannot be read as an image"),
                 "truncated png": ("map.png", make_truncated, "cannot be read as an image"),
                 "empty file": ("map.png", make_empty, "cannot be read as an image"),
                 "a folder": ("map.png", make_folder, "is a folder, not a file"),
                 "broken svg": ("map.svg", make_bad_svg, "cannot be read as an image"),
                 "missing": ("map.png", lambda path: None, "no such file")}


@pytest.mark.parametrize("case", BROKEN_IMAGES)
def test_an_unreadable_rulebook_image_is_an_error_at_its_chapter_line(tmp_path, capsys, case):
    name, make, words = BROKEN_IMAGES[case]
    game = copy_game(GUILD, tmp_path)
    (game / "art").mkdir()
    make(game / "art" / name)
    (game / "rules" / "05-map.md").write_text(f"# The map\n\nThe city:\n\n![A map of the city](art/{name})\n")
    assert cli.main(["rulebook", str(game), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"05-map.md:5: image: art/{name}: {words}" in err, err
    assert not (tmp_path / "out" / "lantern-guild" / "rulebook.pdf").exists()


def test_an_unreadable_image_in_a_game_template_is_an_error(tmp_path, capsys):
    game = copy_game(GUILD, tmp_path)
    make_text(game / "logo.png")
    cover = game / "templates" / "rulebook" / "cover.html.j2"
    cover.parent.mkdir(parents=True)
    cover.write_text('<section class="cover"><h1>{{ game.name }}</h1><img src="logo.png" alt="Logo">'
                     "</section>\n")
    assert cli.main(["rulebook", str(game), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "image: logo.png: cannot be read as an image" in err and "Traceback" not in err, err


def test_an_image_weasyprint_cannot_draw_is_an_error_at_its_chapter_line(tmp_path, capsys):
    game = copy_game(GUILD, tmp_path)
    (game / "notes.txt").write_text("not a picture either")       # not named as an image
    (game / "rules" / "05-map.md").write_text("# The map\n\n![A map](notes.txt)\n")
    assert cli.main(["rulebook", str(game), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "05-map.md:3: image: notes.txt: cannot be read as an image (WeasyPrint could not draw it)" \
        in err, err


def test_an_unreadable_image_in_the_player_aids_is_an_error(tmp_path, capsys):
    game = copy_game(GUILD, tmp_path)
    make_truncated(game / "logo.png")
    aids = game / "templates" / "aids" / "aids.html.j2"
    aids.parent.mkdir(parents=True)
    aids.write_text('<html><body><h1>{{ game.name }}</h1><img src="logo.png" alt="Logo"></body></html>\n')
    assert cli.main(["aids", str(game), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "image: logo.png: cannot be read as an image: the file is cut short" in err, err


def test_a_rulebook_image_that_reads_is_printed(tmp_path, capsys):
    game = copy_game(GUILD, tmp_path)
    a_png(game / "art" / "map.png")
    (game / "rules" / "05-map.md").write_text("# The map\n\n![A map of the city](art/map.png)\n")
    assert cli.main(["rulebook", str(game), "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err


def test_a_placeholder_inside_a_sentence_is_an_error_naming_its_line(tmp_path, capsys):
    game = copy_game(GUILD, tmp_path)
    (game / "rules" / "05-more.md").write_text(
        "---\ntitle: More\n---\n# More\n\nThe first to light [[table:lamps]] lamps wins.\n\n"
        "Write `[[faq]]` in a chapter to print the questions.\n")
    assert cli.main(["rulebook", str(game), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(
        "05-more.md:6: [[table:lamps]]: a placeholder prints a block (a table, a list...) and must "
        "be alone on its line; to print one value inside a sentence, write [[value:lamps]]"), err


def chapter_placeholders_inline(folder):
    from cardgen.publish.chapters import parse_chapter, read_chapter_files

    for path, text in read_chapter_files(folder / "rules"):
        parse_chapter(path, text, lambda name: "1", lambda src: src, set())


@pytest.mark.parametrize("folder", [ROOT / "templates" / "new-game",
                                    *sorted((ROOT / "content").glob("*/"))], ids=lambda p: p.name)
def test_no_bundled_chapter_writes_a_placeholder_inside_a_sentence(folder):
    chapter_placeholders_inline(folder)     # raises ContentError naming the line


def test_the_starter_rulebook_prints_no_placeholder_text(tmp_path):
    import pypdfium2 as pdfium

    assert cardgen("new", tmp_path / "bees").returncode == 0
    assert cardgen("rulebook", tmp_path / "bees", "--out", tmp_path / "out").returncode == 0
    pdf = pdfium.PdfDocument(str(tmp_path / "out" / "bees" / "rulebook.pdf"))
    text = " ".join(page.get_textpage().get_text_range() for page in pdf)
    pdf.close()
    assert "[[" not in text and "fill 6 honey jars" in text.replace("\r\n", " ").replace("\n", " ")


def test_schema_refuses_to_replace_a_users_file(tmp_path, capsys):
    mine = tmp_path / "editor" / "tide-runners.cards.schema.json"
    mine.parent.mkdir()
    mine.write_text("my own notes\n")
    assert cli.main(["schema", str(TIDE), "--out", str(mine.parent)]) == 2
    err = capsys.readouterr().err
    assert "tide-runners.cards.schema.json: already exists and was not written by cardgen schema" in err
    assert mine.read_text() == "my own notes\n"
    assert not (mine.parent / "tide-runners.deck.schema.json").exists()    # nothing half done


def test_schema_replaces_its_own_files_in_any_folder_and_in_out(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "editor"
    for _ in range(2):
        assert cli.main(["schema", str(TIDE), "--out", str(folder)]) == 0, capsys.readouterr().err
    old = tmp_path / "out" / "tide-runners" / "schema" / "tide-runners.cards.schema.json"
    old.parent.mkdir(parents=True)
    old.write_text('{"title": "an older cardgen wrote this"}\n')     # out/ is cardgen's own
    assert cli.main(["schema", str(TIDE)]) == 0, capsys.readouterr().err
    assert "older" not in old.read_text()


# item 12: YAML 1.1 surprises get a hint at the file, line and field

def tide_with(tmp_path, edits):
    """A copy of Tide Runners with `old -> new` replaced in some of its files."""
    game = copy_game(TIDE, tmp_path)
    for rel, old, new in edits:
        path = game / rel
        text = path.read_text()
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1))
    return game


def error_lines(capsys, *command):
    code = cli.main([str(part) for part in command])
    printed = capsys.readouterr()
    assert "Traceback" not in printed.err
    return code, printed.err, printed.out


YAML_SURPRISES = {
    "card named Yes": (("cards/crew.yaml", "name: Deckhand", "name: Yes"),
                       'cards/crew.yaml:3: name: every card needs a name (a non-empty string), got true: '
                       'YAML reads an unquoted Yes as true; write "Yes" in quotes'),
    "card named off": (("cards/crew.yaml", "name: Deckhand", "name: off"),
                       'cards/crew.yaml:3: name: every card needs a name (a non-empty string), got '
                       'false: YAML reads an unquoted off as false; write "off" in quotes'),
    "keyword No": (("cards/crew.yaml", "keywords: [Anchor]", "keywords: [No]"),
                   'cards/crew.yaml:15: keywords[1]: expected a keyword declared in game.yaml, got '
                   'false: YAML reads an unquoted No as false; write "No" in quotes'),
    "text 1:30": (("cards/crew.yaml", "keywords: [Anchor]", "text: 1:30"),
                  'cards/crew.yaml:15: text: YAML 1.1 reads 1:30 as 90 (numbers with ":" are base 60); '
                  'write "1:30" in quotes'),
    "play_time 1:30": (("game.yaml", "play_time: 10", "play_time: 1:30"),
                       'game.yaml:9: play_time: YAML 1.1 reads 1:30 as 90 (numbers with ":" are base '
                       '60); write "1:30" in quotes'),
    "strength 010": (("cards/crew.yaml", "strength: 1", "strength: 010"),
                     "cards/crew.yaml:4: strength: YAML 1.1 reads 010 as 8 (a leading 0 means base 8); "
                     'write 10 for the number, or "010" in quotes'),
    "version 1.10": (("game.yaml", 'version: "0.1"', "version: 1.10"),
                     'game.yaml:7: version: YAML reads 1.10 as the number 1.1; write "1.10" in quotes '
                     "to keep it as written"),
    "text a date": (("cards/crew.yaml", "keywords: [Anchor]", "text: 2024-01-05"),
                    "cards/crew.yaml:15: text: expected text, got 2024-01-05: YAML reads 2024-01-05 as "
                    'a date; write "2024-01-05" in quotes'),
    "comma in {...}": (("cards/weather.yaml", "  - name: Squall\n    push: 3\n    copies: 2\n",
                        "  - {name: Squall, push: 3, text: Push twice, then rest}\n"),
                       'cards/weather.yaml:6: text: a comma inside {...} ends the value, so "then rest" '
                       'became a field of its own; put the whole value in quotes: '
                       'text: "Push twice, then rest"'),
}


@pytest.mark.parametrize("case", YAML_SURPRISES)
def test_a_yaml_1_1_surprise_gets_a_hint_at_its_line(tmp_path, capsys, case):
    edit, expected = YAML_SURPRISES[case]
    game = tide_with(tmp_path, [edit])
    code, err, out = error_lines(capsys, "info", game)
    assert code == 2 and f"{game.name}/{expected}" in err, err


def test_a_deck_listing_an_unquoted_yes_gets_a_hint(tmp_path, capsys):
    game = tide_with(tmp_path, [("cards/crew.yaml", "name: Deckhand", 'name: "Yes"'),
                                ("decks/steady.yaml", "Deckhand: 3", "Yes: 3"),
                                ("decks/stormy.yaml", "Deckhand: 1", '"Yes": 1')])
    code, err, out = error_lines(capsys, "validate", game / "decks" / "steady.yaml")
    assert code == 2, err
    assert 'decks/steady.yaml:4: cards: YAML reads an unquoted Yes as true; write "Yes" in quotes' in err


def test_a_byte_order_mark_inside_a_yaml_file_is_pointed_at(tmp_path, capsys):
    game = copy_game(TIDE, tmp_path)
    crew = game / "cards" / "crew.yaml"
    crew.write_bytes(crew.read_bytes() + "\ufeff  - {name: Drummer, strength: 1}\n".encode())
    code, err, out = error_lines(capsys, "info", game)
    assert code == 2 and "cards/crew.yaml:16: " in err and "U+FEFF" in err, err


def test_a_byte_order_mark_at_the_start_of_a_deck_list_is_ignored(tmp_path, capsys):
    listing = tmp_path / "list.txt"
    listing.write_bytes(f"\ufeffgame: {TIDE}\n3 Deckhand\n3 Oarsman\n2 Light Breeze\n".encode())
    code, err, out = error_lines(capsys, "deck", "import", listing)
    assert code == 0, err
    assert "  Deckhand: 3\n" in out


def test_a_byte_order_mark_at_the_start_of_a_yaml_file_is_ignored(tmp_path, capsys):
    game = copy_game(TIDE, tmp_path)
    crew = game / "cards" / "crew.yaml"
    crew.write_bytes(b"\xef\xbb\xbf" + crew.read_bytes())
    code, err, out = error_lines(capsys, "info", game)
    assert code == 0, err
