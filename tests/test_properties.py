"""Properties that must hold for any input, found by hypothesis rather than chosen by hand."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.decklist import deck_yaml, format_decklist, parse_decklist
from cardgen.engines import load_engine
from cardgen.model import load_deck, load_game
from cardgen.rules import check_deck, rule_ids
from cardgen.sim.runner import play_match
from cardgen.yamlio import parse_yaml

AMIIBART = load_game("amiibart")
NAMES = sorted(AMIIBART.cards)
RULES = set(rule_ids(AMIIBART))
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

counts = st.one_of(st.integers(-3, 9), st.sampled_from(["two", 2.5, True, None]))
names = st.one_of(st.sampled_from(NAMES), st.text(min_size=1, max_size=12).filter(lambda s: s.strip()))


@SETTINGS
@given(st.dictionaries(names, counts, max_size=14), st.lists(names, max_size=3))
def test_any_deck_gets_known_rule_ids_and_no_crash(tmp_path_factory, cards, powers):
    """Whatever a deck holds, validation answers with known rule ids and lines, or (for text YAML
    cannot hold) a ContentError naming the file: never any other exception."""
    import json

    from cardgen.errors import ContentError

    folder = tmp_path_factory.mktemp("deck")
    path = folder / "deck.yaml"
    path.write_text(json.dumps({"game": "amiibart", "powers": powers, "cards": cards}))
    try:
        problems = check_deck(load_deck(path))
    except ContentError as exc:
        assert all(issue.file == path for issue in exc.issues)
        return
    assert all(p.rule in RULES for p in problems), {p.rule for p in problems} - RULES
    assert all(p.line is None or p.line >= 1 for p in problems)
    if not cards:
        assert any(p.rule == "deck-size" for p in problems)


@SETTINGS
@given(st.dictionaries(st.sampled_from(NAMES), st.integers(1, 4), min_size=1, max_size=20))
def test_deck_lists_round_trip(tmp_path_factory, cards):
    text = deck_yaml({"game": "amiibart", "name": "Property", "powers": ["Overclock", "Night Veil"],
                      "cards": cards})
    assert parse_yaml(text)["cards"] == cards
    path = tmp_path_factory.mktemp("deck") / "deck.yaml"
    path.write_text(text)
    parsed = parse_decklist(format_decklist(load_deck(path)), AMIIBART)
    assert parsed["cards"] == cards and parsed["powers"] == ["Overclock", "Night Veil"]


DOJO = load_engine(load_game("dojo-duel"))
DOJO_SETUPS = DOJO.setups()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31))
def test_any_seed_replays_exactly_and_ends_cleanly(seed):
    first = play_match(DOJO, DOJO_SETUPS, seed, ["random", "greedy"], trajectory=True)
    random.seed(seed + 1)   # disturbing the global generator must change nothing
    random.random()
    second = play_match(DOJO, DOJO_SETUPS, seed, ["random", "greedy"], trajectory=True)
    assert first.trajectory == second.trajectory
    assert first.finished and not first.conflicts
