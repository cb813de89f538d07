"""Dojo Duel scenarios: scenario_state (a position from a setup mapping), parse_action and
observe, in the forms the package docstring documents."""

from __future__ import annotations

import random

from cardgen.engines.base import action_words

from .state import (
    ANSWER,
    DRAW,
    EXTRA,
    FIRST_TURN,
    KICKER,
    NO_CARD,
    OVER,
    PHASE_NAMES,
    PICK,
    REVEAL,
    RUNNING,
    SECOND_TURN,
    DojoState,
)


class ScenarioMixin:
    def scenario_state(self, setup: dict, rng: random.Random) -> DojoState:
        setup = setup or {}
        unknown = set(setup) - {"round", "first", "phase", "turn", "to_move", "p0", "p1", "variants"}
        if unknown:
            raise ValueError(f"unknown setup keys {sorted(unknown)}")
        rules = self._rules(setup.get("variants"))
        s = DojoState()
        s.rng = rng
        s.round = int(setup.get("round", 1))
        s.first = int(setup.get("first", 0))
        phase_name = setup.get("phase", "pick")
        playable = [n for i, n in enumerate(PHASE_NAMES) if i != OVER]
        if phase_name not in playable:
            raise ValueError(f"phase {phase_name!r}: one of {', '.join(playable)}")
        s.phase = PHASE_NAMES.index(phase_name)
        s.turn = int(setup.get("turn", 1)) - 1
        if s.turn not in (FIRST_TURN, SECOND_TURN):
            raise ValueError("turn is 1 or 2")
        kinds = []
        for p in (0, 1):
            spec = setup.get(f"p{p}") or {}
            unknown = set(spec) - {"points", "hand", "deck", "recycle", "field", "kicker",
                                   "kicker_revealed", "kicker_used"}
            if unknown:
                raise ValueError(f"p{p}: unknown setup keys {sorted(unknown)}")
            s.points[p] = int(spec.get("points", rules["start"]))
            s.hands[p] = self._kinds(spec.get("hand", []))
            s.decks[p] = self._kinds(spec.get("deck", []))[::-1]
            s.recycle[p] = self._kinds(spec.get("recycle", []))
            s.field[p] = self._kinds(spec.get("field", []))
            kicker = spec.get("kicker")
            s.kick[p] = self.kind[kicker] if kicker else NO_CARD
            s.krev[p] = bool(spec.get("kicker_revealed", False)) and kicker is not None
            s.kused[p] = bool(spec.get("kicker_used", False))
            owned = s.hands[p] + s.decks[p] + s.recycle[p] + s.field[p]
            if kicker:
                owned.append(s.kick[p])
            kinds.append(owned)
        s.info = self._info(kinds, rules)
        first, second = len(s.field[s.first]), len(s.field[1 - s.first])
        want = {KICKER: (0, 0), EXTRA: (0, 0), PICK: ((0, 0), (1, 1)), ANSWER: ((0, 1), (2, 1)),
                REVEAL: (2, 2)}[s.phase]
        if s.phase in (PICK, ANSWER):
            want = want[s.turn]
        if (first, second) != want:
            raise ValueError(f"in phase {phase_name} (turn {s.turn + 1}) the first-Turn player has "
                             f"{want[0]} field cards and the other {want[1]}, not {first} and "
                             f"{second}")
        if s.phase == KICKER:
            s.to_move = s.first
        elif s.phase == EXTRA:
            s.to_move = int(setup.get("to_move", s.first))
        elif s.phase in (PICK, ANSWER):
            s.to_move = s.first if s.turn == FIRST_TURN else 1 - s.first
        else:
            second = 1 - s.first
            default = second if s.kick[second] >= 0 and not s.krev[second] else s.first
            s.to_move = int(setup.get("to_move", default))
        return s

    def _kinds(self, names) -> list[int]:
        try:
            return [self.kind[n] for n in names]
        except KeyError as err:
            raise ValueError(f"no card named {err.args[0]!r}") from None

    def parse_action(self, state: DojoState, spec):
        parts = action_words(spec)
        verb = str(parts[0]).lower()
        if verb in ("pick", "reveal", "keep", "draw", "pass") and len(parts) == 1:
            return (verb,)
        if verb in ("answer", "kicker") and len(parts) == 2:
            if parts[1] not in self.kind:
                raise ValueError(f"no card named {parts[1]!r}")
            return (verb, parts[1])
        raise ValueError(f"unreadable action {spec!r}")

    def observe(self, s: DojoState) -> dict:
        names, yin, yang = self.names, self.yin, self.yang
        out = {
            "round": s.round,
            "phase": PHASE_NAMES[s.phase],
            "to_move": self.current_player(s),
            "first": s.first,
            "turn": s.turn + 1,
            "points": list(s.points),
            "over": s.phase == OVER,
            "winner": None if s.result == RUNNING else "draw" if s.result == DRAW else s.result,
            "last_loss": list(s.last_loss),
        }
        last = s.last_totals
        for p in (0, 1):
            k = s.kick[p]
            field = s.field[p]
            f_yin = sum(yin[c] for c in field) + (yin[k] if s.krev[p] else 0)
            f_yang = sum(yang[c] for c in field) + (yang[k] if s.krev[p] else 0)
            state = (("revealed" if s.krev[p] else "face-down") if k >= 0
                     else "used" if s.kused[p] else "none")
            out[f"p{p}"] = {
                "points": s.points[p],
                "hand": sorted(names[c] for c in s.hands[p]),
                "hand_size": len(s.hands[p]),
                "deck": [names[c] for c in reversed(s.decks[p])],
                "deck_size": len(s.decks[p]),
                "recycle": sorted(names[c] for c in s.recycle[p]),
                "recycle_size": len(s.recycle[p]),
                "field": [names[c] for c in field],
                "yin": f_yin,
                "yang": f_yang,
                "kicker": names[k] if k >= 0 else None,
                "kicker_state": state,
                "last_yin": last[2 * p],
                "last_yang": last[2 * p + 1],
            }
        return out
