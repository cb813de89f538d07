"""Reference rules engines, one module per bundled game (named by game.yaml `code:`)."""

from __future__ import annotations

import importlib
import importlib.util

from cardgen.errors import ContentError, Issue


def load_engine(game):
    """The engine for a loaded game, or a ContentError saying the game has none."""
    if not game.code:
        raise ContentError([Issue(game.folder / "game.yaml", None, "code",
                                  "this game has no rules engine: simulation and scenarios need a "
                                  "built-in engine named by `code:`")])
    name = f"cardgen.engines.{game.code}"
    if importlib.util.find_spec(name) is None:
        raise ContentError([Issue(game.folder / "game.yaml", None, "code",
                                  f"no engine module {game.code!r} (cardgen/engines/)")])
    return importlib.import_module(name).ENGINE(game)
