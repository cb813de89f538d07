"""Combo Fighter's matchups and match starts: the setups (standard, solo, 2v2, tournament), the
decks as plain data, the fighters built from them and the initial state of a match."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

from cardgen.engines.base import RuleConflict, Setup
from cardgen.errors import ContentError, Issue

from . import grammar as G
from .state import PICK, SIDE_A, TEAM, TOURNAMENT, TWO_VS_TWO, CFState, Fighter

CUSTOM = "custom-decks"     # the house variant that allows decks other than the sheets' own


class SetupsMixin:
    __slots__ = ()

    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        """The matchups: the given decks (or the four sheets' standard decks, by name; with the
        house variant custom-decks, the box's deck files) in every ordered pair of different decks
        (a single deck plays the mirror), or one match format. A deck that is not its sheet's
        standard deck needs custom-decks (asked for, or in the deck file's own `variants:`).

        - ``2v2`` / ``tournament``: a side (team, roster) is two decks of different characters;
          every two sides with no deck in common meet, both seatings (so each four decks are split
          into two sides in all 3 ways). Four decks at least.
        - ``solo``: every ordered pair as above, once with the AI (bot "solo", Setup.bots) in
          seat 1 and once in seat 0; the AI's seat is named "<deck> (solo AI)".
        """
        self.check_match_options(players, variants)
        chosen = [v for v in dict.fromkeys(variants) if v != CUSTOM]
        if len(chosen) > 1:
            raise ContentError([Issue(None, None, "--variant", f"{' and '.join(chosen)} cannot be "
                                      "combined: each is a match format of its own (pick one)")])
        fmt = chosen[0] if chosen else None
        custom = CUSTOM in variants
        if not decks and custom:
            from cardgen.model import load_deck

            games = {Path(self.game.folder).resolve(): self.game}
            decks = [load_deck(p, games) for p in sorted(Path(self.game.folder, "decks").glob("*.yaml"))]
        specs = [self.deck_spec(d) for d in (decks or sorted(self.chars))]
        if not custom:
            refused = [s["name"] for s in specs if s["custom"]]
            if refused:
                raise ContentError([Issue(None, None, "--decks", f"{', '.join(refused)}: not the standard "
                                          "deck of its character sheet; a deck of your own is the house "
                                          f"rule {CUSTOM} (--variant {CUSTOM}, or `variants: [{CUSTOM}]` "
                                          "in the deck file)")])
        if fmt in ("2v2", "tournament"):
            return self._side_setups(specs, fmt)
        pairs = list(itertools.permutations(specs, 2)) or [(specs[0], specs[0])]
        if fmt == "solo":
            out = []
            for a, b in pairs:
                for ai in (1, 0):
                    seats = [a["name"], b["name"]]
                    seats[ai] += " (solo AI)"
                    out.append(Setup(label=f"{seats[0]} vs {seats[1]}", seats=seats,
                                     options={"decks": [a, b], "solo": ai},
                                     seat_cards=(self._pool(a), self._pool(b)),
                                     bots={ai: "solo"}))
            return out
        return [Setup(label=f"{a['name']} vs {b['name']}", seats=[a["name"], b["name"]],
                      options={"decks": [a, b]}, seat_cards=(self._pool(a), self._pool(b)))
                for a, b in pairs]

    @staticmethod
    def _pool(*specs) -> frozenset:
        return frozenset(c for spec in specs for c in (*spec["cards"], *spec["starting_hand"]))

    def _side_setups(self, specs: list[dict], fmt: str) -> list[Setup]:
        """2 vs 2 teams or tournament rosters: two decks of different characters a side (the
        rulebook's "2 non-identical characters"; a 2v2 team likewise); sides with no deck in
        common meet, in both seatings."""
        what = "2v2 needs two teams" if fmt == "2v2" else "a tournament game needs two rosters"
        if len(specs) < 4:
            raise ContentError([Issue(None, None, "--decks", f"{what} of 2 fighters each: at least 4 decks "
                                      f"(4 different characters without --decks), got {len(specs)}")])
        sides = [(i, j) for i, j in itertools.combinations(range(len(specs)), 2)
                 if specs[i]["character"] != specs[j]["character"]]
        matches = [(p, q) for p in sides for q in sides if not set(p) & set(q)]
        if not matches:
            chars = sorted({s["character"] for s in specs})
            raise ContentError([Issue(None, None, "--decks", f"{what} of 2 different characters each, with "
                                      f"no deck on both sides: the decks name only {', '.join(chars)}")])
        key = "teams" if fmt == "2v2" else "rosters"
        out = []
        for p, q in matches:
            sides_ = [[specs[i] for i in p], [specs[i] for i in q]]
            seats = [" & ".join(d["name"] for d in side) for side in sides_]
            out.append(Setup(label=f"{seats[0]} vs {seats[1]} ({fmt})", seats=seats,
                             options={"mode": fmt, key: sides_},
                             seat_cards=(self._pool(*sides_[0]), self._pool(*sides_[1]))))
        return out

    def check_bots(self, bot_names: list[str]) -> None:
        """For the CLI: refuse a --bots entry that only a setup may seat. The solo bot plays the
        solo AI's seat, whose rules (no starting hand, the top card played, 4 drawn on a win) the
        setup itself must set: `--variant solo` seats it (Setup.bots)."""
        if "solo" in bot_names:
            raise ContentError([Issue(None, None, "--bots", "the solo bot plays the solo AI's rules, which "
                                      "a standard seat does not follow: use --variant solo (the AI's seat "
                                      "gets the solo bot; --bots picks the other seat's)")])

    def deck_spec(self, deck) -> dict:
        """A plain-data deck: {name, character, cards: {card: copies}, starting_hand, custom}.
        `custom`: not its sheet's standard deck and starting hand, and not declaring the house
        variant custom-decks itself (a dict's or deck file's `variants`): only that variant plays it."""
        if isinstance(deck, dict):
            if deck.get("character") not in self.chars:
                raise ContentError([Issue(None, None, "character", f"deck {deck.get('name')!r}: "
                                          f"{self._no_character(deck.get('character'))}")])
            ch = self.chars[deck["character"]]
            cards = dict(deck.get("cards") or ch.deck)
            spec = {"name": str(deck.get("name", ch.name)), "character": ch.name, "cards": cards,
                    "starting_hand": list(deck.get("starting_hand") or ch.hand)}
            return self._custom(spec, deck.get("variants") or ())
        if isinstance(deck, str) and deck in self.chars:
            ch = self.chars[deck]
            return {"name": ch.name, "character": ch.name, "cards": dict(ch.deck),
                    "starting_hand": list(ch.hand), "custom": False}
        if isinstance(deck, (str, Path)):
            from cardgen.model import load_deck

            deck = load_deck(Path(deck))
        character = str(deck.fields.get("character"))
        if character not in self.chars:
            raise ContentError([Issue(deck.path, deck.line_of("character"), "character",
                                      self._no_character(deck.fields.get("character")))])
        cards: dict[str, int] = {}
        for entry, count in deck.counted_entries():
            if entry.card.type in G.TYPES:
                cards[entry.name] = cards.get(entry.name, 0) + count
        hand = deck.fields.get("starting_hand") or self.chars[character].hand
        spec = {"name": deck.name, "character": character, "cards": cards,
                "starting_hand": [str(x) for x in hand]}
        return self._custom(spec, getattr(deck, "variants", ()) or ())

    def _custom(self, spec: dict, variants) -> dict:
        ch = self.chars[spec["character"]]
        standard = (Counter({n: int(k) for n, k in spec["cards"].items() if int(k)}) == Counter(ch.deck)
                    and Counter(spec["starting_hand"]) == Counter(ch.hand))
        spec["custom"] = not standard and CUSTOM not in variants
        return spec

    def _no_character(self, name) -> str:
        return f"{name!r} is no character of the game ({', '.join(sorted(self.chars))})"

    def _fighter(self, spec, solo: bool = False) -> Fighter:
        """A fighter for a deck; the static part is built once per deck and shared."""
        key = None
        if isinstance(spec, dict):
            key = (spec.get("name"), spec.get("character"), tuple((spec.get("cards") or {}).items()),
                   tuple(spec.get("starting_hand") or ()), solo)
        elif isinstance(spec, str):
            key = (spec, solo)
        proto = self._protos.get(key) if key is not None else None
        if proto is None:
            proto = self._build_fighter(spec, solo)
            if key is not None:
                self._protos[key] = proto
        return proto.copy()

    def _build_fighter(self, spec, solo: bool) -> Fighter:
        spec = self.deck_spec(spec)
        f = Fighter()
        f.ch = self.chars[spec["character"]]
        try:
            f.cards = tuple(self.kind[n] for n, k in spec["cards"].items() for _ in range(int(k)))
            f.start_hand = tuple(self.kind[n] for n in spec["starting_hand"])
        except KeyError as err:
            raise RuleConflict(f"{spec['name']}: no action card named {err.args[0]!r}") from None
        f.start_aside = f.ch.starts_aside + (f.ch.solo_aside if solo else ())
        if Counter(f.start_aside) + Counter(() if solo else f.start_hand) - Counter(f.cards):
            raise RuleConflict(f"{spec['name']}: the deck cannot supply its set-aside cards and "
                               "starting hand")
        f.total, f.checksum = len(f.cards), sum(f.cards)
        f.solo, f.label, f.avg = solo, spec["name"], self._avg(f.cards)
        f.comp = tuple(Counter(f.cards).items())
        f.hand, f.deck, f.discard, f.aside = [], list(f.cards), [], []
        f.side, f.stag, f.used, f.ko = SIDE_A, False, False, False
        return f

    def initial_state(self, setup: Setup, rng: random.Random) -> CFState:
        opts = setup.options or {}
        s = CFState()
        s.rng = rng
        mode = str(opts.get("mode", "standard")).lower()
        if mode in ("2v2", "two_vs_two", "2 vs 2"):
            s.mode = TWO_VS_TWO
            teams = opts.get("teams")
            if not teams or len(teams) != 2 or any(len(t) != 2 for t in teams):
                raise ValueError("2v2 needs teams: [[deck, deck], [deck, deck]]")
            s.fs = [self._fighter(d) for team in teams for d in team]
            s.act = [TEAM[0][0], TEAM[1][0]]     # each team's first fighter until they pick
            self._new_fight(s)
        elif mode == "tournament":
            s.mode = TOURNAMENT
            rosters = opts.get("rosters")
            if not rosters or len(rosters) != 2 or any(len(r) != 2 for r in rosters):
                raise ValueError("a tournament game needs rosters: [[deck, deck], [deck, deck]]")
            s.pool = [[self._fighter(d) for d in r] for r in rosters]
            for r in s.pool:
                if r[0].ch is r[1].ch:
                    raise RuleConflict("tournament rosters hold 2 different fighters each")
            s.tp1 = rng.randrange(2)
            s.phase, s.cur = PICK, s.tp1
        else:
            decks = opts.get("decks") or setup.seats
            solo = opts.get("solo")
            solo_seats = {solo} if isinstance(solo, int) and not isinstance(solo, bool) else set(
                solo or ())
            if len(decks) < 2 or solo_seats - {0, 1} or len(solo_seats) > 1:
                raise ValueError("two decks, and at most one solo AI seat (0 or 1)")
            s.fs = [self._fighter(d, seat in solo_seats) for seat, d in enumerate(decks[:2])]
            self._new_fight(s)
        return s

