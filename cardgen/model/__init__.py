"""The checked model of a game: Game, CardType, Card, Deck, and their loaders."""

from cardgen.model.deck import Deck, DeckEntry, load_deck
from cardgen.model.game import Card, CardType, DeckCheck, Game
from cardgen.model.loader import load_game

__all__ = ["Card", "CardType", "Deck", "DeckCheck", "DeckEntry", "Game", "load_deck", "load_game"]
