"""Card text markup: escapes for literal markup characters, and unbalanced markers reported with the
card's file, line and field (exit 2), as an overflow or a missing glyph is."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from cardgen.model import load_game
from cardgen.render.display import Run
from cardgen.render.fonts import FontBook
from cardgen.render.layout import LayoutError, layout_face, load_layouts
from cardgen.render.text import MarkupError, Style, fit_text, parse
from tests.conftest import ROOT

STYLE = Style()
BOOK = FontBook()


def _text(runs) -> str:
    return "".join(r.text for r in runs if isinstance(r, Run))


@pytest.mark.parametrize("source, shown", [
    (r"Deals 2 \* 3 damage", "Deals 2 * 3 damage"),
    (r"\*\*not bold\*\*", "**not bold**"),
    (r"a \{fire\} b", "a {fire} b"),
    (r"back\\slash", "back\\slash"),
])
def test_an_escaped_markup_character_is_printed_as_itself(source, shown):
    runs = fit_text(source, (0, 0, 80, 20), STYLE, BOOK, {"fire": "\u2668"}, [])
    assert _text(runs).replace(" ", "") == shown.replace(" ", "")
    assert all(not span.bold and not span.italic for p in parse(source, STYLE, {}, []) for span in p)


def test_escapes_sit_inside_words_and_keywords_still_match():
    paragraphs = parse(r"Strike\* then Strike", Style(bold_keywords=True), {}, ["Strike"])
    spans = [(s.text, s.bold) for s in paragraphs[0]]
    assert spans == [("Strike", True), ("* then ", False), ("Strike", True)]


@pytest.mark.parametrize("source, message", [
    ("Deals 2 * 3 damage", "a lone * leaves italic open"),
    ("**Strike: deal 2", "a lone ** leaves bold open"),
    ("Gain 1 {fire energy", "an unclosed {"),
    ("Gain {fire", "an unclosed {"),
])
def test_an_unbalanced_marker_is_an_error(source, message):
    with pytest.raises(MarkupError, match=re.escape(message)):
        fit_text(source, (0, 0, 80, 20), STYLE, BOOK, {"fire": "\u2668"}, [])


def test_balanced_markup_is_still_accepted():
    runs = fit_text("**Bold** and *italic* {fire} {unknown}", (0, 0, 80, 20), STYLE, BOOK,
                    {"fire": "\u2668"}, [])
    assert "{unknown}" in _text(runs)


@pytest.fixture
def dojo(tmp_path):
    return copy_of_dojo(tmp_path)


def copy_of_dojo(tmp_path):
    """Dojo Duel's folder, to change (without its rules and scenarios)."""
    folder = tmp_path / "dojo"
    shutil.copytree(ROOT / "content" / "dojo-duel", folder,
                    ignore=shutil.ignore_patterns("scenarios", "rules"))
    text = (folder / "game.yaml").read_text().replace("code: dojo_duel\n", "")
    (folder / "game.yaml").write_text(text)
    return folder


def test_a_lone_star_in_a_card_is_reported_with_its_file_line_and_field(dojo, tmp_path):
    cards = dojo / "cards" / "tiger.yaml"
    cards.write_text(cards.read_text().replace("The tiger does not leap twice.", "The tiger * leaps."))
    game = load_game(dojo)
    with pytest.raises(LayoutError) as info:
        layout_face(load_layouts(game), game.cards["Pouncing Strike"])
    issue = str(info.value.issue())
    line = cards.read_text().splitlines().index("  - name: Pouncing Strike") + 1
    assert issue.startswith(f"{cards}:{line}: flavour: card 'Pouncing Strike': a lone * leaves italic open")
    result = subprocess.run([sys.executable, "-m", "cardgen", "render", str(dojo), "--out",
                             str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and f"{cards}:{line}: flavour:" in result.stderr
