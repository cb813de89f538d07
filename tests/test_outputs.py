"""Outputs follow the cards: what cardgen wrote for a card, back or deck that is gone goes too,
and nothing else in out/ is touched."""

from __future__ import annotations

import json
import os
import shutil

from cardgen.build import build_game
from cardgen.model import load_deck, load_game
from cardgen.outputs import RECORD, remember
from cardgen.sheets import make_sheets
from cardgen.sheets.tts import export_tts
from tests.conftest import ROOT

STAGES = ("check", "cards", "sheets", "site")


def _game(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(ROOT / "tests" / "data" / "lantern-guild", folder)
    shutil.copy(folder / "decks" / "harbour.yaml", folder / "decks" / "second.yaml")
    return folder


def _print_decks(folder, out):
    """Each sample deck's own proxy sheets and TTS export, as `cardgen sheets/tts DECK` make them."""
    game = load_game(folder)
    for deck_file in sorted((folder / "decks").glob("*.yaml")):
        deck = load_deck(deck_file)
        make_sheets(game, out, deck)
        export_tts(game, out / "tts", deck)


def _files(out):
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns for p in out.rglob("*")
            if p.is_file() and not p.name.startswith(".")}


def test_a_build_removes_what_it_wrote_for_cards_and_decks_that_are_gone(tmp_path):
    folder = _game(tmp_path)
    out = tmp_path / "out" / "lantern-guild"
    assert build_game(str(folder), tmp_path / "out", STAGES).ok
    _print_decks(folder, out)
    mine = [out / "cards" / "my-own-art.png", out / "site" / "card" / "notes.html", out / "my.txt"]
    for path in mine:
        path.write_text("a file of the user's own")
    before = _files(out)
    assert {"cards/sea-fog.png", "cards/wick-runner.png", "backs/fog.png", "site/card/sea-fog.html",
            "site/img/wick-runner.jpg", "site/deck/second.html", "second-letter.pdf", "second-a4.pdf",
            "tts/second.json", "tts/lantern-guild-backs-1.jpg"} <= set(before)

    # Sea Fog (the only card with the fog back) is deleted, Wick Runner renamed, a deck file removed
    tricks = folder / "cards" / "tricks.yaml"
    tricks.write_text("\n".join(line for line in tricks.read_text().splitlines() if "Sea Fog" not in line))
    for path in [folder / "cards" / "lamplighters.yaml", folder / "decks" / "harbour.yaml"]:
        path.write_text(path.read_text().replace("Wick Runner", "Wick Walker"))
    (folder / "decks" / "second.yaml").unlink()
    assert build_game(str(folder), tmp_path / "out", STAGES).ok
    after = _files(out)

    gone = {name for name in before if "sea-fog" in name or "wick-runner" in name or "second" in name}
    gone |= {"backs/fog.png", "tts/lantern-guild-backs-1.jpg"}    # no card uses the fog back now
    assert gone and not gone & set(after)
    assert {"cards/wick-walker.png", "site/card/wick-walker.html", "site/img/wick-walker.jpg",
            "tts/lantern-guild-back-default.jpg"} <= set(after)
    for path in mine:
        assert path.read_text() == "a file of the user's own"
    # the other cards' files were neither removed nor redrawn; the harbour deck's own prints stay
    for name in ["cards/market-crier.png", "cards/guild-charter.png", "backs/default.png",
                 "harbour-letter.pdf", "tts/harbour.json", "site/card/market-crier.html"]:
        assert name in after
    for name in ["cards/market-crier.png", "cards/guild-charter.png", "backs/default.png"]:
        assert after[name] == before[name]


def test_a_reference_card_taken_out_of_the_layouts_goes(tmp_path):
    from cardgen.render import render_game

    folder = _game(tmp_path)
    layouts = folder / "layouts.yaml"
    reference = "reference:\n  Turn Order:\n    - {rect: bleed, fill: ink}\n"
    layouts.write_text(layouts.read_text() + reference)
    render_game(load_game(folder), tmp_path / "out")
    out = tmp_path / "out" / "lantern-guild"
    assert (out / "reference" / "turn-order.png").is_file()
    layouts.write_text(layouts.read_text().replace(reference, ""))
    render_game(load_game(folder), tmp_path / "out")
    assert not (out / "reference" / "turn-order.png").exists() and (out / "cards" / "spare-oil.png").is_file()


def test_render_of_some_cards_removes_nothing(tmp_path):
    from cardgen.render import render_game

    folder = _game(tmp_path)
    render_game(load_game(folder), tmp_path / "out")
    tricks = folder / "cards" / "tricks.yaml"
    tricks.write_text(tricks.read_text().replace("Spare Oil", "Spare Lamp Oil"))
    game = load_game(folder)
    cards = tmp_path / "out" / game.id / "cards"
    render_game(game, tmp_path / "out", only=["Spare Lamp Oil"])      # not every card: a part
    assert (cards / "spare-oil.png").is_file() and (cards / "spare-lamp-oil.png").is_file()
    render_game(game, tmp_path / "out")
    assert not (cards / "spare-oil.png").exists() and (cards / "spare-lamp-oil.png").is_file()


def test_only_recorded_files_inside_the_game_folder_are_ever_removed(tmp_path):
    game = load_game(ROOT / "tests" / "data" / "lantern-guild")
    root = tmp_path / "out" / game.id
    outside = tmp_path / "precious.txt"
    elsewhere = tmp_path / "elsewhere"
    for path in [outside, elsewhere / "x.png", root / "cards" / "a.png", root / "cards" / "b.png",
                 root / "site" / "shared.png", root / "cards" / "mine.png"]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("keep")
    (root / "linked").symlink_to(elsewhere)
    (root / "cards" / "link.png").symlink_to(outside)
    record = {"format": 1, "scopes": {
        "cards": {"files": ["../../precious.txt", str(outside), "linked/x.png", "cards/link.png",
                            "cards/a.png", "cards/b.png", "site/shared.png", 7]},
        "site": {"files": ["site/shared.png"]},
        "sheets letter decks/gone.yaml": {"files": ["cards/../cards/mine.png"], "deck": "decks/gone.yaml"},
    }}
    (root / RECORD).write_text(json.dumps(record))

    removed = remember(game, root, {"cards": [root / "cards" / "a.png", outside]})

    assert removed == [root / "cards" / "b.png"]
    assert outside.read_text() == (elsewhere / "x.png").read_text() == "keep"
    assert os.path.islink(root / "cards" / "link.png")
    assert (root / "site" / "shared.png").is_file() and (root / "cards" / "mine.png").is_file()
    scopes = json.loads((root / RECORD).read_text())["scopes"]
    assert scopes["cards"] == {"files": ["cards/a.png"]}          # a path outside is never recorded
    assert "sheets letter decks/gone.yaml" not in scopes


def test_a_damaged_record_is_a_fresh_start(tmp_path):
    game = load_game(ROOT / "tests" / "data" / "lantern-guild")
    root = tmp_path / game.id
    root.mkdir()
    for text in ["{not json", '{"format": 1, "scopes": []}', '{"format": 99, "scopes": {}}', "[]"]:
        (root / RECORD).write_text(text)
        assert remember(game, root, {"site": []}) == []


def test_the_rulebook_keeps_only_the_anatomy_picture_it_shows(tmp_path):
    from cardgen.publish import build_rulebook

    folder = _game(tmp_path)
    out = tmp_path / "out" / "lantern-guild"
    build_rulebook(load_game(folder), out)
    assets = out / "rulebook-assets"
    assert {p.name for p in assets.iterdir()} == {"anatomy-harbour-warden.png", "anatomy-harbour-warden.key",
                                                  "anatomy-harbour-warden.markers.json"}
    for path in [*folder.glob("cards/*.yaml"), *folder.glob("decks/*.yaml"), *folder.glob("rules/*.md")]:
        path.write_text(path.read_text().replace("Harbour Warden", "Harbour Watch"))
    build_rulebook(load_game(folder), out)
    assert {p.name for p in assets.iterdir()} == {"anatomy-harbour-watch.png", "anatomy-harbour-watch.key",
                                                  "anatomy-harbour-watch.markers.json"}


def test_the_first_build_with_the_record_removes_pngs_an_older_cardgen_left(tmp_path):
    """out/ made before the record existed: the render cache lists the PNGs cardgen drew there."""
    folder = _game(tmp_path)
    out = tmp_path / "out" / "lantern-guild"
    assert build_game(str(folder), tmp_path / "out", ("check", "cards")).ok
    (out / RECORD).unlink()                         # as an older cardgen left out/
    (out / "cards" / "my-own-art.png").write_text("a file of the user's own")
    tricks = folder / "cards" / "tricks.yaml"
    tricks.write_text("\n".join(line for line in tricks.read_text().splitlines() if "Sea Fog" not in line))
    assert build_game(str(folder), tmp_path / "out", ("check", "cards")).ok
    assert not (out / "cards" / "sea-fog.png").exists() and not (out / "backs" / "fog.png").exists()
    assert (out / "cards" / "my-own-art.png").is_file() and (out / "cards" / "wick-runner.png").is_file()


def test_stages_recording_at_once_keep_each_others_files(tmp_path, monkeypatch):
    """`cardgen build` runs a game's stages in several processes: one recording its files while
    another is halfway through recording its own must not lose them."""
    import multiprocessing
    import time

    from cardgen import outputs

    game = load_game(_game(tmp_path))
    out = tmp_path / "out"
    (out / "site").mkdir(parents=True)
    (out / "site" / "index.html").write_text("site")
    (out / "cards").mkdir()
    (out / "cards" / "a.png").write_text("png")
    started = multiprocessing.get_context("fork").Event()

    def slow_read(root):            # the cards stage reads the record, then takes its time
        record = real_read(root)
        started.set()
        time.sleep(0.5)
        return record

    real_read = outputs._read
    cards = multiprocessing.get_context("fork").Process(
        target=lambda: (monkeypatch.setattr(outputs, "_read", slow_read),
                        remember(game, out, {"cards": [out / "cards" / "a.png"]})))
    cards.start()
    assert started.wait(20)
    remember(game, out, {"site": [out / "site" / "index.html"]})       # meanwhile, the site stage
    cards.join(20)
    assert cards.exitcode == 0
    scopes = json.loads((out / RECORD).read_text())["scopes"]
    assert scopes == {"cards": {"files": ["cards/a.png"]}, "site": {"files": ["site/index.html"]}}
