"""The arguments several commands share, each defined here once, so that a flag has the same
type, default, choices, metavar and help wherever it appears (`--out`, `--jobs`, `--seed`,
`--format`, `-o/--output`, a GAME). Every help text states the default; tests/test_cli.py walks the
parser to keep it so.

An argument also says what a shell should complete for it (`completes`: "game", "game-or-file",
"dir" or "file"; cardgen.completion reads it)."""

from __future__ import annotations

import argparse
from pathlib import Path

GAME_HELP = "a bundled game id (see `cardgen games`) or a game folder"


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def at_least_one(text: str) -> int:
    """A count option (matches, packs, processes): a whole number, 1 or more."""
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is too few: give 1 or more")
    return value


def jobs(text: str) -> int:
    """--jobs: 1 to four processes a core (more only adds memory and start-up time)."""
    import os

    value = at_least_one(text)
    most = 4 * (os.cpu_count() or 1)
    if value > most:
        raise argparse.ArgumentTypeError(f"{value} is too many: at most {most} processes "
                                         f"(4 for each of this machine's {most // 4} cores)")
    return value


def completes(action: argparse.Action, kind: str) -> argparse.Action:
    """Mark what a shell completes for the argument: "game", "game-or-file", "dir" or "file"."""
    action.completes = kind
    return action


def game_argument(p, dest: str = "game", nargs=None, help: str = GAME_HELP):
    """A GAME positional: a bundled game id or a game folder."""
    return completes(p.add_argument(dest, nargs=nargs, metavar="GAME", help=help), "game")


def game_option(p, default_words: str):
    """--game GAME, where a command can also learn the game another way."""
    return completes(p.add_argument("--game", default=None, metavar="GAME",
                                     help=f"{GAME_HELP} (default: {default_words})"), "game")


def target_argument(p, dest: str, nargs=None, help: str = ""):
    """A GAME|DECK positional: a game (its whole set) or one deck file."""
    return completes(p.add_argument(dest, nargs=nargs, metavar="GAME|DECK", help=help), "game-or-file")


def folder_argument(p, help: str):
    """A DIR positional: a game folder."""
    return completes(p.add_argument("folder", type=Path, metavar="DIR", help=help), "dir")


def out_option(p):
    return completes(p.add_argument(
        "--out", type=Path, default=Path("out"), metavar="DIR",
        help="output folder: a game's files go in DIR/<game>/ (default: out)"), "dir")


def jobs_option(p):
    return p.add_argument("--jobs", type=jobs, default=None, metavar="N",
                          help="processes at most (default: as many as the CPUs this process may use)")


def seed_option(p, required: bool = False, help: str = "the random seed: the same seed, the same result"):
    if required:
        return p.add_argument("--seed", type=int, required=True, metavar="N",
                              help=f"{help} (required, no default)")
    return p.add_argument("--seed", type=int, default=1, metavar="N", help=f"{help} (default: 1)")


def format_option(p, document: str | None = None):
    """--format text|json. `document`: the command's name when its JSON is one of the versioned
    documents of docs/cli.md (cardgen.jsondocs), which an error also prints in json mode."""
    if document:
        p.set_defaults(document=document)
    return p.add_argument("--format", choices=("text", "json"), default="text",
                          help="text for people, or json: one JSON document on stdout, its shape in "
                               "docs/cli.md (default: text)")


def interval_option(p):
    """watch and serve: how often the folder is looked at for saved files."""
    return p.add_argument("--interval", type=float, default=0.5, metavar="SECONDS",
                          help="seconds between looks at the folder's files (default: 0.5)")


def output_option(p):
    return completes(p.add_argument(
        "-o", "--output", type=Path, default=None, metavar="FILE",
        help="write to this new file, never replacing one (default: print to stdout)"), "file")


def paper_option(p, choices: tuple[str, ...], default: str):
    """--paper: the page size; which sizes a command offers depends on what it prints."""
    return p.add_argument("--paper", choices=choices, default=default,
                          help=f"page size: {', '.join(choices)} (default: {default})")


def variant_option(p):
    return p.add_argument("--variant", action="append", default=[], metavar="NAME",
                          help="a rules variant or match format the game's engine offers, on in every "
                               "match or scenario (repeatable; `cardgen info GAME` lists them; an "
                               "unknown name lists them too) (default: none, the published rules)")


def bots_option(p):
    return p.add_argument("--bots", default="random", metavar="BOT,...",
                          help="bot per seat, comma-separated, e.g. random,greedy or search:200,greedy "
                               "(search:N: N playouts per move, search:Ts: T seconds) (default: random)")


def players_option(p):
    return p.add_argument("--players", type=int, default=None, metavar="N",
                          help="players per match where the game allows several counts "
                               "(default: its usual ones)")


def flag(p, *names: str, help: str):
    """An on/off switch, off unless given."""
    return p.add_argument(*names, action="store_true", help=f"{help} (default: off)")
