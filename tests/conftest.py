"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.errors import ContentError
from cardgen.model import load_deck
from cardgen.rules import check_deck as _check_deck

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def check_deck(tmp_path):
    """check_deck(deck_yaml_text) -> list of Problems for that deck.

    Raises ContentError when the deck file cannot be read at all (exit 2 territory).
    """
    counter = iter(range(10_000))

    def run(text: str, name: str | None = None):
        path = tmp_path / (name or f"deck{next(counter)}.yaml")
        path.write_text(text, encoding="utf-8")
        return _check_deck(load_deck(path))

    return run


@pytest.fixture
def write(tmp_path):
    """write('rel/path.yaml', text) -> the Path, creating folders."""

    def run(rel: str, text: str | bytes) -> Path:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return run


__all__ = ["ContentError", "ROOT"]
