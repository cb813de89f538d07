"""When cardgen may start worker processes, and how; and how they stop on Ctrl-C.

Ctrl-C is the main process's alone to handle. A terminal sends SIGINT to every process of the
command, workers included: a worker that raised KeyboardInterrupt printed its traceback, and one
interrupted while holding a pool's queue lock left the pool unable to stop (the command hung
until a second Ctrl-C). So every forked process ignores SIGINT from the moment it exists, and
the main process, on KeyboardInterrupt, stops its workers with SIGTERM: a pool's, by leaving the
worker_pool block (they end outright, and the command removes what they were writing,
fsutil.remove_orphan_temps); any other worker process (the sheets' PDF writers), by
stop_workers: it removes the temporary file it was writing, stops its own workers the same way
and ends, silently.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
from contextlib import contextmanager, suppress

from cardgen.fsutil import discard_unfinished

STOP_SECONDS = 2.0      # how long a stopped worker is waited for (it ends in milliseconds)


def usable_cpus() -> int:
    """The CPUs this process may actually use: those its affinity allows, capped by a cgroup's CPU
    quota (a container given 1.5 CPUs of a 16-core host gets 2, not 16). os.cpu_count() counts
    the machine's, so `taskset -c 0 cardgen ...` ran two workers on one CPU, slower than one."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):     # (macOS and Windows have no affinity call)
        cpus = os.cpu_count() or 1
    quota = _cgroup_quota()
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return max(1, cpus)


def _cgroup_quota(root: str = "/sys/fs/cgroup") -> float | None:
    """CPUs' worth of time a cgroup allows this process (cgroup v2 cpu.max, else v1's
    cfs_quota_us / cfs_period_us), or None: no limit, or not Linux."""
    for quota_file, period_file in ((_own_cgroup() + "cpu.max", None), ("cpu.max", None),
                                    ("cpu/cpu.cfs_quota_us", "cpu/cpu.cfs_period_us"),
                                    ("cpu,cpuacct/cpu.cfs_quota_us", "cpu,cpuacct/cpu.cfs_period_us")):
        try:
            fields = _read_text(os.path.join(root, quota_file)).split()
            if period_file:
                fields.append(_read_text(os.path.join(root, period_file)).strip())
        except OSError:
            continue
        if len(fields) < 2 or fields[0] in ("max", "-1"):
            return None
        try:
            quota, period = int(fields[0]), int(fields[1])
        except ValueError:
            return None
        return quota / period if quota > 0 and period > 0 else None
    return None


def _own_cgroup() -> str:
    """This process's cgroup v2 folder under /sys/fs/cgroup ("" for the root, or unknown)."""
    try:
        lines = _read_text("/proc/self/cgroup").splitlines()
    except OSError:
        return ""
    own = [line[4:] for line in lines if line.startswith("0::/") and line != "0::/"]
    return own[0] + "/" if own else ""


def _read_text(path: str) -> str:
    with open(path, encoding="ascii", errors="replace") as file:
        return file.read()


def can_fork() -> bool:
    """Worker processes by fork: on Linux, not from a pool worker (daemons have no children), and
    not while other threads run (`cardgen watch`): a fork copies locks another thread may hold."""
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


@contextmanager
def worker_pool(context, processes: int, initializer=None, initargs=()):
    """A pool of `processes` workers for the block (context: multiprocessing.get_context(...)):
    closed and waited for when the block ends, terminated when it raises (Ctrl-C above all).
    A Ctrl-C while the pool is being made is held back until it is whole: interrupted halfway, a
    pool was left running with no one to stop it, replacing its workers as they were stopped
    (the command hung), and a worker just forked raised KeyboardInterrupt in its first line."""
    held = _HeldInterrupt()
    try:
        pool = context.Pool(processes, _pool_worker, (initializer, initargs))
    except BaseException:
        held.release()
        raise
    try:
        held.release()
        yield pool
        pool.close()
        pool.join()
    except BaseException:
        terminate_pool(pool)
        raise


TERMINATE_SECONDS = 5.0


def terminate_pool(pool) -> None:
    """pool.terminate(), bounded. A worker stopped while it was sending a result (terminated by
    the pool itself, or killed) leaves the result queue's lock held for ever, and CPython's
    terminate() then waits on it without end: seen about once in 35 runs of a full-disk test
    under load. After TERMINATE_SECONDS the workers still there are killed, the queue locks no
    live process can hold any more are released, and the pool's threads finish; should even
    that fail, they are daemon threads left waiting, and the command goes on to its error."""
    ender = threading.Thread(target=pool.terminate, name="terminate the pool", daemon=True)
    ender.start()
    ender.join(TERMINATE_SECONDS)
    if not ender.is_alive():
        return
    workers = list(getattr(pool, "_pool", ()))
    for worker in workers:
        if worker.exitcode is None:
            worker.kill()
    for worker in workers:
        worker.join(1.0)
    if all(worker.exitcode is not None for worker in workers):
        # the result queue's lock (a worker sending), and the task queue's (an idle worker waits
        # for its next task holding it): no live process holds either now
        for queue, name in ((getattr(pool, "_outqueue", None), "_wlock"),
                            (getattr(pool, "_inqueue", None), "_rlock")):
            lock = getattr(queue, name, None)
            if lock is not None:
                with suppress(ValueError):      # (it was free)
                    lock.release()
    ender.join(TERMINATE_SECONDS)


def _pool_worker(initializer, initargs) -> None:
    """First thing in a pool's worker: ignore Ctrl-C (already so when forked), and let SIGTERM
    end it outright: its pool stops it so, and a handler can miss a signal that comes just as
    the worker starts waiting on the pool's queue (the pool then waited for it forever)."""
    as_worker()
    if sys.platform != "win32":
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if initializer is not None:
        initializer(*initargs)


class _HeldInterrupt:
    """From now until release(), a SIGINT is noted instead of raised, and release() raises it. In
    the main thread, where Python handles signals (elsewhere nothing changes). A child forked
    meanwhile inherits the noting, until it ignores SIGINT (as_worker)."""

    def __init__(self):
        self.noted: list[int] = []
        self.holding = threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        if self.holding:
            signal.signal(signal.SIGINT, lambda signum, frame: self.noted.append(signum))

    def release(self) -> None:
        if self.holding:
            self.holding = False
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if self.noted:
            raise KeyboardInterrupt


def stop_workers() -> None:
    """Stop the worker processes this one started and has not stopped yet (on Ctrl-C), and wait
    for them: each removes its temporary file first; one still there after STOP_SECONDS is
    killed. A pool's own workers are left to the pool, which stops them when it is left (its
    terminate() must not find them gone)."""
    workers = [child for child in multiprocessing.active_children() if not child.daemon]
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(STOP_SECONDS)
        if worker.exitcode is None:     # (a signal can come just before it waits on something)
            worker.kill()
            worker.join()


def _stop_this_worker(signum, frame) -> None:
    """SIGTERM in a worker: its parent is stopping it (Ctrl-C). It ends
    here whatever happens: an exception let out of a handler that ran just after the fork, before
    the worker's own code began, went on to run the parent's code in the worker."""
    try:
        # (only its own: just after the fork it still holds the list of its parent's workers)
        workers = [w for w in multiprocessing.active_children() if w._parent_pid == os.getpid()]
        for worker in workers:
            worker.terminate()
        discard_unfinished()
        for worker in workers:
            worker.join(STOP_SECONDS)
    finally:
        os._exit(128 + signum)      # (no traceback, no exit handlers waiting on anything)


def as_worker() -> None:
    """Make this process a worker: Ctrl-C is its parent's to handle, and SIGTERM stops it. Done
    in every forked process before any code of its own runs, and first thing in a pool's worker
    (a spawned one, on Windows and macOS, is not forked)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform != "win32":     # (Windows stops a process outright: no signal to handle)
        signal.signal(signal.SIGTERM, _stop_this_worker)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=as_worker)
