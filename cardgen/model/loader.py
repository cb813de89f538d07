"""Read a game folder (game.yaml + cards/**/*.yaml) into a checked `Game`.

Every mistake in every file is collected before anything is raised, so a designer fixes a
whole batch per run instead of one error at a time.
"""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.errors import ContentError, Issue, IssueList, did_you_mean, display_path
from cardgen.filenames import taken_by
from cardgen.gamecode import HOOKS, hook_path
from cardgen.model.fields import (
    LIST,
    NESTED,
    AnySpec,
    BoolSpec,
    CheckContext,
    EnumSpec,
    IntSpec,
    ListSpec,
    MapSpec,
    OneOfSpec,
    RecordSpec,
    Spec,
    StrSpec,
    check_fields,
    parse_spec,
    show,
    value_shape,
)
from cardgen.model.game import (
    DEFAULT_LIST_SEPARATOR,
    Card,
    CardType,
    DeckCheck,
    Game,
    IconImage,
    Ruling,
    Variant,
)
from cardgen.model.sheetcards import cards_in_tables
from cardgen.model.sheetfile import is_sheet_file, read_tables
from cardgen.model.tables import doc_line
from cardgen.paths import resolve_game_folder
from cardgen.yamlio import LineDict, as_written, line_of, read_yaml

CARD_SIZES = ["poker", "bridge", "mini", "euro-mini", "tarot", "square"]
# Fields every card has whatever its type; a type may not redeclare them.
CARD_CORE_FIELDS = ("name", "type", "copies")
# The most copies of one card a box or a deck may hold: far above any real game, and low enough
# that printing them all stays in memory (10^12 copies used to end in MemoryError in sheets).
MAX_COPIES = 999

_text = StrSpec(text=True)
# One zone of game.yaml `play_area` (cardgen/publish/diagrams.py draws them).
ZONE_FIELDS: dict[str, Spec] = {
    "name": StrSpec(doc="The zone's name, printed under it."),
    "slots": IntSpec(1, 12, doc="How many card spaces it has side by side (default 1)."),
    "pile": BoolSpec(doc="true: its cards are stacked in one pile (a deck, a discard pile)."),
    "face": EnumSpec(["up", "down"], doc="How its cards lie (default up)."),
    "cards": OneOfSpec([StrSpec(), ListSpec(StrSpec(), min_items=1)],
                       doc="The card types (or cards, by name) it holds, drawn in the setup diagram."),
    "setup": IntSpec(0, 999, doc="How many cards it holds when the game starts (default 0)."),
    "row": IntSpec(1, 3, doc="Rows count from the middle of the table out (default 1)."),
    "state": StrSpec(doc="The zone's key in a scenario's setup (p0: {hand: [...]}), for "
                         "[[example-table]] (default: the name in lower case, spaces as _)."),
    "secret": BoolSpec(doc="true: only its owner sees its cards (a hand): the setup diagram draws "
                           "the far player's face down."),
}
LANGUAGE_PATTERN = r"[a-z]{2,3}([_-][A-Za-z]{2,4})?"
GAME_FIELDS: dict[str, Spec] = {
    "id": StrSpec(pattern=r"[a-z0-9][a-z0-9-]*", doc="Lower-case letters, digits and dashes."),
    "name": StrSpec(doc="The game's title."),
    "version": OneOfSpec([StrSpec(), IntSpec(number=True)]),
    "players": RecordSpec({"min": IntSpec(1, 99), "max": IntSpec(1, 99)}, ["min", "max"]),
    "play_time": OneOfSpec([IntSpec(1), StrSpec()], doc="Minutes, or a range like '20-30'."),
    "ages": IntSpec(1, 99, doc="The youngest age the game suits (printed as 10+)."),
    "summary": _text,
    "description": _text,
    "designer": StrSpec(),
    "credits": _text,
    "card_size": EnumSpec(CARD_SIZES),
    "language": StrSpec(pattern=LANGUAGE_PATTERN,
                        doc="The language of the game's text, as en, fr or pt_BR: card text is "
                            "hyphenated with its dictionary (default en)."),
    "spreadsheets": RecordSpec({"list_separator": StrSpec(
        pattern=r"[^\sA-Za-z0-9\[\]{}\"']{1,3}",
        doc="What separates a list's items in one cell of a card spreadsheet: 1-3 characters, no "
            f"letters, digits, spaces, brackets or quotes (default {DEFAULT_LIST_SEPARATOR}).")},
        doc="How cards in spreadsheets (cards/*.csv, .xlsx, .ods) are read."),
    **{key: StrSpec(doc=hook.doc) for key, hook in HOOKS.items()},
    "icons": MapSpec(OneOfSpec([StrSpec(max_length=4), RecordSpec({
        "image": StrSpec(doc="A PNG, SVG, JPEG or WebP file in the game folder, drawn inline."),
        "colour": StrSpec(doc="`original` keeps the picture's own colours; a colour (#rrggbb or "
                              "layouts.yaml's) tints it; default: the text's colour.")}, ["image"])]),
        doc="Icon name -> what {name} draws: up to 4 characters of the icon font, or a small "
            "picture ({image: icons/mana.svg}) set at the text's size on its baseline."),
    "keywords": MapSpec(_text, doc="Keyword -> reminder text."),
    "fields": AnySpec(),
    "card_types": AnySpec(),
    "deck": AnySpec(),
    "tables": AnySpec(doc="Free-form data for rulebooks, player aids and engines."),
    "rulings": ListSpec(OneOfSpec([_text, RecordSpec({"rule": _text, "cites": _text, "box": _text},
                                                     ["rule"])]),
                        doc="How the game is played where its published rules are silent or "
                            "unclear: `rule`, and `cites`, the rulebook sentence it fills in. The "
                            "engine plays them; the rulebook prints them under [[rulings]], except "
                            "one whose `box` names the table whose [[ruling:TABLE]] box the book "
                            "prints: that box states it."),
    "variants": MapSpec(RecordSpec({
        "name": StrSpec(doc="The variant's title."),
        "source": EnumSpec(["rulebook", "house"], doc="rulebook: an optional rule the published "
                           "rulebook offers; house: this folder's own change to a published rule."),
        "rule": StrSpec(text=True, doc="What the variant changes."),
        "cites": StrSpec(text=True, doc="The rulebook sentence it departs from, or that offers it."),
        "played": BoolSpec(doc="false: the engine does not play it (say why); default true."),
        "why": StrSpec(text=True, doc="Why the engine does not play it."),
    }, ["name", "source", "rule"]), keys=StrSpec(pattern=r"[a-z0-9][a-z0-9-]*"),
        doc="Named, opt-in changes to the published rules: `--variant NAME` on simulate, replay "
            "and check, or a deck's `variants:`. Printed in the rulebook as optional rules."),
    "play_area": RecordSpec({
        "doc": StrSpec(text=True, doc="A caption under the diagrams."),
        "shared": ListSpec(RecordSpec(ZONE_FIELDS, ["name"]),
                           doc="Zones between the players, left to right."),
        "each": ListSpec(RecordSpec(ZONE_FIELDS, ["name"]),
                         doc="Zones in front of every player, left to right (drawn for two seats, "
                             "the far one turned round)."),
    }, doc="The table as the rulebook draws it: zones and their slots, and what each holds at the "
           "start (the rulebook's [[play-area]] and [[setup]] diagrams)."),
    "rulebook": RecordSpec({
        "target_pages": IntSpec(4, 400, doc="The length the book aims at, in pages of its default "
                                            "paper; tests/test_book_length.py holds the bundled "
                                            "games to theirs."),
    }, doc="Settings of the rulebook."),
}
CARD_TYPE_FIELDS: dict[str, Spec] = {
    "label": StrSpec(), "doc": StrSpec(),
    "required": ListSpec(StrSpec(), unique=True), "optional": ListSpec(StrSpec(), unique=True),
    "fields": AnySpec(), "in_decks": AnySpec(),
}

# The keys every deck file may have, whatever its game (cardgen/model/deck.py reads them).
DECK_KEYS = ("game", "name", "cards", "description", "notes", "variants")

# What a deck check's finding makes of the deck: illegal (error), or legal with advice (warning).
SEVERITIES = ("error", "warning")

# The options each generic deck check takes (see docs/game-format.md, "Deck checks").
_types = ListSpec(StrSpec(), min_items=1)
_count = IntSpec(0)
DECK_CHECK_OPTIONS: dict[str, RecordSpec] = {
    "size": RecordSpec({"min": _count, "max": _count, "types": _types}),
    "copies": RecordSpec({"max": IntSpec(1), "field": StrSpec(),
                          "limits": MapSpec(IntSpec(0), keys=AnySpec()), "types": _types}),
    "type-count": RecordSpec({"types": _types, "min": _count, "max": _count}, ["types"]),
    "distinct": RecordSpec({"field": StrSpec(), "max": IntSpec(1), "exempt": ListSpec(AnySpec()),
                            "types": _types}, ["field", "max"]),
    "forbidden-types": RecordSpec({"types": _types}, ["types"]),
}


def _check_language(raw, issues: IssueList) -> None:
    """game.yaml `language:` names one that card text can be hyphenated in."""
    from cardgen.render.hyphenate import has_dictionary

    language = raw.get("language")
    well_formed = isinstance(language, str) and re.fullmatch(LANGUAGE_PATTERN, language)
    if well_formed and not has_dictionary(language):
        issues.add(raw.line_of("language"), "language",
                   f"no hyphenation dictionary for {language!r} (Pyphen's, as en, de, fr, pt_BR)")


def load_game(ref: str | Path, relative_to: Path | None = None) -> Game:
    """Load and check a game by bundled id or folder path. Raises ContentError."""
    folder = resolve_game_folder(str(ref), relative_to)
    if folder is None:
        raise ContentError([Issue(None, None, None,
                                  f"no game {str(ref)!r}: not a bundled game id, nor a folder "
                                  "with a game.yaml")])
    return GameLoader(folder.resolve()).load()


class GameLoader:
    def __init__(self, folder: Path):
        self.folder = folder
        self.game_file = folder / "game.yaml"
        self.issues: list[Issue] = []

    def load(self) -> Game:
        game = self._read_game_yaml()
        cards = self._read_cards(game)
        if self.issues:
            raise ContentError(self.issues)
        game.cards = cards
        return game

    # -- game.yaml ---------------------------------------------------------------------------

    def _read_game_yaml(self) -> Game:
        raw = read_yaml(self.game_file, self.folder)
        issues = IssueList(self.game_file)
        if not isinstance(raw, dict):
            issues.add(line_of(raw, 1), None,
                       f"game.yaml must be a mapping of settings, got {show(raw)}")
            issues.raise_if_any()
        ctx = CheckContext(issues, icons=set(raw.get("icons") or {}))
        checked = raw
        if "code" in raw:       # (bundled games named their modules inside cardgen with it, until 2026-11)
            issues.add(raw.line_of("code"), "code", "`code:` is gone: a game's Python lives in its "
                       "folder, named by engine:, deck_checks: and aids: (docs/game-format.md)")
            checked = LineDict({k: v for k, v in raw.items() if k != "code"})
            checked.line, checked.key_lines = raw.line, raw.key_lines
        check_fields(checked, GAME_FIELDS, ["id", "name"], raw.line, "", ctx)
        _check_language(raw, issues)

        shared = self._parse_specs(raw.get("fields") or {}, "fields", issues, raw)
        card_types = self._parse_card_types(raw, shared, issues)
        deck_fields, deck_checks = self._parse_deck(raw, card_types, issues)
        hooks = self._hooks(raw, issues)
        rulings = self._rulings(raw, issues)
        variants = self._variants(raw, issues)
        self.issues.extend(issues.issues)
        meta = {k: v for k, v in raw.items()
                if k not in ("icons", "keywords", "fields", "card_types", "deck", "tables",
                             "rulings", "variants", "spreadsheets", *HOOKS)}
        spreadsheets = raw.get("spreadsheets") if isinstance(raw.get("spreadsheets"), dict) else {}
        separator = spreadsheets.get("list_separator")
        return Game(
            id=str(raw.get("id", self.folder.name)), name=str(raw.get("name", self.folder.name)),
            folder=self.folder, meta=meta,
            icons={k: v for k, v in (raw.get("icons") or {}).items() if isinstance(v, str)},
            keywords=dict(raw.get("keywords") or {}),
            card_types=card_types, cards={}, deck_fields=deck_fields, deck_checks=deck_checks,
            tables=raw.get("tables") or {}, hooks=hooks, rulings=rulings, variants=variants,
            list_separator=separator if isinstance(separator, str) else DEFAULT_LIST_SEPARATOR,
            icon_images=_icon_images(raw.get("icons")),
        )

    def _rulings(self, raw, issues: IssueList) -> list[Ruling]:
        """Top-level `rulings:`. A folder written before they moved there keeps its plain-text
        `tables.rulings` (read as rulings without a citation)."""
        tables = raw.get("tables") if isinstance(raw.get("tables"), dict) else {}
        items = raw.get("rulings")
        if items is None:
            old = tables.get("rulings")
            if isinstance(old, list) and all(isinstance(r, str) for r in old):
                return [Ruling(r.strip(), None, old.line_of(i)) for i, r in enumerate(old)]
            return []
        if "rulings" in tables:
            issues.add(tables.line_of("rulings"), "tables.rulings",
                       "rulings are listed once, in the top-level `rulings:`; move these there")
        if not isinstance(items, list):
            return []           # reported by the field check
        out = []
        for i, item in enumerate(items):
            line = items.line_of(i)
            if isinstance(item, str):
                out.append(Ruling(item.strip(), None, line))
            elif isinstance(item, dict) and isinstance(item.get("rule"), str):
                cites, box = item.get("cites"), item.get("box")
                if isinstance(box, str) and not doc_line(tables, box):
                    issues.add(item.line_of("box", line) if hasattr(item, "line_of") else line,
                               f"rulings[{i}].box", f"tables has no {box!r} with a doc line to print")
                out.append(Ruling(item["rule"].strip(),
                                  cites.strip() if isinstance(cites, str) else None, line,
                                  box if isinstance(box, str) else None))
        return out

    def _variants(self, raw, issues: IssueList) -> dict[str, Variant]:
        items = raw.get("variants")
        if not isinstance(items, dict):
            return {}
        out = {}
        for vid, item in items.items():
            if not isinstance(item, dict) or not all(isinstance(item.get(k), str)
                                                     for k in ("name", "source", "rule")):
                continue        # reported by the field check
            line, where = items.line_of(vid), f"variants.{vid}"
            played = item.get("played", True)
            if item["source"] == "house" and not item.get("cites"):
                issues.add(line, f"{where}.cites", "a house variant changes a published rule: "
                                                  "quote the rulebook sentence it departs from")
            if played is False and not item.get("why"):
                issues.add(line, f"{where}.why", "say why the engine does not play this variant")
            out[str(vid)] = Variant(str(vid), item["name"].strip(), item["source"],
                                    item["rule"].strip(), _stripped(item.get("cites")),
                                    played is not False, _stripped(item.get("why")), line)
        return out

    def _hooks(self, raw, issues: IssueList) -> dict[str, Path]:
        """game.yaml's Python hooks (engine, deck_checks, aids): each a file or package that must
        lie inside the game folder (it is code cardgen runs: it is never looked for elsewhere)."""
        hooks = {}
        for key in HOOKS:
            name = raw.get(key)
            if not isinstance(name, str):
                continue        # absent, or already reported by the field check
            path, problem = hook_path(self.folder, name)
            if problem:
                issues.add(raw.line_of(key), key, problem)
            else:
                hooks[key] = path
        return hooks

    def _parse_specs(self, raw, where: str, issues: IssueList, parent, card_types=None):
        if not isinstance(raw, dict):
            issues.add(line_of(raw, parent.line_of(where)), where,
                       f"expected a mapping of field name to spec, got {show(raw)}")
            return {}
        specs = {}
        for name, spec in raw.items():
            if name in CARD_CORE_FIELDS:
                issues.add(raw.line_of(name), f"{where}.{name}",
                           "every card has name, type and copies already; choose another name")
                continue
            specs[name] = parse_spec(spec, raw.line_of(name), f"{where}.{name}", issues, card_types)
        return specs

    def _parse_card_types(self, raw, shared, issues) -> dict[str, CardType]:
        types_raw = raw.get("card_types")
        if not isinstance(types_raw, dict) or not types_raw:
            issues.add(raw.line_of("card_types"), "card_types",
                       "expected a mapping of card type name to its fields")
            return {}
        names = set(types_raw)
        out = {}
        for type_id, spec in types_raw.items():
            where = f"card_types.{type_id}"
            line = types_raw.line_of(type_id)
            if spec is None:
                spec = LineDict()
                spec.line, spec.key_lines = line, {}
            if not isinstance(spec, dict):
                issues.add(line, where, f"expected a mapping, got {show(spec)}")
                continue
            check_fields(spec, CARD_TYPE_FIELDS, [], line, where, CheckContext(issues))
            own = self._parse_specs(spec.get("fields") or {}, f"{where}.fields", issues, spec, names)
            fields: dict[str, Spec] = {}
            required = [r for r in spec.get("required") or [] if isinstance(r, str)]
            optional = [r for r in spec.get("optional") or [] if isinstance(r, str)]
            for name in required + optional:
                if name in own:
                    fields[name] = own[name]
                elif name in shared:
                    fields[name] = shared[name]
                else:
                    hint = did_you_mean(name, list(own) + list(shared))
                    issues.add(spec.line_of("required" if name in required else "optional"), where,
                               f"field {name!r} is neither in this type's fields nor in the "
                               f"shared fields{hint}")
            for name, field_spec in own.items():
                fields.setdefault(name, field_spec)
            in_decks = spec.get("in_decks", True)
            if not isinstance(in_decks, bool):
                issues.add(spec.line_of("in_decks"), f"{where}.in_decks",
                           f"expected true or false, got {show(in_decks)}")
                in_decks = True
            out[type_id] = CardType(type_id, spec.get("label") or str(type_id).capitalize(),
                                    spec.get("doc"), fields, required, in_decks)
        return out

    def _parse_deck(self, raw, card_types, issues):
        deck = raw.get("deck")
        if deck is None:
            return {}, []
        if not isinstance(deck, dict):
            issues.add(raw.line_of("deck"), "deck", f"expected a mapping, got {show(deck)}")
            return {}, []
        for key in deck:
            if key not in ("fields", "checks"):
                issues.add(deck.line_of(key), f"deck.{key}",
                           f"unknown field{did_you_mean(key, ['fields', 'checks'])}")
        fields = self._parse_specs(deck.get("fields") or {}, "deck.fields", issues, deck,
                                   set(card_types))
        for name in fields:
            if name in DECK_KEYS:
                issues.add(deck["fields"].line_of(name), f"deck.fields.{name}",
                           "every deck has this key already")
        checks = []
        checks_raw = deck.get("checks") or []
        if not isinstance(checks_raw, list):
            issues.add(deck.line_of("checks"), "deck.checks", "expected a list of checks")
            return fields, []
        for i, item in enumerate(checks_raw):
            where = f"deck.checks[{i + 1}]"
            line = checks_raw.line_of(i)
            if not isinstance(item, dict) or item.get("check") not in DECK_CHECK_OPTIONS:
                kind = item.get("check") if isinstance(item, dict) else None
                issues.add(line, f"{where}.check",
                           f"expected one of {', '.join(DECK_CHECK_OPTIONS)}, got {show(kind)}"
                           f"{did_you_mean(kind, DECK_CHECK_OPTIONS) if isinstance(kind, str) else ''}")
                continue
            kind = item["check"]
            options = {k: v for k, v in item.items() if k not in ("check", "id", "doc", "severity")}
            spec = DECK_CHECK_OPTIONS[kind]
            ctx = CheckContext(issues)
            for key, value in options.items():
                key_line = item.line_of(key)
                if key not in spec.fields:
                    issues.add(key_line, f"{where}.{key}", f"not an option of a {kind} check"
                                                          f"{did_you_mean(key, spec.fields)}")
                else:
                    spec.fields[key].check(value, line_of(value, key_line), f"{where}.{key}", ctx)
            for name in spec.required:
                if name not in options:
                    issues.add(line, f"{where}.{name}", f"a {kind} check needs `{name}`")
            for t in options.get("types") or []:
                if t not in card_types:
                    issues.add(item.line_of("types"), f"{where}.types",
                               f"no card type {show(t)}{did_you_mean(t, card_types)}")
            if kind == "copies" and ("max" in options) == ("field" in options):
                issues.add(line, where, "a copies check takes either `max` or `field` + `limits`")
            if isinstance(options.get("field"), str):
                problem = _checked_field_problem(kind, options["field"], options.get("types"), card_types)
                if problem:
                    issues.add(item.line_of("field"), f"{where}.field", problem)
            if any(isinstance(v, (list, dict)) for v in options.get("exempt") or ()):
                issues.add(item.line_of("exempt"), f"{where}.exempt",
                           "expected a list of plain values (text or numbers)")
            rule_id = item.get("id", kind)
            if not isinstance(rule_id, str) or not rule_id:
                issues.add(item.line_of("id"), f"{where}.id", "expected a rule id such as deck-size")
                rule_id = kind
            severity = item.get("severity", "error")
            if severity not in SEVERITIES:
                issues.add(item.line_of("severity"), f"{where}.severity",
                           f"expected one of {', '.join(SEVERITIES)}, got {show(severity)}")
                severity = "error"
            checks.append(DeckCheck(kind, rule_id, options, item.get("doc"), severity))
        return fields, checks

    # -- cards -------------------------------------------------------------------------------

    def _read_cards(self, game: Game) -> dict[str, Card]:
        cards_dir = self.folder / "cards"
        files = sorted(cards_dir.rglob("*.yaml")) + sorted(cards_dir.rglob("*.yml"))
        files += sorted(p for p in cards_dir.rglob("*") if is_sheet_file(p))
        if not files:
            self.issues.append(Issue(cards_dir, None, None, "no card files (cards/*.yaml, or "
                                                            "spreadsheets: .csv, .xlsx, .ods)"))
            return {}
        raw_cards: list[tuple[Path, LineDict]] = []
        for path in files:
            try:
                read = self._cards_in_sheet if is_sheet_file(path) else self._cards_in_file
                raw_cards.extend((path, c) for c in read(path, game))
            except ContentError as exc:
                self.issues.extend(exc.issues)
        cards: dict[str, Card] = {}
        names: dict[str, str] = {}
        files_of: dict[str, tuple[Card, int]] = {}     # file names taken: card, line of its name
        for path, raw in raw_cards:
            name, card_type = raw.get("name"), raw.get("type")
            if not isinstance(name, str) or not name.strip():
                continue  # reported by the field check below
            if name in cards:
                first = cards[name]
                self.issues.append(Issue(path, raw.line_of("name"), "name",
                                         f"duplicate card name {name!r} (first at "
                                         f"{first.file.name}:{first.line})"))
                continue
            card = cards[name] = Card(name, str(card_type), 1, {}, path, raw.line)
            names[name] = str(card_type)
            self._check_file_name(card, raw.line_of("name"), files_of)

        for path, raw in raw_cards:
            issues = IssueList(path)
            ctx = CheckContext(issues, names, set(game.keywords), game.icon_names)
            self._check_card(raw, game, ctx)
            self.issues.extend(issues.issues)
            card = cards.get(raw.get("name"))
            if card is not None and card.file == path and card.line == raw.line:
                card.copies = raw.get("copies", 1) if isinstance(raw.get("copies"), int) else 1
                card.fields = {k: v for k, v in raw.items() if k not in CARD_CORE_FIELDS}
                card.field_lines = {k: line for k, line in raw.key_lines.items() if k in raw}
        return cards

    def _check_file_name(self, card: Card, line: int, files_of: dict[str, tuple[Card, int]]) -> None:
        """Every output of a card is named by its stem: two cards with one stem (case aside, as
        macOS and Windows ignore it) would overwrite each other's files."""
        taken = taken_by(files_of, card.stem, (card, line))
        if taken:
            first, first_line = taken
            self.issues.append(Issue(card.file, line, "name", (
                f"card {card.name!r} would share its file name ({first.stem}) with card {first.name!r} "
                f"({display_path(first.file)}:{first_line}): file names keep only letters and digits, "
                "ignoring case; rename one of them")))

    def _cards_in_sheet(self, path: Path, game: Game) -> list[LineDict]:
        tables = read_tables(path, self.folder)
        return cards_in_tables(tables, path, game, game.list_separator, self.issues)

    def _cards_in_file(self, path: Path, game: Game) -> list[LineDict]:
        data = read_yaml(path, self.folder)
        issues = IssueList(path)
        if data is None:
            issues.add(1, None, "empty file: expected a list of cards, or a mapping with `cards:`")
            issues.raise_if_any()
        defaults = {}
        if isinstance(data, dict) and "cards" in data:
            for key in data:
                if key not in ("cards", "defaults"):
                    issues.add(data.line_of(key), key,
                               f"unknown key{did_you_mean(key, ['cards', 'defaults'])}; a card "
                               "file is a list of cards, or a mapping with `cards:` and "
                               "`defaults:`")
            defaults = data.get("defaults") or {}
            if not isinstance(defaults, dict):
                issues.add(data.line_of("defaults"), "defaults", "expected a mapping of fields")
                defaults = {}
            listed = data["cards"]
        elif isinstance(data, dict):
            listed = [data]  # a file holding one card
        elif isinstance(data, list):
            listed = data
        else:
            issues.add(line_of(data, 1), None,
                       f"expected a list of cards, or a mapping with `cards:`, got {show(data)}")
            issues.raise_if_any()
        if not isinstance(listed, list):
            issues.add(data.line_of("cards"), "cards", f"expected a list of cards, got {show(listed)}")
            issues.raise_if_any()
        out = []
        for i, item in enumerate(listed):
            if not isinstance(item, dict):
                issues.add(listed.line_of(i), f"cards[{i + 1}]",
                           f"expected a card (a mapping with name and type), got {show(item)}")
                continue
            card = LineDict(defaults)
            card.line = item.line
            card.key_lines = {k: item.line for k in defaults}  # a default is blamed on the card
            card.update(item)
            card.key_lines.update(item.key_lines)
            card.written = {**getattr(defaults, "written", {}), **item.written}
            out.append(card)
        issues.raise_if_any()
        return out

    def _check_card(self, raw: LineDict, game: Game, ctx: CheckContext) -> None:
        name = raw.get("name")
        label = f"card {name!r}" if isinstance(name, str) else "card"
        if not isinstance(name, str) or not name.strip():
            ctx.hinted(as_written(raw, "name"), name).error(
                raw.line_of("name"), "name", f"every card needs a name (a non-empty string), got "
                                             f"{show(name)}")
        card_type = raw.get("type")
        type_spec = game.card_types.get(card_type) if isinstance(card_type, str) else None
        if type_spec is None:
            hint = did_you_mean(card_type, game.card_types) if isinstance(card_type, str) else ""
            ctx.hinted(as_written(raw, "type"), card_type).error(
                raw.line_of("type"), "type", f"{label}: expected one of "
                                             f"{', '.join(game.card_types)}, got {show(card_type)}{hint}")
            return
        copies = raw.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
            ctx.error(raw.line_of("copies"), "copies",
                      f"expected a whole number from 1 to {MAX_COPIES}, got {show(copies)}")
        check_fields(raw, type_spec.fields, type_spec.required, raw.line, "", ctx,
                     skip=CARD_CORE_FIELDS)


# Every card has these besides its type's fields: a deck check may go by them too.
CHECKABLE_CORE_FIELDS = ("name", "type")


def _checked_field_problem(kind: str, name: str, types, card_types: dict[str, CardType]) -> str | None:
    """What is wrong with the `field:` a deck check goes by: a field no card (of its `types`) has
    would make the check never fire; a list, a mapping or a record has no one value to limit by."""
    chosen = [card_types[t] for t in (types if isinstance(types, list) else card_types) if t in card_types]
    if name in CHECKABLE_CORE_FIELDS:
        return None
    specs = [t.fields[name] for t in chosen if name in t.fields]
    if not specs:
        have = sorted({f for t in chosen for f in t.fields} | set(CHECKABLE_CORE_FIELDS))
        whose = f"no {'/'.join(t.id for t in chosen)} card" if isinstance(types, list) else "no card"
        return (f"{whose} has a field {name!r}, so the check would never find anything"
                f"{did_you_mean(name, have)}; the fields are: {', '.join(have)}")
    shape = max(value_shape(spec) for spec in specs)
    if shape == NESTED:
        return (f"{name} holds lists or mappings: a {kind} check goes by plain values (text or "
                "numbers)")
    if shape == LIST and kind == "copies":
        return (f"{name} is a list: a copies check limits each card by one value of it (a rarity, "
                "a cost); name a field that holds one value")
    return None


def _stripped(value) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _icon_images(icons) -> dict[str, IconImage]:
    """game.yaml's picture icons ({image: ..., colour: ...}), checked already."""
    if not isinstance(icons, dict):
        return {}
    return {name: IconImage(str(v["image"]), None if v.get("colour") is None else str(v["colour"]),
                            line_of(v, icons.line_of(name) if isinstance(icons, LineDict) else None))
            for name, v in icons.items() if isinstance(v, dict) and isinstance(v.get("image"), str)}
