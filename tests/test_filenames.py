"""File names for cards named in any script: readable, unique, safe everywhere, never shared."""

from __future__ import annotations

import re
import shutil

import pytest

from cardgen.cli import main
from cardgen.errors import ContentError
from cardgen.filenames import MAX_BYTES, file_stem, slug
from cardgen.model import load_game
from cardgen.paths import bundled_game_ids
from cardgen.render.layout import load_layouts
from tests.conftest import ROOT

LANTERN = ["Wick Runner", "Harbour Warden", "Market Crier", "Old Town Keeper", "Wandering Tinker",
           "Sudden Draught", "Spare Oil", "Harbour Lantern", "Guild Charter", "Sea Fog"]
RUSSIAN = ["Фитильщик", "Смотритель гавани", "Рыночный зазывала", "Хранитель Старого города",
           "Бродячий лудильщик", "Внезапный сквозняк", "Запасное масло", "Фонарь гавани",
           "Устав гильдии", "Морской туман"]
GREEK = ["Λυχνάπτης", "Φύλακας λιμανιού", "Κήρυκας αγοράς", "Φύλακας παλιάς πόλης",
         "Περιπλανώμενος τεχνίτης", "Ξαφνικό ρεύμα", "Λάδι", "Φανάρι λιμανιού", "Καταστατικό",
         "Θαλάσσια ομίχλη"]
CJK = ["点灯夫", "港の番人", "市場の呼び込み", "旧市街の守り手", "流れの鋳掛屋", "突風", "予備の油",
       "港のランタン", "ギルド憲章", "海霧"]


def lantern_in(names: list[str], into, rename: dict[str, str] | None = None):
    """tests/data/lantern-guild with its cards named `names` (in LANTERN's order) in every file."""
    folder = into / "game"
    shutil.copytree(ROOT / "tests" / "data" / "lantern-guild", folder)
    mapping = dict(zip(LANTERN, names, strict=True)) | (rename or {})
    for path in [*folder.glob("cards/*.yaml"), *folder.glob("decks/*.yaml")]:
        text = path.read_text(encoding="utf-8")
        for old, new in mapping.items():
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return folder


def test_ascii_names_keep_their_file_names():
    # what every release so far named files and the layouts' `slug` filter gave, for ASCII names
    def old(text):
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")

    for text in ["Gear Up!", "Circuit Knight", "  A.D.A.P.T. -- Fin #2 ", "x_y", "Tom & Jerry's", "R2-D2"]:
        assert slug(text) == old(text) == file_stem(text)
    for game_id in bundled_game_ids():
        game = load_game(game_id)
        assert [c.stem for c in game.cards.values()] == [old(c.name) for c in game.cards.values()]


@pytest.mark.parametrize("names", [RUSSIAN, GREEK, CJK], ids=["russian", "greek", "cjk"])
def test_every_script_gets_distinct_readable_names(names, tmp_path):
    from cardgen.site import build_site

    game = load_game(lantern_in(names, tmp_path))
    stems = [game.cards[name].stem for name in names]
    assert stems == [slug(name) for name in names] and all(stems)     # the names themselves, no hashes
    assert len({s.casefold() for s in stems}) == len(names)
    build_site(game, tmp_path / "out")          # (the site needs no card images: CJK has no font here)
    pages = tmp_path / "out" / "site" / "card"
    assert sorted(p.name for p in pages.glob("*.html")) == sorted(f"{s}.html" for s in stems)


def test_names_are_folded_the_way_people_expect():
    assert file_stem("Pokémon Éclair") == "pokemon-eclair"         # accents on Latin letters fold
    assert file_stem("Ｆｉｒｅ ﬁeld") == "fire-field"                # NFKC: full-width, ligatures
    assert file_stem("Смотритель гавани") == "смотритель-гавани"
    assert file_stem("Бой") != file_stem("Бои")                      # й is a letter of its own
    assert file_stem("ΟΔΟΣ") == "οδος"
    assert file_stem("港の番人") == "港の番人"
    assert file_stem("क्षत्रिय") == "क्षत्रिय"                            # vowel signs stay with their letters


def test_file_names_are_safe_on_every_system():
    for device in ["Con", "NUL", "aux", "Com1", "LPT9"]:
        assert file_stem(device) == device.lower() + "_"             # Windows cannot make con.png
    for text in ["★★★", "!!!", "  "]:
        assert re.fullmatch(r"_[0-9a-f]{8}", file_stem(text))
    assert file_stem("★") != file_stem("☆")
    for long in ["Ж" * 200, "x" * 300, "港" * 100]:
        stem = file_stem(long)
        assert len(stem.encode()) <= MAX_BYTES and re.search(r"_[0-9a-f]{8}$", stem)
        assert stem.startswith(long[0].lower() * 10)
    assert file_stem("Ж" * 200) != file_stem("Ж" * 199)
    for stem in [file_stem(t) for t in ["a. ", "..", "x.", "Fire Bolt "]]:
        assert stem and not stem.endswith((".", " ")) and "/" not in stem


def test_a_cyrillic_game_builds_a_file_per_card(tmp_path):
    from cardgen.render import render_game
    from cardgen.site import build_site

    game = load_game(lantern_in(RUSSIAN, tmp_path))
    out = tmp_path / "out"
    result = render_game(game, out)
    assert not result.errors
    cards = out / game.id / "cards"
    assert sorted(p.name for p in cards.glob("*.png")) == sorted(f"{slug(n)}.png" for n in RUSSIAN)
    build_site(game, out / game.id)
    pages = out / game.id / "site" / "card"
    assert sorted(p.name for p in pages.glob("*.html")) == sorted(f"{slug(n)}.html" for n in RUSSIAN)
    assert len(list((out / game.id / "site" / "img").glob("*.jpg"))) == len(RUSSIAN)


def test_two_cards_with_one_file_name_are_a_load_error(tmp_path, capsys):
    folder = lantern_in(LANTERN, tmp_path, {"Spare Oil": "Fire Bolt", "Sea Fog": "FIRE-bolt"})
    with pytest.raises(ContentError) as caught:
        load_game(folder)
    [issue] = caught.value.issues
    assert (issue.file.name, issue.line, issue.field) == ("tricks.yaml", 5, "name")
    assert "'FIRE-bolt'" in issue.message and "'Fire Bolt'" in issue.message
    assert "tricks.yaml:2" in issue.message and "fire-bolt" in issue.message
    assert main(["info", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "tricks.yaml:5: name: card 'FIRE-bolt'" in err and "Traceback" not in err


def test_backs_with_one_file_name_are_a_layouts_error(tmp_path):
    folder = lantern_in(LANTERN, tmp_path)
    layouts = folder / "layouts.yaml"
    extra = "  FOG!:\n    - {rect: bleed, fill: ink}\n"         # before the back named fog
    layouts.write_text(layouts.read_text().replace("\nbacks:\n", "\nbacks:\n" + extra))
    with pytest.raises(ContentError) as caught:
        load_layouts(load_game(folder))
    [issue] = caught.value.issues
    assert issue.field == "backs.fog" and "FOG!" in issue.message and "file name (fog)" in issue.message


def test_two_deck_files_with_one_file_name_are_an_error(tmp_path):
    from cardgen.site import build_site

    folder = lantern_in(LANTERN, tmp_path)
    shutil.copy(folder / "decks" / "harbour.yaml", folder / "decks" / "Harbour!.yaml")
    with pytest.raises(ContentError) as caught:
        build_site(load_game(folder), tmp_path / "out")
    [issue] = caught.value.issues
    assert issue.file.name == "harbour.yaml" and "Harbour!.yaml" in issue.message


def test_a_deck_named_like_the_whole_set_does_not_overwrite_its_prints(tmp_path):
    from cardgen.model import load_deck
    from cardgen.sheets import make_sheets
    from cardgen.sheets.tts import export_tts

    folder = lantern_in(LANTERN, tmp_path)
    game = load_game(folder)
    out = tmp_path / "out"
    for name, write in [("Proxies.yaml", lambda deck: make_sheets(game, out, deck)),
                        ("lantern-guild.yaml", lambda deck: export_tts(game, out / "tts", deck))]:
        shutil.copy(folder / "decks" / "harbour.yaml", folder / "decks" / name)
        with pytest.raises(ContentError) as caught:
            write(load_deck(folder / "decks" / name))
        [issue] = caught.value.issues
        assert issue.file.name == name and "overwrite the whole set's" in issue.message
    assert not out.exists()
