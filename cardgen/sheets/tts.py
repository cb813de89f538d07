"""Tabletop Simulator export: deck sheet images, a back image, and a saved-object JSON.

A TTS custom deck is a grid image of at most 10 x 7 cards and 4096 x 4096 px. Its last slot is the
"hidden" face (shown for cards in someone else's hand when the back is not used for that), so a
sheet holds at most 69 cards; more cards make more sheets, each its own CustomDeck entry. Card
ids are deck id * 100 + slot index. Copies share their card's slot and id. Cards of one sheet
sharing one back get a single back image; otherwise the backs form a sheet of their own
(UniqueBack). Images are the card PNGs (cardgen.render) cut at the trim, at the resolution that
keeps the sheet within 4096 px (and never above 300 dpi). The whole set's components that are
not cards (a player mat, power tokens) come as two-sided tiles beside the decks (tts_tiles.py).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from cardgen.fsutil import read_record, write_atomic
from cardgen.model import Card, Deck, Game
from cardgen.sheets.tts_shared import MAX_DPI, MAX_PX, encode, guid, painted_at_trim
from cardgen.sheets.tts_tiles import export_tiles

MAX_COLS, MAX_ROWS = 10, 7
PER_SHEET = MAX_COLS * MAX_ROWS - 1      # the last slot is the hidden face
POKER = (63.5, 88.9)
UPLOAD_NOTE = (
    "Tabletop Simulator needs the images at URLs: upload them (TTS Cloud Manager, Steam Workshop "
    "or any image host) and replace FaceURL/BackURL in the JSON (ImageURL/ImageSecondaryURL for "
    "component tiles), or import them with Objects > Components > Custom > Deck (or Tile). Then "
    "copy the JSON into Documents/My Games/Tabletop Simulator/Saves/Saved Objects/ and spawn it "
    "from Objects > Saved Objects.")


@dataclass
class TTSResult:
    json_path: Path
    images: list[Path]
    sheets: list[dict]             # per CustomDeck: id, grid, cards, px size
    cards: int                     # cards in the deck, copies counted
    tiles: int = 0                 # components (a player mat, tokens) as tiles, copies counted


def grid_for(count: int) -> tuple[int, int]:
    """Columns and rows for `count` cards plus the hidden-face slot (at least 2 x 2, at most 10 x 7)."""
    slots = count + 1
    cols = max(2, min(MAX_COLS, slots))
    rows = max(2, math.ceil(slots / cols))
    if rows > MAX_ROWS:
        raise ValueError(f"{count} cards do not fit one sheet ({PER_SHEET} at most)")
    return cols, rows


def cell_size(width_mm: float, height_mm: float, cols: int, rows: int) -> tuple[int, int, float]:
    """Pixel size of one card and its dpi: as large as the 4096 px limit allows, at most 300 dpi."""
    k = min(MAX_PX // cols / width_mm, MAX_PX // rows / height_mm, MAX_DPI / 25.4)   # px per mm
    return math.floor(width_mm * k), math.floor(height_mm * k), k * 25.4


class _Pictures:
    """Card images at one sheet's cell size: cut from the 300 dpi PNGs `cardgen render` left in
    out/<game>/cards and backs when its cache says they are current, else painted here."""

    def __init__(self, layouts, rendered: Path | None):
        self.layouts, self.rendered = layouts, rendered
        self.stamps = read_record(rendered / "cards" / ".cache.json") if rendered is not None else {}

    def _png(self, card: Card | None, back: str | None) -> Path | None:
        from cardgen.inputs import face_key
        from cardgen.render import png_path
        from cardgen.render.card_backs import back_key

        if self.rendered is None or not isinstance(self.stamps, dict):
            return None
        game = self.layouts.game
        if card is not None:
            path, key = png_path(self.rendered, game, "card", card.name), face_key(self.layouts, card)
            stamp = self.stamps.get(path.name)
        else:
            path = png_path(self.rendered, game, "back", back)
            key, stamp = back_key(self.layouts, back), self.stamps.get(f"back:{path.name}")
        return path if stamp == key and path.is_file() else None

    def get(self, face, size: tuple[int, int], dpi: float, card: Card | None = None,
            back: str | None = None):
        from PIL import Image

        png = self._png(card, back)
        if png is not None:
            with Image.open(png) as image:
                k = image.width / (face.width + 2 * face.bleed)          # px per mm of that PNG
                if abs(image.height - (face.height + 2 * face.bleed) * k) > 2:
                    return painted_at_trim(face, size, dpi)     # (a back drawn at another card size)
                b = face.bleed * k
                box = (b, b, b + face.width * k, b + face.height * k)
                # Hamming, not Lanczos: half the time (8 ms a card, not 16), within a JPEG's own
                # noise of it (mean difference 1 level of 255), as the site's thumbnails
                return image.convert("RGB").resize(size, Image.HAMMING, box=box)
        # (cell_size rounds the trim down: the cut stays inside it)
        return painted_at_trim(face, size, dpi)


def export_tts(game: Game, out_dir: Path, deck: Deck | None = None, fmt: str = "jpg",
               cache: Path | None = None, rendered: Path | None = None) -> TTSResult:
    """Write <game or deck>-faces-N.jpg, the back image(s) and <game or deck>.json into out_dir
    (out/<game>/tts). `cache`: the laid-out cards' cache file shared with the proxy sheets;
    `rendered`: out/<game>, whose current card PNGs are reused instead of painting again."""
    from PIL import Image

    from cardgen.errors import ContentError, Issue
    from cardgen.sheets.printing import output_stem, prepare, print_list

    if fmt not in ("jpg", "png"):
        raise ValueError("format is jpg or png")
    out_dir = Path(out_dir)
    wanted = print_list(game, deck)
    if not wanted:
        raise ContentError([Issue(deck.path if deck else game.folder, None, "cards", "nothing to export")])
    from cardgen.inputs import prints_key
    from cardgen.render.layout import load_layouts
    from cardgen.sheets.faces import remember, unchanged

    layouts = load_layouts(game)
    stem = output_stem(deck, game.id)
    title = game.name if deck is None else f"{game.name}: {deck.name}"
    digest = prints_key(layouts, wanted, title, "tts", fmt, MAX_PX, PER_SHEET)
    if unchanged(out_dir, f"{stem}.json", digest):
        previous = _previous(out_dir / f"{stem}.json")
        if previous is not None:
            return _recorded(game, previous, fmt, deck)
    load, _ = prepare(game, deck, cache=cache, layouts=layouts)
    # one entry per distinct card, in print order; its face/back are the Face objects prepared
    faces, backs = [], []
    position = 0
    for _card, count in wanted:
        faces.append(load.faces[position])
        backs.append(load.backs[position])
        position += count
    distinct: list[Card] = [card for card, _ in wanted]
    back_names = {id(face): face.name.removeprefix("back: ") for face in backs if face is not None}
    pictures = _Pictures(layouts, rendered)

    def picture(i: int | None, face, size, dpi):
        if i is not None:
            return pictures.get(face, size, dpi, card=distinct[i])
        return pictures.get(face, size, dpi, back=back_names[id(face)])

    images, sheets, custom_decks, ids_of = [], [], {}, {}
    for sheet_no, chunk in enumerate(_chunks(faces), 1):
        cols, rows = grid_for(len(chunk))
        cw, ch, dpi = cell_size(faces[chunk[0]].width, faces[chunk[0]].height, cols, rows)
        sheet = Image.new("RGB", (cols * cw, rows * ch), "white")
        for slot, i in enumerate(chunk):
            sheet.paste(picture(i, faces[i], (cw, ch), dpi), ((slot % cols) * cw, (slot // cols) * ch))
            ids_of[distinct[i].name] = sheet_no * 100 + slot
        chunk_backs = {id(backs[i]): backs[i] for i in chunk}
        first_back = backs[chunk[0]]
        hidden = cols * rows - 1
        hidden_face = picture(None, first_back, (cw, ch), dpi)
        sheet.paste(hidden_face, ((hidden % cols) * cw, (hidden // cols) * ch))
        face_path = out_dir / f"{stem}-faces-{sheet_no}.{fmt}"
        images.append(write_atomic(face_path, encode(sheet, fmt)))
        unique = len(chunk_backs) > 1
        if unique:
            back_sheet = Image.new("RGB", sheet.size, "white")
            painted: dict[int, object] = {}
            for slot, i in enumerate(chunk + [chunk[0]]):
                slot = hidden if slot == len(chunk) else slot
                if id(backs[i]) not in painted:
                    painted[id(backs[i])] = picture(None, backs[i], (cw, ch), dpi)
                back_sheet.paste(painted[id(backs[i])], ((slot % cols) * cw, (slot // cols) * ch))
            back_path = out_dir / f"{stem}-backs-{sheet_no}.{fmt}"
            images.append(write_atomic(back_path, encode(back_sheet, fmt)))
        else:
            # (a back drawn at another size than the card's (card.sizes) has a name of its own)
            other = (first_back.width, first_back.height) != (layouts.width, layouts.height)
            size = f"-{first_back.width:g}x{first_back.height:g}".replace(".", "_") if other else ""
            back_path = out_dir / f"{stem}-back-{_slugname(first_back.name)}{size}.{fmt}"
            if back_path not in images:
                images.append(write_atomic(back_path, encode(hidden_face, fmt)))
        custom_decks[str(sheet_no)] = {
            "FaceURL": face_path.name, "BackURL": back_path.name, "NumWidth": cols, "NumHeight": rows,
            "BackIsHidden": True, "UniqueBack": unique, "Type": 0,
        }
        sheets.append({"id": sheet_no, "cols": cols, "rows": rows, "cards": len(chunk),
                       "size": sheet.size, "hidden_slot": hidden, "dpi": round(dpi, 1)})
    data = _saved_objects(game, title, wanted, faces, ids_of, custom_decks)
    tiles = export_tiles(load.parts, out_dir, stem, fmt, game.id, z=-4.0)
    images += tiles.images
    data["ObjectStates"] += tiles.objects
    json_path = write_atomic(out_dir / f"{stem}.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    remember(out_dir, {json_path.name: digest})
    done = TTSResult(json_path, images, sheets, sum(n for _, n in wanted), len(tiles.objects))
    return _recorded(game, done, fmt, deck)


def _chunks(faces) -> list[list[int]]:
    """The distinct cards (indices) of each sheet: the cards of each size (card.sizes) on sheets
    of their own, at most PER_SHEET a sheet."""
    by_size: dict[tuple[float, float], list[int]] = {}
    for i, face in enumerate(faces):
        by_size.setdefault((face.width, face.height), []).append(i)
    return [cards[start:start + PER_SHEET] for cards in by_size.values()
            for start in range(0, len(cards), PER_SHEET)]


def _recorded(game: Game, result: TTSResult, fmt: str, deck: Deck | None) -> TTSResult:
    """The export's files, recorded in its folder, beside its stamps (a sheet no longer needed goes)."""
    from cardgen.outputs import remember

    remember(game, result.json_path.parent, {f"tts {fmt}": [*result.images, result.json_path]},
             deck.path if deck else None)
    return result


def _previous(json_path: Path) -> TTSResult | None:
    """The result of an earlier export, read back from its JSON (None if anything is missing)."""
    from PIL import Image

    try:
        everything = json.loads(json_path.read_text())["ObjectStates"]  # (a deck for each card size)
        objects = [obj for obj in everything if obj.get("Name") != "Custom_Tile"]
        tiles = [obj["CustomImage"] for obj in everything if obj.get("Name") == "Custom_Tile"]
        # a one-card "deck" is a lone Card
        cards = [card for obj in objects for card in obj.get("ContainedObjects", [obj])]
        decks = {key: deck for obj in objects for key, deck in obj["CustomDeck"].items()}
        images, sheets = [], []
        for key, deck in decks.items():
            face, back = json_path.parent / deck["FaceURL"], json_path.parent / deck["BackURL"]
            with Image.open(face) as image:
                size = image.size
            if not back.is_file():
                return None
            images += [p for p in (face, back) if p not in images]
            ids = {o["CardID"] for o in cards if o["CardID"] // 100 == int(key)}
            sheets.append({"id": int(key), "cols": deck["NumWidth"], "rows": deck["NumHeight"],
                           "cards": len(ids), "size": size,
                           "hidden_slot": deck["NumWidth"] * deck["NumHeight"] - 1})
        for image in tiles:
            for url in (image["ImageURL"], image["ImageSecondaryURL"]):
                path = json_path.parent / url
                if not path.is_file():
                    return None
                images += [path] if path not in images else []
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return TTSResult(json_path, images, sheets, len(cards), len(tiles))


def _slugname(name: str) -> str:
    from cardgen.filenames import file_stem

    return file_stem(name.removeprefix("back: "))


def _saved_objects(game: Game, title: str, wanted, faces, ids_of: dict, custom_decks: dict) -> dict:
    """The saved object: one deck, or one deck for each card size (card.sizes), side by side."""
    by_size: dict[tuple[float, float], list] = {}
    for (card, count), face in zip(wanted, faces, strict=True):
        by_size.setdefault((face.width, face.height), []).append((card, count))
    if len(by_size) == 1:
        [(w, h)] = by_size
        return _saved_object(game, title, wanted, ids_of, custom_decks, w, h)
    data, x = None, 0.0
    for (w, h), cards in by_size.items():
        name = f"{title} ({w:g} x {h:g} mm)"
        own = _saved_object(game, name, cards, ids_of, custom_decks, w, h)
        [obj] = own["ObjectStates"]
        obj["Transform"]["posX"] = round(x, 2)
        if "CustomDeck" in obj and obj.get("Name") == "Deck":
            used = {str(i // 100) for i in obj["DeckIDs"]}
            obj["CustomDeck"] = {k: v for k, v in obj["CustomDeck"].items() if k in used}
        x += 2.5 * w / POKER[0] + 0.5          # (TTS units: a poker card is about 2.2 wide)
        if data is None:
            data = {**own, "SaveName": title, "ObjectStates": []}
        data["ObjectStates"].append(obj)
    return data


def _transform(x: float = 0.0, scale=(1.0, 1.0)) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": round(scale[0], 4), "scaleY": 1.0, "scaleZ": round(scale[1], 4)}


def _saved_object(game: Game, title: str, wanted, ids_of: dict, custom_decks: dict, w: float,
                  h: float) -> dict:
    scale = (w / POKER[0], h / POKER[1])
    contained, deck_ids = [], []
    for card, count in wanted:
        card_id = ids_of[card.name]
        deck_key = str(card_id // 100)
        for copy in range(count):
            deck_ids.append(card_id)
            contained.append({
                "Name": "Card", "Transform": _transform(scale=scale), "Nickname": card.name,
                "Description": game.card_types[card.type].label, "CardID": card_id,
                "CustomDeck": {deck_key: custom_decks[deck_key]}, "Hands": True, "SidewaysCard": False,
                "GUID": guid(game.id, title, card.name, copy),
            })
    if len(contained) == 1:
        obj = {**contained[0], "Nickname": contained[0]["Nickname"]}
    else:
        obj = {
            "Name": "Deck", "Transform": _transform(scale=scale), "Nickname": title, "Description": "",
            "Hands": False, "SidewaysCard": False, "HideWhenFaceDown": True,
            "DeckIDs": deck_ids, "CustomDeck": custom_decks, "ContainedObjects": contained,
            "GUID": guid(game.id, title),
        }
    return {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [obj],
            "TabStates": {}, "VersionNumber": ""}
