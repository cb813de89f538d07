"""Editor set-up inside a game folder: VS Code's YAML extension checks card and deck files.

The schemas live in the game folder's `.cardgen/` (cardgen's own folder: each file carries
cardgen.schema.MARK, so cardgen replaces it and never a file of the designer's), under names that
do not depend on the game's id, so `.vscode/settings.json` maps them to `cards/` and `decks/`
with a constant `yaml.schemas` entry. The folder is hidden, so `watch` does not see the schemas
change and the game's own files stay apart from them.

A folder is set up by `cardgen new` or `cardgen schema GAME --into-folder`; from then on the
build's `schemas` stage (cardgen.build) rewrites the schemas when the cards or game.yaml change.
A folder that is not set up is never written to: building someone else's game leaves it as it is.
"""

from __future__ import annotations

import json
from pathlib import Path

from cardgen import fsutil
from cardgen.errors import ContentError, Issue, display_path
from cardgen.model import Game
from cardgen.schema import game_schemas, schema_text, write_ours

OWN_FOLDER = ".cardgen"
SCHEMA_FILES = {"cards": f"{OWN_FOLDER}/cards.schema.json", "deck": f"{OWN_FOLDER}/deck.schema.json",
                "layouts": f"{OWN_FOLDER}/layouts.schema.json"}
SETTINGS = ".vscode/settings.json"
# Globs as the YAML extension reads them: matched against the whole path (it puts "**/" before
# each), so they hold at any depth below cards/ and decks/.
FILE_GLOBS = {"cards": ["cards/**/*.yaml", "cards/**/*.yml"], "deck": ["decks/**/*.yaml", "decks/**/*.yml"],
              "layouts": ["layouts.yaml"]}
MAX_SETTINGS_BYTES = 1024 * 1024


def vscode_settings() -> dict:
    """The workspace settings that map the schemas to the files they check. A schema's path is
    relative to the workspace folder (the game folder opened in VS Code); the "./" keeps the
    extension from reading its first part as the name of a workspace folder."""
    return {"yaml.schemas": {f"./{SCHEMA_FILES[kind]}": FILE_GLOBS[kind] for kind in SCHEMA_FILES}}


def is_set_up(folder: Path) -> bool:
    """Whether the game folder asked for editor schemas: it has cardgen's schema files, or VS Code
    settings that point at them (a fresh clone of a game whose .cardgen/ is not in git)."""
    folder = Path(folder)
    return any((folder / rel).is_file() for rel in SCHEMA_FILES.values()) or _settings_point_here(folder)


def update_schemas(game: Game) -> list[Path]:
    """Write the game's schemas into its folder where their content changed; the files written."""
    folder = game.folder
    _refuse_links(folder, [OWN_FOLDER])
    schemas = game_schemas(game)
    return write_ours({folder / SCHEMA_FILES[kind]: schema_text(schemas[kind]) for kind in SCHEMA_FILES},
                      own_folder=False, advice=f"move it out of {OWN_FOLDER}/, which is cardgen's own")


def set_up(game: Game) -> tuple[list[Path], str | None]:
    """Set the game folder up for editors: the schemas, and VS Code's settings when the folder has
    none. Returns the files written, and a note when the designer's own settings file needs the
    `yaml.schemas` entry added by hand (it is theirs: cardgen does not rewrite it)."""
    _refuse_links(game.folder, [".vscode"])
    written = update_schemas(game)
    settings = game.folder / SETTINGS
    if not settings.exists() and not settings.is_symlink():
        written.append(fsutil.write_atomic(settings, json.dumps(vscode_settings(), indent=2) + "\n"))
        return written, None
    if _settings_point_here(game.folder):
        return written, None
    entry = json.dumps(vscode_settings(), indent=2)[1:-1].strip("\n")
    return written, (f"{display_path(settings)} is yours and left as it is; add this to it so that "
                     f"VS Code's YAML extension uses the schemas:\n{entry}")


def _settings_point_here(folder: Path) -> bool:
    """Whether the folder's VS Code settings name the schemas (read as text: the file is JSON with
    comments, and only this one path in it matters)."""
    try:
        settings = fsutil.read_confined(Path(folder) / SETTINGS, folder, MAX_SETTINGS_BYTES)
    except (fsutil.UnsafeFile, OSError):
        return False
    return SCHEMA_FILES["cards"].encode() in settings


def _refuse_links(folder: Path, names: list[str]) -> None:
    """cardgen writes only inside the game folder: not through a folder that is a link."""
    links = [Issue(folder / name, None, None, "is a link; cardgen writes only inside the game folder")
             for name in names if (folder / name).is_symlink()]
    if links:
        raise ContentError(links)
