"""cardgen.schedule: a graph of tasks over forked processes within a number of CPUs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from cardgen import schedule
from cardgen.schedule import Task, TaskCrashed, run_tasks

pytestmark = pytest.mark.skipif(not schedule.can_fork(), reason="tasks run in forked processes")


def _meet(jobs, mine: Path, theirs: Path) -> bool:
    """Leave a mark and wait for the other task's: True only if both run at once."""
    mine.write_text(str(os.getpid()))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if theirs.exists():
            return True
        time.sleep(0.01)
    return False


def test_two_tasks_run_side_by_side_on_two_cpus(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    results = run_tasks([Task("a", _meet, (a, b)), Task("b", _meet, (b, a))], cpus=2)
    assert results == {"a": True, "b": True}
    assert a.read_text() != b.read_text() != str(os.getpid())     # each in its own process


def test_a_task_starts_after_those_it_waits_for(tmp_path):
    log = tmp_path / "log"

    def step(jobs, name, reads=None):
        seen = (tmp_path / reads).read_text() if reads else ""
        (tmp_path / name).write_text(name)
        with open(log, "a") as file:
            file.write(name + "\n")
        return seen

    tasks = [Task("site", step, ("site", "cards"), after=("cards",)),
             Task("cards", step, ("cards",), seconds=0.1),
             Task("book", step, ("book",), seconds=5)]
    results = run_tasks(tasks, cpus=2)
    assert results["site"] == "cards"
    order = log.read_text().split()
    assert order.index("cards") < order.index("site")


def test_the_longest_chain_starts_first(tmp_path):
    started = []
    tasks = [Task("short", lambda jobs: "s", seconds=1), Task("long", lambda jobs: "l", seconds=9),
             Task("tail", lambda jobs: "t", after=("short",), seconds=20)]
    run_tasks(tasks, cpus=1, done=lambda task, result: started.append(task.key))
    assert started == ["short", "tail", "long"]     # short + tail: 21 s of chain, before long's 9


def test_spare_cpus_go_to_a_task_that_can_use_them():
    jobs = run_tasks([Task("wide", lambda jobs: jobs, widest=4), Task("narrow", lambda jobs: jobs,
                      after=("wide",))], cpus=2)
    assert jobs == {"wide": 2, "narrow": 1}
    side_by_side = run_tasks([Task("a", lambda jobs: jobs, widest=4), Task("b", lambda jobs: jobs)], cpus=2)
    assert side_by_side == {"a": 1, "b": 1}       # a second ready task takes the other CPU


def test_a_large_result_comes_back():
    results = run_tasks([Task(i, lambda jobs: "x" * 3_000_000) for i in range(3)], cpus=2)
    assert all(len(r) == 3_000_000 for r in results.values())


def test_a_bug_in_a_task_is_raised_with_its_traceback():
    def broken(jobs):
        raise ZeroDivisionError("no cards")

    with pytest.raises(TaskCrashed) as info:
        run_tasks([Task("fine", lambda jobs: 1), Task("broken", broken)], cpus=2)
    assert str(info.value) == "ZeroDivisionError: no cards (in 'broken')"
    assert "in broken" in str(info.value.__cause__)          # the task's own traceback


def test_a_task_whose_process_dies_is_reported():
    with pytest.raises(TaskCrashed, match="exit code 7"):
        run_tasks([Task("fine", lambda jobs: 1), Task("gone", lambda jobs: os._exit(7))], cpus=2)


def test_running_tasks_are_stopped_when_the_build_fails(tmp_path):
    pid_file = tmp_path / "pid"

    def slow(jobs):
        pid_file.write_text(str(os.getpid()))
        time.sleep(60)

    def fail_when_slow_runs(task, result):
        deadline = time.monotonic() + 20
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        run_tasks([Task("slow", slow, seconds=10), Task("quick", lambda jobs: 1)], cpus=2,
                  done=fail_when_slow_runs)
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):     # ended and waited for, not left running
        os.kill(pid, 0)


def test_a_graph_that_cannot_run_is_refused():
    with pytest.raises(ValueError, match="wait for each other"):
        run_tasks([Task("a", lambda jobs: 1, after=("b",)), Task("b", lambda jobs: 1, after=("a",))])
    with pytest.raises(ValueError, match="unknown"):
        run_tasks([Task("a", lambda jobs: 1, after=("c",))])


def test_with_one_cpu_tasks_run_here_in_order():
    pids = run_tasks([Task("a", lambda jobs: (os.getpid(), jobs)), Task("b", lambda jobs: (os.getpid(), jobs),
                                                                          after=("a",))], cpus=1)
    assert pids == {"a": (os.getpid(), None), "b": (os.getpid(), None)}


def test_what_a_task_loads_first_is_loaded_here_once_and_inherited():
    loaded = []

    def load():
        if not loaded:
            loaded.append(os.getpid())

    results = run_tasks([Task(i, lambda jobs: list(loaded), before=load) for i in range(3)], cpus=2)
    assert loaded == [os.getpid()]
    assert all(seen == [os.getpid()] for seen in results.values())
