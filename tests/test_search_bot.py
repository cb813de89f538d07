"""The search bot (cardgen/sim/search.py): it replays from its seed, its determinizations keep
what the player knows, and it beats the greedy bot."""

from __future__ import annotations

import random

import pytest

from cardgen.engines import load_engine
from cardgen.model import load_game
from cardgen.sim.bots import bot_problem, make_bot
from cardgen.sim.report import wilson
from cardgen.sim.runner import match_setups, play_match
from cardgen.sim.search import SearchBot, parse_strength

GAMES = ["adapt", "amfibido", "amiibart", "combo-fighter", "dojo-duel"]


def engine_of(game_id):
    return load_engine(load_game(f"content/{game_id}"))


def test_strength_syntax():
    assert parse_strength("200") == (200, None)
    assert parse_strength("0.5s") == (0, 0.5)
    for bad in ("0", "-3", "fast", "s", "0s"):
        with pytest.raises(ValueError, match="playouts per move"):
            parse_strength(bad)
    engine = engine_of("dojo-duel")
    assert bot_problem("search:50", engine) is None
    assert "unknown bot" in bot_problem("greedy:50", engine)
    bot = make_bot("search:50", engine, random.Random(1), 0)
    assert isinstance(bot, SearchBot) and bot.playouts == 50


@pytest.mark.parametrize("game_id", ["dojo-duel", "amiibart"])
def test_a_seed_replays_a_search_match(game_id):
    engine = engine_of(game_id)
    setups = match_setups(engine, None)
    runs = [play_match(engine, setups, 7, ["search:30", "greedy"], trajectory=True) for _ in range(2)]
    assert not runs[0].conflicts and runs[0].finished
    assert runs[0].trajectory == runs[1].trajectory


@pytest.mark.parametrize("game_id", GAMES)
def test_a_determinization_keeps_what_the_player_knows(game_id):
    """Along a random match: the player's own legal moves and every invariant hold in each
    determinization, and the state itself is not changed."""
    engine = engine_of(game_id)
    setup = match_setups(engine, None, players=2 if game_id == "adapt" else None)[0]
    rng = random.Random(5)
    state = engine.initial_state(setup, random.Random(5))
    changed = 0
    for _ in range(300):
        if engine.is_over(state):
            break
        player = engine.current_player(state)
        legal = engine.legal_actions(state)
        before = repr(engine.observe(state))
        world = engine.determinize(state, player, rng)
        assert repr(engine.observe(state)) == before
        assert engine.invariants(world) == []
        assert engine.current_player(world) == player
        assert sorted(map(repr, engine.legal_actions(world))) == sorted(map(repr, legal))
        deck_order = getattr(world, "deck", None) != getattr(state, "deck", None)     # (A.D.A.P.T.)
        changed += repr(engine.observe(world)) != before or deck_order
        engine.apply_chosen(state, legal[rng.randrange(len(legal))])
    if game_id != "amiibart":       # (no hidden card in Amiibart: the whole deck is in hand)
        assert changed, "no determinization dealt a hidden card again"


# The search bot at its default strength against greedy: (game, player count) -> matches. One
# search seat, greedy in the others, the search seat going round the seats; seeds from FIRST_SEED
# (the seeds these were measured on). "Clearly": the lower end of the 95% interval of its score
# above an equal share (1/2 with two players, 1/3 with three); a draw counts as an equal share.
FIRST_SEED = 1000
# Amfibido needs its 120 matches: on these seeds its running score first clears an equal share
# there (72 of 120, 60%, 51-68%; 57 of 100 was 47-66%); Combo Fighter clears it from 50 on (40 of
# 60, 67%, 54-77%; 102 of 160, 64%, 56-71%). The two took 110 s of CPU together on a busy
# machine (about 155 s before the search stopped a settled move's playouts and redeal got faster).
BEATS_GREEDY = {("adapt", 2): 60, ("adapt", 3): 60, ("amiibart", 2): 60, ("amfibido", 2): 120,
                ("combo-fighter", 2): 60}
# Not met (issue 22, item 1), and Dojo Duel leaves little room to meet it. In duplicate matches
# (bench/skill_ceiling.py: each seed once with the search in each seat) the search scores 50.6%
# against greedy over seeds 1000-1999 (49.3-51.9%). The best fair player we have, greedy
# rollouts to the end of the match for each move (64 a move, 30 times the search's CPU), scores
# 53.2% (48.8-57.7%, 100 seeds); one that also sees every hidden card and deck order, 58.0%
# (53.4-62.6%). Those two had found a flaw in greedy, now mended: it valued a kept kicker at half
# its worth (content/dojo-duel/engine/heuristic.py), and they scored 58.5% and 62.3% against it.
NOT_YET = {("dojo-duel", 2): 100}


def search_score(game_id: str, players: int, matches: int) -> float:
    engine = engine_of(game_id)
    setups = match_setups(engine, None, players=players if len(engine.player_counts) > 1 else None)
    score = 0.0
    for seed in range(FIRST_SEED, FIRST_SEED + matches):
        seats = ["greedy"] * players
        seats[seed % players] = "search"
        result = play_match(engine, setups, seed, seats, check_invariants=False)
        assert result.finished, result.conflicts
        score += 1 / players if result.winner is None else result.bots[result.winner] == "search"
    return score


@pytest.mark.early
@pytest.mark.parametrize("game_id, players", [
    *BEATS_GREEDY,
    *(pytest.param(*key, marks=pytest.mark.xfail(strict=True, reason="not met yet (issue 22, item 1)"))
      for key in NOT_YET)])
def test_search_beats_greedy(game_id, players):
    matches = BEATS_GREEDY.get((game_id, players)) or NOT_YET[game_id, players]
    score = search_score(game_id, players, matches)
    low, high = wilson(score, matches)
    message = (f"{game_id}, {players} players: search scored {score:.4g} of {matches} against greedy "
               f"(a draw counts 1/{players}): {score / matches:.0%}, 95% interval {low:.0%}-{high:.0%}")
    print(message)
    assert low > 1 / players, message


def _seeds_played(seeds: range) -> list[int]:
    return list(seeds)


@pytest.mark.parametrize("bots, chunks", [(["search", "greedy"], [2, 2, 2]), (["greedy"], [6])])
def test_a_slow_bots_matches_are_handed_out_a_few_at_a_time(bots, chunks):
    # A search match takes seconds: a sweep of a few of them must still use both processes (fast
    # bots' matches go by the twenty or more, and a short sweep stays on one process).
    from cardgen.sim.runner import play_matches

    taken: list[list[int]] = []
    play_matches(load_game("content/dojo-duel"), _seeds_played, taken.append, matches=6, seed=10, jobs=2,
                 bots=bots)
    assert [len(part) for part in taken] == chunks
    assert [s for part in taken for s in part] == list(range(10, 16))


def test_a_settled_choice_stops_the_search_and_plays_the_same_match(monkeypatch):
    """Once no other root move can catch up with the one tried most often, the search stops: the
    match is the one every playout would have played, with fewer playouts."""
    import cardgen.sim.search as search

    engine = engine_of("combo-fighter")
    setups = match_setups(engine, None)
    made = []
    playout = search.SearchBot._playout

    def counted(self, *args):
        made.append(1)
        return playout(self, *args)

    monkeypatch.setattr(search.SearchBot, "_playout", counted)
    runs = []
    for every in (10**9, search.SETTLED_EVERY):
        monkeypatch.setattr(search, "SETTLED_EVERY", every)
        made.clear()
        runs.append((play_match(engine, setups, 3, ["search:60", "greedy"], trajectory=True).trajectory,
                     len(made)))
    (full, all_playouts), (settled, fewer) = runs
    assert settled == full
    assert fewer < all_playouts


def test_redeal_trades_cards_only_among_their_like():
    from cardgen.engines.base import redeal

    level = {c: c // 10 for c in range(40)}.__getitem__       # cards 0-9 level 0, 10-19 level 1...
    deck_a, deck_b, hand = list(range(10, 20)), list(range(20, 30)), [0, 25, 31, 12]
    deck_b.remove(25)
    mixed = [1, 2, 30, 3]
    zones = [deck_a, mixed, deck_b, hand]
    before = [list(z) for z in zones]
    seen = set()
    for seed in range(30):
        redeal(random.Random(seed), zones, level)
        assert [list(map(level, z)) for z in zones] == [list(map(level, z)) for z in before]
        assert sorted(c for z in zones for c in z) == sorted(c for z in before for c in z)
        seen.add(tuple(hand))
    assert len(seen) > 10       # (the cards do move)


def test_the_engines_shuffle_is_randoms_own():
    from cardgen.engines.base import shuffle

    for n in range(40):
        ours, theirs = list(range(n)), list(range(n))
        mine, python = random.Random(n), random.Random(n)
        shuffle(mine, ours)
        python.shuffle(theirs)
        assert ours == theirs and mine.random() == python.random()
