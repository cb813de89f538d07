"""Duplicate matches (cardgen/sim/duplicate.py): every seating of a seed is the same deal, a bot
against itself scores an equal share on every seed, two processes give the same figures as one."""

from __future__ import annotations

import pytest

from cardgen.engines import load_engine
from cardgen.model import load_game
from cardgen.sim import bots
from cardgen.sim.duplicate import Duplicate, MatchFailed, Seating, duplicate_matches


def engine_of(game_id):
    return load_engine(load_game(f"content/{game_id}"))


@pytest.mark.parametrize("game_id, players", [("dojo-duel", None), ("adapt", 3), ("amfibido", None)])
def test_a_bot_against_itself_scores_an_equal_share_on_every_seed(game_id, players):
    """Greedy against greedy: each seating of a seed is the very same match (the same deal, the
    same choices), only the seat counted differs, so each seed's shares add up to one match's."""
    result = duplicate_matches(engine_of(game_id), "greedy", "greedy", range(40, 52), players=players)
    seats = result.players
    assert len(result.matches) == 12 * seats
    assert result.seed_scores == pytest.approx([1 / seats] * 12)
    assert result.interval == pytest.approx((1 / seats, 1 / seats))


def test_every_seating_of_a_seed_has_the_same_first_player_and_each_seat_once():
    result = duplicate_matches(engine_of("dojo-duel"), "random", "greedy", range(7, 37))
    by_seed: dict[int, list[Seating]] = {}
    for match in result.matches:
        by_seed.setdefault(match.seed, []).append(match)
    assert sorted(by_seed) == list(range(7, 37))
    assert {match.first_player for match in result.matches} == {0, 1}      # (the seeds differ)
    for seatings in by_seed.values():
        assert [m.seat for m in seatings] == [0, 1]
        assert len({m.first_player for m in seatings}) == 1
    # greedy plays far better than random: each seed's two matches are mostly both lost
    assert result.interval[1] < 0.35, result.sentence()


def test_a_seat_the_setup_gives_its_own_bot_is_not_taken():
    """Combo Fighter's solo mode: the AI's seat keeps its AI, so each seed is one match."""
    engine = engine_of("combo-fighter")
    result = duplicate_matches(engine, "greedy", "greedy", range(4), variants=("solo",))
    assert len(result.matches) == 4
    for match in result.matches:
        setups = engine.setups(None, variants=("solo",))
        assert match.seat not in setups[match.seed % len(setups)].bots


def test_two_processes_give_the_figures_one_gives():
    engine = engine_of("dojo-duel")
    one = duplicate_matches(engine, "random", "greedy", range(100, 140))
    two = duplicate_matches(engine, "random", "greedy", range(100, 140), jobs=2)
    assert two == one


def test_a_match_with_a_rule_conflict_stops_the_comparison(monkeypatch):
    class Cheat:
        name = "cheat"

        def __init__(self, engine, rng, player):
            pass

        def choose(self, state, actions):
            return ("no such move",)

    monkeypatch.setitem(bots.BUILTIN_BOTS, "cheat", Cheat)
    with pytest.raises(MatchFailed, match="seed 3, cheat in seat 0"):
        duplicate_matches(engine_of("dojo-duel"), "cheat", "greedy", range(3, 5))


def test_the_sentence_gives_the_score_its_interval_and_the_sample():
    matches = tuple(Seating(seed, seat, 0, share) for seed, shares in enumerate([(1, 0), (1, 1), (0.5, 0.5)])
                    for seat, share in enumerate(shares))
    result = Duplicate("search", "greedy", 2, matches)
    assert result.seed_scores == [0.5, 1.0, 0.5]
    assert result.score == pytest.approx(2 / 3)
    text = result.sentence()
    assert "search scored 66.7% against greedy" in text
    assert "6 duplicate matches: 3 seeds" in text and "equal share is 50%" in text
    # seat 0 went first in all three: its shares 1, 1, 0.5; seat 1's 0, 1, 0.5
    assert result.by_first_turn == pytest.approx((5 / 6, 1 / 2))
