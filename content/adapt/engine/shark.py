"""A.D.A.P.T.: the greedy bot's heuristic and the "shark" bot (BotsMixin, SharkBot)."""

from __future__ import annotations

from .constants import CHECK_DIE, ELECTRO_BONUS, GUPPY_DIE, IM_FEAR, IM_SHOCK, LANDING_BONUS, R_RAM


class BotsMixin:
    __slots__ = ()

    def _power(self, st, q):
        f = st.fish[q]
        if not f.alive:
            return 0.0
        s = f.s
        left = 0.5 if f.fragile else s.hp - f.dmg
        attack = (s.die + 1) * 0.5 + s.fer if s.die else (1.5 + s.fer if s.fer >= 2 else 0)
        return (20.0 + 2.2 * left + 1.6 * s.surv + 1.4 * attack + 1.2 * min(s.leth, 4)
                + 2.0 * s.armor + 1.5 * s.counter + 1.5 * s.regen + 1.0 * s.shock + 2.0 * s.level
                + 0.25 * st.exp[st.cfg.team[q]] + 0.8 * len(f.pgp) - 2.0 * f.poison
                + (0.6 if s.smart else 0.0) + 0.3 * (s.pois + s.stun + s.ram))

    def heuristic(self, st, player) -> float:
        if st.over:
            w = st.win
            if w is None:
                return 0.0
            return 1e6 if st.cfg.team[w] == st.cfg.team[player] else -1e6
        team = st.cfg.team
        mine = 0.0
        best = 0.0
        for q in range(st.cfg.n):
            v = self._power(st, q)
            if team[q] == team[player]:
                mine += v
            elif v > best:
                best = v
        return mine - best

    def bots(self):
        return {"shark": SharkBot}


def _stat_value(s) -> float:
    """What a Fish's totals are worth to the shark bot (Health counted apart)."""
    attack = (s.die + 1) * 0.5 + s.fer if s.die else 0.0
    return (1.6 * s.surv + 1.4 * attack + 1.2 * min(s.leth, 4) + 2.0 * s.armor + 1.5 * s.counter
            + 1.5 * s.regen + 1.0 * s.shock + 2.0 * s.level + 2.2 * s.hp + 0.6 * s.smart
            + 0.3 * (s.pois + s.stun + s.ram + s.fear + s.hide))


class SharkBot:
    """A quick rule-of-thumb player: the move with the best expected gain, no lookahead.

    An Attack is worth its expected Damage (averaged over the Attack Die, after Armor, Hide and
    Fear checks, minus the Counter Attack and Shock it draws), more if it can sink the target; a
    card is worth what it adds to the Fish now (or a share of it if it has to wait in the PGP)
    minus its cost; Experience, School and the Special Actions get small fixed values.
    """

    name = "shark"

    def __init__(self, engine, rng, player):
        self.engine, self.rng, self.player = engine, rng, player

    def choose(self, state, actions):
        if len(actions) == 1:
            return actions[0]
        best, best_score = [], float("-inf")
        for action in actions:
            score = self.score(state, action)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[self.rng.randrange(len(best))]

    def score(self, st, action) -> float:
        e = self.engine
        p = e.current_player(st)
        f = st.fish[p]
        kind = action[0]
        if kind in ("attack", "ram"):
            return self.attack_value(st, f, st.fish[action[1]], kind == "ram")
        if kind in ("buy", "choose"):
            c = st.stream[action[1] - 1]
            cost = e.cost[st.cfg.ct[c]] if kind == "buy" else 0
            return self.card_value(st, f, c) - 0.35 * cost
        if kind == "adapt":
            c = next(c for c in f.pgp if e.names[st.cfg.ct[c]] == action[1])
            return self.card_value(st, f, c, waiting=False)
        if kind == "school":
            return 2.5
        if kind == "wipe":
            return 0.3 * st.cfg.wipe_bonus
        if kind == "hide":
            return 1.0 if f.dmg * 2 > f.s.hp else -0.5
        if kind == "jump":
            return 0.8 if f.dmg * 2 > f.s.hp and action[1] == f.s.jump else -0.5
        if kind == "bait":
            return 0.4
        if kind == "random":
            return 0.5          # a card or 4 Experience beats letting the Turn go ("pass")
        return 0.0

    def card_value(self, st, f, c, waiting=True) -> float:
        e = self.engine
        cfg = st.cfg
        t = cfg.ct[c]
        key = list(f.s.key)
        key[0 if e.is_body[t] else e.loc[t] + 1] = t
        new = e._stats(key[0], tuple(key[1:]))
        gain = _stat_value(new) - _stat_value(f.s)
        if waiting and e._adapt_cost(cfg, f, t, st.exp[cfg.team[self.player]]) < 0:
            return 0.3 * gain - 1.0           # waits in the PGP for a bigger Body
        return gain

    def attack_value(self, st, a, d, ram) -> float:
        sa, sd = a.s, d.s
        if ram:
            dmg = max(0, sa.ram - sd.armor - sd.res[R_RAM])
        else:
            die = sa.die or GUPPY_DIE
            fer = (sa.fer + (ELECTRO_BONUS if sa.electro and sd.level < sa.level else 0)
                   + (LANDING_BONUS if a.splash else 0))
            leth = min(sa.leth, self.engine.leth_cap)
            total_dmg = 0.0
            for face in range(1, die + 1):
                total = face + fer
                if total > sd.surv:
                    total_dmg += max(0, total - sd.surv + leth - sd.armor)
                elif total == sd.surv:
                    total_dmg += max(0, 1 + leth - sd.armor)
                elif sa.crit and sa.die and face == die:
                    total_dmg += max(0, leth - sd.armor)     # a Critical hits by a margin of 0
                else:
                    total_dmg -= 0.15 * min(sd.surv - total, 5)   # a miss pays Experience
            dmg = total_dmg / die
        chance = (1 - d.hide / CHECK_DIE) * (1 - (0 if sa.imm & IM_FEAR else sd.fear) / CHECK_DIE)
        need = 1 if d.fragile else sd.hp - d.dmg + 1      # Damage that sinks the target
        value = 2.2 * dmg + (8.0 if dmg >= need else 0.0)
        value -= 2.2 * (max(0, sd.counter - sa.armor) + (0 if sa.imm & IM_SHOCK else sd.shock))
        return chance * value
