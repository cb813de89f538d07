"""One spreadsheet cell <-> one card field value, by the field's spec, the same for every format.

Every cell is first taken as the text it shows (a number typed 3.0 in a spreadsheet shows 3, a
checkbox true or false, a date as 2024-01-05; a CSV cell is text already), then read by the spec:

- a plain value (int, number, bool, enum, one_of of plain values): the text made that value when
  it reads as one ("3" -> 3, "TRUE" -> true); otherwise the text, which the spec then reports
  as it reports a wrong YAML value;
- text, a card name, a keyword: the text as it is;
- a list of plain values: items split by the game's separator (spreadsheets: list_separator in
  game.yaml, default ";"), or a YAML flow list `[a, b]` when an item holds the separator;
- anything nested (a record, a map, a list of those, `any`): the cell is YAML, read with the
  safe loader: `{effect: score, value: 2}`.

`cell_of` is the way back, for `cardgen cards export`.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import yaml

from cardgen.errors import Cell, ContentError, IssueList
from cardgen.model import fields
from cardgen.yamlio import LineDict, LineList, parse_yaml

_WHOLE = re.compile(r"[+-]?[0-9]+(\.0*)?")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


class Unreadable(Exception):
    """A cell that should hold YAML and does not: the parser's words."""


def shown_text(value) -> str:
    """What a cell shows, from the value a spreadsheet typed it as."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if hasattr(value, "isoformat"):
        text = value.isoformat()
        return text[:-9] if text.endswith("T00:00:00") else text
    return str(value)


def is_empty(value) -> bool:
    return value is None or shown_text(value).strip() == ""


def read_cell(value, spec: fields.Spec | None, separator: str, cell: Cell | None = None,
              path: Path | None = None):
    """The field value a cell holds, by its spec (None: a field the card's type lacks, kept as
    text for the check to report). Raises Unreadable for a cell that should hold YAML."""
    text = shown_text(value)
    if spec is None:
        return text
    if _nested(spec):
        return _yaml(text, cell, path)
    if isinstance(spec, fields.ListSpec):
        if text.lstrip().startswith("["):
            return _yaml(text, cell, path)
        items = [item.strip() for item in text.split(separator)]
        out = LineList(_plain(item, spec.items) for item in items if item)
        out.line, out.item_lines = cell or 0, [cell or 0] * len(out)
        return out
    return _plain(text, spec)


def _nested(spec: fields.Spec) -> bool:
    return isinstance(spec, fields.AnySpec) or fields.value_shape(spec) == fields.NESTED


def _plain(text: str, spec: fields.Spec):
    """A plain value from its text; the text itself when it reads as nothing the spec takes."""
    bare = text.strip()
    if isinstance(spec, fields.IntSpec):
        if _WHOLE.fullmatch(bare) and (not spec.number or "." not in bare):
            return int(float(bare)) if "." in bare else int(bare)
        if spec.number and _NUMBER.fullmatch(bare) and math.isfinite(float(bare)):
            return float(bare)
        return text
    if isinstance(spec, fields.BoolSpec):
        return {"true": True, "false": False}.get(bare.lower(), text)
    if isinstance(spec, fields.EnumSpec):
        return next((v for v in spec.values if shown_text(v) == bare), text)
    if isinstance(spec, fields.OneOfSpec):
        for option in sorted(spec.options, key=fields.Spec.takes_text):     # numbers before text
            read = _plain(text, option)
            if read is not text and _accepts(option, read):
                return read
    return text


def _accepts(spec: fields.Spec, value) -> bool:
    trial = fields.CheckContext(IssueList(None))
    spec.check(value, None, "", trial)
    return not trial.issues.issues


def _yaml(text: str, cell: Cell | None, path: Path | None):
    try:
        value = parse_yaml(text, path)
    except ContentError as exc:
        raise Unreadable("; ".join(i.message for i in exc.issues)) from None
    return _placed(value, cell or 0)


def _placed(value, cell):
    """A value read from a cell's YAML, every part of it placed at the cell (its lines would
    count from the cell's own first line)."""
    if isinstance(value, LineDict):
        value.line, value.key_lines = cell, {key: cell for key in value}
        for item in value.values():
            _placed(item, cell)
    elif isinstance(value, LineList):
        value.line, value.item_lines = cell, [cell] * len(value)
        for item in value:
            _placed(item, cell)
    return value


# -- the way back: a field value as a cell ---------------------------------------------------------

def cell_of(value, spec: fields.Spec | None, separator: str):
    """The cell that reads back as `value` (read_cell): a number or true/false stays one (a
    spreadsheet types it), anything else is its text. Raises ValueError when no cell does."""
    if spec is not None and _nested(spec):
        cell = _flow(value)
    elif isinstance(value, list):
        texts = [shown_text(_cell_scalar(item)) for item in value]
        joinable = all(t.strip() == t and t and separator not in t for t in texts) and value
        cell = separator.join(texts) if joinable and not texts[0].startswith("[") else _flow(value)
    else:
        cell = _cell_scalar(value)
    if is_empty(cell):
        raise ValueError(f"{_short(value)} would be an empty cell, which means no value")
    if not same(read_cell(cell, spec, separator), value):
        raise ValueError(f"{_short(value)} would read back from a cell as "
                         f"{_short(read_cell(cell, spec, separator))}")
    return cell


def _cell_scalar(value):
    if isinstance(value, float) and value.is_integer():
        return repr(value)                  # (as a number, a spreadsheet would show it as 2)
    return value


def _flow(value) -> str:
    return yaml.safe_dump(_plain_data(value), default_flow_style=True, allow_unicode=True,
                          sort_keys=False, width=math.inf).strip().removesuffix("\n...").strip()


def _plain_data(value):
    if isinstance(value, dict):
        return {k: _plain_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_data(v) for v in value]
    return value


def _short(value) -> str:
    text = repr(_plain_data(value))
    return text if len(text) < 60 else text[:57] + "..."


def same(a, b) -> bool:
    """Equal, and of the same kinds all the way down (1, 1.0 and true are not the same value)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b
