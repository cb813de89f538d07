"""Pieces of the Amfibido engine: the card-text grammar (grammar.py)."""
