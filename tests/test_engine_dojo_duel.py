"""Dojo Duel's reference engine: determinism, invariants, clones, scenarios and the tricky rules."""

from __future__ import annotations

import copy
import hashlib
import random
import time
from collections import Counter
from pathlib import Path

import pytest

from cardgen.engines import load_engine
from cardgen.engines.base import IllegalAction, RuleConflict, Setup
from cardgen.model import load_deck, load_game
from cardgen.sim.bots import GreedyBot, RandomBot
from cardgen.sim.runner import play_match, simulate, static_conflicts
from cardgen.sim.scenarios import run_scenario_file
from tests.conftest import ROOT, borrowed_engine, game_code

DojoDuelEngine = game_code("dojo-duel", "engine").DojoDuelEngine

GAME_DIR = ROOT / "content" / "dojo-duel"
SCENARIOS = sorted((GAME_DIR / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():
    return load_game("dojo-duel")


@pytest.fixture(scope="module")
def engine(game):
    return load_engine(game)


@pytest.fixture(scope="module")
def setups(engine):
    return engine.setups()


def play(engine, setup, seed, bots=("random", "random"), check=None):
    """Play one match; returns (hash of the actions, final state, number of actions)."""
    state = engine.initial_state(setup, random.Random(seed))
    kinds = {"random": RandomBot, "greedy": GreedyBot}
    players = [kinds[b](engine, random.Random(seed * 31 + i), i) for i, b in enumerate(bots)]
    digest = hashlib.sha256()
    steps = 0
    while not engine.is_over(state):
        assert steps < engine.max_actions, "match did not end"
        actions = engine.legal_actions(state)
        assert actions, "dead end"
        player = engine.current_player(state)
        action = players[player].choose(state, actions)
        digest.update(repr(action).encode())
        engine.apply(state, action)
        steps += 1
        if check:
            check(state)
    return digest.hexdigest(), state, steps


def names(engine, kinds):
    return sorted(engine.names[k] for k in kinds)


def position(engine, **setup):
    return engine.scenario_state(setup, random.Random(setup.pop("seed", 0)))


# ---------------------------------------------------------------------------------------------
# Setups


def test_setups_are_every_pair_of_the_sample_decks_in_both_seatings(engine, setups):
    assert len(setups) == 12
    assert len({tuple(s.seats) for s in setups}) == 12
    assert len({frozenset(s.seats) for s in setups}) == 6
    assert all(len(set(s.seats)) == 2 for s in setups)
    whole = next(s for s in setups if "The Whole Set" in s.seats)
    seat = whole.seats.index("The Whole Set")
    assert sorted(whole.options["decks"][seat]) == sorted(engine.names)


def test_setups_from_given_decks(engine):
    deck = load_deck(GAME_DIR / "decks" / "crane-path.yaml")
    mirror = engine.setups([deck])
    assert len(mirror) == 1 and mirror[0].seats == ["Crane Path", "Crane Path"]
    assert len(mirror[0].options["decks"][0]) == 15
    three = engine.setups(sorted((GAME_DIR / "decks").glob("*.yaml"))[:3])
    assert len(three) == 6


# ---------------------------------------------------------------------------------------------
# Determinism, invariants, clones


def test_same_seed_same_match_even_when_global_random_is_disturbed(engine, setups):
    for seed in range(6):
        setup = setups[seed % len(setups)]
        random.seed(12345)
        first, state1, _ = play(engine, setup, seed, ("greedy", "random"))
        random.seed(999)
        random.random()
        second, state2, _ = play(engine, setup, seed, ("greedy", "random"))
        assert first == second
        assert engine.observe(state1) == engine.observe(state2)
    # ... and different seeds give different matches
    hashes = {play(engine, setups[0], seed)[0] for seed in range(10)}
    assert len(hashes) > 5


def test_invariants_hold_after_every_step_and_every_match_ends(engine, setups):
    def check(state):
        problems = engine.invariants(state)
        assert not problems, problems

    results = Counter()
    for seed in range(300):
        bots = ("random", "random") if seed % 10 else ("greedy", "random")
        _, state, steps = play(engine, setups[seed % len(setups)], seed, bots, check)
        assert steps < engine.max_actions
        assert engine.current_player(state) == -1 and engine.legal_actions(state) == []
        a, b = state.points
        assert min(a, b) <= 0                   # no round limit: only points end a bout
        # reduced to 0 loses; both reduced in the same round is a tie, whatever the scores
        expected = None if max(a, b) <= 0 else 0 if a > b else 1
        assert engine.winner(state) == expected
        results[engine.winner(state)] += 1
    assert results[0] > 50 and results[1] > 50


def test_invariants_catch_a_lost_card_and_bad_counters(engine, setups):
    state = engine.initial_state(setups[0], random.Random(3))
    assert engine.invariants(state) == []
    state.decks[0].pop()
    assert any("created or lost" in p for p in engine.invariants(state))
    state = engine.initial_state(setups[0], random.Random(3))
    state.points[1] = 0
    assert any("goes on" in p for p in engine.invariants(state))
    state = engine.initial_state(setups[0], random.Random(3))
    state.hands[1].append(state.decks[1].pop())
    state.hands[1].append(state.decks[1].pop())
    assert any("holds 7 cards" in p for p in engine.invariants(state))


def test_clone_is_independent(engine, setups):
    state = engine.initial_state(setups[1], random.Random(8))
    rng = random.Random(0)
    for _ in range(40):
        if engine.is_over(state):
            break
        before = engine.observe(state)
        rng_state = state.rng.getstate()
        actions = engine.legal_actions(state)
        twin = engine.clone(state)
        engine.apply(twin, actions[-1])
        if not engine.is_over(twin):
            engine.apply(engine.clone(twin), engine.legal_actions(twin)[0])
        assert engine.observe(state) == before
        assert state.rng.getstate() == rng_state
        # a clone replays the same way as the original
        copy_ = engine.clone(state)
        action = actions[rng.randrange(len(actions))]
        engine.apply(copy_, action)
        engine.apply(state, action)
        assert engine.observe(copy_) == engine.observe(state)


def test_runner_plays_the_game_without_conflicts(game):
    results, _ = simulate(game, matches=120, jobs=1, bots=["random", "greedy"])
    assert all(r.finished and not r.conflicts for r in results)
    assert static_conflicts(load_engine(game)) == []


# ---------------------------------------------------------------------------------------------
# Scenarios


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(engine, path):
    result = run_scenario_file(engine, path)
    assert result.ok, result.message


def test_the_scenarios_cover_the_rules():
    assert {p.stem for p in SCENARIOS} >= {
        "point-loss", "kicker-adds", "kicker-once", "kicker-stays-face-down", "first-draw-kicker",
        "recycle-new-deck", "opponent-picks", "both-at-zero", "both-at-zero-draw",
        "no-round-limit", "first-turn-stays", "extra-draw-optional",
        # the house variants, each pinned in its scenario's setup
        "round-limit", "below-zero-tiebreak", "alternate-first-turn"}


def test_a_scenario_that_disagrees_fails(engine, tmp_path):
    text = (GAME_DIR / "scenarios" / "point-loss.yaml").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace("points: [20, 19]", "points: [20, 20]"), encoding="utf-8")
    result = run_scenario_file(engine, wrong)
    assert not result.ok and "points" in result.message


def test_scenario_setup_must_match_the_phase(engine):
    with pytest.raises(ValueError, match="field cards"):
        position(engine, phase="reveal", p0={"field": ["Feint"]}, p1={"field": ["Feint"]})
    with pytest.raises(ValueError, match="no card named"):
        position(engine, p0={"hand": ["Tiger Claws"]})


# ---------------------------------------------------------------------------------------------
# The rules


def test_first_draw_kicker_then_one_more_card(engine, setups):
    state = engine.initial_state(setups[2], random.Random(5))
    assert engine.observe(state)["phase"] == "kicker"
    assert engine.first_player(state) == state.first
    first = state.first
    assert engine.current_player(state) == first
    assert [len(h) for h in state.hands] == [5, 5]
    hand = state.hands[first]
    assert set(engine.legal_actions(state)) == {("kicker", n) for n in names(engine, hand)}
    engine.apply(state, ("kicker", engine.names[hand[0]]))
    assert engine.current_player(state) == 1 - first
    other = state.hands[1 - first]
    engine.apply(state, ("kicker", engine.names[other[-1]]))
    assert [len(h) for h in state.hands] == [4, 4]
    assert all(k >= 0 for k in state.kick)
    # each may now draw one more card: the first-Turn player says first
    for p in (first, 1 - first):
        assert engine.observe(state)["phase"] == "extra-draw"
        assert engine.current_player(state) == p
        assert engine.legal_actions(state) == [("draw",), ("pass",)]
        engine.apply(state, ("draw",))
    assert [len(h) for h in state.hands] == [5, 5]
    obs = engine.observe(state)
    assert obs["phase"] == "pick" and obs["to_move"] == first and obs["round"] == 1
    assert obs["p0"]["kicker_state"] == obs["p1"]["kicker_state"] == "face-down"
    assert engine.legal_actions(state) == [("pick",)]
    with pytest.raises(IllegalAction):
        engine.apply(state, ("kicker", engine.names[state.hands[first][0]]))


def test_the_pick_is_blind_and_goes_to_the_defenders_field(engine):
    hand = ["Tiger Claw", "Granite Palm", "Feint", "Swift Jab", "Mirror Guard"]
    seen = Counter()
    for seed in range(400):
        state = position(engine, seed=seed, first=1, p0={"hand": hand, "kicker_used": True},
                         p1={"hand": ["Snap Punch", "Reed Bends"], "kicker_used": True})
        assert engine.current_player(state) == 1
        assert engine.legal_actions(state) == [("pick",)]
        engine.apply(state, ("pick",))
        obs = engine.observe(state)
        assert obs["p0"]["hand_size"] == 4 and len(obs["p0"]["field"]) == 1
        picked = obs["p0"]["field"][0]
        assert sorted(obs["p0"]["hand"] + [picked]) == sorted(hand)
        seen[picked] += 1
        # the picker answers, from their own hand only
        assert obs["phase"] == "answer" and obs["to_move"] == 1
        assert set(engine.legal_actions(state)) == {("answer", "Reed Bends"),
                                                    ("answer", "Snap Punch")}
        with pytest.raises(IllegalAction):
            engine.apply(state, ("answer", hand[0] if hand[0] != picked else hand[1]))
    assert set(seen) == set(hand)
    assert min(seen.values()) > 50       # about 80 each


def test_the_extra_card_may_be_declined(engine, setups):
    state = engine.initial_state(setups[2], random.Random(5))
    first = state.first
    for p in (first, 1 - first):
        engine.apply(state, ("kicker", engine.names[state.hands[p][0]]))
    decks = [len(d) for d in state.decks]
    engine.apply(state, ("pass",))
    assert engine.current_player(state) == 1 - first
    engine.apply(state, ("draw",))
    assert len(state.hands[first]) == 4 and len(state.hands[1 - first]) == 5
    assert len(state.decks[first]) == decks[first] and len(state.decks[1 - first]) == decks[1 - first] - 1
    assert engine.observe(state)["phase"] == "pick" and engine.invariants(state) == []
    # nothing left to draw: the player is not asked
    state = position(engine, phase="kicker", first=0, p0={"hand": ["Feint", "Sidestep", "Formal Bow"]},
                     p1={"hand": ["Feint", "Sidestep", "Formal Bow"], "deck": ["Swift Jab"]})
    engine.apply(state, ("kicker", "Feint"))
    engine.apply(state, ("kicker", "Feint"))
    assert engine.current_player(state) == 1 and engine.legal_actions(state) == [("draw",), ("pass",)]
    engine.apply(state, ("draw",))
    assert engine.observe(state)["phase"] == "pick" and state.to_move == 0


@pytest.mark.parametrize("variants, alternates", [((), False), (("alternate-first-turn",), True)])
def test_turns_alternate_and_the_first_turn_is_the_toss_winners(engine, variants, alternates):
    state = engine.initial_state(engine.setups(variants=variants)[0], random.Random(11))
    while engine.observe(state)["phase"] in ("kicker", "extra-draw"):
        engine.apply(state, engine.legal_actions(state)[0])
    order = []
    while not engine.is_over(state) and len(order) < 4:
        first = state.first
        assert state.to_move == first and engine.legal_actions(state) == [("pick",)]
        engine.apply(state, ("pick",))
        engine.apply(state, engine.legal_actions(state)[0])
        assert state.to_move == 1 - first
        engine.apply(state, ("pick",))
        engine.apply(state, engine.legal_actions(state)[0])
        while engine.observe(state)["phase"] == "reveal":
            engine.apply(state, ("keep",))
        order.append(first)
        assert [len(h) for h in state.hands] == [5, 5] or engine.is_over(state)
    if alternates:
        assert order[:4] == [order[0], 1 - order[0], order[0], 1 - order[0]]
    else:
        assert order[:4] == [order[0]] * 4


def test_losses_are_simultaneous_and_equal_yang_costs_nothing(engine):
    # p0: Thunder Heel 3/9 + Sidestep 4/2 (Yin 7, Yang 11); p1: Rooted Oak 7/2 + answer.
    def round_with(answer):
        state = position(engine, first=0, phase="answer", turn=2,
                         p0={"field": ["Thunder Heel", "Sidestep"], "hand": ["Formal Bow"],
                             "kicker_used": True},
                         p1={"field": ["Rooted Oak"], "hand": [answer], "kicker_used": True})
        engine.apply(state, ("answer", answer))
        return engine.observe(state)

    obs = round_with("Deep Root Posture")          # 6/2: p1 Yin 13, Yang 4
    assert obs["last_loss"] == [0, 0]
    obs = round_with("Roaring Palm")               # 3/7: p1 Yin 10, Yang 9
    assert obs["last_loss"] == [2, 1] and obs["points"] == [18, 19]
    obs = round_with("Leaping Tiger Kick")         # 0/9: p1 Yin 7, Yang 11
    assert obs["last_loss"] == [4, 4]
    obs = round_with("Granite Palm")               # 6/4: p1 Yin 13, Yang 6: 6 vs Yin 7 -> 0
    assert obs["last_loss"] == [0, 0]


def test_kicker_window_order_and_who_is_asked(engine):
    fields = {"p0": ["Mirror Guard", "Feint"], "p1": ["Rooted Oak", "Snap Punch"]}

    def window(k0, k1, first=0):
        return position(engine, first=first, phase="reveal",
                        p0={"field": fields["p0"], "kicker": k0, "kicker_used": k0 is None,
                            "deck": ["Formal Bow"] * 5},
                        p1={"field": fields["p1"], "kicker": k1, "kicker_used": k1 is None,
                            "deck": ["Formal Bow"] * 5})

    state = window("Tiger Claw", "Granite Palm")
    assert state.to_move == 1                       # the second-Turn player first
    engine.apply(state, ("reveal",))
    assert state.to_move == 0 and engine.legal_actions(state) == [("reveal",), ("keep",)]
    engine.apply(state, ("keep",))
    obs = engine.observe(state)
    assert obs["p1"]["kicker_state"] == "used" and obs["p0"]["kicker_state"] == "face-down"
    assert "Granite Palm" in obs["p1"]["recycle"] and "Tiger Claw" not in obs["p0"]["recycle"]

    state = window("Tiger Claw", None)
    assert state.to_move == 0                       # p1 has no kicker: only p0 is asked
    engine.apply(state, ("reveal",))
    assert engine.observe(state)["round"] == 2

    # no window at all when nobody has a face-down kicker
    state = position(engine, first=0, phase="answer", turn=2,
                     p0={"field": fields["p0"], "kicker_used": True},
                     p1={"field": ["Rooted Oak"], "hand": ["Snap Punch"], "kicker_used": True})
    engine.apply(state, ("answer", "Snap Punch"))
    assert engine.observe(state)["phase"] == "pick"


@pytest.mark.parametrize("seat", [0, 1])
def test_kicker_adds_yin_and_yang_for_its_round_only(engine, seat):
    other = 1 - seat
    state = position(engine, first=other, phase="reveal", **{
        f"p{other}": {"field": ["Formal Bow", "Formal Bow"], "kicker_used": True,
                      "deck": ["Feint"] * 4},
        f"p{seat}": {"field": ["Formal Bow", "Formal Bow"], "kicker": "Thunder Heel",
                     "deck": ["Feint"] * 4}})
    assert state.to_move == seat
    engine.apply(state, ("reveal",))
    obs = engine.observe(state)
    mine = obs[f"p{seat}"]
    assert mine["last_yin"] == 5 and mine["last_yang"] == 11
    assert obs["last_loss"][other] == 9 and obs["last_loss"][seat] == 0
    assert mine["kicker_state"] == "used" and mine["yang"] == 0


@pytest.mark.parametrize("p1_field, points, choice", [
    # the kicker (Circle of Hands, 6/6) would save 4 and deal 5: 9 of its 12, a round not worth it
    (["Feint", "Formal Bow"], 20, ("keep",)),
    # it would save 6 and deal 6: all it can ever do
    (["Snap Punch", "Snap Punch"], 20, ("reveal",)),
    # the same 9 of 12 when the 4 points it saves are the last ones
    (["Feint", "Formal Bow"], 4, ("reveal",)),
])
def test_the_greedy_bot_keeps_its_kicker_for_a_round_worth_it(engine, p1_field, points, choice):
    """A kicker is revealed once: kept, it is worth nearly all its Yin and Yang in a later round
    of the player's choosing (KICKER_WEIGHT). At half its value the greedy bot revealed it in the
    first round it would save or deal half its value, and lost 55-56% of duplicate matches to the
    same bot valuing it right (bench/heuristic_weights.py)."""
    state = position(engine, first=0, phase="reveal", p0={
        "field": ["Formal Bow", "Formal Bow"], "kicker": "Circle of Hands", "points": points,
        "deck": ["Formal Bow"] * 8}, p1={
        "field": p1_field, "kicker_used": True, "deck": ["Formal Bow"] * 8})
    assert state.to_move == 0
    assert GreedyBot(engine, random.Random(3), 0).choose(state, engine.legal_actions(state)) == choice


def test_recycle_shuffles_into_a_new_deck_with_the_game_rng(engine):
    def after(seed):
        state = position(engine, seed=seed, first=0, phase="answer", turn=2,
                         p0={"field": ["Feint", "Gust Palm"], "hand": ["Formal Bow"],
                             "recycle": ["Sidestep", "Swift Jab", "Snap Punch", "Reed Bends",
                                         "Falling Leaf", "Tiger Claw"], "kicker_used": True},
                         p1={"field": ["Feint"], "hand": ["Formal Bow"], "deck": ["Swift Jab"] * 6,
                             "kicker_used": True})
        engine.apply(state, ("answer", "Formal Bow"))
        return engine.observe(state)["p0"]

    results = [after(seed) for seed in range(12)]
    for p0 in results:
        assert p0["hand_size"] == 5 and p0["deck_size"] == 4 and p0["recycle"] == []
        assert "Formal Bow" in p0["hand"]
    assert len({tuple(p0["hand"]) for p0 in results}) > 1
    assert after(3) == after(3)


def test_a_hand_that_cannot_be_refilled_plays_on(engine, setups):
    tiny = Setup("tiny", ["A", "B"], {"decks": [["Feint", "Sidestep", "Snap Punch"],
                                                ["Formal Bow", "Reed Bends", "Tiger Claw"]]})
    _, state, _ = play(engine, tiny, 4, check=lambda s: engine.invariants(s) == [] or
                       pytest.fail(str(engine.invariants(s))))
    assert engine.is_over(state)
    with pytest.raises(RuleConflict, match="at least 2"):
        engine.initial_state(Setup("x", ["A", "B"], {"decks": [["Feint"] * 2, ["Feint"] * 3]}),
                             random.Random(0))


@pytest.mark.parametrize("variants", [[], ["below-zero-tiebreak"]])
def test_game_end_rules(engine, variants):
    def end(points, answer):
        state = position(engine, first=0, phase="answer", turn=2, variants=variants,
                         p0={"field": ["Crushing Fist", "Tiger Claw"], "points": points[0],
                             "kicker_used": True},
                         p1={"field": ["Crushing Fist"], "hand": [answer], "points": points[1],
                             "kicker_used": True})
        engine.apply(state, ("answer", answer))
        return state

    # p0: Yin 3, Yang 16. p1 answers Tiger Claw: Yin 3, Yang 16: both lose 13.
    state = end((13, 13), "Tiger Claw")
    assert engine.is_over(state) and engine.winner(state) is None and state.points == [0, 0]
    state = end((10, 12), "Tiger Claw")
    assert state.points == [-3, -1] and engine.is_over(state)
    # both reduced to 0 or below in the same round: a tie, unless the tiebreak is played
    assert engine.winner(state) == (1 if variants else None)
    state = end((14, 13), "Tiger Claw")
    assert engine.winner(state) == 0 and state.points == [1, 0]
    with pytest.raises(IllegalAction):
        engine.apply(state, ("pick",))
    assert engine.legal_actions(state) == [] and engine.current_player(state) == -1


@pytest.mark.parametrize("variants, last", [((), None), (("round-limit",), 20), (("quick-bout",), 10),
                                           (("quick-bout", "round-limit"), 10)])
def test_only_a_variant_limits_the_rounds(engine, variants, last):
    def round_ends(n):
        state = position(engine, round=n, first=0, phase="answer", turn=2, variants=list(variants),
                         p0={"field": ["Formal Bow", "Formal Bow"], "points": 4, "kicker_used": True,
                             "deck": ["Feint"] * 5},
                         p1={"field": ["Formal Bow"], "hand": ["Formal Bow"], "points": 4,
                             "kicker": "Temple Wall", "deck": ["Feint"] * 5})
        engine.apply(state, ("answer", "Formal Bow"))
        assert engine.observe(state)["phase"] == "reveal"
        engine.apply(state, ("keep",))
        return state

    for n in (9, 10, 19, 20, 21, 200):
        if last is not None and n > last:
            continue
        state = round_ends(n)
        if n == last:
            assert engine.is_over(state) and engine.winner(state) is None
        else:
            assert not engine.is_over(state) and state.round == n + 1
            assert engine.invariants(state) == []
    # a quick bout starts both players on 10 points
    start = engine.initial_state(engine.setups(variants=variants)[0], random.Random(1)).points
    assert start == ([10, 10] if "quick-bout" in variants else [20, 20])


def test_an_unknown_variant_is_refused(engine):
    with pytest.raises(ValueError, match="no variant 'turbo'"):
        position(engine, variants=["turbo"])
    with pytest.raises(ValueError, match="unknown setup keys"):
        position(engine, variant=["round-limit"])
    with pytest.raises(RuleConflict, match="turbo"):
        engine.initial_state(engine.setups(variants=("turbo",))[0], random.Random(0))


def test_illegal_actions_are_refused(engine):
    state = position(engine, first=0, p0={"hand": ["Feint"]}, p1={"hand": ["Sidestep"]})
    for bad in [("answer", "Feint"), ("reveal",), ("kicker", "Feint"), ("pick", 2), "pick"]:
        with pytest.raises(IllegalAction):
            engine.apply(engine.clone(state), bad)
    engine.apply(state, ("pick",))
    for bad in [("pick",), ("answer", "Sidestep"), ("answer", "No Such Card"), ("keep",)]:
        with pytest.raises(IllegalAction):
            engine.apply(engine.clone(state), bad)


def test_parse_action_forms(engine):
    state = position(engine)
    assert engine.parse_action(state, "pick") == ("pick",)
    assert engine.parse_action(state, "answer Mirror Guard") == ("answer", "Mirror Guard")
    assert engine.parse_action(state, ["kicker", "Temple Wall"]) == ("kicker", "Temple Wall")
    assert engine.parse_action(state, {"answer": "Feint"}) == ("answer", "Feint")
    with pytest.raises(ValueError):
        engine.parse_action(state, "answer Tiger Claws")
    with pytest.raises(ValueError):
        engine.parse_action(state, "dance")


# ---------------------------------------------------------------------------------------------
# Card data, stalemates, bots, reporting


def test_every_bundled_card_is_supported(engine):
    assert engine.unsupported_cards() == {}
    assert engine.keywords == frozenset()


def test_a_card_with_rules_text_is_unsupported(game):
    changed = copy.deepcopy(game)
    changed.cards["Feint"].fields["text"] = "Swap your Yin and Yang this Round."
    del changed.cards["Sidestep"].fields["yang"]
    unsupported = DojoDuelEngine(changed).unsupported_cards()
    assert set(unsupported) == {"Feint", "Sidestep"}
    assert "text" in unsupported["Feint"] and "yang" in unsupported["Sidestep"]


def test_a_deck_that_can_never_score_is_a_stalemate(engine):
    walls = ["Temple Wall", "Boulder Block", "Iron Mountain Stance", "Stone Gate Guard"] * 4
    with pytest.raises(RuleConflict, match="stalemate"):
        engine.initial_state(Setup("walls", ["W", "W"], {"decks": [walls, walls]}),
                             random.Random(0))
    # a striker that cannot get through two walls is not enough; two strikers and a kicker are
    with pytest.raises(RuleConflict):
        engine.initial_state(Setup("walls", ["W", "K"], {"decks": [walls, walls + ["Snap Punch"]]}),
                             random.Random(0))
    strikers = walls + ["Leaping Tiger Kick", "Thunder Heel"]          # 9 + 9 + 2 > 8 + 8
    engine.initial_state(Setup("walls", ["W", "K"], {"decks": [walls, strikers]}), random.Random(0))


def test_a_bout_the_rules_cannot_end_is_a_turn_cap_finding_not_a_draw(engine):
    # Walls against walls with three Eyes of the Storm (4/8): two Eyes on the field never get
    # through two walls (16 against 16); only an Eye as kicker adds enough, and a kicker works
    # once. So at most one round in the bout can cost anyone points, never 20 of them: the
    # published rules have no other end, and the simulator reports the bout at its action cap.
    walls = ["Temple Wall", "Boulder Block", "Iron Mountain Stance", "Stone Gate Guard"] * 4
    setup = Setup("walls", ["W", "E"], {"decks": [walls, walls[:13] + ["Eye of the Storm"] * 3]})
    engine.initial_state(setup, random.Random(0))            # no stalemate visible at the start
    result = play_match(engine, [setup], 5, ["random"])
    assert not result.finished and result.winner is None
    assert [(c.kind, c.seed) for c in result.conflicts] == [("turn-cap", 5)]
    assert result.actions == engine.max_actions


def test_broken_folder_is_reported_as_a_rule_conflict_not_a_hang(tmp_path):
    BROKEN = borrowed_engine("broken-dojo", tmp_path)
    broken = load_game(BROKEN)
    deck = BROKEN / "decks" / "all-guards.yaml"
    cards = [e.card for e in load_deck(deck).entries]
    assert max(c.fields["yang"] for c in cards) <= min(c.fields["yin"] for c in cards)
    start = time.perf_counter()
    results, _ = simulate(broken, matches=10, jobs=1, decks=[str(deck)])
    assert time.perf_counter() - start < 5
    for result in results:
        assert not result.finished
        assert [c.kind for c in result.conflicts] == ["rule"]
        assert "stalemate" in result.conflicts[0].message
    engine = load_engine(broken)
    result = play_match(engine, engine.setups(), 7, ["random"])
    assert result.conflicts and result.conflicts[0].seed == 7


def test_greedy_beats_random(engine, setups):
    wins = Counter()
    for seed in range(240):
        greedy = seed % 2
        bots = ["random", "random"]
        bots[greedy] = "greedy"
        _, state, _ = play(engine, setups[seed % len(setups)], seed, tuple(bots))
        winner = engine.winner(state)
        wins["greedy" if winner == greedy else "random" if winner is not None else "draw"] += 1
    assert wins["greedy"] > 3 * wins["random"], wins


def test_heuristic_reads_no_hidden_card_of_the_opponent(engine, setups):
    state = engine.initial_state(setups[3], random.Random(2))
    while state.phase != 1:                     # through the kicker placement
        engine.apply(state, engine.legal_actions(state)[0])
    value = engine.heuristic(state, 0)
    swapped = engine.clone(state)
    swapped.hands[1], swapped.decks[1] = swapped.decks[1][:5], swapped.hands[1] + swapped.decks[1][5:]
    swapped.kick[1], swapped.decks[1][-1] = swapped.decks[1][-1], swapped.kick[1]
    assert swapped.hands[1] != state.hands[1] and swapped.kick[1] != state.kick[1]
    assert engine.heuristic(swapped, 0) == value


def test_describe_and_card_of(engine):
    state = position(engine, first=0, phase="reveal",
                     p0={"field": ["Feint", "Feint"], "kicker": "Tiger Claw"},
                     p1={"field": ["Feint", "Feint"], "kicker_used": True})
    assert engine.describe(state, ("reveal",)) == "reveals their kicker, Tiger Claw"
    assert engine.card_of(state, ("reveal",)) == "Tiger Claw"
    assert engine.card_of(state, ("answer", "Feint")) == "Feint"
    assert engine.card_of(state, ("pick",)) is None
    assert "Mirror Guard (5 Yin / 6 Yang)" in engine.describe(state, ("answer", "Mirror Guard"))


def test_module_docstring_documents_the_forms():
    module = game_code("dojo-duel", "engine")

    for word in ("setup", "kicker_used", "Observe", "answer", "reveal", "keep", "last_loss"):
        assert word in module.__doc__
    assert Path(module.__file__).relative_to(ROOT).parts[:2] == ("content", "dojo-duel")


# ---------------------------------------------------------------------------------------------
# Replay outcomes (describe_outcome)


def outcome(engine, state, action):
    before = engine.clone(state)
    engine.apply(state, action)
    return engine.describe_outcome(before, state, action).split("\n")


def test_outcome_names_the_blind_pick(engine):
    state = position(engine, first=1, p0={"hand": ["Tiger Claw"], "kicker_used": True},
                     p1={"hand": ["Snap Punch"], "kicker_used": True})
    assert outcome(engine, state, ("pick",)) == [
        "the blind pick is Tiger Claw (2 Yin / 8 Yang), face up on P1's field"]
    assert outcome(engine, state, ("answer", "Snap Punch")) == [""]     # the move says it all


def test_outcome_of_a_round_each_yang_against_the_other_yin_and_the_score(engine):
    # p0: Thunder Heel 3/9 + Sidestep 4/2 = 7 Yin / 11 Yang; p1: Rooted Oak 7/2 + Roaring Palm 3/7
    state = position(engine, first=0, phase="answer", turn=2, round=4,
                     p0={"field": ["Thunder Heel", "Sidestep"], "hand": ["Formal Bow"],
                         "deck": ["Feint"] * 5, "kicker_used": True},
                     p1={"field": ["Rooted Oak"], "hand": ["Roaring Palm"], "points": 9,
                         "recycle": ["Snap Punch"] * 3, "kicker_used": True})
    assert outcome(engine, state, ("answer", "Roaring Palm")) == [
        "round 4: P1 7 Yin / 11 Yang, P2 10 Yin / 9 Yang",
        "P1's 11 Yang meets P2's 10 Yin: P2 loses 1 point",
        "P2's 9 Yang meets P1's 7 Yin: P1 loses 2 points",
        # p1 has no deck left: drawing back to 5 shuffles the recycle pile into a new one
        "P2's deck ran out: the recycle pile is shuffled into a new deck",
        "score: P1 18, P2 8"]


def test_outcome_of_a_revealed_kicker_that_ends_the_match(engine):
    state = position(engine, first=0, phase="reveal", to_move=0,
                     p0={"field": ["Mirror Guard", "Feint"], "kicker": "Thunder Heel",
                         "deck": ["Feint"] * 5},
                     p1={"field": ["Rooted Oak", "Snap Punch"], "points": 10, "kicker_used": True})
    assert outcome(engine, state, ("reveal",)) == [
        "its +3 Yin / +9 Yang count this round",
        "round 1: P1 10 Yin / 20 Yang, P2 7 Yin / 9 Yang",
        "P1's 20 Yang meets P2's 7 Yin: P2 loses 13 points",
        "P2's 9 Yang meets P1's 10 Yin: it does not get through",
        "the Clean: P1's kicker Thunder Heel goes to the recycle pile",
        "P2 is at 0 or below: P1 wins, P1 20, P2 -3"]


def test_a_replay_plays_the_same_match_and_says_what_came_of_the_moves(engine, setups):
    for seed in range(20):
        log = play_match(engine, setups, seed, ["random"], log=True)
        plain = play_match(engine, setups, seed, ["random"], trajectory=True)
        assert log.result.trajectory == plain.trajectory and log.result.winner == plain.winner
        picks = [out for _, _, text, out in log.moves if text.startswith("picks blind")]
        assert picks and all(o.startswith("the blind pick is ") for o in picks)
        assert any("round 1: P1 " in o for _, _, _, o in log.moves)
        assert " wins" in log.moves[-1][3] or "a draw" in log.moves[-1][3]
