"""Rules engines: one module per bundled game (named by game.yaml `code:`), or a designer's own
engine file in their game folder (game.yaml `engine:`)."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
import traceback
from pathlib import Path

from cardgen.errors import ContentError, Issue

_OWN_FILES: set[Path] = set()       # the designers' engine files loaded in this process


def has_engine(game) -> bool:
    """Whether the game names a rules engine (its own file, or a built-in one that exists)."""
    if game.engine is not None:
        return True
    return bool(game.code) and importlib.util.find_spec(f"cardgen.engines.{game.code}") is not None


def load_engine(game):
    """The engine for a loaded game, or a ContentError saying the game has none (or, for the
    game's own engine file, where that file goes wrong)."""
    if game.engine is not None:
        return _engine_from_file(game, Path(game.engine))
    if not game.code:
        raise ContentError([Issue(game.folder / "game.yaml", None, "engine",
                                  "this game has no rules engine: simulation and scenarios need one; "
                                  "write it in a Python file of the game folder and name it with "
                                  "`engine: engine.py` (docs/engines.md)")])
    name = f"cardgen.engines.{game.code}"
    if importlib.util.find_spec(name) is None:
        raise ContentError([Issue(game.folder / "game.yaml", None, "code",
                                  f"no engine module {game.code!r} (cardgen/engines/)")])
    return importlib.import_module(name).ENGINE(game)


def _engine_from_file(game, path: Path):
    """Run the game's engine file and build its ENGINE. Its mistakes are reported at their line
    in that file, as content errors are, not as a traceback of cardgen."""
    from cardgen.engines.base import Engine

    try:
        source = path.read_text(encoding="utf-8")
        code = compile(source, str(path), "exec")
    except SyntaxError as exc:
        raise ContentError([Issue(path, exc.lineno, None, f"Python syntax error: {exc.msg}")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError([Issue(path, None, None, f"cannot read the engine file: {exc}")]) from None
    # A module of its own, registered while it runs and after (dataclasses and pickling look a
    # class's module up by name); a new load replaces the old one, so an edited file is re-read.
    name = "cardgen_game_engine_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _OWN_FILES.add(path)
    try:
        exec(code, module.__dict__)
        cls = module.__dict__.get("ENGINE")
        if not (isinstance(cls, type) and issubclass(cls, Engine)):
            raise ContentError([Issue(path, None, "ENGINE", "the engine file must set ENGINE to its engine "
                                      "class, a subclass of cardgen.engines.base.Engine")])
        return cls(game)
    except ContentError:
        sys.modules.pop(name, None)
        raise
    except Exception as exc:  # the designer's code failed as it loaded: show where, in their file
        sys.modules.pop(name, None)
        raise ContentError([Issue(*(_own_frame(exc) or (path, None)), None,
                                  f"the engine failed as it loaded: {type(exc).__name__}: {exc}")]) from None


def _own_frame(exc: BaseException) -> tuple[Path, int] | None:
    """(file, line) of the deepest frame of the exception's traceback in a designer's engine file."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename)
        if path in _OWN_FILES:
            return path, frame.lineno
    return None


def own_engine_crash(exc: BaseException) -> ContentError | None:
    """For an exception raised in (or through) a designer's engine file outside a match (in its
    setups, bots or card checks): a ContentError at that file's line, which the commands print
    as they print any content error. None for any other exception: a crash of cardgen itself keeps
    its traceback, for a bug report."""
    where = _own_frame(exc)
    if where is None:
        return None
    return ContentError([Issue(*where, None, f"the engine failed: {type(exc).__name__}: {exc}")])


def engine_file(engine) -> Path | None:
    """The file an engine's class comes from (the designer's, or the bundled module)."""
    module = sys.modules.get(type(engine).__module__)
    return Path(module.__file__) if module is not None and getattr(module, "__file__", None) else None
