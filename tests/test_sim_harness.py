"""The simulator finds rule conflicts and replays matches exactly, whatever the engine."""

from __future__ import annotations

import random

import pytest

from cardgen.engines.base import Engine, Setup
from cardgen.model import load_game
from cardgen.sim.report import build_report, format_html, format_text, wilson
from cardgen.sim.runner import MatchResult, conflict_summary, deck_contents, play_match, static_conflicts
from tests.conftest import ROOT


class RaceState:
    __slots__ = ("totals", "turn", "rng")

    def __init__(self, rng):
        self.totals, self.turn, self.rng = [0, 0], rng.randrange(2), rng


class RaceEngine(Engine):
    """Players add 1 or 2 (or a lucky die roll) to their total; the first to reach 10 wins."""

    game_id = "race"
    max_actions = 100
    keywords = frozenset({"Kindle"})

    def setups(self, decks=None):
        return [Setup("A vs B", ["A", "B"]), Setup("B vs A", ["B", "A"])]

    def initial_state(self, setup, rng):
        return RaceState(rng)

    def current_player(self, state):
        return -1 if self.is_over(state) else state.turn

    def legal_actions(self, state):
        return [("add", 1), ("add", 2), ("roll",)]

    def apply(self, state, action):
        amount = state.rng.randint(1, 3) if action == ("roll",) else action[1]
        state.totals[state.turn] += amount
        state.turn = 1 - state.turn
        return state

    def is_over(self, state):
        return max(state.totals) >= 10

    def winner(self, state):
        return 0 if state.totals[0] >= 10 else 1

    def clone(self, state):
        copy = RaceState.__new__(RaceState)
        copy.totals, copy.turn, copy.rng = list(state.totals), state.turn, state.rng
        return copy

    def heuristic(self, state, player):
        return state.totals[player] - state.totals[1 - player]

    def card_of(self, state, action):
        return "Roll" if action == ("roll",) else None


class Looping(RaceEngine):
    def legal_actions(self, state):
        return [("add", 0)]


class DeadEnd(RaceEngine):
    def legal_actions(self, state):
        return [] if max(state.totals) >= 4 else super().legal_actions(state)


class Broken(RaceEngine):
    def invariants(self, state):
        return ["total above 12"] if max(state.totals) > 8 else []


class Crashing(RaceEngine):
    def apply(self, state, action):
        if action == ("roll",):
            raise ZeroDivisionError("bad roll table")
        return super().apply(state, action)


GUILD = load_game(ROOT / "tests" / "data" / "lantern-guild")


def run(engine_class, seed, bots=("random",)):
    engine = engine_class(GUILD)
    return play_match(engine, engine.setups(), seed, list(bots), trajectory=True)


def test_a_seed_replays_the_same_match_even_if_global_random_is_disturbed():
    first = run(RaceEngine, 42)
    random.seed(999)
    random.random()
    second = run(RaceEngine, 42)
    assert first.trajectory == second.trajectory and first.winner == second.winner
    assert {run(RaceEngine, s).trajectory for s in range(20)} != {first.trajectory}


def test_a_finished_match_records_winner_plays_and_length():
    result = run(RaceEngine, 3)
    assert result.finished and result.winner in (0, 1) and not result.conflicts
    assert 5 <= result.actions <= 20
    assert result.setup == "B vs A"  # seed 3 -> setups[3 % 2]


@pytest.mark.parametrize("engine_class, kind", [
    (Looping, "turn-cap"), (DeadEnd, "dead-end"), (Broken, "invariant"), (Crashing, "exception")])
def test_rule_conflicts_are_reported_with_their_seed(engine_class, kind):
    results = [run(engine_class, seed) for seed in range(30)]
    summary = conflict_summary(results)
    assert summary, "no conflict found"
    conflict, count = summary[0]
    assert conflict.kind == kind
    assert conflict.seed is not None and count >= 1
    replay = run(engine_class, conflict.seed)
    assert [c.kind for c in replay.conflicts] == [kind]
    if kind == "exception":
        assert "ZeroDivisionError: bad roll table" in conflict.message


def test_undefined_keyword_is_a_static_conflict():
    engine = RaceEngine(GUILD)   # implements Kindle only; the guild's Sudden Draught has Gust
    messages = [c.message for c in static_conflicts(engine)]
    assert messages == ["Sudden Draught carries Gust, which no rule of the engine defines"]


def test_greedy_beats_random():
    wins = 0
    for seed in range(200):
        result = run(RaceEngine, seed, bots=("greedy", "random"))
        wins += result.winner == 0
    assert wins > 120


def test_report_figures():
    results = [run(RaceEngine, s) for s in range(400)]
    report = build_report(GUILD, results, 1.0, bots=["random"], seed=0)
    assert report["matches"] == 400 and report["completion_rate"] == 1.0
    fp = report["first_player"]
    assert fp["decisive"] == 400 and fp["ci95"][0] < fp["win_rate"] < fp["ci95"][1]
    assert set(report["seats"]) == {"A", "B"}
    assert report["matchups"]["A"]["B"] + report["matchups"]["B"]["A"] == pytest.approx(1.0, abs=0.002)
    assert report["cards"][0]["card"] == "Roll"
    assert sum(b["count"] for b in report["length"]["histogram"]) == 400
    assert "first player wins" in format_text(report)
    page = format_html(report)
    assert page.count("<svg") == 2 and "<script" not in page       # lengths, and win rate by seat
    assert "<title>A: " + f"{100 * report['seats']['A']:.1f}%</title>" in page



def test_matchups_of_matches_with_more_than_two_seats():
    # The winner of a three-seat match beat both others; its two losers count for neither.
    def result(seed, winner):
        return MatchResult(seed, "three", ["A", "B", "C"], ["random"] * 3, 0, winner, True, 10)

    results = [result(0, 0), result(1, 0), result(2, 1), result(3, None)]
    report = build_report(GUILD, results, 1.0)
    matchups = report["matchups"]
    assert "its winner beats each of the others" in format_text(report) and \
        "its winner beats each of the others" in format_html(report)
    assert matchups["A"] == {"A": None, "B": 0.667, "C": 1.0}
    assert matchups["B"] == {"A": 0.333, "B": None, "C": 1.0}
    assert matchups["C"] == {"A": 0.0, "B": 0.0, "C": None}

def test_the_report_splits_results_by_setup_and_by_bot():
    def result(seed, setup, seats, bots, winner, finished=True):
        return MatchResult(seed, setup, seats, bots, 0, winner, finished, 10)

    results = [result(0, "A vs B", ["A", "B"], ["greedy", "random"], 0),
               result(1, "B vs A", ["B", "A"], ["greedy", "random"], 0),
               result(2, "B vs A", ["B", "A"], ["greedy", "random"], 1),
               result(3, "B vs A", ["B", "A"], ["greedy", "random"], None),
               result(4, "A vs B", ["A", "B"], ["greedy", "random"], None, finished=False)]
    report = build_report(GUILD, results, 1.0, bots=["greedy", "random"])
    assert report["setups"] == [
        {"setup": "A vs B", "seats": ["A", "B"], "matches": 2, "finished": 1, "draws": 0,
         "seat_win_rates": [1.0, 0.0], "first_player_win_rate": 1.0},
        {"setup": "B vs A", "seats": ["B", "A"], "matches": 3, "finished": 3, "draws": 1,
         "seat_win_rates": [0.333, 0.333], "first_player_win_rate": 0.5}]      # (seat 0 moved first)
    assert report["bot_win_rates"] == {"greedy": 0.5, "random": 0.25}
    text = format_text(report)
    assert "by setup" in text and "first  50.0%  33.3% / 33.3%" in text and "win rate by bot" in text
    assert "<h2>By setup</h2>" in format_html(report) and "<h2>By bot</h2>" in format_html(report)
    alike = build_report(GUILD, [result(5, "A vs B", ["A", "B"], ["random", "random"], 0)], 1.0)
    assert alike["bot_win_rates"] == {}                 # one bot, one setup: nothing to split
    assert "by setup" not in format_text(alike) and "win rate by bot" not in format_text(alike)


def test_a_setup_may_fix_the_bot_of_a_seat():
    class FixedSeat(RaceEngine):
        def setups(self, decks=None):
            return [Setup("A vs AI", ["A", "AI"], bots={1: "greedy"})]

    engine = FixedSeat(GUILD)
    result = play_match(engine, engine.setups(), 3, ["random"])
    assert result.bots == ["random", "greedy"] and result.finished


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_keywords_are_found_wherever_the_field_specs_put_them():
    """A.D.A.P.T. names its abilities as map keys; the check must see them, not just `keywords:`."""
    from cardgen.engines import load_engine

    engine = load_engine(load_game("adapt"))
    assert static_conflicts(engine) == []
    engine.keywords = engine.keywords - {"Armor"}
    messages = [c.message for c in static_conflicts(engine)]
    assert messages and all("Armor" in m for m in messages)


def test_simulating_in_process_leaves_the_callers_garbage_collector_as_it_was():
    # the loaded game is kept out of collections while matches run, and handed back after
    import gc

    from cardgen.sim.runner import simulate

    game = load_game(ROOT / "content" / "dojo-duel")
    assert gc.get_freeze_count() == 0
    results, _ = simulate(game, matches=20, seed=5, jobs=1)
    assert len(results) == 20 and all(r.finished for r in results)
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        simulate(game, matches=5, seed=5, jobs=1)
        assert gc.get_freeze_count() > 0, "what the caller froze stays frozen"
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("game_id", ["adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel"])
def test_an_engine_keeps_at_most_30_attributes_in_its_dict(game_id):
    # Past 30, CPython 3.11 gives up an instance's shared-key layout and no `self.method(...)` call
    # site specializes any more: 2.5-4% more instructions per action. An engine with more
    # attributes lists them in __slots__.
    from cardgen.engines import load_engine

    engine = load_engine(load_game(game_id))
    assert len(vars(engine)) <= 30, sorted(vars(engine))


@pytest.mark.parametrize("game_id", ["adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel"])
def test_unchecked_runs_play_the_same_matches_as_checked_ones(game_id):
    # Unchecked runs apply the bots' choices with apply_chosen, which may skip the legality check.
    from cardgen.engines import load_engine

    engine = load_engine(load_game(game_id))
    setups = engine.setups()
    for seed in range(40):
        checked = play_match(engine, setups, seed, ["random"], trajectory=True)
        unchecked = play_match(engine, setups, seed, ["random"], trajectory=True, check_invariants=False)
        assert not checked.conflicts and not unchecked.conflicts
        assert (unchecked.trajectory, unchecked.winner) == (checked.trajectory, checked.winner), seed



@pytest.mark.parametrize("game_id", ["adapt", "amiibart"])
def test_the_runners_own_random_choice_is_the_random_bots(game_id, monkeypatch):
    # With the random bot in every seat the runner makes the choice itself. A subclass of the bot,
    # which the runner leaves to choose, must make the same choices.
    from cardgen.engines import load_engine
    from cardgen.sim import bots

    class SeatedRandom(bots.RandomBot):
        name = "seated-random"

    monkeypatch.setitem(bots.BUILTIN_BOTS, "seated-random", SeatedRandom)
    engine = load_engine(load_game(game_id))
    setups = engine.setups()
    for seed in range(30):
        inlined = play_match(engine, setups, seed, ["random"], trajectory=True, check_invariants=False)
        by_bot = play_match(engine, setups, seed, ["seated-random"], trajectory=True, check_invariants=False)
        assert (inlined.trajectory, inlined.plays) == (by_bot.trajectory, by_bot.plays), seed

class PooledRace(RaceEngine):
    """The decks hold two of the guild's cards; a roll plays Spare Oil, and Sea Fog is never played."""

    def setups(self, decks=None):
        pool = frozenset({"Spare Oil", "Sea Fog"})
        return [Setup("A vs B", ["A", "B"], cards=pool), Setup("B vs A", ["B", "A"], cards=pool)]

    def card_of(self, state, action):
        return "Spare Oil" if action == ("roll",) else None


def test_cards_never_played_are_looked_for_in_the_decks_played():
    engine = PooledRace(GUILD)
    results = [play_match(engine, engine.setups(), s, ["random"]) for s in range(50)]
    pool, _ = deck_contents(engine)
    assert pool == {"Spare Oil", "Sea Fog"}
    report = build_report(GUILD, results, 1.0, pool=pool)
    assert report["never_played"] == ["Sea Fog"] and report["pool_count"] == 2
    text = format_text(report)
    assert "never played: 1 of the 2 cards in the decks played: Sea Fog" in text
    assert "8 of the game's 10 cards are in none of those decks" in text
    assert "Never played (1 of the 2 cards in the decks played): Sea Fog." in format_html(report)
    # An engine that does not name its decks' cards: every card of the game is looked at.
    unpooled = build_report(GUILD, results, 1.0)
    assert len(unpooled["never_played"]) == 9 and unpooled["pool_count"] is None
    assert "never played: 9 of 10 cards" in format_text(unpooled)
    # Every card of the decks played: the line says so, and still counts the cards in no deck.
    full = build_report(GUILD, results, 1.0, pool=frozenset({"Spare Oil"}))
    assert full["never_played"] == [] and "never played: none of the" in format_text(full)
    assert "9 of the game's 10 cards are in none of those decks" in format_html(full)


class NarratedRace(RaceEngine):
    def describe_outcome(self, before, after, action):
        if action != ("roll",):
            return ""
        player = before.turn
        return f"rolled {after.totals[player] - before.totals[player]}"


def test_a_replay_says_what_each_move_led_to_and_plays_the_same_match():
    engine = NarratedRace(GUILD)
    log = play_match(engine, engine.setups(), 11, ["random"], log=True)
    rolls = [outcome for _, _, _, outcome in log.moves if outcome]
    assert rolls and all(o in ("rolled 1", "rolled 2", "rolled 3") for o in rolls)
    assert [o for _, _, text, o in log.moves if text != "('roll',)"] == [""] * (len(log.moves) - len(rolls))
    # looking at the state before each move (a clone) leaves the match as it was
    plain = play_match(engine, engine.setups(), 11, ["random"], trajectory=True)
    assert log.result.trajectory == plain.trajectory


def test_a_replay_lists_the_move_that_crashed():
    engine = Crashing(GUILD)
    seed = next(s for s in range(50) if play_match(engine, engine.setups(), s, ["random"]).conflicts)
    log = play_match(engine, engine.setups(), seed, ["random"], log=True)
    assert log.moves[-1][2] == "('roll',)" and log.result.conflicts[0].kind == "exception"
