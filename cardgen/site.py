"""The players' card database: a static site per game (out/<game>/site/), no server needed.

Every card with its image and fields, search by name and text, a filter for every field with a
short list of values (element, stars, type, rarity, level, creature, location, button...),
sorting, a page per card and per sample deck. Card data is embedded as a script (browsers do not
let a page opened from the file system fetch JSON), and everything is escaped by Jinja2.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from cardgen.errors import ContentError, Issue
from cardgen.filenames import deck_stem, taken_by
from cardgen.fsutil import read_record, write_atomic
from cardgen.model import Card, Game
from cardgen.model.fields import BoolSpec, EnumSpec, IntSpec, KeywordSpec, ListSpec, Spec
from cardgen.outputs import remember
from cardgen.paths import templates_dir
from cardgen.publish.icons import SITE_INK, html_icons
from cardgen.render import cache_entry, png_path
from cardgen.render.layout import Layouts
from cardgen.render.thumbnail import RECORD, bleed_pixels, thumbnail_jpeg, thumbnail_name, thumbnail_of

MAX_NUMERIC_FILTER = 16   # an int field with at most this many values gets a filter


def build_site(game: Game, out_dir: Path) -> list[Path]:
    """Write the site into out_dir/site; card images come from out_dir/cards (rendered first)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    site = out_dir / "site"
    env = Environment(loader=FileSystemLoader(str(templates_dir() / "site")),
                      autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["rich"] = lambda text: rich_text(text, game)
    env.filters["show"] = lambda value: show_value(value, game)
    filters = filter_fields(game)
    decks = _decks(game)
    layouts = _layouts(game)
    thumbs = _Thumbnails(out_dir, site, layouts.bleed if layouts is not None else 0.0)
    cards = [_card_data(game, card, out_dir, site, thumbs) for card in game.cards.values()]
    backs = [_back_data(layouts, card, out_dir, thumbs) for card in game.cards.values()]
    for card, scale in zip(cards, card_scales(game, layouts), strict=True):
        card["scale"] = scale
    thumbs.save()
    written = []
    data = {"game": game.name, "cards": cards, "filters": filters,
            "sorts": [{"key": "name", "label": "Name"}, {"key": "type", "label": "Card type"}]
            + [{"key": f, "label": f.replace("_", " ").capitalize()} for f in numeric_fields(game)]}
    written.append(write_atomic(site / "cards.js", "window.CARDGEN = "
                                + json.dumps(data, ensure_ascii=False).replace("</", "<\\/") + ";\n"))
    for asset in ("style.css", "app.js"):
        written.append(write_atomic(site / asset, (templates_dir() / "site" / asset).read_text()))
    common = {"game": game, "decks": decks}
    written.append(write_atomic(site / "index.html", env.get_template("index.html").render(
        **common, filters=filters, root="")))
    card_page = env.get_template("card.html")
    for card, info, back in zip(game.cards.values(), cards, backs, strict=True):
        in_decks = [d for d in decks if card.name in d["counts"]]
        written.append(write_atomic(site / "card" / f"{info['slug']}.html", card_page.render(
            **common, card=card, info=info, back=back, fields=fields_for_page(game, card), in_decks=in_decks,
            keywords={k: game.keywords[k] for k in card.get("keywords") or [] if k in game.keywords},
            root="../")))
    deck_page = env.get_template("deck.html")
    by_name = {c["name"]: c for c in cards}
    for deck in decks:
        rows = [(by_name[n], count) for n, count in deck["counts"].items() if n in by_name]
        written.append(write_atomic(site / "deck" / f"{deck['slug']}.html", deck_page.render(
            **common, deck=deck, rows=rows, root="../")))
    written += [site / card["image"] for card in cards if card["image"]]
    written += sorted({site / back["image"] for back in backs if back is not None})
    remember(game, out_dir, {"site": written})
    return written


def filter_fields(game: Game) -> list[dict]:
    """Fields worth a filter: the card type, and every field whose values form a short list."""
    out = [{"key": "type", "label": "Card type",
            "values": [{"value": t, "label": ct.label} for t, ct in game.card_types.items()]}]
    seen: dict[str, Spec] = {}
    for card_type in game.card_types.values():
        for name, spec in card_type.fields.items():
            seen.setdefault(name, spec)
    for name, spec in seen.items():
        values = _filter_values(game, name, spec)
        if values and len(values) > 1:
            out.append({"key": name, "label": name.replace("_", " ").capitalize(),
                        "values": [{"value": v, "label": str(v)} for v in values]})
    return out


def _filter_values(game: Game, name: str, spec: Spec) -> list | None:
    present = set()
    for card in game.cards.values():
        value = card.get(name)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, (str, int, bool)):
                present.add(v)
    if isinstance(spec, EnumSpec):
        return [v for v in spec.values if v in present]
    if isinstance(spec, BoolSpec):
        return sorted(present, key=str) if present else None
    if isinstance(spec, IntSpec) and not spec.number:
        return sorted(present) if 1 < len(present) <= MAX_NUMERIC_FILTER else None
    if isinstance(spec, ListSpec) and isinstance(spec.items, (EnumSpec, KeywordSpec)):
        return sorted(present, key=str)
    return None


def numeric_fields(game: Game) -> list[str]:
    names = []
    for card_type in game.card_types.values():
        for name, spec in card_type.fields.items():
            if isinstance(spec, IntSpec) and name not in names:
                names.append(name)
    return names


def _layouts(game: Game) -> Layouts | None:
    """The layouts the card images were drawn with (their bleed, so thumbnails show the card as
    cut; their sizes; the backs the cards take); None for a game without layouts.yaml."""
    if not (game.folder / "layouts.yaml").is_file():
        return None
    from cardgen.render.layout import load_layouts

    return load_layouts(game)


def card_scales(game: Game, layouts: Layouts | None) -> list[float]:
    """Each card's width as a percentage of the widest card's, so that a game whose card types
    differ in size (card.sizes) shows each at its size; 100 for all when they are one size."""
    if layouts is None:
        return [100.0] * len(game.cards)
    widest = max(width for width, _ in layouts.all_sizes())
    return [round(100 * layouts.size_of(card.type)[0] / widest, 2) for card in game.cards.values()]


def _card_data(game: Game, card: Card, out_dir: Path, site: Path, thumbs: _Thumbnails) -> dict:
    image = png_path(out_dir, game, "card", card.name)
    thumb = thumbs.make(image, thumbnail_of(out_dir, "card", card.stem))
    values = {"type": card.type}
    for name, value in card.fields.items():
        if isinstance(value, (str, int, bool)) or (isinstance(value, list) and all(
                isinstance(v, (str, int)) for v in value)):
            values[name] = value
    return {
        "name": card.name, "slug": card.stem, "type": card.type,
        "type_label": game.card_types[card.type].label,
        "image": f"img/{card.stem}.jpg" if thumb else None,
        "full_image": f"../cards/{image.name}" if image.is_file() else None,
        "text": _search_text(card),
        "values": values,
        "summary": _summary(game, card),
    }


def back_picture(layouts: Layouts, card: Card, out_dir: Path) -> tuple[str, Path] | None:
    """The back face `card` takes with no deck given (card_backs.back_face: "NAME", or
    "NAME/CARD" when drawn from the card) and where the render writes its PNG; None when its
    `back_for` fails (the render reports that)."""
    from cardgen.render.card_backs import back_face
    from cardgen.render.layout import LayoutError

    try:
        face = back_face(layouts, card)
    except LayoutError:
        return None
    return face, png_path(out_dir, layouts.game, "back", face)


def _back_data(layouts: Layouts | None, card: Card, out_dir: Path, thumbs: _Thumbnails) -> dict | None:
    """The back shown beside a card's face on its page: a thumbnail (one for all the cards that
    share a back) linking to the full PNG; None when the render drew no back for it."""
    picture = back_picture(layouts, card, out_dir) if layouts is not None else None
    if picture is None:
        return None
    face, image = picture
    thumb = thumbnail_of(out_dir, "back", image.stem)
    if not thumbs.make(image, thumb, entry=cache_entry("back", image)):
        return None
    return {"image": thumb.relative_to(out_dir / "site").as_posix(), "full_image": f"../backs/{image.name}",
            "own": "/" in face}                # ("NAME/CARD": drawn from this card)


class _Thumbnails:
    """The cards' JPEGs, each made again when its card PNG was drawn from other inputs: the PNG's
    key (cardgen.inputs.face_key, which render records in cards/.cache.json) is kept beside the
    JPEG made from it, so the site shows exactly the picture the cards and sheets print. A render
    asked for thumbnails makes them as it draws the cards (and records their keys): the site
    then makes only those it did not (cardgen.render.thumbnail)."""

    def __init__(self, out_dir: Path, site: Path, bleed_mm: float):
        self.drawn = read_record(out_dir / "cards" / ".cache.json")
        self.out_dir, self.folder, self.bleed = out_dir, site / "img", bleed_mm
        self.made = read_record(self.folder / RECORD)
        self.before = dict(self.made)
        self.done: set[str] = set()         # (made or found current in this build)

    def make(self, source: Path, target: Path, entry: str | None = None) -> bool:
        """The thumbnail of one PNG of out/<game> (a card's, or a back's: `entry` is then its
        entry in cards/.cache.json, "back:NAME.png"); False when there is no PNG. A shared back
        is made once, however many cards show it."""
        if not source.is_file():
            return False
        name = thumbnail_name(self.out_dir, target)
        if name in self.done:
            return True
        self.done.add(name)
        key = self.drawn.get(entry or source.name)
        if key is not None and target.is_file() and self.made.get(name) == key:
            return True
        from PIL import Image

        with Image.open(source) as image:
            cut = bleed_pixels(self.bleed, image.info.get("dpi", (300, 300))[0] or 300)
            write_atomic(target, thumbnail_jpeg(image.convert("RGB"), cut))
        self.made[name] = key          # (None: a PNG render did not record, made each time)
        return True

    def save(self) -> None:
        if self.made != self.before:
            write_atomic(self.folder / RECORD, json.dumps(self.made, indent=0, sort_keys=True))


def _search_text(card: Card) -> str:
    parts = [card.name]

    def walk(value):
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(card.fields)
    return re.sub(r"\s+", " ", " ".join(parts)).lower()


def _summary(game: Game, card: Card) -> str:
    """A one-line description for the grid: the type and the card's short number fields."""
    bits = [game.card_types[card.type].label]
    for name, value in card.fields.items():
        if isinstance(value, (int, str)) and not isinstance(value, bool) and len(str(value)) <= 14:
            bits.append(f"{name.replace('_', ' ')} {value}")
        if len(bits) >= 5:
            break
    return " · ".join(bits)


@dataclass(frozen=True)
class FieldValue:
    """A card's field value with its spec, which says how it reads (cardgen/fieldtext.py)."""

    value: object
    spec: object


def fields_for_page(game: Game, card: Card) -> list[tuple[str, FieldValue]]:
    """A card's fields, labelled, in the order its type declares them (its page here, and
    `cardgen serve`'s preview)."""
    specs = game.card_types[card.type].fields
    order = list(specs)
    return [(name.replace("_", " ").capitalize(), FieldValue(card.fields[name], specs.get(name)))
            for name in sorted(card.fields, key=lambda n: order.index(n) if n in order else 99)]


def rich_text(text, game: Game) -> Markup:
    """Card text as HTML: escaped, {icon} as its symbol, **bold** and *italic*."""
    html = str(escape(str(text)))
    icons = html_icons(game, SITE_INK)
    html = re.sub(r"\{([A-Za-z0-9_-]+)\}", lambda m: str(icons.get(m.group(1), m.group(0))), html)
    html = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html)
    html = re.sub(r"\*(.+?)\*", r"<i>\1</i>", html)
    return Markup(html.replace("\n", "<br>"))


def show_value(value, game: Game) -> Markup:
    """Any field value as HTML: a FieldValue as a player reads it on the card (fieldtext.py);
    a bare value with lists joined, records as small tables."""
    if isinstance(value, FieldValue):
        from cardgen.fieldtext import show_field

        return show_field(value.value, value.spec, game, lambda text: rich_text(text, game))
    if isinstance(value, bool):
        return Markup("yes" if value else "no")
    if isinstance(value, list):
        if all(isinstance(v, dict) for v in value):
            return Markup("").join(Markup("<div class='record'>{}</div>").format(show_value(v, game))
                                   for v in value)
        return Markup(", ").join(rich_text(v, game) for v in value)
    if isinstance(value, dict):
        return Markup("").join(Markup("<span class='kv'><b>{}</b> {}</span> ").format(
            str(k).replace("_", " "), show_value(v, game)) for k, v in value.items())
    return rich_text(value, game)


def _decks(game: Game) -> list[dict]:
    from cardgen.model import load_deck
    from cardgen.rules import check_deck

    out, pages, clashes = [], {}, []
    for path in sorted((game.folder / "decks").glob("*.yaml")):
        first = taken_by(pages, deck_stem(path), path)
        if first is not None:
            clashes.append(Issue(path, None, None, f"would share its page (deck/{deck_stem(path)}.html) with "
                                                   f"{first.name}: rename one of the two deck files"))
            continue
        deck = load_deck(path)
        counts: dict[str, int] = {}
        for entry in deck.entries:
            if entry.card is not None and isinstance(entry.count, int):
                counts[entry.name] = counts.get(entry.name, 0) + entry.count
        out.append({"name": deck.name, "slug": deck_stem(path), "counts": counts,
                    "total": sum(counts.values()), "legal": not any(p.is_error for p in check_deck(deck)),
                    "fields": {k: v for k, v in deck.fields.items()}})
    if clashes:
        raise ContentError(clashes)
    return out
