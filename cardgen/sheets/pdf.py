"""Proxy sheets and print-on-demand singles as PDF: vector cards from the display list.

Each distinct face and back is drawn once per document as a Form XObject (with its full bleed)
and placed wherever a copy goes, clipped to the bleed that fits there: a 208-card set with 65
distinct faces costs 65 drawings, not 208. Fonts are TrueType subsets (ReportLab embeds them);
the canvas's initial font is one of ours, so no unembedded Helvetica sneaks into the file.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import NamedTuple

from cardgen.render.display import Face
from cardgen.render.fonts import FontBook
from cardgen.render.paint_pdf import MM, draw_face, prepare_reportlab, register_font
from cardgen.sheets.geometry import EDGE_CLEAR, Imposition, Slot

INK = (0.0, 0.0, 0.0)
PAPER = (1.0, 1.0, 1.0)
MARK_WIDTH = 0.3            # points: hairline crop marks and cut guides
GUIDE_DASH = (1.5 * MM, 1.0 * MM)   # the guides' black dashes, on a white line: seen on any colour
NOTE_FAMILY = "Barlow Condensed"
MODE_HINTS = {
    "duplex-long": "double-sided: flip on the long edge",
    "duplex-short": "double-sided: flip on the short edge",
    "separate": "backs follow the faces: print them on the reverse",
    "fold": "fold on the dashed line, then cut",
    "none": "faces only",
}


class Part(NamedTuple):
    """One copy of a component that is not a card (a player mat, a fighter's power token)."""

    label: str                      # "Power Token: Amaya Sol": its page notes, its file names
    front: Face
    back: Face | None
    component: str = ""             # what players call the component ("Power Token"): ganged
                                    # pages of it are noted by it


@dataclass
class Deckload:
    """What a document shows: one face per printed copy, in order, and the back each one gets."""

    title: str                      # "Dojo Duel" or "Dojo Duel: Crane Path"
    faces: list[Face]               # one per copy (the same Face object repeats for copies)
    backs: list[Face | None]        # the back of each copy
    # components that are not cards (a player mat), one Part per copy, printed after the cards:
    # several to a page when more than one fits, else each on pages of its own (component_pages.py)
    parts: list[Part] = field(default_factory=list)


def _canvas(buf, pagesize, cmyk=None):
    import reportlab.rl_config as rl_config
    from reportlab.pdfgen.canvas import Canvas

    rl_config.useA85 = 0
    prepare_reportlab()
    book = FontBook()
    regular, bold = book.face(NOTE_FAMILY), book.face(NOTE_FAMILY, bold=True)
    register_font(regular.name, regular.path)
    register_font(bold.name, bold.path)
    canvas = Canvas(buf, pagesize=pagesize, invariant=1, initialFontName=regular.name,
                    initialFontSize=6, pageCompression=1,
                    enforceColorSpace=cmyk.reportlab if cmyk is not None else None)
    canvas.cardgen_cmyk = cmyk      # the painters write CMYK colours and images (cmyk.py)
    return canvas, regular, bold


def warm_up(games=()) -> dict:
    """Load once what every process that prints sheets would load again, so processes forked
    afterwards share it: the imports, the fonts every sheet uses (the margin notes' family and
    the icon font), and each of `games`' layouts with the fonts of their styles. Loading the
    imports and the note fonts in each process cost half a billion instructions (~0.15 s) each,
    measured with callgrind. Returns the layouts by id(game) (each belongs to its Game object); a
    game whose layouts do not load is left out (its own process reports the error)."""
    import jinja2.sandbox  # noqa: F401
    import reportlab.pdfgen.canvas  # noqa: F401

    from cardgen.errors import ContentError
    from cardgen.render.fonts import glyph_bounds
    from cardgen.render.layout import load_layouts

    book = FontBook()
    for face in (book.face(NOTE_FAMILY), book.face(NOTE_FAMILY, bold=True), book.icon_face()):
        register_font(face.name, face.path)
    glyph_bounds(book.icon_face().path, "")      # reads the glyph boxes icons are centred by
    loaded = {}
    for game in games:
        if id(game) in loaded:
            continue                # (a game with several decks to print)
        try:
            layouts = loaded[id(game)] = load_layouts(game)
        except ContentError:
            continue
        for style in layouts.styles.values():
            face = layouts.book.face(style.font, style.bold, style.italic)
            register_font(face.name, face.path)
    return loaded


def _form_names(canvas, faces) -> dict[int, str]:
    """Define each distinct Face (by identity) once as a form; returns id(face) -> form name."""
    names: dict[int, str] = {}
    for face in faces:
        if face is None or id(face) in names:
            continue
        name = f"card{len(names)}"
        b = face.bleed
        canvas.beginForm(name, 0, 0, (face.width + 2 * b) * MM, (face.height + 2 * b) * MM)
        draw_face(canvas, face, b * MM, (face.height + b) * MM, clip="bleed")
        canvas.endForm()
        names[id(face)] = name
    return names


def _place(canvas, face: Face, form: str, slot: Slot, page_h: float) -> None:
    """Draw a form with its trim top-left at the slot, keeping only the bleed that fits there."""
    left, top, right, bottom = slot.bleed
    w, h = face.width, face.height
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect((slot.x - left) * MM, (page_h - slot.y - h - bottom) * MM, (w + left + right) * MM,
              (h + top + bottom) * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate((slot.x - face.bleed) * MM, (page_h - slot.y - h - face.bleed) * MM)
    canvas.doForm(form)
    canvas.restoreState()


@dataclass
class Started:
    """A document with every card drawn once as a form and no page yet. It may be forked: each
    process then finishes its own copy as one paper size (the cards are not drawn twice)."""

    canvas: object
    buf: io.BytesIO
    regular: object
    bold: object
    forms: dict[int, str]


def start(load: Deckload, with_backs: bool, cmyk=None) -> Started:
    buf = io.BytesIO()
    canvas, regular, bold = _canvas(buf, (612, 792), cmyk)
    canvas.setAuthor("cardgen")
    sides = [face for part in load.parts for face in (part.front, part.back if with_backs else None)]
    forms = _form_names(canvas, load.faces + (load.backs if with_backs else []) + sides)
    return Started(canvas, buf, regular, bold, forms)


def by_size(load: Deckload) -> dict[tuple[float, float], list[int]]:
    """The copies of each card size, in the order the sizes first come (each prints on its own
    pages)."""
    out: dict[tuple[float, float], list[int]] = {}
    for i, face in enumerate(load.faces):
        out.setdefault((face.width, face.height), []).append(i)
    return out


def sheets_pdf(load: Deckload, imp: Imposition | dict, backs: str, offset=(0.0, 0.0),
               started: Started | None = None) -> bytes:
    """The proxy sheets for one paper size (finishing `started`, or a new document). `imp`: the
    imposition of the cards, or of each card size ((width, height) -> Imposition): each size is
    imposed on pages of its own, one after the other."""
    doc = started or start(load, backs != "none")
    imps = imp if isinstance(imp, dict) else None
    first = next(iter(imps.values())) if imps else imp
    doc.canvas.setTitle(f"{load.title}: proxies ({first.paper})")
    groups = by_size(load) or {(first.card_w, first.card_h): []}
    for size, copies in groups.items():
        part = f"{size[0]:g} x {size[1]:g} mm" if len(groups) > 1 else ""
        _size_pages(doc, load, imps[size] if imps else imp, copies, backs, offset, part)
    if load.parts:
        _parts_pages(doc, load, first, backs, offset)
    doc.canvas.save()
    return doc.buf.getvalue()


def _size_pages(doc: Started, load: Deckload, imp: Imposition, copies: list[int], backs: str, offset,
                part: str) -> None:
    """The pages of the copies `copies` (indices into the load), all of one size."""
    canvas, regular, bold, forms = doc.canvas, doc.regular, doc.bold, doc.forms
    page_w, page_h = imp.page_w, imp.page_h
    canvas.setPageSize((page_w * MM, page_h * MM))
    per_page = imp.per_page
    count = len(copies)
    sheets = max(1, -(-count // per_page))
    face_pages, back_pages = [], []
    for sheet in range(sheets):
        first = sheet * per_page
        indices = copies[first:first + per_page]
        face_pages.append((sheet, indices))
        if backs in ("duplex-long", "duplex-short", "separate"):
            back_pages.append((sheet, indices))
    if backs == "separate":
        order = [("face", p) for p in face_pages] + [("back", p) for p in back_pages]
    elif backs in ("duplex-long", "duplex-short"):
        order = [item for pair in zip(face_pages, back_pages, strict=True)
                 for item in (("face", pair[0]), ("back", pair[1]))]
    else:
        order = [("face", p) for p in face_pages]
    title = load.title + (f" · {part}" if part else "")
    ctx = _Notes(canvas, regular, bold, imp, title, sheets, backs, offset)
    for kind, (sheet, indices) in order:
        placed: list[Slot] = []
        if kind == "face":
            for n, i in enumerate(indices):
                slot = imp.slot(n)
                _place(canvas, load.faces[i], forms[id(load.faces[i])], slot, page_h)
                placed.append(slot)
            if backs == "fold":
                for n, i in enumerate(indices):
                    back = load.backs[i]
                    slot = imp.back_slot(n, "fold")
                    if back is not None:
                        _place(canvas, back, forms[id(back)], slot, page_h)
                    placed.append(slot)
        else:
            for n, i in enumerate(indices):
                back = load.backs[i]
                slot = imp.back_slot(n, backs, offset)
                if back is not None:
                    _place(canvas, back, forms[id(back)], slot, page_h)
                placed.append(slot)
        _page_boxes(canvas, imp, placed)
        _crop_marks(canvas, imp, placed)
        if backs == "fold":
            _fold_line(canvas, imp)
        ctx.draw(kind, sheet, placed)
        canvas.showPage()


def _parts_pages(doc: Started, load: Deckload, cards: Imposition, backs: str, offset) -> None:
    """The components after the cards: copies of a size that fits a page more than once share
    pages, imposed and backed as the cards are (the cards' gap and bleed option, each back
    behind its face on either duplex flip); the others get pages of their own."""
    from cardgen.sheets.component_pages import gang

    alone = []
    for (w, h, bleed), indices in _parts_by_size(load.parts).items():
        imp = gang(cards, w, h, bleed) if len(indices) > 1 else None
        if imp is None:
            alone += indices
            continue
        parts = [load.parts[i] for i in indices]
        shared = Deckload(load.title, [p.front for p in parts], [p.back for p in parts])
        mode = backs if any(p.back is not None for p in parts) else "none"
        names = " · ".join(dict.fromkeys(p.component or p.label for p in parts))
        _size_pages(doc, shared, imp, list(range(len(parts))), mode, offset, names)
    if alone:
        doc.canvas.setPageSize((cards.page_w * MM, cards.page_h * MM))
        _component_pages(doc.canvas, doc.regular, load, [load.parts[i] for i in alone], cards, backs,
                         offset, doc.forms)


def _parts_by_size(parts: list[Part]) -> dict[tuple[float, float, float], list[int]]:
    out: dict[tuple[float, float, float], list[int]] = {}
    for i, part in enumerate(parts):
        out.setdefault((part.front.width, part.front.height, part.front.bleed), []).append(i)
    return out


def _component_pages(canvas, regular, load: Deckload, parts: list[Part], imp: Imposition, backs: str,
                     offset, forms) -> None:
    """Each of `parts` on a page of its own, centred, its back on the next page (behind it in
    duplex; on the reverse, by hand, in the other modes), with crop marks at its corners."""
    from cardgen.sheets.component_pages import crop_marks, place

    count: dict[str, int] = {}
    totals: dict[str, int] = {}
    for part in parts:
        totals[part.label] = totals.get(part.label, 0) + 1
    for name, front, back, _component in parts:
        count[name] = count.get(name, 0) + 1
        sides = [("front", front, (0.0, 0.0))]
        if backs != "none" and back is not None:
            sides.append(("back", back, offset if backs != "fold" else (0.0, 0.0)))
        for side, face, moved in sides:
            pl = place(imp.page_w, imp.page_h, face.width, face.height, face.bleed, moved)
            _place_turned(canvas, face, forms[id(face)], pl, imp.page_h)
            x0, y0 = pl.x * MM, (imp.page_h - pl.y - pl.h) * MM
            canvas.setTrimBox([round(v, 3) for v in (x0, y0, x0 + pl.w * MM, y0 + pl.h * MM)])
            b = pl.bleed * MM
            canvas.setBleedBox([round(v, 3)
                                for v in (x0 - b, y0 - b, x0 + pl.w * MM + b, y0 + pl.h * MM + b)])
            canvas.saveState()
            canvas.setLineWidth(MARK_WIDTH)
            canvas.setStrokeColorRGB(*INK)
            for x1, y1, x2, y2 in crop_marks(pl, imp.page_w, imp.page_h):
                canvas.line(x1 * MM, (imp.page_h - y1) * MM, x2 * MM, (imp.page_h - y2) * MM)
            note = f"{load.title} · {name} · {side} · {count[name]}/{totals[name]} · {imp.paper}"
            if side == "front" and len(sides) > 1:
                note += f" · {MODE_HINTS['separate'] if backs == 'fold' else MODE_HINTS[backs]}"
            canvas.setFillColorRGB(*INK)
            canvas.setFont(regular.name, 6)
            canvas.drawCentredString(imp.page_w / 2 * MM, (PRINTABLE_NOTE + 0.5) * MM, note)
            canvas.restoreState()
            canvas.showPage()


PRINTABLE_NOTE = 5.0    # mm from the paper's bottom edge: a component page's note


def _place_turned(canvas, face: Face, form: str, pl, page_h: float) -> None:
    """Draw a form with its bleed around the placement's trim, turned a quarter when it says so."""
    b = face.bleed
    canvas.saveState()
    if pl.turned:   # the form's top to the page's left: rotate 90 degrees anticlockwise
        canvas.translate((pl.x + pl.w + b) * MM, (page_h - pl.y - pl.h - b) * MM)
        canvas.rotate(90)
    else:
        canvas.translate((pl.x - b) * MM, (page_h - pl.y - pl.h - b) * MM)
    canvas.doForm(form)
    canvas.restoreState()


def _page_boxes(canvas, imp: Imposition, slots: list[Slot]) -> None:
    """TrimBox: the cards' cut area on this page; BleedBox: with the bleed that was drawn."""
    if not slots:
        canvas.setTrimBox(None)
        canvas.setBleedBox(None)
        return

    def box(grow: bool):
        x0 = min(s.x - (s.bleed[0] if grow else 0) for s in slots)
        y0 = min(s.y - (s.bleed[1] if grow else 0) for s in slots)
        x1 = max(s.x + imp.card_w + (s.bleed[2] if grow else 0) for s in slots)
        y1 = max(s.y + imp.card_h + (s.bleed[3] if grow else 0) for s in slots)
        x0, y0 = max(0.0, x0), max(0.0, y0)
        x1, y1 = min(imp.page_w, x1), min(imp.page_h, y1)
        return [round(x0 * MM, 3), round((imp.page_h - y1) * MM, 3), round(x1 * MM, 3),
                round((imp.page_h - y0) * MM, 3)]

    canvas.setTrimBox(box(False))
    canvas.setBleedBox(box(True))


def _crop_marks(canvas, imp: Imposition, slots: list[Slot]) -> None:
    """The cut guides through the block (a white line under black dashes, so that they show on
    dark and light cards alike) and the crop marks in the margin (black)."""
    canvas.saveState()
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setLineCap(0)
    h = imp.page_h
    guides = imp.cut_guides(slots)
    for colour, dash, segments in ((PAPER, None, guides), (INK, GUIDE_DASH, guides),
                                   (INK, None, imp.crop_marks(slots))):
        canvas.setStrokeColorRGB(*colour)
        canvas.setDash(*dash) if dash else canvas.setDash()
        for x1, y1, x2, y2 in segments:
            canvas.line(x1 * MM, (h - y1) * MM, x2 * MM, (h - y2) * MM)
    canvas.restoreState()


def _fold_line(canvas, imp: Imposition) -> None:
    canvas.saveState()
    canvas.setStrokeColorRGB(0.45, 0.45, 0.45)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    x = imp.page_w / 2 * MM
    canvas.line(x, EDGE_CLEAR * MM, x, (imp.page_h - EDGE_CLEAR) * MM)
    canvas.restoreState()


def _fit(items: list[tuple], free) -> dict:
    """Each (width, paint) item at the start of the first free stretch (start, end) it fits in, in
    order, 4 mm apart: {item: start}; an item no stretch holds is left out."""
    stretches = [list(stretch) for stretch in free]
    placed = {}
    for item in items:
        for stretch in stretches:
            if stretch[1] - stretch[0] >= item[0]:
                placed[item] = stretch[0]
                stretch[0] += item[0] + 4.0
                break
    return placed


class _Notes:
    """The margin notes: print at 100%, a 1-inch and a 2-cm ruler, and which page this is."""

    def __init__(self, canvas, regular, bold, imp: Imposition, title: str, sheets: int, backs: str,
                 offset):
        self.canvas, self.regular, self.bold, self.imp = canvas, regular, bold, imp
        self.title, self.sheets, self.backs, self.offset = title, sheets, backs, offset

    def draw(self, kind: str, sheet: int, slots: list[Slot]) -> None:
        imp = self.imp
        band = imp.note_band(slots, imp.page_w / 2 if self.backs == "fold" else None)
        if band is None:
            return
        c = self.canvas
        c.saveState()
        if band.side == "bottom":
            c.translate(0, band.base * MM)
        else:
            c.translate(band.base * MM, imp.page_h * MM)
            c.rotate(-90)
        depth = band.depth
        two_lines = depth >= 5.5
        side = "faces" if kind == "face" else "backs"
        label = [f"{self.title} · {side} {sheet + 1}/{self.sheets} · {imp.paper}"]
        if kind == "face":
            label.append(MODE_HINTS[self.backs])
        elif self.offset != (0.0, 0.0):
            label.append(f"backs moved {self.offset[0]:+g} mm across, {self.offset[1]:+g} mm down")
        label = label if two_lines else label[:1]
        note = (self._note_width(two_lines), lambda u: self._lines(u, depth, self.NOTE, two_lines, True))
        inch = (self._ruler_width(25.4, "1 in"), lambda u: self._ruler(u, depth, 25.4, 4, "1 in"))
        cm = (self._ruler_width(20.0, "2 cm"), lambda u: self._ruler(u, depth, 20.0, 20, "2 cm"))
        page = (max(self.regular.width_mm(t, 6) for t in label),
                lambda u: self._lines(u, depth, label, two_lines, False))
        # Which page this is matters more than a second ruler (backs are matched to their faces
        # by it): where the band's stretches hold only three of the four, the 2 cm ruler goes.
        placed = _fit([note, inch, cm, page], band.free)
        if page not in placed:
            placed = _fit([note, inch, page], band.free)
        for (_, paint), u in placed.items():
            paint(u)
        c.restoreState()

    def _text(self, u: float, v: float, text: str, size: float, bold: bool) -> None:
        face = self.bold if bold else self.regular
        self.canvas.setFillColorRGB(*INK)
        self.canvas.setFont(face.name, size)
        self.canvas.drawString(u * MM, v * MM, text)

    NOTE = ("PRINT AT 100% · ACTUAL SIZE", "turn off “fit to page”; check the rulers")

    def _note_width(self, two_lines: bool) -> float:
        width = self.bold.width_mm(self.NOTE[0], 6.5)
        return max(width, self.regular.width_mm(self.NOTE[1], 6)) if two_lines else width

    def _lines(self, u: float, depth: float, lines, two_lines: bool, bold_first: bool) -> None:
        """One or two lines of text, the first nearest the cards."""
        self._text(u, depth - 2.4, lines[0], 6.5 if bold_first else 6, bold_first)
        if two_lines and len(lines) > 1:
            self._text(u, depth - 4.7, lines[1], 6, False)

    def _ruler_width(self, length: float, label: str) -> float:
        return length + 1.2 + self.regular.width_mm(label, 6)

    def _ruler(self, u: float, depth: float, length: float, divisions: int, label: str) -> None:
        """A bar `length` mm long with ticks towards the cards and its label at the end."""
        c = self.canvas
        base = depth - 3.0
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.4)
        c.line(u * MM, base * MM, (u + length) * MM, base * MM)
        for i in range(divisions + 1):
            tall = 2.6 if i in (0, divisions) else 1.6 if (divisions == 4 and i == 2) or (
                divisions == 20 and i % 10 == 0) else 1.0 if divisions == 4 or i % 5 == 0 else 0.6
            x = (u + length * i / divisions) * MM
            c.setLineWidth(0.4 if tall >= 1.6 else 0.25)
            c.line(x, base * MM, x, (base + tall) * MM)
        self._text(u + length + 1.2, base + 0.2, label, 6, False)


def _single_page(canvas, face: Face) -> None:
    """The page size, trim and bleed boxes of a page holding one card at trim + bleed."""
    b = face.bleed
    w, h = face.width + 2 * b, face.height + 2 * b
    canvas.setPageSize((w * MM, h * MM))
    canvas.setTrimBox([round(b * MM, 3), round(b * MM, 3), round((w - b) * MM, 3), round((h - b) * MM, 3)])
    canvas.setBleedBox([0, 0, round(w * MM, 3), round(h * MM, 3)])


def singles_pdf(load: Deckload, with_backs: bool, started: Started | None = None, cmyk=None) -> bytes:
    """Print-on-demand: one page per copy at trim + bleed, its back on the next page. `cmyk` (a
    cmyk.Converter): every colour in the shop's CMYK, its profile as the output intent (the
    cards are then drawn afresh, not taken from `started`)."""
    if not load.faces:
        raise ValueError("nothing to print")
    doc = start(load, with_backs, cmyk) if cmyk is not None else started or start(load, with_backs)
    if cmyk is not None:
        cmyk.output_intent(doc.canvas)
    canvas, forms = doc.canvas, doc.forms
    canvas.setTitle(f"{load.title}: print-on-demand singles")
    for face, back in zip(load.faces, load.backs, strict=True):
        for side in (face, back) if with_backs and back is not None else (face,):
            _single_page(canvas, side)          # (each at its own size: card.sizes)
            canvas.doForm(forms[id(side)])
            canvas.showPage()
    for _label, front, back, _component in load.parts:     # components at their own size, one page a side
        for side in (front, back) if with_backs and back is not None else (front,):
            _single_page(canvas, side)
            canvas.doForm(forms[id(side)])
            canvas.showPage()
    canvas.save()
    return doc.buf.getvalue()
