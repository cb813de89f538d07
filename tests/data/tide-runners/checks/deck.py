"""Tide Runners' deck check in code: the declared checks in game.yaml cannot compare two counts."""

from cardgen.errors import Problem

from ..common import GUST, ROWER, card_counts

RULES = {"more-rowers": "A deck holds more rowers than gusts: a boat that cannot row never finishes."}


def check(deck, game):
    counts = card_counts(deck)
    if counts[ROWER] <= counts[GUST]:
        yield Problem("more-rowers", f"{counts[ROWER]} rowers and {counts[GUST]} gusts: a deck needs "
                                     "more rowers than gusts", deck.raw.line_of("cards"))
