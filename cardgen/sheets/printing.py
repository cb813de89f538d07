"""What a print holds: the game or deck named, which cards and how many, each laid out once
(the proxy sheets and the Tabletop Simulator export both start here), and what its files are
named by."""

from __future__ import annotations

from pathlib import Path

from cardgen.errors import ContentError, Issue, did_you_mean
from cardgen.model import Card, Deck, Game


def load_target(ref: str) -> tuple[Game, Deck | None]:
    """A game id or folder, or a deck file: the game, and the deck when a deck was named."""
    from cardgen.model import load_deck, load_game

    path = Path(ref)
    if path.is_file() and path.name != "game.yaml":
        deck = load_deck(path)
        return deck.game, deck
    return load_game(ref), None


def print_list(game: Game, deck: Deck | None = None) -> list[tuple[Card, int]]:
    """Which cards to print and how many of each: the deck's counts (`cards: all` means the box
    counts), or the whole set with every card at its `copies`."""
    if deck is None:
        return [(card, card.copies) for card in game.cards.values() if card.copies > 0]
    issues, out = [], []
    for entry in deck.entries:
        if entry.card is None:
            issues.append(Issue(deck.path, entry.line, "cards", f"no card {entry.name!r} in {game.name}"
                                                                f"{did_you_mean(entry.name, game.cards)}"))
        elif isinstance(entry.count, bool) or not isinstance(entry.count, int) or entry.count < 0:
            issues.append(Issue(deck.path, entry.line, "cards",
                                f"{entry.name}: expected a whole number of copies, got {entry.count!r}"))
        elif entry.count:
            out.append((entry.card, entry.count))
    if issues:
        raise ContentError(issues)
    return out


def prepare(game: Game, deck: Deck | None = None, with_backs: bool = True, cache: Path | None = None,
            jobs: int | None = None, layouts=None):
    """Lay out every distinct card once (on every core; unchanged cards come from `cache`, a JSON
    file, when given): a Deckload with one Face per printed copy, and the layouts."""
    from cardgen.render.layout import load_layouts
    from cardgen.sheets.faces import lay_out
    from cardgen.sheets.pdf import Deckload

    if layouts is None:
        layouts = load_layouts(game)
    wanted = print_list(game, deck)
    # the whole set also prints the card-sized player aids, one per player
    references = list(layouts.reference) if deck is None else []
    faces, backs, aids = lay_out(layouts, [card for card, _ in wanted], with_backs, cache, jobs, deck,
                                 references)
    title = game.name if deck is None else f"{game.name}: {deck.name}"
    load = Deckload(title, [], [])
    for card, count in wanted:
        load.faces.extend([faces[card.name]] * count)
        load.backs.extend([backs[card.name]] * count)
    if references:
        _add_reference_cards(load, layouts, aids, with_backs)
    if deck is None:
        _add_components(load, layouts, with_backs)
    return load, layouts


def _add_components(load, layouts, with_backs: bool) -> None:
    """The whole set also prints the components that are not cards (a player mat), each copy
    with its back."""
    from cardgen.render.components import label, printed
    from cardgen.render.layout import LayoutError, layout_component
    from cardgen.sheets.pdf import Part

    issues = []
    for key, component in layouts.components.items():
        drawn: dict = {}            # copies of one card share their faces
        for card in printed(component, layouts.game):
            if id(card) not in drawn:
                try:
                    front = layout_component(layouts, key, "front", card)
                    has_back = with_backs and "back" in component.sides
                    back = layout_component(layouts, key, "back", card) if has_back else None
                except LayoutError as exc:
                    issues.append(exc.issue())
                    drawn[id(card)] = None
                    continue
                drawn[id(card)] = Part(label(component, card), front, back, component.name)
            if drawn[id(card)] is not None:
                load.parts.append(drawn[id(card)])
    if issues:
        raise ContentError(issues)


def _add_reference_cards(load, layouts, aids, with_backs: bool) -> None:
    from cardgen.render.layout import LayoutError, layout_back, reference_copies

    copies = reference_copies(layouts.game)
    try:
        # the aids' own back (`reference_back:`), so that face down they do not pass for deck
        # cards; at an aid's size, which is the game's card size
        which = layouts.reference_back or "default"
        back = (layout_back(layouts, which, size=(layouts.width, layouts.height))
                if with_backs and which in layouts.backs else None)
    except LayoutError as exc:
        raise ContentError([exc.issue()]) from None
    for name in layouts.reference:
        load.faces.extend([aids[name]] * copies)
        load.backs.extend([back] * copies)


def output_stem(deck: Deck | None, whole: str = "proxies") -> str:
    """What a print's files are named by: `whole` for the whole set, the deck file's name for a deck
    (which must not be `whole`: the deck's files would overwrite the set's)."""
    from cardgen.filenames import deck_stem

    if deck is None:
        return whole
    stem = deck_stem(deck.path)
    if stem.casefold() == whole.casefold():
        raise ContentError([Issue(deck.path, None, None, f"a deck file with this name would overwrite the "
                                                         f"whole set's {whole}-* files: rename it")])
    return stem
