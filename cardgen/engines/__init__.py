"""Rules engines: the contract (engines/base.py) and loading a game's own engine, which game.yaml
names with `engine:` (a file or package of the game folder's Python, see cardgen/gamecode.py)."""

from __future__ import annotations

from pathlib import Path

from cardgen.errors import ContentError, Issue
from cardgen.gamecode import load_hook, own_code_errors, require


def has_engine(game) -> bool:
    """Whether the game names a rules engine."""
    return "engine" in game.hooks


def load_engine(game):
    """The engine for a loaded game, or a ContentError saying the game has none (or where its
    engine's code goes wrong)."""
    from cardgen.engines.base import Engine

    module = load_hook(game, "engine")
    if module is None:
        raise ContentError([Issue(game.folder / "game.yaml", None, "engine",
                                  "this game has no rules engine: simulation and scenarios need one; "
                                  "write it in a Python file of the game folder and name it with "
                                  "`engine: engine.py` (docs/engines.md)")])
    (cls,) = require(game, "engine", module, "ENGINE")
    if not (isinstance(cls, type) and issubclass(cls, Engine)):
        raise ContentError([Issue(Path(module.__file__), None, "ENGINE",
                                  "the engine file must set ENGINE to its engine "
                                  "class, a subclass of cardgen.engines.base.Engine")])
    with own_code_errors():
        engine = cls(game)
    _check_variants(game, engine)
    return engine


def _check_variants(game, engine) -> None:
    """game.yaml `variants:` and the engine's `variants` name the same ones: a declared variant is
    played unless marked `played: false`, and a played one is declared (when game.yaml declares
    any; an engine older than `variants:` keeps its one-line descriptions)."""
    declared = game.variants
    if not declared:
        return
    where = game.folder / "game.yaml"
    issues = [Issue(where, v.line, f"variants.{v.id}",
                    "the engine does not play this variant: teach it, or mark it `played: false` "
                    "and say `why:`")
              for v in declared.values() if v.played and v.id not in engine.variants]
    issues += [Issue(where, None, "variants", f"the engine plays a variant {name!r} that game.yaml "
                                              "does not declare")
               for name in engine.variants if name not in declared]
    issues += [Issue(where, v.line, f"variants.{v.id}", "marked `played: false`, but the engine "
                                                         "plays it")
               for v in declared.values() if not v.played and v.id in engine.variants]
    if issues:
        raise ContentError(issues)
