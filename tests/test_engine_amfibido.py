"""Amfibido: the reference engine (content/amfibido/engine/), its scenarios and its rules."""

from __future__ import annotations

import copy
import hashlib
import random
from pathlib import Path

import pytest

from cardgen.engines import load_engine
from cardgen.engines.base import IllegalAction, RuleConflict
from cardgen.model import Card, load_game
from cardgen.sim.runner import play_match, simulate, static_conflicts
from cardgen.sim.scenarios import Scenario, load_scenario, run_scenario, run_scenario_file
from tests.conftest import borrowed_engine, game_code

AmfibidoEngine = game_code("amfibido", "engine").AmfibidoEngine

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "content" / "amfibido" / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():
    return load_game("amfibido")


@pytest.fixture(scope="module")
def engine(game):
    return load_engine(game)


def make(engine, setup, seed=0):
    return engine.scenario_state(setup, random.Random(seed))


def do(engine, st, *actions):
    for spec in actions:
        engine.apply(st, engine.parse_action(st, spec))
    return engine.observe(st)


def legal(engine, st, spec):
    return engine.parse_action(st, spec) in engine.legal_actions(st)


def random_match(engine, setup, seed, *, check=None, disturb=False):
    """A match between two random bots; returns (state, actions taken, action digest)."""
    st = engine.initial_state(setup, random.Random(seed))
    bot = random.Random(seed * 7919 + 13)
    digest = hashlib.sha256()
    steps = 0
    while not engine.is_over(st):
        assert steps < engine.max_actions, f"seed {seed}: still going after {steps} actions"
        actions = engine.legal_actions(st)
        assert actions, f"seed {seed}: dead end at step {steps}"
        if disturb:
            random.seed(steps * 31 + seed)
            random.random()
        action = actions[bot.randrange(len(actions))]
        digest.update(repr(action).encode())
        engine.apply(st, action)
        steps += 1
        if check:
            check(st, seed, steps)
    digest.update(repr(engine.observe(st)).encode())
    return st, steps, digest.hexdigest()


# ---------------------------------------------------------------------------------------------
# Cards and keywords


def test_every_bundled_card_is_supported(engine, game):
    assert engine.unsupported_cards() == {}
    assert static_conflicts(engine) == []
    used = {k for c in game.cards.values() for k in c.get("keywords") or []}
    assert used <= engine.keywords == set(game.keywords)


def _with_cards(game, *cards):
    g = copy.copy(game)
    g.cards = dict(game.cards)
    for name, ctype, fields in cards:
        g.cards[name] = Card(name, ctype, 1, fields, game.folder / "cards" / "extra.yaml", 1)
    return g


def test_new_cards_in_the_same_vocabulary_just_work_and_others_are_reported(game):
    g = _with_cards(
        game,
        ("Horned Frog", "fighter", {"level": 3, "power": 4, "creature": "frog",
                                    "text": "Each combo move on this gives +4 more {power}. "
                                            "Knockout while you have another frog in a dojo."}),
        ("Mud Slide", "action", {"level": 2, "text": "Switcheroo up to two of your fighters."}),
        ("Moon Theft", "action", {"level": 2, "text": "Steal the moon."}),
        ("Odd Belt", "equipment", {"level": 2, "power": 1,
                                   "action_ability": {"cost": "sing a song",
                                                      "text": "Draw a card from an active deck."}}),
    )
    eng = AmfibidoEngine(g)
    frog = eng.by_name["Horned Frog"]
    assert frog.combo_extra == 4 and frog.ko_cr == eng.grammar.cr_index["frog"]
    assert eng.by_name["Mud Slide"].steps[0].count == 2
    assert set(eng.unsupported_cards()) == {"Moon Theft", "Odd Belt"}
    assert "steal the moon" in eng.unsupported_cards()["Moon Theft"]
    assert "sing a song" in eng.unsupported_cards()["Odd Belt"]


# ---------------------------------------------------------------------------------------------
# Determinism, invariants, clones


def test_same_seed_same_trajectory_whatever_the_global_random(engine):
    setups = engine.setups()
    for seed in (3, 11):
        random.seed(12345)
        a = random_match(engine, setups[seed % 2], seed)
        b = random_match(engine, setups[seed % 2], seed, disturb=True)
        assert a[1:] == b[1:]
    assert random_match(engine, setups[0], 4)[2] != random_match(engine, setups[0], 6)[2]
    first = play_match(engine, setups, 21, ["random", "greedy"])
    random.seed(99)
    again = play_match(engine, setups, 21, ["random", "greedy"])
    assert first.trajectory == again.trajectory and first.conflicts == []


def test_invariants_hold_after_every_step_and_every_match_ends(engine):
    setups = engine.setups()
    ends = set()

    def check(st, seed, step):
        problems = engine.invariants(st)
        assert not problems, (seed, step, problems)

    for seed in range(240):
        st, steps, _ = random_match(engine, setups[seed % len(setups)], seed, check=check)
        w = engine.winner(st)
        assert engine.current_player(st) == -1 and engine.legal_actions(st) == []
        # the published game has no drawn match: it ends only with a fourth round win
        assert w is not None and st.score[w] == engine.wins_needed > st.score[1 - w]
        ends.add(w)
    assert ends == {0, 1}


def test_invariants_hold_under_the_house_variants(engine):
    setups = engine.setups(variants=("round-limit",))
    assert all(s.options["round_limit"] == engine.round_limit for s in setups)
    ends = set()
    for seed in range(120):
        st, _, _ = random_match(engine, setups[seed % len(setups)], seed,
                                check=lambda st, seed, step: not engine.invariants(st) or
                                pytest.fail(f"{seed} {step} {engine.invariants(st)}"))
        w = engine.winner(st)
        assert st.round <= engine.round_limit
        if st.round < engine.round_limit:
            assert w is not None and st.score[w] == engine.wins_needed
        ends.add(w)
    assert {0, 1} <= ends


def test_clone_is_independent(engine):
    setup = engine.setups()[1]
    st = engine.initial_state(setup, random.Random(8))
    bot = random.Random(1)
    step = 0
    while not engine.is_over(st):
        actions = engine.legal_actions(st)
        if step % 3 == 0:
            before = engine.observe(st)
            twin = engine.clone(st)
            engine.apply(twin, actions[-1])
            assert engine.observe(st) == before
            assert engine.legal_actions(st) == actions
            again = engine.clone(st)
            engine.apply(again, actions[-1])
            assert engine.observe(again) == engine.observe(twin)
            assert engine.invariants(twin) == [] and engine.invariants(st) == []
        engine.apply(st, actions[bot.randrange(len(actions))])
        step += 1


def test_illegal_action_is_refused(engine):
    st = make(engine, {"players": [{"hand": ["Jab"]}, {}]})
    with pytest.raises(IllegalAction):
        engine.apply(st, ("combo", "Jab", 1))          # no fighter there
    with pytest.raises(IllegalAction):
        engine.apply(st, ("field", "Tree Frog", 1))    # not in hand


# ---------------------------------------------------------------------------------------------
# Scenarios


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(engine, path):
    result = run_scenario_file(engine, path)
    assert result.ok, result.message


def test_scenarios_cover_the_faq_and_examples():
    data = [load_scenario(p).data for p in SCENARIOS]
    published = [d["source"] for d in data if not d["setup"].get("variants")]
    # the rulebook's five FAQ answers and two examples, played by the published rules
    assert published.count("faq") == 5 and published.count("example") == 2
    # and one question for each house variant
    assert sorted(v for d in data for v in d["setup"].get("variants") or []) == [
        "failed-transform-stays", "round-limit"]


def test_a_wrong_expectation_fails(engine):
    scenario = load_scenario(ROOT / "content/amfibido/scenarios/example-2-tree-frog-roundhouse-kick.yaml")
    data = copy.deepcopy(dict(scenario.data))
    data["expect"] = {"p0": {"dojos": {1: {"power": 5}}}}
    result = run_scenario(engine, Scenario(scenario.path, data))
    assert not result.ok and "power" in result.message


# ---------------------------------------------------------------------------------------------
# Setup and draft


def test_setup_first_game_and_with_sensei(engine):
    first, standard = engine.setups()
    assert not first.options["sensei"] and standard.options["sensei"]
    st = engine.initial_state(first, random.Random(1))
    obs = engine.observe(st)
    assert obs["phase"] == "draft" and obs["to_move"] == st.start
    for p in (0, 1):
        assert len(st.hand[p]) == 3 and {st.box.info[c].level for c in st.hand[p]} == {1}
        assert len(st.draft[p]) == 3 and st.sensei[p] == -1
    st = engine.initial_state(standard, random.Random(1))
    assert engine.observe(st)["phase"] == "sensei"
    sensei_left = len(st.sdeck)
    offered = engine.legal_actions(st)
    assert len(offered) == 3 and all(a[0] == "sensei" for a in offered)
    engine.apply(st, offered[0])
    engine.apply(st, engine.legal_actions(st)[1])
    obs = engine.observe(st)
    assert obs["phase"] == "draft" and obs["p0"]["sensei"] == offered[0][1]
    assert len(st.sdeck) == sensei_left + 4


def test_draft_deals_by_the_round_table_then_pick_pass_pick_discard(engine):
    st = make(engine, {"round": 2, "phase": "draft", "starting": 1,
                       "players": [{"draft": ["Jab", "Sai", "Tree Frog"]},
                                   {"draft": ["Bokken", "Kama", "Headband"]}]})
    assert engine.current_player(st) == 1
    do(engine, st, ["pick", "Kama"], ["pick", "Sai"])
    # the two left are passed: player 1 now picks from Jab / Tree Frog, player 0 from Bokken / Headband
    assert engine.current_player(st) == 1
    assert {a[1] for a in engine.legal_actions(st)} == {"Jab", "Tree Frog"}
    obs = do(engine, st, ["pick", "Tree Frog"], ["pick", "Bokken"])
    assert obs["phase"] == "field" and obs["to_move"] == 1
    assert obs["p0"]["hand"] == ["Bokken", "Sai"] and obs["p1"]["hand"] == ["Kama", "Tree Frog"]
    assert obs["discard"] == ["Headband", "Jab"]
    # the next deal: round 2 draws levels II, I, II for each player
    st = make(engine, {"round": 1, "players": [{"dojos": [{"fighter": "Tree Frog"}]}, {}]})
    do(engine, st, "pass", "pass")
    info = st.box.info
    for p in (0, 1):
        assert sorted(info[c].level for c in st.draft[p]) == [1, 2, 2]


def test_empty_level_deck_refills_from_its_discards(engine):
    st = make(engine, {"round": 1, "players": [{"dojos": [{"fighter": "Tree Frog"}]}, {}],
                       "discard": ["Leopard Frog", "Cane Toad"]})
    st.discard += st.decks[2]
    st.decks[2] = []
    do(engine, st, "pass", "pass")
    info = st.box.info
    assert sorted(info[c].level for c in st.draft[0] + st.draft[1]) == [1, 1, 2, 2, 2, 2]
    assert engine.invariants(st) == []


# ---------------------------------------------------------------------------------------------
# Fights and rounds


def _board(p0, p1):
    """Dojos from fighter names (None = empty)."""
    return {"players": [{"dojos": [{"fighter": f} if f else {} for f in p0]},
                        {"dojos": [{"fighter": f} if f else {} for f in p1]}]}


@pytest.mark.parametrize("pattern, winner", [
    ("WWL", 0), ("WDD", 0), ("WWW", 0), ("WLD", "draw"), ("DDD", "draw"), ("LLW", 1), ("LDD", 1),
])
def test_round_result(engine, pattern, winner):
    mine = ["Fire Salamander", "Tree Frog", "Eastern Newt"]
    theirs = ["Cane Toad", "Leopard Frog", "Dwarf Caiman"]
    p0 = [mine[i] if r == "W" else None for i, r in enumerate(pattern)]
    p1 = [theirs[i] if r == "L" else None for i, r in enumerate(pattern)]
    st = make(engine, _board(p0, p1))
    obs = do(engine, st, "pass", "pass")
    assert obs["last_round"]["winner"] == winner
    assert obs["scores"] == [int(winner == 0), int(winner == 1)]
    assert obs["starting"] == (1 if winner == "draw" else winner)


def test_power_never_below_zero_and_equal_power_draws(engine):
    st = make(engine, _board(["Tree Frog", "Eastern Newt"], ["Gila Monster", "Dwarf Caiman"]))
    obs = engine.observe(st)
    assert obs["p0"]["powers"] == [0, 2, None]
    obs = do(engine, st, "pass", "pass")
    assert obs["last_round"]["results"]["p0"] == ["lose", "draw", "draw"]


def test_four_round_wins_end_the_game(engine):
    st = make(engine, {**_board(["Tree Frog"], [None]), "scores": [3, 2]})
    obs = do(engine, st, "pass", "pass")
    assert obs["over"] and obs["winner"] == 0 and obs["to_move"] == -1
    assert engine.winner(st) == 0 and engine.legal_actions(st) == []


@pytest.mark.parametrize("scores, winner", [([2, 1], 0), ([2, 2], None)])
def test_round_limit_variant(engine, scores, winner):
    setup = {"round": engine.round_limit, "scores": scores, "variants": ["round-limit"]}
    st = make(engine, setup)
    obs = do(engine, st, "pass", "pass")
    assert engine.is_over(st) and engine.winner(st) == winner
    assert obs["winner"] == ("draw" if winner is None else winner)
    # the published rules play on: a drawn round is followed by the next round
    st = make(engine, {**setup, "variants": []})
    obs = do(engine, st, "pass", "pass")
    assert not engine.is_over(st) and obs["round"] == engine.round_limit + 1


@pytest.mark.parametrize("variant, changed", [
    ("round-limit", {"ruling-no-last-round.yaml"}),
    ("failed-transform-stays", {"ruling-transform-finds-nothing.yaml"}),
    ("first-game", {"ruling-knockout-pile-cost.yaml"}),        # it needs a sensei
])
def test_each_variant_changes_only_the_published_rule_it_names(game, engine, variant, changed):
    from cardgen.sim.scenarios import check_game

    results = check_game(game, engine, variants=(variant,))
    assert {r.scenario.path.name for r in results if not r.ok} == changed
    assert all(r.ok for r in check_game(game, engine))


def test_the_house_variants_are_off_by_default(engine):
    for s in engine.setups():
        assert s.options["round_limit"] == 0 and not s.options["failed_transform_stays"]
    first_game = engine.setups(variants=("first-game",))
    assert [s.options["sensei"] for s in first_game] == [False, False]
    assert all("(no sensei)" in s.label for s in first_game)


def test_starting_player_alternates_until_both_pass(engine):
    st = make(engine, {"starting": 1, "players": [{"hand": ["Jab", "Tree Frog"]},
                                                  {"hand": ["Common Toad", "Bokken"]}]})
    assert engine.current_player(st) == 1
    do(engine, st, ["field", "Common Toad", 1])
    assert engine.current_player(st) == 0
    do(engine, st, "pass")
    assert engine.current_player(st) == 1          # alone after the other passed
    do(engine, st, ["equip", "Bokken", 1])
    assert engine.current_player(st) == 1
    obs = do(engine, st, "pass")
    assert obs["last_round"]["winner"] == 1


def test_knockout_protection_and_axolotl(engine):
    st = make(engine, {"round": 6, "players": [
        {"dojos": [{"fighter": "Mugger Crocodile"}, {"fighter": "Nile Crocodile"}]},
        {"dojos": [{"fighter": "Garter Snake", "equipment": ["Mouthguard"]},
                   {"fighter": "Axolotl"}]}]})
    obs = do(engine, st, "pass", "pass")
    assert obs["last_round"]["knocked_out"]["p1"] == []
    assert obs["p1"]["hand"] == ["Garter Snake"] and obs["p1"]["knockout"] == []
    assert obs["p1"]["dojos"][2]["fighter"] == "Axolotl"      # lost, but stays


def test_knockout_while_it_has_a_combo_move(engine):
    setup = {"round": 4, "players": [{"hand": ["Jab"], "dojos": [{"fighter": "Poison Dart Frog"}]},
                                     {"dojos": [{"fighter": "Tree Frog"}]}]}
    st = make(engine, setup)
    assert engine.observe(st)["p0"]["dojos"][1]["knockout"] is False
    obs = do(engine, st, ["combo", "Jab", 1], "pass", "pass")
    assert obs["p1"]["knockout"] == ["Tree Frog"]


def test_gained_knockout_survives_neutralize_and_transform(engine):
    st = make(engine, {"round": 4, "players": [
        {"hand": ["Decisive Blow", "Metamorphosis"], "dojos": [{"fighter": "Tree Frog",
                                                               "combos": ["Jab"]}]},
        {"hand": ["Smoke Bomb"], "dojos": [{"fighter": "Garter Snake"}]}]},
        seed=2)
    do(engine, st, ["play", "Decisive Blow", "F1"], ["play", "Smoke Bomb", "F1"],
       ["play", "Metamorphosis", "F1"])
    dojo = engine.observe(st)["p0"]["dojos"][1]
    assert dojo["fighter"] != "Tree Frog" and dojo["combos"] == ["Jab"]
    assert dojo["knockout"] is True and dojo["neutralized"] == [dojo["fighter"]]


# ---------------------------------------------------------------------------------------------
# Keywords


def test_transform_puts_revealed_cards_on_the_bottom(engine):
    st = make(engine, {"round": 6, "players": [
        {"hand": ["Final Metamorphosis"], "dojos": [{"fighter": "African Bullfrog",
                                                     "equipment": ["Monk's Spade"]}]}, {}],
        "decks": {5: ["Pink Belt", "Komodo Dragon", "Stillness", "Master's Katana"]}})
    obs = do(engine, st, ["play", "Final Metamorphosis", "F1"])
    assert obs["p0"]["dojos"][1]["fighter"] == "Komodo Dragon"
    assert st.box.info[st.decks[5][0]].name == "Pink Belt"
    # up to two: the second must be another card; the new Komodo Dragon cannot be picked again
    assert engine.legal_actions(st) == [("choose", "E1"), ("done",)]
    obs = do(engine, st, ["choose", "E1"])
    assert obs["p0"]["dojos"][1]["equipment"] == ["Master's Katana"]
    assert obs["discard"] == ["African Bullfrog", "Final Metamorphosis", "Monk's Spade"]


LEVEL_II_FIGHTERS = ["Leopard Frog", "Leopard Frog", "Cane Toad", "Cane Toad", "Fire Salamander",
                     "Fire Salamander", "Spectacled Caiman", "Spectacled Caiman", "Painted Turtle",
                     "Painted Turtle", "Corn Snake", "Corn Snake", "Frilled Lizard"]


@pytest.mark.parametrize("variants", [[], ["failed-transform-stays"]])
def test_a_fighter_whose_transform_finds_nothing(engine, variants):
    # every level II fighter is in the opponent's hand: Metamorphosis finds none
    st = make(engine, {"round": 2, "variants": variants, "players": [
        {"hand": ["Metamorphosis"], "dojos": [{"fighter": "Tree Frog",
                                                "combos": ["Jab", "Knife-Hand Chop"]}]},
        {"hand": LEVEL_II_FIGHTERS}]})
    obs = do(engine, st, ["play", "Metamorphosis", "F1"])
    dojo = obs["p0"]["dojos"][1]
    if not variants:        # published: retired first, and nothing takes its place
        assert dojo["fighter"] is None and dojo["combos"] == []
        assert obs["discard"] == ["Jab", "Metamorphosis", "Tree Frog"]
        assert obs["p0"]["set_aside"] == ["Knife-Hand Chop"]
    else:                   # the house variant: it stays, with its combo moves
        assert dojo["fighter"] == "Tree Frog" and dojo["combos"] == ["Jab", "Knife-Hand Chop"]
        assert obs["discard"] == ["Metamorphosis"]
    assert obs["decks"][2] == 27 - len(LEVEL_II_FIGHTERS)     # every card turned over goes back


def test_an_action_card_reaches_the_discard_pile_once_resolved(engine):
    st = make(engine, {"round": 4, "players": [
        {"hand": ["Tactical Retreat"], "dojos": [{"fighter": "Goliath Frog"}]}, {}]})
    obs = do(engine, st, ["play", "Tactical Retreat", "F1"])
    assert obs["resolving"] == ["Tactical Retreat"] and obs["pending"] == "target"
    obs = do(engine, st, ["choose", 4])
    assert obs["resolving"] == [] and obs["discard"] == ["Tactical Retreat"]
    assert obs["pending"] is None and obs["to_move"] == 1 and obs["p0"]["hand_size"] == 2


def test_a_transformed_card_may_use_its_own_action_ability(engine):
    # the Headband's ability was used this round; transformed into a Grappling Hook, the new
    # form's own ability is another action, not used yet
    st = make(engine, {"round": 3, "players": [
        {"hand": ["Molting", "Jab"], "used": ["Headband"],
         "dojos": [{"fighter": "Leopard Frog", "equipment": ["Headband"]}]},
        {"dojos": [{"fighter": "Cane Toad", "equipment": ["Sai"]}]}],
        "decks": {3: ["Grappling Hook"]}})
    assert not any(a[:2] == ("ability", "E1") for a in engine.legal_actions(st))
    obs = do(engine, st, ["play", "Molting", "E1"], "pass")
    assert obs["p0"]["dojos"][1]["equipment"] == ["Grappling Hook"]
    assert ("ability", "E1") in engine.legal_actions(st)


def test_broken_box_transform_is_a_rule_conflict(tmp_path):
    BROKEN = borrowed_engine("broken-amfibido", tmp_path)
    broken = load_game(BROKEN)
    eng = load_engine(broken)
    assert eng.unsupported_cards() == {}
    st = make(eng, {"round": 4, "players": [{"hand": ["Molting"], "dojos": [
        {"fighter": "Leopard Frog", "equipment": ["Sai"]}]}, {}]})
    with pytest.raises(RuleConflict, match="no level III equipment"):
        eng.apply(st, ("play", "Molting", "E1"))
    results, _ = simulate(broken, matches=200, seed=1, jobs=1)   # about 7% of matches reach one
    kinds = {c.kind for r in results for c in r.conflicts}
    assert kinds == {"rule"}
    found = [c for r in results for c in r.conflicts]
    assert all("level III equipment" in c.message and c.seed is not None for c in found)


def test_switcheroo_moves_the_fighter_and_its_combo_moves(engine):
    st = make(engine, {"players": [{"hand": ["Quick Step"], "dojos": [
        {"fighter": "Tree Frog", "combos": ["Jab"]}, {"fighter": "Common Toad"}]}, {}]})
    obs = do(engine, st, ["play", "Quick Step", "F1", "F2"])
    d = obs["p0"]["dojos"]
    assert (d[1]["fighter"], d[1]["combos"], d[2]["fighter"], d[2]["combos"]) == (
        "Common Toad", [], "Tree Frog", ["Jab"])


def test_any_number_of_switcheroos_moves_each_card_once(engine):
    st = make(engine, {"round": 7, "players": [{"hand": ["Whirlwind Step"], "dojos": [
        {"fighter": "Tree Frog"}, {"equipment": ["Sai"]}]}, {}]})
    do(engine, st, ["play", "Whirlwind Step", "F1", "F2"])
    options = engine.legal_actions(st)
    assert ("done",) in options
    assert all(a[1].startswith("E") for a in options if a[0] == "choose")
    obs = do(engine, st, ["choose", "E2", "E3"])
    assert engine.legal_actions(st) == [("done",)] or obs["pending"] is None


def test_entering_a_dojo_discards(engine):
    st = make(engine, {"round": 5, "players": [
        {"hand": ["Painted Turtle", "Jab", "Sai", "Quick Step"]}, {}]})
    obs = do(engine, st, ["field", "Painted Turtle", 1])
    assert obs["pending"] == "discard" and obs["to_move"] == 0
    obs = do(engine, st, ["choose", "Jab"])
    assert obs["p0"]["hand"] == ["Quick Step", "Sai"] and obs["to_move"] == 1
    obs = do(engine, st, "pass", ["play", "Quick Step", "F1", "F3"])   # moved: it enters again
    assert obs["p0"]["hand"] == [] and obs["discard"] == ["Jab", "Quick Step", "Sai"]


def test_second_equipment_and_its_loss(engine):
    st = make(engine, {"round": 4, "players": [
        {"hand": ["Sai", "Quick Step"], "dojos": [{"fighter": "Tiger Salamander",
                                                   "equipment": ["Bokken"]}]}, {}]})
    do(engine, st, ["equip", "Sai", 1], "pass")
    assert engine.observe(st)["p0"]["dojos"][1]["power"] == 6 + 2 + 3 + 2 * 2
    obs = do(engine, st, ["play", "Quick Step", "F1", "F2"])
    assert obs["pending"] == "retire equipment"
    assert engine.legal_actions(st) == [("choose", "E1"), ("choose", "E1b")]
    obs = do(engine, st, ["choose", "E1"])
    assert obs["p0"]["dojos"][1]["equipment"] == ["Sai"] and "Bokken" in obs["discard"]


def test_combo_moves_and_softshell(engine):
    setup = {"round": 4, "players": [{"hand": ["Jab"], "dojos": [{"fighter": "Softshell Turtle"}]},
                                     {"dojos": [{"fighter": "Tree Frog"}]}]}
    st = make(engine, setup)
    assert not legal(engine, st, ["combo", "Jab", 1])
    setup["players"][1]["dojos"] = [{"fighter": "Chameleon"}]
    st = make(engine, setup)
    assert legal(engine, st, ["combo", "Jab", 1])      # neutralized: its text is ignored


def test_action_ability_once_per_round_cost_and_neutralize(engine):
    setup = {"players": [{"hand": ["Jab", "Tree Frog"], "dojos": [{"fighter": "Spring Peeper"}]},
                         {"hand": ["Bokken"]}]}
    st = make(engine, setup)
    assert legal(engine, st, ["ability", "F1", "F1", "F2"])
    obs = do(engine, st, ["ability", "F1", "F1", "F2"])
    assert obs["pending"] == "cost"
    obs = do(engine, st, ["choose", "Jab"], "pass")
    assert obs["p0"]["dojos"][2]["fighter"] == "Spring Peeper" and obs["p0"]["hand"] == ["Tree Frog"]
    assert not any(a[0] == "ability" for a in engine.legal_actions(st))
    setup["players"][0]["hand"] = []
    assert not any(a[0] == "ability" for a in engine.legal_actions(make(engine, setup)))
    setup["players"][0]["hand"] = ["Jab"]
    setup["players"][1]["dojos"] = [{"fighter": "Chameleon"}]
    assert not any(a[0] == "ability" for a in engine.legal_actions(make(engine, setup)))


def test_neutralize_later_card_wins_a_mutual_pair(engine):
    st = make(engine, {"round": 5, "starting": 1, "players": [
        {"dojos": [{"fighter": "Fire Salamander", "equipment": ["Bo Staff"]}]},
        {"hand": ["Spirit Gong"], "dojos": [{"fighter": "Cane Toad"}]}]})
    obs = do(engine, st, ["equip", "Spirit Gong", 1])
    assert obs["p0"]["dojos"][1]["neutralized"] == ["Bo Staff", "Fire Salamander"]
    assert obs["p0"]["dojos"][1]["power"] == 6
    assert obs["p1"]["dojos"][1]["neutralized"] == []


def test_jade_amulet_protects_and_komodo_needs_its_text(engine):
    st = make(engine, {"round": 7, "starting": 1, "players": [
        {"dojos": [{"fighter": "Komodo Dragon", "equipment": ["Jade Amulet"]},
                   {"fighter": "Gila Monster"}]},
        {"hand": ["Stillness", "Smoke Bomb"]}]})
    obs = do(engine, st, ["play", "Stillness"])
    assert obs["p0"]["dojos"][1]["neutralized"] == []
    assert obs["p0"]["dojos"][3]["fighting"] == "Komodo Dragon"
    assert obs["p0"]["dojos"][2]["neutralized"] == ["Gila Monster"]
    st = make(engine, {"round": 7, "starting": 1, "players": [
        {"dojos": [{"fighter": "Komodo Dragon"}]}, {"hand": ["Smoke Bomb"]}]})
    obs = do(engine, st, ["play", "Smoke Bomb", "F1"])
    assert obs["p0"]["dojos"][2]["fighting"] is None


def test_end_of_round_abilities(engine):
    # Elder Shellback: a turtle that would be retired goes back to hand instead
    st = make(engine, {"players": [{"sensei": "Elder Shellback",
                                    "dojos": [{"fighter": "Snapping Turtle"}]}, {}]})
    obs = do(engine, st, "pass", "pass")
    assert obs["p0"]["hand"] == ["Snapping Turtle"] and obs["phase"] == "draft"
    # Sparring Boots alone: a "may" is a choice, staying is allowed
    st = make(engine, {"players": [{"dojos": [{"fighter": "Tree Frog",
                                               "equipment": ["Sparring Boots"]}]}, {}]})
    do(engine, st, "pass", "pass")
    assert engine.legal_actions(st) == [("choose", "F1", "hand"), ("choose", "F1", "stay")]
    obs = do(engine, st, ["choose", "F1", "stay"])
    assert obs["p0"]["dojos"][1]["fighter"] == "Tree Frog"
    # Meditation Beads: the winner transforms
    st = make(engine, {"round": 3, "players": [
        {"dojos": [{"fighter": "Rat Snake", "equipment": ["Meditation Beads"]}]}, {}],
        "decks": {4: ["Gharial"]}})
    obs = do(engine, st, "pass", "pass")
    assert obs["p0"]["dojos"][1]["fighter"] == "Gharial"


def test_boomerang_goes_to_the_knockout_pile_for_one_round(engine):
    st = make(engine, {"round": 2, "players": [
        {"dojos": [{"fighter": "Leopard Frog", "combos": ["Spinning Backfist", "Jab"]}]}, {}]})
    obs = do(engine, st, "pass", "pass")
    assert obs["p0"]["knockout"] == ["Spinning Backfist"] and "Jab" in obs["discard"]
    while engine.observe(st)["phase"] == "draft":
        do(engine, st, list(engine.legal_actions(st)[0]))
    assert "Spinning Backfist" not in engine.observe(st)["p0"]["hand"]
    obs = do(engine, st, "pass", "pass")
    assert "Spinning Backfist" in obs["p0"]["hand"] and obs["p0"]["knockout"] == []


def test_combo_moves_leave_with_a_retired_fighter(engine):
    st = make(engine, {"round": 2, "players": [
        {"hand": ["Cane Toad"], "dojos": [{"fighter": "Tree Frog",
                                           "combos": ["Spinning Backfist", "Jab"]}]}, {}]})
    obs = do(engine, st, ["field", "Cane Toad", 1])
    # the plain move is discarded at once; the boomerang one waits for the end of the round
    assert obs["p0"]["knockout"] == [] and obs["p0"]["set_aside"] == ["Spinning Backfist"]
    assert obs["discard"] == ["Jab", "Tree Frog"]
    obs = do(engine, st, "pass", "pass")
    assert obs["round"] == 3 and obs["p0"]["set_aside"] == []
    assert obs["p0"]["knockout"] == ["Spinning Backfist"] and "Spinning Backfist" not in obs["p0"]["hand"]
    while engine.observe(st)["phase"] == "draft":
        do(engine, st, list(engine.legal_actions(st)[0]))
    obs = do(engine, st, "pass", "pass")
    assert obs["round"] == 4 and "Spinning Backfist" in obs["p0"]["hand"]


def test_a_boomerang_move_set_aside_is_not_in_the_knockout_pile(engine):
    # Tactical Retreat takes the fighter home: its boomerang move is set aside, out of Second
    # Wind's reach, and only reaches the knockout pile at the end of the round
    st = make(engine, {"round": 4, "players": [
        {"hand": ["Tactical Retreat", "Second Wind"],
         "dojos": [{"fighter": "Goliath Frog", "combos": ["Spinning Hook Kick"]}]}, {}]})
    do(engine, st, ["play", "Tactical Retreat", "F1"])
    while engine.observe(st)["pending"]:            # the card it draws: any active level
        do(engine, st, list(engine.legal_actions(st)[0]))
    obs = do(engine, st, "pass")                    # Player 2 passes; Player 1 is to move
    assert obs["to_move"] == 0 and obs["p0"]["knockout"] == []
    assert obs["p0"]["set_aside"] == ["Spinning Hook Kick"] and "Goliath Frog" in obs["p0"]["hand"]
    assert not legal(engine, st, ["play", "Second Wind", "Spinning Hook Kick"])
    obs = do(engine, st, "pass")
    assert obs["round"] == 5 and obs["p0"]["knockout"] == ["Spinning Hook Kick"]


def test_a_card_paid_into_the_knockout_pile_sits_out_the_next_round(engine):
    st = make(engine, {"round": 2, "players": [
        {"sensei": "Sensei Drift", "hand": ["Jab", "Second Wind"], "knockout": ["Cane Toad"],
         "dojos": [{"fighter": "Tree Frog"}]}, {}]})
    do(engine, st, ["ability", "S", "F1", "F2"], ["choose", "Jab"])
    obs = do(engine, st, "pass")
    assert obs["p0"]["knockout"] == ["Cane Toad", "Jab"] and obs["p0"]["hand"] == ["Second Wind"]
    # Second Wind reaches both cards of the pile
    assert legal(engine, st, ["play", "Second Wind", "Jab"])
    assert legal(engine, st, ["play", "Second Wind", "Cane Toad"])
    obs = do(engine, st, "pass")
    # the toad sat out round 2 and comes back; the Jab arrived in round 2 and sits out round 3
    assert obs["round"] == 3 and obs["p0"]["knockout"] == ["Jab"]
    assert "Cane Toad" in obs["p0"]["hand"] and "Jab" not in obs["p0"]["hand"]
    while engine.observe(st)["phase"] == "draft":
        do(engine, st, list(engine.legal_actions(st)[0]))
    obs = do(engine, st, "pass", "pass")
    assert obs["round"] == 4 and obs["p0"]["knockout"] == [] and "Jab" in obs["p0"]["hand"]


def test_pond_of_renewal_returns_the_whole_knockout_pile(engine):
    st = make(engine, {"round": 6, "players": [
        {"sensei": "Sensei Drift", "hand": ["Jab", "Pond of Renewal"], "knockout": ["Cane Toad"],
         "dojos": [{"fighter": "Tree Frog"}]}, {}]})
    do(engine, st, ["ability", "S", "F1", "F2"], ["choose", "Jab"], "pass")
    obs = do(engine, st, ["play", "Pond of Renewal"])
    assert obs["p0"]["knockout"] == [] and obs["p0"]["hand"] == ["Cane Toad", "Jab"]


def test_still_water_starts_after_a_drawn_round(engine):
    st = make(engine, {"starting": 1, "players": [{}, {"sensei": "Sensei Still Water"}]})
    obs = do(engine, st, "pass", "pass")
    assert obs["last_round"]["winner"] == "draw" and obs["starting"] == 1


# ---------------------------------------------------------------------------------------------
# Bots


def test_greedy_beats_random(game):
    wins = 0
    for bots, seat in ((["greedy", "random"], 0), (["random", "greedy"], 1)):
        results, _ = simulate(game, matches=6, seed=500, jobs=1, bots=bots,
                              check_invariants=False)
        assert all(r.finished and not r.conflicts for r in results)
        wins += sum(r.winner == seat for r in results)
    assert wins >= 11


# ---------------------------------------------------------------------------------------------
# Replays: what a move led to


def outcome(engine, st, spec):
    """Apply one action and return the replay's outcome lines for it."""
    before = engine.clone(st)
    action = engine.parse_action(st, spec)
    engine.apply(st, action)
    return engine.describe_outcome(before, st, action).split("\n")


def test_outcome_of_the_fights_a_knockout_and_the_next_round(engine):
    setup = {"round": 4, "players": [{"hand": ["Jab"], "dojos": [{"fighter": "Poison Dart Frog"}]},
                                     {"dojos": [{"fighter": "Tree Frog"}, {"fighter": "Cane Toad"}]}]}
    st = make(engine, setup)
    do(engine, st, ["combo", "Jab", 1], "pass")
    mine, theirs = engine.observe(st)["p0"]["powers"][0], engine.observe(st)["p1"]["powers"][0]
    assert mine > theirs
    assert outcome(engine, st, "pass") == [
        f"dojo 1: P1's Poison Dart Frog {mine} beats P2's Tree Frog {theirs}, and knocks it out",
        "dojo 2: P2's Cane Toad wins unopposed",
        "dojo 3: no fighters, a draw",
        "round 4 is drawn (fights won 1 to 1): round wins P1 0, P2 0",
        "round 5: P2 starts (after a drawn round)"]
    assert engine.observe(st)["p1"]["knockout"] == ["Tree Frog"]


def test_outcome_of_the_last_round_win(engine):
    st = make(engine, {**_board(["Tree Frog"], [None]), "scores": [3, 2]})
    do(engine, st, "pass")
    assert outcome(engine, st, "pass") == [
        "dojo 1: P1's Tree Frog wins unopposed", "dojo 2: no fighters, a draw",
        "dojo 3: no fighters, a draw", "P1 wins round 1 (fights won 1 to 0): round wins P1 4, P2 2",
        "P1 is the Grand Sensei: game over"]


def test_outcome_of_field_phase_abilities(engine):
    st = make(engine, {"round": 4, "players": [
        {"hand": ["Decisive Blow", "Metamorphosis"], "dojos": [{"fighter": "Tree Frog"}]},
        {"hand": ["Smoke Bomb"], "dojos": [{"fighter": "Garter Snake"}]}]}, seed=2)
    assert outcome(engine, st, ["play", "Decisive Blow", "F1"]) == [
        "P1's Tree Frog (dojo 1) gains Knockout this round"]
    assert outcome(engine, st, ["play", "Smoke Bomb", "F1"]) == ["P1's Tree Frog (dojo 1) is neutralized"]
    lines = outcome(engine, st, ["play", "Metamorphosis", "F1"])
    new = engine.observe(st)["p0"]["dojos"][1]["fighter"]
    # what the frog had gained this round passes to the new card: nothing new to say of it
    assert lines == [f"P1's Tree Frog transforms into {new} (dojo 1)"]


def test_outcome_of_a_fighter_replaced_with_a_boomerang_move(engine):
    st = make(engine, {"round": 2, "players": [
        {"hand": ["Cane Toad"], "dojos": [{"fighter": "Tree Frog",
                                           "combos": ["Spinning Backfist", "Jab"]}]}, {}]})
    assert outcome(engine, st, ["field", "Cane Toad", 1]) == [
        "P1's Tree Frog (dojo 1) is retired to the discard pile",
        "boomerang: P1's Spinning Backfist is set aside until the end of the round"]
    do(engine, st, "pass")
    assert "boomerang: P1's Spinning Backfist goes to the knockout pile" in outcome(engine, st, "pass")


def test_outcome_of_end_of_round_abilities(engine):
    st = make(engine, {"round": 3, "players": [
        {"dojos": [{"fighter": "Rat Snake", "equipment": ["Meditation Beads"]}]}, {}],
        "decks": {4: ["Gharial"]}})
    do(engine, st, "pass")
    lines = outcome(engine, st, "pass")
    assert "P1's Rat Snake transforms into Gharial (dojo 1)" in lines
    assert lines[-1] == "round 4: P1 starts (won the last round)"
    # a winning Snapping Turtle is retired; a beaten fighter's leaving is not repeated
    st = make(engine, {"players": [{"dojos": [{"fighter": "Snapping Turtle"}, {"fighter": "Tree Frog"},
                                              {"fighter": "Tree Frog"}]},
                                   {"dojos": [{"fighter": "Common Toad"}, {"fighter": "Gila Monster"}]}]})
    do(engine, st, "pass")
    lines = outcome(engine, st, "pass")
    assert "end of round: P1's Snapping Turtle (dojo 1) is retired to the discard pile" in lines
    assert not any("Tree Frog (dojo 2)" in line for line in lines)


def test_outcome_of_draft_picks(engine):
    st = make(engine, {"round": 2, "phase": "draft", "starting": 1,
                       "players": [{"draft": ["Jab", "Sai", "Tree Frog"]},
                                   {"draft": ["Bokken", "Kama", "Headband"]}]})
    assert outcome(engine, st, ["pick", "Kama"]) == [""]       # the pick says it all
    do(engine, st, ["pick", "Sai"])
    assert outcome(engine, st, ["pick", "Tree Frog"]) == [
        "the leftover, Jab, goes face down onto the discard pile"]
    assert outcome(engine, st, ["pick", "Bokken"]) == [
        "the leftover, Headband, goes face down onto the discard pile"]
    # the first game (no sensei): the first pick says who was drawn to start
    first = next(s for s in engine.setups() if not s.options.get("sensei", True))
    st = engine.initial_state(first, random.Random(5))
    action = engine.legal_actions(st)[0]
    before = engine.clone(st)
    engine.apply(st, action)
    assert engine.describe_outcome(before, st, action) == \
        f"P{st.start + 1} is the starting player (drawn at random)"


def test_a_logged_replay_plays_the_same_match(engine):
    setups = engine.setups()
    for seed in range(20):
        log = play_match(engine, setups, seed, ["random"], log=True)
        plain = play_match(engine, setups, seed, ["random"], trajectory=True)
        assert log.result.trajectory == plain.trajectory and not log.result.conflicts
        assert any(" wins round " in outcome for *_, outcome in log.moves)
