"""The card anatomy: a sample card, a callout for each thing printed on it, its picture cut at the
trim line and numbered markers placed on it (the rulebook's [[card-anatomy]])."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from markupsafe import Markup

from cardgen.fsutil import write_atomic
from cardgen.model import Game
from cardgen.publish.icons import html_icons
from cardgen.publish.nodes import human, is_flat, rich


def pick_anatomy_card(game: Game, name: str | None = None):
    if name:
        if name not in game.cards:
            raise KeyError(f"{name!r} is not a card of {game.name}")
        return game.cards[name]
    counts = Counter(c.type for c in game.cards.values() if game.card_types[c.type].in_decks)
    if not counts:
        return next(iter(game.cards.values()), None)
    type_id = counts.most_common(1)[0][0]
    cards = game.cards_of_type(type_id)
    return max(cards, key=lambda c: (sum(v is not None for v in c.fields.values()),
                                     -len(str(c.fields)), c.name))


def anatomy(game: Game, arg: str | None = None, image: dict | None = None) -> list[dict]:
    card = pick_anatomy_card(game, arg)
    if card is None:
        return []
    card_type = game.card_types[card.type]
    callouts = [{"label": "Name", "value": rich(card.name), "field": "name",
                 "doc": "What the card is called; every card of the game has its own name."},
                {"label": "Type", "value": rich(card_type.label), "field": "type",
                 "doc": card_type.doc or ""}]
    printed = _printed_fields(image)
    for name, spec in card_type.fields.items():
        value = card.get(name)
        if value is None or value == [] or value == {}:
            continue
        if printed is not None and name not in printed:
            continue                      # a player cannot see it on the card
        shown = rich(value, html_icons(game)) if is_flat(value) else Markup("see card")
        if len(str(shown)) > 80:
            shown = Markup("see card")
        callouts.append({"label": human(name), "value": shown, "field": name,
                         "doc": rich(getattr(spec, "doc", None) or "", html_icons(game))})
    markers = _markers(image, callouts) if image else []
    return [{"kind": "anatomy", "image": image, "card": card.name, "type": card_type.label,
             "callouts": callouts, "markers": markers}]


def _printed_fields(image: dict | None) -> set[str] | None:
    """The fields some element of the card's layout shows, or None without a layout."""
    if not image or not image.get("size"):
        return None
    return {name for box in image["boxes"] for name in box.fields}


def anatomy_image(game: Game, out_dir: Path, card_name: str | None) -> Path | None:
    """A rendered card for the anatomy section, when the card renderer is available."""
    try:
        from cardgen.render import render_card_png  # the card faces issue's renderer
    except ImportError:
        return None
    card = pick_anatomy_card(game, card_name)
    if card is None:
        return None
    target, stamp, _placed = anatomy_files(out_dir / "rulebook-assets" / f"anatomy-{card.stem}.png")
    key = _render_key(game, card)
    if key and target.is_file() and stamp.is_file() and stamp.read_text() == key:
        return target                                   # unchanged card and layout: reuse it
    target.parent.mkdir(parents=True, exist_ok=True)
    path = Path(render_card_png(game, card.name, target))
    if key:
        write_atomic(stamp, key)
    return path


def anatomy_files(image: Path) -> list[Path]:
    """An anatomy picture, the stamp of what it was drawn from and its markers' places."""
    return [image, image.with_suffix(".key"), image.with_suffix(".markers.json")]


def _markers(image: dict, callouts: list[dict]) -> list[dict]:
    """place_markers, kept beside the picture with what it was placed from: the search takes
    most of a second on a busy card (Amiibart), and an unchanged rebuild need not repeat it."""
    if not image.get("path"):
        return place_markers(image, callouts)
    import hashlib
    import json

    from cardgen.inputs import code_digest

    wanted = json.dumps([code_digest("publish"), [c.get("field") for c in callouts],
                         {k: image.get(k) for k in ("boxes", "text_boxes", "size", "frame_w", "gutter")}],
                        default=repr, sort_keys=True)
    key = hashlib.sha256(wanted.encode()).hexdigest()[:24]
    cache = anatomy_files(Path(image["path"]))[2]
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
        if kept.get("key") == key:
            return [m | {"box": tuple(m["box"]), "target": tuple(m["target"]), "start": tuple(m["start"])}
                    for m in kept["markers"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass            # none yet, or not one this code wrote: placed again
    markers = place_markers(image, callouts)
    write_atomic(cache, json.dumps({"key": key, "markers": markers}, default=list) + "\n")
    return markers


def _render_key(game: Game, card) -> str | None:
    """What the rendered card depends on (the renderer's own cache key), or None."""
    try:
        from cardgen.inputs import face_key
        from cardgen.render.layout import load_layouts

        return face_key(load_layouts(game), card, "rulebook-anatomy")
    except Exception:
        return None


ANATOMY_WIDTH_MM = 44
ANATOMY_GUTTER_MM = 7
MARKER_MM = 4.2            # a marker's diameter on the page (base.css.j2 .marker)


def trim(game: Game, card_name: str | None) -> dict:
    """How to show the rendered card cut at its trim line (the PNG carries the bleed), with the
    boxes the layout drew: every element showing a card field, and every text run."""
    try:
        from cardgen.render.layout import field_boxes, load_layouts

        layouts = load_layouts(game)
        width, height, bleed = layouts.width, layouts.height, layouts.bleed
        face, boxes = field_boxes(layouts, pick_anatomy_card(game, card_name))
    except Exception:   # the picture still shows, bleed and all, with the list beside it
        return {"frame_w": ANATOMY_WIDTH_MM, "frame_h": None, "img_w": 100.0, "offset": 0.0,
                "boxes": [], "text_boxes": [], "size": None}
    return {"frame_w": ANATOMY_WIDTH_MM, "frame_h": round(ANATOMY_WIDTH_MM * height / width, 2),
            "gutter": ANATOMY_GUTTER_MM,
            "img_w": round(100 * (width + 2 * bleed) / width, 3),
            "offset": round(100 * bleed / width, 3), "boxes": boxes,
            "text_boxes": text_boxes(face), "size": (width, height)}


def text_boxes(face) -> list[tuple[float, float, float, float]]:
    """(left, top, right, bottom) in card mm of every text run and icon the face prints."""
    from cardgen.render.display import Run
    from cardgen.render.fonts import PT_TO_MM, load_face

    out = []
    for item in face.items:
        if isinstance(item, Run) and item.text.strip():
            font = load_face(item.font)
            mm = item.size * PT_TO_MM
            out.append((item.x, item.y - font.ascent * mm, item.x + font.width_mm(item.text, item.size),
                        item.y + font.descent * mm))
    return out


_KIND_RANK = {"text": 0, "icon": 1, "image": 2, "shape": 3}


def element_boxes(boxes, field: str, size) -> list[tuple[float, float, float, float]]:
    """The boxes of the elements that show a field, as (left, top, right, bottom), best first: an
    element that shows it alone before one it shares, text before icons, pictures and shapes. The
    card type is shown by the whole face (its colours and frame) when no element names it."""
    found = sorted((b for b in boxes if field in b.fields),
                   key=lambda b: (len(b.fields) > 1, _KIND_RANK.get(b.kind, 9)))
    if field == "type" and not any(b.fields == ("type",) for b in found):
        return [(0.0, 0.0, size[0], size[1])]
    out = []
    for b in found:
        x, y, w, h = b.box
        out.append((max(x, 0.0), max(y, 0.0), min(x + w, size[0]), min(y + h, size[1])))
    return list(dict.fromkeys(out))


def place_markers(image: dict, callouts: list[dict]) -> list[dict]:
    """A numbered marker beside the picture for each callout with a field box, and a leader line
    from it to a point of that box. The line crosses no text or icon the card prints, nor another
    leader; markers on one side keep apart. Found by trying marker heights near the target's,
    nearest first, on both sides."""
    if not image or not image.get("size"):
        return []
    width, height = image["size"]
    scale = image["frame_w"] / width                        # picture mm per card mm
    radius = MARKER_MM / 2 / scale                          # a marker's radius in card mm
    gutter = image["gutter"] / scale
    texts = [_shrunk(b, 0.05) for b in image["text_boxes"]]
    wanted = [(n, element_boxes(image["boxes"], c["field"], (width, height)))
              for n, c in enumerate(callouts, 1) if c.get("field")]
    # the smallest boxes first, as they have the fewest ways in; a field left without a marker
    # goes first in the next try
    order = sorted((w for w in wanted if w[1]), key=lambda w: _area(w[1][0]))
    clear: dict = {}        # leader segment -> whether it misses every text
    for _ in range(len(order)):
        markers, missed = _place(order, texts, width, height, radius, gutter, scale, image["gutter"],
                                 clear)
        if not missed:
            break
        order = missed + [w for w in order if w not in missed]
    return sorted(markers, key=lambda m: m["n"])


def _place(order, texts, width, height, radius, gutter, scale, gutter_page, clear):
    taken: dict[str, list[float]] = {"left": [], "right": []}
    lines: list = []
    markers, missed = [], []
    for number, boxes in order:
        # each box of the field is tried; a later (less fitting) one must be clearly better
        tries = [(cost + rank * 4, box, choice) for rank, box in enumerate(boxes)
                 for cost, choice in [_best_leader(box, texts, taken, lines, width, height, radius,
                                                   gutter, clear)] if choice is not None]
        if not tries:
            missed.append((number, boxes))
            continue
        _, box, (side, marker_y, target) = min(tries, key=lambda t: t[0])
        taken[side].append(marker_y)
        start = (-gutter + 2 * radius if side == "left" else width + gutter - 2 * radius, marker_y)
        lines.append((start, target))
        markers.append({"n": number, "side": side, "box": box, "target": target, "start": start,
                        "top": round(marker_y * scale - MARKER_MM / 2, 2),
                        "line": [round(v * scale + (gutter_page if i % 2 == 0 else 0), 2)
                                 for i, v in enumerate((*start, *target))]})
    return markers, missed


def _area(box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _best_leader(box, texts, taken, lines, width, height, radius, gutter, clear):
    left, top, right, bottom = box
    targets = _targets(box, texts)
    best, best_cost = None, None
    for side in ("left", "right"):
        x0 = -gutter + 2 * radius if side == "left" else width + gutter - 2 * radius
        for tx, ty in targets:
            # only text between the marker's side and the target can be in the way
            near = [t for t in texts if (t[0] < tx if side == "left" else t[2] > tx)]
            for dy in _offsets(height):
                y = ty + dy
                if not radius <= y <= height - radius:
                    continue
                if any(abs(y - other) < 2 * radius + 0.6 for other in taken[side]):
                    continue
                cost = abs(dy) * 3 + abs(tx - x0) * 0.2
                if best_cost is not None and cost >= best_cost:
                    break                      # the offsets grow: nothing further is cheaper
                segment = ((x0, y), (tx, ty))
                if segment not in clear:          # (the text does not move between tries)
                    low, high = min(y, ty), max(y, ty)
                    clear[segment] = not any(t[1] < high and t[3] > low and crosses(segment, t)
                                             for t in near)
                if not clear[segment] or any(segments_cross(segment, other) for other in lines):
                    continue
                best, best_cost = (side, y, (tx, ty)), cost
                break
    return best_cost, best


def _offsets(height: float):
    yield 0.0
    step = 0.5
    for k in range(1, int(height / step) + 1):
        yield k * step
        yield -k * step


def _targets(box, texts) -> list[tuple[float, float]]:
    """Points of the box not inside any printed text: a grid, and the ends of text runs that
    cover it (a leader may touch a text's edge)."""
    left, top, right, bottom = box
    inset = min(0.4, (right - left) / 4, (bottom - top) / 4)
    xs = [left + inset + (right - left - 2 * inset) * i / 6 for i in range(7)]
    ys = [top + inset + (bottom - top - 2 * inset) * j / 4 for j in range(5)]
    points = []
    for y in ys:
        for x in xs:
            inside = [t for t in texts if t[0] < x < t[2] and t[1] < y < t[3]]
            if not inside:
                points.append((x, y))
                continue
            for t in inside:                              # slide out to the text's ends
                for ex in (t[0], t[2]):
                    if left <= ex <= right and not any(o[0] < ex < o[2] and o[1] < y < o[3] for o in texts):
                        points.append((ex, y))
    if not points:                                       # text fills the box: its corners
        points = [(left, top), (right, top), (left, bottom), (right, bottom)]
    return list(dict.fromkeys(points))


def _shrunk(box, by: float):
    left, top, right, bottom = box
    return (left + by, top + by, right - by, bottom - by)


def crosses(segment, rect) -> bool:
    """Whether a segment passes through the inside of a rectangle (left, top, right, bottom);
    touching its edge is not crossing (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = segment
    left, top, right, bottom = rect
    if right <= left or bottom <= top:
        return False
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo >= hi:
            return False
    return hi - lo > 1e-9


def segments_cross(a, b) -> bool:
    """Whether two segments cross at a point inside both."""
    def turn(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    (p1, p2), (p3, p4) = a, b
    d1, d2, d3, d4 = turn(p3, p4, p1), turn(p3, p4, p2), turn(p1, p2, p3), turn(p1, p2, p4)
    return d1 * d2 < 0 and d3 * d4 < 0
