"""Dojo Duel replay text: describe (the move) and describe_outcome (the blind pick, a revealed
kicker, the comparison and the Clean, the score or the end), and card_of."""

from __future__ import annotations

from .state import DRAW, NO_CARD, OVER, REVEAL_ACTION, DojoState


class ReplayMixin:
    def describe(self, state: DojoState, action) -> str:
        p = state.to_move
        verb = action[0] if isinstance(action, tuple) and action else action
        if verb == "pick":
            return f"picks blind from the opponent's hand (round {state.round}, turn {state.turn + 1})"
        if verb == "answer" and action[1] in self.kind:
            k = self.kind[action[1]]
            return f"answers with {action[1]} ({self.yin[k]} Yin / {self.yang[k]} Yang)"
        if verb == "kicker":
            return "places a kicker face down"
        if verb == "reveal":
            k = state.kick[p] if p >= 0 else NO_CARD
            return f"reveals their kicker, {self.names[k] if k >= 0 else '?'}"
        if verb == "keep":
            return "keeps their kicker face down"
        if verb == "draw":
            return "draws the extra card of the first Draw"
        if verb == "pass":
            return "declines the extra card of the first Draw"
        return repr(action)

    def describe_outcome(self, before: DojoState, after: DojoState, action) -> str:
        """The blind pick, a revealed kicker's numbers, and when the action ends the round: the
        comparison (each Yang against the other's Yin, points lost), the Clean and the score."""
        p = before.to_move
        verb = action[0] if isinstance(action, tuple) and action else action
        lines = []
        if verb == "pick":
            # the picked card is the one the engine just laid on the defender's field
            lines.append(f"the blind pick is {self._card(after.field[1 - p][-1])}, face up on "
                         f"P{2 - p}'s field")
        elif verb == "reveal":
            k = before.kick[p]
            lines.append(f"its +{self.yin[k]} Yin / +{self.yang[k]} Yang count this round")
        if after.round != before.round or (after.phase == OVER and before.phase != OVER):
            lines += self._round_result(before, after)
        return "\n".join(lines)

    def _card(self, k: int) -> str:
        return f"{self.names[k]} ({self.yin[k]} Yin / {self.yang[k]} Yang)"

    @staticmethod
    def _why_over(pts, rnd, tiebreak) -> str:
        down = [f"P{q + 1}" for q in (0, 1) if pts[q] <= 0]
        if len(down) == 2:
            return ("both at 0 or below, more points wins (below-zero tiebreak)" if tiebreak
                    else "both at 0 or below in the same round")
        return f"{down[0]} is at 0 or below" if down else f"round {rnd} was the last (round limit)"

    def _round_result(self, before: DojoState, after: DojoState) -> list[str]:
        """The comparison of the round `before` was in, its Clean, then the score or the end."""
        t, loss, pts = after.last_totals, after.last_loss, after.points
        lines = [f"round {before.round}: P1 {t[0]} Yin / {t[1]} Yang, P2 {t[2]} Yin / {t[3]} Yang"]
        for q in (0, 1):            # q's Yang meets the other's Yin
            o = 1 - q
            meets = f"P{q + 1}'s {t[2 * q + 1]} Yang meets P{o + 1}'s {t[2 * o]} Yin"
            lines.append(f"{meets}: P{o + 1} loses {loss[o]} point{'s' * (loss[o] != 1)}"
                         if loss[o] else f"{meets}: it does not get through")
        # The Clean: a revealed kicker is spent; a deck that ran dry took back its recycle pile
        for q in (0, 1):
            k = before.kick[q]
            if k >= 0 and after.kused[q] and not before.kused[q]:
                lines.append(f"the Clean: P{q + 1}'s kicker {self.names[k]} goes to the recycle pile")
            cleaned = len(before.recycle[q]) + 2 + (k >= 0 and after.kused[q] and not before.kused[q])
            if after.phase != OVER and len(after.recycle[q]) < cleaned:
                lines.append(f"P{q + 1}'s deck ran out: the recycle pile is shuffled into a new deck")
        score = f"P1 {pts[0]}, P2 {pts[1]}"
        if after.phase != OVER:
            lines.append(f"score: {score}")
        else:
            why = self._why_over(pts, before.round, after.info.tiebreak)
            lines.append(f"{why}: a draw, {score}" if after.result == DRAW
                         else f"{why}: P{after.result + 1} wins, {score}")
        return lines

    def card_of(self, state: DojoState, action) -> str | None:
        """The answer card, or the kicker when it is revealed (placing it face down plays nothing
        yet; a picked card is chosen blind, so it is not known before the move)."""
        if isinstance(action, tuple) and len(action) == 2 and action[0] == "answer":
            return action[1]
        if action == REVEAL_ACTION:
            k = state.kick[state.to_move]
            return self.names[k] if k >= 0 else None
        return None
