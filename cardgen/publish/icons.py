"""game.yaml's icons as HTML, for the rulebook, the player aids and the site.

A font icon is its characters, in a span the page's symbol font draws. A picture icon (`icons:
{gem: {image: icons/gem.svg}}`) is a small PNG inside the page (a data: address: the book and the
site need no file beside them), as tall as the cards draw it (INLINE_HEIGHT em) and, like on the
cards, in the text's colour unless game.yaml says `colour: original` or names another colour.
"""

from __future__ import annotations

import base64
import io
from functools import lru_cache

from markupsafe import Markup, escape

from cardgen.render import filecache
from cardgen.render.text import INLINE_HEIGHT

# The page's text colour (templates/rulebook/base.css.j2 and templates/site/style.css): a picture
# icon in the text's colour is drawn in it.
BOOK_INK = (0x1D, 0x1D, 0x1F, 255)
SITE_INK = (0x1F, 0x23, 0x28, 255)
# Pixels tall: sharp when printed at 10.5 pt (0.8 em is about 3 mm: 96 px is 800 dpi).
PICTURE_PX = 96


def html_icons(game, ink=BOOK_INK) -> dict[str, Markup]:
    """Every {name} of the game's text as the HTML that shows it (the same dict while the game's
    icons and their files stay as they are: text is made rich a field at a time)."""
    pictures = tuple((name, str((game.folder / icon.image).resolve()), _colour(game, icon.colour, ink))
                     for name, icon in game.icon_images.items())
    return _html_icons(tuple(game.icons.items()), pictures)


def _colour(game, wanted: str | None, ink):
    """A picture icon's tint: None for its own colours."""
    if wanted == "original":
        return None
    if wanted is None:
        return ink
    from cardgen.render.layout import load_layouts, parse_colour

    return parse_colour(wanted) or load_layouts(game).colours.get(wanted) or ink


@lru_cache(maxsize=16)
def _html_icons(glyphs: tuple, pictures: tuple) -> dict[str, Markup]:
    out = {name: Markup('<span class="icon" title="{}">{}</span>').format(name, glyph)
           for name, glyph in glyphs}
    for name, path, colour in pictures:
        out[name] = Markup('<img class="icon picture" alt="{}" title="{}" src="data:image/png;base64,{}" '
                           'style="height:{}em;vertical-align:baseline">').format(
            name, name, _picture_png(path, colour), INLINE_HEIGHT)
    return out


@lru_cache(maxsize=64)      # (emptied when a picture it read is saved again: cardgen.render.filecache)
def _picture_png(path: str, colour) -> str:
    """The picture at `path` (checked as card art is) PICTURE_PX tall, tinted, as base64 PNG: drawn
    as the card painter draws a picture icon."""
    from cardgen.render.art import art_size
    from cardgen.render.paint_png import scaled_picture

    width, height = art_size(path)
    image = scaled_picture(path, max(1, round(PICTURE_PX * width / height)), PICTURE_PX, "contain", colour)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return str(escape(base64.b64encode(buffer.getvalue()).decode("ascii")))


filecache.on_change(_picture_png.cache_clear)
filecache.on_change(_html_icons.cache_clear)
