"""Amfibido: the box checks of content/amfibido/deck_checks.py and the bundled content."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardgen.model import load_deck, load_game
from cardgen.rules import check_deck as run_checks
from tests.conftest import game_code

amfibido = game_code("amfibido", "deck_checks")

GAME_DIR = Path(__file__).resolve().parent.parent / "content" / "amfibido"
CARDS_LINE = 3          # box_text() puts `cards:` on line 3, the first entry on line 4


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def full_box(game):
    """Every card of the box at its copies, in game order (sensei included)."""
    return {c.name: c.copies for c in game.cards.values()}


def box_text(counts: dict[str, int], name: str = "t") -> str:
    lines = ["game: amfibido", f"name: {name}", "cards:"]
    lines += [f"  {json.dumps(card)}: {n}" for card, n in counts.items()]
    return "\n".join(lines) + "\n"


def entry_line(counts: dict[str, int], card: str) -> int:
    return CARDS_LINE + 1 + list(counts).index(card)


def without(box: dict[str, int], game, drop) -> dict[str, int]:
    """The box minus every card for which drop(card) is true."""
    return {n: c for n, c in box.items() if not drop(game.cards[n])}


def level_of(card):
    return card.fields.get("level")


def rules(problems, rule=None):
    return [p.rule for p in problems if rule is None or p.rule == rule]


# ---------------------------------------------------------------------------------------------
# The bundled boxes are legal


@pytest.mark.parametrize("deck_file", ["standard-box.yaml", "first-game.yaml"])
def test_bundled_boxes_are_legal(deck_file):
    assert run_checks(load_deck(GAME_DIR / "decks" / deck_file)) == []


def test_full_box_listed_explicitly_is_legal(check_deck, full_box):
    assert check_deck(box_text(full_box)) == []


def test_first_game_box_is_the_box_without_sensei(game, full_box):
    deck = load_deck(GAME_DIR / "decks" / "first-game.yaml")
    listed = {e.name: e.count for e in deck.entries}
    assert listed == without(full_box, game, lambda c: c.type == "sensei")


# ---------------------------------------------------------------------------------------------
# The draft table


def test_draft_demand_follows_the_round_table(game):
    assert amfibido.deal_levels([1, 2], 3) == [2, 1, 2]
    assert amfibido.deal_levels([3, 4, 5], 3) == [5, 4, 3]
    assert amfibido.draft_demand(game) == {
        1: (10, [1, 2, 3]),
        2: (8, [2, 3, 4]),
        3: (8, [3, 4, 5, 6]),
        4: (10, [4, 5, 6, 7]),
        5: (6, [6, 7]),
    }
    # 7 rounds x 3 cards x 2 players, which is also the declared box-size minimum
    assert sum(n for n, _ in amfibido.draft_demand(game).values()) == 42


# ---------------------------------------------------------------------------------------------
# level-missing


def test_level_missing(check_deck, game, full_box):
    box = without(full_box, game, lambda c: level_of(c) == 3)
    problems = check_deck(box_text(box))
    assert [(p.rule, p.line) for p in problems] == [("level-missing", CARDS_LINE)]
    assert problems[0].message == "the box has no level III cards: rounds 3-6 deal from it"


def test_level_missing_not_reported_when_every_level_has_a_card(check_deck, game, full_box):
    # level V cut to the bare minimum: 2 fighters, 2 equipment, nothing else
    keep = {"African Bullfrog", "Komodo Dragon", "Pink Belt", "Master's Katana"}
    box = without(full_box, game, lambda c: level_of(c) == 5 and c.name not in keep)
    assert rules(check_deck(box_text(box)), "level-missing") == []


# ---------------------------------------------------------------------------------------------
# draft-supply


LEVEL_TWO_CUT = {"Leopard Frog": 2, "Cane Toad": 2, "Painted Turtle": 1, "Bo Staff": 1, "Sai": 1}


def _level_two_cut_to(game, full_box, extra=None):
    """The box with level II cut down to LEVEL_TWO_CUT (7 cards) plus `extra`."""
    keep = {**LEVEL_TWO_CUT, **(extra or {})}
    box = without(full_box, game, lambda c: level_of(c) == 2 and c.name not in keep)
    box.update(keep)
    return box


def test_draft_supply(check_deck, game, full_box):
    box = _level_two_cut_to(game, full_box)
    assert sum(n for name, n in box.items() if level_of(game.cards[name]) == 2) == 7
    problems = check_deck(box_text(box))
    assert [(p.rule, p.line) for p in problems] == [("draft-supply", CARDS_LINE)]
    assert problems[0].message == (
        "level II deck has 7 cards: the draft deals 8 from it to 2 players over rounds 2-4"
    )
    assert problems[0].severity == "warning"      # advice: the rulebook sets no deck sizes


def test_draft_supply_exactly_enough(check_deck, game, full_box):
    box = _level_two_cut_to(game, full_box, {"Roundhouse Kick": 1})
    assert check_deck(box_text(box)) == []


# ---------------------------------------------------------------------------------------------
# transform-target


def test_transform_target_no_equipment_at_next_level(check_deck, game, full_box):
    box = without(full_box, game, lambda c: level_of(c) == 3 and c.type == "equipment")
    problems = check_deck(box_text(box))
    assert [(p.rule, p.line) for p in problems] == [("transform-target", CARDS_LINE)]
    assert problems[0].message == (
        "level III has no equipment: the 7 equipment of level II have nothing to transform into"
    )


def test_transform_target_no_fighter_at_next_level(check_deck, game, full_box):
    box = without(full_box, game, lambda c: level_of(c) == 2 and c.type == "fighter")
    problems = check_deck(box_text(box))
    assert rules(problems, "transform-target") == ["transform-target"]
    [problem] = [p for p in problems if p.rule == "transform-target"]
    assert problem.message == (
        "level II has no fighter: the 14 fighters of level I have nothing to transform into"
    )
    assert problem.line == CARDS_LINE


def test_transform_target_level_five_needs_two_of_a_type(check_deck, game, full_box):
    box = without(full_box, game, lambda c: level_of(c) == 5 and c.type == "equipment"
                  and c.name != "Pink Belt")
    problems = check_deck(box_text(box))
    assert [(p.rule, p.line) for p in problems] == [("transform-target", CARDS_LINE)]
    assert problems[0].message == (
        "level V has 1 equipment: a level V equipment transforms into another level V "
        "equipment, so it needs at least 2"
    )


def test_transform_target_level_five_with_two_is_fine(check_deck, game, full_box):
    box = without(full_box, game, lambda c: level_of(c) == 5 and c.type == "equipment"
                  and c.name not in ("Pink Belt", "Spirit Gong"))
    assert check_deck(box_text(box)) == []


# ---------------------------------------------------------------------------------------------
# creature-missing


def test_creature_missing(check_deck, game, full_box):
    box = without(full_box, game, lambda c: c.get("creature") == "turtle")
    problems = check_deck(box_text(box))
    assert [(p.rule, p.line) for p in problems] == [("creature-missing", CARDS_LINE)]
    assert problems[0].message == (
        "the box has no turtle fighter: every creature type needs at least one"
    )
    assert problems[0].severity == "warning"


def test_creature_present_with_a_single_fighter(check_deck, game, full_box):
    box = without(full_box, game, lambda c: c.get("creature") == "turtle"
                  and c.name != "Softshell Turtle")
    box["Softshell Turtle"] = 1
    assert rules(check_deck(box_text(box)), "creature-missing") == []


# ---------------------------------------------------------------------------------------------
# sensei-supply


def _with_sensei(game, full_box, count):
    box = without(full_box, game, lambda c: c.type == "sensei")
    for card in game.cards_of_type("sensei")[:count]:
        box[card.name] = 1
    return box


def test_sensei_supply(check_deck, game, full_box):
    problems = check_deck(box_text(_with_sensei(game, full_box, 5)))
    assert [(p.rule, p.line) for p in problems] == [("sensei-supply", CARDS_LINE)]
    assert problems[0].message == (
        "the box has 5 sensei: dealing 3 to each of 2 players needs 6"
    )


@pytest.mark.parametrize("count", [0, 6])
def test_sensei_supply_fine_without_sensei_or_with_six(check_deck, game, full_box, count):
    assert check_deck(box_text(_with_sensei(game, full_box, count))) == []


# ---------------------------------------------------------------------------------------------
# box-copies


def test_box_copies(check_deck, full_box):
    box = dict(full_box)
    box["Tree Frog"] = 3
    problems = check_deck(box_text(box))
    assert [(p.rule, p.line) for p in problems] == [
        ("box-copies", entry_line(box, "Tree Frog"))
    ]
    assert problems[0].message == "has 3 copies of Tree Frog: the box holds 2"


def test_box_copies_fewer_is_fine(check_deck, full_box):
    box = dict(full_box)
    box["Tree Frog"] = 1
    assert check_deck(box_text(box)) == []


def test_unknown_card_and_bad_count_are_left_to_the_core(check_deck, full_box):
    box = dict(full_box)
    box["Tree Frogg"] = 9
    box["Jab"] = 0
    problems = check_deck(box_text(box))
    assert sorted(rules(problems)) == ["bad-count", "unknown-card"]


# ---------------------------------------------------------------------------------------------
# box-size (declared in game.yaml) and several faults at once


def test_box_size(check_deck, game):
    level_one = {c.name: c.copies for c in game.cards.values() if level_of(c) == 1}
    problems = check_deck(box_text(level_one))
    size = [p for p in problems if p.rule == "box-size"]
    assert len(size) == 1 and size[0].line == CARDS_LINE
    assert "has 28 " in size[0].message and "at least 42" in size[0].message
    assert size[0].severity == "warning"
    # a rule the published game needs stays an error: here level II-V are missing
    assert {p.severity for p in problems if p.rule == "level-missing"} == {"error"}


def test_several_faults_are_all_reported(check_deck, game, full_box):
    box = without(full_box, game, lambda c: level_of(c) == 4 or c.get("creature") == "snake"
                  or c.type == "sensei")
    box["Master Ripple"] = 1
    box["Sensei Coil"] = 1
    box["Jab"] = 5
    box["Mesmer Toad"] = 2
    problems = check_deck(box_text(box))
    assert [(p.rule, p.line) for p in problems] == [
        ("level-missing", CARDS_LINE),
        ("creature-missing", CARDS_LINE),
        ("sensei-supply", CARDS_LINE),
        ("box-copies", entry_line(box, "Jab")),
        ("box-copies", entry_line(box, "Mesmer Toad")),
    ]
    messages = [p.message for p in problems]
    assert messages[0] == "the box has no level IV cards: rounds 4-7 deal from it"
    assert messages[2] == "the box has 2 sensei: dealing 3 to each of 2 players needs 6"
    assert messages[3] == "has 5 copies of Jab: the box holds 2"
    assert messages[4] == "has 2 copies of Mesmer Toad: the box holds 1"


def test_every_rule_id_is_documented():
    assert set(amfibido.RULES) == {
        "level-missing", "draft-supply", "transform-target", "creature-missing",
        "sensei-supply", "box-copies",
    }
    assert all(doc.strip() for doc in amfibido.RULES.values())


# ---------------------------------------------------------------------------------------------
# The content itself


def test_level_decks_sizes_and_types(game):
    for level in range(1, 6):
        cards = [c for c in game.cards.values() if level_of(c) == level]
        total = sum(c.copies for c in cards)
        assert 24 <= total <= 30, (level, total)
        for kind in ("fighter", "equipment", "action"):
            assert any(c.type == kind for c in cards), (level, kind)
    sensei = game.cards_of_type("sensei")
    assert 8 <= len(sensei) <= 12


def test_creatures_match_the_table(game):
    creatures = {c.get("creature") for c in game.cards_of_type("fighter")}
    assert creatures == set(game.tables["creatures"])
    specialties = {k: v["specialty"] for k, v in game.tables["creatures"].items()}
    assert specialties["frog"] == "karate" and specialties["lizard"] == "street fighting"


def test_combo_moves_and_boomerang_are_consistent(game):
    for card in game.cards_of_type("action"):
        combo = card.get("combo", False)
        assert ("bonus" in card.fields) == combo, card.name
        boomerang = card.get("boomerang", False)
        assert boomerang == ("Boomerang" in card.get("keywords", [])), card.name
        assert boomerang <= combo, card.name     # only combo moves come back
        if not combo:
            assert card.get("text"), card.name


def test_keywords_match_the_text(game):
    """`keywords` lists exactly the keywords a card's text names (Boomerang: its field)."""
    for card in game.cards.values():
        words = " ".join([card.get("text", ""), (card.get("action_ability") or {}).get("text", "")])
        named = set()
        for keyword in game.keywords:
            stem = "knock(ed)? ?out(?! pile)" if keyword == "Knockout" else keyword.lower()
            if re.search(rf"\b{stem}", words.lower()):
                named.add(keyword)
        if card.get("boomerang"):
            named.add("Boomerang")
        assert set(card.get("keywords", [])) == named, card.name


def test_rules_text_fits_a_poker_card(game):
    for card in game.cards.values():
        text = card.get("text", "")
        ability = card.get("action_ability") or {}
        assert len(text) + len(ability.get("text", "")) + len(ability.get("cost", "")) <= 200, \
            card.name
        assert card.type in ("action", "sensei") or card.get("power") is not None


def test_faq_cards(game):
    """The rulebook's FAQ and examples name these cards; their abilities set up each answer."""
    c = game.cards
    assert (c["Tree Frog"].type, c["Tree Frog"].get("creature")) == ("fighter", "frog")
    assert "+3 more" in c["Tree Frog"].get("text")
    assert (c["Roundhouse Kick"].get("combo"), c["Roundhouse Kick"].get("bonus")) == (True, 3)
    assert c["Uppercut"].get("combo") is True
    assert c["White Belt"].type == "equipment" and "frog" in c["White Belt"].get("text")
    assert c["Sparring Boots"].get("text").startswith("End of round:")
    assert c["Snapping Turtle"].get("text").startswith("End of round:")
    assert "retire it" in c["Snapping Turtle"].get("text")
    assert c["Metamorphosis"].get("keywords") == ["Transform"]
    painted = c["Painted Turtle"]
    assert painted.get("creature") == "turtle" and "enters a dojo: discard" in painted.get("text")
    # Metamorphosis on a level I fighter can reveal a Painted Turtle
    assert painted.get("level") == c["Metamorphosis"].get("level") + 1
    assert c["Komodo Dragon"].get("creature") == "lizard"
    assert "also fights" in c["Komodo Dragon"].get("text")
    assert c["Bo Staff"].get("text") == "Neutralize the opposing equipment."
    assert c["Mesmer Toad"].get("creature") == "toad"
    assert c["Mesmer Toad"].get("text") == "Neutralize the opposing equipment."


def test_round_table_reaches_every_level_and_after_round_seven_is_stated(game):
    draft = game.tables["draft"]
    table = draft["active_levels"]
    assert sorted(table) == list(range(1, 8))
    assert {lv for levels in table.values() for lv in levels} == {1, 2, 3, 4, 5}
    assert [max(table[r]) for r in sorted(table)] == sorted(max(table[r]) for r in table)
    assert "round 8" in draft["after_round_7"]
    assert (draft["deal"], draft["pick"], draft["pass"], draft["pick_from_passed"],
            draft["discard"]) == (3, 1, 2, 1, 1)
    assert game.tables["wins_needed"] == 4 and game.tables["dojos"] == 3


# ---------------------------------------------------------------------------------------------
# Rulings and variants


def test_every_ruling_cites_the_rulebook(game):
    assert "rulings" not in game.tables          # moved to the top-level rulings:
    assert len(game.rulings) >= 20
    for ruling in game.rulings:
        assert ruling.cites, ruling.rule


def test_variants_are_declared_and_played(game):
    from cardgen.engines import load_engine

    engine = load_engine(game)
    assert set(game.variants) == set(engine.variants) == {
        "first-game", "round-limit", "failed-transform-stays"}
    assert game.variants["first-game"].source == "rulebook"
    for vid in ("round-limit", "failed-transform-stays"):
        v = game.variants[vid]
        assert v.source == "house" and v.cites and v.played
    # the rule printed for the round limit names the round the engine stops after
    assert f"round {game.tables['round_limit']} " in game.variants["round-limit"].rule
    # the published rules have no last round
    assert "round_limit" not in game.tables["draft"]
