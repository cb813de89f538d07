"""Rules engines: the contract (engines/base.py) and loading a game's own engine, which game.yaml
names with `engine:` (a file or package of the game folder's Python, see cardgen/gamecode.py)."""

from __future__ import annotations

from cardgen.errors import ContentError, Issue
from cardgen.gamecode import load_hook, module_file, own_code_crash, require


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
        raise ContentError([Issue(module_file_of(module), None, "ENGINE",
                                  "the engine file must set ENGINE to its engine "
                                  "class, a subclass of cardgen.engines.base.Engine")])
    try:
        return cls(game)
    except ContentError:
        raise
    except Exception as exc:
        error = own_code_crash(exc)
        if error is None:
            raise
        raise error from None


def module_file_of(module):
    from pathlib import Path

    return Path(module.__file__) if getattr(module, "__file__", None) else None


def own_engine_crash(exc: BaseException) -> ContentError | None:
    """See cardgen.gamecode.own_code_crash (kept under this name for the commands)."""
    return own_code_crash(exc)


def engine_file(engine):
    """The file an engine's class comes from."""
    return module_file(engine)
