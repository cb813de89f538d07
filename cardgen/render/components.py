"""Components that are not cards: player mats, boards, tiles (layouts.yaml `components:`).

Each has its own size, a front and (optionally) a back drawn from the same elements as cards,
and a number of copies (a number, or `players`: one per player at the game's most players).
`each: TYPE` makes it once per card of that card type (a fighter's power token from the
fighter's card), with that card's fields in its expressions (`{{ card.power_token.a }}`):

    components:
      player-mat:
        name: Player Mat
        size: [250, 180]        # trim width x height, mm
        copies: players
        front: [...elements...]
        back: [...elements...]

cardgen.render.layout.layout_component draws a side; the proxy sheets print each copy on pages
of its own (cardgen.sheets.component_pages). A
game's rulebook may call for a component the cards cannot stand in for; this is where it lives.
`reference_back:` (a back's name) is the back the card-sized player aids print on, so that face
down they do not pass for deck cards.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from cardgen.errors import IssueList, did_you_mean
from cardgen.render import limits

SIDES = ("front", "back")
KEYS = {"name", "size", "bleed", "copies", "each", *SIDES}


@dataclass(frozen=True)
class Component:
    key: str                    # its name in layouts.yaml (and in file names)
    name: str                   # what players call it: "Player Mat"
    width: float                # trim, mm
    height: float
    bleed: float
    copies: int
    sides: dict                 # "front" (always) and "back" (optional) -> elements
    line: int | None = None
    each: str | None = None     # a card type: one (of `copies`) per card of it, drawn from the card


def read_components(raw, game, bleed: float, issues: IssueList) -> dict[str, Component]:
    """layouts.yaml `components:` checked (every problem at its line): name -> Component."""
    out: dict[str, Component] = {}
    if raw is None:
        return out
    if not isinstance(raw, dict):
        issues.add(None, "components", "expected a mapping of name to a component (size, front, back...)")
        return out
    for key, spec in raw.items():
        where, line = f"components.{key}", raw.line_of(key)
        if not isinstance(spec, dict):
            issues.add(line, where, "expected a mapping (name, size, copies, front, back)")
            continue
        for setting in spec:
            if setting not in KEYS:
                issues.add(spec.line_of(setting), f"{where}.{setting}",
                           f"unknown setting{did_you_mean(setting, KEYS)} ({', '.join(sorted(KEYS))})")
        size = spec.get("size")
        if not (isinstance(size, list) and len(size) == 2
                and all(type(v) in (int, float) and not limits.BOX_SIZE.problem(v) for v in size)):
            issues.add(spec.line_of("size") or line, f"{where}.size",
                       f"expected [width, height] in mm, got {size!r}")
            size = [1.0, 1.0]
        own_bleed = spec.get("bleed", bleed)
        if type(own_bleed) not in (int, float) or not 0 <= own_bleed <= 10:
            issues.add(spec.line_of("bleed"), f"{where}.bleed", f"expected 0-10 mm, got {own_bleed!r}")
            own_bleed = bleed
        copies = _copies(spec.get("copies", 1), game, issues, spec.line_of("copies") or line,
                         f"{where}.copies")
        if "/" in str(key):          # (render's file names and cache entries are KEY/SIDE)
            issues.add(line, where, "a component's name may not hold '/'")
        each = spec.get("each")
        if each is not None and not isinstance(each, str):
            issues.add(spec.line_of("each"), f"{where}.each", f"expected a card type, got {each!r}")
            each = None
        elif each is not None and each not in game.card_types:
            issues.add(spec.line_of("each"), f"{where}.each",
                       f"no card type {each!r}{did_you_mean(str(each), game.card_types)} "
                       f"({', '.join(game.card_types)})")
            each = None
        sides = {}
        for side in SIDES:
            elements = spec.get(side)
            if elements is None and side == "back":
                continue
            if not isinstance(elements, list):
                issues.add(spec.line_of(side) or line, f"{where}.{side}", "expected a list of elements")
                continue
            sides[side] = elements
        out[str(key)] = Component(str(key), str(spec.get("name", key)), float(size[0]), float(size[1]),
                                  float(own_bleed), copies, sides, line, each)
    return out


def printed(component: Component, game) -> list:
    """What each copy is drawn from, in print order: its card (`each:`, the game's order, each
    card's `copies` together) or None."""
    if component.each is None:
        return [None] * component.copies
    return [card for card in game.cards.values() if card.type == component.each
            for _ in range(component.copies)]


def label(component: Component, card) -> str:
    """What a copy is called on its page and in file names: "Power Token: Amaya Sol"."""
    return component.name if card is None else f"{component.name}: {card.name}"


def _copies(value, game, issues: IssueList, line, where: str) -> int:
    if value == "players":
        players = game.meta.get("players") or {}
        return int(players.get("max", 2)) if isinstance(players, dict) else 2
    if type(value) is int and 0 <= value <= 100:
        return value
    issues.add(line, where, f"expected a number of copies (0-100) or `players`, got {value!r}")
    return 1


def check_reference_back(name, backs: dict, line, issues: IssueList) -> None:
    if name is not None and name not in backs:
        issues.add(line, "reference_back", f"no back {name!r}{did_you_mean(str(name), backs)}")


def sized(layouts, component: Component):
    """The layouts seen at the component's size: `bleed`, `trim` and `safe` boxes are its own."""
    return dataclasses.replace(layouts, width=component.width, height=component.height,
                               bleed=component.bleed)


def face_names(layouts) -> list[str]:
    """Each distinct side of each component, as `cardgen render` names it: "KEY/SIDE", or
    "KEY/SIDE/CARD" for one made for each card (copies share their picture)."""
    out = []
    for key, component in layouts.components.items():
        cards = dict.fromkeys(card.name if card is not None else None
                              for card in printed(component, layouts.game))
        out += [f"{key}/{side}" + (f"/{name}" if name is not None else "")
                for name in cards for side in component.sides]
    return out


def parse_face_name(name: str) -> tuple[str, str, str | None]:
    """"KEY/SIDE[/CARD]" -> (key, side, card name or None)."""
    key, side, *card = name.split("/", 2)
    return key, side, card[0] if card else None


def face_file_stem(game, name: str) -> str:
    """A component side's PNG name: power-token-amaya-sol-front, player-mat-back."""
    from cardgen.filenames import file_stem

    key, side, card = parse_face_name(name)
    return "-".join([file_stem(key)] + ([game.cards[card].stem] if card else []) + [side])
