"""Amiibart TCG: every deck rule id, legal and illegal, with lines and counts; plus content sanity."""

from __future__ import annotations

import re

import pytest

from cardgen.model import load_game
from cardgen.rules import rule_ids
from tests.conftest import (
    ROOT,
    game_code,
)

amiibart = game_code("amiibart", "deck_checks")

GAME_DIR = ROOT / "content" / "amiibart"

# A legal Tech/Assassin deck: 23 fighters + 7 spells = 30 cards, Specialty extras.
# Line 1 game, 2 name, 3 powers, 4 `cards:`, then entry i on line 5 + i.
BASE = [
    ("Bolt Tinker", 4),           # 5  Tech 1 star, fighter
    ("Signal Jammer", 2),         # 6  Tech 1 star, fighter
    ("Circuit Knight", 3),        # 7  Tech 2 stars, fighter
    ("Turret Sentry", 2),         # 8  Tech 2 stars, fighter
    ("Patchbot", 2),              # 9  Tech 3 stars, fighter
    ("Chief Engineer Nix", 1),    # 10 Tech 3 stars, fighter
    ("Omega Frame", 1),           # 11 Tech 4 stars, fighter
    ("Gear Up!", 2),              # 12 Tech 2 stars, spell
    ("Alley Cutpurse", 4),        # 13 Assassin 1 star, fighter
    ("Rooftop Stalker", 3),       # 14 Assassin 2 stars, fighter
    ("Master of a Thousand Masks", 1),  # 15 Assassin 4 stars, fighter
    ("Backstab", 2),              # 16 Assassin 1 star, spell
    ("Hidden Blade", 1),          # 17 Assassin 2 stars, hazard spell
    ("Insert Coin", 1),           # 18 Specialty spell
    ("Power-Up", 1),              # 19 Specialty spell
]
POWERS = "[Overclock, Night Veil]"


def deck(cards=None, powers: str | None = POWERS, change: dict | None = None,
         add: list | None = None, drop: tuple = ()) -> str:
    """Deck text from BASE: `change` sets counts, `add` appends entries, `drop` removes names."""
    entries = [(n, c) for n, c in (BASE if cards is None else cards) if n not in drop]
    if change:
        entries = [(n, change.get(n, c)) for n, c in entries]
    entries += list(add or [])
    lines = ["game: amiibart", "name: Test deck"]
    if powers is not None:
        lines.append(f"powers: {powers}" if not powers.startswith("\n") else "powers:" + powers)
    lines.append("cards:")
    lines += [f"  {n}: {c}" for n, c in entries]
    return "\n".join(lines) + "\n"


def line(name: str, cards=None, first: int = 5) -> int:
    names = [n for n, _ in (BASE if cards is None else cards)]
    return first + names.index(name)


def found(problems, rule=None):
    return [(p.rule, p.line) for p in problems if rule is None or p.rule == rule]


def message(problems, rule):
    msgs = [p.message for p in problems if p.rule == rule]
    assert len(msgs) == 1, msgs
    return msgs[0]


# -- the legal baseline and the bundled sample decks --------------------------------------------

def test_base_deck_is_legal(check_deck):
    assert sum(c for _, c in BASE) == 30
    assert check_deck(deck()) == []


@pytest.mark.parametrize("path", sorted((GAME_DIR / "decks").glob("*.yaml")), ids=lambda p: p.stem)
def test_sample_decks_are_legal(check_deck, path):
    assert check_deck(path.read_text(encoding="utf-8")) == []


def test_at_least_four_sample_decks_with_two_elements_each():
    game = load_game("amiibart")
    decks = sorted((GAME_DIR / "decks").glob("*.yaml"))
    assert len(decks) >= 4
    for path in decks:
        names = re.findall(r"^  (.+?): \d+$", path.read_text(encoding="utf-8"), re.M)
        elements = {game.cards[n].get("element") for n in names} - {"Specialty"}
        assert len(elements) == 2, (path.name, elements)


# -- deck-size ----------------------------------------------------------------------------------

def test_deck_size_too_few(check_deck):
    problems = check_deck(deck(drop=("Power-Up",)))
    assert found(problems) == [("deck-size", 4)]
    assert message(problems, "deck-size") == \
        "has 29 fighter/spell/stage cards: a deck needs exactly 30"


def test_deck_size_too_many(check_deck):
    problems = check_deck(deck(change={"Backstab": 3}))
    assert found(problems) == [("deck-size", 4)]
    assert message(problems, "deck-size") == \
        "has 31 fighter/spell/stage cards: a deck needs exactly 30"


def test_powers_do_not_count_toward_the_thirty(check_deck):
    # 30 cards plus 2 powers is legal: powers are listed apart and not counted.
    assert found(check_deck(deck()), "deck-size") == []


# -- copy-limit ---------------------------------------------------------------------------------

def test_copy_limit_two_star_card(check_deck):
    problems = check_deck(deck(change={"Gear Up!": 4}, drop=("Insert Coin", "Power-Up")))
    assert found(problems) == [("copy-limit", line("Gear Up!"))]
    assert message(problems, "copy-limit") == "has 4 copies of Gear Up! (2 stars): limit 3"


def test_copy_limit_at_the_limit_is_legal(check_deck):
    problems = check_deck(deck(change={"Gear Up!": 3}, drop=("Insert Coin",)))
    assert problems == []


def test_copy_limit_four_star_and_one_star(check_deck):
    problems = check_deck(deck(change={"Omega Frame": 2, "Bolt Tinker": 5},
                               drop=("Insert Coin", "Power-Up")))
    assert found(problems) == [("copy-limit", line("Bolt Tinker")),
                               ("copy-limit", line("Omega Frame"))]
    msgs = [p.message for p in problems]
    assert msgs == ["has 5 copies of Bolt Tinker (1 star): limit 4",
                    "has 2 copies of Omega Frame (4 stars): limit 1"]


def test_copy_limit_three_star(check_deck):
    problems = check_deck(deck(change={"Patchbot": 3}, drop=("Insert Coin",)))
    assert found(problems) == [("copy-limit", line("Patchbot"))]
    assert message(problems, "copy-limit") == "has 3 copies of Patchbot (3 stars): limit 2"


# -- fighter-limit ------------------------------------------------------------------------------

def test_fighter_limit_26_fighters(check_deck):
    # 23 fighters + 3 Smokestep Ninja = 26; drop 3 spells to stay at 30.
    problems = check_deck(deck(drop=("Gear Up!", "Hidden Blade"), add=[("Smokestep Ninja", 3)]))
    assert found(problems) == [("fighter-limit", 4)]
    assert message(problems, "fighter-limit") == "has 26 fighter cards: at most 25 allowed"


def test_fighter_limit_25_fighters_is_legal(check_deck):
    problems = check_deck(deck(drop=("Hidden Blade", "Insert Coin"), add=[("Smokestep Ninja", 2)]))
    assert problems == []


# -- element-limit ------------------------------------------------------------------------------

def test_element_limit_third_element(check_deck):
    problems = check_deck(deck(drop=("Insert Coin",), add=[("Shadow Pact", 1)]))
    dark_line = 5 + len(BASE) - 1   # the appended entry, after BASE minus Insert Coin
    assert found(problems) == [("element-limit", dark_line)]
    assert message(problems, "element-limit") == \
        "has 3 elements (Tech, Assassin, Dark): at most 2 allowed (Specialty not counted)"


def test_element_limit_specialty_not_counted(check_deck):
    # Two Elements plus three different Specialty cards is legal.
    problems = check_deck(deck(drop=("Hidden Blade",), add=[("Coin-Op Mascot", 1)]))
    assert problems == []


# -- token-in-deck ------------------------------------------------------------------------------

def test_token_in_deck(check_deck):
    # The token is not one of the 30 (it is no fighter/spell/stage): only token-in-deck fires.
    problems = check_deck(deck(add=[("Scrap Drone", 1)]))
    assert found(problems) == [("token-in-deck", 5 + len(BASE))]
    assert message(problems, "token-in-deck") == \
        "Scrap Drone is a token card: token cards never go in a deck"


def test_no_token_is_legal(check_deck):
    assert found(check_deck(deck()), "token-in-deck") == []


# -- power-count --------------------------------------------------------------------------------

def test_power_count_one_power(check_deck):
    problems = check_deck(deck(powers="[Overclock]"))
    assert found(problems) == [("power-count", 3)]
    assert message(problems, "power-count") == \
        "has 1 power (Overclock): a deck needs exactly 2, one primary and one secondary"


def test_power_count_three_powers(check_deck):
    problems = check_deck(deck(powers="[Overclock, Night Veil, Lucky Coin]"))
    assert found(problems) == [("power-count", 3)]
    assert message(problems, "power-count") == ("has 3 powers (Overclock, Night Veil, Lucky Coin):"
                                                " a deck needs exactly 2, one primary and one "
                                                "secondary")


def test_power_count_no_powers_field(check_deck):
    problems = check_deck(deck(powers=None))
    assert found(problems) == [("power-count", 1)]
    assert message(problems, "power-count") == \
        "has 0 powers: a deck needs exactly 2, one primary and one secondary"


def test_power_count_two_primaries(check_deck):
    problems = check_deck(deck(powers="[Overclock, Cheap Shot]"))
    assert found(problems) == [("power-count", 3)]
    assert message(problems, "power-count") == \
        "has 2 primary powers (Overclock, Cheap Shot): a deck needs one primary and one secondary"


def test_power_count_two_secondaries(check_deck):
    problems = check_deck(deck(powers="[Recycler, Night Veil]"))
    assert found(problems) == [("power-count", 3)]
    assert "has 2 secondary powers (Recycler, Night Veil)" in message(problems, "power-count")


def test_power_count_primary_and_secondary_in_either_order_is_legal(check_deck):
    assert check_deck(deck(powers="[Night Veil, Overclock]")) == []
    assert check_deck(deck(powers="[Lucky Coin, Trap Artist]")) == []


def test_power_listed_under_cards(check_deck):
    problems = check_deck(deck(powers="[Overclock]", add=[("Night Veil", 1)]))
    power_line = 5 + len(BASE)
    assert found(problems) == [("power-count", 3), ("power-count", power_line)]
    msgs = [p.message for p in problems]
    assert msgs[1] == "Night Veil is a Power: list it under `powers:`, not under `cards:`"


def test_unknown_power_is_reported_once_as_unknown_card(check_deck):
    problems = check_deck(deck(powers="[Overclock, Nite Veil]"))
    assert [p.rule for p in problems] == ["unknown-card"]


# -- power-element ------------------------------------------------------------------------------

def test_power_element_missing(check_deck):
    # A block list puts each power on its own line (4 and 5); `cards:` moves to line 6.
    text = deck(powers="\n  - Overclock\n  - Guiding Halo")
    problems = check_deck(text)
    assert found(problems) == [("power-element", 5)]
    assert message(problems, "power-element") == (
        "power Guiding Halo is Light, but the deck has 0 Light cards "
        "(a non-Specialty Power needs cards of its Element)")


def test_power_element_present_is_legal(check_deck):
    text = deck(powers="\n  - Overclock\n  - Night Veil")
    assert check_deck(text) == []


def test_power_element_specialty_power_needs_no_element(check_deck):
    # No Specialty card in this deck: a Specialty power is still fine.
    problems = check_deck(deck(powers="[Second Wind, Token Collector]",
                               drop=("Insert Coin", "Power-Up"), change={"Backstab": 4}))
    assert problems == []


# -- several faults at once ---------------------------------------------------------------------

def test_deck_with_several_faults_reports_them_all(check_deck):
    cards = [
        ("Gloom Bat", 4),          # 6  Dark
        ("Gear Up!", 4),           # 7  Tech, 2 stars: copy-limit
        ("Flare Shot", 2),         # 8  Fire: third element
        ("Scrap Drone", 1),        # 9  token-in-deck
        ("Kindling", 1),           # 10 power under cards
        ("Omega Frame", 2),        # 11 Tech, 4 stars: copy-limit
        ("Nowhere Knight", 1),     # 12 unknown-card
        ("Circuit Knight", 0),     # 13 bad-count
    ]
    text = deck(cards, powers="\n  - Guiding Halo")   # powers item on line 4, cards: line 5
    problems = check_deck(text)
    assert found(problems) == [      # in file order
        ("power-count", 3),          # only one power, reported on the `powers:` line
        ("power-element", 4),        # Guiding Halo is Light; no Light card
        ("deck-size", 5),
        ("copy-limit", 7),
        ("element-limit", 8),
        ("token-in-deck", 9),
        ("power-count", 10),
        ("copy-limit", 11),
        ("unknown-card", 12),
        ("bad-count", 13),
    ]
    messages = [p.message for p in problems]
    assert messages[:8] == [
        "has 1 power (Guiding Halo): a deck needs exactly 2, one primary and one secondary",
        "power Guiding Halo is Light, but the deck has 0 Light cards "
        "(a non-Specialty Power needs cards of its Element)",
        "has 12 fighter/spell/stage cards: a deck needs exactly 30",
        "has 4 copies of Gear Up! (2 stars): limit 3",
        "has 3 elements (Dark, Tech, Fire): at most 2 allowed (Specialty not counted)",
        "Scrap Drone is a token card: token cards never go in a deck",
        "Kindling is a Power: list it under `powers:`, not under `cards:`",
        "has 2 copies of Omega Frame (4 stars): limit 1",
    ]


# -- the module's contract ----------------------------------------------------------------------

def test_rule_ids_documented():
    game = load_game("amiibart")
    ids = rule_ids(game)
    for rule in ("deck-size", "copy-limit", "fighter-limit", "element-limit", "token-in-deck",
                 "power-count", "power-element", "unknown-card", "bad-count"):
        assert rule in ids and ids[rule]
    assert set(amiibart.RULES) == {"power-count", "power-element"}


# -- content sanity: the launch set as the rulebook describes it --------------------------------

LAUNCH = ["Dark", "Light", "Fire", "ELW", "Magic", "Weapon", "Tech", "Tank", "Assassin",
          "Specialty"]


@pytest.fixture(scope="module")
def game():
    return load_game("amiibart")


def test_launch_set_is_100_cards_ten_per_element(game):
    deckable = [c for c in game.cards.values() if c.type in ("fighter", "spell", "stage")]
    assert len(deckable) == 100
    for element in LAUNCH:
        assert sum(1 for c in deckable if c.get("element") == element) == 10, element
    assert sorted(c.get("set_number") for c in deckable) == list(range(1, 101))


def test_every_element_has_fighters_a_hazard_and_a_stage(game):
    for element in LAUNCH:
        cards = [c for c in game.cards.values() if c.get("element") == element
                 and c.type in ("fighter", "spell", "stage")]
        fighters = [c for c in cards if c.type == "fighter"]
        assert any(c.get("hazard") for c in cards), element
        assert any(c.type == "stage" for c in cards), element
        if element != "Specialty":
            assert len(fighters) > len(cards) / 2, element


def test_powers_one_primary_and_one_secondary_per_element(game):
    powers = [c for c in game.cards.values() if c.type == "power"]
    for element in LAUNCH:
        mine = [p for p in powers if p.get("element") == element]
        assert len(mine) == (5 if element == "Specialty" else 2), element
        assert {p.get("slot") for p in mine} == {"primary", "secondary"}, element
    for p in powers:
        # Active powers state their Energy (0 allowed); passive ones have none.
        assert ("energy" in p.fields) == (p.get("mode") == "active"), p.name


def test_tokens_are_created_by_cards_and_every_named_token_exists(game):
    tokens = {c.name for c in game.cards.values() if c.type == "token"}
    assert 3 <= len(tokens) <= 6
    texts = []
    for card in game.cards.values():
        texts.append(card.get("text") or "")
        texts += [a.get("text", "") for a in card.get("abilities") or []]
        texts += [a.get("text", "") for a in card.get("attacks") or []]
        texts += list(card.get("forge") or [])
    named = set()
    for text in texts:
        named |= set(re.findall(r"(?:summon (?:a|an|two) |into an? )([A-Z][\w ]+?) tokens?", text))
    assert named == tokens


def test_rules_text_fits_a_poker_card(game):
    for card in game.cards.values():
        parts = [card.get("text") or ""]
        parts += [a["text"] for a in card.get("abilities") or []]
        parts += [a.get("text", "") for a in card.get("attacks") or []]
        parts += list(card.get("forge") or [])
        assert sum(len(p) for p in parts) <= 200, card.name


def test_hazards_say_so_and_forge_cards_have_options(game):
    for card in game.cards.values():
        if card.type == "spell":
            assert bool(card.get("hazard")) == card.get("text").startswith("Hazard."), card.name
        has_forge = "Forge" in (card.get("keywords") or [])
        assert has_forge == bool(card.get("forge")), card.name


def test_rarity_and_star_spread(game):
    deckable = [c for c in game.cards.values() if c.type in ("fighter", "spell", "stage")]
    rarities = [c.get("rarity") for c in deckable]
    assert rarities.count("common") > rarities.count("rare") > rarities.count("ultra-rare") > 0
    assert "art-rare" not in rarities     # art-rares are alternate-art printings of ultra-rares
    assert all(c.get("stars") == 4 for c in deckable if c.get("rarity") == "ultra-rare")
    stars = [c.get("stars") for c in deckable]
    assert stars.count(1) + stars.count(2) > stars.count(3) + stars.count(4)


def test_pack_weights_sum_exactly(game):
    pack = game.tables["pack"]
    assert sum(s["count"] for s in pack["slots"]) == pack["size"] == 5
    last = pack["slots"][-1]["weights"]
    total = sum(last.values())
    # rare 2/3, ultra-rare 1/4, art-rare 1/12
    assert (last["rare"] * 3, last["ultra-rare"] * 4, last["art-rare"] * 12) == \
        (2 * total, total, total)
    assert len(game.tables["attack_trigger_order"]["steps"]) == 8
