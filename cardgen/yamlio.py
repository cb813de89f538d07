"""Safe YAML reading that remembers where every value came from.

Mappings come back as `LineDict` and lists as `LineList`: ordinary dicts and lists that also know
the line of each key and item, so every later check can name the line at fault. Only YAML's safe
types are built; aliases are allowed but a document that expands past `MAX_NODES` is refused
(the "billion laughs" attack costs nothing to write and everything to walk).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import UnsafeFile, read_confined

MAX_NODES = 100_000
MAX_BYTES = 5 * 1024 * 1024
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_STR_TAG = "tag:yaml.org,2002:str"
_SAFE_SCALAR_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null",
                                                          "timestamp")}


class LineDict(dict):
    """A dict with `line` (where the mapping starts) and `key_lines` (key -> line)."""

    line: int = 0
    key_lines: dict

    def line_of(self, key, default: int | None = None) -> int | None:
        return self.key_lines.get(key, default if default is not None else self.line)


class LineList(list):
    """A list with `line` (where it starts) and `item_lines` (one line per item)."""

    line: int = 0
    item_lines: list

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


def line_of(value, default: int | None = None) -> int | None:
    """The line where a loaded mapping or list starts, or `default` for scalars."""
    return getattr(value, "line", default)


def read_yaml(path: Path, root: Path | None = None):
    """Load one YAML file safely, with line numbers. Raises ContentError on any problem. Only a
    regular file is read, after its size is checked; with `root` (the game folder), only one that
    lies inside it, links followed."""
    path = Path(path)
    return parse_yaml(read_yaml_text(path, root), path)


def read_yaml_text(path: Path, root: Path | None = None) -> str:
    """The text of a YAML file, read and checked as read_yaml reads it (for a caller that keeps
    the text too: parse it with parse_yaml rather than reading the file again)."""
    try:
        raw = read_confined(path, root, MAX_BYTES)
    except UnsafeFile as exc:
        raise ContentError([Issue(path, None, None, f"this file {exc}")]) from None
    except OSError as exc:
        raise ContentError([Issue(path, None, None, f"cannot read file: {exc.strerror}")]) from None
    if b"\0" in raw:
        raise ContentError([Issue(path, None, None, "not a text file (it contains NUL bytes)")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentError([Issue(path, line, None, "not UTF-8 text")]) from None
    return text


# libyaml's parser is about ten times faster; the safe constructor is the same either way.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, path: Path | None = None):
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _Builder(loader, path).build(node, frozenset())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        message = " ".join(p for p in (exc.context, exc.problem) if p)
        raise ContentError([Issue(path, line, None, f"YAML syntax error: {message}")]) from None
    except yaml.YAMLError as exc:
        raise ContentError([Issue(path, None, None, f"YAML error: {exc}")]) from None
    except RecursionError:
        raise ContentError([Issue(path, None, None, "YAML nested too deeply")]) from None
    finally:
        loader.dispose()


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
        for key_node, value_node in node.value:
            key = self.build(key_node, active)
            key_line = key_node.start_mark.line + 1
            if isinstance(key, (list, dict)):
                raise ContentError([Issue(self.path, key_line, None,
                                          "a mapping key must be a plain value")])
            if key in out:
                raise ContentError([Issue(self.path, key_line, str(key),
                                          f"duplicate key (first on line {out.key_lines[key]})")])
            out[key] = self.build(value_node, active)
            out.key_lines[key] = key_line
        return out


def _bad_tag(node: Node, path: Path | None) -> ContentError:
    return ContentError([Issue(path, node.start_mark.line + 1, None,
                               f"YAML tag {node.tag} is not allowed (only plain data is read)")])
