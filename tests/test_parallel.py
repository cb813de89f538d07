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
