"""Dojo Duel's player aid: what each player needs at the table, from game.yaml tables and the cards
(the game folder's `aids:` hook; see docs/game-format.md)."""

from __future__ import annotations

from cardgen.publish.aid import Aid, Markup


def build(aid: Aid):
    t = aid.t
    hand = t.get("hand_size")
    phases = aid.generic_phases()
    if phases is None:
        rows = []
        if "starting_points" in t:
            rows.append(("Setup", Markup("Shuffle your deck; start with {} points.").format(
                t["starting_points"])))
        if aid.doc("first_turn"):
            rows.append(("First Turn", aid.r(aid.doc("first_turn"))))
        draw = Markup("Both players draw up to {} cards.").format(hand) if hand else Markup("")
        if aid.doc("first_draw"):
            draw += Markup(" ") + aid.r(aid.doc("first_draw"))
        rows.append(("Draw", draw))
        rows.append(("Turn, twice", aid.r(aid.doc("turn")) if aid.doc("turn") else aid.need("turn")))
        rows.append(("Kicker", aid.r(aid.doc("kicker")) if aid.doc("kicker") else aid.need("kicker")))
        rows.append(("Round", aid.r(aid.doc("round")) if aid.doc("round") else aid.need("round")))
        rows.append(("Clean", aid.r(aid.doc("recycle")) if aid.doc("recycle") else aid.need("recycle")))
        phases = aid.phase_table([(n, v) for n, v in rows if isinstance(v, Markup)])
    aid.add("Phases of a round", [phases], quick=True)
    end = aid.doc("end")
    if end:
        aid.add("Winning", [{"kind": "text", "text": aid.r(end)}], quick=True)
    # The deck rule of the published game, then the advice (validate warns; the deck stays legal)
    rows = []
    if "deck_size" in t:
        rows.append(("Deck size (rule)", Markup("{} to {} cards, any mix, any number of copies").format(
            t["deck_size"]["min"], t["deck_size"]["max"])))
    if isinstance(t.get("copy_limit"), dict):
        rows.append(("Copies (advice)", Markup("at most {} of a technique").format(
            t["copy_limit"]["max"])))
    if isinstance(t.get("deck_power"), dict):
        rows.append(("Power (advice)", aid.r(t["deck_power"].get("doc"))))
    if isinstance(t.get("deck_balance"), dict):
        rows.append(("Balance (advice)", aid.r(t["deck_balance"].get("doc"))))
    aid.add("Deck building", [{"kind": "fields", "pairs": rows}])
