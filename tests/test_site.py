"""The card database site: complete, escaped, and working in a real browser from the file system."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from cardgen.model import load_game
from cardgen.render import render_game
from cardgen.site import build_site, filter_fields
from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# one xdist worker takes the whole module: the site is built once (`dojo_site`), not once a worker
pytestmark = pytest.mark.xdist_group("site")


@pytest.fixture(scope="module")
def dojo_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    game = load_game("dojo-duel")
    render_game(game, out)
    build_site(game, out / game.id)
    return out / game.id / "site", game


def site_data(site: Path) -> dict:
    text = (site / "cards.js").read_text()
    return json.loads(text[text.index("=") + 1:].rstrip().rstrip(";"))


def test_every_card_has_a_page_a_thumbnail_and_a_grid_entry(dojo_site):
    site, game = dojo_site
    data = site_data(site)
    assert sorted(c["name"] for c in data["cards"]) == sorted(game.cards)
    for card in data["cards"]:
        assert (site / "card" / f"{card['slug']}.html").is_file()
        assert (site / card["image"]).is_file()
    assert len(list((site / "deck").glob("*.html"))) == len(list((game.folder / "decks").glob("*.yaml")))


def test_filters_cover_every_short_valued_field():
    for game_id, expected in [("dojo-duel", {"type", "yin", "yang", "school"}),
                              ("amiibart", {"type", "element", "stars", "rarity", "slot", "keywords"}),
                              ("adapt", {"type", "level", "location"}),
                              ("amfibido", {"type", "level", "creature"}),
                              ("combo-fighter", {"type", "button"})]:
        keys = {f["key"] for f in filter_fields(load_game(game_id))}
        assert expected <= keys, (game_id, expected - keys)


def test_content_is_escaped(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(ROOT / "tests" / "data" / "lantern-guild", folder)
    cards = folder / "cards" / "tricks.yaml"
    cards.write_text(cards.read_text().replace("text: Put out a lamp.",
                                               "text: \"<script>alert(1)</script></script> lamp\""))
    game = load_game(folder)
    build_site(game, tmp_path / "out")
    page = (tmp_path / "out" / "site" / "card" / "sudden-draught.html").read_text()
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    assert "</script></script>" not in (tmp_path / "out" / "site" / "cards.js").read_text()


@pytest.mark.skipif(os.environ.get("CARDGEN_SKIP_BROWSER") == "1", reason="CARDGEN_SKIP_BROWSER=1")
def test_search_filter_and_card_page_in_chromium(dojo_site, tmp_path):
    from playwright.sync_api import sync_playwright

    site, game = dojo_site
    assert Path(CHROMIUM).exists(), "Debian's chromium is needed (make test installs it)"
    expected_tiger = sorted(n for n, c in game.cards.items() if c.get("school") == "tiger")
    expected_search = sorted(n for n in expected_tiger if "palm" in n.lower()
                             or "palm" in str(game.cards[n].get("flavour", "")).lower())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto((site / "index.html").as_uri())
            assert page.inner_text("#count") == f"{len(game.cards)} of {len(game.cards)} cards"
            page.select_option("select[data-filter=school]", label="tiger")
            shown = sorted(page.locator(".tile .name").all_inner_texts())
            assert shown == expected_tiger
            page.fill("#search", "palm")
            shown = sorted(page.locator(".tile .name").all_inner_texts())
            assert shown == expected_search and shown
            page.screenshot(path=str(tmp_path / "site.png"))
            page.locator(".tile").first.click()
            page.wait_for_load_state()
            assert page.locator("h1").inner_text() == shown[0]
            assert page.locator(".fields").inner_text().count("\n") >= 3
        finally:
            browser.close()
    assert (tmp_path / "site.png").stat().st_size > 10_000
