"""Deliberately broken game folders are reported as rule conflicts: never a hang, never a crash."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT, borrowed_engine


@pytest.mark.parametrize("folder, kind, words", [
    ("broken-keyword", "keyword", "Raging Flurry carries Frenzy, which no rule of the engine defines"),
    ("broken-dojo", "rule", "Yang"),
    ("broken-amfibido", "rule", "transform"),
])
def test_simulate_reports_the_conflict_with_a_seed(tmp_path, folder, kind, words):
    game = borrowed_engine(folder, tmp_path)
    result = subprocess.run([sys.executable, "-m", "cardgen", "simulate", str(game),
                             "--matches", "120", "--jobs", "2", "--format", "json", "--out", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 1, result.stderr          # conflicts found: exit 1, not a crash (2+)
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    found = [c for c in report["conflicts"] if c["kind"] == kind]
    assert found, report["conflicts"]
    assert any(words.lower() in c["message"].lower() for c in found), found
    if kind != "keyword":
        seed = found[0]["seed"]
        replay = subprocess.run([sys.executable, "-m", "cardgen", "replay", str(game), "--seed",
                                 str(seed)], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert replay.returncode == 1 and "rule conflict" in replay.stdout
