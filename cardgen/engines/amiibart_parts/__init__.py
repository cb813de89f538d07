"""Parts of the Amiibart TCG engine: the card-text grammar (grammar.py) and the replay narration
(replay.py)."""
