"""What a simulation's report is made of, added up match by match as the matches come.

Only counts are kept (no match once added), so memory is the same for a thousand matches or a
billion: the lengths as a count of each length, the cards as counts, the conflicts as one sample
of each distinct one with its count (at most MAX_CONFLICTS distinct ones). A worker process adds
up its chunk of matches; the chunks' tallies, merged in seed order, are the same as one tally of
every match in seed order, so the report does not depend on how many processes played.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
from collections import Counter

MAX_CONFLICTS = 1000        # distinct conflict messages kept; later new ones are counted by kind
OTHER_MESSAGES = (f"and more conflicts of this kind, with messages other than the first {MAX_CONFLICTS} "
                  "different ones (the seed is the first of them)")


class ConflictCounts:
    """Distinct conflicts (by kind and message) in the order first seen: (first one, count).
    `bounded`: at most MAX_CONFLICTS of them, the later ones counted by kind. A chunk's counts are
    left unbounded (a chunk's matches have few): bounding them apart would set aside a conflict
    that the whole run keeps, and merged in seed order they are bounded as the whole run is."""

    def __init__(self, bounded: bool = True):
        self.bounded = bounded
        self.seen: dict[tuple[str, str], list] = {}     # key -> [first conflict, count]

    def add(self, conflict, count: int = 1) -> None:
        key = (conflict.kind, conflict.message)
        if self.bounded and key not in self.seen and len(self.seen) >= MAX_CONFLICTS:
            conflict = dataclasses.replace(conflict, message=OTHER_MESSAGES)
            key = (conflict.kind, conflict.message)
        entry = self.seen.setdefault(key, [conflict, 0])
        entry[1] += count

    def merge(self, other: ConflictCounts) -> None:
        for conflict, count in other.seen.values():
            self.add(conflict, count)

    def summary(self) -> list[tuple[object, int]]:
        """[(first conflict, count)], the most frequent first (ties: the first seen first)."""
        return sorted(((c, n) for c, n in self.seen.values()), key=lambda item: -item[1])


class Tally:
    """The figures of matches played (runner.MatchResult), added one by one or a tally at a time.
    `bounded`: see ConflictCounts (False for a chunk's tally)."""

    def __init__(self, bounded: bool = True):
        self.matches = 0
        self.actions = 0
        self.finished = 0
        self.draws = 0
        self.decisive = 0               # finished with a winner, the first player known
        self.first_wins = 0
        self.lengths: Counter = Counter()       # actions of a finished match -> matches
        self.many_seats = False                 # a finished match of three seats or more
        # over finished matches: by seat name, by pair of seat names (winner, loser), by bot, by card
        self.seat_games: Counter = Counter()
        self.seat_wins: Counter = Counter()
        self.pair_games: Counter = Counter()
        self.pair_wins: Counter = Counter()
        self.bot_games: Counter = Counter()
        self.bot_wins: Counter = Counter()
        # a match with a seat the setup fixes (a solo mode's AI): its players and its AI seats, apart
        self.solo_games: Counter = Counter()
        self.solo_wins: Counter = Counter()
        self.ai_games: Counter = Counter()
        self.ai_wins: Counter = Counter()
        # the other matches by (player count, seat name): a seat's rate at 2 players and at 3 differ
        self.count_games: Counter = Counter()
        self.count_wins: Counter = Counter()
        self.card_plays: Counter = Counter()
        self.card_matches: Counter = Counter()  # matches in which a player played it
        self.card_wins: Counter = Counter()     # ...and went on to win
        self.setups: dict[str, dict] = {}       # label -> counts (every match of that setup)
        self.conflicts = ConflictCounts(bounded)

    @classmethod
    def of(cls, results) -> Tally:
        tally = cls()
        for result in results:
            tally.add(result)
        return tally

    def __len__(self) -> int:
        return self.matches

    def add(self, r) -> None:
        self.matches += 1
        self.actions += r.actions
        for conflict in r.conflicts:
            self.conflicts.add(conflict)
        row = self.setups.get(r.setup)
        if row is None:
            row = self.setups[r.setup] = {"seats": list(r.seats), "matches": 0, "finished": 0,
                                          "draws": 0, "wins": [0] * len(r.seats), "decisive": 0,
                                          "first_wins": 0}
        row["matches"] += 1
        if not r.finished:
            return
        self.finished += 1
        self.lengths[r.actions] += 1
        self.many_seats |= len(r.seats) > 2
        row["finished"] += 1
        if r.winner is None:
            self.draws += 1
            row["draws"] += 1
        else:
            row["wins"][r.winner] += 1
            if r.first_player is not None and not r.fixed_seats:    # (an AI's opening is no player's)
                first_won = r.winner == r.first_player
                self.decisive += 1
                self.first_wins += first_won
                row["decisive"] += 1
                row["first_wins"] += first_won
        self._add_seats(r)
        self._add_cards(r)

    def _add_seats(self, r) -> None:
        """Matchups by seat name: with more than two seats the winner beat each of the others;
        two losers of the same match count for neither. A match against a fixed AI counts only
        for the solo figures: its players' rates and the AI's."""
        for i, bot in enumerate(r.bots):
            if i not in r.fixed_seats:      # (a fixed AI's bot is no choice of the user's)
                self.bot_games[bot] += 1
                self.bot_wins[bot] += r.winner == i
        if r.fixed_seats:
            for i, name in enumerate(r.seats):
                games, wins = (self.ai_games, self.ai_wins) if i in r.fixed_seats else \
                    (self.solo_games, self.solo_wins)
                games[name] += 1
                wins[name] += r.winner == i
            return
        players = len(r.seats)
        for i, name in enumerate(r.seats):
            self.count_games[(players, name)] += 1
            self.count_wins[(players, name)] += r.winner == i
            self.seat_games[name] += 1
            if r.winner == i:
                self.seat_wins[name] += 1
        if r.winner is not None:
            winner = r.seats[r.winner]
            for i, loser in enumerate(r.seats):
                if i != r.winner:
                    self.pair_games[(winner, loser)] += 1
                    self.pair_games[(loser, winner)] += 1
                    self.pair_wins[(winner, loser)] += 1

    def _add_cards(self, r) -> None:
        seen = set()
        for player, card in r.plays:
            self.card_plays[card] += 1
            if (player, card) not in seen:
                seen.add((player, card))
                self.card_matches[card] += 1
                self.card_wins[card] += r.winner == player

    def merge(self, other: Tally) -> None:
        """Add the matches `other` tallied, played after those tallied here."""
        for name in ("matches", "actions", "finished", "draws", "decisive", "first_wins"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.many_seats |= other.many_seats
        for name in ("lengths", "seat_games", "seat_wins", "pair_games", "pair_wins", "bot_games",
                     "bot_wins", "solo_games", "solo_wins", "ai_games", "ai_wins", "count_games",
                     "count_wins", "card_plays", "card_matches", "card_wins"):
            getattr(self, name).update(getattr(other, name))
        for label, theirs in other.setups.items():
            row = self.setups.get(label)
            if row is None:
                self.setups[label] = {**theirs, "wins": list(theirs["wins"])}
                continue
            for key in ("matches", "finished", "draws", "decisive", "first_wins"):
                row[key] += theirs[key]
            row["wins"] = [mine + more for mine, more in zip(row["wins"], theirs["wins"], strict=True)]
        self.conflicts.merge(other.conflicts)

    # -- the lengths of the finished matches, as statistics of the list of them ----------------

    def length_mean(self) -> float:
        """statistics.fmean of the lengths (the same float: an exact sum, divided once)."""
        return math.fsum(length * n for length, n in self.lengths.items()) / self.finished

    def length_stdev(self) -> float:
        """statistics.pstdev of the lengths (exact for whole numbers, whatever their order)."""
        return statistics.pstdev(itertools.chain.from_iterable(
            itertools.repeat(length, n) for length, n in self.lengths.items()))

    def length_at(self, rank: int) -> int:
        """The length at this place (from 0) of the sorted list of lengths."""
        for length in sorted(self.lengths):
            rank -= self.lengths[length]
            if rank < 0:
                return length
        raise IndexError(rank)
