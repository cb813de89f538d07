"""Rendering over processes (issue 24, items 1 and 2): one set of workers for a whole render, each
game drawn by one process until the last ones are shared, and caches bounded by memory."""

from __future__ import annotations

from cardgen.model import load_game
from cardgen.render import paint_png
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.memo import BoundedCache, image_bytes

# -- memory ---------------------------------------------------------------------------------------

def test_the_backgrounds_kept_are_bounded_by_their_bytes():
    # (48 backgrounds of 3.7 MB each were kept per process, where a dozen gave as many hits)
    game = load_game("amiibart")
    layouts = load_layouts(game)
    for card in game.cards.values():                      # (46 backgrounds)
        paint_png.paint_png(layout_face(layouts, card))
    kept = paint_png._LAYERS.values
    assert len(kept) >= 8
    assert sum(image_bytes(image) for image in kept.values()) <= 48 << 20


def test_a_bounded_cache_drops_the_least_recently_used_past_its_bytes():
    cache = BoundedCache(10, len)
    cache.put("a", "xxxx")
    cache.put("b", "xxxx")
    assert cache.get("a") == "xxxx"                     # now the most recently used
    cache.put("c", "xxxx")
    assert cache.get("b") is None and cache.get("a") and cache.get("c") and cache.held == 8
    cache.put("d", "x" * 30)                            # alone over the bound: kept, the rest go
    assert list(cache.values) == ["d"] and cache.held == 30
