"""A bundled book speaks to players: no command lines, rules engines, simulators or data-format
notes on its player-facing pages (issue 25). What cardgen checked may be said in the colophon,
which this test leaves out."""

from __future__ import annotations

import html
import re

import pytest

from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.publish import aidsdoc
from cardgen.publish.rulebook import assemble, render_html
from cardgen.publish.sections import components_data

# Words a player's book has no use for: each names the tool, the computer or the data files.
DEVELOPER_WORDS = {
    "cardgen": r"\bcardgen\b",
    "rules engine": r"\brules engine\b|\bthe engine\b|\bengine's\b",
    "simulator": r"\bsimulat(?:or|ed|ion)\b",
    "command-line flag": r"(?<![\w-])--[a-z][a-z-]+",
    "data files": r"\b(?:data|game) files?\b|\.ya?ml\b|\bjson\b",
    "data-format note": r"\(\w+ (?:true|false)\)|->|\{\w+:|\bAbsent means\b|\btrue for\b",
    "seed": r"\b(?:a|the same|random) seed\b|\bseeded\b",
    "code": r"`",
}
PATTERN = re.compile("|".join(f"(?:{p})" for p in DEVELOPER_WORDS.values()), re.I)
COLOPHON = re.compile(r'<(\w+) class="colophon".*?</\1>', re.S)


def player_text(page_html: str) -> str:
    """The text of a book's HTML without its colophon, style, tags and entities."""
    body = page_html.split("</head>", 1)[-1]
    body = COLOPHON.sub(" ", body)
    body = re.sub(r"<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", html.unescape(body))


def developer_passages(text: str) -> list[str]:
    return [text[max(m.start() - 50, 0):m.end() + 50] for m in PATTERN.finditer(text)]


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_the_rulebook_talks_to_players(ref):
    game = load_game(ref)
    found = developer_passages(player_text(render_html(game, assemble(game))))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_the_player_aids_talk_to_players(ref):
    game = load_game(ref)
    found = developer_passages(player_text(aidsdoc.render_html(game)[0]))
    assert not found, "\n".join(found)


def test_the_check_finds_what_it_should():
    text = player_text('<p>Run <code>cardgen validate</code>; the rules engine plays it '
                       '(--variant kids), a Hazard (hazard true).</p>'
                       '<p class="colophon">Made with cardgen</p>')
    assert len(developer_passages(text)) == 4
    assert "Made with" not in text


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_what_cardgen_checked_is_told_in_the_colophon_at_the_end(ref):
    game = load_game(ref)
    page = render_html(game, assemble(game))
    found = COLOPHON.search(page)
    assert found and "rules engine" in found.group(0)
    # after it, only the quick reference on the back page
    assert 'class="chapter back-page"' in page[found.end():]
    assert '<section class="chapter">' not in page[found.end():]


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_the_components_list_says_what_a_number_counts(ref):
    for row in components_data(load_game(ref)):
        for label, _count in row["breakdown"]:
            assert not label.strip().isdigit(), (row["label"], row["breakdown"])


@pytest.mark.parametrize("ref", bundled_game_ids())
def test_the_glossary_points_to_the_keyword_reference_instead_of_repeating_it(ref):
    game = load_game(ref)
    book = assemble(game)
    blocks = [b for c in book.chapters for b in c.blocks]
    glossary = [n for b in blocks if b.name == "glossary" for n in b.nodes]
    if not glossary or not any(b.name == "keywords" for b in blocks):
        pytest.skip("no glossary beside a keyword reference")
    texts = {str(item["text"]) for node in glossary for item in node["items"]}
    keyword_rules = {str(item["text"]) for b in blocks if b.name == "keywords"
                     for node in b.nodes for item in node["items"]}
    assert not texts & keyword_rules


def test_amiibart_aid_lists_only_the_elements_its_cards_use():
    from cardgen.publish.aid import aid_sections

    game = load_game("amiibart")
    section = next(s for s in aid_sections(game)[0] if s.title == "Element icons")
    used = {card.get("element") for card in game.cards.values()} - {None}
    assert len(section.nodes[0]["rows"]) == len(used) == 10
