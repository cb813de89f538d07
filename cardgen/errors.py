"""Problems found in user input, reported with file, line and field."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def display_path(path: Path | str | None) -> str:
    """A path as the user should read it: relative to the working directory when inside it."""
    if path is None:
        return "<input>"
    path = Path(path)
    try:
        return os.path.relpath(path) if not path.is_absolute() or _inside_cwd(path) else str(path)
    except ValueError:  # another drive on Windows
        return str(path)


def _inside_cwd(path: Path) -> bool:
    try:
        path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return False
    return True


def os_reason(exc: OSError) -> str:
    """An operating-system refusal as one line: the path and the system's reason."""
    return str(os_issue(exc))


def os_issue(exc: OSError) -> Issue:
    """An operating-system refusal as an Issue: the path (if it has one) and the system's reason."""
    return Issue(exc.filename, None, None, exc.strerror or str(exc) or type(exc).__name__)


def column_letters(index: int) -> str:
    """A spreadsheet column's letters from its 0-based index: 0 -> A, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


class Cell(int):
    """Where a mistake in a spreadsheet is: a cell. It is an int, its row number, so everything
    that sorts, compares or prints a YAML line number (Issue, Card.line, a layout error) takes it
    as it is; it prints as `Sheet!C7` (a worksheet's cell, as spreadsheets write it) or, in a CSV
    file, `7:C` (the line the row starts on, then the column)."""

    sheet: str | None
    column: int

    def __new__(cls, row: int, column: int, sheet: str | None = None):
        cell = super().__new__(cls, row)
        cell.sheet, cell.column = sheet, column
        return cell

    def __str__(self) -> str:
        if self.sheet is None:
            return f"{int(self)}:{column_letters(self.column)}"
        sheet = self.sheet if self.sheet.replace("_", "").isalnum() else "'{}'".format(
            self.sheet.replace("'", "''"))
        return f"{sheet}!{column_letters(self.column)}{int(self)}"

    __repr__ = __format__ = lambda self, spec="": str(self)  # noqa: E731

    def __eq__(self, other) -> bool:
        return isinstance(other, Cell) and (int(self), self.sheet, self.column) == (
            int(other), other.sheet, other.column)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = int.__hash__


@dataclass(frozen=True)
class Issue:
    """One mistake in a content file: where it is and what to fix."""

    file: Path | None
    line: int | None            # a line, or a spreadsheet's Cell
    field: str | None
    message: str

    def __str__(self) -> str:
        if self.file is None:
            return f"{self.field}: {self.message}" if self.field else self.message
        where = display_path(self.file)
        if self.line:
            where += f":{self.line}"
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class ContentError(Exception):
    """Content that cannot be loaded. Carries every issue found, not just the first."""

    def __init__(self, issues: list[Issue]):
        self.issues = list(issues)
        super().__init__("\n".join(str(i) for i in self.issues))


@dataclass(frozen=True)
class Problem:
    """A deck-rule finding: a stable rule id, a message with the counts, the line at fault. An
    "error" makes the deck illegal; a "warning" is advice (a deck check the published rules do not
    make): printed, but the deck stays legal unless `cardgen validate --strict`."""

    rule: str
    message: str
    line: int | None = None
    severity: str = "error"

    @property
    def is_error(self) -> bool:
        return self.severity != "warning"

    def as_dict(self) -> dict:
        return {"rule": self.rule, "severity": self.severity, "message": self.message,
                "line": self.line}


@dataclass
class IssueList:
    """Collects issues for one file so they can all be reported at once."""

    file: Path | None
    issues: list[Issue] = field(default_factory=list)

    def add(self, line: int | None, field_name: str | None, message: str) -> None:
        self.issues.append(Issue(self.file, line, field_name, message))

    def raise_if_any(self) -> None:
        if self.issues:
            raise ContentError(self.issues)


def did_you_mean(word: str, choices, n: int = 3) -> str:
    """' (did you mean: a, b?)' with the closest choices, or '' when none is close."""
    import difflib  # only needed on the error path; keeps the cold start short

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=n, cutoff=0.6)
    if not close:
        lowered = {str(c).lower(): str(c) for c in choices}
        if str(word).lower() in lowered:
            close = [lowered[str(word).lower()]]
    return f" (did you mean: {', '.join(close)}?)" if close else ""


def crash_words(exc: BaseException) -> str:
    """An engine's exception in one line: 'TypeError: message (engine.py:93)', where it was raised."""
    import traceback

    where = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})"
