"""One command measured as its user pays for it: a whole process tree, from its start to its exit.

`measure` runs the command and returns a Usage:

- wall: seconds from its start to its exit.
- cpu: user + system seconds of the process and of every descendant it waited for (the resource
  usage os.wait4 gives for the child: a pool's workers count once they are joined); cores = cpu / wall.
- rss_mib: the peak, over samples every INTERVAL seconds, of the resident memory SUMMED over every
  process of the tree (/proc/PID/statm). A page a forked worker still shares with its parent counts
  in each of them: this is how issue 24 measured "558-573 MiB summed", an upper bound.
- pss_mib: the peak of the proportional set size summed over the tree (/proc/PID/smaps_rollup): a
  page shared by n processes counts 1/n in each, so the sum counts it once. This is the memory the
  machine really spends. Reading it walks the processes' page tables (some 3 ms of CPU per 100 MB
  here), so it is not read at every sample: whenever the summed RSS passes its highest value at a
  PSS reading by RISE (the two peak together: forked workers grow both as they dirty pages, and
  end together), and otherwise as often as PSS_SHARE of one core allows. Its peak may be a few
  percent under the true one (2-4% under reading it at every sample, which took 0.17-0.22 cores
  against 0.06-0.08, for the whole-set render).
- largest_mib: the peak resident memory of the largest single process (ru_maxrss), the figure the
  older benches reported.
- others_cores: the cores the rest of the machine used meanwhile (/proc/stat's busy time, less the
  tree's and this sampler's): how noisy the neighbours were.

Linux only (/proc). The processes of the tree are found through /proc/PID/task/TID/children: every
thread's, since a child is listed under the thread that started it.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

INTERVAL = 0.015          # seconds between memory samples
RISE = 0.05               # PSS is read whenever the summed RSS is this much above its last highs
PSS_SHARE = 0.03          # and otherwise while its readings have taken less than this share of a core
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Usage:
    exit_code: int
    wall: float
    cpu: float
    rss_mib: float
    pss_mib: float
    largest_mib: float
    others_cores: float
    sampler_cores: float

    @property
    def cores(self) -> float:
        return self.cpu / self.wall if self.wall else 0.0


def descendants(pid: int) -> list[int]:
    """Every process below pid (children, their children...), as /proc lists them now."""
    found, todo = [], [pid]
    while todo:
        for child in _children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def _children(pid: int) -> list[int]:
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:                   # ended meanwhile
        return []
    children = []
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as listing:
                children += [int(child) for child in listing.read().split()]
        except OSError:
            continue
    return children


def rss_kib(pid: int) -> int:
    """Resident memory of one process (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE_KIB
    except (OSError, IndexError):
        return 0


def pss_kib(pid: int) -> int:
    """Proportional set size of one process (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_memory_kib(pid: int, read: Callable[[int], int] = rss_kib) -> int:
    """`read` (rss_kib or pss_kib) summed over pid and all its descendants."""
    return sum(read(p) for p in [pid, *descendants(pid)])


class PeakSampler:
    """Keeps the peaks of a tree's summed RSS and PSS as it is sampled."""

    def __init__(self, pid: int):
        self.pid = pid
        self.rss_kib = self.pss_kib = 0
        self.rss_at_pss = 0              # the highest summed RSS at which PSS was read
        self.pss_seconds = 0.0           # CPU time the PSS readings took
        self.start = time.perf_counter()

    def sample(self) -> None:
        pids = [self.pid, *descendants(self.pid)]
        rss = sum(rss_kib(p) for p in pids)
        self.rss_kib = max(self.rss_kib, rss)
        rising = rss > self.rss_at_pss * (1 + RISE)
        affordable = self.pss_seconds < PSS_SHARE * (time.perf_counter() - self.start)
        if rising or affordable:
            began = time.thread_time()
            self.pss_kib = max(self.pss_kib, sum(pss_kib(p) for p in pids))
            self.pss_seconds += time.thread_time() - began
            self.rss_at_pss = max(self.rss_at_pss, rss)


def machine_busy_seconds() -> float:
    """CPU seconds every CPU of the machine has spent busy since boot (/proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(f) for f in stat.readline().split()[1:]]
    idle, iowait = fields[3], fields[4]
    return (sum(fields[:8]) - idle - iowait) / TICKS       # guest time is already in user


def measure(argv: list[str], *, cwd: Path, env: dict, log: Path,
            preexec_fn: Callable[[], None] | None = None, sample: bool = True) -> Usage:
    """Run argv to its end (stdout and stderr into log), sampling its process tree's memory; with
    `sample` false, only waiting for it (its memory figures are then 0, but for the largest
    process's): the timing of a run nothing else touches."""
    busy, own, start = machine_busy_seconds(), time.process_time(), time.perf_counter()
    with open(log, "wb") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, preexec_fn=preexec_fn)
    peaks = PeakSampler(proc.pid)
    while True:
        pid, status, usage = os.wait4(proc.pid, 0 if not sample else os.WNOHANG)
        if pid:
            break
        peaks.sample()
        time.sleep(INTERVAL)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)      # reaped here: Popen must not wait again
    cpu = usage.ru_utime + usage.ru_stime
    sampler = time.process_time() - own
    return Usage(exit_code=proc.returncode, wall=wall, cpu=cpu, rss_mib=peaks.rss_kib / 1024,
                 pss_mib=peaks.pss_kib / 1024, largest_mib=usage.ru_maxrss / 1024,
                 others_cores=(machine_busy_seconds() - busy - cpu - sampler) / wall,
                 sampler_cores=sampler / wall)


def check_proc() -> None:
    """Stop with a reason where the tree cannot be followed (no /proc children lists)."""
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        raise SystemExit("this kernel lists no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): "
                         "a process tree's memory cannot be summed")
