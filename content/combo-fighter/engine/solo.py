"""The solo-mode AI of Combo Fighter, as a bot (`engine.bots()["solo"]`).

In a solo setup (Setup.options ``solo: seat``) the engine already plays the AI's top card face
down, draws its 4 cards on a win and discards its leftovers (each dealing 1 damage to the
player); this bot makes the AI's remaining choices the way the rulebook's AI does:

- combo: the combo that deals the most damage from the cards it holds (a signature combo counts
  with its own damage and is called; on equal damage, fewer cards), with its sheet's solo rule
  (prefer a combo holding a given card; end with a set-aside card whenever the box allows it);
- result window: pays its token's cost only as its solo rule says (a lost or tied attack clash
  that the extra Speed would win);
- damage from the top of the deck, no optional discards, no tag-outs; Recover takes the most
  valuable cards; Foresee keeps the order.

It plays only a solo setup's AI seat: seated anywhere else (a standard, 2v2 or tournament seat,
or the human's seat of a solo setup) the rules would not be the solo AI's (a starting hand, cards
chosen from it), so it raises RuleConflict; `cardgen simulate --variant solo` seats it
(Setup.bots) and the engine's check_bots refuses ``--bots solo``.
"""

from __future__ import annotations

import random

from cardgen.engines.base import RuleConflict

from .state import (
    ASSIST,
    ATT,
    CHOOSE,
    COMBO,
    DAMAGE,
    DISCARD,
    FLIP,
    HIT_DECK,
    KEEP,
    NO_CARD,
    NO_SIG,
    PASS,
    REACT,
    RECOVER,
    SIDE_B,
    STAY,
    STOP,
    TAG,
    TOP,
)


class SoloBot:
    name = "solo"

    def __init__(self, engine, rng: random.Random, player: int):
        self.engine, self.rng, self.player = engine, rng, player

    def choose(self, state, actions):
        e, s = self.engine, state
        f = s.fs[s.act[s.cur]] if s.fs else None
        if f is None or not f.solo:
            raise RuleConflict("the solo bot plays only a solo AI's seat (no starting hand, the top "
                               "card played): use --variant solo")
        if len(actions) == 1:
            return actions[0]
        ph = s.phase
        if ph == CHOOSE:
            if TOP in actions:
                return TOP
            return e.PLAY[f.hand[self.rng.randrange(len(f.hand))]]
        if ph == COMBO:
            return plan(e, s, s.cur)[0]
        if ph == REACT:
            return FLIP if FLIP in actions and speed_flip_wins(e, s, s.cur) else PASS
        if ph == DAMAGE:
            return HIT_DECK
        if ph == DISCARD:
            return KEEP
        if ph in (RECOVER, ASSIST):
            cards = [a for a in actions if a[0] == "recover"]
            return max(cards, key=lambda a: e.value[e.kind[a[1]]]) if cards else actions[0]
        if ph == TAG:
            return STAY
        return actions[0]


def speed_flip_wins(e, s, seat: int) -> bool:
    """The solo rule: both cards are attacks, the AI's loses or ties, and the rule's extra Speed
    would win the round."""
    f = s.fs[s.act[seat]]
    n = f.ch.solo.speed_flip
    if not n:
        return False
    c, k = s.choice[seat], s.choice[1 - seat]
    if e.ctype[c] != ATT or e.ctype[k] != ATT or s.result == seat:
        return False
    o = s.fs[s.act[1 - seat]]
    mine, theirs = f.ch.sides[f.side], o.ch.sides[o.side]
    if seat == 0:
        return e._clash(c, k, mine, theirs, n, 0) == 0
    return e._clash(k, c, theirs, mine, 0, n) == 1


def plan(e, s, seat: int) -> list:
    """The AI's combo from here, as the actions still to take (ending with stop or call)."""
    f = s.fs[s.act[seat]]
    ch = f.ch
    side = f.ch.sides[f.side]
    played = list(s.played[seat])
    pa = side.play_aside
    aside_ok = pa >= 0 and not f.used and pa in f.aside
    prefer = e.kind.get(ch.solo.prefer_card, NO_CARD) if ch.solo.prefer_card else NO_CARD
    cbox, button, cd_c, cd_x = e.cbox, e.button, e.cd_c, e.cd_x
    best: list = [None, None]          # [key, (seq, sig)]

    def consider(key, seq, sig):
        if best[0] is None or key > best[0]:
            best[0], best[1] = key, (list(seq), sig)

    def holds(seq) -> int:
        if prefer < 0:
            return 0
        return int(prefer in played or any(c == prefer for c, _ in seq))

    def walk(seq, hand, used, dmg):
        full = played + [c for c, _ in seq]
        consider((holds(seq), dmg, -len(seq)), seq, NO_SIG)
        if len(full) >= 2:
            for i in ch.sig_by_cards.get(tuple(full), ()):
                _n, _c, basic, power = ch.sigs[i]
                consider((holds(seq), power if f.side == SIDE_B and power else basic, -len(seq)), seq, i)
        mask = cbox[full[-1]]
        if not mask:
            return
        pos = len(full)
        for c in dict.fromkeys(hand):
            if mask >> button[c] & 1:
                rest = list(hand)
                rest.remove(c)
                x = cd_x[c]
                walk(seq + [(c, False)], rest, used,
                     dmg + cd_c[c] + (x * e._x(f, pos) if x else 0))
        if aside_ok and not used and mask >> button[pa] & 1:
            x = cd_x[pa]
            walk(seq + [(pa, True)], hand, True, dmg + cd_c[pa] + (x * e._x(f, pos) if x else 0))

    walk([], list(f.hand), False, s.dmg[seat])
    seq, sig = best[1]
    add = e.kind.get(ch.solo.append_card, NO_CARD) if ch.solo.append_card else NO_CARD
    if (add >= 0 and add == pa and aside_ok and f.side == ch.solo.append_side
            and all(c != add for c, _ in seq)):
        last = seq[-1][0] if seq else played[-1]
        if cbox[last] >> button[add] & 1:
            seq = seq + [(add, True)]
            full = played + [c for c, _ in seq]
            sigs = ch.sig_by_cards.get(tuple(full), ())
            sig = sigs[0] if sigs else NO_SIG
    out = [(e.ASIDE if aside else e.PLAY)[c] for c, aside in seq]
    out.append(e.CALL[ch.sigs[sig][0]] if sig >= 0 else STOP)
    return out
