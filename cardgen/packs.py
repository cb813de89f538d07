"""Opening booster packs by the rarity slots a game declares in game.yaml `tables.pack`.

    pack:
      size: 5
      field: rarity                  # the card field the slots draw by (default: rarity)
      types: [fighter, spell]        # card types found in packs (default: every deck type)
      slots:
        - {count: 3, weights: {common: 1}}
        - {count: 1, weights: {rare: 8, ultra-rare: 3, art-rare: 1}}
      printings: {art-rare: ultra-rare}   # a rarity that is a special printing of another

Each slot picks a rarity by its weights, then a card of that rarity uniformly, with no card twice
in one pack while the rarity has others left. All chance comes from the seeded RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardgen.errors import ContentError, Issue
from cardgen.model import Game


@dataclass(frozen=True)
class PackCard:
    name: str
    rarity: str          # as pulled: may be a printing such as art-rare
    slot: int


def pack_spec(game: Game) -> dict:
    spec = game.tables.get("pack") if isinstance(game.tables, dict) else None
    if not isinstance(spec, dict) or not isinstance(spec.get("slots"), list):
        raise ContentError([Issue(game.folder / "game.yaml", None, "tables.pack",
                                  f"{game.name} declares no booster packs (tables.pack with slots)")])
    return spec


def open_packs(game: Game, count: int, seed: int) -> list[list[PackCard]]:
    spec = pack_spec(game)
    field = spec.get("field", "rarity")
    types = spec.get("types") or [t for t, ct in game.card_types.items() if ct.in_decks]
    printings = spec.get("printings") or {}
    pools: dict[str, list[str]] = {}
    for card in game.cards.values():
        if card.type in types and card.get(field) is not None:
            pools.setdefault(str(card.get(field)), []).append(card.name)
    for rarity in {r for slot in spec["slots"] for r in slot.get("weights", {})}:
        if not pools.get(printings.get(rarity, rarity)):
            raise ContentError([Issue(game.folder / "game.yaml", None, "tables.pack.slots",
                                      f"a slot can pull {rarity!r} but no card in packs has "
                                      f"{field} {printings.get(rarity, rarity)!r}")])
    rng = random.Random(seed)
    packs = []
    for _ in range(count):
        pack: list[PackCard] = []
        taken: set[str] = set()
        slot_number = 0
        for slot in spec["slots"]:
            weights = slot.get("weights", {})
            names, values = list(weights), [float(w) for w in weights.values()]
            for _ in range(int(slot.get("count", 1))):
                slot_number += 1
                rarity = rng.choices(names, values)[0]
                pool = pools[printings.get(rarity, rarity)]
                fresh = [n for n in pool if n not in taken] or pool
                name = fresh[rng.randrange(len(fresh))]
                taken.add(name)
                pack.append(PackCard(name, rarity, slot_number))
        packs.append(pack)
    return packs
