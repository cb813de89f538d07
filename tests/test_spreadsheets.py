"""Cards from spreadsheets (.csv, .xlsx, .ods): every bundled game round-trips through
`cardgen cards export` to the same cards and byte-identical card PNGs; every mistake of a sheet is
reported at its cell; a hostile file is refused before it costs anything."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import xlsxwriter

from cardgen.errors import Cell, ContentError
from cardgen.inputs import stages_reading
from cardgen.model import load_game
from cardgen.model.cells import same
from cardgen.paths import bundled_game_ids
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.paint_png import png_bytes
from cardgen.sheetexport import export_bytes, worksheets
from tests.conftest import ROOT
from tests.sheet_support import game_with_sheet, ods_bytes

LANTERNS = ROOT / "tests" / "data" / "lantern-guild"
MISTAKES = ROOT / "tests" / "data" / "spreadsheets" / "lanterns-mistakes.xlsx"


def _exported(game, suffix: str) -> bytes:
    if suffix == ".ods":
        issues = []
        sheets = worksheets(game, issues)
        assert not issues
        return ods_bytes(sheets)
    return export_bytes(game, suffix)


def _assert_same_cards(yaml_game, sheet_game) -> None:
    assert list(sheet_game.cards) == list(yaml_game.cards) or set(sheet_game.cards) == set(yaml_game.cards)
    for name, card in yaml_game.cards.items():
        again = sheet_game.cards[name]
        assert (again.type, again.copies) == (card.type, card.copies), name
        assert set(again.fields) == set(card.fields), name
        for field, value in card.fields.items():
            assert same(again.fields[field], value), (name, field, again.fields[field], value)


def _faces(game) -> dict[str, bytes]:
    layouts = load_layouts(game)
    return {name: png_bytes(layout_face(layouts, card), 300) for name, card in game.cards.items()}


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".ods"])
@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_every_bundled_game_loads_back_from_its_exported_sheet(game_id, suffix, tmp_path):
    """The same cards (names, types, copies, fields) and, from .xlsx and .csv, every card's PNG
    byte for byte (the full set: about a second a game)."""
    game = load_game(game_id)
    folder = game_with_sheet(game.folder, tmp_path / game_id, f"cards{suffix}", _exported(game, suffix))
    again = load_game(folder)
    _assert_same_cards(game, again)
    assert all(isinstance(c.line, Cell) for c in again.cards.values())
    if suffix != ".ods":
        faces, yaml_faces = _faces(again), _faces(game)
        differ = [name for name, png in yaml_faces.items() if faces[name] != png]
        assert not differ, differ


def _issues(folder: Path) -> list[tuple[str, str | None, str]]:
    with pytest.raises(ContentError) as info:
        load_game(folder)
    return [(f"{i.file.name}:{i.line}", i.field, i.message) for i in info.value.issues]


def _lanterns_with(tmp_path, name: str, data: bytes, keep_yaml: bool = False) -> Path:
    folder = tmp_path / "lanterns"
    shutil.copytree(LANTERNS, folder)
    if not keep_yaml:
        (folder / "cards" / "lamplighters.yaml").unlink()
    (folder / "cards" / name).write_bytes(data)
    return folder


def test_a_sheet_with_ten_kinds_of_mistakes_reports_all_ten_at_their_cells(tmp_path):
    """tests/data/spreadsheets/make_mistakes.py says which mistake is where."""
    folder = _lanterns_with(tmp_path, "lanterns.xlsx", MISTAKES.read_bytes())
    found = {(where, field): message for where, field, message in _issues(folder)}
    expected = {
        ("lanterns.xlsx:Lamplighter!E3", "glow"): 'expected 1-9, got "lots"',
        ("lanterns.xlsx:Lamplighter!B4", "cost"): "expected 0-6, got 9",
        ("lanterns.xlsx:Lamplighter!C5", "district"): '"Harbor" (did you mean: Harbour?)',
        ("lanterns.xlsx:Lamplighter!F6", "keywords[2]"): '"Kindel" (did you mean: Kindle?)',
        ("lanterns.xlsx:Lamplighter!D7", "rarity"): "missing required field",
        ("lanterns.xlsx:Lamplighter!G8", "tools"): "expected YAML here",
        ("lanterns.xlsx:Lamplighter!I9", "copies"): "expected a whole number from 1 to 999, got 0",
        ("lanterns.xlsx:Lamplighter!H1", "colour"): "no card type has this field",
        ("lanterns.xlsx:Mixed!A2", "name"): "duplicate card name 'Wick Runner' (first at "
                                            "lanterns.xlsx:Lamplighter!A2)",
        ("lanterns.xlsx:Mixed!B3", "type"): 'got "spell"',
    }
    assert set(found) == set(expected)
    for where, fragment in expected.items():
        assert fragment in found[where], (where, found[where])


def test_an_error_names_the_sheet_and_cell_on_the_command_line(tmp_path):
    folder = _lanterns_with(tmp_path, "lanterns.xlsx", MISTAKES.read_bytes())
    done = subprocess.run([sys.executable, "-m", "cardgen", "info", str(folder)], capture_output=True,
                          text=True, cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert ("lanterns/cards/lanterns.xlsx:Lamplighter!E3: glow: expected 1-9, got \"lots\""
            in done.stderr), done.stderr
    assert "Traceback" not in done.stderr


def test_json_errors_name_the_cell(tmp_path):
    """--format json keeps the line as the row number and gives the cell as the text prints it."""
    from tests.test_cli import json_document

    folder = _lanterns_with(tmp_path, "lanterns.xlsx", MISTAKES.read_bytes())
    done = subprocess.run([sys.executable, "-m", "cardgen", "info", str(folder), "--format", "json"],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    errors = json_document(done, "info")["errors"]
    glow = next(e for e in errors if e["field"] == "glow")
    assert (glow["file"], glow["line"], glow["cell"]) == ("lanterns/cards/lanterns.xlsx", 3,
                                                          "Lamplighter!E3")


# -- how cells read ---------------------------------------------------------------------------------

LAMP_HEADER = ["name", "cost", "district", "rarity", "glow", "keywords", "tools"]


def test_typed_cells_read_by_the_field_spec_alike_in_every_format(tmp_path):
    """A number typed 3.0 (.ods and .xlsx store it so) reads as 3, as the text "3" of a CSV does;
    a list splits at the separator; a nested field is YAML."""
    rows = [LAMP_HEADER, ["Lamp Oiler", 2.0, "Market", "common", 3, "Kindle; Gust",
                          "[{name: Bell, uses: 2}, {name: Hook}]"]]
    csv_text = "\n".join(",".join(f'"{v}"' for v in row) for row in rows)
    for name, data in (("lamplighter.ods", ods_bytes({"Lamplighter": rows})),
                       ("lamplighter.csv", csv_text.encode())):
        folder = _lanterns_with(tmp_path / name, name, data)
        card = load_game(folder).cards["Lamp Oiler"]
        assert same(card.fields, {"cost": 2, "district": "Market", "rarity": "common", "glow": 3,
                                  "keywords": ["Kindle", "Gust"],
                                  "tools": [{"name": "Bell", "uses": 2}, {"name": "Hook"}]}), name
        assert card.type == "lamplighter"       # the file's or worksheet's name


def test_the_game_declares_the_list_separator(tmp_path):
    folder = _lanterns_with(tmp_path, "lamplighter.csv", b"name,cost,district,rarity,glow,keywords\n"
                                                         b"Oiler,1,Market,common,2,Kindle | Gust\n")
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text + "spreadsheets: {list_separator: '|'}\n")
    assert load_game(folder).cards["Oiler"].fields["keywords"] == ["Kindle", "Gust"]
    (folder / "game.yaml").write_text(text + "spreadsheets: {list_separator: x}\n")
    assert any(field == "spreadsheets.list_separator" for _, field, _ in _issues(folder))


def test_defaults_row_notes_and_a_type_column(tmp_path):
    """A (defaults) row fills the empty cells of its worksheet's rows; a # column and a # worksheet
    are notes; a type cell beats the worksheet's name; YAML cards may sit beside the sheet."""
    book = io.BytesIO()
    workbook = xlsxwriter.Workbook(book, {"in_memory": True})
    sheet = workbook.add_worksheet("Tricks")
    for r, row in enumerate([["name", "type", "cost", "district", "rarity", "text", "# note"],
                             ["(defaults)", "trick", "", "Market", "common", "", ""],
                             ["Quick Snuff", "", 1, "", "", "Put out a lamp.", "cut?"],
                             ["Lantern Oil", "", 0, "Neutral", "", "Gain {oil}.", ""],
                             ["Old Map", "relic", "", "Old Town", "rare", "Look at the top card.", ""]]):
        for c, value in enumerate(row):
            if value != "":
                sheet.write(r, c, value)
    workbook.add_worksheet("# ideas").write(0, 0, "anything at all")
    workbook.close()
    folder = _lanterns_with(tmp_path, "more.xlsx", book.getvalue(), keep_yaml=True)
    game = load_game(folder)
    snuff, oil, old_map = (game.cards[n] for n in ("Quick Snuff", "Lantern Oil", "Old Map"))
    assert (snuff.type, snuff.fields) == ("trick", {"cost": 1, "district": "Market", "rarity": "common",
                                                    "text": "Put out a lamp."})
    assert (oil.fields["cost"], oil.fields["district"]) == (0, "Neutral")
    assert old_map.type == "relic"
    assert "Wick Runner" in game.cards           # from lamplighters.yaml, beside the sheet
    assert str(snuff.field_lines["district"]) == "Tricks!D2"     # a default is blamed on its cell


def test_the_header_is_the_first_row_with_anything_in_it(tmp_path):
    rows = [[], ["", "name", "cost", "district", "rarity", "glow"], ["", "Oiler", 1, "Market", "common", "x"]]
    folder = _lanterns_with(tmp_path, "lamplighter.ods", ods_bytes({"Lamplighter": rows}))
    assert _issues(folder) == [("lamplighter.ods:Lamplighter!F3", "glow", 'expected 1-9, got "x"')]


def test_csv_cells_are_named_by_line_and_column(tmp_path):
    """A CSV location is line:column, the line the row starts on (a quoted cell may span lines)."""
    data = ('name,cost,district,rarity,glow,text\n'
            'Oiler,1,Market,common,2,"two\nlines"\n'
            'Runner,1,Market,common,lots,\n').encode("utf-8-sig")
    folder = _lanterns_with(tmp_path, "lamplighter.csv", data)
    assert _issues(folder) == [("lamplighter.csv:4:E", "glow", 'expected 1-9, got "lots"')]


def test_a_csv_in_another_encoding_or_with_semicolons(tmp_path):
    latin = "name;cost;district;rarity;glow\nCafé;1;Market;common;2\n".encode("latin-1")
    folder = _lanterns_with(tmp_path, "lamplighter.csv", latin)
    [(where, _, message)] = _issues(folder)
    assert where == "lamplighter.csv:2" and "not UTF-8 text: save it as UTF-8" in message
    (folder / "cards" / "lamplighter.csv").write_bytes(latin.decode("latin-1").encode())
    assert load_game(folder).cards["Café"].fields["glow"] == 2       # ; as Excel writes it in Europe


def test_a_sheet_without_a_name_column_or_a_type(tmp_path):
    folder = _lanterns_with(tmp_path, "cards.csv", b"title,cost\nOiler,1\n")
    messages = {(w, f): m for w, f, m in _issues(folder)}
    assert "one must be `name`" in messages["cards.csv:1:A", "name"]
    (folder / "cards" / "cards.csv").write_bytes(b"name,cost\nOiler,1\n")
    assert "Add a type column, or name the file after a card type" in dict(
        ((w, f), m) for w, f, m in _issues(folder))["cards.csv:1:A", "type"]


# -- hostile files ----------------------------------------------------------------------------------

def _xlsx(rows, far_cell: bool = False) -> bytes:
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    sheet = book.add_worksheet("Lamplighter")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            sheet.write(r, c, value)
    if far_cell:
        sheet.write(1048575, 16383, "x")
    book.close()
    return out.getvalue()


def _refusal(tmp_path, name: str, data: bytes) -> str:
    [(_, _, message)] = _issues(_lanterns_with(tmp_path, name, data))
    return message


def test_one_far_cell_is_refused_before_the_reader_allocates_the_rectangle(tmp_path):
    """5 KB with a value at XFD1048576: python-calamine would allocate 17 billion cells (it aborts
    the process); the sheet is refused first."""
    data = _xlsx([["name"], ["Oiler"]], far_cell=True)
    assert len(data) < 10_000
    assert "has cells out to row 1,048,576, column 16,384" in _refusal(tmp_path, "a.xlsx", data)


def test_repeated_ods_rows_are_refused_and_empty_repeats_are_not(tmp_path):
    filled = ('<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
              'office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>')
    assert "has cells out to row 1,000,001" in _refusal(
        tmp_path / "a", "a.ods", ods_bytes({"S": [["name"]]}, filled))
    empty = ('<table:table-row table:number-rows-repeated="1048000"><table:table-cell '
             'table:number-columns-repeated="16000"/></table:table-row>')     # as LibreOffice saves
    rows = [["name", "cost", "district", "rarity", "glow"], ["Oiler", 1, "Market", "common", 2]]
    folder = _lanterns_with(tmp_path / "b", "lamplighter.ods", ods_bytes({"Lamplighter": rows}, empty))
    assert load_game(folder).cards["Oiler"].fields["glow"] == 2


def test_a_zip_bomb_is_refused_from_its_directory(tmp_path):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * (80 * 2**20) + b"</a>")
    assert len(out.getvalue()) < 200_000
    assert "unpacks to more than 64 MB; refused" in _refusal(tmp_path, "a.xlsx", out.getvalue())


def test_an_entry_that_unpacks_past_its_declared_size_is_refused(tmp_path):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * 100_000 + b"</a>")
    data = bytearray(out.getvalue())
    for header in (b"PK\x03\x04", b"PK\x01\x02"):      # the declared size, in both headers, cut to 100
        at = data.find(header)
        size_at = at + (22 if header == b"PK\x03\x04" else 24)
        data[size_at:size_at + 4] = (100).to_bytes(4, "little")
    assert "damaged or unreadable zip" in _refusal(tmp_path, "a.xlsx", bytes(data))


def test_a_dtd_and_a_non_zip_and_a_link_out_are_refused(tmp_path):
    book = zipfile.ZipFile(io.BytesIO(_xlsx([["name"], ["Oiler"]])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for entry in book.infolist():
            data = book.read(entry)
            if entry.filename == "xl/sharedStrings.xml":
                data = data.replace(b"?>", b'?><!DOCTYPE x [<!ENTITY a "aaaa">]>', 1)
            archive.writestr(entry, data)
    assert "declares a DTD" in _refusal(tmp_path / "a", "a.xlsx", out.getvalue())
    assert "not an .ods file" in _refusal(tmp_path / "b", "a.ods", b"name,cost\n")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("notes.txt", "a zip, but no workbook")
    assert "cannot read this spreadsheet" in _refusal(tmp_path / "d", "a.xlsx", out.getvalue())
    secret = tmp_path / "secret.csv"
    secret.write_text("name\nx\n")
    folder = _lanterns_with(tmp_path / "c", "x.txt", b"")
    (folder / "cards" / "a.csv").symlink_to(secret)
    [(_, _, message)] = _issues(folder)
    assert "is a link to a file outside the game folder" in message


def test_an_office_lock_file_is_not_read(tmp_path):
    folder = _lanterns_with(tmp_path, "~$lanterns.xlsx", b"\x00 owner file")
    assert "Wick Runner" not in load_game(folder).cards


# -- the command, and the rest of cardgen --------------------------------------------------------------

def _cardgen(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_cards_export_never_replaces_a_file(tmp_path):
    target = tmp_path / "dojo.xlsx"
    target.write_bytes(b"mine")
    done = _cardgen("cards", "export", "dojo-duel", target, cwd=tmp_path)
    assert done.returncode == 2 and "already exists" in done.stderr
    assert target.read_bytes() == b"mine"
    assert _cardgen("cards", "export", "dojo-duel", "--force", tmp_path / "new.xlsx",
                    cwd=tmp_path).returncode == 2      # no way to replace a designer's file
    target.unlink()
    assert _cardgen("cards", "export", "dojo-duel", target, cwd=tmp_path).returncode == 0
    assert zipfile.ZipFile(target).namelist()
    assert _cardgen("cards", "export", "dojo-duel", tmp_path / "d.ods", cwd=tmp_path).returncode == 2


def test_a_value_no_cell_holds_is_reported_and_nothing_written(tmp_path):
    folder = tmp_path / "lanterns"
    shutil.copytree(LANTERNS, folder)
    path = folder / "cards" / "tricks.yaml"
    path.write_text(path.read_text().replace("text: Put out a lamp.", 'text: ""'))
    done = _cardgen("cards", "export", folder, tmp_path / "l.csv", cwd=tmp_path)
    assert done.returncode == 2 and "keep this card in YAML" in done.stderr, done.stderr
    assert not (tmp_path / "l.csv").exists()


def test_sheet_cards_work_with_info_schema_and_the_inputs_manifest(tmp_path):
    game = load_game("dojo-duel")
    folder = game_with_sheet(game.folder, tmp_path / "dojo", "cards.xlsx", export_bytes(game, ".xlsx"))
    assert _cardgen("info", folder, cwd=tmp_path).returncode == 0
    schema = _cardgen("schema", folder, "--out", tmp_path / "schemas", cwd=tmp_path)
    assert schema.returncode == 0, schema.stderr
    assert {"check", "cards", "sheets", "site", "matches"} <= set(
        stages_reading(folder, [folder / "cards" / "cards.xlsx"]))
