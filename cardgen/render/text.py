"""Rich text: markup, inline icons, keyword emphasis, line breaking and fitting to a box.

Markup: **bold**, *italic*, {icon} (an icon of game.yaml, drawn from the icon font, or a small
picture set on the baseline: InlineImage), a blank line or "\\n" for a new line; a backslash
makes the next *, {, } or backslash literal. A marker left open is a MarkupError. Fitting shrinks
the size in quarter points from the style's size down to its minimum; text that still does not fit
is an overflow, never a clip.
"""

from __future__ import annotations

import re
from copy import copy
from dataclasses import dataclass

from cardgen.render import filecache
from cardgen.render.display import Colour, Picture, Run
from cardgen.render.fonts import PT_TO_MM, Face, FontBook
from cardgen.render.hyphenate import HYPHEN, break_points

# A backslash makes the next markup character literal: \\* \\{ \\} \\\\ (tried first).
MARKUP = re.compile(r"(\\[*{}\\]|\*\*|\*|\{[A-Za-z0-9_-]+\}|\n)")
# Both painters place glyphs at their unhinted advances, but a glyph's ink (hinted in the PNG) can
# reach a little past its advance: lines are broken against a slightly narrower box, so that no
# painter ever draws past the edge.
WIDTH_SLACK = 0.985


@dataclass(frozen=True)
class Style:
    font: str = "Barlow Condensed"
    size: float = 8.0            # points
    min_size: float = 6.0
    colour: Colour = (0, 0, 0, 255)
    leading: float = 1.15        # line height as a multiple of the size
    align: str = "left"          # left | center | right
    valign: str = "top"          # top | middle | bottom
    bold: bool = False
    italic: bool = False
    bold_keywords: bool = False  # set the game's keywords in bold wherever they appear
    paragraph_gap: float = 0.35  # extra space between paragraphs, in lines


# A picture icon is this tall (in em of the text around it), its bottom on the baseline: a little
# above the capitals, and clear of the line above at the usual leading (1.15).
INLINE_HEIGHT = 0.8


@dataclass(frozen=True)
class InlineImage:
    """A picture drawn for {name} in text (game.yaml `icons: {name: {image: ...}}`)."""

    path: str                           # the file, resolved
    aspect: float                       # width / height
    own_colours: bool = False           # drawn in its own colours, not tinted
    colour: Colour | None = None        # tinted in this colour, not the text's


@dataclass
class Span:
    text: str
    bold: bool
    italic: bool
    icon: bool = False
    image: InlineImage | None = None


class Overflow(Exception):
    """Text that does not fit its box even at the style's minimum size."""

    def __init__(self, needed: float, available: float, size: float, longest_word: str = ""):
        self.needed, self.available, self.size, self.longest_word = needed, available, size, longest_word
        super().__init__(f"needs {needed:.1f} mm, box is {available:.1f} mm")


class TextProblem(Exception):
    """Card text that cannot be set as written: the card's field is reported, as an overflow is."""


class MarkupError(TextProblem):
    """An unbalanced marker: a lone * or ** (italic or bold left open), or a { never closed."""


class MissingGlyph(TextProblem):
    def __init__(self, char: str):
        self.char = char
        super().__init__(f"no font has the character {char!r} (U+{ord(char):04X})")


def parse(text: str, style: Style, icons: dict[str, str], keywords: list[str]) -> list[list[Span]]:
    """Markup -> paragraphs of spans."""
    paragraphs: list[list[Span]] = [[]]
    bold, italic = style.bold, style.italic
    emphasised = keywords if style.bold_keywords else []
    literal = ""            # text (escaped characters included) not yet added as spans

    def flush() -> None:
        nonlocal literal
        if literal:
            paragraphs[-1].extend(_keyword_spans(literal, bold, italic, emphasised))
            literal = ""

    for token in MARKUP.split(text):
        if not token:
            continue
        if token[0] == "\\" and len(token) == 2:
            literal += token[1]
            continue
        if (not token.startswith("{") or token[1:-1] not in icons) and token not in ("**", "*", "\n"):
            _check_braces(token)
            literal += token
            continue
        flush()
        if token == "**":
            bold = not bold
        elif token == "*":
            italic = not italic
        elif token == "\n":
            paragraphs.append([])
        elif token.startswith("{") and isinstance(icons.get(token[1:-1]), InlineImage):
            paragraphs[-1].append(Span("", bold, italic, icon=True, image=icons[token[1:-1]]))
        else:
            paragraphs[-1].append(Span(icons[token[1:-1]], bold, italic, icon=True))
    flush()
    if bold != style.bold or italic != style.italic:
        marker = "**" if bold != style.bold else "*"
        raise MarkupError(f"a lone {marker} leaves {'bold' if marker == '**' else 'italic'} open to the end "
                          f"of the text: close it, or write \\{marker[0]} for a literal {marker[0]}")
    return [p for p in paragraphs if p] or [[]]


def _check_braces(text: str) -> None:
    """A { that no } closes is a mistyped icon (an escaped one never reaches here)."""
    start = text.find("{")
    if start >= 0 and "}" not in text[start:]:
        raise MarkupError(f"an unclosed {{ in {text[start:start + 20]!r}: close the icon name with }}, "
                          "or write \\{ for a literal {")


def _keyword_spans(text: str, bold: bool, italic: bool, keywords: list[str]) -> list[Span]:
    if bold or not keywords:
        return [Span(text, bold, italic)]
    pattern = _keyword_pattern(tuple(keywords))
    out, last = [], 0
    for match in pattern.finditer(text):
        if match.start() > last:
            out.append(Span(text[last:match.start()], bold, italic))
        out.append(Span(match.group(0), True, italic))
        last = match.end()
    if last < len(text):
        out.append(Span(text[last:], bold, italic))
    return out


_PATTERNS: dict = {}


def _keyword_pattern(keywords: tuple[str, ...]):
    if keywords not in _PATTERNS:
        alternatives = "|".join(re.escape(k) for k in sorted(keywords, key=len, reverse=True))
        _PATTERNS[keywords] = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")
    return _PATTERNS[keywords]


@dataclass
class Piece:
    """A stretch of one word drawn in one face (a word may mix faces: bold, icon, fallback), with
    its width in em: the width at a size is em * size * PT_TO_MM, exactly as Face.width_mm works
    it out, so a paragraph is split into pieces once and measured at every size tried."""

    text: str
    face: Face
    em: float
    image: InlineImage | None = None     # a picture icon, `em` wide (no text)


def _pieces(span: Span, book: FontBook, family: str) -> list[Piece]:
    """Split a span by which face draws each character (the chosen face, else the icon font)."""
    main = book.icon_face(span.bold) if span.icon else book.face(family, span.bold, span.italic)
    advances = main.advances
    if all(ord(c) in advances for c in span.text):   # the common case: one face draws it all
        return [Piece(span.text, main, main.em(span.text))]
    fallback = book.icon_face(span.bold)
    out: list[Piece] = []
    for char in span.text:
        face = main if main.has(char) else fallback if fallback.has(char) else None
        if face is None:
            if char in " \u00a0":
                face = main
            else:
                raise MissingGlyph(char)
        if out and out[-1].face is face:
            out[-1].text += char
        else:
            out.append(Piece(char, face, 0.0))
    for piece in out:
        piece.em = piece.face.em(piece.text)
    return out


@dataclass
class Line:
    words: list[list[Piece]]
    width: float


@dataclass
class Paragraph:
    """A paragraph's words (each a list of pieces) and the em width of a space between them."""

    words: list[list[Piece]]
    space: float


def _words(paragraph: list[Span], book: FontBook, style: Style) -> Paragraph:
    words: list[list[Piece]] = [[]]
    for span in paragraph:
        chunks = re.split(r"( +)", span.text) if not span.icon else [span.text]
        for chunk in chunks:
            if not chunk:
                continue
            if chunk.startswith(" ") and not span.icon:
                if words[-1]:
                    words.append([])
                continue
            words[-1].extend(_pieces(Span(chunk, span.bold, span.italic, span.icon), book, style.font))
        if span.image is not None:      # (its own piece, joined to the text beside it as a font icon is)
            words[-1].append(Piece("", book.face(style.font, style.bold, style.italic),
                                   INLINE_HEIGHT * span.image.aspect, span.image))
    return Paragraph([w for w in words if w], book.face(style.font, style.bold, style.italic).em(" "))


def _break(paragraph: Paragraph, size: float, width: float, hyphenate: str | None = None):
    """Greedy line breaking of one paragraph at `size`; with `hyphenate` (a language), a word that
    does not fit the rest of its line is broken at the last of its hyphenation points that does.
    Returns (lines, widest single word or part, space)."""
    space = paragraph.space * size * PT_TO_MM
    lines: list[Line] = []
    widest = 0.0
    current: list[list[Piece]] = []
    current_width = 0.0
    for word in paragraph.words:
        w = sum(p.em * size * PT_TO_MM for p in word)
        while hyphenate and current_width + (space if current else 0.0) + w > width:
            room = width - (current_width + space if current else 0.0)
            split = _hyphenated(word, room / (size * PT_TO_MM), hyphenate)
            if split is None and current:         # no break fits here: try it on a line of its own
                lines.append(Line(current, current_width))
                current, current_width = [], 0.0
                continue
            if split is None:
                break
            head, word = split
            head_w = sum(p.em for p in head) * size * PT_TO_MM
            widest = max(widest, head_w)
            lines.append(Line([*current, head], current_width + (space if current else 0.0) + head_w))
            current, current_width = [], 0.0
            w = sum(p.em * size * PT_TO_MM for p in word)
        widest = max(widest, w)
        if current and current_width + space + w > width:
            lines.append(Line(current, current_width))
            current, current_width = [], 0.0
        current_width = w if not current else current_width + space + w
        current.append(word)
    if current:
        lines.append(Line(current, current_width))
    return lines, widest, space


def _hyphenated(word: list[Piece], room: float, language: str):
    """(head ending in a hyphen, tail) of a word broken at its last hyphenation point whose head
    fits `room` (in em at 1 pt), or None. A word with a picture icon in it is not broken."""
    if any(p.image is not None for p in word):
        return None
    text = "".join(p.text for p in word)
    for point in break_points(text, language):
        head: list[Piece] = []
        offset = 0
        for i, piece in enumerate(word):
            if offset + len(piece.text) >= point:
                cut = point - offset
                if not piece.face.has(HYPHEN):
                    break
                first = piece.text[:cut] + HYPHEN
                head.append(Piece(first, piece.face, piece.face.em(first)))
                rest = piece.text[cut:]
                tail = ([Piece(rest, piece.face, piece.face.em(rest))] if rest else []) + word[i + 1:]
                if sum(p.em for p in head) <= room and tail:
                    return head, tail
                break
            head.append(piece)
            offset += len(piece.text)
    return None


def fit_text(text: str, box: tuple[float, float, float, float], style: Style, book: FontBook,
             icons: dict[str, str | InlineImage], keywords: list[str],
             hyphenate: str | None = None) -> list[Run | Picture]:
    """Lay out text in the box at the largest size from style.size down to style.min_size; with
    `hyphenate` (the game's language), text that does not fit even at the minimum is hyphenated."""
    # Labels, stat lines and shared rules text repeat card after card in the same box: each is
    # fitted once. Callers move the runs they get (right-hand texts are shifted), so they get copies.
    key = (text, box, style, book, tuple(keywords), hyphenate)
    cached = _FITTED.get(key)
    if cached is None or cached[0] is not icons:
        try:
            cached = (icons, _fit(text, box, style, book, icons, keywords, hyphenate))
        except Overflow as exc:
            cached = (icons, exc)
        if len(_FITTED) >= 8192:
            _FITTED.clear()
        _FITTED[key] = cached
    result = cached[1]
    if isinstance(result, Overflow):
        raise result
    return [copy(r) for r in result]


_FITTED: dict = {}
filecache.on_change(_FITTED.clear)     # fitted with a font's metrics: a new font fits anew


def _fit(text, box, style: Style, book: FontBook, icons, keywords, hyphenate=None) -> list[Run]:
    x, y, w, h = box
    paragraphs = [_words(p, book, style) for p in parse(text, style, icons, keywords)]
    size = style.size
    while True:
        result = _try(paragraphs, (x, y, w, h), style, book, size)
        if isinstance(result, list):
            return result
        needed, widest_word = result
        if size - 0.25 < style.min_size - 1e-9:
            # Shrinking comes first; hyphenation is the last resort, at the smallest size.
            result = _try(paragraphs, (x, y, w, h), style, book, size, hyphenate) if hyphenate else None
            if isinstance(result, list):
                return result
            raise Overflow(needed, h if widest_word <= w * WIDTH_SLACK else w, size, "")
        size -= 0.25


def measure(text: str, width: float, style: Style, book: FontBook, icons, keywords, size: float,
            hyphenate: str | None = None):
    """Height in mm the text takes at `size` in a box `width` wide (hyphenated in the language
    `hyphenate`, if given), and whether every word fits."""
    paragraphs = parse(text, style, icons, keywords)
    height, ok = 0.0, True
    line_h = size * style.leading * PT_TO_MM
    for i, paragraph in enumerate(paragraphs):
        lines, widest, _ = _break(_words(paragraph, book, style), size, width * WIDTH_SLACK, hyphenate)
        ok = ok and widest <= width * WIDTH_SLACK
        height += line_h * max(1, len(lines)) + (line_h * style.paragraph_gap if i else 0.0)
    return height, ok


def _try(paragraphs, box, style: Style, book: FontBook, size: float, hyphenate: str | None = None):
    x, y, w, h = box
    usable = w * WIDTH_SLACK
    line_h = size * style.leading * PT_TO_MM
    laid: list[tuple[Line, float]] = []   # (line, space width)
    height = 0.0
    widest_word = 0.0
    gaps = 0.0
    for i, paragraph in enumerate(paragraphs):
        lines, widest, space = _break(paragraph, size, usable, hyphenate)
        widest_word = max(widest_word, widest)
        if i:
            gaps += line_h * style.paragraph_gap
            laid.append((Line([], 0.0), -1.0))   # paragraph gap marker
        for line in lines or [Line([], 0.0)]:
            laid.append((line, space))
    n_lines = sum(1 for _, s in laid if s >= 0)
    height = n_lines * line_h + gaps
    if height > h + 1e-6 or widest_word > usable + 1e-6:
        return (height, widest_word)
    face = book.face(style.font, style.bold, style.italic)
    ascent = face.ascent * size * PT_TO_MM
    descent = face.descent * size * PT_TO_MM
    # The block's visual height runs from the first line's cap area to the last descender.
    block = (n_lines - 1) * line_h + gaps + ascent + descent
    top = y if style.valign == "top" else y + (h - block) / 2 if style.valign == "middle" else y + h - block
    baseline = top + ascent
    runs: list[Run] = []
    first = True
    for line, space in laid:
        if space < 0:
            baseline += line_h * style.paragraph_gap
            continue
        if not first:
            baseline += line_h
        first = False
        offset = {"left": 0.0, "center": (w - line.width) / 2, "right": w - line.width}[style.align]
        cursor = x + offset
        for j, word in enumerate(line.words):
            if j:
                cursor += space
            for piece in word:
                if piece.image is not None:
                    runs.append(_inline_picture(piece, cursor, baseline, size, style.colour))
                else:
                    runs.append(Run(cursor, baseline, piece.text, piece.face.path, piece.face.name, size,
                                    style.colour))
                cursor += piece.em * size * PT_TO_MM
    return _merge(runs)


def _inline_picture(piece: Piece, x: float, baseline: float, size: float, text_colour: Colour) -> Picture:
    """A picture icon at the text's size, standing on the baseline, tinted like the text unless
    the icon says otherwise."""
    image = piece.image
    height = INLINE_HEIGHT * size * PT_TO_MM
    tint = None if image.own_colours else image.colour or text_colour
    return Picture(x, baseline - height, piece.em * size * PT_TO_MM, height, image.path, "contain", tint)


def _merge(runs: list) -> list:
    """Join neighbouring runs of the same face on one baseline (fewer draw calls, same result)."""
    out: list = []
    for run in runs:
        if out and isinstance(run, Run) and isinstance(out[-1], Run):
            last = out[-1]
            if (last.font == run.font and last.y == run.y and last.size == run.size
                    and last.colour == run.colour):
                face_width = _face_width(last)
                gap = run.x - (last.x + face_width)
                space = _space_width(last)
                joined = (last.text + run.text if abs(gap) < 1e-6
                          else last.text + " " + run.text if abs(gap - space) < 1e-6 else None)
                # (only where shaping the two as one keeps every glyph where it is: pieces of one
                # word drawn in one face, split by an icon's span, may kern once joined)
                if joined is not None and _shapes_alike(last, run, joined):
                    last.text = joined
                    continue
        out.append(run)
    return out


def _shapes_alike(first: Run, second: Run, joined: str) -> bool:
    """Whether shaping `joined` puts every glyph where shaping the two runs apart did (words joined
    by a space are shaped apart anyway; touching pieces of one word may kern or ligate once joined)."""
    from cardgen.render.shaping import glyphs

    if len(joined) > len(first.text) + len(second.text):
        return True
    a, b = glyphs(first.font, first.text), glyphs(first.font, second.text)
    moved = tuple((g, x + a.advance, y) for g, x, y in b.glyphs)
    return glyphs(first.font, joined).glyphs == a.glyphs + moved


def _face_width(run: Run) -> float:
    from cardgen.render.fonts import load_face

    return load_face(run.font).width_mm(run.text, run.size)


def _space_width(run: Run) -> float:
    from cardgen.render.fonts import load_face

    return load_face(run.font).width_mm(" ", run.size)
