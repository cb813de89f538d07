"""Safe YAML reading that remembers where every value came from.

Mappings come back as `LineDict` and lists as `LineList`: ordinary dicts and lists that also know
the line of each key and item, so every later check can name the line at fault. Only YAML's safe
types are built; aliases are allowed but a document that expands past `MAX_NODES` is refused
(the "billion laughs" attack costs nothing to write and everything to walk).

YAML 1.1 reads some unquoted text as something else: Yes, No, On and Off as true and false, 1.10
as the number 1.1, 2024-01-05 as a date. The text as written is kept beside such a value (see
`as_written`), so a check that finds the value wrong can say why and what to write. Readings
nobody means are refused outright with the fix: 1:30 as 90 (base 60), 010 as 8 (base 8), and a
comma in `{text: Draw 2, then discard}` that makes "then discard" a key of its own.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import read_user_text

MAX_NODES = 100_000
MAX_BYTES = 5 * 1024 * 1024
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_STR_TAG = "tag:yaml.org,2002:str"
_NULL_TAG = "tag:yaml.org,2002:null"
_SAFE_SCALAR_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null",
                                                          "timestamp")}


_NOTHING_WRITTEN = MappingProxyType({})


class LineDict(dict):
    """A dict with `line` (where the mapping starts), `key_lines` (key -> line), and `written` and
    `written_keys` (key -> the text of a value or key that YAML read as something else)."""

    line: int = 0
    key_lines: dict
    written = written_keys = _NOTHING_WRITTEN

    def line_of(self, key, default: int | None = None) -> int | None:
        return self.key_lines.get(key, default if default is not None else self.line)


class LineList(list):
    """A list with `line` (where it starts), `item_lines` (one line per item) and `written`
    (index -> the text of an item that YAML read as something else)."""

    line: int = 0
    item_lines: list
    written = _NOTHING_WRITTEN

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


def line_of(value, default: int | None = None) -> int | None:
    """The line where a loaded mapping or list starts, or `default` for scalars."""
    return getattr(value, "line", default)


def as_written(container, key) -> str | None:
    """The text container[key] was written as, when YAML read it as something else (an unquoted
    Yes as true, 1.10 as 1.1, a date); None when it reads as written."""
    return getattr(container, "written", _NOTHING_WRITTEN).get(key)


def key_as_written(container, key) -> str | None:
    """The text a mapping key was written as, when YAML read it as something else."""
    return getattr(container, "written_keys", _NOTHING_WRITTEN).get(key)


def reading_hint(written: str, value) -> str:
    """What YAML made of the text and what to write instead, for the end of a message."""
    if isinstance(value, bool):
        got = f"an unquoted {written} as {'true' if value else 'false'}"
    elif isinstance(value, (int, float)):
        got = f"{written} as the number {value}"
    else:
        got = f"{written} as a date"
    return f'YAML reads {got}; write "{written}" in quotes'


def _written_text(node: Node, value) -> str | None:
    """The text of an unquoted scalar whose value does not print as it was written."""
    if isinstance(value, (str, list, dict)) or value is None or node.style not in (None, ""):
        return None                                  # (the common cases first: this runs a lot)
    text = node.value
    if isinstance(value, bool):
        return None if text.lower() in ("true", "false") else text
    if isinstance(value, int):
        return None if text == str(value) else text
    if isinstance(value, float):
        return None if text == repr(value) else text
    return text                                      # a date or a time


def _misread_number(text: str, value) -> str | None:
    """Why a YAML 1.1 number nobody means is refused, with what to write: 1:30 (base 60), 010 (8)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if ":" in text:
        return f'YAML 1.1 reads {text} as {value} (numbers with ":" are base 60); write "{text}" in quotes'
    digits = text.lstrip("+-").replace("_", "")
    if isinstance(value, int) and len(digits) > 1 and digits[0] == "0" and digits.isdigit():
        decimal = int(digits, 10) * (-1 if text.startswith("-") else 1)
        if decimal != value:
            return (f"YAML 1.1 reads {text} as {value} (a leading 0 means base 8); write {decimal} "
                    f'for the number, or "{text}" in quotes')
    return None


def read_yaml(path: Path, root: Path | None = None):
    """Load one YAML file safely, with line numbers. Raises ContentError on any problem. Only a
    regular file is read, after its size is checked; with `root` (the game folder), only one that
    lies inside it, links followed."""
    path = Path(path)
    return parse_yaml(read_yaml_text(path, root), path)


def read_yaml_text(path: Path, root: Path | None = None) -> str:
    """The text of a YAML file, read and checked as read_yaml reads it (for a caller that keeps
    the text too: parse it with parse_yaml rather than reading the file again)."""
    return read_user_text(path, root, MAX_BYTES)


# libyaml's parser is about ten times faster; the safe constructor is the same either way.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, path: Path | None = None):
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        builder = _Builder(loader, path)
        data = builder.build(node, frozenset())
        if builder.issues:
            raise ContentError(list(dict.fromkeys(builder.issues)))      # (an alias repeats them)
        return data
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        message = " ".join(p for p in (exc.context, exc.problem) if p)
        raise ContentError([Issue(path, line, None, f"YAML syntax error: {message}"),
                            *_byte_order_mark(text, path)]) from None
    except yaml.YAMLError as exc:
        raise ContentError([Issue(path, None, None, f"YAML error: {exc}")]) from None
    except RecursionError:
        raise ContentError([Issue(path, None, None, "YAML nested too deeply")]) from None
    finally:
        loader.dispose()


def _byte_order_mark(text: str, path: Path | None) -> list[Issue]:
    """A byte-order mark inside the text (one at the very start is dropped on reading): invisible,
    and a likely cause of a syntax error near it."""
    at = text.find("\ufeff")
    if at < 0:
        return []
    return [Issue(path, text.count("\n", 0, at) + 1, None,
                  "an invisible byte-order mark (U+FEFF) is here, inside the file (text joined from "
                  "another file can bring one); delete it")]


class _Builder:
    """Turns composed nodes into LineDict/LineList/scalars, counting the values aliases add.

    An alias is built again each time it is used: every value made from a node already made once
    is one an alias added, and the alias bomb is stopped when those pass MAX_NODES instead of
    being walked to the end. A file that is simply large adds nothing (its size is capped apart).
    """

    def __init__(self, loader, path: Path | None):
        self.loader = loader
        self.path = path
        self.added = 0
        self.seen: set[int] = set()
        self.issues: list[Issue] = []        # misread numbers and split values, all reported

    def build(self, node: Node, active: frozenset):
        line = node.start_mark.line + 1
        if id(node) in self.seen:
            self.added += 1
            if self.added > MAX_NODES:
                raise ContentError([Issue(self.path, line, None, f"YAML aliases add more than "
                                                                 f"{MAX_NODES:,} values; refused")])
        else:
            self.seen.add(id(node))
        if isinstance(node, ScalarNode):
            if node.tag == _STR_TAG:
                return node.value
            if node.tag not in _SAFE_SCALAR_TAGS:
                raise _bad_tag(node, self.path)
            return self.loader.construct_object(node, deep=True)
        if id(node) in active:
            raise ContentError([Issue(self.path, line, None, "YAML alias refers to itself")])
        active = active | {id(node)}
        if isinstance(node, SequenceNode):
            if node.tag != _SEQ_TAG:
                raise _bad_tag(node, self.path)
            out = LineList(self.build(n, active) for n in node.value)
            out.line, out.item_lines = line, [n.start_mark.line + 1 for n in node.value]
            written = {i: text for i, (item_node, item) in enumerate(zip(node.value, out, strict=True))
                       if (text := self._as_written(item_node, item, None)) is not None}
            if written:
                out.written = written
            return out
        if isinstance(node, MappingNode):
            if node.tag != _MAP_TAG:
                raise _bad_tag(node, self.path)
            return self._mapping(node, line, active)
        raise ContentError([Issue(self.path, line, None, "unsupported YAML node")])

    def _mapping(self, node: MappingNode, line: int, active: frozenset) -> LineDict:
        self.loader.flatten_mapping(node)  # merge keys (<<: *base)
        out = LineDict()
        out.line, out.key_lines = line, {}
        written, written_keys = {}, {}
        previous = None
        for key_node, value_node in node.value:
            key = self.build(key_node, active)
            key_line = key_node.start_mark.line + 1
            if isinstance(key, (list, dict)):
                raise ContentError([Issue(self.path, key_line, None,
                                          "a mapping key must be a plain value")])
            if key in out:
                raise ContentError([Issue(self.path, key_line, str(key),
                                          f"duplicate key (first on line {out.key_lines[key]})")])
            value = out[key] = self.build(value_node, active)
            out.key_lines[key] = key_line
            if (text := self._as_written(value_node, value, str(key))) is not None:
                written[key] = text
            if (text := self._as_written(key_node, key, None)) is not None:
                written_keys[key] = text
            if value is None and node.flow_style and previous is not None:
                self._split_by_a_comma(previous, (key_node, value_node))
            previous = (key_node, value_node)
        if written:
            out.written = written
        if written_keys:
            out.written_keys = written_keys
        return out

    def _as_written(self, node: Node, value, field: str | None) -> str | None:
        """The text of a scalar YAML read as something else (see `as_written`); a number nobody
        means (1:30 as 90, 010 as 8) is an issue."""
        text = _written_text(node, value)
        problem = _misread_number(text, value) if text is not None else None
        if problem:
            self.issues.append(Issue(self.path, node.start_mark.line + 1, field, problem))
        return text

    def _split_by_a_comma(self, previous: tuple[Node, Node], entry: tuple[Node, Node]) -> None:
        """`{text: Draw 2, then discard}`: the comma ended the unquoted text, and "then discard"
        became a key with no value (no colon after it). An issue naming the fix."""
        (prev_key, prev_value), (key, value) = previous, entry
        no_colon = (isinstance(value, ScalarNode) and value.tag == _NULL_TAG and not value.value
                    and value.start_mark.index == key.end_mark.index)
        after_text = (isinstance(prev_value, ScalarNode) and prev_value.tag == _STR_TAG
                      and prev_value.style in (None, ""))
        if no_colon and after_text and isinstance(key, ScalarNode):
            self.issues.append(Issue(
                self.path, key.start_mark.line + 1, prev_key.value,
                f'a comma inside {{...}} ends the value, so "{key.value}" became a field of its own; '
                f'put the whole value in quotes: {prev_key.value}: "{prev_value.value}, {key.value}"'))


def _bad_tag(node: Node, path: Path | None) -> ContentError:
    return ContentError([Issue(path, node.start_mark.line + 1, None,
                               f"YAML tag {node.tag} is not allowed (only plain data is read)")])
