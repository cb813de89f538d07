"""Amfibido card layouts: they load, every card lays out inside the safe zone, and each card type
draws what its rulebook says is printed on it (belt and numeral, power, creature, bonuses, the
boomerang mark, the action ability with its underlined cost, keywords)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from cardgen.model import load_game
from cardgen.render.display import Ellipse, Polygon, Rect, Run
from cardgen.render.fonts import load_face
from cardgen.render.layout import back_name, layout_back, layout_face, load_layouts
from tests.layout_support import in_box, read_back

GAME = load_game("amfibido")
CARDS = sorted(GAME.cards.values(), key=lambda c: (c.type, c.name))
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}
BELTS = {1: "WHITE", 2: "YELLOW", 3: "RED", 4: "BLACK", 5: "PINK"}

BADGE = (4.0, 4.0, 15.5, 15.5)        # the big badge top left: power or power bonus
KNOT = (26.0, 44.5, 11.5, 9.8)        # the belt's knot with the level numeral
PANEL = (3.4, 21.0, 56.7, 23.9)       # the emblem panel
STRIP = (4.0, 72.2, 55.5, 13.0)       # the action ability strip


@cache
def layouts():
    return load_layouts(GAME)


@cache
def face(name: str):
    return layout_face(layouts(), GAME.cards[name])


def runs(name: str) -> list[Run]:
    return [item for item in face(name).items if isinstance(item, Run)]


def drawn_text(name: str, box=None) -> str:
    return read_back(face(name), box)


def printed(text: str) -> str:
    """Card text as it is printed: icons as their symbols, one space between words."""
    for icon, symbol in GAME.icons.items():
        text = text.replace("{" + icon + "}", symbol)
    return re.sub(r"\s+", " ", text.replace("**", "")).strip()


def colour(name: str):
    return layouts().colours[name]


# -- loading, backs, the safe zone ----------------------------------------------------------------

def test_layouts_load_with_a_layout_per_card_type_and_a_back_per_deck():
    loaded = layouts()
    assert set(loaded.types) == set(GAME.card_types) == {"fighter", "equipment", "action", "sensei"}
    assert (loaded.width, loaded.height) == (63.5, 88.9)
    assert set(loaded.backs) == {"level-1", "level-2", "level-3", "level-4", "level-5", "sensei", "default"}
    for name in loaded.backs:
        assert layout_back(loaded, name).items


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_each_level_back_shows_its_belt_colour_and_numeral(level):
    back = layout_back(layouts(), f"level-{level}")
    texts = [r.text for r in back.items if isinstance(r, Run)]
    assert ROMAN[level] in texts
    assert f"{BELTS[level]} BELT" in texts
    belt_fills = [i for i in back.items if isinstance(i, Rect) and i.fill == colour(f"belt{level}")]
    assert any(r.w > 63.5 for r in belt_fills), "the belt runs across the whole back"


def test_every_card_gets_the_back_of_its_deck():
    for card in CARDS:
        expected = "sensei" if card.type == "sensei" else f"level-{card.fields['level']}"
        assert back_name(layouts(), card) == expected, card.name


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_every_card_lays_out_inside_the_safe_zone_at_a_readable_size(card):
    loaded = layouts()
    s = loaded.safe
    assert runs(card.name)
    for run in runs(card.name):
        font = load_face(run.font)
        width = font.width_mm(run.text, run.size)
        top = run.y - font.ascent * run.size * 0.3528
        bottom = run.y + font.descent * run.size * 0.3528
        assert run.x >= s - 0.05 and run.x + width <= loaded.width - s + 0.05, (card.name, run.text)
        assert top >= s - 0.05 and bottom <= loaded.height - s + 0.05, (card.name, run.text)
        assert run.size >= 6.0 - 1e-9, (card.name, run.text, run.size)


# -- what every levelled card shows ----------------------------------------------------------------

LEVELLED = [c for c in CARDS if c.type != "sensei"]


@pytest.mark.parametrize("card", LEVELLED, ids=lambda c: c.name)
def test_levelled_cards_show_name_belt_and_numeral(card):
    level = card.fields["level"]
    assert card.name in drawn_text(card.name, (3.5, 3.5, 57, 10))
    assert [r.text for r in runs(card.name) if in_box(r, KNOT)] == [ROMAN[level]]
    texts = [r.text for r in runs(card.name)]
    assert f"{BELTS[level]} BELT" in texts
    assert GAME.tables["belts"][level]["rank"].upper() in texts
    band = [i for i in face(card.name).items if isinstance(i, Rect) and i.fill == colour(f"belt{level}")
            and i.w > 63.5]
    assert band, "a belt band in the level's colour runs across the card"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_text_and_keywords_are_drawn(card):
    text = drawn_text(card.name, (3.5, 53.0, 57, 33))
    f = card.fields
    if f.get("text"):
        assert printed(f["text"]) in text
    for keyword in f.get("keywords", []):
        # named in the text (maybe as "knocked out" / "neutralized"), else drawn in bold on its own
        assert keyword in text or keyword.lower()[:5] in text.lower(), (card.name, keyword)
        bold = [r for r in runs(card.name) if keyword in r.text]
        if bold:
            assert any("Bold" in r.font for r in bold), (card.name, keyword)


# -- per type ----------------------------------------------------------------------------------

@pytest.mark.parametrize("card", [c for c in CARDS if c.type == "fighter"], ids=lambda c: c.name)
def test_fighters_show_big_power_and_creature(card):
    f = card.fields
    badge = [r for r in runs(card.name) if in_box(r, BADGE)]
    assert [r.text for r in badge] == [str(f["power"]), "POWER"]
    assert badge[0].size >= 15
    typeline = drawn_text(card.name, (21, 14, 39, 5))
    specialty = GAME.tables["creatures"][f["creature"]]["specialty"].upper()
    assert typeline == f"{f['creature'].upper()} FIGHTER · {specialty}"
    # the creature's emblem: shapes on a panel in the creature's colour
    items = face(card.name).items
    assert any(isinstance(i, Rect) and i.fill == colour(f["creature"]) for i in items)
    shapes = [i for i in items if isinstance(i, (Polygon, Ellipse)) and i.fill == colour("paper")]
    assert len(shapes) >= 3


@pytest.mark.parametrize("card", [c for c in CARDS if c.type == "equipment"], ids=lambda c: c.name)
def test_equipment_shows_its_power_bonus_and_whether_it_is_a_weapon(card):
    f = card.fields
    badge = [r for r in runs(card.name) if in_box(r, BADGE)]
    assert [r.text for r in badge] == [f"+{f['power']}", "POWER"]
    typeline = drawn_text(card.name, (21, 14, 39, 5))
    assert typeline == ("EQUIPMENT · WEAPON" if f.get("weapon") else "EQUIPMENT")
    emblem = [r.text for r in runs(card.name) if in_box(r, PANEL)]
    assert emblem == (["⚔"] if f.get("weapon") else [GAME.icons["power"]])


@pytest.mark.parametrize("card", [c for c in CARDS if c.type == "action"], ids=lambda c: c.name)
def test_actions_show_combo_bonus_and_boomerang_mark(card):
    f = card.fields
    panel = [r.text for r in runs(card.name) if in_box(r, PANEL)]
    typeline = drawn_text(card.name, (4.5, 14, 55, 5))
    if f.get("combo"):
        assert panel[:2] == [f"+{f['bonus']}", "POWER"]
        big = next(r for r in runs(card.name) if r.text == f"+{f['bonus']}")
        assert big.size >= 20
        assert typeline.startswith("COMBO MOVE")
    else:
        assert typeline == "ACTION"
        assert len(panel) == 1 and panel[0] in "↻⇄⊘✸☯"
    mark = [i for i in face(card.name).items if isinstance(i, Ellipse) and i.fill == colour("gold")]
    if f.get("boomerang"):
        assert "BOOMERANG" in panel and typeline == "COMBO MOVE · BOOMERANG"
        assert len(mark) == 1
    else:
        assert "BOOMERANG" not in panel and not mark


@pytest.mark.parametrize("card", [c for c in CARDS if c.type == "sensei"], ids=lambda c: c.name)
def test_sensei_cards_look_distinct(card):
    items = face(card.name).items
    assert items[0].fill == colour("sensei")
    texts = [r.text for r in runs(card.name)]
    assert "S E N S E I" in texts and "☯" in texts
    assert not any(isinstance(i, Rect) and i.w > 63.5 and i.fill in {colour(f"belt{n}") for n in ROMAN}
                   for i in items), "sensei wear no belt"


@pytest.mark.parametrize("card", [c for c in CARDS if c.fields.get("action_ability")], ids=lambda c: c.name)
def test_action_abilities_show_the_icon_the_underlined_cost_and_the_effect(card):
    ability = card.fields["action_ability"]
    strip = [r for r in runs(card.name) if in_box(r, STRIP)]
    assert strip[0].text == GAME.icons["action"]
    cost = ability["cost"][:1].upper() + ability["cost"][1:]
    cost_run = next(r for r in strip if r.text == cost + ":")
    assert printed(ability["text"]) in drawn_text(card.name, STRIP)
    # the underline: a thin rule from the start of the cost to its end, just under its baseline
    width = load_face(cost_run.font).width_mm(cost, cost_run.size)     # the colon is not underlined
    rules = [i for i in face(card.name).items
             if isinstance(i, Rect) and i.h < 0.5 and i.fill == colour("ink")]
    assert len(rules) == 1
    rule = rules[0]
    assert abs(rule.x - cost_run.x) < 0.05 and abs(rule.w - width) < 0.05, (rule, cost_run.x, width)
    assert 0 < rule.y - cost_run.y < 0.8


def test_cards_without_an_action_ability_have_no_strip():
    for card in CARDS:
        if not card.fields.get("action_ability"):
            assert GAME.icons["action"] not in [r.text for r in runs(card.name)], card.name
