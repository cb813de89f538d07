"""Amfibido invariants: what must hold in every state (cards neither made nor lost, phases,
pending choices, a legal action while the match goes on) (a mixin)."""

from __future__ import annotations

from .grammar import (
    EQUIP,
    FIGHTER,
    SENSEI,
)
from .state import (
    DRAWN,
    EOR,
    FIELD,
    LEVELS,
    OVER,
    P_OVERCAP,
    R3,
    ROMAN,
)


class ChecksMixin:
    """invariants of AmfibidoEngine."""

    __slots__ = ()

    def invariants(self, st) -> list[str]:
        info = st.box.info
        problems = []
        seen = st.sdeck + st.discard + st.resolving
        if st.resolving and not st.pend:
            problems.append("an action card still resolving with no choice left to make")
        for lv in LEVELS:
            deck = st.decks[lv]
            seen += deck
            if deck and (info[deck[0]].level != lv or info[deck[-1]].level != lv):
                problems.append(f"a card of another level is in the level {ROMAN[lv]} deck")
        for p in (0, 1):
            seen += st.hand[p]
            seen += st.ko[p]
            seen += st.ko_new[p]
            seen += st.aside[p]
            if (st.ko_new[p] or st.aside[p]) and st.phase not in (FIELD, EOR, OVER):
                problems.append(f"player {p} still has cards waiting for the end of the last round")
            seen += st.draft[p]
            F = st.fighter[p]
            for d in R3:
                f = F[d]
                E = st.equip[p][d]
                C = st.combos[p][d]
                seen += E
                seen += C
                if f >= 0:
                    seen.append(f)
                    if info[f].type != FIGHTER:
                        problems.append(f"player {p} dojo {d + 1} holds {info[f].name} as a "
                                        "fighter")
                for e in E:
                    if info[e].type != EQUIP:
                        problems.append(f"player {p} dojo {d + 1} holds {info[e].name} as "
                                        "equipment")
                if len(E) > 1 and (len(E) > 2 or f < 0 or not info[f].second_equip) and \
                        not any(pe[0] == P_OVERCAP and pe[1] == p and pe[2] == d for pe in st.pend):
                    problems.append(f"player {p} dojo {d + 1} holds {len(E)} equipment")
                for c in C:
                    if not info[c].combo:
                        problems.append(f"player {p} dojo {d + 1} has {info[c].name} as a combo "
                                        "move")
                if C and f < 0 and st.phase == FIELD:
                    problems.append(f"player {p} dojo {d + 1} has combo moves but no fighter")
            s = st.sensei[p]
            if s >= 0:
                seen.append(s)
                if info[s].type != SENSEI:
                    problems.append(f"player {p} keeps {info[s].name} as sensei")
            if not 0 <= st.score[p] <= self.wins_needed:
                problems.append(f"player {p} score {st.score[p]} out of range")
        n = st.box.n
        if len(seen) != n or len(set(seen)) != n:
            problems.append(f"cards created or lost: {len(seen)} in zones ({len(set(seen))} "
                            f"different), the box has {n}")
        if st.round < 1 or (st.limit and st.round > st.limit):
            problems.append(f"round {st.round} out of range")
        if st.phase == OVER:
            r = st.result
            if st.score[0] < self.wins_needed and st.score[1] < self.wins_needed and \
                    not (st.limit and st.round == st.limit):
                problems.append("the game ended without 4 round wins"
                                + (" before the round limit" if st.limit else ""))
            if r == DRAWN and not st.limit:
                problems.append("a drawn game, which only the round-limit variant has")
            if r >= 0 and st.score[r] < st.score[1 - r]:
                problems.append("the winner has fewer round wins")
            if r == DRAWN and st.score[0] != st.score[1]:
                problems.append("a drawn game with unequal round wins")
        else:
            if st.pend and st.phase not in (FIELD, EOR):
                problems.append("a pending choice outside the field phase and the end of round")
            if not self.legal_actions(st):
                problems.append("no legal action in a state that is not over")
        return problems
