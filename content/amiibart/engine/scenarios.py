"""Scenarios: a position set up from YAML (scenario_state), an action from its YAML form
(parse_action) and the state in the words of scenarios (observe); the forms are in the package's
docstring."""

from __future__ import annotations

from .grammar import KW_BITS
from .state import (
    A_ATTACK,
    A_CAST,
    A_CHOOSE,
    A_PLAY,
    A_POWER,
    A_STAGE,
    END,
    O_DISC,
    O_DONE,
    O_FORGE,
    O_HAZ,
    SIDE,
    SLOTS,
    VARIANT_BITS,
)
from .tables import _ALL_POSITIONS
from .zones import _changed


class ScenariosMixin:
    """Scenario positions, actions and observations (AmiibartEngine)."""

    def table_setup(self, setup):
        """A scenario's setup by play_area zone, for the rulebook's [[example-table]]: A is the
        near seat; slots in order (a gap is closed up), a hand's counts as that many cards."""
        def names(value):
            if isinstance(value, dict):
                return [n for n, k in value.items() for _ in range(k if isinstance(k, int) else 1)]
            return [value] if isinstance(value, str) else list(value or ())

        out = {}
        for seat, side in (("p0", setup.get("A") or {}), ("p1", setup.get("B") or {})):
            slots = side.get("slots") or {}
            fighters = [v.get("card") if isinstance(v, dict) else v for _, v in sorted(slots.items())]
            out[seat] = {"slots": fighters, "hazards": names(side.get("hazards")),
                         "powers": names(side.get("powers")), "stage": names(side.get("stage")),
                         "hand": names(side.get("hand")), "discard": names(side.get("discard"))}
        return out

    def scenario_state(self, setup, rng):
        s = self._blank(rng)
        s.p = []
        cur = SIDE.index(setup.get("turn", "A"))
        names = list(setup.get("variants") or ())
        self.check_match_options(variants=tuple(names))
        vr = 0
        for name in names:
            vr |= VARIANT_BITS[name]
        for idx, side in enumerate(SIDE):
            spec = setup.get(side) or {}
            pl = self._new_player(dict(spec.get("hand") or {}), spec.get("powers") or [])
            pl.vr = vr
            s.p.append(pl)
            pl.turns = 1 if (setup.get("turn_one") and idx == cur) else 2
            pl.on = True
            for slot, fs in (spec.get("slots") or {}).items():
                if isinstance(fs, str):
                    fs = {"card": fs}
                f = self._enter(s, idx, pl, self.ids[fs["card"]], int(slot) - 1)
                f.fresh = bool(fs.get("fresh", False))
                f.done = bool(fs.get("attacked", False))
                if "attack" in fs:
                    f.atk = int(fs["attack"])
                if "max_health" in fs:
                    f.maxhp = int(fs["max_health"])
                if "health" in fs:
                    f.hp = int(fs["health"])
                for k in fs.get("keywords") or []:
                    f.kw |= KW_BITS[k]
                f.poison = int(fs.get("poison", 0))
                f.bound = bool(fs.get("bound", False))
                f.stun = bool(fs.get("stunned", False))
            _changed(pl)            # (the fighters were changed after they entered)
            pl.hazards = [self.ids[h] for h in spec.get("hazards") or []]
            if spec.get("stage"):
                pl.stage = self.ids[spec["stage"]]
            for d in spec.get("discard") or []:
                self._to_discard(pl, self.ids[d])
            pl.tokens = int(spec.get("death_tokens", 0))
            pl.stall = int(spec.get("stall", 0))
            pl.played = int(spec.get("played", 0))
            pl.empty = bool(spec.get("empty_start", False))
            used = spec.get("power_used", False)     # true (every Power) or a list of Powers
            if used is True:
                pl.used = (1 << len(pl.powers)) - 1
            else:
                pl.used = sum(1 << pl.powers.index(self.ids[n]) for n in used or ())
            pl.pa = tuple(x for x in pl.apw if not pl.used >> x[0] & 1)
            owned = [c for c in pl.deck if pl.hand[c]]
            owned += [f.card for f in pl.slots if f is not None and not f.token]
            owned += pl.hazards + pl.discard + pl.void + ([pl.stage] if pl.stage >= 0 else [])
            pl.deck = tuple(sorted(set(owned)))
            self._hand_bits(pl)
            inplay = pl.deck + tuple(f.card for f in pl.slots if f is not None)
            pl.lsup = self._listen_sup(inplay, pl.powers)
            pl.nm = self._closure(inplay + pl.powers)
            pl.nh = sum(pl.hand)
            pl.dd = any(c in self.disc_cards for c in pl.deck + pl.powers)
            pl.total = (sum(pl.hand) + sum(1 for f in pl.slots if f is not None and not f.token)
                        + len(pl.hazards) + (pl.stage >= 0) + len(pl.discard) + len(pl.void))
        s.cur = s.first = cur
        s.turn = 2
        s.turn_one = s.p[cur].turns == 1
        for i, pl in enumerate(s.p):
            pl.energy = int(setup.get("energy", self.energy_per_turn)) if i == cur else 0
        s.dead = _ALL_POSITIONS        # any fighter set up may be dead
        self._finish_lsup(s)
        self._run(s)
        return s

    def parse_action(self, s, spec):
        if spec == "end":
            return END
        if not isinstance(spec, dict):
            raise ValueError(f"unknown action {spec!r}")
        me = self.current_player(s)
        if "play" in spec:
            return (A_PLAY, self.ids[spec["play"]], int(spec["slot"]) - 1)
        if "cast" in spec:
            c = self.ids[spec["cast"]]
            return (A_CAST, c, _pos(spec.get("target")), _pos(spec.get("target2")))
        if "stage" in spec:
            return (A_STAGE, self.ids[spec["stage"]])
        if "power" in spec:
            c = self.ids[spec["power"]]
            return (A_POWER, s.p[me].powers.index(c), _pos(spec.get("target")), _pos(spec.get("target2")))
        if "attack" in spec:
            a = _pos(spec["attack"])
            f = s.p[a // SLOTS].slots[a % SLOTS]
            how = spec.get("with", "basic")
            ai = 0
            if how != "basic":
                names = [x.name for x in self.ci[f.card].attacks]
                ai = names.index(how) + 1
            t = _pos(spec.get("target"))
            return (A_ATTACK, a % SLOTS, ai, t % SLOTS if t >= 0 else -1)
        if "choose" in spec:
            v = str(spec["choose"])
            if v == "done":
                return (A_CHOOSE, O_DONE)
            if v.startswith("forge "):
                return (A_CHOOSE, O_FORGE + int(v.split()[1]) - 1)
            if len(v) == 2 and v[0] in SIDE and v[1].isdigit():
                return (A_CHOOSE, _pos(v))
            c = self.ids[v]
            opts = s.pending[1] if s.pending else ()
            return (A_CHOOSE, O_HAZ + c) if O_HAZ + c in opts else (A_CHOOSE, O_DISC + c)
        raise ValueError(f"unknown action {spec!r}")

    def observe(self, s):
        out = {"turn": None if s.over else SIDE[s.cur], "over": s.over,
               "winner": SIDE[s.win] if s.win is not None else None, "reason": s.reason,
               "pending": None if s.pending is None else {
                   "player": SIDE[s.pending[0]],
                   "options": [self._option_name(o) for o in s.pending[1]]}}
        for i, pl in enumerate(s.p):
            slots = {}
            for j, f in enumerate(pl.slots):
                slots[j + 1] = None if f is None else {
                    "name": self.names[f.card], "attack": self._atk(pl, f), "health": f.hp,
                    "max_health": f.maxhp,
                    "keywords": sorted(k for k, b in KW_BITS.items() if self._kw(pl, f) & b),
                    "token": f.token, "bound": f.bound, "fresh": f.fresh, "attacked": f.done,
                    "ward": f.ward, "poison": f.poison, "stunned": f.stun or f.noatk}
            out[SIDE[i]] = {
                "death_tokens": pl.tokens, "energy": pl.energy,
                "hand": {self.names[c]: pl.hand[c] for c in pl.deck if pl.hand[c]},
                "discard": [self.names[c] for c in pl.discard],
                "void": [self.names[c] for c in pl.void],
                "hazards": [self.names[c] for c in pl.hazards],
                "stage": self.names[pl.stage] if pl.stage >= 0 else None,
                "stall": pl.stall, "powers": [self.names[c] for c in pl.powers],
                "powers_used": [self.names[c] for i, c in enumerate(pl.powers) if pl.used >> i & 1],
                "slots": slots}
        return out


def _pos(v):
    if v is None:
        return -1
    v = str(v)
    return SIDE.index(v[0]) * SLOTS + int(v[1:]) - 1
