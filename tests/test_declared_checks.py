"""A designer's game gets deck checking from game.yaml alone (tests/data/lantern-guild has no code)."""

from __future__ import annotations

from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"
LEGAL = """game: {game}
name: Test
captain: Harbour Warden
cards:
  Wick Runner: 3
  Harbour Warden: 2
  Wandering Tinker: 3
  Spare Oil: 3
  Harbour Lantern: 1
"""


def deck(*changes: tuple[str, str]) -> str:
    text = LEGAL.format(game=GUILD)
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    return text


def rules(problems):
    return [(p.rule, p.line) for p in problems]


def test_legal_deck_has_no_problems(check_deck):
    assert check_deck(deck()) == []


def test_deck_size_too_small_and_too_large(check_deck):
    small = check_deck(deck(("Spare Oil: 3", "Spare Oil: 1")))
    assert rules(small) == [("deck-size", 4)]
    assert small[0].message == "has 10 cards: a deck needs 12 to 20"
    large = check_deck(deck() + "  Market Crier: 3\n  Sudden Draught: 3\n  Guild Charter: 1\n"
                                "  Old Town Keeper: 1\n  Sea Fog: 1\n")
    assert [p.message for p in large if p.rule == "deck-size"] == ["has 21 cards: a deck needs 12 to 20"]


def test_copy_limit_by_field_value(check_deck):
    problems = check_deck(deck(("Harbour Warden: 2", "Harbour Warden: 3")))
    assert rules(problems) == [("rarity-limit", 6)]
    limit = [p for p in problems if p.rule == "rarity-limit"][0]
    assert limit.message == "has 3 copies of Harbour Warden (rarity uncommon): limit 2"


def test_type_count_limit(check_deck):
    problems = check_deck(deck(("Spare Oil: 3", "Spare Oil: 2\n  Guild Charter: 1")))
    assert rules(problems) == [("relic-limit", 4)]
    assert problems[0].message == "has 2 relic cards: at most 1 allowed"


def test_distinct_values_with_exemption(check_deck):
    ok = check_deck(deck(("Spare Oil: 3", "Spare Oil: 2\n  Market Crier: 1")))   # Harbour + Market
    assert ok == []
    problems = check_deck(deck(("Spare Oil: 3", "Spare Oil: 1\n  Market Crier: 1\n  Old Town Keeper: 1")))
    assert rules(problems) == [("district-limit", 10)]
    assert problems[0].message == ("has 3 districts (Harbour, Market, Old Town): at most 2 allowed "
                                   "(Neutral not counted)")


def test_forbidden_type(check_deck):
    problems = check_deck(deck(("Spare Oil: 3", "Spare Oil: 3\n  Sea Fog: 1")))
    assert rules(problems) == [("fog-in-deck", 9)]
    assert problems[0].message == "Sea Fog is a fog card: fog cards never go in a deck"


def test_unknown_card_suggests_and_bad_count(check_deck):
    problems = check_deck(deck(("Spare Oil: 3", "Spare Oil: 3\n  Wick Runer: 1\n  Market Crier: 0")))
    assert ("unknown-card", 9) in rules(problems)
    assert ("bad-count", 10) in rules(problems)
    unknown = [p for p in problems if p.rule == "unknown-card"][0]
    assert "did you mean: Wick Runner?" in unknown.message


def test_card_reference_in_a_deck_field(check_deck):
    problems = check_deck(deck(("captain: Harbour Warden", "captain: Spare Oil")))
    assert rules(problems) == [("unknown-card", 3)]
    assert '"Spare Oil" is a trick card; expected lamplighter' in problems[0].message


def test_every_fault_of_a_deck_is_reported(check_deck):
    text = (ROOT / "tests" / "data" / "decks" / "lantern-broken.yaml").read_text()
    text = text.replace("game: ../lantern-guild", f"game: {GUILD}")
    assert rules(check_deck(text)) == [
        ("deck-size", 4), ("relic-limit", 4), ("rarity-limit", 5), ("district-limit", 7),
        ("fog-in-deck", 10), ("unknown-card", 11), ("bad-count", 12)]
