"""A.D.A.P.T.: the engine class: its options, the numbers it reads from game.yaml `tables` and
the card data it prepares when it loads; its methods come from the mixins of the other modules."""

from __future__ import annotations

from cardgen.engines.base import Engine

from .adapting import AdaptingMixin
from .attacks import AttacksMixin
from .cards import CLAMP_SPAN, PLAIN_NUMERAL_MAX, CardsMixin, die_sides, unpack_numerals
from .checks import ChecksMixin
from .constants import DEFAULT_CAPS, FLAGS, LOC_INDEX, NO_CAP, NO_LOCATION, NUMERALS, STAT_FIELDS
from .legal import LegalMixin
from .replay import ReplayMixin
from .scenarios import ScenariosMixin
from .setups import SetupsMixin
from .shark import BotsMixin
from .turns import TurnsMixin


class AdaptEngine(LegalMixin, TurnsMixin, AdaptingMixin, AttacksMixin, CardsMixin, SetupsMixin,
                  ChecksMixin, ReplayMixin, ScenariosMixin, BotsMixin, Engine):
    game_id = "adapt"
    max_actions = 6000
    keywords = frozenset(NUMERALS + FLAGS + ("Resist", "Immune", "Cooldown"))
    player_counts = (2, 3, 4, 5, 6)
    # `cardgen simulate --variant NAME`: added to every deck's own `variants`
    variants = {
        "kids": "Gaming with your Guppies: no special, horn, organ or skin parts; stream +1; "
                "Bodies climb 2 Levels",
        "sailfish": "the speed variant (Sailfish Speed Options): +1 Experience a Turn, stream +1, "
                    "Bodies climb 2 Levels",
        "multi-auto-adapt": "Auto-Adapt each time Experience reaches 20, -1 Experience a Turn "
                            "per Auto-Adapt after the first",
        "school-battle": "the team variant: Schools of two, seated alternately, share Experience "
                         "(4 or 6 players)",
        "stalemate": "house rule: 20 Rounds in which no Fish's Damage climbs and none Adapts end "
                     "the match in a tie",
    }
    # more than 30 attributes: all in slots, one added in __init__ too (docs/engines.md says why)
    __slots__ = ("game", "tables", "caps", "toxic_bonus", "max_poison", "bait_cost", "leth_cap",
                 "miss_cap", "tie_dmg", "tie_exp", "guppy_min_fer", "pgp_max", "part_margin",
                 "guppy_max", "exp_cap", "exp_start", "auto_at", "stalemate", "settle_min",
                 "guppy_names", "guppy_stats", "names", "index", "is_body", "level", "cost", "loc",
                 "die", "copies", "stat", "fx", "unsupported", "has_school", "adapt_action",
                 "cap_list", "cap_eff", "lowest_cap", "clamp_rows", "vec", "plain_numerals",
                 "part_vec", "body_vec", "level_die", "_stats_cache", "_numerals_cache",
                 "_config_cache", "guppy_s")

    def __init__(self, game):
        super().__init__(game)
        t = game.tables or {}
        self.tables = t
        abil = t.get("abilities") or {}
        self.caps = {k: (abil.get(k) or {}).get("cap", DEFAULT_CAPS.get(k)) or DEFAULT_CAPS.get(k)
                     for k in NUMERALS}
        self.toxic_bonus = (abil.get("Toxic") or {}).get("bonus", 2)
        self.max_poison = (abil.get("Poisonous") or {}).get("max_poison_level", 2)
        self.bait_cost = (abil.get("Bait") or {}).get("cost", 2)
        att = t.get("attack") or {}
        self.leth_cap = att.get("lethality_cap", 4)
        self.miss_cap = att.get("failed_experience_cap", 5)
        self.tie_dmg = att.get("tie_damage", 1)
        self.tie_exp = att.get("tie_experience", 2)
        self.guppy_min_fer = att.get("guppy_min_ferocity", 2)
        self.pgp_max = (t.get("personal_gene_pool") or {}).get("max_cards", 3)
        self.part_margin = (t.get("adapting") or {}).get("part_margin", 2)
        self.guppy_max = (t.get("adapting") or {}).get("guppy_max_body_level", 2)
        self.exp_cap = (t.get("experience") or {}).get("max", 20)
        self.exp_start = (t.get("experience") or {}).get("start", 1)
        self.auto_at = (t.get("auto_adapt") or {}).get("at_experience", 20)
        self.stalemate = int((t.get("stalemate") or {}).get("rounds", 20))
        self.settle_min = 2 * self.stalemate     # (the stalemate test's cheap first half)

        # Card data by type index: the bodies and parts in file order (a Guppy is type NO_CARD).
        guppies = game.cards_of_type("guppy")
        self.guppy_names = [c.name for c in guppies] or ["Guppy"]
        g = guppies[0].fields if guppies else {"ferocity": 0, "survival": 3, "lethality": 0,
                                              "health": 5}
        self.guppy_stats = tuple(int(g.get(k, 0) or 0) for k in STAT_FIELDS)
        stream_cards = [c for c in game.cards.values() if c.type in ("body", "part")]
        self.names = [c.name for c in stream_cards]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.is_body = [c.type == "body" for c in stream_cards]
        self.level = [int(c.get("level", 1) or 1) for c in stream_cards]
        self.cost = [int(c.get("cost", 4 * lvl) or 0)
                     for c, lvl in zip(stream_cards, self.level, strict=True)]
        self.loc = [LOC_INDEX.get(c.get("location"), NO_LOCATION) for c in stream_cards]
        self.die = [die_sides(c.get("attack_die")) for c in stream_cards]
        self.copies = [c.copies for c in stream_cards]
        self.stat = [tuple(int(c.get(k, 0) or 0) for k in STAT_FIELDS) for c in stream_cards]
        self.fx = []
        self.unsupported: dict[str, str] = {}
        for c in stream_cards:
            fx, why = self._parse_card(c)
            self.fx.append(fx)
            if why:
                self.unsupported[c.name] = why
        self.has_school = [any(e[0] == "flag" and e[1] == "School" for e in fx) for fx in self.fx]
        self.adapt_action = [("adapt", n) for n in self.names]
        self.cap_list = [self.caps.get(k) or 0 for k in NUMERALS]
        self.cap_eff = [c or NO_CAP for c in self.cap_list]       # 0: no cap
        self.lowest_cap = min(self.cap_eff)
        # By numeral: its effective score for a sum x in -CLAMP_SPAN..CLAMP_SPAN - 1, at index x (a
        # negative x reads from the end, as Python does: 0).
        self.clamp_rows = [[min(x, cap) for x in range(CLAMP_SPAN)] + [0] * CLAMP_SPAN
                           for cap in self.cap_eff]
        self.vec = self._card_vectors()
        # The numeral sums of nine cards stay below 2**15 and never borrow (see cards._UNPACK_PLAIN).
        self.plain_numerals = all(0 <= x < PLAIN_NUMERAL_MAX
                                  for v in self.vec for x in unpack_numerals(v[4]))
        # The same with one more entry, read as index NO_CARD (-1): an empty part slot, and the
        # Guppy that an empty Body slot stands for.
        self.part_vec = [*self.vec, (0, 0, 0, 0, 0, None, ())]
        self.body_vec = [*self.vec, (*self.guppy_stats, 0, None, ())]
        self.level_die = [(lvl, sides) for lvl, sides in zip(self.level, self.die, strict=True)]
        self.level_die.append((0, 0))          # the Guppy (Body type NO_CARD)
        self._stats_cache: dict = {}       # the Stats `_stats` built (for bots and scenarios)
        self._numerals_cache: dict = {}
        self._config_cache: dict = {}
        self.guppy_s = self._guppy_stats()
