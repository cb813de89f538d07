"""A.D.A.P.T.: the cards: the grammar of a card's abilities and `text:`, the per-card vectors,
and a Fish's Stats as its cards add up (CardsMixin)."""

from __future__ import annotations

import re
import struct
from operator import getitem

from .constants import (
    AMPH_TOXIC,
    CARD_SLOTS,
    FL_AMPHIBIOUS,
    FL_TOXIC,
    FLAG_BITS,
    FLAG_FIELDS,
    FLAGS,
    IM_SHOCK,
    IMMUNE_BITS,
    N_CPOIS,
    N_HIDE,
    N_JUMP,
    N_POIS,
    N_RESISTS,
    N_SA,
    NO_CARD,
    NO_COOLDOWNS,
    NO_RESISTS,
    NUM_ATTR,
    NUM_INDEX,
    NUMERALS,
    RESIST_NAMES,
    SA_INDEX,
    STAT_FIELDS,
    STRIKE_RAM,
)
from .state import Stats

# The grammar of a card's `text:` (anything its `abilities` do not say): sentences, each one of
# these patterns. Each match becomes the same effects an ability or a stat field would give.
_WORD = r"(?:\{(\w+)\}|([A-Z][a-z]+))"
TEXT_PATTERNS = [
    (re.compile(r"^([+-]\d+) " + _WORD + r"$"), "stat"),
    (re.compile(r"^(" + "|".join(NUMERALS) + r") (\d+)$"), "numeral"),
    (re.compile(r"^(" + "|".join(FLAGS) + r")$"), "flag"),
    (re.compile(r"^Resist (" + "|".join(RESIST_NAMES) + r") (\d+)$"), "resist"),
    (re.compile(r"^Immune to ((?:" + "|".join(IMMUNE_BITS) + r")(?:(?:, | and )(?:"
                + "|".join(IMMUNE_BITS) + r"))*)$"), "immune"),
    (re.compile(r"^Cooldown (\d+)$"), "cooldown"),
]


# The numeral sums of a card or a Fish as one int, NUM_BITS bits a numeral (signed), above
# NUM_SHIFT (7) zero bits, one per flag: the sums of two Fish differ by the difference of two
# cards, one subtraction and one addition, and raw | amph_toxic (flag bits) keys the _numerals
# cache. With no negative numeral on any card (the usual case) the fields are plain 16-bit
# unsigned ints, which struct reads at once (on a cache miss: some 1,600 of them in the first 300
# matches).
NUM_BITS = 16
NUM_SHIFT = len(FLAGS)
CLAMP_SPAN = 128               # the numeral sums AdaptEngine.clamp_rows covers: -128..127
STATS_CACHE_MAX = 20000        # Stats kept by _stats (then the cache starts again)
NUMERALS_CACHE_MAX = 50000     # effective numerals kept by _numerals (then no more are added)
PLAIN_NUMERAL_MAX = 3000       # any numeral of a card below it: nine cards' sums stay below 2**15
_UNPACK_PLAIN = struct.Struct(f"<{len(NUMERALS)}H").unpack
_PLAIN_BYTES = NUM_BITS // 8 * len(NUMERALS)          # the bytes _UNPACK_PLAIN reads


def _pack_numerals(num) -> int:
    return sum(x << (NUM_BITS * i) for i, x in enumerate(num)) << NUM_SHIFT


def unpack_numerals(raw: int) -> list:
    raw >>= NUM_SHIFT
    out = []
    for _ in NUMERALS:
        x = raw & ((1 << NUM_BITS) - 1)
        if x >> (NUM_BITS - 1):
            x -= 1 << NUM_BITS
        out.append(x)
        raw = (raw - x) >> NUM_BITS
    return out


def _added_cooldowns(cd: tuple, card: tuple) -> tuple:
    """The Cooldowns `cd` with a card's (special action, Cooldown) pairs added: like every
    ability with a numeral, Cooldown totals across the cards that print it with that Action."""
    out = list(cd)
    for i, x in card:
        out[i] += x
    return tuple(out)


def die_sides(value) -> int:
    if isinstance(value, str) and value.startswith("d") and value[1:].isdigit():
        return int(value[1:])
    return 0


class CardsMixin:
    __slots__ = ()

    # -- the card grammar -------------------------------------------------------------------------
    def _parse_card(self, card):
        """(effects, why-unsupported): abilities and `text:` sentences -> effect tuples."""
        fx = []
        problems = []
        sas = []
        cooldown = None
        abilities = card.get("abilities") or {}
        if not isinstance(abilities, dict):
            return fx, "abilities is not a mapping"
        for key, value in abilities.items():
            if key in NUMERALS and isinstance(value, int) and not isinstance(value, bool):
                fx.append(("num", key, value))
                if key in SA_INDEX:
                    sas.append(key)
            elif key in FLAGS and value is True:
                fx.append(("flag", key))
            elif key == "Resist" and isinstance(value, dict) and all(
                    k in RESIST_NAMES and isinstance(v, int) for k, v in value.items()):
                fx.extend(("resist", k, v) for k, v in value.items())
            elif key == "Immune" and isinstance(value, list) and all(
                    v in IMMUNE_BITS for v in value):
                fx.extend(("immune", v) for v in value)
            elif key == "Cooldown" and isinstance(value, int) and not isinstance(value, bool):
                cooldown = value
            else:
                problems.append(f"ability {key}: {value!r} matches no rule")
        text = card.get("text")
        if text:
            for sentence in [s.strip() for s in re.split(r"\.\s*", str(text)) if s.strip()]:
                effect = self._parse_sentence(sentence)
                if effect is None:
                    problems.append(f"text {sentence!r} matches no pattern")
                    continue
                for e in effect:
                    if e[0] == "cooldown":
                        cooldown = e[1]
                    else:
                        fx.append(e)
                        if e[0] == "num" and e[1] in SA_INDEX:
                            sas.append(e[1])
        if cooldown is not None:
            if not sas:
                problems.append("Cooldown on a card with no Special Action")
            fx.extend(("cooldown", sa, cooldown) for sa in sas)
        return fx, "; ".join(problems)

    def _parse_sentence(self, sentence):
        for pattern, kind in TEXT_PATTERNS:
            m = pattern.match(sentence)
            if not m:
                continue
            if kind == "stat":
                word = (m.group(2) or m.group(3) or "").lower()
                if word not in STAT_FIELDS:
                    return None
                return [("stat", word, int(m.group(1)))]
            if kind == "numeral":
                return [("num", m.group(1), int(m.group(2)))]
            if kind == "flag":
                return [("flag", m.group(1))]
            if kind == "resist":
                return [("resist", m.group(1), int(m.group(2)))]
            if kind == "immune":
                return [("immune", v) for v in re.split(r", | and ", m.group(1))]
            if kind == "cooldown":
                return [("cooldown", int(m.group(1)))]
        return None

    def unsupported_cards(self) -> dict[str, str]:
        return dict(self.unsupported)

    def _card_vectors(self):
        """Per card type: (ferocity, survival, lethality, health, its numerals packed in one int
        (_pack_numerals), (flag bits, immune bits, cooldowns) or None if it has none, resists)."""
        vec = []
        for t, fx in enumerate(self.fx):
            fer, surv, leth, hp = self.stat[t]
            num = [0] * len(NUMERALS)
            flags = 0
            res = [0] * N_RESISTS
            imm = 0
            cd = [0] * N_SA
            for e in fx:
                kind = e[0]
                if kind == "num":
                    num[NUM_INDEX[e[1]]] += e[2]
                elif kind == "flag":
                    flags |= FLAG_BITS[e[1]]
                elif kind == "resist":
                    res[RESIST_NAMES.index(e[1])] += e[2]
                elif kind == "immune":
                    imm |= IMMUNE_BITS[e[1]]
                elif kind == "cooldown":
                    i = SA_INDEX[e[1]]
                    cd[i] = max(cd[i], e[2])
                elif kind == "stat":
                    if e[1] == "ferocity":
                        fer += e[2]
                    elif e[1] == "survival":
                        surv += e[2]
                    elif e[1] == "lethality":
                        leth += e[2]
                    else:
                        hp += e[2]
            r = tuple((i, x) for i, x in enumerate(res) if x)
            co = tuple((i, x) for i, x in enumerate(cd) if x)
            fic = (flags, imm, co) if flags or imm or co else None
            vec.append((fer, surv, leth, hp, _pack_numerals(num), fic, r))
        return vec

    def _stats(self, body, parts) -> Stats:
        """Totals for a Body type (NO_CARD: the Guppy) and a part type by location (NO_CARD:
        empty), cached; shared, never changed."""
        key = (body, *parts)
        s = self._stats_cache.get(key)
        if s is None:
            s = self.guppy_s.copy()
            for slot, t in enumerate(key):
                if t >= 0:
                    self._swap_card(s, slot, t)
            if len(self._stats_cache) > STATS_CACHE_MAX:
                self._stats_cache.clear()
            self._stats_cache[key] = s
        return s

    def _guppy_stats(self) -> Stats:
        """A Fish with no cards: the Guppy."""
        s = Stats()
        s.level = s.die = 0
        s.fer, s.surv, s.leth, s.hp = self.guppy_stats
        s.raw = 0
        s.nums = self._numerals(0, 0)
        (s.armor, s.bait, s.counter, s.cpois, s.fear, s.hide, s.jump, s.pois, s.ram, s.regen,
         s.shock, s.stun) = s.nums
        s.flags = 0
        s.smart, s.sneaky, s.crit, s.electro, s.school = FLAG_FIELDS[0]
        s.res = NO_RESISTS
        s.rimm = s.imm = 0
        s.cd = NO_COOLDOWNS
        s.key = [NO_CARD] * CARD_SLOTS
        s.roll = s.fer >= self.guppy_min_fer
        s.strike = int(s.roll)
        s.special = 0
        s.memo = {}
        return s

    def _swap_card(self, s, slot, new):
        """Card type `new` takes `slot` (BODY_SLOT, or a part location + 1) of Stats s, in
        place: the sums move by the two cards' difference, and whatever neither card touches
        (the numerals, the Resists, the flags) stays as it is, and so does what derives from it."""
        key = s.key
        old = key[slot]
        key[slot] = new
        fer0, surv0, leth0, hp0, pn0, fic0, r0 = (self.part_vec if slot else self.body_vec)[old]
        fer1, surv1, leth1, hp1, pn1, fic1, r1 = self.vec[new]
        fer = s.fer = s.fer - fer0 + fer1
        s.surv += surv1 - surv0
        s.leth += leth1 - leth0
        s.hp += hp1 - hp0
        restrike = fer0 != fer1               # whether s.roll and s.strike may change
        if not slot:
            s.level, s.die = self.level_die[new]
            restrike = True
        flags = was = s.flags
        imm = -1                                 # -1: the immunities stay as they are
        if fic0:
            # A flag, an immunity or a Cooldown cannot be subtracted: gather them again.
            flags = imm = 0
            cd = NO_COOLDOWNS
            vec = self.vec
            for t in key:
                if t >= 0:
                    fic = vec[t][5]
                    if fic:
                        flags |= fic[0]
                        imm |= fic[1]
                        if fic[2]:
                            cd = _added_cooldowns(cd, fic[2])
            s.cd = cd
        elif fic1:
            flags = was | fic1[0]
            imm = s.rimm | fic1[1]
            if fic1[2]:
                s.cd = _added_cooldowns(s.cd, fic1[2])
        if flags != was:
            s.flags = flags
            s.smart, s.sneaky, s.crit, s.electro, s.school = FLAG_FIELDS[flags]
        if pn0 != pn1 or (flags ^ was) & AMPH_TOXIC:
            raw = s.raw = s.raw - pn0 + pn1
            nums = self._numerals_cache.get(raw | flags & AMPH_TOXIC)
            if nums is None:
                nums = self._numerals(raw, flags & AMPH_TOXIC)
            if nums != s.nums:
                s.nums = nums
                (s.armor, s.bait, s.counter, s.cpois, s.fear, s.hide, s.jump, s.pois, s.ram,
                 s.regen, s.shock, s.stun) = nums
                s.special = s.hide or s.bait or s.jump   # (read for its truth only: no bool())
                restrike = True
                if imm < 0:
                    imm = s.rimm
        if r0 or r1:
            res = list(s.res)
            for i, x in r0:
                res[i] -= x
            for i, x in r1:
                res[i] += x
            s.res = tuple(res)
        if imm >= 0:
            s.rimm = imm                  # the plain immunities, for the next swap
            s.imm = imm | IM_SHOCK if s.shock else imm     # a Fish with Shock is Immune to Shock
        if restrike:
            roll = s.roll = s.level > 0 or fer >= self.guppy_min_fer    # can make an Attack roll
            s.strike = roll + (STRIKE_RAM if s.ram else 0)      # legal_actions' STRIKES kind

    def _numerals(self, raw, amph_toxic):
        """The effective numerals from their sums (packed, as _pack_numerals): the Amphibious and
        Toxic bonuses, then the caps. Cached by raw | amph_toxic: far fewer sums than Fish (the
        clamping was a third of a Stats miss)."""
        key = raw | amph_toxic
        out = self._numerals_cache.get(key)
        if out is not None:
            return out
        if self.plain_numerals:
            num = list(_UNPACK_PLAIN((raw >> NUM_SHIFT).to_bytes(_PLAIN_BYTES, "little")))
        else:
            num = unpack_numerals(raw)
        if amph_toxic & FL_AMPHIBIOUS:
            if num[N_HIDE]:
                num[N_HIDE] += 1
            if num[N_JUMP]:
                num[N_JUMP] += 1
        if amph_toxic & FL_TOXIC:
            if num[N_POIS]:
                num[N_POIS] += self.toxic_bonus
            if num[N_CPOIS]:
                num[N_CPOIS] += self.toxic_bonus
        lo = min(num)
        hi = max(num)
        if lo >= 0 and hi <= self.lowest_cap:
            out = tuple(num)                 # nothing to clamp (the usual case: a few small sums)
        elif lo >= -128 and hi < 128:      # = -CLAMP_SPAN, CLAMP_SPAN: the sums clamp_rows covers
            out = tuple(map(getitem, self.clamp_rows, num))       # (a table look-up per sum, in C)
        else:
            caps = self.cap_eff
            # (enumerate, not zip(..., strict=True): a keyword argument makes zip build a dict)
            out = tuple([0 if x <= 0 else (x if x <= caps[i] else caps[i])
                         for i, x in enumerate(num)])
        if len(self._numerals_cache) < NUMERALS_CACHE_MAX:
            self._numerals_cache[key] = out
        return out

    def _abilities(self, s) -> dict:
        """A Stats object's abilities as {name: effective score or true}, for observe."""
        out = {}
        for name in NUMERALS:
            v = getattr(s, NUM_ATTR[name])
            if v:
                out[name] = v
        for name in FLAGS:
            if s.flags & FLAG_BITS[name]:
                out[name] = True
        for i, r in enumerate(s.res):
            if r:
                out[f"Resist {RESIST_NAMES[i]}"] = r
        for name, bit in IMMUNE_BITS.items():
            if s.imm & bit:
                out[f"Immune {name}"] = True
        return out
