"""A game folder's own Python: its rules engine, deck checks and player-aid builder.

game.yaml names each hook by a path inside the folder, a `.py` file or a package folder (one with
`__init__.py`):

    engine: engine            # sets ENGINE, an Engine subclass (docs/engines.md)
    deck_checks: deck_checks.py   # RULES (rule id -> one line) and check(deck, game)
    aids: aids.py             # build(aid): the player-aid sections (docs/game-format.md)

The bundled games use the same hooks as a designer's folder. Every file of a folder's Python is
loaded as a module of one private package (`_cardgen_game_<id>_<hash>`) whose root is the game
folder, so a hook may span several files with relative imports (`from .state import Fighter`).
Only regular files inside the folder are ever read: a name that leads out of it, through `..` or
a link, is refused as if the file were not there. Nothing is written into the folder (no
__pycache__): sources are compiled in memory. An edited file is read again the next time a hook
of that game is asked for; an unchanged package is loaded once per process, so its classes keep
their identity.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import re
import stat
import sys
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import UnsafeFile, read_confined

PREFIX = "_cardgen_game_"
MAX_SOURCE_BYTES = 4 << 20      # a hook file larger than this is not a program anyone wrote by hand


@dataclass(frozen=True)
class Hook:
    key: str          # the game.yaml key
    provides: str     # what the module must define, in words
    words: str        # what it is called in a message ("the engine failed: ...")
    doc: str          # one line for the field's documentation


HOOKS: dict[str, Hook] = {h.key: h for h in (
    Hook("engine", "ENGINE, a subclass of cardgen.engines.base.Engine", "the engine",
         "Your rules engine: a Python file or package in the game folder that sets ENGINE "
         "(docs/engines.md)."),
    Hook("deck_checks", "RULES (rule id -> one-line explanation) and check(deck, game)", "the deck checks",
         "Deck checks in Python beyond the declared ones: a file or package setting RULES and "
         "check(deck, game) (docs/game-format.md)."),
    Hook("aids", "build(aid), which adds the player aid's sections", "the aid builder",
         "Your player-aid builder: a file or package defining build(aid) (docs/game-format.md)."),
)}


# -- where a hook's code is ------------------------------------------------------------------------

def hook_path(folder: Path, name: str) -> tuple[Path | None, str | None]:
    """(the hook's file or package folder, None), or (None, what is wrong with the name)."""
    if Path(name).is_absolute():
        return None, (f"{name!r} is an absolute path; give the path from the game folder, such as "
                      "engine.py, so the folder works anywhere")
    target = folder / name.rstrip("/")
    if name.endswith(".py"):
        if _inside(folder, target) is None:
            return None, f"{name!r} is outside the game folder; give a path inside it, such as engine.py"
        if not _regular(target):
            return None, f"no file {name!r} in the game folder"
        return target, None
    if _inside(folder, target) is None:
        return None, f"{name!r} is outside the game folder; give a path inside it, such as engine"
    if target.is_dir():
        if _regular(target / "__init__.py"):
            return target, None
        return None, f"{name!r} is a folder without __init__.py: a package folder needs one"
    return None, (f"{name!r} is not a Python file (name.py), nor a package folder in the game "
                  "folder")


def _inside(folder: Path, path: Path) -> Path | None:
    """The path resolved, when it (links followed) lies inside the folder; else None."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        return None
    return real if real.is_relative_to(folder.resolve()) else None


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def package_name(game) -> str:
    """The private package a game folder's Python is loaded under."""
    safe = re.sub(r"[^a-z0-9]", "_", game.id.lower())
    return f"{PREFIX}{safe}_{hashlib.sha1(str(game.folder).encode()).hexdigest()[:10]}"


def module_name(game, path: Path) -> str:
    rel = path.relative_to(game.folder).with_suffix("") if path.suffix == ".py" else path.relative_to(
        game.folder)
    return ".".join([package_name(game), *rel.parts])


# -- loading ---------------------------------------------------------------------------------------

class _Package:
    """One game folder's loaded Python: the folder, and what each file held when it was read."""

    def __init__(self, folder: Path):
        self.folder = folder.resolve()
        self.sources: dict[Path, bytes] = {}

    def stale(self) -> bool:
        for path, source in self.sources.items():
            try:
                if path.read_bytes() != source:
                    return True
            except OSError:
                return True
        return False


_PACKAGES: dict[str, _Package] = {}
# every file of a game folder's Python loaded in this process -> the hook that first loaded it
_OWN_FILES: dict[Path, str] = {}
_loading: list[str] = []           # the hook being loaded (its files are blamed on it)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the modules of the private game packages, and only inside their folders."""

    def find_spec(self, fullname, path=None, target=None):
        root = fullname.partition(".")[0]
        package = _PACKAGES.get(root)
        if package is None:
            return None
        # This finder is the only one for a game package: what it does not find is not there (the
        # standard finders would follow links out, load compiled files and write __pycache__).
        parts = fullname.split(".")[1:]
        base = package.folder.joinpath(*parts)
        folder_only = not parts or (base.is_dir() and not (base / "__init__.py").exists())
        if folder_only and _inside(package.folder, base) is not None and base.is_dir():
            # the game folder itself, or a folder without __init__.py: a package with no code of its own
            spec = importlib.machinery.ModuleSpec(fullname, _Loader(package, None), is_package=True)
            spec.submodule_search_locations = [str(base)]
            return spec
        for candidate, is_package in ((base / "__init__.py", True), (base.with_suffix(".py"), False)):
            if (candidate.exists() or candidate.is_symlink()) and _inside(package.folder, candidate) \
                    and _regular(candidate):       # not a link out of the folder, a FIFO, a device
                return importlib.util.spec_from_file_location(
                    fullname, candidate, loader=_Loader(package, candidate),
                    submodule_search_locations=[str(base)] if is_package else None)
        raise ModuleNotFoundError(f"no module {'.'.join(parts)!r} in the game folder (only .py files "
                                  "inside it are imported)", name=fullname)


class _Loader(importlib.abc.Loader):
    def __init__(self, package: _Package, path: Path | None):
        self.package, self.path = package, path

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if self.path is None:
            return
        try:        # (the finder has checked it lies in the game folder; the size is checked first)
            source = read_confined(self.path, None, MAX_SOURCE_BYTES)
        except UnsafeFile as exc:
            raise ImportError(f"{self.path}: this file {exc}") from None
        self.package.sources[self.path] = source
        _OWN_FILES.setdefault(self.path, _loading[-1] if _loading else "engine")
        exec(compile(source, str(self.path), "exec", dont_inherit=True), module.__dict__)


_FINDER = _Finder()


def _ensure_finder() -> None:
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def _forget(name: str) -> None:
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]


def load_hook(game, key: str) -> ModuleType | None:
    """The module of a game's hook (None when game.yaml names none). Its mistakes as it loads
    are a ContentError at their file and line, never a traceback of cardgen."""
    path = game.hooks.get(key)
    if path is None:
        return None
    _ensure_finder()
    name = package_name(game)
    package = _PACKAGES.get(name)
    if package is None or package.stale():     # (the name is the folder's: one package per folder)
        _forget(name)                       # an edited file: read the whole package again
        _PACKAGES[name] = _Package(Path(game.folder))
    target = module_name(game, path)
    _loading.append(key)
    try:
        return importlib.import_module(target)
    except SyntaxError as exc:
        _forget(target)
        raise ContentError([Issue(Path(exc.filename or path), exc.lineno, None,
                                  f"Python syntax error: {exc.msg}")]) from None
    except ContentError:
        _forget(target)
        raise
    except Exception as exc:      # the folder's code failed as it loaded: show where, in its file
        _forget(target)
        where = own_frame(exc) or (_entry_file(path), None)
        raise ContentError([Issue(*where, None, f"{HOOKS[key].words} failed as it loaded: "
                                                f"{type(exc).__name__}: {exc}")]) from None
    finally:
        _loading.pop()


def _entry_file(path: Path) -> Path:
    return path / "__init__.py" if path.is_dir() else path


def require(game, key: str, module: ModuleType, *names: str) -> list:
    """The named attributes of a hook's module, or a ContentError naming what it must define."""
    missing = [n for n in names if not hasattr(module, n)]
    if missing:
        raise ContentError([Issue(_entry_file(game.hooks[key]), None, missing[0],
                                  f"the {key} hook must define {HOOKS[key].provides}")])
    return [getattr(module, n) for n in names]


def own_frame(exc: BaseException) -> tuple[Path, int] | None:
    """(file, line) of the deepest frame of the exception's traceback in a game folder's Python."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename)
        if path in _OWN_FILES:
            return path, frame.lineno
    return None


@contextmanager
def own_code_errors():
    """Around a call into a game folder's Python outside a match (its engine's set-up, setups,
    bots and card checks, its deck checks, its aid builder): an exception raised in (or through)
    that code becomes a ContentError at its file and line, which the commands print as they print
    any content error. Any other exception, a crash of cardgen itself, keeps its traceback."""
    try:
        yield
    except ContentError:
        raise
    except (Exception, SystemExit) as exc:     # (a game's code calling sys.exit() fails there too)
        where = own_frame(exc)
        if where is None:
            raise
        words = HOOKS[_OWN_FILES[where[0]]].words
        raise ContentError([Issue(*where, None, f"{words} failed: {type(exc).__name__}: {exc}")]) from None


def module_file(obj) -> Path | None:
    """The file an object's class was defined in (a game's engine file, say)."""
    module = sys.modules.get(type(obj).__module__)
    return Path(module.__file__) if module is not None and getattr(module, "__file__", None) else None
