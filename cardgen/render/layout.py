"""Card layouts as data: a game's layouts.yaml turned into a display list for each card.

Every element is placed in millimetres from the top-left of the trim box. Values may be Jinja2
expressions over the card (`{{ card.attack }}`), evaluated in a sandbox. Mistakes in the file
(unknown keys, a `card.field` no card type has, a text box outside the safe zone) are reported
with file and line when the layouts are loaded; text that cannot fit a card is reported naming
the card and the field when it is laid out. See docs/layouts.md.
"""

from __future__ import annotations

import re
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from cardgen.errors import ContentError, Issue, IssueList, did_you_mean
from cardgen.filenames import file_stem, slug, taken_by
from cardgen.model import Card, Game
from cardgen.render import fallback, filecache, limits
from cardgen.render.art import ArtError, art_size, check_art
from cardgen.render.components import Component, check_reference_back, label, read_components, sized
from cardgen.render.display import (
    MM_PER_INCH,
    PRINT_DPI,
    Colour,
    Ellipse,
    Face,
    Line,
    Picture,
    Polygon,
    Rect,
    Run,
)
from cardgen.render.effects import (
    EFFECTS,
    effect_problems,
    reach,
    shadow_upright,
    turned,
    turned_box,
    upright,
    with_effects,
)
from cardgen.render.fonts import ICON_FAMILY, PT_TO_MM, VARIANTS, FontBook, glyph_bounds, load_face
from cardgen.render.text import InlineImage, MissingGlyph, Overflow, Style, TextProblem, fit_text, measure
from cardgen.yamlio import LineDict, LineList, parse_yaml, read_yaml_text

CARD_SIZES = {  # trim sizes in mm
    "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "mini": (44.45, 63.5), "euro-mini": (44.0, 68.0),
    "tarot": (69.85, 120.65), "square": (63.5, 63.5),
}
DEFAULT_BLEED = 3.175   # 1/8 in, what The Game Crafter, MakePlayingCards and DriveThruCards ask for
DEFAULT_SAFE = 3.175
ELEMENT_KINDS = ("rect", "ellipse", "polygon", "line", "text", "flow", "icon", "image", "group", "use")
COMMON_KEYS = {"when", "name"}
ELEMENT_KEYS = {
    "rect": {"fill", "stroke", "stroke_width", "radius"},
    "ellipse": {"fill", "stroke", "stroke_width"},
    "polygon": {"fill", "stroke", "stroke_width"},
    "line": {"colour", "width"},
    "text": {"at", "style", "field", "right", "rotate", *Style.__dataclass_fields__},
    "flow": {"at", "gap", "min_scale"},
    "icon": {"at", "colour", "repeat", "step", "bold"},
    "image": {"at", "fit", "optional", "placeholder", "rotate"},
    "group": {"offset"},
    "use": set(),
}
BLOCK_KEYS = {"text", "style", "each", "as", "when", "right", "field", "rule", "colour", "width",
              *Style.__dataclass_fields__}
STYLE_KEYS = {*Style.__dataclass_fields__, "extends"}
TOP_KEYS = {"card", "fonts", "colours", "styles", "templates", "types", "backs", "back_for", "reference",
            "reference_back", "components"}
_EXPR = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)


class LayoutError(Exception):
    """A card that cannot be laid out (text overflow, missing or broken art, a glyph no font has,
    an expression that fails). Reported at the card's line, or at `line` of `file` when given:
    the card's field that names its art, the line of layouts.yaml whose expression failed."""

    def __init__(self, card: Card | None, where: str, message: str, file: Path | None = None,
                 line: int | None = None):
        self.card, self.where, self.message, self.file, self.line = card, where, message, file, line
        super().__init__(str(self.issue()))

    def issue(self) -> Issue:
        label = f"card {self.card.name!r}: " if self.card else ""
        if self.file is not None:
            return Issue(self.file, self.line, self.where, f"{label}{self.message}")
        if self.card is not None:
            return Issue(self.card.file, self.line or self.card.line, self.where, f"{label}{self.message}")
        return Issue(None, None, self.where, self.message)


@dataclass
class Layouts:
    game: Game
    path: Path
    width: float
    height: float
    bleed: float
    safe: float
    radius: float
    book: FontBook
    colours: dict[str, Colour]
    styles: dict[str, Style]
    templates: dict[str, list]
    types: dict[str, list]
    backs: dict[str, list]
    back_for: str | None
    _: KW_ONLY          # (the rest by name: a field added above one must not take its value)
    reference: dict[str, list] = field(default_factory=dict)   # card-sized player aids
    reference_back: str | None = None       # the back the aids print on (None: `default`)
    components: dict[str, Component] = field(default_factory=dict)   # mats, boards (components.py)
    source: str = ""                        # the file's text, for the render cache key
    env: Any = field(default=None, repr=False)
    # template source -> its parse tree (from the check) and its compiled callable(variables),
    # compiled when first used, or all at once by compile_templates before forking workers
    parsed: dict = field(default_factory=dict, repr=False)
    compiled: dict = field(default_factory=dict, repr=False)
    # template source -> [(its line in layouts.yaml, the setting), ...]: every place it is written.
    # An expression that fails for a card is reported at the place in the face or back being
    # drawn (Context.scope), so one written alike on a face and a back is reported at each.
    sources: dict = field(default_factory=dict, repr=False)
    # cardgen.inputs.face_key's memo: each face's key, and the hash of the part they all share
    keys: dict = field(default_factory=dict, repr=False)
    root: Path | None = field(default=None, repr=False)    # the game folder, resolved once (images)
    # The items of elements with no template in them, by (element id, offset): the same on every
    # card, so each is laid out once per process and the items are shared by every face.
    fixed: dict = field(default_factory=dict, repr=False)
    # what {name} draws in text: game.yaml's font icons (characters) and picture icons (InlineImage)
    text_icons: dict = field(default_factory=dict, repr=False)
    # card types of another size than the card's (card.sizes): type id -> (width, height) in mm
    sizes: dict = field(default_factory=dict)
    # the backs whose elements read the card (`{{ card.backstory }}`): drawn for each card that
    # takes them, where another back is drawn once and shared (cardgen.render.card_backs)
    card_backs: set = field(default_factory=set)

    def size_of(self, type_id: str | None) -> tuple[float, float]:
        """The trim size of a card type's cards (the card's size for the rest, aids and backs
        of no card)."""
        return self.sizes.get(type_id, (self.width, self.height))

    def all_sizes(self) -> list[tuple[float, float]]:
        """Every size the game's cards come in, the card's first."""
        return list(dict.fromkeys([(self.width, self.height), *self.sizes.values()]))


# -- loading -------------------------------------------------------------------------------------

def load_layouts(game: Game) -> Layouts:
    filecache.forget_changed()          # a font or image saved since it was read is read again
    path = game.folder / "layouts.yaml"
    if not path.exists() and not path.is_symlink():   # (a pipe, a folder, a link: read_yaml_text says)
        raise ContentError([Issue(path, None, None, "this game has no layouts.yaml (card layouts); "
                                                    "see docs/layouts.md")])
    source = read_yaml_text(path, game.folder)
    raw = parse_yaml(source, path)
    issues = IssueList(path)
    if not isinstance(raw, dict):
        issues.add(1, None, "layouts.yaml must be a mapping with card, styles, types...")
        issues.raise_if_any()
    for key in raw:
        if key not in TOP_KEYS:
            issues.add(raw.line_of(key), key, f"unknown section{did_you_mean(key, TOP_KEYS)}")
    width, height, bleed, safe, radius = _card_geometry(raw.get("card") or {}, game, issues, raw)
    sizes = type_sizes((raw.get("card") or {}).get("sizes"), raw.get("card"), game, issues)
    book = FontBook(_fonts(raw.get("fonts") or {}, game, issues))
    colours = _colours(raw.get("colours") or {}, issues)
    styles = _styles(raw.get("styles") or {}, colours, book, issues)
    layouts = Layouts(game, path, width, height, bleed, safe, radius, book, colours, styles,
                      _element_lists(raw.get("templates") or {}, "templates", issues),
                      _element_lists(raw.get("types") or {}, "types", issues),
                      _element_lists(raw.get("backs") or {}, "backs", issues, own_files=True),
                      raw.get("back_for"),
                      reference=_element_lists(raw.get("reference") or {}, "reference", issues,
                                               own_files=True),
                      source=source, sizes=sizes)
    layouts.reference_back = raw.get("reference_back")
    check_reference_back(layouts.reference_back, layouts.backs, raw.line_of("reference_back"), issues)
    layouts.components = read_components(raw.get("components"), game, bleed, issues)
    for type_id in layouts.types:
        if type_id not in game.card_types:
            issues.add(raw["types"].line_of(type_id), f"types.{type_id}",
                       f"no card type {type_id!r}{did_you_mean(type_id, game.card_types)}")
    for type_id in game.card_types:
        if type_id not in layouts.types:
            issues.add(raw.line_of("types"), "types", f"no layout for card type {type_id!r}")
    if "default" not in layouts.backs and not layouts.back_for:
        issues.add(raw.line_of("backs"), "backs", "needs a `default` back (or `back_for:`)")
    layouts.env = _environment(layouts)
    if _has_template(layouts.back_for):
        layouts.sources[layouts.back_for] = [(raw.line_of("back_for"), "back_for")]
    _check_elements(layouts, issues)
    layouts.card_backs = {name for name, elements in layouts.backs.items() if _reads_card(layouts, elements)}
    _check_card_back_files(layouts, raw.get("backs"), issues)
    if layouts.reference_back in layouts.card_backs:
        issues.add(raw.line_of("reference_back"), "reference_back",
                   f"the back {layouts.reference_back!r} reads the card it is drawn for, and a player aid "
                   f"is no card: name a back that does not read `card`")
    issues.issues = list(dict.fromkeys(issues.issues))    # a template used by two types: said once
    issues.raise_if_any()
    layouts.text_icons = {**game.icons, **_picture_icons(layouts)}
    return layouts


def _check_card_back_files(layouts: Layouts, raw, issues: IssueList) -> None:
    """A shared back named as a back drawn from a card is written (sheet-amaya-sol beside sheet
    drawn for Amaya Sol): the two would share one PNG."""
    shared = {file_stem(name): name for name in layouts.backs if name not in layouts.card_backs}
    for name in sorted(layouts.card_backs):
        for card in layouts.game.cards.values():
            other = shared.get(f"{file_stem(name)}-{card.stem}")
            if other is not None:
                issues.add(raw.line_of(other), f"backs.{other}",
                           f"would share its file name with backs.{name} drawn for card {card.name!r} "
                           f"(line {raw.line_of(name)}): rename one of them")


def _reads_card(layouts: Layouts, value) -> bool:
    """Whether elements read the card they are drawn for (`card` in an expression of their own,
    their groups', flows' or placeholders'). A template they `use` does not count: a frame shared
    with the faces may read the card (a colour by the card's type) and the back stay shared."""
    from jinja2 import TemplateSyntaxError, nodes

    if isinstance(value, str):
        if not _has_template(value):
            return False
        try:
            tree = layouts.parsed.get(value) or layouts.parsed.setdefault(value, layouts.env.parse(value))
        except TemplateSyntaxError:         # (reported by the check)
            return False
        return any(node.name == "card" for node in tree.find_all(nodes.Name))
    if isinstance(value, dict):
        return any(_reads_card(layouts, v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_reads_card(layouts, v) for v in value)
    return False


def _picture_icons(layouts: Layouts) -> dict[str, InlineImage]:
    """game.yaml's picture icons, each file checked (a problem is game.yaml's, at the icon's line)."""
    game = layouts.game
    issues = IssueList(game.folder / "game.yaml")
    root = game.folder.resolve()
    out = {}
    for name, icon in game.icon_images.items():
        where = f"icons.{name}"
        path = (game.folder / icon.image).resolve()
        if not path.is_relative_to(root):
            issues.add(icon.line, where, f"image {icon.image!r} is outside the game folder")
            continue
        try:
            width, height = art_size(str(path))
            # (checked as if drawn an inch tall: larger than in any text, a 90 pt title's icons)
            check_art(str(path), _print_pixels(MM_PER_INCH * width / height, MM_PER_INCH), "contain")
        except ArtError as exc:
            missing = not path.exists() and not path.is_symlink()
            issues.add(icon.line, where, f"no image file {icon.image!r} in {game.folder}" if missing
                       else f"{icon.image} {exc}")
            continue
        own = icon.colour == "original"
        colour = None if own or icon.colour is None else (
            layouts.colours.get(icon.colour) or parse_colour(icon.colour))
        if not own and icon.colour is not None and colour is None:
            issues.add(icon.line, f"{where}.colour", f"unknown colour {icon.colour!r} (`original`, "
                       f"#rrggbb or one of layouts.yaml's{did_you_mean(icon.colour, layouts.colours)})")
            continue
        out[name] = InlineImage(str(path), width / height, own, colour)
    issues.raise_if_any()
    return out


def _card_geometry(card, game: Game, issues: IssueList, raw):
    if not isinstance(card, dict):
        issues.add(raw.line_of("card"), "card", "expected a mapping (size, bleed, safe, radius)")
        card = {}
    size = card.get("size", game.meta.get("card_size", "poker"))
    if isinstance(size, str):
        if size not in CARD_SIZES:
            issues.add(card.line_of("size") if card else None, "card.size",
                       f"expected one of {', '.join(CARD_SIZES)}{did_you_mean(size, CARD_SIZES)}")
            size = "poker"
        width, height = CARD_SIZES[size]
    else:
        width, height = card.get("width", 63.5), card.get("height", 88.9)
    if "width" in card or "height" in card:
        width, height = card.get("width", width), card.get("height", height)
    numbers = {"width": width, "height": height, "bleed": card.get("bleed", DEFAULT_BLEED),
               "safe": card.get("safe", DEFAULT_SAFE), "radius": card.get("radius", 3.0)}
    for key, value in numbers.items():
        problem = limits.CARD[key].problem(value)
        if problem:
            issues.add(card.line_of(key) if key in card else card.line_of("size") if card else None,
                       f"card.{key}", problem)
            numbers[key] = _CARD_FALLBACK[key]     # (checking goes on with a card that makes sense)
    for key in card:
        if key not in ("size", "width", "height", "bleed", "safe", "radius", "sizes"):
            issues.add(card.line_of(key), f"card.{key}", "unknown setting (size, width, height, bleed, "
                                                          "safe, radius, sizes)")
    return (float(numbers["width"]), float(numbers["height"]), float(numbers["bleed"]),
            float(numbers["safe"]), float(numbers["radius"]))


def type_sizes(raw, card, game: Game, issues: IssueList) -> dict[str, tuple[float, float]]:
    """card.sizes: card types of another size, each a named size (tarot) or {width, height}."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        issues.add(card.line_of("sizes"), "card.sizes", "expected a mapping of card type to size "
                                                         "(a named size or {width: ..., height: ...})")
        return {}
    out = {}
    for type_id, size in raw.items():
        where, line = f"card.sizes.{type_id}", raw.line_of(type_id)
        if type_id not in game.card_types:
            issues.add(line, where, f"no card type {type_id!r}{did_you_mean(type_id, game.card_types)}")
            continue
        if isinstance(size, str):
            if size not in CARD_SIZES:
                issues.add(line, where, f"expected one of {', '.join(CARD_SIZES)} or {{width, height}}"
                                        f"{did_you_mean(size, CARD_SIZES)}")
                continue
            out[str(type_id)] = CARD_SIZES[size]
            continue
        if not isinstance(size, dict) or set(size) != {"width", "height"}:
            issues.add(line, where, f"expected a named size ({', '.join(CARD_SIZES)}) or "
                                    f"{{width: ..., height: ...}} in mm, got {size!r}")
            continue
        problems = [(key, limits.CARD[key].problem(size[key])) for key in ("width", "height")]
        for key, problem in problems:
            if problem:
                issues.add(size.line_of(key), f"{where}.{key}", problem)
        if not any(problem for _, problem in problems):
            out[str(type_id)] = (float(size["width"]), float(size["height"]))
    return out


_CARD_FALLBACK = {"width": CARD_SIZES["poker"][0], "height": CARD_SIZES["poker"][1], "bleed": DEFAULT_BLEED,
                  "safe": DEFAULT_SAFE, "radius": 3.0}


def _fonts(raw, game: Game, issues: IssueList) -> dict[str, dict[str, Path]]:
    out = {}
    root = game.folder.resolve()
    for family, files in raw.items():
        if isinstance(files, str):
            files = {"regular": files}
        if not isinstance(files, dict):
            issues.add(raw.line_of(family), f"fonts.{family}", "expected a file or variant -> file")
            continue
        out[family] = {}
        for variant, rel in files.items():
            line = files.line_of(variant) if isinstance(files, LineDict) else raw.line_of(family)
            if variant not in VARIANTS:
                issues.add(line, f"fonts.{family}.{variant}", f"expected one of {', '.join(VARIANTS)}")
                continue
            path = (game.folder / str(rel)).resolve()
            if not path.is_relative_to(root):
                issues.add(line, f"fonts.{family}", "font files must be inside the game folder")
                continue
            try:
                load_face(str(path))
            except Exception as exc:  # a missing or damaged file fails in assorted ways
                issues.add(line, f"fonts.{family}", f"cannot use {rel}: {exc}")
                continue
            out[family][variant] = path
    return out


def parse_colour(value) -> Colour | None:
    if not isinstance(value, str):
        return None
    text = value.strip().lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{6}([0-9a-fA-F]{2})?", text):
        return None
    rgb = tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))
    alpha = int(text[6:8], 16) if len(text) == 8 else 255
    return (*rgb, alpha)


def _colours(raw, issues: IssueList) -> dict[str, Colour]:
    out = {}
    for name, value in raw.items():
        colour = parse_colour(value)
        if colour is None:
            issues.add(raw.line_of(name), f"colours.{name}", f"expected #rrggbb or #rrggbbaa, got {value!r}")
            continue
        out[str(name)] = colour
    return out


def _styles(raw, colours, book: FontBook, issues: IssueList) -> dict[str, Style]:
    out: dict[str, Style] = {}

    def build(name, seen=()):
        if name in out:
            return out[name]
        spec = raw.get(name)
        if not isinstance(spec, dict):
            issues.add(raw.line_of(name), f"styles.{name}", "expected a mapping of style settings")
            return Style()
        base = Style()
        if "extends" in spec:
            parent = spec["extends"]
            if parent in seen or parent not in raw:
                issues.add(spec.line_of("extends"), f"styles.{name}.extends",
                           f"no style {parent!r}{did_you_mean(parent, raw)}")
            else:
                base = build(parent, (*seen, name))
        out[name] = style_with(base, spec, colours, book, issues, f"styles.{name}")
        return out[name]

    for name in raw:
        build(name)
    return out


def style_with(base: Style, spec: dict, colours, book: FontBook, issues: IssueList | None,
               where: str) -> Style:
    """A style with some settings changed; unknown settings and bad values are reported."""
    from dataclasses import replace

    changes = {}
    for key, value in spec.items():
        if key in ("extends",) or key not in Style.__dataclass_fields__:
            if key not in STYLE_KEYS and key not in BLOCK_KEYS and key not in ELEMENT_KEYS["text"] \
                    and issues is not None:
                issues.add(spec.line_of(key), f"{where}.{key}", f"unknown style setting"
                                                               f"{did_you_mean(key, STYLE_KEYS)}")
            continue
        if key == "colour":
            colour = colours.get(value) if isinstance(value, str) else None
            colour = colour or parse_colour(value)
            if colour is None:
                if isinstance(value, str) and "{{" in value:
                    continue  # an expression: resolved per card
                if issues is not None:
                    issues.add(spec.line_of(key), f"{where}.colour", f"unknown colour {value!r}"
                                                                    f"{did_you_mean(value, colours)}")
                continue
            value = colour
        elif key in EFFECTS:
            value, problems = effect_problems(key, value, lambda v: _named_colour(v, colours))
            for sub, problem in problems if issues is not None else ():
                line = value_line(spec, key, sub)
                issues.add(line, f"{where}.{key}.{sub}" if sub else f"{where}.{key}", problem)
            if problems:
                continue
        elif key == "font" and value not in book.families:
            if issues is not None:
                issues.add(spec.line_of(key), f"{where}.font",
                           f"unknown font {value!r}{did_you_mean(value, book.families)}")
            continue
        elif problem := setting_problem(key, value):
            if issues is not None:
                issues.add(spec.line_of(key), f"{where}.{key}", problem)
            continue
        changes[key] = value
    style = replace(base, **changes)
    if "size" in changes and "min_size" not in changes and style.min_size > style.size:
        style = replace(style, min_size=style.size)
    return style


def _named_colour(value, colours) -> Colour | None:
    """A colour as written in layouts.yaml: a name of its colours, or #rrggbb(aa)."""
    return (colours.get(value) if isinstance(value, str) else None) or parse_colour(value)


def value_line(spec, key: str, sub: str = "") -> int | None:
    """The line of spec[key][sub] (of spec[key] when it has no lines of its own)."""
    inner = spec.get(key)
    if sub and isinstance(inner, LineDict) and sub in inner:
        return inner.line_of(sub)
    return spec.line_of(key) if isinstance(spec, LineDict) else None


def setting_problem(key: str, value) -> str | None:
    """What is wrong with a value of a style setting or another number of an element (None: it is
    fine). Fonts and colours are looked up elsewhere: they need the layouts' names."""
    rule = limits.STYLE_NUMBERS.get(key) or limits.ELEMENT_NUMBERS.get(key)
    if rule is not None:
        return rule.problem(value)
    if key in limits.STYLE_FLAGS and not isinstance(value, bool):
        return f"expected true or false, got {value!r}"
    choices = limits.STYLE_CHOICES.get(key)
    if choices and value not in choices:
        return f"expected {', '.join(choices[:-1])} or {choices[-1]}, got {value!r}"
    return None


def _element_lists(raw, section: str, issues: IssueList, own_files: bool = False) -> dict[str, list]:
    """name -> elements. `own_files`: each is drawn to a file of its own (backs/<name>.png), so two
    names that would share one are an error."""
    out, files = {}, {}
    if not isinstance(raw, dict):
        issues.add(None, section, "expected a mapping of name to a list of elements")
        return out
    for name, elements in raw.items():
        if not isinstance(elements, list):
            issues.add(raw.line_of(name), f"{section}.{name}", "expected a list of elements")
            continue
        first = taken_by(files, file_stem(name), name) if own_files else None
        if first is not None:
            issues.add(raw.line_of(name), f"{section}.{name}",
                       f"would share its file name ({file_stem(name)}) with {section}.{first} (line "
                       f"{raw.line_of(first)}): file names keep only letters and digits, ignoring case")
        out[str(name)] = elements
    return out


# -- expressions ---------------------------------------------------------------------------------

ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


def _environment(layouts: Layouts):
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(autoescape=False, keep_trailing_newline=False)
    env.filters["roman"] = lambda n: ROMAN[n] if isinstance(n, int) and 0 <= n < len(ROMAN) else str(n)
    env.filters["slug"] = slug
    env.filters["text_width"] = _text_width_filter(layouts)
    env.globals.update(colours=layouts.colours, icons=layouts.game.icons, tables=layouts.game.tables,
                       game={"id": layouts.game.id, "name": layouts.game.name})
    return env


def _text_width_filter(layouts: Layouts):
    """`{{ text | text_width('style') }}`: the width in mm of plain text set in a style's font and
    size, shaped (kerned) as the text elements set it; for rules drawn under or beside text."""
    def text_width(text, style_name: str) -> float:
        style = layouts.styles.get(style_name)
        if style is None:
            raise ValueError(f"text_width: no style {style_name!r}{did_you_mean(style_name, layouts.styles)}")
        face = layouts.book.face(style.font, style.bold, style.italic)
        return face.width_mm(str(text), style.size)
    return text_width


_FAST_JINJA: list[bool] = []


def fast_jinja(env) -> bool:
    """Whether Jinja2 still has the internals _compile runs templates through (pyproject keeps it
    below its next major version): TemplateExpression._template, Template.root_render_func, the
    Context constructor and Environment.concat. Tried once per process; when one is missing or
    has changed, expressions run through compile_expression's and Template.render's public calls
    (same values, slower), with a notice."""
    if not _FAST_JINJA:
        step = "TemplateExpression._template"
        try:
            template = env.compile_expression("a + 1")._template
            step = "Environment.context_class(environment, parent, name, blocks)"
            context = _context(template, {"a": 1})
            step = "Template.root_render_func"
            for _ in template.root_render_func(context):
                pass
            step = "Environment.concat"
            if context.vars["result"] != 2 or env.concat(["o", "k"]) != "ok":
                raise ValueError("gave another value")
            _FAST_JINJA.append(True)
        except Exception as exc:          # anything at all: the public calls give the same values
            fallback.notice("Jinja2", step, exc)
            _FAST_JINJA.append(False)
    return _FAST_JINJA[0]


def _compile(env, source: str, tree=None):
    """A template string as a callable(variables): a lone `{{ expression }}` keeps its native type
    (a number stays a number), anything else renders to text. `tree`: the source already parsed.
    `variables` must hold the environment's globals too (Context.jinja_vars)."""
    from jinja2 import Undefined, nodes

    match = _EXPR.match(source)
    if not fast_jinja(env):
        if match and "{{" not in match.group(1):
            return env.compile_expression(match.group(1))           # (None for undefined, as below)
        return env.from_string(source).render
    if match and "{{" not in match.group(1):
        template = None
        output = tree.body[0] if tree is not None and len(tree.body) == 1 else None
        if isinstance(output, nodes.Output) and len(output.nodes) == 1 \
                and not isinstance(output.nodes[0], nodes.TemplateData):
            # what compile_expression builds, from the tree the check parsed (no second parse)
            body = [nodes.Assign(nodes.Name("result", "store"), output.nodes[0], lineno=1)]
            template = env.from_string(nodes.Template(body, lineno=1))
        template = template or env.compile_expression(match.group(1))._template

        def expression(variables):    # as jinja2's TemplateExpression, without new_context's copies
            context = _context(template, variables)
            for _ in template.root_render_func(context):
                pass
            value = context.vars["result"]
            return None if isinstance(value, Undefined) else value
        return expression
    template = env.from_string(tree if tree is not None else source)
    return lambda variables: env.concat(template.root_render_func(_context(template, variables)))


def _context(template, variables: dict):
    """A jinja2 Context over `variables` (which already hold the globals). Template.new_context
    would copy the globals and the variables into a new dict for every evaluation, through a
    ChainMap: a tenth of laying out a card. Evaluating never writes to `variables` (assignments
    go to the context's own vars), so one card's expressions share them."""
    env = template.environment
    return env.context_class(env, variables, template.name, template.blocks)


class Context:
    """Evaluates element values for one card (or one back)."""

    def __init__(self, layouts: Layouts, card: Card | None, variables: dict | None = None):
        self.layouts = layouts
        self.card = card
        self.vars = {"card": card_view(card)} if card is not None else {"card": {}}
        if variables:
            self.vars.update(variables)
        self.memo: dict = {}
        self.jinja_vars: dict | None = None
        self.boxes: list[FieldBox] | None = None     # filled by field_boxes() only
        self.size = layouts.size_of(card.type if card is not None else None)   # the face's trim size
        self.scope = ""         # the face or back drawn ("types.attack", "backs.sheet"), for errors

    def child(self, **variables) -> Context:
        ctx = Context.__new__(Context)
        ctx.layouts, ctx.card, ctx.vars = self.layouts, self.card, {**self.vars, **variables}
        ctx.memo, ctx.jinja_vars, ctx.boxes, ctx.size, ctx.scope = {}, None, self.boxes, self.size, self.scope
        return ctx

    def note_box(self, element, kind: str, box) -> None:
        """Record which card fields an element shows and its box (for the rulebook's anatomy)."""
        if self.boxes is not None:
            fields = fields_named(element)
            if fields:
                self.boxes.append(FieldBox(fields, kind, tuple(box)))

    def value(self, raw):
        """A literal, or the result of an expression `{{ ... }}` (native type), or a template string."""
        if isinstance(raw, str) and ("{{" in raw or "{%" in raw):
            # One card's layout asks for the same expression many times (a colour by element
            # for several panels): with the card's variables fixed, it is evaluated once.
            if raw in self.memo:
                return self.memo[raw]
            self.memo[raw] = value = self._evaluate(raw)
            return value
        return raw

    def _evaluate(self, raw: str):
        layouts = self.layouts
        if self.jinja_vars is None:       # what templates see: the globals, then this card's variables
            self.jinja_vars = {**layouts.env.globals, **self.vars}
        try:
            compiled = layouts.compiled.get(raw)
            if compiled is None:
                compiled = layouts.compiled[raw] = _compile(layouts.env, raw, layouts.parsed.get(raw))
            return compiled(self.jinja_vars)
        except Exception as exc:          # the layout's own code: it may fail in any way for a card
            raise self._failed(raw, exc) from None

    def _failed(self, raw: str, exc: Exception) -> LayoutError:
        """An expression that failed for this card, at its line of layouts.yaml: where the face or
        back being drawn writes it (else the first place it is written, such as a template)."""
        places = self.layouts.sources.get(raw) or [(None, None)]
        inside = (self.scope + ".", self.scope + "[")
        line, where = next((p for p in places if self.scope and p[1] and p[1].startswith(inside)), places[0])
        words = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if line is None:
            return LayoutError(self.card, "expression", f"{raw.strip()} failed: {words}")
        return LayoutError(self.card, where, f"the expression failed: {words}", file=self.layouts.path,
                           line=line)

    def text(self, raw) -> str:
        value = self.value(raw)
        if value is None or _is_undefined(value):
            return ""
        return str(value)

    def number(self, raw, where: str, rule: limits.Range, key: str = "") -> float:
        """A number of the layout for this card, within `rule`'s range (`key`: the setting, for
        the message). A literal was checked when the layouts loaded, but may have come here from
        a list an expression made: every number is checked."""
        kind = type(raw)
        if (kind is float or kind is int) and rule.lo <= raw <= rule.hi:
            return float(raw)       # most numbers: a literal, in range (whole: the load checked that)
        value = raw if kind is float or kind is int else self.value(raw)
        if isinstance(value, str):
            value = _text_number(value)
        if not rule.holds(value):
            raise LayoutError(self.card, f"{where}.{key}" if key else where, rule.problem(value))
        return float(value)

    def truthy(self, raw) -> bool:
        value = self.value(raw)
        if _is_undefined(value):
            return False
        if isinstance(value, str):
            return value.strip().lower() not in ("", "false", "0", "none", "no")
        return bool(value)

    def colour(self, raw, where: str) -> Colour | None:
        if type(raw) is str and raw in self.layouts.colours:    # a named colour, the usual case
            return self.layouts.colours[raw]
        value = self.value(raw)
        if value is None or _is_undefined(value) or value in ("none", ""):
            return None
        if isinstance(value, (list, tuple)) and len(value) in (3, 4):
            return tuple(value) + ((255,) if len(value) == 3 else ())
        found = self.layouts.colours.get(value) if isinstance(value, str) else None
        found = found or parse_colour(value)
        if found is None:
            raise LayoutError(self.card, where, f"unknown colour {value!r}"
                                                f"{did_you_mean(value, self.layouts.colours)}")
        return found


def _text_number(text: str):
    """A number a template wrote as text ("12.5"), or the text itself when it is none."""
    try:
        return float(text)
    except ValueError:
        return text


def compile_templates(layouts: Layouts) -> None:
    """Compile every template of the layouts now: forked workers then inherit them all instead of
    each compiling its own (about 2 ms each). Checking alone (validate, unchanged builds) skips it."""
    for source, tree in layouts.parsed.items():
        if source not in layouts.compiled:
            layouts.compiled[source] = _compile(layouts.env, source, tree)


def _is_undefined(value) -> bool:
    from jinja2 import Undefined

    return isinstance(value, Undefined)


def card_view(card: Card) -> dict:
    return {**card.fields, "name": card.name, "type": card.type, "copies": card.copies}


# -- static checks -------------------------------------------------------------------------------

def _check_elements(layouts: Layouts, issues: IssueList) -> None:
    """Unknown keys, templates that do not parse, card fields no type has, text outside the safe zone."""
    game = layouts.game
    all_fields = {"name", "type", "copies"} | {f for t in game.card_types.values() for f in t.fields}

    def fields_for(section, name):
        if section == "types" and name in game.card_types:
            return {"name", "type", "copies"} | set(game.card_types[name].fields)
        return all_fields

    def walk(elements, where, fields, depth=0, offset=(0.0, 0.0), size=None):
        if depth > 8:
            issues.add(None, where, "templates nested more than 8 deep (a template using itself?)")
            return
        for i, element in enumerate(elements):
            line = elements.line_of(i) if isinstance(elements, LineList) else None
            here = f"{where}[{i + 1}]"
            if not isinstance(element, dict):
                issues.add(line, here, "expected an element (a mapping such as {rect: trim, fill: ink})")
                continue
            kinds = [k for k in element if k in ELEMENT_KINDS]
            if len(kinds) != 1:
                issues.add(line, here, f"an element has exactly one of {', '.join(ELEMENT_KINDS)}")
                continue
            kind = kinds[0]
            allowed = ELEMENT_KEYS[kind] | COMMON_KEYS | {kind}
            for key in element:
                if key not in allowed:
                    issues.add(element.line_of(key), f"{here}.{key}",
                               f"not a setting of a {kind} element{did_you_mean(key, allowed)}")
            _check_templates(element, here, fields, issues, layouts)
            _check_values(element, here, issues, layouts.book.families)
            _check_effects(element, here, issues, layouts.colours)
            if kind == "image" and isinstance(element.get("placeholder"), list):
                walk(element["placeholder"], f"{here}.placeholder", fields, depth + 1, offset, size)
            if kind == "use" and element["use"] not in layouts.templates:
                hint = did_you_mean(element["use"], layouts.templates)
                issues.add(element.line_of("use"), f"{here}.use", f"no template {element['use']!r}{hint}")
            elif kind == "use":
                # a template may serve several card types: any field of the game may appear in it
                walk(layouts.templates[element["use"]], f"templates.{element['use']}", all_fields, depth + 1,
                     offset, size)
            if kind == "group" and isinstance(element["group"], list):
                shift = element.get("offset", [0, 0])
                fixed = isinstance(shift, list) and len(shift) == 2 and all(
                    isinstance(v, (int, float)) for v in shift)
                if fixed and offset is not None:
                    walk(element["group"], f"{here}.group", fields, depth + 1,
                         (offset[0] + shift[0], offset[1] + shift[1]), size)
                else:  # an offset computed per card: checked when cards are laid out
                    walk(element["group"], f"{here}.group", fields, depth + 1, None, size)
            if kind == "flow":
                _check_blocks(element, here, fields, issues, layouts)
            if kind in ("text", "flow", "icon") and offset is not None:
                _check_safe(element, here, layouts, issues, offset, size)
            if kind in ("text",) and "style" in element and element["style"] not in layouts.styles:
                issues.add(element.line_of("style"), f"{here}.style",
                           f"no style {element['style']!r}{did_you_mean(element['style'], layouts.styles)}")

    for section in ("types", "backs", "reference"):
        for name, elements in getattr(layouts, section).items():
            size = layouts.size_of(name) if section == "types" else (
                back_size(layouts, name) if section == "backs" else None)
            walk(elements, f"{section}.{name}", fields_for(section, name), size=size)
    for name, component in layouts.components.items():
        fields = fields_for("types", component.each) if component.each else all_fields
        for side, elements in component.sides.items():   # (no card-sized safe zone to check)
            walk(elements, f"components.{name}.{side}", fields, offset=None)


def _check_blocks(element, where, fields, issues, layouts):
    blocks = element["flow"]
    if not isinstance(blocks, list):
        issues.add(element.line_of("flow"), f"{where}.flow", "expected a list of text blocks")
        return
    for j, block in enumerate(blocks):
        line = blocks.line_of(j)
        if not isinstance(block, dict) or not ("text" in block or "rule" in block):
            issues.add(line, f"{where}.flow[{j + 1}]", "a block has `text:` (or `rule:` for a divider)")
            continue
        for key in block:
            if key not in BLOCK_KEYS:
                issues.add(block.line_of(key), f"{where}.flow[{j + 1}].{key}",
                           f"not a setting of a text block{did_you_mean(key, BLOCK_KEYS)}")
        if "style" in block and block["style"] not in layouts.styles:
            issues.add(block.line_of("style"), f"{where}.flow[{j + 1}].style",
                       f"no style {block['style']!r}{did_you_mean(block['style'], layouts.styles)}")
        extra = {block["as"]} if isinstance(block.get("as"), str) else set()
        _check_templates(block, f"{where}.flow[{j + 1}]", fields, issues, layouts, extra)
        _check_values(block, f"{where}.flow[{j + 1}]", issues, layouts.book.families)
        _check_effects(block, f"{where}.flow[{j + 1}]", issues, layouts.colours)


def _check_values(element, where: str, issues: IssueList, fonts) -> None:
    """The numbers, true/false settings and fonts written in the file, each against its range (a
    value an expression gives is checked for each card: Context.number, _style_for)."""
    for key, value in element.items():
        if key == "font" and not _has_template(value) and (not isinstance(value, str) or value not in fonts):
            problem = f"unknown font {value!r}{did_you_mean(value, fonts)}"
        else:
            problem = _value_problem(key, value)
        if problem:
            issues.add(element.line_of(key), f"{where}.{key}", problem)


def _check_effects(element, where: str, issues: IssueList, colours) -> None:
    """An element's or block's own outline and shadow (a style's are checked with the style)."""
    for key in EFFECTS:
        if key in element:
            _, problems = effect_problems(key, element[key], lambda v: _named_colour(v, colours))
            for sub, problem in problems:
                issues.add(value_line(element, key, sub), f"{where}.{key}.{sub}" if sub else f"{where}.{key}",
                           problem)


_POSITIONS = {"line": 4, "offset": 2, "step": 2}    # settings that are lists of positions, and how long


def _value_problem(key: str, value) -> str | None:
    if isinstance(value, list):
        if key in ("at", "rect", "ellipse") and len(value) == 4:
            size = limits.BOX_SIZE if key == "at" else limits.SIZE
            return _first_problem(value, (limits.POSITION, limits.POSITION, size, size))
        if _POSITIONS.get(key) == len(value):
            return _first_problem(value, [limits.POSITION] * len(value))
        if key == "polygon":
            points = [p for p in value if isinstance(p, list) and len(p) == 2]
            return _first_problem([v for p in points for v in p], [limits.POSITION] * 2 * len(points))
        return None
    if _has_template(value):
        return None
    return setting_problem(key, value)


def _first_problem(values, rules) -> str | None:
    """The first number of a list outside its range (expressions in it are checked per card)."""
    for value, rule in zip(values, rules, strict=True):
        problem = None if _has_template(value) else rule.problem(value)
        if problem:
            return problem
    return None


def _check_templates(element, where, fields, issues, layouts, loop_vars=frozenset()):
    from jinja2 import TemplateSyntaxError, nodes

    for key, value in element.items():
        if not isinstance(value, str) or ("{{" not in value and "{%" not in value):
            continue
        try:
            # a template used from several places (templates:, flows) is parsed once
            tree = layouts.parsed.get(value) or layouts.parsed.setdefault(value, layouts.env.parse(value))
        except TemplateSyntaxError as exc:
            issues.add(element.line_of(key), f"{where}.{key}", f"template error: {exc.message}")
            continue
        places = layouts.sources.setdefault(value, [])
        if (element.line_of(key), f"{where}.{key}") not in places:      # (a template used twice)
            places.append((element.line_of(key), f"{where}.{key}"))
        for node in tree.find_all(nodes.Getattr):
            if isinstance(node.node, nodes.Name) and node.node.name == "card" and node.attr not in fields:
                issues.add(element.line_of(key), f"{where}.{key}",
                           f"card.{node.attr} is not a field of these cards{did_you_mean(node.attr, fields)}")
        # Jinja finds unknown filters and tests only when it compiles, which happens at render
        for kind, known in ((nodes.Filter, layouts.env.filters), (nodes.Test, layouts.env.tests)):
            for node in tree.find_all(kind):
                if node.name not in known:
                    what = "filter" if kind is nodes.Filter else "test"
                    issues.add(element.line_of(key), f"{where}.{key}",
                               f"no {what} named {node.name!r}{did_you_mean(node.name, known)}")


def _check_safe(element, where, layouts: Layouts, issues: IssueList, offset=(0.0, 0.0), size=None) -> None:
    box = element.get("at")
    if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box)):
        return
    angle = element.get("rotate", 0)
    x, y, w, h = turned_box(box, angle) if isinstance(angle, (int, float)) else box
    x, y = x + offset[0], y + offset[1]
    s = layouts.safe
    width, height = size or (layouts.width, layouts.height)
    over = max(s - x, s - y, x + w - (width - s), y + h - (height - s))
    if over > 0.01:
        issues.add(element.line_of("at"), f"{where}.at",
                   f"box {box}{' turned' if x != box[0] + offset[0] or w != box[2] else ''} reaches "
                   f"{over:.1f} mm past the safe zone ({s} mm inside the cut)")


# -- laying out a card ---------------------------------------------------------------------------

def layout_face(layouts: Layouts, card: Card) -> Face:
    return _layout(layouts, card, None)


@dataclass(frozen=True)
class FieldBox:
    """An element that shows card fields: their names, the element's kind and its box (mm from the
    trim's top left). A flow's blocks are one each, with the block's own box."""

    fields: tuple[str, ...]
    kind: str
    box: tuple[float, float, float, float]


def field_boxes(layouts: Layouts, card: Card) -> tuple[Face, list[FieldBox]]:
    """A card's face and the box of every element that shows one of its fields, in drawing order."""
    boxes: list[FieldBox] = []
    return _layout(layouts, card, boxes), boxes


def _layout(layouts: Layouts, card: Card, boxes: list | None) -> Face:
    face = Face(card.name, *layouts.size_of(card.type), layouts.bleed, radius=layouts.radius)
    ctx = Context(layouts, card)
    ctx.boxes, ctx.scope = boxes, f"types.{card.type}"
    _render(layouts.types[card.type], ctx, face.items, ctx.scope, (0.0, 0.0))
    return face


_CARD_FIELD = re.compile(r"card\.([A-Za-z_][A-Za-z0-9_]*)|card\[['\"]([^'\"]+)['\"]\]")


def fields_named(element) -> tuple[str, ...]:
    """The card fields an element's settings name (`field:`, `card.x` in its text, `when`, `each`...)."""
    names = [a or b for a, b in _CARD_FIELD.findall(str(element))]
    if isinstance(element, dict) and "field" in element:
        names.insert(0, str(element["field"]))
    return tuple(dict.fromkeys(names))


def files_used(layouts: Layouts, elements: list, card: Card | None) -> set[str]:
    """Every image and font file these elements may draw with for this card (cardgen.inputs keys
    a face by their content): each image by its path evaluated for the card, missing or not, and
    its placeholder's; every variant of each font family a style or element names, and the icon
    and fallback family. Conditions (`when`) are not evaluated: a file a card might use counts."""
    families = {Style().font, ICON_FAMILY}
    images: set[str] = set()
    ctx = Context(layouts, card)
    root = layouts.game.folder

    def family_of(el) -> None:
        style = layouts.styles.get(el.get("style")) if isinstance(el.get("style"), str) else None
        families.add(style.font if style is not None else Style().font)
        font = el.get("font")
        if isinstance(font, str) and "{{" not in font:
            families.add(font)
        elif font is not None:          # a font chosen by an expression: any of them
            families.update(layouts.book.families)

    def walk(items) -> None:
        for el in items or ():
            if not isinstance(el, dict):
                continue
            if "image" in el:
                try:
                    rel = ctx.text(el["image"]).strip()
                except Exception:       # the layout reports it when the card is drawn
                    rel = ""
                images.add(str(root / rel) if rel else "")
                walk(el.get("placeholder"))
            elif "group" in el:
                walk(el["group"])
            elif "use" in el:
                walk(layouts.templates.get(el["use"]))
            elif "flow" in el:
                family_of(el)
                for block in el["flow"] if isinstance(el["flow"], list) else ():
                    if isinstance(block, dict):
                        family_of({**el, **block} if "style" not in block else block)
            elif "text" in el:
                family_of(el)

    walk(elements)
    fonts = {path for name in families for path in layouts.book.families.get(name, {}).values()}
    return fonts | {i for i in images if i}


def back_name(layouts: Layouts, card: Card | None, deck=None) -> str:
    """Which back a card gets: `back_for` reads the card and, when a deck is printed, the deck
    (`deck.character`, `deck.name`...), so a shared card takes the back of the deck it is in."""
    if card is not None and layouts.back_for:
        view = {**deck.fields, "name": deck.name} if deck is not None else {}
        name = Context(layouts, card, {"deck": view}).text(layouts.back_for).strip()
        if name in layouts.backs:
            return name
        if "default" not in layouts.backs:
            raise LayoutError(card, "back_for", f"no back named {name!r}")
    return "default"


def layout_back(layouts: Layouts, name: str, card: Card | None = None,
                size: tuple[float, float] | None = None) -> Face:
    """A back at `size` (default: the size of `card`, or of the cards that take it: back_size)."""
    ctx = Context(layouts, card)
    ctx.size = size or (ctx.size if card is not None else back_size(layouts, name))
    face = Face(f"back: {name}", *ctx.size, layouts.bleed, radius=layouts.radius)
    ctx.scope = f"backs.{name}"
    _render(layouts.backs[name], ctx, face.items, ctx.scope, (0.0, 0.0))
    return face


def back_size(layouts: Layouts, name: str) -> tuple[float, float]:
    """The size of a back's own picture (backs/<name>.png, the TTS back): that of the cards that
    take it (the first of them, in the game's order, when cards of several sizes do: the proxy
    sheets draw it at each card's size)."""
    if not layouts.sizes:
        return (layouts.width, layouts.height)
    for card in layouts.game.cards.values():
        try:
            if back_name(layouts, card) == name:
                return layouts.size_of(card.type)
        except LayoutError:
            continue                    # (reported where the backs are drawn)
    return (layouts.width, layouts.height)


def layout_reference(layouts: Layouts, name: str) -> Face:
    """A card-sized player aid (layouts.yaml `reference:`), drawn from the game's tables."""
    face = Face(f"reference: {name}", layouts.width, layouts.height, layouts.bleed, radius=layouts.radius)
    ctx = Context(layouts, None)
    ctx.scope = f"reference.{name}"
    _render(layouts.reference[name], ctx, face.items, ctx.scope, (0.0, 0.0))
    return face


def layout_component(layouts: Layouts, key: str, side: str, card: Card | None = None) -> Face:
    """One side of a component (layouts.yaml `components:`) at its own size and bleed; drawn from
    `card` when the component is made for each card of a type (`each:`)."""
    component = layouts.components[key]
    face = Face(f"{label(component, card)} ({side})", component.width, component.height, component.bleed)
    ctx = Context(sized(layouts, component), card)
    ctx.size = (component.width, component.height)     # (not the card's own size)
    ctx.scope = f"components.{key}.{side}"
    where = ctx.scope + (f" ({card.name})" if card is not None else "")
    _render(component.sides[side], ctx, face.items, where, (0.0, 0.0))
    return face


def reference_copies(game: Game) -> int:
    """One of each aid per player."""
    players = game.meta.get("players") or {}
    return int(players.get("max", 2)) if isinstance(players, dict) else 2


def _box(ctx: Context, value, where: str, offset, key: str = "at") -> tuple[float, float, float, float]:
    layouts = ctx.layouts
    dx, dy = offset
    width, height = ctx.size
    if value == "bleed":
        b = layouts.bleed
        return (-b, -b, width + 2 * b, height + 2 * b)
    if value == "trim":
        return (0.0, 0.0, width, height)
    if value == "safe":
        s = layouts.safe
        return (s, s, width - 2 * s, height - 2 * s)
    if type(value) is list and len(value) == 4 and all(type(v) in (int, float) for v in value):
        x, y, w, h = value  # plain numbers, the common case: no expression to evaluate
        return (x + dx, y + dy, w, h)
    value = ctx.value(value)
    if not isinstance(value, (list, tuple)) or len(value) != 4:
        raise LayoutError(ctx.card, where, f"expected [x, y, w, h] or bleed/trim/safe, got {value!r}")
    rules = _AT_RULES if key == "at" else _SHAPE_RULES
    x, y, w, h = [ctx.number(v, where, rule, key) for v, rule in zip(value, rules, strict=True)]
    return (x + dx, y + dy, w, h)


# the ranges of [x, y, w, h]: of the box text, an icon or a picture is fitted to, and of a shape
_AT_RULES = (limits.POSITION, limits.POSITION, limits.BOX_SIZE, limits.BOX_SIZE)
_SHAPE_RULES = (limits.POSITION, limits.POSITION, limits.SIZE, limits.SIZE)


def _render(elements, ctx: Context, out: list, where: str, offset) -> None:
    fixed = ctx.layouts.fixed
    for i, element in enumerate(elements):
        key = (id(element), offset, ctx.size)
        known = fixed.get(key)
        if known is not None and known is not _VARIES:
            out.extend(known)
            continue
        start = len(out)
        if "when" not in element or ctx.truthy(element["when"]):
            kind = next(k for k in element if k in ELEMENT_KINDS)
            _RENDERERS[kind](element, ctx, out, f"{where}[{i + 1}]", offset)
        if known is None:
            fixed[key] = tuple(out[start:]) if _is_fixed(element) else _VARIES


_VARIES = object()      # Layouts.fixed's mark for an element that depends on the card
_FIXED_KINDS = ("rect", "ellipse", "polygon", "line", "text", "icon")


def _is_fixed(element) -> bool:
    """Whether an element draws the same items on every card: a shape, text or icon with no
    template anywhere in its settings (its `when` included). Groups, uses, flows and images are
    not: their parts are looked at one by one."""
    return any(k in element for k in _FIXED_KINDS) and not _has_template(element)


def _has_template(value) -> bool:
    if isinstance(value, str):
        return "{{" in value or "{%" in value
    if isinstance(value, dict):
        return any(_has_template(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_template(v) for v in value)
    return False


def _setting(el, key: str, default, ctx: Context, where: str) -> float:
    """A number setting of an element (stroke_width, radius, gap...), within its range."""
    return ctx.number(el.get(key, default), where, limits.ELEMENT_NUMBERS[key], key)


def _rect(el, ctx, out, where, offset):
    x, y, w, h = _box(ctx, el["rect"], where, offset, "rect")
    ctx.note_box(el, "shape", (x, y, w, h))
    out.append(Rect(x, y, w, h, ctx.colour(el.get("fill"), where), ctx.colour(el.get("stroke"), where),
                    _setting(el, "stroke_width", 0.3, ctx, where), _setting(el, "radius", 0, ctx, where)))


def _ellipse(el, ctx, out, where, offset):
    x, y, w, h = _box(ctx, el["ellipse"], where, offset, "ellipse")
    ctx.note_box(el, "shape", (x, y, w, h))
    out.append(Ellipse(x, y, w, h, ctx.colour(el.get("fill"), where), ctx.colour(el.get("stroke"), where),
                       _setting(el, "stroke_width", 0.3, ctx, where)))


def _polygon(el, ctx, out, where, offset):
    points = ctx.value(el["polygon"])
    dx, dy = offset
    try:
        pts = [(ctx.number(px, where, limits.POSITION, "polygon") + dx,
                ctx.number(py, where, limits.POSITION, "polygon") + dy) for px, py in points]
    except (TypeError, ValueError):
        raise LayoutError(ctx.card, where, "expected a list of [x, y] points") from None
    out.append(Polygon(pts, ctx.colour(el.get("fill"), where), ctx.colour(el.get("stroke"), where),
                       _setting(el, "stroke_width", 0.3, ctx, where)))


def _line(el, ctx, out, where, offset):
    coords = ctx.value(el["line"])
    if not isinstance(coords, (list, tuple)) or len(coords) != 4:
        raise LayoutError(ctx.card, where, "expected [x1, y1, x2, y2]")
    x1, y1, x2, y2 = (ctx.number(v, where, limits.POSITION, "line") for v in coords)
    dx, dy = offset
    out.append(Line(x1 + dx, y1 + dy, x2 + dx, y2 + dy, ctx.colour(el.get("colour", "#000000"), where),
                    _setting(el, "width", 0.3, ctx, where)))


def _style_for(el, ctx: Context, where: str) -> Style:
    layouts = ctx.layouts
    base = layouts.styles.get(el.get("style"), Style()) if el.get("style") else Style()
    overrides = {k: v for k, v in el.items() if k in Style.__dataclass_fields__}
    if not overrides:
        return base
    resolved = {}
    for key, value in overrides.items():
        if key == "colour":
            resolved[key] = ctx.colour(value, where)
            continue
        if key in EFFECTS:
            resolved[key], problems = effect_problems(key, value, lambda v: ctx.colour(v, where))
            if problems:
                sub, problem = problems[0]
                raise LayoutError(ctx.card, f"{where}.{key}.{sub}" if sub else f"{where}.{key}", problem)
            continue
        if not _has_template(value):        # written in the file: checked when the layouts loaded
            resolved[key] = value
            continue
        if key in limits.STYLE_FLAGS:
            resolved[key] = ctx.truthy(value)
            continue
        value = ctx.value(value)
        if key == "font" and value not in layouts.book.families:
            raise LayoutError(ctx.card, f"{where}.font",
                              f"unknown font {value!r}{did_you_mean(value, layouts.book.families)}")
        elif problem := setting_problem(key, value):
            raise LayoutError(ctx.card, f"{where}.{key}", problem)
        resolved[key] = value
    from dataclasses import replace

    style = replace(base, **resolved)
    if "size" in resolved and "min_size" not in resolved and style.min_size > style.size:
        style = replace(style, min_size=style.size)
    return style


def _field_of(el) -> str:
    if "field" in el:
        return str(el["field"])
    found = re.search(r"card\.([A-Za-z_][A-Za-z0-9_]*)", str(el.get("text", "")))
    return found.group(1) if found else "text"


def _text(el, ctx, out, where, offset):
    text = ctx.text(el["text"])
    if not text.strip():
        return
    box = _box(ctx, el["at"], where, offset)
    style = _style_for(el, ctx, where)
    right = ctx.text(el["right"]) if "right" in el else ""
    angle = _setting(el, "rotate", 0, ctx, where) % 360
    ctx.note_box(el, "text", turned_box(box, angle))
    if not angle:
        _draw_text(text, right, box, style, ctx, out, where, _field_of(el))
        return
    items: list = []
    style = shadow_upright(style, angle)
    _draw_text(text, right, upright(box, angle), style, ctx, items, where, _field_of(el))
    out.append(turned(box, angle, items, reach(style)))


def _draw_text(text, right, box, style: Style, ctx: Context, out, where, field_name):
    layouts = ctx.layouts
    game = layouts.game
    x, y, w, h = box
    try:
        if right:
            from dataclasses import replace

            right_style = replace(style, align="right", valign="top", min_size=style.size)
            right_runs = fit_text(right, box, right_style, layouts.book, layouts.text_icons, [])
            taken = (x + w) - min(r.x for r in right_runs) + 1.0
            runs = fit_text(text, (x, y, w - taken, h), style, layouts.book, layouts.text_icons,
                            list(game.keywords), hyphenation_language(game))
            shift = _first_baseline(runs) - _first_baseline(right_runs)
            for r in right_runs:
                r.y += shift
            out.extend(with_effects(runs + right_runs, style))
        else:
            out.extend(with_effects(fit_text(text, box, style, layouts.book, layouts.text_icons,
                                             list(game.keywords), hyphenation_language(game)), style))
    except Overflow as exc:
        raise LayoutError(ctx.card, field_name,
                          f"text does not fit its box at the minimum size {style.min_size}pt "
                          f"({where}: needs {exc.needed:.1f} mm, box is {exc.available:.1f} mm); "
                          "shorten it or enlarge the box") from None
    except TextProblem as exc:          # a missing glyph, an unbalanced marker
        raise LayoutError(ctx.card, field_name, str(exc)) from None


def _flow(el, ctx, out, where, offset):
    """Text blocks stacked top to bottom in one box, all shrunk by one scale until they fit."""
    from dataclasses import replace

    x, y, w, h = _box(ctx, el["at"], where, offset)
    gap = _setting(el, "gap", 1.2, ctx, where)
    blocks = []
    for j, block in enumerate(el["flow"]):
        block_where = f"{where}.flow[{j + 1}]"
        if "when" in block and not ctx.truthy(block["when"]):
            continue
        contexts = [ctx]
        if "each" in block:
            items = ctx.value(block["each"])
            if _is_undefined(items) or not items:
                continue
            contexts = [ctx.child(**{block.get("as", "item"): item}) for item in items]
        for sub in contexts:
            if "rule" in block:
                blocks.append(("rule", block, sub, None, "", block_where))
                continue
            text = sub.text(block["text"])
            if not text.strip():
                continue
            right = sub.text(block["right"]) if "right" in block else ""
            blocks.append(("text", block, sub, _style_for(block, sub, block_where), text + "\x00" + right,
                           block_where))
    if not blocks:
        return
    layouts = ctx.layouts
    scale = 1.0
    min_scale = _setting(el, "min_scale", 0.6, ctx, where)
    hyphenate = None            # the last resort, at the smallest scale (as fit_text)
    while True:
        heights = []
        fits = True
        for kind, block, sub, style, text, _ in blocks:
            if kind == "rule":
                heights.append(_setting(block, "width", 0.3, ctx, where))
                continue
            size = max(style.min_size, style.size * scale)
            body, right = text.split("\x00")
            height, ok = _measure_block(body, right, w, style, size, layouts, sub, block, hyphenate)
            fits = fits and ok
            heights.append(height + 0.2)
        total = sum(heights) + gap * (len(blocks) - 1)
        if fits and total <= h + 1e-6:
            break
        if scale <= min_scale and hyphenate is None and hyphenation_language(layouts.game):
            hyphenate = hyphenation_language(layouts.game)
            continue
        if scale <= min_scale:
            raise LayoutError(ctx.card, _field_of(blocks[0][1]),
                              f"text does not fit its box ({where}: needs {total:.1f} mm, box is "
                              f"{h:.1f} mm at the smallest sizes); shorten it or enlarge the box")
        scale = max(min_scale, scale - 0.03)
    cursor = y
    for (kind, block, sub, style, text, block_where), height in zip(blocks, heights, strict=True):
        if kind == "rule":
            colour = sub.colour(block.get("colour", "#00000080"), block_where)
            out.append(Line(x, cursor + height / 2, x + w, cursor + height / 2, colour, height))
        else:
            size = max(style.min_size, style.size * scale)
            body, right = text.split("\x00")
            sized = replace(style, size=size, min_size=size, valign="top")
            sub.note_box(block, "text", (x, cursor, w, height))
            _draw_text(body, right, (x, cursor, w, height + 0.5), sized, sub, out, block_where,
                       _field_of(block))
        cursor += height + gap


def _measure_block(body, right, width, style: Style, size: float, layouts: Layouts, ctx, block,
                   hyphenate=None):
    """measure() for a flow block beside its `right:` text; a text problem is the block's card's."""
    try:
        width -= _right_width(right, style, size, layouts) if right else 0.0
        return measure(body, width, style, layouts.book, layouts.text_icons, list(layouts.game.keywords),
                       size, hyphenate)
    except TextProblem as exc:
        raise LayoutError(ctx.card, _field_of(block), str(exc)) from None


def hyphenation_language(game) -> str | None:
    """The language card text is hyphenated in (game.yaml `language:`, default English), or None
    when Pyphen has no dictionary for it (the loader says so)."""
    from cardgen.render.hyphenate import has_dictionary

    language = str(game.meta.get("language") or "en")
    return language if has_dictionary(language) else None


def _right_width(text: str, style: Style, size: float, layouts: Layouts) -> float:
    """How wide a `right:` text is drawn (markup and icons included), plus a small gap."""
    from dataclasses import replace

    runs = fit_text(text, (0.0, 0.0, 1000.0, 1000.0), replace(style, size=size, min_size=size, align="left"),
                    layouts.book, layouts.text_icons, [])
    if not runs:
        return 0.0
    end = max(r.x + (load_face(r.font).width_mm(r.text, r.size) if isinstance(r, Run) else r.w) for r in runs)
    return end - min(r.x for r in runs) + 1.0


def _first_baseline(runs) -> float:
    """The first line's baseline (a picture icon stands on it: its bottom)."""
    return min(r.y if isinstance(r, Run) else r.y + r.h for r in runs)


def _icon(el, ctx, out, where, offset):
    layouts = ctx.layouts
    name = ctx.text(el["icon"])
    if not name:
        return
    x, y, w, h = _box(ctx, el["at"], where, offset)
    ctx.note_box(el, "icon", (x, y, w, h))
    count = int(_setting(el, "repeat", 1, ctx, where)) if "repeat" in el else 1
    step = ctx.value(el.get("step", [w, 0]))
    colour = ctx.colour(el.get("colour", "#000000"), where)
    steps = [(ctx.number(step[0], where, limits.POSITION, "step") * n,
              ctx.number(step[1], where, limits.POSITION, "step") * n) for n in range(count)]
    picture = layouts.text_icons.get(name)
    if isinstance(picture, InlineImage):            # a picture icon fills its box, tinted by `colour`
        tint = None if picture.own_colours else colour
        out.extend(Picture(x + dx, y + dy, w, h, picture.path, "contain", tint) for dx, dy in steps)
        return
    symbol = layouts.game.icons.get(name, name)
    face = layouts.book.icon_face(bool(el.get("bold")))
    for char in symbol:
        if not face.has(char):
            raise LayoutError(ctx.card, "icon", str(MissingGlyph(char)))
    size = h / PT_TO_MM * 0.92
    xmin, ymin, xmax, ymax = glyph_bounds(face.path, symbol)
    k = size * PT_TO_MM
    if (xmax - xmin) * k > w:  # wide symbols are scaled to the box width instead
        size *= w / ((xmax - xmin) * k)
        k = size * PT_TO_MM
    # Centre the ink, not the advance box: symbols sit unevenly in their advance.
    left = x + w / 2 - (xmin + xmax) / 2 * k
    baseline = y + h / 2 + (ymax + ymin) / 2 * k
    out.extend(Run(left + dx, baseline + dy, symbol, face.path, face.name, size, colour) for dx, dy in steps)


def _image(el, ctx, out, where, offset):
    layouts = ctx.layouts
    rel = ctx.text(el["image"]).strip()
    box = _box(ctx, el["at"], where, offset)
    root = layouts.root or layouts.game.folder.resolve()
    layouts.root = root
    path = (layouts.game.folder / rel).resolve() if rel else None
    if path is not None and not path.is_relative_to(root):
        raise _art_error(ctx.card, el["image"], f"image {rel!r} is outside the game folder")
    if path is None or not path.exists():
        if el.get("optional"):
            if "placeholder" in el:
                _render(el["placeholder"], ctx, out, f"{where}.placeholder", offset)
            return
        raise _art_error(ctx.card, el["image"], f"no image file {rel!r} in {layouts.game.folder}")
    fit = str(el.get("fit", "cover"))
    try:        # (a file that is there but broken is an error, `optional` or not)
        check_art(str(path), _print_pixels(box[2], box[3]), fit)
    except ArtError as exc:
        raise _art_error(ctx.card, el["image"], f"{rel} {exc}") from None
    angle = _setting(el, "rotate", 0, ctx, where) % 360
    ctx.note_box(el, "image", turned_box(box, angle))
    if not angle:
        out.append(Picture(*box, str(path), fit))
    else:           # fitted to the box turned to the nearest quarter, then turned the rest
        out.append(turned(box, angle, [Picture(*upright(box, angle), str(path), fit)]))


def _print_pixels(width_mm: float, height_mm: float) -> tuple[int, int]:
    """A box's size in pixels on a printed card (every print preset draws at PRINT_DPI)."""
    k = PRINT_DPI / MM_PER_INCH
    return max(1, round(width_mm * k)), max(1, round(height_mm * k))


def _art_error(card: Card | None, template, message: str) -> LayoutError:
    """An error about a card's art, at the card's field that names the file when there is one
    (`name` for "art/{{ card.name | slug }}.png"), else at the card."""
    named = re.search(r"card\.([A-Za-z_][A-Za-z0-9_]*)", str(template))
    field_name = named.group(1) if named else "image"
    line = card.field_lines.get(field_name) if card is not None else None
    return LayoutError(card, field_name if line else "image", message, line=line)


def _group(el, ctx, out, where, offset):
    dx, dy = (ctx.number(v, where, limits.POSITION, "offset") for v in ctx.value(el.get("offset", [0, 0])))
    _render(el["group"], ctx, out, f"{where}.group", (offset[0] + dx, offset[1] + dy))


def _use(el, ctx, out, where, offset):
    name = el["use"]
    _render(ctx.layouts.templates[name], ctx, out, f"templates.{name}", offset)


_RENDERERS = {"rect": _rect, "ellipse": _ellipse, "polygon": _polygon, "line": _line, "text": _text,
              "flow": _flow, "icon": _icon, "image": _image, "group": _group, "use": _use}
