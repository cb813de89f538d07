"""A JSON Schema for a game's layouts.yaml, for editors (cardgen.schema writes it beside the card
and deck schemas): the sections, the card's geometry and the sizes of its card types, every style
setting and the settings elements take, with the ranges the loader checks (cardgen.render.limits).

It is a helper for typing, not the check: a value may be an expression (`"{{ card.cost }}"`),
which the schema lets through, and `cardgen validate`/`render` still report what only the loader
knows (a style or template name that does not exist, a box outside the safe zone)."""

from __future__ import annotations

from cardgen.model import Game
from cardgen.render import limits
from cardgen.render.effects import EFFECTS
from cardgen.render.layout import (
    BLOCK_KEYS,
    CARD_SIZES,
    COMMON_KEYS,
    ELEMENT_KEYS,
    ELEMENT_KINDS,
    STYLE_KEYS,
    TOP_KEYS,
)

TEMPLATE = {"type": "string", "pattern": r"\{[{%]"}      # an expression, checked per card


def _number(rule: limits.Range, description: str = "") -> dict:
    number = {"type": "integer" if rule.whole else "number", "minimum": rule.lo, "maximum": rule.hi}
    out = {"anyOf": [number, TEMPLATE]}
    return {**out, "description": description} if description else out


def _effect(key: str) -> dict:
    """outline: {width, colour} or shadow: {dx, dy, colour}, or none."""
    props = {sub: ({"type": "string", "description": "a colour: #rrggbb, #rrggbbaa or a name of colours:"}
                   if sub == "colour" else _number(limits.EFFECT_NUMBERS[f"{key}.{sub}"],
                                                   f"mm (default {default})"))
             for sub, default in EFFECTS[key].items()}
    what = ("ink around every letter, under them" if key == "outline"
            else "the text again, moved by dx, dy (mm) and drawn first")
    return {"description": f"{key}: {what}; none takes a style's away",
            "anyOf": [{"enum": ["none", False]},
                      {"type": "object", "properties": props, "additionalProperties": False}]}


def _style_props() -> dict:
    props: dict = {"font": {"type": "string"}, "colour": {"type": "string"},
                   "extends": {"type": "string", "description": "another style this one changes"}}
    for key, rule in limits.STYLE_NUMBERS.items():
        props[key] = _number(rule, rule.what)
    for key in limits.STYLE_FLAGS:
        props[key] = {"anyOf": [{"type": "boolean"}, TEMPLATE]}
    for key, choices in limits.STYLE_CHOICES.items():
        props[key] = {"anyOf": [{"enum": list(choices)}, TEMPLATE]}
    props.update({key: _effect(key) for key in EFFECTS})
    return props


def _text_props() -> dict:
    """The style settings a text element or a flow block may override."""
    return {key: value for key, value in _style_props().items() if key != "extends"}


def _element() -> dict:
    keys = sorted({*ELEMENT_KINDS, *COMMON_KEYS, *(k for keys in ELEMENT_KEYS.values() for k in keys)})
    props = _text_props()
    props["rotate"] = _number(limits.ELEMENT_NUMBERS["rotate"],
                              "degrees clockwise: the element is laid out in its box turned to the nearest "
                              "quarter turn, then turned about the box's centre")
    box = {"anyOf": [{"enum": ["bleed", "trim", "safe"]}, {"type": "array", "minItems": 4, "maxItems": 4},
                     TEMPLATE]}
    blocks = {"type": "array", "items": {"$ref": "#/definitions/block"}}
    props.update({"at": box, "rect": box, "flow": blocks})
    return {"type": "object", "propertyNames": {"enum": keys}, "properties": props,
            "description": f"one of {', '.join(ELEMENT_KINDS)} with its settings (docs/layouts.md)"}


def _size(game: Game) -> dict:
    sized = {"type": "object", "required": ["width", "height"], "additionalProperties": False,
             "properties": {k: _number(limits.CARD[k], "mm") for k in ("width", "height")}}
    return {"type": "object", "propertyNames": {"enum": sorted(game.card_types)},
            "description": "card types of another size than the card's",
            "additionalProperties": {"anyOf": [{"enum": sorted(CARD_SIZES)}, sized]}}


def _component(game: Game) -> dict:
    """A component that is not a card (components.py): its size, copies, sides, `each:`."""
    elements = {"type": "array", "items": {"$ref": "#/definitions/element"}}
    size = {"type": "array", "minItems": 2, "maxItems": 2, "description": "trim width and height, mm",
            "items": {"type": "number", "minimum": limits.BOX_SIZE.lo, "maximum": limits.BOX_SIZE.hi}}
    return {"type": "object", "required": ["size", "front"], "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "description": "what players call it"},
                "size": size,
                "bleed": {"type": "number", "minimum": 0, "maximum": 10, "description": "mm"},
                "copies": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 100},
                                     {"enum": ["players"]}],
                           "description": "how many (of each, with each:), or one per player"},
                "each": {"enum": sorted(game.card_types),
                         "description": "made once per card of this type, drawn from that card"},
                "front": elements, "back": elements}}


def layouts_schema(game: Game) -> dict:
    element_lists = {"type": "object", "additionalProperties": {"type": "array",
                                                                "items": {"$ref": "#/definitions/element"}}}
    card = {k: _number(limits.CARD[k], limits.CARD[k].what) for k in limits.CARD}
    card.update(size={"enum": sorted(CARD_SIZES)}, sizes=_size(game))
    style_keys = sorted(STYLE_KEYS)
    return {
        "title": f"{game.name}: layouts.yaml",
        "type": "object",
        "propertyNames": {"enum": sorted(TOP_KEYS)},
        "properties": {
            "card": {"type": "object", "properties": card, "additionalProperties": False},
            "fonts": {"type": "object"},
            "colours": {"type": "object", "additionalProperties": {"type": "string"}},
            "styles": {"type": "object", "additionalProperties": {
                "type": "object", "propertyNames": {"enum": style_keys}, "properties": _style_props()}},
            "templates": element_lists,
            "types": {**element_lists, "propertyNames": {"enum": sorted(game.card_types)}},
            "backs": element_lists,
            "reference": element_lists,
            "back_for": {"type": "string"},
            "reference_back": {"type": "string",
                               "description": "the back (one of backs:) the player aids print on"},
            "components": {"type": "object", "additionalProperties": _component(game)},
        },
        "definitions": {
            "element": _element(),
            "block": {"type": "object", "propertyNames": {"enum": sorted(BLOCK_KEYS)},
                      "properties": _text_props()},
        },
    }
