"""Dojo Duel heuristic for the greedy bots: points lead, the round under way at deck averages,
a face-down kicker in reserve, the hand."""

from __future__ import annotations

from .state import RUNNING, DojoState


class HeuristicMixin:
    # Weights of the greedy heuristic: a face-down kicker in reserve, the cards in hand.
    # A kicker kept is worth nearly all its Yin and Yang: it is revealed once, in the round of the
    # player's choosing, where both of its numbers can count. At 0.5 the greedy bot revealed it in
    # the first round where it would save or deal half its value; bench/skill_ceiling.py's rollout
    # player, which plays the rest of the match out before each reveal, kept it for a better round
    # and scored 58% against that bot. In duplicate matches (bench/heuristic_weights.py, 1,000
    # seeds) greedy at 0.85 to 1.0 scores 55-56% against greedy at 0.5.
    KICKER_WEIGHT = 0.9
    HAND_WEIGHT = 0.05

    def heuristic(self, s: DojoState, player: int) -> float:
        """Points lead, plus the expected result of the round under way (unknown cards at their
        owner's average), a face-down kicker in reserve and the hand. Reads no hidden card of the
        opponent: only public zones, the player's own hand and kicker, and deck averages."""
        o = 1 - player
        r = s.result
        if r != RUNNING:
            return 1000.0 if r == player else -1000.0 if r == o else 0.0
        v = float(s.points[player] - s.points[o])
        yin, yang = self.yin, self.yang
        fp, fo = s.field[player], s.field[o]
        if fp or fo:
            info = s.info
            my_yin = my_yang = 0.0
            for k in fp:
                my_yin += yin[k]
                my_yang += yang[k]
            missing = 2 - len(fp)
            if missing:
                hand = s.hands[player]
                if hand:
                    n = len(hand)
                    my_yin += missing * sum(yin[k] for k in hand) / n
                    my_yang += missing * sum(yang[k] for k in hand) / n
            o_yin = o_yang = 0.0
            for k in fo:
                o_yin += yin[k]
                o_yang += yang[k]
            missing = 2 - len(fo)
            if missing:
                o_yin += missing * info.avg_yin[o]
                o_yang += missing * info.avg_yang[o]
            if s.krev[player]:
                k = s.kick[player]
                my_yin += yin[k]
                my_yang += yang[k]
            if s.krev[o]:
                k = s.kick[o]
                o_yin += yin[k]
                o_yang += yang[k]
            v += (my_yang - o_yin if my_yang > o_yin else 0.0) - (o_yang - my_yin if o_yang > my_yin
                                                                 else 0.0)
        k = s.kick[player]
        limit = s.info.limit
        if k >= 0 and not s.krev[player] and (not limit or s.round < limit):
            v += self.KICKER_WEIGHT * self.value[k]
        value = self.value
        v += self.HAND_WEIGHT * sum(value[k] for k in s.hands[player])
        return v
