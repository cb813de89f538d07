"""Amfibido: the reference engine (two players, three dojos, first to 4 round wins).

The match, as the engine plays it (content/amfibido/game.yaml `tables` holds the numbers and
`tables.rulings` the choices made where the rulebook is silent):

- Setup: the five level decks are shuffled separately (``state.rng``); each player draws 3 level I
  cards. With sensei (the default; Setup option ``sensei: false`` for a first game) each player is
  dealt 3 sensei, keeps 1 (player 0 chooses first) and the other 2 go to the bottom of the sensei
  deck. A random player starts round 1. `setups()` gives one Setup per box deck (decks/*.yaml:
  the first-game box without sensei, the standard box with them); options are ``box`` (card name
  -> copies) and ``sensei``.
- Draft: each player is dealt 3 cards from the active levels of the round table (highest level
  first, cycling; the starting player is dealt first), picks 1 (starting player first), passes the
  other 2, picks 1 of the 2 received and discards the last. An empty level deck is refilled from
  that level's discards, else the nearest active level with cards deals (lower first).
- Field phase: from the starting player, players alternate single actions until both have passed
  (after passing you take no more actions; the other goes on alone). Actions: field a fighter
  (replacing = retiring the one there), add equipment (one per dojo, two where the fighter allows
  it), play a combo move on one of your fighters, play an action card, use an action ability
  (once per round per card; its cost is paid first), pass.
- Fight: per dojo, the fighter with the higher total power wins (equal: draw; unopposed: wins;
  empty on both sides: draw). Total power = base + equipment + abilities + combo moves, checked at
  the fight, never below 0. A round is won with 2-3 fight wins or 1 win and 2 draws, otherwise it
  is a draw. 4 round wins end the game; after round 12 more round wins takes it (equal: draw).
- End of round, in the rulebook's order: end-of-round abilities (a player chooses when two of
  their own apply to one fighter, or whether to use a "may"); knockout piles go back to hand;
  combo moves are discarded (boomerang ones go to the knockout pile); losing fighters go back to
  hand, or to the knockout pile if knocked out; winners and draws stay. The round winner starts
  the next round; after a drawn round the player who did not start does.
- Keywords: Transform (retire; reveal the next level's deck, level V stays at V, until a card of
  the same type shows; the rest go to the bottom in random order; it keeps its combo moves and
  does not enter the dojo; no such card available: it stays; none in the whole box:
  RuleConflict), Knockout, Boomerang, Switcheroo (move to another of your dojos, swapping with
  a card of the same type there; a moved fighter enters its new dojo, its combo moves follow it),
  Neutralize (text and action ability ignored, printed power still counts; mutual neutralizers:
  the one that came into play last wins).

Card text is read by a small grammar (cardgen/engines/amfibido_parts/grammar.py);
`unsupported_cards()` names every card with a sentence it does not know. The rest of the
sub-package: state.py (the state, the box and shared constants) and views.py (invariants,
describe, scenario setups, observe).

Actions (tuples; dojos are numbered 1-3; a position code names a card in a dojo: ``F2`` is the
fighter of dojo 2, ``E2`` its (first) equipment, ``E2b`` its second equipment; ``S`` is your
sensei; whose card a code means follows from the effect: "an opposing fighter" reads the
opponent's dojos)::

    ("sensei", "Master Ripple")           keep this sensei (setup)
    ("pick", "Tree Frog")                 draft pick
    ("pass",)
    ("field", "Tree Frog", 2)             field a fighter from hand into dojo 2
    ("equip", "Sai", 2)                   add equipment to dojo 2 (replaces the one there, unless
                                          the fighter there allows a second and there is room)
    ("equip", "Sai", 2, "E2b")            ... a full two-equipment dojo: which one to replace
    ("combo", "Jab", 2)                   play a combo move on your fighter in dojo 2
    ("play", "Disarm", "E3")              play an action; its first choice follows the name:
                                          a position code, a switcheroo move ("F1", "F3") = from,
                                          to, a card name (knockout pile), a level (draw), or
                                          nothing (effects without a choice)
    ("ability", "E1", ...)                use the action ability of a card (its position code, or
                                          "S"), then the effect's first choice as for "play"
    ("choose", ...)                       a pending choice: the next target of an effect, the card
                                          a cost or an "enters a dojo: discard" takes (its name),
                                          the equipment to retire from an over-full dojo ("E2b"),
                                          an end-of-round choice ("F1", "retire" | "hand" |
                                          "transform" | "stay")
    ("done",)                             stop an "up to two" / "any number" effect early

Scenario actions (`parse_action`): the tuple written as a YAML list (``[field, Tree Frog, 2]``,
``[play, Quick Step, F1, F2]``) or one word (``pass``, ``done``).

Scenario setup (every key optional; cards come from the full box, the rest is shuffled into the
level decks with the scenario seed)::

    round: 1              # round number (decides the active levels)
    starting: 0           # starting player of this round (and the first player)
    turn: 0               # who acts now (default: the starting player)
    phase: field          # field | draft
    scores: [0, 0]
    passed: [false, false]
    players:              # a list of two mappings (player 0, player 1)
      - hand: [Jab, Tree Frog]
        knockout: []
        sensei: Master Ripple
        draft: []         # phase draft: the cards dealt to this player
        used: []          # names of cards whose action ability was used this round
        dojos:            # up to 3, in order (or a mapping 1/2/3 -> dojo)
          - {fighter: Tree Frog, equipment: [White Belt], combos: [Jab]}
    discard: [Sai]
    decks: {2: [Painted Turtle]}   # the top of a level deck, top card first

Observe (what `expect:` is compared against)::

    round, phase (sensei|draft|field|end of round|over), to_move (-1 once over), starting, first,
    scores: [p0, p1], over, winner (0 | 1 | "draw" | null), passed: [p0, p1],
    pending (null, or "target" | "cost" | "discard" | "retire equipment" | "end of round"),
    p0 / p1: {hand (sorted names), hand_size, knockout (sorted), sensei, draft (sorted),
              dojos: {1: {fighter, equipment: [...], combos: [...], fighting (the card fighting
              there: the fighter, or a Komodo Dragon from another dojo), power (total power if
              the fight were now; null without a fighter), knockout (it would knock out a beaten
              opponent), neutralized (sorted names of its neutralized cards)}, 2: ..., 3: ...},
              powers: [dojo 1, dojo 2, dojo 3]},
    discard (sorted), decks: {1: size, ..., 5: size}, deck_tops: {level: top card or null},
    last_round (null, or {results: {p0: [win|lose|draw x3], p1: [...]}, powers: {p0, p1},
                winner: 0 | 1 | "draw", knocked_out: {p0: [names], p1: [names]}})
"""

from __future__ import annotations

import random
from operator import attrgetter
from pathlib import Path

from cardgen.engines.base import Engine, IllegalAction, RuleConflict, Setup

from .grammar import (
    ACTION,
    C_DISCARD,
    C_HAND_TO_KO,
    C_RETIRE_SELF,
    EQUIP,
    FIGHTER,
    KO_ALWAYS,
    KO_COMBO,
    KO_OTHER,
    S_ALL_F,
    S_FACE_E,
    S_FACE_F,
    S_FACE_FE,
    S_HERE_F,
    S_KO_ALL,
    S_KO_CARD,
    S_OPP_ALL,
    S_OPP_E,
    S_OPP_F,
    S_OPP_FDOJO,
    S_OPP_FE,
    S_OWN_E,
    S_OWN_F,
    S_OWN_FE,
    S_SELF,
    SENSEI,
    TYPE_IDS,
    TYPE_NAMES,
    V_DRAW,
    V_KO,
    V_KORET,
    V_NEUT,
    V_PLUS,
    V_RETIRE,
    V_SWITCH,
    V_TOHAND,
    V_TRANSFORM,
    CardInfo,
    Grammar,
)
from .state import (
    AB_HEAD,
    CODE,
    DEFAULT_ACTIVE,
    DOJO_BOUND,
    DONE,
    DRAW,
    DRAWN,
    EC,
    EMPTY,
    EOR,
    FC,
    FIELD,
    K_ACTION,
    K_COMBO,
    K_EQUIP,
    K_FIGHTER,
    K_NONE,
    LOSE,
    ND,
    NOFIGHT,
    NOOPT,
    OPT_E,
    OPT_F,
    OVER,
    P_COST,
    P_DISCARD,
    P_EOR,
    P_OVERCAP,
    P_STEP,
    PASS,
    PICK1,
    PICK2,
    R3,
    ROMAN,
    SENSEI_PH,
    SWE,
    SWF,
    WIN,
    AState,
    Box,
    NoSensei,
    _shuffle,
)
from .views import ViewsMixin

_OWN_SIDE = frozenset((S_OWN_F, S_OWN_E, S_OWN_FE, S_ALL_F, S_HERE_F, S_SELF))
_SEL_F = frozenset((S_OWN_F, S_OPP_F, S_OPP_FDOJO, S_OWN_FE, S_OPP_FE))
_SEL_F_ONLY = frozenset((S_OWN_F, S_OPP_F, S_OPP_FDOJO))
_SEL_E = frozenset((S_OWN_E, S_OPP_E, S_OWN_FE, S_OPP_FE))
# switcheroo moves of the fighter of dojo d to each other dojo
_SWF_OUT = tuple(tuple(SWF[d][e] for e in R3 if e != d) for d in R3)
# the dojo each player's fighters fight from when no Komodo Dragon is in play: their own
_OWN_DOJOS = (0, 1, 2)
# the fight results and knockouts between rounds (a fight stores new lists)
_NO_RESULTS = ((NOFIGHT,) * ND, (NOFIGHT,) * ND)
_NO_KNOCKOUTS = ((False,) * ND, (False,) * ND)

# What the choices of an effect's first step depend on (_Chooser.depends): the state at large
# (a draw, a knockout-pile return), or the layout of one side: which dojos hold a fighter, how
# much equipment each dojo holds, both, or both and which dojos may take a second equipment (a
# switcheroo that can move equipment).
_ON_STATE, _ON_FIGHTERS, _ON_EQUIPMENT, _ON_BOTH, _ON_ROOM = range(5)
_FIGHTERS_ONLY = frozenset((S_OWN_F, S_OPP_F, S_OPP_FDOJO, S_ALL_F, S_HERE_F, S_FACE_F, S_SELF))
_EQUIPMENT_ONLY = frozenset((S_OWN_E, S_OPP_E, S_FACE_E))


class _Chooser:
    """A field-phase action that picks a target: its head (("play", name), ("ability", code)),
    the first step of its effect, where it is played from, and its actions per layout."""

    __slots__ = ("head", "step", "src", "own", "depends", "known")

    def __init__(self, head, step, src):
        self.head, self.step, self.src = head, step, src
        self.known = {}
        v, sel = step.verb, step.sel
        if v in (V_DRAW, V_KORET):
            self.own, self.depends = True, _ON_STATE
        elif v == V_SWITCH:     # always your own cards
            moves_equipment = sel in (S_OWN_E, S_OWN_FE) or (sel == S_SELF and CODE[src][0] == 1)
            self.own, self.depends = True, _ON_ROOM if moves_equipment else _ON_FIGHTERS
        else:
            self.own = sel in _OWN_SIDE
            self.depends = (_ON_FIGHTERS if sel in _FIGHTERS_ONLY else
                            _ON_EQUIPMENT if sel in _EQUIPMENT_ONLY else _ON_BOTH)


class AmfibidoEngine(ViewsMixin, Engine):
    game_id = "amfibido"
    max_actions = 1500
    keywords = frozenset({"Transform", "Knockout", "Boomerang", "Switcheroo", "Neutralize"})
    # more than 30 attributes: all in slots, one added in __init__ too (docs/engines.md says why)
    __slots__ = ("game", "wins_needed", "active", "last_table_round", "round_limit", "deal", "plans",
                 "creatures", "grammar", "no_sensei", "_unsupported", "infos", "by_name", "d_of", "A_pick",
                 "A_sensei", "A_field", "A_equip", "A_equip_r", "A_combo", "A_choose_name", "A_play",
                 "kind_d", "step0", "A_combo_to", "cost_from_hand", "play_chooser", "ability_chooser",
                 "pw_extra", "_boxes", "_box_last")      # (is_over: in __dict__, over the method)

    def __init__(self, game):
        super().__init__(game)
        tables = game.tables or {}
        self.wins_needed = int(tables.get("wins_needed", 4))
        draft = tables.get("draft") or {}
        raw = draft.get("active_levels") or DEFAULT_ACTIVE
        self.active = {int(k): [int(x) for x in v] for k, v in raw.items()}
        self.last_table_round = max(self.active)
        self.round_limit = int(draft.get("round_limit", 12))
        self.deal = int(draft.get("deal", 3))
        self.plans = {}
        for r, levels in self.active.items():
            order = sorted(set(levels), reverse=True)
            plan = [order[i % len(order)] for i in range(self.deal)] if order else []
            fallback = {lv: [x for x in sorted(levels, key=lambda x, lv=lv: (abs(x - lv), x))
                             if x != lv] for lv in levels}
            self.plans[r] = (plan, fallback)
        creatures = list(tables.get("creatures") or [])
        for card in game.cards.values():
            c = card.get("creature")
            if c and c not in creatures:
                creatures.append(c)
        self.creatures = creatures
        self.grammar = Grammar(creatures)
        self.no_sensei = NoSensei(len(creatures))
        self._unsupported: dict[str, str] = {}
        self.infos: list[CardInfo] = []
        self.by_name: dict[str, CardInfo] = {}
        for card in game.cards.values():
            info = self._compile(card)
            self.infos.append(info)
            self.by_name[card.name] = info
        # Precomputed action tuples, by card index.
        self.d_of = {i.name: i.d for i in self.infos}
        self.A_pick = [("pick", i.name) for i in self.infos]
        self.A_sensei = [("sensei", i.name) for i in self.infos]
        self.A_field = [[("field", i.name, d + 1) for d in R3] for i in self.infos]
        self.A_equip = [[("equip", i.name, d + 1) for d in R3] for i in self.infos]
        self.A_equip_r = [[[("equip", i.name, d + 1, EC[d][k]) for k in (0, 1)] for d in R3]
                          for i in self.infos]
        self.A_combo = [[("combo", i.name, d + 1) for d in R3] for i in self.infos]
        self.A_choose_name = [("choose", i.name) for i in self.infos]
        self.A_play = [("play", i.name) for i in self.infos]
        # Per card index: what kind of hand card it is (as Box.kind) and its first effect step.
        self.kind_d = [K_FIGHTER if i.type == FIGHTER else K_EQUIP if i.type == EQUIP
                       else K_COMBO if i.combo else K_ACTION if i.steps else K_NONE
                       for i in self.infos]
        self.step0 = [i.steps[0] if i.steps else None for i in self.infos]
        # combo actions by the dojos whose fighter takes combo moves (bit d = dojo d + 1)
        self.A_combo_to = [[tuple(self.A_combo[i.d][d] for d in R3 if bits >> d & 1)
                            for bits in range(8)] for i in self.infos]
        # an action ability whose cost takes a card from the hand needs a hand
        self.cost_from_hand = [i.cost in (C_DISCARD, C_HAND_TO_KO) for i in self.infos]
        # The choosers of field-phase actions whose effect picks a target (see _chosen_actions):
        # per card, its "play" action, and its action ability from each place it can be in.
        self.play_chooser = [_Chooser(self.A_play[i.d], i.steps[0], None) if i.steps else None
                             for i in self.infos]
        self.ability_chooser = [
            {src: _Chooser(AB_HEAD[src], i.ab_steps[0], src)
             for src in (FC if i.type == FIGHTER else (c for pair in EC for c in pair)
                         if i.type == EQUIP else ("S",))} if i.ab_steps else None
            for i in self.infos]
        self.pw_extra = [bool(i.hand_fighter or i.per_other_n or i.if_other_n or i.if_behind
                              or i.if_equipped) for i in self.infos]
        self._boxes: dict = {}
        # the simulator calls is_over once per action: read the state's flag without a Python call
        self.is_over = attrgetter("over")
        self._box_last: dict = {}

    # -- card text ------------------------------------------------------------------------------
    def _compile(self, card) -> CardInfo:
        g = self.grammar
        ctype = TYPE_IDS.get(card.type, -1)
        info = CardInfo(len(self.infos), card.name, ctype, len(self.creatures))
        f = card.fields
        info.level = int(f.get("level") or 0)
        info.power = int(f.get("power") or 0)
        cr = f.get("creature")
        info.creature = g.cr_index.get(cr, -1) if cr else -1
        info.weapon = bool(f.get("weapon"))
        info.combo = bool(f.get("combo"))
        info.bonus = int(f.get("bonus") or 0)
        info.boom = bool(f.get("boomerang"))
        problems = []
        if ctype < 0:
            problems.append(f"card type {card.type!r} has no rule")
        if ctype == FIGHTER and info.creature < 0:
            problems.append("a fighter needs a creature type")
        if ctype != SENSEI and not 1 <= info.level <= 5:
            problems.append("a card needs a level from I to V")
        text = f.get("text") or ""
        if ctype == ACTION and not info.combo:
            steps, bad = g.parse_effects(text)
            info.steps = tuple(steps)
            if not steps and not bad:
                problems.append("an action that is not a combo move needs an effect")
        else:
            bad = g.parse_static(info, text)
        problems += [f"no rule reads {s!r}" for s in bad]
        ability = f.get("action_ability")
        if ability:
            cost = g.parse_cost(ability.get("cost", ""))
            if cost is None:
                problems.append(f"no rule pays the cost {ability.get('cost')!r}")
            else:
                info.cost = cost
            if cost == C_RETIRE_SELF and ctype != EQUIP:
                problems.append("only equipment can retire itself as a cost")
            steps, bad = g.parse_effects(ability.get("text", ""))
            problems += [f"no rule reads {s!r}" for s in bad]
            if not steps and not bad:
                problems.append("an action ability needs an effect")
            info.ab_steps = tuple(steps)
        if ctype == SENSEI and any(s.sel in DOJO_BOUND for s in info.ab_steps):
            problems.append("a sensei is in no dojo: 'this', 'here' and 'the opposing' mean "
                            "nothing on it")
            info.ab_steps = ()
        if any(s.sel in DOJO_BOUND for s in info.steps):
            problems.append("an action card is in no dojo: 'this', 'here' and 'the opposing' "
                            "mean nothing on it")
            info.steps = ()
        if info.boom and not info.combo:
            problems.append("only combo moves can be boomerang")
        if problems:
            self._unsupported[card.name] = "; ".join(problems)
        if ctype == FIGHTER:
            info.value = info.power + info.level
        elif ctype == EQUIP:
            info.value = info.power + 1
        elif info.combo:
            info.value = info.bonus + 1
        else:
            info.value = info.level + 2
        return info

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self._unsupported)

    # -- setups ---------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        if not decks:
            decks = sorted((Path(self.game.folder) / "decks").glob("*.yaml"))
        out = []
        # Decks of this game reuse the loaded game instead of reading its folder again.
        games = {Path(self.game.folder).resolve(): self.game}
        for deck in decks:
            if isinstance(deck, (str, Path)):
                from cardgen.model import load_deck

                deck = load_deck(Path(deck), games)
            counts: dict[str, int] = {}
            for entry, count in deck.counted_entries():
                counts[entry.card.name] = counts.get(entry.card.name, 0) + count
            sensei = any(self.by_name[n].type == SENSEI for n in counts if n in self.by_name)
            label = deck.name + (" (with sensei)" if sensei else " (no sensei)")
            out.append(Setup(label=label, seats=["Player 1", "Player 2"],
                             options={"box": counts, "sensei": sensei}, cards=frozenset(counts)))
        if not out:
            counts = {c.name: c.copies for c in self.game.cards.values()}
            out.append(Setup(label="Full box (with sensei)", seats=["Player 1", "Player 2"],
                             options={"box": counts, "sensei": True}, cards=frozenset(counts)))
        return out

    def _box(self, counts: dict[str, int], label: str) -> Box:
        # The same counts mapping comes back every match: remember it by identity (and check
        # it is unchanged) before building the sorted key.
        hit = self._box_last.get(id(counts))
        if hit is not None and hit[0] is counts and hit[1] == counts:
            return hit[2]
        key = tuple(sorted(counts.items()))
        box = self._boxes.get(key)
        if box is None:
            unknown = [n for n in counts if n not in self.by_name]
            if unknown:
                raise ValueError(f"unknown cards: {', '.join(unknown)}")
            box = self._boxes[key] = Box(self.infos, counts, label)
        self._box_last[id(counts)] = (counts, dict(counts), box)
        return box

    # -- the match ------------------------------------------------------------------------------
    def initial_state(self, setup: Setup, rng: random.Random):
        opts = setup.options or {}
        counts = opts.get("box") or {c.name: c.copies for c in self.game.cards.values()}
        box = self._box(counts, setup.label)
        st = AState()
        st.rng = rng
        st.box = box
        st.seq = [0] * box.n
        for lv in range(1, 6):
            deck = list(box.levels[lv])
            _shuffle(rng, deck)
            st.decks[lv] = deck
        use_sensei = opts.get("sensei", True) and len(box.sensei) >= 6
        st.sdeck = list(box.sensei)
        _shuffle(rng, st.sdeck)
        deal, level1 = self.deal, st.decks[1]
        for p in (0, 1):
            if len(level1) >= deal:     # the usual box: plain pops, no refill to look at
                st.hand[p] = [level1.pop() for _ in range(deal)]
                continue
            for _ in range(deal):
                c = self._draw_level(st, 1)
                if c >= 0:
                    st.hand[p].append(c)
        st.first = st.start = rng.randrange(2)
        if use_sensei:
            for p in (0, 1):
                st.draft[p] = [st.sdeck.pop() for _ in range(3)]
            st.phase = SENSEI_PH
            st.turn = 0
        else:
            self._start_round(st)
        return st

    def current_player(self, state) -> int:
        if state.over:
            return -1
        pend = state.pend
        return pend[0][1] if pend else state.turn

    def first_player(self, state) -> int:
        return state.first

    def is_over(self, state) -> bool:
        return state.over

    def winner(self, state) -> int | None:
        return state.result if state.result >= 0 else None

    def clone(self, st):
        n = AState.__new__(AState)
        r = random.Random()
        r.setstate(st.rng.getstate())
        n.rng = r
        n.box = st.box
        n.phase, n.round, n.first, n.start, n.turn = st.phase, st.round, st.first, st.start, st.turn
        n.over = st.over
        n.dstep = st.dstep
        n.passed = st.passed[:]
        n.score = st.score[:]
        n.decks = [d[:] for d in st.decks]
        n.sdeck = st.sdeck[:]
        n.discard = st.discard[:]
        n.hand = [st.hand[0][:], st.hand[1][:]]
        n.ko = [st.ko[0][:], st.ko[1][:]]
        n.fighter = [st.fighter[0][:], st.fighter[1][:]]
        e0, e1 = st.equip
        n.equip = [[e0[0][:], e0[1][:], e0[2][:]], [e1[0][:], e1[1][:], e1[2][:]]]
        c0, c1 = st.combos
        n.combos = [[c0[0][:], c0[1][:], c0[2][:]], [c1[0][:], c1[1][:], c1[2][:]]]
        n.sensei = st.sensei[:]
        n.draft = [st.draft[0][:], st.draft[1][:]]
        n.tmp_neut = st.tmp_neut[:]
        n.tmp_ko = st.tmp_ko[:]
        n.tmp_plus = st.tmp_plus[:]
        n.used = st.used[:]
        n.seq = st.seq[:]
        n.nseq = st.nseq
        n.pend = st.pend[:]
        n.result = st.result
        n.last = st.last
        n.res = [st.res[0][:], st.res[1][:]]
        n.kod = [st.kod[0][:], st.kod[1][:]]
        n.fneut = st.fneut
        n.rwin = st.rwin
        n.eor_stage = st.eor_stage
        n.legal = st.legal
        return n

    # -- legal actions --------------------------------------------------------------------------
    def legal_actions(self, st) -> list:
        acts = st.legal
        if acts is not None:
            return acts
        if st.over:
            acts = []
        elif st.pend:
            acts = self._pending_actions(st, st.pend[0])
        elif st.phase == FIELD:
            acts = self._field_actions(st)
        else:
            # a draft pick or the sensei to keep: one action per different card dealt
            table = self.A_pick if st.phase != SENSEI_PH else self.A_sensei
            dof = st.box.dof
            acts = []
            for c in st.draft[st.turn]:
                a = table[dof[c]]
                if a not in acts:
                    acts.append(a)
        st.legal = acts
        return acts

    @staticmethod
    def _distinct(ids, table, info):
        if len(ids) == 1:
            return [table[info[ids[0]].d]]
        out = []
        for c in ids:
            a = table[info[c].d]
            if a not in out:
                out.append(a)
        return out

    def _field_actions(self, st) -> list:
        p = st.turn
        box = st.box
        F = st.fighter[p]
        E = st.equip[p]
        hand = st.hand[p]
        dof = box.dof
        acts = [PASS]
        if hand:
            kind_d = self.kind_d
            A_field = self.A_field
            seen = []
            combo_to = -1       # the dojos taking combo moves, once a combo move asks
            for c in hand:
                dd = dof[c]
                if dd in seen:
                    continue
                seen.append(dd)
                k = kind_d[dd]
                if k == K_FIGHTER:
                    acts += A_field[dd]
                elif k == K_EQUIP:
                    E0, E1, E2 = E
                    if len(E0) < 2 and len(E1) < 2 and len(E2) < 2:
                        acts += self.A_equip[dd]
                    else:
                        ae = self.A_equip[dd]
                        for d in R3:
                            n = len(E[d])
                            if n <= 1:
                                acts.append(ae[d])
                            else:
                                acts += self.A_equip_r[dd][d][:n]
                elif k == K_COMBO:
                    if combo_to < 0:
                        combo_to = 0
                        nocombo = box.nocombo
                        for d in R3:
                            f = F[d]
                            if f >= 0:
                                if nocombo[f] and not self._neutralized(st, p, d, f):
                                    continue
                                combo_to |= 1 << d
                    acts += self.A_combo_to[dd][combo_to]
                elif k == K_ACTION:
                    acts += self._chosen_actions(st, p, self.play_chooser[dd])
        E0, E1, E2 = E
        if not box.abset.isdisjoint([*F, *E0, *E1, *E2]):
            acts += self._board_ability_actions(st, p, bool(hand))
        s = st.sensei[p]
        if box.abl[s] and s not in st.used:
            dd = dof[s]
            if hand or not self.cost_from_hand[dd]:
                acts += self._chosen_actions(st, p, self.ability_chooser[dd]["S"])
        return acts

    def _board_ability_actions(self, st, p, has_hand) -> list:
        """The action abilities of p's cards in the dojos: each fighter, then its equipment (an
        ability whose cost takes a card from the hand needs a hand)."""
        box = st.box
        dof = box.dof
        abl = box.abl
        used = st.used
        cost_from_hand = self.cost_from_hand
        ability_chooser = self.ability_chooser
        F = st.fighter[p]
        E = st.equip[p]
        acts = []
        for d in R3:
            f = F[d]
            if abl[f] and f not in used and (has_hand or not cost_from_hand[dof[f]]) \
                    and not self._neutralized(st, p, d, f):
                acts += self._chosen_actions(st, p, ability_chooser[dof[f]][FC[d]])
            Ed = E[d]
            if not Ed:
                continue
            for e, code in zip(Ed, EC[d], strict=False):
                if abl[e] and e not in used and (has_hand or not cost_from_hand[dof[e]]) \
                        and not self._neutralized(st, p, d, e):
                    acts += self._chosen_actions(st, p, ability_chooser[dof[e]][code])
        return acts

    def _neutralized(self, st, p, d, c) -> bool:
        """Whether card c of player p, in dojo d, is neutralized now. Only an effect of this round
        or a neutralizer of the opponent facing it can reach it: without one, the whole set
        (_neut) is not needed."""
        if c not in st.tmp_neut:
            nsl = st.box.nsl
            o = 1 - p
            if not nsl[st.fighter[o][d]]:
                for e in st.equip[o][d]:
                    if nsl[e]:
                        break
                else:
                    return False
        return c in self._neut(st)

    def _chosen_actions(self, st, p, chooser) -> tuple:
        """The field-phase actions of `chooser`: its head plus each choice its first step offers.

        Apart from a draw or a knockout-pile return, the choices depend only on the layout of
        one side (see _Chooser), so the actions are made once per layout and read back after.
        A layout is a small int: bit d is set when dojo d holds a fighter, then the equipment
        counts of the dojos in 8 bits each (far more than a dojo holds), then the dojos that
        may take a second equipment."""
        depends = chooser.depends
        if depends == _ON_STATE:
            return tuple(map(chooser.head.__add__,
                             self._options(st, p, chooser.step, chooser.src, NOOPT)))
        side = p if chooser.own else 1 - p
        F = st.fighter[side]
        if depends == _ON_FIGHTERS:
            layout = (F[0] >= 0) | (F[1] >= 0) << 1 | (F[2] >= 0) << 2
        else:
            E0, E1, E2 = st.equip[side]
            layout = len(E0) << 3 | len(E1) << 11 | len(E2) << 19
            if depends != _ON_EQUIPMENT:
                layout |= (F[0] >= 0) | (F[1] >= 0) << 1 | (F[2] >= 0) << 2
                if depends == _ON_ROOM:
                    second = st.box.second
                    for d in R3:
                        f = F[d]
                        if f >= 0 and second[f] and not self._neutralized(st, side, d, f):
                            layout |= 1 << (27 + d)
        known = chooser.known
        acts = known.get(layout)
        if acts is None:
            acts = known[layout] = tuple(map(chooser.head.__add__, self._options(
                st, p, chooser.step, chooser.src, NOOPT)))
        return acts

    def _pending_actions(self, st, pe) -> list:
        kind = pe[0]
        info = st.box.info
        if kind == P_STEP:
            _, p, steps, i, src, left, optional, moved = pe
            acts = [("choose",) + o for o in self._options(st, p, steps[i], src, moved)]
            if optional:
                acts.append(DONE)
            return acts
        if kind in (P_COST, P_DISCARD):
            return self._distinct(st.hand[pe[1]], self.A_choose_name, info)
        if kind == P_OVERCAP:
            p, d = pe[1], pe[2]
            E = st.equip[p][d]
            acts = [("choose", EC[d][0])]
            for k in range(1, len(E)):
                if info[E[k]].d != info[E[0]].d:
                    acts.append(("choose", EC[d][k]))
            return acts
        # P_EOR
        return [("choose", FC[pe[2]], w) for w in pe[3]]

    def _options(self, st, p, step, src, moved) -> list:
        """The choices an effect step offers: tuples appended to the action."""
        v = step.verb
        sel = step.sel
        if v == V_SWITCH:
            return self._switch_options(st, p, sel, src, moved)
        if v == V_DRAW:
            return [(lv,) for lv in self._active(st.round) if self._level_available(st, lv)]
        if v == V_KORET:
            ko = st.ko[p]
            if sel == S_KO_ALL:
                return [NOOPT] if ko else []
            info = st.box.info
            out, seen = [], set()
            for c in ko:
                ci = info[c]
                if ci.d not in seen and (sel == S_KO_CARD or ci.type == FIGHTER):
                    seen.add(ci.d)
                    out.append((ci.name,))
            return out
        side = p if sel in _OWN_SIDE else 1 - p
        F = st.fighter[side]
        out = []
        if sel in _SEL_F:
            if moved:
                for d in R3:
                    f = F[d]
                    if f >= 0 and f not in moved:
                        out.append(OPT_F[d])
            else:
                if F[0] >= 0:
                    out.append(OPT_F[0])
                if F[1] >= 0:
                    out.append(OPT_F[1])
                if F[2] >= 0:
                    out.append(OPT_F[2])
            if sel in _SEL_F_ONLY:
                return out
        if sel in _SEL_E:
            E = st.equip[side]
            for d in R3:
                Ed = E[d]
                if Ed:
                    od = OPT_E[d]
                    for k, e in enumerate(Ed):
                        if not moved or e not in moved:
                            out.append(od[k])
            return out
        if sel == S_OPP_ALL:
            return [NOOPT] if F[0] >= 0 or F[1] >= 0 or F[2] >= 0 or any(st.equip[side]) else []
        if sel == S_ALL_F:
            return [NOOPT] if F[0] >= 0 or F[1] >= 0 or F[2] >= 0 else []
        d = CODE[src][1]
        if sel in (S_HERE_F, S_FACE_F):
            return [NOOPT] if F[d] >= 0 else []
        if sel == S_FACE_E:
            return [NOOPT] if st.equip[side][d] else []
        if sel == S_FACE_FE:
            return [NOOPT] if F[d] >= 0 or st.equip[side][d] else []
        return []

    def _equip_room(self, st, F, E) -> list[int]:
        """How many places a moved equipment can take in each dojo: one, or two where the fighter
        there may hold a second equipment and is not neutralized."""
        second = st.box.second
        neut = None
        room = []
        for e in R3:
            f = F[e]
            if f >= 0 and second[f]:
                if neut is None:
                    neut = self._neut(st)
                cap = 1 if f in neut else 2
            else:
                cap = 1
            n = len(E[e]) + 1
            room.append(n if n < cap else cap)
        return room

    def _switch_options(self, st, p, sel, src, moved) -> list:
        F = st.fighter[p]
        if sel == S_HERE_F or (sel == S_SELF and CODE[src][0] == 0):
            d = CODE[src][1]
            return list(_SWF_OUT[d]) if F[d] >= 0 else []
        E = st.equip[p]
        out = []
        if sel == S_SELF:
            # an equipment moving itself: to every place another dojo has room for
            _, d, k = CODE[src]
            row = SWE[d][k]
            room = self._equip_room(st, F, E)
            for e in R3:
                if e != d:
                    out += row[e][:room[e]]
            return out
        fs = ()
        es = ()
        if sel in (S_OWN_F, S_OWN_FE):
            fs = [d for d in R3 if F[d] >= 0 and (not moved or F[d] not in moved)]
        if sel in (S_OWN_E, S_OWN_FE):
            es = []
            for d in R3:
                Ed = E[d]
                for k in range(len(Ed)):
                    if not moved or Ed[k] not in moved:
                        es.append((d, k))
        if sel in (S_SELF, S_HERE_F):
            kind, d, k = CODE[src]
            if kind == 0 or sel == S_HERE_F:
                fs = [d] if F[d] >= 0 else []
            else:
                es = [(d, k)]
        for d in fs:
            row = SWF[d]
            for e in R3:
                if e != d:
                    out.append(row[e])
        if es:
            room = self._equip_room(st, F, E)
            for d, k in es:
                row = SWE[d][k]
                for e in R3:
                    if e != d:
                        out += row[e][:room[e]]
        return out

    def _active(self, rnd):
        return self.active.get(min(rnd, self.last_table_round), [])

    def _level_available(self, st, lv) -> bool:
        if st.decks[lv]:
            return True
        info = st.box.info
        return any(info[c].level == lv for c in st.discard)

    def _cap(self, st, p, d) -> int:
        f = st.fighter[p][d]
        if f >= 0 and st.box.info[f].second_equip and not self._neutralized(st, p, d, f):
            return 2
        return 1

    # -- apply ----------------------------------------------------------------------------------
    def apply_chosen(self, st, action):
        st.legal = None
        if st.pend:
            self._resolve_pending(st, action)
            self._settle(st)
            return st
        kind = action[0]
        ph = st.phase
        if ph == FIELD:
            p = st.turn
            if kind == "pass":
                st.passed[p] = True
            elif kind == "field":
                self._field(st, p, self.d_of[action[1]], action[2] - 1)
            elif kind == "equip":
                self._equip(st, p, self.d_of[action[1]], action[2] - 1,
                            CODE[action[3]][2] if len(action) > 3 else -1)
            elif kind == "combo":
                c = self._take(st.hand[p], self.d_of[action[1]], st.box.dof)
                st.combos[p][action[2] - 1].append(c)
            elif kind == "play":
                ci = self.by_name[action[1]]
                c = self._take(st.hand[p], ci.d, st.box.dof)
                self._exec(st, p, ci.steps, 0, None, action[2:], ci.steps[0].count, True, ())
                st.discard.append(c)    # resolved first, then discarded
            elif kind == "ability":
                self._ability(st, p, action[1], action[2:])
            if not st.pend:
                # the common case of _settle (a field action never ends the field phase by
                # itself): nothing pending, the turn passes on
                p = st.turn
                passed = st.passed
                if not passed[1 - p]:
                    st.turn = 1 - p
                    return st
                if not passed[p]:
                    return st
            self._settle(st)
        elif ph == SENSEI_PH:
            p = st.turn
            dealt = st.draft[p]
            c = self._take(dealt, self.d_of[action[1]], st.box.dof)
            st.sensei[p] = c
            st.sdeck[0:0] = dealt
            st.draft[p] = []
            if p == 0:
                st.turn = 1
            else:
                self._start_round(st)
        else:   # draft picks
            p = st.turn
            draft = st.draft
            dealt = draft[p]
            dd = self.d_of[action[1]]
            dof = st.box.dof
            for i, c in enumerate(dealt):
                if dof[c] == dd:
                    del dealt[i]
                    break
            else:
                raise IllegalAction("no such card there")
            st.hand[p].append(c)
            n = st.dstep = st.dstep + 1
            if n == 2:
                draft[0], draft[1] = draft[1], draft[0]
            if n < 4:
                # the common case of _draft_flow: the next picker has cards
                q = st.start if n % 2 == 0 else 1 - st.start
                if draft[q]:
                    st.turn = q
                    st.phase = PICK1 if n < 2 else PICK2
                    return st
            self._draft_flow(st)
        return st

    @staticmethod
    def _take(ids, d, dof):
        for i, c in enumerate(ids):
            if dof[c] == d:
                del ids[i]
                return c
        raise IllegalAction("no such card there")

    def _field(self, st, p, dd, d):
        box = st.box
        hand = st.hand[p]
        dof = box.dof
        for i, c in enumerate(hand):
            if dof[c] == dd:
                del hand[i]
                break
        else:
            raise IllegalAction("no such card there")
        Fp = st.fighter[p]
        if Fp[d] >= 0:
            self._leave(st, p, d, st.discard)
        Fp[d] = c
        n = st.nseq = st.nseq + 1
        st.seq[c] = n
        ci = box.info[c]
        if ci.enter_discard or len(st.equip[p][d]) >= 2:
            trig = []
            self._entered(st, p, c, trig)
            self._check_cap(st, p, d, trig)
            if trig:
                st.pend[0:0] = trig

    def _equip(self, st, p, dd, d, k):
        c = self._take(st.hand[p], dd, st.box.dof)
        E = st.equip[p][d]
        if k < 0:
            if not E or (len(E) < 2 and self._cap(st, p, d) == 2):
                E.append(c)
            else:
                k = 0
        if k >= 0:
            old = E[k]
            E[k] = c
            st.discard.append(old)
            self._cleanup(st, old)
        st.nseq += 1
        st.seq[c] = st.nseq

    def _ability(self, st, p, src, opt):
        info = st.box.info
        kind_d = CODE.get(src)
        if kind_d is None:
            c = st.sensei[p]
        elif kind_d[0] == 0:
            c = st.fighter[p][kind_d[1]]
        else:
            c = st.equip[p][kind_d[1]][kind_d[2]]
        ci = info[c]
        st.used.append(c)
        cost = ci.cost
        if cost == C_RETIRE_SELF:
            del st.equip[p][kind_d[1]][kind_d[2]]
            st.discard.append(c)
            self._cleanup(st, c)
        elif cost in (C_DISCARD, C_HAND_TO_KO):
            hand = st.hand[p]
            dof = st.box.dof
            first = dof[hand[0]]
            for x in hand:
                if dof[x] != first:
                    break
            else:
                first = -1
            if first < 0:
                self._pay(st, p, cost, hand[0])
            else:
                st.pend.insert(0, (P_COST, p, cost, (ci.ab_steps, src, opt)))
                return
        steps = ci.ab_steps
        self._exec(st, p, steps, 0, src, opt, steps[0].count, True, ())

    def _pay(self, st, p, cost, c):
        st.hand[p].remove(c)
        (st.discard if cost == C_DISCARD else st.ko[p]).append(c)

    def _resolve_pending(self, st, a):
        pe = st.pend.pop(0)
        kind = pe[0]
        if kind == P_STEP:
            if a is DONE or a == DONE:
                return
            _, p, steps, i, src, left, optional, moved = pe
            self._exec(st, p, steps, i, src, a[1:], left, not optional, moved)
        elif kind == P_COST:
            p, cost, (steps, src, opt) = pe[1], pe[2], pe[3]
            c = self._take(st.hand[p], self.d_of[a[1]], st.box.dof)
            (st.discard if cost == C_DISCARD else st.ko[p]).append(c)
            self._exec(st, p, steps, 0, src, opt, steps[0].count, True, ())
        elif kind == P_DISCARD:
            p, n = pe[1], pe[2]
            c = self._take(st.hand[p], self.d_of[a[1]], st.box.dof)
            st.discard.append(c)
            if n > 1 and st.hand[p]:
                st.pend.insert(0, (P_DISCARD, p, n - 1))
        elif kind == P_OVERCAP:
            p, d = pe[1], pe[2]
            k = CODE[a[1]][2]
            E = st.equip[p][d]
            c = E.pop(k)
            st.discard.append(c)
            self._cleanup(st, c)
        else:   # P_EOR
            self._eor_apply(st, pe[1], pe[2], a[2])

    def _drain(self, st) -> bool:
        """Resolve pending choices that are not choices (none or one option). True when none left."""
        pend = st.pend
        while pend:
            pe = pend[0]
            kind = pe[0]
            if kind == P_EOR:
                return False
            if kind == P_STEP and pe[6]:
                if not self._options(st, pe[1], pe[2][pe[3]], pe[4], pe[7]):
                    pend.pop(0)
                    continue
                return False
            acts = self._pending_actions(st, pe)
            if not acts:
                pend.pop(0)
            elif len(acts) == 1:
                self._resolve_pending(st, acts[0])
            else:
                st.legal = acts     # a real choice: these are the legal actions now
                return False
        return True

    def _settle(self, st):
        st.legal = None
        if st.phase == FIELD:
            if st.pend and not self._drain(st):
                return
            p = st.turn
            o = 1 - p
            if not st.passed[o]:
                st.turn = o
                return
            if not st.passed[p]:
                return
            self._fight(st)
        while st.phase == EOR:
            if st.pend and not self._drain(st):
                return
            self._eor_step(st)

    # -- effects --------------------------------------------------------------------------------
    def _exec(self, st, p, steps, i, src, opt, left, first, moved):
        step = steps[i]
        trig = []
        touched = self._do(st, p, step, src, opt, trig)
        if step.count > 1 and left > 1:
            trig.append((P_STEP, p, steps, i, src, left - 1, True, moved + (touched,)))
        if first and i + 1 < len(steps):
            trig.append((P_STEP, p, steps, i + 1, src, steps[i + 1].count, False, ()))
        if trig:
            st.pend[0:0] = trig

    def _do(self, st, p, step, src, opt, trig) -> int:
        """Carry out one effect step with its choice; returns the card it moved or changed."""
        v = step.verb
        sel = step.sel
        o = 1 - p
        if v == V_SWITCH:
            return self._switch(st, p, opt[0], opt[1], trig)
        if v == V_TRANSFORM:
            return self._transform(st, p, opt[0], trig)
        if v == V_DRAW:
            c = self._draw_level(st, opt[0])
            if c >= 0:
                st.hand[p].append(c)
            return c
        if v == V_KORET:
            ko = st.ko[p]
            if sel == S_KO_ALL:
                st.hand[p].extend(ko)
                ko.clear()
                return -1
            c = self._take(ko, self.d_of[opt[0]], st.box.dof)
            st.hand[p].append(c)
            return c
        if v == V_TOHAND:
            d = CODE[opt[0]][1]
            c = st.fighter[p][d]
            self._leave(st, p, d, st.hand[p])
            self._check_cap(st, p, d, trig)
            return c
        targets = self._targets(st, p, o, sel, src, opt)
        if v == V_NEUT:
            st.tmp_neut.extend(targets)
        elif v == V_KO:
            st.tmp_ko.extend(targets)
        elif v == V_PLUS:
            st.tmp_plus.extend((c, step.n) for c in targets)
        elif v == V_RETIRE:
            E = st.equip[o]
            for c in targets:
                for d in R3:
                    if c in E[d]:
                        E[d].remove(c)
                st.discard.append(c)
                self._cleanup(st, c)
        return targets[0] if targets else -1

    def _targets(self, st, p, o, sel, src, opt) -> list:
        """Card ids a neutralize / knockout / power / retire step acts on."""
        if opt:
            kind, d, k = CODE[opt[0]]
            side = p if sel in (S_OWN_F, S_OWN_E, S_OWN_FE) else o
            if kind == 0:
                c = st.fighter[side][d]
                if sel == S_OPP_FDOJO:
                    return [c] + st.equip[o][d]
                return [c]
            return [st.equip[side][d][k]]
        if sel == S_OPP_ALL:
            return [f for f in st.fighter[o] if f >= 0] + [e for E in st.equip[o] for e in E]
        if sel == S_ALL_F:
            return [f for f in st.fighter[p] if f >= 0]
        d = CODE[src][1]
        if sel == S_HERE_F:
            return [st.fighter[p][d]]
        out = []
        if sel in (S_FACE_F, S_FACE_FE) and st.fighter[o][d] >= 0:
            out.append(st.fighter[o][d])
        if sel in (S_FACE_E, S_FACE_FE):
            out.extend(st.equip[o][d])
        return out

    def _switch(self, st, p, a, b, trig) -> int:
        ka, da, ia = CODE[a]
        _, db, ib = CODE[b]
        if ka == 0:
            F = st.fighter[p]
            C = st.combos[p]
            x, y = F[da], F[db]
            F[da], F[db] = y, x
            C[da], C[db] = C[db], C[da]
            self._entered(st, p, x, trig)
            if y >= 0:
                self._entered(st, p, y, trig)
            self._check_cap(st, p, da, trig)
            self._check_cap(st, p, db, trig)
            return x
        Ea = st.equip[p][da]
        Eb = st.equip[p][db]
        x = Ea[ia]
        if ib < len(Eb):
            Ea[ia] = Eb[ib]
            Eb[ib] = x
        else:
            del Ea[ia]
            Eb.append(x)
        return x

    def _transform(self, st, p, code, trig) -> int:
        kind, d, k = CODE[code]
        info = st.box.info
        old = st.fighter[p][d] if kind == 0 else st.equip[p][d][k]
        oi = info[old]
        typ = oi.type
        nl = oi.level + 1 if oi.level < 5 else 5
        deck = st.decks[nl]
        rng = st.rng
        revealed = []
        found = -1
        refilled = False
        while True:
            if not deck:
                if refilled:
                    break
                refilled = True
                pulled = [c for c in st.discard if info[c].level == nl]
                if not pulled:
                    break
                st.discard = [c for c in st.discard if info[c].level != nl]
                _shuffle(rng, pulled)
                deck.extend(pulled)
                continue
            c = deck.pop()
            if info[c].type == typ:
                found = c
                break
            revealed.append(c)
        if revealed:
            _shuffle(rng, revealed)
            deck[0:0] = revealed
        if found < 0:
            have = st.box.count[nl][typ] - (1 if oi.level == nl else 0)
            if have <= 0:
                other = "other " if oi.level == nl else ""
                raise RuleConflict(
                    f"{oi.name} (level {ROMAN.get(oi.level, oi.level)}) must transform into a "
                    f"level {ROMAN[nl]} {TYPE_NAMES[typ]}, but the box has no {other}level "
                    f"{ROMAN[nl]} {TYPE_NAMES[typ]}")
            return old
        if kind == 0:
            st.fighter[p][d] = found
        else:
            st.equip[p][d][k] = found
        st.discard.append(old)
        st.nseq += 1
        st.seq[found] = st.nseq
        if st.tmp_neut:
            st.tmp_neut = [found if x == old else x for x in st.tmp_neut]
        if st.tmp_ko:
            st.tmp_ko = [found if x == old else x for x in st.tmp_ko]
        if st.tmp_plus:
            st.tmp_plus = [(found if x == old else x, n) for x, n in st.tmp_plus]
        if kind == 0:
            self._check_cap(st, p, d, trig)
        return found

    def _leave(self, st, p, d, dest):
        """The fighter of dojo d leaves during the field phase; its combo moves go with it."""
        c = st.fighter[p][d]
        st.fighter[p][d] = -1
        dest.append(c)
        C = st.combos[p][d]
        if C:
            info = st.box.info
            for m in C:
                (st.ko[p] if info[m].boom else st.discard).append(m)
            st.combos[p][d] = []
        self._cleanup(st, c)

    @staticmethod
    def _cleanup(st, c):
        if st.tmp_neut and c in st.tmp_neut:
            st.tmp_neut = [x for x in st.tmp_neut if x != c]
        if st.tmp_ko and c in st.tmp_ko:
            st.tmp_ko = [x for x in st.tmp_ko if x != c]
        if st.tmp_plus:
            st.tmp_plus = [t for t in st.tmp_plus if t[0] != c]

    def _entered(self, st, p, c, trig):
        n = st.box.info[c].enter_discard
        if n and st.hand[p] and c not in self._neut(st):
            trig.append((P_DISCARD, p, n))

    def _check_cap(self, st, p, d, trig):
        E = st.equip[p][d]
        if len(E) >= 2:
            f = st.fighter[p][d]
            if f < 0 or not st.box.info[f].second_equip:
                trig.append((P_OVERCAP, p, d))

    def _draw_level(self, st, lv) -> int:
        deck = st.decks[lv]
        if not deck:
            info = st.box.info
            pulled = [c for c in st.discard if info[c].level == lv]
            if not pulled:
                return -1
            st.discard = [c for c in st.discard if info[c].level != lv]
            _shuffle(st.rng, pulled)
            deck.extend(pulled)
        return deck.pop()

    # -- rounds ---------------------------------------------------------------------------------
    def _start_round(self, st):
        plan, fallback = self.plans[min(st.round, self.last_table_round)]
        decks = st.decks
        for p in (st.start, 1 - st.start):
            dealt = []
            for lv in plan:
                deck = decks[lv]
                if deck:
                    dealt.append(deck.pop())
                    continue
                c = self._draw_level(st, lv)
                if c < 0:
                    for other in fallback[lv]:
                        c = self._draw_level(st, other)
                        if c >= 0:
                            break
                if c >= 0:
                    dealt.append(c)
            st.draft[p] = dealt
        st.dstep = 0
        if st.draft[st.start]:
            # the usual case of _draft_flow: the starting player picks first
            st.turn = st.start
            st.phase = PICK1
        else:
            self._draft_flow(st)

    def _draft_flow(self, st):
        ds = st.dstep
        start = st.start
        draft = st.draft
        while ds < 4:
            p = start if ds % 2 == 0 else 1 - start
            if draft[p]:
                st.turn = p
                st.phase = PICK1 if ds < 2 else PICK2
                return
            ds = st.dstep = ds + 1
            if ds == 2:
                draft[0], draft[1] = draft[1], draft[0]
        for p in (0, 1):
            st.discard.extend(st.draft[p])
            st.draft[p] = []
        st.phase = FIELD
        st.turn = st.start
        st.passed = [False, False]

    def _board(self, st, neut):
        """Who fights in each dojo: (fight card ids, home dojo of each) per player."""
        F0, F1 = st.fighter
        kset = st.box.kset
        if kset.isdisjoint(F0) and kset.isdisjoint(F1):
            return [F0[:], F1[:]], [
                [0 if F0[0] >= 0 else -1, 1 if F0[1] >= 0 else -1, 2 if F0[2] >= 0 else -1],
                [0 if F1[0] >= 0 else -1, 1 if F1[1] >= 0 else -1, 2 if F1[2] >= 0 else -1]]
        info = st.box.info
        fight = [[-1] * ND, [-1] * ND]
        home = [[-1] * ND, [-1] * ND]
        for p in (0, 1):
            F = st.fighter[p]
            kom = -1
            for d in R3:
                f = F[d]
                if f >= 0 and info[f].komodo and f not in neut:
                    kom = d
                    break
            fp, hp = fight[p], home[p]
            for d in R3:
                if F[d] >= 0:
                    fp[d] = F[d]
                    hp[d] = d
                elif kom >= 0:
                    fp[d] = F[kom]
                    hp[d] = kom
        return fight, home

    def _power(self, st, p, d, f, h, of, neut, hidden=False) -> int:
        """Total power of card f of player p fighting in dojo d (its own dojo is h).

        hidden: p's hand is not known to whoever asks (the heuristic looking at the opponent):
        count half of the hand as fighters instead of looking."""
        info = st.box.info
        fi = info[f]
        s = st.sensei[p]
        sm = info[s] if s >= 0 else self.no_sensei
        cr = fi.creature
        fneut = f in neut
        total = fi.power + sm.s_plus[cr]
        E = st.equip[p][d]
        C = st.combos[p][h]
        if E or C:
            per_combo = sm.s_combo[cr]
            wx = sm.s_weapon[cr]
            if not fneut:
                per_combo += fi.combo_extra
                wx += fi.weapon_extra
            for e in E:
                ei = info[e]
                total += ei.power
                if ei.weapon:
                    total += wx
                if (ei.cond_n or ei.belt_n) and e not in neut:
                    if ei.cond_n and cr in ei.cond_crs:
                        total += ei.cond_n
                    if ei.belt_n and (ei.belt_cr < 0 or ei.belt_cr == cr):
                        per_combo += ei.belt_n
            for c in C:
                ci = info[c]
                total += ci.bonus + per_combo
                if ci.cond_n and cr in ci.cond_crs:
                    total += ci.cond_n
        if not fneut and self.pw_extra[fi.d]:
            if fi.hand_fighter:
                hand = st.hand[p]
                total += fi.hand_fighter * (len(hand) // 2 if hidden else
                                            sum(1 for x in hand if info[x].type == FIGHTER))
            if fi.per_other_n:
                total += fi.per_other_n * self._others(st, p, f, fi.per_other_cr)
            if fi.if_other_n and self._others(st, p, f, fi.if_other_cr):
                total += fi.if_other_n
            if fi.if_behind and st.score[p] < st.score[1 - p]:
                total += fi.if_behind
            if fi.if_equipped and E:
                total += fi.if_equipped
        if sm.s_per_other[cr]:
            total += sm.s_per_other[cr] * self._others(st, p, f, cr)
        if st.tmp_plus:
            for x, n in st.tmp_plus:
                if x == f:
                    total += n
        if of >= 0 and of not in neut:
            total -= info[of].opp_minus
        return total if total > 0 else 0

    @staticmethod
    def _others(st, p, f, cr) -> int:
        info = st.box.info
        n = 0
        for x in st.fighter[p]:     # a plain loop: no generator frame on this hot path
            if x >= 0 and x != f and info[x].creature == cr:
                n += 1
        return n

    def _has_ko(self, st, p, d, f, h, neut) -> bool:
        info = st.box.info
        fi = info[f]
        if f in st.tmp_ko:
            return True
        if f not in neut:
            k = fi.ko
            if k == KO_ALWAYS:
                return True
            if k == KO_COMBO and st.combos[p][h]:
                return True
            if k == KO_OTHER and self._others(st, p, f, fi.ko_cr):
                return True
        for e in st.equip[p][d]:  # noqa: SIM110 - a plain loop: no generator frame
            if info[e].grant_ko and e not in neut:
                return True
        return False

    def _protected(self, st, p, d, f, neut) -> bool:
        info = st.box.info
        if info[f].no_ko and f not in neut:
            return True
        for e in st.equip[p][d]:  # noqa: SIM110 - a plain loop: no generator frame
            if info[e].protect and e not in neut:
                return True
        return False

    def _neut(self, st):
        """The set of card ids whose abilities are ignored right now."""
        box = st.box
        nset = box.nset
        F, E = st.fighter, st.equip
        E0, E1 = E
        equip = [*E0[0], *E0[1], *E0[2], *E1[0], *E1[1], *E1[2]]
        tmp = st.tmp_neut
        if nset.isdisjoint(F[0]) and nset.isdisjoint(F[1]) and nset.isdisjoint(equip):
            if not tmp:
                return EMPTY    # the usual board: no neutralize source, nothing neutralized
            srcs = None
        else:
            srcs = self._neut_sources(st)
        info = box.info
        immune = set()
        if not box.jset.isdisjoint(equip):
            for p in (0, 1):
                for d in R3:
                    for e in E[p][d]:
                        if info[e].jade:
                            immune.add(e)
                            if F[p][d] >= 0:
                                immune.add(F[p][d])
        out = set(tmp)
        if immune:
            out -= immune
        if srcs is None:
            return out
        sources = {s for s, _ in srcs}
        if all(sources.isdisjoint(tg) for _, tg in srcs):
            # no source targets another source (the usual board): each one not neutralized
            # itself neutralizes its targets, no need to settle who wins
            for s, tg in srcs:
                if s not in out:
                    for t in tg:
                        if t not in immune:
                            out.add(t)
            return out
        attackers = {s: [] for s, _ in srcs}
        for s, tg in srcs:
            for t in tg:
                if t in attackers:
                    attackers[t].append(s)
        active = {}
        for s, _ in srcs:
            if s in out:
                active[s] = False
            elif s in immune or not attackers[s]:
                active[s] = True
        undecided = [s for s, _ in srcs if s not in active]
        while undecided:
            progress = False
            for s in list(undecided):
                att = attackers[s]
                if any(active.get(a) is True for a in att):
                    active[s] = False
                elif all(active.get(a) is False for a in att):
                    active[s] = True
                else:
                    continue
                undecided.remove(s)
                progress = True
            if not progress:
                s = max(undecided, key=lambda x: st.seq[x])
                active[s] = True
                undecided.remove(s)
        for s, tg in srcs:
            if active[s]:
                for t in tg:
                    if t not in immune:
                        out.add(t)
        return out

    @staticmethod
    def _neut_sources(st):
        info = st.box.info
        F, E = st.fighter, st.equip
        srcs = []
        for p in (0, 1):
            o = 1 - p
            Fp, Ep, Fo, Eo = F[p], E[p], F[o], E[o]
            for d in R3:
                for c in ([Fp[d]] if Fp[d] >= 0 else []) + Ep[d]:
                    ci = info[c]
                    if ci.neut_f or ci.neut_e:
                        tg = []
                        if ci.neut_f and Fo[d] >= 0:
                            tg.append(Fo[d])
                        if ci.neut_e:
                            tg.extend(Eo[d])
                        srcs.append((c, tg))
        return srcs

    def _fight(self, st):
        neut = self._neut(st)
        st.fneut = neut
        F0, F1 = st.fighter
        kset = st.box.kset
        if kset.isdisjoint(F0) and kset.isdisjoint(F1):
            # no Komodo Dragon in play: each fighter fights in its own dojo (no board to build)
            fight0, fight1 = F0, F1
            home0 = home1 = _OWN_DOJOS
        else:
            (fight0, fight1), (home0, home1) = self._board(st, neut)
        power = self._power
        info = st.box.info
        res0 = [NOFIGHT] * ND
        res1 = [NOFIGHT] * ND
        kod = [[False] * ND, [False] * ND]
        powers0 = [None] * ND
        powers1 = [None] * ND
        wins0 = wins1 = draws = 0
        for d in R3:
            a = fight0[d]
            b = fight1[d]
            if a >= 0:
                pa = powers0[d] = power(st, 0, d, a, home0[d], b, neut)
                if b >= 0:
                    pb = powers1[d] = power(st, 1, d, b, home1[d], a, neut)
                    if pa == pb:
                        res0[d] = res1[d] = DRAW
                        draws += 1
                        continue
                    w = 0 if pa > pb else 1
                else:
                    w = 0
            elif b >= 0:
                powers1[d] = power(st, 1, d, b, home1[d], a, neut)
                w = 1
            else:
                res0[d] = res1[d] = DRAW
                draws += 1
                continue
            if w == 0:
                res0[d] = WIN
                res1[d] = LOSE
                wins0 += 1
                wc, lc, home_w, home_lo = a, b, home0, home1
            else:
                res1[d] = WIN
                res0[d] = LOSE
                wins1 += 1
                wc, lc, home_w, home_lo = b, a, home1, home0
            lo = 1 - w
            # a knockout needs a card that can give one (most winners have none)
            if lc >= 0 and home_lo[d] == d and (info[wc].ko or st.tmp_ko or st.equip[w][d]) \
                    and self._has_ko(st, w, d, wc, home_w[d], neut) \
                    and not self._protected(st, lo, d, lc, neut):
                kod[lo][d] = True
        res = [res0, res1]
        st.res, st.kod = res, kod
        rw = -1
        if wins0 >= 2 or (wins0 == 1 and draws == 2):
            rw = 0
        if wins1 >= 2 or (wins1 == 1 and draws == 2):
            rw = 1
        st.rwin = rw
        knocked = [[], []]
        for p in (0, 1):
            kp = kod[p]
            if True in kp:
                Fp = st.fighter[p]
                knocked[p] = [Fp[d] for d in R3 if kp[d]]
        st.last = (res, [powers0, powers1], rw, knocked)
        if rw >= 0:
            st.score[rw] += 1
            if st.score[rw] >= self.wins_needed:
                st.phase = OVER
                st.over = True
                st.result = rw
                return
        if st.round >= self.round_limit:
            st.phase = OVER
            st.over = True
            a, b = st.score
            st.result = 0 if a > b else 1 if b > a else DRAWN
            return
        st.phase = EOR
        st.eor_stage = 0

    def _eor_step(self, st):
        """Run the end-of-round stages in order (abilities, cleanup, next round), stopping after
        a stage that leaves a choice pending: st.eor_stage says where to resume."""
        info = st.box.info
        stage = st.eor_stage
        if stage == 0:
            stage = 1
            F, E = st.fighter, st.equip
            E0, E1 = E
            if not st.box.eset.isdisjoint([*F[0], *F[1], *E0[0], *E0[1], *E0[2], *E1[0], *E1[1],
                                           *E1[2]]):
                self._eor_abilities(st, info)
                if st.pend:
                    st.eor_stage = 1
                    return
        if stage == 1:
            neut = st.fneut
            order = (st.start, 1 - st.start)
            ko = st.ko
            hand = st.hand
            discard = st.discard
            for p in order:
                if ko[p]:
                    hand[p].extend(ko[p])
                    ko[p] = []
            for p in order:
                Cp = st.combos[p]
                if Cp[0] or Cp[1] or Cp[2]:
                    for d in R3:
                        C = Cp[d]
                        if C:
                            for m in C:
                                (ko[p] if info[m].boom else discard).append(m)
                            Cp[d] = []
            res = st.res
            for p in order:
                rp = res[p]
                if LOSE not in rp:
                    continue
                Fp = st.fighter[p]
                for d in R3:
                    f = Fp[d]
                    if f < 0 or rp[d] != LOSE:
                        continue
                    if info[f].stay_if_lost and f not in neut:
                        continue
                    Fp[d] = -1
                    (ko[p] if st.kod[p][d] else hand[p]).append(f)
                    if len(st.equip[p][d]) >= 2:
                        self._check_cap(st, p, d, st.pend)
            if st.pend:
                st.eor_stage = 2
                return
        w = st.rwin
        if w >= 0:
            st.start = w
        else:
            ds = [p for p in (0, 1) if st.sensei[p] >= 0 and info[st.sensei[p]].draw_start]
            st.start = ds[0] if len(ds) == 1 else 1 - st.start
        st.round += 1
        st.tmp_neut = []
        st.tmp_ko = []
        st.tmp_plus = []
        st.used = []
        st.res = _NO_RESULTS    # read-only until the next fight makes new ones
        st.kod = _NO_KNOCKOUTS
        st.fneut = EMPTY
        self._start_round(st)

    def _eor_abilities(self, st, info):
        """End-of-round abilities of the winning fighters: applied, or offered as choices."""
        neut = st.fneut
        for p in (st.start, 1 - st.start):
            s = st.sensei[p]
            sm = info[s] if s >= 0 else self.no_sensei
            for d in R3:
                f = st.fighter[p][d]
                if f < 0 or st.res[p][d] != WIN:
                    continue
                fi = info[f]
                opts = []
                if fi.eor_retire and f not in neut:
                    opts.append("hand" if sm.s_shell[fi.creature] else "retire")
                boots = False
                for e in st.equip[p][d]:
                    if e in neut:
                        continue
                    ei = info[e]
                    if ei.eor_transform and "transform" not in opts:
                        opts.append("transform")
                    if ei.boots:
                        boots = True
                if boots:
                    if "hand" not in opts:
                        opts.append("hand")
                    if len(opts) == 1:
                        opts.append("stay")
                if len(opts) == 1:
                    self._eor_apply(st, p, d, opts[0])
                elif opts:
                    st.pend.append((P_EOR, p, d, tuple(opts)))

    def _eor_apply(self, st, p, d, what):
        if what == "stay":
            return
        if what == "transform":
            trig = []
            self._transform(st, p, FC[d], trig)
            st.pend[0:0] = trig
            return
        f = st.fighter[p][d]
        st.fighter[p][d] = -1
        (st.hand[p] if what == "hand" else st.discard).append(f)
        trig = []
        self._check_cap(st, p, d, trig)
        st.pend[0:0] = trig

    def heuristic(self, st, player) -> float:
        o = 1 - player
        info = st.box.info
        v = 100.0 * (st.score[player] - st.score[o])
        if st.phase == OVER:
            return v
        neut = self._neut(st)
        fight, home = self._board(st, neut)
        mine = theirs = draws = 0
        margin = 0.0
        for d in R3:
            a, b = fight[player][d], fight[o][d]
            if a < 0 and b < 0:
                draws += 1
                continue
            pa = self._power(st, player, d, a, home[player][d], b, neut) if a >= 0 else -1
            pb = self._power(st, o, d, b, home[o][d], a, neut, True) if b >= 0 else -1
            if pa > pb:
                mine += 1
            elif pb > pa:
                theirs += 1
            else:
                draws += 1
            m = pa - pb
            margin += 5 if m > 5 else (-5 if m < -5 else m)
        if mine >= 2 or (mine == 1 and draws == 2):
            v += 30
        elif theirs >= 2 or (theirs == 1 and draws == 2):
            v -= 30
        v += 6 * (mine - theirs) + 0.3 * margin
        v += 0.35 * sum(info[c].value for c in st.hand[player])
        v += 0.25 * sum(info[c].value for c in st.ko[player])
        return v


ENGINE = AmfibidoEngine
