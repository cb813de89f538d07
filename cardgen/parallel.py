"""When cardgen may start worker processes, and how."""

from __future__ import annotations

import multiprocessing
import sys


def can_fork() -> bool:
    """Worker processes by fork: on Linux, not from a pool worker (daemons have no children), and
    not while other threads run (`cardgen watch`): a fork copies locks another thread may hold."""
    import threading

    return sys.platform.startswith("linux") and not multiprocessing.current_process().daemon \
        and threading.active_count() == 1


def can_spawn() -> bool:
    """Worker processes started afresh (Windows, macOS): anywhere but inside a pool worker."""
    return not sys.platform.startswith("linux") and not multiprocessing.current_process().daemon


def first_of_each(items: list, group) -> tuple[list, list]:
    """(the first item of each group, in order; the rest, in order). Work done on the firsts in
    the parent before forking loads what the group needs once (fonts, glyphs, backgrounds) and
    every worker inherits it, instead of each worker loading its own."""
    seen, firsts, rest = set(), [], []
    for item in items:
        key = group(item)
        if key in seen:
            rest.append(item)
        else:
            seen.add(key)
            firsts.append(item)
    return firsts, rest
