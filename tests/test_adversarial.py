"""Issue 20's adversarial inputs: what a careless or hostile user can do to cardgen. Each ends in
one clear line and the right exit code (2: fix your input or machine; 1: findings; 3: a bug in
cardgen; 130: interrupted), never a traceback, never a silent wrong, never a hang."""

from __future__ import annotations

import contextlib
import errno
import subprocess
import sys

import pytest

from cardgen import cli
from tests.conftest import ROOT

TIDE = ROOT / "tests" / "data" / "tide-runners"


def cardgen(*args, cwd=ROOT, timeout=180):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def test_an_internal_bug_is_one_line_and_exit_3(monkeypatch, capsys):
    def broken(args):
        return {}["missing"]

    monkeypatch.setattr(cli, "cmd_games", broken)
    assert cli.main(["games"]) == 3
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("internal error: a bug in cardgen") and "KeyError" in err and "--debug" in err


@pytest.mark.parametrize("where", [["--debug", "games"], ["games", "--debug"]])
def test_debug_shows_the_traceback_of_an_internal_bug(monkeypatch, capsys, where):
    monkeypatch.setattr(cli, "cmd_games", lambda args: 1 / 0)
    assert cli.main(where) == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and "ZeroDivisionError" in err


def test_a_full_disk_is_the_path_and_the_reason_exit_2(monkeypatch, capsys, tmp_path):
    import cardgen.fsutil as fsutil

    def full(path, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(fsutil, "write_atomic", full)
    assert cli.main(["schema", str(TIDE), "--out", str(tmp_path / "schema")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "No space left on device" in err and "schema" in err


@pytest.mark.parametrize("command", [["render", TIDE], ["sheets", TIDE], ["rulebook", TIDE],
                                     ["build", TIDE, "--only", "cards"], ["schema", TIDE]])
def test_out_naming_a_file_is_refused_before_any_work(tmp_path, command):
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    result = cardgen(*command, "--out", afile)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == f"error: --out {afile}: is a file, not a folder"
    assert afile.read_text() == "mine"


def test_new_onto_a_file_is_refused(tmp_path):
    afile = tmp_path / "mygame"
    afile.write_text("mine")
    result = cardgen("new", afile)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert afile.read_text() == "mine"


# items 5 and 6: Ctrl-C stops any command at once, with one line and no temporary file left;
# a simulation streams its matches, whatever their number

def _start(*args, cwd=ROOT):
    """A cardgen command in its own process group, as a terminal runs it (with Ctrl-C working even
    when the tests run where SIGINT is ignored, as in a script's background job)."""
    import signal

    return subprocess.Popen([sys.executable, "-m", "cardgen", *map(str, args)], cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_until(done, proc, what: str, seconds: float = 60) -> None:
    import time

    end = time.monotonic() + seconds
    while not done():
        if proc.poll() is not None:
            pytest.fail(f"ended (exit {proc.returncode}) before {what}: {proc.stderr.read()[-2000:]}")
        if time.monotonic() > end:
            proc.kill()
            pytest.fail(f"never {what}")
        time.sleep(0.02)


def _ctrl_c(proc, to: str) -> tuple[int, str]:
    """SIGINT to the command's process group (a terminal's Ctrl-C) or to its main process alone:
    (exit code, stderr). A command still running 20 s later has hung."""
    import os
    import signal

    (os.killpg if to == "group" else os.kill)(proc.pid, signal.SIGINT)
    try:
        _out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("still running 20 s after Ctrl-C")
    return proc.returncode, err


needs_proc = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc, sends signals")


@needs_proc
@pytest.mark.parametrize("to", ["group", "parent"])
def test_ctrl_c_while_cards_are_drawn_stops_in_one_line_and_leaves_no_temporary_file(tmp_path, to):
    out = tmp_path / "out"
    proc = _start("render", TIDE, "amiibart", "--no-cache", "--jobs", "2", "--out", out)
    _wait_until(lambda: any((out / "tide-runners" / "cards").glob("*.png")), proc, "drawing a card")
    assert _ctrl_c(proc, to) == (130, "interrupted\n")
    assert not list(out.rglob(".*.tmp"))


def test_an_interrupted_command_says_so_in_one_line_and_exits_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_games", interrupted)
    assert cli.main(["games"]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_an_interrupt_inside_an_exec_still_exits_130(tmp_path):
    # (CPython marks a KeyboardInterrupt inside exec() of a string as unhandled, and `python -m`
    # then ended the process with SIGINT, however it was handled; dataclasses exec their methods
    # as modules load. The modules Ctrl-C's handling loads are loaded already, as after any work.)
    (tmp_path / "interrupted_in_exec.py").write_text(
        "import sys\nfrom cardgen import cli, parallel\n\n"
        "cli.cmd_games = lambda args: exec('raise KeyboardInterrupt')\nsys.exit(cli.main(['games']))\n")
    result = _python("-m", "interrupted_in_exec", path=tmp_path)
    assert (result.returncode, result.stderr) == (130, "interrupted\n")


@needs_proc
def test_a_ctrl_c_once_the_work_is_done_is_ignored():
    # (Python's exit takes a moment: an interrupt in it ended the finished command with a
    # traceback, or by the signal)
    result = _python("-c", "import os, signal, sys, time; from cardgen import cli; "
                           "sys.argv = ['cardgen', 'games']; code = cli.main(); "
                           "os.kill(os.getpid(), signal.SIGINT); time.sleep(0.2); sys.exit(code)")
    assert result.returncode == 0 and "Traceback" not in result.stderr


def _python(*args, path=None):
    import os

    where = os.pathsep.join(str(p) for p in (path, ROOT) if p)
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": where})


@needs_proc
def test_a_write_interrupted_at_any_step_leaves_no_temporary_file(tmp_path):
    from cardgen.fsutil import write_atomic

    target = tmp_path / "card.png"
    for step in range(1, 10_000):
        target.write_bytes(b"old")
        with _hang_fails(f"a write interrupted at step {step - 1} left a lock held: step {step}"), \
                _interrupt_at_line(step) as fired:
            write_atomic(target, b"new")
        assert [p.name for p in tmp_path.iterdir()] == ["card.png"], f"interrupted at step {step}"
        assert target.read_bytes() in (b"old", b"new")
        if not fired:       # (the write ran to its end before that step)
            break


@contextlib.contextmanager
def _hang_fails(what: str, seconds: int = 20):
    """Fail, instead of hanging the suite, when the block is still running after `seconds`."""
    import signal

    def hung(signum, frame):
        sys.settrace(None)      # (no interrupt of _interrupt_at_line's in the failure)
        pytest.fail(f"hung: {what}")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class _interrupt_at_line:
    """Raise KeyboardInterrupt (as a Ctrl-C does) before the n-th line of Python run inside the
    block, in any function; `fired` tells whether there was an n-th line."""

    def __init__(self, n: int):
        self.left = n
        self.fired = False

    def __enter__(self):
        self.before = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, kind, exc, tb):
        sys.settrace(self.before)
        return kind is KeyboardInterrupt

    def __bool__(self):
        return self.fired

    def _call(self, frame, event, arg):
        return None if frame.f_code.co_filename == __file__ else self._line    # (not this helper's)

    def _line(self, frame, event, arg):
        if event == "line" and not self.fired:
            self.left -= 1
            if not self.left:
                self.fired = True
                raise KeyboardInterrupt
        return self._line


def _write_forever(path):
    """In a worker: write `path`, stalling once its temporary file is written."""
    import os
    import time

    from cardgen.fsutil import write_atomic

    os.replace = lambda *args: time.sleep(60)
    write_atomic(path, b"half a sheet")


@needs_proc
def test_a_worker_its_parent_stops_removes_the_file_it_was_writing(tmp_path):
    import multiprocessing

    import cardgen.parallel  # noqa: F401  (how cardgen's workers are made)

    worker = multiprocessing.get_context("fork").Process(target=_write_forever, args=(tmp_path / "a.pdf",))
    worker.start()
    _wait_until(lambda: list(tmp_path.glob(".*.tmp")), worker_proc(worker), "writing")
    worker.terminate()      # (what a pool's terminate() or the main process's Ctrl-C does)
    worker.join(20)
    assert worker.exitcode is not None, "the worker did not stop"
    assert not list(tmp_path.glob(".*.tmp"))


def worker_proc(worker):
    """A multiprocessing.Process seen as the subprocess _wait_until watches."""
    class Seen:
        returncode = None
        stderr = None

        def poll(self):
            return worker.exitcode

        def kill(self):
            worker.kill()
    return Seen()


def test_a_later_build_removes_a_temporary_file_a_killed_writer_left(tmp_path, capsys):
    import os
    import time

    out = tmp_path / "out"
    cards = out / "tide-runners" / "cards"
    cards.mkdir(parents=True)
    gone = _a_finished_process()
    left = cards / f".harbour-master.png.{gone}-0123456789abcdef.tmp"     # (kill -9 mid-write)
    live = cards / f".harbour-master.png.{os.getpid()}-0123456789abcdef.tmp"   # (a live writer's)
    for temp in (left, live):
        temp.write_bytes(b"half a card")
        os.utime(temp, (time.time() - 3600, time.time() - 3600))
    assert cli.main(["render", str(TIDE), "--out", str(out)]) == 0
    assert not left.exists() and live.exists()


@needs_proc
@pytest.mark.parametrize("command", ["simulate", "render"])
def test_a_ctrl_c_while_workers_start_stops_them(monkeypatch, tmp_path, command):
    # (a KeyboardInterrupt inside Pool() left a pool running that no one stopped: it replaced its
    # workers as they were stopped at exit, and the command hung)
    import multiprocessing
    import os
    import signal

    from cardgen.model import load_game
    from cardgen.render import render_game
    from cardgen.sim.runner import simulate

    made = []
    real = multiprocessing.get_context

    class Interrupting:
        """A context whose pools are hit by Ctrl-C the moment they are made."""

        def __init__(self, method):
            self.context = real(method)

        def __getattr__(self, name):
            return getattr(self.context, name)

        def Pool(self, *args, **kwargs):  # noqa: N802  (multiprocessing's name)
            made.append(self.context.Pool(*args, **kwargs))
            os.kill(os.getpid(), signal.SIGINT)
            return made[-1]

    monkeypatch.setattr(multiprocessing, "get_context", Interrupting)
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            if command == "simulate":
                simulate(load_game(TIDE), matches=200, jobs=2)
            else:
                render_game(load_game("amiibart"), tmp_path, jobs=2, use_cache=False)
        assert made and not multiprocessing.active_children(), "a pool was left running"
    finally:
        signal.signal(signal.SIGINT, handler)
        for pool in made:
            pool.terminate()


def test_ctrl_c_removes_what_a_stopped_worker_was_writing(monkeypatch, capsys, tmp_path):
    # (a pool's workers end outright when it stops them: their unfinished files stayed in out/)
    out = tmp_path / "out"
    cards = out / "tide-runners" / "cards"
    cards.mkdir(parents=True)
    gone = _a_finished_process()
    left = cards / f".harbour-master.png.{gone}-0123456789abcdef.tmp"     # (its writer just stopped)
    kept = cards / ".notes.tmp"                                            # (not cardgen's)

    def interrupted(args):
        left.write_bytes(b"half a card")
        kept.write_text("mine")
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_render", interrupted)
    assert cli.main(["render", str(TIDE), "--out", str(out)]) == 130
    assert not left.exists() and kept.exists()


def _a_finished_process() -> str:
    return subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()

# (item 6: streamed matches)

def _children(pid: int) -> list[str]:
    from pathlib import Path

    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


@needs_proc
def test_ctrl_c_stops_a_simulation_of_a_trillion_matches(tmp_path):
    # (it streams the matches: listing their seeds first ran out of memory, or took minutes)
    proc = _start("simulate", TIDE, "--matches", 10**12, "--jobs", "2", "--out", tmp_path)
    _wait_until(lambda: len(_children(proc.pid)) >= 2, proc, "starting its workers")
    assert _ctrl_c(proc, "group") == (130, "interrupted\n")


def test_a_simulation_hands_out_its_seeds_as_they_are_needed(monkeypatch):
    # (it listed a seed for every match first: --matches 1000000000 built a list of 36 GB)
    from cardgen.model import load_game
    from cardgen.sim import runner

    class Enough(Exception):
        pass

    def progress(enabled, done, total):
        raise Enough(done)

    monkeypatch.setattr(runner, "_progress", progress)
    for jobs in (1, 2):
        with pytest.raises(Enough) as played:
            runner.simulate(load_game(TIDE), matches=10**15, jobs=jobs, progress=True)
        assert 0 < played.value.args[0] <= 500


def test_a_report_added_up_as_the_matches_come_is_the_report_of_every_match(tmp_path):
    from cardgen.model import load_game
    from cardgen.sim.report import build_report
    from cardgen.sim.runner import simulate, simulate_tally
    from tests.conftest import borrowed_engine

    game = load_game(borrowed_engine("broken-amfibido", tmp_path))
    results, _ = simulate(game, matches=240, seed=3, jobs=1)
    assert any(r.conflicts for r in results)
    for jobs in (1, 2):
        tally, _ = simulate_tally(game, matches=240, seed=3, jobs=jobs)
        assert build_report(game, tally, 1.0) == build_report(game, results, 1.0)


def test_distinct_conflicts_kept_are_bounded_and_the_same_however_chunked(monkeypatch):
    from cardgen.sim import tally
    from cardgen.sim.runner import Conflict

    monkeypatch.setattr(tally, "MAX_CONFLICTS", 3)
    conflicts = [Conflict("rule", f"message {i % 7}", seed=i) for i in range(40)]
    whole = tally.ConflictCounts()
    for c in conflicts:
        whole.add(c)
    chunked = tally.ConflictCounts()
    for start in range(0, 40, 6):
        part = tally.ConflictCounts(bounded=False)     # (a chunk's, as a worker adds them up)
        for c in conflicts[start:start + 6]:
            part.add(c)
        chunked.merge(part)
    summary = [(c.message, c.seed, n) for c, n in whole.summary()]
    assert summary == [(c.message, c.seed, n) for c, n in chunked.summary()]
    assert len(summary) == 4 and sum(n for *_, n in summary) == 40
    assert summary[0] == (tally.OTHER_MESSAGES, 3, 22)
