"""Which piece of a render each drawing process takes next.

A render of several games is cut into chunks (a few cards each) and drawn by one set of processes.
Each process takes its next chunk here, under a lock, as it becomes free:

1. the next chunk of the game it is drawing, while that game has any;
2. else the first chunk of the largest game no one has started;
3. else the next chunk of the game with the most chunks left (it helps another process finish).

So a game is drawn by one process as a whole unit (its layouts loaded, its fonts, glyphs and
backgrounds warmed once), the largest games start first, and only at the end do two processes
share a game, a chunk at a time, so that they finish together. Taking the next chunk as a process
becomes free, not a share fixed in advance, keeps that true when one core runs slower (another
program is busy on it).
"""

from __future__ import annotations

import contextlib

CHUNK = 4       # items a process takes at a time: it idles at most that long at the end


def chunk_counts(items: list[int]) -> list[int]:
    """Each game's chunks, for games of `items` items each."""
    return [-(-n // CHUNK) for n in items]


def chunk_items(chunk: int, items: int) -> range:
    """The items (0-based) of one of a game's chunks."""
    return range(chunk * CHUNK, min(items, (chunk + 1) * CHUNK))


def next_game(taken: list[int], chunks: list[int], current: int | None) -> int | None:
    """The game whose next chunk a process drawing `current` takes (rules 1-3 above); None when
    every chunk is taken."""
    left = [total - done for total, done in zip(chunks, taken, strict=True)]
    if current is not None and left[current] > 0:
        return current
    games = range(len(chunks))
    fresh = [g for g in games if taken[g] == 0 and left[g] > 0]
    if fresh:
        return max(fresh, key=lambda g: left[g])        # (on a tie, the first)
    started = [g for g in games if left[g] > 0]
    return max(started, key=lambda g: left[g]) if started else None


class Claims:
    """The chunks taken so far, per game. With `context` (multiprocessing's), kept in shared
    memory for the processes forked or spawned from this one (handed to a spawned process as it
    starts); without, for this process alone."""

    def __init__(self, chunks: list[int], context=None):
        self.chunks = list(chunks)
        if context is None:
            self.taken, self.lock = [0] * len(chunks), contextlib.nullcontext()
        else:
            self.taken, self.lock = context.RawArray("i", len(chunks)), context.Lock()

    def take(self, current: int | None) -> tuple[int, int] | None:
        """(game, chunk) for the process drawing `current` (None: none yet), or None: all taken."""
        with self.lock:
            game = next_game(list(self.taken), self.chunks, current)
            if game is None:
                return None
            chunk = self.taken[game]
            self.taken[game] = chunk + 1
            return game, chunk

    def give_up(self, game: int) -> None:
        """No one is to take the rest of `game` (its layouts do not load)."""
        with self.lock:
            self.taken[game] = self.chunks[game]

    def total(self) -> int:
        return sum(self.chunks)
