"""Where a long word on a card may be hyphenated: Pyphen's dictionaries (those WeasyPrint uses for
the rulebooks), with the rulebooks' limits (templates/rulebook/base.css.j2, hyphenate-limit-chars:
8 4 4): words of 8 letters or more, at least 4 letters on each side of the break."""

from __future__ import annotations

from functools import lru_cache

MIN_WORD, MIN_LEFT, MIN_RIGHT = 8, 4, 4
HYPHEN = "-"


@lru_cache(maxsize=8)
def _dictionary(language: str):
    import pyphen

    found = pyphen.language_fallback(language.replace("-", "_"))
    return pyphen.Pyphen(lang=found, left=MIN_LEFT, right=MIN_RIGHT) if found else None


def has_dictionary(language: str) -> bool:
    return _dictionary(language) is not None


@lru_cache(maxsize=4096)
def break_points(word: str, language: str) -> tuple[int, ...]:
    """Offsets into `word` where it may break (a hyphen is added there), last first. Punctuation
    around the letters stays with them; a word with other characters inside (digits, a hyphen of
    its own, an apostrophe) is left whole."""
    start, end = 0, len(word)
    while start < end and not word[start].isalpha():
        start += 1
    while end > start and not word[end - 1].isalpha():
        end -= 1
    letters = word[start:end]
    dictionary = _dictionary(language)
    if dictionary is None or len(letters) < MIN_WORD or not letters.isalpha():
        return ()
    return tuple(start + p for p in reversed(dictionary.positions(letters)))
