"""Rulebooks read back from the PDF: outline, contents pages, glossary, components, glyphs."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from cardgen.model import load_game
from cardgen.paths import fonts_dir
from cardgen.publish import build_rulebook
from cardgen.publish.rulebook import assemble, render_html
from cardgen.publish.sections import components_data
from tests.conftest import ROOT

GUILD = ROOT / "tests" / "data" / "lantern-guild"
OUR_FONTS = ("CG-Body", "CG-Head", "CG-Display", "CG-Symbols")


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    """Each rulebook built once: game ref -> (game, pdf path, pages)."""
    out = tmp_path_factory.mktemp("books")
    built = {}

    def get(ref: str):
        if ref not in built:
            game = load_game(ref)
            result = build_rulebook(game, out / str(len(built)) / game.id)
            built[ref] = (game, result.path, result.pages)
        return built[ref]

    return get


def page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def flat(text: str) -> str:
    """Text as extracted, with hyphenation at line ends and line breaks undone."""
    text = text.replace("\r\n", "\n").replace("\u00ad", "")
    text = re.sub(r"[-\u2010]\n(?=[a-z])", "", text)
    text = re.sub(r"\s+", " ", text)
    return text.replace("\ufffe", "").replace("\u2019", "'")


def outline(path: Path) -> list[tuple[str, int]]:
    reader = PdfReader(str(path))
    return [(item.title, reader.get_destination_page_number(item))
            for item in reader.outline if not isinstance(item, list)]


def chapter_range(path: Path, title: str) -> tuple[int, int]:
    entries = outline(path)
    for i, (name, page) in enumerate(entries):
        if name.lower() == title.lower():
            end = entries[i + 1][1] if i + 1 < len(entries) else len(PdfReader(str(path)).pages) - 1
            return page, end
    raise AssertionError(f"no outline entry {title!r}: {entries}")


@pytest.mark.parametrize("ref", ["dojo-duel", "amiibart", str(GUILD), "bare"])
def test_one_outline_entry_per_chapter(books, bare_guild, ref):
    game, path, _ = books(bare_guild if ref == "bare" else ref)
    book = assemble(game)
    assert [title for title, _ in outline(path)] == [c.title for c in book.chapters]


@pytest.mark.parametrize("ref", ["dojo-duel", "amiibart"])
def test_contents_page_numbers_are_where_the_headings_are(books, ref):
    game, path, _ = books(ref)
    texts = page_texts(path)
    toc = texts[1].replace("\r\n", "\n")
    listed = {}
    for line in toc.splitlines():
        m = re.match(r"^(.*?)[\s.\u2024]*?(\d+)\s*$", line.strip())
        if m and m.group(1).strip(" .") and "Page" not in line:
            listed[m.group(1).strip(" .")] = int(m.group(2))
    chapters = assemble(game).chapters
    assert {c.title for c in chapters} <= set(listed), (listed, [c.title for c in chapters])
    pages = dict(outline(path))
    for chapter in chapters:
        number = listed[chapter.title]
        assert pages[chapter.title] == number - 1, chapter.title      # outline pages are 0-based
        heading = flat(texts[number - 1]).upper()
        assert chapter.title.upper() in heading, (chapter.title, number)


@pytest.fixture(scope="module")
def bare_guild(tmp_path_factory) -> str:
    """The designer's game without its rules/ folder: the book made from game.yaml alone."""
    import shutil

    folder = tmp_path_factory.mktemp("bare") / "lantern-guild"
    shutil.copytree(GUILD, folder)
    shutil.rmtree(folder / "rules")
    return str(folder)


@pytest.mark.parametrize("ref", ["amiibart", "amfibido", "bare"])
def test_every_keyword_is_in_the_glossary(books, bare_guild, ref):
    game, path, _ = books(bare_guild if ref == "bare" else ref)
    if "Glossary" not in [title for title, _ in outline(path)]:
        pytest.skip(f"{ref}'s chapters have no Glossary chapter")
    first, last = chapter_range(path, "Glossary")
    glossary = flat(" ".join(page_texts(path)[first:last + 1]))
    assert game.keywords
    for keyword in game.keywords:
        assert keyword in glossary, keyword


def test_designers_glossary_and_keywords_come_from_game_yaml(books):
    game, path, _ = books(str(GUILD))
    text = flat(" ".join(page_texts(path)))
    for keyword, rule in game.keywords.items():
        assert keyword in text and flat(rule) in text


@pytest.mark.parametrize("ref", ["dojo-duel", "amiibart"])
def test_component_counts_equal_the_card_data(books, ref):
    game, path, _ = books(ref)
    texts = page_texts(path)
    first = next(i for i, t in enumerate(texts) if "Type Made up of" in flat(t))
    text = flat(" ".join(texts[first:first + 2]))     # the table may run onto the next page
    total = sum(card.copies for card in game.cards.values())
    assert f"{total} cards in all" in text
    for row in components_data(game):
        copies = sum(c.copies for c in game.cards_of_type(row["type"]))
        assert row["copies"] == copies
        assert f"{copies} {row['label']}" in text
        assert f"{len(game.cards_of_type(row['type']))} different" in text
        for value, count in row["breakdown"]:
            assert f"{count} {value}" in text
    if ref == "dojo-duel":
        schools = Counter(card.get("school") for card in game.cards.values())
        assert schools == {"mountain": 10, "tiger": 10, "crane": 10, "wind": 10}
        assert "10 mountain, 10 tiger, 10 crane, 10 wind" in text


@cache
def our_cmaps() -> set[int]:
    from fontTools.ttLib import TTFont

    codepoints: set[int] = set()
    for font in fonts_dir().glob("*/*.ttf"):
        codepoints |= set(TTFont(font, lazy=True).getBestCmap())
    return codepoints


@pytest.mark.parametrize("ref", ["dojo-duel", "amiibart", str(GUILD)])
def test_no_missing_glyphs(books, ref):
    _, path, _ = books(ref)
    reader = PdfReader(str(path))
    fonts = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]).split("+", 1)[-1])
    assert fonts and all(f.startswith(OUR_FONTS) for f in fonts), fonts   # no system fallback font
    text = "".join(page_texts(path))
    assert "\ufffd" not in text
    missing = {ch for ch in text if ch not in "\r\n\t\ufffe\u00ad" and ord(ch) not in our_cmaps()}
    assert not missing, missing


def test_the_back_page_is_the_quick_reference_on_one_page(books):
    game, path, pages = books("dojo-duel")
    entries = outline(path)
    assert entries[-1] == ("Quick reference", pages - 1)
    assert "Phases of a round" in flat(page_texts(path)[-1])


def test_dojo_duel_prints_every_ruling_of_its_game_yaml():
    game = load_game("dojo-duel")
    html = render_html(game, assemble(game))
    text = re.sub(r"\s+", " ", html.replace("&#39;", "'").replace("&#34;", '"'))
    docs = [v["doc"] for v in game.tables.values() if isinstance(v, dict) and "doc" in v]
    docs += list(game.tables.get("rulings") or [])
    assert len(docs) >= 10
    for doc in docs:
        assert re.sub(r"\s+", " ", doc) in text, doc[:60]


def test_dojo_duel_chapters_are_its_own(books):
    game, path, _ = books("dojo-duel")
    titles = [t for t, _ in outline(path)]
    assert titles[:5] == ["Welcome to the dojo", "The cards", "Building a deck", "Setting up",
                          "Playing a round"]
    text = flat(" ".join(page_texts(path)))
    assert f"begin the bout with {game.tables['starting_points']} points" in text


def test_designer_game_uses_its_own_chapters_and_back_page(books):
    game, path, pages = books(str(GUILD))
    titles = [t for t, _ in outline(path)]
    # 03-questions.md holds only [[faq]] and the game has no scenarios: it is left out.
    assert titles == ["The fog is coming", "Lighting the streets", "Glossary", "At a glance"]
    assert outline(path)[-1][1] == pages - 1
    assert "Pay oil, play one card." in flat(page_texts(path)[-1])


def test_a_game_without_rules_gets_a_book_from_game_yaml(books, bare_guild):
    game, path, _ = books(bare_guild)
    titles = [t for t, _ in outline(path)]
    assert titles == ["About the game", "Components", "Keywords", "Glossary", "Credits",
                      "Quick reference"]
    text = flat(" ".join(page_texts(path)))
    assert game.meta["summary"] in text


def short_hyphen_fragments(texts: list[str]) -> list[str]:
    """Words broken at a line end leaving fewer than 4 letters on either line."""
    found = []
    for text in texts:
        text = text.replace("\r\n", "\n").replace("\ufffe", "\u2010")
        for m in re.finditer(r"(\w+)\u2010\n(\w+)", text):
            if len(m.group(1)) < 4 or len(m.group(2)) < 4:
                found.append(f"{m.group(1)}-{m.group(2)}")
    return found


@pytest.mark.parametrize("ref", ["adapt", "amfibido"])
def test_no_hyphenation_leaves_a_short_fragment(books, ref):
    _, path, _ = books(ref)
    assert short_hyphen_fragments(page_texts(path)) == []
