"""Player aids: what each table needs during play, built from game.yaml tables and the card data.

`aid_sections(game)` returns (sections, missing): the sections to print, and the table names an aid
would use but the game does not define yet (reported by the build, never invented here). A
section marked `quick` also goes on the rulebook's back page as the quick reference.

Step names ("Draw", "Clean"...) are the only words written here; every number, rule and ruling
comes from the game files, so the aid cannot disagree with the cards or the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from cardgen.model import Game
from cardgen.publish.nodes import human, is_flat, rich, to_nodes
from cardgen.publish.sections import keywords as keyword_nodes


@dataclass
class AidSection:
    title: str
    nodes: list[dict]
    quick: bool = False
    new_page: bool = False
    cls: str = ""
    subtitle: str = ""
    extra: dict = field(default_factory=dict)


class _Aid:
    def __init__(self, game: Game):
        self.game = game
        self.t = game.tables if isinstance(game.tables, dict) else {}
        self.icons = game.icons
        self.sections: list[AidSection] = []
        self.missing: list[str] = []

    def r(self, value) -> Markup:
        return rich(value, self.icons)

    def get(self, name: str, default=None):
        return self.t.get(name, default)

    def need(self, *names: str):
        """The first of these tables that exists; records the first name as missing otherwise."""
        for name in names:
            if name in self.t:
                return self.t[name]
        self.missing.append(names[0])
        return None

    def doc(self, name: str):
        value = self.t.get(name)
        return value.get("doc") if isinstance(value, dict) else None

    def add(self, title, nodes, **kw):
        nodes = [n for n in nodes if n]
        if nodes:
            self.sections.append(AidSection(title, nodes, **kw))

    def steps(self, items, ordered=True):
        return {"kind": "list", "ordered": ordered, "items": [self.r(i) for i in items]}

    def phase_table(self, rows):
        """[(step name, text)] as a two-column steps table."""
        return {"kind": "table", "cls": "phases", "head": [],
                "rows": [[Markup("<b>{}</b>").format(name), text] for name, text in rows if text]}

    def generic_phases(self):
        """tables.phases (a list of {name, doc} or of strings) when a game defines it."""
        phases = self.t.get("phases")
        if isinstance(phases, list):
            if all(isinstance(p, dict) for p in phases):
                return self.phase_table([(p.get("name", ""), self.r(p.get("doc", "")))
                                         for p in phases])
            return self.steps(phases)
        if isinstance(phases, dict):
            return self.phase_table([(human(k), self.r(v)) for k, v in phases.items() if is_flat(v)])
        return None


def aid_sections(game: Game) -> tuple[list[AidSection], list[str]]:
    aid = _Aid(game)
    builder = {"amfibido": _amfibido, "amiibart": _amiibart, "adapt": _adapt,
               "dojo_duel": _dojo_duel, "combo_fighter": _combo_fighter}.get(game.code or "", _generic)
    builder(aid)
    return aid.sections, aid.missing


# ---- a designer's own game -----------------------------------------------------------------------

def _generic(aid: _Aid):
    phases = aid.generic_phases()
    if phases:
        aid.add("Turn", [phases], quick=True)
    numbers = {k: v for k, v in aid.t.items() if k != "phases" and is_flat(v)}
    if numbers:
        aid.add("Numbers to know", [{"kind": "fields", "pairs": [(human(k), aid.r(v))
                                                                 for k, v in numbers.items()]}],
                quick=True)
    if aid.game.keywords:
        aid.add("Keywords", keyword_nodes(aid.game), quick=True)
    for name, value in aid.t.items():
        if name != "phases" and not is_flat(value):
            aid.add(human(name), to_nodes(value, aid.icons))


# ---- Dojo Duel -----------------------------------------------------------------------------------

def _dojo_duel(aid: _Aid):
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
    rows = []
    if "deck_size" in t:
        rows.append(("Deck size", Markup("{} to {} cards").format(t["deck_size"]["min"],
                                                                    t["deck_size"]["max"])))
    if isinstance(t.get("copy_limit"), dict):
        rows.append(("Copies", Markup("at most {} of a technique").format(t["copy_limit"]["max"])))
    if isinstance(t.get("deck_power"), dict):
        rows.append(("Deck power", aid.r(t["deck_power"].get("doc"))))
    if isinstance(t.get("deck_balance"), dict):
        rows.append(("Deck balance", aid.r(t["deck_balance"].get("doc"))))
    aid.add("Deck building", [{"kind": "fields", "pairs": rows}])


# ---- Amfibido ------------------------------------------------------------------------------------

def _amfibido(aid: _Aid):
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
    if isinstance(t.get("rulings"), list):
        nodes.append({"kind": "group", "title": "Rulings", "cls": "sub",
                      "nodes": [aid.steps(t["rulings"], ordered=False)]})
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
                          "rows": [[Markup(str(r)), Markup(", ").join(show(x) for x in lv)]
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


# ---- Amiibart ------------------------------------------------------------------------------------

def _amiibart(aid: _Aid):
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
        icons = [(k, v) for k, v in t["element_icons"].items() if k != "doc"]
        aid.add("Element icons", [{"kind": "table", "cls": "data icons", "head": ["", "Element"],
                                   "rows": [[aid.r("{" + v + "}"), Markup(k)] for k, v in icons]}])
    if isinstance(t.get("rulings"), list):
        aid.add("Rulings", [aid.steps(t["rulings"], ordered=False)])


# ---- A.D.A.P.T. ----------------------------------------------------------------------------------

def _adapt(aid: _Aid):
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
             "rows": [[Markup(str(lv)), Markup("{} {}").format(c, aid.r("{exp}"))]
                      for lv, c in t["body_costs"].items()]}]})
    else:
        aid.need("body_costs")
    pc = t.get("part_costs")
    if isinstance(pc, dict) and isinstance(pc.get("by_level"), dict):
        costs.append({"kind": "group", "title": "Parts (printed on each card)", "cls": "sub chart",
                      "nodes": [{"kind": "table", "cls": "data chart", "head": ["Level", "Cost"],
                                 "rows": [[Markup(str(lv)), Markup("{}–{} {}").format(r[0], r[-1],
                                                                                       aid.r("{exp}"))]
                                          for lv, r in pc["by_level"].items()]}]})
    buying = t.get("buying")
    if isinstance(buying, dict) and buying.get("rules"):
        costs.append(aid.steps(buying["rules"], ordered=False))
    aid.add("Buying costs", costs, cls="charts")
    abilities = t.get("abilities")
    if isinstance(abilities, dict):
        kinds = {"PB": aid.r("{passive} Passive"), "SA": aid.r("{action} Action")}
        rows = []
        for name, spec in abilities.items():
            cap = spec.get("cap")
            kind = kinds.get(spec.get("kind"), aid.r(spec.get("kind")))
            rows.append([Markup("<b>{}</b>").format(name), kind,
                         Markup(str(cap)) if cap is not None else Markup("–"),
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
                Markup(str(row.get(p, "–"))) for p in players] for n, row in numbers]}])


def _by_players(mapping: dict) -> dict:
    return dict(mapping)


# ---- Combo Fighter -------------------------------------------------------------------------------

BUTTONS = ("triangle", "square", "circle")


def _combo_fighter(aid: _Aid):
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


def _button(aid: _Aid, name) -> Markup:
    return aid.r("{" + name + "}") if name in aid.icons else aid.r(name)


def _character_sheet(aid: _Aid, sheet) -> AidSection:
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
                     Markup(str(sum(n for _, n, _ in entries))), Markup(""), Markup(""), Markup(""),
                     Markup("")])
        for name, count, card in entries:
            if card is None:
                continue
            speed = card.get("speed")
            prio = aid.r("{priority}") if card.get("priority") else Markup("")
            rows.append([Markup("{} {}").format(_button(aid, card.get("button")), name), Markup(str(count)),
                         Markup(str(speed)) if speed is not None else prio,
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
                   Markup(str(c["basic_damage"])),
                   Markup(str(c.get("power_damage", "–")))] for c in combos]}]})
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
