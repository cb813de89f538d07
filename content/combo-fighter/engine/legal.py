"""Combo Fighter's legal actions: the moves of each phase, the hit and discard card sets of a
hand (cached: hands repeat a lot), the combo's next cards and signature calls, Foresee's orders."""

from __future__ import annotations

import itertools
from operator import eq

from .state import (
    ASSIST,
    CHOOSE,
    COMBO,
    DAMAGE,
    DISCARD,
    DISCARD_ANY,
    FORESEE,
    PASS,
    PICK,
    PICK_ACTS,
    REACT,
    REACT_ACTS,
    RECOVER,
    START,
    START_ACTS,
    STOP,
    TAG,
    TAG_ACTS,
    TOP,
    CFState,
)

# The bounds of the hand caches (hand -> its hit/discard actions; a shared action -> its cards):
# past them they start afresh.
HAND_CACHE_MAX, SHARED_ACTIONS_MAX = 60000, 200000


class LegalMixin:
    __slots__ = ()

    def legal_actions(self, s: CFState) -> list:
        ph = s.phase
        if ph == CHOOSE:
            hand = s.fs[s.act[s.cur]].hand
            if hand:
                return list(map(self.PLAY.__getitem__, dict.fromkeys(hand)))
            return [TOP]
        if ph == DISCARD:
            return self._hand_actions("discard", s.fs[s.act[s.cur]].hand, DISCARD_ANY)
        if ph == COMBO:
            return self._combo_actions(s)
        if ph == DAMAGE:
            f = s.fs[s.act[s.cur]]
            t = s.take[s.cur]
            acts = self._hand_actions("hit", f.hand, t)
            least = t - len(f.deck)         # the points the deck cannot pay come from the hand
            if least > 0:
                acts = [a for a in acts if len(a[1]) >= least]
            return acts
        if ph == REACT:
            return list(REACT_ACTS)
        if ph == RECOVER:
            rec = self.REC
            return [rec[c] for c in dict.fromkeys(s.fs[s.act[s.rec_seat]].discard)]
        if ph == FORESEE:
            return self._orders(s)
        if ph == ASSIST:
            rec = self.REC
            acts = [rec[c] for c in dict.fromkeys(s.fs[self._bench(s, s.cur)].discard)]
            acts.append(PASS)
            return acts
        if ph == TAG:
            return list(TAG_ACTS)
        if ph == START:
            return list(START_ACTS)
        if ph == PICK:
            return list(PICK_ACTS)
        return []

    def _hand_actions(self, verb: str, hand: list, limit: int) -> list:
        """(verb, cards) for every sub-multiset of the hand of at most `limit` cards (the empty
        one first, names in card order); cached by hand (hands repeat a lot; the cache is
        bounded). An action tuple is made once per card multiset and shared between hands."""
        n = len(hand)
        key = (verb, tuple(sorted(hand)), limit if limit < n else n)
        acts = self._hand_cache.get(key)
        if acts is None:
            cards_of = self._cards_of
            if len(self._hand_cache) >= HAND_CACHE_MAX or len(cards_of) >= SHARED_ACTIONS_MAX:
                self._hand_cache.clear()
                cards_of.clear()
                self._by_cards.clear()
            by_cards = self._by_cards.setdefault(verb, {})
            names = self.names.__getitem__
            acts = []
            for cards in self._subsets(key[1], key[2]):
                a = by_cards.get(cards)
                if a is None:
                    a = by_cards[cards] = (verb, tuple(map(names, cards)))
                    cards_of[a] = cards
                acts.append(a)
            self._hand_cache[key] = acts
        return acts[:]

    def _subsets(self, ordered: tuple, limit: int) -> list:
        """The sub-multisets of a sorted hand (card indexes) with at most `limit` cards, as sorted
        card index tuples. Each answer's pattern (positions in the sorted hand) depends only on
        which neighbours are equal and on the limit, and is cached by that."""
        same = tuple(map(eq, ordered, ordered[1:]))
        patterns = self._shapes.get((same, limit))
        if patterns is None:
            counts = [1] if ordered else []
            for dup in same:
                if dup:
                    counts[-1] += 1
                else:
                    counts.append(1)
            patterns = [()]
            first = 0                       # position of the current card's first copy
            for m in counts:
                patterns = [p + tuple(range(first, first + k)) for p in patterns
                            for k in range(min(m, limit - len(p)) + 1)]
                first += m
            self._shapes[(same, limit)] = patterns
        take = ordered.__getitem__
        return [tuple(map(take, p)) for p in patterns]

    def _combo_actions(self, s: CFState) -> list:
        w = s.cur
        f = s.fs[s.act[w]]
        pl = s.played[w]
        fits = self.follows[pl[-1]]
        play = self.PLAY
        acts = [play[c] for c in dict.fromkeys(f.hand) if fits[c]]
        pa = f.ch.sides[f.side].play_aside
        if pa >= 0 and not f.used and fits[pa] and pa in f.aside:
            acts.append(self.ASIDE[pa])
        acts.append(STOP)
        if len(pl) >= 2:
            sigs = f.ch.sig_by_cards.get(tuple(pl))
            if sigs:
                acts.extend(self.CALL[f.ch.sigs[i][0]] for i in sigs)
        return acts

    def _orders(self, s: CFState) -> list:
        f = s.fs[s.act[s.cur]]
        n = s.fore_n
        top = [self.names[c] for c in reversed(f.deck[-n:])]
        return [("order", p) for p in dict.fromkeys(itertools.permutations(top))]

