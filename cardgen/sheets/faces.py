"""Laying out the cards to print: once per distinct card, on every core, remembered between runs.

Layout (text fitting above all) is most of the cost of a proxy sheet, so the display lists are
kept in a small JSON cache beside the output, keyed like the PNG cache (cardgen.inputs.face_key:
all a face is made from, art and fonts by content): after one card is edited only that card is
laid out again.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
from dataclasses import fields as dc_fields
from operator import attrgetter
from pathlib import Path

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import read_record, write_atomic
from cardgen.inputs import DRAWING_CODE, code_digest, face_key
from cardgen.model import Card
from cardgen.parallel import can_fork, first_of_each, usable_cpus, worker_pool
from cardgen.render.card_backs import back_face, draw_back
from cardgen.render.display import Ellipse, Face, Line, Picture, Polygon, Rect, Run, Turned
from cardgen.render.layout import (
    LayoutError,
    Layouts,
    compile_templates,
    layout_face,
    layout_reference,
)

KINDS = {cls.__name__: cls for cls in (Rect, Ellipse, Polygon, Line, Run, Picture, Turned)}
PARALLEL_FROM = 24          # fewer cards than this are laid out in this process
CACHE_FORMAT = 2                    # 2: Run.outline, Turned (a list of items inside an item)


def lay_out(layouts: Layouts, cards: list[Card], with_backs: bool, cache: Path | None = None,
            jobs: int | None = None, deck=None, references: list[str] = ()
            ) -> tuple[dict[str, Face], dict[str, Face | None], dict[str, Face]]:
    """Faces by card name, each card's back (None without backs; chosen for `deck` when one is
    printed), and the card-sized player aids named in `references` (laid out alongside the cards,
    never cached: they are drawn from the game's tables). Raises ContentError listing every card
    that cannot be laid out."""
    keys = {card.name: face_key(layouts, card) for card in cards}
    stored = _read(cache, layouts) if cache else {}
    faces = {}
    for name, key in keys.items():
        if key in stored:
            with contextlib.suppress(KeyError, TypeError, ValueError):   # damaged: lay it out again
                faces[name] = _face_from(stored[key])
    todo = [card.name for card in cards if card.name not in faces]
    issues: list[Issue] = []
    aids: dict[str, Face] = {}
    for task, face in _layout_many(layouts, todo, jobs, [(REFERENCE, name) for name in references]):
        if isinstance(face, Issue):
            issues.append(face)
        elif isinstance(task, tuple):
            aids[task[1]] = face
        else:
            faces[task] = face
    backs: dict[str, Face | None] = {}
    if with_backs:
        by_name: dict[tuple, Face] = {}
        for card in cards:
            try:
                # (a back is drawn at the size of its card; one drawn from its card, for it alone)
                which = back_face(layouts, card, deck), layouts.size_of(card.type)
                if which not in by_name:
                    by_name[which] = draw_back(layouts, which[0], size=which[1])
                backs[card.name] = by_name[which]
            except LayoutError as exc:
                issues.append(exc.issue())
    else:
        backs = {card.name: None for card in cards}
    if issues:
        raise ContentError(issues)
    if cache and todo:
        # keep what other runs stored for cards of this game (a deck prints only some of them)
        current = {face_key(layouts, card) for card in layouts.game.cards.values()}
        merged = {key: value for key, value in stored.items() if key in current}
        merged.update({keys[name]: _face_to(faces[name]) for name in todo})
        _write(cache, layouts, merged)
    return faces, backs, aids


REFERENCE = "reference"   # a task (REFERENCE, name) lays out a player aid; a plain name, a card


def _layout_many(layouts: Layouts, names: list[str], jobs: int | None, extra: list[tuple[str, str]] = ()):
    """[(task, Face or Issue)] for the cards `names` and the `extra` tasks, on up to `jobs` cores."""
    tasks = [*names, *extra]
    workers = min(jobs or usable_cpus(), max(1, len(names) // (PARALLEL_FROM // 2)))
    if len(names) < PARALLEL_FROM or workers < 2 or not can_fork():
        return [_one(layouts, task) for task in tasks]
    compile_templates(layouts)          # once, before the workers fork
    # the first card of each type is laid out here: the workers inherit its fonts and fitted labels
    cards = layouts.game.cards
    firsts, rest = first_of_each(names, lambda name: cards[name].type)
    done = dict(_one(layouts, name) for name in firsts)     # task -> face or Issue
    rest = [*extra, *rest]              # the aids are the longest tasks: hand them out first
    _WORK["layouts"] = layouts
    try:
        size = max(4, len(rest) // (workers * 4))
        chunks = [rest[i:i + size] for i in range(0, len(rest), size)]
        with worker_pool(multiprocessing.get_context("fork"), workers) as pool:
            done.update(item for part in pool.map(_chunk, chunks) for item in part)
    finally:
        _WORK.clear()
    return [(task, done[task]) for task in tasks]


_WORK: dict = {}    # inherited by forked workers


def _chunk(tasks: list):
    return [_one(_WORK["layouts"], task) for task in tasks]


def _one(layouts: Layouts, task):
    try:
        if isinstance(task, tuple):
            return task, layout_reference(layouts, task[1])
        return task, layout_face(layouts, layouts.game.cards[task])
    except LayoutError as exc:
        return task, exc.issue()


# -- the cache: display lists as JSON --------------------------------------------------------------

def _face_to(face: Face) -> dict:
    return {"name": face.name, "width": face.width, "height": face.height, "bleed": face.bleed,
            "radius": face.radius,
            "items": [_item_to(item) for item in face.items]}


def _item_to(item) -> list:
    if isinstance(item, Turned):        # (its items, each as a list of its own)
        return ["Turned", item.cx, item.cy, item.angle, item.box, [_item_to(i) for i in item.items]]
    return [type(item).__name__, *_FIELDS[type(item)](item)]


def _item_from(data: list):
    kind, *values = data
    if kind == "Turned":
        *numbers, items = values
        return Turned(*(_tuples(v) for v in numbers), [_item_from(i) for i in items])
    return KINDS[kind](*(_tuples(v) if isinstance(v, list) else v for v in values))


# each item kind's fields, read in declaration order (the order _face_from passes them back)
_FIELDS = {cls: attrgetter(*(f.name for f in dc_fields(cls))) for cls in KINDS.values()}


def _tuples(value):
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _face_from(data: dict) -> Face:
    items = [_item_from(item) for item in data["items"]]
    return Face(data["name"], data["width"], data["height"], data["bleed"], items, data["radius"])


def _stamp(layouts: Layouts) -> list:
    """What every laid-out face of the cache shares, besides its own key."""
    return [CACHE_FORMAT, code_digest(*DRAWING_CODE), str(layouts.game.folder.resolve())]


# -- skipping files whose inputs have not changed --------------------------------------------------

STAMPS = ".sheets-stamps.json"


def unchanged(folder: Path, name: str, digest: str) -> bool:
    """True when folder/name exists and was last written from inputs with this digest."""
    return (folder / name).is_file() and _stamps(folder).get(name) == digest


def remember(folder: Path, written: dict[str, str]) -> None:
    """Record the digests of files just written (name -> digest)."""
    stamps = _stamps(folder)
    stamps.update(written)
    write_atomic(folder / STAMPS, json.dumps(stamps, indent=0, sort_keys=True))


def _stamps(folder: Path) -> dict:
    return read_record(folder / STAMPS)


def _read(path: Path, layouts: Layouts) -> dict:
    data = read_record(path)
    if data.get("stamp") != _stamp(layouts):
        return {}
    faces = data.get("faces")
    return faces if isinstance(faces, dict) else {}


def _write(path: Path, layouts: Layouts, faces: dict) -> None:
    # plain lists and numbers: no cycles to look for (check_circular costs a sixth of the time)
    write_atomic(Path(path), json.dumps({"stamp": _stamp(layouts), "faces": faces}, separators=(",", ":"),
                                        check_circular=False))
