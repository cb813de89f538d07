"""Combo Fighter: the bundled content and its deck rules (declared in game.yaml and in
content/combo-fighter/deck_checks.py)."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest

from cardgen.model import load_deck, load_game
from cardgen.rules import check_deck as run_checks
from cardgen.rules import rule_ids
from tests.conftest import (
    ROOT,
    game_code,
)

combo_fighter = game_code("combo-fighter", "deck_checks")

GAME_DIR = ROOT / "content" / "combo-fighter"
DECKS = sorted((GAME_DIR / "decks").glob("*.yaml"))
ACTION_TYPES = ("attack", "defense", "footwork")

# Teodor Balan's standard deck. Line numbers: 3 character, 4 starting_hand, 5 cards,
# 6 Ember Jab ... 21 Second Wind.
TEODOR = """game: combo-fighter
name: Test
character: Teodor Balan
starting_hand: [Ember Jab, Ember Jab, Bellows Hook, Leather Guard, Stoke Step]
cards:
  Ember Jab: 6
  Spark Elbow: 3
  Bellows Hook: 4
  Anvil Straight: 4
  Slag Body Blow: 3
  Quench Uppercut: 3
  Forge Hammer: 2
  Leather Guard: 4
  Iron Forearm: 3
  Roll the Punch: 3
  Guard Up: 2
  Stoke Step: 4
  Shoulder Shove: 3
  Furnace Rush: 3
  Heat Haze: 2
  Second Wind: 1
"""

# Amaya Sol's standard deck (Eclipse Wheel on line 12).
AMAYA = """game: combo-fighter
name: Test
character: Amaya Sol
starting_hand: [Flick Kick, Crescent Kick, Cartwheel Heel, Bridge Dodge, Pendulum Step]
cards:
  Flick Kick: 6
  Tail Sweep: 2
  Crescent Kick: 4
  Hook Spin: 4
  Cartwheel Heel: 4
  Sunrise Axe Kick: 3
  Eclipse Wheel: 1
  Bridge Dodge: 5
  Low Spin Evade: 3
  Handstand Escape: 3
  Guard Up: 2
  Pendulum Step: 5
  Cartwheel Entry: 3
  Crowd Rhythm: 2
  Shuffle Step: 2
  Second Wind: 1
"""

# Noor Halabi's standard deck (Thorn Needle on line 6, Guard Up on line 16).
NOOR = """game: combo-fighter
name: Test
character: Noor Halabi
starting_hand: [Thorn Needle, Thorn Needle, Pressure Palm, Reed Bend, Circle Step]
cards:
  Thorn Needle: 6
  Two-Finger Jab: 3
  Nerve Strike: 4
  Pressure Palm: 4
  Locking Elbow: 3
  Vein Breaker: 2
  Numbing Touch: 2
  Reed Bend: 5
  Wrist Trap: 3
  Slip the Strike: 3
  Guard Up: 2
  Circle Step: 5
  Shadow Close: 3
  Read the Pulse: 2
  Shuffle Step: 2
  Second Wind: 1
"""


def edit(text: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def found(problems) -> list[tuple[str, int]]:
    return [(p.rule, p.line) for p in problems]


def messages(problems, rule: str) -> list[str]:
    return [p.message for p in problems if p.rule == rule]


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


# ---------------------------------------------------------------- legal decks


@pytest.mark.parametrize("path", DECKS, ids=[p.stem for p in DECKS])
def test_every_sample_deck_is_legal(path):
    assert run_checks(load_deck(path)) == []


def test_sample_decks_cover_every_fighter_and_a_custom_variant(game):
    fighters = {c.name for c in game.cards_of_type("character")}
    decks = [load_deck(p) for p in DECKS]
    assert {d.fields["character"] for d in decks} == fighters
    standard = {c.name: c.fields["deck"] for c in game.cards_of_type("character")}
    custom = [d for d in decks
              if {e.name: e.count for e in d.entries} != standard[d.fields["character"]]]
    assert custom, "at least one sample deck differs from its fighter's standard deck"


@pytest.mark.parametrize("text", [TEODOR, AMAYA, NOOR], ids=["teodor", "amaya", "noor"])
def test_standard_decks_as_text_are_legal(check_deck, text):
    assert check_deck(text) == []


def test_rule_ids_are_documented(game):
    ids = rule_ids(game)
    for rule in ("deck-size", "action-cards-only", "copy-limit", "character-missing",
                 "character-card", "starting-hand", "signature-combo", "token-card"):
        assert ids[rule], rule
    assert set(combo_fighter.RULES) == {"character-missing", "character-card", "starting-hand",
                                        "signature-combo", "token-card"}


# ---------------------------------------------------------------- declared checks


def test_deck_size_too_few(check_deck):
    problems = check_deck(edit(TEODOR, ("Ember Jab: 6", "Ember Jab: 5")))
    assert found(problems) == [("deck-size", 5)]
    assert problems[0].message == "has 49 attack/defense/footwork cards: a deck needs exactly 50"


def test_deck_size_too_many(check_deck):
    problems = check_deck(edit(TEODOR, ("Second Wind: 1", "Second Wind: 2")))
    assert found(problems) == [("deck-size", 5)]
    assert problems[0].message == "has 51 attack/defense/footwork cards: a deck needs exactly 50"


def test_character_and_staggering_cards_stay_out_of_the_deck(check_deck):
    problems = check_deck(edit(TEODOR, ("  Second Wind: 1\n",
                                        "  Second Wind: 1\n  Cooling Embers: 1\n"
                                        "  Teodor Balan: 1\n")))
    # They do not count toward the 50 action cards, so deck-size stays quiet.
    assert found(problems) == [("action-cards-only", 22), ("action-cards-only", 23)]
    assert problems[0].message == (
        "Cooling Embers is a staggering card: staggering cards never go in a deck")
    assert problems[1].message == (
        "Teodor Balan is a character card: character cards never go in a deck")


def test_copy_limit(check_deck):
    problems = check_deck(edit(TEODOR, ("Ember Jab: 6", "Ember Jab: 7"),
                               ("  Second Wind: 1\n", "")))
    assert found(problems) == [("copy-limit", 6)]
    assert problems[0].message == "has 7 copies of Ember Jab: limit 6"


# ---------------------------------------------------------------- character-missing


def test_character_missing(check_deck):
    problems = check_deck(edit(TEODOR, ("character: Teodor Balan\n", "")))
    assert found(problems) == [("character-missing", 2)]
    assert problems[0].message == ("the deck names no fighter: add `character:` (Amaya Sol, "
                                   "Noor Halabi, Oskar Brannvik, Teodor Balan)")


def test_character_that_is_not_a_sheet_is_the_cores_unknown_card(check_deck):
    problems = check_deck(edit(TEODOR, ("character: Teodor Balan", "character: Ember Jab")))
    assert found(problems) == [("unknown-card", 3)]


# ---------------------------------------------------------------- character-card


def test_move_of_another_fighter(check_deck):
    problems = check_deck(edit(TEODOR, ("Second Wind: 1", "Harpoon Jab: 1")))
    assert found(problems) == [("character-card", 21)]
    assert problems[0].message == "Harpoon Jab is one of Oskar Brannvik's moves, not Teodor Balan's"


def test_shared_moves_fit_any_fighter(check_deck):
    # Guard Up, Shuffle Step and Second Wind have no `character`.
    text = edit(TEODOR, ("Roll the Punch: 3", "Shuffle Step: 3"))
    assert check_deck(text) == []


# ---------------------------------------------------------------- starting-hand


def test_starting_hand_too_small(check_deck):
    problems = check_deck(edit(TEODOR, ("[Ember Jab, Ember Jab, ", "[Ember Jab, ")))
    assert found(problems) == [("starting-hand", 4)]
    assert problems[0].message == "the starting hand has 4 cards: it must have exactly 5"


def test_starting_hand_too_large(check_deck):
    problems = check_deck(edit(TEODOR, ("Stoke Step]", "Stoke Step, Heat Haze]")))
    assert found(problems) == [("starting-hand", 4)]
    assert problems[0].message == "the starting hand has 6 cards: it must have exactly 5"


def test_starting_hand_more_copies_than_the_deck(check_deck):
    text = edit(TEODOR, ("starting_hand: [Ember Jab, Ember Jab, Bellows Hook, Leather Guard, "
                         "Stoke Step]\n",
                         "starting_hand:\n  - Heat Haze\n  - Heat Haze\n  - Heat Haze\n"
                         "  - Ember Jab\n  - Stoke Step\n"))
    problems = check_deck(text)
    # The third Heat Haze (line 7) is the one the deck cannot supply.
    assert found(problems) == [("starting-hand", 7)]
    assert problems[0].message == "the starting hand has 3 copies of Heat Haze: the deck holds 2"


def test_starting_hand_card_the_deck_lacks(check_deck):
    text = edit(TEODOR, ("  Roll the Punch: 3\n", ""), ("Leather Guard: 4", "Leather Guard: 6"),
                ("Guard Up: 2", "Guard Up: 3"),
                ("Leather Guard, Stoke Step]", "Leather Guard, Roll the Punch]"))
    problems = check_deck(text)
    assert found(problems) == [("starting-hand", 4)]
    assert problems[0].message == ("the starting hand has 1 copy of Roll the Punch: "
                                   "the deck holds none")


def test_starting_hand_cannot_hold_a_card_set_aside_at_the_start(check_deck):
    problems = check_deck(edit(AMAYA, ("Pendulum Step]", "Eclipse Wheel]")))
    assert found(problems) == [("starting-hand", 4)]
    assert problems[0].message == (
        "the starting hand has 1 copy of Eclipse Wheel: the deck holds 1, of which 1 starts each "
        "fight set aside, leaving 0 for the hand")


def test_starting_hand_missing(check_deck):
    problems = check_deck(edit(TEODOR, ("starting_hand: [Ember Jab, Ember Jab, Bellows Hook, "
                                        "Leather Guard, Stoke Step]\n", "")))
    assert found(problems) == [("starting-hand", 3)]
    assert problems[0].message == ("the deck has no starting_hand: list the 5 cards Teodor Balan "
                                   "starts each fight with")


def test_starting_hand_naming_a_sheet_is_the_cores_unknown_card(check_deck):
    problems = check_deck(edit(TEODOR, ("Stoke Step]", "Teodor Balan]")))
    assert found(problems) == [("unknown-card", 4)]


# ---------------------------------------------------------------- signature-combo


def test_signature_combo_needs_more_copies(check_deck):
    problems = check_deck(edit(NOOR, ("Thorn Needle: 6", "Thorn Needle: 2"),
                               ("Guard Up: 2", "Guard Up: 6")))
    assert found(problems) == [("signature-combo", 6)]
    assert problems[0].message == ("Noor Halabi's signature combo Thousand Thorns plays Thorn "
                                   "Needle 3 times: the deck holds 2")


def test_signature_combo_card_missing_is_reported_at_the_character(check_deck):
    problems = check_deck(edit(TEODOR, ("  Furnace Rush: 3\n", ""),
                               ("Roll the Punch: 3", "Roll the Punch: 6")))
    assert found(problems) == [("signature-combo", 3)]
    assert problems[0].message == ("Teodor Balan's signature combo Spark Shower plays Furnace "
                                   "Rush once: the deck holds none")


def test_signature_combo_card_shared_by_two_combos_is_one_problem(check_deck):
    problems = check_deck(edit(TEODOR, ("  Slag Body Blow: 3\n", ""),
                               ("Forge Hammer: 2", "Forge Hammer: 5")))
    assert found(problems) == [("signature-combo", 3)]
    assert messages(problems, "signature-combo") == [
        "Teodor Balan's signature combo Iron Counter plays Slag Body Blow once: the deck holds none"]
    problems = check_deck(edit(TEODOR, ("  Quench Uppercut: 3\n", ""),
                               ("Forge Hammer: 2", "Forge Hammer: 5")))
    assert messages(problems, "signature-combo") == [
        "Teodor Balan's signature combos Red-Hot Rivet and Iron Counter play Quench Uppercut "
        "once: the deck holds none"]


# ---------------------------------------------------------------- token-card


def test_token_card_missing(check_deck):
    problems = check_deck(edit(AMAYA, ("  Eclipse Wheel: 1\n", ""), ("Tail Sweep: 2", "Tail Sweep: 3")))
    # Total Eclipse ends with Eclipse Wheel, so its signature combo is short too.
    assert found(problems) == [("signature-combo", 3), ("token-card", 3)]
    assert messages(problems, "token-card") == [
        "Amaya Sol's Power Token needs Eclipse Wheel: the deck holds none"]
    assert messages(problems, "signature-combo") == [
        "Amaya Sol's signature combo Total Eclipse plays Eclipse Wheel once: the deck holds none"]


def test_a_custom_deck_the_published_rules_allow_is_legal_with_advice(tmp_path):
    """The rulebook's deck rules are the 50 cards and the 5-card starting hand; the copy cap, the
    signature combos and the token's cards are advice for custom decks, never make one illegal."""
    from cardgen.validate import validate_decks

    deck = tmp_path / "custom.yaml"
    deck.write_text(edit(AMAYA, ("  Eclipse Wheel: 1\n", ""), ("Tail Sweep: 2", "Tail Sweep: 3"),
                         ("Flick Kick: 6", "Flick Kick: 7"), ("Crescent Kick: 4", "Crescent Kick: 3")))
    (report,) = validate_decks([deck])
    assert report.legal, report.problems
    assert sorted({(p.rule, p.severity) for p in report.problems}) == [
        ("copy-limit", "warning"), ("signature-combo", "warning"), ("token-card", "warning")]
    (strict,) = validate_decks([deck], strict=True)
    assert not strict.legal


def test_token_card_held_once_is_enough(check_deck):
    # Noor's token names Thorn Needle: 3 copies keep the token and Thousand Thorns working.
    text = edit(NOOR, ("Thorn Needle: 6", "Thorn Needle: 3"), ("Guard Up: 2", "Guard Up: 5"))
    assert check_deck(text) == []


# ---------------------------------------------------------------- several faults at once


def test_deck_with_several_faults_reports_all_of_them(check_deck):
    text = """game: combo-fighter
name: Everything Wrong
character: Teodor Balan
starting_hand: [Ember Jab, Ember Jab, Eclipse Wheel, Heat Haze]
cards:
  Ember Jab: 7
  Bellows Hook: 4
  Quench Uppercut: 3
  Harpoon Jab: 2
  Cooling Embers: 1
  Shoulder Shove: 3
  Spark Elbow: 3
  Forge Hammer: 2
  Iron Forearm: 3
  Slag Body Blow: 3
  Furnace Rush: 3
  Heat Haze: 2
  Ghost Card: 1
"""
    problems = check_deck(text)
    assert found(problems) == [
        ("signature-combo", 3),   # Spark Shower needs Anvil Straight
        ("starting-hand", 4),     # 4 cards, not 5
        ("starting-hand", 4),     # Eclipse Wheel is not in the deck
        ("deck-size", 5),         # 35 action cards
        ("copy-limit", 6),        # 7 Ember Jab
        ("character-card", 9),    # Harpoon Jab is Oskar's
        ("action-cards-only", 10),
        ("unknown-card", 18),
    ]
    assert messages(problems, "deck-size") == [
        "has 35 attack/defense/footwork cards: a deck needs exactly 50"]
    assert messages(problems, "starting-hand") == [
        "the starting hand has 4 cards: it must have exactly 5",
        "the starting hand has 1 copy of Eclipse Wheel: the deck holds none",
    ]
    assert messages(problems, "signature-combo") == [
        "Teodor Balan's signature combo Spark Shower plays Anvil Straight once: the deck holds none"]
    assert all(p.rule in rule_ids(load_game(GAME_DIR)) for p in problems)


# ---------------------------------------------------------------- the content itself


def fighters(game):
    return game.cards_of_type("character")


def test_every_sheet_deck_is_50_action_cards(game):
    assert len(fighters(game)) == 4
    for sheet in fighters(game):
        deck = sheet.fields["deck"]
        assert sum(deck.values()) == 50, sheet.name
        assert 12 <= len(deck) <= 20, sheet.name
        for name in deck:
            card = game.cards[name]
            assert card.type in ACTION_TYPES
            assert card.fields.get("character") in (None, sheet.name), (sheet.name, name)


def test_every_starting_hand_comes_from_the_deck(game):
    for sheet in fighters(game):
        hand = Counter(sheet.fields["starting_hand"])
        deck = Counter(sheet.fields["deck"])
        deck.subtract(sheet.fields["power_token"].get("starts_set_aside", []))
        assert sum(hand.values()) == 5, sheet.name
        for name, n in hand.items():
            assert deck[name] >= n, (sheet.name, name)


def test_every_signature_combo_chains_by_the_combo_boxes(game):
    for sheet in fighters(game):
        combos = sheet.fields["signature_combos"]
        assert len(combos) >= 3, sheet.name
        for combo in combos:
            cards = [game.cards[n] for n in combo["cards"]]
            for before, after in pairwise(cards):
                assert after.fields["button"] in before.fields["combo"], (
                    f"{sheet.name}: {combo['name']}: {after.name} cannot follow {before.name}")
            held = Counter(sheet.fields["deck"])
            for name, n in Counter(combo["cards"]).items():
                assert held[name] >= n, (combo["name"], name)
            if "power_damage" in combo:
                assert combo["power_damage"] > combo["basic_damage"], combo["name"]


def test_box_copies_match_the_sheets(game):
    total: Counter[str] = Counter()
    for sheet in fighters(game):
        total.update(sheet.fields["deck"])
    for card in game.cards_of_type(*ACTION_TYPES):
        assert card.copies == total[card.name], card.name


def test_each_fighter_has_one_staggering_card_and_own_moves(game):
    owners = Counter(c.fields["character"] for c in game.cards_of_type("staggering"))
    assert owners == Counter(s.name for s in fighters(game))
    for sheet in fighters(game):
        own = [c for c in game.cards_of_type(*ACTION_TYPES) if c.fields.get("character") == sheet.name]
        assert 12 <= len(own) <= 20, sheet.name
        assert {c.name for c in own} <= set(sheet.fields["deck"]), sheet.name


def test_token_cards_are_in_the_deck(game):
    for sheet in fighters(game):
        token = sheet.fields["power_token"]
        for name in token.get("cards", []) + token.get("starts_set_aside", []):
            assert sheet.fields["deck"].get(name, 0) >= 1, (sheet.name, name)
        assert set(token.get("starts_set_aside", [])) <= set(token.get("cards", []))


def test_card_text_names_its_keywords_and_fits(game):
    for card in game.cards_of_type(*ACTION_TYPES):
        text = card.fields.get("text", "")
        listed = set(card.fields.get("keywords", []))
        assert len(text) <= 200, card.name
        for keyword in game.keywords:
            if re.search(rf"\b{re.escape(keyword)}\b", text):
                assert keyword in listed, (card.name, keyword)
        for keyword in listed:
            assert keyword in ("Quick", "Guard Break") or keyword in text, (card.name, keyword)


def test_damage_values_and_speeds_are_sane(game):
    for card in game.cards_of_type(*ACTION_TYPES):
        for key in ("opening_damage", "combo_damage"):
            value = card.fields[key]
            assert isinstance(value, int) or re.fullmatch(r"[23]?X", value), (card.name, key)
        if card.type == "attack":
            assert 1 <= card.fields["speed"] <= 9
        else:
            assert "speed" not in card.fields
