"""Amfibido legal actions: the draft and sensei picks, the field phase (field, equip, combo, play,
abilities, pass), pending choices, and the targets an effect step may take (a mixin)."""

from __future__ import annotations

from .grammar import (
    FIGHTER,
    S_ALL_F,
    S_FACE_E,
    S_FACE_F,
    S_FACE_FE,
    S_HERE_F,
    S_KO_ALL,
    S_KO_CARD,
    S_OPP_ALL,
    S_OPP_E,
    S_OPP_F,
    S_OPP_FDOJO,
    S_OPP_FE,
    S_OWN_E,
    S_OWN_F,
    S_OWN_FE,
    S_SELF,
    V_DRAW,
    V_KORET,
    V_SWITCH,
)
from .state import (
    AT_EQUIP,
    CODE,
    DONE,
    EC,
    FC,
    FIELD,
    K_ACTION,
    K_COMBO,
    K_EQUIP,
    K_FIGHTER,
    NOOPT,
    OPT_E,
    OPT_F,
    P_COST,
    P_DISCARD,
    P_OVERCAP,
    P_STEP,
    PASS,
    R3,
    SENSEI_PH,
    SWE,
    SWF,
)

_OWN_SIDE = frozenset((S_OWN_F, S_OWN_E, S_OWN_FE, S_ALL_F, S_HERE_F, S_SELF))
_SEL_F = frozenset((S_OWN_F, S_OPP_F, S_OPP_FDOJO, S_OWN_FE, S_OPP_FE))
_SEL_F_ONLY = frozenset((S_OWN_F, S_OPP_F, S_OPP_FDOJO))
_SEL_E = frozenset((S_OWN_E, S_OPP_E, S_OWN_FE, S_OPP_FE))
# switcheroo moves of the fighter of dojo d to each other dojo
_SWF_OUT = tuple(tuple(SWF[d][e] for e in R3 if e != d) for d in R3)
# What the choices of an effect's first step depend on (Chooser.depends): the state at large
# (a draw, a knockout-pile return), or the layout of one side: which dojos hold a fighter, how
# much equipment each dojo holds, both, or both and which dojos may take a second equipment (a
# switcheroo that can move equipment).
_ON_STATE, _ON_FIGHTERS, _ON_EQUIPMENT, _ON_BOTH, _ON_ROOM = range(5)
_FIGHTERS_ONLY = frozenset((S_OWN_F, S_OPP_F, S_OPP_FDOJO, S_ALL_F, S_HERE_F, S_FACE_F, S_SELF))
_EQUIPMENT_ONLY = frozenset((S_OWN_E, S_OPP_E, S_FACE_E))


class Chooser:
    """A field-phase action that picks a target: its head (("play", name), ("ability", code)),
    the first step of its effect, where it is played from, and its actions per layout."""

    __slots__ = ("head", "step", "src", "own", "depends", "known")

    def __init__(self, head, step, src):
        self.head, self.step, self.src = head, step, src
        self.known = {}
        v, sel = step.verb, step.sel
        if v in (V_DRAW, V_KORET):
            self.own, self.depends = True, _ON_STATE
        elif v == V_SWITCH:     # always your own cards
            moves_equipment = sel in (S_OWN_E, S_OWN_FE) or (sel == S_SELF and CODE[src][0] == AT_EQUIP)
            self.own, self.depends = True, _ON_ROOM if moves_equipment else _ON_FIGHTERS
        else:
            self.own = sel in _OWN_SIDE
            self.depends = (_ON_FIGHTERS if sel in _FIGHTERS_ONLY else
                            _ON_EQUIPMENT if sel in _EQUIPMENT_ONLY else _ON_BOTH)


class LegalMixin:
    """The legal-action lists of AmfibidoEngine (cached in the state as `st.legal`)."""

    __slots__ = ()

    def legal_actions(self, st) -> list:
        acts = st.legal
        if acts is not None:
            return acts
        if st.over:
            acts = []
        elif st.pend:
            acts = self._pending_actions(st, st.pend[0])
        elif st.phase == FIELD:
            acts = self._field_actions(st)
        else:
            # a draft pick or the sensei to keep: one action per different card dealt
            table = self.A_pick if st.phase != SENSEI_PH else self.A_sensei
            dof = st.box.dof
            acts = []
            for c in st.draft[st.turn]:
                a = table[dof[c]]
                if a not in acts:
                    acts.append(a)
        st.legal = acts
        return acts

    @staticmethod
    def _distinct(ids, table, info):
        if len(ids) == 1:
            return [table[info[ids[0]].d]]
        out = []
        for c in ids:
            a = table[info[c].d]
            if a not in out:
                out.append(a)
        return out

    def _field_actions(self, st) -> list:
        p = st.turn
        box = st.box
        F = st.fighter[p]
        E = st.equip[p]
        hand = st.hand[p]
        dof = box.dof
        acts = [PASS]
        if hand:
            kind_d = self.kind_d
            A_field = self.A_field
            seen = []
            combo_to = -1       # the dojos taking combo moves, once a combo move asks
            for c in hand:
                dd = dof[c]
                if dd in seen:
                    continue
                seen.append(dd)
                k = kind_d[dd]
                if k == K_FIGHTER:
                    acts += A_field[dd]
                elif k == K_EQUIP:
                    E0, E1, E2 = E
                    if len(E0) < 2 and len(E1) < 2 and len(E2) < 2:
                        acts += self.A_equip[dd]
                    else:
                        ae = self.A_equip[dd]
                        for d in R3:
                            n = len(E[d])
                            if n <= 1:
                                acts.append(ae[d])
                            else:
                                acts += self.A_equip_r[dd][d][:n]
                elif k == K_COMBO:
                    if combo_to < 0:
                        combo_to = 0
                        nocombo = box.nocombo
                        for d in R3:
                            f = F[d]
                            if f >= 0:
                                if nocombo[f] and not self._neutralized(st, p, d, f):
                                    continue
                                combo_to |= 1 << d
                    acts += self.A_combo_to[dd][combo_to]
                elif k == K_ACTION:
                    acts += self._chosen_actions(st, p, self.play_chooser[dd])
        E0, E1, E2 = E
        if not box.abset.isdisjoint([*F, *E0, *E1, *E2]):
            acts += self._board_ability_actions(st, p, bool(hand))
        s = st.sensei[p]
        if box.abl[s] and s not in st.used:
            dd = dof[s]
            if hand or not self.cost_from_hand[dd]:
                acts += self._chosen_actions(st, p, self.ability_chooser[dd]["S"])
        return acts

    def _board_ability_actions(self, st, p, has_hand) -> list:
        """The action abilities of p's cards in the dojos: each fighter, then its equipment (an
        ability whose cost takes a card from the hand needs a hand)."""
        box = st.box
        dof = box.dof
        abl = box.abl
        used = st.used
        cost_from_hand = self.cost_from_hand
        ability_chooser = self.ability_chooser
        F = st.fighter[p]
        E = st.equip[p]
        acts = []
        for d in R3:
            f = F[d]
            if abl[f] and f not in used and (has_hand or not cost_from_hand[dof[f]]) \
                    and not self._neutralized(st, p, d, f):
                acts += self._chosen_actions(st, p, ability_chooser[dof[f]][FC[d]])
            Ed = E[d]
            if not Ed:
                continue
            for e, code in zip(Ed, EC[d], strict=False):
                if abl[e] and e not in used and (has_hand or not cost_from_hand[dof[e]]) \
                        and not self._neutralized(st, p, d, e):
                    acts += self._chosen_actions(st, p, ability_chooser[dof[e]][code])
        return acts

    def _neutralized(self, st, p, d, c) -> bool:
        """Whether card c of player p, in dojo d, is neutralized now. Only an effect of this round
        or a neutralizer of the opponent facing it can reach it: without one, the whole set
        (_neut) is not needed."""
        if c not in st.tmp_neut:
            nsl = st.box.nsl
            o = 1 - p
            if not nsl[st.fighter[o][d]]:
                for e in st.equip[o][d]:
                    if nsl[e]:
                        break
                else:
                    return False
        return c in self._neut(st)

    def _chosen_actions(self, st, p, chooser) -> tuple:
        """The field-phase actions of `chooser`: its head plus each choice its first step offers.

        Apart from a draw or a knockout-pile return, the choices depend only on the layout of
        one side (see Chooser), so the actions are made once per layout and read back after.
        A layout is a small int: bit d is set when dojo d holds a fighter, then the equipment
        counts of the dojos in 8 bits each (far more than a dojo holds), then the dojos that
        may take a second equipment."""
        depends = chooser.depends
        if depends == _ON_STATE:
            return tuple(map(chooser.head.__add__,
                             self._options(st, p, chooser.step, chooser.src, NOOPT)))
        side = p if chooser.own else 1 - p
        F = st.fighter[side]
        if depends == _ON_FIGHTERS:
            layout = (F[0] >= 0) | (F[1] >= 0) << 1 | (F[2] >= 0) << 2
        else:
            E0, E1, E2 = st.equip[side]
            layout = len(E0) << 3 | len(E1) << 11 | len(E2) << 19
            if depends != _ON_EQUIPMENT:
                layout |= (F[0] >= 0) | (F[1] >= 0) << 1 | (F[2] >= 0) << 2
                if depends == _ON_ROOM:
                    second = st.box.second
                    for d in R3:
                        f = F[d]
                        if f >= 0 and second[f] and not self._neutralized(st, side, d, f):
                            layout |= 1 << (27 + d)
        known = chooser.known
        acts = known.get(layout)
        if acts is None:
            acts = known[layout] = tuple(map(chooser.head.__add__, self._options(
                st, p, chooser.step, chooser.src, NOOPT)))
        return acts

    def _pending_actions(self, st, pe) -> list:
        kind = pe[0]
        info = st.box.info
        if kind == P_STEP:
            _, p, steps, i, src, left, optional, moved = pe
            acts = [("choose",) + o for o in self._options(st, p, steps[i], src, moved)]
            if optional:
                acts.append(DONE)
            return acts
        if kind in (P_COST, P_DISCARD):
            return self._distinct(st.hand[pe[1]], self.A_choose_name, info)
        if kind == P_OVERCAP:
            p, d = pe[1], pe[2]
            E = st.equip[p][d]
            acts = [("choose", EC[d][0])]
            for k in range(1, len(E)):
                if info[E[k]].d != info[E[0]].d:
                    acts.append(("choose", EC[d][k]))
            return acts
        # P_EOR
        return [("choose", FC[pe[2]], w) for w in pe[3]]

    def _options(self, st, p, step, src, moved) -> list:
        """The choices an effect step offers: tuples appended to the action."""
        v = step.verb
        sel = step.sel
        if v == V_SWITCH:
            return self._switch_options(st, p, sel, src, moved)
        if v == V_DRAW:
            return [(lv,) for lv in self._active(st.round) if self._level_available(st, lv)]
        if v == V_KORET:
            ko = st.ko[p] + st.ko_new[p] if st.ko_new[p] else st.ko[p]
            if sel == S_KO_ALL:
                return [NOOPT] if ko else []
            info = st.box.info
            out, seen = [], set()
            for c in ko:
                ci = info[c]
                if ci.d not in seen and (sel == S_KO_CARD or ci.type == FIGHTER):
                    seen.add(ci.d)
                    out.append((ci.name,))
            return out
        side = p if sel in _OWN_SIDE else 1 - p
        F = st.fighter[side]
        out = []
        if sel in _SEL_F:
            if moved:
                for d in R3:
                    f = F[d]
                    if f >= 0 and f not in moved:
                        out.append(OPT_F[d])
            else:
                if F[0] >= 0:
                    out.append(OPT_F[0])
                if F[1] >= 0:
                    out.append(OPT_F[1])
                if F[2] >= 0:
                    out.append(OPT_F[2])
            if sel in _SEL_F_ONLY:
                return out
        if sel in _SEL_E:
            E = st.equip[side]
            for d in R3:
                Ed = E[d]
                if Ed:
                    od = OPT_E[d]
                    for k, e in enumerate(Ed):
                        if not moved or e not in moved:
                            out.append(od[k])
            return out
        if sel == S_OPP_ALL:
            return [NOOPT] if F[0] >= 0 or F[1] >= 0 or F[2] >= 0 or any(st.equip[side]) else []
        if sel == S_ALL_F:
            return [NOOPT] if F[0] >= 0 or F[1] >= 0 or F[2] >= 0 else []
        d = CODE[src][1]
        if sel in (S_HERE_F, S_FACE_F):
            return [NOOPT] if F[d] >= 0 else []
        if sel == S_FACE_E:
            return [NOOPT] if st.equip[side][d] else []
        if sel == S_FACE_FE:
            return [NOOPT] if F[d] >= 0 or st.equip[side][d] else []
        return []

    def _equip_room(self, st, F, E) -> list[int]:
        """How many places a moved equipment can take in each dojo: one, or two where the fighter
        there may hold a second equipment and is not neutralized."""
        second = st.box.second
        neut = None
        room = []
        for e in R3:
            f = F[e]
            if f >= 0 and second[f]:
                if neut is None:
                    neut = self._neut(st)
                cap = 1 if f in neut else 2
            else:
                cap = 1
            n = len(E[e]) + 1
            room.append(n if n < cap else cap)
        return room

    def _switch_options(self, st, p, sel, src, moved) -> list:
        F = st.fighter[p]
        if sel == S_HERE_F or (sel == S_SELF and CODE[src][0] == 0):    # 0 = AT_FIGHTER
            d = CODE[src][1]
            return list(_SWF_OUT[d]) if F[d] >= 0 else []
        E = st.equip[p]
        out = []
        if sel == S_SELF:
            # an equipment moving itself: to every place another dojo has room for
            _, d, k = CODE[src]
            row = SWE[d][k]
            room = self._equip_room(st, F, E)
            for e in R3:
                if e != d:
                    out += row[e][:room[e]]
            return out
        fs = ()
        es = ()
        if sel in (S_OWN_F, S_OWN_FE):
            fs = [d for d in R3 if F[d] >= 0 and (not moved or F[d] not in moved)]
        if sel in (S_OWN_E, S_OWN_FE):
            es = []
            for d in R3:
                Ed = E[d]
                for k in range(len(Ed)):
                    if not moved or Ed[k] not in moved:
                        es.append((d, k))
        if sel in (S_SELF, S_HERE_F):
            kind, d, k = CODE[src]
            if kind == 0 or sel == S_HERE_F:
                fs = [d] if F[d] >= 0 else []
            else:
                es = [(d, k)]
        for d in fs:
            row = SWF[d]
            for e in R3:
                if e != d:
                    out.append(row[e])
        if es:
            room = self._equip_room(st, F, E)
            for d, k in es:
                row = SWE[d][k]
                for e in R3:
                    if e != d:
                        out += row[e][:room[e]]
        return out

    def _active(self, rnd):
        return self.active.get(min(rnd, self.last_table_round), [])

    def _level_available(self, st, lv) -> bool:
        if st.decks[lv]:
            return True
        info = st.box.info
        return any(info[c].level == lv for c in st.discard)

    def _cap(self, st, p, d) -> int:
        f = st.fighter[p][d]
        if f >= 0 and st.box.info[f].second_equip and not self._neutralized(st, p, d, f):
            return 2
        return 1
