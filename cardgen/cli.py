"""The `cardgen` command. Thin: it parses arguments and calls the modules that do the work."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardgen import __version__
from cardgen.errors import ContentError, display_path


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except ContentError as exc:
        for issue in exc.issues:
            print(f"error: {issue}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardgen", description="Card games from YAML: check decks, build print-and-play files.")
    parser.add_argument("--version", action="version", version=f"cardgen {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")

    p = sub.add_parser("validate", help="check deck files against their game's rules")
    p.add_argument("decks", nargs="+", metavar="DECK",
                   help="deck files (a game id or game folder means its decks/*.yaml)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("build", help="check every game and write its outputs under out/")
    p.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all bundled)")
    p.add_argument("--out", type=Path, default=Path("out"), help="output folder (default: out)")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("info", help="load a game and summarise it (or list its content errors)")
    p.add_argument("game", metavar="GAME", help="a bundled game id or a game folder")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("schema", help="write JSON Schemas of a game's card and deck files")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--out", type=Path, default=None,
                   help="folder for the schemas (default: out/<game>/schema)")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("games", help="list the bundled games")
    p.set_defaults(func=cmd_games)
    return parser


def cmd_validate(args) -> int:
    from cardgen.validate import exit_code, expand_targets, format_json, format_text, validate_decks

    reports = validate_decks(expand_targets(args.decks))
    if args.format == "json":
        print(format_json(reports))
        for report in reports:
            for issue in report.errors:
                print(f"error: {issue}", file=sys.stderr)
    else:
        out, err = format_text(reports)
        if out:
            print(out)
        if err:
            print(err, file=sys.stderr)
    return exit_code(reports)


def cmd_build(args) -> int:
    from cardgen.build import build_games

    results = build_games(args.games, args.out)
    for result in results:
        if result.errors:
            print(f"{result.ref}: cannot load", file=sys.stderr)
            for issue in result.errors:
                print(f"  error: {issue}", file=sys.stderr)
            continue
        legal = sum(d.legal for d in result.decks)
        print(f"{result.game.id}: {len(result.game.cards)} cards, "
              f"{legal}/{len(result.decks)} sample decks legal -> "
              f"{display_path(result.written[0].parent)}/")
        for deck in result.decks:
            for p in deck.problems:
                print(f"  {display_path(deck.path)}:{p.line}: {p.rule}: {p.message}")
            for issue in deck.errors:
                print(f"  error: {issue}", file=sys.stderr)
    if any(r.errors for r in results):
        return 2
    return 0 if all(r.ok for r in results) else 1


def cmd_info(args) -> int:
    from cardgen.model import load_game
    from cardgen.rules import rule_ids

    game = load_game(args.game)
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
    return 0


def cmd_schema(args) -> int:
    from cardgen.fsutil import write_atomic
    from cardgen.model import load_game
    from cardgen.schema import card_file_schema, deck_file_schema

    game = load_game(args.game)
    out = args.out or Path("out") / game.id / "schema"
    for name, schema in (("cards", card_file_schema(game)), ("deck", deck_file_schema(game))):
        path = write_atomic(out / f"{game.id}.{name}.schema.json",
                            json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
        print(display_path(path))
    print("Point your editor at them, e.g. first line of a card file:\n"
          f"  # yaml-language-server: $schema={display_path(out)}/{game.id}.cards.schema.json")
    return 0


def cmd_games(args) -> int:
    from cardgen.model import load_game
    from cardgen.paths import bundled_game_ids

    for game_id in bundled_game_ids():
        try:
            game = load_game(game_id)
            print(f"{game_id:15} {game.name} ({len(game.cards)} cards)")
        except ContentError as exc:
            print(f"{game_id:15} cannot load: {len(exc.issues)} errors")
    return 0
