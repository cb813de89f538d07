"""Generated rulebook sections: computed from the loaded game, never typed by hand.

Each function returns display nodes (see nodes.py). Besides the generic kinds, these add:

    {"kind": "defs", "items": [{"term", "text", "meta"}]}              glossary / keywords
    {"kind": "qa", "items": [{"title", "question", "answer", "source"}]} FAQ and worked examples
    {"kind": "anatomy", "image": url | None, "callouts": [...], "card": name, "type": label}
    {"kind": "cited", "items": [{"text", "cites", "title"?, "meta"?, "cites_label"?}]}
                                          rulings and variants, each with the rulebook's sentence
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from cardgen.errors import ContentError, Issue
from cardgen.model import Game
from cardgen.model.fields import CardRefSpec, EnumSpec, IntSpec
from cardgen.model.tables import doc_of, lookup
from cardgen.publish import anatomy, keywords
from cardgen.publish.aid import aid_sections
from cardgen.publish.icons import html_icons
from cardgen.publish.nodes import human, is_flat, rich, to_nodes

# The fonts a published PDF embeds, for the credits (folder, family, licence).
FONTS = [("crimson-text", "Crimson Text", "SIL Open Font License 1.1"),
         ("barlow-condensed", "Barlow Condensed", "SIL Open Font License 1.1"),
         ("alfa-slab-one", "Alfa Slab One", "SIL Open Font License 1.1"),
         ("dejavu", "DejaVu Sans", "Bitstream Vera / DejaVu licence")]


# ---- components -------------------------------------------------------------------------------

def _group_field(game: Game, type_id: str, cards) -> str | None:
    """The field that best splits a card type for the components list (element, school, level...).

    An enum, card reference or small int field that at least half the cards carry, with 2 to 12
    distinct values; the one with the most distinct values wins, enums before ints.
    """
    best, best_key = None, None
    for name, spec in game.card_types[type_id].fields.items():
        if not isinstance(spec, (EnumSpec, CardRefSpec, IntSpec)):
            continue
        values = [c.get(name) for c in cards if c.get(name) is not None]
        if len(values) * 2 < len(cards):
            continue
        distinct = len(set(values))
        if not 2 <= distinct <= 12:
            continue
        if isinstance(spec, IntSpec) and name not in ("level", "stars", "difficulty"):
            continue
        key = (0 if isinstance(spec, IntSpec) else 1, distinct)
        if best_key is None or key > best_key:
            best, best_key = name, key
    return best


def components_data(game: Game) -> list[dict]:
    """One row per card type: distinct cards, copies in the box, and a breakdown, all counted."""
    rows = []
    for type_id, card_type in game.card_types.items():
        cards = game.cards_of_type(type_id)
        if not cards:
            continue
        by = _group_field(game, type_id, cards)
        breakdown: list[tuple[str, int]] = []
        if by:
            counts: Counter = Counter()
            for card in cards:
                counts[card.get(by)] += card.copies
            order = _value_order(game, type_id, by)
            keys = sorted(counts, key=lambda v: (order.get(v, 999), str(v)))
            breakdown = [(_show_group(by, k), counts[k]) for k in keys]
        rows.append({"type": type_id, "label": card_type.label, "doc": card_type.doc,
                     "distinct": len(cards), "copies": sum(c.copies for c in cards),
                     "by": human(by) if by else None, "breakdown": breakdown,
                     "in_decks": card_type.in_decks})
    return rows


def _value_order(game: Game, type_id: str, field: str) -> dict:
    spec = game.card_types[type_id].fields.get(field)
    if isinstance(spec, EnumSpec):
        return {v: i for i, v in enumerate(spec.values)}
    return {}


def _show_group(field: str, value: Any) -> str:
    """A group's name in the components list: a number says what it counts ("Difficulty 2")."""
    if value is None:
        return "shared"
    if isinstance(value, (int, float)) or field in ("level", "stars"):
        return f"{human(field)} {value}"
    return str(value)


def components(game: Game, arg: str | None = None) -> list[dict]:
    rows = components_data(game)
    total = sum(r["copies"] for r in rows)
    table_rows = []
    for r in rows:
        detail = ", ".join(f"{n} {k}" for k, n in r["breakdown"]) if r["breakdown"] else ""
        name = Markup("<b>{}</b>").format(r["label"])
        if r["doc"]:
            name += Markup('<span class="sub">{}</span>').format(r["doc"])
        table_rows.append([Markup(str(r["copies"])), name,
                           Markup("{} different{}").format(
                               r["distinct"], Markup("<br>") + detail if detail else "")])
    parts = _printed_parts(game)
    head = ["Count" if parts else "Cards", "Type", "Made up of"]
    return [{"kind": "table", "cls": "components", "head": head,
             "rows": table_rows + parts,
             "foot": [Markup(str(total)), Markup("cards in all"), Markup("")]}]


def _printed_parts(game: Game) -> list[list]:
    """A row for each component that is not a card (layouts.yaml `components:`: a mat, a board,
    tokens), which prints with the cards: the book's list is of everything a player cuts out."""
    try:
        from cardgen.render.layout import load_layouts

        parts = load_layouts(game).components
    except (ContentError, OSError):         # (no layouts, or broken ones: `cardgen check` says so)
        return []
    from cardgen.render.components import printed

    rows = []
    for part in parts.values():
        made = printed(part, game)
        if not made:
            continue
        sides = "two-sided" if "back" in part.sides else "one-sided"
        size = f"{part.width:g} × {part.height:g} mm, {sides}"
        if part.each is not None:
            size += f"; one for each {game.card_types[part.each].label}"
        rows.append([Markup(str(len(made))), Markup("<b>{}</b>").format(part.name),
                     Markup("{}").format(size)])
    return rows


# ---- glossary ----------------------------------------------------------------------------------

def glossary(game: Game, arg: str | None = None, explained: dict | None = None) -> list[dict]:
    """Keywords, card types, card fields and the game's own terms, A to Z. A term the book
    already explains elsewhere (`explained`: "keyword:Flip" or "field:yin" -> (chapter title,
    slug)) gets a one-line entry that points there instead of repeating it word for word."""
    explained = explained or {}
    entries: dict[str, dict] = {}
    icons = html_icons(game)

    def add(term, text, meta, key=None):
        if str(term).lower() in entries or not text:
            return
        where = explained.get(key) if key else None
        item = {"term": str(term), "text": rich(text, icons), "meta": meta}
        if where:
            see = Markup('{}, see <a class="see" href="#{}">{}</a>').format(meta, where[1], where[0])
            item = {"term": str(term), "text": None, "meta": see}
        entries[str(term).lower()] = item

    for name, text in game.keywords.items():
        add(name, text, "keyword", f"keyword:{name}")
    for card_type in game.card_types.values():
        add(card_type.label, card_type.doc, "card type")
    terms = game.tables.get("terms") if isinstance(game.tables, dict) else None
    if isinstance(terms, dict):
        for term, text in terms.items():
            if is_flat(text):
                add(human(term), text, "term")
    seen_fields: set[str] = set()
    for card_type in game.card_types.values():
        for name, spec in card_type.fields.items():
            if name in seen_fields or not getattr(spec, "doc", None):
                continue
            seen_fields.add(name)
            add(human(name), spec.doc, "on the cards", f"field:{name}")
    items = [entries[k] for k in sorted(entries)]
    return [{"kind": "defs", "cls": "glossary", "items": items}] if items else []


# ---- scenarios: FAQ, worked examples, rulings ---------------------------------------------------

def load_scenarios(game: Game) -> list[dict]:
    folder = game.folder / "scenarios"
    if not folder.is_dir():
        return []
    from cardgen.sim.scenarios import load_scenario

    out = []
    for path in sorted(folder.glob("*.yaml")):
        data = load_scenario(path).data
        out.append({"title": str(data.get("title", path.stem)), "source": data.get("source", "faq"),
                    "question": data.get("question"), "answer": data.get("answer"),
                    "order": data.get("order", 0), "path": path})
    out.sort(key=lambda s: (s["order"], s["path"].name))
    return out


def _qa(game: Game, scenarios: list[dict], source: str) -> list[dict]:
    icons = html_icons(game)
    items = [{"title": s["title"], "question": rich(s["question"], icons) if s["question"] else None,
              "answer": rich(s["answer"], icons) if s["answer"] else None, "source": s["source"]}
             for s in scenarios if s["source"] == source]
    return [{"kind": "qa", "cls": source, "items": items}] if items else []


def faq(game: Game, arg: str | None = None, scenarios=None) -> list[dict]:
    return _qa(game, load_scenarios(game) if scenarios is None else scenarios, "faq")


def examples(game: Game, arg: str | None = None, scenarios=None) -> list[dict]:
    return _qa(game, load_scenarios(game) if scenarios is None else scenarios, "example")


def rulings(game: Game, arg: str | None = None, scenarios=None, boxes=()) -> list[dict]:
    """game.yaml `rulings:` (or, [[rulings:NAME]], the named table), then the scenarios marked
    `ruling`. The sentence each ruling fills in (`cites`) is not quoted: the chapters state the
    rule in the book's own words, and the quotations repeated it (`cardgen info` lists them).
    A ruling whose `box` is among `boxes`, the [[ruling:TABLE]] boxes the book prints, is left
    out: that box states it where the rule is taught."""
    nodes = []
    if arg:
        value = game.tables.get(arg) if isinstance(game.tables, dict) else None
        if value is None:
            raise KeyError(f"game.yaml tables has no {arg}")
        nodes += to_nodes(value, html_icons(game))
    elif game.rulings:
        nodes.append({"kind": "cited", "cls": "rulings", "items": [
            {"text": rich(r.rule, html_icons(game)), "cites": None} for r in game.rulings
            if not (r.box and r.box in boxes)]})
    return nodes + _qa(game, load_scenarios(game) if scenarios is None else scenarios, "ruling")


def _cites_label(cites: str | None, label: str) -> str:
    """The label before a citation; none before a remark on the rulebook ("The rulebook does not
    say ..."), which is no quotation."""
    return "" if (cites or "").lower().startswith("the rulebook") else label


def variants(game: Game, arg: str | None = None) -> list[dict]:
    """Every variant of game.yaml `variants:`, printed as an optional rule: the rulebook's own
    first, then the house rules, each with the sentence it departs from."""
    order = sorted(game.variants.values(), key=lambda v: v.source != "rulebook")
    items = []
    for v in order:
        whose = "Optional rule of the rulebook" if v.source == "rulebook" else "House rule"
        items.append({"title": v.name, "meta": whose, "text": rich(v.rule, html_icons(game)),
                      "cites": rich(v.cites) if v.cites else None,
                      "cites_label": _cites_label(v.cites, "Departs from" if v.source == "house"
                                                  else "Rulebook")})
    if not items:
        return []
    lead = ("Each of these is played only when the players agree to it before the game; the rules "
            "in the other chapters are the game as published.")
    return [{"kind": "text", "text": Markup(escape(lead))},
            {"kind": "cited", "cls": "variants", "items": items}]


# ---- tables, cards, anatomy, credits ------------------------------------------------------------

def table(game: Game, arg: str | None = None) -> list[dict]:
    if not arg:
        raise KeyError("[[table:NAME]] needs the name of a game.yaml table")
    return to_nodes(lookup(game.tables, arg), html_icons(game))


def ruling(game: Game, arg: str | None = None) -> list[dict]:
    """A table's `doc` line, printed as a ruling box: [[ruling:kicker]]."""
    if not arg:
        raise KeyError("[[ruling:NAME]] needs the name of a game.yaml table with a doc line")
    doc = doc_of(lookup(game.tables, arg))      # (KeyError naming the missing part)
    if not doc:
        raise KeyError(f"game.yaml tables.{arg} has no doc line")
    return [{"kind": "ruling", "text": rich(doc, html_icons(game))}]


def all_tables(game: Game, arg: str | None = None, skip=()) -> list[dict]:
    nodes = []
    for name, value in game.tables.items():
        if name in skip or name == "terms":
            continue
        inner = to_nodes(value, html_icons(game))
        if inner:
            nodes.append({"kind": "group", "title": human(name), "cls": "table-group", "nodes": inner})
    return nodes


def card_list(game: Game, arg: str | None = None) -> list[dict]:
    """Every card of a type (default: the first in-deck type) with its short fields."""
    type_id = arg or next((t for t, ct in game.card_types.items() if ct.in_decks), None)
    if type_id not in game.card_types:
        raise KeyError(f"game.yaml has no card type {arg!r}")
    card_type = game.card_types[type_id]
    cards = game.cards_of_type(type_id)
    cols = [f for f in card_type.fields
            if any(c.get(f) is not None for c in cards)
            and all(is_flat(c.get(f)) and len(str(c.get(f) or "")) <= 24 for c in cards)]
    show_copies = any(c.copies != 1 for c in cards)
    head = ["Card"] + [human(c) for c in cols] + (["Copies"] if show_copies else [])
    icons = html_icons(game)
    rows = [[Markup("<b>{}</b>").format(c.name)] + [rich(c.get(f), icons) for f in cols]
            + ([Markup(str(c.copies))] if show_copies else []) for c in cards]
    if len(head) in TWO_UP_COLUMNS and len(rows) > TWO_UP_MIN_ROWS:
        return [two_up(head, rows)]
    return [{"kind": "table", "cls": "data card-list", "head": head, "rows": rows}]


# A card list of a few short columns prints two cards to a row (the first half of the list down
# the left, the rest down the right), so a set of 40 takes one page, not two.
TWO_UP_COLUMNS = (2, 3, 4)
TWO_UP_MIN_ROWS = 12


def two_up(head: list, rows: list[list]) -> dict:
    half = (len(rows) + 1) // 2
    blank = [Markup("")] * len(head)
    paired = [rows[i] + [Markup("")] + (rows[half + i] if half + i < len(rows) else blank)
              for i in range(half)]
    return {"kind": "table", "cls": f"data card-list two-up two-up-{len(head)}",
            "head": head + [""] + head, "rows": paired}


def decks(game: Game, arg: str | None = None) -> list[dict]:
    """The sample decks in decks/*.yaml: name, size (counted) and the designer's description."""
    from cardgen.model import load_deck

    rows = []
    for path in sorted((game.folder / "decks").glob("*.yaml")):
        deck = load_deck(path, {game.folder.resolve(): game})
        count = sum(n for _, n in deck.counted_entries())
        description = deck.raw.get("description") if isinstance(deck.raw, dict) else None
        rows.append([Markup("<b>{}</b>").format(deck.name), Markup(str(count)),
                     rich(description or "", html_icons(game))])
    if not rows:
        return []
    return [{"kind": "table", "cls": "data decks", "head": ["Deck", "Cards", ""], "rows": rows}]


def credits(game: Game, arg: str | None = None) -> list[dict]:
    pairs = [("Game", rich(game.name)), ("Version", rich(game.meta.get("version", "")))]
    fonts = Markup(", ").join(Markup("{} ({})").format(family, licence) for _, family, licence in FONTS)
    pairs.append(("Typefaces", fonts))
    return [{"kind": "fields", "cls": "credits", "pairs": pairs}, colophon(game)]


def colophon(game: Game) -> dict:
    """The only words of the book about how it was made and what cardgen checked (the rest of
    the book speaks of the game alone): at the end of the credits."""
    lines = ["Made with cardgen. Its lists of cards and terms, tables, rulings and questions are "
             "generated from the same game files as the cards."]
    if "engine" in game.hooks:
        lines.append(f"cardgen's rules engine for {game.name} plays by this book's rules and its "
                     f"{len(game.rulings)} rulings; every worked example and question in it was "
                     "set up and played on that engine, and the printed answer is what it did.")
        played = [v for v in game.variants.values() if v.played]
        if played:
            lines.append("It plays these optional rules when asked: " + "; ".join(
                f"{v.name} (--variant {v.id})" for v in played) + ".")
        unplayed = [v.name for v in game.variants.values() if not v.played]
        if unplayed:
            lines.append("It does not play " + ", ".join(unplayed) + ".")
    if game.deck_checks:
        lines.append("cardgen validate checks a deck file against the deck-building rules and "
                     "names the rule it breaks.")
    if isinstance(game.tables, dict) and isinstance(game.tables.get("pack"), dict):
        lines.append(f"cardgen packs {game.id} --count N --seed S opens packs at the printed odds "
                     "(the same seed, the same packs); --deck FILE writes them into a deck file.")
    return {"kind": "colophon", "title": "Colophon", "items": [rich(line) for line in lines]}


# About how many characters of text fit on one A5 back page at the quick reference's type size.
QUICK_REFERENCE_BUDGET = 3500


def text_size(nodes) -> int:
    """Roughly how much printed text a list of nodes holds (characters, tables padded)."""
    import re

    total = 0
    for node in nodes:
        for key in ("text", "html"):
            if node.get(key):
                total += len(re.sub(r"<[^>]+>", "", str(node[key]))) + 60
        for item in node.get("items") or []:
            if isinstance(item, dict):
                total += sum(len(re.sub(r"<[^>]+>", "", str(v))) for v in item.values() if v) + 60
            else:
                total += len(re.sub(r"<[^>]+>", "", str(item))) + 40
        for row in node.get("rows") or []:
            total += max(sum(len(re.sub(r"<[^>]+>", "", str(c))) for c in row), 60) + 30
        for _, value in node.get("pairs") or []:
            total += len(re.sub(r"<[^>]+>", "", str(value))) + 60
        total += text_size(node.get("nodes") or [])
    return total


def fit_back_page(chosen: list, budget: int) -> list:
    """The quick-reference sections, in order, while they fit one page (the first always goes)."""
    out, used = [], 0
    for section in chosen:
        size = text_size(section.nodes) + 80
        if out and used + size > budget:
            continue
        out.append(section)
        used += size
    return out


GENERATORS = {
    "components": components, "keywords": keywords.keywords, "glossary": glossary, "faq": faq,
    "examples": examples, "rulings": rulings, "variants": variants, "ruling": ruling, "table": table,
    "tables": all_tables, "card-list": card_list, "card-anatomy": anatomy.anatomy, "credits": credits,
    "decks": decks,
}
# Drawn by cardgen.publish.diagrams from game.yaml play_area (rulebook.py fills them).
DIAGRAMS = ("play-area", "setup", "example-table")


def generate(game: Game, name: str, arg: str | None, source: Path | None, line: int | None,
             image: dict | None = None) -> list[dict]:
    """Fill one placeholder; a bad one is a ContentError naming the chapter file and line."""
    if name in ("quick-reference", "aids"):
        chosen = [s for s in aid_sections(game)[0] if s.quick or name == "aids"]
        if name == "quick-reference":
            chosen = fit_back_page(chosen, QUICK_REFERENCE_BUDGET if arg is None else int(arg))
        return [{"kind": "group", "title": s.title, "cls": "aid", "nodes": s.nodes} for s in chosen]
    func = GENERATORS.get(name)
    if func is None:
        known = ", ".join(sorted([*GENERATORS, "quick-reference", "aids", *DIAGRAMS]))
        raise ContentError([Issue(source, line, None, f"unknown placeholder [[{name}]]; known: {known}")])
    try:
        if name == "card-anatomy":
            return anatomy.anatomy(game, arg, image)
        return func(game, arg)
    except KeyError as exc:
        raise ContentError([Issue(source, line, None, f"[[{name}{':' + arg if arg else ''}]]: "
                                                      f"{exc.args[0]}")]) from None
