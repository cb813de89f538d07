"""Amfibido's player aid: what each player needs at the table, from game.yaml tables and the cards
(the game folder's `aids:` hook; see docs/game-format.md)."""

from __future__ import annotations

from cardgen.publish.aid import Aid, Markup, keyword_nodes, to_nodes


def build(aid: Aid):
    t = aid.t
    phases = aid.generic_phases()
    if phases is None:
        aid.need("phases")
    head = []
    if {"dojos", "best_of", "wins_needed"} <= set(t):
        head.append({"kind": "text", "text": Markup(
            "{} dojos per player. Best of {} rounds: the first to {} round wins takes the title.").format(
            t["dojos"], t["best_of"], t["wins_needed"])})
    aid.add("Round order", head + ([phases] if phases else []), quick=True)
    fight = aid.t.get("fight") or aid.t.get("fight_resolution")
    nodes = to_nodes(fight, aid.icons) if fight else []
    if not fight:
        aid.missing.append("fight")
    if aid.game.rulings:
        nodes.append({"kind": "group", "title": "Rulings", "cls": "sub", "nodes": [aid.rulings()]})
    aid.add("Fight resolution", nodes, quick=True)
    draft = t.get("draft")
    if isinstance(draft, dict):
        nodes = []
        if {"deal", "pick", "pass", "pick_from_passed", "discard"} <= set(draft):
            nodes.append({"kind": "text", "text": Markup(
                "Each player is dealt {}; keep {} and pass {}; keep {} of the cards passed to you "
                "and discard {}.").format(draft["deal"], draft["pick"], draft["pass"],
                                          draft["pick_from_passed"], draft["discard"])})
        belts = t.get("belts") or {}
        levels = draft.get("active_levels")
        if isinstance(levels, dict):
            def show(level):
                b = belts.get(level, {})
                return f"{b.get('numeral', level)} {b.get('belt', '')}".strip()

            nodes.append({"kind": "table", "cls": "data chart", "head": ["Round", "Active level decks"],
                          "rows": [[aid.r(r), Markup(", ").join(show(x) for x in lv)]
                                   for r, lv in levels.items()]})
        for key in ("deal_order", "after_round_7", "empty_deck"):
            if draft.get(key):
                nodes.append({"kind": "note", "text": aid.r(draft[key])})
        aid.add("Draft", nodes)
    if isinstance(t.get("belts"), dict):
        aid.add("Belts", to_nodes(t["belts"], aid.icons))
    if isinstance(t.get("creatures"), dict):
        aid.add("Creatures", to_nodes(t["creatures"], aid.icons))
    if aid.game.keywords:
        aid.add("Keywords", keyword_nodes(aid.game), quick=True)
    if isinstance(t.get("terms"), dict):
        aid.add("Terms", to_nodes(t["terms"], aid.icons))
