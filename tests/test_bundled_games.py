"""The five bundled games: they load, their sample decks are legal, their sets are full size."""

from __future__ import annotations

from collections import Counter

import pytest

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.validate import validate_decks

GAMES = ["adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel"]


def test_all_five_games_are_bundled():
    assert bundled_game_ids() == GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_every_sample_deck_is_legal(game_id):
    game = load_game(game_id)
    decks = sorted((game.folder / "decks").glob("*.yaml"))
    assert decks, f"{game_id} has no sample decks"
    for report in validate_decks(decks):
        assert report.legal, (report.path, report.problems, report.errors)


def test_amiibart_launch_set():
    game = load_game("amiibart")
    in_set = [c for c in game.cards.values() if c.type in ("fighter", "spell", "stage")]
    by_element = Counter(c.get("element") for c in in_set)
    assert by_element == {e: 10 for e in ["Dark", "Light", "Fire", "ELW", "Magic", "Weapon", "Tech",
                                          "Tank", "Assassin", "Specialty"]}
    assert sorted(c.get("set_number") for c in in_set) == list(range(1, 101))
    powers = Counter((c.get("element"), c.get("slot")) for c in game.cards_of_type("power"))
    for element in by_element:
        assert powers[(element, "primary")] >= 1 and powers[(element, "secondary")] >= 1, element
    assert any(c.get("hazard") for c in game.cards_of_type("spell"))
    assert game.cards_of_type("token")
    assert set(game.keywords) >= {"Lifesteal", "Block", "Instakill", "Swift", "Void", "Forge", "Bind",
                                  "Update"}
    assert len(list((game.folder / "decks").glob("*.yaml"))) >= 4


def test_combo_fighter_characters():
    game = load_game("combo-fighter")
    characters = game.cards_of_type("character")
    assert len(characters) == 4
    for sheet in characters:
        assert sum(sheet.get("deck").values()) == 50, sheet.name
        assert len(sheet.get("starting_hand")) == 5
        assert len(sheet.get("signature_combos")) >= 3
        assert set(sheet.get("power_token")) >= {"a", "b"}
    assert len(game.cards_of_type("staggering")) == 4


def test_amfibido_levels_and_creatures():
    game = load_game("amfibido")
    levels = Counter(c.get("level") for c in game.cards.values() if c.type != "sensei")
    assert sorted(levels) == [1, 2, 3, 4, 5]
    creatures = {c.get("creature") for c in game.cards_of_type("fighter")}
    assert creatures == {"frog", "toad", "salamander", "crocodile", "turtle", "snake", "lizard"}
    assert game.cards_of_type("sensei")


def test_adapt_bodies_and_parts():
    game = load_game("adapt")
    assert len(game.cards_of_type("body")) == 18
    parts = game.cards_of_type("part")
    assert len(parts) == 40
    assert {p.get("location") for p in parts} == {"dorsal", "horn", "mouth", "skin", "side", "organ",
                                                  "tail", "special"}
    assert {b.get("level") for b in game.cards_of_type("body")} == {1, 2, 3, 4, 5}
    assert len(game.cards_of_type("guppy")) >= 3


def test_dojo_duel_set():
    game = load_game("dojo-duel")
    assert sum(c.copies for c in game.cards.values()) == 40
    assert all(isinstance(c.get("yin"), int) and isinstance(c.get("yang"), int)
               for c in game.cards.values())
