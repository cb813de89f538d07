"""Moves in words, for `cardgen replay`: describe (the move) and describe_outcome (what it led to,
read from a traced re-run of the move), and card_of (the card a move plays, for the card stats)."""

from __future__ import annotations

import copy
import random

from .grammar import INSTAKILL, KW_BITS, LIFESTEAL
from .state import (
    A_ATTACK,
    A_CAST,
    A_CHOOSE,
    A_END,
    A_PLAY,
    A_POWER,
    A_STAGE,
    J_FX,
    J_PICKH,
    O_DISC,
    O_DONE,
    O_FORGE,
    O_HAZ,
    SIDE,
    SLOTS,
)

# by action kind: whether a[1] is the card played
_PLAYS_CARD = tuple(k in (A_PLAY, A_CAST, A_STAGE) for k in range(A_CHOOSE + 1))


class ReplayMixin:
    """Moves in words (AmiibartEngine)."""

    def card_of(self, s, a):
        k = a[0]
        if _PLAYS_CARD[k]:
            return self.names[a[1]]
        if k == 3:              # = A_POWER (card_of runs after every move of a simulation)
            return self.names[s.p[s.cur].powers[a[1]]]
        return None

    def describe(self, s, a):
        k = a[0]
        me = SIDE[self.current_player(s)] if not s.over else "?"
        if k == A_END:
            return f"{me} ends the turn"
        if k == A_PLAY:
            return f"{me} plays {self.names[a[1]]} into slot {a[2] + 1}"
        if k == A_CAST:
            return f"{me} casts {self.names[a[1]]}" + _on(a[2], a[3])
        if k == A_POWER:
            return f"{me} uses {self.names[s.p[s.cur].powers[a[1]]]}" + _on(a[2], a[3])
        if k == A_ATTACK:
            f = s.p[s.cur].slots[a[1]]
            what = "a basic attack" if a[2] == 0 else self.ci[f.card].attacks[a[2] - 1].name
            tgt = f" on {SIDE[1 - s.cur]}{a[3] + 1}" if a[3] >= 0 else ""
            return f"{me}{a[1] + 1} {self.names[f.card]} uses {what}{tgt}"
        if k == A_STAGE:
            return f"{me} plays the Stage {self.names[a[1]]}"
        if k == A_CHOOSE:
            job = s.pending[2] if s.pending is not None else None
            text = job[2].text if job is not None and job[0] == J_FX else ""
            return f"{me} chooses {self._option_name(a[1])}" + (f" for: {text}" if text else "")
        return repr(a)

    def _option_name(self, o):
        if o < 2 * SLOTS:
            return f"{SIDE[o // SLOTS]}{o % SLOTS + 1}"
        if o == O_DONE:
            return "done"
        if o >= O_FORGE:
            return f"forge {o - O_FORGE + 1}"
        if o >= O_DISC:
            return self.names[o - O_DISC]
        return self.names[o - O_HAZ]

    def describe_outcome(self, before, after, a):
        # the narration (a traced re-run of the move) is below, in this module
        return describe_outcome(self, before, after, a)


def _on(t1, t2):
    parts = [f"{SIDE[t // SLOTS]}{t % SLOTS + 1}" for t in (t1, t2) if t >= 0]
    return f" on {' and '.join(parts)}" if parts else ""


def describe_outcome(engine, before, after, a):
    # the state says what is left; the trace (a re-run of the move) what happened on the way
    tr = _trace(engine, before, a)
    me = before.cur
    out = []
    if before.turn_one and before.turn == 1 and not before.p[me].played and not before.p[1 - me].turns:
        out.append(f"{SIDE[me]} won the coin flip and plays first")
        out += [f"{SIDE[p]}'s Powers: {' and '.join(engine.names[c] for c in before.p[p].powers)}"
                for p in (me, 1 - me) if before.p[p].powers]
    out += [f"coin flip: {'heads' if v else 'tails'}" for v in tr.flips]
    for p in (0, 1):
        gone = [h for h in before.p[p].hazards if h not in after.p[p].hazards]    # (one copy each)
        out += [f"{SIDE[p]}'s Hazard {engine.names[h]} "
                + ("is destroyed" if h in tr.destroyed[p] else "goes off") for h in gone]
    if tr.cancelled:
        out.append("the attack deals no damage and its text has no effect" if a[0] == A_ATTACK
                   else f"{engine.card_of(before, a)} is cancelled: it has no effect")
    out += _fighter_outcomes(engine, before, after, a, tr)
    for p in (0, 1):
        if tr.gained[p]:
            out.append(f"{SIDE[p]} has {tr.gained[p]} extra Energy: {after.p[p].energy} left")
        n, was = after.p[p].tokens, before.p[p].tokens
        if n != was:
            what = "a Death Token" if abs(n - was) == 1 else f"{abs(n - was)} Death Tokens"
            verb = "takes" if n > was else "removes"
            out.append(f"{SIDE[p]} {verb} {what}: {n} of {engine.lose_tokens}")
    if a[0] == A_END:
        out += _turn_outcomes(engine, before, after)
    if after.over and not before.over:
        why = _LOSS.get(after.reason, after.reason)
        out.append(f"{SIDE[1 - after.win]} loses: " + why.format(engine.lose_tokens, engine.stall_turns))
    return "\n".join(out)


def _fighter_outcomes(engine, before, after, a, tr):
    """Lines for the fighters the move hurt, healed, changed, removed or brought in (the
    ones the trace met, in that order, then the others by position)."""
    names = engine.names
    out = []        # (order met in the trace, position, line)
    known = set()
    for p in (0, 1):
        for i, f in enumerate(before.p[p].slots):
            if f is None:
                continue
            known.add(f.uid)
            if f.uid in tr.died:
                continue
            g = after.p[p].slots[i]
            if g is not None and g.uid == f.uid:
                text = _changes(engine, after, a, p, f, g, tr)
            elif not f.token and after.p[p].hand[f.card] > before.p[p].hand[f.card]:
                text = f"returns to {SIDE[p]}'s hand"
            elif g is not None:
                text = f"{_hurt(tr, f.uid)} and becomes {names[g.card]}".removeprefix(" and ")
                known.add(g.uid)
            else:
                text = "leaves play"
            if text:
                line = f"{SIDE[p]}{i + 1} {names[f.card]} {text}"
                out.append((tr.first.get(f.uid, _LAST), p * SLOTS + i, line))
    instakill = _instakill(engine, before, a)
    for uid, (p, i, c, token, destroyed) in tr.died.items():
        how = "dies"
        if destroyed:
            how = "is destroyed by Instakill" if p * SLOTS + i == instakill else "is destroyed"
        text = f"{_hurt(tr, uid)} and {how}".removeprefix(" and ")
        if token:
            text += " (a token: no Death Token)"
        out.append((tr.first[uid], p * SLOTS + i, f"{SIDE[p]}{i + 1} {names[c]} {text}"))
    for p in (0, 1):
        for i, g in enumerate(after.p[p].slots):
            if g is None or g.uid in known:
                continue
            # the fighter the move played is named by the move: only what befell it
            played = a[0] == A_PLAY and p == before.cur and i == a[2]
            text = ", ".join(x for x in ("" if played else "comes into play", _hurt(tr, g.uid),
                                         _healed(tr, g.uid)) if x)
            if text:
                hp = f"; {g.hp} Health left" if g.uid in tr.asked else ""
                out.append((tr.first.get(g.uid, _LAST), p * SLOTS + i,
                            f"{SIDE[p]}{i + 1} {names[g.card]}{' token' if g.token else ''} {text}{hp}"))
    out.sort()
    return [line for _, _, line in out]


def _instakill(engine, before, a):
    """The target's position (player * 5 + slot) when move `a` is an Instakill attack, else None."""
    if a[0] != A_ATTACK or a[3] < 0:
        return None
    pl = before.p[before.cur]
    f = pl.slots[a[1]]
    special = engine.ci[f.card].attacks[a[2] - 1] if a[2] else None
    if (engine._kw(pl, f) | (special.kw if special else 0)) & INSTAKILL:
        return (1 - before.cur) * SLOTS + a[3]
    return None


def _changes(engine, after, a, p, f, g, tr):
    """What happened to fighter f (before) that is still in play as g (after), in words."""
    if g.bound and not f.bound:
        return f"is Bound: {g.atk} Attack, {g.hp} Health, no abilities"
    parts = []
    hurt = _hurt(tr, f.uid)
    if hurt and a[0] == A_END:      # a turn passed: poison ticks as its owner's turn starts, burn as it ends
        if tr.dealt[f.uid] == [f.poison] and p == after.cur:
            hurt += " from poison"
        elif tr.dealt[f.uid] == [f.burn] and p != after.cur:
            hurt += " from its burn"
    if hurt:
        parts.append(hurt)
    healed = _healed(tr, f.uid)
    if healed:
        lifesteal = a[0] == A_ATTACK and engine._kw(after.p[p], g) & LIFESTEAL
        parts.append(healed + (" by Lifesteal" if lifesteal else ""))
    gets = [f"{g.maxhp - f.maxhp:+} Health"] if g.maxhp != f.maxhp else []
    if g.atk != f.atk:
        gets.append(f"{g.atk - f.atk:+} Attack")
    if g.tmp > f.tmp:
        gets.append(f"+{g.tmp - f.tmp} Attack this turn")
    if gets:
        parts.append("gets " + " and ".join(gets))
    for bits, when in ((g.kw & ~f.kw, ""), (g.tkw & ~f.tkw, " this turn"),
                       (g.nkw & ~f.nkw, f" until {SIDE[p]}'s next turn")):
        if bits:
            parts.append("gains " + " and ".join(k for k, b in KW_BITS.items() if bits & b) + when)
    if g.poison > f.poison:
        parts.append(f"is poisoned: {g.poison} damage at the start of each of {SIDE[p]}'s turns")
    if g.burn > f.burn:
        parts.append(f"will take {g.burn} damage at the end of the turn")
    if g.stun and not f.stun:
        parts.append(f"cannot attack during {SIDE[p]}'s next turn")
    if g.ward and not f.ward:
        parts.append(f"takes no damage until {SIDE[p]}'s next turn")
    if g.ign and not f.ign:
        parts.append("ignores Block this turn")
    if not parts:
        return ""
    hp = (f"; {g.hp} Health left" if hurt else f"; now {g.hp} Health") if g.hp != f.hp or hurt else ""
    return ", ".join(parts) + hp


def _turn_outcomes(engine, before, after):
    """The rules that fire as a turn passes: a stalled turn, an empty board, a stunned fighter."""
    out = []
    p = before.cur
    if after.p[p].stall > before.p[p].stall:
        out.append(f"{SIDE[p]} stalled this turn: {after.p[p].stall} of {engine.stall_turns} in a row")
    if after.over:
        return out
    o = after.cur
    if not after.turn_one:
        pl = after.p[o]
        out.append(f"{SIDE[o]}'s turn: {pl.energy} Energy, {pl.nh} card{'s' if pl.nh != 1 else ''} in hand")
    if after.p[o].empty and not after.turn_one:
        out.append(f"{SIDE[o]} starts the turn with no fighter: play one this turn or lose")
    for i, g in enumerate(after.p[o].slots):
        f = before.p[o].slots[i]
        if g is not None and g.noatk and f is not None and f.uid == g.uid and f.stun:
            out.append(f"{SIDE[o]}{i + 1} {engine.names[g.card]} cannot attack this turn")
    return out


def _trace(engine, before, a):
    """Re-run move `a` on a clone of `before` with a copy of the engine whose damage,
    healing, deaths, effects and Hazard picks note what they did (a _Trace), and with an
    RNG that notes its coin flips. The clone's RNG starts where the match's did, so the
    re-run is the move itself; the match's state and engine are left alone."""
    cls = type(engine)
    t = copy.copy(engine)
    tr = _Trace()
    s = engine.clone(before)
    s.rng = _Draws(s.rng, tr.flips)

    def damage(s, p, slot, f, n, attack):
        got = cls._damage(t, s, p, slot, f, n, attack)
        if n > 0:
            tr.note(tr.dealt, f.uid, got)
            tr.note(tr.asked, f.uid, n)
        return got

    def heal(s, p, f, n):
        hp = f.hp
        cls._heal(t, s, p, f, n)
        if f.hp > hp:
            tr.note(tr.healed, f.uid, f.hp - hp)

    def deaths(s):
        seen = [(p, i, f) for p in (0, 1) for i, f in enumerate(s.p[p].slots) if f is not None]
        top = s.uid
        cls._deaths(t, s)
        for p, i, f in seen:
            g = s.p[p].slots[i]
            if g is not f and (g is None or g.uid <= top):      # (not replaced by an Update)
                tr.note(tr.died, f.uid, (p, i, f.card, f.token, f.hp > 0))

    def eff(s, ctl, e, src, ev, tgts, *rest):
        if e[0] in _ON_FIGHTERS:        # (to list the fighters in the order things befell them)
            for _, _, f in t._resolve(s, ctl, e[1], src, ev, tgts):
                tr.first.setdefault(f.uid, len(tr.first))
        done = cls._eff(t, s, ctl, e, src, ev, tgts, *rest)
        if e[0] == "energy":
            tr.gained[ctl] += e[1]
        elif e[0] in ("cancel", "nullify", "null_attack"):
            tr.cancelled = True
        return done

    def pick_hazard(s, job):
        had = list(s.p[1 - job[1]].hazards)
        cls._pick_hazard(t, s, job)
        tr.destroyed[1 - job[1]] += [h for h in had if h not in s.p[1 - job[1]].hazards]

    t._damage, t._heal, t._deaths, t._eff, t._pick_hazard = damage, heal, deaths, eff, pick_hazard
    if a[0] == A_CHOOSE and before.pending[2][0] == J_PICKH:
        tr.destroyed[1 - before.pending[0]].append(a[1] - O_HAZ)
    t.apply_chosen(s, a)
    return tr


# The loss reasons (s.reason), in the rulebook's words
# ({0}: Death Tokens to lose, {1}: stalled turns to lose)
_LOSS = {"death tokens": "{0} Death Tokens",
         "no fighters": "it started the turn with no fighter and played none",
         "no cards and no fighters": "no cards left to play and no fighter in play",
         "stalled": "{1} stalled turns in a row (no attack, card played or Active Power)"}


class _Trace:
    """What a re-run move did (_trace), by fighter uid: damage dealt (each hit)
    and asked (in all), Health healed, deaths ((player, slot, card, token, destroyed with Health
    left)); coin flips in order; Energy gained and Hazards destroyed, by player; whether a
    spell, Power or attack was cancelled; first: the order in which fighters were first met."""

    def __init__(self):
        self.dealt, self.asked, self.healed, self.died, self.first = {}, {}, {}, {}, {}
        self.flips = []
        self.gained = [0, 0]
        self.destroyed = [[], []]
        self.cancelled = False

    def note(self, table, uid, v):
        self.first.setdefault(uid, len(self.first))
        if table is self.died:
            table[uid] = v
        elif table is self.dealt:
            table.setdefault(uid, []).append(v)
        else:
            table[uid] = table.get(uid, 0) + v


class _Draws(random.Random):
    """A copy of a match's RNG that notes its coin flips (getrandbits(1) outside randrange, as
    the "coin" effect draws them), for describe_outcome's re-run."""

    def __init__(self, rng, flips):
        super().__init__(0)
        self.setstate(rng.getstate())
        self.flips = flips
        self.inside = False

    def getrandbits(self, k):
        v = super().getrandbits(k)
        if k == 1 and not self.inside:
            self.flips.append(v)
        return v

    def randrange(self, *args):
        self.inside = True
        try:
            return super().randrange(*args)
        finally:
            self.inside = False


_LAST = 1 << 30        # (fighters the trace did not meet come after the others)
# the effects on the fighters their selector e[1] names, besides damage and healing
_ON_FIGHTERS = frozenset({"buff", "bind", "update", "kwnext", "ward", "ignblock", "burn", "poison",
                          "stun", "bounce", "destroy"})


def _hurt(tr, uid):
    """'takes N damage' for fighter uid in a trace ('N of M' when some was prevented), or ''."""
    hits, asked = tr.dealt.get(uid, ()), tr.asked.get(uid, 0)
    dealt = sum(hits)
    if not asked:
        return ""
    if not dealt:
        return f"takes none of {asked} damage"
    text = f"takes {dealt} of {asked} damage" if asked > dealt else f"takes {dealt} damage"
    hits = [str(n) for n in hits if n]
    return text + (f" ({' + '.join(hits)})" if len(hits) > 1 else "")


def _healed(tr, uid):
    n = tr.healed.get(uid)
    return f"heals {n}" if n else ""
