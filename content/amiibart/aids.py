"""Amiibart TCG's player aid: what each player needs at the table, from game.yaml tables and the cards
(the game folder's `aids:` hook; see docs/game-format.md)."""

from __future__ import annotations

from cardgen.publish.aid import Aid, Markup, keyword_nodes


def build(aid: Aid):
    t = aid.t
    turn = aid.generic_phases()
    nodes = []
    if turn:
        nodes.append(turn)
    else:
        rows = []
        if aid.doc("energy_per_turn"):
            rows.append(("Energy", aid.r(aid.doc("energy_per_turn"))))
        if "fighters_per_turn" in t:
            cost = t.get("fighter_play_cost")
            rows.append(("Fighters", Markup("Play up to {} fighters{}.").format(
                t["fighters_per_turn"], Markup(", {} Energy each").format(cost) if cost else "")))
        if aid.doc("active_powers"):
            rows.append(("Powers", aid.r(aid.doc("active_powers"))))
        if aid.doc("slots"):
            rows.append(("Slots", Markup("{} slots. ").format(t["slots"].get("value", ""))
                         + aid.r(aid.doc("slots"))))
        if aid.doc("opening"):
            rows.append(("Turn one", aid.r(aid.doc("opening"))))
        if aid.doc("stall_turns"):
            rows.append(("Stalling", aid.r(aid.doc("stall_turns"))))
        if rows:
            nodes.append(aid.phase_table(rows))
        aid.missing.append("phases")
    aid.add("Turn structure", nodes, quick=True)
    order = t.get("attack_trigger_order")
    if isinstance(order, dict):
        aid.add("Attack trigger order", [aid.steps(order.get("steps", [])),
                                         {"kind": "note", "text": aid.r(order.get("doc"))}
                                         if order.get("doc") else None], quick=True)
    else:
        aid.need("attack_trigger_order")
    if aid.game.keywords:
        aid.add("Keywords", keyword_nodes(aid.game), quick=True)
    if isinstance(t.get("win_conditions"), list):
        aid.add("How to lose", [aid.steps(t["win_conditions"], ordered=False)], quick=True)
    rows = []
    if "deck_size" in t:
        rows.append(("Deck", Markup("{} cards and {} Powers (one primary, one secondary)").format(
            t["deck_size"], t.get("powers_per_deck", 2))))
    if "max_fighters" in t:
        rows.append(("Fighters", Markup("at most {}").format(t["max_fighters"])))
    if "max_elements" in t:
        rows.append(("Elements", Markup("at most {} (Specialty does not count)").format(t["max_elements"])))
    if isinstance(t.get("copy_limits"), dict):
        rows.append(("Copies by stars", Markup(", ").join(
            Markup("{} {} → {}").format(s, aid.r("{star}"), n) for s, n in t["copy_limits"].items())))
    aid.add("Deck building", [{"kind": "fields", "pairs": rows}] if rows else [])
    if isinstance(t.get("element_icons"), dict):
        used = {card.get("element") for card in aid.game.cards.values()}
        icons = [(k, v) for k, v in t["element_icons"].items() if k != "doc" and k in used]
        aid.add("Element icons", [{"kind": "table", "cls": "data icons", "head": ["", "Element"],
                                   "rows": [[aid.r("{" + v + "}"), aid.r(k)] for k, v in icons]}])
    aid.add("Rulings", [aid.rulings()])
