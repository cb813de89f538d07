"""Parts of the Amiibart TCG engine: the card-text grammar (grammar.py)."""
