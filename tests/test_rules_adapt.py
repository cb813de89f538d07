"""A.D.A.P.T. box checks (content/adapt/deck_checks.py).

The "deck" of A.D.A.P.T. is the box's gene stream deck. Each rule id gets a legal and an illegal
case; faults that sit in one entry are checked at that entry's line, and messages state counts.
Faults that need card data the bundled game does not have (too few guppies, a value over a cap)
use a copy of the game folder with the fault added.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.model import load_game
from tests.conftest import game_code

adapt = game_code("adapt", "deck_checks")

ROOT = Path(__file__).resolve().parent.parent
GAME_DIR = ROOT / "content" / "adapt"


@pytest.fixture(scope="module")
def game():
    return load_game("adapt")


@pytest.fixture
def game_copy(tmp_path):
    """A copy of content/adapt at tmp_path/adapt-copy; decks name it `game: ./adapt-copy`."""
    target = tmp_path / "adapt-copy"
    shutil.copytree(GAME_DIR, target)
    return target


def deck_text(names, *, game="adapt", variants=None, extra=None):
    """A deck listing `names` (1 copy each) plus `extra` {name: count}."""
    lines = [f"game: {game}", "name: test box"]
    if variants is not None:
        lines.append(f"variants: [{', '.join(variants)}]")
    lines.append("cards:")
    for name in names:
        lines.append(f"  {name}: 1")
    for name, count in (extra or {}).items():
        lines.append(f"  {name}: {count}")
    return "\n".join(lines) + "\n"


def line_of(text, start):
    """The 1-based line of the first line of `text` starting with `start`."""
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith(start):
            return i
    raise AssertionError(f"{start!r} not in deck text")


def stream(game, *, drop=lambda c: False):
    """Names of every body and part of the bundled game, minus those `drop` selects."""
    return [c.name for c in game.cards.values() if c.type in ("body", "part") and not drop(c)]


def of(problems, rule):
    return [p for p in problems if p.rule == rule]


KIDS_REMOVED = ("special", "horn", "organ", "skin")


def kids_names(game):
    return stream(game, drop=lambda c: c.type == "part" and c.get("location") in KIDS_REMOVED)


# --- the bundled decks ------------------------------------------------------------------------


@pytest.mark.parametrize("deck", ["box.yaml", "kids.yaml"])
def test_bundled_decks_are_legal(check_deck, deck):
    text = (GAME_DIR / "decks" / deck).read_text(encoding="utf-8")
    assert check_deck(text) == []


def test_explicit_full_box_is_legal(check_deck, game):
    assert check_deck(deck_text(stream(game))) == []


def test_rules_document_every_rule_id():
    assert set(adapt.RULES) == {
        "body-levels", "part-locations", "variant-locations", "guppy-count", "stream-supply",
        "ability-cap", "ability-form", "body-cost", "box-copies",
    }
    assert all(isinstance(v, str) and v for v in adapt.RULES.values())


# --- body-levels ------------------------------------------------------------------------------


def test_body_levels_legal_with_three_bodies_per_level(check_deck, game):
    # drop one Level 1, 2 and 3 body: 3 left at every Level
    dropped = {"Clownfish", "Pufferfish", "Barracuda"}
    problems = check_deck(deck_text(stream(game, drop=lambda c: c.name in dropped)))
    assert of(problems, "body-levels") == []


def test_body_levels_missing_level(check_deck, game):
    text = deck_text(stream(game, drop=lambda c: c.type == "body" and c.get("level") == 3))
    problems = of(check_deck(text), "body-levels")
    assert [(p.line, p.message) for p in problems] == [
        (line_of(text, "cards:"),
         "has no body at Level 3: at least 3 needed (one per Fish of a 3-player game); "
         "no Fish can Adapt past Level 2"),
    ]


def test_body_levels_missing_level_one(check_deck, game):
    text = deck_text(stream(game, drop=lambda c: c.type == "body" and c.get("level") == 1))
    problems = of(check_deck(text), "body-levels")
    assert [p.message for p in problems] == [
        "has no body at Level 1: at least 3 needed (one per Fish of a 3-player game); "
        "a Guppy's Auto-Adapt finds no Body",
    ]


def test_body_levels_too_few_at_a_level(check_deck, game):
    text = deck_text(stream(game, drop=lambda c: c.name == "Swordfish"))
    problems = of(check_deck(text), "body-levels")
    assert [(p.line, p.message) for p in problems] == [
        (line_of(text, "cards:"),
         "has 2 bodies at Level 4: at least 3 needed (one per Fish of a 3-player game)"),
    ]


# --- part-locations and variant-locations ----------------------------------------------------


def test_part_locations_missing_one(check_deck, game):
    text = deck_text(stream(game, drop=lambda c: c.get("location") == "tail"))
    problems = of(check_deck(text), "part-locations")
    assert [(p.line, p.message) for p in problems] == [
        (line_of(text, "cards:"),
         "has no tail part: every location the deck's variants keep needs at least 1"),
    ]


def test_kids_box_without_variant_reports_each_removed_location(check_deck, game):
    text = deck_text(kids_names(game))
    problems = of(check_deck(text), "part-locations")
    hint = " (a kids' box should say `variants: [kids]`)"
    assert [p.message for p in problems] == [
        f"has no {loc} part: every location the deck's variants keep needs at least 1{hint}"
        for loc in ("horn", "skin", "organ", "special")
    ]


def test_kids_box_with_variant_is_legal(check_deck, game):
    assert check_deck(deck_text(kids_names(game), variants=["kids"])) == []


def test_kids_box_still_needs_the_locations_it_keeps(check_deck, game):
    names = [n for n in kids_names(game) if game.cards[n].get("location") != "mouth"]
    problems = of(check_deck(deck_text(names, variants=["kids"])), "part-locations")
    assert [p.message for p in problems] == [
        "has no mouth part: every location the deck's variants keep needs at least 1",
    ]


def test_variant_locations_legal_without_kids(check_deck, game):
    problems = check_deck(deck_text(stream(game), variants=["sailfish"]))
    assert of(problems, "variant-locations") == []


def test_variant_locations_kids_box_with_a_horn(check_deck, game):
    text = deck_text(kids_names(game), variants=["kids"], extra={"Nub Horn": 1, "Keen Brain": 1})
    problems = of(check_deck(text), "variant-locations")
    assert [(p.line, p.message) for p in problems] == [
        (line_of(text, "  Nub Horn:"),
         "Nub Horn is a horn part: the kids variant removes horn parts"),
        (line_of(text, "  Keen Brain:"),
         "Keen Brain is an organ part: the kids variant removes organ parts"),
    ]


# --- guppy-count ------------------------------------------------------------------------------


def test_guppy_count_legal(check_deck, game):
    assert sum(c.copies for c in game.cards.values() if c.type == "guppy") >= 3
    assert of(check_deck(deck_text(stream(game))), "guppy-count") == []


def test_guppy_count_too_few(check_deck, game, game_copy):
    guppies = game_copy / "cards" / "guppies.yaml"
    text = guppies.read_text(encoding="utf-8")
    cut = text.index("  - name: Teal Guppy")
    guppies.write_text(text[:cut], encoding="utf-8")
    deck = deck_text(stream(game), game="./adapt-copy")
    problems = check_deck(deck)
    assert [(p.rule, p.line, p.message) for p in problems] == [
        ("guppy-count", line_of(deck, "game:"),
         "the game has 2 guppies: at least 3 needed (one per player of the 3-player core game)"),
    ]


# --- stream-supply ----------------------------------------------------------------------------


def _small_box(game, n):
    """The first n bodies and parts of the game (only the card count matters here)."""
    return stream(game)[:n]


def test_stream_supply_exactly_enough(check_deck, game):
    assert of(check_deck(deck_text(_small_box(game, 14))), "stream-supply") == []


def test_stream_supply_too_few(check_deck, game):
    text = deck_text(_small_box(game, 13))
    problems = of(check_deck(text), "stream-supply")
    assert [(p.line, p.message) for p in problems] == [
        (line_of(text, "cards:"),
         "has 13 cards for the gene stream: at least 14 needed (4 slots for 3 players + "
         "10 cycles)"),
    ]


def test_stream_supply_counts_variant_slots(check_deck, game):
    text = deck_text(_small_box(game, 14), variants=["kids", "sailfish"])
    problems = of(check_deck(text), "stream-supply")
    assert [p.message for p in problems] == [
        "has 14 cards for the gene stream: at least 16 needed (4 slots for 3 players + 2 for "
        "kids, sailfish + 10 cycles)",
    ]


def test_stream_supply_ignores_set_aside_cards(check_deck, game):
    text = deck_text(_small_box(game, 13), extra={"Amber Guppy": 1})
    problems = check_deck(text)
    assert [p.rule for p in of(problems, "stream-supply")] == ["stream-supply"]
    assert [(p.line, p.message) for p in of(problems, "set-aside")] == [
        (line_of(text, "  Amber Guppy:"),
         "Amber Guppy is a guppy card: guppy cards never go in a deck"),
    ]


# --- card data: ability-cap, ability-form, body-cost ------------------------------------------

BAD_CARDS = """\
defaults: {type: part}
cards:
  - {name: Boulder Plates, level: 5, location: skin, cost: 11, abilities: {Armor: 3}}
  - {name: Thick Plates, level: 4, location: skin, cost: 9, abilities: {Armor: 2}}
  - {name: Huge Brain, level: 4, location: organ, cost: 9, abilities: {Smart: 2}}
  - {name: Odd Scales, level: 3, location: skin, cost: 6, abilities: {Armor: true}}
  - {name: Still Lure, level: 2, location: special, cost: 4, abilities: {Fear: 1, Cooldown: 2}}
  - {name: Numb Hide, level: 3, location: skin, cost: 6, abilities: {Resist: [Poison]}}
  - {name: Deep Calm, level: 5, location: organ, cost: 11, abilities: {Immune: {Poison: 1}}}
  - name: Volt Ram
    level: 5
    location: horn
    cost: 11
    abilities: {Ram: 6, Cooldown: 2}
  - {name: Dull Shell, level: 1, location: skin, cost: 2, abilities: {Resist: {Poison: 2}}}
  - {name: Cheap Sturgeon, type: body, level: 2, cost: 9, attack_die: d8,
     ferocity: 2, survival: 5, lethality: 0, health: 10}
"""


def _with_bad_cards(game_copy):
    (game_copy / "cards" / "extra.yaml").write_text(BAD_CARDS, encoding="utf-8")


def test_ability_cap_at_the_cap_is_legal(check_deck, game, game_copy):
    _with_bad_cards(game_copy)
    text = deck_text(stream(game), game="./adapt-copy",
                     extra={"Thick Plates": 1, "Dull Shell": 1})
    assert check_deck(text) == []


def test_ability_cap_over_the_cap(check_deck, game, game_copy):
    _with_bad_cards(game_copy)
    text = deck_text(stream(game), game="./adapt-copy",
                     extra={"Boulder Plates": 1, "Volt Ram": 1})
    problems = check_deck(text)
    assert [(p.rule, p.line, p.message) for p in problems] == [
        ("ability-cap", line_of(text, "  Boulder Plates:"),
         "Boulder Plates (cards/extra.yaml:3) has Armor 3: cap 2"),
        ("ability-cap", line_of(text, "  Volt Ram:"),
         "Volt Ram (cards/extra.yaml:14) has Ram 6: cap 5"),
    ]


def test_ability_form(check_deck, game, game_copy):
    _with_bad_cards(game_copy)
    text = deck_text(stream(game), game="./adapt-copy", extra={
        "Huge Brain": 1, "Odd Scales": 1, "Still Lure": 1, "Numb Hide": 1, "Deep Calm": 1})
    problems = check_deck(text)
    assert [(p.rule, p.line, p.message) for p in problems] == [
        ("ability-form", line_of(text, "  Huge Brain:"),
         "Huge Brain (cards/extra.yaml:5): Smart has no numerals, write `Smart: true`, got 2"),
        ("ability-form", line_of(text, "  Odd Scales:"),
         "Odd Scales (cards/extra.yaml:6): Armor takes a number, got true"),
        ("ability-form", line_of(text, "  Still Lure:"),
         "Still Lure (cards/extra.yaml:7) has Cooldown but no Special Action "
         "(Bait, Hide, Jump, Ram) for it to delay"),
        ("ability-form", line_of(text, "  Numb Hide:"),
         "Numb Hide (cards/extra.yaml:8): Resist takes {effect: score}, got a list"),
        ("ability-form", line_of(text, "  Deep Calm:"),
         "Deep Calm (cards/extra.yaml:9): Immune takes a list of effects, got a mapping"),
    ]


def test_body_cost_legal(check_deck, game):
    assert of(check_deck(deck_text(stream(game))), "body-cost") == []
    assert all(c.get("cost") == 4 * c.get("level") for c in game.cards.values()
               if c.type == "body")


def test_body_cost_off_the_table(check_deck, game, game_copy):
    _with_bad_cards(game_copy)
    text = deck_text(stream(game), game="./adapt-copy", extra={"Cheap Sturgeon": 1})
    problems = check_deck(text)
    assert [(p.rule, p.line, p.message) for p in problems] == [
        ("body-cost", line_of(text, "  Cheap Sturgeon:"),
         "Cheap Sturgeon (cards/extra.yaml:16) costs 9 exp: a Level 2 body costs 8 exp"),
    ]


# --- box-copies -------------------------------------------------------------------------------


def test_box_copies_legal(check_deck, game):
    assert of(check_deck(deck_text(stream(game))), "box-copies") == []


def test_box_copies_more_than_the_box_holds(check_deck, game):
    names = [n for n in stream(game) if n != "Clownfish"]
    text = deck_text(names, extra={"Clownfish": 2})
    problems = check_deck(text)
    assert [(p.rule, p.line, p.message) for p in problems] == [
        ("box-copies", line_of(text, "  Clownfish:"),
         "has 2 copies of Clownfish: the box holds 1"),
    ]


# --- several faults at once -------------------------------------------------------------------


def test_box_with_several_faults_reports_all(check_deck, game, game_copy):
    _with_bad_cards(game_copy)
    guppies = game_copy / "cards" / "guppies.yaml"
    text = guppies.read_text(encoding="utf-8")
    guppies.write_text(text[:text.index("  - name: Violet Guppy")], encoding="utf-8")
    names = [c.name for c in game.cards.values()
             if c.type == "body" and c.get("level") in (1, 5) and c.name != "Clownfish"]
    names.append("Sail Fin")
    deck = deck_text(names, game="./adapt-copy", variants=["kids"],
                     extra={"Nub Horn": 1, "Boulder Plates": 1, "Cheap Sturgeon": 1,
                            "Huge Brain": 1, "Clownfish": 2})
    problems = check_deck(deck)
    cards_line = line_of(deck, "cards:")
    got = sorted((p.rule, p.line, p.message) for p in problems)
    for_all = "at least 3 needed (one per Fish of a 3-player game)"
    kept = "every location the deck's variants keep needs at least 1"
    want = sorted([
        ("guppy-count", line_of(deck, "game:"),
         "the game has 1 guppy: at least 3 needed (one per player of the 3-player core game)"),
        ("body-levels", cards_line, f"has 1 body at Level 2: {for_all}"),
        ("body-levels", cards_line,
         f"has no body at Level 3: {for_all}; no Fish can Adapt past Level 2"),
        ("body-levels", cards_line,
         f"has no body at Level 4: {for_all}; no Fish can Adapt past Level 3"),
        ("part-locations", cards_line, f"has no mouth part: {kept}"),
        ("part-locations", cards_line, f"has no side part: {kept}"),
        ("part-locations", cards_line, f"has no tail part: {kept}"),
        ("stream-supply", cards_line,
         "has 13 cards for the gene stream: at least 15 needed (4 slots for 3 players + 1 for "
         "kids + 10 cycles)"),
        ("box-copies", line_of(deck, "  Clownfish:"),
         "has 2 copies of Clownfish: the box holds 1"),
        ("variant-locations", line_of(deck, "  Nub Horn:"),
         "Nub Horn is a horn part: the kids variant removes horn parts"),
        ("variant-locations", line_of(deck, "  Boulder Plates:"),
         "Boulder Plates is a skin part: the kids variant removes skin parts"),
        ("variant-locations", line_of(deck, "  Huge Brain:"),
         "Huge Brain is an organ part: the kids variant removes organ parts"),
        ("ability-cap", line_of(deck, "  Boulder Plates:"),
         "Boulder Plates (cards/extra.yaml:3) has Armor 3: cap 2"),
        ("ability-form", line_of(deck, "  Huge Brain:"),
         "Huge Brain (cards/extra.yaml:5): Smart has no numerals, write `Smart: true`, got 2"),
        ("body-cost", line_of(deck, "  Cheap Sturgeon:"),
         "Cheap Sturgeon (cards/extra.yaml:16) costs 9 exp: a Level 2 body costs 8 exp"),
    ])
    assert got == want
    # Only the rules of the game make the box illegal; the rest is advice (warnings).
    errors = sorted({p.rule for p in problems if p.is_error})
    assert errors == ["ability-form", "body-cost", "variant-locations"]
    assert {p.rule for p in problems if not p.is_error} == set(adapt.ADVICE)


def test_a_two_box_deck_for_four_to_six_players_is_legal(tmp_path, game):
    # The 4-6 player rules combine two copies of the core game: every card twice is a deck the
    # published rules play. validate calls it legal, with box-copies advice; --strict refuses it.
    import json
    import subprocess
    import sys

    deck = tmp_path / "two-boxes.yaml"
    deck.write_text(deck_text([], extra={n: 2 for n in stream(game)}), encoding="utf-8")
    run = [sys.executable, "-m", "cardgen", "validate", "--format", "json", str(deck)]
    env_root = str(ROOT)
    done = subprocess.run(run, capture_output=True, text=True, cwd=env_root,
                          env={"PYTHONPATH": env_root, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout + done.stderr
    (report,) = json.loads(done.stdout)
    assert report["legal"]
    assert {(w["rule"], w["severity"]) for w in report["problems"]} == {("box-copies", "warning")}
    strict = subprocess.run([*run[:4], "--strict", *run[4:]], capture_output=True, text=True,
                            cwd=env_root, env={"PYTHONPATH": env_root, "PATH": "/usr/bin:/bin"})
    assert strict.returncode == 1


def test_fear_has_no_cap_of_its_own(check_deck, game, game_copy):
    # The rulebook caps Armor, Counter Attack, Hide, Jump, Ram, Regeneration and Shock, not Fear:
    # like every numeral it adds up, and a d10 check on 10 or more always succeeds.
    import random

    from cardgen.engines import load_engine

    (game_copy / "cards" / "extra.yaml").write_text(
        "defaults: {type: part}\ncards:\n"
        "  - {name: Dread Mask, level: 5, location: special, cost: 11, abilities: {Fear: 5}}\n",
        encoding="utf-8")
    text = deck_text(stream(game), game="./adapt-copy", extra={"Dread Mask": 1})
    assert check_deck(text) == []
    engine = load_engine(load_game(game_copy))
    state = engine.scenario_state({"fish": [{"body": "Great White Shark", "parts": ["Dread Mask"]},
                                            {}]}, random.Random(0))
    assert state.fish[0].s.fear == 6
