"""Amfibido card text -> effect data: a small grammar of regexes, compiled once per game.

Every sentence of a card's `text` and of its action ability must match one pattern here; a
sentence that matches none makes the card unsupported (the simulator reports it). Cards written
in the same vocabulary (new creature types included, as long as game.yaml lists them) just work.

Sentences are matched lower-case, with `{power}` read as "power" and the final period dropped.
"""

from __future__ import annotations

import re

FIGHTER, EQUIP, ACTION, SENSEI = 0, 1, 2, 3
TYPE_IDS = {"fighter": FIGHTER, "equipment": EQUIP, "action": ACTION, "sensei": SENSEI}
TYPE_NAMES = ("fighter", "equipment", "action", "sensei")

# Knockout kinds of a fighter's own text.
KO_NONE, KO_ALWAYS, KO_COMBO, KO_OTHER = 0, 1, 2, 3

# Effect verbs.
V_TRANSFORM, V_SWITCH, V_NEUT, V_KO, V_PLUS, V_RETIRE, V_TOHAND, V_DRAW, V_KORET = range(9)
VERB_NAMES = ("transform", "switcheroo", "neutralize", "gain knockout", "gain power", "retire",
              "return to hand", "draw", "return from knockout pile")

# Selectors: what an effect acts on.
(S_OWN_F, S_OWN_E, S_OWN_FE, S_SELF, S_HERE_F, S_OPP_F, S_OPP_E, S_OPP_FE, S_OPP_FDOJO,
 S_OPP_ALL, S_FACE_F, S_FACE_E, S_FACE_FE, S_ALL_F, S_KO_CARD, S_KO_FIGHTER, S_KO_ALL,
 S_LEVEL) = range(18)
ANY = 99            # "any number of"

# Costs of action abilities.
C_NONE, C_DISCARD, C_RETIRE_SELF, C_HAND_TO_KO = range(4)


class Step:
    """One effect of an action card or action ability: verb, what it picks, how many times."""

    __slots__ = ("verb", "sel", "count", "n")

    def __init__(self, verb, sel, count=1, n=0):
        self.verb, self.sel, self.count, self.n = verb, sel, count, n

    def __repr__(self):
        return f"Step({VERB_NAMES[self.verb]}, sel={self.sel}, count={self.count}, n={self.n})"


class CardInfo:
    """Everything the engine needs about one card (shared by its copies). Ints and bools only,
    plus `steps` (action effects) and `ab_steps` (the action ability's effects)."""

    __slots__ = (
        "d", "name", "type", "level", "power", "creature", "weapon", "combo", "bonus", "boom",
        "value",
        # fighter text
        "combo_extra", "hand_fighter", "weapon_extra", "ko", "ko_cr", "eor_retire",
        "per_other_cr", "per_other_n", "opp_minus", "enter_discard", "if_other_cr", "if_other_n",
        "if_behind", "if_equipped", "neut_f", "neut_e", "second_equip", "no_combo", "no_ko",
        "stay_if_lost", "komodo",
        # equipment text (cond_* also serves combo moves: "+2 more power if the fighter is ...")
        "boots", "belt_cr", "belt_n", "protect", "grant_ko", "eor_transform", "cond_crs",
        "cond_n", "jade",
        # sensei text (per creature index)
        "s_plus", "s_combo", "s_weapon", "s_per_other", "s_shell", "draw_start",
        # action effects and the action ability
        "steps", "cost", "ab_steps",
    )

    def __init__(self, d, name, ctype, ncreatures):
        self.d, self.name, self.type = d, name, ctype
        self.level = self.power = self.bonus = self.value = 0
        self.creature = -1
        self.weapon = self.combo = self.boom = False
        self.combo_extra = self.hand_fighter = self.weapon_extra = 0
        self.ko, self.ko_cr = KO_NONE, -1
        self.eor_retire = False
        self.per_other_cr, self.per_other_n = -1, 0
        self.opp_minus = self.enter_discard = 0
        self.if_other_cr, self.if_other_n = -1, 0
        self.if_behind = self.if_equipped = 0
        self.neut_f = self.neut_e = False
        self.second_equip = self.no_combo = self.no_ko = self.stay_if_lost = self.komodo = False
        self.boots = self.protect = self.grant_ko = self.eor_transform = self.jade = False
        self.belt_cr, self.belt_n = -1, 0
        self.cond_crs, self.cond_n = (), 0
        self.s_plus = [0] * ncreatures
        self.s_combo = [0] * ncreatures
        self.s_weapon = [0] * ncreatures
        self.s_per_other = [0] * ncreatures
        self.s_shell = [False] * ncreatures
        self.draw_start = False
        self.steps = ()
        self.cost = C_NONE
        self.ab_steps = ()

    @property
    def neut_any(self):
        return self.neut_f or self.neut_e


_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3}


def sentences(text: str) -> list[str]:
    text = (text or "").replace("{power}", "power").strip().lower()
    parts = re.split(r"(?<=\.)\s+", text)
    return [p.strip().rstrip(".").strip() for p in parts if p.strip().rstrip(".").strip()]


class Grammar:
    """The patterns, bound to the game's creature names."""

    def __init__(self, creatures: list[str]):
        self.creatures = list(creatures)
        self.cr_index = {c: i for i, c in enumerate(creatures)}
        cr = "(" + "|".join(re.escape(c) for c in creatures) + ")"
        n = r"\+(\d+)"
        # Static sentences of fighters, equipment and sensei: (regex, handler(info, match)).
        self.static = [(re.compile("^" + rx + "$"), fn) for rx, fn in [
            (rf"each combo move on this gives {n} more power", self._combo_extra),
            (rf"if the fighter here is an? {cr}, each combo move on it gives {n} more power",
             self._belt_creature),
            (rf"each combo move on the fighter here gives {n} more power", self._belt_any),
            (rf"each combo move on your {cr}s gives {n} more power", self._s_combo),
            (rf"{n} power for each fighter in your hand", self._hand_fighter),
            (rf"weapons here give {n} more power", self._weapon_extra),
            (rf"weapons give your {cr}s {n} more power", self._s_weapon),
            (r"knockout", self._ko_always),
            (r"knockout while it has a combo move", self._ko_combo),
            (rf"knockout while you have another {cr} in a dojo", self._ko_other),
            (r"the fighter here has knockout", self._grant_ko),
            (r"end of round: if this won its fight, retire it", self._eor_retire),
            (r"end of round: if this lost its fight, it stays in its dojo", self._stay_if_lost),
            (r"end of round: if the fighter here won its fight, you may return it to your hand",
             self._boots),
            (r"end of round: if the fighter here won its fight, transform it", self._eor_transform),
            (rf"{n} power for each other {cr} in your dojos", self._per_other),
            (rf"your {cr}s get {n} power for each other {cr} in your dojos", self._s_per_other),
            (r"the opposing fighter gets -(\d+) power", self._opp_minus),
            (r"when this enters a dojo: discard (a card|one card|two cards|three cards)",
             self._enter_discard),
            (rf"{n} power if you have another {cr} in a dojo", self._if_other),
            (rf"{n} power if you have fewer round wins than your opponent", self._if_behind),
            (rf"{n} power if it has equipment", self._if_equipped),
            (r"neutralize the opposing (fighter|equipment|fighter and the opposing equipment)",
             self._neutralize),
            (r"this dojo may hold a second equipment", self._second_equip),
            (r"combo moves can't be played on this", self._no_combo),
            (r"this can't be knocked out", self._no_ko),
            (r"the fighter here can't be knocked out", self._protect),
            (r"this also fights in each of your dojos that has no fighter", self._komodo),
            (r"the fighter here and this equipment can't be neutralized", self._jade),
            (rf"{n} more power if the fighter(?: here)? is an? {cr}(?: or an? {cr})?", self._cond),
            (rf"your {cr}s get {n} power", self._s_plus),
            (rf"if an ability would retire one of your {cr}s at the end of the round, "
             r"return it to your hand instead", self._s_shell),
            (r"when a round ends in a draw, you are the starting player of the next round",
             self._draw_start),
        ]]
        sel = {
            "one of your fighters or equipment": (S_OWN_FE, 1),
            "up to two of your fighters or equipment": (S_OWN_FE, 2),
            "any number of your fighters and equipment": (S_OWN_FE, ANY),
            "one of your fighters": (S_OWN_F, 1),
            "up to two of your fighters": (S_OWN_F, 2),
            "one of your equipment": (S_OWN_E, 1),
            "this fighter": (S_SELF, 1),
            "this equipment": (S_SELF, 1),
            "the fighter here": (S_HERE_F, 1),
            "an opposing fighter": (S_OPP_F, 1),
            "an opposing equipment": (S_OPP_E, 1),
            "an opposing fighter or equipment": (S_OPP_FE, 1),
            "an opposing fighter and the equipment in its dojo": (S_OPP_FDOJO, 1),
            "all opposing fighters and equipment": (S_OPP_ALL, 1),
            "the opposing fighter": (S_FACE_F, 1),
            "the opposing equipment": (S_FACE_E, 1),
            "the opposing fighter and equipment": (S_FACE_FE, 1),
            "the opposing fighter and the opposing equipment": (S_FACE_FE, 1),
            "each of your fighters": (S_ALL_F, 1),
        }
        self.selectors = sel
        alt = "(" + "|".join(re.escape(k) for k in sorted(sel, key=len, reverse=True)) + ")"
        # Which selectors each verb accepts.
        own_cards = {S_OWN_F, S_OWN_E, S_OWN_FE, S_SELF, S_HERE_F}
        self.effects = [
            (re.compile(rf"^transform {alt}$"), V_TRANSFORM, own_cards - {S_SELF, S_HERE_F}),
            (re.compile(rf"^switcheroo {alt}(?:, one after the other)?$"), V_SWITCH, own_cards),
            (re.compile(rf"^neutralize {alt}(?: this round)?$"), V_NEUT,
             {S_OPP_F, S_OPP_E, S_OPP_FE, S_OPP_FDOJO, S_OPP_ALL, S_FACE_F, S_FACE_E, S_FACE_FE}),
            (re.compile(rf"^{alt} gains? knockout this round$"), V_KO, {S_OWN_F, S_HERE_F, S_ALL_F}),
            (re.compile(rf"^{alt} gets? \+(\d+) power this round$"), V_PLUS, {S_OWN_F, S_HERE_F}),
            (re.compile(rf"^retire {alt}$"), V_RETIRE, {S_OPP_E, S_FACE_E}),
            (re.compile(rf"^return {alt} to your hand$"), V_TOHAND, {S_OWN_F}),
        ]
        self.fixed_effects = {
            "draw a card from an active deck": Step(V_DRAW, S_LEVEL),
            "return a card from your knockout pile to your hand": Step(V_KORET, S_KO_CARD),
            "return a fighter from your knockout pile to your hand": Step(V_KORET, S_KO_FIGHTER),
            "return every card in your knockout pile to your hand": Step(V_KORET, S_KO_ALL),
        }
        self.costs = {
            "discard a card": C_DISCARD,
            "retire this equipment": C_RETIRE_SELF,
            "put a card from your hand in your knockout pile": C_HAND_TO_KO,
        }

    # -- static handlers ------------------------------------------------------------------------
    def _cr(self, name):
        return self.cr_index[name]

    def _combo_extra(self, i, m):
        i.combo_extra += int(m.group(1))

    def _belt_creature(self, i, m):
        i.belt_cr, i.belt_n = self._cr(m.group(1)), int(m.group(2))

    def _belt_any(self, i, m):
        i.belt_cr, i.belt_n = -1, int(m.group(1))

    def _s_combo(self, i, m):
        i.s_combo[self._cr(m.group(1))] += int(m.group(2))

    def _hand_fighter(self, i, m):
        i.hand_fighter += int(m.group(1))

    def _weapon_extra(self, i, m):
        i.weapon_extra += int(m.group(1))

    def _s_weapon(self, i, m):
        i.s_weapon[self._cr(m.group(1))] += int(m.group(2))

    def _ko_always(self, i, m):
        i.ko = KO_ALWAYS

    def _ko_combo(self, i, m):
        if i.ko != KO_ALWAYS:
            i.ko = KO_COMBO

    def _ko_other(self, i, m):
        if i.ko != KO_ALWAYS:
            i.ko, i.ko_cr = KO_OTHER, self._cr(m.group(1))

    def _grant_ko(self, i, m):
        i.grant_ko = True

    def _eor_retire(self, i, m):
        i.eor_retire = True

    def _stay_if_lost(self, i, m):
        i.stay_if_lost = True

    def _boots(self, i, m):
        i.boots = True

    def _eor_transform(self, i, m):
        i.eor_transform = True

    def _per_other(self, i, m):
        i.per_other_n, i.per_other_cr = int(m.group(1)), self._cr(m.group(2))

    def _s_per_other(self, i, m):
        a, b = self._cr(m.group(1)), self._cr(m.group(3))
        if a != b:
            raise ValueError("only the same creature type is supported")
        i.s_per_other[a] += int(m.group(2))

    def _opp_minus(self, i, m):
        i.opp_minus += int(m.group(1))

    def _enter_discard(self, i, m):
        i.enter_discard = _NUMBERS[m.group(1).split()[0]]

    def _if_other(self, i, m):
        i.if_other_n, i.if_other_cr = int(m.group(1)), self._cr(m.group(2))

    def _if_behind(self, i, m):
        i.if_behind += int(m.group(1))

    def _if_equipped(self, i, m):
        i.if_equipped += int(m.group(1))

    def _neutralize(self, i, m):
        what = m.group(1)
        i.neut_f = i.neut_f or what.startswith("fighter")
        i.neut_e = i.neut_e or what.endswith("equipment")

    def _second_equip(self, i, m):
        i.second_equip = True

    def _no_combo(self, i, m):
        i.no_combo = True

    def _no_ko(self, i, m):
        i.no_ko = True

    def _protect(self, i, m):
        i.protect = True

    def _komodo(self, i, m):
        i.komodo = True

    def _jade(self, i, m):
        i.jade = True

    def _cond(self, i, m):
        crs = [self._cr(g) for g in m.groups()[1:] if g]
        i.cond_n, i.cond_crs = int(m.group(1)), tuple(crs)

    def _s_plus(self, i, m):
        i.s_plus[self._cr(m.group(1))] += int(m.group(2))

    def _s_shell(self, i, m):
        i.s_shell[self._cr(m.group(1))] = True

    def _draw_start(self, i, m):
        i.draw_start = True

    # -- parsing --------------------------------------------------------------------------------
    def parse_static(self, info: CardInfo, text: str) -> list[str]:
        """Apply every sentence of a static text; returns the sentences no pattern matched."""
        bad = []
        for s in sentences(text):
            for rx, fn in self.static:
                m = rx.match(s)
                if m:
                    try:
                        fn(info, m)
                    except (ValueError, KeyError):
                        bad.append(s)
                    break
            else:
                bad.append(s)
        return bad

    def parse_effects(self, text: str) -> tuple[list[Step], list[str]]:
        """An action's (or action ability's) effects, in order; and the sentences not understood."""
        steps, bad = [], []
        for s in sentences(text):
            for part in re.split(r", then ", s):
                step = self._effect(part.strip())
                if step is None:
                    bad.append(part)
                else:
                    steps.append(step)
        return steps, bad

    def _effect(self, s: str) -> Step | None:
        if s in self.fixed_effects:
            f = self.fixed_effects[s]
            return Step(f.verb, f.sel, f.count, f.n)
        for rx, verb, allowed in self.effects:
            m = rx.match(s)
            if not m:
                continue
            sel, count = self.selectors[m.group(1)]
            if sel not in allowed:
                return None
            n = int(m.group(2)) if verb == V_PLUS else 0
            return Step(verb, sel, count, n)
        return None

    def parse_cost(self, text: str) -> int | None:
        return self.costs.get((text or "").strip().lower().rstrip("."))
