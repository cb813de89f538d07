"""Output files are written whole or not at all, with ordinary permissions."""

from __future__ import annotations

import os
import stat

import pytest

from cardgen.fsutil import write_atomic


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
