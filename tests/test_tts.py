"""Tabletop Simulator export, read back: sheet grids and sizes, the hidden-face slot, the JSON ids."""

from __future__ import annotations

import json
import shutil

import pytest
from PIL import Image

from cardgen.model import load_deck, load_game
from cardgen.sheets.tts import PER_SHEET, export_tts, grid_for
from tests.conftest import ROOT
from tests.test_sheets import MARKER_LAYOUTS, guild_copy

GUILD = ROOT / "tests" / "data" / "lantern-guild"


def cell(image, cols, rows, slot):
    w, h = image.width // cols, image.height // rows
    x, y = (slot % cols) * w, (slot // cols) * h
    return image.crop((x, y, x + w, y + h))


def centre(image):
    return image.getpixel((image.width // 2, image.height // 2))


def near(a, b, tol=30):
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_grid_leaves_the_last_slot_for_the_hidden_face():
    assert PER_SHEET == 69
    assert grid_for(69) == (10, 7)
    assert grid_for(40) == (10, 5)
    assert grid_for(3) == (4, 2)
    assert grid_for(1) == (2, 2)
    with pytest.raises(ValueError):
        grid_for(70)


def test_whole_set_sheet_json_and_unique_backs(tmp_path):
    folder = guild_copy(tmp_path, MARKER_LAYOUTS)
    game = load_game(folder)
    result = export_tts(game, tmp_path / "tts")
    data = json.loads(result.json_path.read_text())
    [deck] = data["ObjectStates"]
    assert deck["Name"] == "Deck"
    assert list(deck["CustomDeck"]) == ["1"]
    custom = deck["CustomDeck"]["1"]
    assert (custom["NumWidth"], custom["NumHeight"]) == (10, 2)     # 10 cards + the hidden slot
    assert custom["BackIsHidden"] is True
    assert custom["UniqueBack"] is True                               # the fog bank has its own back
    names = [c.name for c in game.cards.values()]
    assert deck["DeckIDs"] == [100 + i for i in range(10)]
    assert [o["Nickname"] for o in deck["ContainedObjects"]] == names
    assert [o["CardID"] for o in deck["ContainedObjects"]] == deck["DeckIDs"]
    # URLs are files beside the JSON
    faces = Image.open(result.json_path.parent / custom["FaceURL"])
    backs = Image.open(result.json_path.parent / custom["BackURL"])
    assert faces.mode == "RGB" and faces.format == "JPEG"
    assert faces.width <= 4096 and faces.height <= 4096
    assert faces.size == backs.size
    assert faces.width % 10 == 0 and faces.height % 2 == 0
    cw, ch = faces.width // 10, faces.height // 2
    assert abs(cw / ch - 63.5 / 88.9) < 0.01
    assert cw >= 400                                                  # as large as 4096 px allows
    # slot order = card order: 5 lamplighters (red), 2 tricks (green), 2 relics (blue), fog (black)
    colours = [centre(cell(faces, 10, 2, i)) for i in range(10)]
    expect = [(192, 0, 0)] * 5 + [(0, 160, 0)] * 2 + [(0, 0, 192)] * 2 + [(0, 0, 0)]
    assert all(near(c, e) for c, e in zip(colours, expect, strict=True)), colours
    # unused slots are blank, the hidden face (last slot) shows a back
    assert all(centre(cell(faces, 10, 2, i)) == (255, 255, 255) for i in range(10, 19))
    assert near(centre(cell(faces, 10, 2, 19)), (96, 96, 96))
    # backs follow the faces slot for slot
    back_colours = [centre(cell(backs, 10, 2, i)) for i in range(10)]
    assert all(near(c, (96, 96, 96)) for c in back_colours[:9]) and near(back_colours[9], (0, 0, 0))
    # the trim is what is shown: no white frame beyond the 0.5 mm inset, no yellow bleed
    first = cell(faces, 10, 2, 0)
    assert near(first.getpixel((first.width // 2, 1)), (255, 255, 255))
    assert near(first.getpixel((first.width // 2, 8)), (192, 0, 0))


def test_deck_copies_share_ids_and_one_back_image(tmp_path):
    folder = guild_copy(tmp_path, MARKER_LAYOUTS)
    deck = load_deck(folder / "decks" / "harbour.yaml")
    result = export_tts(deck.game, tmp_path / "tts", deck, fmt="png")
    data = json.loads(result.json_path.read_text())
    [obj] = data["ObjectStates"]
    assert result.json_path.name == "harbour.json"
    assert obj["DeckIDs"] == [100] * 3 + [101] * 2 + [102] * 3 + [103] * 3 + [104]
    assert obj["Nickname"] == "Lantern Guild: Harbour Lights"
    custom = obj["CustomDeck"]["1"]
    assert custom["UniqueBack"] is False
    assert (custom["NumWidth"], custom["NumHeight"]) == (6, 2)
    back = Image.open(result.json_path.parent / custom["BackURL"])
    face = Image.open(result.json_path.parent / custom["FaceURL"])
    assert back.format == "PNG" and back.mode == "RGB"
    assert back.size == (face.width // 6, face.height // 2)
    assert near(centre(back), (96, 96, 96))


def test_more_than_69_cards_make_a_second_sheet(tmp_path):
    folder = tmp_path / "guild"
    shutil.copytree(GUILD, folder)
    (folder / "layouts.yaml").write_text(MARKER_LAYOUTS)
    extra = "\n".join(f"- {{name: Trick {i:02}, type: trick, cost: 1, district: Market, rarity: common, "
                      f"text: Nothing.}}" for i in range(65))
    (folder / "cards" / "more.yaml").write_text(extra + "\n")
    game = load_game(folder)
    assert len(game.cards) == 75
    result = export_tts(game, tmp_path / "tts")
    [deck] = json.loads(result.json_path.read_text())["ObjectStates"]
    assert list(deck["CustomDeck"]) == ["1", "2"]
    one, two = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (one["NumWidth"], one["NumHeight"]) == (10, 7)
    assert (two["NumWidth"], two["NumHeight"]) == (7, 2)               # 6 cards + the hidden slot
    assert deck["DeckIDs"] == [100 + i for i in range(69)] + [200 + i for i in range(6)]
    assert {o["CardID"] // 100 for o in deck["ContainedObjects"]} == {1, 2}
    for o in deck["ContainedObjects"]:
        assert list(o["CustomDeck"]) == [str(o["CardID"] // 100)]
    sheet = Image.open(result.json_path.parent / one["FaceURL"])
    assert sheet.width <= 4096 and sheet.height <= 4096
    assert sheet.width >= 4000                                          # uses the room it has
    hidden = centre(cell(sheet, 10, 7, 69))
    assert near(hidden, (96, 96, 96))


def test_cli_tts_notes_how_to_upload(tmp_path):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "cardgen", "tts", "dojo-duel", "--out", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "upload" in result.stdout
    assert (tmp_path / "dojo-duel" / "tts" / "dojo-duel.json").is_file()
    assert "40 cards on 10 x 5" in result.stdout


def test_reuses_current_card_pngs_and_skips_an_unchanged_export(tmp_path, monkeypatch):
    from cardgen.render import paint_png, render_game

    folder = guild_copy(tmp_path, MARKER_LAYOUTS)
    game = load_game(folder)
    render_game(game, tmp_path / "out", jobs=1)
    rendered = tmp_path / "out" / game.id

    def no_painting(*args, **kwargs):
        raise AssertionError("painted a card that cardgen render had drawn already")

    monkeypatch.setattr(paint_png, "paint_png", no_painting)
    first = export_tts(game, rendered / "tts", rendered=rendered)
    faces = Image.open(first.images[0])
    assert near(centre(cell(faces, 10, 2, 0)), (192, 0, 0))
    assert near(centre(cell(faces, 10, 2, 19)), (96, 96, 96))
    stamp = first.json_path.stat().st_mtime_ns
    again = export_tts(game, rendered / "tts", rendered=rendered)
    assert again.json_path.stat().st_mtime_ns == stamp          # unchanged: not written again
    assert again.images == first.images and again.cards == first.cards
    assert [s["cols"] for s in again.sheets] == [10]
