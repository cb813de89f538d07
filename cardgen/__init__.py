"""cardgen: card games from YAML to print-and-play cards, rulebooks and rules checks."""

__version__ = "0.1.0"
