"""The `cardgen` command as a user runs it: exit codes, output lines, JSON, no tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"
BROKEN = ROOT / "tests" / "data" / "decks" / "lantern-broken.yaml"


def cardgen(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_legal_deck_exits_0():
    result = cardgen("validate", GUILD / "decks" / "harbour.yaml")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "tests/data/lantern-guild/decks/harbour.yaml: ok (lantern-guild)"


def test_illegal_deck_exits_1_with_one_line_per_problem():
    result = cardgen("validate", BROKEN)
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0] == ("tests/data/decks/lantern-broken.yaml:4: deck-size: "
                        "has 11 cards: a deck needs 12 to 20")
    assert [line.split(": ")[1] for line in lines] == [
        "deck-size", "relic-limit", "rarity-limit", "district-limit", "fog-in-deck", "unknown-card",
        "bad-count"]
    assert result.stderr == ""


def test_json_format():
    result = cardgen("validate", "--format", "json", BROKEN, GUILD / "decks" / "harbour.yaml")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert [d["legal"] for d in data] == [False, True]
    assert data[0]["game"] == "lantern-guild"
    assert data[0]["problems"][0] == {"rule": "deck-size", "severity": "error",
                                      "message": "has 11 cards: a deck needs 12 to 20", "line": 4}
    assert set(data[1]) == {"deck", "game", "legal", "problems", "warnings"}


def test_a_game_folder_stands_for_its_decks():
    result = cardgen("validate", GUILD)
    assert result.returncode == 0
    assert "harbour.yaml: ok" in result.stdout


@pytest.mark.parametrize("content, message", [
    ("game: lantern\ncards: {}\n", "game: no game 'lantern'"),
    ("- a list\n", "a deck is a mapping with `game:` and `cards:`"),
    ("name: x\n", "game: missing required field: is this a deck file?"),
    ("game: GUILD\ncards: [A, B]\n", "cards: expected a mapping of card name to copies (or `all`)"),
    ("game: GUILD\ncards: {}\ncaptian: Wick Runner\n", "captian: unknown field (did you mean: captain?)"),
    ("game: GUILD\ncards: {A: 1\n", "YAML syntax error"),
    (b"\x00\x01\x02binary", "not a text file"),
    ("game: !!python/object/apply:os.system ['echo hacked']\ncards: {}\n", "is not allowed"),
])
def test_unreadable_input_exits_2_without_traceback(tmp_path, content, message):
    path = tmp_path / "deck.yaml"
    if isinstance(content, str):
        path.write_text(content.replace("GUILD", str(GUILD)))
    else:
        path.write_bytes(content)
    result = cardgen("validate", path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "hacked" not in result.stdout + result.stderr
    assert result.stderr.startswith(f"error: {path}:")
    assert message in result.stderr


def test_missing_file_exits_2(tmp_path):
    result = cardgen("validate", tmp_path / "nope.yaml")
    assert result.returncode == 2
    assert "cannot read file: No such file or directory" in result.stderr
    assert "Traceback" not in result.stderr


def test_one_unreadable_deck_among_good_ones_still_reports_the_others(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("nonsense: [\n")
    result = cardgen("validate", GUILD / "decks" / "harbour.yaml", bad)
    assert result.returncode == 2
    assert "harbour.yaml: ok" in result.stdout
    assert "YAML syntax error" in result.stderr


def test_bad_game_content_named_with_file_and_line(tmp_path):
    import shutil
    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    cards = folder / "cards" / "tricks.yaml"
    cards.write_text(cards.read_text().replace("cost: 0", "cost: 9"))
    result = cardgen("validate", folder / "decks" / "harbour.yaml")
    assert result.returncode == 2
    assert f"{cards}:2: cost: expected 0-6, got 9" in result.stderr


def test_build_writes_reports_atomically_for_a_designer_game(tmp_path):
    result = cardgen("build", GUILD, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "lantern-guild"
    names = {p.name for p in folder.rglob("*")}
    assert {"report.json", "report.txt"} <= names
    assert not [n for n in names if n.endswith(".tmp")], "a half-written file was left behind"
    report = json.loads((folder / "report.json").read_text())
    assert report["cards"]["by_type"] == {"lamplighter": 5, "trick": 2, "relic": 2, "fog": 1}
    assert "harbour.yaml: legal" in (folder / "report.txt").read_text()


def test_info_summarises_a_game():
    result = cardgen("info", GUILD)
    assert result.returncode == 0
    assert "Fog bank: 1 distinct, 1 copies (not in decks)" in result.stdout
    assert "deck rules: unknown-card, bad-count, deck-size, rarity-limit" in result.stdout



def test_output_cut_short_by_its_reader_ends_quietly():
    # As `cardgen replay ... | head -2` once head has gone: a pipe whose reader is already closed.
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "cardgen", "replay", "dojo-duel", "--seed", "3"],
                              cwd=ROOT, stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr
    assert proc.returncode == 141


# -- simulate and replay: decks and match options are checked before any match --------------------

DOJO_DECK = ROOT / "content" / "dojo-duel" / "decks" / "tiger-rush.yaml"


@pytest.mark.parametrize("command", ["simulate", "replay"])
def test_a_bad_deck_stops_simulate_and_replay_with_validates_messages(tmp_path, command):
    deck = tmp_path / "short.yaml"
    deck.write_text("game: dojo-duel\nname: Short\ncards:\n  Tiger Claw: 2\n  Not A Card: 1\n")
    extra = ["--matches", "10", "--out", tmp_path / "out"] if command == "simulate" else ["--seed", "1"]
    result = cardgen(command, "dojo-duel", "--decks", deck, DOJO_DECK, *extra)
    assert result.returncode == 2, result.stdout
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert f"{deck}:3: deck-size: has 2 cards" in result.stderr
    assert f"{deck}:5: unknown-card: 'Not A Card' is not a card of Dojo Duel" in result.stderr
    assert not (tmp_path / "out").exists()          # no report of matches never played


@pytest.mark.parametrize("command", ["simulate", "replay"])
def test_advice_does_not_stop_simulate_or_replay(tmp_path, command):
    from cardgen.model import load_game

    # 15 different cards, one copy each, more Yin than Yang: legal, with a deck-balance warning
    guards = sorted(load_game("dojo-duel").cards.values(), key=lambda c: c.get("yang") - c.get("yin"))
    deck = tmp_path / "guards.yaml"
    deck.write_text("game: dojo-duel\nname: Guards\ncards:\n"
                    + "".join(f"  {c.name}: 1\n" for c in guards[:15]))
    assert "warning: deck-balance" in cardgen("validate", deck).stdout
    extra = ["--matches", "4", "--out", tmp_path / "out"] if command == "simulate" else ["--seed", "1"]
    result = cardgen(command, "dojo-duel", "--decks", deck, DOJO_DECK, *extra)
    assert result.returncode in (0, 1) and "error" not in result.stderr, result.stderr


def test_a_deck_of_another_game_is_refused():
    result = cardgen("simulate", "amiibart", "--decks", DOJO_DECK, "--matches", "10")
    assert result.returncode == 2
    assert "tiger-rush.yaml: game: this is a deck for dojo-duel, not amiibart" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--variant", "turbo"], "--variant: Dojo Duel has no variant 'turbo' ("),
    (["--players", "3"], "--players: dojo-duel plays with 2 players, not 3"),
])
def test_match_options_the_engine_does_not_offer_are_refused(args, message):
    result = cardgen("simulate", "dojo-duel", "--matches", "10", *args)
    assert result.returncode == 2
    assert result.stderr.strip().startswith(f"error: {message}")
    assert "\n" not in result.stderr.strip()


def test_a_variant_the_engine_does_not_play_is_refused_alike_by_validate_and_simulate(tmp_path):
    deck = tmp_path / "kingfish.yaml"
    deck.write_text("game: adapt\nname: Kingfish box\nvariants: [kingfish]\ncards: all\n")
    validated = cardgen("validate", str(deck))
    simulated = cardgen("simulate", "adapt", "--matches", "2", "--variant", "kingfish")
    assert validated.returncode == simulated.returncode == 2
    said = validated.stderr.strip().split(": ", 3)[-1]
    assert validated.stderr.strip() == f"error: {deck}:3: variants[1]: {said}"
    assert simulated.stderr.strip() == f"error: --variant: {said}"
    assert said.startswith("A.D.A.P.T.'s engine does not play the kingfish (Kingfish Battle Royale)")


def test_a_variant_and_player_count_reach_the_matches(tmp_path):
    result = cardgen("simulate", "adapt", "--variant", "school-battle", "--players", "6", "--matches", "12",
                     "--jobs", "1", "--format", "json", "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [s["setup"] for s in report["setups"]] == ["box, 6 players (school-battle)"]
    assert report["finished"] == 12 and not report["conflicts"]


def test_the_solo_ai_is_seated_by_its_variant_not_by_bots():
    refused = cardgen("simulate", "combo-fighter", "--bots", "solo,random", "--matches", "4")
    assert refused.returncode == 2 and "use --variant solo" in refused.stderr
    replay = cardgen("replay", "combo-fighter", "--variant", "solo", "--seed", "2")
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.splitlines()[0].endswith("(solo AI) (random vs solo)")     # seed 2: the AI in seat 2


@pytest.mark.parametrize("args, words", [
    (["simulate", "dojo-duel", "--matches", "0"], "argument --matches: 0 is too few: give 1 or more"),
    (["simulate", "dojo-duel", "--jobs", "-1"], "argument --jobs: -1 is too few: give 1 or more"),
    (["packs", "amiibart", "--count", "x"], "argument --count: 'x' is not a whole number"),
])
def test_counts_below_one_are_refused(args, words, capsys):
    from cardgen.cli import main

    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2 and words in capsys.readouterr().err


def test_control_sequences_in_names_never_reach_the_terminal(tmp_path):
    """Issue 20, item 4: an ESC sequence in a game or card name was printed raw by info and
    validate (it can retitle the window, clear the screen or hide text)."""
    import shutil

    game = tmp_path / "guild"
    shutil.copytree(GUILD, game)
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("name: Lantern Guild", 'name: "Lantern \\e]0;pwned\\a Guild"'))
    deck = tmp_path / "deck.yaml"
    deck.write_text(f'game: {game}\nname: x\ncards:\n  "Wick \\e[2J\\u202eRunner": 2\n')
    info, checked = cardgen("info", game), cardgen("validate", deck)
    for out in (info.stdout, checked.stdout + checked.stderr):
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert info.stdout.startswith("Lantern \\x1b]0;pwned\\x07 Guild (lantern-guild)")
    assert "'Wick \\x1b[2J\\u202eRunner' is not a card of Lantern \\x1b]0;pwned\\x07 Guild" in checked.stdout


def test_huge_copies_and_job_counts_are_bounded_with_a_clear_message(tmp_path):
    """Issue 20, item 7: copies: 1000000000000 was accepted (sheets then died of MemoryError) and
    --jobs 1000 forked a thousand processes."""
    import shutil

    game = tmp_path / "guild"
    shutil.copytree(GUILD, game)
    cards = game / "cards" / "lamplighters.yaml"
    huge = "    copies: 1000000000000\n    cost: 1\n"
    cards.write_text(cards.read_text().replace("    cost: 1\n", huge, 1))
    line = 4
    info = cardgen("info", game)
    assert info.returncode == 2 and "Traceback" not in info.stderr
    assert f"lamplighters.yaml:{line}: copies: expected a whole number from 1 to 999" in info.stderr
    deck = tmp_path / "deck.yaml"
    deck.write_text(f"game: {GUILD}\nname: x\ncards:\n  Wick Runner: 1000000000000\n")
    checked = cardgen("validate", deck)
    assert checked.returncode == 1
    assert "bad-count: Wick Runner: the count must be a whole number from 1 to 999" in checked.stdout
    jobs = cardgen("simulate", "dojo-duel", "--jobs", "1000")
    assert jobs.returncode == 2 and "--jobs: 1000 is too many: at most" in jobs.stderr


# A Ctrl-C in the first tenth of a second (Python still loading cardgen, or the arguments being
# read) printed a traceback and ended by the signal, or with exit 1, which means findings.
INTERRUPT_ON_IMPORT = """
import runpy, sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "cardgen.errors":
            raise KeyboardInterrupt

sys.meta_path.insert(0, CtrlC())
sys.argv = ["cardgen", "games"]
runpy.run_module("cardgen", run_name="__main__", alter_sys=True)
"""


def test_ctrl_c_while_cardgen_loads_is_one_line_and_exit_130():
    done = subprocess.run([sys.executable, "-c", INTERRUPT_ON_IMPORT], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (130, "interrupted\n", "")


def test_ctrl_c_while_the_arguments_are_read_is_one_line_and_exit_130(monkeypatch, capsys):
    from cardgen import cli

    def ctrl_c():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_parser", ctrl_c)
    assert cli.main(["games"]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_a_write_the_system_refuses_names_the_file(tmp_path):
    """A write that fails (a full disk, a file-size limit) said only "error: File too large"."""
    import resource

    def small_files_only():
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "cardgen", "render", str(ROOT / "content" / "dojo-duel"),
                           "--only", "Harmony Form", "--out", str(out), "--no-cache"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          preexec_fn=small_files_only)
    assert done.returncode == 2, done.stderr
    assert re.fullmatch(r"error: out/dojo-duel/\w+/[\w-]+\.png: File too large\n", done.stderr), done.stderr
    assert "Traceback" not in done.stderr
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


COMPLETE = """
source <(cardgen_completion)
complete_line() {
    COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
    read -ra COMP_WORDS <<< "$COMP_LINE"
    [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    _shtab_cardgen
    printf '%s\\n' "${COMPREPLY[@]}"
    echo ---
}
complete_line "cardgen ren"
complete_line "cardgen render --j"
complete_line "cardgen render my"
complete_line "cardgen sheets --paper "
complete_line "cardgen info dojo"
complete_line "cardgen check --f"
complete_line "cardgen games --format "
complete_line "cardgen sheets my-game/d"
"""


def test_bash_completes_commands_options_choices_and_game_folders(tmp_path):
    import shutil

    if not shutil.which("bash"):
        pytest.skip("no bash on this machine")
    (tmp_path / "my-game").mkdir()
    (tmp_path / "my-game" / "deck.yaml").write_text("game: dojo-duel\n")
    script = subprocess.run([sys.executable, "-m", "cardgen", "completion", "bash"], capture_output=True,
                            text=True, cwd=ROOT, timeout=60)
    assert script.returncode == 0, script.stderr
    (tmp_path / "completion.bash").write_text(script.stdout)
    driver = COMPLETE.replace("<(cardgen_completion)", str(tmp_path / "completion.bash"))
    done = subprocess.run(["bash", "-c", driver], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    commands, options, folders, papers, games, flags, formats, decks = [
        block.split() for block in done.stdout.split("---")[:8]]
    assert commands == ["render"]
    assert options == ["--jobs"]
    assert folders == ["my-game"]
    assert set(papers) >= {"letter", "a4"}
    assert games == ["dojo-duel"]                   # a bundled game's id
    assert flags == ["--format"]
    assert formats == ["text", "json"]
    assert decks == ["my-game/deck.yaml"]           # a GAME|DECK completes files too


def test_zsh_completion_is_a_valid_script(tmp_path):
    import shutil

    if not shutil.which("zsh"):
        pytest.skip("zsh is not installed here: only the bash script is tried")
    script = subprocess.run([sys.executable, "-m", "cardgen", "completion", "zsh"], capture_output=True,
                            text=True, cwd=ROOT, timeout=60)
    assert script.returncode == 0 and script.stdout.startswith("#compdef cardgen"), script.stderr
    (tmp_path / "_cardgen").write_text(script.stdout)
    assert subprocess.run(["zsh", "-n", str(tmp_path / "_cardgen")], timeout=60).returncode == 0


# -- --format json: one versioned document on stdout (docs/cli.md, docs/cli.schema.json) ---------

CLI_SCHEMA = ROOT / "docs" / "cli.schema.json"
LANTERN_COST = {"file": None, "line": 2, "field": "cost", "message": "expected 0-6, got 9"}


def json_document(result, command: str) -> dict:
    """The document a run printed, checked against the published schema: stdout is the JSON alone,
    its `exit` the process's exit code."""
    import jsonschema

    document = json.loads(result.stdout)
    jsonschema.validate(document, json.loads(CLI_SCHEMA.read_text()),
                        cls=jsonschema.Draft202012Validator)
    assert document["command"] == command and document["format"] == 1
    assert document["exit"] == result.returncode, result.stderr
    return document


def broken_lantern(tmp_path):
    """lantern-guild with two mistakes in one card file: a cost out of range and a misspelt field."""
    import shutil

    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    cards = folder / "cards" / "tricks.yaml"
    text = cards.read_text().replace("cost: 0", "cost: 9", 1)
    cards.write_text(text.replace("rarity:", "rarrity:", 1))
    return folder, cards


def test_games_and_info_json_for_the_bundled_games():
    games = json_document(cardgen("games", "--format", "json"), "games")
    bundled = sorted(p.parent.name for p in (ROOT / "content").glob("*/game.yaml"))
    assert [g["id"] for g in games["result"]["games"]] == bundled
    assert all(g["errors"] == [] and g["cards"] > 0 for g in games["result"]["games"])
    info = json_document(cardgen("info", "dojo-duel", "--format", "json"), "info")
    assert info["exit"] == 0 and info["errors"] == []
    game = info["result"]
    assert (game["id"], game["folder"], game["cards"]["distinct"]) == ("dojo-duel", "content/dojo-duel", 40)
    scenarios = ROOT / "content" / "dojo-duel" / "scenarios"
    assert game["engine"]["scenarios"] == len(list(scenarios.glob("*.yaml")))
    assert "round-limit" in [v["id"] for v in game["variants"]]


def test_check_json_for_a_bundled_game():
    document = json_document(cardgen("check", "dojo-duel", "--format", "json"), "check")
    result = document["result"]
    assert document["exit"] == 0 and result["failed"] == 0
    assert result["passed"] == len(result["scenarios"]) > 10
    assert all(s["ok"] and s["message"] is None for s in result["scenarios"])


def test_check_json_reports_a_failed_scenario_as_a_finding(tmp_path):
    import shutil

    game = tmp_path / "tide-runners"
    shutil.copytree(ROOT / "tests" / "data" / "tide-runners", game)
    scenario = game / "scenarios" / "anchor-holds.yaml"
    scenario.write_text(scenario.read_text().replace("p0: {distance: 6}", "p0: {distance: 4}"))
    result = cardgen("check", game, "--format", "json")
    document = json_document(result, "check")
    assert document["exit"] == 1 and document["errors"] == []
    failed = [s for s in document["result"]["scenarios"] if not s["ok"]]
    assert [s["file"] for s in failed] == [str(scenario)] and failed[0]["message"]
    assert (document["result"]["passed"], document["result"]["failed"]) == (2, 1)


def test_build_json_for_a_bundled_game_holds_nothing_else_on_stdout(tmp_path):
    result = cardgen("build", "dojo-duel", "--only", "cards", "--out", tmp_path / "out", "--format", "json")
    document = json_document(result, "build")
    assert document["exit"] == 0 and document["errors"] == []
    (game,) = document["result"]["games"]
    assert game["game"] == "dojo-duel" and game["ok"] and [s["name"] for s in game["stages"]] == ["cards"]
    assert all(d["legal"] for d in game["decks"]) and len(game["decks"]) == 4
    assert "check     40 cards" in result.stderr       # the progress lines went to stderr


@pytest.mark.parametrize("command", [["info"], ["check"], ["build", "--only", "cards"]])
def test_a_broken_game_is_exit_2_with_every_error_in_the_document(tmp_path, command):
    folder, cards = broken_lantern(tmp_path)
    extra = ["--out", tmp_path / "out"] if command[0] == "build" else []
    result = cardgen(command[0], folder, *command[1:], *extra, "--format", "json")
    document = json_document(result, command[0])
    assert result.returncode == 2
    cost = {**LANTERN_COST, "file": str(cards)}
    assert cost in document["errors"]
    assert any(e["field"] == "rarrity" and e["file"] == str(cards) for e in document["errors"])
    assert f"error: {cards}:2: cost: expected 0-6, got 9" in result.stderr    # and still for people
    if command[0] == "build":
        assert document["result"]["games"][0]["errors"] == document["errors"]
        assert document["result"]["games"][0]["game"] is None
    else:
        assert document["result"] is None


def test_a_game_without_an_engine_is_an_error_in_checks_document():
    document = json_document(cardgen("check", GUILD, "--format", "json"), "check")
    assert document["exit"] == 2 and document["result"] is None
    assert document["errors"] and all(e["message"] for e in document["errors"])


def test_games_json_names_a_game_that_does_not_load(tmp_path, monkeypatch, capsys):
    import cardgen.paths
    from cardgen.cli import main

    folder, cards = broken_lantern(tmp_path)
    monkeypatch.setattr(cardgen.paths, "bundled_game_ids", lambda: ["dojo-duel", str(folder)])
    assert main(["games", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    dojo, broken = document["result"]["games"]
    assert dojo["name"] == "Dojo Duel" and dojo["errors"] == []
    assert broken["name"] is None and broken["cards"] is None
    assert {**LANTERN_COST, "file": str(cards)} in broken["errors"]


def test_an_internal_error_in_json_mode_is_exit_3_and_a_document(monkeypatch, capsys):
    import jsonschema

    import cardgen.jsondocs
    from cardgen.cli import main

    def broken(game):
        return {}["missing"]

    monkeypatch.setattr(cardgen.jsondocs, "game_summary", broken)
    assert main(["info", "dojo-duel", "--format", "json"]) == 3
    out, err = capsys.readouterr()
    document = json.loads(out)
    jsonschema.validate(document, json.loads(CLI_SCHEMA.read_text()))
    assert document["exit"] == 3 and document["result"] is None
    assert document["errors"][0]["message"].startswith("internal error: a bug in cardgen")
    assert err.startswith("internal error:")


def test_the_examples_in_docs_cli_md_follow_the_schema():
    import jsonschema

    schema = json.loads(CLI_SCHEMA.read_text())
    examples = re.findall(r"```json\n(.*?)```", (ROOT / "docs" / "cli.md").read_text(), re.S)
    commands = set()
    for example in examples:
        document = json.loads(example)
        jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
        commands.add(document["command"])
    assert commands == {"check", "build", "info", "games"}


# -- one meaning a flag, and every argument's help with its default -------------------------------

def every_command():
    """(command words, parser) for each subcommand, however deep."""
    import argparse

    from cardgen.cli import _parser

    def walk(parser, words):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield (*words, name), sub
                    yield from walk(sub, (*words, name))
    return list(walk(_parser(), ()))


def shown_default(default) -> str | None:
    """How a default should read in the help, or None when there is nothing to show."""
    if default in (None, False, [], "==SUPPRESS=="):
        return None
    if isinstance(default, float):
        return f"{default:g}"
    return str(default)


def test_every_argument_has_help_that_states_its_default():
    import argparse

    missing = []
    for words, parser in every_command():
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) \
                    or action.help == argparse.SUPPRESS:
                continue
            name = f"cardgen {' '.join(words)} {'/'.join(action.option_strings) or action.metavar}"
            if not action.help:
                missing.append(f"{name}: no help")
                continue
            optional = action.option_strings or action.nargs in ("?", "*")
            if optional and not action.required and "(default:" not in action.help:
                missing.append(f"{name}: the help does not give the default")
            shown = shown_default(action.default)
            if shown and f"(default: {shown}" not in action.help:
                missing.append(f"{name}: the default is {shown!r}, the help says otherwise")
    assert not missing, "\n".join(missing)


# A flag with the same name means the same everywhere; where it cannot, why (and what may differ).
DIFFERENT_ON_PURPOSE = {
    ("--paper", "sheets"): "proxy sheets come in Letter and A4 (or both), a rulebook in book sizes too",
    ("--paper", "aids"): "player aids default to Letter, the rulebook to A5",
    ("--only", "render"): "render's --only names cards, build's names stages",
    ("--format", "deck export"): "deck export's --format is the file it writes: a deck list or a .cod",
    ("--out", "schema"): "the schemas' own folder, beside --into-folder (kept from item 3)",
    ("--seed", "replay"): "the one match to replay: required",
    ("--seed", "simulate"): "the first of the matches' seeds",
    ("--decks", "replay"): "the decks to seat, not to pit against each other",
    ("--seed", "balance"): "the first of each level's matches' seeds",
    ("--matches", "balance"): "matches at each level of play, several levels a run",
}


def test_a_flag_means_the_same_in_every_command():
    import argparse

    seen: dict[str, tuple] = {}
    differ = []
    for words, parser in every_command():
        command = " ".join(words)
        for action in parser._actions:
            if not action.option_strings or action.help == argparse.SUPPRESS \
                    or isinstance(action, argparse._HelpAction):
                continue
            flag = action.option_strings[-1]
            shape = (tuple(action.option_strings), type(action).__name__, action.type, action.default,
                     tuple(action.choices or ()), action.metavar, action.nargs, action.help)
            if (flag, command) in DIFFERENT_ON_PURPOSE:
                continue
            if seen.setdefault(flag, (command, shape))[1] != shape:
                differ.append(f"{flag}: `cardgen {command}` differs from `cardgen {seen[flag][0]}`")
    assert not differ, "\n".join(differ)
    assert {"--out", "--jobs", "--format", "--seed", "--output", "--variant"} <= set(seen)


def test_tts_takes_its_image_format_as_images_and_still_as_format():
    from cardgen.cli import _parser

    parse = _parser().parse_args
    assert parse(["tts", "dojo-duel", "--images", "png"]).image_format == "png"
    assert parse(["tts", "dojo-duel", "--format", "png"]).image_format == "png"   # its old name
    assert parse(["tts", "dojo-duel"]).image_format == "jpg"
