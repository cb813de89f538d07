"""Issue 20's adversarial inputs: what a careless or hostile user can do to cardgen. Each ends in
one clear line and the right exit code (2: fix your input or machine; 1: findings; 3: a bug in
cardgen; 130: interrupted), never a traceback, never a silent wrong, never a hang."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

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
    folder = tmp_path / "tide"
    shutil.copytree(TIDE, folder)
    (folder / "layouts.yaml").unlink()
    os.mkfifo(folder / "layouts.yaml")
    result = cardgen("render", folder, "--out", tmp_path / "out", timeout=60)
    assert result.returncode == 2
    assert "layouts.yaml: this file is not a regular file" in result.stderr, result.stderr


# item 9: art, layouts and declared checks (with item 10's silent wrongs among them: `size: -5`
# hid the text, a deck check on a field no card has never fired)

ISLES = ROOT / "tests" / "data" / "painted-isles"
GUILD = ROOT / "tests" / "data" / "lantern-guild"


def _isles(tmp_path: Path) -> Path:
    """Painted Isles with its art (two creatures) and its font: a game whose cards draw pictures."""
    from PIL import Image

    from cardgen.paths import fonts_dir

    folder = tmp_path / "isles"
    shutil.copytree(ISLES, folder)
    (folder / "art").mkdir()
    for name, colour in (("wolf", (120, 90, 60)), ("heron", (60, 90, 160))):
        Image.new("RGB", (120, 100), colour).save(folder / "art" / f"{name}.png")
    (folder / "fonts").mkdir()
    shutil.copy(fonts_dir() / "crimson-text" / "CrimsonText-Regular.ttf", folder / "fonts" / "Title.ttf")
    return folder


def _png_of_size(width: int, height: int) -> bytes:
    """A real black-and-white PNG: a few kilobytes on disk, width x height pixels decoded."""
    row = b"\0" * (1 + (width + 7) // 8)
    deflate = zlib.compressobj(9)
    pixels = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))


def _cut_short(path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (400, 300), (120, 90, 60)).save(path)
    path.write_bytes(path.read_bytes()[:200])


def _svg(body: str, head: str = "") -> str:
    return (f'<?xml version="1.0"?>\n{head}<svg xmlns="http://www.w3.org/2000/svg" '
            f'xmlns:xlink="http://www.w3.org/1999/xlink" width="90" height="90">{body}</svg>\n')


_LAUGHS = "".join(f'<g id="l{i}"><use href="#l{i - 1}"/><use href="#l{i - 1}"/><use href="#l{i - 1}"/>'
                  f'<use href="#l{i - 1}"/></g>' for i in range(1, 12))
BROKEN_ART = {      # how to break art/wolf.png, and what the error then says about it
    "text": (lambda p: p.write_text("a note, not a picture\n"), "is not a picture (it holds text)"),
    "cut short": (_cut_short, "is damaged or cut short (image file is truncated)"),
    "empty": (lambda p: p.write_bytes(b""), "is empty (0 bytes)"),
    # a stranger's SVG (saved as .png: known by its content) may fetch, read or expand nothing
    "svg: a file": (lambda p: p.write_text(_svg('<image href="/etc/passwd" width="9" height="9"/>')),
                    "line 2: <image> refers to '/etc/passwd' outside the drawing"),
    "svg: the network": (lambda p: p.write_text(_svg('<image xlink:href="http://example.com/a.png"/>')),
                         "line 2: <image> refers to 'http://example.com/a.png' outside the drawing"),
    "svg: a css url": (lambda p: p.write_text(_svg('<rect width="9" height="9" style="fill:url(x.svg#p)"/>')),
                       "line 2: style= url(x.svg#p) refers outside the drawing"),
    "svg: @import": (lambda p: p.write_text(_svg('<style>@import "https://example.com/a.css";</style>')),
                     "line 2: <style> imports a style sheet"),
    "svg: entities": (lambda p: p.write_text(_svg(
        "<text>&x;</text>", '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n')),
                      "declares a DTD"),
    "svg: billion uses": (lambda p: p.write_text(_svg('<rect id="l0" width="1" height="1"/>' + _LAUGHS)),
                          "expands to more than 200,000 elements through <use>"),
    "svg: use loop": (lambda p: p.write_text(_svg('<g id="a"><use href="#a"/></g>')),
                      "line 2: a <use> copies itself"),
    "svg: no size": (lambda p: p.write_text(_svg("").replace(' width="90" height="90"', "")),
                     "has no size: give the <svg> a viewBox"),
    "svg: malformed": (lambda p: p.write_text(_svg("<rect>")), "is not a well-formed SVG drawing (line 2"),
    # filter effects that would draw for minutes (resvg has no time limit of its own)
    "svg: a wide dilate": (lambda p: p.write_text(_svg(
        '<filter id="f"><feMorphology radius="40"/></filter>'
        '<rect width="90" height="90" filter="url(#f)"/>')),
        "line 2: its <feMorphology> (radius 40) would take too long to draw at"),
    "svg: noise of many octaves": (lambda p: p.write_text(_svg(
        '<filter id="f"><feTurbulence numOctaves="900"/></filter>'
        '<rect width="90" height="90" filter="url(#f)"/>')),
        "line 2: its <feTurbulence> (numOctaves 900) would take too long"),
    "svg: a huge kernel": (lambda p: p.write_text(_svg(
        '<filter id="f"><feConvolveMatrix order="100" kernelMatrix="' + " 1" * 10_000 + '"/></filter>'
        '<rect width="90" height="90" filter="url(#f)"/>')),
        "line 2: its <feConvolveMatrix> (a kernel of 10000 cells) would take too long"),
    "folder": (lambda p: p.mkdir(), "is a folder, not a picture"),
    "pipe": (lambda p: os.mkfifo(p), "is not a regular file"),
    "bomb": (lambda p: p.write_bytes(_png_of_size(10_000, 10_000)),
             "is too large: art may have at most 50 megapixels"),
}


@pytest.mark.parametrize("kind", BROKEN_ART)
def test_art_that_is_not_a_picture_fails_its_card_and_the_others_are_drawn(tmp_path, capsys, kind):
    folder = _isles(tmp_path)
    (folder / "art" / "wolf.png").unlink()
    make, words = BROKEN_ART[kind]
    make(folder / "art" / "wolf.png")
    out = tmp_path / "out"
    assert cli.main(["render", str(folder), "--out", str(out)]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    # at the card's field that names the file: art/{{ card.name | slug }}.png
    assert line.startswith("error: ") and f"cards.yaml:1: name: card 'Wolf': art/wolf.png {words}" in line
    cards = out / "painted-isles" / "cards"
    assert (cards / "heron.png").is_file() and not (cards / "wolf.png").exists()
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_cut_short_art_fails_even_after_a_rulebook_was_made_in_the_process(tmp_path, capsys):
    """Imported, WeasyPrint tells Pillow to pad cut-short files with black for the whole process
    (`cardgen build` makes the rulebook in the process that draws the cards)."""
    from PIL import ImageFile

    folder = _isles(tmp_path)
    _cut_short(folder / "art" / "wolf.png")
    lenient = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = True          # as WeasyPrint leaves it
    try:
        assert cli.main(["render", str(folder), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 2
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    assert "art/wolf.png is damaged or cut short" in capsys.readouterr().err


def test_broken_art_stops_the_proxy_sheets_naming_the_card(tmp_path, capsys):
    folder = _isles(tmp_path)
    (folder / "art" / "wolf.png").write_text("a note, not a picture\n")
    out = tmp_path / "out"
    assert cli.main(["sheets", str(folder), "--out", str(out)]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "cards.yaml:1: name: card 'Wolf': art/wolf.png is not a picture" in line
    assert not list(out.rglob("*.pdf"))


def test_build_with_broken_art_is_input_to_fix_exit_2_not_a_finding(tmp_path, capsys):
    """Exit 1 means findings about the rules (an illegal deck, a rule conflict); a card whose art
    is broken is input the designer fixes, as with `cardgen render`."""
    folder = _isles(tmp_path)
    (folder / "art" / "wolf.png").write_text("a note, not a picture\n")
    assert cli.main(["build", str(folder), "--out", str(tmp_path / "out"), "--only", "cards"]) == 2
    captured = capsys.readouterr()
    assert "1 failed" in captured.out and "do not fit" not in captured.out
    assert "art/wolf.png is not a picture" in captured.err


def _tide_with(tmp_path: Path, old: str, new: str, file: str = "layouts.yaml") -> Path:
    folder = tmp_path / "tide"
    shutil.copytree(TIDE, folder)
    path = folder / file
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return folder


BODY = "size: 10, min_size: 7, colour: ink, leading: 1.15, bold_keywords: true}"
CARD = "card: {size: poker, bleed: 3.175, safe: 3.175, radius: 3}"
PANEL = "{rect: [3.4, 3.4, 56.7, 82.1], fill: paper, radius: 2.5}"
STRENGTH = '{text: "{{ card.strength }}", at: [6, 50, 51.5, 14], style: big, field: strength}'
ICON = "{icon: oar, at: [18.75, 27, 26, 20], colour: rower}"
FLOW_AT = "at: [6, 66, 51.5, 16]}"
BAD_LAYOUT_VALUES = [   # (what is written, what it becomes, the one error line)
    (BODY, BODY.replace("size: 10", "size: big"),
     "layouts.yaml:12: styles.body.size: expected a size in points from 4 to 200, got 'big'"),
    (BODY, BODY.replace("leading: 1.15", "leading: loose"),
     "layouts.yaml:12: styles.body.leading: expected a line height (a multiple of the text size) from "
     "0.5 to 3, got 'loose'"),
    (BODY, BODY.replace("size: 10, min_size: 7", "size: 0"),
     "layouts.yaml:12: styles.body.size: expected a size in points from 4 to 200, got 0"),
    (BODY, BODY.replace("size: 10, min_size: 7", "size: -5"),         # item 10: it hid the text
     "layouts.yaml:12: styles.body.size: expected a size in points from 4 to 200, got -5"),
    (BODY, BODY.replace("size: 10", "size: .nan"),
     "layouts.yaml:12: styles.body.size: expected a size in points from 4 to 200, got nan"),
    (BODY, BODY.replace("bold_keywords: true", "bold_keywords: maybe"),
     "layouts.yaml:12: styles.body.bold_keywords: expected true or false, got 'maybe'"),
    (CARD, CARD.replace("bleed: 3.175", "bleed: 1000"),
     "layouts.yaml:1: card.bleed: expected a bleed in mm from 0 to 10, got 1000"),
    (CARD, CARD.replace("bleed: 3.175", "bleed: .inf"),
     "layouts.yaml:1: card.bleed: expected a bleed in mm from 0 to 10, got inf"),
    (CARD, "card: {width: 0, height: 88.9}",
     "layouts.yaml:1: card.width: expected a length in mm from 10 to 300, got 0"),
    (PANEL, PANEL.replace("radius: 2.5", "stroke: ink, stroke_width: 50"),
     "layouts.yaml:18: templates.frame[2].stroke_width: expected a line width in mm from 0 to 10, got 50"),
    (PANEL, PANEL.replace("56.7, 82.1", "-56.7, 82.1"),
     "layouts.yaml:18: templates.frame[2].rect: expected a size in mm from 0 to 1000, got -56.7"),
    (STRENGTH, STRENGTH.replace("[6, 50, 51.5, 14]", "[6, 50, .nan, 14]"),
     "layouts.yaml:27: types.rower[3].at: expected a size in mm from 0.1 to 1000, got nan"),
    (STRENGTH, STRENGTH.replace("field: strength", "field: strength, size: big"),
     "layouts.yaml:27: types.rower[3].size: expected a size in points from 4 to 200, got 'big'"),
    (STRENGTH, STRENGTH.replace("field: strength", "field: strength, font: Nope"),
     "layouts.yaml:27: types.rower[3].font: unknown font 'Nope'"),
    (ICON, ICON.replace("colour: rower", "colour: rower, repeat: -3"),
     "layouts.yaml:26: types.rower[2].repeat: expected a whole number from 0 to 100, got -3"),
    (FLOW_AT, "at: [6, 66, 51.5, 16], min_scale: 0}",
     "layouts.yaml:30: types.rower[4].min_scale: expected a scale from 0.1 to 1, got 0"),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD_LAYOUT_VALUES,
                         ids=[m.split(": ")[1] + ": " + m.rsplit(" ", 1)[-1] for *_, m in BAD_LAYOUT_VALUES])
def test_a_layout_value_out_of_its_range_is_one_line_at_its_line(tmp_path, capsys, old, new, message):
    folder = _tide_with(tmp_path, old, new)
    assert cli.main(["render", str(folder), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [f"error: {folder / message}"]


def test_a_layout_value_an_expression_gives_is_checked_for_each_card(tmp_path, capsys):
    # item 10: a size of -5 hid the text without a word
    sized = STRENGTH.replace("field: strength", 'field: strength, size: "{{ -5 * card.strength }}"')
    folder = _tide_with(tmp_path, STRENGTH, sized)
    out = tmp_path / "out"
    assert cli.main(["render", str(folder), "--out", str(out)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0] == (f"error: {folder / 'cards' / 'crew.yaml'}:3: types.rower[3].size: card 'Deckhand': "
                        "expected a size in points from 4 to 200, got -5")
    assert len(lines) == 4 and all("expected a size in points from 4 to 200" in line for line in lines)
    assert (out / "tide-runners" / "cards" / "squall.png").is_file()


def test_an_expression_that_fails_fails_its_cards_at_its_line(tmp_path, capsys):
    folder = _tide_with(tmp_path, STRENGTH, STRENGTH.replace("card.strength }}", "card.strength / 0 }}"))
    out = tmp_path / "out"
    assert cli.main(["render", str(folder), "--out", str(out)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    rowers = ("Deckhand", "Oarsman", "Stroke Captain", "Harbour Pilot")
    assert lines == [f"error: {folder / 'layouts.yaml'}:27: types.rower[3].text: card {name!r}: the "
                     "expression failed: ZeroDivisionError: division by zero" for name in rowers]
    cards = out / "tide-runners" / "cards"
    assert (cards / "squall.png").is_file() and not (cards / "deckhand.png").exists()


def test_a_back_for_that_fails_is_reported_and_the_faces_are_drawn(tmp_path, capsys):
    folder = _tide_with(tmp_path, "backs:\n", 'back_for: "{{ 1 / (card.strength or 0) }}"\nbacks:\n')
    out = tmp_path / "out"
    assert cli.main(["render", str(folder), "--out", str(out)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"error: {folder / 'layouts.yaml'}:36: back_for: card {name!r}: the expression failed: "
                     "ZeroDivisionError: division by zero" for name in ("Light Breeze", "Squall")]
    assert (out / "tide-runners" / "cards" / "squall.png").is_file()


def test_an_expression_written_alike_on_a_face_and_a_back_fails_at_each_line(tmp_path, capsys):
    """Combo Fighter's character sheets: the same failing text on the sheet's face and on its own
    back is reported at the face's line for the face and at the back's line for the back (it was
    reported at the face's line for both: expressions were looked up by their text alone)."""
    folder = tmp_path / "cf"
    shutil.copytree(ROOT / "content" / "combo-fighter", folder)
    layouts = folder / "layouts.yaml"
    text = layouts.read_text()
    failing = '    - {text: "{{ card.difficulty // 0 }}", at: [4, 4, 20, 4], style: sheet_sub}\n'
    face = '  character:\n    - {rect: bleed, fill: "{{ card.name | slug }}"}\n'
    back = "    - {rect: bleed, fill: paper}\n    - {rect: [-3.175, -3.175, 69.85, 26.175]"
    assert text.count(face) == 1 and text.count(back) == 1
    text = text.replace(face, face + failing).replace(back, failing + back)
    layouts.write_text(text)
    lines = text.splitlines()
    face_line = lines.index(failing.rstrip("\n")) + 1
    back_line = lines.index(failing.rstrip("\n"), face_line) + 1
    assert cli.main(["render", str(folder), "--out", str(tmp_path / "out")]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    where = {line.split(": card ")[0] for line in errors if "ZeroDivisionError" in line}
    assert where == {f"error: {layouts}:{face_line}: types.character[2].text",
                     f"error: {layouts}:{back_line}: backs.sheet[1].text"}, errors


def _guild_with_check(tmp_path: Path, check: str) -> Path:
    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    game = folder / "game.yaml"
    last = "    - {check: forbidden-types, id: fog-in-deck, types: [fog]}\n"
    game.write_text(game.read_text().replace(last, last + f"    - {check}\n"))
    return folder


@pytest.mark.parametrize(("check", "message"), [
    # item 10: a typo turned the rule off
    ("{check: distinct, id: one-district, field: distrct, max: 1}",
     "no card has a field 'distrct', so the check would never find anything (did you mean: district?); "
     "the fields are: cost, district, glow, keywords, name, rarity, text, tools, type"),
    ("{check: distinct, id: one-glow, field: glow, max: 1, types: [trick]}",
     "no trick card has a field 'glow', so the check would never find anything; the fields are: cost, "
     "district, keywords, name, rarity, text, type"),
    ("{check: copies, id: kindle-limit, field: keywords, limits: {Kindle: 1}}",
     "keywords is a list: a copies check limits each card by one value of it (a rarity, a cost); name a "
     "field that holds one value"),
    ("{check: distinct, id: one-tool, field: tools, max: 1}",
     "tools holds lists or mappings: a distinct check goes by plain values (text or numbers)"),
], ids=["typo", "not of its types", "copies by a list", "distinct by records"])
def test_a_declared_check_on_a_field_it_cannot_go_by_is_a_load_error(tmp_path, capsys, check, message):
    folder = _guild_with_check(tmp_path, check)
    assert cli.main(["validate", str(folder / "decks" / "harbour.yaml")]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"error: {folder / 'game.yaml'}:62: deck.checks[6].field: {message}"]


def test_distinct_counts_each_value_of_a_list_field(tmp_path, check_deck):
    folder = _guild_with_check(tmp_path, "{check: distinct, id: one-keyword, field: keywords, max: 1}")
    problems = check_deck(f"game: {folder}\ncards:\n  Harbour Warden: 2\n  Sudden Draught: 1\n"
                          "  Spare Oil: 3\n")
    assert [(p.rule, p.message, p.line) for p in problems if p.rule == "one-keyword"] == [
        ("one-keyword", "has 2 keywords (Kindle, Gust): at most 1 allowed", 4)]


def test_a_declared_check_may_go_by_the_type_of_the_cards(tmp_path, check_deck):
    folder = _guild_with_check(tmp_path, "{check: distinct, id: one-type, field: type, max: 1}")
    problems = check_deck(f"game: {folder}\ncards:\n  Harbour Warden: 2\n  Sudden Draught: 1\n")
    assert [(p.rule, p.message, p.line) for p in problems if p.rule == "one-type"] == [
        ("one-type", "has 2 types (lamplighter, trick): at most 1 allowed", 4)]


def test_a_broken_game_is_reported_once_not_once_per_deck(tmp_path):
    folder = tmp_path / "tide"
    shutil.copytree(TIDE, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("players: {min: 2, max: 2}", "players: {min: two, max: 2}"))
    for fmt in ("text", "json"):
        result = cardgen("validate", folder, "--format", fmt)
        assert result.returncode == 2
        assert result.stderr.count("players.min") == 1, result.stderr


# item 10: rulebook and schema



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


# items 5 and 6: Ctrl-C stops any command at once, with one line and no temporary file left;
# a simulation streams its matches, whatever their number

def _start(*args, cwd=ROOT):
    """A cardgen command in its own process group, as a terminal runs it (with Ctrl-C working even
    when the tests run where SIGINT is ignored, as in a script's background job)."""
    import signal

    return subprocess.Popen([sys.executable, "-m", "cardgen", *map(str, args)], cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_until(done, proc, what: str, seconds: float = 60) -> None:
    import time

    end = time.monotonic() + seconds
    while not done():
        if proc.poll() is not None:
            pytest.fail(f"ended (exit {proc.returncode}) before {what}: {proc.stderr.read()[-2000:]}")
        if time.monotonic() > end:
            proc.kill()
            pytest.fail(f"never {what}")
        time.sleep(0.02)


def _ctrl_c(proc, to: str) -> tuple[int, str]:
    """SIGINT to the command's process group (a terminal's Ctrl-C) or to its main process alone:
    (exit code, stderr). A command still running 20 s later has hung."""
    import os
    import signal

    (os.killpg if to == "group" else os.kill)(proc.pid, signal.SIGINT)
    try:
        _out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("still running 20 s after Ctrl-C")
    return proc.returncode, err


needs_proc = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc, sends signals")


@needs_proc
@pytest.mark.parametrize("to", ["group", "parent"])
def test_ctrl_c_while_cards_are_drawn_stops_in_one_line_and_leaves_no_temporary_file(tmp_path, to):
    out = tmp_path / "out"
    proc = _start("render", TIDE, "amiibart", "--no-cache", "--jobs", "2", "--out", out)
    _wait_until(lambda: any((out / "tide-runners" / "cards").glob("*.png")), proc, "drawing a card")
    assert _ctrl_c(proc, to) == (130, "interrupted\n")
    assert not list(out.rglob(".*.tmp"))


def test_an_interrupted_command_says_so_in_one_line_and_exits_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_games", interrupted)
    assert cli.main(["games"]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_an_interrupt_inside_an_exec_still_exits_130(tmp_path):
    # (CPython marks a KeyboardInterrupt inside exec() of a string as unhandled, and `python -m`
    # then ended the process with SIGINT, however it was handled; dataclasses exec their methods
    # as modules load. The modules Ctrl-C's handling loads are loaded already, as after any work.)
    (tmp_path / "interrupted_in_exec.py").write_text(
        "import sys\nfrom cardgen import cli, parallel\n\n"
        "cli.cmd_games = lambda args: exec('raise KeyboardInterrupt')\nsys.exit(cli.main(['games']))\n")
    result = _python("-m", "interrupted_in_exec", path=tmp_path)
    assert (result.returncode, result.stderr) == (130, "interrupted\n")


@needs_proc
def test_a_ctrl_c_once_the_work_is_done_is_ignored():
    # (Python's exit takes a moment: an interrupt in it ended the finished command with a
    # traceback, or by the signal)
    result = _python("-c", "import os, signal, sys, time; from cardgen import cli; "
                           "sys.argv = ['cardgen', 'games']; code = cli.main(); "
                           "os.kill(os.getpid(), signal.SIGINT); time.sleep(0.2); sys.exit(code)")
    assert result.returncode == 0 and "Traceback" not in result.stderr


def _python(*args, path=None):
    import os

    where = os.pathsep.join(str(p) for p in (path, ROOT) if p)
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": where})


@needs_proc
def test_a_write_interrupted_at_any_step_leaves_no_temporary_file(tmp_path):
    from cardgen.fsutil import write_atomic

    target = tmp_path / "card.png"
    for step in range(1, 10_000):
        target.write_bytes(b"old")
        with _hang_fails(f"a write interrupted at step {step - 1} left a lock held: step {step}"), \
                _interrupt_at_line(step) as fired:
            write_atomic(target, b"new")
        assert [p.name for p in tmp_path.iterdir()] == ["card.png"], f"interrupted at step {step}"
        assert target.read_bytes() in (b"old", b"new")
        if not fired:       # (the write ran to its end before that step)
            break


@contextlib.contextmanager
def _hang_fails(what: str, seconds: int = 20):
    """Fail, instead of hanging the suite, when the block is still running after `seconds`."""
    import signal

    def hung(signum, frame):
        sys.settrace(None)      # (no interrupt of _interrupt_at_line's in the failure)
        pytest.fail(f"hung: {what}")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class _interrupt_at_line:
    """Raise KeyboardInterrupt (as a Ctrl-C does) before the n-th line of Python run inside the
    block, in any function; `fired` tells whether there was an n-th line."""

    def __init__(self, n: int):
        self.left = n
        self.fired = False

    def __enter__(self):
        self.before = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, kind, exc, tb):
        sys.settrace(self.before)
        return kind is KeyboardInterrupt

    def __bool__(self):
        return self.fired

    def _call(self, frame, event, arg):
        return None if frame.f_code.co_filename == __file__ else self._line    # (not this helper's)

    def _line(self, frame, event, arg):
        if event == "line" and not self.fired:
            self.left -= 1
            if not self.left:
                self.fired = True
                raise KeyboardInterrupt
        return self._line


def _write_forever(path):
    """In a worker: write `path`, stalling once its temporary file is written."""
    import os
    import time

    from cardgen.fsutil import write_atomic

    os.replace = lambda *args: time.sleep(60)
    write_atomic(path, b"half a sheet")


@needs_proc
def test_a_worker_its_parent_stops_removes_the_file_it_was_writing(tmp_path):
    import multiprocessing

    import cardgen.parallel  # noqa: F401  (how cardgen's workers are made)

    worker = multiprocessing.get_context("fork").Process(target=_write_forever, args=(tmp_path / "a.pdf",))
    worker.start()
    _wait_until(lambda: list(tmp_path.glob(".*.tmp")), worker_proc(worker), "writing")
    worker.terminate()      # (what a pool's terminate() or the main process's Ctrl-C does)
    worker.join(20)
    assert worker.exitcode is not None, "the worker did not stop"
    assert not list(tmp_path.glob(".*.tmp"))


def worker_proc(worker):
    """A multiprocessing.Process seen as the subprocess _wait_until watches."""
    class Seen:
        returncode = None
        stderr = None

        def poll(self):
            return worker.exitcode

        def kill(self):
            worker.kill()
    return Seen()


def test_a_later_build_removes_a_temporary_file_a_killed_writer_left(tmp_path, capsys):
    import os
    import time

    out = tmp_path / "out"
    cards = out / "tide-runners" / "cards"
    cards.mkdir(parents=True)
    gone = _a_finished_process()
    left = cards / f".harbour-master.png.{gone}-0123456789abcdef.tmp"     # (kill -9 mid-write)
    live = cards / f".harbour-master.png.{os.getpid()}-0123456789abcdef.tmp"   # (a live writer's)
    for temp in (left, live):
        temp.write_bytes(b"half a card")
        os.utime(temp, (time.time() - 3600, time.time() - 3600))
    assert cli.main(["render", str(TIDE), "--out", str(out)]) == 0
    assert not left.exists() and live.exists()


@needs_proc
@pytest.mark.parametrize("command", ["simulate", "render"])
def test_a_ctrl_c_while_workers_start_stops_them(monkeypatch, tmp_path, command):
    # (a KeyboardInterrupt inside Pool() left a pool running that no one stopped: it replaced its
    # workers as they were stopped at exit, and the command hung)
    import multiprocessing
    import os
    import signal

    from cardgen.model import load_game
    from cardgen.render import render_game
    from cardgen.sim.runner import simulate

    made = []
    real = multiprocessing.get_context

    class Interrupting:
        """A context whose pools are hit by Ctrl-C the moment they are made."""

        def __init__(self, method):
            self.context = real(method)

        def __getattr__(self, name):
            return getattr(self.context, name)

        def Pool(self, *args, **kwargs):  # noqa: N802  (multiprocessing's name)
            made.append(self.context.Pool(*args, **kwargs))
            os.kill(os.getpid(), signal.SIGINT)
            return made[-1]

    monkeypatch.setattr(multiprocessing, "get_context", Interrupting)
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            if command == "simulate":
                simulate(load_game(TIDE), matches=200, jobs=2)
            else:
                render_game(load_game("amiibart"), tmp_path, jobs=2, use_cache=False)
        assert made and not multiprocessing.active_children(), "a pool was left running"
    finally:
        signal.signal(signal.SIGINT, handler)
        for pool in made:
            pool.terminate()


def test_ctrl_c_removes_what_a_stopped_worker_was_writing(monkeypatch, capsys, tmp_path):
    # (a pool's workers end outright when it stops them: their unfinished files stayed in out/)
    out = tmp_path / "out"
    cards = out / "tide-runners" / "cards"
    cards.mkdir(parents=True)
    gone = _a_finished_process()
    left = cards / f".harbour-master.png.{gone}-0123456789abcdef.tmp"     # (its writer just stopped)
    kept = cards / ".notes.tmp"                                            # (not cardgen's)

    def interrupted(args):
        left.write_bytes(b"half a card")
        kept.write_text("mine")
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_render", interrupted)
    assert cli.main(["render", str(TIDE), "--out", str(out)]) == 130
    assert not left.exists() and kept.exists()


def _a_finished_process() -> str:
    return subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()

# (item 6: streamed matches)

def _children(pid: int) -> list[str]:
    from pathlib import Path

    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


@needs_proc
def test_ctrl_c_stops_a_simulation_of_a_trillion_matches(tmp_path):
    # (it streams the matches: listing their seeds first ran out of memory, or took minutes)
    proc = _start("simulate", TIDE, "--matches", 10**12, "--jobs", "2", "--out", tmp_path)
    _wait_until(lambda: len(_children(proc.pid)) >= 2, proc, "starting its workers")
    assert _ctrl_c(proc, "group") == (130, "interrupted\n")


def test_a_simulation_hands_out_its_seeds_as_they_are_needed(monkeypatch):
    # (it listed a seed for every match first: --matches 1000000000 built a list of 36 GB)
    from cardgen.model import load_game
    from cardgen.sim import runner

    class Enough(Exception):
        pass

    def progress(enabled, done, total):
        raise Enough(done)

    monkeypatch.setattr(runner, "_progress", progress)
    for jobs in (1, 2):
        with pytest.raises(Enough) as played:
            runner.simulate(load_game(TIDE), matches=10**15, jobs=jobs, progress=True)
        assert 0 < played.value.args[0] <= 500


def test_a_report_added_up_as_the_matches_come_is_the_report_of_every_match(tmp_path):
    from cardgen.model import load_game
    from cardgen.sim.report import build_report
    from cardgen.sim.runner import simulate, simulate_tally
    from tests.conftest import borrowed_engine

    game = load_game(borrowed_engine("broken-amfibido", tmp_path))
    results, _ = simulate(game, matches=240, seed=3, jobs=1)
    assert any(r.conflicts for r in results)
    for jobs in (1, 2):
        tally, _ = simulate_tally(game, matches=240, seed=3, jobs=jobs)
        assert build_report(game, tally, 1.0) == build_report(game, results, 1.0)


def test_distinct_conflicts_kept_are_bounded_and_the_same_however_chunked(monkeypatch):
    from cardgen.sim import tally
    from cardgen.sim.runner import Conflict

    monkeypatch.setattr(tally, "MAX_CONFLICTS", 3)
    conflicts = [Conflict("rule", f"message {i % 7}", seed=i) for i in range(40)]
    whole = tally.ConflictCounts()
    for c in conflicts:
        whole.add(c)
    chunked = tally.ConflictCounts()
    for start in range(0, 40, 6):
        part = tally.ConflictCounts(bounded=False)     # (a chunk's, as a worker adds them up)
        for c in conflicts[start:start + 6]:
            part.add(c)
        chunked.merge(part)
    summary = [(c.message, c.seed, n) for c, n in whole.summary()]
    assert summary == [(c.message, c.seed, n) for c, n in chunked.summary()]
    assert len(summary) == 4 and sum(n for *_, n in summary) == 40
    assert summary[0] == (tally.OTHER_MESSAGES, 3, 22)
