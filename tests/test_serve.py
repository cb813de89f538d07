"""`cardgen serve`: the page follows the builds in a real browser, shows mistakes as the command
line prints them, and serves nothing but the game's outputs."""

from __future__ import annotations

import http.client
import os
import shutil
import subprocess
import sys
import time

import pytest

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.scaffold import new_game
from cardgen.serve.server import PreviewServer, out_file
from tests.browser import Served, chromium_page, needs_browser
from tests.conftest import ROOT

FORAGER_TEXT = "When you play this, look at the top card of your deck. You may put it on the bottom."


def cli_errors(folder, cwd) -> list[str]:
    """The error lines `cardgen info` prints for the game folder (exit 2)."""
    info = subprocess.run([sys.executable, "-m", "cardgen", "info", str(folder)], capture_output=True,
                          text=True, cwd=cwd, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert info.returncode == 2, info.stdout + info.stderr
    return info.stderr.splitlines()


@needs_browser
def test_the_page_follows_saves_shows_mistakes_and_keeps_the_last_good_cards(tmp_path):
    from playwright.sync_api import expect

    folder = tmp_path / "game"
    new_game(folder, "Serve Test")
    cards = folder / "cards" / "bees.yaml"
    good = cards.read_text()
    with Served(folder, tmp_path / "out", tmp_path) as served, chromium_page() as page:
        page.goto(served.url)
        forager = page.locator("#card-forager")
        expect(page.locator("#status .state.ok")).to_contain_text("all good", timeout=120_000)
        expect(forager.locator(".fields")).to_contain_text(FORAGER_TEXT)
        picture = forager.locator("img.face")
        old_picture = picture.get_attribute("src")
        assert picture.evaluate("img => img.complete && img.naturalWidth > 600")
        back = forager.locator("img.back")          # (the game's one back, beside every face)
        assert back.get_attribute("src").startswith("/out/backs/default.png?v=")
        back.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 600", arg=back.element_handle())
        for link in ("proxies-letter.pdf", "proxies-a4.pdf", "rulebook.pdf", "player-aids.pdf"):
            assert page.locator(f"#prints a[href^='/out/{link}?v=']").count() == 1, link
        expect(page.locator("#matches .summary")).to_contain_text("500 matches")

        # a saved card text is in the page within 2 s, and its new face follows
        cards.write_text(good.replace(FORAGER_TEXT, "Look at the top two cards of your deck."))
        expect(forager.locator(".fields")).to_contain_text("Look at the top two cards", timeout=2_000)
        expect(picture).not_to_have_attribute("src", old_picture, timeout=30_000)
        page.wait_for_function("img => img.complete && img.naturalWidth > 600", arg=picture.element_handle())

        # a bad field: the command line's line, with the last good cards below it
        cards.write_text(good.replace("honey: 2\n", "honey: 9\n", 1))
        [bad_field] = cli_errors(folder, tmp_path)
        assert bad_field == "error: game/cards/bees.yaml:9: honey: expected 0-4, got 9"
        expect(page.locator("#problems")).to_contain_text(bad_field, timeout=10_000)
        expect(page.locator("#problems")).to_contain_text("the cards below are those of the last build")
        expect(forager.locator(".fields")).to_contain_text("Look at the top two cards")
        assert page.locator("#cards figure.card").count() == 8
        # a YAML mistake: its file and line
        cards.write_text(good + "  - name: [Wasp\n")
        [yaml_error] = cli_errors(folder, tmp_path)
        assert yaml_error.startswith("error: game/cards/bees.yaml:25: YAML syntax error: ")
        expect(page.locator("#problems")).to_contain_text(yaml_error, timeout=10_000)
        expect(page.locator("#problems")).not_to_contain_text(bad_field)

        # fixed: no problems, the new cards
        cards.write_text(good.replace(FORAGER_TEXT, "Look at the top three cards of your deck."))
        expect(forager.locator(".fields")).to_contain_text("Look at the top three cards", timeout=10_000)
        expect(page.locator("#problems")).to_be_empty()
        expect(page.locator("#status .state.ok")).to_contain_text("all good", timeout=60_000)
        expect(picture).to_be_visible()
    assert served.returncode == 130, served.stderr
    assert served.stderr == "stopped\n"


# -- what the server gives out ------------------------------------------------------------------

@pytest.fixture
def out_dir(tmp_path):
    out = tmp_path / "out" / "game"
    (out / "cards").mkdir(parents=True)
    (out / "cards" / "fire.png").write_bytes(b"\x89PNG picture")
    (out / "report.txt").write_text("report")
    (out / ".outputs.json").write_text("{}")
    (tmp_path / "game.yaml").write_text("secret: the game folder")
    (tmp_path / "out" / "other.txt").write_text("beside the game's outputs")
    (out / "cards" / "link.png").symlink_to(tmp_path / "game.yaml")
    os.mkfifo(out / "cards" / "pipe.png")
    return out


def test_only_plain_files_inside_the_games_out_folder_are_served(out_dir):
    assert out_file(str(out_dir), "cards/fire.png") == b"\x89PNG picture"
    assert out_file(str(out_dir), "report.txt") == b"report"
    for rel in ("../game.yaml", "../../game.yaml", "cards/../../other.txt", "../other.txt", "/etc/passwd",
                "cards\\..\\..\\game.yaml", "cards", "", ".outputs.json", "cards/link.png",
                "cards/pipe.png", "cards/fire.png\0.txt", "cards/missing.png"):
        assert out_file(str(out_dir), rel) is None, rel
    assert out_file(None, "report.txt") is None         # (no game loaded yet)


def get(port: int, path: str, host: str | None = None) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)      # (the path exactly as given)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        connection.endheaders()
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_the_server_answers_its_page_and_the_games_files_only(out_dir):
    server = PreviewServer(0)
    port = server.httpd.server_port
    try:
        server.start()
        server.publish({"version": 1, "title": "Fire & <Ice>", "out": str(out_dir),
                        "sections": {"cards": "<p>the cards</p>"}})
        # the state reaches the server's process through a pipe: until then the page says "starting"
        deadline = time.monotonic() + 5
        while True:
            status, headers, body = get(port, "/")
            if b"starting" not in body or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        assert status == 200 and "script-src 'self'" in headers["Content-Security-Policy"]
        assert b"<title>Fire &amp; &lt;Ice&gt;</title>" in body
        assert b'<section id="cards"><p>the cards</p>' in body
        assert get(port, "/out/cards/fire.png?v=1-2")[2] == b"\x89PNG picture"
        assert get(port, "/out/cards/fire.png")[1]["Content-Type"] == "image/png"
        assert get(port, "/preview.js")[0] == 200
        for path in ("/out/../game.yaml", "/out/%2e%2e/game.yaml", "/out/cards/%2e%2e/%2e%2e/game.yaml",
                     "/out/..%2f..%2fgame.yaml", "/out/%2fetc%2fpasswd", "/out//etc/passwd", "/out/",
                     "/out/cards/", "/out/cards", "/out/.outputs.json", "/out/cards/link.png",
                     "/../game.yaml", "/game.yaml", "/templates/serve/page.html", "/preview.js/../page.html"):
            status, _, body = get(port, path)
            assert status == 404 and b"secret" not in body, path
        # another name for this address (a web page elsewhere, by DNS rebinding) is refused
        assert get(port, "/", host=f"attacker.example:{port}")[0] == 403
        assert get(port, "/out/report.txt", host=f"localhost:{port}")[0] == 200
    finally:
        server.stop()
    assert server.process.exitcode is not None


def test_a_port_in_use_is_said_before_anything_is_built():
    first = PreviewServer(0)
    try:
        with pytest.raises(ContentError, match=r"--port: \d+: Address already in use; choose another port"):
            PreviewServer(first.httpd.server_port)
    finally:
        first.stop()


def test_card_text_in_the_page_is_escaped(tmp_path):
    from cardgen.model import load_game
    from cardgen.serve.page import Preview

    folder = tmp_path / "game"
    new_game(folder, "Escape Test")
    cards = folder / "cards" / "bees.yaml"
    cards.write_text(cards.read_text().replace(FORAGER_TEXT, "<script>alert(1)</script> **bold**"))
    published = []
    preview = Preview(tmp_path / "out", published.append)
    from cardgen.build import GameBuild

    preview.stage_done(GameBuild(str(folder), game=load_game(folder)))
    html = published[-1]["sections"]["cards"]
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; <b>bold</b>" in html


# -- each card's back beside its face (issue 25, leftover) --------------------------------------------

def _backs_shown(html: str) -> dict[str, str]:
    """card stem -> the address of the back its figure shows."""
    import re

    return dict(re.findall(r'<figure class="card" id="card-([^"]+)">(?:(?!</figure>).)*?'
                           r'<img class="back" src="([^"]+)"', html, re.S))


def test_the_cards_show_their_backs_and_an_edited_back_is_shown_afresh(tmp_path):
    """Driven as `cardgen serve` drives it (watch: build_game, the page rendered after each stage;
    here only the stages up to the cards'): Combo Fighter's sheets show their own story sides, its
    action cards their fighter's shared back; a saved backstory gives that sheet's back a new
    address (drawn again) and leaves the others'; a saved layouts.yaml back is shown as drawn anew."""
    from cardgen.build import build_game
    from cardgen.paths import content_dir
    from cardgen.serve.page import Preview
    from cardgen.watch import stages_for

    folder = tmp_path / "combo-fighter"
    shutil.copytree(content_dir() / "combo-fighter", folder, ignore=shutil.ignore_patterns("out"))
    out = tmp_path / "out" / "combo-fighter"
    published = []
    preview = Preview(tmp_path / "out", published.append)

    def saved(*files) -> dict[str, str]:
        assert all("cards" in stages_for([folder / f], folder) for f in files)   # (watch redraws them)
        build_game(str(folder), tmp_path / "out", ("check", "cards"), stage_done=preview.stage_done)
        return _backs_shown(published[-1]["sections"]["cards"])

    first = saved()
    assert first["amaya-sol"].startswith("/out/backs/sheet-amaya-sol.png?v=")
    assert first["teodor-balan"].startswith("/out/backs/sheet-teodor-balan.png?v=")
    assert first["anchor-drop"].startswith("/out/backs/oskar-brannvik.png?v=")       # (Oskar's attack)
    assert len(first) == len(load_game(folder).cards)

    sheet = folder / "cards" / "amaya-sol" / "sheet.yaml"
    sheet.write_text(sheet.read_text().replace("Amaya grew up", "Amaya Sol grew up"))
    second = saved("cards/amaya-sol/sheet.yaml")
    assert [stem for stem in first if first[stem] != second[stem]] == ["amaya-sol"]

    oskar = (out / "backs" / "oskar-brannvik.png").read_bytes()
    layouts = folder / "layouts.yaml"
    text = layouts.read_text()
    layouts.write_text(text.replace('{text: "Oskar Brannvik", at:', '{text: "Oskar B.", at:', 1))
    third = saved("layouts.yaml")
    assert third["anchor-drop"].startswith("/out/backs/oskar-brannvik.png?v=")
    assert third["anchor-drop"] != second["anchor-drop"]
    assert (out / "backs" / "oskar-brannvik.png").read_bytes() != oskar
