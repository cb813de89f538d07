"""The rulebook's table diagrams, drawn from game.yaml `play_area` as SVG.

[[play-area]] draws every zone as empty card spaces with its name; [[setup]] draws the same table
as the game starts, with real cards (cardgen.publish.faces) drawn small in the zones that hold
some. The far player's side is the near one turned round. Every text is escaped (Markup.format).
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from cardgen.model import Game
from cardgen.publish.faces import Faces, cards_of

GAP = 0.22            # between zones, in card widths
SLOT_GAP = 0.08       # between the slots of one zone, in card widths
LABEL = 0.40          # the labels under a zone (two lines at most), in card heights
PILE_SHOW = 3         # cards drawn in a pile
PILE_STEP = 0.035     # how far each card of a pile sits from the next, in card widths
TEXT_WIDTH_MM = 120   # an A5 page's text (rulebook.css.j2), where the labels are measured
MAX_HEIGHT_MM = 72    # diagrams.css.j2 caps a diagram's height at this
LABEL_MM = 2.4        # a label's size on the page (about 7 pt)
LABEL_LINES = 2.7     # a label row's height, in label sizes (two lines and a gap)
FACE_DPI = 60         # small cards: sharp at the few centimetres a diagram gives them


@dataclass
class Zone:
    name: str
    slots: int
    pile: bool
    face_down: bool
    cards: list
    setup: int
    row: int
    secret: bool
    state: str = ""

    @classmethod
    def read(cls, game: Game, raw: dict) -> Zone:
        wanted = raw.get("cards") or []
        wanted = [wanted] if isinstance(wanted, str) else list(wanted)
        cards = cards_of(game, wanted)
        missing = [w for w in wanted if not cards_of(game, [w])]
        if missing:
            raise KeyError(f"game.yaml play_area: zone {raw['name']!r}: no card type or card "
                           f"named {missing[0]!r}")
        return cls(str(raw["name"]), int(raw.get("slots") or 1), bool(raw.get("pile")),
                   raw.get("face") == "down", cards, int(raw.get("setup") or 0),
                   int(raw.get("row") or 1), bool(raw.get("secret")),
                   str(raw.get("state") or str(raw["name"]).lower().replace(" ", "_")))


def zones(game: Game) -> tuple[list[Zone], list[Zone]]:
    """(shared zones, each player's zones); KeyError when the game describes no play area."""
    area = game.meta.get("play_area")
    if not isinstance(area, dict) or not (area.get("shared") or area.get("each")):
        raise KeyError("game.yaml has no play_area (its zones: see docs/rulebooks.md, Diagrams)")
    return ([Zone.read(game, z) for z in area.get("shared") or []],
            [Zone.read(game, z) for z in area.get("each") or []])


def seats(game: Game) -> int:
    players = game.meta.get("players") or {}
    return 1 if (players.get("max") or 2) == 1 else 2


CHAR_EM = 0.5         # a label character's average width, in ems (CG Head is condensed)


def label_lines(label: str, room: float, size: float) -> tuple[list[str], float]:
    """A zone's name in one line, or two when it is wider than its zone, set smaller if need be."""
    def width(text: str) -> float:
        return len(text) * CHAR_EM * size

    if width(label) <= room or " " not in label:
        return [label], min(size, room / max(1, len(label) * CHAR_EM))
    words = label.split()
    best = min(range(1, len(words)), key=lambda i: max(width(" ".join(words[:i])),
                                                      width(" ".join(words[i:]))))
    lines = [" ".join(words[:best]), " ".join(words[best:])]
    widest = max(len(line) for line in lines) * CHAR_EM
    return lines, min(size, room / widest)


class Drawing:
    """One SVG in mm: zones placed in rows, the far seat turned round."""

    def __init__(self, game: Game, faces: Faces, with_cards: bool, accent: str,
                 contents: dict[tuple[str, str], list] | None = None):
        self.game, self.faces, self.with_cards, self.accent = game, faces, with_cards, accent
        self.contents = contents      # (seat group, zone state key) -> its cards, from a scenario
        self.w, self.h = faces.size()
        self.parts: list[Markup] = []
        self.used: dict[int, int] = {}        # per card list: how many of its cards are drawn

    def zone_width(self, zone: Zone) -> float:
        return zone.slots * self.w + (zone.slots - 1) * SLOT_GAP * self.w

    def row_width(self, row: list[Zone]) -> float:
        return sum(self.zone_width(z) for z in row) + GAP * self.w * (len(row) - 1)

    def rows(self, shared: list[Zone], each: list[Zone], n_seats: int) -> list[tuple[list[Zone], str]]:
        """Top to bottom: (zones left to right, "far" | "shared" | "near")."""
        mine = [[z for z in each if z.row == r] for r in sorted({z.row for z in each})]
        out: list[tuple[list[Zone], str]] = []
        if n_seats == 2:
            out += [(list(reversed(r)), "far") for r in reversed(mine)]
        out += [([z for z in shared if z.row == r], "shared") for r in sorted({z.row for z in shared})]
        return out + [(r, "near") for r in mine]

    def draw(self, shared: list[Zone], each: list[Zone]) -> Markup:
        rows = self.rows(shared, each, seats(self.game) if each else 0)
        width = max(self.row_width(r) for r, _ in rows)
        y, gap = 0.0, self.h * 0.3
        groups = len({g for _, g in rows})
        # The SVG fills the text width or MAX_HEIGHT_MM, whichever is smaller, and a label row is
        # tall enough for two lines at LABEL_MM on the page (at least LABEL card heights): the
        # scale and the label rows depend on each other, so settle them in a few rounds.
        label = self.h * LABEL
        for _ in range(4):
            height = len(rows) * (self.h + label) + (groups - 1) * gap
            scale = min(TEXT_WIDTH_MM / width, MAX_HEIGHT_MM / height)
            label = max(self.h * LABEL, LABEL_LINES * LABEL_MM / scale)
        self.font = label / LABEL_LINES
        for i, (row, group) in enumerate(rows):
            if i and rows[i - 1][1] != group:        # a line between the seats and the middle
                self._divider(y + gap / 2 - label / 3, width)
                y += gap
            x = (width - self.row_width(row)) / 2
            for zone in row:
                self._zone(self._filled(zone, group), x, y, group == "far")
                x += self.zone_width(zone) + GAP * self.w
            y += self.h + label
        return Markup('<svg class="diagram" xmlns="http://www.w3.org/2000/svg" '
                      'xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="{} {} {:.1f} {:.1f}" '
                      'font-family="CG Head">').format(-3, -3, width + 5, y + 3) + \
            Markup("").join(self.parts) + Markup("</svg>")

    def _filled(self, zone: Zone, group: str) -> Zone:
        """The zone holding a scenario's cards for this seat, when drawing one."""
        if self.contents is None:
            return zone
        cards = self.contents.get((group, zone.state), [])
        return Zone(zone.name, zone.slots, zone.pile, zone.face_down, cards, len(cards), zone.row,
                    zone.secret, zone.state)

    def _divider(self, y: float, width: float) -> None:
        self.parts.append(Markup('<line x1="0" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width='
                                 '"0.5" stroke-dasharray="2 2"/>').format(y, width, y, self.accent))

    def _zone(self, zone: Zone, x: float, y: float, turned: bool) -> None:
        w, h = self.w, self.h
        r = w * 0.05
        placed = 0
        for slot in range(zone.slots):
            sx = x + slot * (w + SLOT_GAP * w)
            count = zone.setup if zone.pile else (1 if slot < zone.setup else 0)
            if self.with_cards and count:
                self._cards(zone, sx, y, count, turned)
                placed += count
            else:
                self.parts.append(Markup(
                    '<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" rx="{:.2f}" fill="{}" '
                    'stroke="{}" stroke-width="0.6" stroke-dasharray="{}"/>').format(
                    sx, y, w, h, r, "#00000008", self.accent, "none" if zone.pile else "2.5 1.5"))
                if zone.pile:
                    for k in (1, 2):
                        self.parts.append(Markup(
                            '<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" rx="{:.2f}" '
                            'fill="none" stroke="{}" stroke-width="0.4"/>').format(
                            sx - k * PILE_STEP * w, y - k * PILE_STEP * w, w, h, r, self.accent))
                if zone.face_down:
                    self.parts.append(Markup(
                        '<text x="{:.2f}" y="{:.2f}" font-size="{:.1f}" text-anchor="middle" '
                        'fill="{}">face down</text>').format(sx + w / 2, y + h / 2,
                                                             min(self.font, w * 0.85 / (9 * CHAR_EM)),
                                                             self.accent))
        rest = zone.setup - placed if not zone.pile else 0
        label = zone.name
        if self.with_cards and rest > 0:
            label += f" (+{rest})"
        room = self.zone_width(zone) + GAP * self.w * 0.8
        lines, size = label_lines(label, room, self.font)
        for i, line in enumerate(lines):
            self.parts.append(Markup(
                '<text x="{:.2f}" y="{:.2f}" font-size="{:.2f}" text-anchor="middle" fill="#333">{}</text>'
            ).format(x + self.zone_width(zone) / 2, y + h + size * (1.25 + 1.1 * i), size, line))

    def _cards(self, zone: Zone, x: float, y: float, count: int, turned: bool) -> None:
        shown = min(count, PILE_SHOW) if zone.pile else 1
        for k in range(shown):
            card = self._next(zone)
            dx = (shown - 1 - k) * PILE_STEP * self.w
            self._card(card, x - dx, y - dx, zone.face_down or (zone.secret and turned), turned)

    def _next(self, zone: Zone):
        if not zone.cards:
            return None
        key = id(zone.cards)
        i = self.used.get(key, 0)
        self.used[key] = i + 1
        return zone.cards[i % len(zone.cards)]

    def _card(self, card, x: float, y: float, back: bool, turned: bool) -> None:
        w, h = self.w, self.h
        path = self.faces.png(card, FACE_DPI, back) if card is not None else None
        turn = Markup(' transform="rotate(180 {:.2f} {:.2f})"').format(x + w / 2, y + h / 2) if turned else ""
        if path is None:
            self.parts.append(Markup(
                '<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" rx="{:.2f}" fill="{}" '
                'stroke="white" stroke-width="0.4"/>').format(x, y, w, h, w * 0.05, self.accent))
            return
        self.parts.append(Markup(
            '<image x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" href="{}" xlink:href="{}" '
            'preserveAspectRatio="none"{}/>').format(x, y, w, h, path.resolve().as_uri(),
                                                     path.resolve().as_uri(), turn))
        self.parts.append(Markup(
            '<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" rx="{:.2f}" fill="none" '
            'stroke="#0000004d" stroke-width="0.3"/>').format(x, y, w, h, w * 0.05))


def diagram(game: Game, faces: Faces, with_cards: bool, accent: str) -> list[dict]:
    """The nodes of [[play-area]] (with_cards False) or [[setup]] (True)."""
    shared, each = zones(game)
    svg = Drawing(game, faces, with_cards, accent).draw(shared, each)
    caption = (game.meta.get("play_area") or {}).get("doc") if not with_cards else None
    if with_cards:
        caption = "The table ready to play: " + "; ".join(
            f"{z.name}: {'a pile' if z.pile else z.setup} {'face down' if z.face_down else 'face up'}"
            for z in [*shared, *each] if z.setup)
    return [{"kind": "diagram", "svg": svg, "caption": caption or "",
             "cls": "setup" if with_cards else "play-area"}]


def scenario_state(game: Game, setup: dict) -> dict[tuple[str, str], list]:
    """A scenario's `setup` as zone contents: the near seat is p0, the far one p1, the middle the
    setup's own keys; a key holds a card name or a list of them (other values are not cards)."""
    def cards(value) -> list:
        names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        return [game.cards[n] for n in names if isinstance(n, str) and n in game.cards]

    out = {}
    for group, state in (("near", setup.get("p0")), ("far", setup.get("p1")), ("shared", setup)):
        for key, value in (state or {}).items() if isinstance(state, dict) else ():
            if cards(value):
                out[group, str(key)] = cards(value)
    return out


def table_setup(game: Game, setup: dict) -> dict:
    """A scenario's setup in the form scenario_state reads: each engine writes its scenarios in
    its own form, and Engine.table_setup says which zone holds which cards."""
    from cardgen.engines import has_engine, load_engine

    return load_engine(game).table_setup(setup) if has_engine(game) else setup


def example_table(game: Game, faces: Faces, stem: str | None, accent: str) -> list[dict]:
    """[[example-table:SCENARIO]]: the table as a worked example (scenarios/SCENARIO.yaml) starts,
    with its cards where its setup puts them, and its title as the caption."""
    from cardgen.sim.scenarios import load_scenario

    path = game.folder / "scenarios" / f"{stem}.yaml"
    if not stem or not path.is_file():
        raise KeyError(f"no scenario scenarios/{stem}.yaml")
    data = load_scenario(path).data
    shared, each = zones(game)
    contents = scenario_state(game, table_setup(game, data.get("setup") or {}))
    svg = Drawing(game, faces, True, accent, contents).draw(shared, each)
    caption = f"Example: {data.get('title', stem)} (your side at the bottom)"
    return [{"kind": "diagram", "svg": svg, "caption": caption, "cls": "example"}]
