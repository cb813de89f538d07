"""Tide Runners' player aid: the turn, and every card's number at a glance."""

from cardgen.publish.aid import Aid


def build(aid: Aid):
    aid.add("Turn", [aid.generic_phases()], quick=True)
    rows = [[card.name, str(card.get("strength") or card.get("push")), aid.game.card_types[card.type].label]
            for card in sorted(aid.game.cards.values(), key=lambda c: c.name)]
    aid.add("The cards", [{"kind": "table", "cls": "data", "head": ["Card", "Number", "Type"],
                           "rows": rows}])
    finish = aid.need("finish_line")
    if finish is not None:
        aid.add("Winning", [{"kind": "text", "text": aid.r(f"The first boat to reach {finish} wins.")}],
                quick=True)
