"""Booster packs follow the rarity slots of game.yaml, seeded and statistically right."""

from __future__ import annotations

import math
from collections import Counter

from cardgen.model import load_game
from cardgen.packs import open_packs


def test_a_seed_opens_the_same_packs():
    game = load_game("amiibart")
    assert open_packs(game, 5, 42) == open_packs(game, 5, 42)
    assert open_packs(game, 5, 42) != open_packs(game, 5, 43)


def test_slot_shape_and_no_duplicates_in_a_pack():
    game = load_game("amiibart")
    for pack in open_packs(game, 300, 1):
        assert len(pack) == 5
        assert [c.rarity for c in pack[:4]] == ["common", "common", "common", "rare"]
        assert len({c.name for c in pack}) == 5
        for card in pack:
            printed = "ultra-rare" if card.rarity == "art-rare" else card.rarity
            assert game.cards[card.name].get("rarity") == printed
            assert game.cards[card.name].type in ("fighter", "spell", "stage")


def test_last_slot_frequencies_match_the_rulebook():
    """Rare 2/3, ultra-rare 1/4, art-rare 1/12: each within 4 standard errors over 12,000 packs."""
    game = load_game("amiibart")
    n = 12_000
    last = Counter(pack[4].rarity for pack in open_packs(game, n, 2026))
    for rarity, p in {"rare": 2 / 3, "ultra-rare": 1 / 4, "art-rare": 1 / 12}.items():
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(last[rarity] / n - p) < 4 * sigma, (rarity, last[rarity] / n, p)


def test_packs_print_as_proxy_sheets(tmp_path):
    import subprocess
    import sys

    from pypdf import PdfReader

    from tests.conftest import ROOT

    result = subprocess.run([sys.executable, "-m", "cardgen", "packs", "amiibart", "--count", "2",
                             "--seed", "9", "--sheets", "--out", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "amiibart" / "packs-seed-9-letter.pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages)
    for pack in open_packs(load_game("amiibart"), 2, 9):
        for card in pack:
            assert card.name.split()[0] in text
