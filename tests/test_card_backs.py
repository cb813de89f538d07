"""Backs drawn from their own card (Combo Fighter's character sheets, whose other side tells the
fighter's story): each printed behind its own card, measured from the PDFs (placements from the
content streams, tests/pdf_marks.py; which card is where from the text inside each trim), one PNG
per card redrawn only when that card changes, its own slot of the TTS back sheet, and a mistake
in such a back reported per card."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from cardgen.model import load_game
from cardgen.paths import content_dir
from cardgen.render import render_game
from cardgen.sheets import SheetOptions, make_sheets
from cardgen.sheets.tts import export_tts
from tests.pdf_marks import PT, read_page

GAME = load_game("combo-fighter")
FIGHTERS = [card for card in GAME.cards.values() if card.type == "character"]
CARD = (63.5, 88.9)


def _text_in(page, box, page_h: float) -> str:
    """The text inside a box (x0, y0, x1, y1 in mm from the top-left) of a pdfium page."""
    x0, y0, x1, y1 = box
    text = page.get_textpage()
    return " ".join(text.get_text_bounded(x0 * PT, (page_h - y1) * PT, x1 * PT, (page_h - y0) * PT).split())


def _sheets_found(path) -> tuple[dict, dict, float]:
    """Each fighter's sheet: where its face is and where its story side is, as (page, trim)."""
    reader, doc = pypdf.PdfReader(path), pdfium.PdfDocument(path)
    fronts, backs = {}, {}
    for number, page in enumerate(reader.pages):
        _segments, placed, (page_w, page_h) = read_page(page)
        for spot in placed:
            trim = spot.trim(*CARD)
            if abs(trim[2] - trim[0] - CARD[0]) > 0.01:
                continue                                # (a power token, 50 mm)
            text = _text_in(doc[number], trim, page_h)
            for fighter in FIGHTERS:
                if fighter.name in text and "SIGNATURE COMBOS" in text:
                    fronts[fighter.name] = (number, trim)
                elif fighter.name in text and "BACKSTORY" in text:
                    assert fighter.fields["backstory"].split()[0] in text
                    backs.setdefault(fighter.name, []).append((number, trim))
    return fronts, backs, page_w


@pytest.mark.parametrize(("paper", "backs"), [("letter", "duplex-long"), ("letter", "duplex-short"),
                                              ("a4", "duplex-long"), ("a4", "duplex-short"),
                                              ("letter", "separate"), ("a4", "fold")])
def test_each_character_sheets_story_side_lands_behind_its_own_sheet(tmp_path, paper, backs):
    [path] = make_sheets(GAME, tmp_path, options=SheetOptions(papers=(paper,), backs=backs), force=True)
    fronts, rears, page_w = _sheets_found(path)
    page_h = float(pypdf.PdfReader(path).pages[0].mediabox.height) / PT
    assert sorted(fronts) == sorted(rears) == sorted(f.name for f in FIGHTERS)
    for name, (number, (x0, y0, x1, y1)) in fronts.items():
        [(back_no, rear)] = rears[name]             # its own story, once, and no other fighter's
        behind = ((x0, page_h - y1, x1, page_h - y0) if backs == "duplex-short"
                  else (page_w - x1, y0, page_w - x0, y1))
        assert all(abs(a - b) < 0.001 for a, b in zip(rear, behind, strict=True)), (name, rear, behind)
        if backs == "fold":
            assert back_no == number                # beside it, across the fold
        elif backs == "separate":
            assert back_no > number
        else:
            assert back_no == number + 1            # the sheet's other side


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "combo-fighter"
    shutil.copytree(content_dir() / "combo-fighter", folder, ignore=shutil.ignore_patterns("out"))
    return folder


def test_render_writes_one_story_side_per_sheet_and_redraws_only_the_edited_one(tmp_path):
    folder = _copy(tmp_path)
    out = tmp_path / "out"
    result = render_game(load_game(folder), out, jobs=1)
    assert not result.errors
    backs = out / "combo-fighter" / "backs"
    stories = {card.name: backs / f"sheet-{card.stem}.png" for card in FIGHTERS}
    assert all(path.is_file() for path in stories.values())
    pictures = [Image.open(path).convert("RGB") for path in stories.values()]
    for i, one in enumerate(pictures):                  # each its own
        for other in pictures[i + 1:]:
            assert ImageChops.difference(one, other).getbbox() is not None
    # one fighter's backstory edited: its sheet and its story side are drawn again, nothing else
    sheet = folder / "cards" / "amaya-sol" / "sheet.yaml"
    sheet.write_text(sheet.read_text().replace("Amaya grew up", "Amaya Sol grew up"))
    again = render_game(load_game(folder), out, jobs=1)
    assert not again.errors
    assert [p.name for p in again.written if p.parent == backs] == ["sheet-amaya-sol.png"]
    # (and her sheet's face and her power token, drawn from the same card)
    assert all("amaya-sol" in p.name for p in again.written) and len(again.written) == 4


def test_tts_gives_each_sheet_its_own_back_in_a_back_sheet(tmp_path):
    result = export_tts(GAME, tmp_path)
    data = json.loads(result.json_path.read_text())
    cards = [obj for deck in data["ObjectStates"] for obj in deck.get("ContainedObjects", [])]
    decks = {key: deck for obj in data["ObjectStates"] for key, deck in obj.get("CustomDeck", {}).items()}
    crops = []
    for fighter in FIGHTERS:
        [card_id] = [obj["CardID"] for obj in cards if obj["Nickname"] == fighter.name]
        deck = decks[str(card_id // 100)]
        assert deck["UniqueBack"] is True
        with Image.open(tmp_path / deck["BackURL"]) as sheet:
            cols, rows = deck["NumWidth"], deck["NumHeight"]
            w, h = sheet.width // cols, sheet.height // rows
            slot = card_id % 100
            crops.append(sheet.convert("RGB").crop(((slot % cols) * w, (slot // cols) * h,
                                                    (slot % cols + 1) * w, (slot // cols + 1) * h)))
    for i, one in enumerate(crops):                     # four different story sides
        for other in crops[i + 1:]:
            assert ImageChops.difference(one, other).getbbox() is not None


def test_a_mistake_in_a_back_drawn_from_its_card_is_reported_for_each_card(tmp_path):
    """A backstory set in a box far too small: every sheet's back overflows, each reported at a
    file and line with the card's name, exit 2 (content), no traceback."""
    folder = _copy(tmp_path)
    layouts = folder / "layouts.yaml"
    text = layouts.read_text()
    text = text.replace("""  aid:
    # The player aids""", """  tiny:
    - {rect: bleed, fill: paper}
    - {text: "{{ card.backstory }}", at: [5, 40, 50, 6], style: story}
  aid:
    # The player aids""", 1)
    text = text.replace("back_for: \"{{ 'sheet' if", "back_for: \"{{ 'tiny' if", 1)
    layouts.write_text(text)
    run = subprocess.run([sys.executable, "-m", "cardgen", "render", str(folder), "--out",
                          str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    for fighter in FIGHTERS:
        [line] = [line for line in run.stderr.splitlines() if f"card {fighter.name!r}" in line]
        # (at the card's field that does not fit, naming the back's element)
        assert re.match(r"^error: \S+sheet\.yaml:\d+: backstory: card .*\(backs\.tiny\[2\]: ", line), line


def test_a_player_aid_cannot_take_a_back_drawn_from_a_card(tmp_path):
    from cardgen.errors import ContentError
    from cardgen.render.layout import load_layouts

    folder = _copy(tmp_path)
    layouts = folder / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace("reference_back: aid", "reference_back: sheet", 1))
    with pytest.raises(ContentError) as info:
        load_layouts(load_game(folder))
    [issue] = info.value.issues
    assert (issue.field, issue.line) == ("reference_back", layouts.read_text().splitlines().index(
        "reference_back: sheet") + 1)
    assert "reads the card" in issue.message


def test_a_back_using_a_template_that_reads_the_card_stays_shared():
    """A.D.A.P.T.'s backs draw the `fish` template, which colours a guppy's fish by its card: the
    backs themselves do not read the card, so each is drawn once."""
    from cardgen.render.layout import load_layouts

    layouts = load_layouts(load_game("adapt"))
    assert "card." in str(layouts.templates["fish"])
    assert layouts.card_backs == set()


def test_singles_follow_each_character_sheet_with_its_own_story(tmp_path):
    paths = make_sheets(GAME, tmp_path, options=SheetOptions(papers=("letter",), singles=True), force=True)
    [singles] = [path for path in paths if path.name.endswith("-singles.pdf")]
    doc = pdfium.PdfDocument(singles)
    pages = [" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc))]
    for fighter in FIGHTERS:
        [face] = [i for i, text in enumerate(pages) if "SIGNATURE COMBOS" in text and fighter.name in text]
        assert "BACKSTORY" in pages[face + 1] and fighter.name in pages[face + 1]
        assert " ".join(fighter.fields["origin"].split()) in pages[face + 1]


def test_a_shared_back_named_like_a_cards_own_back_is_reported(tmp_path):
    """backs/sheet-amaya-sol.png is Amaya Sol's story side: a shared back of that name would
    overwrite it."""
    from cardgen.errors import ContentError
    from cardgen.render.layout import load_layouts

    folder = _copy(tmp_path)
    layouts = folder / "layouts.yaml"
    line = "  Sheet Amaya-Sol: [{rect: bleed, fill: ink}]"
    layouts.write_text(layouts.read_text().replace("  aid:\n", f"{line}\n  aid:\n", 1))
    with pytest.raises(ContentError) as info:
        load_layouts(load_game(folder))
    [issue] = info.value.issues
    assert issue.field == "backs.Sheet Amaya-Sol" and "card 'Amaya Sol'" in issue.message
    assert issue.line == layouts.read_text().splitlines().index(line) + 1
