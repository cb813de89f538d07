"""Every rule id a deck can be reported under is documented for users in docs/rules.md."""

from __future__ import annotations

import re

import pytest

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.rules import rule_ids
from cardgen.rules.generic import DECLARED_CHECKS
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
HEADINGS = set(re.findall(r"^## ([a-z0-9-]+)\s*$", DOC, flags=re.MULTILINE))


@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_every_rule_id_of_every_bundled_game_is_documented(game_id):
    missing = set(rule_ids(load_game(game_id))) - HEADINGS
    assert not missing, f"{game_id}: rule ids without a `## id` section in docs/rules.md: {missing}"


def test_declared_check_kinds_are_documented_for_designers():
    assert set(DECLARED_CHECKS) <= HEADINGS
