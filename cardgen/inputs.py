"""What every output is made from, in one place.

An output is made again exactly when something it is made from changed, and every output of one
build is made from the same inputs. The keys here say what that is, by content:

- `face_key`: one card face, back or reference card (the PNG, the laid-out face the proxy sheets
  and TTS reuse, the rulebook's anatomy picture, the site's thumbnail): cardgen's drawing code,
  layouts.yaml, the card's fields, game.yaml's settings and tables, the bleed, and the bytes of every
  image and font file its elements may draw with (an image that is missing counts too: a file that
  appears changes the card).
- `prints_key`: a printed file (proxy PDF, singles, TTS deck): the faces it holds, their counts, the
  backs and reference cards, and the caller's options.
- `stage_files` / `stage_key`: the files of the game folder a build stage reads (the matches stage:
  game.yaml, cards, decks, scenarios and the game's Python), which `watch` uses to pick the stages
  a saved file calls for, and the matches stage to skip replaying when nothing it plays changed.

Rulebooks and player aids are keyed by their HTML and every file it fetches
(publish/document.py `document_key`), which holds all they are made from.
"""

from __future__ import annotations

import hashlib
import json
import stat
from functools import lru_cache
from pathlib import Path

from cardgen import __version__

# -- files by content ----------------------------------------------------------------------------

_DIGESTS: dict[tuple, str] = {}


def file_digest(path) -> str:
    """A file's content hash ("absent" when there is no such file), read once per process for
    each version of the file (its size, time and inode)."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError:
        return "absent"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"         # (a pipe would block, a device never end)
    memo = (str(path), st.st_size, st.st_mtime_ns, st.st_ino)
    digest = _DIGESTS.get(memo)
    if digest is None:
        try:
            with path.open("rb") as handle:     # (in pieces: a huge file must not fill memory)
                digest = hashlib.file_digest(handle, "sha256").hexdigest()[:20]
        except OSError:
            digest = "unreadable"
        _DIGESTS[memo] = digest
    return digest


@lru_cache(maxsize=4)
def code_digest(*folders: str) -> str:
    """cardgen's version and the source of the named folders of the package: an output made by
    other code is not trusted (the version number does not change while cardgen is worked on)."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent
    for folder in folders:
        for path in sorted((package / folder).glob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


DRAWING_CODE = ("render", "sheets")        # what faces and printed files are made by


# -- card faces ----------------------------------------------------------------------------------

def face_key(layouts, card, extra: str = "") -> str:
    """The key of one face: a card (`card`), or a back or reference card (`extra` "back:NAME" or
    "reference:NAME", card None; a back drawn from its card, render.card_backs, with its card), or
    a component's side ("component:KEY/SIDE[/CARD]", with the card it is drawn from, if any).
    Remembered per Layouts (one load of a game's files): the sheets ask for each card's key
    several times, and the part every face shares is hashed once."""
    memo = (card.name if card is not None else None, extra, layouts.bleed)
    key = layouts.keys.get(memo)
    if key is None:
        common = layouts.keys.get(("layouts", layouts.bleed))
        if common is None:
            common = layouts.keys["layouts", layouts.bleed] = hashlib.sha256()
            common.update(code_digest(*DRAWING_CODE).encode())
            common.update(layouts.source.encode())
            game = layouts.game         # (a layout may print any of game.yaml: its name, its tables)
            common.update(json.dumps([game.meta, game.tables, game.icons, game.keywords, layouts.bleed,
                                      {k: [v.image, v.colour] for k, v in game.icon_images.items()}],
                                     sort_keys=True, default=str).encode())
        digest = common.copy()
        if card is not None:
            digest.update(json.dumps([card.name, card.type, card.copies, card.fields], sort_keys=True,
                                     default=str).encode())
        digest.update(extra.encode())
        if extra.startswith("back:") and layouts.sizes:     # (its size: that of the cards taking it)
            from cardgen.render.layout import back_size

            digest.update(repr(back_size(layouts, extra.removeprefix("back:"))).encode())
        for path in _files_of(layouts, card, extra):
            digest.update(f"\n{path}:{file_digest(path)}".encode())
        key = layouts.keys[memo] = digest.hexdigest()[:20]
    return key


def _files_of(layouts, card, extra: str) -> list[str]:
    from cardgen.render.layout import files_used

    kind, _, name = extra.partition(":")
    if kind == "component":                 # "component:KEY/SIDE[/CARD]"
        from cardgen.render.components import parse_face_name

        key, side, _card = parse_face_name(name)
        component = layouts.components.get(key)
        elements = component.sides.get(side, []) if component is not None else []
    elif kind == "back":
        elements = layouts.backs.get(name, [])
    elif card is not None:
        elements = layouts.types.get(card.type, [])
    elif kind == "reference":
        elements = layouts.reference.get(name, [])
    else:
        elements = []
    return sorted(files_used(layouts, elements, card) | _icon_files(layouts, card))


def _icon_files(layouts, card) -> set[str]:
    """The picture icons a face may draw: those whose name its card's fields or the layouts
    write (as {name} in text, or an `icon:` element's name)."""
    icons = layouts.game.icon_images
    if not icons:
        return set()
    text = layouts.source + (json.dumps(card.fields, default=str) if card is not None else "")
    return {str(layouts.game.folder / icon.image) for name, icon in icons.items() if name in text}


def prints_key(layouts, wanted, *options) -> str:
    """A printed file: the faces it holds with their counts, every back and reference card it
    may print, the caller's options (paper, back mode, title...)."""
    digest = hashlib.sha256(json.dumps([code_digest(*DRAWING_CODE), str(layouts.game.folder.resolve()),
                                        [str(o) for o in options]]).encode())
    for card, count in wanted:
        digest.update(f"{face_key(layouts, card)}:{count};".encode())
        for name in sorted(layouts.card_backs):     # (the backs drawn from each card: card_backs)
            digest.update(f"back {face_key(layouts, card, f'back:{name}')};".encode())
    for kind, names in (("back", layouts.backs), ("reference", layouts.reference)):
        for name in sorted(names):
            digest.update(f"{kind} {face_key(layouts, None, f'{kind}:{name}')};".encode())
    return digest.hexdigest()[:24]


# -- build stages: which files of the game folder each reads -------------------------------------

ASSET_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".gif", ".svg", ".ttf", ".otf", ".woff", ".woff2"}
_CARDS = ("game.yaml", "cards/", "layouts.yaml", "*assets")
STAGE_READS: dict[str, tuple[str, ...]] = {
    # a folder (with "/"), a file, "*assets" (images and fonts anywhere) or "*python" (any .py)
    "check": ("game.yaml", "cards/", "decks/", "*python"),
    "cards": _CARDS,
    "sheets": (*_CARDS, "decks/"),
    "site": (*_CARDS, "decks/"),
    "rulebook": (*_CARDS, "decks/", "rules/", "templates/", "scenarios/", "*python"),
    "matches": ("game.yaml", "cards/", "decks/", "scenarios/", "*python"),
    "schemas": ("game.yaml", "cards/"),
}


def reads(stage: str, rel: Path) -> bool:
    """Whether a build stage reads the file at `rel` (a path inside the game folder)."""
    parts = rel.parts
    for item in STAGE_READS[stage]:
        if item == "*assets" and rel.suffix.lower() in ASSET_SUFFIXES:
            return True
        if item == "*python" and rel.suffix == ".py":
            return True
        if item.endswith("/") and len(parts) > 1 and parts[0] == item[:-1]:
            return True
        if rel.as_posix() == item:
            return True
    return False


def stages_reading(folder: Path, changed: list[Path]) -> tuple[str, ...]:
    """The build stages that read any of the changed files, in build order."""
    rels = [Path(p).resolve().relative_to(Path(folder).resolve()) for p in changed]
    return tuple(stage for stage in STAGE_READS if any(reads(stage, rel) for rel in rels))


def game_files(folder: Path) -> list[Path]:
    """Every file of a game folder, sorted: out/, hidden files and __pycache__ left out."""
    folder = Path(folder)
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).parts
        if rel[0] != "out" and not any(p.startswith(".") or p == "__pycache__" for p in rel) \
                and path.is_file():
            out.append(path)
    return out


def stage_files(folder: Path, stage: str) -> list[Path]:
    """Every file of the game folder a stage reads."""
    return [path for path in game_files(folder) if reads(stage, path.relative_to(folder))]


def stage_key(folder: Path, stage: str, *code_folders: str, options=()) -> str:
    """The key of a stage's output: cardgen's code for it, every file it reads by content, and
    the caller's options (the number of matches, the seed...)."""
    digest = hashlib.sha256(json.dumps([code_digest(*code_folders), [str(o) for o in options]]).encode())
    for path in stage_files(folder, stage):
        digest.update(f"\n{path.relative_to(folder).as_posix()}:{file_digest(path)}".encode())
    return digest.hexdigest()[:24]
