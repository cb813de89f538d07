"""How the suite runs (tests/conftest.py): as many xdist workers as this process has CPUs, and no
test sees a thread that an earlier test in its process started."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def run_pytest(folder, test_code: str, *args, pin_to_one_cpu: bool = False) -> subprocess.CompletedProcess:
    """pytest, with this suite's conftest as a plugin, on one test file holding `test_code`."""
    (folder / "test_sample.py").write_text(test_code)
    pin = (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if pin_to_one_cpu else None
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}  # (this run's xdist's)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
                           "-q", "-s", *args, "test_sample.py"], cwd=folder, preexec_fn=pin,
                          env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)


WHERE = """import os

def test_where():
    print("ran in", os.environ.get("PYTEST_XDIST_WORKER", "pytest's own process"))
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_on_one_cpu_n_auto_runs_the_tests_without_a_worker(tmp_path):
    # xdist would start one worker (its count ignores cgroup quotas, and with psutil, affinity):
    # the same work as no worker, plus a second interpreter collecting every test
    done = run_pytest(tmp_path, WHERE, "-n", "auto", pin_to_one_cpu=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ran in pytest's own process" in done.stdout, done.stdout


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs two CPUs")
def test_n_auto_starts_a_worker_per_usable_cpu(tmp_path):
    from cardgen.parallel import usable_cpus

    done = run_pytest(tmp_path, WHERE, "-n", "auto", "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"created: {usable_cpus()}/{usable_cpus()} workers" in done.stdout, done.stdout


def test_a_thread_a_test_started_has_ended_when_the_next_test_begins(tmp_path):
    # as Playwright leaves its event loop's threads ending: the next test in that process saw
    # them, and cardgen then draws without forking (parallel.can_fork)
    done = run_pytest(tmp_path, """import threading, time

def test_starts_a_thread():
    threading.Thread(target=time.sleep, args=(0.5,)).start()

def test_next():
    assert threading.active_count() == 1, threading.enumerate()
""")
    assert done.returncode == 0, done.stdout + done.stderr
