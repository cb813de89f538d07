"""`cardgen build` runs its games' stages side by side (cardgen.build's stage plan over
cardgen.schedule): the same outputs and the same report as one stage after another."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardgen import build, parallel
from cardgen.build import STAGE_PLAN, STAGES, build_games
from tests.conftest import ROOT

GAMES = [str(ROOT / "tests" / "data" / name) for name in ("tide-runners", "lantern-guild")]
QUICK = ("check", "cards", "site", "rulebook")

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="stages run side by side in forked processes")


def _files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.suffix in (".png", ".jpg", ".json", ".txt", ".html")}


def test_side_by_side_or_one_after_another_the_outputs_and_lines_are_the_same(tmp_path):
    said = {}
    for jobs in (1, 2):
        lines: list[str] = []
        finished: list[str] = []
        results = build_games(GAMES, tmp_path / f"out{jobs}", QUICK, log=lines.append,
                              finished=lambda result, f=finished: f.append(result.ref), jobs=jobs)
        assert all(r.ok for r in results), [s.errors for r in results for s in r.stages]
        assert finished == GAMES
        said[jobs] = [line.rsplit(" (", 1)[0] for line in lines]       # (without the seconds)
    assert said[1] == said[2]
    assert [line.split()[0] for line in said[2]] == [
        f"{GAMES[0]}:", *QUICK, f"{GAMES[1]}:", *QUICK]
    one, two = _files(tmp_path / "out1"), _files(tmp_path / "out2")
    assert one.keys() == two.keys() and len(one) > 20
    assert [name for name in one if one[name] != two[name]] == []


def test_a_stage_waits_for_the_stages_whose_outputs_it_reads():
    assert "cards" in STAGE_PLAN["site"].after and "cards" in STAGE_PLAN["sheets"].after
    assert set(STAGE_PLAN) == set(STAGES) - {"check"}


def test_a_bug_in_a_stage_is_an_internal_error_not_a_finding(tmp_path, monkeypatch):
    # (forked stages inherit the broken part: what the command says is what a user would see)
    def broken(game, out_root, jobs, progress):
        raise ZeroDivisionError("a bug")

    monkeypatch.setitem(STAGE_PLAN, "site", build.Stage("site", (build.Part(broken, 1.0),)))
    with pytest.raises(Exception) as info:
        build_games(GAMES, tmp_path / "out", ("check", "cards", "site"), jobs=2)
    assert "ZeroDivisionError: a bug" in str(info.value)


def test_the_command_names_a_bug_in_one_line_and_exits_3(tmp_path):
    code = ("import sys, cardgen.build as b, cardgen.cli as c\n"
            "def broken(game, out_root, jobs, progress): raise ZeroDivisionError('a bug')\n"
            "b.STAGE_PLAN['site'] = b.Stage('site', (b.Part(broken, 1.0),))\n"
            f"sys.exit(c.main(['build', {GAMES[0]!r}, '--out', {str(tmp_path / 'out')!r}, '--jobs', '2',"
            "'--only', 'cards', 'site']))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 3, result.stderr
    assert "internal error" in result.stderr and "Traceback" not in result.stderr
