"""A.D.A.P.T.: the invariants of a state (ChecksMixin)."""

from __future__ import annotations

from .constants import NO_CARD, NO_LOCATION, P_CHOICE


class ChecksMixin:
    __slots__ = ()

    def invariants(self, st) -> list[str]:
        out = []
        cfg = st.cfg
        cards = st.deck + st.discard + st.stream
        for f in st.fish:
            cards += f.pgp
            cards += f.under
            cards += f.parts
            cards.append(f.body)
        cards.sort()
        k = cards.count(NO_CARD)
        if cards[k:] != cfg.ids:
            out.extend(self._lost_cards(st, cards[k:]))
        if len(st.stream) != cfg.slots:
            out.append(f"the stream has {len(st.stream)} slots, not {cfg.slots}")
        for tm, e in enumerate(st.exp):
            if not 0 <= e <= cfg.cap:
                out.append(f"Experience {e} of side {tm} outside 0..{cfg.cap}")
        iloc = cfg.iloc
        alive_teams = set()
        alive = air = 0
        for p, f in enumerate(st.fish):
            s = f.s
            if f.alive:
                alive |= 1 << p
                if f.jump > 0:
                    air |= 1 << p
                alive_teams.add(cfg.team[p])
                if f.dmg > s.hp and not f.fragile:
                    out.append(f"fish {p} is alive with {f.dmg} Damage over {s.hp} Health")
            if len(f.pgp) > self.pgp_max:
                out.append(f"fish {p} holds {len(f.pgp)} cards in its PGP")
            if f.dmg < 0 or not 0 <= f.poison <= self.max_poison:
                out.append(f"fish {p}: damage {f.dmg}, poison {f.poison}")
            if min(f.cd) < 0 or f.jump < 0 or f.hide < 0:
                out.append(f"fish {p}: a negative timer")
            if f.body >= 0 and iloc[f.body] != NO_LOCATION:
                out.append(f"fish {p}: a part as its Body")
            for i, c in enumerate(f.parts):
                if c >= 0 and iloc[c] != i:
                    out.append(f"fish {p}: a part at the wrong location")
        if st.alive != alive or st.air & alive != air:
            out.append("the alive or airborne bit masks disagree with the Fish")
        settled = (cfg.stalemate and st.over and st.win is None
                   and st.quiet > self.stalemate * st.alive.bit_count())
        if st.over != (len(alive_teams) <= 1) and not settled:
            out.append(f"over={st.over} with {len(alive_teams)} side(s) alive")
        if st.over:
            if st.win is not None and not st.fish[st.win].alive:
                out.append(f"the winner {st.win} is defeated")
        else:
            if not st.fish[st.turn].alive:
                out.append(f"the Turn belongs to defeated fish {st.turn}")
            if st.phase == P_CHOICE and not 0 <= st.chooser < cfg.n:
                out.append("a choice with no chooser")
        return out

    def _lost_cards(self, st, cards):
        total = st.cfg.total
        seen = [0] * total
        out = []
        for c in cards:
            if 0 <= c < total:
                seen[c] += 1
            else:
                out.append(f"unknown card instance {c}")
        names = self.names
        ct = st.cfg.ct
        lost = [names[ct[i]] for i, k in enumerate(seen) if k == 0]
        twice = [names[ct[i]] for i, k in enumerate(seen) if k > 1]
        if lost:
            out.append(f"cards lost: {', '.join(lost)}")
        if twice:
            out.append(f"cards in two places: {', '.join(twice)}")
        return out
