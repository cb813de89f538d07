"""Dojo Duel: the bundled content, its declared deck checks and its per-game advice.

Rule ids: unknown-card, bad-count (core); deck-size (declared in game.yaml, the published rule:
15 to 40 cards); copy-limit (declared, severity warning), deck-power, deck-balance
(content/dojo-duel/deck_checks.py, warnings): advice the published rules do not make, so a deck
that breaks them stays legal.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter

import pytest

from cardgen.errors import ContentError
from cardgen.model import load_deck, load_game
from cardgen.rules import check_deck as check_loaded_deck
from cardgen.rules import rule_ids
from tests.conftest import (
    ROOT,
    game_code,
)

dojo_duel = game_code("dojo-duel", "deck_checks")

GAME_DIR = ROOT / "content" / "dojo-duel"
DECKS = sorted((GAME_DIR / "decks").glob("*.yaml"))

# A legal 15-card deck: 15 cards, total Yin 61, total Yang 68 (power 129, lean +7).
BASE = """game: {game}
name: Test Deck
cards:
  Harmony Form: 1
  Mirror Guard: 2
  Crane Spreads Its Wings: 2
  Crane Beak Strike: 3
  White Crane Step: 2
  Open Palm Greeting: 3
  Drifting Feather: 2
"""
CARDS_LINE = 3
LINE = {  # line of each entry of BASE
    "Harmony Form": 4,
    "Mirror Guard": 5,
    "Crane Spreads Its Wings": 6,
    "Crane Beak Strike": 7,
    "White Crane Step": 8,
    "Open Palm Greeting": 9,
    "Drifting Feather": 10,
}


def deck(*changes: tuple[str, str], game: str = "dojo-duel") -> str:
    text = BASE.format(game=game)
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    return text


def rules(problems) -> list[tuple[str, int | None]]:
    return [(p.rule, p.line) for p in problems]


ADVICE = {"copy-limit", "deck-power", "deck-balance"}


def severities(problems) -> dict[str, str]:
    return {p.rule: p.severity for p in problems}


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


# ---------------------------------------------------------------------------------------------
# Playability helper (not a deck rule): can any Yang ever get through any Yin?


def _yin_yang(card) -> tuple[int, int]:
    fields = card.fields if hasattr(card, "fields") else card
    return fields["yin"], fields["yang"]


def yang_can_beat_yin(cards) -> tuple[str, str] | None:
    """A pair (striker, guard) of card names where the striker's Yang is above the guard's Yin,
    i.e. a round in which points can be lost; None if no Yang in `cards` beats any Yin.

    A simulator will check real playability later; this only rules out a set where every
    comparison ends at 0 and no bout could ever finish.
    """
    named = [(getattr(c, "name", None) or c["name"], *_yin_yang(c)) for c in cards]
    if not named:
        return None
    striker = max(named, key=lambda c: c[2])
    guard = min(named, key=lambda c: c[1])
    return (striker[0], guard[0]) if striker[2] > guard[1] else None


def test_yang_can_beat_yin_in_the_set_and_every_sample_deck(game):
    assert yang_can_beat_yin(game.cards.values()) is not None
    striker, guard = yang_can_beat_yin(game.cards.values())
    assert game.cards[striker].fields["yang"] > game.cards[guard].fields["yin"]
    for path in DECKS:
        cards = [e.card for e in load_deck(path).entries]
        assert yang_can_beat_yin(cards) is not None, path.name


def test_yang_can_beat_yin_finds_a_set_of_pure_walls():
    walls = [{"name": "Wall", "yin": 5, "yang": 5}, {"name": "Gate", "yin": 7, "yang": 2}]
    assert yang_can_beat_yin(walls) is None
    assert yang_can_beat_yin([]) is None
    assert yang_can_beat_yin(walls + [{"name": "Kick", "yin": 0, "yang": 6}]) == ("Kick", "Kick")


# ---------------------------------------------------------------------------------------------
# The content


def test_set_is_40_distinct_techniques_one_copy_each(game):
    assert len(game.cards) == 40
    assert {c.type for c in game.cards.values()} == {"technique"}
    assert all(c.copies == 1 for c in game.cards.values())
    assert game.tables["set"] == {"distinct_cards": 40, "copies_each": 1,
                                  "doc": game.tables["set"]["doc"]}


def test_ten_techniques_per_school_with_the_school_shape(game):
    by_school = Counter(c.fields["school"] for c in game.cards.values())
    assert by_school == {"mountain": 10, "tiger": 10, "crane": 10, "wind": 10}
    for card in game.cards.values():
        yin, yang = _yin_yang(card)
        assert 0 <= yin <= 9 and 0 <= yang <= 9
        school = card.fields["school"]
        if school == "mountain":
            assert yin > yang, card.name
        elif school == "tiger":
            assert yang > yin, card.name
        elif school == "crane":
            assert abs(yin - yang) <= 1, card.name


def test_value_spread(game):
    values = [_yin_yang(c) for c in game.cards.values()]
    yins, yangs = Counter(v[0] for v in values), Counter(v[1] for v in values)
    assert set(yins) == set(range(10)) and set(yangs) == set(range(10))
    assert len(set(values)) == 40                      # no two techniques share both numbers
    total = sum(a + b for a, b in values)
    assert total == 350 and total <= 9 * 40            # the whole set passes deck-power
    assert 0 <= sum(b - a for a, b in values) <= 2 * 40  # ... and deck-balance


def test_flavour_fits_on_a_card(game):
    assert all(len(c.fields.get("flavour", "")) <= 90 for c in game.cards.values())


def test_rule_ids_of_the_game(game):
    assert list(rule_ids(game)) == ["unknown-card", "bad-count", "deck-size", "copy-limit",
                                    "deck-power", "deck-balance"]
    assert set(dojo_duel.RULES) == {"deck-power", "deck-balance"}


# ---------------------------------------------------------------------------------------------
# Sample decks


@pytest.mark.parametrize("path", DECKS, ids=[p.stem for p in DECKS])
def test_sample_decks_are_legal(check_deck, path):
    assert check_deck(path.read_text(encoding="utf-8")) == []


def test_there_are_three_strategy_decks_and_the_whole_set():
    assert [p.stem for p in DECKS] == ["crane-path", "stone-and-claw", "tiger-rush", "whole-set"]


def test_whole_set_deck_is_all_40(game):
    loaded = load_deck(GAME_DIR / "decks" / "whole-set.yaml")
    assert loaded.total() == 40
    assert dojo_duel.totals(loaded) == (40, 162, 188)
    assert check_loaded_deck(loaded) == []


def test_base_deck_is_legal(check_deck):
    assert check_deck(deck()) == []


# ---------------------------------------------------------------------------------------------
# deck-size (declared: 15 to 40)


def test_deck_size_too_small(check_deck):
    problems = check_deck(deck(("Drifting Feather: 2", "Drifting Feather: 1")))
    assert rules(problems) == [("deck-size", CARDS_LINE)]
    assert problems[0].message == "has 14 cards: a deck needs 15 to 40"


def test_deck_size_too_large(check_deck, game):
    names = sorted(game.cards)
    text = "game: dojo-duel\nname: Too Big\ncards:\n" + "".join(
        f"  {n}: {2 if n == 'Formal Bow' else 1}\n" for n in names)
    problems = check_deck(text)
    assert rules(problems) == [("deck-size", 3)]
    assert problems[0].message == "has 41 cards: a deck needs 15 to 40"


def test_deck_size_boundaries(check_deck, game):
    assert check_deck(deck()) == []     # 15 cards
    text = "game: dojo-duel\nname: Forty\ncards:\n" + "".join(f"  {n}: 1\n" for n in game.cards)
    assert check_deck(text) == []       # 40 cards


# ---------------------------------------------------------------------------------------------
# copy-limit (declared: 3)


def test_copy_limit(check_deck):
    problems = check_deck(deck(("Crane Beak Strike: 3", "Crane Beak Strike: 4")))
    assert rules(problems) == [("copy-limit", LINE["Crane Beak Strike"])]
    assert problems[0].message == "has 4 copies of Crane Beak Strike: limit 3"
    assert problems[0].severity == "warning" and not problems[0].is_error


def test_three_copies_are_allowed(check_deck):
    assert check_deck(deck(("Mirror Guard: 2", "Mirror Guard: 3"))) == []


# ---------------------------------------------------------------------------------------------
# deck-power (per-game: total Yin + Yang at most 9 per card)


def test_deck_power(check_deck):
    # Drifting Feather (3/3) x2 -> Circle of Hands (6/6) x2: 129 + 12 = 141 over 15 cards.
    problems = check_deck(deck(("Drifting Feather: 2", "Circle of Hands: 2")))
    assert rules(problems) == [("deck-power", CARDS_LINE)]
    assert problems[0].message == (
        "total Yin + Yang is 141 over 15 cards (average 9.4): advised at most 135 (9 per card)")
    assert problems[0].severity == "warning"


def test_deck_power_at_the_limit_is_legal(check_deck):
    # One Drifting Feather (3/3) -> Circle of Hands (6/6): exactly 135 over 15 cards.
    text = deck(("Drifting Feather: 2", "Drifting Feather: 1\n  Circle of Hands: 1"))
    assert check_deck(text) == []


def test_deck_power_reads_the_limit_from_tables(check_deck, tmp_path):
    folder = tmp_path / "dojo-copy"
    shutil.copytree(GAME_DIR, folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "    max_average: 9\n" in text
    game_yaml.write_text(text.replace("    max_average: 9\n", "    max_average: 8\n"),
                         encoding="utf-8")
    problems = check_deck(deck(game=str(folder)))
    assert rules(problems) == [("deck-power", CARDS_LINE)]
    assert problems[0].message == (
        "total Yin + Yang is 129 over 15 cards (average 8.6): advised at most 120 (8 per card)")


# ---------------------------------------------------------------------------------------------
# deck-balance (per-game: total Yang at least total Yin, at most total Yin + 2 per card)


def test_deck_balance_too_much_yin(check_deck):
    # Open Palm Greeting (3/4) x3 -> Rolling Escape (5/1) x3: Yin 67, Yang 59.
    problems = check_deck(deck(("Open Palm Greeting: 3", "Rolling Escape: 3")))
    assert rules(problems) == [("deck-balance", CARDS_LINE)]
    assert problems[0].message == (
        "total Yang 59 is below total Yin 67 by 8 over 15 cards: Yang is advised to be at least Yin")
    assert problems[0].severity == "warning"


def test_deck_balance_too_much_yang(check_deck):
    # Drifting Feather (3/3) x2 and White Crane Step (4/4) x2 -> Leaping Tiger Kick (0/9) x2 and
    # Snap Punch (0/7) x2: Yin 47, Yang 86, lean 39 over a limit of 30.
    problems = check_deck(deck(("White Crane Step: 2", "Leaping Tiger Kick: 2"),
                               ("Drifting Feather: 2", "Snap Punch: 2")))
    assert rules(problems) == [("deck-balance", CARDS_LINE)]
    assert problems[0].message == (
        "total Yang 86 is above total Yin 47 by 39 over 15 cards: advised at most 30 (2 per card)")
    assert problems[0].severity == "warning"


def test_deck_balance_boundaries_are_legal(check_deck):
    # Lean exactly 0: Open Palm Greeting x3 -> Sidestep, Reed Bends, One-Leg Balance (Yin 64,
    # Yang 64).
    even = deck(("Open Palm Greeting: 3",
                 "Sidestep: 1\n  Reed Bends: 1\n  One-Leg Balance: 1"))
    assert check_deck(even) == []
    # Lean exactly 30 (2 per card): Crane Beak Strike x3, Drifting Feather x2 -> Flying Knee x3,
    # Swift Jab x2 (Yin 48, Yang 78).
    steep = deck(("Crane Beak Strike: 3", "Flying Knee: 3"),
                 ("Drifting Feather: 2", "Swift Jab: 2"))
    assert check_deck(steep) == []


# ---------------------------------------------------------------------------------------------
# unknown-card, bad-count (core) and several faults at once


def test_unknown_card_suggests_the_closest_name(check_deck):
    problems = check_deck(deck(("Mirror Guard: 2", "Mirror Gaurd: 2")))
    unknown = [p for p in problems if p.rule == "unknown-card"]
    assert rules(unknown) == [("unknown-card", LINE["Mirror Guard"])]
    assert "Mirror Guard" in unknown[0].message
    # The unknown entry is not counted: 13 cards left.
    assert ("deck-size", CARDS_LINE) in rules(problems)


@pytest.mark.parametrize("count", ["0", "-1", "two", "1.5", "true"])
def test_bad_count(check_deck, count):
    problems = check_deck(deck(("Harmony Form: 1", f"Harmony Form: {count}"),
                               ("Drifting Feather: 2", "Drifting Feather: 2\n  Formal Bow: 1")))
    assert rules(problems) == [("bad-count", LINE["Harmony Form"])]
    assert "Harmony Form" in problems[0].message


def test_several_faults_are_all_reported(check_deck):
    text = """game: dojo-duel
name: Broken
cards:
  Tiger Claws: 2
  Snap Punch: 0
  Leaping Tiger Kick: 4
  Thunder Heel: 3
  Pouncing Strike: 3
"""
    problems = check_deck(text)
    assert sorted(rules(problems)) == sorted([
        ("deck-size", 3),       # 10 cards counted
        ("deck-power", 3),      # 105 over 10 cards
        ("deck-balance", 3),    # Yang 90, Yin 15
        ("unknown-card", 4),
        ("bad-count", 5),
        ("copy-limit", 6),
    ])
    messages = {p.rule: p.message for p in problems}
    assert messages["deck-size"] == "has 10 cards: a deck needs 15 to 40"
    assert messages["copy-limit"] == "has 4 copies of Leaping Tiger Kick: limit 3"
    assert messages["deck-power"] == (
        "total Yin + Yang is 105 over 10 cards (average 10.5): advised at most 90 (9 per card)")
    assert messages["deck-balance"] == (
        "total Yang 90 is above total Yin 15 by 75 over 10 cards: advised at most 20 (2 per card)")
    # the published rules make the errors; the advice stays advice
    assert severities(problems) == {"deck-size": "error", "unknown-card": "error",
                                    "bad-count": "error", "copy-limit": "warning",
                                    "deck-power": "warning", "deck-balance": "warning"}
    assert "Tiger Claw" in messages["unknown-card"]
    assert [p.line for p in problems] == sorted(p.line for p in problems)


def test_only_unknown_cards_gives_no_per_game_problem(check_deck):
    problems = check_deck("game: dojo-duel\nname: t\ncards:\n  Nothing Here: 3\n")
    assert sorted(rules(problems)) == [("deck-size", 3), ("unknown-card", 4)]


def test_unreadable_deck_raises(check_deck):
    with pytest.raises(ContentError):
        check_deck("game: dojo-duel\nname: t\ncards: [Tiger Claw, Snap Punch]\n")
    with pytest.raises(ContentError):
        check_deck("game: dojo-duel\nname: t\nbelt: black\ncards:\n  Tiger Claw: 1\n")


# ---------------------------------------------------------------------------------------------
# The per-game module on its own


def test_totals_skip_unknown_and_bad_entries(game):
    from types import SimpleNamespace as NS

    entries = [NS(count=2, card=game.cards["Tiger Claw"]),      # 2/8
               NS(count=0, card=game.cards["Temple Wall"]),
               NS(count=True, card=game.cards["Temple Wall"]),
               NS(count=3, card=None)]
    assert dojo_duel.totals(NS(entries=entries)) == (2, 4, 16)


def test_module_defaults_without_tables(game):
    from types import SimpleNamespace as NS

    bare = NS(tables={})
    entries = [NS(count=3, card=game.cards["Thunder Heel"])]  # 3/9: power 36 over 3, lean 18
    problems = list(dojo_duel.check(NS(entries=entries, line_of=lambda key: 7), bare))
    assert rules(problems) == [("deck-power", 7), ("deck-balance", 7)]
    assert problems[0].message == (
        "total Yin + Yang is 36 over 3 cards (average 12): advised at most 27 (9 per card)")
    assert {p.severity for p in problems} == {"warning"}


def test_every_rule_id_is_documented():
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in ["unknown-card", "bad-count", "deck-size", "copy-limit", *dojo_duel.RULES]:
        assert f"\n## {rule}\n" in docs, rule
    for text in dojo_duel.RULES.values():
        assert text and "\n" not in text


# ---------------------------------------------------------------------------------------------
# Decks the published rules allow: `cardgen validate` calls each legal (exit 0) and prints the
# advice that applies as warnings. The decks are built from the card files, not written out.


def _advice_that_applies(game, counts: dict[str, int]) -> set[str]:
    """The advice rules a deck of `counts` (name -> copies) goes against, from the card numbers
    and game.yaml's tables (independently of deck_checks.py)."""
    cards = sum(counts.values())
    yin = sum(n * game.cards[c].fields["yin"] for c, n in counts.items())
    yang = sum(n * game.cards[c].fields["yang"] for c, n in counts.items())
    t = game.tables
    out = set()
    if max(counts.values()) > t["copy_limit"]["max"]:
        out.add("copy-limit")
    if yin + yang > t["deck_power"]["max_average"] * cards:
        out.add("deck-power")
    lean = yang - yin
    if not (t["deck_balance"]["min_lean_per_card"] * cards <= lean
            <= t["deck_balance"]["max_lean_per_card"] * cards):
        out.add("deck-balance")
    return out


def _published_rule_decks(game) -> dict[str, dict[str, int]]:
    lean = sorted(game.cards.values(), key=lambda c: (c.fields["yang"] - c.fields["yin"], c.name))
    smallest = game.tables["deck_size"]["min"]
    # 15 single guards: the 15 techniques leaning furthest to Yin, one copy each
    guards = {c.name: 1 for c in lean[:smallest]}
    # 4 copies of one technique: the most balanced one, with the next most balanced singles
    balanced = sorted(game.cards.values(), key=lambda c: (abs(c.fields["yang"] - c.fields["yin"]),
                                                          c.name))
    four = {balanced[0].name: 4, **{c.name: 1 for c in balanced[1:smallest - 3]}}
    # More Yin than Yang, but only just: the 14 most balanced techniques, then guards (furthest
    # to Yin first) until the deck has 15 cards and its Yin leads
    yin_heavy = {c.name: 1 for c in balanced[:smallest - 1]}

    def leads() -> bool:
        return sum(game.cards[c].fields["yin"] - game.cards[c].fields["yang"] for c in yin_heavy) > 0

    for card in lean:
        if len(yin_heavy) >= smallest and leads():
            break
        yin_heavy.setdefault(card.name, 1)
    return {"single-guards": guards, "four-copies": four, "yin-heavy": yin_heavy}


def test_decks_the_published_rules_allow_are_legal_with_warnings(game, tmp_path):
    decks = _published_rule_decks(game)
    guards, four = decks["single-guards"], decks["four-copies"]
    # what the decks are, checked from the cards: the test cannot pass on decks that are not
    assert len(guards) == 15 and set(guards.values()) == {1}
    assert all(game.cards[c].fields["yin"] > game.cards[c].fields["yang"] for c in guards)
    assert max(four.values()) == 4 and sum(four.values()) == 15
    yin_heavy = decks["yin-heavy"]
    assert (sum(game.cards[c].fields["yin"] for c in yin_heavy)
            > sum(game.cards[c].fields["yang"] for c in yin_heavy))
    for name, counts in decks.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text("game: dojo-duel\nname: " + name + "\ncards:\n"
                        + "".join(f"  {c}: {n}\n" for c, n in counts.items()), encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "cardgen", "validate", str(path)], cwd=ROOT,
                                capture_output=True, text=True, timeout=120)
        out = result.stdout + result.stderr
        assert result.returncode == 0, out
        applies = _advice_that_applies(game, counts)
        assert applies, name          # each deck breaks some advice, so warnings must show
        warned = [line for line in out.splitlines() if ": warning: " in line]
        assert f"{path}: ok (dojo-duel, {len(warned)} warning" in out, out
        for rule in ADVICE:
            assert (f"warning: {rule}:" in out) == (rule in applies), (name, rule, out)
        strict = subprocess.run([sys.executable, "-m", "cardgen", "validate", "--strict", str(path)],
                                cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert strict.returncode == 1, strict.stdout


# ---------------------------------------------------------------------------------------------
# Rulings and variants (game.yaml)


def test_rulings_cite_the_rulebook_and_the_house_rules_are_variants(game):
    from cardgen.engines import load_engine

    assert "rulings" not in game.tables and game.rulings
    assert all(r.cites for r in game.rulings)
    assert {v.source for v in game.variants.values()} == {"house"}
    played = {v.id for v in game.variants.values() if v.played}
    assert played == set(load_engine(game).variants) == {
        "round-limit", "below-zero-tiebreak", "alternate-first-turn", "quick-bout"}
    assert all(v.why for v in game.variants.values() if not v.played)
    # the published end of a bout is printed as the rule; the round limit only as a variant
    assert "round_limit" not in game.tables["end"]
    assert "tie" in game.tables["end"]["doc"]
