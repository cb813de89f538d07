"""A rulebook says each thing once (issue 25, book length): the glossary points to where a term
is explained, a ruling a chapter's box states is not listed again, a scenario marked `check` is
played but not printed, and a long card list of short columns prints two cards to a row."""

from __future__ import annotations

import shutil

import pytest

from cardgen.model import load_game
from cardgen.paths import content_dir
from cardgen.publish import sections
from cardgen.publish.rulebook import assemble


def _blocks(book, name):
    return [n for c in book.chapters for b in c.blocks if b.name == name for n in b.nodes]


def test_the_glossary_points_to_the_card_anatomy_for_a_field_it_explains():
    book = assemble(load_game("combo-fighter"))
    items = {i["term"]: i for n in _blocks(book, "glossary") for i in n["items"]}
    assert items["Speed"]["text"] is None and "see" in str(items["Speed"]["meta"])
    assert "The cards" in str(items["Speed"]["meta"])
    # a keyword's pointer is a link, not its markup printed as text
    assert "&lt;a" not in str(items["Flip"]["meta"]) and 'href="#' in str(items["Flip"]["meta"])
    # a term explained nowhere else keeps its definition
    assert items["Starting hand"]["text"]


@pytest.mark.parametrize("game_id", ["dojo-duel", "amfibido"])     # (Amfibido's boxes: draft.deal_order...)
def test_a_ruling_stated_by_a_chapter_box_is_not_listed_again(game_id):
    game = load_game(game_id)
    book = assemble(game)
    listed = [str(i["text"]) for n in _blocks(book, "rulings") if n["kind"] == "cited" for i in n["items"]]
    boxed = [r for r in game.rulings if r.box]
    assert boxed and book.ruling_boxes >= {r.box for r in boxed}
    assert not any(str(r.rule)[:40] in text for r in boxed for text in listed)
    assert len(listed) == len(game.rulings) - len(boxed)
    # without the box in the book, the ruling is listed
    alone = sections.rulings(game, None, scenarios=[], boxes=set())
    assert len(alone[0]["items"]) == len(game.rulings)


@pytest.mark.parametrize("name", ["no_such_table", "kicker.no_such_part"])
def test_a_ruling_box_must_name_a_table_with_a_doc_line(tmp_path, name):
    from cardgen.errors import ContentError

    folder = tmp_path / "dd"
    shutil.copytree(content_dir() / "dojo-duel", folder)
    text = (folder / "game.yaml").read_text().replace("box: first_turn", f"box: {name}", 1)
    (folder / "game.yaml").write_text(text)
    try:
        load_game(str(folder))
    except ContentError as exc:
        assert any(name in str(i) and "box" in str(i) for i in exc.issues)
    else:
        raise AssertionError("a ruling box naming no table loaded")


def test_a_check_scenario_is_played_but_not_printed():
    game = load_game("combo-fighter")
    scenarios = sections.load_scenarios(game)
    checks = [s for s in scenarios if s["source"] == "check"]
    assert checks
    printed = {i["title"] for kind in (sections.examples, sections.faq, sections.rulings)
               for n in kind(game, None, scenarios=scenarios) if n["kind"] == "qa" for i in n["items"]}
    assert not printed & {s["title"] for s in checks}


def test_a_long_card_list_of_short_columns_prints_two_cards_to_a_row():
    game = load_game("dojo-duel")
    [table] = sections.card_list(game)
    cards = game.cards_of_type("technique")
    assert "two-up" in table["cls"] and len(table["rows"]) == (len(cards) + 1) // 2
    names = [str(row[0]) for row in table["rows"]] + [str(row[len(row) // 2 + 1]) for row in table["rows"]]
    assert sorted(n for n in names if n) == sorted(f"<b>{c.name}</b>" for c in cards)
