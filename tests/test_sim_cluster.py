"""`cardgen simulate --cluster`: the same seeded matches played by a Dask cluster's workers give
the report one machine gives (issue 22, item 3).

The cluster and the commands run in processes of their own: a Dask client or scheduler leaves
threads running in its process, and cardgen forks workers only from a process with one thread.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from cardgen.sim import cluster as sim_cluster
from tests.conftest import ROOT

pytest.importorskip("distributed", reason="the cluster extra (pip install 'cardgen[cluster]')")

CLUSTER = textwrap.dedent("""
    import sys
    from distributed import LocalCluster
    # worker processes, as on a real cluster: each loads the game and its engine itself
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50) as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()        # until the test closes its end
""")


@pytest.fixture(scope="module")
def scheduler():
    process = subprocess.Popen([sys.executable, "-c", CLUSTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        address = process.stdout.readline().strip()
        assert address.startswith("tcp://"), address
        yield address
    finally:
        process.stdin.close()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def _simulate(*args, out) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", "simulate", *args, "--format", "json",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize("game_id", ["dojo-duel", "adapt"])
def test_a_cluster_gives_the_report_one_machine_gives(scheduler, game_id, tmp_path):
    """1,200 matches: three chunks of 500 seeds, on two workers."""
    common = [game_id, "--matches", "1200", "--seed", "7"]
    here = _simulate(*common, "--jobs", "2", out=tmp_path / "here")
    there = _simulate(*common, "--cluster", scheduler, out=tmp_path / "there")
    assert here.returncode == there.returncode == 0, here.stderr + there.stderr
    mine, theirs = json.loads(here.stdout), json.loads(there.stdout)
    # (the seconds a run took, its speed, are the one figure two runs never share)
    for report in (mine, theirs):
        report.pop("speed")
    assert theirs["matches"] == 1200
    assert json.dumps(theirs, indent=2) == json.dumps(mine, indent=2)


class _Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


class _ClientPlayingAtOnce:
    """A stand-in client: each task is played when submitted, on this process."""

    submitted: list[range] = []

    def nthreads(self):
        return {"worker": 1}

    def submit(self, function, *args, pure=True):
        self.submitted.append(args[-1])
        return _Done(function(*args))

    def close(self):
        pass


def test_chunks_are_taken_in_seed_order_with_few_ahead(monkeypatch):
    monkeypatch.setattr(sim_cluster, "_connect", lambda address: _ClientPlayingAtOnce())
    prepared = []
    taken, seen = [], []
    chunks = (range(i, i + 3) for i in range(0, 30, 3))
    sim_cluster.play_chunks_on_cluster("tcp://x", prepared.append, ("game",), list, chunks, taken.extend,
                                       seen.append)
    assert prepared == ["game"]         # once for the process, not once a chunk
    assert taken == list(range(30)) and seen == [3] * 10
    assert _ClientPlayingAtOnce.submitted[:5] == [range(0, 3), range(3, 6), range(6, 9), range(9, 12),
                                                  range(12, 15)]      # 4 a thread out, then one a chunk


def test_no_scheduler_at_the_address_is_said_not_a_traceback(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardgen", "simulate", "dojo-duel", "--matches", "10",
                           "--cluster", "tcp://127.0.0.1:9", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert "--cluster: tcp://127.0.0.1:9: no Dask scheduler answered" in done.stderr
    assert "Traceback" not in done.stderr
