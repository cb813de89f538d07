"""A watchdog for a match stuck inside one action.

The action cap (`Engine.max_actions`) stops a match that loops from action to action. A loop inside
one action (a trigger that sets itself off again, a `while` in an engine that never ends) never
returns to the runner, so no cap can see it: the watchdog stops such a match instead, and the
runner reports it as a rule conflict with its seed, like any other.

How: while matches run, a timer ticks every `limit` seconds and notes which action of which match
is under way (the match loop's `step`, read from its frame only at a tick; the scenario check uses
the same watch, a scenario counting as a match). An action that was already
under way at the previous tick has run at least `limit` seconds (at most twice that): the tick
raises MatchStuck inside it. A long match of quick actions is never stopped. Each match costs the
runner three attribute stores and each action nothing, not a system call. It works in the main
thread of a POSIX process (the simulator's process and its workers); elsewhere it does nothing,
and matches run unwatched as before.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

ACTION_SECONDS = 2.0        # an action of the bundled games, its bot's choice included, takes
                            # microseconds (a greedy bot's look-ahead, milliseconds)


class MatchStuck(BaseException):
    """Raised inside a match the watchdog found stuck. A BaseException, like KeyboardInterrupt, so
    that an engine's own `except Exception` cannot swallow it."""


class _Watch:
    __slots__ = ("match", "running", "seen", "limit", "codes")

    def __init__(self):
        self.match = 0          # matches started in this process
        self.running = False    # whether one is running now
        self.seen = None        # (match, step) under way at the previous tick
        self.limit = ACTION_SECONDS
        self.codes = set()      # the code of each match loop (the runner's, the scenarios'), whose
                                # local `step` counts its actions


WATCH = _Watch()


def _tick(signum, frame) -> None:
    w = WATCH
    at = _under_way(frame) if w.running else None
    if at is not None and at == w.seen:
        w.running = False       # (one raise per match)
        raise MatchStuck
    w.seen = at


def still_going() -> None:
    """A bot's long but finite think (the search bot, between two playouts) is not a stuck action:
    the next tick starts its count again. An action stuck inside one playout is still stopped."""
    WATCH.seen = None


def _under_way(frame):
    """(match, step) of the action a match loop is in, from the interrupted frame."""
    codes = WATCH.codes
    while frame is not None and frame.f_code not in codes:
        frame = frame.f_back
    return None if frame is None else (WATCH.match, frame.f_locals.get("step"))


def _usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def watching(limit: float | None = ACTION_SECONDS):
    """Watch the matches this process plays inside the block (limit None or 0: don't)."""
    if not limit or not _usable():
        yield
        return
    previous = signal.getsignal(signal.SIGALRM)
    caller_delay, caller_interval = _arm(limit)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if caller_delay:    # the caller's own alarm (a test runner's timeout, say) goes on
            left = max(caller_delay - (time.monotonic() - start), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, caller_interval)


def watch_this_process(limit: float | None = ACTION_SECONDS) -> None:
    """Watch every match of a worker process for the rest of its life (a pool worker, which ends
    with its pool)."""
    if limit and _usable():
        _arm(limit)


def _arm(limit: float) -> tuple[float, float]:
    """Tick every `limit` seconds from now; returns the timer it replaces (delay, interval)."""
    signal.signal(signal.SIGALRM, _tick)
    WATCH.seen, WATCH.limit = None, limit
    return signal.setitimer(signal.ITIMER_REAL, limit, limit)
