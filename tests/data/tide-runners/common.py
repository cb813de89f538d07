"""Numbers shared by the engine and the deck check (one place, so they cannot disagree)."""

ROWER, GUST = "rower", "gust"


def card_counts(deck) -> dict[str, int]:
    """Copies in the deck by card type."""
    counts = {ROWER: 0, GUST: 0}
    for entry, count in deck.counted_entries():
        counts[entry.card.type] += count
    return counts
