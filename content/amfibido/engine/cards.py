"""Amfibido card tables: the engine's __init__ (game.yaml tables, the card text compiled by the
grammar, precomputed actions and choosers per card) and unsupported_cards (a mixin)."""

from __future__ import annotations

from operator import attrgetter

from .grammar import (
    ACTION,
    C_DISCARD,
    C_HAND_TO_KO,
    C_RETIRE_SELF,
    EQUIP,
    FIGHTER,
    SENSEI,
    TYPE_IDS,
    CardInfo,
    Grammar,
)
from .legal import Chooser
from .state import (
    AB_HEAD,
    DEFAULT_ACTIVE,
    DOJO_BOUND,
    EC,
    FC,
    K_ACTION,
    K_COMBO,
    K_EQUIP,
    K_FIGHTER,
    K_NONE,
    R3,
    NoSensei,
)


class CardsMixin:
    """Builds the per-card tables every other part of the engine reads."""

    __slots__ = ()

    def __init__(self, game):
        super().__init__(game)
        tables = game.tables or {}
        self.wins_needed = int(tables.get("wins_needed", 4))
        draft = tables.get("draft") or {}
        raw = draft.get("active_levels") or DEFAULT_ACTIVE
        self.active = {int(k): [int(x) for x in v] for k, v in raw.items()}
        self.last_table_round = max(self.active)
        # the last round of the round-limit house variant (the published game has none)
        self.round_limit = int(tables.get("round_limit", 12))
        self.deal = int(draft.get("deal", 3))
        self.plans = {}
        for r, levels in self.active.items():
            order = sorted(set(levels), reverse=True)
            plan = [order[i % len(order)] for i in range(self.deal)] if order else []
            fallback = {lv: [x for x in sorted(levels, key=lambda x, lv=lv: (abs(x - lv), x))
                             if x != lv] for lv in levels}
            self.plans[r] = (plan, fallback)
        creatures = list(tables.get("creatures") or [])
        for card in game.cards.values():
            c = card.get("creature")
            if c and c not in creatures:
                creatures.append(c)
        self.creatures = creatures
        self.grammar = Grammar(creatures)
        self.no_sensei = NoSensei(len(creatures))
        self._unsupported: dict[str, str] = {}
        self.infos: list[CardInfo] = []
        self.by_name: dict[str, CardInfo] = {}
        for card in game.cards.values():
            info = self._compile(card)
            self.infos.append(info)
            self.by_name[card.name] = info
        # Precomputed action tuples, by card index.
        self.d_of = {i.name: i.d for i in self.infos}
        self.A_pick = [("pick", i.name) for i in self.infos]
        self.A_sensei = [("sensei", i.name) for i in self.infos]
        self.A_field = [[("field", i.name, d + 1) for d in R3] for i in self.infos]
        self.A_equip = [[("equip", i.name, d + 1) for d in R3] for i in self.infos]
        self.A_equip_r = [[[("equip", i.name, d + 1, EC[d][k]) for k in (0, 1)] for d in R3]
                          for i in self.infos]
        self.A_combo = [[("combo", i.name, d + 1) for d in R3] for i in self.infos]
        self.A_choose_name = [("choose", i.name) for i in self.infos]
        self.A_play = [("play", i.name) for i in self.infos]
        # Per card index: what kind of hand card it is (as Box.kind) and its first effect step.
        self.kind_d = [K_FIGHTER if i.type == FIGHTER else K_EQUIP if i.type == EQUIP
                       else K_COMBO if i.combo else K_ACTION if i.steps else K_NONE
                       for i in self.infos]
        self.step0 = [i.steps[0] if i.steps else None for i in self.infos]
        # combo actions by the dojos whose fighter takes combo moves (bit d = dojo d + 1)
        self.A_combo_to = [[tuple(self.A_combo[i.d][d] for d in R3 if bits >> d & 1)
                            for bits in range(8)] for i in self.infos]
        # an action ability whose cost takes a card from the hand needs a hand
        self.cost_from_hand = [i.cost in (C_DISCARD, C_HAND_TO_KO) for i in self.infos]
        # The choosers of field-phase actions whose effect picks a target (see _chosen_actions):
        # per card, its "play" action, and its action ability from each place it can be in.
        self.play_chooser = [Chooser(self.A_play[i.d], i.steps[0], None) if i.steps else None
                             for i in self.infos]
        self.ability_chooser = [
            {src: Chooser(AB_HEAD[src], i.ab_steps[0], src)
             for src in (FC if i.type == FIGHTER else (c for pair in EC for c in pair)
                         if i.type == EQUIP else ("S",))} if i.ab_steps else None
            for i in self.infos]
        self.pw_extra = [bool(i.hand_fighter or i.per_other_n or i.if_other_n or i.if_behind
                              or i.if_equipped) for i in self.infos]
        self._boxes: dict = {}
        # the simulator calls is_over once per action: read the state's flag without a Python call
        self.is_over = attrgetter("over")
        self._box_last: dict = {}

    # -- card text ------------------------------------------------------------------------------
    def _compile(self, card) -> CardInfo:
        g = self.grammar
        ctype = TYPE_IDS.get(card.type, -1)
        info = CardInfo(len(self.infos), card.name, ctype, len(self.creatures))
        f = card.fields
        info.level = int(f.get("level") or 0)
        info.power = int(f.get("power") or 0)
        cr = f.get("creature")
        info.creature = g.cr_index.get(cr, -1) if cr else -1
        info.weapon = bool(f.get("weapon"))
        info.combo = bool(f.get("combo"))
        info.bonus = int(f.get("bonus") or 0)
        info.boom = bool(f.get("boomerang"))
        problems = []
        if ctype < 0:
            problems.append(f"card type {card.type!r} has no rule")
        if ctype == FIGHTER and info.creature < 0:
            problems.append("a fighter needs a creature type")
        if ctype != SENSEI and not 1 <= info.level <= 5:
            problems.append("a card needs a level from I to V")
        text = f.get("text") or ""
        if ctype == ACTION and not info.combo:
            steps, bad = g.parse_effects(text)
            info.steps = tuple(steps)
            if not steps and not bad:
                problems.append("an action that is not a combo move needs an effect")
        else:
            bad = g.parse_static(info, text)
        problems += [f"no rule reads {s!r}" for s in bad]
        ability = f.get("action_ability")
        if ability:
            cost = g.parse_cost(ability.get("cost", ""))
            if cost is None:
                problems.append(f"no rule pays the cost {ability.get('cost')!r}")
            else:
                info.cost = cost
            if cost == C_RETIRE_SELF and ctype != EQUIP:
                problems.append("only equipment can retire itself as a cost")
            steps, bad = g.parse_effects(ability.get("text", ""))
            problems += [f"no rule reads {s!r}" for s in bad]
            if not steps and not bad:
                problems.append("an action ability needs an effect")
            info.ab_steps = tuple(steps)
        if ctype == SENSEI and any(s.sel in DOJO_BOUND for s in info.ab_steps):
            problems.append("a sensei is in no dojo: 'this', 'here' and 'the opposing' mean "
                            "nothing on it")
            info.ab_steps = ()
        if any(s.sel in DOJO_BOUND for s in info.steps):
            problems.append("an action card is in no dojo: 'this', 'here' and 'the opposing' "
                            "mean nothing on it")
            info.steps = ()
        if info.boom and not info.combo:
            problems.append("only combo moves can be boomerang")
        if problems:
            self._unsupported[card.name] = "; ".join(problems)
        if ctype == FIGHTER:
            info.value = info.power + info.level
        elif ctype == EQUIP:
            info.value = info.power + 1
        elif info.combo:
            info.value = info.bonus + 1
        else:
            info.value = info.level + 2
        return info

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self._unsupported)
