"""Combo Fighter's player aid: what each player needs at the table, from game.yaml tables and the cards
(the game folder's `aids:` hook; see docs/game-format.md)."""

from __future__ import annotations

from cardgen.publish.aid import Aid, AidSection, Markup, human, is_flat, keyword_nodes

BUTTONS = ("triangle", "square", "circle")


def build(aid: Aid):
    t = aid.t
    game = aid.game
    wc = t.get("win_circle")
    if isinstance(wc, dict) and isinstance(wc.get("beats"), dict):
        labels = {k: ct.label for k, ct in game.card_types.items()}
        rows = [[Markup("<b>{}</b>").format(labels.get(a, human(a))), Markup("beats"),
                 Markup("<b>{}</b>").format(labels.get(b, human(b)))] for a, b in wc["beats"].items()]
        nodes = [{"kind": "table", "cls": "circle", "head": [], "rows": rows}]
        if isinstance(wc.get("same_kind"), dict):
            nodes.append({"kind": "fields", "pairs": [(Markup("{} vs {}").format(labels.get(k, k),
                                                                                  labels.get(k, k)),
                                                       aid.r(v)) for k, v in wc["same_kind"].items()]})
        if wc.get("doc"):
            nodes.append({"kind": "note", "text": aid.r(wc["doc"])})
        aid.add("The win circle", nodes, quick=True, cls="win-circle")
    else:
        aid.need("win_circle")
    if isinstance(t.get("round"), list):
        aid.add("A round", [aid.steps(t["round"])], quick=True)
    damage = t.get("damage")
    if isinstance(damage, dict):
        aid.add("Damage", [{"kind": "fields", "pairs": [(human(k), aid.r(v)) for k, v in damage.items()
                                                        if is_flat(v)]}], quick=True)
    if isinstance(t.get("combos"), dict):
        aid.add("Combos", [{"kind": "fields", "pairs": [(human(k), aid.r(v))
                                                        for k, v in t["combos"].items()]}])
    for sheet in game.cards_of_type("character"):
        aid.sections.append(_character_sheet(aid, sheet))
    if game.keywords:
        aid.add("Keywords", keyword_nodes(game), new_page=True)


def _button(aid: Aid, name) -> Markup:
    return aid.r("{" + name + "}") if name in aid.icons else aid.r(name)


def _character_sheet(aid: Aid, sheet) -> AidSection:
    game = aid.game
    deck = sheet.get("deck") or {}
    by_type: dict[str, list] = {}
    for name, count in deck.items():
        card = game.cards.get(name)
        by_type.setdefault(card.type if card else "?", []).append((name, count, card))
    rows = []
    for type_id, entries in by_type.items():
        label = game.card_types[type_id].label if type_id in game.card_types else type_id
        rows.append([Markup('<b class="kind {}">{}</b>').format(type_id, label),
                     aid.r(sum(n for _, n, _ in entries)), Markup(""), Markup(""), Markup(""),
                     Markup("")])
        for name, count, card in entries:
            if card is None:
                continue
            speed = card.get("speed")
            prio = aid.r("{priority}") if card.get("priority") else Markup("")
            rows.append([Markup("{} {}").format(_button(aid, card.get("button")), name), aid.r(count),
                         aid.r(speed) if speed is not None else prio,
                         Markup("{} / {}").format(card.get("opening_damage"), card.get("combo_damage")),
                         Markup(" ").join(_button(aid, b) for b in card.get("combo") or []) or Markup("–"),
                         aid.r(", ".join(card.get("keywords") or []))])
    total = sum(deck.values())
    nodes = [{"kind": "fields", "pairs": [
        ("Style", aid.r(sheet.get("style"))),
        ("Difficulty", aid.r("★" * int(sheet.get("difficulty") or 0))),
        ("Starting hand", aid.r(", ".join(sheet.get("starting_hand") or []))),
    ]}, {"kind": "group", "title": f"Deck composition ({total} cards)", "cls": "sub", "nodes": [
        {"kind": "table", "cls": "data deck", "rows": rows,
         "head": ["Card", "Copies", "Speed", "Damage", "Combo", "Keywords"]}]}]
    combos = sheet.get("signature_combos") or []
    arrow = Markup(" → ")
    nodes.append({"kind": "group", "title": "Signature combos", "cls": "sub", "nodes": [
        {"kind": "table", "cls": "data combos", "head": ["Combo", "Cards, in order", "Basic", "Power"],
         "rows": [[Markup("<b>{}</b>").format(c["name"]), arrow.join(aid.r(x) for x in c["cards"]),
                   aid.r(c["basic_damage"]), aid.r(c.get("power_damage", "–"))] for c in combos]}]})
    token = sheet.get("power_token") or {}
    if token:
        nodes.append({"kind": "group", "title": "Power token", "cls": "sub token", "nodes": [
            {"kind": "table", "cls": "data token", "head": [],
             "rows": [[Markup("<b>A · {}</b>").format(token.get("a_name")), aid.r(token.get("a"))],
                      [Markup("<b>B · {}</b>").format(token.get("b_name")), aid.r(token.get("b"))]]}]})
    staggering = next((c for c in game.cards_of_type("staggering") if c.get("character") == sheet.name),
                      None)
    if staggering:
        nodes.append({"kind": "note", "text": Markup("<b>{}</b> (staggering card): {}").format(
            staggering.name, aid.r(staggering.get("text")))})
    return AidSection(sheet.name, nodes, new_page=True, cls="sheet",
                      subtitle=f"{sheet.get('style', '')} · {sheet.get('origin', '')}")
