"""Deck files: `game:`, `name:`, `cards:` (name -> copies, or `all` for the box) and the extra
keys a game declares. A deck that cannot be read raises ContentError; a deck that reads but
breaks a rule is the rules module's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.errors import ContentError, Issue, IssueList, Problem, did_you_mean
from cardgen.model.fields import CheckContext, StrSpec, check_entry, show
from cardgen.model.game import Card, Game
from cardgen.model.loader import DECK_KEYS, MAX_COPIES, load_game
from cardgen.yamlio import LineDict, LineList, key_as_written, line_of, read_yaml, reading_hint


@dataclass
class DeckEntry:
    name: str
    count: Any              # as written; the bad-count check says when it is not a positive int
    line: int
    card: Card | None


@dataclass
class Deck:
    path: Path
    name: str
    game: Game
    entries: list[DeckEntry]
    fields: dict[str, Any]
    raw: LineDict
    # Card references in deck fields that name no card; reported as unknown-card problems.
    field_problems: list[Problem] = field(default_factory=list)
    # the game's variants this deck is meant for (`variants:`), each one the engine plays
    variants: tuple[str, ...] = ()

    def line_of(self, key: str, index: int | None = None) -> int:
        value = self.raw.get(key)
        if index is not None and isinstance(value, LineList):
            return value.line_of(index)
        return self.raw.line_of(key)

    def counted_entries(self) -> list[tuple[DeckEntry, int]]:
        """Entries of real cards with a usable count (what size and limit checks count)."""
        return [(e, e.count) for e in self.entries
                if e.card is not None and isinstance(e.count, int) and not isinstance(e.count, bool)
                and 0 < e.count <= MAX_COPIES]

    def total(self, types: list[str] | None = None) -> int:
        return sum(n for e, n in self.counted_entries() if types is None or e.card.type in types)


def load_deck(path: Path, games: dict[Path, Game] | None = None) -> Deck:
    """Read one deck file. `games` caches loaded games by folder across many decks."""
    path = Path(path)
    raw = read_yaml(path, path.absolute().parent)     # (a deck linked from elsewhere is not read)
    issues = IssueList(path)
    if raw is None:
        issues.add(1, None, "empty file: a deck needs `game:` and `cards:`")
    elif not isinstance(raw, dict):
        issues.add(line_of(raw, 1), None, f"a deck is a mapping with `game:` and `cards:`, "
                                          f"got {show(raw)}")
    issues.raise_if_any()
    for key in ("game", "cards"):
        if key not in raw:
            issues.add(raw.line, key, "missing required field: is this a deck file?")
    issues.raise_if_any()
    game_ref = raw["game"]
    if not isinstance(game_ref, str):
        issues.add(raw.line_of("game"), "game", f"expected a game id or folder, got {show(game_ref)}")
        issues.raise_if_any()
    game = _load_deck_game(game_ref, path, raw, games)

    ctx = CheckContext(issues, {n: c.type for n, c in game.cards.items()}, set(game.keywords),
                       game.icon_names)
    field_problems: list[Problem] = []
    ctx.on_unknown_card = lambda line, where, msg: field_problems.append(
        Problem("unknown-card", f"{where}: {msg}", line))
    for key, value in raw.items():
        line = raw.line_of(key)
        if key in ("name", "description", "notes"):
            check_entry(StrSpec(text=key != "name"), raw, key, line, key, ctx)
        elif key == "variants":
            _check_variants(value, line, game, ctx)
        elif key in game.deck_fields:
            check_entry(game.deck_fields[key], raw, key, line_of(value, line), key, ctx)
        elif key not in DECK_KEYS:
            known = list(DECK_KEYS) + list(game.deck_fields)
            hint = did_you_mean(key, known)
            ctx.error(line, key, f"unknown field{hint} (a {game.id} deck has: {', '.join(known)})")
    entries = _entries(raw, game, issues)
    issues.raise_if_any()
    fields = {k: v for k, v in raw.items() if k in game.deck_fields}
    return Deck(path, str(raw.get("name") or path.stem), game, entries, fields, raw, field_problems,
                tuple(dict.fromkeys(raw.get("variants") or ())))


def _check_variants(value, line: int, game: Game, ctx: CheckContext) -> None:
    """A deck's `variants:`: names of game.yaml variants the engine plays."""
    if not isinstance(value, list):
        ctx.error(line, "variants", f"expected a list of variant names, got {show(value)}")
        return
    for i, name in enumerate(value):
        where = f"variants[{i + 1}]"
        item_line = value.line_of(i) if isinstance(value, LineList) else line
        problem = (f"expected a variant name, got {show(name)}" if not isinstance(name, str)
                   else game.variant_problem(name))
        if problem:
            ctx.error(item_line, where, problem)


def _load_deck_game(ref: str, path: Path, raw: LineDict, games) -> Game:
    from cardgen.paths import resolve_game_folder

    folder = resolve_game_folder(ref, path.parent)
    if folder is None:
        from cardgen.paths import bundled_game_ids

        ids = bundled_game_ids()
        raise ContentError([Issue(path, raw.line_of("game"), "game",
                                  f"no game {ref!r}{did_you_mean(ref, ids)}: expected one of "
                                  f"{', '.join(ids)} or the path of a folder with a game.yaml")])
    folder = folder.resolve()
    if games is not None and folder in games:
        return games[folder]
    game = load_game(folder)
    if games is not None:
        games[folder] = game
    return game


def _entries(raw: LineDict, game: Game, issues: IssueList) -> list[DeckEntry]:
    cards = raw["cards"]
    line = raw.line_of("cards")
    if cards == "all":
        return [DeckEntry(c.name, c.copies, line, c) for c in game.cards.values()
                if game.card_types[c.type].in_decks]
    if not isinstance(cards, dict):
        issues.add(line_of(cards, line), "cards",
                   f"expected a mapping of card name to copies (or `all`), got {show(cards)}")
        return []
    entries = []
    for name, count in cards.items():
        written = key_as_written(cards, name)
        if written is not None:                 # `Yes: 2` is true: 2, not the card named Yes
            issues.add(cards.line_of(name), "cards", reading_hint(written, name))
        entries.append(DeckEntry(str(name), count, cards.line_of(name), game.cards.get(str(name))))
    return entries
