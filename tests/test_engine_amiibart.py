"""Amiibart TCG reference engine: determinism, invariants, clones, scenarios and the tricky rules."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from cardgen.engines import load_engine
from cardgen.engines.base import IllegalAction, Setup
from cardgen.model import load_game
from cardgen.sim.bots import GreedyBot, RandomBot
from cardgen.sim.scenarios import run_scenario_file, scenario_files
from tests.conftest import game_code

STATE = game_code("amiibart", "engine", "state")
T_FIGHTER, T_POWER, T_SPELL, T_STAGE = STATE.T_FIGHTER, STATE.T_POWER, STATE.T_SPELL, STATE.T_STAGE
_programs = game_code("amiibart", "engine", "cards")._programs
_target_table = game_code("amiibart", "engine", "legal")._target_table


@pytest.fixture(scope="module")
def game():
    return load_game("amiibart")


@pytest.fixture(scope="module")
def engine(game):
    return load_engine(game)


def position(engine, setup, actions=()):
    state = engine.scenario_state(setup, random.Random(0))
    for spec in actions:
        engine.apply(state, engine.parse_action(state, spec))
    return state, engine.observe(state)


def play(engine, setup, seed, bots=(RandomBot, RandomBot), check=False):
    """A whole match: (state, actions taken)."""
    state = engine.initial_state(setup, random.Random(seed))
    players = [bots[i](engine, random.Random(seed * 31 + i), i) for i in (0, 1)]
    taken = []
    while not engine.is_over(state):
        actions = engine.legal_actions(state)
        assert actions, "a state that is not over has no legal action"
        action = players[engine.current_player(state)].choose(state, actions)
        engine.apply(state, action)
        taken.append(action)
        if check:
            assert engine.invariants(state) == [], (seed, len(taken), action)
        assert len(taken) <= engine.max_actions, f"seed {seed}: no end after {len(taken)} actions"
    return state, taken


def fingerprint(engine, state, taken):
    return hashlib.sha256(repr((taken, engine.observe(state))).encode()).hexdigest()


# -- the card texts --------------------------------------------------------------------------------

def test_every_card_text_is_read(engine):
    assert engine.unsupported_cards() == {}


def test_every_keyword_on_a_card_is_implemented(engine, game):
    for card in game.cards.values():
        for kw in card.get("keywords") or []:
            assert kw in engine.keywords, card.name
        for attack in card.get("attacks") or []:
            for kw in attack.get("keywords") or []:
                assert kw in engine.keywords, card.name


def test_an_unknown_text_is_reported(game):
    import copy

    odd = copy.deepcopy(game)
    odd.cards["Flare Shot"].fields["text"] = "Shuffle your discard pile into the moon."
    engine = load_engine(odd)
    assert set(engine.unsupported_cards()) == {"Flare Shot"}


def test_a_new_card_in_the_same_words_just_works(game):
    import copy

    new = copy.deepcopy(game)
    new.cards["Flare Shot"].fields["text"] = (
        "Deal 100 damage to each opposing Dark fighter. Heal target friendly fighter 200.")
    new.cards["Crypt Lantern"].fields["abilities"] = [
        {"name": "Echo", "text": "When played: summon two Cinder Sprite tokens."}]
    engine = load_engine(new)
    assert engine.unsupported_cards() == {}
    setup = {"A": {"hand": {"Flare Shot": 1, "Crypt Lantern": 1},
                   "slots": {1: {"card": "Rivet Guard", "health": 100}}},
             "B": {"slots": {1: "Gloom Bat", 2: "Cinder Pup"}}}
    _, obs = position(engine, setup, [{"cast": "Flare Shot", "target": "A1"},
                                      {"play": "Crypt Lantern", "slot": 3}])
    assert obs["B"]["slots"][1]["health"] == 200 and obs["B"]["slots"][2]["health"] == 200
    assert obs["A"]["slots"][1]["health"] == 300
    assert [obs["A"]["slots"][i] and obs["A"]["slots"][i]["name"] for i in (2, 4)] == \
        ["Cinder Sprite", "Cinder Sprite"]


# -- whole matches ---------------------------------------------------------------------------------

def test_setups_are_every_pair_of_sample_decks_in_both_seatings(engine, game):
    decks = sorted((game.folder / "decks").glob("*.yaml"))
    setups = engine.setups()
    assert len(setups) == len(decks) * (len(decks) - 1)
    assert all(len(s.options["decks"]) == 2 for s in setups)
    seatings = {tuple(s.seats) for s in setups}
    assert len(seatings) == len(setups) and all(a != b for a, b in seatings)
    assert all((b, a) in seatings for a, b in seatings)     # each deck sits in both seats


def test_same_seed_same_match_even_if_random_is_disturbed(engine):
    setups = engine.setups()
    for seed in (3, 17, 42):
        random.seed(1)
        a = fingerprint(engine, *play(engine, setups[seed % len(setups)], seed))
        random.seed(999)
        random.random()
        b = fingerprint(engine, *play(engine, setups[seed % len(setups)], seed))
        assert a == b
    c = fingerprint(engine, *play(engine, setups[0], 5))
    d = fingerprint(engine, *play(engine, setups[0], 6))
    assert c != d


def test_random_matches_keep_invariants_and_end_consistently(engine):
    setups = engine.setups()
    reasons = Counter()
    firsts = Counter()
    for seed in range(250):
        state, taken = play(engine, setups[seed % len(setups)], seed, check=True)
        obs = engine.observe(state)
        assert obs["over"] and engine.winner(state) in (0, 1)
        assert engine.current_player(state) == -1 and engine.legal_actions(state) == []
        loser = obs["AB"[1 - engine.winner(state)]]
        reasons[obs["reason"]] += 1
        firsts[engine.first_player(state)] += 1
        if obs["reason"] == "death tokens":
            assert loser["death_tokens"] >= 5
        elif obs["reason"] == "stalled":
            assert loser["stall"] >= 3
        elif obs["reason"] == "no cards and no fighters":
            assert loser["hand"] == {} and all(v is None for v in loser["slots"].values())
        else:
            assert obs["reason"] == "no fighters"
    assert reasons["death tokens"] > 100
    assert firsts[0] > 50 and firsts[1] > 50      # the coin flip


def mixed_setup(engine, seed):
    """Two random decks drawn from every card of the set, not only those of the sample decks."""
    ci = engine.ci
    deckable = [c.name for c in ci if c.type in (T_FIGHTER, T_SPELL, T_STAGE)]
    fighters = [c.name for c in ci if c.type == T_FIGHTER]
    powers = [c for c in ci if c.type == T_POWER]
    primary = [c.name for c in powers if engine.game.cards[c.name].get("slot") == "primary"]
    secondary = [c.name for c in powers if engine.game.cards[c.name].get("slot") == "secondary"]
    r = random.Random(seed)
    decks = []
    for _ in (0, 1):
        cards = Counter(r.sample(fighters, 12)) + Counter(r.sample(deckable, 18))
        decks.append({"name": "mix", "cards": dict(cards),
                      "powers": [r.choice(primary), r.choice(secondary)]})
    return Setup("mix", ["a", "b"], {"decks": decks})


def test_random_decks_of_every_card_play_without_conflict(engine):
    used = Counter()
    for seed in range(120):
        state, taken = play(engine, mixed_setup(engine, seed), seed, check=True)
        for a in taken:
            if a[0] in (1, 2, 5):
                used[engine.names[a[1]]] += 1
    assert len(used) > 90



def test_compiled_effects_do_what_the_general_effect_rules_do(engine, game):
    # The commonest one-effect programs run as functions of their own (Program.run): an engine
    # without them must play the same matches, every card of the set in the decks.
    general = load_engine(game)
    for info in general.ci:
        for prog in _programs(info):
            prog.run = None
    compiled = sum(prog.run is not None for info in engine.ci for prog in _programs(info))
    assert compiled >= 30       # (not a vacuous comparison: 37 with the bundled cards)
    for seed in range(80):
        setup = mixed_setup(engine, seed)
        assert fingerprint(engine, *play(engine, setup, seed)) == \
            fingerprint(general, *play(general, setup, seed)), seed


def test_attacks_found_quiet_play_as_through_every_attack_step(engine, game):
    # An attack that nothing in play reacts to (_quiet) skips the queue of attack steps: an engine
    # that queues every attack's steps must play the same matches, every card of the set in the decks.
    general = load_engine(game)
    general._quiet = lambda *args: False
    quiet = 0
    found_quiet = engine._quiet

    def counting(*args):
        nonlocal quiet
        answer = found_quiet(*args)
        quiet += answer
        return answer

    engine._quiet = counting
    try:
        for seed in range(80):
            setup = mixed_setup(engine, seed)
            assert fingerprint(engine, *play(engine, setup, seed)) == \
                fingerprint(general, *play(general, setup, seed)), seed
    finally:
        del engine._quiet
    assert quiet > 500          # (not a vacuous comparison)


def test_compiled_target_lists_are_those_of_the_general_target_rules(engine):
    # Targeted spells and Powers list their targets through a function made for their selector
    # (_target_adder); the general rule (_targeted) must list the same actions in the same order.
    spells = [c for c in range(len(engine.ci)) if engine._targets[c] is not None]
    kinds_compared = set()      # (every kind of adder: each is its own function)
    for seed in range(60):
        state = engine.initial_state(mixed_setup(engine, seed), random.Random(seed))
        bot = RandomBot(engine, random.Random(seed), 0)
        while not engine.is_over(state):
            p = engine.current_player(state)
            pl = state.p[p]
            adders = [(engine._targets[c], (2, c), engine.TS[c]) for c in spells]
            adders += [(add, (3, i), engine.ci[pl.powers[i]].body.tsel)
                       for i, _, _, mode, add in pl.apw if mode == 3]
            for add, head, tsel in adders:
                fast, general = [], []
                add(engine, state, p, fast)
                engine._targeted(state, p, (_target_table(head), tsel), general)
                assert fast == general, (seed, head)
                if general:
                    kinds_compared.add(add.__code__)
            engine.apply(state, bot.choose(state, engine.legal_actions(state)))
    assert len(kinds_compared) == 3


def test_clone_is_independent(engine):
    setups = engine.setups()
    state = engine.initial_state(setups[2], random.Random(8))
    bot = random.Random(4)
    for _ in range(25):
        actions = engine.legal_actions(state)
        engine.apply(state, actions[bot.randrange(len(actions))])
    before = engine.observe(state)
    legal = list(engine.legal_actions(state))
    twin = engine.clone(state)
    for _ in range(15):
        if engine.is_over(twin):
            break
        actions = engine.legal_actions(twin)
        engine.apply(twin, actions[bot.randrange(len(actions))])
    assert engine.observe(state) == before
    assert engine.legal_actions(state) == legal
    # clone + same action = same state, rng included
    for action in legal[:10]:
        a, b = engine.clone(state), engine.clone(state)
        engine.apply(a, action)
        engine.apply(b, action)
        assert engine.observe(a) == engine.observe(b)
        assert a.rng.random() == b.rng.random()


def test_greedy_beats_random(engine):
    setups = engine.setups()
    wins = games = 0
    for seed in range(12):
        for seat in (0, 1):
            bots = (GreedyBot, RandomBot) if seat == 0 else (RandomBot, GreedyBot)
            state, _ = play(engine, setups[seed % len(setups)], seed, bots)
            games += 1
            wins += engine.winner(state) == seat
    assert wins / games >= 0.75


def test_illegal_action_is_refused(engine):
    state = engine.initial_state(engine.setups()[0], random.Random(1))
    with pytest.raises(IllegalAction):
        engine.apply(state, (4, 0, 0, 0))        # nobody attacks on turn one
    with pytest.raises(IllegalAction):
        engine.apply(state, (0,))                 # turn one ends by itself


# -- scenarios -------------------------------------------------------------------------------------

def test_scenarios_pass(engine, game):
    files = scenario_files(game)
    assert len(files) >= 10
    for path in files:
        result = run_scenario_file(engine, path)
        assert result.ok, f"{path.name}: {result.message}"


def test_a_wrong_expectation_fails(engine, game, tmp_path):
    text = (game.folder / "scenarios" / "06-lifesteal-lethal.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("slots: {1: {name: Gloom Bat, health: 100}}",
                                "slots: {1: null}"), encoding="utf-8")
    assert not run_scenario_file(engine, bad).ok


# -- turn structure --------------------------------------------------------------------------------

def test_turn_one_is_three_free_fighters(engine):
    state = engine.initial_state(engine.setups()[0], random.Random(3))
    first = state.cur
    assert all(a[0] == 1 for a in engine.legal_actions(state))
    for _ in range(3):
        while state.pending is not None:
            engine.apply(state, engine.legal_actions(state)[0])
        engine.apply(state, engine.legal_actions(state)[0])
    while state.pending is not None and state.cur == first:
        engine.apply(state, engine.legal_actions(state)[0])
    assert state.cur == 1 - first
    assert sum(f is not None and not f.token for f in state.p[first].slots) == 3
    assert state.p[first].stall == 0


def test_energy_refills_and_two_fighters_a_turn(engine):
    setup = {"turn": "A", "A": {"hand": {"Gloom Bat": 3, "Flare Shot": 1}, "slots": {5: "Rivet Guard"}},
             "B": {"slots": {1: "Rivet Guard"}}}
    state, obs = position(engine, setup, [{"play": "Gloom Bat", "slot": 1},
                                          {"play": "Gloom Bat", "slot": 2}])
    assert obs["A"]["energy"] == 8
    assert not [a for a in engine.legal_actions(state) if a[0] == 1]
    engine.apply(state, (0,))
    engine.apply(state, (0,))
    assert engine.observe(state)["A"]["energy"] == 10
    assert [a for a in engine.legal_actions(state) if a[0] == 1]


def test_one_copy_of_a_hazard(engine):
    setup = {"A": {"hand": {"Caltrops": 2, "Ember Snare": 1}, "hazards": ["Caltrops"],
                   "slots": {1: "Cinder Pup"}}, "B": {"slots": {1: "Rivet Guard"}}}
    state, _ = position(engine, setup)
    legal = engine.legal_actions(state)
    assert engine.parse_action(state, {"cast": "Caltrops"}) not in legal
    assert engine.parse_action(state, {"cast": "Ember Snare"}) in legal


def test_a_new_stage_discards_the_old(engine):
    setup = {"A": {"hand": {"Server Farm": 1}, "stage": "Iron Bastion", "slots": {1: "Rivet Guard"}},
             "B": {"slots": {1: "Rivet Guard"}}}
    _, obs = position(engine, setup, [{"stage": "Server Farm"}])
    assert obs["A"]["stage"] == "Server Farm" and obs["A"]["discard"] == ["Iron Bastion"]
    assert obs["A"]["energy"] == 7


def test_active_power_once_a_turn_and_attack_once(engine):
    setup = {"A": {"powers": ["Kindling", "Heat Wave"], "slots": {1: "Pyre Drake"}},
             "B": {"slots": {1: "Mossback Tortoise"}}}
    state, obs = position(engine, setup, [{"power": "Kindling", "target": "B1"},
                                          {"attack": "A1", "target": "B1"}])
    assert obs["B"]["slots"][1]["health"] == 700 - 100 - 400
    legal = engine.legal_actions(state)
    assert not [a for a in legal if a[0] in (3, 4)]



def test_each_active_power_once_a_turn_both_in_one_turn(engine):
    # The limit is once per turn for each Active Power: with two Active Powers both may be used,
    # neither twice, and both are ready again on the player's next turn.
    setup = {"A": {"powers": ["Cheap Shot", "Night Veil"], "slots": {1: "Alley Cutpurse"}},
             "B": {"slots": {1: {"card": "Mossback Tortoise", "health": 600}}}}
    state, obs = position(engine, setup, [{"power": "Cheap Shot", "target": "B1"}])
    assert obs["A"]["powers_used"] == ["Cheap Shot"] and obs["B"]["slots"][1]["health"] == 400
    powers = {a for a in engine.legal_actions(state) if a[0] == 3}
    assert powers == {engine.parse_action(state, {"power": "Night Veil", "target": "A1"})}
    engine.apply(state, engine.parse_action(state, {"power": "Night Veil", "target": "A1"}))
    assert engine.observe(state)["A"]["powers_used"] == ["Cheap Shot", "Night Veil"]
    assert not [a for a in engine.legal_actions(state) if a[0] == 3]
    engine.apply(state, (0,))
    engine.apply(state, (0,))
    obs = engine.observe(state)
    assert obs["turn"] == "A" and obs["A"]["powers_used"] == []
    assert {a[1] for a in engine.legal_actions(state) if a[0] == 3} == {0, 1}


def test_power_used_in_a_scenario_names_the_powers(engine):
    setup = {"A": {"powers": ["Cheap Shot", "Night Veil"], "power_used": ["Night Veil"],
                   "slots": {1: "Alley Cutpurse"}},
             "B": {"slots": {1: {"card": "Mossback Tortoise", "health": 600}}}}
    state, obs = position(engine, setup)
    assert obs["A"]["powers_used"] == ["Night Veil"]
    assert {a[1] for a in engine.legal_actions(state) if a[0] == 3} == {0}
    setup["A"]["power_used"] = True
    state, obs = position(engine, setup)
    assert obs["A"]["powers_used"] == ["Cheap Shot", "Night Veil"]
    assert not [a for a in engine.legal_actions(state) if a[0] == 3]


# -- house variants (off unless asked for) ---------------------------------------------------------

def test_healing_stops_at_printed_health_unless_raised_health_cap(engine):
    setup = {"A": {"hand": {"Power-Up": 1, "Gentle Light": 1},
                   "slots": {1: {"card": "Dawn Squire", "health": 100}}},
             "B": {"slots": {1: "Gloom Bat"}}}
    actions = [{"cast": "Power-Up", "target": "A1"}, {"cast": "Gentle Light", "target": "A1"}]
    state, obs = position(engine, setup, actions)
    squire = obs["A"]["slots"][1]
    assert (squire["health"], squire["max_health"]) == (400, 400)     # 100 + 200, healed up to 400
    assert engine.invariants(state) == []
    # +Health may take it past its printed Health; healing then adds nothing
    setup["A"]["slots"] = {1: {"card": "Dawn Squire", "health": 350}}
    state, obs = position(engine, setup, actions)
    assert obs["A"]["slots"][1]["health"] == 550 and engine.invariants(state) == []
    state.p[0].slots[0].hp = 601     # more than printed (400) + gained (200): the invariant sees it
    assert engine.invariants(state)
    setup["variants"] = ["raised-health-cap"]
    setup["A"]["slots"] = {1: {"card": "Dawn Squire", "health": 100}}
    state, obs = position(engine, setup, actions)
    squire = obs["A"]["slots"][1]
    assert (squire["health"], squire["max_health"]) == (600, 600)
    assert engine.invariants(state) == []



def test_rulings_cite_the_rulebook_and_the_engine_plays_the_declared_variants(engine, game):
    assert game.rulings and all(r.cites for r in game.rulings)
    assert "rulings" not in game.tables
    assert all(v.source == "house" and v.cites for v in game.variants.values())
    assert set(engine.variants) == {v.id for v in game.variants.values() if v.played}
    assert set(engine.variants) == set(STATE.VARIANT_BITS)

def test_update_in_place_variant(engine):
    setup = {"A": {"slots": {2: "Dawn Squire", 3: "Patchbot"}}, "B": {"slots": {1: "Gloom Bat"}}}
    attack = [{"attack": "A3", "with": "Full Rebuild"}]
    _, obs = position(engine, setup, attack)
    assert obs["A"]["slots"][1]["name"] == "Mecha Colossus" and obs["A"]["slots"][3] is None
    setup["variants"] = ["update-in-place"]
    _, obs = position(engine, setup, attack)
    assert obs["A"]["slots"][1] is None and obs["A"]["slots"][3]["name"] == "Mecha Colossus"


def test_variants_reach_the_matches_and_unknown_ones_are_refused(engine):
    from cardgen.errors import ContentError

    plain = engine.setups()
    assert all(s.options["variants"] == 0 for s in plain)
    both = engine.setups(variants=("raised-health-cap", "update-in-place"))
    assert all(s.options["variants"] == 3 for s in both)
    state = engine.initial_state(both[0], random.Random(1))
    assert state.p[0].vr == state.p[1].vr == 3
    assert engine.initial_state(plain[0], random.Random(1)).p[0].vr == 0
    with pytest.raises(ContentError):
        engine.setups(variants=("no-such-variant",))
    with pytest.raises(ContentError):
        position(engine, {"variants": ["no-such-variant"], "A": {"slots": {1: "Gloom Bat"}}})

def test_both_players_losing_at_once_loses_the_turn_player(engine):
    setup = {"turn": "A", "A": {"death_tokens": 4, "slots": {1: "Cinder Pup", 2: "Rivet Guard"}},
             "B": {"death_tokens": 4, "slots": {1: "Cinder Pup"}}}
    _, obs = position(engine, setup, [{"attack": "A1", "target": "B1"}])
    assert obs["over"] and obs["winner"] == "B"


def test_no_fighter_loss_spared_by_playing_one(engine):
    setup = {"turn": "A", "A": {"hand": {"Cinder Pup": 1}, "empty_start": True},
             "B": {"slots": {1: "Rivet Guard"}}}
    _, obs = position(engine, setup, [{"play": "Cinder Pup", "slot": 1}, "end"])
    assert not obs["over"] and obs["turn"] == "B"


# -- cards and keywords ----------------------------------------------------------------------------

def test_tempered_steel_applies_two_forge_options(engine):
    setup = {"A": {"powers": ["Kindling", "Tempered Steel"], "hand": {"Tin Sword Sprite": 1}},
             "B": {"slots": {1: "Rivet Guard"}}}
    state, obs = position(engine, setup, [{"play": "Tin Sword Sprite", "slot": 1}])
    assert obs["pending"]["options"] == ["forge 1", "forge 2"]
    engine.apply(state, engine.parse_action(state, {"choose": "forge 2"}))
    obs = engine.observe(state)
    assert obs["pending"] is None
    assert obs["A"]["slots"][1]["attack"] == 300 and obs["A"]["slots"][1]["keywords"] == ["Block"]


def test_bind_strips_abilities_and_keywords(engine):
    setup = {"A": {"hand": {"Vine Shackles": 1}, "slots": {1: "Cinder Pup"}},
             "B": {"slots": {1: "Ancient Grovekeeper", 2: {"card": "Tidepool Crab", "health": 100}}}}
    state, obs = position(engine, setup, [{"cast": "Vine Shackles", "target": "B1"}])
    keeper = obs["B"]["slots"][1]
    assert (keeper["attack"], keeper["health"], keeper["max_health"], keeper["keywords"],
            keeper["bound"]) == (100, 200, 200, [], True)
    engine.apply(state, (0,))         # Deep Roots would heal the Crab at the start of B's turn
    assert engine.observe(state)["B"]["slots"][2]["health"] == 100


def test_update_into_a_token(engine):
    setup = {"A": {"slots": {2: "Patchbot"}}, "B": {"slots": {1: "Rivet Guard"}}}
    state, obs = position(engine, setup, [{"attack": "A2", "with": "Full Rebuild"}])
    colossus = obs["A"]["slots"][1]         # a summoned token: the left-most empty slot
    assert colossus["name"] == "Mecha Colossus" and colossus["token"] and colossus["fresh"]
    assert obs["A"]["slots"][2] is None
    assert obs["A"]["discard"] == ["Patchbot"] and obs["A"]["death_tokens"] == 0
    assert not [a for a in engine.legal_actions(state) if a[0] == 4]


def test_void_cards_stay_out_of_the_discard(engine):
    setup = {"A": {"hand": {"Insert Coin": 1, "Star Sage": 1}, "discard": ["Flare Shot"],
                   "slots": {1: "Cinder Pup"}},
             "B": {"slots": {1: "Rivet Guard"}}}
    state, obs = position(engine, setup, [{"cast": "Insert Coin"}])
    assert obs["A"]["energy"] == 12 and obs["A"]["void"] == ["Insert Coin"]
    assert obs["A"]["discard"] == ["Flare Shot"]
    _, obs = position(engine, setup, [{"cast": "Insert Coin"}, {"play": "Star Sage", "slot": 2}])
    assert obs["A"]["hand"] == {"Flare Shot": 1}          # only the one that is not Void


def test_grab_returns_a_fighter_to_its_owners_hand(engine):
    setup = {"A": {"hand": {"Claw Machine Gremlin": 1}, "slots": {1: "Cinder Pup"}},
             "B": {"slots": {1: {"card": "Ironhide Rhino", "health": 300}, 2: "Mossback Tortoise"}}}
    _, obs = position(engine, setup, [{"play": "Claw Machine Gremlin", "slot": 2}])
    assert obs["B"]["slots"][1] is None and obs["B"]["hand"] == {"Ironhide Rhino": 1}
    assert obs["B"]["death_tokens"] == 0


def test_withering_curse_waits_for_the_opponents_turn(engine):
    # B's own turn: A's Soul Harvest heals A's fighters; B's curse stays in play.
    setup = {"turn": "B",
             "A": {"powers": ["Soul Harvest", "Night Veil"],
                   "slots": {1: {"card": "Gloom Bat", "health": 100}, 2: "Ironhide Rhino"}},
             "B": {"hazards": ["Withering Curse"], "slots": {1: {"card": "Cinder Pup", "health": 100}}}}
    _, obs = position(engine, setup, [{"attack": "B1", "target": "A2"}])
    assert obs["B"]["slots"][1] is None
    assert obs["A"]["slots"][1]["health"] == 200 and obs["B"]["hazards"] == ["Withering Curse"]


def test_withering_curse_hits_only_the_first_heal(engine):
    setup = {"A": {"hand": {"Rainfall Renewal": 1},
                   "slots": {1: {"card": "Tidepool Crab", "health": 300},
                             2: {"card": "Tidepool Crab", "health": 300}}},
             "B": {"hazards": ["Withering Curse"], "slots": {1: "Rivet Guard"}}}
    _, obs = position(engine, setup, [{"cast": "Rainfall Renewal"}])
    assert obs["A"]["slots"][1]["health"] == 100 and obs["A"]["slots"][2]["health"] == 500


def test_poison_ticks_each_owners_turn(engine):
    setup = {"A": {"slots": {1: "Venom Fang"}}, "B": {"slots": {1: "Mossback Tortoise"}}}
    state, obs = position(engine, setup, [{"attack": "A1", "with": "Poisoned Edge", "target": "B1"}])
    assert obs["B"]["slots"][1]["health"] == 600 and obs["B"]["slots"][1]["poison"] == 100
    engine.apply(state, (0,))
    assert engine.observe(state)["B"]["slots"][1]["health"] == 500


def test_overheat_burns_at_the_end_of_the_turn(engine):
    setup = {"A": {"hand": {"Overheat": 1}, "slots": {1: "Kiln Golem"}},
             "B": {"slots": {1: "Mossback Tortoise"}}}
    state, obs = position(engine, setup, [{"cast": "Overheat", "target": "A1"}])
    assert obs["A"]["slots"][1]["attack"] == 600 and "Swift" in obs["A"]["slots"][1]["keywords"]
    engine.apply(state, (0,))
    golem = engine.observe(state)["A"]["slots"][1]
    assert golem["health"] == 400 and golem["attack"] == 300


def test_sacred_ward_until_the_next_turn(engine):
    setup = {"A": {"hand": {"Sacred Ward": 1}, "slots": {1: "Dawn Squire"}},
             "B": {"slots": {1: "Pyre Drake"}}}
    state, _ = position(engine, setup, [{"cast": "Sacred Ward", "target": "A1"}, "end",
                                        {"attack": "B1", "target": "A1"}])
    obs = engine.observe(state)
    assert obs["A"]["slots"][1]["health"] == 400 and obs["B"]["slots"][1]["health"] == 400
    engine.apply(state, (0,))
    assert not engine.observe(state)["A"]["slots"][1]["ward"]


def test_spiked_barricade_and_tangled_strings(engine):
    setup = {"A": {"slots": {1: "Pyre Drake", 2: "Cinder Pup"}},
             "B": {"hazards": ["Spiked Barricade"], "slots": {1: "Hollow Marionette", 2: "Dawn Squire"}}}
    _, obs = position(engine, setup, [{"attack": "A1", "target": "B2"}])
    assert obs["A"]["slots"][1]["health"] == 600 - 200 - 300      # Squire back, then the Barricade
    assert obs["B"]["hazards"] == []
    setup["B"]["slots"] = {1: "Hollow Marionette"}
    state, obs = position(engine, setup, [{"attack": "A1", "target": "B1"}])
    assert obs["B"]["hazards"] == ["Spiked Barricade"]              # no Block: not triggered
    for _ in range(2):
        engine.apply(state, (0,))
    obs = engine.observe(state)
    assert obs["turn"] == "A" and obs["A"]["slots"][1]["stunned"]
    assert not [a for a in engine.legal_actions(state) if a[:2] == (4, 0)]
    assert [a for a in engine.legal_actions(state) if a[:2] == (4, 1)]


def test_a_dying_fighter_owner_chooses_its_target(engine):
    setup = {"A": {"slots": {1: "Pyre Drake", 2: "Cinder Pup"}},
             "B": {"slots": {1: "Runebound Familiar", 2: "Ember Juggler"}}}
    state, obs = position(engine, setup, [{"attack": "A1", "target": "B1"}])
    assert obs["pending"] == {"player": "B", "options": ["A1", "A2"]}
    assert engine.current_player(state) == 1
    choice = engine.parse_action(state, {"choose": "A2"})
    triggers = engine.ci[engine.ids["Runebound Familiar"]].trig
    assert engine.describe(state, choice).startswith("B chooses A2 for: ")   # the text asking for it
    assert engine.describe(state, choice).removeprefix("B chooses A2 for: ") in {
        prog.text for progs in triggers.values() for *_, prog in progs}
    engine.apply(state, choice)
    obs = engine.observe(state)
    assert obs["A"]["slots"][2] is None and obs["turn"] == "A" and engine.current_player(state) == 0


def test_spell_discounts_stack_and_stop_at_zero(engine):
    setup = {"A": {"powers": ["Mana Font", "Arcane Mastery"], "hand": {"Gentle Light": 1, "Flare Shot": 1},
                   "slots": {1: "Orb Channeler"}},
             "B": {"slots": {1: "Rivet Guard"}}}
    _, obs = position(engine, setup, [{"power": "Mana Font"},
                                      {"cast": "Gentle Light", "target": "A1"},
                                      {"cast": "Flare Shot", "target": "B1"}])
    assert obs["A"]["energy"] == 10 - 0 - 1


def test_entrench_block_and_moonlit_swift(engine):
    setup = {"A": {"powers": ["Cheap Shot", "Night Veil"], "stage": "Moonlit Rooftops",
                   "hand": {"Alley Cutpurse": 1, "Smokestep Ninja": 1}, "slots": {5: "Rivet Guard"}},
             "B": {"slots": {1: "Rivet Guard", 2: "Cinder Pup"}}}
    state, _ = position(engine, setup, [{"play": "Smokestep Ninja", "slot": 1}])
    assert engine.observe(state)["A"]["slots"][2]["name"] == "Decoy Double"
    legal = engine.legal_actions(state)
    assert engine.parse_action(state, {"attack": "A1", "target": "B1"}) in legal     # Ninja is Swift
    assert engine.parse_action(state, {"attack": "A2", "target": "B1"}) in legal      # so is its Decoy
    assert engine.parse_action(state, {"attack": "A1", "target": "B2"}) not in legal  # Block
    engine.apply(state, engine.parse_action(state, {"power": "Night Veil", "target": "A1"}))
    assert engine.parse_action(state, {"attack": "A1", "target": "B2"}) in engine.legal_actions(state)
    # Entrench: Block until the start of its owner's next turn
    setup = {"turn": "B", "A": {"slots": {1: "Cinder Pup"}},
             "B": {"powers": ["Entrench", "Heavy Armor"], "slots": {1: "Gloom Bat", 2: "Venom Fang"}}}
    state, _ = position(engine, setup, [{"power": "Entrench", "target": "B2"}, "end"])
    legal = engine.legal_actions(state)
    assert engine.parse_action(state, {"attack": "A1", "target": "B1"}) not in legal
    engine.apply(state, (0,))
    assert "Block" not in engine.observe(state)["B"]["slots"][2]["keywords"]


def test_failsafe_replaces_a_destroy(engine):
    setup = {"turn": "B", "A": {"hazards": ["Hidden Blade"], "slots": {1: "Rivet Guard"}},
             "B": {"hand": {"Omega Frame": 1}, "slots": {1: "Rivet Guard"}}}
    _, obs = position(engine, setup, [{"play": "Omega Frame", "slot": 2}])
    assert obs["B"]["slots"][2]["name"] == "Omega Frame"           # 700 Health: the Blade fizzles
    assert obs["A"]["hazards"] == []
    setup = {"A": {"slots": {1: "Pyre Drake"}},
             "B": {"slots": {1: "Cinder Pup", 2: {"card": "Omega Frame", "health": 100}}}}
    _, obs = position(engine, setup, [{"attack": "A1", "target": "B2"}])
    assert obs["B"]["slots"][2]["name"] == "Mecha Colossus" and obs["B"]["death_tokens"] == 0
    assert obs["B"]["discard"] == ["Omega Frame"]


def test_choices_name_every_card_even_past_id_100(engine):
    """Hazards and discard picks are answered by card id plus a base: a set of 129 cards once
    made Hazard 101 read as discard card 1, and discard card 103 as a Forge option."""
    O_DISC, O_HAZ = STATE.O_DISC, STATE.O_HAZ

    state = engine.initial_state(engine.setups(None)[0], random.Random(1))
    assert len(engine.names) > 100
    for card_id, name in enumerate(engine.names):
        for base in (O_HAZ, O_DISC):
            assert engine.describe(state, (9, base + card_id)).endswith(f"chooses {name}"), (name, base)


# -- replays: what each move led to ----------------------------------------------------------------

def outcome(engine, setup, actions):
    """The replay lines under the last of `actions` (the ones before it are played first)."""
    state = engine.scenario_state(setup, random.Random(0))
    for spec in actions:
        action = engine.parse_action(state, spec)
        before = engine.clone(state)
        engine.apply(state, action)
    return engine.describe_outcome(before, state, action).splitlines()


def test_a_replay_tells_damage_health_left_hazards_and_death_tokens(engine):
    setup = {"A": {"slots": {1: "Pyre Drake", 2: "Cinder Pup"}},
             "B": {"hazards": ["Spiked Barricade"], "slots": {1: "Hollow Marionette", 2: "Dawn Squire"}}}
    assert outcome(engine, setup, [{"attack": "A1", "target": "B2"}]) == [
        "B's Hazard Spiked Barricade goes off",
        "B2 Dawn Squire takes 400 damage and dies",
        "A1 Pyre Drake takes 500 damage (200 + 300); 100 Health left",     # the Squire back, the Barricade
        "B takes a Death Token: 1 of 5"]
    # a fighter the move played that a Hazard kills at once (it is in neither state's slots)
    setup = {"turn": "B", "A": {"hazards": ["Tilt!"], "slots": {1: "Rivet Guard"}},
             "B": {"hand": {"Cinder Pup": 2}}}
    actions = [{"play": "Cinder Pup", "slot": 1}, {"play": "Cinder Pup", "slot": 2}]
    assert outcome(engine, setup, actions) == [
        "A's Hazard Tilt! goes off", "B2 Cinder Pup takes 400 damage and dies",
        "B takes a Death Token: 1 of 5"]


def test_a_replay_tells_lifesteal_instakill_and_the_loss(engine):
    setup = {"A": {"slots": {1: {"card": "Gloom Bat", "health": 100}}},
             "B": {"slots": {1: "Cinder Pup", 2: "Ember Juggler"}}}
    assert outcome(engine, setup, [{"attack": "A1", "target": "B1"}]) == [
        "B1 Cinder Pup takes 200 damage and dies",
        "A1 Gloom Bat takes 200 damage, heals 200 by Lifesteal; 100 Health left",
        "B takes a Death Token: 1 of 5"]
    setup = {"A": {"hand": {"Viper Venom": 1}, "slots": {1: "Alley Cutpurse", 2: "Bolt Tinker"}},
             "B": {"death_tokens": 4, "slots": {1: "Gloom Bat", 2: "Ember Juggler"}}}
    actions = [{"cast": "Viper Venom", "target": "A1"}, {"attack": "A1", "target": "B1"}]
    assert outcome(engine, setup, actions[:1]) == ["A1 Alley Cutpurse gains Instakill this turn"]
    assert outcome(engine, setup, actions) == [
        "B1 Gloom Bat takes 200 damage and is destroyed by Instakill",     # its Lifesteal healed it
        "A1 Alley Cutpurse takes 200 damage and dies",
        "A takes a Death Token: 1 of 5", "B takes a Death Token: 5 of 5", "B loses: 5 Death Tokens"]


def test_a_replay_tells_cancelled_moves_failsafe_tokens_and_binds(engine):
    setup = {"A": {"slots": {1: "Master of a Thousand Masks"}},
             "B": {"hazards": ["Combo Breaker"], "slots": {1: "Ironhide Rhino"}}}
    assert outcome(engine, setup, [{"attack": "A1", "with": "Killing Stroke", "target": "B1"}]) == [
        "B's Hazard Combo Breaker goes off", "the attack deals no damage and its text has no effect"]
    setup = {"A": {"hand": {"Flare Shot": 1}, "slots": {1: "Apprentice Conjurer"}},
             "B": {"hazards": ["Spellbreaker Sigil"], "slots": {1: "Gloom Bat"}}}
    assert outcome(engine, setup, [{"cast": "Flare Shot", "target": "B1"}]) == [
        "B's Hazard Spellbreaker Sigil goes off", "Flare Shot is cancelled: it has no effect",
        "A1 Apprentice Conjurer gets +100 Attack"]
    setup = {"A": {"slots": {1: "Pyre Drake"}},
             "B": {"slots": {1: "Cinder Pup", 2: {"card": "Omega Frame", "health": 100}}}}
    assert outcome(engine, setup, [{"attack": "A1", "target": "B2"}]) == [
        "B2 Omega Frame takes 400 damage and becomes Mecha Colossus",     # Failsafe: no Death Token
        "A1 Pyre Drake takes 400 damage; 200 Health left"]
    setup = {"A": {"hand": {"Smokestep Ninja": 1}, "slots": {5: "Rivet Guard"}},
             "B": {"slots": {1: "Cinder Pup"}}}
    assert outcome(engine, setup, [{"play": "Smokestep Ninja", "slot": 1}]) == [
        "A2 Decoy Double token comes into play"]
    setup = {"A": {"hand": {"Vine Shackles": 1}, "slots": {1: "Pyre Drake"}},
             "B": {"slots": {1: "Grave Monarch"}}}
    assert outcome(engine, setup, [{"cast": "Vine Shackles", "target": "B1"}]) == [
        "B1 Grave Monarch is Bound: 100 Attack, 200 Health, no abilities"]
    setup = {"A": {"hand": {"Claw Machine Gremlin": 1}, "slots": {1: "Cinder Pup"}},
             "B": {"slots": {1: {"card": "Ironhide Rhino", "health": 300}, 2: "Mossback Tortoise"}}}
    assert outcome(engine, setup, [{"play": "Claw Machine Gremlin", "slot": 2}]) == [
        "B1 Ironhide Rhino returns to B's hand"]
    # Signal Jammer destroys the Hazard picked; the other one still goes off on it
    setup = {"turn": "B", "A": {"hazards": ["Tilt!", "Hidden Blade"], "slots": {1: "Rivet Guard"}},
             "B": {"hand": {"Signal Jammer": 1}, "slots": {1: "Rivet Guard"}}}
    assert outcome(engine, setup, [{"play": "Signal Jammer", "slot": 2}, {"choose": "Tilt!"}]) == [
        "A's Hazard Tilt! is destroyed", "A's Hazard Hidden Blade goes off", "B2 Signal Jammer is destroyed",
        "B takes a Death Token: 1 of 5"]


def test_a_replay_tells_what_fires_as_a_turn_passes(engine):
    setup = {"A": {"slots": {1: "Venom Fang"}}, "B": {"slots": {1: "Mossback Tortoise"}}}
    actions = [{"attack": "A1", "with": "Poisoned Edge", "target": "B1"}, "end"]
    assert outcome(engine, setup, actions[:1]) == [
        "B1 Mossback Tortoise takes 100 damage, is poisoned: 100 damage at the start of each of B's turns;"
        " 600 Health left"]
    assert outcome(engine, setup, actions) == [
        "B1 Mossback Tortoise takes 100 damage from poison; 500 Health left",
        "B's turn: 10 Energy, 0 cards in hand"]
    setup = {"A": {"stall": 1, "slots": {1: "Pyre Drake"}}, "B": {"hand": {"Cinder Pup": 1}}}
    assert outcome(engine, setup, ["end"]) == [
        "A stalled this turn: 2 of 3 in a row",
        "B's turn: 10 Energy, 1 card in hand",
        "B starts the turn with no fighter: play one this turn or lose"]


def test_a_replay_tells_coin_flips(engine):
    """Lucky Coin flips as its owner's turn starts: heads is 1 extra Energy, tails nothing."""
    setup = {"turn": "B", "A": {"powers": ["Lucky Coin", "Heavy Armor"], "slots": {1: "Pyre Drake"}},
             "B": {"slots": {1: "Cinder Pup"}}}
    seen = set()
    for seed in range(8):
        state = engine.scenario_state(setup, random.Random(seed))
        before = engine.clone(state)
        engine.apply(state, (0,))
        lines = engine.describe_outcome(before, state, (0,)).splitlines()
        heads = state.p[0].energy == 11
        assert lines[0] == ("coin flip: heads" if heads else "coin flip: tails")
        assert ("A has 1 extra Energy: 11 left" in lines) == heads
        seen.add(heads)
    assert seen == {True, False}
    # the coin flip that picked the first player, under the match's first move
    setup = engine.setups(None)[0]
    state = engine.initial_state(setup, random.Random(3))
    action = engine.legal_actions(state)[0]
    before = engine.clone(state)
    engine.apply(state, action)
    first, second = ("A", "B") if state.first == 0 else ("B", "A")
    powers = {"A": "A's Powers: Kindling and Tempered Steel", "B": "B's Powers: Mana Font and Spring Bloom"}
    assert setup.label == "Burning Blades vs Hex Grove"
    assert engine.describe_outcome(before, state, action).splitlines() == [
        f"{first} won the coin flip and plays first", powers[first], powers[second]]


def test_a_logged_match_plays_as_an_unlogged_one(engine):
    from cardgen.sim.runner import play_match

    setups = engine.setups(None)
    told = []
    for seed in range(20):
        log = play_match(engine, setups, seed, ["random"], log=True)
        assert not log.result.conflicts, seed
        plain = play_match(engine, setups, seed, ["random"], trajectory=True)
        assert log.result.trajectory == plain.trajectory
        told += [line for *_, outcome in log.moves for line in outcome.splitlines()]
    assert any("Death Token" in line for line in told) and any(" loses: " in line for line in told)


def test_greedy_does_not_cast_a_this_turn_bonus_on_a_fighter_that_has_attacked(engine):
    """Shadow Pact costs its own fighter 200 Health for +300 Attack this turn: after the fighter
    attacked, that is pure loss. The heuristic once counted the bonus as lasting Attack, and the
    greedy bot cast it on its own fighter every game."""
    setup = {"A": {"hand": {"Shadow Pact": 1},
                   "slots": {1: {"card": "Gloom Bat", "attacked": True}, 2: "Gloom Bat"}},
             "B": {"slots": {1: "Dawn Squire"}}}
    before, _ = position(engine, setup)
    after, _ = position(engine, setup, [{"cast": "Shadow Pact", "target": "A1"}])
    assert engine.heuristic(after, 0) < engine.heuristic(before, 0)
    greedy = GreedyBot(engine, random.Random(3), 0)
    actions = engine.legal_actions(before)
    pact = engine.parse_action(before, {"cast": "Shadow Pact", "target": "A1"})
    assert pact in actions
    assert greedy.choose(before, actions) != pact
