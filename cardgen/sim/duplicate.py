"""How much better one bot plays than another: duplicate matches.

The deal and the seats decide much of a match. In Dojo Duel the player who takes the second Turn
wins about three greedy mirror matches in four, and two bots compared over matches whose seats fall
as they may are measured on that luck as much as on their play. Duplicate matches take it out, as
duplicate bridge does: each seed is played once with the bot in each seat in turn and the opponent
bot in the others. The engine deals from the seed before any bot chooses, so every seating of a
seed has the same matchup, shuffles and first player: whatever the deal gives a seat, each bot gets
it once.

A seed's score is the bot's mean share of its seatings (a win 1, a draw an equal share, a loss 0);
the figure is the mean over the seeds, with a 95% interval from their spread (the seeds are
independent; a comparison uses dozens of them or more, where the normal interval holds). Dojo Duel,
search against greedy over 300 seeds: the seeds' scores spread half as wide as the mean of two
independent matches would (standard deviation 0.18 against 0.35), so a quarter as many matches
pin the figure down as closely.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
from dataclasses import dataclass

from cardgen.parallel import can_fork, worker_pool
from cardgen.sim.runner import match_setups, play_match

Z95 = 1.959964      # the normal quantile of a two-sided 95% interval


class MatchFailed(Exception):
    """A match of the comparison stopped on a rule conflict: the comparison would mean nothing."""


@dataclass(frozen=True)
class Seating:
    """One match of a duplicate comparison: the bot's seat, the seat that took the first turn
    (None: the engine does not say) and the bot's share of the result."""

    seed: int
    seat: int
    first_player: int | None
    share: float


@dataclass(frozen=True)
class Duplicate:
    """A duplicate comparison's matches and what they add up to."""

    bot: str
    opponent: str
    players: int
    matches: tuple[Seating, ...]    # by seed, then seat

    @property
    def seed_scores(self) -> list[float]:
        by_seed: dict[int, list[float]] = {}
        for match in self.matches:
            by_seed.setdefault(match.seed, []).append(match.share)
        return [sum(shares) / len(shares) for shares in by_seed.values()]

    @property
    def score(self) -> float:
        """The bot's mean share of a match."""
        return statistics.fmean(self.seed_scores)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of `score`."""
        scores = self.seed_scores
        if len(scores) < 2:
            return 0.0, 1.0
        half = Z95 * statistics.stdev(scores) / math.sqrt(len(scores))
        return max(0.0, self.score - half), min(1.0, self.score + half)

    @property
    def by_first_turn(self) -> tuple[float | None, float | None]:
        """The bot's mean share in the matches its seat took the first turn, and in the others
        (None: no such match, or an engine that does not say who went first)."""
        first = [m.share for m in self.matches if m.first_player == m.seat]
        other = [m.share for m in self.matches if m.first_player not in (None, m.seat)]
        return (statistics.fmean(first) if first else None, statistics.fmean(other) if other else None)

    def sentence(self) -> str:
        low, high = self.interval
        seeds = len(self.seed_scores)
        return (f"{self.bot} scored {self.score:.1%} against {self.opponent} (95% interval "
                f"{low:.1%}-{high:.1%}) in {len(self.matches)} duplicate matches: {seeds} seeds, each "
                f"played with {self.bot} in every seat in turn; a draw counts 1/{self.players}, an "
                f"equal share is {1 / self.players:.0%}")


def duplicate_matches(engine, bot: str, opponent: str, seeds: range, *, players: int | None = None,
                      variants: tuple[str, ...] = (), jobs: int = 1) -> Duplicate:
    """Play each seed once with `bot` in each seat and `opponent` in the others (a seat the setup
    gives a bot of its own, such as a solo mode's AI, keeps it), on `jobs` processes. Raises
    MatchFailed at the first match with a rule conflict."""
    setups = match_setups(engine, None, players=players, variants=variants)
    job = (engine, setups, bot, opponent)
    if jobs > 1 and len(seeds) > 1 and can_fork():
        # (forked: the workers have the engine already; fork's initializer arguments are not pickled)
        with worker_pool(multiprocessing.get_context("fork"), jobs, _ready, job) as pool:
            parts = pool.map(_play_seed, seeds, chunksize=max(1, len(seeds) // (jobs * 8)))
    else:
        _ready(*job)
        parts = [_play_seed(seed) for seed in seeds]
    return Duplicate(bot, opponent, len(setups[0].seats), tuple(m for part in parts for m in part))


_JOB: dict = {}


def _ready(engine, setups, bot: str, opponent: str) -> None:
    _JOB.update(engine=engine, setups=setups, bot=bot, opponent=opponent)


def _play_seed(seed: int) -> list[Seating]:
    engine, setups, bot = _JOB["engine"], _JOB["setups"], _JOB["bot"]
    setup = setups[seed % len(setups)]
    players = len(setup.seats)
    out = []
    for seat in range(players):
        if seat in setup.bots:
            continue
        names = [_JOB["opponent"]] * players
        names[seat] = bot
        result = play_match(engine, setups, seed, names, check_invariants=False)
        if result.conflicts or not result.finished:
            problem = result.conflicts[0].message if result.conflicts else "the match did not finish"
            raise MatchFailed(f"seed {seed}, {bot} in seat {seat}: {problem}")
        share = 1 / players if result.winner is None else float(result.winner == seat)
        out.append(Seating(seed, seat, result.first_player, share))
    if not out:
        raise MatchFailed(f"seed {seed}: the setup {setup.label!r} gives every seat a bot of its own")
    return out
