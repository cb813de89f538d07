"""A.D.A.P.T.: the match: the initial state, apply_chosen and the flow of a Turn (its start,
Experience, Damage, the end of the match), clone (TurnsMixin)."""

from __future__ import annotations

import random
from math import floor

from cardgen.engines.base import Setup, redeal

from .constants import (
    AIRBORNE_EXP,
    IDLE_CD,
    IM_POISON,
    MAX_LEVEL,
    N_SA,
    NEXT_ALIVE,
    NO_CARD,
    NOBODY,
    P_ACTION,
    P_CHOICE,
    P_OVER,
    P_SCHOOL,
    P_SECOND,
    PERCENTILE,
    R_POISON,
    RES_ACTION,
    RES_END,
    RES_SETUP,
    SA_HIDE,
    SA_JUMP,
)
from .state import AdaptState, new_state, shuffle


class TurnsMixin:
    __slots__ = ()

    # -- the match ------------------------------------------------------------------------------
    def initial_state(self, setup: Setup, rng: random.Random) -> AdaptState:
        o = setup.options or {}
        players = int(o.get("players", len(setup.seats) or 2))
        variants = tuple(o.get("variants") or ())
        boxes = int(o.get("boxes") or (2 if players >= 4 else 1))
        deck = o.get("deck")
        seats = tuple(setup.seats) if len(setup.seats) == players else None
        key = (players, variants, None if deck is None else tuple(deck), boxes, seats)
        cfg = self._config_cache.get(key)
        if cfg is None:
            cfg = self._config(players, variants, seats)
            cfg.ct = self._deck_types(deck, variants, boxes)
            self._finish_config(cfg)
            self._config_cache[key] = cfg
        st = new_state(cfg, rng, self.guppy_s)
        st.deck = deck = list(range(cfg.total))
        shuffle(rng, deck)
        slots = cfg.slots
        if len(deck) >= slots:
            # Dealt from the highest slot down, one card at a time off the top (the list's end):
            # the top `slots` cards, in the order they lie.
            st.stream = deck[-slots:]
            del deck[-slots:]
        else:
            for i in range(slots - 1, -1, -1):
                st.stream[i] = self._draw(st)
        self._opening_selection(st)
        return st

    def _opening_selection(self, st):
        n = st.cfg.n
        while True:
            rolls = [self._roll(st, PERCENTILE) for _ in range(n)]
            if len(set(rolls)) == n:
                break
        st.rolls = rolls
        order = sorted(range(n), key=rolls.__getitem__, reverse=True)      # (no ties)
        st.first = order[0]
        st.queue = order
        self._setup_next(st)

    def _setup_next(self, st):
        # Each Fish applies the roll that set the order: nobody rolls a second time. The stream
        # cycles after a card was taken; with none taken nothing expires (that happens only in a
        # player's Turn).
        while st.queue:
            p = st.queue.pop(0)
            st.removed = False
            if self._rs_roll(st, p, RES_SETUP, st.rolls[p]):
                return
            if st.removed:
                self._cycle(st)
        self._end_turn(st, begin=st.first)

    def first_player(self, state) -> int:
        return state.first

    def current_player(self, st) -> int:
        if not st.phase:                 # P_ACTION (0), the usual case; a match over is in P_OVER
            return st.turn
        ph = st.phase
        if st.over:
            return NOBODY
        return st.chooser if ph == P_CHOICE else st.turn

    def is_over(self, st) -> bool:
        return st.over

    def winner(self, st):
        return st.win

    @staticmethod
    def _roll(st, sides):
        f = st.forced
        if f:
            return f.pop()
        return floor(st.rng.random() * sides) + 1         # (as int(), for a product >= 0)

    def _draw(self, st):
        deck = st.deck
        if not deck:
            if not st.discard:
                return NO_CARD
            deck.extend(st.discard)
            st.discard.clear()
            shuffle(st.rng, deck)
        return deck.pop()

    # -- applying actions ---------------------------------------------------------------------------
    def apply_chosen(self, st, action):
        # (The unchecked simulator's entry, so the check lives in apply, which calls this.)
        st.legal = None
        kind = action[0]
        p = st.turn
        # (A legal "choose" is the P_CHOICE phase's only action, so the kind says the phase.)
        if kind == "buy":
            # Buy (inline: the most common action): pay its cost, then Adapt it at once if the
            # Fish can also pay that, else it waits in the PGP.
            f = st.fish[p]
            cfg = st.cfg
            stream = st.stream
            i = action[1] - 1
            c = stream[i]
            stream[i] = -1                          # = NO_CARD
            st.removed = True
            exp = st.exp
            tm = cfg.team[p]
            e = exp[tm] - cfg.icost[c]
            extra = cfg.adaptprice[f.s.level][c]
            if extra <= e:
                exp[tm] = e - extra
                self._adapt(st, p, c)
            else:
                exp[tm] = e
                f.pgp.append(c)
                f.hold = None
            if f.s.school:
                self._after_action(st)
            else:
                self._end_turn(st)                  # no School to send: the Turn ends
        elif kind == "wipe":
            self._wipe(st, p)
            if st.fish[p].s.school:
                self._after_action(st)
            else:
                self._end_turn(st)                  # no School to send: the Turn ends
        elif kind == "attack" or kind == "ram":
            done = self._attack(st, p, action[1], kind == "ram")
            if done and not st.over:
                if st.fish[p].s.school:
                    self._after_action(st)
                else:
                    self._end_turn(st)
        elif kind == "adapt":
            f = st.fish[p]
            ct = st.cfg.ct
            iname = st.cfg.iname
            name = action[1]
            for c in f.pgp:
                if iname[c] == name:
                    break
            team = st.cfg.team[p]
            extra = self._adapt_cost(st.cfg, f, ct[c], st.exp[team])
            f.pgp.remove(c)
            f.hold = None
            st.exp[team] -= extra
            self._adapt(st, p, c)
            self._after_action(st)
        elif kind == "end":
            if st.phase == P_SCHOOL:
                self._end_turn(st)
            else:
                self._after_action(st)
        elif kind == "school":
            self._school(st, p, action[1])
        elif kind == "hide":
            f = st.fish[p]
            st.exp[st.cfg.team[p]] -= f.s.level
            f.hide = f.s.hide
            f.rare = True
            if f.s.cd[SA_HIDE]:
                f.cd[SA_HIDE] = f.s.cd[SA_HIDE]
            st.phase = P_SECOND
        elif kind == "bait":
            self._bait(st, p, action[1])
        elif kind == "jump":
            f = st.fish[p]
            f.jump = action[1]
            f.jlen = f.s.jump            # the Jump value its Cooldown counts from (+ 1)
            f.rare = True
            st.air |= 1 << p
            self._after_action(st)
        elif kind == "random":
            if not self._rs_roll(st, p, RES_END):
                self._end_turn(st)
        elif kind == "choose":
            p = st.chooser
            self._rs_take(st, p, action[1] - 1, "choice")
            st.phase = P_ACTION
            st.chooser = NOBODY
            self._resume(st)
        else:  # pass
            self._after_action(st)
        return st

    def _resume(self, st):
        r = st.resume
        if r == RES_SETUP:
            if st.removed:
                self._cycle(st)
            self._setup_next(st)
        elif r == RES_END:
            self._end_turn(st)
        # RES_ACTION: the Turn goes on with its Action

    def _after_action(self, st):
        if st.over:
            return
        p = st.turn
        f = st.fish[p]
        if (f.s.school and f.alive and st.attacked != st.turnno and st.wiped != st.turnno and f.jump == 0
                and f.sblock != st.turnno and st.alive & st.cfg.foes[st.cfg.team[p]]):
            st.phase = P_SCHOOL
            return
        self._end_turn(st)

    def _end_turn(self, st, begin=None):
        """The Turn ends (the stream cycles) and the next living Fish's Turn begins, with its
        start-of-Turn steps; with `begin` (a seat), only Fish begin's Turn begins (the setup,
        scenarios). One function for both, as nearly every action ends a Turn."""
        fish = st.fish
        if begin is None:
            p = st.turn
            f = fish[p]
            # The stream cycles (as _cycle; its two common cases inline). -1: NO_CARD.
            stream = st.stream
            deck = st.deck
            if st.removed:
                if deck and stream.count(-1) == 1:
                    stream.remove(-1)
                    stream.insert(0, deck.pop())    # (the next Turn clears st.removed)
                else:
                    self._cycle(st)
            elif deck and -1 not in stream:
                st.discard.append(stream.pop())    # nothing left this Turn: the last slot expires
                stream.insert(0, deck.pop())
            else:
                self._cycle(st)
            if f.rare:
                f.stun = False
                f.bait = NOBODY
                f.splash = False
            if st.over:
                st.phase = P_OVER
                return
            p = NEXT_ALIVE[st.alive][p]
        else:
            p = begin
        cfg = st.cfg
        while True:
            st.turn = p
            st.phase = P_ACTION
            st.removed = False           # (st.attacked and st.wiped hold a turnno: no reset)
            st.blocked = 0
            st.turnno += 1
            quiet = st.quiet = st.quiet + 1
            if (quiet > self.settle_min and cfg.stalemate
                    and quiet > self.stalemate * st.alive.bit_count()):
                # The stalemate house rule: no Damage and no Adapting for that many Rounds, the
                # sea has settled, a tie. (The published rules have no such end: without the
                # variant a match that never ends runs into the simulator's action cap.)
                st.over = True
                st.win = None
                st.phase = P_OVER
                return
            f = fish[p]
            gain = cfg.turn_exp + f.s.smart
            if f.rare:
                gain = self._turn_start_rare(st, p, f, gain)
                if gain is None:
                    # Defeated at the start of its Turn: the Turn ends, the stream still cycles.
                    self._check_over(st)
                    if st.over:
                        st.phase = P_OVER
                        return
                    self._cycle(st)
                    p = NEXT_ALIVE[st.alive][p]
                    continue
            if gain > 0:
                exp = st.exp
                tm = cfg.team[p]
                e = exp[tm] + gain
                if e < cfg.plain_gain_below:
                    exp[tm] = e                        # nothing to trigger: the common case
                elif exp[tm] != cfg.cap:
                    # (At the cap, which late in a match is every Turn, a gain changes nothing
                    # and triggers nothing: _gain fills the pool only when it was below.)
                    self._gain(st, p, gain)
            if cfg.school_battle:
                tm = cfg.team[p]
                if st.rsdue[tm] and f.jump <= 0:
                    # (a Fish in the air may not Adapt by Random Selection: it waits for the
                    # School's next Fish to start a Turn in the water)
                    st.rsdue[tm] = False
                    self._rs_roll(st, p, RES_ACTION)
            return

    def _turn_start_rare(self, st, p, f, gain):
        """The start-of-Turn steps of a Fish with f.rare set (Hiding, Damage and Regeneration,
        Poison, Cooldowns, a Jump, more than one Auto-Adapt, stunned, Baited, landed; every Fish
        in a School battle): the Turn's Experience `gain` as they change it, or None if Poison
        defeated the Fish. A Fish with none of these only gains its Experience, so the usual Turn
        start skips all their tests. (The Cooldowns and the Jump tick before the Experience is
        added, not after: the Experience, and an Auto-Adapt it triggers, reads neither.)
        Whatever sets one of them again sets f.rare."""
        s = f.s
        f.hide = 0
        if f.dmg and s.regen:
            f.dmg = max(0, f.dmg - s.regen)
            if f.fragile and f.dmg <= s.hp:
                f.fragile = False
        if f.poison:
            if s.imm & IM_POISON:
                f.poison = 0
            elif f.poison > s.res[R_POISON]:
                self._hurt(st, p, f.poison - s.res[R_POISON])
                if not f.alive:
                    return None
        multi = st.cfg.multi
        if f.jump > 0:
            gain -= AIRBORNE_EXP
        if f.auto > 1 and multi:
            gain -= f.auto - 1
        cd = f.cd
        if cd != IDLE_CD:
            for i in range(N_SA):
                if cd[i]:
                    cd[i] -= 1
        if f.jump > 0:
            f.jump -= 1
            if f.jump == 0:
                st.air &= ~(1 << p)
                f.splash = True
                cd[SA_JUMP] = max(cd[SA_JUMP], f.jlen + 1)
        # (The likeliest first; only its truth is read.)
        f.rare = (cd != IDLE_CD or f.jump or f.poison or (f.dmg and s.regen) or f.splash or f.stun
                  or f.bait >= 0 or (f.auto > 1 and multi) or st.cfg.school_battle)
        return gain

    def _gain(self, st, p, amount):
        f = st.fish[p]
        if not f.alive or amount <= 0:
            return
        cfg = st.cfg
        tm = cfg.team[p]
        e = st.exp[tm]
        cap = cfg.cap
        ne = e + amount
        if ne > cap:
            ne = cap
        st.exp[tm] = ne
        if cfg.school_battle:
            if ne == cap and e < cap:
                st.rsdue[tm] = True
        elif ne >= self.auto_at > e and (cfg.multi or f.auto == 0) and f.s.level < MAX_LEVEL:
            self._auto_adapt(st, p)

    def _hurt(self, st, q, d):
        if d <= 0:
            return
        f = st.fish[q]
        if not f.alive:
            return
        f.dmg += d
        if f.s.regen:
            f.rare = True
            # Only Damage beyond the highest so far unsettles the sea: Damage healed as fast as it
            # comes (Poison against Regeneration) could otherwise go on for ever. Regeneration is the
            # only healing, so a Fish without it has never had more Damage than now: every hit of
            # it counts at once, and f.peak is kept for Fish with Regeneration only.
            if f.dmg > f.peak:
                f.peak = f.dmg
                st.quiet = 0
        else:
            st.quiet = 0
        if f.fragile or f.dmg > f.s.hp:
            f.alive = False
            st.alive &= ~(1 << q)

    def _check_over(self, st):
        team = st.cfg.team
        alive = {team[q] for q, f in enumerate(st.fish) if f.alive}
        if len(alive) <= 1:
            st.over = True
            st.phase = P_OVER
            if alive:
                (tm,) = alive
                st.win = min(q for q, f in enumerate(st.fish) if f.alive and team[q] == tm)
            else:
                st.win = None

    # -- clone ---------------------------------------------------------------------------------------
    def determinize(self, st, player, rng):
        """The match as `player` may believe it: the gene stream deck in a new order (the only
        cards nobody sees; the stream, the discards and every Fish's parts are open)."""
        w = super().determinize(st, player, rng)
        redeal(rng, [w.deck])
        return w

    def clone(self, st):
        c = AdaptState.__new__(AdaptState)
        cls = type(st.rng)
        rng = cls.__new__(cls)
        rng.setstate(st.rng.getstate())
        c.rng = rng
        c.cfg = st.cfg
        c.fish = [f.copy() for f in st.fish]
        c.exp = st.exp[:]
        c.stream = st.stream[:]
        c.deck = st.deck[:]
        c.discard = st.discard[:]
        c.turn = st.turn
        c.phase = st.phase
        c.chooser = st.chooser
        c.resume = st.resume
        c.removed = st.removed
        c.attacked = st.attacked
        c.wiped = st.wiped
        c.blocked = st.blocked
        c.over = st.over
        c.win = st.win
        c.turnno = st.turnno
        c.forced = st.forced[:] if st.forced else None
        c.rsdue = st.rsdue[:]
        c.legal = st.legal
        c.last = st.last
        c.queue = st.queue[:]
        c.first = st.first
        c.rslog = st.rslog[:]
        c.rolls = st.rolls
        c.quiet = st.quiet
        c.alive = st.alive
        c.air = st.air
        return c
