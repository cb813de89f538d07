"""Matchups and the start of a match: the decks' setups, each player's side made from a template
kept by deck, what can ever listen in the match (_finish_lsup), and the initial state."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from cardgen.engines.base import Setup

from .state import VARIANT_BITS, Player, State
from .tables import _BIT_YOU_PLAY, _BITS_OPP_PLAY


class SetupsMixin:
    """Setups and initial states (AmiibartEngine)."""

    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        """Every ordered pair of decks; a match plays the variants asked for and those its two
        decks name (a deck's `variants:`); with none, the published rules."""
        from cardgen.model import load_deck
        if not decks:
            decks = sorted((self.game.folder / "decks").glob("*.yaml"))
        specs = []
        # Decks of this game reuse the loaded game instead of reading its folder again.
        games = {Path(self.game.folder).resolve(): self.game}
        for d in decks:
            if isinstance(d, dict):
                specs.append(d)
                continue
            deck = d if hasattr(d, "entries") else load_deck(d, games)
            cards = {}
            for e in deck.entries:
                if e.card is not None and isinstance(e.count, int) and e.count > 0:
                    cards[e.name] = cards.get(e.name, 0) + e.count
            specs.append({"name": deck.name, "powers": list(deck.fields.get("powers") or []),
                          "cards": cards, "variants": list(getattr(deck, "variants", None) or ())})
        # Every pair of different decks in both seatings (so a bot per seat meets every deck from
        # both sides); a single deck plays the mirror match.
        out = [Setup(f"{a['name']} vs {b['name']}", [a["name"], b["name"]],
                     {"decks": [a, b], "variants": self._variant_bits(variants, a, b)},
                     seat_cards=(self._playable(a), self._playable(b)))
               for a, b in itertools.permutations(specs, 2)]
        if len(specs) == 1:
            out.append(Setup(f"{specs[0]['name']} mirror", [specs[0]["name"]] * 2,
                             {"decks": [specs[0], specs[0]],
                              "variants": self._variant_bits(variants, specs[0])},
                             seat_cards=(self._playable(specs[0]),) * 2))
        return out

    def _variant_bits(self, variants, *specs) -> int:
        """The V_... bits of the variants asked for and of those the decks name."""
        self.check_match_options(variants=tuple(variants) + tuple(
            v for spec in specs for v in spec.get("variants") or ()))
        bits = 0
        for name in variants:
            bits |= VARIANT_BITS[name]
        for spec in specs:
            for name in spec.get("variants") or ():
                bits |= VARIANT_BITS[name]
        return bits

    def _playable(self, *specs) -> frozenset:
        """The cards of these decks and their Active Powers (a Setup's cards): a Passive Power is
        in play from the start and never played."""
        ids, ci = self.ids, self.ci
        return frozenset([*(n for spec in specs for n in spec["cards"]),
                          *(n for spec in specs for n in spec["powers"] if n in ids and ci[ids[n]].active)])

    def _template(self, hand_counts: dict, powers):
        """(the fields a new Player with these cards and Powers starts with, and the summaries
        of _finish_lsup at the start of a match by the opposing template's id), made once."""
        key = (tuple(hand_counts.items()), tuple(powers))
        entry = self._pcache.get(key)
        if entry is None:
            entry = self._pcache[key] = (self._make_player(hand_counts, powers), {})
        return entry

    def _new_player(self, hand_counts: dict, powers) -> Player:
        return self._player_from(self._template(hand_counts, powers)[0])

    def _player_from(self, t) -> Player:
        pl = Player.__new__(Player)
        (hand, pl.deck, pl.hb, pl.hm, pl.plans, pl.total, pl.powers, pl.nh, pl.pg, pl.dd, pl.pev,
         pl.apw, pl.lsup, pl.nm, pl.pdr) = t
        pl.hand = hand[:]
        pl.om = pl.xm = 0
        pl.lm = pl.bm = pl.rm = pl.sd = -1
        pl.au = pl.gk = pl.cv = pl.heard = False      # set for the match by _finish_lsup
        pl.hk = None
        pl.discard, pl.void = [], []
        pl.slots = [None] * self.nslots
        pl.hazards = []
        pl.stage = -1
        pl.on = False
        pl.pa = ()
        pl.tokens = pl.energy = pl.played = pl.stall = pl.turns = pl.disc = pl.used = pl.vr = 0
        pl.acted = pl.empty = False
        return pl

    def _make_player(self, hand_counts: dict, powers):
        pl = Player.__new__(Player)
        pl.hand = [0] * len(self.names)
        for name, n in hand_counts.items():
            pl.hand[self.ids[name]] += n
        pl.deck = tuple(sorted(self.ids[n] for n in hand_counts))
        self._hand_bits(pl)
        pl.total = sum(hand_counts.values())
        pl.discard, pl.void = [], []
        pl.slots = [None] * self.nslots
        pl.hazards = []
        pl.stage = -1
        pl.powers = tuple(self.ids[n] for n in powers)
        pl.nh = sum(pl.hand)
        pl.pg = any(c in self.grant_cards for c in pl.powers)
        pl.dd = any(c in self.disc_cards for c in pl.deck + pl.powers)
        pl.pev = 0
        pl.apw = self._power_entries(pl.powers)
        for c in pl.powers:
            pl.pev |= self.ci[c].evs
        return (pl.hand, pl.deck, pl.hb, pl.hm, pl.plans, pl.total, pl.powers, pl.nh, pl.pg, pl.dd,
                pl.pev, pl.apw, self._listen_sup(pl.deck, pl.powers), self._closure(pl.deck + pl.powers),
                tuple(c for c in pl.powers if self.ci[c].dr_elem or self.ci[c].dr_block))

    def _hand_bits(self, pl):
        """pl.hb, pl.hm and pl.plans for pl.deck and pl.hand (a fresh plan cache)."""
        hb = [0] * len(self.ci)
        for j, c in enumerate(pl.deck):
            hb[c] = 1 << j
        pl.hb = hb
        pl.hm = sum(hb[c] for c in pl.deck if pl.hand[c])
        pl.plans = {"fighter bits": sum(hb[c] for c in pl.deck if self._lk[c] == 0)}
        pl.hk = None

    def _listen_sup(self, deck, powers):
        """The events these cards listen to (_finish_lsup adds the cards they name)."""
        m = 0
        for c in deck:
            m |= self.EVS[c]
        for c in powers:
            m |= self.EVS[c]
        return m

    def _closure(self, cards):
        """Every card the texts of these cards name, and those cards' texts name, and so on."""
        seen = set()
        todo = list(cards)
        while todo:
            for r in self.ci[todo.pop()].refs:
                if r not in seen:
                    seen.add(r)
                    todo.append(r)
        return frozenset(seen)

    def _finish_lsup(self, s):
        """pl.lsup: a superset of every _listen(pl) of the match (either side's cards may put
        a card they name into pl's slots)."""
        extra = 0
        EVS = self.EVS
        named = s.p[0].nm | s.p[1].nm
        for c in named:
            extra |= EVS[c]
        for pl in s.p:
            pl.lsup |= extra
            cards = named.union(pl.deck, pl.powers, [f.card for f in pl.slots if f is not None])
            pl.au = not self.aura_cards.isdisjoint(cards)
            pl.gk = not self.grant_cards.isdisjoint(cards)
            pl.cv = any(self.ci[c].cover for c in cards)
        p0, p1 = s.p
        p0.heard = bool(p0.lsup & _BIT_YOU_PLAY or p1.lsup & _BITS_OPP_PLAY)
        p1.heard = bool(p1.lsup & _BIT_YOU_PLAY or p0.lsup & _BITS_OPP_PLAY)

    def _blank(self, rng) -> State:
        s = State.__new__(State)
        s.rng = rng
        s.queue, s.pending, s.over, s.win, s.uid, s.atk = [], None, False, None, 0, None
        s.ending, s.legal, s.dirty, s.kill_side, s.heal_amt, s.flag = False, None, False, -1, 0, 0
        s.acc = 0
        s.reason = None
        s.dead = 0
        s.turn = 1
        s.turn_one = False
        return s

    def initial_state(self, setup: Setup, rng: random.Random):
        s = self._blank(rng)
        d0, d1 = setup.options["decks"]
        e0 = self._template(d0["cards"], d0["powers"])
        e1 = self._template(d1["cards"], d1["powers"])
        s.p = [self._player_from(e0[0]), self._player_from(e1[0])]
        p0, p1 = s.p
        p0.vr = p1.vr = setup.options.get("variants", 0)
        # _finish_lsup depends only on the two decks here (no fighter in play yet): once per pair
        # (the templates live as long as the engine, so their ids stay theirs)
        summary = e0[1].get(id(e1))
        if summary is None:
            self._finish_lsup(s)
            summary = e0[1][id(e1)] = ((p0.lsup, p0.au, p0.gk, p0.cv, p0.heard),
                                       (p1.lsup, p1.au, p1.gk, p1.cv, p1.heard))
        else:
            (p0.lsup, p0.au, p0.gk, p0.cv, p0.heard), (p1.lsup, p1.au, p1.gk, p1.cv, p1.heard) = summary
        s.first = s.cur = rng.getrandbits(1)       # the coin flip
        self._start_first_turn(s, s.cur)
        self._run(s)
        return s
