"""The rulebook's table diagrams and covers come from the game's data (issue 25): every bundled
book draws its play area and its setup, with real cards, from game.yaml `play_area`; a designer's
game gets them from its own, names escaped; each cover wears the game's colour and cards."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.publish import build_rulebook
from cardgen.publish.rulebook import assemble, render_html
from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"
FIGURE = r'<figure class="diagram diagram-{}">(.*?)</figure>'


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each bundled book's HTML, built once: game id -> (game, html, out folder)."""
    out = tmp_path_factory.mktemp("diagrams")
    built = {}

    def get(ref: str):
        if ref not in built:
            game = load_game(ref)
            book = assemble(game, out / game.id)
            built[ref] = (game, render_html(game, book), out / game.id)
        return built[ref]

    return get


def figures(html: str, kind: str) -> list[str]:
    return re.findall(FIGURE.format(kind), html, re.S)


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_each_book_draws_its_play_area_with_every_zone_of_its_data(pages, ref):
    game, html, _ = pages(ref)
    (svg,) = figures(html, "play-area")
    area = game.meta["play_area"]
    labels = " ".join(re.findall(r">([^<]*)</text>", svg)).replace("&#39;", "'")   # (a long one in 2 lines)
    for zone in [*(area.get("shared") or []), *(area.get("each") or [])]:
        assert zone["name"] in labels, zone["name"]
    slots = sum(z.get("slots", 1) for z in area.get("shared") or []) + \
        2 * sum(z.get("slots", 1) for z in area.get("each") or [])
    assert svg.count("<rect") >= slots          # a space for every slot of both seats


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_each_book_draws_its_setup_with_real_cards(pages, ref):
    game, html, out = pages(ref)
    (svg,) = figures(html, "setup")
    images = re.findall(r'<image [^>]*href="file://([^"]+)"', svg)
    area = game.meta["play_area"]
    holding = [z for z in area.get("shared") or [] if z.get("setup")] + \
        [z for z in area.get("each") or [] if z.get("setup")] * 2
    assert len(images) >= len(holding) > 0
    for path in images:        # rendered faces of the game's cards, beside the book
        assert Path(path).is_file() and Path(path).is_relative_to(out.resolve())


def test_the_built_pdf_shows_the_diagrams_with_card_pictures(tmp_path):
    game = load_game("dojo-duel")
    result = build_rulebook(game, tmp_path, use_cache=False)
    pdf = pdfium.PdfDocument(str(result.path))
    texts = [page.get_textpage().get_text_range() for page in pdf]
    setup = next(i for i, t in enumerate(texts) if "The table ready to play" in t)
    assert len(list(pdf[setup].get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=5))) >= 6
    assert any("Recycle pile" in t and "Kicker" in t for i, t in enumerate(texts) if i != setup)


def designer_game(tmp_path: Path, play_area: str | None) -> Path:
    folder = tmp_path / "lantern-guild"
    shutil.copytree(GUILD, folder)
    if play_area is not None:
        with open(folder / "game.yaml", "a", encoding="utf-8") as f:
            f.write(play_area)
    (folder / "rules" / "05-the-table.md").write_text("# The table\n\n[[play-area]]\n\n[[setup]]\n")
    return folder


def test_a_designers_play_area_is_drawn_with_its_names_escaped(tmp_path):
    folder = designer_game(tmp_path, "play_area:\n  each:\n    - {name: '<b>Lamp & post</b>', "
                                     "slots: 2, cards: lamplighter, setup: 1}\n"
                                     "    - {name: Fog deck, pile: true, face: down}\n")
    game = load_game(folder)
    html = render_html(game, assemble(game, tmp_path / "out"))
    (svg,) = figures(html, "play-area")
    assert "&lt;b&gt;Lamp &amp; post&lt;/b&gt;" in svg and "<b>" not in svg
    (setup,) = figures(html, "setup")
    assert setup.count("<image ") == 2          # one card in the near seat's zone, one in the far


def test_a_diagram_without_a_play_area_names_the_chapter_line(tmp_path):
    game = load_game(designer_game(tmp_path, None))
    with pytest.raises(ContentError) as err:
        assemble(game, tmp_path / "out")
    issue = err.value.issues[0]
    assert issue.file.name == "05-the-table.md" and issue.line == 3 and "play_area" in issue.message


def test_a_zone_naming_no_card_type_is_an_error(tmp_path):
    game = load_game(designer_game(tmp_path, "play_area:\n  each:\n    - {name: Hand, cards: wizard}\n"))
    with pytest.raises(ContentError, match="no card type or card named 'wizard'"):
        assemble(game, tmp_path / "out")


def test_each_cover_shows_the_games_own_cards_in_its_own_colour(pages):
    accents = {}
    for ref in bundled_game_ids():
        game, html, out = pages(ref)
        cover = re.search(r'<section class="cover">.*?</section>', html, re.S).group(0)
        cards = re.findall(r'<img class="cover-card" src="file://([^"]+)"', cover)
        assert len(cards) == 3 and all(Path(p).is_file() for p in cards), ref
        accents[ref] = re.search(r"\.cover \{ page: cover;[^}]*background: (#[0-9a-f]{6})", html).group(1)
    assert len(set(accents.values())) == len(accents), accents       # no two covers alike


def test_a_worked_example_is_drawn_with_the_cards_its_scenario_puts_on_the_table(pages):
    game, html, _ = pages("dojo-duel")
    (svg,) = figures(html, "example")
    drawn = re.findall(r'<image [^>]*href="file://[^"]*/small-([^"/]+)-\d+\.png"', svg)
    fields = ["Tiger Claw", "Crane Beak Strike", "Granite Palm"]   # scenarios/point-loss.yaml
    hands = ["Drifting Feather", "Feint", "Sidestep"]               # p0's; p1's hand is secret
    for name in fields + hands:
        assert game.cards[name].stem in drawn, name
    assert game.cards["Deep Root Posture"].stem not in drawn        # the far player's hand: backs


@pytest.mark.parametrize("ref, stem, cards", [
    ("amiibart", "01-hazard-before-heal",
     ["Dawn Squire", "Rivet Guard", "Gentle Light", "Withering Curse", "Gloom Bat"]),
    ("adapt", "01-attack-beats-survival", ["Goliath Tigerfish", "Hammerhead Shark"]),
    ("amfibido", "example-3-three-fights", ["Tree Frog", "Eastern Newt", "House Gecko",
                                            "Painted Turtle", "Spectacled Caiman", "Cane Toad"]),
])
def test_an_engine_with_its_own_scenario_form_says_which_zone_holds_which_card(pages, ref, stem, cards):
    """Amiibart writes its scenarios by seat A/B with numbered slots, A.D.A.P.T. as a list of
    Fish, Amfibido as a list of players with their dojos: each engine's table_setup puts the
    cards in the play_area zones, so the book's illustrated example shows them (issue 25)."""
    game, html, _ = pages(ref)
    (svg,) = figures(html, "example")
    drawn = re.findall(r'<image [^>]*href="file://[^"]*/small-([^"/]+)-\d+\.png"', svg)
    for name in cards:
        assert game.cards[name].stem in drawn, name
    from cardgen.publish.diagrams import scenario_state, table_setup
    from cardgen.sim.scenarios import load_scenario

    setup = load_scenario(game.folder / "scenarios" / f"{stem}.yaml").data["setup"]
    state = scenario_state(game, table_setup(game, setup))
    if ref == "adapt":       # the Body, then its parts, on the mat
        assert [c.name for c in state["near", "fish"]] == ["Goliath Tigerfish", "Abyssal Maw"]
    elif ref == "amfibido":  # each dojo's fighter, in dojo order; Tom's hand behind him
        assert [c.name for c in state["far", "dojos"]] == ["Painted Turtle", "Spectacled Caiman", "Cane Toad"]
        assert [c.name for c in state["far", "hand"]] == ["Leopard Frog"]
    else:                    # slots in order, the hand's one Gentle Light
        assert [c.name for c in state["near", "slots"]] == ["Dawn Squire", "Rivet Guard"]
        assert [c.name for c in state["far", "hazards"]] == ["Withering Curse"]
