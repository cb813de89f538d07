"""Read a spreadsheet of cards (.csv, .xlsx, .ods) into tables of cells, safely.

A stranger's spreadsheet must not cost more than a card list could: the file is read through
read_confined (inside the game folder, a regular file, at most MAX_FILE_BYTES), an .xlsx or .ods
(a zip of XML) is refused before it is parsed when its entries unpack past MAX_UNPACKED_BYTES,
declare a DTD (entities) or place cells past MAX_ROWS x MAX_COLUMNS: a 5 KB file with one cell at
XFD1048576 makes the reader allocate 17 billion cells. Only then does python-calamine read it.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from cardgen.errors import Cell, ContentError, Issue
from cardgen.fsutil import read_user_bytes, read_user_text

SHEET_SUFFIXES = (".csv", ".xlsx", ".ods")
MAX_FILE_BYTES = 10 * 2**20
MAX_UNPACKED_BYTES = 64 * 2**20      # every entry of the zip, unpacked
MAX_ZIP_ENTRIES = 10_000
MAX_ROWS = 20_000                    # per worksheet, header included
MAX_COLUMNS = 256
_CHUNK = 2**16


@dataclass
class Table:
    """One worksheet (or a CSV file): its name (None for CSV), its rows of cell values ('' for an
    empty cell; numbers, booleans and dates as the spreadsheet typed them) and, for CSV, the line
    each row starts on."""

    name: str | None
    rows: list[list]
    lines: list[int] = field(default_factory=list)

    def cell(self, row: int, column: int) -> Cell:
        """The Cell of rows[row][column] (both from 0), as a designer finds it."""
        return Cell(self.lines[row] if self.lines else row + 1, column, self.name)


def is_sheet_file(path: Path) -> bool:
    """A card spreadsheet, not the lock file an office program keeps beside an open one (~$x.xlsx)."""
    return path.suffix.lower() in SHEET_SUFFIXES and not path.name.startswith("~$")


def read_tables(path: Path, root: Path) -> list[Table]:
    """The tables of a card spreadsheet. Raises ContentError naming the file."""
    if path.suffix.lower() == ".csv":
        return [_csv_table(path, root)]
    data = read_user_bytes(path, root, MAX_FILE_BYTES, label="this spreadsheet")
    problem = _zip_problem(data, path.suffix.lower())
    if problem:
        raise ContentError([Issue(path, None, None, problem)])
    return _workbook_tables(data, path)


# -- CSV ------------------------------------------------------------------------------------------

def _csv_table(path: Path, root: Path) -> Table:
    text = read_user_text(path, root, MAX_FILE_BYTES, label="this spreadsheet", encoding_hint=(
        ": save it as UTF-8 (Excel: 'CSV UTF-8'; LibreOffice: character set Unicode (UTF-8))"))
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)    # (Excel writes ; where , is a decimal point)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows, lines, line = [], [], 1
    try:
        for row in reader:
            rows.append(row)
            lines.append(line)
            line = reader.line_num + 1
            if len(rows) > MAX_ROWS or len(row) > MAX_COLUMNS:
                raise ContentError([Issue(path, line - 1, None, _too_large())])
    except csv.Error as exc:
        raise ContentError([Issue(path, reader.line_num, None, f"not a readable CSV file: {exc}")]) from None
    return Table(None, rows, lines)


def _too_large() -> str:
    return (f"a card spreadsheet may have at most {MAX_ROWS:,} rows and {MAX_COLUMNS} columns; "
            "refused")


# -- xlsx and ods: the zip checked, then read by python-calamine ----------------------------------

def _zip_problem(data: bytes, suffix: str) -> str | None:
    """Why a zipped spreadsheet is refused before it is parsed, or None. Every entry is unpacked
    here, in pieces, as far as its declared size (a zip whose entries unpack to more than they
    declare fails their checksum), so the reader that follows unpacks only what was counted."""
    kind = suffix.lstrip(".")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
        if len(entries) > MAX_ZIP_ENTRIES:
            return f"holds more than {MAX_ZIP_ENTRIES:,} files; refused"
        if sum(e.file_size for e in entries) > MAX_UNPACKED_BYTES:
            return f"unpacks to more than {MAX_UNPACKED_BYTES // 2**20} MB; refused"
        for entry in entries:
            problem = _entry_problem(archive, entry, kind)
            if problem:
                return problem
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, ValueError) as exc:
        return f"not an .{kind} file (a damaged or unreadable zip archive: {exc})"
    return None


def _entry_problem(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, kind: str) -> str | None:
    name = entry.filename
    cells = _CellExtent(kind) if _holds_cells(name, kind) else None
    tail = b""
    with archive.open(entry) as handle:
        while chunk := handle.read(_CHUNK):
            if b"<!DOCTYPE" in tail + chunk:
                return f"{name} declares a DTD (entities), which no spreadsheet program writes; refused"
            tail = chunk[-16:]
            if cells is not None:
                cells.feed(chunk)
    if cells is not None:
        return cells.problem()
    return None


def _holds_cells(name: str, kind: str) -> bool:
    if kind == "ods":
        return name == "content.xml"
    return re.fullmatch(r"xl/worksheets/[^/]+\.xml", name) is not None


class _CellExtent:
    """How far the cells of a worksheet XML reach (the reader allocates every cell of the
    rectangle from A1 to the farthest one holding a value), read with expat as it is unpacked.
    xlsx: <row r="7"><c r="C7"><v>..</v></c>; a cell without a value is ignored, as the reader
    ignores it. ods: <table:table-row table:number-rows-repeated="N"> and <table:table-cell
    table:number-columns-repeated="N">, where only cells with a value or text count (LibreOffice
    repeats empty ones out to column 16384 and row 1048576)."""

    def __init__(self, kind: str):
        self.ods = kind == "ods"
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self._start_ods if self.ods else self._start_xlsx
        self.parser.EndElementHandler = self._end_ods if self.ods else self._end_xlsx
        self.row = self.column = 0          # where the current row/cell starts (1-based)
        self.repeat_rows = self.repeat_columns = 1
        self.in_cell = self.cell_has_value = self.row_has_value = False
        self.most_rows = self.most_columns = 0
        self.error: str | None = None

    def feed(self, chunk: bytes) -> None:
        if self.error is None:
            try:
                self.parser.Parse(chunk, False)
            except expat.ExpatError as exc:
                self.error = f"not readable XML ({exc})"

    def problem(self) -> str | None:
        if self.error is None:
            try:
                self.parser.Parse(b"", True)
            except expat.ExpatError as exc:
                self.error = f"not readable XML ({exc})"
        if self.error:
            return self.error
        if self.most_rows > MAX_ROWS or self.most_columns > MAX_COLUMNS:
            return (f"has cells out to row {self.most_rows:,}, column {self.most_columns:,}: "
                    + _too_large())
        return None

    def _reach(self, last_row: int, last_column: int) -> None:
        self.most_rows = max(self.most_rows, last_row)
        self.most_columns = max(self.most_columns, last_column)

    # xlsx
    def _start_xlsx(self, name: str, attrs: dict) -> None:
        local = name.rpartition(":")[2]
        if local == "row":
            self.row = _number(attrs.get("r"), self.row + 1)
            self.column = 0
        elif local == "c":
            ref = re.fullmatch(r"([A-Z]{1,4})([0-9]{1,9})", attrs.get("r", ""))
            if ref:
                self.column, self.row = _column_number(ref[1]), int(ref[2])
            else:
                self.column += 1
            self.in_cell, self.cell_has_value = True, False
        elif self.in_cell:
            self.cell_has_value = True

    def _end_xlsx(self, name: str) -> None:
        if name.rpartition(":")[2] == "c":
            if self.cell_has_value:
                self._reach(self.row, self.column)
            self.in_cell = False

    # ods
    def _start_ods(self, name: str, attrs: dict) -> None:
        if name == "table:table":
            self.row = 0
        elif name == "table:table-row":
            self.repeat_rows = _number(attrs.get("table:number-rows-repeated"), 1)
            self.column, self.row_has_value = 0, False
        elif name in ("table:table-cell", "table:covered-table-cell"):
            self.repeat_columns = _number(attrs.get("table:number-columns-repeated"), 1)
            self.in_cell, self.cell_has_value = True, "office:value-type" in attrs
        elif self.in_cell:
            self.cell_has_value = True

    def _end_ods(self, name: str) -> None:
        if name in ("table:table-cell", "table:covered-table-cell"):
            if self.cell_has_value:
                self.most_columns = max(self.most_columns, self.column + self.repeat_columns)
                self.row_has_value = True
            self.column += self.repeat_columns
            self.in_cell = False
        elif name == "table:table-row":
            if self.row_has_value:
                self.most_rows = max(self.most_rows, self.row + self.repeat_rows)
            self.row += self.repeat_rows


def _number(text: str | None, default: int) -> int:
    return int(text) if text and text.isdigit() and len(text) < 10 else default


def _column_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def _workbook_tables(data: bytes, path: Path) -> list[Table]:
    import python_calamine  # (only a game with spreadsheets pays for the import)

    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        worksheets = [m.name for m in book.sheets_metadata
                      if m.typ == python_calamine.SheetTypeEnum.WorkSheet]
        return [Table(name, book.get_sheet_by_name(name).to_python(skip_empty_area=False))
                for name in worksheets]
    except python_calamine.PasswordError:
        raise ContentError([Issue(path, None, None, "is protected by a password; save it without "
                                                    "one")]) from None
    except (python_calamine.CalamineError, ValueError) as exc:
        raise ContentError([Issue(path, None, None, f"cannot read this spreadsheet: {exc}")]) from None
