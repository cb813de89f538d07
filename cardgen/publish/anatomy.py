"""The card anatomy: a sample card, a callout for each thing printed on it, its picture cut at the
trim line and numbered markers placed on it (the rulebook's [[card-anatomy]])."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from markupsafe import Markup

from cardgen.fsutil import write_atomic
from cardgen.model import Game
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
    callouts = [{"label": "Name", "value": rich(card.name), "raw": card.name,
                 "doc": "What the card is called; every card of the game has its own name."},
                {"label": "Type", "value": rich(card_type.label), "doc": card_type.doc or ""}]
    for name, spec in card_type.fields.items():
        value = card.get(name)
        if value is None or value == [] or value == {}:
            continue
        shown = rich(value, game.icons) if is_flat(value) else Markup("see card")
        if len(str(shown)) > 80:
            shown = Markup("see card")
        callouts.append({"label": human(name), "value": shown,
                         "raw": value if is_flat(value) and not isinstance(value, list) else None,
                         "doc": rich(getattr(spec, "doc", None) or "", game.icons)})
    markers = place_markers(image, callouts) if image else []
    return [{"kind": "anatomy", "image": image, "card": card.name, "type": card_type.label,
             "callouts": callouts, "markers": markers}]


def anatomy_image(game: Game, out_dir: Path, card_name: str | None) -> Path | None:
    """A rendered card for the anatomy section, when the card renderer is available."""
    try:
        from cardgen.render import render_card_png  # the card faces issue's renderer
    except ImportError:
        return None
    card = pick_anatomy_card(game, card_name)
    if card is None:
        return None
    target, stamp = anatomy_files(out_dir / "rulebook-assets" / f"anatomy-{card.stem}.png")
    key = _render_key(game, card)
    if key and target.is_file() and stamp.is_file() and stamp.read_text() == key:
        return target                                   # unchanged card and layout: reuse it
    target.parent.mkdir(parents=True, exist_ok=True)
    path = Path(render_card_png(game, card.name, target))
    if key:
        write_atomic(stamp, key)
    return path


def anatomy_files(image: Path) -> list[Path]:
    """An anatomy picture and the stamp of what it was drawn from."""
    return [image, image.with_suffix(".key")]


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


def trim(game: Game, card_name: str | None) -> dict:
    """How to show the rendered card cut at its trim line (the PNG carries the bleed), and where
    each callout's number goes on it: found by matching the callout's value with the card's text."""
    try:
        from cardgen.render.layout import layout_face, load_layouts

        layouts = load_layouts(game)
        width, height, bleed = layouts.width, layouts.height, layouts.bleed
        card = pick_anatomy_card(game, card_name)
        runs = [item for item in layout_face(layouts, card).items
                if type(item).__name__ == "Run" and item.text.strip()]
    except Exception:   # the picture still shows, bleed and all, with the list beside it
        return {"frame_w": ANATOMY_WIDTH_MM, "frame_h": None, "img_w": 100.0, "offset": 0.0,
                "runs": [], "size": None}
    return {"frame_w": ANATOMY_WIDTH_MM, "frame_h": round(ANATOMY_WIDTH_MM * height / width, 2),
            "gutter": ANATOMY_GUTTER_MM,
            "img_w": round(100 * (width + 2 * bleed) / width, 3),
            "offset": round(100 * bleed / width, 3), "runs": runs, "size": (width, height)}


def place_markers(image: dict, callouts: list[dict]) -> list[dict]:
    """Numbered markers on the card picture, one per callout whose value is printed on the card."""
    if not image or not image.get("runs"):
        return []
    width, height = image["size"]
    runs, used, markers = image["runs"], set(), []
    for number, callout in enumerate(callouts, 1):
        raw = str(callout.get("raw") or "").strip().lower()
        if not raw:
            continue
        free = [i for i in range(len(runs)) if i not in used]
        # The same text can be printed twice (an attack's 500 and the Attack box's 500): the
        # biggest print is the one the callout means.
        exact = [i for i in free if runs[i].text.strip().lower() == raw]
        found = max(exact, key=lambda i: runs[i].size) if exact else None
        if found is None:
            for i in free:
                text = runs[i].text.strip().lower()
                if text.startswith(raw + " ") or (len(text) >= 8 and raw.startswith(text)):
                    found = i
                    break
        if found is None:
            continue
        used.add(found)
        run = runs[found]
        scale = image["frame_w"] / width                      # picture mm per card mm
        middle = (run.y - run.size * 0.3528 * 0.35) * scale      # the text's x-height middle
        text_w = len(run.text.strip()) * run.size * 0.3528 * 0.5
        right = run.x + text_w / 2 > width / 2 and run.x > width * 0.3
        if right:
            start = min(run.x + text_w + 0.8, width) * scale
            markers.append({"n": number, "side": "right", "top": round(middle, 2),
                            "line_from": round(start, 2),
                            "line_w": round(image["frame_w"] - start + ANATOMY_GUTTER_MM - 4.6, 2)})
        else:
            end = max(run.x - 0.8, 0) * scale
            markers.append({"n": number, "side": "left", "top": round(middle, 2),
                            "line_w": round(end + ANATOMY_GUTTER_MM - 4.6, 2)})
    return markers
