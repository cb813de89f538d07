"""Issue 20's adversarial inputs: what a careless or hostile user can do to cardgen. Each ends in
one clear line and the right exit code (2: fix your input or machine; 1: findings; 3: a bug in
cardgen; 130: interrupted), never a traceback, never a silent wrong, never a hang."""

from __future__ import annotations

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


SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>\n'
BROKEN_ART = {      # how to break art/wolf.png, and what the error then says about it
    "text": (lambda p: p.write_text("a note, not a picture\n"), "is not a picture (it holds text)"),
    "cut short": (_cut_short, "is damaged or cut short (image file is truncated)"),
    "empty": (lambda p: p.write_bytes(b""), "is empty (0 bytes)"),
    "svg": (lambda p: p.write_text(SVG), "is an SVG drawing: cardgen does not draw SVG art yet"),
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


def test_broken_art_stops_the_proxy_sheets_naming_the_card(tmp_path, capsys):
    folder = _isles(tmp_path)
    (folder / "art" / "wolf.png").write_text("a note, not a picture\n")
    out = tmp_path / "out"
    assert cli.main(["sheets", str(folder), "--out", str(out)]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "cards.yaml:1: name: card 'Wolf': art/wolf.png is not a picture" in line
    assert not list(out.rglob("*.pdf"))
