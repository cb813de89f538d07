"""Amfibido replay text: describe (the move in words), describe_outcome (the fight, what changed
on the board, the round's end) and card_of (a mixin)."""

from __future__ import annotations

from collections import Counter

from .state import (
    CODE,
    DRAW,
    EOR,
    FIELD,
    LOSE,
    NO_CARD,
    OVER,
    PICK1,
    PICK2,
    R3,
    SENSEI_PH,
)

# actions whose second word is the card they play
_CARD_KINDS = frozenset(("pick", "sensei", "field", "equip", "combo", "play"))


class ReplayMixin:
    """The engine methods that put a move and its outcome into words."""

    __slots__ = ()

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
            boomed += [c for c in before.aside[p] if c in after.ko[p]]
            lines += [f"boomerang: {who} {info[c].name} goes to the knockout pile" for c in boomed]
            lines += [f"boomerang: {who} {info[c].name} is set aside until the end of the round"
                      for c in after.aside[p] if c not in before.aside[p]]
            if same_round:
                drawn = [c for c in after.hand[p] if c not in before.hand[p] and c not in had
                         and c not in before.ko[p] and c not in before.ko_new[p]]
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
