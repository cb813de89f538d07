"""A.D.A.P.T. card layouts: they load, every card lays out, and each card type draws its key fields."""

from __future__ import annotations

import re

import pytest

from cardgen.model import load_game
from cardgen.render.display import Polygon, Rect
from cardgen.render.fonts import load_face
from cardgen.render.layout import back_name, layout_back, layout_face, load_layouts
from tests.layout_support import alone, cards_of, plain, runs, squashed

STATS = ("ferocity", "survival", "lethality", "health")
WAVE = "≋"
# Where each location sits on the Player Mat: (column, row) of a 3 x 3 grid with the Body in the middle.
MAT = {"special": (0, 0), "dorsal": (1, 0), "horn": (2, 0), "tail": (0, 1), "mouth": (2, 1),
       "organ": (0, 2), "side": (1, 2), "skin": (2, 2)}


@pytest.fixture(scope="module")
def game():
    return load_game("adapt")


@pytest.fixture(scope="module")
def layouts(game):
    return load_layouts(game)


@pytest.fixture(scope="module")
def faces(game, layouts):
    return {name: layout_face(layouts, card) for name, card in game.cards.items()}


def gold_waves(face, layouts) -> int:
    """Gold waves of the Level symbol under the name (the unlit slots are drawn in another colour)."""
    gold = layouts.colours["gold"]
    return sum(r.text == WAVE and r.colour == gold and r.y < 21 for r in runs(face))


def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "−")


def test_layouts_load_with_every_type_and_both_backs(game, layouts):
    assert set(layouts.types) == set(game.card_types) == {"guppy", "body", "part", "status"}
    assert {"default", "aside"} <= set(layouts.backs)
    assert (layouts.width, layouts.height) == (63.5, 88.9)


def test_every_card_lays_out_without_overflow(game, faces):
    # layout_face raises LayoutError on text that does not fit; the fixture built every card.
    assert len(faces) == len(game.cards)
    for name, face in faces.items():
        assert re.sub(r"\s+", "", name) in squashed(face), name


def test_gene_stream_cards_share_a_back_and_set_aside_cards_have_another(game, layouts):
    for card in game.cards.values():
        expected = "aside" if card.type in ("guppy", "status") else "default"
        assert back_name(layouts, card) == expected, card.name
    stream = squashed(layout_back(layouts, "default"))
    aside = squashed(layout_back(layouts, "aside"))
    assert "A.D.A.P.T." in stream and "GENESTREAM" in stream
    assert "A.D.A.P.T." in aside and "GUPPIES·STATUSTRACKERS" in aside
    assert "GUPPIES" not in stream


def test_text_is_readable_and_inside_the_safe_zone(game, layouts, faces):
    s = layouts.safe
    symbols = set(game.icons.values()) | {WAVE}
    backs = [(f"back {n}", layout_back(layouts, n)) for n in layouts.backs]
    for name, face in [*faces.items(), *backs]:
        for run in runs(face):
            if run.text not in symbols and len(run.text) > 1:   # drawn icons are sized in mm
                assert run.size >= 6.0 - 1e-9, (name, run.text, run.size)
            width = load_face(run.font).width_mm(run.text, run.size)
            assert run.x >= s - 0.05 and run.x + width <= layouts.width - s + 0.05, (name, run.text)
            assert s <= run.y <= layouts.height - s, (name, run.text)



def test_every_glyph_drawn_exists_in_its_font(faces, layouts):
    backs = [(f"back {n}", layout_back(layouts, n)) for n in layouts.backs]
    for name, face in [*faces.items(), *backs]:
        for run in runs(face):
            missing = [c for c in run.text if c != " " and not load_face(run.font).has(c)]
            assert not missing, (name, run.text, missing)


def _ability_text(name, value) -> str:
    if value is True:
        return name
    if isinstance(value, dict):
        return name + "".join(f"{effect}{score}" for effect, score in value.items())
    if isinstance(value, list):
        return f"{name}:{','.join(value)}"
    return f"{name}{value}"


def _abilities_drawn(card, face, game, layouts):
    text = squashed(face)
    for ability, value in (card.fields.get("abilities") or {}).items():
        assert re.sub(r"\s+", "", _ability_text(ability, value)) in text, (card.name, ability)
        kind = game.tables["abilities"][ability]
        icon = game.icons["cooldown" if ability == "Cooldown" else
                          "action" if kind["kind"] == "SA" else "passive"]
        assert icon in text, (card.name, ability)
        cap = kind.get("cap")
        if cap and cap < 10:
            assert f"(max{cap})" in text, (card.name, ability)


def test_bodies_show_cost_level_waves_die_stats_and_abilities(game, layouts, faces):
    blue = layouts.colours["body_blue"]
    for card in cards_of(game, "body"):
        f, face = card.fields, faces[card.name]
        assert isinstance(face.items[0], Rect) and face.items[0].fill == blue, card.name  # solid blue border
        assert alone(face, str(f["cost"])) and alone(face, str(f["level"])), card.name
        assert gold_waves(face, layouts) == f["level"], card.name
        assert alone(face, f["attack_die"]) and alone(face, "ATTACK DIE"), card.name
        for stat in STATS:
            assert alone(face, str(f[stat])), (card.name, stat)
        assert alone(face, "BODY")
        _abilities_drawn(card, face, game, layouts)
        if f.get("flavor"):
            assert plain(f["flavor"], game) in squashed(face)


def _centre(points):
    xs, ys = zip(*points, strict=True)
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def test_parts_show_a_gold_location_indicator_on_the_matching_edge_or_corner(game, layouts, faces):
    gold = layouts.colours["gold"]
    parts = cards_of(game, "part")
    assert {c.fields["location"] for c in parts} == set(MAT)
    for card in parts:
        face = faces[card.name]
        column, row = MAT[card.fields["location"]]
        # The tab or corner triangle in the border.
        tabs = [p for p in face.items if isinstance(p, Polygon) and p.fill == gold]
        assert len(tabs) == 1, card.name
        x, y = _centre(tabs[0].points)
        assert column == (0 if x < 15 else 2 if x > 48 else 1), (card.name, x)
        assert row == (0 if y < 22 else 2 if y > 66 else 1), (card.name, y)
        # The same spot lit on the small Player Mat map.
        cells = [r for r in face.items if isinstance(r, Rect) and r.fill == gold and r.w < 8]
        assert len(cells) == 1, card.name
        assert round((cells[0].x - 7.8) / 7.25) == column and round((cells[0].y - 23.3) / 7.25) == row
        assert alone(face, card.fields["location"].upper()), card.name
        assert alone(face, f"PART · {card.fields['location'].upper()}"), card.name


def test_parts_show_cost_level_signed_stats_and_abilities(game, layouts, faces):
    for card in cards_of(game, "part"):
        f, face = card.fields, faces[card.name]
        assert alone(face, str(f["cost"])) and alone(face, str(f["level"])), card.name
        assert gold_waves(face, layouts) == f["level"], card.name
        present = [s for s in STATS if s in f]
        for stat in present:
            assert alone(face, signed(f[stat])), (card.name, stat)
        assert sum(r.text == "–" for r in runs(face)) == 4 - len(present), card.name
        _abilities_drawn(card, face, game, layouts)
        needs = f["level"] - game.tables["adapting"]["part_margin"]
        expected = "AnyFishmayAdaptit." if needs < 1 else f"NeedsaBodyofLevel{needs}+."
        assert expected in squashed(face), card.name
        if not f.get("abilities"):
            assert "Noability" in squashed(face), card.name


def test_guppies_show_their_colour_level_zero_and_stats(game, layouts, faces):
    guppies = cards_of(game, "guppy")
    assert {g.fields["colour"] for g in guppies} == {"amber", "violet", "teal"}
    for card in guppies:
        f, face = card.fields, faces[card.name]
        assert face.items[0].fill == layouts.colours[f["colour"]], card.name
        assert alone(face, f["colour"].upper()) and alone(face, "0")
        assert gold_waves(face, layouts) == 0
        for stat in STATS:
            assert alone(face, str(f[stat])), (card.name, stat)
        text = squashed(face)
        assert "Attack:" in text and "odd" in text and "even" in text


def test_status_trackers_show_name_and_text(game, faces):
    for card in cards_of(game, "status"):
        face = faces[card.name]
        assert alone(face, card.name) and alone(face, "STATUS TRACKER"), card.name
        assert plain(card.fields["text"], game) in squashed(face), card.name
        has_die = "Die" in card.fields["text"]
        assert alone(face, "DIE") == has_die, card.name


def _run_width(run) -> float:
    return load_face(run.font).width_mm(run.text, run.size)


def test_the_attack_die_stays_inside_its_hexagon(game, faces):
    """d20 spilled past the hexagon's sides (13.5 mm across the flats): every die is centred on
    it and at most 11 mm wide."""
    for card in cards_of(game, "body"):
        [die] = [r for r in runs(faces[card.name]) if r.text == card.fields["attack_die"]]
        width = _run_width(die)
        assert width <= 11.0, (card.name, width)
        assert die.x + width / 2 == pytest.approx(31.75, abs=0.4), card.name


def test_an_abilitys_dash_follows_its_name_after_one_space(game, faces):
    """A no-break space keeps the reminder's dash off the start of a line; it used to come on top
    of the folded line's space, a double gap ('Sneaky  — Gain')."""
    for name in ("Clownfish",):                 # a Body with an uncapped ability: Sneaky
        items = runs(faces[name])
        i = next(i for i, r in enumerate(items) if r.text == "Sneaky")
        bold, rest = items[i], items[i + 1]
        gap = rest.x - (bold.x + _run_width(bold))
        assert rest.text.startswith("\u00a0—")
        assert gap == pytest.approx(0.0, abs=0.05), gap       # before: a whole space (~0.7 mm)
