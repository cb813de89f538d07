"""cardgen at the dependency floors pyproject.toml declares: installed from wheels into a scratch venv
and used for three builds (bench/mindeps.py says what it checks). About 20 s, so only with
--mindeps, as `make test` runs it: there it takes one worker while the others run the rest."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.early
def test_cardgen_installs_and_builds_at_its_dependency_floors(request):
    if not request.config.getoption("--mindeps"):
        pytest.skip("the floors are checked with --mindeps (make test)")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "mindeps.py")], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
