"""Amiibart TCG card layouts: they load, every card lays out, and each card type draws its key fields."""

from __future__ import annotations

import pytest

from cardgen.model import load_game
from cardgen.render.display import Rect
from cardgen.render.fonts import load_face
from cardgen.render.layout import layout_back, layout_face, load_layouts
from tests.layout_support import alone, cards_of, plain, runs, squashed

ELEMENT_ICONS = {"Dark": "☾", "Light": "☀", "Fire": "▲", "ELW": "♣", "Magic": "✦", "Weapon": "⚔",
                 "Tech": "⬢", "Tank": "■", "Assassin": "♠", "Specialty": "◆"}


@pytest.fixture(scope="module")
def game():
    return load_game("amiibart")


@pytest.fixture(scope="module")
def layouts(game):
    return load_layouts(game)


@pytest.fixture(scope="module")
def faces(game, layouts):
    return {name: layout_face(layouts, card) for name, card in game.cards.items()}


def stars(face) -> int:
    """Stars in the top-right rating (rules text may mention {star} too, lower down)."""
    return sum(r.text == "★" and r.y < 30 for r in runs(face))


def test_layouts_load_with_every_type_and_a_back(game, layouts):
    assert set(layouts.types) == set(game.card_types)
    assert "default" in layouts.backs
    assert (layouts.width, layouts.height) == (63.5, 88.9)


def test_every_card_lays_out_without_overflow(game, faces):
    # layout_face raises LayoutError on text that does not fit; the fixture built every card.
    assert len(faces) == len(game.cards)
    for name, face in faces.items():
        assert runs(face), name


def test_back_lays_out_with_the_title(layouts):
    back = layout_back(layouts, "default")
    assert any("AMIIBART" in r.text for r in runs(back))
    # The ring shows the ten launch Elements.
    drawn = "".join(r.text for r in runs(back))
    for symbol in ELEMENT_ICONS.values():
        assert symbol in drawn


def test_text_is_readable_and_inside_the_safe_zone(game, layouts, faces):
    s = layouts.safe
    symbols = set(game.icons.values())
    for name, face in faces.items():
        for run in runs(face):
            if run.text not in symbols:   # drawn icons (the star rating) are sized in mm, not text
                assert run.size >= 6.0 - 1e-9, (name, run.text, run.size)
            width = load_face(run.font).width_mm(run.text, run.size)
            assert run.x >= s - 0.05 and run.x + width <= layouts.width - s + 0.05, (name, run.text)
            assert s <= run.y <= layouts.height - s, (name, run.text)



def test_every_glyph_drawn_exists_in_its_font(faces, layouts):
    for name, face in [*faces.items(), ("back", layout_back(layouts, "default"))]:
        for run in runs(face):
            missing = [c for c in run.text if c != " " and not load_face(run.font).has(c)]
            assert not missing, (name, run.text, missing)


def test_frame_takes_the_element_colour(game, layouts, faces):
    for card in game.cards.values():
        if card.type in ("fighter", "spell", "stage"):
            first = faces[card.name].items[0]
            assert isinstance(first, Rect)
            assert first.fill == layouts.colours[card.fields["element"].lower()], card.name
    for element in game.card_types["fighter"].fields["element"].values:
        for suffix in ("", "_dark", "_light", "_faint"):
            assert element.lower() + suffix in layouts.colours


def test_fighters_show_name_types_stats_abilities_and_attacks(game, faces):
    for card in cards_of(game, "fighter"):
        f, face = card.fields, faces[card.name]
        text = squashed(face)
        assert alone(face, card.name), card.name
        assert alone(face, f"{f['set_number']:03d}"), card.name          # set number, top left
        assert plain(" · ".join(f["types"]).upper(), game) in text
        assert alone(face, str(f["attack"])) and alone(face, str(f["health"])), card.name
        assert alone(face, "ATTACK") and alone(face, "HEALTH")
        assert alone(face, f["rarity"].replace("-", " ").upper())
        assert stars(face) == f["stars"], card.name
        assert ELEMENT_ICONS[f["element"]] in text
        for ability in f.get("abilities") or []:
            assert plain(ability["name"], game) in text and plain(ability["text"], game) in text
        for attack in f.get("attacks") or []:
            assert plain(attack["name"], game) in text, (card.name, attack["name"])
            assert "⚡" * attack["energy"] in text
            if attack.get("damage"):
                assert alone(face, str(attack["damage"])), (card.name, attack["name"])
            if attack.get("text"):
                assert plain(attack["text"], game) in text
            for keyword in attack.get("keywords") or []:
                assert keyword in text
        for option in f.get("forge") or []:
            assert plain(option, game) in text
        for keyword in f.get("keywords") or []:
            assert keyword in text, (card.name, keyword)


def test_spells_show_cost_stars_effect_and_hazard_mark(game, faces):
    spells = cards_of(game, "spell")
    assert any(c.fields.get("hazard") for c in spells) and not all(c.fields.get("hazard") for c in spells)
    for card in spells:
        f, face = card.fields, faces[card.name]
        text = squashed(face)
        assert alone(face, card.name) and alone(face, f"{f['set_number']:03d}")
        assert alone(face, str(f["energy"])), card.name
        assert stars(face) == f["stars"], card.name
        assert plain(f["text"], game) in text, card.name
        assert ELEMENT_ICONS[f["element"]] in text
        for option in f.get("forge") or []:
            assert plain(option, game) in text
        for keyword in f.get("keywords") or []:
            assert keyword in text, (card.name, keyword)
        marked = "HAZARD" in text
        assert marked == bool(f.get("hazard")), card.name


def test_stages_show_cost_name_stars_and_effect(game, faces):
    for card in cards_of(game, "stage"):
        f, face = card.fields, faces[card.name]
        text = squashed(face)
        assert alone(face, card.name) and alone(face, "STAGE")
        assert alone(face, str(f["energy"]))
        assert stars(face) == f["stars"]
        assert plain(f["text"], game) in text
        assert f"{f['set_number']:03d}/100" in text


def test_stages_with_a_drawing_in_art_show_it_and_the_others_their_placeholder(game, faces):
    """content/amiibart/art/*.svg: the bundled SVG art, drawn end to end (issue 23)."""
    from cardgen.render.display import Picture

    drawn = {card.name for card in cards_of(game, "stage")
             if any(isinstance(i, Picture) and i.path.endswith(".svg") for i in faces[card.name].items)}
    assert drawn == {"Moonlit Rooftops", "Fire Pit Arena", "Overgrown Courtyard"}


def test_powers_show_slot_mode_and_cost_of_active_ones(game, faces):
    powers = cards_of(game, "power")
    assert {p.fields["mode"] for p in powers} == {"passive", "active"}
    for card in powers:
        f, face = card.fields, faces[card.name]
        text = squashed(face)
        assert alone(face, card.name)
        assert alone(face, f"{f['slot'].upper()} POWER")
        assert f["mode"].upper() in text
        assert plain(f["text"], game) in text
        cost_drawn = alone(face, str(f.get("energy") or 0))
        assert cost_drawn == (f["mode"] == "active"), card.name


def test_tokens_are_marked_as_tokens_with_stats(game, faces):
    for card in cards_of(game, "token"):
        f, face = card.fields, faces[card.name]
        text = squashed(face)
        assert alone(face, "TOKEN") and alone(face, "TOKEN FIGHTER")
        assert alone(face, card.name)
        assert alone(face, str(f["attack"])) and alone(face, str(f["health"]))
        assert stars(face) == 0
        for ability in f.get("abilities") or []:
            assert plain(ability["text"], game) in text
        for attack in f.get("attacks") or []:
            assert plain(attack["name"], game) in text
