"""A.D.A.P.T.'s player aid: what each player needs at the table, from game.yaml tables and the cards
(the game folder's `aids:` hook; see docs/game-format.md)."""

from __future__ import annotations

from cardgen.publish.aid import Aid, Markup, human


def build(aid: Aid):
    t = aid.t
    turn = t.get("turn")
    if isinstance(turn, dict):
        aid.add("Your Turn", [aid.steps(turn.get("steps", [])),
                              {"kind": "note", "text": aid.r(turn["doc"])} if turn.get("doc") else None],
                quick=True)
    actions = t.get("actions")
    if isinstance(actions, list):
        aid.add("Action options (take one)", [{"kind": "table", "cls": "data actions", "head": ["Action", ""],
                                               "rows": [[Markup("<b>{}</b>").format(a.get("name")),
                                                         aid.r(a.get("doc"))] for a in actions]}],
                quick=True)
    else:
        aid.need("actions")
    attack = t.get("attack")
    if isinstance(attack, dict):
        pairs = [(human(k), aid.r(attack[k])) for k in ("total", "hit", "tie", "miss") if k in attack]
        aid.add("Attack", [{"kind": "fields", "pairs": pairs}], quick=True)
    rs = t.get("random_selection")
    if isinstance(rs, dict) and isinstance(rs.get("charts"), dict):
        nodes = []
        for players, chart in rs["charts"].items():
            rows = []
            for row in chart:
                lo, hi = row["roll"]
                gain = row.get("gain")
                if gain == "experience":
                    what = Markup("Gain {} {}").format(row.get("amount"), aid.r("{exp}"))
                elif gain == "slot":
                    what = Markup("The card in slot {}").format(row.get("slot"))
                elif gain == "choice":
                    what = Markup("A card of your choice")
                else:
                    what = aid.r(gain)
                rows.append([Markup("{}–{}").format(lo, hi), what])
            nodes.append({"kind": "group", "title": f"{players} players", "cls": "sub chart",
                          "nodes": [{"kind": "table", "cls": "data chart", "head": ["Roll", "Result"],
                                     "rows": rows}]})
        for key in ("dice", "ties", "order"):
            if rs.get(key):
                nodes.append({"kind": "note", "text": Markup("{}: {}").format(human(key), aid.r(rs[key]))})
        if rs.get("doc"):
            nodes.append({"kind": "note", "text": aid.r(rs["doc"])})
        aid.add("Random selection charts", nodes, cls="charts")
    else:
        aid.need("random_selection")
    costs = []
    if isinstance(t.get("body_costs"), dict):
        costs.append({"kind": "group", "title": "Bodies", "cls": "sub chart", "nodes": [
            {"kind": "table", "cls": "data chart", "head": ["Level", "Cost"],
             "rows": [[aid.r(lv), Markup("{} {}").format(c, aid.r("{exp}"))]
                      for lv, c in t["body_costs"].items()]}]})
    else:
        aid.need("body_costs")
    pc = t.get("part_costs")
    if isinstance(pc, dict) and isinstance(pc.get("by_level"), dict):
        costs.append({"kind": "group", "title": "Parts (printed on each card)", "cls": "sub chart",
                      "nodes": [{"kind": "table", "cls": "data chart", "head": ["Level", "Cost"],
                                 "rows": [[aid.r(lv), Markup("{}–{} {}").format(r[0], r[-1],
                                                                                       aid.r("{exp}"))]
                                          for lv, r in pc["by_level"].items()]}]})
    buying = t.get("buying")
    if isinstance(buying, dict) and buying.get("rules"):
        costs.append(aid.steps(buying["rules"], ordered=False))
    aid.add("Buying costs", costs, cls="charts")
    # the numbers by player count before the abilities, which start a page: they fill the
    # foot of the page before instead of a page of their own
    numbers = []
    exp = t.get("experience")
    if isinstance(exp, dict) and isinstance(exp.get("per_turn_by_players"), dict):
        numbers.append(("Experience per Turn", _by_players(exp["per_turn_by_players"])))
    gs = t.get("gene_stream")
    if isinstance(gs, dict) and isinstance(gs.get("slots_by_players"), dict):
        numbers.append(("Gene Stream slots", _by_players(gs["slots_by_players"])))
    wipe = t.get("wipe")
    if isinstance(wipe, dict) and isinstance(wipe.get("bonus"), dict):
        numbers.append(("Wipe bonus", _by_players(wipe["bonus"])))
    if numbers:
        players = list(exp["per_turn_by_players"]) if exp else []
        aid.add("By number of players", [{"kind": "table", "cls": "data players", "head": [""] + [
            f"{p} players" for p in players], "rows": [[Markup("<b>{}</b>").format(n)] + [
                aid.r(row.get(p, "–")) for p in players] for n, row in numbers]}])
    abilities = t.get("abilities")
    if isinstance(abilities, dict):
        kinds = {"PB": aid.r("{passive} Passive"), "SA": aid.r("{action} Action")}
        rows = []
        for name, spec in abilities.items():
            cap = spec.get("cap")
            kind = kinds.get(spec.get("kind"), aid.r(spec.get("kind")))
            rows.append([Markup("<b>{}</b>").format(name), kind,
                         aid.r(cap) if cap is not None else Markup("–"),
                         aid.r(aid.game.keywords.get(name, ""))])
        nodes = [{"kind": "table", "cls": "data abilities", "head": ["Ability", "Kind", "Cap", "Effect"],
                  "rows": rows}]
        rules = t.get("ability_rules")
        if isinstance(rules, dict) and rules.get("stacking"):
            nodes.append({"kind": "note", "text": aid.r(rules["stacking"])})
        if isinstance(rules, dict) and rules.get("caps_doc"):
            nodes.append({"kind": "note", "text": aid.r(rules["caps_doc"])})
        aid.add("Abilities and their caps", nodes, new_page=True)
    else:
        aid.need("abilities")


def _by_players(mapping: dict) -> dict:
    return dict(mapping)
