"""Every output is made again exactly when what it is made from changed (cardgen/inputs.py), and
all the outputs of one build agree: the card PNG, the proxy sheets, the TTS sheets and the site's
thumbnail show the same art and the same type.

tests/data/painted-isles: creatures show per-card art (art/<card>.png), spells set their text in
the game's own font (fonts/Title.ttf); the tests paint the art and copy the font in.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardgen.build import build_game
from cardgen.inputs import file_digest, stage_key
from cardgen.paths import fonts_dir
from tests.conftest import ROOT, Watching

STAGES = ("check", "cards", "sheets", "site")
FONT_A = fonts_dir() / "crimson-text" / "CrimsonText-Regular.ttf"
FONT_B = fonts_dir() / "crimson-text" / "CrimsonText-Italic.ttf"


def _paint(path: Path, colour) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (120, 100), colour).save(path)


@pytest.fixture
def isles(tmp_path):
    folder = tmp_path / "isles"
    shutil.copytree(ROOT / "tests" / "data" / "painted-isles", folder)
    _paint(folder / "art" / "wolf.png", (120, 90, 60))
    _paint(folder / "art" / "heron.png", (60, 90, 160))
    (folder / "fonts").mkdir()
    shutil.copy(FONT_A, folder / "fonts" / "Title.ttf")
    return folder


def _state(out: Path) -> dict[str, tuple[str, int]]:
    """Every output file (caches and records aside): its content hash and its time."""
    return {str(p.relative_to(out)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file() and not p.name.startswith(".")}


def _build(folder: Path, out_root: Path):
    result = build_game(str(folder), out_root, STAGES)
    assert result.ok, [str(e) for s in result.stages for e in s.errors]
    return {s.name: s.summary for s in result.stages}


def _changed(before: dict, after: dict) -> set[str]:
    return {name for name in after if before.get(name) != after[name]}


def _sheet_pixels(pdf: Path) -> str:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    pixels = b"".join(page.render(scale=0.5).to_pil().tobytes() for page in document)
    return hashlib.sha256(pixels).hexdigest()


def test_a_new_art_file_redraws_the_card_that_shows_it_in_every_output(isles, tmp_path):
    out_root = tmp_path / "out"
    _build(isles, out_root)
    out = out_root / "painted-isles"
    before = _state(out)
    sheet_before = _sheet_pixels(out / "proxies-letter.pdf")
    assert _build(isles, out_root)["cards"] == "0 drawn, 5 unchanged"      # nothing changed: nothing made

    _paint(isles / "art" / "wolf.png", (200, 30, 30))
    summary = _build(isles, out_root)
    assert summary["cards"] == "1 drawn, 4 unchanged"
    after = _state(out)
    changed = _changed(before, after)
    assert {"cards/wolf.png", "site/img/wolf.jpg", "proxies-letter.pdf", "proxies-a4.pdf",
            "tts/painted-isles-faces-1.jpg"} <= changed
    for untouched in ("cards/heron.png", "cards/tide-call.png", "cards/ember.png", "backs/default.png",
                      "site/img/heron.jpg", "site/img/ember.jpg"):
        assert after[untouched] == before[untouched], untouched
    assert _sheet_pixels(out / "proxies-letter.pdf") != sheet_before
    with Image.open(out / "cards" / "wolf.png") as png, Image.open(out / "site" / "img" / "wolf.jpg") as jpg:
        middle = png.getpixel((png.width // 2, png.height // 3))[:3]
        assert middle == (200, 30, 30)
        assert abs(jpg.getpixel((jpg.width // 2, jpg.height // 3))[0] - 200) < 12


def _svg(path: Path, colour: str) -> None:
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 100">'
                    f'<rect width="120" height="100" fill="{colour}"/></svg>')


def test_a_changed_svg_redraws_exactly_the_card_that_shows_it(isles, tmp_path):
    text = (isles / "layouts.yaml").read_text()
    (isles / "layouts.yaml").write_text(text.replace('slug }}.png"', 'slug }}.svg"'))
    _svg(isles / "art" / "wolf.svg", "#784a3c")
    _svg(isles / "art" / "heron.svg", "#3c5aa0")
    out_root = tmp_path / "out"
    _build(isles, out_root)
    out = out_root / "painted-isles"
    before = _state(out)
    sheet_before = _sheet_pixels(out / "proxies-letter.pdf")

    _svg(isles / "art" / "wolf.svg", "#c81e1e")
    assert _build(isles, out_root)["cards"] == "1 drawn, 4 unchanged"
    after = _state(out)
    assert {"cards/wolf.png", "site/img/wolf.jpg", "proxies-letter.pdf"} <= _changed(before, after)
    for untouched in ("cards/heron.png", "cards/tide-call.png", "site/img/heron.jpg"):
        assert after[untouched] == before[untouched], untouched
    assert _sheet_pixels(out / "proxies-letter.pdf") != sheet_before
    with Image.open(out / "cards" / "wolf.png") as png:
        assert png.getpixel((png.width // 2, png.height // 3))[:3] == (200, 30, 30)


def test_a_changed_font_redraws_the_cards_set_in_it_and_no_other(isles, tmp_path):
    out_root = tmp_path / "out"
    _build(isles, out_root)
    out = out_root / "painted-isles"
    before = _state(out)
    shutil.copy(FONT_B, isles / "fonts" / "Title.ttf")
    assert _build(isles, out_root)["cards"] == "2 drawn, 3 unchanged"
    changed = _changed(before, _state(out))
    assert {"cards/tide-call.png", "cards/ember.png", "site/img/ember.jpg", "proxies-letter.pdf"} <= changed
    assert not changed & {"cards/wolf.png", "cards/heron.png", "site/img/wolf.jpg"}


def test_an_image_that_appears_redraws_its_card(isles, tmp_path):
    text = (isles / "layouts.yaml").read_text()
    (isles / "layouts.yaml").write_text(text.replace(
        'at: [5, 15, 53.5, 45]}', 'at: [5, 15, 53.5, 45], optional: true}'))
    (isles / "art" / "heron.png").unlink()
    out_root = tmp_path / "out"
    _build(isles, out_root)
    _paint(isles / "art" / "heron.png", (10, 200, 10))
    assert _build(isles, out_root)["cards"] == "1 drawn, 4 unchanged"


def test_watch_redraws_a_card_whose_art_is_saved(isles, tmp_path):
    out = tmp_path / "out"
    with Watching(isles, out) as watching:
        _paint(isles / "art" / "wolf.png", (250, 250, 0))
        watching.wait_for("rebuilt")
        assert any("1 drawn, 4 unchanged" in line for line in watching.lines), watching.lines
        with Image.open(out / "painted-isles" / "site" / "img" / "wolf.jpg") as jpg:
            assert jpg.getpixel((jpg.width // 2, jpg.height // 3))[2] < 40          # yellow now


def test_the_sample_matches_are_replayed_only_when_what_they_play_changed(tmp_path):
    folder = tmp_path / "tide"
    shutil.copytree(ROOT / "tests" / "data" / "tide-runners", folder)
    key = stage_key(folder, "matches", "sim", "engines")
    (folder / "rules").mkdir()
    (folder / "rules" / "01-intro.md").write_text("# Intro\n\nRow.\n")
    _paint(folder / "art" / "boat.png", (1, 2, 3))
    assert stage_key(folder, "matches", "sim", "engines") == key          # a chapter, art: not played
    text = (folder / "engine" / "rules.py").read_text()
    (folder / "engine" / "rules.py").write_text(text + "\n# a comment\n")
    assert stage_key(folder, "matches", "sim", "engines") != key          # the engine's code
    out_root = tmp_path / "out"
    first = build_game(str(folder), out_root, ("check", "matches"))
    again = build_game(str(folder), out_root, ("check", "matches"))
    assert first.ok and again.ok
    assert again.stages[0].summary == first.stages[0].summary + " (unchanged)"
    deck = folder / "decks" / "steady.yaml"
    deck.write_text(deck.read_text().replace("Deckhand: 3", "Deckhand: 4"))
    third = build_game(str(folder), out_root, ("check", "matches"))
    assert "(unchanged)" not in third.stages[0].summary


def test_a_file_is_read_once_per_version(tmp_path):
    path = tmp_path / "a.png"
    assert file_digest(path) == "absent"
    path.write_bytes(b"one")
    first = file_digest(path)
    path.write_bytes(b"two!")
    assert file_digest(path) != first
