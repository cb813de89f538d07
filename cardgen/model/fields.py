"""Field specs: the small type language game.yaml uses to say what a card (or deck) holds.

A spec checks a loaded value and reports every mistake with its line and field path, and it
describes itself as JSON Schema so a designer's editor can complete and check fields as they type.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from cardgen.errors import IssueList, did_you_mean
from cardgen.yamlio import LineDict, LineList, as_written, key_as_written, line_of, reading_hint

ICON_TOKEN = re.compile(r"\{([A-Za-z0-9_-]+)\}")


@dataclass
class CheckContext:
    """What a spec needs to know about the game while checking a value."""

    issues: IssueList
    card_types_by_name: dict[str, str] = field(default_factory=dict)
    keywords: set[str] = field(default_factory=set)
    icons: set[str] = field(default_factory=set)
    # Where a card reference that names no card goes. Cards: an error like any other.
    # Decks: the caller collects them as `unknown-card` problems instead.
    on_unknown_card: Callable[[int | None, str, str], None] | None = None
    # Why the value being checked is not what was written (YAML read an unquoted Yes as true...):
    # the end of every message about it.
    hint: str | None = None

    def error(self, line: int | None, path: str, message: str) -> None:
        self.issues.add(line, path or None, f"{message}: {self.hint}" if self.hint else message)

    def hinted(self, written: str | None, value) -> CheckContext:
        """This context, for a value YAML read from `written` as something else (None: as is)."""
        if written is None:
            return self
        return replace(self, hint=reading_hint(written, value))


def check_entry(spec: Spec, container, key, line: int | None, path: str, ctx: CheckContext) -> None:
    """Check container[key] (a mapping's value or a list's item). When YAML read it as something
    other than its text, a mistake about it says so; and a number the spec would take as a number
    where it also takes text (`version: 1.10`, read as 1.1) is a mistake: it would not print as
    written."""
    value = container[key]
    written = as_written(container, key)
    found = len(ctx.issues.issues)
    spec.check(value, line, path, ctx.hinted(written, value))
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if written is not None and number and spec.takes_text() and len(ctx.issues.issues) == found:
        ctx.error(line, path, f"{reading_hint(written, value)} to keep it as written")


def show(value: Any) -> str:
    """A found value as a message shows it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f'"{value}"' if len(value) <= 40 else f'"{value[:37]}..."'
    return str(value)


class Spec:
    doc: str | None = None

    def check(self, value: Any, line: int | None, path: str, ctx: CheckContext) -> None:
        raise NotImplementedError

    def takes_text(self) -> bool:
        """Whether free text is one of the values this spec accepts."""
        return False

    def describe(self) -> str:
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def with_doc(self, out: dict) -> dict:
        if self.doc:
            out["description"] = self.doc
        return out


def _range_text(lo, hi) -> str:
    if lo is not None and hi is not None:
        return f"{lo}-{hi}" if lo != hi else f"{lo}"
    if lo is not None:
        return f"{lo} or more"
    if hi is not None:
        return f"at most {hi}"
    return ""


@dataclass
class IntSpec(Spec):
    min: int | None = None
    max: int | None = None
    doc: str | None = None
    number: bool = False  # `number`: floats welcome too

    def accepts(self, value) -> bool:
        kinds = (int, float) if self.number else (int,)
        return isinstance(value, kinds) and not isinstance(value, bool)

    def describe(self) -> str:
        base = "a number" if self.number else "a whole number"
        bounds = _range_text(self.min, self.max)
        return bounds if bounds and "-" in bounds else f"{base} {bounds}".strip()

    def check(self, value, line, path, ctx):
        out_of_range = self.accepts(value) and (
            (self.min is not None and value < self.min) or (self.max is not None and value > self.max))
        if not self.accepts(value) or out_of_range:
            ctx.error(line, path, f"expected {self.describe()}, got {show(value)}")

    def schema(self):
        out = {"type": "number" if self.number else "integer"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        return self.with_doc(out)


@dataclass
class StrSpec(Spec):
    pattern: str | None = None
    max_length: int | None = None
    doc: str | None = None
    text: bool = False  # rules text: {icon} tokens are checked

    def describe(self) -> str:
        if self.pattern:
            return f"text matching {self.pattern}"
        return "text" if self.text else "a one-line string"

    def takes_text(self) -> bool:
        return True

    def check(self, value, line, path, ctx):
        if not isinstance(value, str):
            ctx.error(line, path, f"expected {self.describe()}, got {show(value)}")
            return
        if not self.text and "\n" in value.strip():
            ctx.error(line, path, "expected a one-line string, got several lines")
        if self.pattern and not re.fullmatch(self.pattern, value):
            ctx.error(line, path, f"expected {self.describe()}, got {show(value)}")
        if self.max_length is not None and len(value) > self.max_length:
            ctx.error(line, path, f"expected at most {self.max_length} characters, got {len(value)}")
        if self.text:
            for token in ICON_TOKEN.findall(value):
                if token not in ctx.icons:
                    hint = did_you_mean(token, ctx.icons)
                    ctx.error(line, path, f"unknown icon {{{token}}}{hint}; icons are declared "
                                          "under `icons:` in game.yaml")

    def schema(self):
        out: dict = {"type": "string"}
        if self.pattern:
            out["pattern"] = f"^(?:{self.pattern})$"
        if self.max_length is not None:
            out["maxLength"] = self.max_length
        return self.with_doc(out)


@dataclass
class BoolSpec(Spec):
    doc: str | None = None

    def describe(self) -> str:
        return "true or false"

    def check(self, value, line, path, ctx):
        if not isinstance(value, bool):
            ctx.error(line, path, f"expected true or false, got {show(value)}")

    def schema(self):
        return self.with_doc({"type": "boolean"})


@dataclass
class EnumSpec(Spec):
    values: list = field(default_factory=list)
    doc: str | None = None

    def describe(self) -> str:
        return "one of " + ", ".join(str(v) for v in self.values)

    def check(self, value, line, path, ctx):
        if isinstance(value, bool) or value not in self.values:
            hint = did_you_mean(value, self.values) if isinstance(value, str) else ""
            ctx.error(line, path, f"expected {self.describe()}, got {show(value)}{hint}")

    def schema(self):
        return self.with_doc({"enum": list(self.values)})


@dataclass
class ListSpec(Spec):
    items: Spec
    min_items: int | None = None
    max_items: int | None = None
    unique: bool = False
    doc: str | None = None

    def describe(self) -> str:
        return f"a list of {self.items.describe()}"

    def check(self, value, line, path, ctx):
        if not isinstance(value, list):
            ctx.error(line, path, f"expected a list, got {show(value)}")
            return
        n = len(value)
        if (self.min_items is not None and n < self.min_items) or (
                self.max_items is not None and n > self.max_items):
            ctx.error(line, path, f"expected {_range_text(self.min_items, self.max_items)} items, "
                                  f"got {n}")
        seen: dict = {}
        for i, item in enumerate(value):
            item_line = value.line_of(i) if isinstance(value, LineList) else line
            check_entry(self.items, value, i, line_of(item, item_line), f"{path}[{i + 1}]", ctx)
            if self.unique and isinstance(item, (str, int)):
                if item in seen:
                    ctx.error(item_line, f"{path}[{i + 1}]",
                              f"{show(item)} is listed twice (also item {seen[item] + 1})")
                seen.setdefault(item, i)

    def schema(self):
        out = {"type": "array", "items": self.items.schema()}
        if self.min_items is not None:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        if self.unique:
            out["uniqueItems"] = True
        return self.with_doc(out)


@dataclass
class MapSpec(Spec):
    values: Spec
    keys: Spec = field(default_factory=StrSpec)
    min_items: int | None = None
    max_items: int | None = None
    doc: str | None = None

    def describe(self) -> str:
        return f"a mapping of {self.keys.describe()} to {self.values.describe()}"

    def check(self, value, line, path, ctx):
        if not isinstance(value, dict):
            ctx.error(line, path, f"expected {self.describe()}, got {show(value)}")
            return
        n = len(value)
        if (self.min_items is not None and n < self.min_items) or (
                self.max_items is not None and n > self.max_items):
            ctx.error(line, path, f"expected {_range_text(self.min_items, self.max_items)} entries, "
                                  f"got {n}")
        for key, item in value.items():
            key_line = value.line_of(key) if isinstance(value, LineDict) else line
            self.keys.check(key, key_line, f"{path} key {show(key)}",
                            ctx.hinted(key_as_written(value, key), key))
            check_entry(self.values, value, key, line_of(item, key_line), f"{path}.{key}", ctx)

    def schema(self):
        out: dict = {"type": "object", "additionalProperties": self.values.schema()}
        key_schema = self.keys.schema()
        key_schema.pop("description", None)
        if key_schema != {"type": "string"}:
            key_schema.pop("type", None)
            if key_schema:
                out["propertyNames"] = key_schema
        if self.min_items is not None:
            out["minProperties"] = self.min_items
        if self.max_items is not None:
            out["maxProperties"] = self.max_items
        return self.with_doc(out)


@dataclass
class RecordSpec(Spec):
    fields: dict[str, Spec] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)
    doc: str | None = None

    def describe(self) -> str:
        return "a mapping with " + ", ".join(self.fields)

    def check(self, value, line, path, ctx):
        if not isinstance(value, dict):
            ctx.error(line, path, f"expected {self.describe()}, got {show(value)}")
            return
        check_fields(value, self.fields, self.required, line, path, ctx)

    def schema(self):
        return self.with_doc(record_schema(self.fields, self.required))


def check_fields(value: dict, specs: dict[str, Spec], required, line, path: str,
                 ctx: CheckContext, skip: tuple = ()) -> None:
    """Check a mapping's keys against named specs: unknown keys, missing ones, and each value."""
    prefix = f"{path}." if path else ""
    for key, item in value.items():
        if key in skip:
            continue
        key_line = value.line_of(key) if isinstance(value, LineDict) else line
        spec = specs.get(key)
        if spec is None:
            hint = did_you_mean(key, specs)
            known = "" if hint else f" (expected one of: {', '.join(specs) or 'none'})"
            ctx.error(key_line, f"{prefix}{key}", f"unknown field{hint}{known}")
            continue
        check_entry(spec, value, key, line_of(item, key_line), f"{prefix}{key}", ctx)
    reported = getattr(value, "reported", ())     # (unreadable, and said so where it was read)
    for name in required:
        if name not in value and name not in reported:
            where = value.line_of(name) if isinstance(value, LineDict) else line
            ctx.error(where, f"{prefix}{name}", "missing required field")


def record_schema(specs: dict[str, Spec], required) -> dict:
    out: dict = {"type": "object", "properties": {k: s.schema() for k, s in specs.items()},
                 "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


@dataclass
class CardRefSpec(Spec):
    types: list[str] | None = None
    doc: str | None = None

    def describe(self) -> str:
        kinds = " or ".join(self.types) if self.types else "any type"
        return f"the name of a card ({kinds})"

    def check(self, value, line, path, ctx):
        if not isinstance(value, str):
            ctx.error(line, path, f"expected {self.describe()}, got {show(value)}")
            return
        found_type = ctx.card_types_by_name.get(value)
        if found_type is not None and (not self.types or found_type in self.types):
            return
        if found_type is None:
            pool = [n for n, t in ctx.card_types_by_name.items() if not self.types or t in self.types]
            message = f"no card is named {show(value)}{did_you_mean(value, pool)}"
        else:
            message = (f"{show(value)} is a {found_type} card; expected "
                       f"{' or '.join(self.types)}")
        if ctx.on_unknown_card is not None:
            ctx.on_unknown_card(line, path, message)
        else:
            ctx.error(line, path, message)

    def schema(self):
        # Card names are filled in by cardgen.schema, which knows the game's cards.
        return self.with_doc({"type": "string", "x-cardgen-card": self.types or []})


@dataclass
class KeywordSpec(Spec):
    doc: str | None = None

    def describe(self) -> str:
        return "a keyword of this game"

    def check(self, value, line, path, ctx):
        if not isinstance(value, str) or value not in ctx.keywords:
            hint = did_you_mean(value, ctx.keywords) if isinstance(value, str) else ""
            ctx.error(line, path, f"expected a keyword declared in game.yaml, got {show(value)}"
                                  f"{hint}")

    def schema(self):
        return self.with_doc({"type": "string", "x-cardgen-keyword": True})


@dataclass
class OneOfSpec(Spec):
    options: list[Spec] = field(default_factory=list)
    doc: str | None = None

    def describe(self) -> str:
        return " or ".join(o.describe() for o in self.options)

    def takes_text(self) -> bool:
        return any(o.takes_text() for o in self.options)

    def check(self, value, line, path, ctx):
        for option in self.options:
            trial = CheckContext(IssueList(None), ctx.card_types_by_name, ctx.keywords, ctx.icons)
            option.check(value, line, path, trial)
            if not trial.issues.issues:
                option.check(value, line, path, ctx)  # rerun for side effects (card refs)
                return
        if isinstance(value, dict):
            mappings = [o for o in self.options if isinstance(o, (RecordSpec, MapSpec))]
            if len(mappings) == 1:      # only one option takes a mapping: its own messages say more
                mappings[0].check(value, line, path, ctx)
                return
        ctx.error(line, path, f"expected {self.describe()}, got {show(value)}")

    def schema(self):
        return self.with_doc({"anyOf": [o.schema() for o in self.options]})


@dataclass
class AnySpec(Spec):
    doc: str | None = None

    def describe(self) -> str:
        return "any value"

    def check(self, value, line, path, ctx):
        pass

    def schema(self):
        return self.with_doc({})


ONE, LIST, NESTED = 0, 1, 2      # what a field holds: one value, a list of values, more


def value_shape(spec: Spec) -> int:
    """ONE, LIST (of plain values) or NESTED: what a field of this spec holds."""
    if isinstance(spec, ListSpec):
        return LIST if value_shape(spec.items) == ONE else NESTED
    if isinstance(spec, (MapSpec, RecordSpec)):
        return NESTED
    if isinstance(spec, OneOfSpec):
        return max((value_shape(option) for option in spec.options), default=ONE)
    return ONE


# --- reading specs from game.yaml -------------------------------------------------------------

SPEC_TYPES = ("int", "number", "str", "text", "bool", "enum", "list", "map", "record", "card",
              "keyword", "one_of")
_OPTIONS = {
    "int": {"min", "max"}, "number": {"min", "max"}, "str": {"pattern", "max_length"},
    "text": {"max_length"}, "bool": set(), "enum": {"values"},
    "list": {"items", "min_items", "max_items", "unique"},
    "map": {"keys", "values", "min_items", "max_items"}, "record": {"fields", "required"},
    "card": {"types"}, "keyword": set(), "one_of": {"options"},
}


def parse_spec(raw, line: int | None, where: str, issues: IssueList,
               card_types: set[str] | None = None) -> Spec:
    """Turn a spec as written in game.yaml into a Spec, reporting mistakes to `issues`."""
    if isinstance(raw, str):
        raw = LineDict(type=raw)
        raw.line, raw.key_lines = line or 0, {}
    if not isinstance(raw, dict):
        issues.add(line, where, f"a field spec must be a type name or a mapping, got {show(raw)}")
        return AnySpec()
    line = line_of(raw, line)
    kind = raw.get("type")
    if kind not in SPEC_TYPES:
        hint = did_you_mean(kind, SPEC_TYPES) if isinstance(kind, str) else ""
        issues.add(line, f"{where}.type",
                   f"expected one of {', '.join(SPEC_TYPES)}, got {show(kind)}{hint}")
        return AnySpec()
    allowed = _OPTIONS[kind] | {"type", "doc"}
    for key in raw:
        if key not in allowed:
            hint = did_you_mean(key, allowed)
            issues.add(raw.line_of(key) if isinstance(raw, LineDict) else line, f"{where}.{key}",
                       f"not an option of a {kind} spec{hint}")

    def opt(name, kinds, default=None):
        value = raw.get(name, default)
        if value is default:
            return default
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            issues.add(raw.line_of(name) if isinstance(raw, LineDict) else line, f"{where}.{name}",
                       f"unexpected value {show(value)}")
            return default
        return value

    def sub(name, required=True):
        if name not in raw:
            if required:
                issues.add(line, f"{where}.{name}", f"a {kind} spec needs `{name}`")
            return AnySpec()
        return parse_spec(raw[name], raw.line_of(name), f"{where}.{name}", issues, card_types)

    doc = opt("doc", str)
    number = (int, float)
    if kind in ("int", "number"):
        return IntSpec(opt("min", number), opt("max", number), doc, number=kind == "number")
    if kind in ("str", "text"):
        pattern = opt("pattern", str)
        if pattern:
            try:
                re.compile(pattern)
            except re.error as exc:
                issues.add(raw.line_of("pattern"), f"{where}.pattern", f"not a valid regex: {exc}")
                pattern = None
        return StrSpec(pattern, opt("max_length", int), doc, text=kind == "text")
    if kind == "bool":
        return BoolSpec(doc)
    if kind == "enum":
        values = opt("values", list, [])
        if not values:
            issues.add(line, f"{where}.values", "an enum spec needs a non-empty list of values")
        return EnumSpec(list(values), doc)
    if kind == "list":
        return ListSpec(sub("items"), opt("min_items", int), opt("max_items", int),
                        bool(opt("unique", bool, False)), doc)
    if kind == "map":
        keys = sub("keys", required=False) if "keys" in raw else StrSpec()
        return MapSpec(sub("values"), keys, opt("min_items", int), opt("max_items", int), doc)
    if kind == "record":
        fields_raw = opt("fields", dict, {})
        specs = {name: parse_spec(spec, fields_raw.line_of(name), f"{where}.fields.{name}", issues,
                                  card_types)
                 for name, spec in fields_raw.items()}
        required = [str(r) for r in opt("required", list, [])]
        for name in required:
            if name not in specs:
                issues.add(raw.line_of("required"), f"{where}.required",
                           f"{name} is required but not among the record's fields")
        return RecordSpec(specs, required, doc)
    if kind == "card":
        types = opt("types", list)
        if types and card_types is not None:
            for t in types:
                if t not in card_types:
                    issues.add(raw.line_of("types"), f"{where}.types",
                               f"no card type {show(t)}{did_you_mean(t, card_types)}")
        return CardRefSpec([str(t) for t in types] if types else None, doc)
    if kind == "keyword":
        return KeywordSpec(doc)
    options_raw = opt("options", list, [])
    if not options_raw:
        issues.add(line, f"{where}.options", "a one_of spec needs a list of options")
    return OneOfSpec([parse_spec(o, options_raw.line_of(i), f"{where}.options[{i + 1}]", issues,
                                 card_types) for i, o in enumerate(options_raw)], doc)
