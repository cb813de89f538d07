"""Caches bounded by the memory their values hold, not by how many there are.

A card background is 3.7 MB (poker with bleed at 300 dpi; Pillow keeps 4 bytes a pixel of RGB), a
text run's mask a few kB: a cap on the count let each drawing process keep 48 backgrounds (178 MB)
where a dozen gave as many hits on the bundled games.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable


class BoundedCache:
    """Least recently used values, dropped while the values held add up to more than `limit`
    bytes (`size(value)`); the newest is kept whatever its size."""

    def __init__(self, limit: int, size: Callable[[object], int]):
        self.limit, self.size = limit, size
        self.values: OrderedDict = OrderedDict()
        self.held = 0

    def get(self, key: Hashable):
        """The value kept for key (now the most recently used), or None."""
        value = self.values.get(key)
        if value is not None:
            self.values.move_to_end(key)
        return value

    def put(self, key: Hashable, value) -> None:
        if key in self.values:
            self.held -= self.size(self.values.pop(key))
        self.values[key] = value
        self.held += self.size(value)
        while self.held > self.limit and len(self.values) > 1:
            _, old = self.values.popitem(last=False)
            self.held -= self.size(old)

    def clear(self) -> None:
        self.values.clear()
        self.held = 0


def bounded_cache(limit: int, size: Callable[[object], int]):
    """functools.lru_cache for a function of hashable arguments whose results are never None,
    bounded by the bytes of its results; with cache_clear() as lru_cache has."""
    def wrap(function):
        cache = BoundedCache(limit, size)

        @functools.wraps(function)
        def cached(*args):
            value = cache.get(args)
            if value is None:
                value = function(*args)
                cache.put(args, value)
            return value

        cached.cache_clear = cache.clear
        cached.cache = cache
        return cached
    return wrap


def image_bytes(image) -> int:
    """The memory of a PIL image or of a core image (Image.im): its pixels."""
    width, height = image.size
    return width * height * {"1": 1, "L": 1, "P": 1, "LA": 2, "RGB": 4, "RGBA": 4}.get(image.mode, 4)
