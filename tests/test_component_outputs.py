"""Components that are not cards in the other outputs a designer expects: `cardgen render` draws
each side to a PNG of its own, and the Tabletop Simulator export holds each copy as a two-sided
tile (Combo Fighter's Power Tokens: side A on top, side B beneath)."""

from __future__ import annotations

import json

from PIL import Image, ImageChops

from cardgen.model import load_game
from cardgen.render import render_game
from cardgen.render.layout import load_layouts
from cardgen.sheets.tts import export_tts


def _fighters(game):
    return [card for card in game.cards.values() if card.type == "character"]


def test_render_draws_each_power_token_side_to_its_own_png(tmp_path):
    game = load_game("combo-fighter")
    token = load_layouts(game).components["power-token"]
    first = render_game(game, tmp_path)
    folder = tmp_path / game.id / "components"
    wanted = {folder / f"power-token-{f.stem}-{side}.png" for f in _fighters(game)
              for side in ("front", "back")}
    assert len(wanted) == 8 and wanted <= set(first.written)
    px = round((token.width + 2 * token.bleed) * 300 / 25.4)
    for fighter in _fighters(game):
        front, back = (Image.open(folder / f"power-token-{fighter.stem}-{side}.png")
                       for side in ("front", "back"))
        assert abs(front.width - px) <= 1 and front.size == back.size
        assert ImageChops.difference(front.convert("RGB"), back.convert("RGB")).getbbox()   # A is not B
    again = render_game(game, tmp_path)
    assert not again.written                # unchanged: nothing drawn again


def test_tts_export_holds_each_power_token_as_a_two_sided_tile(tmp_path):
    game = load_game("combo-fighter")
    result = export_tts(game, tmp_path)
    data = json.loads(result.json_path.read_text())
    tiles = [obj for obj in data["ObjectStates"] if obj["Name"] == "Custom_Tile"]
    assert result.tiles == len(tiles) == 4
    assert {tile["Nickname"] for tile in tiles} == {f"Power Token: {f.name}" for f in _fighters(game)}
    for tile in tiles:
        image = tile["CustomImage"]
        top, bottom = (tmp_path / image[key] for key in ("ImageURL", "ImageSecondaryURL"))
        assert top != bottom and top in result.images and bottom in result.images
        with Image.open(top) as a, Image.open(bottom) as b:
            assert a.size == b.size and abs(a.width - a.height) <= 1          # 50 x 50 mm, cut at the trim
            assert abs(a.width - round(50 * 300 / 25.4)) <= 1
            assert ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()
        assert image["CustomTile"]["Stretch"] is False
    # exported again with nothing changed: the same files, read back from the JSON
    again = export_tts(game, tmp_path)
    assert again.tiles == 4 and set(again.images) == set(result.images)
