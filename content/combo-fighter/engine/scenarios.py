"""Combo Fighter's scenarios: the state a scenario's setup describes, its actions in words
(`parse_action`) and what `expect:` is compared against (`observe`); the package docstring
documents the forms."""

from __future__ import annotations

import random
from collections import Counter

from cardgen.engines.base import action_words

from .state import (
    COMBO,
    FORESEE,
    OVER,
    PHASE_NAMES,
    REACT,
    RECOVER,
    SIDE_LETTERS,
    TIE,
    TWO_VS_TWO,
    CFState,
    Fighter,
)


class ScenariosMixin:
    __slots__ = ()

    def scenario_state(self, setup: dict, rng: random.Random) -> CFState:
        setup = setup or {}
        unknown = set(setup) - {"solo", "wins", "fights", "p0", "p1", "round", "variants"}
        if unknown:
            raise ValueError(f"unknown setup keys {sorted(unknown)}")
        variants = list(setup.get("variants") or ())
        formats = [v for v in variants if v in ("2v2", "tournament")]
        if formats:
            raise ValueError(f"{formats[0]} is a match format: a scenario is one fight between two "
                             "fighters (2v2 and tournament scenarios are not supported)")
        s = CFState()
        s.rng = rng
        solo = setup.get("solo")
        if solo is None and "solo" in variants:
            solo = 1                    # the AI in seat 1 unless the setup says otherwise
        defaults = ("Amaya Sol", "Oskar Brannvik")
        for seat in (0, 1):
            spec = dict(setup.get(f"p{seat}") or {})
            bad = set(spec) - {"character", "hand", "deck", "discard", "aside", "side",
                               "staggering", "fill"}
            if bad:
                raise ValueError(f"p{seat}: unknown setup keys {sorted(bad)}")
            ch = self.chars[spec.get("character", defaults[seat])]
            zones = {}
            for key in ("hand", "deck", "discard", "aside"):
                try:
                    zones[key] = [self.kind[n] for n in spec.get(key) or []]
                except KeyError as err:
                    raise ValueError(f"p{seat}: no action card named {err.args[0]!r}") from None
            if spec.get("fill") and "aside" not in spec:
                zones["aside"] = list(ch.starts_aside)
            listed = zones["hand"] + zones["deck"] + zones["discard"] + zones["aside"]
            deck = zones["deck"]
            if spec.get("fill"):
                rest = Counter({self.kind[n]: k for n, k in ch.deck.items()})
                rest.subtract(Counter(listed))
                extra = [c for c, k in rest.items() for _ in range(max(k, 0))]
                deck = deck + extra
                listed = listed + extra
            f = Fighter()
            f.ch = ch
            f.cards = tuple(listed)
            sheet_hand = [self.kind[n] for n in ch.hand]
            solo_seat = solo == seat
            start_aside = [c for c in ch.starts_aside + (ch.solo_aside if solo_seat else ())
                           if c in listed]
            f.start_aside = tuple(start_aside)
            fits = not (Counter(sheet_hand) + Counter(start_aside) - Counter(listed))
            hand = sheet_hand if fits else zones["hand"][:self.hand_limit]
            f.start_hand = tuple(() if solo_seat else hand)
            f.total, f.checksum = len(listed), sum(listed)
            f.solo, f.label, f.avg = solo == seat, ch.name, self._avg(listed)
            f.comp = tuple(Counter(listed).items())
            f.hand, f.deck = zones["hand"], deck[::-1]
            if solo_seat and f.hand:        # the AI has no hand: listed cards go on top of its deck
                f.deck.extend(reversed(f.hand))
                f.hand = []
            f.discard, f.aside = zones["discard"], zones["aside"]
            side = str(spec.get("side", "A")).upper()
            if side not in ("A", "B"):
                raise ValueError(f"p{seat}: side is A or B")
            f.side = SIDE_LETTERS.index(side)
            f.stag = bool(spec.get("staggering", False))
            f.used, f.ko = False, False
            s.fs.append(f)
        s.wins = list(setup.get("wins", [0, 0]))
        s.fights = int(setup.get("fights", sum(s.wins)))
        s.results = [0] * s.wins[0] + [1] * s.wins[1] + [TIE] * (s.fights - sum(s.wins))
        s.round = int(setup.get("round", 1)) - 1
        self._begin_round(s)
        return s

    def parse_action(self, state: CFState, spec):
        if isinstance(spec, str):
            text = spec.strip()
            if len(text) > 3 and text[0] == "p" and text[1] in "0123" and text[2] == ":":
                seat = int(text[1])
                if seat != state.cur:
                    raise ValueError(f"{spec!r}: p{state.cur} is to move, not p{seat}")
                spec = text[3:]
        parts = action_words(spec)
        verb = str(parts[0]).lower()
        if verb == "keep" and len(parts) == 1:
            return ("discard", ())
        if verb in ("hit", "discard"):
            arg = parts[1] if len(parts) == 2 else ()
            if arg == "deck" or arg == "nothing":
                arg = ()
            names = [x.strip() for x in arg.split(",")] if isinstance(arg, str) else list(arg)
            for n in names:
                if n not in self.kind:
                    raise ValueError(f"no action card named {n!r}")
            return (verb, tuple(sorted(names, key=self.kind.__getitem__)))
        if len(parts) == 1 and verb in ("top", "stop", "flip", "pass", "tag", "stay"):
            return (verb,)
        if len(parts) == 2:
            arg = parts[1]
            if verb in ("play", "aside", "recover"):
                if arg not in self.kind:
                    raise ValueError(f"no action card named {arg!r}")
                return (verb, arg)
            if verb == "call":
                return ("call", str(arg))
            if verb in ("start", "pick"):
                return (verb, int(arg))
            if verb == "order":
                names = [x.strip() for x in arg.split(",")] if isinstance(arg, str) else list(arg)
                for n in names:
                    if n not in self.kind:
                        raise ValueError(f"no action card named {n!r}")
                return ("order", tuple(names))
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, s: CFState) -> dict:
        names = self.names
        if s.phase in (REACT, COMBO, RECOVER, FORESEE):     # the revealed round, still going on
            res, sig = s.result, None
            played = [s.played[0], s.played[1]]
            dealt = [s.dmg[0] if s.result != 1 else 0, s.dmg[1] if s.result != 0 else 0]
        else:                                               # the last resolved round
            res, d0, d1, p0, p1, sig = s.last
            played, dealt = [p0, p1], [d0, d1]
        out = {
            "phase": PHASE_NAMES[s.phase],
            "to_move": s.cur,
            "over": s.phase == OVER,
            "winner": (s.win if s.phase == OVER else None),
            "wins": list(s.wins),
            "fights": ["draw" if r == TIE else r for r in s.results],
            "round": s.round,
            "result": {TIE: "tie", 0: "p0", 1: "p1"}.get(res),
            "dealt": dealt,
            "signature": sig,
            "played": [[names[c] for c in p] for p in played],
        }
        if s.mode == TWO_VS_TWO:
            out["ring"] = [s.fs[s.act[0]].ch.name, s.fs[s.act[1]].ch.name]
        for seat in (0, 1):
            if not s.fs:
                break
            f = s.fs[s.act[seat]]
            out[f"p{seat}"] = {
                "character": f.ch.name,
                "side": SIDE_LETTERS[f.side],
                "hand": sorted(names[c] for c in f.hand),
                "hand_size": len(f.hand),
                "deck": [names[c] for c in reversed(f.deck)],
                "deck_size": len(f.deck),
                "discard": sorted(names[c] for c in f.discard),
                "discard_size": len(f.discard),
                "aside": sorted(names[c] for c in f.aside),
                "staggering": f.stag,
                "knocked_out": f.ko,
                "hand_limit": self._limit(s, seat),
                "x": self._x(f, len(s.played[seat])),
            }
        return out

