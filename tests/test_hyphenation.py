"""Long words on cards: shrinking comes first; hyphenation (Pyphen, the game's language, 4 letters
a side, words of 8 or more as in the rulebooks) only when the text would not fit otherwise."""

from __future__ import annotations

import pytest

from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.render.display import Run
from cardgen.render.fonts import FontBook
from cardgen.render.hyphenate import break_points
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.text import Overflow, Style, fit_text
from tests.test_text_markup import copy_of_dojo

BOOK = FontBook()
TEXT = "The Switcheroo transformation neutralizes everything underneath."


def lines(runs) -> list[str]:
    by_line: dict[float, list[str]] = {}
    for run in runs:
        if isinstance(run, Run):
            by_line.setdefault(round(run.y, 3), []).append(run.text)
    return [" ".join(parts) for _y, parts in sorted(by_line.items())]


def test_a_text_that_fits_by_shrinking_is_not_hyphenated():
    runs = fit_text(TEXT, (0, 0, 16, 40), Style(size=9, min_size=6), BOOK, {}, [], "en")
    assert not any(line.endswith("-") for line in lines(runs))
    assert runs[0].size < 9


def test_a_word_wider_than_the_box_at_the_smallest_size_is_hyphenated():
    style = Style(size=9, min_size=8)
    with pytest.raises(Overflow):
        fit_text(TEXT, (0, 0, 14, 30), style, BOOK, {}, [])
    runs = fit_text(TEXT, (0, 0, 14, 30), style, BOOK, {}, [], "en")
    set_lines = lines(runs)
    assert any(line.endswith("-") for line in set_lines)
    assert "".join(line.removesuffix("-") if line.endswith("-") else line + " "
                   for line in set_lines).strip() == TEXT
    for line in set_lines:            # at least 4 letters either side of every break
        if line.endswith("-"):
            assert len(line.split()[-1]) - 1 >= 4
    assert all(run.x + BOOK.face("Barlow Condensed").width_mm(run.text, run.size) <= 14 for run in runs)


def test_break_points_follow_the_rulebooks_limits():
    assert break_points("transformation", "en") == (10, 9, 5)     # trans-for-ma-tion, last first
    assert break_points("Switcheroo,", "en") == (6,)
    assert break_points("hyphens", "en") == ()                     # under 8 letters
    assert break_points("Eindhoven's", "en") == ()                 # an apostrophe inside
    assert break_points("Verwandlung", "de") != break_points("Verwandlung", "xx-unknown") == ()


@pytest.fixture
def dojo(tmp_path):
    return copy_of_dojo(tmp_path)


def test_a_card_is_hyphenated_in_its_game_language(dojo):
    cards = dojo / "cards" / "tiger.yaml"
    word = "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz"
    cards.write_text(cards.read_text().replace("The tiger does not leap twice.", f"{word}."))
    (dojo / "game.yaml").write_text((dojo / "game.yaml").read_text() + "language: de\n")
    game = load_game(dojo)
    face = layout_face(load_layouts(game), game.cards["Pouncing Strike"])
    heads = [r.text for r in face.items if isinstance(r, Run) and r.text.endswith("-")]
    assert heads, "the long German word was hyphenated"
    assert all(len(h.split()[-1]) - 1 in break_points(word, "de") for h in heads)


def test_a_language_without_a_dictionary_is_reported(dojo):
    (dojo / "game.yaml").write_text((dojo / "game.yaml").read_text() + "language: xx\n")
    with pytest.raises(ContentError, match="language: no hyphenation dictionary for 'xx'"):
        load_game(dojo)
