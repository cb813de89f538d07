"""A.D.A.P.T.: scenarios: a position from a scenario's setup, its actions, what it observes
(ScenariosMixin; the forms are documented in the package docstring)."""

from __future__ import annotations

import random

from cardgen.engines.base import action_words

from .constants import LOCATIONS, NO_CARD, NOBODY, PHASE_NAMES, SA_INDEX, SA_NAMES
from .state import AdaptState, new_state, shuffle


class ScenariosMixin:
    def table_setup(self, setup: dict) -> dict:
        """A scenario's setup by play_area zone, for the rulebook's [[example-table]]: Fish 0 is
        the near seat (its Body, a Guppy when none, then its parts), Fish 1 the far one."""
        guppies = [c.name for c in self.game.cards_of_type("guppy")]
        out: dict = {"stream": [n for n in setup.get("stream") or () if n],
                     "discard": list(setup.get("discard") or ())}
        fishes = list(setup.get("fish") or ()) + [{}, {}]
        for i, seat in enumerate(("p0", "p1")):
            fish = fishes[i] or {}
            body = fish.get("body") or guppies[i % len(guppies)]
            out[seat] = {"fish": [body, *(fish.get("parts") or ())], "pgp": list(fish.get("pgp") or ())}
        return out

    __slots__ = ()

    # -- scenarios --------------------------------------------------------------------------------
    def scenario_state(self, setup: dict, rng: random.Random) -> AdaptState:
        setup = dict(setup or {})
        players = int(setup.get("players", len(setup.get("fish") or []) or 2))
        variants = list(setup.get("variants") or [])
        cfg = self._config(players, variants, setup.get("seats"))
        types = []
        pool = {}
        for t in self._deck_types(None, variants, 2 if players >= 4 else 1):
            pool[t] = pool.get(t, 0) + 1

        def inst(name):
            if name not in self.index:
                raise ValueError(f"no body or part named {name!r}")
            t = self.index[name]
            types.append(t)
            if pool.get(t):
                pool[t] -= 1
            return len(types) - 1

        cfg.ct = types
        st = new_state(cfg, rng, self.guppy_s)
        fish_specs = list(setup.get("fish") or [])
        for p in range(players):
            spec = fish_specs[p] if p < len(fish_specs) else {}
            f = st.fish[p]
            for name in spec.get("under") or []:
                f.under.append(inst(name))
            if spec.get("body"):
                f.body = inst(spec["body"])
            for name in spec.get("parts") or []:
                c = inst(name)
                i = self.loc[types[c]]
                if i < 0:
                    raise ValueError(f"{name} is not a part")
                if f.parts[i] >= 0:
                    f.under.append(f.parts[i])
                f.parts[i] = c
            f.pgp = [inst(n) for n in spec.get("pgp") or []]
            f.dmg = f.peak = int(spec.get("damage", 0))
            f.poison = int(spec.get("poison", 0))
            f.stun = bool(spec.get("stunned", False))
            f.hide = int(spec.get("hiding", 0))
            f.jump = int(spec.get("jumping", 0))
            f.jlen = int(spec.get("jump_value", f.jump))
            f.splash = bool(spec.get("splash", False))
            b = spec.get("baited_by")
            f.bait = NOBODY if b is None else int(b)
            for k, v in (spec.get("cooldowns") or {}).items():
                f.cd[SA_INDEX[k]] = int(v)
            f.auto = int(spec.get("auto_adapted", 0))
            f.alive = bool(spec.get("alive", True))
            f.rare = True
            f.hold = None
            f.s = self._stats(types[f.body] if f.body >= 0 else NO_CARD,
                              tuple(types[c] if c >= 0 else NO_CARD for c in f.parts))
            f.own = False
            f.fragile = f.dmg > f.s.hp and f.alive
            if "exp" in spec:
                st.exp[cfg.team[p]] = int(spec["exp"])
        st.alive = sum(1 << p for p, f in enumerate(st.fish) if f.alive)
        st.air = sum(1 << p for p, f in enumerate(st.fish) if f.jump > 0)
        stream = list(setup.get("stream") or [])
        if len(stream) > cfg.slots:
            raise ValueError(f"the stream has {cfg.slots} slots, not {len(stream)}")
        st.stream = [inst(n) if n else NO_CARD for n in stream] + [NO_CARD] * (cfg.slots - len(stream))
        st.discard = [inst(n) for n in setup.get("discard") or []]
        if "deck" in setup:
            st.deck = [inst(n) for n in reversed(setup.get("deck") or [])]
        else:
            rest = [t for t, k in sorted(pool.items()) for _ in range(k)]
            shuffle(rng, rest)
            st.deck = [inst(self.names[t]) for t in rest]
        missing = [i for i, c in enumerate(st.stream) if c < 0 and i >= len(stream)]
        for i in sorted(missing, reverse=True):
            st.stream[i] = self._draw(st)
        self._finish_config(cfg)
        dice = setup.get("dice")
        if dice:
            st.forced = [int(x) for x in reversed(dice)]
        st.turn = int(setup.get("turn", 0))
        st.first = int(setup.get("first", st.turn))
        st.turnno = 1
        self._check_over(st)
        if st.over:
            return st
        if setup.get("phase") == "setup":
            self._opening_selection(st)
        elif setup.get("start"):
            st.turnno = 0
            self._end_turn(st, begin=st.turn)
        return st

    def parse_action(self, st, spec):
        parts = action_words(spec)
        verb = str(parts[0]).lower()
        if len(parts) == 1 and verb in ("wipe", "hide", "random", "pass", "end"):
            return (verb,)
        if len(parts) == 2:
            if verb == "adapt":
                if parts[1] not in self.index:
                    raise ValueError(f"no card named {parts[1]!r}")
                return ("adapt", str(parts[1]))
            if verb in ("buy", "choose", "attack", "ram", "bait", "jump", "school"):
                return (verb, int(parts[1]))
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, st) -> dict:
        cfg = st.cfg
        name = self._card_name
        fish = {}
        for p, f in enumerate(st.fish):
            s = f.s
            fish[p] = ({
                "seat": cfg.seats[p], "alive": f.alive,
                "body": name(st, f.body) if f.body >= 0 else "Guppy",
                "level": s.level,
                "parts": {LOCATIONS[i]: name(st, c) for i, c in enumerate(f.parts) if c >= 0},
                "pgp": [name(st, c) for c in f.pgp],
                "under": [name(st, c) for c in f.under],
                "exp": st.exp[cfg.team[p]], "damage": f.dmg, "health": s.hp,
                "ferocity": s.fer, "survival": s.surv, "lethality": s.leth, "die": s.die,
                "poison": f.poison, "stunned": f.stun, "hiding": f.hide, "jumping": f.jump,
                "splash": f.splash, "baited_by": None if f.bait < 0 else f.bait,
                "cooldowns": {SA_NAMES[i]: v for i, v in enumerate(f.cd) if v},
                "auto_adapted": f.auto, "fragile": f.fragile, "abilities": self._abilities(s),
            })
        last = None
        if st.last is not None:
            a, q, ram, result, nat, total, surv, dmg, counter, gained, crit = st.last
            last = {"attacker": a, "target": q, "kind": "ram" if ram else "attack",
                    "result": result, "roll": nat, "total": total, "survival": surv,
                    "damage": dmg, "counter": counter, "exp_gained": gained, "critical": crit}
        return {
            "turn": st.turn, "current": self.current_player(st),
            "phase": "over" if st.over else PHASE_NAMES[st.phase],
            "over": st.over, "winner": st.win if st.over else None, "first": st.first,
            "stream": [name(st, c) for c in st.stream],
            "deck": len(st.deck), "discard": len(st.discard), "slots": cfg.slots,
            "exp_per_turn": cfg.turn_exp, "wipe_bonus": cfg.wipe_bonus,
            "opening_rolls": list(st.rolls),
            "last_attack": last,
            "selections": [{"fish": p, "roll": r, "result": res,
                            "card": name(st, c) if c >= 0 else None, "outcome": out}
                           for p, r, res, c, out in st.rslog],
            "fish": fish,
        }
