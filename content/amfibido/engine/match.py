"""Amfibido setups and the match's life cycle: setups (one per box deck), boxes, the initial
state, current/first player, is_over, winner and clone (a mixin)."""

from __future__ import annotations

import random
from pathlib import Path

from cardgen.engines.base import Setup, redeal

from .grammar import SENSEI
from .state import LEVELS, NO_CARD, PICK1, SENSEI_PH, AState, Box, _shuffle


class MatchMixin:
    """Setups, the initial state and the state queries of AmfibidoEngine."""

    __slots__ = ()

    # -- setups ---------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        if not decks:
            decks = sorted((Path(self.game.folder) / "decks").glob("*.yaml"))
        out = []
        # Decks of this game reuse the loaded game instead of reading its folder again.
        games = {Path(self.game.folder).resolve(): self.game}
        for deck in decks:
            if isinstance(deck, (str, Path)):
                from cardgen.model import load_deck

                deck = load_deck(Path(deck), games)
            counts: dict[str, int] = {}
            for entry, count in deck.counted_entries():
                counts[entry.card.name] = counts.get(entry.card.name, 0) + count
            asked = (*deck.variants, *variants)
            sensei = "first-game" not in asked and any(
                self.by_name[n].type == SENSEI for n in counts if n in self.by_name)
            label = deck.name + (" (with sensei)" if sensei else " (no sensei)")
            out.append(Setup(label=label, seats=["Player 1", "Player 2"],
                             options={"box": counts, "sensei": sensei, **self._rules(asked)},
                             cards=frozenset(counts)))
        if not out:
            counts = {c.name: c.copies for c in self.game.cards.values()}
            sensei = "first-game" not in variants
            out.append(Setup(label="Full box" + (" (with sensei)" if sensei else " (no sensei)"),
                             seats=["Player 1", "Player 2"],
                             options={"box": counts, "sensei": sensei, **self._rules(variants)},
                             cards=frozenset(counts)))
        return out

    def _rules(self, variants) -> dict:
        """The Setup options of the house variants asked for (none: the published rules)."""
        return {"round_limit": self.round_limit if "round-limit" in variants else 0,
                "failed_transform_stays": "failed-transform-stays" in variants}

    def _box(self, counts: dict[str, int], label: str) -> Box:
        # The same counts mapping comes back every match: remember it by identity (and check
        # it is unchanged) before building the sorted key.
        hit = self._box_last.get(id(counts))
        if hit is not None and hit[0] is counts and hit[1] == counts:
            return hit[2]
        key = tuple(sorted(counts.items()))
        box = self._boxes.get(key)
        if box is None:
            unknown = [n for n in counts if n not in self.by_name]
            if unknown:
                raise ValueError(f"unknown cards: {', '.join(unknown)}")
            box = self._boxes[key] = Box(self.infos, counts, label)
        self._box_last[id(counts)] = (counts, dict(counts), box)
        return box

    # -- the match ------------------------------------------------------------------------------
    def initial_state(self, setup: Setup, rng: random.Random):
        opts = setup.options or {}
        counts = opts.get("box") or {c.name: c.copies for c in self.game.cards.values()}
        box = self._box(counts, setup.label)
        st = AState()
        st.rng = rng
        st.box = box
        st.seq = [0] * box.n
        st.limit = int(opts.get("round_limit") or 0)
        st.stays = bool(opts.get("failed_transform_stays"))
        for lv in LEVELS:
            deck = list(box.levels[lv])
            _shuffle(rng, deck)
            st.decks[lv] = deck
        use_sensei = opts.get("sensei", True) and len(box.sensei) >= 6
        st.sdeck = list(box.sensei)
        _shuffle(rng, st.sdeck)
        deal, level1 = self.deal, st.decks[1]
        for p in (0, 1):
            if len(level1) >= deal:     # the usual box: plain pops, no refill to look at
                st.hand[p] = [level1.pop() for _ in range(deal)]
                continue
            for _ in range(deal):
                c = self._draw_level(st, 1)
                if c >= 0:
                    st.hand[p].append(c)
        st.first = st.start = rng.randrange(2)
        if use_sensei:
            for p in (0, 1):
                st.draft[p] = [st.sdeck.pop() for _ in range(3)]
            st.phase = SENSEI_PH
            st.turn = 0
        else:
            self._start_round(st)
        return st

    def current_player(self, state) -> int:
        if state.over:
            return -1                       # = NOBODY
        pend = state.pend
        return pend[0][1] if pend else state.turn

    def first_player(self, state) -> int:
        return state.first

    def is_over(self, state) -> bool:
        return state.over

    def winner(self, state) -> int | None:
        return state.result if state.result >= 0 else None

    def determinize(self, st, player, rng):
        """The match as `player` may believe it: the opponent's hand, the cards they were dealt
        and have not passed yet (and, while the sensei are chosen, the one they kept) dealt again
        with the level decks and the sensei deck, each card among cards of its own level (the
        decks keep their sizes); every deck in a new order."""
        w = super().determinize(st, player, rng)
        o = 1 - player
        hidden = [*w.decks[1:], w.sdeck, w.hand[o]]
        if w.phase in (SENSEI_PH, PICK1):
            hidden.append(w.draft[o])
        kept = [w.sensei[o]] if w.phase == SENSEI_PH and w.sensei[o] != NO_CARD else []
        redeal(rng, [*hidden, kept], w.box.deal.__getitem__)
        if kept:
            w.sensei[o] = kept[0]
        w.legal = None
        return w

    def clone(self, st):
        n = AState.__new__(AState)
        r = random.Random.__new__(random.Random)     # (no seeding from the OS: setstate sets it)
        r.setstate(st.rng.getstate())
        n.rng = r
        n.box = st.box
        n.phase, n.round, n.first, n.start, n.turn = st.phase, st.round, st.first, st.start, st.turn
        n.over = st.over
        n.dstep = st.dstep
        n.passed = st.passed[:]
        n.score = st.score[:]
        n.decks = [d[:] for d in st.decks]
        n.sdeck = st.sdeck[:]
        n.discard = st.discard[:]
        n.resolving = st.resolving[:]
        n.hand = [st.hand[0][:], st.hand[1][:]]
        n.ko = [st.ko[0][:], st.ko[1][:]]
        n.ko_new = [st.ko_new[0][:], st.ko_new[1][:]]
        n.aside = [st.aside[0][:], st.aside[1][:]]
        n.fighter = [st.fighter[0][:], st.fighter[1][:]]
        e0, e1 = st.equip
        n.equip = [[e0[0][:], e0[1][:], e0[2][:]], [e1[0][:], e1[1][:], e1[2][:]]]
        c0, c1 = st.combos
        n.combos = [[c0[0][:], c0[1][:], c0[2][:]], [c1[0][:], c1[1][:], c1[2][:]]]
        n.sensei = st.sensei[:]
        n.draft = [st.draft[0][:], st.draft[1][:]]
        n.tmp_neut = st.tmp_neut[:]
        n.tmp_ko = st.tmp_ko[:]
        n.tmp_plus = st.tmp_plus[:]
        n.used = st.used[:]
        n.seq = st.seq[:]
        n.nseq = st.nseq
        n.pend = st.pend[:]
        n.result = st.result
        n.last = st.last
        n.res = [st.res[0][:], st.res[1][:]]
        n.kod = [st.kod[0][:], st.kod[1][:]]
        n.fneut = st.fneut
        n.rwin = st.rwin
        n.eor_stage = st.eor_stage
        n.legal = st.legal
        n.limit = st.limit
        n.stays = st.stays
        return n
