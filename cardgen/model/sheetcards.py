"""Cards from the tables of a spreadsheet: the header row names the fields, each row is a card.

A worksheet (or a CSV file's name) that names a card type gives its rows that type unless their
`type` cell says otherwise; a row whose name cell is DEFAULTS_ROW gives its values to every card
row of its worksheet that leaves them empty (as a YAML file's `defaults:`); a worksheet whose name
starts with # and a column whose header does are the designer's notes, not read. Every card comes
back as the YAML loader gives it (a LineDict), each value placed at its Cell, for the same checks.
"""

from __future__ import annotations

from pathlib import Path

from cardgen.errors import Cell, Issue, did_you_mean
from cardgen.model.cells import Unreadable, is_empty, read_cell, shown_text
from cardgen.model.fields import IntSpec, Spec
from cardgen.model.game import Game
from cardgen.model.sheetfile import Table
from cardgen.yamlio import LineDict

DEFAULTS_ROW = "(defaults)"
NOTE = "#"
_CORE_SPECS: dict[str, Spec | None] = {"name": None, "type": None, "copies": IntSpec()}


def cards_in_tables(tables: list[Table], path: Path, game: Game, separator: str,
                    issues: list[Issue]) -> list[LineDict]:
    """Every card row of every table, in order; every mistake found on the way added to `issues`."""
    out = []
    for table in tables:
        if (table.name or "").startswith(NOTE) or not any(not is_empty(v) for row in table.rows for v in row):
            continue
        out += _TableReader(table, path, game, separator, issues).cards()
    return out


def type_named(game: Game, name: str) -> str | None:
    """The card type a worksheet's (or CSV file's) name names: its id or label, case aside."""
    name = name.strip().lower()
    return next((t.id for t in game.card_types.values()
                 if name in (str(t.id).lower(), str(t.label).lower())), None)


class _TableReader:
    def __init__(self, table: Table, path: Path, game: Game, separator: str, issues: list[Issue]):
        self.table, self.path, self.game, self.separator = table, path, game, separator
        self.issues = issues
        # the header: the first row with anything in it (a title or blank rows may come before)
        self.top = next(r for r, row in enumerate(table.rows) if any(not is_empty(v) for v in row))
        self.columns = self._columns()
        self.table_type = type_named(game, table.name if table.name is not None else path.stem)

    def error(self, cell: Cell, field: str | None, message: str) -> None:
        self.issues.append(Issue(self.path, cell, field, message))

    def _columns(self) -> dict[int, str]:
        """Column index -> field name, from the header row; a mistake in it is reported once, at
        its cell, and the column left out."""
        header = self.table.rows[self.top]
        known = set(_CORE_SPECS) | {f for t in self.game.card_types.values() for f in t.fields}
        columns: dict[int, str] = {}
        for i, value in enumerate(header):
            name, cell = shown_text(value).strip(), self.table.cell(self.top, i)
            if name.startswith(NOTE):
                continue
            if not name:
                if any(len(row) > i and not is_empty(row[i]) for row in self.table.rows[self.top + 1:]):
                    self.error(cell, None, "this column has values but no field name in its first row")
                continue
            if name in columns.values():
                first = next(j for j, n in columns.items() if n == name)
                first_cell = self.table.cell(self.top, first)
                self.error(cell, name, f"a second {name} column (the first is {first_cell})")
            elif name not in known:
                hint = did_you_mean(name, sorted(known)) or f" (the fields are: {', '.join(sorted(known))})"
                self.error(cell, name, f"no card type has this field{hint}; a column of notes "
                                       f"starts with {NOTE}")
            else:
                columns[i] = name
        if "name" not in columns.values():
            self.error(self.table.cell(self.top, 0), "name", "the first row names each column's field, "
                       "and one must be `name`")
            columns = {}
        return columns

    def cards(self) -> list[LineDict]:
        if not self.columns:
            return []
        if self.table_type is None and "type" not in self.columns.values():
            self.error(self.table.cell(self.top, 0), "type", "which card type are these rows? Add a type "
                       f"column, or name the {'worksheet' if self.table.name is not None else 'file'} "
                       f"after a card type ({', '.join(self.game.card_types)})")
            return []
        name_column = next(i for i, n in self.columns.items() if n == "name")
        defaults: dict[str, tuple] = {}
        defaults_cell = None
        out = []
        for r, row in enumerate(self.table.rows[self.top + 1:], start=self.top + 1):
            values = {name: (row[i], self.table.cell(r, i)) for i, name in self.columns.items()
                      if i < len(row) and not is_empty(row[i])}
            name_cell = self.table.cell(r, name_column)
            if not values:
                continue
            if shown_text(values.get("name", ("",))[0]).strip() == DEFAULTS_ROW:
                if defaults_cell is not None:
                    self.error(name_cell, "name", f"a second {DEFAULTS_ROW} row (the first is "
                                                  f"{defaults_cell}); a worksheet has one")
                defaults_cell = name_cell
                defaults = {k: v for k, v in values.items() if k != "name"}
                continue
            blank = {name: self.table.cell(r, i) for i, name in self.columns.items()}
            out.append(self._card({**defaults, **values}, name_cell, blank))
        return out

    def _card(self, values: dict[str, tuple], name_cell: Cell, blank: dict[str, Cell]) -> LineDict:
        """One card: its values read by its type's specs. `blank`: every column's cell in this
        row, where a missing field is reported."""
        card = LineDict()
        card.line, card.key_lines = name_cell, dict(blank)
        card_type = self._type(values)
        specs = self.game.card_types[card_type].fields if card_type in self.game.card_types else {}
        unreadable = set()
        for name, (value, cell) in values.items():
            spec = _CORE_SPECS[name] if name in _CORE_SPECS else specs.get(name)
            if name in ("name", "type"):
                value = shown_text(value).strip()
            try:
                card[name] = read_cell(value, spec, self.separator, cell, self.path)
            except Unreadable as exc:
                self.error(cell, name, f"expected YAML here, such as {{effect: score, value: 2}} "
                                       f"or [a, b]: {exc}")
                unreadable.add(name)
            card.key_lines[name] = cell
        if "type" not in card and card_type is not None:
            card["type"] = card_type
        if unreadable:
            card.reported = unreadable
        return card

    def _type(self, values: dict[str, tuple]) -> str | None:
        if "type" in values:
            return shown_text(values["type"][0]).strip()
        return self.table_type
