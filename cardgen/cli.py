"""The `cardgen` command. Thin: it parses arguments and calls the modules that do the work."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardgen import __version__
from cardgen.cliargs import (
    at_least_one,
    bots_option,
    completes,
    flag,
    folder_argument,
    format_option,
    game_argument,
    game_option,
    interval_option,
    jobs_option,
    out_option,
    output_option,
    paper_option,
    players_option,
    seed_option,
    target_argument,
    variant_option,
    whole_number,
)
from cardgen.errors import ContentError, Issue, display_path, os_issue
from cardgen.fsutil import write_user_file
from cardgen.sim.balance import DEFAULT_LEVELS


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(argv)
    except KeyboardInterrupt:       # before the command began: reading its arguments, imports
        return _interrupted("interrupted", None)


def _run(argv: list[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from cardgen.gamecode import own_code_errors
    from cardgen.terminal import guard_output

    guard_output()      # names from a game folder never reach the terminal as control sequences
    out = getattr(args, "out", None)
    if isinstance(out, Path) and out.exists() and not out.is_dir():
        return _failed(args, 2, [Issue(None, None, None,
                                       f"--out {display_path(out)}: is a file, not a folder")])
    try:
        with own_code_errors():        # a game's own code failed: its file and line, no traceback
            return args.func(args)
    except ContentError as exc:
        return _failed(args, 2, exc.issues)
    except KeyboardInterrupt:
        return _interrupted("interrupted", out)
    except BrokenPipeError:
        # The reader left (`cardgen replay ... | head`): stop quietly, as other command-line tools do.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # (no error at exit's flush)
        return 141
    except OSError as exc:
        # The machine said no (read-only or full disk, --out naming a file): the path and the
        # system's reason, as for any input the user can fix.
        return _failed(args, 2, [os_issue(exc)])
    except Exception as exc:
        # Anything else is cardgen's own fault: never exit 1, which means "findings".
        if args.debug:
            import traceback

            traceback.print_exc()
        words = (f"internal error: a bug in cardgen {__version__}, not in your files: "
                 f"{type(exc).__name__}: {exc}"
                 + ("" if args.debug else " (run again with --debug to see the traceback)"))
        return _failed(args, 3, [Issue(None, None, None, words)], prefix="")
    finally:
        if argv is None:    # cardgen run as a program (tests pass their arguments)
            _ignore_ctrl_c()


def _failed(args, code: int, issues: list[Issue], prefix: str = "error: ") -> int:
    """The command stopped: each problem on stderr, and in json mode the document, with no result."""
    for issue in issues:
        print(f"{prefix}{issue}", file=sys.stderr)
    _print_document(args, code, issues, None)
    return code


def _json_document(args) -> str | None:
    """The command whose versioned JSON document (cardgen.jsondocs) goes to stdout, in json mode."""
    return getattr(args, "document", None) if getattr(args, "format", None) == "json" else None


def _print_document(args, code: int, issues: list[Issue], result: dict | None) -> int:
    from cardgen.jsondocs import document

    command = _json_document(args)
    if command:
        print(json.dumps(document(command, code, issues, result), indent=2, ensure_ascii=False))
    return code


def _interrupted(word: str, out) -> int:
    """Ctrl-C: the workers stopped, the files they were writing in `out` removed, one line, 130."""
    from cardgen.fsutil import remove_orphan_temps
    from cardgen.parallel import stop_workers

    stop_workers()
    if isinstance(out, Path):
        remove_orphan_temps(out)
    # (on a terminal, below the ^C it echoed, which may end a progress bar)
    print(f"\n{word}" if sys.stderr.isatty() else word, file=sys.stderr)
    # CPython marks a KeyboardInterrupt raised inside exec() of a string (dataclasses make their
    # methods so, as modules load) as unhandled, and then ends the process with SIGINT instead of
    # exit 130, however it was handled; the next exec() of a string clears the mark.
    exec("")
    return 130


def _ignore_ctrl_c() -> None:
    """The command is done (or stopped): a Ctrl-C from here to the exit is ignored. Python's end
    (its exit handlers, freeing every object) takes a moment, and an interrupt in it ended the
    process by the signal, after the work was all done, or printed a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardgen", description="Card games from YAML: check decks, build print-and-play files.")
    parser.add_argument("--version", action="version", version=f"cardgen {__version__}")
    flag(parser, "--debug", help="on an internal error, print the traceback (for a bug report)")
    sub = parser.add_subparsers(metavar="COMMAND")

    p = sub.add_parser("validate", help="check deck files against their game's rules")
    completes(p.add_argument("decks", nargs="+", metavar="DECK",
                             help="deck files (a game id or game folder means its decks/*.yaml)"),
              "game-or-file")
    format_option(p)
    flag(p, "--strict", help="warnings (deck advice the published rules do not make) count as errors")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("build", help="check every game and write its outputs under out/")
    game_argument(p, "games", nargs="*",
                  help="bundled game ids or game folders (default: every bundled game)")
    out_option(p)
    p.add_argument("--only", nargs="+", metavar="STAGE",
                   choices=["cards", "sheets", "site", "rulebook", "matches", "schemas"],
                   help="run only these stages after the check: cards, sheets, site, rulebook, matches, "
                        "schemas (default: all)")
    jobs_option(p)
    format_option(p, document="build")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("info", help="load a game and summarise it (or list its content errors)")
    game_argument(p)
    format_option(p, document="info")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("schema", help="write JSON Schemas of a game's card and deck files and layouts.yaml")
    game_argument(p)
    where = p.add_mutually_exclusive_group()
    completes(where.add_argument(
        "--out", type=Path, default=None, metavar="DIR",
        help="the folder the schemas go in, itself (not DIR/<game>/ as elsewhere) (default: "
             "out/<game>/schema); a file there that cardgen did not write is never replaced"), "dir")
    flag(where, "--into-folder",
         help="set the game folder up for VS Code's YAML extension instead: the schemas in its "
              ".cardgen/ (which build and watch then keep current) and .vscode/settings.json when it "
              "has none")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("render", help="card faces and backs as PNG (300 dpi, with bleed)")
    game_argument(p, "games", nargs="+", help="one game or several, drawn side by side: bundled game ids "
                                              "or game folders")
    p.add_argument("--only", nargs="+", metavar="NAME", help="only these cards (default: every card)")
    p.add_argument("--preset", choices=["tgc", "mpc", "dtc"], default=None,
                   help="print shop: tgc (The Game Crafter), mpc (MakePlayingCards), "
                        "dtc (DriveThruCards): its bleed (default: none, the bleed layouts.yaml gives)")
    jobs_option(p)
    flag(p, "--no-cache", help="redraw every card, changed or not")
    out_option(p)
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("sheets", help="print-and-play proxy sheets (PDF, Letter and A4) for a game or a deck")
    target_argument(p, "targets", nargs="+",
                    help="a game (the whole set) or a deck file; several are printed side by side")
    paper_option(p, ("letter", "a4", "both"), "both")
    p.add_argument("--backs", choices=["duplex-long", "duplex-short", "separate", "fold", "none"],
                   default="duplex-long",
                   help="duplex-long: flip on the long edge; duplex-short; separate back pages; "
                        "fold (faces and backs side by side); none (default: duplex-long)")
    p.add_argument("--offset-x", type=float, default=0.0, metavar="MM",
                   help="move everything on the back pages right (negative: left), as the back page "
                        "prints, to make up for your printer's drift (hold a test sheet to the light); "
                        "not with --backs fold (default: 0)")
    p.add_argument("--offset-y", type=float, default=0.0, metavar="MM",
                   help="move everything on the back pages down (negative: up); not with --backs fold "
                        "(default: 0)")
    cuts = p.add_mutually_exclusive_group()
    cuts.add_argument("--gap", type=float, default=0.0, metavar="MM",
                      help="space between cards (a wide gap can cost a row or column) (default: 0, "
                           "neighbours share cut lines)")
    cuts.add_argument("--shared-cuts", action="store_true",
                      help="neighbours share cut lines, whatever --gap says (default: on, unless --gap)")
    _bleed_options(p)
    flag(p, "--singles", help="also one page per card at trim + bleed, for print-on-demand shops")
    _cmyk_option(p)
    out_option(p)
    p.set_defaults(func=cmd_sheets)

    p = sub.add_parser("tts", help="Tabletop Simulator deck: sheet images and a saved-object JSON")
    target_argument(p, "target", help="a game (the whole set) or a deck file")
    p.add_argument("--images", choices=["jpg", "png"], default="jpg", dest="image_format",
                   help="the sheets' image format (default: jpg)")
    p.add_argument("--format", choices=["jpg", "png"], dest="image_format",   # its old name: --format
                   default=argparse.SUPPRESS, help=argparse.SUPPRESS)        # means text|json elsewhere
    out_option(p)
    p.set_defaults(func=cmd_tts)

    for name, what in (("rulebook", "the rulebook PDF (out/<game>/rulebook.pdf)"),
                       ("aids", "the player aids PDF (out/<game>/player-aids.pdf)")):
        p = sub.add_parser(name, help=f"write {what} from the game's rules/*.md and data")
        game_argument(p)
        paper_option(p, ("a5", "a4", "letter", "half-letter"), "a5" if name == "rulebook" else "letter")
        out_option(p)
        if name == "rulebook":
            _booklet_option(p)
        p.set_defaults(func=cmd_rulebook if name == "rulebook" else cmd_aids)

    p = sub.add_parser("simulate", help="play seeded sample matches between bots; report balance "
                                        "and rule conflicts")
    _pitted_game_arguments(p)
    p.add_argument("--matches", type=at_least_one, default=1000, metavar="N",
                   help="how many matches (default: 1000)")
    seed_option(p, help="the first match's seed (match i plays seed+i)")
    jobs_option(p)
    bots_option(p)
    _match_options(p)
    flag(p, "--no-invariants", help="skip the per-step invariant checks")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="a Dask scheduler, e.g. tcp://HOST:8786, whose workers play the matches; the "
                        "report is the one this machine makes with the same seeds (needs the cluster "
                        "extra; docs/engines.md) (default: none, this machine's CPUs)")
    format_option(p)
    out_option(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("balance", help="which deck or character is out of line, and by how much, at "
                                       "each level of play (random, greedy and search bots)")
    _pitted_game_arguments(p)
    p.add_argument("--levels", default=",".join(DEFAULT_LEVELS), metavar="BOT,...",
                   help="the levels of play, weakest first: at each, every seat is that bot (default: "
                        f"{','.join(DEFAULT_LEVELS)})")
    p.add_argument("--matches", type=at_least_one, default=400, metavar="N",
                   help="matches at each level (default: 400)")
    seed_option(p, help="the first match's seed at every level (match i plays seed+i)")
    jobs_option(p)
    _match_options(p)
    format_option(p)
    out_option(p)
    p.set_defaults(func=cmd_balance)

    p = sub.add_parser("replay", help="print one sample match move by move")
    game_argument(p)
    seed_option(p, required=True, help="the match's seed, as simulate's report gives it")
    _decks_option(p, help="the decks to seat, in order (checked first, as `cardgen validate` checks them)")
    bots_option(p)
    _match_options(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("check", help="run a game's scenarios (rulebook examples and FAQ) on its engine")
    game_argument(p)
    variant_option(p)       # (the scenarios state the published rules: the failures show the variant)
    format_option(p, document="check")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("site", help="the card database: a searchable static site of every card")
    game_argument(p)
    out_option(p)
    p.set_defaults(func=cmd_site)

    p = sub.add_parser("packs", help="open booster packs by the game's rarity slots")
    game_argument(p)
    p.add_argument("--count", type=at_least_one, default=1, metavar="N", help="how many packs (default: 1)")
    seed_option(p)
    format_option(p)
    completes(p.add_argument("--deck", type=Path, default=None, metavar="FILE",
                             help="also write the opened cards as a deck file, never replacing one "
                                  "(default: none)"), "file")
    flag(p, "--sheets", help="also print the opened cards as proxy sheets (DIR/<game>/packs-seed-S-*.pdf)")
    out_option(p)
    p.set_defaults(func=cmd_packs)

    p = sub.add_parser("deck", help="deck lists as plain text: import and export")
    deck_sub = p.add_subparsers(metavar="ACTION")
    q = deck_sub.add_parser("import", help='a "4 Card Name" list or a Cockatrice .cod file -> a deck YAML')
    q.add_argument("file", type=Path, metavar="FILE", help="a text deck list or a .cod file (told apart "
                                                           "by their contents)")
    game_option(q, default_words="the file's `game:` line")
    output_option(q)
    q.set_defaults(func=cmd_deck_import)
    q = deck_sub.add_parser("export", help='a deck YAML -> a "4 Card Name" list or a Cockatrice .cod file')
    q.add_argument("deck", type=Path, metavar="DECK.yaml", help="a deck file")
    output_option(q)
    q.add_argument("--format", choices=("text", "cod"), default=None,
                   help="text or cod (default: cod for an --output ending in .cod, else text)")
    q.set_defaults(func=cmd_deck_export)

    _cards_parser(sub)

    p = sub.add_parser("new", help="start your own game: a small complete game folder to edit")
    folder_argument(p, help="the new game's folder (it must not exist yet)")
    p.add_argument("--name", default=None, help="the game's name (default: from the folder name)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("watch", help="rebuild a game folder whenever one of its files is saved")
    folder_argument(p, help="the game folder to watch")
    out_option(p)
    interval_option(p)
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("serve", help="rebuild a game folder as you save (as watch does) and show it in a "
                                     "browser: cards, proxy sheets, rulebook, sample matches, mistakes")
    folder_argument(p, help="the game folder to show (the one with game.yaml)")
    out_option(p)
    p.add_argument("--port", type=_port, default=8040, metavar="N",
                   help="the port on 127.0.0.1 to serve the page on (0: any free port) (default: 8040)")
    interval_option(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("games", help="list the bundled games")
    format_option(p, document="games")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("completion", help="print the shell completion script (bash or zsh)")
    p.add_argument("shell", choices=("bash", "zsh"),
                   help="the shell; bash: `source <(cardgen completion bash)` in ~/.bashrc")
    p.set_defaults(func=cmd_completion)
    _debug_anywhere(sub)
    return parser


def _debug_anywhere(sub) -> None:
    """`--debug` also after the command (`cardgen build --debug`), where people type it."""
    for command in sub.choices.values():
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                             help=argparse.SUPPRESS)
        for action in command._subparsers._group_actions if command._subparsers else ():
            _debug_anywhere(action)


def cmd_validate(args) -> int:
    from cardgen.validate import exit_code, expand_targets, format_json, format_text, validate_decks

    reports = validate_decks(expand_targets(args.decks), strict=args.strict)
    out, err = format_text(reports)
    if args.format == "json":
        out = format_json(reports)
    if out:
        print(out)
    if err:
        print(err, file=sys.stderr)
    return exit_code(reports)


def cmd_build(args) -> int:
    from cardgen.build import STAGES, build_games, print_stage_errors

    lines = sys.stderr if _json_document(args) else sys.stdout     # (stdout holds the JSON alone)

    def show_problems(result) -> None:
        if result.errors:
            print("  cannot load", file=sys.stderr)
            for issue in result.errors:
                print(f"  error: {issue}", file=sys.stderr)
            return
        for deck in result.decks:
            for p in deck.problems:
                print(f"  {display_path(deck.path)}:{p.line}: {p.rule}: {p.message}", file=lines)
            for issue in deck.errors:
                print(f"  error: {issue}", file=sys.stderr)
        print_stage_errors(result)

    stages = STAGES if not args.only else ("check", *[s for s in STAGES if s in args.only])
    results = build_games(args.games or _bundled(), args.out, stages, progress=sys.stderr.isatty(),
                          log=lambda line: print(line, file=lines, flush=True), finished=show_problems,
                          jobs=args.jobs)
    print(f"output in {display_path(args.out)}/", file=lines)
    code = 2 if any(r.needs_fixing for r in results) else 0 if all(r.ok for r in results) else 1
    if _json_document(args):
        from cardgen.jsondocs import build_errors, build_result

        _print_document(args, code, [i for r in results for i in build_errors(r)],
                        build_result(results, args.out))
    return code


def _bundled() -> list[str]:
    from cardgen.paths import bundled_game_ids

    return bundled_game_ids()


def cmd_info(args) -> int:
    from cardgen.model import load_game
    from cardgen.rules import rule_ids

    game = load_game(args.game)
    if _json_document(args):
        from cardgen.jsondocs import game_summary

        return _print_document(args, 0, [], game_summary(game))
    print(f"{game.name} ({game.id}) from {display_path(game.folder)}")
    counts = game.count_by_type()
    distinct = {t: len(game.cards_of_type(t)) for t in game.card_types}
    print(f"cards: {len(game.cards)} distinct, {sum(counts.values())} in the box")
    for type_id, card_type in game.card_types.items():
        note = "" if card_type.in_decks else " (not in decks)"
        print(f"  {card_type.label}: {distinct[type_id]} distinct, {counts[type_id]} copies{note}")
    print(f"keywords: {', '.join(game.keywords) or 'none'}")
    decks = sorted((game.folder / "decks").glob("*.yaml"))
    print(f"sample decks: {', '.join(d.name for d in decks) or 'none'}")
    print("deck rules: " + ", ".join(rule_ids(game)))
    print(f"rules engine: {_engine_words(game)}")
    others = {k: p for k, p in game.hooks.items() if k != "engine"}
    if others:
        print("game code: " + ", ".join(f"{k.replace('_', ' ')} {display_path(p)}"
                                        for k, p in others.items()))
    print(rules_as_played(game))
    return 0


def rules_as_played(game) -> str:
    """game.yaml's variants and rulings, each with the rulebook sentence it departs from or fills
    in: what `cardgen info` prints after the counts."""
    import textwrap

    def wrap(text: str, indent: int, first: str = "") -> list[str]:
        return textwrap.wrap(text, 96, initial_indent=" " * indent + first,
                             subsequent_indent=" " * (indent + (2 if first else 0)))

    if not game.variants:
        out = ["variants: none"]
    else:
        out = [f"variants: {len(game.variants)}, each off unless asked for (--variant NAME, or a "
               "deck's variants:)"]
    for v in game.variants.values():
        whose = "an optional rule of the rulebook" if v.source == "rulebook" else "a house rule"
        out.append(f"  {v.id}: {v.name}, {whose}"
                   + ("" if v.played else ", NOT played by the engine"))
        out += wrap(v.rule, 6)
        if not v.played and v.why:
            out += wrap(v.why, 6, "not played: ")
        if v.cites:
            out += wrap(f"\N{LEFT DOUBLE QUOTATION MARK}{v.cites}\N{RIGHT DOUBLE QUOTATION MARK}",
                        6, "rulebook: ")
    out.append(f"rulings: {len(game.rulings) or 'none'}")
    for i, r in enumerate(game.rulings, 1):
        out += wrap(r.rule, 2, f"{i:>2}. ")
        if r.cites:
            out += wrap(r.cites, 6, "rulebook: ")
    return "\n".join(out)


def _engine_words(game) -> str:
    """Which rules engine `simulate` would play, and how many scenarios `check` would run."""
    from cardgen.engines import has_engine
    from cardgen.sim.scenarios import scenario_files

    if not has_engine(game):
        return "none (simulate, replay and check need one: docs/engines.md)"
    return f"{display_path(game.hooks['engine'])}, {len(scenario_files(game))} scenarios"


def cmd_schema(args) -> int:
    from cardgen.model import load_game
    from cardgen.schema import write_schemas

    game = load_game(args.game)
    if args.into_folder:
        return _schema_into_folder(game)
    out = args.out or Path("out") / game.id / "schema"
    for path in write_schemas(game, out, own_folder=args.out is None):
        print(display_path(path))
    print("Point your editor at them, e.g. first line of a card file:\n"
          f"  # yaml-language-server: $schema={display_path(out)}/{game.id}.cards.schema.json")
    return 0


def _schema_into_folder(game) -> int:
    from cardgen.editor import set_up

    written, note = set_up(game)
    for path in written:
        print(display_path(path))
    if not written:
        print(f"{display_path(game.folder)}: already set up, schemas unchanged")
    if note:
        print(note)
    print("Open the game folder in VS Code with the YAML extension (redhat.vscode-yaml): card and deck "
          "files are checked as you type; cardgen build and watch keep the schemas current.")
    return 0


def cmd_render(args) -> int:
    from cardgen.model import load_game
    from cardgen.render import render_games

    games = [load_game(ref) for ref in args.games]
    if args.only:
        if len(games) > 1:
            raise ContentError([Issue(None, None, "--only", "names cards of one game: give one GAME")])
        game = games[0]
        unknown = [n for n in args.only if n not in game.cards]
        if unknown:
            from cardgen.errors import did_you_mean

            raise ContentError([Issue(None, None, "--only",
                                      f"no card {n!r} in {game.name}{did_you_mean(n, game.cards)}")
                                for n in unknown])
    results = render_games(games, args.out, only=args.only, preset=args.preset, jobs=args.jobs,
                           progress=sys.stderr.isatty(), use_cache=not args.no_cache)
    status = 0
    for game, result in zip(games, results, strict=True):
        issues = result.issues if isinstance(result, ContentError) else result.errors
        for issue in issues:
            print(f"error: {issue}", file=sys.stderr)
        if issues:
            status = 2
        if isinstance(result, ContentError):
            continue
        _print_trim_warnings(game)
        drawn = len(result.written)
        rate = f", {drawn / result.seconds:.0f} cards/s" if drawn and result.seconds else ""
        print(f"{game.id}: {drawn} drawn, {result.skipped} unchanged in {result.seconds:.2f}s{rate} -> "
              f"{display_path(args.out / game.id)}/cards/")
    return status


def _print_trim_warnings(game) -> None:
    """render: lines and frames so close to the cut that a cutting error shows (a warning)."""
    from cardgen.render.layout import load_layouts
    from cardgen.render.trimlines import trim_warnings

    for warning in trim_warnings(load_layouts(game)):
        print(f"warning: {warning}", file=sys.stderr)


def _bleed_options(p) -> None:
    """sheets: bleed is printed where it fits unless --no-bleed; --bleed, which once turned it on,
    is still accepted (hidden) so that old scripts keep working."""
    flag(p, "--no-bleed", help="cut every card at the trim: no bleed around the cards (bleed is printed "
                               "where the sheet has room)")
    p.add_argument("--bleed", action="store_true", help=argparse.SUPPRESS)


def _cmyk_option(p) -> None:
    """sheets: CMYK singles for a shop's ICC output profile (cardgen/sheets/cmyk.py)."""
    completes(p.add_argument(
        "--cmyk", type=Path, default=None, metavar="PROFILE.icc",
        help="with --singles: the singles in CMYK for the print shop's ICC output profile, every colour "
             "converted through it and the profile embedded as the output intent (default: RGB)"), "file")


def cmd_sheets(args) -> int:
    from cardgen.sheets import SheetOptions, load_target, make_sheets_many

    if args.gap < 0:
        raise ContentError([Issue(None, None, "--gap", "expected 0 mm or more")])
    if args.backs == "fold" and (args.offset_x or args.offset_y):
        raise ContentError([Issue(None, None, "--offset-x/--offset-y",
                                  "--backs fold prints each back beside its face on the same page, so "
                                  "there is no back page to move: fold on the dashed line, or use "
                                  "--backs duplex-long with the offsets")])
    if args.cmyk is not None and not args.singles:
        raise ContentError([Issue(None, None, "--cmyk",
                                  "CMYK is for the print-on-demand singles: add --singles")])
    targets = [load_target(ref) for ref in args.targets]
    papers = ("letter", "a4") if args.paper == "both" else (args.paper,)
    options = SheetOptions(papers, args.backs, (args.offset_x, args.offset_y), 0.0 if args.shared_cuts
                           else args.gap, not args.no_bleed, args.singles, args.cmyk)
    status, printed = 0, False
    for result in make_sheets_many(targets, args.out, options):
        if isinstance(result, ContentError):
            for issue in result.issues:
                print(f"error: {issue}", file=sys.stderr)
            status = 2
            continue
        printed = True
        for path, note in zip(result.paths, result.notes, strict=True):
            print(f"{display_path(path)}: {note}")
    if printed:
        print("Print at 100% (actual size, no fit-to-page): the rulers in the margin must measure 1 in and "
              "2 cm.")
    return status


def cmd_tts(args) -> int:
    from cardgen.sheets import CACHE_NAME, load_target
    from cardgen.sheets.tts import UPLOAD_NOTE, export_tts

    game, deck = load_target(args.target)
    result = export_tts(game, args.out / game.id / "tts", deck, args.image_format,
                        args.out / game.id / CACHE_NAME)
    for sheet in result.sheets:
        print(f"deck sheet {sheet['id']}: {sheet['cards']} cards on {sheet['cols']} x {sheet['rows']}, "
              f"{sheet['size'][0]} x {sheet['size'][1]} px")
    for path in result.images:
        print(display_path(path))
    tiles = f", {result.tiles} component tile{'s' if result.tiles != 1 else ''}" if result.tiles else ""
    print(f"{display_path(result.json_path)}: {result.cards} cards{tiles}")
    print(UPLOAD_NOTE)
    return 0


def _match_options(p) -> None:
    players_option(p)
    variant_option(p)


def _pitted_game_arguments(p) -> None:
    """simulate's and balance's GAME and --decks: the decks are pitted against each other."""
    game_argument(p)
    _decks_option(p, help="deck files to pit against each other, each pair in both seatings "
                          "(checked first, as `cardgen validate` checks them)")


def _decks_option(p, help: str) -> None:
    completes(p.add_argument("--decks", nargs="+", metavar="DECK",
                             help=f"{help} (default: the matchups the game's engine sets up)"), "file")


def _match_setup(engine, args) -> dict:
    """--players and --variant, checked against what the engine offers: keywords for its setups."""
    engine.check_match_options(args.players, args.variant)
    return {"players": args.players, "variants": tuple(dict.fromkeys(args.variant))}


def _check_decks(game, deck_paths) -> None:
    """Deck files for simulate and replay: each must be a legal deck of this game, or the command
    stops before any match with the problems `cardgen validate` reports (file, line, rule)."""
    from cardgen.validate import validate_decks

    issues = []
    for report in validate_decks([Path(d) for d in deck_paths], {Path(game.folder).resolve(): game}):
        issues += report.errors
        if report.game is not None and report.game != game.id:
            issues.append(Issue(report.path, None, "game", f"this is a deck for {report.game}, "
                                                            f"not {game.id}"))
            continue
        issues += [Issue(report.path, p.line, p.rule, p.message) for p in report.problems
                   if report.counts(p)]       # (advice does not stop a match: the deck is legal)
    if issues:
        raise ContentError(issues)


def _bots(engine, spec: str, option: str = "--bots") -> list[str]:
    from cardgen.sim.bots import bot_names, bot_problem

    names = [b.strip() for b in spec.split(",") if b.strip()]
    problems = [p for p in dict.fromkeys(bot_problem(b, engine) for b in names) if p]
    if not names:
        problems = [f"no bot in {spec!r}"]
    if problems:
        raise ContentError([Issue(None, None, option, f"{problem}; this game has "
                                  f"{', '.join(bot_names(engine))} (search:N or search:Ts sets the "
                                  "search bot's playouts or seconds per move)") for problem in problems])
    engine.check_bots(names)
    return names


def _booklet_option(p) -> None:
    flag(p, "--booklet", help="pad the book with blank pages before its back page to a multiple of 4, "
                               "and also write rulebook-booklet.pdf: two pages to a sheet side in "
                               "folding order, to print duplex (short edge), fold and staple")


def cmd_rulebook(args) -> int:
    from cardgen.model import load_game
    from cardgen.publish import build_rulebook
    from cardgen.publish.rulebook import BOOKLET_FILE

    game = load_game(args.game)
    result = build_rulebook(game, args.out / game.id, args.paper, booklet=args.booklet)
    code = _published(result)
    if args.booklet:
        print(f"{display_path(result.path.with_name(BOOKLET_FILE))}: {result.pages // 2} sheet sides "
              f"({result.pages // 4} sheets, folded)")
    return code


def cmd_aids(args) -> int:
    from cardgen.model import load_game
    from cardgen.publish import build_aids

    game = load_game(args.game)
    return _published(build_aids(game, args.out / game.id, args.paper))


def _published(result) -> int:
    for warning in result.warnings:
        print(f"note: {warning}", file=sys.stderr)
    print(f"{display_path(result.path)}: {result.pages} pages, {result.seconds:.1f} s")
    return 0


def cmd_simulate(args) -> int:
    from cardgen.engines import load_engine
    from cardgen.fsutil import write_atomic
    from cardgen.model import load_game
    from cardgen.sim.report import build_report, format_html, format_text
    from cardgen.sim.runner import deck_contents, simulate_tally, static_conflicts

    game = load_game(args.game)
    engine = load_engine(game)
    bots = _bots(engine, args.bots)
    match = _match_setup(engine, args)
    if args.decks:
        _check_decks(game, args.decks)
    pool, seat_cards = deck_contents(engine, args.decks, **match)  # (setups the rules cannot play stop here)
    tally, seconds = simulate_tally(game, matches=args.matches, seed=args.seed, jobs=args.jobs, bots=bots,
                                    decks=args.decks, check_invariants=not args.no_invariants,
                                    progress=sys.stderr.isatty() and args.format == "text", engine=engine,
                                    cluster=args.cluster, **match)
    report = build_report(game, tally, seconds, static=static_conflicts(engine), bots=bots,
                          seed=args.seed, pool=pool, seat_cards=seat_cards, variants=match["variants"])
    out = args.out / game.id
    write_atomic(out / "simulation.json", json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    write_atomic(out / "simulation.html", format_html(report))
    if args.format == "json":
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(format_text(report))
        print(f"\nreport: {display_path(out / 'simulation.html')}")
    return 1 if report["conflicts"] else 0


def cmd_balance(args) -> int:
    from cardgen.engines import load_engine
    from cardgen.fsutil import write_atomic
    from cardgen.model import load_game
    from cardgen.sim.balance import format_text, sweep
    from cardgen.sim.runner import deck_contents, simulate_tally, static_conflicts

    game = load_game(args.game)
    engine = load_engine(game)
    levels = _bots(engine, args.levels, "--levels")
    match = _match_setup(engine, args)
    if args.decks:
        _check_decks(game, args.decks)
    pool, seat_cards = deck_contents(engine, args.decks, **match)

    def simulate_level(bot: str):
        if sys.stderr.isatty() and args.format == "text":
            print(f"{bot}:", file=sys.stderr)
        return simulate_tally(game, matches=args.matches, seed=args.seed, jobs=args.jobs, bots=[bot],
                              decks=args.decks, progress=sys.stderr.isatty() and args.format == "text",
                              engine=engine, **match)

    result = sweep(game, simulate_level, levels, matches=args.matches, seed=args.seed,
                   static=static_conflicts(engine), pool=pool, seat_cards=seat_cards,
                   variants=match["variants"])
    write_atomic(args.out / game.id / "balance.json", json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.format == "json" else format_text(result))
    return 1 if any(row["conflicts"] for row in result["levels"]) else 0


def cmd_replay(args) -> int:
    from cardgen.engines import load_engine
    from cardgen.model import load_game
    from cardgen.sim.runner import load_decks, match_setups, play_match
    from cardgen.sim.watchdog import watching

    game = load_game(args.game)
    engine = load_engine(game)
    bots = _bots(engine, args.bots)
    match = _match_setup(engine, args)
    if args.decks:
        _check_decks(game, args.decks)
    setups = match_setups(engine, load_decks(args.decks, game), **match)
    with watching():        # (a match stuck in one action stops, as it did in simulate)
        log = play_match(engine, setups, args.seed, bots, log=True)
    r = log.result
    print(f"{game.name}, seed {args.seed}: {r.setup} ({' vs '.join(r.bots)})")
    for step, player, text, outcome in log.moves:
        print(f"{step + 1:5}  P{player + 1} ({r.seats[player]}): {text}")
        for line in outcome.splitlines():
            print(f"{'':7}  -> {line}")
    if r.finished:
        outcome = "a draw" if r.winner is None else f"P{r.winner + 1} ({r.seats[r.winner]}) wins"
        print(f"after {r.actions} actions: {outcome}")
    for c in r.conflicts:
        print(f"rule conflict [{c.kind}] at step {c.step}: {c.message}")
    return 1 if r.conflicts else 0


def cmd_check(args) -> int:
    from cardgen.engines import load_engine
    from cardgen.model import load_game
    from cardgen.sim.scenarios import check_game

    game = load_game(args.game)
    engine = load_engine(game)
    variants = tuple(dict.fromkeys(args.variant))
    engine.check_match_options(None, variants)
    if variants and not _json_document(args):
        print(f"with variant {', '.join(variants)} on in every scenario")
    results = check_game(game, engine, variants=variants)
    failed = sum(not r.ok for r in results)
    if _json_document(args):
        from cardgen.jsondocs import check_result

        return _print_document(args, 1 if failed else 0, [], check_result(game, variants, results))
    for result in results:
        mark = "ok  " if result.ok else "FAIL"
        where = display_path(result.scenario.path)
        print(f"{mark} {where}: {result.scenario.title}" + ("" if result.ok else f"\n     {result.message}"))
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_site(args) -> int:
    from cardgen.model import load_game
    from cardgen.render import render_game
    from cardgen.site import build_site

    game = load_game(args.game)
    if (game.folder / "layouts.yaml").is_file():
        rendered = render_game(game, args.out, progress=sys.stderr.isatty(), thumbnails=True)
        for issue in rendered.errors:
            print(f"error: {issue}", file=sys.stderr)
    build_site(game, args.out / game.id)
    index = args.out / game.id / "site" / "index.html"
    print(f"{display_path(index)}  (open it in a browser; it works offline)")
    return 0


def cmd_packs(args) -> int:
    from cardgen.model import load_game
    from cardgen.packs import open_packs

    game = load_game(args.game)
    packs = open_packs(game, args.count, args.seed)
    if args.format == "json":
        print(json.dumps([[{"card": c.name, "rarity": c.rarity, "slot": c.slot} for c in pack]
                          for pack in packs], indent=2, ensure_ascii=False))
    else:
        for i, pack in enumerate(packs, 1):
            print(f"pack {i} (seed {args.seed}):")
            for card in pack:
                print(f"  {card.slot}. {card.name} ({card.rarity})")
    if args.deck or args.sheets:
        from cardgen.decklist import deck_yaml

        counts: dict[str, int] = {}
        for pack in packs:
            for card in pack:
                counts[card.name] = counts.get(card.name, 0) + 1
        text = deck_yaml({"game": str(game.folder), "name": f"{args.count} packs, seed {args.seed}",
                          "cards": counts})
        if args.deck:
            write_user_file(args.deck, text)
            print(f"wrote {display_path(args.deck)}", file=sys.stderr)
        if args.sheets:
            from cardgen.fsutil import write_atomic
            from cardgen.model import load_deck
            from cardgen.sheets import make_sheets

            deck_file = write_atomic(args.out / game.id / f"packs-seed-{args.seed}.yaml", text)
            for path in make_sheets(game, args.out / game.id, deck=load_deck(deck_file)):
                print(f"wrote {display_path(path)}", file=sys.stderr)
    return 0


def cmd_deck_import(args) -> int:
    import re

    from cardgen.cockatrice import game_in_comments, looks_like_cod, parse_cod
    from cardgen.decklist import deck_yaml, parse_decklist, read_decklist
    from cardgen.model import load_game

    text = read_decklist(args.file)
    if looks_like_cod(text):
        game_ref = args.game or game_in_comments(text)
    else:
        found = re.search(r"(?im)^\s*game\s*:\s*(\S.*?)\s*$", text)
        game_ref = args.game or (found.group(1) if found else None)
        text = re.sub(r"(?im)^[ \t]*game[ \t]*:.*$", "", text)  # blanked, so line numbers still match
    if not game_ref:
        raise ContentError([Issue(args.file, None, None, "which game? pass --game or add a `game:` line")])
    game = load_game(game_ref)
    parse = parse_cod if looks_like_cod(text) else parse_decklist
    _emit(deck_yaml(parse(text, game, args.file)), args.output)
    return 0


def cmd_deck_export(args) -> int:
    from cardgen.cockatrice import format_cod
    from cardgen.decklist import format_decklist
    from cardgen.model import load_deck

    as_cod = args.format == "cod" or (args.format is None and args.output is not None
                                      and args.output.suffix.lower() == ".cod")
    _emit((format_cod if as_cod else format_decklist)(load_deck(args.deck)), args.output)
    return 0


def _emit(text: str, output: Path | None) -> None:
    """Print the text, or write it to a new file (never replacing one)."""
    if output:
        write_user_file(output, text)
        print(f"wrote {display_path(output)}", file=sys.stderr)
    else:
        print(text, end="")


def _cards_parser(sub) -> None:
    p = sub.add_parser("cards", help="a game's cards as a spreadsheet")
    cards_sub = p.add_subparsers(metavar="ACTION")
    q = cards_sub.add_parser("export", help="write a game's cards as an .xlsx (a worksheet per card "
                                            "type) or .csv file that loads back to the same cards")
    game_argument(q)
    completes(q.add_argument("file", type=Path, metavar="FILE",
                             help="the new file to write, .xlsx or .csv (never replacing one)"), "file")
    q.set_defaults(func=cmd_cards_export)


def cmd_cards_export(args) -> int:
    from cardgen.model import load_game
    from cardgen.sheetexport import check_target, export_bytes

    check_target(args.file)
    game = load_game(args.game)
    write_user_file(args.file, export_bytes(game, args.file.suffix.lower()))
    print(f"wrote {display_path(args.file)}: {len(game.cards)} cards of {game.name}", file=sys.stderr)
    return 0


def cmd_new(args) -> int:
    from cardgen.scaffold import new_game

    written = new_game(args.folder, args.name)
    where = display_path(args.folder)
    print(f"created {len(written)} files in {where}/:")
    for path in written:
        print(f"  {display_path(path)}")
    print(f"\nnext: cardgen build {where}      (cards, proxy sheets, rulebook, deck report and sample "
          "matches in out/)\n"
          f"      cardgen watch {where}      (rebuilds as you save)\n"
          f"      cardgen simulate {where}   (its rules engine, {where}/engine.py, plays seeded matches)\n"
          f"      code {where}               (VS Code with its YAML extension checks cards and decks as you "
          "type: docs/game-format.md, Editor set-up)")
    return 0


def cmd_watch(args) -> int:
    from cardgen.paths import resolve_game_folder
    from cardgen.watch import watch

    folder = resolve_game_folder(str(args.folder))
    if folder is None:
        raise ContentError([Issue(args.folder, None, None, "not a game folder (no game.yaml)")])
    try:
        watch(folder, args.out, interval=args.interval, say=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        return _interrupted("stopped", args.out)
    return 0


def _port(text: str) -> int:
    """--port: 0 (any free port) to 65535."""
    value = whole_number(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: give 1-65535, or 0 for any free one")
    return value


def cmd_serve(args) -> int:
    from cardgen.paths import resolve_game_folder
    from cardgen.serve import serve

    folder = resolve_game_folder(str(args.folder))
    if folder is None:
        raise ContentError([Issue(args.folder, None, None, "not a game folder (no game.yaml)")])
    try:
        serve(folder, args.out, port=args.port, interval=args.interval,
              say=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        return _interrupted("stopped", args.out)
    return 0


def cmd_completion(args) -> int:
    from cardgen.completion import script
    from cardgen.paths import bundled_game_ids

    print(script(_parser(), args.shell, bundled_game_ids()), end="")
    return 0


def cmd_games(args) -> int:
    from cardgen.jsondocs import games_entry
    from cardgen.model import load_game
    from cardgen.paths import bundled_game_ids

    entries = []
    for game_id in bundled_game_ids():
        try:
            entries.append(games_entry(game_id, load_game(game_id)))
        except ContentError as exc:
            entries.append(games_entry(game_id, errors=exc.issues))
    if _json_document(args):
        return _print_document(args, 0, [], {"games": entries})
    for entry in entries:
        loaded = f"{entry['name']} ({entry['cards']} cards)" if entry["cards"] is not None else \
            f"cannot load: {len(entry['errors'])} errors"
        print(f"{entry['id']:15} {loaded}")
    return 0
