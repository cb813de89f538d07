"""The sample-match report gives every win rate with its sample and 95% interval, keeps a solo
mode's AI seats apart from the players, splits games of several player counts, and never cuts a
name so that two read alike (issue 22, item 2)."""

from __future__ import annotations

import re

from cardgen.model import load_game
from cardgen.sim.report import build_report, format_html, format_text
from cardgen.sim.runner import MatchResult
from tests.conftest import ROOT

GUILD = load_game(ROOT / "tests" / "data" / "lantern-guild")
LONG_A, LONG_B = "Thunder Lizard Aggro Deluxe", "Thunder Lizard Control Deluxe"


def result(seed, seats, winner, bots=None, fixed=(), first=0, plays=()):
    return MatchResult(seed, " vs ".join(seats), list(seats), bots or ["random"] * len(seats), first,
                       winner, True, 10, plays=list(plays), fixed_seats=tuple(fixed))


def test_every_win_rate_has_its_sample_and_interval():
    results = [result(i, [LONG_A, LONG_B], i % 3 == 0, plays=[(0, "Wick"), (1, "Wick")])
               for i in range(30)]
    report = build_report(GUILD, results, 1.0, bots=["random"])
    a = report["seat_figures"][LONG_A]
    assert (a["wins"], a["games"]) == (20, 30) and a["ci95"][0] < a["win_rate"] < a["ci95"][1]
    cell = report["matchup_figures"][LONG_A][LONG_B]
    assert (cell["wins"], cell["games"]) == (20, 30) and cell["ci95"] == a["ci95"]
    assert report["matchup_figures"][LONG_A][LONG_A] is None
    wick = report["cards"][0]
    assert wick["card"] == "Wick" and wick["ci95"][0] < wick["win_rate"] < wick["ci95"][1]
    text = format_text(report)
    assert re.search(rf"{LONG_A} +66\.7%  \(95% CI 48\.8-80\.8%, 30 matches\)", text), text
    assert "95% CI" in format_html(report)


def test_names_are_never_cut():
    results = [result(i, [LONG_A, LONG_B], i % 2) for i in range(4)]
    text = format_text(build_report(GUILD, results, 1.0, bots=["random"]))
    matchups = text[text.index("matchups"):]
    assert LONG_A in matchups and LONG_B in matchups, matchups
    assert "Thunder Li " not in text and "Thunder Lizard Aggro Deluxe"[:22] + " " not in text


def test_a_solo_modes_ai_seat_is_reported_apart_from_the_player():
    # the player (seat 0) against the fixed AI (seat 1): 3 wins in 4; the AI always moves first
    results = [result(i, ["Hero", "Solo AI"], 0 if i < 3 else 1, bots=["greedy", "solo"], fixed=[1],
                      first=1) for i in range(4)]
    report = build_report(GUILD, results, 1.0, bots=["greedy"])
    assert report["solo"]["players"]["Hero"]["win_rate"] == 0.75
    assert report["solo"]["ai"]["Solo AI"]["win_rate"] == 0.25
    assert report["seats"] == {} and report["balance"] is None
    assert report["first_player"]["decisive"] == 0          # the AI's opening is not a first player's
    assert "solo" not in report["bot_win_rates"]
    text = format_text(report)
    assert "against the game's AI" in text and "Hero" in text


def test_games_of_several_player_counts_are_split_by_count():
    results = [result(0, ["Red", "Blue"], 0), result(1, ["Red", "Blue"], 0),
               result(2, ["Red", "Blue", "Green"], 2), result(3, ["Red", "Blue", "Green"], 1)]
    report = build_report(GUILD, results, 1.0, bots=["random"])
    by_count = report["seats_by_players"]
    assert by_count["2"]["Red"]["win_rate"] == 1.0 and by_count["3"]["Red"]["win_rate"] == 0.0
    assert set(by_count["3"]) == {"Red", "Blue", "Green"} and set(by_count["2"]) == {"Red", "Blue"}
    text = format_text(report)
    assert "win rate by deck / character, 2 players" in text
    assert "win rate by deck / character, 3 players" in text
    page = format_html(report)
    assert "<h3>2 players</h3>" in page and "<h3>3 players</h3>" in page
    assert page.count("<svg") == 1       # the lengths' histogram; no bar chart mixing the counts
    one_count = build_report(GUILD, results[:2], 1.0, bots=["random"])
    assert one_count["seats_by_players"] == {}


def test_cards_have_a_play_rate_and_a_win_rate_when_in_the_deck():
    # "Oak" vs "Ash": seat 0's deck holds Wick and Lamp, seat 1's Wick and Ember. Oak wins 6 of
    # 10; Oak plays Lamp in 4 matches (winning 3), Ash plays Ember in 5 and Wick in every match.
    results = []
    for i in range(10):
        plays = [(1, "Wick")] + ([(0, "Lamp"), (0, "Lamp")] if i < 4 else []) + \
            ([(1, "Ember")] if i % 2 else [])
        results.append(result(i, ["Oak", "Ash"], 0 if i in (0, 1, 2, 5, 6, 7) else 1, plays=plays))
    decks = {"Oak vs Ash": (frozenset({"Wick", "Lamp"}), frozenset({"Wick", "Ember"}))}
    report = build_report(GUILD, results, 1.0, bots=["random"], seat_cards=decks)
    cards = {c["card"]: c for c in report["cards"]}
    # Wick is in both decks: 20 seat-matches, 10 won; played by Ash in all 10 of its 20.
    assert cards["Wick"]["in_deck"] == {"wins": 10, "games": 20, "win_rate": 0.5,
                                        "ci95": cards["Wick"]["in_deck"]["ci95"]}
    assert cards["Wick"]["play_rate"] == 0.5
    assert (cards["Lamp"]["in_deck"]["wins"], cards["Lamp"]["in_deck"]["games"]) == (6, 10)
    assert cards["Lamp"]["play_rate"] == 0.4 and cards["Lamp"]["win_rate"] == 0.75
    assert (cards["Ember"]["in_deck"]["wins"], cards["Ember"]["in_deck"]["games"]) == (4, 10)
    lo, hi = cards["Ember"]["in_deck"]["ci95"]
    assert lo < 0.4 < hi
    text = format_text(report)
    assert re.search(r"Lamp +8 plays +75\.0% .*played in 40\.0% of 10 matches in a deck, "
                     r"deck won 60\.0% \(95% CI", text), text
    html = format_html(report)
    assert "when in the deck" in html and "40.0%" in html
    # An engine that does not say what each seat holds: no in-deck figures, and the report says so.
    plain = build_report(GUILD, results, 1.0, bots=["random"])
    assert all(c["in_deck"] is None and c["play_rate"] is None for c in plain["cards"])
