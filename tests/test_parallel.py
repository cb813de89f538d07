"""How many processes cardgen may use: the CPUs this process may run on, not the machine's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cardgen import parallel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_a_process_pinned_to_one_cpu_uses_one():
    # as `taskset -c 0 cardgen render` does: os.cpu_count() still says every core of the machine
    code = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
            "from cardgen.parallel import usable_cpus; print(usable_cpus(), os.cpu_count())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT}).stdout.split()
    assert out[0] == "1", out


@pytest.mark.parametrize("files, quota", [
    ({"cpu.max": "150000 100000\n"}, 1.5),                     # cgroup v2: 1.5 CPUs
    ({"cpu.max": "max 100000\n"}, None),                       # v2, no limit
    ({"cpu/cpu.cfs_quota_us": "50000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 0.5),   # v1
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),     # v1, no limit
    ({}, None),                                                # no cgroup files at all
    ({"cpu.max": "lots 100000\n"}, None),                      # unreadable: no limit assumed
])
def test_a_cgroup_quota_is_read(tmp_path, files, quota):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert parallel._cgroup_quota(str(tmp_path)) == quota


def test_a_quota_caps_the_cpus(monkeypatch):
    monkeypatch.setattr(parallel, "_cgroup_quota", lambda: 1.5)
    assert parallel.usable_cpus() == min(2, len(os.sched_getaffinity(0)))
    monkeypatch.setattr(parallel, "_cgroup_quota", lambda: 0.25)
    assert parallel.usable_cpus() == 1


ORPHANED_LOCK = """
import gc, multiprocessing, multiprocessing.pool, os, signal, time
from cardgen.parallel import worker_pool

def task(n):
    if n == 0:      # a worker stopped while it sends a result: it holds the result queue's lock
        pool = next(o for o in gc.get_objects() if isinstance(o, multiprocessing.pool.Pool))
        pool._outqueue._wlock.acquire()
        os.kill(os.getpid(), signal.SIGKILL)
    return n

try:
    with worker_pool(multiprocessing.get_context("fork"), 2) as pool:
        pool.map_async(task, range(1))
        time.sleep(1)
        raise OSError("No space left on device")      # (as writing a result would, in this process)
except OSError as exc:
    print("raised:", exc)
import threading
print("threads left:", [t.name for t in threading.enumerate() if t is not threading.main_thread()])
"""


@pytest.mark.skipif(not parallel.can_fork(), reason="forked workers only")
def test_a_worker_stopped_while_it_held_the_result_lock_does_not_hang_the_pool():
    # multiprocessing's Pool.terminate() waits for ever on that lock (seen about one run in 35 of
    # test_render_parallel's full-disk test under load): the pool still ends, its threads with it,
    # and the error is raised
    done = subprocess.run([sys.executable, "-c", ORPHANED_LOCK], capture_output=True, text=True, timeout=90,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.stdout.splitlines() == ["raised: No space left on device", "threads left: []"], \
        done.stdout + done.stderr
