"""Publishing reads only the game folder, templates/ and fonts/, escapes content, stays offline."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.publish import build_rulebook
from cardgen.publish.fetcher import ConfinedFetcher, FetchRefused
from cardgen.publish.rulebook import assemble, render_html
from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"


@pytest.fixture
def guild(tmp_path) -> Path:
    """A private copy of the designer's game, safe to add files to."""
    folder = tmp_path / "lantern-guild"
    shutil.copytree(GUILD, folder)
    return folder


def pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


# ---- the fetcher on its own --------------------------------------------------------------------

@pytest.mark.parametrize("url", ["http://example.com/art.png", "https://example.com/a.css",
                                 "data:image/png;base64,iVBORw0KGgo=", "ftp://example.com/x"])
def test_fetcher_refuses_other_schemes(tmp_path, url):
    fetcher = ConfinedFetcher([tmp_path], default_source=tmp_path / "rules" / "01.md")
    with pytest.raises(FetchRefused) as err:
        fetcher.resolve_url(url)
    message = str(err.value.issue)
    assert "refused to load" in message and url in message and "01.md" in message


def test_fetcher_refuses_files_outside_the_allowed_folders(tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    fetcher = ConfinedFetcher([game])
    with pytest.raises(FetchRefused, match="outside the game folder"):
        fetcher.resolve_url("file:///etc/passwd")
    with pytest.raises(FetchRefused, match="outside the game folder"):
        fetcher.resolve_url(f"file://{game}/../../../../../../etc/passwd")
    with pytest.raises(FetchRefused, match="no such file"):
        fetcher.resolve_url((game / "missing.png").as_uri())


def test_fetcher_refuses_a_symlink_pointing_out(tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    (game / "art.png").write_bytes(b"\x89PNG")
    os.symlink("/etc/passwd", game / "sneaky.png")
    fetcher = ConfinedFetcher([game])
    assert fetcher.resolve_url((game / "art.png").as_uri()) == (game / "art.png").resolve()
    with pytest.raises(FetchRefused, match="link to /etc/passwd"):
        fetcher.resolve_url((game / "sneaky.png").as_uri())


def test_fetcher_serves_registered_generated_files_only(tmp_path):
    made = tmp_path / "out" / "anatomy.png"
    made.parent.mkdir()
    made.write_bytes(b"\x89PNG")
    other = tmp_path / "out" / "other.png"
    other.write_bytes(b"\x89PNG")
    fetcher = ConfinedFetcher([tmp_path / "game"], extra_files=[made])
    assert fetcher.resolve_url(made.as_uri()) == made.resolve()
    with pytest.raises(FetchRefused):
        fetcher.resolve_url(other.as_uri())


# ---- whole builds ------------------------------------------------------------------------------

def test_a_web_image_in_a_chapter_is_an_error_naming_the_chapter(guild, tmp_path):
    chapter = guild / "rules" / "05-map.md"
    chapter.write_text("# The map\n\nSee the city:\n\n![map](http://example.com/map.png)\n")
    with pytest.raises(ContentError) as err:
        build_rulebook(load_game(str(guild)), tmp_path / "out")
    message = str(err.value)
    assert "05-map.md:5" in message and "http://example.com/map.png" in message


def test_a_symlinked_image_pointing_out_is_refused(guild, tmp_path):
    os.symlink("/etc/passwd", guild / "map.png")
    (guild / "rules" / "05-map.md").write_text("# The map\n\n![map](map.png)\n")
    with pytest.raises(ContentError, match=r"05-map\.md.*link to /etc/passwd"):
        build_rulebook(load_game(str(guild)), tmp_path / "out")


def test_a_chapter_linked_from_outside_is_refused(guild, tmp_path):
    os.symlink("/etc/passwd", guild / "rules" / "05-secrets.md")
    with pytest.raises(ContentError,
                       match=r"05-secrets\.md: chapter is a link to a file outside the game folder"):
        build_rulebook(load_game(str(guild)), tmp_path / "out")


def test_a_template_reaching_outside_is_stopped(guild, tmp_path):
    override = guild / "templates" / "rulebook" / "cover.html.j2"
    override.parent.mkdir(parents=True)
    override.write_text('<section class="cover"><h1 class="cover-title">{{ game.name }}</h1>'
                        '<img src="file:///etc/passwd"></section>\n')
    with pytest.raises(ContentError, match="refused to load 'file:///etc/passwd'"):
        build_rulebook(load_game(str(guild)), tmp_path / "out")


def test_a_game_can_override_a_template(guild, tmp_path):
    override = guild / "templates" / "rulebook" / "cover.html.j2"
    override.parent.mkdir(parents=True)
    override.write_text('<section class="cover"><h1 class="cover-title">{{ game.name }}</h1>'
                        "<p>Our own cover for {{ game.name }}</p></section>\n")
    result = build_rulebook(load_game(str(guild)), tmp_path / "out")
    assert "Our own cover for Lantern Guild" in pdf_text(result.path)


def test_cli_prints_the_refusal_and_exits_2(guild, tmp_path):
    (guild / "rules" / "05-map.md").write_text("# The map\n\n![map](https://example.com/m.png)\n")
    run = subprocess.run([sys.executable, "-m", "cardgen", "rulebook", str(guild), "--out",
                          str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert "error:" in run.stderr and "05-map.md" in run.stderr and "https://example.com/m.png" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "out" / "lantern-guild" / "rulebook.pdf").exists()


def test_building_never_opens_a_connection(guild, tmp_path, monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("publishing tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    result = build_rulebook(load_game(str(guild)), tmp_path / "out")
    assert result.pages >= 3


# ---- escaping ----------------------------------------------------------------------------------

def test_content_html_is_escaped(guild, tmp_path):
    (guild / "rules" / "05-tricks.md").write_text(
        "# Tricks\n\nA <script>alert(1)</script> and <b>bold</b> & <img src=x onerror=alert(1)>.\n\n"
        "[click](javascript:alert(1)) and [guild](https://example.com/guild)\n\n"
        "<div>raw block</div>\n")
    cards = guild / "cards" / "tricks.yaml"
    cards.write_text(cards.read_text() + '- {name: "Lamp <i>Oil</i>", type: trick, cost: 1, '
                     'district: Market, rarity: common, text: "<script>x()</script> {oil}"}\n')
    game_yaml = guild / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace(
        "Gust: Your opponent puts out one of their lit lamps.",
        'Gust: "Your opponent puts out <em>one</em> of their lit lamps."'))
    game = load_game(str(guild))
    html = render_html(game, assemble(game))
    assert "<script>" not in html and "<b>bold</b>" not in html and "<div>raw" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<em>one</em>" not in html and "&lt;em&gt;one&lt;/em&gt;" in html
    assert "javascript:" not in html.replace("[click](javascript", "")
    assert 'href="https://example.com/guild"' in html
    assert "<img src=x" not in html
    result = build_rulebook(game, tmp_path / "out")
    text = pdf_text(result.path)
    assert "<script>alert(1)</script>" in text and "<b>bold</b>" in text


def test_unknown_placeholder_names_file_and_line(guild, tmp_path):
    (guild / "rules" / "05-oops.md").write_text("# Oops\n\nSome text.\n\n[[componets]]\n")
    with pytest.raises(ContentError, match=r"05-oops\.md:5: unknown placeholder \[\[componets\]\]"):
        build_rulebook(load_game(str(guild)), tmp_path / "out")


def test_unknown_table_value_names_file_and_line(guild, tmp_path):
    (guild / "rules" / "05-oops.md").write_text("# Oops\n\nStart with [[value:points]] points.\n")
    with pytest.raises(ContentError, match=r"05-oops\.md:3: .*tables has no points"):
        build_rulebook(load_game(str(guild)), tmp_path / "out")


@pytest.mark.parametrize("game_id, plant", [
    # a player-count table value (A.D.A.P.T.) and an element name (Amiibart): free-form tables
    ("adapt", lambda t, bad: t["experience"]["per_turn_by_players"].update({2: bad})),
    # (the aid lists the elements the cards use: the planted value is a used element's icon)
    ("amiibart", lambda t, bad: t["element_icons"].update({"Fire": bad})),
])
def test_player_aids_escape_every_table_value(game_id, plant):
    """Issue 20, item 2: the aids printed some table values as raw HTML."""
    from cardgen.publish.aid import aid_sections

    game = load_game(game_id)
    bad = '<h1>boom</h1><a href="javascript:alert(1)">x</a>'
    plant(game.tables, bad)
    html = repr([s.nodes for s in aid_sections(game)[0]])
    assert "&lt;h1&gt;boom" in html and "<h1>" not in html and "javascript:alert(1)\">" not in html


@pytest.mark.parametrize("line", [
    "[[a:" + " " * 20_000 + "x",                  # a placeholder never closed
    "# a" + " " * 20_000 + "#" * 20_000 + " b",   # a first-line heading
])
def test_a_chapter_line_is_parsed_in_linear_time(tmp_path, line):
    """Issue 20, item 3: the chapter patterns backtracked, so one such line of 4,000 spaces took
    19 s and these (20,000) would take hours. Not a speed measurement: a guard against a hang."""
    chapter = tmp_path / "99-hostile.md"
    chapter.write_text(line + "\n\nSome text.\n", encoding="utf-8")
    code = ("import sys, pathlib; from cardgen.publish.chapters import parse_chapter; "
            "p = pathlib.Path(sys.argv[1]); "
            "parse_chapter(p, p.read_text(), lambda k: '', lambda s: s, set())")
    done = subprocess.run([sys.executable, "-c", code, str(chapter)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr


# -- issue 20, item 1: only the game folder's own regular files are read -------------------------

SECRET = "PRIVATE KEY material"


@pytest.fixture
def secret(tmp_path) -> Path:
    path = tmp_path / "id_rsa"
    path.write_text(f"{SECRET}\n")
    return path


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_a_template_linked_out_of_the_folder_is_refused_and_never_printed(guild, secret, tmp_path):
    (guild / "templates" / "rulebook").mkdir(parents=True)
    os.symlink(secret, guild / "templates" / "rulebook" / "cover.html.j2")
    result = _cli("rulebook", guild, "--out", tmp_path / "out")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "cover.html.j2: this template is a link to a file outside the game folder" in result.stderr
    assert SECRET not in result.stdout + result.stderr
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_a_templates_folder_linked_out_is_refused(guild, secret, tmp_path):
    outside = secret.parent / "elsewhere"
    (outside / "rulebook").mkdir(parents=True)
    (outside / "rulebook" / "cover.html.j2").write_text(SECRET)
    os.symlink(outside, guild / "templates")
    result = _cli("rulebook", guild, "--out", tmp_path / "out")
    assert result.returncode == 2 and "outside the game folder" in result.stderr
    assert SECRET not in result.stdout + result.stderr


@pytest.mark.parametrize("where", ["game.yaml", "cards/lamplighters.yaml", "decks/harbour.yaml",
                                   "layouts.yaml"])
def test_yaml_linked_out_of_the_folder_is_refused_without_echoing_it(guild, secret, where):
    target = guild / where
    if not target.exists():
        pytest.skip(f"{where} is not in the test game")
    target.unlink()
    os.symlink(secret, target)
    command = ("validate", target) if where.startswith("decks/") else (
        ("render", guild) if where == "layouts.yaml" else ("info", guild))
    result = _cli(*command)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{where.split('/')[-1]}: this file is a link to a file outside" in result.stderr
    assert SECRET not in result.stdout + result.stderr


def test_a_pipe_among_the_cards_is_refused_without_waiting(guild):
    os.mkfifo(guild / "cards" / "pipe.yaml")
    result = _cli("info", guild)       # (it used to wait forever for a writer)
    assert result.returncode == 2
    assert "pipe.yaml: this file is not a regular file" in result.stderr


def test_a_huge_file_is_refused_before_it_is_read(guild):
    huge = guild / "cards" / "huge.yaml"
    with open(huge, "wb") as handle:
        handle.truncate(64 * 2**30)        # sparse: 64 GB that take no disk, nor memory unless read
    result = _cli("info", guild)
    assert result.returncode == 2 and "huge.yaml: this file is larger than 5 MB" in result.stderr
