"""The A.D.A.P.T. reference engine (content/adapt/engine/): determinism, invariants over random
matches, clone independence, the scenarios, and unit tests for the trickier rules.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from cardgen.engines import load_engine
from cardgen.engines.base import IllegalAction, Setup
from cardgen.errors import ContentError
from cardgen.model import load_deck, load_game
from cardgen.model.game import Card
from cardgen.sim.runner import play_match
from tests.conftest import game_code

CONSTANTS = game_code("adapt", "engine", "constants")
IM_POISON, P_ACTION, P_SCHOOL = CONSTANTS.IM_POISON, CONSTANTS.P_ACTION, CONSTANTS.P_SCHOOL

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "content" / "adapt" / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():
    return load_game("adapt")


@pytest.fixture(scope="module")
def engine(game):
    return load_engine(game)


def variant_setups(engine):
    """Every table size and variant the engine plays."""
    return [*engine.setups(),
            engine._setup("box", None, [], 4), engine._setup("box", None, [], 5),
            engine._setup("box", None, [], 6),
            engine._setup("kids", None, ["kids"], 2),
            engine._setup("box", None, ["sailfish", "multi-auto-adapt"], 3),
            engine._setup("box", None, ["school-battle"], 4),
            engine._setup("box", None, ["school-battle"], 6),
            engine._setup("box", None, ["stalemate"], 2)]


def play(engine, setup, seed, *, check=None, bot_seed=None):
    """A random match; returns (state, actions). `check(state)` runs after every step."""
    state = engine.initial_state(setup, random.Random(seed))
    bots = random.Random(seed * 7919 + 1 if bot_seed is None else bot_seed)
    actions = []
    while not engine.is_over(state):
        assert len(actions) < engine.max_actions, f"seed {seed}: no end after {len(actions)} actions"
        legal = engine.legal_actions(state)
        assert legal, f"seed {seed}: dead end"
        action = legal[bots.randrange(len(legal))]
        actions.append(action)
        engine.apply(state, action)
        if check:
            check(state)
    return state, actions


def scenario(engine, **setup):
    return engine.scenario_state(setup, random.Random(0))


def fish(engine, state, p):
    return engine.observe(state)["fish"][p]


# --- the card grammar ---------------------------------------------------------------------------


def test_every_bundled_card_is_supported(engine):
    assert engine.unsupported_cards() == {}


def test_every_ability_on_a_card_is_a_keyword_the_engine_implements(engine, game):
    used = set()
    for card in game.cards.values():
        used |= set(card.get("abilities") or {})
    assert used <= engine.keywords
    assert set(game.keywords) <= engine.keywords


def test_text_grammar_reads_the_ability_vocabulary(engine):
    card = Card("Test Fin", "part", 1, {"level": 1, "location": "side", "cost": 2,
                                         "text": "+2 {ferocity}. Armor 1. Immune to Poison and Stun. "
                                                 "Resist Shock 1"}, Path("x"), 1)
    fx, why = engine._parse_card(card)
    assert why == ""
    assert ("stat", "ferocity", 2) in fx and ("num", "Armor", 1) in fx
    assert ("immune", "Poison") in fx and ("immune", "Stun") in fx and ("resist", "Shock", 1) in fx
    odd = Card("Odd Fin", "part", 1, {"level": 1, "location": "side", "cost": 2,
                                       "text": "Steal a card from any Fish.",
                                       "abilities": {"Cooldown": 2}}, Path("x"), 1)
    _, why = engine._parse_card(odd)
    assert "matches no pattern" in why and "no Special Action" in why


# --- whole matches ------------------------------------------------------------------------------


def trajectory(engine, setup, seed):
    state, actions = play(engine, setup, seed)
    digest = hashlib.sha256(repr(actions).encode())
    digest.update(repr(sorted(engine.observe(state).items(), key=str)).encode())
    return digest.hexdigest()


def test_same_seed_same_match_whatever_the_global_random(engine):
    for setup in variant_setups(engine)[:4]:
        random.seed(1)
        first = trajectory(engine, setup, 11)
        random.seed(987654)
        random.random()
        second = trajectory(engine, setup, 11)
        assert first == second, setup.label
    assert trajectory(engine, engine.setups()[0], 11) != trajectory(engine, engine.setups()[0], 12)


def test_random_matches_keep_the_invariants_and_end(engine):
    def check(state):
        problems = engine.invariants(state)
        assert not problems, problems

    for setup in variant_setups(engine):
        for seed in range(30):
            state, actions = play(engine, setup, seed, check=check)
            winner = engine.winner(state)
            team = state.cfg.team
            alive_teams = {team[q] for q, f in enumerate(state.fish) if f.alive}
            assert engine.current_player(state) == -1
            if winner is None:
                # a tie: the last Fish fell together, or (only under the stalemate house rule)
                # the sea settled
                settled = "stalemate" in state.cfg.variants and state.quiet > engine.stalemate
                assert not alive_teams or settled, (setup.label, seed)
            else:
                assert state.fish[winner].alive and alive_teams == {team[winner]}


def test_the_simulator_finds_no_conflict(engine):
    from cardgen.sim.runner import play_match, static_conflicts

    assert static_conflicts(engine) == []
    setups = engine.setups()
    for seed in range(40):
        result = play_match(engine, setups, seed, ["random", "greedy"])
        assert result.conflicts == [] and result.finished, result.conflicts


def test_greedy_beats_random(engine):
    from cardgen.sim.bots import GreedyBot, RandomBot

    setup = engine.setups()[0]
    wins = 0
    games = 40
    for seed in range(games):
        g = seed % 2
        bots = [GreedyBot(engine, random.Random(seed), i) if i == g
                else RandomBot(engine, random.Random(seed + 5), i) for i in range(2)]
        state = engine.initial_state(setup, random.Random(seed))
        while not engine.is_over(state):
            player = engine.current_player(state)
            engine.apply(state, bots[player].choose(state, engine.legal_actions(state)))
        wins += engine.winner(state) == g
    assert wins >= 0.7 * games


def test_shark_bot_beats_random(engine):
    from cardgen.sim.bots import make_bot

    assert "shark" in engine.bots()
    setup = engine.setups()[0]
    wins = 0
    games = 40
    for seed in range(games):
        s = seed % 2
        bots = [make_bot("shark" if i == s else "random", engine, random.Random(seed * 3 + i), i)
                for i in range(2)]
        state = engine.initial_state(setup, random.Random(seed))
        while not engine.is_over(state):
            player = engine.current_player(state)
            engine.apply(state, bots[player].choose(state, engine.legal_actions(state)))
        wins += engine.winner(state) == s
    assert wins >= 0.7 * games


def test_clone_is_independent(engine):
    setup = engine.setups()[1]
    state = engine.initial_state(setup, random.Random(3))
    bots = random.Random(4)
    steps = 0
    while not engine.is_over(state) and steps < 60:
        before = engine.observe(state)
        copy = engine.clone(state)
        legal = engine.legal_actions(state)
        action = legal[bots.randrange(len(legal))]
        engine.apply(copy, action)
        assert engine.observe(state) == before
        twin = engine.clone(state)
        engine.apply(twin, action)
        assert engine.observe(twin) == engine.observe(copy)  # same rng state: same outcome
        engine.apply(state, action)
        assert engine.observe(state) == engine.observe(copy)
        steps += 1


def test_an_illegal_action_is_refused(engine):
    state = engine.initial_state(engine.setups()[0], random.Random(1))
    with pytest.raises(IllegalAction):
        engine.apply(state, ("attack", 7))
    with pytest.raises(IllegalAction):
        engine.apply(state, ("adapt", "Great White Shark"))


# --- scenarios ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(engine, path):
    from cardgen.sim.scenarios import run_scenario_file

    result = run_scenario_file(engine, path)
    assert result.ok, result.message


def test_the_scenarios_cover_the_rulebook_examples():
    names = {p.stem for p in SCENARIOS}
    for needed in ("01-attack-beats-survival", "02-attack-misses", "03-attack-tie", "04-armor",
                   "05-counter-attack-double-defeat", "06-poison-at-turn-start",
                   "08-guppy-body-levels", "09-no-level-skipping", "10-parts-up-to-body-plus-two",
                   "11-wipe-blocked", "13-pgp-limit", "14-auto-adapt", "15-random-selection-2p",
                   "17-random-selection-3p"):
        assert needed in names


# --- setups ---------------------------------------------------------------------------------------


def test_default_setups_and_deck_setups(engine, game):
    labels = [s.label for s in engine.setups()]
    assert labels == ["box, 2 players", "box, 3 players"]
    kids = load_deck(game.folder / "decks" / "kids.yaml")
    setups = engine.setups([kids])
    assert [s.options["players"] for s in setups] == [2, 3]
    assert all(s.options["variants"] == ["kids"] for s in setups)
    state = engine.initial_state(setups[0], random.Random(1))
    assert len(state.stream) == 4 and state.cfg.step == 2
    assert state.cfg.total == 38


def test_engine_declares_player_counts_and_variants(engine):
    assert engine.player_counts == (2, 3, 4, 5, 6)
    assert set(engine.variants) == {"kids", "sailfish", "multi-auto-adapt", "school-battle",
                                    "stalemate"}
    assert all(isinstance(text, str) and text and "\n" not in text for text in engine.variants.values())


@pytest.mark.parametrize("players", [4, 5, 6])
def test_players_option_plays_big_tables_to_the_end(engine, players):
    setups = engine.setups(players=players)
    assert [s.label for s in setups] == [f"box, {players} players"]
    assert len(setups[0].seats) == players and setups[0].options["players"] == players
    for seed in range(12):
        result = play_match(engine, setups, seed, ["random"], check_invariants=True)
        assert result.conflicts == [] and result.finished, (seed, result.conflicts)
        assert len(result.seats) == players
    state = engine.initial_state(setups[0], random.Random(3))
    assert state.cfg.n == players and len(state.fish) == players


@pytest.mark.parametrize("variant", ["kids", "sailfish", "multi-auto-adapt", "school-battle",
                                     "stalemate"])
def test_each_cli_variant_reaches_every_setup(engine, game, variant):
    kids = load_deck(game.folder / "decks" / "kids.yaml")
    for decks in (None, [kids]):
        setups = engine.setups(decks, variants=(variant,))
        assert setups
        for setup in setups:
            assert variant in setup.options["variants"]
            assert f"({', '.join(setup.options['variants'])})" in setup.label
            state = engine.initial_state(setup, random.Random(5))
            assert variant in state.cfg.variants
    # the deck's own variants are kept, first, and not repeated
    assert engine.setups([kids], variants=("kids", "sailfish"))[0].options["variants"] == ["kids", "sailfish"]


def test_kids_variant_strips_the_corner_parts_from_a_full_deck(engine, game):
    box = load_deck(game.folder / "decks" / "box.yaml")
    plain, kids = engine.setups([box], players=2), engine.setups([box], players=2, variants=("kids",))
    assert len(plain[0].options["deck"]) == 58 and len(kids[0].options["deck"]) == 38
    assert kids[0].cards == engine.setups(players=2, variants=("kids",))[0].cards


def test_school_battle_deck_defaults_to_four_players_and_completes(engine, game, tmp_path):
    deck = tmp_path / "school.yaml"
    deck.write_text("game: adapt\nname: School box\nvariants: [school-battle]\ncards: all\n")
    setups = engine.setups([load_deck(deck)])
    assert [s.label for s in setups] == ["School box, 4 players (school-battle)"]
    assert [s.label for s in engine.setups(variants=("school-battle",))] == ["box, 4 players (school-battle)"]
    for seed in range(10):
        result = play_match(engine, setups, seed, ["random"], check_invariants=True)
        assert result.conflicts == [] and result.finished, (seed, result.conflicts)
        assert len(result.seats) == 4
    state = engine.initial_state(setups[0], random.Random(1))
    assert state.cfg.school_battle and state.cfg.nteams == 2
    six = engine.setups(players=6, variants=("school-battle",))
    assert engine.initial_state(six[0], random.Random(1)).cfg.nteams == 3
    # each seat says its School (team = seat % schools), so seat figures add up by School
    assert [seat.split(" of ")[1] for seat in six[0].seats] == ["School 1", "School 2", "School 3"] * 2
    assert setups[0].seats[::2] == ["Amber of School 1", "Teal of School 1"]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_school_battle_at_a_count_it_cannot_play_is_a_content_error(engine, players):
    with pytest.raises(ContentError) as err:
        engine.setups(players=players, variants=("school-battle",))
    (issue,) = err.value.issues
    assert issue.field == "--players" and issue.file is None
    assert "4 or 6 players" in issue.message and str(players) in issue.message


def test_school_battle_deck_at_three_players_names_the_deck_file(engine, tmp_path):
    deck = tmp_path / "school.yaml"
    deck.write_text("game: adapt\nname: School box\ncards: all\nvariants: [school-battle]\n")
    with pytest.raises(ContentError) as err:
        engine.setups([load_deck(deck)], players=3)
    (issue,) = err.value.issues
    assert issue.file == deck and issue.field == "variants" and issue.line == 4
    assert "school-battle" in issue.message and "4 or 6" in issue.message


def test_variants_the_engine_cannot_combine_are_content_errors(engine, tmp_path):
    with pytest.raises(ContentError) as err:
        engine.setups(variants=("school-battle", "multi-auto-adapt"))
    assert err.value.issues[0].field == "--variant" and "school-battle" in str(err.value)
    deck = tmp_path / "kingfish.yaml"
    deck.write_text("game: adapt\nname: Kingfish box\nvariants: [kingfish]\ncards: all\n")
    with pytest.raises(ContentError) as err:
        engine.setups([load_deck(deck)])
    (issue,) = err.value.issues
    assert issue.file == deck and issue.field == "variants[1]" and "kingfish" in issue.message


@pytest.mark.parametrize("players,slots,exp,wipe", [(2, 3, 3, 3), (3, 4, 4, 4), (4, 5, 5, 4),
                                                    (6, 7, 5, 4)])
def test_table_numbers_by_player_count(engine, players, slots, exp, wipe):
    state = engine.initial_state(engine._setup("box", None, [], players), random.Random(2))
    obs = engine.observe(state)
    assert (obs["slots"], obs["exp_per_turn"], obs["wipe_bonus"]) == (slots, exp, wipe)
    assert state.cfg.total == 58 * (2 if players >= 4 else 1)


def test_opening_random_selection_and_first_player(engine):
    setup = Setup("box", ["A", "B", "C"], {"players": 3})
    for seed in range(20):
        state = engine.initial_state(setup, random.Random(seed))
        if state.phase == P_ACTION:
            rolls = state.rolls
            assert engine.first_player(state) == rolls.index(max(rolls)) == state.turn
            order = sorted(range(3), key=lambda p: -rolls[p])
            assert [s[0] for s in state.rslog] == order
            # each applies the roll that set the order: no second roll
            assert [s[1] for s in state.rslog] == [rolls[p] for p in order]


def test_tied_opening_rolls_are_rolled_again(engine):
    state = scenario(engine, players=2, phase="setup", dice=[50, 50, 20, 70],
                     stream=["Sail Fin", "Needle Teeth", "Fan Tail"])
    assert state.rolls == [20, 70] and state.first == 1
    assert [(s[0], s[1]) for s in state.rslog] == [(1, 70), (0, 20)]


# --- rules ---------------------------------------------------------------------------------------


def test_buying_a_body_no_higher_than_your_gene_pool(engine):
    # A Level 2 Body in the PGP stops buying another Level 2 Body ...
    state = scenario(engine, fish=[{"body": "Clownfish", "pgp": ["Pufferfish"], "exp": 12},
                                   {"body": "Clownfish"}],
                     stream=["Triggerfish", "Sail Fin", "Lionfish"])
    legal = engine.legal_actions(state)
    assert ("buy", 1) not in legal and ("buy", 3) in legal
    # ... unless every other Fish already has a Body of at least that Level.
    state = scenario(engine, fish=[{"body": "Clownfish", "pgp": ["Pufferfish"], "exp": 10},
                                   {"body": "Archerfish"}],
                     stream=["Triggerfish", "Sail Fin", "Lionfish"])
    assert ("buy", 1) in engine.legal_actions(state)


def test_wipe_allowed_when_the_rival_already_holds_that_body(engine):
    state = scenario(engine, fish=[{"body": "Triggerfish"}, {"body": "Clownfish",
                                                             "pgp": ["Archerfish"]}],
                     stream=["Sail Fin", "Triggerfish", "Fan Tail"])
    assert ("wipe",) in engine.legal_actions(state)


def test_random_selection_leaves_a_lower_body_and_discards_a_fourth_card(engine):
    state = scenario(engine, fish=[{"body": "Triggerfish", "exp": 0, "stunned": True},
                                   {"body": "Clownfish"}],
                     stream=["Clownfish", "Sail Fin", "Fan Tail"], dice=[30])
    # Stunned with nothing it can afford: it may Adapt by Random Selection or let the Turn go.
    # A Level 1 Body stays in the stream.
    assert engine.legal_actions(state) == [("random",), ("pass",)]
    engine.apply(state, ("random",))
    assert state.rslog[-1][4] == "left"
    state = scenario(engine, fish=[{"pgp": ["Glide Wings", "Crested Sail", "Leaping Tail"],
                                    "exp": 0}, {}],
                     stream=["Spiral Tusk", "Clownfish", "Fan Tail"], dice=[30])
    engine.apply(state, ("random",))
    assert state.rslog[-1][4] == "discarded" and len(state.fish[0].pgp) == 3
    assert engine.observe(state)["discard"] >= 1
    assert not engine.invariants(state)


def test_a_fish_that_cannot_act_may_let_the_turn_go(engine):
    # Stunned, with nothing to Buy or Adapt: Random Selection is a choice, not a must. Letting
    # the Turn go is neither an Attack nor a Wipe, so School may still strike; a Random
    # Selection ends the Turn, School and all.
    def stunned():
        return scenario(engine, fish=[{"body": "Triggerfish", "parts": ["Escort School"], "exp": 0,
                                       "stunned": True}, {"body": "Clownfish"}],
                        stream=["Clownfish", "Sail Fin", "Fan Tail"], dice=[10])
    state = stunned()
    assert engine.legal_actions(state) == [("random",), ("pass",)]
    engine.apply(state, ("pass",))
    assert state.phase == P_SCHOOL and not state.rslog
    engine.apply(state, ("school", 1))
    assert state.turn == 1 and state.fish[1].dmg == 1
    state = stunned()
    engine.apply(state, ("random",))
    assert state.turn == 1 and state.rslog[-1][2] == "exp"
    # In the air, Random Selection is not allowed at all.
    state = scenario(engine, fish=[{"body": "Triggerfish", "exp": 0, "jumping": 2}, {}],
                     stream=["Clownfish", "Sail Fin", "Fan Tail"])
    assert engine.legal_actions(state) == [("pass",)]


def test_guppy_needs_ferocity_2_to_attack(engine):
    state = scenario(engine, fish=[{"parts": ["Fan Tail"]}, {}])
    assert ("attack", 1) not in engine.legal_actions(state)
    state = scenario(engine, fish=[{"parts": ["Fan Tail", "Snapping Jaw"]}, {}], dice=[2])
    assert ("attack", 1) in engine.legal_actions(state)
    engine.apply(state, ("attack", 1))
    last = engine.observe(state)["last_attack"]
    assert last["roll"] == 2 and last["total"] == 4 and last["result"] == "hit"


def test_shock_both_ways_and_immunity(engine):
    # Electric Catfish (Shock 1) hits a Torpedo Ray (Shock 2): each is Immune to Shock.
    state = scenario(engine, fish=[{"body": "Electric Catfish"}, {"body": "Torpedo Ray"}],
                     dice=[8])
    engine.apply(state, ("attack", 1))
    assert fish(engine, state, 0)["damage"] == 0
    # Moray Eel hits a Torpedo Ray: it takes the Ray's 2 Shock.
    state = scenario(engine, fish=[{"body": "Moray Eel"}, {"body": "Torpedo Ray"}], dice=[10])
    engine.apply(state, ("attack", 1))
    assert fish(engine, state, 0)["damage"] == 2
    assert fish(engine, state, 1)["damage"] == (14 - 10) + 2
    assert engine.observe(state)["last_attack"]["counter"] == 2


def test_counter_poison_and_resist_and_immune(engine):
    state = scenario(engine, fish=[{"body": "Moray Eel"}, {"body": "Pufferfish"}], dice=[9, 1])
    engine.apply(state, ("attack", 1))
    assert state.fish[0].poison == 1
    # Slime Coat resists 1 Poison Damage a Turn.
    state = scenario(engine, start=True, fish=[{"body": "Clownfish", "parts": ["Slime Coat"],
                                                "poison": 2}, {}])
    assert state.fish[0].dmg == 1
    # Healing Heart (Immune: Poison) cures the Poison when Adapted.
    state = scenario(engine, fish=[{"body": "Lionfish", "poison": 2, "pgp": ["Healing Heart"]},
                                   {}])
    engine.apply(state, ("adapt", "Healing Heart"))
    assert state.fish[0].poison == 0 and state.fish[0].s.imm & IM_POISON


def test_regeneration_and_poison_can_defeat_at_turn_start(engine):
    state = scenario(engine, players=3, turn=0, start=True,
                     fish=[{"body": "Clownfish", "damage": 6, "poison": 2}, {}, {}])
    assert not state.fish[0].alive and state.turn == 1 and not state.over
    assert not engine.invariants(state)


def test_sneaky_gains_on_a_miss(engine):
    state = scenario(engine, fish=[{"body": "Sergeant Major"}, {"body": "Clownfish", "exp": 3}],
                     dice=[1])
    engine.apply(state, ("attack", 1))
    # missed by 1: attacker +1; Clownfish +1 (Sneaky) and +3 for its Turn
    assert fish(engine, state, 1)["exp"] == 3 + 1 + 3
    assert fish(engine, state, 0)["exp"] == 2


def test_electroreception_against_a_lower_body(engine):
    state = scenario(engine, fish=[{"body": "Hammerhead Shark"}, {"body": "Giant Grouper"}],
                     dice=[6])
    engine.apply(state, ("attack", 1))
    assert engine.observe(state)["last_attack"]["total"] == 11   # Level 5 target: no bonus
    state = scenario(engine, fish=[{"body": "Hammerhead Shark"}, {"body": "Lionfish"}], dice=[6])
    engine.apply(state, ("attack", 1))
    assert engine.observe(state)["last_attack"]["total"] == 13


def test_cooldowns_of_the_cards_that_give_an_action_add_up(engine):
    # Swordfish (Ram 2, Cooldown 2) with a Bone Lance (Ram 3, Cooldown 3): 5; the Lance covered
    # by a Spiral Tusk (Cooldown 2): 4; by a Sword Bill (no Ram): the Body's 2 alone.
    ram = CONSTANTS.SA_RAM
    state = scenario(engine, fish=[{"body": "Swordfish", "parts": ["Bone Lance"],
                                    "pgp": ["Spiral Tusk", "Sword Bill"], "exp": 0}, {}])
    assert state.fish[0].s.cd[ram] == 5
    engine.apply(state, ("adapt", "Spiral Tusk"))
    assert state.fish[0].s.cd[ram] == 4
    while state.turn != 0:
        engine.apply(state, engine.legal_actions(state)[-1])
    engine.apply(state, ("adapt", "Sword Bill"))
    assert state.fish[0].s.cd[ram] == 2 and state.fish[0].s.ram == 2


def test_jump_penalty_landing_bonus_and_cooldown(engine):
    state = scenario(engine, fish=[{"body": "Flying Fish", "parts": ["Wing Fins"], "exp": 2},
                                   {"body": "Clownfish", "exp": 0}],
                     stream=["Swim Bladder", "Needle Teeth", "Fan Tail"])
    assert ("jump", 2) in engine.legal_actions(state) and ("jump", 3) not in engine.legal_actions(
        state)
    engine.apply(state, ("jump", 2))
    # Rival's Turn: it cannot Attack the airborne Fish.
    assert ("attack", 0) not in engine.legal_actions(state)
    while state.turn != 0:
        engine.apply(state, engine.legal_actions(state)[0])
    f = state.fish[0]
    assert f.jump == 1 and state.exp[0] == 2 + 2       # 3 for the Turn, 1 less in the air
    assert set(a[0] for a in engine.legal_actions(state)) <= {"buy", "adapt", "pass"}
    engine.apply(state, engine.legal_actions(state)[-1])
    while state.turn != 0:
        engine.apply(state, engine.legal_actions(state)[0])
    f = state.fish[0]
    assert f.jump == 0 and f.splash and f.cd[3] == 3
    assert not any(a[0] == "jump" for a in engine.legal_actions(state))


def test_school_not_on_the_turn_it_is_adapted(engine):
    state = scenario(engine, fish=[{"body": "Lionfish", "pgp": ["Escort School"]}, {}])
    engine.apply(state, ("adapt", "Escort School"))
    assert state.turn == 1 and state.phase != P_SCHOOL


def test_school_not_after_an_attack_or_wipe(engine):
    state = scenario(engine, fish=[{"body": "Lionfish", "parts": ["Escort School"]},
                                   {"body": "Clownfish"}], dice=[1])
    engine.apply(state, ("attack", 1))
    assert state.turn == 1


def test_hide_costs_body_level_and_allows_a_buy(engine):
    state = scenario(engine, fish=[{"body": "Moray Eel", "exp": 5}, {}],
                     stream=["Sail Fin", "Needle Teeth", "Fan Tail"])
    engine.apply(state, ("hide",))
    assert state.exp[0] == 2 and state.fish[0].hide == 1
    legal = engine.legal_actions(state)
    assert ("end",) in legal and ("buy", 1) in legal and ("attack", 1) not in legal
    engine.apply(state, ("buy", 1))
    assert state.turn == 1 and state.fish[0].hide == 1


def test_baited_fish_free_when_it_cannot_attack(engine):
    state = scenario(engine, fish=[{"body": "Clownfish"}, {"exp": 5, "baited_by": 0}], turn=1)
    legal = engine.legal_actions(state)
    assert ("attack", 0) not in legal and legal     # a Guppy without Ferocity acts freely
    state = scenario(engine, fish=[{"body": "Clownfish"}, {"body": "Moray Eel", "exp": 5,
                                                           "baited_by": 0}], turn=1)
    assert engine.legal_actions(state) == [("attack", 0)]


def test_auto_adapt_from_pgp_is_free_and_happens_once(engine):
    state = scenario(engine, start=True, fish=[{"body": "Clownfish", "pgp": ["Archerfish"],
                                                "exp": 17}, {}])
    f = fish(engine, state, 0)
    assert f["body"] == "Archerfish" and f["exp"] == 20 and f["auto_adapted"] == 1
    state = scenario(engine, start=True, fish=[{"body": "Clownfish", "exp": 17,
                                                "auto_adapted": 1}, {}])
    assert fish(engine, state, 0)["body"] == "Clownfish"


def test_auto_adapt_cycles_the_deck(engine):
    state = scenario(engine, start=True,
                     fish=[{"body": "Clownfish", "exp": 17}, {"body": "Clownfish"}],
                     stream=["Sail Fin", "Fan Tail", "Needle Teeth"],
                     deck=["Swim Bladder", "Slime Coat", "Archerfish", "Lionfish"])
    f = fish(engine, state, 0)
    assert f["body"] == "Archerfish" and f["exp"] == 12
    assert engine.observe(state)["discard"] == 3      # three cards expired during the search
    assert not engine.invariants(state)


def test_multi_auto_adapt_lowers_experience(engine):
    state = scenario(engine, start=True, variants=["multi-auto-adapt"],
                     fish=[{"body": "Triggerfish", "pgp": ["Lionfish"], "exp": 17,
                            "auto_adapted": 1}, {}])
    f = fish(engine, state, 0)
    assert f["body"] == "Lionfish" and f["auto_adapted"] == 2
    # each Auto-Adapt beyond the first costs 1 Experience a Turn from then on
    state = scenario(engine, start=True, variants=["multi-auto-adapt"],
                     fish=[{"body": "Lionfish", "exp": 0, "auto_adapted": 2}, {}])
    assert fish(engine, state, 0)["exp"] == 2


def test_eliminated_fish_are_skipped_and_tables_stay(engine):
    state = scenario(engine, players=3, fish=[{"body": "Moray Eel"}, {"body": "Clownfish",
                                                                      "damage": 7}, {}],
                     dice=[6])
    engine.apply(state, ("attack", 1))
    assert not state.fish[1].alive and state.turn == 2 and not state.over
    assert len(state.stream) == 4 and state.cfg.turn_exp == 4


def test_school_battle_shares_experience_and_wins_as_a_team(engine):
    state = scenario(engine, players=4, variants=["school-battle"],
                     fish=[{"body": "Moray Eel", "exp": 10}, {"body": "Clownfish"},
                           {"body": "Clownfish"}, {"body": "Clownfish", "damage": 7}])
    # seats 0 and 2 form one School, 1 and 3 the other; no Attack on a teammate
    legal = engine.legal_actions(state)
    assert ("attack", 2) not in legal and ("attack", 1) in legal and ("attack", 3) in legal
    assert fish(engine, state, 2)["exp"] == 10
    state = scenario(engine, players=4, variants=["school-battle"],
                     fish=[{"body": "Moray Eel"}, {"body": "Clownfish", "damage": 7},
                           {"body": "Clownfish"}, {"alive": False}], dice=[6])
    engine.apply(state, ("attack", 1))
    assert state.over and engine.winner(state) == 0


def test_school_battle_random_selection_at_30(engine):
    state = scenario(engine, players=4, variants=["school-battle"], start=True,
                     fish=[{"body": "Clownfish", "exp": 27}, {}, {}, {}],
                     stream=["Sail Fin", "Needle Teeth", "Fan Tail", "Swim Bladder", "Slime Coat"],
                     dice=[40])
    obs = engine.observe(state)
    assert obs["selections"][-1]["fish"] == 0 and obs["selections"][-1]["card"] == "Needle Teeth"
    assert obs["fish"][0]["auto_adapted"] == 0 and obs["phase"] == "action"


def settled_sea(engine, variants=()):
    # Two Guppies that cannot Attack, PGPs full of cards they can never Adapt, and a deck of cards
    # neither can use: nothing can ever change.
    useless = ["Great White Shark", "Giant Grouper", "Goliath Tigerfish", "Sword Bill",
               "Plated Hide", "Dread Aura", "Shock Flanks", "Crescent Tail", "Healing Heart"]
    return scenario(engine, variants=list(variants),
                    fish=[{"pgp": ["Torpedo Ray", "Swordfish", "Hammerhead Shark"], "exp": 0},
                          {"pgp": ["Lionfish", "Moray Eel", "Barracuda"], "exp": 0}],
                    stream=useless[:3], deck=useless[3:], discard=[])


def poison_against_regeneration(engine, variants=()):
    # A Giant Grouper takes 1 Poison Damage and Regenerates it every Turn while both Fish only
    # Wipe a stream of parts.
    parts = ["Sail Fin", "Needle Teeth", "Fan Tail", "Swim Bladder", "Slime Coat", "Scale Mail",
             "Spiny Dorsal", "Snapping Jaw", "Flick Tail"]
    return scenario(engine, variants=list(variants),
                    fish=[{"body": "Giant Grouper", "damage": 1, "poison": 1, "exp": 0},
                          {"pgp": ["Torpedo Ray", "Swordfish", "Hammerhead Shark"], "exp": 0}],
                    stream=parts[:3], deck=parts[3:], discard=[])


def play_quietly(engine, state, limit):
    """Wipe whenever that is legal, else the last legal action; the actions taken (at most
    `limit`), with the invariants checked after each."""
    steps = 0
    while not engine.is_over(state) and steps < limit:
        legal = engine.legal_actions(state)
        assert legal
        engine.apply(state, ("wipe",) if ("wipe",) in legal else legal[-1])
        assert not engine.invariants(state)
        steps += 1
    return steps


@pytest.mark.parametrize("position", [settled_sea, poison_against_regeneration])
def test_a_settled_sea_goes_on_under_the_published_rules(engine, position):
    # The published rules end a game only when one Fish (or none) is left: a sea where nothing
    # can change does not end, and the simulator reports it at its action cap.
    state = position(engine)
    assert play_quietly(engine, state, 3000) == 3000
    assert not engine.is_over(state) and all(f.alive for f in state.fish)


def test_the_stalemate_variant_ends_a_settled_sea_in_a_tie(engine):
    state = settled_sea(engine, ["stalemate"])
    assert play_quietly(engine, state, 500) < 500
    assert engine.is_over(state) and engine.winner(state) is None
    assert state.quiet > engine.stalemate * 2


def test_under_the_stalemate_variant_damage_healed_as_fast_as_it_comes_settles_the_sea_too(engine):
    # Each of the Grouper's Poison hits must not unsettle the sea again: only Damage above the
    # most the Fish has had counts.
    state = poison_against_regeneration(engine, ["stalemate"])
    assert play_quietly(engine, state, 1000) < 1000
    assert engine.winner(state) is None and state.fish[0].poison == 1 and state.fish[0].alive


# --- replay outcomes (describe_outcome) ----------------------------------------------------------------


def outcome(engine, state, action):
    before = engine.clone(state)
    engine.apply(state, action)
    return engine.describe_outcome(before, state, action).split("\n")


def test_outcome_of_a_hit_with_shock_back(engine):
    # Moray Eel (Ferocity 4, Lethality 2) rolls 10 on its d10 against a Torpedo Ray (Survival 10,
    # Health 16, Shock 2): 14 beats 10 by 4, +2 Lethality; the Ray's Shock zaps the Eel for 2.
    state = scenario(engine, fish=[{"body": "Moray Eel"}, {"body": "Torpedo Ray"}], dice=[10])
    assert outcome(engine, state, ("attack", 1)) == [
        "d10 rolled 10 + 4 Ferocity = 14 against Survival 10: hit",
        "Violet takes 6 Damage (now 6 Damage, Health 16)",
        "Shock: Amber takes 2 Damage (now 2 Damage, Health 12)"]


def test_outcome_of_a_miss_a_hide_check_and_counter_poison(engine):
    state = scenario(engine, fish=[{"body": "Sergeant Major"}, {"body": "Clownfish"}], dice=[1])
    assert outcome(engine, state, ("attack", 1)) == [
        "d6 rolled 1 + 2 Ferocity = 3 against Survival 4: miss", "Amber gains 1 exp",
        "Violet (Sneaky) gains 1 exp"]
    state = scenario(engine, fish=[{"body": "Sergeant Major"}, {"body": "Clownfish", "hiding": 4}],
                     dice=[3])
    assert outcome(engine, state, ("attack", 1)) == [
        "Hide check: d10 rolled 3, within Violet's Hide 4: no Attack, Amber chooses another Action"]
    # Pufferfish (Survival 6, Counter Poison 2): 13 beats 6 by 7, +2; its d10 rolls 1
    state = scenario(engine, fish=[{"body": "Moray Eel"}, {"body": "Pufferfish"}], dice=[9, 1])
    assert outcome(engine, state, ("attack", 1))[1:] == [
        "Violet takes 9 Damage (now 9 Damage, Health 11)",
        "Counter Poison: Amber is poisoned (Poison 1)"]


def test_outcome_of_the_next_turn_start_regeneration_poison_and_defeat(engine):
    # Giant Grouper (Regeneration 1) with 3 Damage and Poison 1: heals 1, then takes 1
    state = scenario(engine, fish=[{"body": "Moray Eel"}, {"body": "Giant Grouper", "damage": 3,
                                                           "poison": 1}], dice=[1])
    assert outcome(engine, state, ("attack", 1))[2:] == [
        "start of Violet's Turn: Regeneration removes 1 Damage (now 2 Damage, Health 24)",
        "start of Violet's Turn: Poison 1, Violet takes 1 Damage (now 3 Damage, Health 24)"]
    state = scenario(engine, fish=[{"body": "Sergeant Major"},
                                   {"body": "Clownfish", "damage": 6, "poison": 2}])
    assert outcome(engine, state, ("wipe",)) == [
        "start of Violet's Turn: Poison 2, Violet takes 2 Damage and is defeated",
        "Amber wins: the last Fish swimming"]


def test_outcome_of_random_selection_and_auto_adapt(engine):
    def stunned(die):
        return scenario(engine, fish=[{"body": "Triggerfish", "exp": 0, "stunned": True},
                                      {"body": "Clownfish"}],
                        stream=["Clownfish", "Sail Fin", "Fan Tail"], dice=[die])

    assert outcome(engine, stunned(30), ("random",)) == [
        "d100 rolled 30: slot 1, Clownfish, left in the stream (no higher than its own Body)"]
    state = stunned(90)
    assert outcome(engine, state, ("random",)) == ["d100 rolled 90: the card of its choice"]
    assert outcome(engine, state, ("choose", 2)) == ["Sail Fin: Adapted"]
    # a Wipe's 3 exp takes 17 to 20: the Guppy Auto-Adapts the Level 1 Body in its PGP
    state = scenario(engine, fish=[{"exp": 17, "pgp": ["Clownfish"]}, {}])
    assert outcome(engine, state, ("wipe",)) == [
        "Amber reaches 20 exp: Auto-Adapts Clownfish (Level 1) from its PGP"]
    assert fish(engine, state, 0)["body"] == "Clownfish"


def test_a_replay_plays_the_same_match_and_says_what_came_of_the_moves(engine):
    from cardgen.sim.runner import play_match

    setups = variant_setups(engine)
    for seed in range(20):
        log = play_match(engine, setups, seed, ["random"], log=True)
        plain = play_match(engine, setups, seed, ["random"], trajectory=True)
        assert log.result.trajectory == plain.trajectory and log.result.winner == plain.winner
        attacks = [o for _, _, text, o in log.moves if " attacks " in text]
        assert all(o.startswith(("d", "the Guppy die", "Hide check", "Fear check")) for o in attacks)
        assert not log.result.finished or any(
            w in log.moves[-1][3] for w in (" wins", "a draw"))
