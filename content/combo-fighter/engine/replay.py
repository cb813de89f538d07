"""Combo Fighter's replay text: a move in words (`describe`), what it led to (`describe_outcome`:
the reveal and the win circle, damage, Staggering, flipped tokens, knockouts) for `cardgen
replay`, and the card a move shows (`card_of`)."""

from __future__ import annotations

from . import grammar as G
from .state import (
    ASSIST,
    ATT,
    CHOOSE,
    DAMAGE,
    DEF,
    DISCARD,
    LAST_DEALT,
    LAST_PLAYED,
    LAST_RESULT,
    NO_TYPE,
    OVER,
    REACT,
    SIDE_LETTERS,
    START,
    STOP,
    TIE,
    TOP,
    TWO_VS_TWO,
    CFState,
)


class ReplayMixin:
    __slots__ = ()

    def describe(self, s: CFState, action) -> str:
        """The move in words (the replay prints who moves in front of it)."""
        p = s.cur
        verb = action[0] if isinstance(action, tuple) and action else str(action)
        arg = action[1] if isinstance(action, tuple) and len(action) > 1 else None
        if verb == "play":
            return f"plays {arg} face down" if s.phase == CHOOSE else f"combos into {arg}"
        if verb == "top":
            return "plays the top card of the deck face down"
        if verb == "aside":
            return f"combos into {arg} from set aside"
        if verb == "stop":
            return f"ends the combo: {s.dmg[p]} damage"
        if verb == "call":
            return f"calls the signature combo {arg}!"
        if verb == "flip":
            return "pays the cost and flips the Power Token"
        if verb == "pass":
            return "passes"
        if verb == "recover":
            whose = "the benched teammate's" if s.phase == ASSIST else "the"
            return f"shuffles {arg} from {whose} discard pile into the deck"
        if verb == "order":
            return f"puts the top cards back as {', '.join(arg)} (top first)"
        if verb == "hit":
            n = s.take[p] if 0 <= p < 2 else 0
            cards = f"{', '.join(arg)} from hand, " if arg else ""
            return f"takes {n} damage: {cards}{n - len(arg)} from the top of the deck"
        if verb == "discard":
            return f"discards {', '.join(arg)} and refills" if arg else "refills"
        if verb == "tag":
            return "tags out"
        if verb == "stay":
            return "stays in the ring"
        if verb == "start":
            return "picks the team's fighter for the ring (face down)"
        if verb == "pick":
            return f"picks the opponent's fighter {arg + 1}"
        return repr(action)

    def describe_outcome(self, before: CFState, after: CFState, action) -> str:
        """What the move led to, in words for `cardgen replay`: the reveal and the win circle,
        damage, Staggering, flipped tokens, knockouts."""
        if not before.fs:   # tournament picks: no fighter chosen yet
            return ("the fighters: " + ", ".join(f"P{seat + 1} {after.fs[seat].ch.name}" for seat in (0, 1))
                    if after.fs else "")
        lines = []
        dealt = after.last is not before.last
        if after.fresh:
            lines += _reveal_words(self, before, after, dealt)
        elif before.phase == REACT:
            r = after.last[LAST_RESULT] if dealt else after.result
            if r != before.result:
                # the win circle as it was just after the flip (the end of the round, in the same
                # move, may flip a token again)
                at = self.clone(before)
                at.fs[at.act[before.cur]].side ^= 1
                cards = _first_cards(after.last) if dealt else after.choice
                lines.append(_result_words(self, at, cards, r) + " after the flip")
        if dealt:
            lines += _deal_words(self, before, after, action)
        if after.mode == TWO_VS_TWO and before.act != after.act and after.phase != START:
            lines.append("in the ring: " + ", ".join(_who(self, after, seat) for seat in (0, 1)))
        fight_over = len(after.results) > len(before.results)
        if not fight_over:
            lines += _fighter_changes(self, before, after, dealt)
        else:
            lines += _fight_words(self, before, after)
        return "\n".join(lines)

    def card_of(self, s: CFState, action) -> str | None:
        if isinstance(action, tuple) and action:
            if action[0] in ("play", "aside"):
                return action[1]
            if action == TOP and s.fs:
                deck = s.fs[s.act[s.cur]].deck
                return self.names[deck[-1]] if deck else None
        return None


def _first_cards(last: tuple) -> tuple:
    """The two first cards of a resolved round (CFState.last)."""
    return last[LAST_PLAYED][0], last[LAST_PLAYED + 1][0]


def _who(engine, s: CFState, seat: int) -> str:
    f = s.fs[s.act[seat]]
    if f.solo:
        return f"P{seat + 1} (solo AI)"
    return f"P{seat + 1} ({f.ch.name})" if s.mode == TWO_VS_TWO else f"P{seat + 1}"


def _card_words(engine, s: CFState, seat: int, c: int) -> str:
    """A revealed first card: its name, kind and what of it the win circle looks at."""
    f = s.fs[s.act[seat]]
    t = engine.ctype[c]
    bits = []
    if t == ATT:
        bits.append(f"Speed {_speed(engine, f, c)}")
        bits += [k for k, on in (("Quick", engine.quick[c]), ("Guard Break", engine.gbreak[c])) if on]
    if engine.prio[c] or f.ch.sides[f.side].prio[t]:
        bits.append("Priority")
    return f"{engine.names[c]} ({', '.join([G.TYPES[t], *bits])})"


def _speed(engine, f, c: int) -> int:
    """Card c's Speed for fighter f: as printed, plus its Power Token side's (as the win circle)."""
    return engine.speed[c] + f.ch.sides[f.side].speed


def _result_words(engine, s: CFState, cards, r: int) -> str:
    """Who wins the round and why, by the win circle (s: the state at the reveal)."""
    c0, c1 = cards
    t0, t1 = engine.ctype[c0], engine.ctype[c1]
    if t0 != t1:
        tw, tl = (t0, t1) if r == 0 else (t1, t0)
        why = ("Guard Break beats defense" if tw == ATT and tl == DEF
               else f"{G.TYPES[tw]} beats {G.TYPES[tl]}")
    elif t0 == ATT:
        faster = _speed(engine, s.fs[s.act[0]], c0) != _speed(engine, s.fs[s.act[1]], c1)
        why = "faster" if faster else "Quick" if r >= 0 else "equal Speed"
    else:
        why = "Priority" if r >= 0 else "both or neither with Priority"
    return f"a tie ({why})" if r == TIE else f"{_who(engine, s, r)} wins the round ({why})"


def _reveal_words(engine, before: CFState, after: CFState, dealt: bool) -> list:
    """Both face-down cards turned over, and who wins the round by the win circle. When the
    round ended in the same move, its cards and result are in after.last (a knockout starts a
    new fight); `before` has the Power Tokens as they were at the reveal."""
    if dealt:
        r, cards = after.last[LAST_RESULT], _first_cards(after.last)
    else:
        r, cards = after.result, after.choice
    lines = [f"{_who(engine, before, seat)} plays the top card of its deck"
             for seat in (0, 1) if before.fs[before.act[seat]].solo]
    lines.append(f"reveal: P1 {_card_words(engine, before, 0, cards[0])} vs P2 "
                 f"{_card_words(engine, before, 1, cards[1])}: {_result_words(engine, before, cards, r)}")
    if after.phase == REACT:
        lines[-1] += f", so far: {_who(engine, after, after.cur)} may flip the Power Token"
    return lines


def _deal_words(engine, before: CFState, after: CFState, action) -> list:
    """The damage of the round once dealt (a combo that ends by itself says why)."""
    r, d0, d1, _p0, _p1, sig = after.last
    lines = []
    if r == TIE:
        return [f"both first cards hit: P1 deals {d0}, P2 deals {d1}" if d0 or d1
                else "neither first card deals damage"]
    who = _who(engine, after, r)
    dmg = d0 if r == 0 else d1
    if action != STOP and not sig:     # the engine ended it: no card could follow
        last = after.last[LAST_PLAYED + r][-1]
        lines.append(f"the combo ends: nothing fits the combo box of {engine.names[last]}")
    if sig:
        lines.append(f"{who} deals {dmg} damage with {sig}")
    elif action != STOP:
        lines.append(f"{who} deals {dmg} damage")
    return lines


def _fighter_changes(engine, before: CFState, after: CFState, dealt: bool) -> list:
    """Cards left after damage, Staggering, a Power Token that flipped, the solo AI's draw
    and leftovers."""
    lines = []
    hit = set()
    if dealt:
        d0, d1 = after.last[LAST_DEALT], after.last[LAST_DEALT + 1]
        hit = {seat for seat, d in ((0, d1), (1, d0)) if d}
    if before.phase == DAMAGE:
        hit.add(before.cur)
        if before.cur == 0 and before.take[1]:
            hit.add(1)
    if after.phase == DAMAGE:     # still to be taken: said by the hit itself
        hit = {seat for seat in hit if seat < after.cur}
    for seat in (0, 1):
        if before.act[seat] != after.act[seat] or before.fs[before.act[seat]].ch is not \
                after.fs[after.act[seat]].ch:
            continue
        was, f = before.fs[before.act[seat]], after.fs[after.act[seat]]
        who = _who(engine, after, seat)
        if f.ko and not was.ko:     # the fight ends once the other has taken its damage
            why = "takes damage while Staggering" if was.stag else "loses the last card"
            lines.append(f"{who} {why}: knocked out")
        elif seat in hit:
            n = len(f.hand) + len(f.deck)
            lines.append(f"{who} has {n} card{'s' * (n != 1)} left (hand {len(f.hand)}, "
                         f"deck {len(f.deck)})")
        if f.stag and not was.stag:
            lines.append(f"{who} is Staggering: the discard pile is shuffled into a new deck")
        if f.side != was.side:
            when = "end of round: " if before.phase == DISCARD or after.round != before.round else ""
            token = f"the Power Token of {who}" if after.mode == TWO_VS_TWO else f"{who}'s Power Token"
            lines.append(f"{when}{token} flips to side {SIDE_LETTERS[f.side]} "
                         f"({f.ch.sides[f.side].name})")
        if f.solo and len(f.hand) > len(was.hand):     # (draws go to the end of the hand)
            drawn = f.hand[len(was.hand):]
            lines.append(f"{who} draws {len(drawn)}: {', '.join(engine.names[c] for c in drawn)}")
        if f.solo and was.hand and not f.hand:
            # the solo AI's drawn cards it did not play: to the bottom of the deck (its sheet's
            # type after a won round) or discarded, each dealing 1 damage to its opponent
            bottom = f.ch.solo.bottom_type if after.last[LAST_RESULT] == seat else NO_TYPE
            kept = [engine.names[c] for c in was.hand if engine.ctype[c] == bottom]
            lost = [engine.names[c] for c in was.hand if engine.ctype[c] != bottom]
            if kept:
                lines.append(f"{who} puts {', '.join(kept)} on the bottom of its deck")
            if lost:
                lines.append(f"{who} discards {len(lost)} unplayed card{'s' * (len(lost) > 1)}, "
                             f"each dealing 1 damage to P{2 - seat}: {', '.join(lost)}")
    return lines


def _fight_words(engine, before: CFState, after: CFState) -> list:
    """A fighter knocked out: the fight's result and the score (or the match)."""
    res = after.results[-1]
    # (one already knocked out by an earlier point of this round was said then)
    out = [seat for seat in ((0, 1) if res == TIE else (1 - res,))
           if not before.fs[before.act[seat]].ko]
    names = [before.fs[before.act[seat]].ch.name for seat in (0, 1)]
    lines = [" and ".join(f"P{seat + 1} ({names[seat]})" for seat in out) + " knocked out"
             + (" while Staggering" if all(before.fs[before.act[seat]].stag for seat in out)
                else ": no card left in hand and deck")] if out else []
    n = len(after.results)
    won = f"P{res + 1} wins fight {n}" if res >= 0 else f"fight {n} is a draw"
    lines.append(f"{won}: fights won P1 {after.wins[0]}, P2 {after.wins[1]}")
    if after.phase == OVER:
        lines.append(f"P{after.win + 1} wins the match")
    return lines
