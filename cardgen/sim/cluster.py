"""A simulation's seeds played on a Dask cluster (`cardgen simulate --cluster tcp://HOST:8786`).

The same chunks of seeds as on one machine, each played by a cluster worker and handed back in
seed order, so the tally, and the report, are the ones a single machine makes with those seeds.
Only a few chunks per worker thread are out at a time: results stream back and are added up as
they come, so the memory of a million-match sweep stays flat here and on the workers.

A worker needs cardgen (with the `cluster` extra) and the game folder, and any deck files, at the
same paths as here (a shared file system, or a copy): it loads the game and runs its engine
itself, once per set-up, and keeps it for the chunks that follow. Matches run in the workers'
task threads, where the stuck-action watchdog (sim/watchdog.py) cannot interrupt them: a match
stuck inside one action holds its worker, so run a short sweep on one machine first.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque

from cardgen.errors import ContentError, Issue

_READY: dict = {}       # on a worker: the set-up (its arguments) its engine was made for
# A worker may run tasks in several threads; the engine, its matchups and the runner's state are
# one per process, so its chunks are played one at a time (start workers with --nthreads 1).
_PLAYING = threading.Lock()


def play_chunks_on_cluster(address: str, prepare, setup: tuple, play, chunks, take, progress) -> None:
    """Play every range in `chunks` on the cluster at `address` and give `take` each chunk's result
    in order. On a worker, `prepare(*setup)` readies the process (runner._init_worker, the game
    as its folder) and `play(seeds)` plays a chunk (runner._tally_chunk or _run_chunk): functions
    of a module, which Dask sends by name."""
    client = _connect(address)
    try:
        threads = max(1, sum(client.nthreads().values()))
        ahead = deque()
        chunks = iter(chunks)
        for seeds in itertools.islice(chunks, 4 * threads):
            ahead.append(client.submit(_play_chunk, prepare, setup, play, seeds, pure=False))
        while ahead:
            part = ahead.popleft().result()
            seeds = next(chunks, None)
            if seeds is not None:
                ahead.append(client.submit(_play_chunk, prepare, setup, play, seeds, pure=False))
            take(part)
            progress(len(part))
    finally:
        client.close()


def _connect(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise ContentError([Issue(None, None, "--cluster", "needs Dask's distributed package: "
                                                            "pip install 'cardgen[cluster]'")]) from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise ContentError([Issue(None, None, "--cluster", f"{address}: no Dask scheduler answered "
                                                            f"({exc})")]) from None


def _play_chunk(prepare, setup: tuple, play, seeds: range):
    """On a worker: make the engine and matchups for `setup` unless made already, then play."""
    with _PLAYING:
        if _READY.get("setup") != (prepare, setup):
            prepare(*setup)
            _READY["setup"] = (prepare, setup)
        return play(seeds)
