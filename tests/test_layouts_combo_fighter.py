"""Combo Fighter card layouts: they load, every card lays out, and each kind of card draws its key fields."""

from __future__ import annotations

from functools import cache

import pytest

from cardgen.model import load_game
from cardgen.render.card_backs import back_face, draw_back
from cardgen.render.display import Run
from cardgen.render.fonts import load_face
from cardgen.render.layout import back_name, layout_back, layout_face, load_layouts
from tests.layout_support import in_box, read_back

GAME = load_game("combo-fighter")
CARDS = sorted(GAME.cards.values(), key=lambda c: (c.type, c.name))
FIGHTERS = sorted(c.name for c in CARDS if c.type == "character")


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


def symbol(icon: str) -> str:
    return GAME.icons[icon]


def test_layouts_load_with_a_layout_per_card_type_and_the_backs():
    loaded = layouts()
    assert set(loaded.types) == set(GAME.card_types)
    assert (loaded.width, loaded.height) == (63.5, 88.9)
    assert {"default", "amaya-sol", "noor-halabi", "oskar-brannvik", "teodor-balan"} <= set(loaded.backs)
    for name in set(loaded.backs) - loaded.card_backs:
        assert layout_back(loaded, name).items
    assert loaded.card_backs == {"sheet"}           # the character sheets' other side reads its card


def test_each_fighter_deck_has_its_own_back_and_shared_moves_the_default():
    loaded = layouts()
    for card in CARDS:
        owner = card.fields.get("character")
        expected = owner.lower().replace(" ", "-") if owner else "default"
        if card.type == "character":        # the sheets' own back: never a deck's
            expected = "sheet"
        assert back_name(loaded, card) == expected, card.name
    assert back_name(loaded, GAME.cards["Guard Up"]) == "default"


@pytest.mark.parametrize("fighter", FIGHTERS)
def test_each_character_sheets_other_side_tells_its_fighters_story_and_difficulty(fighter):
    """The published sheets: "One side provides backstory and Character Difficulty." Each sheet's
    back is its own: its name, style, origin, backstory and difficulty, every word at a readable
    size, no text within 3 mm of the trim."""
    card = GAME.cards[fighter]
    loaded = layouts()
    back = draw_back(loaded, back_face(loaded, card))
    text = " ".join(read_back(back).split())
    f = card.fields
    for shown in (fighter, f"{f['style'].upper()} STYLE", "CHARACTER DIFFICULTY",
                  " ".join(f["origin"].split()), " ".join(f["backstory"].split()), "NOT AN ACTION CARD"):
        assert shown in text, (fighter, shown)
    words = {1: "Easy to pick up", 2: "Takes some practice", 3: "Hard to master"}
    assert words[f["difficulty"]] in text
    filled = [e for e in back.items if type(e).__name__ == "Ellipse" and e.fill is not None and e.w > 5]
    assert len(filled) == f["difficulty"]
    for run in [item for item in back.items if isinstance(item, Run)]:
        font = load_face(run.font)
        width = font.width_mm(run.text, run.size)
        top = run.y - font.ascent * run.size * 0.3528
        bottom = run.y + font.descent * run.size * 0.3528
        assert run.x >= 3 and run.x + width <= loaded.width - 3 and top >= 3 and bottom <= loaded.height - 3
        assert run.size >= 6.0 - 1e-9, (fighter, run.text, run.size)


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_every_card_lays_out_inside_the_safe_zone_at_a_readable_size(card):
    loaded = layouts()
    s = loaded.safe
    for run in runs(card.name):
        font = load_face(run.font)
        width = font.width_mm(run.text, run.size)
        top = run.y - font.ascent * run.size * 0.3528
        bottom = run.y + font.descent * run.size * 0.3528
        assert run.x >= s - 0.05 and run.x + width <= loaded.width - s + 0.05, (card.name, run.text)
        assert top >= s - 0.05 and bottom <= loaded.height - s + 0.05, (card.name, run.text)
        assert run.size >= 6.0 - 1e-9, (card.name, run.text, run.size)


@pytest.mark.parametrize("card", [c for c in CARDS if c.type in ("attack", "defense", "footwork")],
                         ids=lambda c: c.name)
def test_action_cards_draw_button_damage_combo_box_and_owner(card):
    f = card.fields
    texts = [r.text for r in runs(card.name)]
    assert card.name in texts
    assert card.type.upper() in texts
    # the button icon, big, in the top right corner
    corner = [r for r in runs(card.name) if in_box(r, (44, 3, 17, 16))]
    assert [r.text for r in corner] == [symbol(f["button"])]
    assert corner[0].size > 15
    # opening damage bottom left, combo damage bottom right (X values as printed)
    assert [r.text for r in runs(card.name) if in_box(r, (3.5, 66, 16, 12))] == [str(f["opening_damage"])]
    assert [r.text for r in runs(card.name) if in_box(r, (44, 66, 16, 12))] == [str(f["combo_damage"])]
    # the combo box holds one icon per button that may follow, in order, or says the combo ends
    box = sorted((r for r in runs(card.name) if in_box(r, (20.5, 70, 22.5, 11))), key=lambda r: r.x)
    if f["combo"]:
        assert [r.text for r in box] == [symbol(b) for b in f["combo"]]
    else:
        assert [r.text for r in box] == ["COMBO", "ENDS"]
    owner = (f.get("character") or "Shared move").upper()
    assert owner in texts
    if f.get("text"):
        assert f["text"] in drawn_text(card.name)
    for keyword in f.get("keywords", []):
        assert keyword in drawn_text(card.name)


@pytest.mark.parametrize("card", [c for c in CARDS if c.type == "attack"], ids=lambda c: c.name)
def test_attacks_draw_their_speed_top_left(card):
    corner = [r.text for r in runs(card.name) if in_box(r, (3.5, 3, 15, 16))]
    assert corner == [str(card.fields["speed"]), "SPEED"]


@pytest.mark.parametrize("card", [c for c in CARDS if c.type in ("defense", "footwork")],
                         ids=lambda c: c.name)
def test_defense_and_footwork_show_the_priority_star_only_when_they_have_it(card):
    corner = [r.text for r in runs(card.name) if in_box(r, (3.5, 3, 15, 16))]
    assert corner == ([symbol("priority"), "PRIORITY"] if card.fields.get("priority") else [])


@pytest.mark.parametrize("name", FIGHTERS)
def test_character_cards_show_style_difficulty_power_token_and_signature_combos(name):
    card = GAME.cards[name]
    f = card.fields
    text = drawn_text(name)
    assert name in text
    assert f"{f['style'].upper()} STYLE" in text
    assert "DIFFICULTY" in text
    # difficulty pips: one filled white disc per level out of three
    pips = [i for i in face(name).items if type(i).__name__ == "Ellipse" and 12 < i.y < 15]
    assert sum(1 for p in pips if p.fill) == f["difficulty"] and len(pips) == 3
    token = f["power_token"]
    assert f"A · {token['a_name'].upper()}" in text and f"B · {token['b_name'].upper()}" in text
    assert token["a"] in text and token["b"] in text
    for combo in f["signature_combos"]:
        assert combo["name"] in text
        assert " › ".join(combo["cards"]) in text
        assert f"{combo['basic_damage']} / {combo.get('power_damage') or '–'}" in text
    assert ", ".join(f["starting_hand"]) in text


@pytest.mark.parametrize("card", [c for c in CARDS if c.type == "staggering"], ids=lambda c: c.name)
def test_staggering_cards_show_title_name_text_and_fighter(card):
    text = drawn_text(card.name)
    assert "STAGGERING" in text and card.name.upper() in text
    assert card.fields["text"] in text
    assert card.fields["character"].upper() in text
