"""A.D.A.P.T.: the matchups (setups, the variant checks) and the per-match Config they lead to
(SetupsMixin)."""

from __future__ import annotations

from pathlib import Path

from cardgen.engines.base import RuleConflict, Setup
from cardgen.errors import ContentError, Issue

from .constants import BODY_SLOT, INF, LOCATIONS, MAX_FISH, MAX_LEVEL
from .state import Config

# The card Levels a Body's skip-cost row covers (above any Body Level a step up can reach).
SKIP_COST_LEVELS = 12
# Buy price rows past a full PGP (a scenario may overfill one).
PGP_SPARE_ROWS = 16


class SetupsMixin:
    __slots__ = ()

    # -- setups -------------------------------------------------------------------------------------
    def setups(self, decks: list | None = None, *, players: int | None = None,
               variants: tuple[str, ...] = ()) -> list[Setup]:
        """Each deck (default: the box) with its own `variants` plus `variants`, at `players` or,
        by default, at 2 and 3 players (school battle: 4). A deck is the gene stream all the Fish
        share, so decks are not paired: each is played on its own."""
        sources = [self._deck_source(d) for d in decks] if decks else [("box", None, [], None)]
        out = []
        for name, cards, own, where in sources:
            merged = list(dict.fromkeys([*own, *variants]))
            counts = self._check_setup(merged, own, where, players)
            if cards is not None and "kids" in merged:
                # The kids' game takes the four corner locations out of whatever deck it plays.
                gone = self._kids_removed()
                kept = [c for c in cards if c not in self.index or self.loc[self.index[c]] < 0
                        or LOCATIONS[self.loc[self.index[c]]] not in gone]
                if not kept:
                    self._check_fail(where, "kids" in own, "--variant",
                                     f"kids takes every {', '.join(sorted(gone))} part out of the "
                                     f"deck, and this deck has nothing else")
                cards = kept
            out.extend(self._setup(name, cards, merged, n) for n in counts)
        return out

    def _kids_removed(self):
        kids = (self.tables.get("variants") or {}).get("kids") or {}
        return set(kids.get("remove_locations") or ("special", "horn", "organ", "skin"))

    @staticmethod
    def _check_fail(where, deck_fault, field, message):
        """ContentError at the deck file's `variants` (deck_fault) or at the command-line option."""
        if deck_fault:
            path, line = where or (None, None)
            raise ContentError([Issue(path, line, "variants", message)])
        raise ContentError([Issue(None, None, field, message)])

    def _school_counts(self):
        """The player counts school battle can play: Schools of team_size, at least two of them."""
        size = self._school_size()
        return tuple(n for n in self.player_counts if n % size == 0 and n // size >= 2)

    def _school_size(self) -> int:
        return int(((self.tables.get("variants") or {}).get("school-battle") or {}).get("team_size", 2))

    def _check_setup(self, variants, own, where, players) -> tuple[int, ...]:
        """The player counts to play `variants` at; ContentError for what the rules cannot play.

        `own`: the variants the deck file asked for, `where`: (deck path, line of its `variants`)
        or None; a problem the deck's own variants cause is reported there, else at the option."""
        def fail(field, message, deck_fault):
            self._check_fail(where, deck_fault, field, message)

        unknown = [v for v in variants if v not in type(self).variants]
        if unknown:
            fail("--variant", f"the rules engine does not play {', '.join(unknown)} (it plays "
                              f"{', '.join(type(self).variants)})", any(v in own for v in unknown))
        if "school-battle" in variants and "multi-auto-adapt" in variants:
            fail("--variant", "multi-auto-adapt changes Auto-Adapting, which school-battle replaces "
                              "(Random Selection at 30 shared Experience): use one or the other",
                 "school-battle" in own and "multi-auto-adapt" in own)
        if "school-battle" not in variants:
            return (players,) if players else (2, 3)
        school = self._school_counts()
        if not players:
            return school[:1]
        if players not in school:
            words = " or ".join(map(str, school))
            fail("--players", ("this deck asks for school-battle, which" if "school-battle" in own
                               else "school-battle") + f" needs {words} players (Schools of two), "
                 f"not {players}", "school-battle" in own)
        return (players,)

    def _setup(self, name, cards, variants, players, **extra) -> Setup:
        label = f"{name}, {players} players" + (f" ({', '.join(variants)})" if variants else "")
        options = {"players": players, "variants": list(variants), "deck": cards, **extra}
        pool = frozenset(cards) if cards is not None else frozenset(
            self.names[t] for t in self._deck_types(None, variants, 1))
        seats = self._seat_names(players)
        if "school-battle" in variants:
            # A School wins as one, and the match names its lowest living seat the winner: with its
            # School in each seat's name a report's seat figures add up by School.
            schools = players // self._school_size()
            seats = [f"{seat} of School {i % schools + 1}" for i, seat in enumerate(seats)]
        return Setup(label=label, seats=seats, options=options, cards=pool)

    def _seat_names(self, n):
        base = [g.split()[0] for g in self.guppy_names]
        return [base[i % len(base)] + ("" if i < len(base) else f" {i // len(base) + 1}")
                for i in range(n)]

    def _deck_source(self, deck):
        """(name, card names with repeats, variants, where the variants are written: (path, line) or
        None) from a Deck, a deck path or a (name, names[, variants]) tuple."""
        if isinstance(deck, (str, Path)):
            from cardgen.model import load_deck

            deck = load_deck(Path(deck))
        if isinstance(deck, tuple):
            return deck[0], list(deck[1]), list(deck[2]) if len(deck) > 2 else [], None
        cards = []
        for entry, count in deck.counted_entries():
            if entry.card.type in ("body", "part"):
                cards.extend([entry.card.name] * count)
        where = (deck.path, deck.line_of("variants") if deck.variants else None)
        return deck.name, cards, list(deck.variants), where

    # -- configuration --------------------------------------------------------------------------
    def _config(self, players, variants, seats=None) -> Config:
        t = self.tables
        unknown = set(variants) - set(type(self).variants)
        if unknown:
            raise RuleConflict(f"variants the engine does not play: {', '.join(sorted(unknown))}")
        if not 2 <= players <= MAX_FISH:
            raise RuleConflict(f"A.D.A.P.T. is for 2 to 6 players, not {players}")
        cfg = Config()
        cfg.n = players
        cfg.variants = tuple(variants)
        slots = (t.get("gene_stream") or {}).get("slots_by_players") or {}
        cfg.slots = int(slots.get(players, slots.get(str(players), players + 1)))
        tv = t.get("variants") or {}
        for v in ("kids", "sailfish"):
            if v in variants:
                cfg.slots += int((tv.get(v) or {}).get("gene_stream_extra_slots", 1))
        per = (t.get("experience") or {}).get("per_turn_by_players") or {}
        cfg.turn_exp = int(per.get(players, per.get(str(players), min(5, players + 1))))
        if "sailfish" in variants:
            cfg.turn_exp += int((tv.get("sailfish") or {}).get("experience_per_turn_bonus", 1))
        bonus = (t.get("wipe") or {}).get("bonus") or {}
        cfg.wipe_bonus = int(bonus.get(players, bonus.get(str(players), 3 if players == 2 else 4)))
        four = (t.get("adapting") or {}).get("four_plus_players") or {}
        cfg.step = 1
        cfg.skip = 0
        if players >= 4:
            cfg.step = int(four.get("body_step", 2))
            cfg.skip = int(four.get("skip_cost_per_level", 2))
        if "kids" in variants or "sailfish" in variants:
            cfg.step = 2
        cfg.bmax = [max(self.guppy_max, cfg.step)] + [bl + cfg.step for bl in range(1, MAX_LEVEL + 1)]
        # The Body Levels (as bits) a Fish of each Level could Adapt at once as a step up.
        cfg.above = [max(0, (2 << top) - (2 << level)) for level, top in enumerate(cfg.bmax)]
        cfg.skipcost = [[sum(cfg.skip * k for k in range(bl + 1, lv)) if bl and cfg.skip else 0
                         for lv in range(SKIP_COST_LEVELS)] for bl in range(MAX_LEVEL + 1)]
        charts = (t.get("random_selection") or {}).get("charts") or {}
        key = players if players in charts else (t.get("random_selection") or {}).get(
            "chart_for_more_players", 3)
        cfg.chart = tuple((int(r["roll"][1]), r["gain"], int(r.get("slot", r.get("amount", 0)) or 0))
                          for r in charts.get(key, charts.get(str(key), [])))
        if not cfg.chart:
            raise RuleConflict("no Random Selection chart in tables.random_selection")
        cfg.school_battle = "school-battle" in variants
        if cfg.school_battle:
            sb = tv.get("school-battle") or {}
            size = self._school_size()
            if players % size or players // size < 2:
                raise RuleConflict(f"School battle needs Schools of {size}: {players} players")
            cfg.nteams = players // size
            cfg.team = tuple(p % cfg.nteams for p in range(players))
            cfg.cap = int(sb.get("shared_experience_max", 30))
        else:
            cfg.nteams = players
            cfg.team = tuple(range(players))
            cfg.cap = self.exp_cap
        cfg.multi = "multi-auto-adapt" in variants
        # The house rule that ends a settled sea in a tie (the published rules have no such end).
        cfg.stalemate = "stalemate" in variants
        # A Turn's Experience that stays below this triggers nothing (no Auto-Adapt, no School
        # pool filling up), so it is added without the _gain checks.
        cfg.plain_gain_below = -1 if cfg.school_battle else self.auto_at
        # By team: the Fish of the other teams, as a bit mask.
        cfg.foes = [sum(1 << q for q in range(players) if cfg.team[q] != tm)
                    for tm in range(cfg.nteams)]
        cfg.seats = list(seats or self._seat_names(players))
        # By team: the Experience a match starts with (each Fish brings exp_start to its pool).
        cfg.exp_start = [0] * cfg.nteams
        for p in range(players):
            cfg.exp_start[cfg.team[p]] = min(cfg.cap, cfg.exp_start[cfg.team[p]] + self.exp_start)
        return cfg

    def _finish_config(self, cfg):
        """Per-instance data once the deck is known; index -1 (an empty slot) reads as 0."""
        cfg.total = len(cfg.ct)
        cfg.blev = [self.level[t] if self.is_body[t] else 0 for t in cfg.ct] + [0]
        cfg.ilev = [self.level[t] for t in cfg.ct]
        cfg.icost = [self.cost[t] for t in cfg.ct]
        cfg.iloc = [self.loc[t] for t in cfg.ct]
        cfg.ids = list(range(cfg.total))
        cfg.iadapt = [self.adapt_action[t] for t in cfg.ct]
        cfg.iname = [self.names[t] for t in cfg.ct] + [None]
        cfg.islot = [BODY_SLOT if self.is_body[t] else self.loc[t] + 1 for t in cfg.ct]
        cfg.ischool = [self.has_school[t] for t in cfg.ct] + [False]
        cfg.bbit = [1 << lv if lv else 0 for lv in cfg.blev]     # a Body's Level as one bit
        cfg.body_at = {}
        for c, t in enumerate(cfg.ct):
            if self.is_body[t]:
                cfg.body_at.setdefault(self.level[t], set()).add(c)
        cfg.body_at = {lv: frozenset(ids) for lv, ids in cfg.body_at.items()}
        # By the Fish's Body Level and card instance: the Experience Adapting it takes (as
        # _adapt_cost: a Body's skipped-Level price; INF: not now). What a Buy needs, by instance
        # (the last entry: an empty slot): its cost; with a full PGP the card must be Adapted at
        # once, so its cost plus that price.
        cfg.adaptprice = []
        for bl in range(len(cfg.bmax)):
            row = []
            for c, lv in enumerate(cfg.ilev):
                if cfg.blev[c]:
                    row.append(cfg.skipcost[bl][lv] if lv <= cfg.bmax[bl] else INF)
                else:
                    row.append(0 if lv <= bl + self.part_margin else INF)
            cfg.adaptprice.append(row)
        cfg.price = cfg.icost + [INF]
        cfg.fullprice = [[k + a if a < INF else INF for k, a in zip(cfg.icost, row, strict=True)]
                         + [INF] for row in cfg.adaptprice]
        # By Body Level and PGP size: the price row a Buy reads (a full PGP: the full price; the
        # spare rows cover a scenario that overfills a PGP).
        cfg.buyprice = [[cfg.price] * self.pgp_max + [full] * PGP_SPARE_ROWS for full in cfg.fullprice]
        # By Body Level: a Fish's hold (_hold) while its PGP is empty.
        cfg.bare_hold = [(2 << bl, cfg.above[bl] & -(2 << bl), cfg.buyprice[bl][0], ())
                         for bl in range(len(cfg.bmax))]

    def _deck_types(self, cards, variants, boxes):
        if cards is None:
            removed = set()
            if "kids" in variants:
                removed = self._kids_removed()
            types = []
            for t in range(len(self.names)):
                if self.loc[t] >= 0 and LOCATIONS[self.loc[t]] in removed:
                    continue
                types.extend([t] * self.copies[t])
        else:
            try:
                types = [self.index[n] for n in cards]
            except KeyError as exc:
                raise RuleConflict(f"the deck names {exc.args[0]!r}, which is no body or part") \
                    from None
        return types * boxes
