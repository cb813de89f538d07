"""Output files are written whole or not at all, with ordinary permissions."""

from __future__ import annotations

import os
import stat

import pytest

from cardgen.errors import ContentError
from cardgen.fsutil import write_atomic, write_user_file


def test_written_file_has_the_usual_mode(tmp_path):
    path = write_atomic(tmp_path / "a" / "b.txt", "hello")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert path.read_text() == "hello"


def test_a_failed_write_leaves_neither_a_partial_file_nor_a_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old")

    def boom(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_a_users_file_that_appears_while_it_is_written_is_kept(tmp_path, monkeypatch):
    """A check before writing is not enough: a file of that name may appear meanwhile."""
    target = tmp_path / "deck.txt"
    real_open = open

    def open_then_user_saves(path, mode="r", *args, **kwargs):
        handle = real_open(path, mode, *args, **kwargs)
        if "x" in mode:
            target.write_text("the user's own")
        return handle

    monkeypatch.setattr("builtins.open", open_then_user_saves)
    with pytest.raises(ContentError, match="already exists"):
        write_user_file(target, "ours")
    assert target.read_text() == "the user's own"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.txt"]


@pytest.mark.parametrize("links", [True, False])
def test_a_users_new_file_is_written_whole(tmp_path, monkeypatch, links):
    if not links:       # a file system without hard links
        monkeypatch.setattr(os, "link", lambda *a: (_ for _ in ()).throw(PermissionError(1, "no")))
    write_user_file(tmp_path / "deck.txt", "ours")
    assert [p.name for p in tmp_path.iterdir()] == ["deck.txt"]
    assert (tmp_path / "deck.txt").read_text() == "ours"
    with pytest.raises(ContentError, match="already exists"):
        write_user_file(tmp_path / "deck.txt", "again")
    assert (tmp_path / "deck.txt").read_text() == "ours"


def _read_as_yaml(path):
    from cardgen.yamlio import read_yaml_text

    return read_yaml_text(path)


def _read_as_chapter(path):
    from cardgen.publish.chapters import read_chapter_files

    return read_chapter_files(path.parent)


def _read_as_deck_list(path):
    from cardgen.decklist import read_decklist

    return read_decklist(path)


@pytest.mark.parametrize("read", [_read_as_yaml, _read_as_chapter, _read_as_deck_list])
@pytest.mark.parametrize(("data", "line", "message"), [
    (b"first line\nsecond \x00 line\n", None, "not a text file (it contains NUL bytes)"),
    (b"first line\ncaf\xe9\n", 2, "not UTF-8 text"),
])
def test_a_designers_text_files_are_refused_alike(tmp_path, read, data, line, message):
    """YAML, rulebook chapters and deck lists are read by one function: a deck list or a chapter
    with NUL bytes in it was read as text."""
    from cardgen.errors import ContentError

    folder = tmp_path / "rules"
    folder.mkdir()
    path = folder / "one.md"
    path.write_bytes(data)
    with pytest.raises(ContentError) as caught:
        read(path)
    [issue] = caught.value.issues
    assert (issue.file, issue.line) == (path, line)
    assert issue.message.startswith(message)
