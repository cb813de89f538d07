"""`cardgen cards export GAME FILE.xlsx|.csv`: a game's cards as a spreadsheet that loads back to
the same cards.

.xlsx: a worksheet per card type, named after it (so its rows need no type column). .csv: one
table with a type column. Every cell is checked to read back as the value it came from
(cardgen.model.cells); a value no cell can hold is reported with its card, and nothing is written.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from cardgen.errors import ContentError, Issue
from cardgen.model.cells import cell_of
from cardgen.model.game import Card, Game
from cardgen.model.sheetcards import DEFAULTS_ROW, type_named

EXPORT_SUFFIXES = (".xlsx", ".csv")
_SHEET_NAME_FORBIDDEN = set("[]:*?/\\")


def export_bytes(game: Game, suffix: str) -> bytes:
    """The file's bytes. Raises ContentError listing every card value no cell can hold."""
    issues: list[Issue] = []
    if suffix == ".csv":
        data = _csv(card_rows(game, list(game.cards.values()), with_type=True, issues=issues))
    else:
        data = _xlsx(game, issues)
    if issues:
        raise ContentError(issues)
    return data


def card_rows(game: Game, cards: list[Card], with_type: bool, issues: list[Issue]) -> list[list]:
    """The header row, then a row per card."""
    fields = list(dict.fromkeys(f for t in dict.fromkeys(c.type for c in cards)
                                for f in game.card_types[t].fields
                                if any(f in c.fields for c in cards)))
    copies = any(c.copies != 1 for c in cards)
    header = ["name", *(["type"] if with_type else []), *(["copies"] if copies else []), *fields]
    rows = [header]
    for card in cards:
        row = [_name_cell(card, issues)]
        if with_type:
            row.append(card.type)
        if copies:
            row.append(card.copies)
        specs = game.card_types[card.type].fields
        for name in fields:
            row.append(_field_cell(game, card, name, specs.get(name), issues))
        rows.append(row)
    return rows


def _name_cell(card: Card, issues: list[Issue]) -> str:
    if card.name != card.name.strip() or card.name == DEFAULTS_ROW:
        issues.append(Issue(card.file, card.line, "name", f"{card.name!r} would not read back from a "
                                                          "spreadsheet cell; keep this card in YAML"))
    return card.name


def _field_cell(game: Game, card: Card, name: str, spec, issues: list[Issue]):
    if name not in card.fields:
        return ""
    try:
        return cell_of(card.fields[name], spec, game.list_separator)
    except ValueError as exc:
        issues.append(Issue(card.file, card.field_lines.get(name, card.line), name,
                            f"card {card.name!r}: {exc}; keep this card in YAML beside the spreadsheet"))
        return ""


def _csv(rows: list[list]) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out).writerows([[_csv_text(v) for v in row] for row in rows])
    return out.getvalue().encode("utf-8-sig")       # (the mark that has Excel read it as UTF-8)


def _csv_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _sheet_name(game: Game, type_id: str) -> str | None:
    """The worksheet a type's cards go on: its id, when that is a worksheet name reading back as
    the type; None when it is not (the type's cards then go on a sheet with a type column)."""
    name = str(type_id)
    ok = len(name) <= 31 and not (_SHEET_NAME_FORBIDDEN & set(name)) and not name.startswith("#")
    return name if ok and type_named(game, name) == type_id else None


def worksheets(game: Game, issues: list[Issue]) -> dict[str, list[list]]:
    """Worksheet name -> its rows: a worksheet per card type, named after it."""
    by_type: dict[str | None, list[Card]] = {}
    for card in game.cards.values():
        by_type.setdefault(_sheet_name(game, card.type), []).append(card)
    return {name or "cards": card_rows(game, cards, with_type=name is None, issues=issues)
            for name, cards in by_type.items()}


def _xlsx(game: Game, issues: list[Issue]) -> bytes:
    import xlsxwriter  # (only an export pays for the import)

    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_formulas": False,
                                     "strings_to_urls": False, "strings_to_numbers": False})
    bold = book.add_format({"bold": True})
    for name, rows in worksheets(game, issues).items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                _write(sheet, r, c, value, bold if r == 0 else None)
        sheet.freeze_panes(1, 0)
    book.close()
    return out.getvalue()


def _write(sheet, row: int, column: int, value, style) -> None:
    if isinstance(value, bool):
        sheet.write_boolean(row, column, value, style)
    elif isinstance(value, (int, float)):
        sheet.write_number(row, column, value, style)
    elif value != "" and sheet.write_string(row, column, value, style) < 0:
        raise ContentError([Issue(None, None, None, f"a value of {len(value):,} characters is longer "
                                                    "than a spreadsheet cell holds (32,767)")])


def check_target(path: Path) -> None:
    """Refuse a file export cannot write, or one that exists (a designer's own), before any work."""
    if path.suffix.lower() not in EXPORT_SUFFIXES:
        raise ContentError([Issue(path, None, None, "cards export writes .xlsx or .csv; name the file "
                                                    "so")])
    if path.exists():
        raise ContentError([Issue(path, None, None, "already exists; choose another name or remove "
                                                    "it")])
