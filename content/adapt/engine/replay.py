"""A.D.A.P.T. replay text: a move in words (describe), the card it plays (card_of) and what it
led to (describe_outcome: dice, Damage, Random Selections, Auto-Adapting, the end), for
`cardgen replay` (ReplayMixin and the narration it reads)."""

from __future__ import annotations

from .constants import (
    CHECK_DIE,
    CRITICAL_DIE,
    ELECTRO_BONUS,
    IM_FEAR,
    IM_SCHOOL,
    LANDING_BONUS,
    NO_CARD,
    NOBODY,
    PERCENTILE,
    R_POISON,
    R_SCHOOL,
    SCHOOL_DAMAGE,
)


class ReplayMixin:
    __slots__ = ()

    def _card_name(self, st, c):
        return self.names[st.cfg.ct[c]] if c >= 0 else None

    def describe(self, st, action) -> str:
        seats = st.cfg.seats
        p = self.current_player(st)
        who = seats[p] if 0 <= p < len(seats) else "?"
        kind = action[0]
        if kind in ("buy", "choose"):
            i = action[1] - 1
            c = st.stream[i] if 0 <= i < len(st.stream) else NO_CARD
            name = self._card_name(st, c) or "nothing"
            if kind == "choose":
                return f"{who} chooses {name} (slot {action[1]}) by Random Selection"
            return f"{who} buys {name} from slot {action[1]} for {self.cost[st.cfg.ct[c]]} exp"
        if kind == "adapt":
            return f"{who} adapts {action[1]} from the PGP"
        if kind in ("attack", "ram", "bait", "school"):
            verb = {"attack": "attacks", "ram": "rams", "bait": "baits",
                    "school": "sends its School at"}[kind]
            return f"{who} {verb} {seats[action[1]]}"
        if kind == "jump":
            return f"{who} jumps for {action[1]} round(s)"
        return {"hide": f"{who} hides", "wipe": f"{who} wipes the Gene Stream",
                "random": f"{who} adapts by Random Selection", "pass": f"{who} passes",
                "end": f"{who} ends the Turn"}.get(kind, repr(action))

    def card_of(self, st, action):
        kind = action[0]
        if kind == "buy" or kind == "choose":
            i = action[1]
            cfg = st.cfg                 # (cfg.slots: the stream's length)
            return cfg.iname[st.stream[i - 1]] if 0 < i <= cfg.slots else None  # iname[-1]: None
        if kind == "adapt":
            return action[1]
        return None

    def describe_outcome(self, before, after, action) -> str:
        """What chance and the rules made of the action, in words for `cardgen replay`
        (outcome_words)."""
        return outcome_words(self, before, after, action)


def outcome_words(engine, before, after, action) -> str:
    """What chance and the rules made of the action: an Attack's checks, roll, Damage and
    chances; a Bait roll; where a bought card went; Random Selections; Auto-Adapting; the
    start-of-Turn Regeneration, Poison and landing of the Fish whose Turn began; defeats and
    the end. Read from the difference between `before` and `after` (st.last and st.rslog keep
    the dice); nothing is rolled again."""
    cfg = after.cfg
    seats = cfg.seats
    kind = action[0]
    p = engine.current_player(before)
    lines = []
    hurt = [0] * cfg.n            # Damage the action itself dealt, to tell it from Poison's
    if kind in ("attack", "ram") and after.last is not before.last:
        lines += _strike_words(before, after, hurt)
    elif kind == "school":
        q = action[1]
        d = after.fish[q].s
        hurt[q] = 0 if d.imm & IM_SCHOOL else max(0, SCHOOL_DAMAGE - d.res[R_SCHOOL])
        lines.append(_damage_words(before, after, q, hurt[q]) if hurt[q]
                     else f"{seats[q]} shrugs off the School: no Damage")
    elif kind == "bait":
        q = action[1]
        lines.append(f"Bait succeeds: {seats[q]} must Attack {seats[p]} on its next Turn"
                     if after.fish[q].bait == p != before.fish[q].bait else "Bait fails")
    elif kind == "buy":
        c = before.stream[action[1] - 1]
        if c in after.fish[p].pgp:            # (else it went straight onto the Fish)
            lines.append("it goes into the PGP: it cannot be Adapted yet")
    # Random Selections made during the action (a "choice" re-logs the entry it resolves);
    # another Fish's is the opening's, or a School battle's full pool at its Turn's start,
    # which comes after that Turn's Poison and Regeneration, and so does the Auto-Adapt its
    # Experience triggers: those go last.
    later = []
    new = after.rslog[len(before.rslog) - (kind == "choose"):]
    for i, entry in enumerate(new):
        q = entry[0]
        if q == p:
            lines.append(_selection_words(engine, after, entry, kind == "choose" and i == 0, ""))
        elif not before.turnno:
            lines.append(_selection_words(
                engine, after, entry, False, f"the opening Random Selection for {seats[q]}: "))
        else:
            later.append(_selection_words(
                engine, after, entry, False,
                f"start of {seats[q]}'s Turn, the School's pool is full: Random Selection, "))
    began = after.turn if after.turnno != before.turnno else NOBODY
    for q in range(cfg.n):
        if after.fish[q].auto > before.fish[q].auto:
            (later if q == began else lines).append(_auto_words(engine, before, after, q))
    lines += _turn_start_words(before, after, hurt)
    lines += later
    if after.over and not before.over:
        w = after.win
        if w is None:
            settled = bool(after.alive)          # (a Fish still swims: the stalemate variant)
            lines.append("the sea has settled: no Damage and no Adapting for "
                         f"{engine.stalemate} Rounds, a draw" if settled
                         else "the last Fish are defeated together: a draw")
        elif cfg.school_battle:
            team = [seats[q] for q in range(cfg.n) if cfg.team[q] == cfg.team[w]]
            lines.append(f"the School of {' and '.join(team)} wins")
        else:
            lines.append(f"{seats[w]} wins: the last Fish swimming")
    return "\n".join(lines)


def _strike_words(before, after, hurt) -> list[str]:
    """An Attack or Ram from st.last: the Hide and Fear checks, the roll against Survival,
    the Damage both ways and the chances that took (Poisonous, Stun, Counter Poison)."""
    a, q, ram, result, nat, total, surv, dmg, counter, gained, crit = after.last
    seats = after.cfg.seats
    fa, fq = before.fish[a], before.fish[q]
    lines = []
    if fq.hide:
        if result == "hidden":
            return [f"Hide check: d{CHECK_DIE} rolled {nat}, within {seats[q]}'s Hide {fq.hide}: no "
                    f"Attack, {seats[a]} chooses another Action"]
        lines.append(f"Hide check: {seats[q]} is found")
    if fq.s.fear and not fa.s.imm & IM_FEAR:
        if result == "feared":
            lines.append(f"Fear check: d{CHECK_DIE} rolled {nat}, within {seats[q]}'s Fear "
                         f"{fq.s.fear}: {seats[a]} loses its nerve, the Action is spent")
            return lines
        lines.append(f"Fear check: {seats[a]} keeps its nerve")
    if not ram:
        die = f"d{fa.s.die}" if fa.s.die else "the Guppy die"
        verdict = (f"a Critical: it connects, +d{CRITICAL_DIE} Damage" if crit and total <= surv
                   else f"a hit, and a Critical: +d{CRITICAL_DIE} Damage" if crit else result)
        # the Ferocity, and apart the bonuses the Attack Total added (the rulebook's step 4)
        bonus = "".join(f" + {plus} {why}" for why, plus, on in (
            ("Electroreception", ELECTRO_BONUS, fa.s.electro and fq.s.level < fa.s.level),
            ("for landing", LANDING_BONUS, fa.splash)) if on)
        lines.append(f"{die} rolled {nat} + {fa.s.fer} Ferocity{bonus} = {total} against "
                     f"Survival {surv}: {verdict}")
    if result == "miss":
        lines.append(f"{seats[a]} gains {gained} exp")
        if fq.s.sneaky:
            lines.append(f"{seats[q]} (Sneaky) gains {fq.s.sneaky} exp")
        return lines
    hurt[q] += dmg
    lead = "Ram: " if ram else ""
    lines.append(lead + (_damage_words(before, after, q, dmg) if dmg
                         else f"{seats[q]}'s Armor stops all the Damage"))
    if gained:
        lines.append(f"{seats[a]} gains {gained} exp for the tie")
    ta, tq = after.fish[a], after.fish[q]
    if tq.poison > fq.poison and tq.alive:
        lines.append(f"Poisonous: {seats[q]} is poisoned (Poison {tq.poison})")
    if tq.stun and not fq.stun and tq.alive:
        lines.append(f"Stun: {seats[q]} is stunned")
    if ta.poison > fa.poison and ta.alive:
        lines.append(f"Counter Poison: {seats[a]} is poisoned (Poison {ta.poison})")
    if counter:
        hurt[a] += counter
        back = " and ".join(n for n, v in (("Counter Attack", fq.s.counter), ("Shock", fq.s.shock)) if v)
        lines.append(f"{back}: " + _damage_words(before, after, a, counter))
    return lines


def _damage_words(before, after, q, d) -> str:
    """Fish q takes d (> 0) Damage on top of what it had `before`: what is left, or defeat
    (Damage above Health, or any Damage on a Fish already above it)."""
    f = before.fish[q]
    now = f.dmg + d
    hp = after.fish[q].s.hp
    name = after.cfg.seats[q]
    if f.fragile or now > hp:
        return f"{name} takes {d} Damage and is defeated"
    return f"{name} takes {d} Damage (now {now} Damage, Health {hp})"


def _selection_words(engine, after, entry, chosen, why) -> str:
    """One Random Selection (an st.rslog entry), after `why` (whose and why, when it is not
    the acting Fish's own); `chosen`: the card of your choice just taken (the action named
    it: only where it went)."""
    p, roll, result, c, outcome = entry
    cfg = after.cfg
    went = {"adapted": "Adapted", "pgp": "kept in the PGP",
            "discarded": "discarded (the PGP is full)",
            "left": "left in the stream (no higher than its own Body)"}.get(outcome, outcome)
    name = engine._card_name(after, c)
    if chosen:
        return f"{name}: {went}"
    head = f"{why}d{PERCENTILE} rolled {roll}"
    if result == "exp":
        amount = next((row[2] for row in cfg.chart if roll <= row[0]), cfg.chart[-1][2])
        return f"{head}: +{amount} exp"
    what = "the card of its choice" if result == "choice" else result
    if outcome == "choosing":
        return f"{head}: {what}"
    if outcome == "empty":
        return f"{head}: {what}, but the stream has no card there"
    return f"{head}: {what}, {name}, {went}"


def _auto_words(engine, before, after, q) -> str:
    f0, f1 = before.fish[q], after.fish[q]
    head = f"{after.cfg.seats[q]} reaches {engine.auto_at} exp: Auto-Adapt"
    if f1.body == f0.body:
        return f"{head} finds no Body one Level up, nothing happens"
    t = after.cfg.ct[f1.body]
    paid = "from its PGP" if f1.body in f0.pgp else f"paying {engine.cost[t]} exp"
    return f"{head}s {engine.names[t]} (Level {engine.level[t]}) {paid}"


def _turn_start_words(before, after, hurt) -> list[str]:
    """Regeneration, Poison and a Jump's landing at the start of each Turn that began during
    the action: the next Fish's, and those of Fish that Poison defeated before they played.
    Said only when they account exactly for the Fish's Damage now."""
    if after.turnno == before.turnno or (after.over and after.win is None and after.alive):
        return []          # (no Turn began, or the sea settled before its steps ran)
    lines = []
    for q, (f0, f1) in enumerate(zip(before.fish, after.fish, strict=True)):
        mid = f0.dmg + hurt[q]
        s = f0.s
        by_action = hurt[q] and (f0.fragile or mid > s.hp)
        if not f0.alive or by_action or (q != after.turn and f1.alive):
            continue
        who = after.cfg.seats[q]
        heal = min(mid, s.regen) if mid and s.regen else 0
        pois = f1.poison - s.res[R_POISON] if f1.poison > s.res[R_POISON] else 0
        if f1.alive and mid - heal + pois != f1.dmg:
            continue
        if heal:
            lines.append(f"start of {who}'s Turn: Regeneration removes {heal} Damage (now "
                         f"{mid - heal} Damage, Health {s.hp})")
        if pois:
            left = f"(now {f1.dmg} Damage, Health {s.hp})" if f1.alive else "and is defeated"
            lines.append(f"start of {who}'s Turn: Poison {f1.poison}, {who} takes {pois} "
                         f"Damage {left}")
        if f1.splash and not f0.splash:
            lines.append(f"start of {who}'s Turn: it lands from its Jump, +{LANDING_BONUS} Ferocity on an "
                         "Attack this Turn")
    return lines
