"""Small functions on a match's state, for every part of the engine: references to fighters
(player, slot, uid), cards to and from a hand, emptying a slot, a fighter's buffs, trigger filters."""

from __future__ import annotations

from .state import SLOTS
from .tables import _BIT

_R5 = range(SLOTS)


def _ref(s, t):
    if t is None or t < 0:
        return None
    p, i = divmod(t, 5)          # (5 = SLOTS)
    f = s.p[p].slots[i]
    return None if f is None else (p, i, f.uid)


def _refs(s, n, t1, t2):
    """tuple(_ref(s, t) for t in (t1, t2)[:n])"""
    if n <= 0:
        return ()
    if n == 1:
        return (_ref(s, t1),)
    return (_ref(s, t1), _ref(s, t2))


def _get(s, r):
    if r is None:
        return None
    f = s.p[r[0]].slots[r[1]]
    return f if f is not None and f.uid == r[2] else None


def _one(s, r):
    f = _get(s, r)
    return [] if f is None else [(r[0], r[1], f)]


def _alive(slots):
    """The slots whose fighter has Health left."""
    return [i for i in _R5 if slots[i] is not None and slots[i].hp > 0]


def _fits(elem, nontoken, subject):
    if elem is None and not nontoken:
        return True
    if subject is None:
        return False
    if elem is not None and subject[0] != elem:
        return False
    return not (nontoken and subject[1])


def _buff(pl, f, atk, hp, kw, temp):
    """Player pl's fighter f gains Attack, Health and keywords, for this turn if temp."""
    if kw:
        pl.bm = pl.rm = -1          # (its Block and Swift may have changed)
    if temp:
        f.tmp += atk
        f.tkw |= kw
    else:
        f.atk += atk
        f.kw |= kw
    if hp:
        f.hp += hp
        if pl.vr & 1:               # = V_RAISED_CAP: healing may go up to the new Health
            f.maxhp += hp
        else:                       # healing still stops at the printed Health
            f.gain += hp


def _from_hand(pl, c):
    """One copy of card c leaves pl's hand (its plan changes when the last one goes)."""
    hand = pl.hand
    hand[c] -= 1
    pl.nh -= 1
    if not hand[c] and pl.hb[c]:
        pl.hm ^= pl.hb[c]
        pl.hk = None


def _to_hand(pl, c):
    hand = pl.hand
    hand[c] += 1
    pl.nh += 1
    if hand[c] == 1 and pl.hb[c]:
        pl.hm |= pl.hb[c]
        pl.hk = None


def _clear(pl, i):
    """Slot i of pl is emptied. Without keyword grants on the side (pl.gk) whether the others
    have Block or may attack does not change: known masks only lose the slot's bit. What pl
    listens to (pl.lm) changes only if the fighter listened to something."""
    f = pl.slots[i]
    pl.slots[i] = None
    bit = _BIT[i]
    pl.om &= ~bit
    pl.xm &= ~bit
    pl.sd = -1
    if f.evs and not f.bound:
        pl.lm = -1
    if pl.gk:
        pl.bm = pl.rm = -1
        return
    if pl.bm > 0:
        pl.bm &= ~bit
    if pl.rm > 0:
        pl.rm &= ~bit


def _changed(pl):
    """pl's Stage, Powers or a fighter's Bind changed what listens, grants, may attack and
    makes spells cheaper."""
    pl.lm = pl.bm = pl.rm = pl.sd = -1
