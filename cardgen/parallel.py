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
