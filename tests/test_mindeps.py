"""cardgen at the dependency floors pyproject.toml declares: installed from wheels into a venv of its
own and used for three builds (bench/mindeps.py says what it checks). Only with --mindeps, as
`make test` runs it: there it takes one worker while the others run the rest.

The floors' venv is kept in .venv/floors (where make test's .venv is) and reused while the floors
and pyproject.toml stay the same; only cardgen itself is installed again. A first run takes some
20 s of CPU time, a later one 11 s."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

FLOORS_VENV = ROOT / ".venv" / "floors"


@pytest.mark.early
def test_cardgen_installs_and_builds_at_its_dependency_floors(request):
    if not request.config.getoption("--mindeps"):
        pytest.skip("the floors are checked with --mindeps (make test)")
    kept = ["--venv", str(FLOORS_VENV)] if FLOORS_VENV.parent.is_dir() else []
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "mindeps.py"), *kept], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
