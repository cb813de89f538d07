"""Play seeded matches between bots and record what happened, including every rule conflict.

Match seed S alone decides a match: the setup (setups[S % len(setups)]) and the match's one
generator, which the game's chance and the bots' choices draw from in turn. So `cardgen replay
GAME --seed S` with the same decks and bots replays it.
"""

from __future__ import annotations

import gc
import hashlib
import random
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.engines import load_engine
from cardgen.engines.base import IllegalAction, RuleConflict, Setup, is_listed
from cardgen.errors import ContentError, Issue, crash_words
from cardgen.gamecode import module_file
from cardgen.parallel import usable_cpus, worker_pool
from cardgen.sim.bots import RandomBot, any_slow, make_bot
from cardgen.sim.tally import ConflictCounts, Tally
from cardgen.sim.watchdog import ACTION_SECONDS, WATCH, MatchStuck, watch_this_process, watching


@dataclass
class Conflict:
    # exception | rule | dead-end | turn-cap | stuck | invariant | keyword | card-text | illegal-choice
    kind: str
    message: str
    seed: int | None = None
    setup: str | None = None
    step: int | None = None

    def as_dict(self) -> dict:
        return {"kind": self.kind, "message": self.message, "seed": self.seed, "setup": self.setup,
                "step": self.step}


@dataclass
class MatchResult:
    seed: int
    setup: str
    seats: list[str]
    bots: list[str]
    first_player: int | None
    winner: int | None          # None: draw or unfinished
    finished: bool
    actions: int
    plays: list[tuple[int, str]] = field(default_factory=list)   # (player, card) per card played
    conflicts: list[Conflict] = field(default_factory=list)
    trajectory: str = ""
    fixed_seats: tuple[int, ...] = ()   # seats whose bot the setup fixes (a solo mode's AI)


@dataclass
class MatchLog:
    """A replayed match move by move: (step, player, description, outcome)."""

    result: MatchResult
    moves: list[tuple[int, int, str, str]]


def play_match(engine, setups: list[Setup], seed: int, bot_names: list[str], *,
               check_invariants: bool = True, log: bool = False, trajectory: bool = False):
    """One match. Never raises for a rule problem: problems become Conflicts on the result.

    `trajectory` records a hash of every action and the outcome (tests and replays compare it);
    the simulator leaves it off to keep the loop lean.
    """
    setup = setups[seed % len(setups)]
    rng = random.Random(seed)
    moves: list[tuple[int, int, str, str]] = []
    actions_taken: list = []
    result = MatchResult(seed, setup.label, list(setup.seats), [], None, None, False, 0)

    def conflict(kind, message, step=None):
        result.conflicts.append(Conflict(kind, message, seed, setup.label, step))

    step = 0    # actions applied; stored on the result once, when the match stops
    watch = WATCH
    watch.match += 1
    watch.running = True
    try:
        state = engine.initial_state(setup, rng)
        players = len(setup.seats)
        # The bots draw from the game's generator: a second Mersenne Twister would cost some 37,000
        # instructions a match (its seeding and first refill), up to 4.5% of one, and the draws
        # are as uniform.
        # (a seat the setup fixes, such as a solo mode's AI, keeps its own bot)
        result.bots = seat_bots = [setup.bots.get(i) or bot_names[i % len(bot_names)] for i in range(players)]
        result.fixed_seats = tuple(sorted(setup.bots))
        bots = [make_bot(name, engine, rng, i) for i, name in enumerate(seat_bots)]
        result.first_player = engine.first_player(state)
        choosers = [bot.choose for bot in bots]
        # When every seat is the random bot, the seats have one choice rule: the loop makes the
        # choice itself and asks whose turn it is only to record a card play.
        uniform = set(map(type, bots)) == {RandomBot}
        rnd = rng.random
        is_over, legal_actions, current_player = engine.is_over, engine.legal_actions, engine.current_player
        apply = engine.apply_chosen
        card_of, invariants = engine.card_of, engine.invariants
        plays = result.plays
        cap = engine.max_actions
        record = log or trajectory
        while not is_over(state):
            if step >= cap:
                conflict("turn-cap", f"still going after {cap} actions", step)
                break
            actions = legal_actions(state)
            if not actions:
                conflict("dead-end", "a state that is not over has no legal action", step)
                break
            if uniform:     # RandomBot.choose, inlined
                action = actions[int(rnd() * len(actions))]
            else:
                action = choosers[current_player(state)](state, actions)
            if record:
                if log:     # (the move is listed before it is applied: a replay shows a crashing one)
                    before = engine.clone(state)
                    moves.append((step, current_player(state), engine.describe(state, action), ""))
                actions_taken.append(action)
            # A checked run checks that a bot's choice was on its list (the random bot's, inlined
            # above, is by construction).
            if check_invariants and not uniform and not is_listed(action, actions):
                raise IllegalAction(f"{action!r} is not legal here")
            card = card_of(state, action)
            if card is not None:
                plays.append((current_player(state), card))
            apply(state, action)
            if log:
                moves[-1] = (*moves[-1][:3], engine.describe_outcome(before, state, action))
            step += 1
            if check_invariants:
                problems = invariants(state)
                if problems:
                    for problem in problems:
                        conflict("invariant", problem, step)
                    break
        if not result.conflicts and is_over(state):
            result.finished = True
            result.winner = engine.winner(state)
    except MatchStuck:
        conflict("stuck", f"an action was still running after {watch.limit:g} s: a loop inside the "
                          "rules, which the action cap cannot stop because the action never ends", step)
    except RuleConflict as exc:
        conflict("rule", str(exc), step or None)
    except IllegalAction as exc:
        conflict("illegal-choice", f"a legal action was refused: {exc}")
    except (Exception, SystemExit) as exc:  # an engine crash (sys.exit() too) is a finding to
        conflict("exception", crash_words(exc))   # report, not a reason to stop (or hang a worker)
    watch.running = False
    result.actions = step
    if trajectory or log:
        digest = hashlib.sha256(repr((actions_taken, result.winner, result.finished)).encode())
        result.trajectory = digest.hexdigest()[:16]
    return MatchLog(result, moves) if log else result


WATCH.codes.add(play_match.__code__)      # (the watchdog reads `step` from this function's frame)


def static_conflicts(engine) -> list[Conflict]:
    """Conflicts visible without playing: undefined keywords and card text no rule implements."""
    out = []
    known = engine.keywords
    game = engine.game
    for card in game.cards.values():
        specs = game.card_types[card.type].fields
        for keyword in sorted({k for name, value in card.fields.items() if name in specs
                               for k in keywords_in(specs[name], value)}):
            if keyword not in known:
                out.append(Conflict("keyword", f"{card.name} carries {keyword}, which no rule of "
                                               "the engine defines"))
    for name, why in sorted(engine.unsupported_cards().items()):
        out.append(Conflict("card-text", f"{name}: {why}"))
    return out


def keywords_in(spec, value) -> list[str]:
    """The keywords a field value names, wherever its spec puts them (a list, a map's keys...)."""
    from cardgen.model.fields import KeywordSpec, ListSpec, MapSpec, OneOfSpec, RecordSpec

    if isinstance(spec, KeywordSpec):
        return [value] if isinstance(value, str) else []
    if isinstance(spec, ListSpec) and isinstance(value, list):
        return [k for item in value for k in keywords_in(spec.items, item)]
    if isinstance(spec, MapSpec) and isinstance(value, dict):
        found = [k for key in value for k in keywords_in(spec.keys, key)]
        return found + [k for item in value.values() for k in keywords_in(spec.values, item)]
    if isinstance(spec, RecordSpec) and isinstance(value, dict):
        return [k for name, item in value.items() if name in spec.fields
                for k in keywords_in(spec.fields[name], item)]
    if isinstance(spec, OneOfSpec):
        return [k for option in spec.options for k in keywords_in(option, value)]
    return []


# -- many matches, on every core ------------------------------------------------------------------

_WORKER: dict = {}


def _init_worker(game, deck_paths: list[str] | None, bot_names: list[str], check: bool,
                 match: dict, engine=None) -> None:
    """Ready this process to play: `game` is the loaded Game, or its folder (a pool worker);
    `match` holds the setups' players and variants; `engine`, the game's engine if the caller has
    it loaded already (loading runs a designer's engine file again)."""
    if isinstance(game, str):
        from cardgen.model import load_game

        game = load_game(game)
    engine = engine or load_engine(game)
    _WORKER.update(engine=engine, setups=match_setups(engine, load_decks(deck_paths, game), **match),
                   bots=bot_names, check=check)


def _init_pool_worker(game_folder: str | None, deck_paths: list[str] | None, bot_names: list[str],
                      check: bool, match: dict, time_limit: float | None) -> None:
    if game_folder is not None:     # (None: forked from the process that made them)
        _init_worker(game_folder, deck_paths, bot_names, check, match)
    gc.freeze()     # see _loaded_objects_frozen; the worker ends with the pool, so no unfreeze
    watch_this_process(time_limit)


@contextmanager
def _loaded_objects_frozen():
    """Keep the garbage collector off everything loaded so far (the game, its engine and tables)
    while matches run. They live through every match, yet each full collection walked them all
    again: freezing them measured 3% fewer instructions per action for A.D.A.P.T. and Amiibart.
    Matches still free their own garbage as before."""
    frozen_by_caller = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if not frozen_by_caller:       # (never unfreeze what the caller froze)
            gc.unfreeze()


def _run_chunk(seeds: range) -> list[MatchResult]:
    w = _WORKER
    return [play_match(w["engine"], w["setups"], s, w["bots"], check_invariants=w["check"])
            for s in seeds]


def _tally_chunk(seeds: range) -> Tally:
    w = _WORKER
    tally = Tally(bounded=False)    # (merged into the run's own tally, which is bounded)
    for s in seeds:
        tally.add(play_match(w["engine"], w["setups"], s, w["bots"], check_invariants=w["check"]))
    return tally


def deck_contents(engine, decks: list[str] | None = None, *, players: int | None = None,
                  variants: tuple[str, ...] = ()) -> tuple[frozenset[str], dict[str, tuple]]:
    """What the matchups simulated with these deck files hold: every card their seats may play
    (empty: not known), and by setup label each seat's own cards (setups whose seats share one
    deck are left out)."""
    setups = match_setups(engine, load_decks(decks, engine.game), players=players, variants=variants)
    return (frozenset().union(*(setup.cards for setup in setups)),
            {setup.label: setup.seat_cards for setup in setups if setup.seat_cards})


def match_setups(engine, decks, *, players: int | None = None, variants: tuple[str, ...] = ()):
    """engine.setups(decks) with the players and variants asked for; an engine written before
    they existed is still called as `setups(decks)` when none are asked for."""
    options = {k: v for k, v in (("players", players), ("variants", tuple(variants))) if v}
    setups = engine.setups(decks, **options)
    if not setups:
        raise ContentError([Issue(module_file(engine), None, "setups",
                                  "the engine's setups() gave no matchup to play")])
    return setups


def load_decks(deck_paths, game):
    """The deck files, read with `game` (loaded already) as the game they name, if they do."""
    if not deck_paths:
        return None
    from cardgen.model import load_deck

    games = {Path(game.folder).resolve(): game}
    return [load_deck(Path(p), games) for p in deck_paths]


def simulate(game, **options) -> tuple[list[MatchResult], float]:
    """Play matches and keep every one's result: (results, seconds). For a few matches looked at
    one by one; a report of many adds them up as they come instead (simulate_tally). The options
    are play_matches's."""
    results: list[MatchResult] = []
    return results, play_matches(game, _run_chunk, results.extend, **options)


def simulate_tally(game, **options) -> tuple[Tally, float]:
    """Play matches and add them up as they come: (their Tally, seconds), in memory that stays the
    same whatever the number of matches. The options are play_matches's."""
    tally = Tally()
    return tally, play_matches(game, _tally_chunk, tally.merge, **options)


def play_matches(game, play_chunk, take, *, matches: int, seed: int = 1, jobs: int | None = None,
                 bots: list[str] | None = None, decks: list[str] | None = None,
                 players: int | None = None, variants: tuple[str, ...] = (),
                 check_invariants: bool = True, progress: bool = False,
                 time_limit: float | None = ACTION_SECONDS, engine=None, cluster: str | None = None) -> float:
    """Play `matches` matches with seeds seed..seed+matches-1, on `jobs` processes: each chunk of
    seeds is played by play_chunk (_run_chunk, _tally_chunk) and what it gives is handed to
    `take`, chunk after chunk in seed order. Returns the seconds it took. The seeds are handed out
    as they are needed, never listed (a billion matches make no list of a billion seeds), so a
    Ctrl-C stops it at once. `players` and `variants` go to the engine's setups (see
    Engine.setups). A match stuck in one action for `time_limit` seconds (to twice that) is
    stopped as a conflict (sim/watchdog.py). `engine`: the game's engine, when the caller has
    loaded it already. `cluster`: a Dask scheduler's address, to play the chunks there instead
    (sim/cluster.py): the same chunks, taken in the same order."""
    bots = bots or ["random"]
    match = {"players": players, "variants": tuple(variants)}
    jobs = max(1, jobs or usable_cpus())
    start = time.perf_counter()
    # The engine and its matchups are made here first, with the caller's game, so that a mistake in
    # them is one error before any match (a pool worker whose set-up fails is started again, forever).
    _init_worker(game, decks, bots, check_invariants, match, engine)
    done = 0

    def count(n: int) -> None:
        nonlocal done
        done += n
        _progress(progress, done, matches)

    slow = any_slow(bots, _WORKER["engine"])
    if cluster:
        from cardgen.sim.cluster import play_chunks_on_cluster

        setup = (str(game.folder), decks, bots, check_invariants, match)
        chunks = _seed_chunks(seed, matches, SLOW_CHUNK if slow else CLUSTER_CHUNK)
        play_chunks_on_cluster(cluster, _init_worker, setup, play_chunk, chunks, take, count)
    elif jobs == 1 or matches < (2 if slow else 50):
        with _loaded_objects_frozen(), watching(time_limit):
            for seeds in _seed_chunks(seed, matches, 100):
                take(play_chunk(seeds))
                count(len(seeds))
    else:
        import multiprocessing

        # Chunks of fast matches are large enough to pay for handing them out; a slow bot's are
        # a few matches, so that both processes stay busy to the end (20 search matches made one
        # chunk of minutes, and an 80-match sweep ran no faster on two processes than on one).
        chunk = SLOW_CHUNK if slow else max(20, min(500, matches // (jobs * 8) or 1))
        fork = sys.platform != "win32"
        context = multiprocessing.get_context("fork" if fork else "spawn")
        # (forked workers have the engine and matchups made above; spawned ones make their own)
        worker_args = (None if fork else str(game.folder), decks, bots, check_invariants, match, time_limit)
        with worker_pool(context, jobs, _init_pool_worker, worker_args) as pool:
            # imap takes the chunks from the generator as workers free up (a pipe's worth ahead)
            for part in pool.imap(play_chunk, _seed_chunks(seed, matches, chunk)):
                take(part)
                count(len(part))
    if progress:
        print(file=sys.stderr)
    return time.perf_counter() - start


CLUSTER_CHUNK = 500     # seeds a cluster task plays: a few seconds of work against its round trip
SLOW_CHUNK = 2          # seeds a chunk holds when a bot is slow (seconds a match)


def _seed_chunks(first: int, count: int, size: int):
    """The seeds first..first+count-1 in ranges of `size`, made one at a time."""
    end = first + count
    return (range(start, min(start + size, end)) for start in range(first, end, size))


def _progress(enabled: bool, done: int, total: int) -> None:
    if not enabled:
        return
    width = 30
    filled = width * done // max(total, 1)
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} matches", end="",
          file=sys.stderr, flush=True)


def conflict_summary(results: list[MatchResult]) -> list[tuple[Conflict, int]]:
    """Distinct conflicts (by kind and message), each with its first seed and how often it came."""
    counts = ConflictCounts()
    for result in results:
        for conflict in result.conflicts:
            counts.add(conflict)
    return counts.summary()
