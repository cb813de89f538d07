"""Amfibido engine: invariants, descriptions, scenario setups and observations (a mixin)."""

from __future__ import annotations

import random
from collections import Counter

from .grammar import (
    EQUIP,
    FIGHTER,
    SENSEI,
)
from .state import (
    CODE,
    DRAW,
    DRAWN,
    EOR,
    FIELD,
    LEVELS,
    LOSE,
    NO_CARD,
    OVER,
    P_OVERCAP,
    PENDING_NAMES,
    PHASE_NAMES,
    PICK1,
    PICK2,
    R3,
    RESULT_NAMES,
    ROMAN,
    SENSEI_PH,
    AState,
    _shuffle,
)

# actions whose second word is the card they play
_CARD_KINDS = frozenset(("pick", "sensei", "field", "equip", "combo", "play"))


class ViewsMixin:
    """The engine methods that read a state for people: checks, words, scenarios."""

    __slots__ = ()

    # -- checking -------------------------------------------------------------------------------
    def invariants(self, st) -> list[str]:
        info = st.box.info
        problems = []
        seen = st.sdeck + st.discard
        for lv in LEVELS:
            deck = st.decks[lv]
            seen += deck
            if deck and (info[deck[0]].level != lv or info[deck[-1]].level != lv):
                problems.append(f"a card of another level is in the level {ROMAN[lv]} deck")
        for p in (0, 1):
            seen += st.hand[p]
            seen += st.ko[p]
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
        if not 1 <= st.round <= self.round_limit:
            problems.append(f"round {st.round} out of range")
        if st.phase == OVER:
            r = st.result
            if r >= 0 and st.score[r] < self.wins_needed and st.round < self.round_limit:
                problems.append("the game ended without 4 round wins before the round limit")
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

    # -- reporting ------------------------------------------------------------------------------
    def describe(self, st, action) -> str:
        p = self.current_player(st)
        who = f"P{p + 1}"
        kind = action[0]
        if kind == "pass":
            return f"{who} passes"
        if kind == "pick":
            return f"{who} drafts {action[1]}"
        if kind == "sensei":
            return f"{who} keeps sensei {action[1]}"
        if kind == "field":
            return f"{who} fields {action[1]} in dojo {action[2]}"
        if kind == "equip":
            extra = f", retiring {self._where(st, p, action[3])}" if len(action) > 3 else ""
            return f"{who} equips {action[1]} in dojo {action[2]}{extra}"
        if kind == "combo":
            return f"{who} plays combo move {action[1]} on the fighter of dojo {action[2]}"
        if kind == "play":
            return f"{who} plays {action[1]}{self._choice_words(st, p, action[2:])}"
        if kind == "ability":
            name = self.card_of(st, action)
            return f"{who} uses the action ability of {name}{self._choice_words(st, p, action[2:])}"
        if kind == "done":
            return f"{who} stops"
        return f"{who} chooses{self._choice_words(st, p, action[1:]) or ' nothing'}"

    def describe_outcome(self, before, after, action) -> str:
        info = before.box.info
        lines = []
        ph = before.phase
        if ph in (PICK1, PICK2) and not before.pend:
            p = before.turn
            if ph == PICK2:
                # the pair handed across: the card not kept is thrown away
                rest = before.draft[p][:]
                rest.remove(next(c for c in rest if info[c].name == action[1]))
                lines += [f"the leftover, {'another ' * (info[c].name == action[1])}{info[c].name}, "
                          "goes face down onto the discard pile" for c in rest]
            elif before.round == 1 and before.dstep == 0 and before.sensei == [NO_CARD, NO_CARD]:
                lines.append(f"P{before.start + 1} is the starting player (drawn at random)")
        fought = ph == FIELD and (after.phase != FIELD or after.round != before.round)
        # the fight results, kept in after.last, still apply to an end of round with choices
        res = after.last[0] if fought or ph == EOR else None
        if fought:
            lines += self._fight_words(before, after)
        if ph in (FIELD, EOR):
            lines += self._board_changes(before, after, action, res)
        if after.round > before.round or (ph == SENSEI_PH and after.phase != SENSEI_PH):
            rw = after.last[2] if after.last else -1
            why = ("" if after.round == 1 else " (won the last round)" if after.start == rw
                   else " (after a drawn round)")
            lines.append(f"round {after.round}: P{after.start + 1} starts{why}")
        return "\n".join(lines)

    @staticmethod
    def _named(st, c, default=""):
        """A card in play in words: its owner, name and dojo (default when not in play)."""
        name = st.box.info[c].name
        for p in (0, 1):
            if c == st.sensei[p]:
                return f"P{p + 1}'s {name}"
            for d in R3:
                if c == st.fighter[p][d] or c in st.equip[p][d]:
                    return f"P{p + 1}'s {name} (dojo {d + 1})"
        return name if default == "" else default

    def _fight_words(self, before, after) -> list:
        """Each dojo's fight (fighters, total powers, knockouts), the round and the score."""
        info = before.box.info
        fight, home = self._board(before, self._neut(before))
        res, powers, rw, knocked = after.last

        def who(p, d):
            c = fight[p][d]
            away = f" (from dojo {home[p][d] + 1})" if home[p][d] != d else ""
            return f"P{p + 1}'s {info[c].name}{away}"

        lines = []
        for d in R3:
            a, b = fight[0][d], fight[1][d]
            if a < 0 and b < 0:
                line = "no fighters, a draw"
            elif res[0][d] == DRAW:
                line = f"{who(0, d)} {powers[0][d]} and {who(1, d)} {powers[1][d]} draw"
            else:
                w = 0 if res[0][d] != LOSE else 1
                if fight[1 - w][d] < 0:
                    line = f"{who(w, d)} wins unopposed"
                else:
                    line = (f"{who(w, d)} {powers[w][d]} beats {who(1 - w, d)} "
                            f"{powers[1 - w][d]}")
                    if before.fighter[1 - w][d] in knocked[1 - w]:
                        line += ", and knocks it out"
            lines.append(f"dojo {d + 1}: {line}")
        wins = [sum(r == LOSE for r in res[1 - p]) for p in (0, 1)]
        score = f"round wins P1 {after.score[0]}, P2 {after.score[1]}"
        if rw >= 0:
            lines.append(f"P{rw + 1} wins round {before.round} (fights won {wins[rw]} to "
                         f"{wins[1 - rw]}): {score}")
        else:
            lines.append(f"round {before.round} is drawn (fights won {wins[0]} to {wins[1]}): {score}")
        if after.phase == OVER:
            r = after.result
            if r >= 0 and after.score[r] >= self.wins_needed:
                lines.append(f"P{r + 1} is the Grand Sensei: game over")
            else:
                end = f"P{r + 1} wins" if r >= 0 else "a draw"
                lines.append(f"the round limit is reached: {end}")
        return lines

    def _board_changes(self, before, after, action, res) -> list:
        """What the move did to the dojos that its words do not say: transforms, cards leaving
        play (not a beaten fighter at the end of the round: its result says it), boomerang moves,
        knockouts and power gained, neutralizing, cards drawn."""
        info = before.box.info
        lines = []
        same_round = after.round == before.round and after.phase != OVER
        became = {}     # a transformed card -> the card it was (it keeps what that one had gained)
        for p in (0, 1):
            who = f"P{p + 1}'s"
            now = set(self._cards_in_play(after, p))
            had = set(self._cards_in_play(before, p))
            transformed = set()
            for d in R3:
                places = [(before.fighter[p][d], after.fighter[p][d])]
                places += list(zip(before.equip[p][d], after.equip[p][d], strict=False))
                for old, new in places:
                    if old >= 0 and new >= 0 and new not in had and new not in before.hand[p] \
                            and old in after.discard and old not in now:
                        transformed.add(old)
                        became[new] = old
                        lines.append(f"{who} {info[old].name} transforms into {info[new].name} "
                                     f"(dojo {d + 1})")
            if action[0] != "equip":    # an equip that replaces one says so itself
                for d in R3:
                    for c in ([before.fighter[p][d]] if before.fighter[p][d] >= 0 else []) + \
                            before.equip[p][d]:
                        if c in now or c in transformed or c == before.sensei[p] or \
                                (res is not None and c == before.fighter[p][d] and res[p][d] == LOSE):
                            continue
                        to = (f"goes to P{p + 1}'s knockout pile" if c in after.ko[p] else
                              f"goes back to P{p + 1}'s hand" if c in after.hand[p] else
                              "is retired to the discard pile")
                        when = "" if res is None else "end of round: "
                        lines.append(f"{when}{who} {info[c].name} (dojo {d + 1}) {to}")
            boomed = [c for C in before.combos[p] for c in C
                      if c in after.ko[p] and c not in before.ko[p]]
            lines += [f"boomerang: {who} {info[c].name} goes to the knockout pile" for c in boomed]
            if same_round:
                drawn = [c for c in after.hand[p] if c not in before.hand[p] and c not in had
                         and c not in before.ko[p]]
                lines += [f"P{p + 1} draws {info[c].name}" for c in drawn]
        if same_round:
            lines += [f"{self._named(after, c)} gains Knockout this round"
                      for c in after.tmp_ko if c not in before.tmp_ko and became.get(c) not in before.tmp_ko]
            had_plus = Counter((became.get(c, c), n) for c, n in after.tmp_plus)
            had_plus.subtract(before.tmp_plus)
            lines += [f"{self._named(after, c)} gets {n:+d} power this round"
                      for (c, n), k in had_plus.items() for _ in range(k)]
            neut_b, neut_a = self._neut(before), self._neut(after)
            lines += [f"{self._named(after, c)} is neutralized"
                      for c in sorted(neut_a - neut_b, key=after.seq.__getitem__)
                      if became.get(c) not in neut_b]
            lines += [f"{self._named(after, c)} is no longer neutralized"
                      for c in sorted(neut_b - neut_a, key=after.seq.__getitem__)
                      if self._named(after, c, None)]
        return lines

    def _choice_words(self, st, p, opt) -> str:
        if not opt:
            return ""
        if len(opt) == 2 and opt[0] in CODE and opt[1] in CODE:
            return f": {self._where(st, p, opt[0])} to {self._where(st, p, opt[1])}"
        if len(opt) == 2 and opt[0] in CODE:
            return f": {self._where(st, p, opt[0])}, {opt[1]}"
        return ": " + ", ".join(str(x) if x not in CODE else x for x in opt)

    @staticmethod
    def _where(st, p, code) -> str:
        """A position code in words, naming your own card there if any."""
        kind, d, k = CODE[code]
        if kind == 0:
            c = st.fighter[p][d]
            place = f"the fighter place of dojo {d + 1}"
        else:
            E = st.equip[p][d]
            c = E[k] if k < len(E) else -1
            place = f"equipment place {k + 1} of dojo {d + 1}"
        return f"{place} ({st.box.info[c].name})" if c >= 0 else place

    def card_of(self, st, action) -> str | None:
        kind = action[0]
        if kind in _CARD_KINDS:
            return action[1]
        if kind == "ability":
            p = self.current_player(st)
            src = action[1]
            if src == "S":
                c = st.sensei[p]
            else:
                k, d, i = CODE[src]
                c = st.fighter[p][d] if k == 0 else (st.equip[p][d][i] if i < len(st.equip[p][d])
                                                     else -1)
            return st.box.info[c].name if c >= 0 else None
        return None

    # -- scenarios ------------------------------------------------------------------------------
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
        players = setup.get("players") or [{}, {}]
        for p, pl in enumerate(players):
            pl = pl or {}
            st.hand[p] = [take(n) for n in pl.get("hand") or []]
            st.ko[p] = [take(n) for n in pl.get("knockout") or []]
            st.draft[p] = [take(n) for n in pl.get("draft") or []]
            if pl.get("sensei"):
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
                "knockout": names(st.ko[p]),
                "sensei": info[s].name if s >= 0 else None,
                "draft": names(st.draft[p]),
                "dojos": dojos,
                "powers": powers,
            }
        return out
