"""Amfibido scenarios: scenario_state (a state from the setup mapping the package docstring
documents), parse_action and observe (a mixin)."""

from __future__ import annotations

import random

from .state import (
    DRAWN,
    FIELD,
    LEVELS,
    OVER,
    PENDING_NAMES,
    PHASE_NAMES,
    R3,
    RESULT_NAMES,
    AState,
    _shuffle,
)


class ScenarioMixin:
    """Scenario setups, actions and observations of AmfibidoEngine."""

    __slots__ = ()

    def table_setup(self, setup):
        """A scenario's setup by play_area zone, for the rulebook's [[example-table]]: player 0
        is the near seat; each dojo shows its fighter (its equipment and combo moves are not
        drawn), a dojo given as a mapping 1/2/3 in order."""
        out = {"discard": list(setup.get("discard") or ())}
        players = (list(setup.get("players") or ()) + [{}, {}])[:2]
        for seat, player in zip(("p0", "p1"), players, strict=True):
            dojos = player.get("dojos") or []
            if isinstance(dojos, dict):
                dojos = [dojos[k] for k in sorted(dojos)]
            out[seat] = {"dojos": [(d or {}).get("fighter") for d in dojos],
                         "hand": list(player.get("hand") or ()),
                         "knockout": list(player.get("knockout") or ()),
                         "sensei": [player["sensei"]] if player.get("sensei") else []}
        return out

    def scenario_state(self, setup: dict, rng: random.Random):
        setup = setup or {}
        counts = {c.name: c.copies for c in self.game.cards.values()}
        box = self._box(counts, "scenario")
        info = box.info
        pool: dict[str, list[int]] = {}
        for cid, ci in enumerate(info):
            pool.setdefault(ci.name, []).append(cid)

        def take(name):
            name = str(name)
            if name not in pool:
                raise ValueError(f"no card named {name!r}")
            if not pool[name]:
                raise ValueError(f"the box has no more copies of {name!r}")
            return pool[name].pop(0)

        st = AState()
        st.rng = rng
        st.box = box
        st.seq = [0] * box.n
        st.round = int(setup.get("round", 1))
        st.first = st.start = int(setup.get("starting", 0))
        st.turn = int(setup.get("turn", st.start))
        st.score = [int(x) for x in setup.get("scores", [0, 0])]
        st.passed = [bool(x) for x in setup.get("passed", [False, False])]
        variants = tuple(setup.get("variants") or ())
        rules = self._rules(variants)
        st.limit = rules["round_limit"]
        st.stays = rules["failed_transform_stays"]
        players = setup.get("players") or [{}, {}]
        for p, pl in enumerate(players):
            pl = pl or {}
            st.hand[p] = [take(n) for n in pl.get("hand") or []]
            st.ko[p] = [take(n) for n in pl.get("knockout") or []]
            st.ko_new[p] = [take(n) for n in pl.get("knockout_this_round") or []]
            st.aside[p] = [take(n) for n in pl.get("set_aside") or []]
            st.draft[p] = [take(n) for n in pl.get("draft") or []]
            if pl.get("sensei"):
                if "first-game" in variants:
                    raise ValueError("the first-game variant leaves the sensei in the box")
                st.sensei[p] = take(pl["sensei"])
            dojos = pl.get("dojos") or []
            if isinstance(dojos, dict):
                dojos = [dojos.get(d + 1) or dojos.get(str(d + 1)) or {} for d in R3]
            for d, dj in enumerate(dojos):
                dj = dj or {}
                if dj.get("fighter"):
                    st.fighter[p][d] = take(dj["fighter"])
                    st.nseq += 1
                    st.seq[st.fighter[p][d]] = st.nseq
                for n in dj.get("equipment") or []:
                    e = take(n)
                    st.equip[p][d].append(e)
                    st.nseq += 1
                    st.seq[e] = st.nseq
                st.combos[p][d] = [take(n) for n in dj.get("combos") or []]
            for n in pl.get("used") or []:
                cid = next((c for c in self._cards_in_play(st, p) if info[c].name == n), None)
                if cid is None:
                    raise ValueError(f"{n!r} is not in play for player {p}")
                st.used.append(cid)
        st.discard = [take(n) for n in setup.get("discard") or []]
        tops = setup.get("decks") or {}
        top = {lv: [take(n) for n in tops.get(lv) or tops.get(str(lv)) or []] for lv in LEVELS}
        left = {c for ids in pool.values() for c in ids}
        for lv in LEVELS:
            rest = [c for c in box.levels[lv] if c in left]
            _shuffle(rng, rest)
            st.decks[lv] = rest + top[lv][::-1]
        st.sdeck = [c for c in box.sensei if c in left]
        _shuffle(rng, st.sdeck)
        phase = setup.get("phase", "field")
        if phase == "draft":
            st.dstep = 0
            self._draft_flow(st)
        elif phase == "field":
            st.phase = FIELD
        else:
            raise ValueError(f"unknown scenario phase {phase!r} (field or draft)")
        return st

    @staticmethod
    def _last_round(st):
        if st.last is None:
            return None
        res, powers, rw, kod = st.last
        info = st.box.info
        return {
            "results": {f"p{p}": [RESULT_NAMES[r] for r in res[p]] for p in (0, 1)},
            "powers": {f"p{p}": list(powers[p]) for p in (0, 1)},
            "winner": rw if rw >= 0 else "draw",
            "knocked_out": {f"p{p}": sorted(info[c].name for c in kod[p]) for p in (0, 1)},
        }

    @staticmethod
    def _cards_in_play(st, p):
        out = [f for f in st.fighter[p] if f >= 0]
        for d in R3:
            out.extend(st.equip[p][d])
        if st.sensei[p] >= 0:
            out.append(st.sensei[p])
        return out

    def parse_action(self, state, spec):
        if isinstance(spec, str):
            return (spec.strip(),)
        if isinstance(spec, (list, tuple)):
            return tuple(spec)
        raise ValueError(f"an action is a list like [field, Tree Frog, 1] or a word, got {spec!r}")

    def observe(self, st) -> dict:
        info = st.box.info
        neut = self._neut(st)
        fight, home = self._board(st, neut)

        def names(ids):
            return sorted(info[c].name for c in ids)

        out = {
            "round": st.round,
            "phase": PHASE_NAMES[st.phase],
            "to_move": self.current_player(st),
            "starting": st.start,
            "first": st.first,
            "scores": list(st.score),
            "over": st.phase == OVER,
            "winner": (st.result if st.result >= 0 else "draw" if st.result == DRAWN else None),
            "passed": list(st.passed),
            "pending": PENDING_NAMES[st.pend[0][0]] if st.pend else None,
            "discard": names(st.discard),
            "resolving": names(st.resolving),
            "decks": {lv: len(st.decks[lv]) for lv in LEVELS},
            "deck_tops": {lv: (info[st.decks[lv][-1]].name if st.decks[lv] else None)
                          for lv in LEVELS},
            "last_round": self._last_round(st),
        }
        for p in (0, 1):
            o = 1 - p
            dojos = {}
            powers = []
            for d in R3:
                f = st.fighter[p][d]
                a = fight[p][d]
                pw = (self._power(st, p, d, a, home[p][d], fight[o][d], neut) if a >= 0 else None)
                powers.append(pw)
                cards = ([f] if f >= 0 else []) + st.equip[p][d]
                dojos[d + 1] = {
                    "fighter": info[f].name if f >= 0 else None,
                    "equipment": [info[e].name for e in st.equip[p][d]],
                    "combos": [info[c].name for c in st.combos[p][d]],
                    "fighting": info[a].name if a >= 0 else None,
                    "power": pw,
                    "knockout": (self._has_ko(st, p, d, a, home[p][d], neut) if a >= 0 else False),
                    "neutralized": names(c for c in cards if c in neut),
                }
            s = st.sensei[p]
            out[f"p{p}"] = {
                "hand": names(st.hand[p]),
                "hand_size": len(st.hand[p]),
                "knockout": names(st.ko[p] + st.ko_new[p]),
                "set_aside": names(st.aside[p]),
                "sensei": info[s].name if s >= 0 else None,
                "draft": names(st.draft[p]),
                "dojos": dojos,
                "powers": powers,
            }
        return out
