"""Spreadsheets for the tests and bench/sheets_load.py: an .ods writer (cardgen writes only .xlsx
and .csv, and reads .ods), and a game folder whose cards/ holds only a given sheet."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
_MIME = "application/vnd.oasis.opendocument.spreadsheet"
_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
             '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
             f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{_MIME}"/>'
             '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
             '</manifest:manifest>')


def _ods_cell(value) -> str:
    if value is None or value == "":
        return "<table:table-cell/>"
    if isinstance(value, bool):
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(value).lower()}">'
                f"<text:p>{str(value).upper()}</text:p></table:table-cell>")
    if isinstance(value, (int, float)):
        return (f'<table:table-cell office:value-type="float" office:value="{float(value)!r}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    paragraphs = "".join(f"<text:p>{escape(line)}</text:p>" for line in str(value).split("\n"))
    return f'<table:table-cell office:value-type="string">{paragraphs}</table:table-cell>'


def ods_bytes(sheets: dict[str, list[list]], extra_rows: str = "") -> bytes:
    """An .ods file: worksheet name -> rows of values (numbers typed as numbers, as LibreOffice
    types them: 3 is stored as the float 3.0). `extra_rows`: raw XML after each sheet's rows."""
    body = ""
    for name, rows in sheets.items():
        body += f"<table:table table:name={quoteattr(name)}>"
        body += "".join("<table:table-row>" + "".join(_ods_cell(v) for v in row) + "</table:table-row>"
                        for row in rows)
        body += extra_rows + "</table:table>"
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS} office:version="1.2">'
               f"<office:body><office:spreadsheet>{body}</office:spreadsheet></office:body>"
               "</office:document-content>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), _MIME)
        archive.writestr("META-INF/manifest.xml", _MANIFEST)
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def game_with_sheet(source: Path, into: Path, name: str, data: bytes) -> Path:
    """A copy of the game folder `source` at `into`, its cards/ holding only the file `name`."""
    shutil.copytree(source, into, ignore=shutil.ignore_patterns("out", "__pycache__"))
    shutil.rmtree(into / "cards")
    (into / "cards").mkdir()
    (into / "cards" / name).write_bytes(data)
    return into
