"""File names for things designers name in any script: cards, backs, reference cards, decks.

`slug` is the readable part: NFKC, lower case, accents on Latin letters folded ("Pokémon" ->
"pokemon", as `cardgen new` does for ids), letters and digits of every other script kept
("Огненный шар" -> "огненный-шар"), any other run of characters one dash. For ASCII text it is
what it always was: runs of anything but a-z and 0-9 become a dash.

`file_stem` makes a slug safe as a file name on Windows, macOS and Linux: never empty, never a
reserved device name (CON, NUL, COM1...), at most MAX_BYTES of UTF-8, with a short hash suffix
when cut. What it adds starts with "_", which no slug contains, so it cannot meet another slug.
"""

from __future__ import annotations

import hashlib
import unicodedata
from pathlib import Path

MAX_BYTES = 96      # room for ".png", "-letter.pdf" and write_atomic's temporary name within 255
_WINDOWS_DEVICES = {"con", "prn", "aux", "nul", *(f"{d}{n}" for d in ("com", "lpt") for n in range(10))}


def slug(text) -> str:
    folded = _fold_latin(unicodedata.normalize("NFKC", str(text)).lower())
    out: list[str] = []
    for ch in folded:
        kind = unicodedata.category(ch)[0]
        if kind in "LN":
            out.append(ch)
        elif kind == "M" and out and out[-1] != "-":
            out.append(ch)              # a vowel sign or tone mark of a kept letter (Devanagari, Thai...)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


def file_stem(text) -> str:
    """The name a file made for `text` has, before its extension."""
    stem = slug(text)
    if not stem:                        # nothing but symbols ("★★★"): the name's hash stands in
        return "_" + _digest(unicodedata.normalize("NFKC", str(text)))
    if stem in _WINDOWS_DEVICES:
        return stem + "_"
    if len(stem.encode()) > MAX_BYTES:
        cut = stem.encode()[:MAX_BYTES - 9].decode(errors="ignore").rstrip("-")
        return f"{cut}_{_digest(stem)}"
    return stem


def deck_stem(path) -> str:
    """A deck's outputs are named by its file: decks/Fire Deck.yaml -> fire-deck-letter.pdf..."""
    return file_stem(Path(path).stem)


def taken_by(seen: dict, stem: str, owner):
    """Claim the file name `stem` for `owner` in `seen` (one dict per folder of outputs): the owner
    that claimed it first, or None when it was free. Names that differ only in case are one file
    on macOS and Windows, so they clash."""
    first = seen.setdefault(stem.casefold(), owner)
    return None if first is owner else first


def _fold_latin(text: str) -> str:
    """Drop the accents on Latin letters (é -> e), keep every other script's marks (й stays й)."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) and out and out[-1].isascii():
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]
