"""bench/proctree.py follows a whole process tree: memory summed over every process, CPU of all."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
try:
    import proctree
finally:
    sys.path.remove(str(ROOT / "bench"))

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

HOLD_MIB = 60
# Holds HOLD_MIB of its own pages, says so, and waits for its stdin (inherited from the top) to close.
HOLDER = f"import sys; kept = b'x' * ({HOLD_MIB} << 20); print('ready', flush=True); sys.stdin.read()"
# One holder started by a thread that lives on (the kernel lists it under that thread, not the
# main one), one below a middle process (a grandchild).
TOP = f"""
import subprocess, sys, threading
def hold(*wrap):
    subprocess.run([sys.executable, "-c", *wrap, {HOLDER!r}])
thread = threading.Thread(target=hold)
thread.start()
hold("import subprocess, sys; subprocess.run([sys.executable, '-c', sys.argv[1]])")
thread.join()
"""


def test_memory_is_summed_over_every_process_of_the_tree():
    top = subprocess.Popen([sys.executable, "-c", TOP], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True)
    try:
        assert [top.stdout.readline(), top.stdout.readline()] == ["ready\n", "ready\n"]
        assert len(proctree.descendants(top.pid)) == 3          # two holders and the middle process
        assert proctree.rss_kib(top.pid) < HOLD_MIB * 1024
        for read in (proctree.rss_kib, proctree.pss_kib):
            assert proctree.tree_memory_kib(top.pid, read) > 2 * HOLD_MIB * 1024
    finally:
        top.stdin.close()
        top.wait(timeout=60)


def test_cpu_counts_the_descendants(tmp_path):
    """The work is done by a grandchild; its CPU seconds must be in the command's."""
    burner = "import time\nwhile time.process_time() < 0.3: pass\nprint(time.process_time())"
    middle = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {burner!r}])"
    usage = proctree.measure([sys.executable, "-c", middle], cwd=tmp_path, env={}, log=tmp_path / "log")
    assert usage.exit_code == 0
    assert usage.cpu >= float((tmp_path / "log").read_text())


def test_an_unsampled_run_is_only_waited_for(tmp_path):
    """Timing runs take no samples (the sampler's polling slowed a two-process render by 4-8%), yet
    still count the descendants' CPU seconds."""
    burner = "import time\nwhile time.process_time() < 0.3: pass\nprint(time.process_time())"
    middle = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {burner!r}])"
    usage = proctree.measure([sys.executable, "-c", middle], cwd=tmp_path, env={}, log=tmp_path / "log",
                             sample=False)
    assert usage.exit_code == 0
    assert usage.cpu >= float((tmp_path / "log").read_text())
    assert usage.wall >= 0.3
    assert usage.rss_mib == usage.pss_mib == 0
    assert usage.sampler_cores < 0.05
