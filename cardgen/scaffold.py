"""`cardgen new DIR`: a small, complete game to start from (templates/new-game)."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from cardgen.editor import set_up
from cardgen.errors import ContentError, Issue
from cardgen.fsutil import write_atomic
from cardgen.model import load_game
from cardgen.paths import templates_dir


def new_game(folder: Path, name: str | None = None) -> list[Path]:
    """Copy the starter game into `folder` (which must not exist or be empty), set up for VS Code's
    YAML extension (cardgen.editor): its card and deck files are checked as they are typed."""
    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise ContentError([Issue(folder, None, None, "already exists and is not empty; cardgen new "
                                                      "never writes over your files")])
    name = name or folder.name.replace("-", " ").replace("_", " ").strip().title() or "My Game"
    name = " ".join(name.split())       # one line: it goes into comments and a YAML value
    name_yaml = json.dumps(name, ensure_ascii=False)    # quoted, so "Bees: The Game" stays a name
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()    # Ö -> O
    game_id = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "my-game"
    source = templates_dir() / "new-game"
    written = []
    for path in sorted(source.rglob("*")):
        # (an installed cardgen has the starter's engine.py compiled beside it, by pip)
        if path.is_dir() or "__pycache__" in path.relative_to(source).parts:
            continue
        text = path.read_text(encoding="utf-8")
        for slot, value in (("{{ name_yaml }}", name_yaml), ("{{ name }}", name), ("{{ id }}", game_id)):
            text = text.replace(slot, value)
        written.append(write_atomic(folder / path.relative_to(source), text))
    editor_files, _note = set_up(load_game(str(folder)))     # (no note: the folder had no settings)
    return written + editor_files
