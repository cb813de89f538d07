"""Run a graph of tasks over worker processes, within a number of CPUs.

A task is a function with its arguments, the tasks it must wait for, an estimate of its seconds
and how many processes it can use at most. Each runs in a process forked for it (it inherits
what this process has loaded: games, fonts, imported libraries; and its memory goes back to the
system when it ends), with `jobs`, the processes it may use itself, as its first argument.

Which task starts next: the one at the head of the longest chain of work still to do (its own
estimate plus the longest chain waiting on it). So the long chains start first and the short
tasks fill the gaps at the end, where two cores would otherwise wait for one. A task is given
more than one process only when there are CPUs no other ready task can use (one game built
alone, the last tasks of a build); otherwise every task gets one and the tasks run side by side,
which costs no start-up of pools and no duplicated warm-up.

Without fork (Windows, macOS), inside a worker, or beside other threads, the tasks run here one
after another, each with every CPU (jobs=None), as before.
"""

from __future__ import annotations

import gc
import multiprocessing
import traceback
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from cardgen.parallel import can_fork, usable_cpus


@dataclass
class Task:
    key: Hashable
    run: Callable                       # run(jobs, *args) -> a picklable result
    args: tuple = ()
    after: tuple = ()                   # keys of the tasks whose outputs it reads
    seconds: float = 1.0                # estimated, to start the longest chains first
    widest: int = 1                     # the most processes it can use
    label: str = ""                     # what it is, for messages (default: its key)
    before: Callable | None = None      # run here just before it starts (imports its process inherits)


class TaskCrashed(RuntimeError):
    """A task raised an exception it was not meant to (a bug), or its process died. Its message
    is the exception's last line and the task; its cause, the task's own traceback (shown by
    traceback.print_exc, as `--debug` does)."""


class _TaskTraceback(Exception):
    def __str__(self) -> str:
        return "\n\n" + self.args[0]


def run_tasks(tasks: list[Task], cpus: int | None = None,
              done: Callable[[Task, object], None] | None = None) -> dict:
    """Run every task, each after those it waits for; returns {key: result}. `done(task, result)`
    is called in this process as each one finishes. An exception in a task is raised here (as
    TaskCrashed when it ran in a worker) once the running tasks are stopped."""
    _check_graph(tasks)
    cpus = max(1, cpus or usable_cpus())
    if cpus == 1 or len(tasks) == 1 or not can_fork():
        return _run_here(tasks, done)
    return _Runner(tasks, cpus, done).run()


def _check_graph(tasks: list[Task]) -> None:
    keys = {task.key for task in tasks}
    if len(keys) != len(tasks):
        raise ValueError("two tasks have the same key")
    for task in tasks:
        unknown = [k for k in task.after if k not in keys]
        if unknown:
            raise ValueError(f"task {task.key!r} waits for unknown tasks {unknown!r}")
    _dependency_order(tasks)        # (raises on a cycle)


def _dependency_order(tasks: list[Task]) -> list:
    """The keys, each after those it waits for; ValueError when some wait for each other."""
    waiting = {task.key: set(task.after) for task in tasks}
    order: list = []
    while waiting:
        ready = [k for k, deps in waiting.items() if not deps]
        if not ready:
            raise ValueError(f"tasks wait for each other: {sorted(map(repr, waiting))}")
        for key in ready:
            del waiting[key]
        for deps in waiting.values():
            deps.difference_update(ready)
        order += ready
    return order


def chain_seconds(tasks: list[Task]) -> dict:
    """{key: the estimated seconds of the task and the longest chain of tasks waiting on it}."""
    by_key = {task.key: task for task in tasks}
    followers: dict = {task.key: [] for task in tasks}
    for task in tasks:
        for key in task.after:
            followers[key].append(task.key)
    chain: dict = {}
    for key in reversed(_dependency_order(tasks)):
        chain[key] = by_key[key].seconds + max((chain[k] for k in followers[key]), default=0.0)
    return chain


def _order(tasks: list[Task]) -> list[Task]:
    """The order to run the tasks one at a time: of those whose turn has come, the head of the
    longest chain first."""
    chain = chain_seconds(tasks)
    by_key = {task.key: task for task in tasks}
    waiting = {task.key: set(task.after) for task in tasks}
    order: list[Task] = []
    while waiting:
        key = max((k for k, deps in waiting.items() if not deps), key=lambda k: chain[k])
        order.append(by_key[key])
        del waiting[key]
        for deps in waiting.values():
            deps.discard(key)
    return order


def _run_here(tasks: list[Task], done) -> dict:
    results = {}
    for task in _order(tasks):
        if task.before:
            task.before()
        results[task.key] = task.run(None, *task.args)
        if done:
            done(task, results[task.key])
    return results


@dataclass
class _Running:
    task: Task
    process: multiprocessing.Process
    reader: object
    jobs: int


@dataclass
class _Runner:
    tasks: list[Task]
    cpus: int
    done: Callable | None
    results: dict = field(default_factory=dict)
    running: dict = field(default_factory=dict)       # its result's pipe -> _Running

    def run(self) -> dict:
        self.chain = chain_seconds(self.tasks)
        self.waiting = {task.key: set(task.after) for task in self.tasks}
        self.by_key = {task.key: task for task in self.tasks}
        # What this process has made so far stays out of the tasks' garbage collections, which
        # would otherwise write to (and so copy) every page it is on: 12% fewer page faults
        gc.freeze()
        try:
            while self.waiting or self.running:
                self._start_ready()
                self._finish(wait(list(self.running)))
        finally:
            self._stop_all()
            gc.unfreeze()
        return self.results

    def _start_ready(self) -> None:
        ready = sorted((k for k, deps in self.waiting.items() if not deps), key=lambda k: -self.chain[k])
        free = self.cpus - sum(entry.jobs for entry in self.running.values())
        starting = ready[:max(0, free)]
        spare = free - len(starting)     # CPUs no ready task takes: to those that can use them
        for key in starting:
            task = self.by_key[key]
            extra = min(task.widest - 1, spare)
            spare -= extra
            del self.waiting[key]
            self._start(task, 1 + extra)

    def _start(self, task: Task, jobs: int) -> None:
        if task.before:
            task.before()
        reader, writer = multiprocessing.Pipe(duplex=False)
        process = multiprocessing.get_context("fork").Process(
            target=_in_worker, args=(writer, task.run, jobs, task.args), name=f"cardgen {task.key}")
        process.start()
        writer.close()
        self.running[reader] = _Running(task, process, reader, jobs)

    def _finish(self, readers) -> None:
        """The tasks whose result came (or whose process ended without one: the pipe closed).
        Waiting on the pipe, not the process: a result larger than the pipe holds keeps its
        process from ending until it is read."""
        for reader in readers:
            entry = self.running.pop(reader)
            outcome = _receive(entry)
            if outcome[0] != "ok":
                _raise_crash(entry.task, outcome)
            self.results[entry.task.key] = outcome[1]
            for deps in self.waiting.values():
                deps.discard(entry.task.key)
            if self.done:
                self.done(entry.task, outcome[1])

    def _stop_all(self) -> None:
        """Stop the tasks still running (an error or Ctrl-C here): each removes its temporary
        files and stops its own workers (cardgen.parallel.as_worker)."""
        for entry in self.running.values():
            entry.process.terminate()
        for entry in self.running.values():
            entry.process.join()
            entry.reader.close()
        self.running.clear()


def _raise_crash(task: Task, outcome: tuple) -> None:
    kind, text = outcome
    last = text.strip().splitlines()[-1] if kind == "crashed" else text
    crash = TaskCrashed(f"{last} (in {task.label or repr(task.key)})")
    raise crash from (_TaskTraceback(text) if kind == "crashed" else None)


def _receive(entry: _Running) -> tuple:
    """("ok", result), ("crashed", traceback) or ("died", why), and the task's process waited for."""
    try:
        outcome = entry.reader.recv()
    except (EOFError, OSError):
        outcome = None
    finally:
        entry.reader.close()
    entry.process.join()
    if outcome is None:
        code = entry.process.exitcode
        how = f"killed by signal {-code}" if code and code < 0 else f"exit code {code}"
        outcome = ("died", f"its process ended ({how}) before finishing")
    return outcome


def _in_worker(writer, run, jobs: int, args: tuple) -> None:
    try:
        outcome = ("ok", run(jobs, *args))
    except BaseException as exc:        # a bug: its traceback goes to the parent, which raises it
        outcome = ("crashed", "".join(traceback.format_exception(exc)).rstrip())
    writer.send(outcome)
    writer.close()
