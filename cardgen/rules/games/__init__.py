"""Per-game deck checks for the bundled games: one module per game, named by game.yaml `code:`.

Each module has `RULES` (rule id -> one-line explanation) and `check(deck, game)` yielding
Problems. A designer's own game needs none: its declared checks cover it.
"""
