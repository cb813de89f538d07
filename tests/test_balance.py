"""`cardgen balance`: the decks out of line at each level of play, with their intervals, and where
the levels disagree; the build's summary names the worst outlier (issue 22, item 4)."""

from __future__ import annotations

import json
import subprocess
import sys

from cardgen.model import load_game
from cardgen.sim.balance import format_text, outliers, sweep
from cardgen.sim.report import build_report
from cardgen.sim.runner import MatchResult
from cardgen.sim.tally import Tally
from tests.conftest import ROOT

GUILD = load_game(ROOT / "tests" / "data" / "lantern-guild")


def _tally(wins_of_a: int, matches: int = 100, seats=("Amber", "Birch")) -> Tally:
    """`matches` matches of A against B, in both seatings, A winning `wins_of_a` of them."""
    results = []
    for i in range(matches):
        order = list(seats) if i % 2 == 0 else list(reversed(seats))
        a_won = i < wins_of_a
        winner = order.index(seats[0]) if a_won else order.index(seats[1])
        results.append(MatchResult(i, " vs ".join(order), order, ["x", "x"], 0, winner, True, 10))
    return Tally.of(results)


def test_an_outlier_is_a_seat_whose_interval_leaves_out_its_fair_share():
    report = build_report(GUILD, _tally(70), 1.0, bots=["x"])
    found = outliers(report)
    assert [(o["seat"], o["standing"]) for o in found] == [("Amber", "strong"), ("Birch", "weak")]
    assert found[0]["fair"] == 0.5 and found[0]["ci95"][0] > 0.5
    assert outliers(build_report(GUILD, _tally(55), 1.0, bots=["x"])) == []    # 55 of 100: noise


def test_levels_that_disagree_are_said_and_the_worst_is_the_strongest_levels():
    tallies = {"random": _tally(20), "greedy": _tally(80), "search": _tally(248, matches=400)}
    result = sweep(GUILD, lambda bot: (tallies[bot], 1.0), ["random", "greedy", "search"], matches=100,
                   seed=1)
    skill = {d["seat"]: d["rates"] for d in result["depends_on_skill"]}
    assert skill["Amber"] == {"random": 0.2, "greedy": 0.8, "search": 0.62}
    assert result["worst"]["bot"] == "search" and result["worst"]["seat"] == "Amber"
    text = format_text(result)
    assert "balance depends on skill:\n    Amber: 20% random, 80% greedy, 62% search" in text
    assert "worst outlier: Amber wins 62% (95% CI 57-67%, 400 matches) against a fair 50%, at search" in text


def test_rates_that_only_cross_an_intervals_edge_do_not_depend_on_skill():
    tallies = {"random": _tally(60), "greedy": _tally(64)}      # even, then just strong
    result = sweep(GUILD, lambda bot: (tallies[bot], 1.0), ["random", "greedy"], matches=100, seed=1)
    assert result["depends_on_skill"] == []


def test_the_command_writes_its_json_and_prints_each_level(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardgen", "balance", "dojo-duel",
                           "--levels", "random,greedy", "--matches", "60", "--jobs", "1",
                           "--out", str(tmp_path), "--format", "json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [row["bot"] for row in result["levels"]] == ["random", "greedy"]
    assert json.loads((tmp_path / "dojo-duel" / "balance.json").read_text()) == result
    bad = subprocess.run([sys.executable, "-m", "cardgen", "balance", "dojo-duel",
                          "--levels", "random,genius", "--out", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and "--levels" in bad.stderr and "Traceback" not in bad.stderr


def test_the_build_summary_names_the_worst_outlier(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardgen", "build", "combo-fighter", "--only", "matches",
                           "--jobs", "1", "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert "worst outlier " in done.stdout + done.stderr, done.stdout + done.stderr
