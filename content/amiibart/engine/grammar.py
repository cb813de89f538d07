"""The Amiibart card-text grammar: printed texts -> small effect programs.

Every rules text (ability, attack text, Forge option, Spell, Hazard, Stage, Power) is read once,
when the engine is built, by the regular expressions below. A text is an optional trigger
("When played:", "At the end of your turn:", "Hazard. After your opponent plays a fighter:"...)
followed by sentences; each sentence is one effect over a selector ("target opposing fighter",
"each friendly Dark fighter", "this fighter", "it"...). A text that matches no pattern raises
`Unsupported`, and the engine lists the card in `unsupported_cards()`.

Effects are plain tuples `(op, ...)`; selectors are `Sel` objects; a `Program` is a tuple of
effects plus the selectors of the targets it chooses, in the order they are chosen.
"""

from __future__ import annotations

import re

KW_BITS = {"Lifesteal": 1, "Block": 2, "Instakill": 4, "Swift": 8, "Void": 16, "Forge": 32,
           "Bind": 64, "Update": 128}
LIFESTEAL, BLOCK, INSTAKILL, SWIFT, VOID, FORGE, BIND, UPDATE = (1, 2, 4, 8, 16, 32, 64, 128)
COMBAT_KW = LIFESTEAL | BLOCK | INSTAKILL | SWIFT

ELEMENTS = ("Dark", "Light", "Fire", "ELW", "Magic", "Weapon", "Tech", "Brute", "Electric",
            "Animal", "Fighter", "Tank", "Warrior", "Assassin", "Specialty")
_EL = "|".join(ELEMENTS)
_KW = "Lifesteal|Block|Instakill|Swift"

# -- selectors ----------------------------------------------------------------------------------
K_TARGET, K_REF, K_EACH, K_SELF, K_EVENT, K_ATK_TARGET, K_ADJ_ATK_TARGET, K_SAME_SLOT, K_RANDOM, \
    K_ATTACKER = range(10)
FRIEND, OPP, ANY = 0, 1, 2
F_BLOCK, F_NOBLOCK, F_DAMAGED, F_NONTOKEN, F_OTHER, F_ADJ, F_HPMAX = 1, 2, 4, 8, 16, 32, 64

# -- events (what a trigger waits for) ----------------------------------------------------------
(EV_PLAYED, EV_DIES, EV_WOULD_DIE, EV_ATTACKS, EV_FRIEND_ATTACKS, EV_OPP_ATTACKS, EV_OPP_SPECIAL,
 EV_ATTACKED, EV_AFTER_ATTACKED, EV_FRIEND_AFTER_ATTACKED, EV_OPP_ATTACKS_BLOCK, EV_AFTER_ATTACKS,
 EV_FRIEND_AFTER_ATTACKS, EV_START, EV_END, EV_YOU_CAST, EV_OPP_CAST, EV_YOU_PLAY, EV_OPP_PLAY,
 EV_OPP_PLAY_AFTER, EV_OPP_PLAY_SECOND, EV_YOU_FORGE, EV_FRIEND_DIES, EV_OPP_DIES,
 EV_FRIEND_DIED_AFTER, EV_ATTACK_KILLS, EV_OPP_POWER, EV_OPP_HEALED, EV_SUMMON,
 EV_HAZARD_RESOLVES) = range(30)

# Events that concern the fighter carrying the ability itself.
SELF_EVENTS = frozenset({EV_PLAYED, EV_DIES, EV_WOULD_DIE, EV_ATTACKS, EV_ATTACKED,
                         EV_AFTER_ATTACKED, EV_AFTER_ATTACKS})

# (regex, event, groups -> (elem filter, non-token filter))
_TRIGGERS = [
    (r"When played", EV_PLAYED),
    (r"When this fighter dies", EV_DIES),
    (r"When this fighter would die", EV_WOULD_DIE),
    (r"When this fighter attacks", EV_ATTACKS),
    (r"When(?:ever)? a friendly fighter attacks", EV_FRIEND_ATTACKS),
    (r"When(?:ever)? an opposing fighter attacks", EV_OPP_ATTACKS),
    (r"When(?:ever)? an opposing fighter uses a special attack", EV_OPP_SPECIAL),
    (r"When this fighter is attacked", EV_ATTACKED),
    (r"After this fighter is attacked", EV_AFTER_ATTACKED),
    (r"After a friendly fighter is attacked", EV_FRIEND_AFTER_ATTACKED),
    (r"After an opposing fighter attacks a friendly fighter with Block", EV_OPP_ATTACKS_BLOCK),
    (r"After this fighter attacks", EV_AFTER_ATTACKS),
    (r"After a friendly fighter attacks", EV_FRIEND_AFTER_ATTACKS),
    (r"At the start of your turn", EV_START),
    (r"At the end of your turn", EV_END),
    (r"When(?:ever)? you cast a spell", EV_YOU_CAST),
    (r"When(?:ever)? your opponent casts a spell", EV_OPP_CAST),
    (rf"When(?:ever)? you play an? (?:({_EL}) )?fighter", EV_YOU_PLAY),
    (r"When(?:ever)? your opponent plays a fighter", EV_OPP_PLAY),
    (r"After your opponent plays a fighter", EV_OPP_PLAY_AFTER),
    (r"After your opponent plays their second fighter in a turn", EV_OPP_PLAY_SECOND),
    (r"When(?:ever)? you play a card with Forge", EV_YOU_FORGE),
    (rf"When(?:ever)? a friendly( non-token)? (?:({_EL}) )?fighter dies", EV_FRIEND_DIES),
    (rf"When(?:ever)? an opposing( non-token)? (?:({_EL}) )?fighter dies", EV_OPP_DIES),
    (r"After a friendly fighter dies", EV_FRIEND_DIED_AFTER),
    (r"When(?:ever)? an attack by a friendly fighter kills an opposing fighter", EV_ATTACK_KILLS),
    (r"When(?:ever)? your opponent uses an Active Power", EV_OPP_POWER),
    (r"When(?:ever)? an opposing fighter would be healed", EV_OPP_HEALED),
    (r"When(?:ever)? you summon a token", EV_SUMMON),
    (r"When(?:ever)? one of your Hazards resolves", EV_HAZARD_RESOLVES),
]
_TRIGGERS = [(re.compile("^" + rx + "$"), ev) for rx, ev in _TRIGGERS]

# Hazards may only wait for what the opponent does (or for what happens to their fighters).
HAZARD_EVENTS = frozenset({EV_OPP_ATTACKS, EV_OPP_SPECIAL, EV_OPP_ATTACKS_BLOCK, EV_OPP_CAST,
                           EV_OPP_PLAY_AFTER, EV_OPP_PLAY_SECOND, EV_FRIEND_DIES,
                           EV_FRIEND_DIED_AFTER, EV_OPP_POWER, EV_OPP_HEALED,
                           EV_FRIEND_AFTER_ATTACKED})
# Events only a Hazard may wait for (they replace or cancel what the opponent does).
HAZARD_ONLY = frozenset({EV_OPP_HEALED, EV_OPP_SPECIAL})


class Unsupported(Exception):
    """A text no pattern of the grammar reads."""


class Sel:
    """Which fighters an effect applies to."""

    __slots__ = ("kind", "side", "elem", "flags", "hp", "k")

    def __init__(self, kind, side=ANY, elem=None, flags=0, hp=0, k=-1):
        self.kind, self.side, self.elem, self.flags, self.hp, self.k = kind, side, elem, flags, hp, k

    def __repr__(self):
        return f"Sel({self.kind},{self.side},{self.elem},{self.flags},{self.hp},{self.k})"


class Program:
    """Effects in order, the selectors of the targets chosen (index k), and for each effect how
    many targets must be chosen before it resolves. run: a function the engine may set that does
    the whole program at once (see the engine's _exec)."""

    __slots__ = ("effs", "tsel", "need", "text", "run")

    def __init__(self, effs, tsel, text=""):
        self.effs = tuple(effs)
        self.tsel = tuple(tsel)
        self.need = tuple(_need(e) + 1 for e in self.effs)
        self.text = text
        self.run = None

    def __repr__(self):
        return f"Program({self.text!r})"


def _need(eff) -> int:
    best = -1
    for part in eff[1:]:
        if isinstance(part, Sel) and part.kind in (K_TARGET, K_REF):
            best = max(best, part.k)
        elif isinstance(part, tuple):
            for sub in part:
                if isinstance(sub, tuple):
                    best = max(best, _need(sub))
    return best


class _St:
    """Parse state of one text: the targets met so far and the last single fighter named."""

    def __init__(self, ctx, has_self):
        self.ctx = ctx               # spell | ability | attack | power | forge | hazard | stage
        self.has_self = has_self
        self.tsel: list[Sel] = []
        self.last: Sel | None = None


_SEL_RE = re.compile(
    rf"^(target|each|a random)( other)?( adjacent)? (friendly|opposing)( non-token)?"
    rf"(?: ({_EL}))? fighter( without Block| with Block| that is already damaged|"
    rf" with (\d+) Health or less)?$")


def parse_sel(text: str, st: _St) -> Sel:
    t = text.strip()
    if t == "this fighter":
        if not st.has_self:
            raise Unsupported(f"'this fighter' outside a fighter: {text!r}")
        sel = Sel(K_SELF)
        st.last = sel
        return sel
    if t == "it":
        if st.last is not None:
            return st.last if st.last.kind != K_TARGET else Sel(K_REF, k=st.last.k)
        return Sel(K_EVENT)
    if t == "the target":
        if st.ctx == "attack":
            sel = Sel(K_ATK_TARGET)
        elif st.last is not None and st.last.kind == K_TARGET:
            sel = Sel(K_REF, k=st.last.k)
        else:
            raise Unsupported("'the target' with no target before it")
        st.last = sel
        return sel
    if t in ("the attacking fighter", "the attacker"):
        sel = Sel(K_ATTACKER)
        st.last = sel
        return sel
    if t == "the opposing fighter in the same slot":
        if not st.has_self:
            raise Unsupported("'the same slot' outside a fighter")
        return Sel(K_SAME_SLOT, OPP)
    if t == "each fighter adjacent to the target":
        if st.ctx != "attack":
            raise Unsupported("'adjacent to the target' outside an attack")
        return Sel(K_ADJ_ATK_TARGET)
    m = _SEL_RE.match(t)
    if not m:
        raise Unsupported(f"no selector reads {text!r}")
    how, other, adj, side, nontoken, elem, qual, hp = m.groups()
    flags = 0
    if other:
        flags |= F_OTHER
    if adj:
        if not st.has_self:
            raise Unsupported("'adjacent' outside a fighter")
        flags |= F_ADJ
    if nontoken:
        flags |= F_NONTOKEN
    if qual == " without Block":
        flags |= F_NOBLOCK
    elif qual == " with Block":
        flags |= F_BLOCK
    elif qual == " that is already damaged":
        flags |= F_DAMAGED
    elif hp:
        flags |= F_HPMAX
    sidev = FRIEND if side == "friendly" else OPP
    if how == "target":
        sel = Sel(K_TARGET, sidev, elem, flags, int(hp or 0), len(st.tsel))
        st.tsel.append(sel)
        st.last = sel
        return sel
    if how == "a random":
        return Sel(K_RANDOM, sidev, elem, flags, int(hp or 0))
    return Sel(K_EACH, sidev, elem, flags, int(hp or 0))


_MOD = rf"(?:\+\d+ Attack|\+\d+ Health|{_KW})"
_MODS = rf"({_MOD}(?:(?:, | and ){_MOD})*)"


def _mods(text: str):
    atk = hp = kw = 0
    for part in re.split(r", | and ", text):
        m = re.match(r"^\+(\d+) (Attack|Health)$", part)
        if m:
            if m.group(2) == "Attack":
                atk += int(m.group(1))
            else:
                hp += int(m.group(1))
        else:
            kw |= KW_BITS[part]
    return atk, hp, kw


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "up to two": 2}


def _sentence(s: str, st: _St, tokens: dict) -> list:
    """One sentence -> a list of effects."""
    s = s.strip().rstrip(".")
    if not s:
        return []
    s = s[0].upper() + s[1:]
    m = re.match(r"^Deal (\d+) damage to (.+?) and (\d+) damage to (.+)$", s)
    if m:
        return [("dmg", parse_sel(m.group(2), st), int(m.group(1)), 0, 1),
                ("dmg", parse_sel(m.group(4), st), int(m.group(3)), 0, 1)]
    m = re.match(r"^Deal (\d+) damage to (.+?)( for each Death Token you have)?(?:, (\d+) times)?$", s)
    if m:
        return [("dmg", parse_sel(m.group(2), st), int(m.group(1)), 1 if m.group(3) else 0,
                 int(m.group(4) or 1))]
    m = re.match(r"^Heal (.+) (\d+)$", s)
    if m:
        return [("heal", parse_sel(m.group(1), st), int(m.group(2)))]
    m = re.match(rf"^Give (.+?) {_MODS}( this turn)?$", s)
    if m:
        atk, hp, kw = _mods(m.group(2))
        return [("buff", parse_sel(m.group(1), st), atk, hp, kw, bool(m.group(3)))]
    m = re.match(rf"^(.+?) gains ({_KW}) until the start of your next turn$", s)
    if m:
        return [("kwnext", parse_sel(_low(m.group(1)), st), KW_BITS[m.group(2)])]
    m = re.match(rf"^(.+?) (?:gets|gains) {_MODS}( this turn)?$", s)
    if m:
        atk, hp, kw = _mods(m.group(2))
        return [("buff", parse_sel(_low(m.group(1)), st), atk, hp, kw, bool(m.group(3)))]
    m = re.match(r"^(.+?) takes no damage until the start of your next turn$", s)
    if m:
        return [("ward", parse_sel(_low(m.group(1)), st))]
    m = re.match(r"^(.+?)'s attacks ignore Block this turn$", s)
    if m:
        return [("ignblock", parse_sel(_low(m.group(1)), st))]
    m = re.match(r"^Summon (a|an|two|three) (.+?) tokens?$", s)
    if m:
        if m.group(2) not in tokens:
            raise Unsupported(f"no token card named {m.group(2)!r}")
        return [("summon", m.group(2), _NUMBERS[m.group(1)])]
    m = re.match(r"^If you have (\d+) or more empty slots, (.+)$", s)
    if m:
        return [("cond_empty", int(m.group(1)), tuple(_sentence(m.group(2), st, tokens)))]
    m = re.match(r"^If it has (\d+) Health or less, (.+)$", s)
    if m:
        sel = parse_sel("it", st)
        return [("cond_hp", sel, int(m.group(1)), tuple(_sentence(m.group(2), st, tokens)))]
    if s == "Destroy target Hazard your opponent has in play":
        return [("destroy_hazard",)]
    m = re.match(r"^Destroy (.+)$", s)
    if m:
        return [("destroy", parse_sel(m.group(1), st))]
    m = re.match(rf"^Return (up to two|a|an|one|two) (?:({_EL}) )?(?:(\d)\{{star\}} or (\d)\{{star\}} )?"
                 r"(fighter|spell)s? from your discard pile to your hand$", s)
    if m:
        stars = 0
        for g in (m.group(3), m.group(4)):
            if g:
                stars |= 1 << int(g)
        return [("ret_discard", _NUMBERS[m.group(1)], m.group(1) == "up to two", m.group(5),
                 m.group(2), stars)]
    m = re.match(r"^Return (.+?) to its owner's hand$", s)
    if m:
        return [("bounce", parse_sel(m.group(1), st))]
    if s == "Remove one of your Death Tokens":
        return [("untoken", 1)]
    m = re.match(r"^You have (\d+) extra \{energy\} this turn$", s)
    if m:
        return [("energy", int(m.group(1)))]
    m = re.match(r"^Bind (.+?) to (\d+) Attack and (\d+) Health$", s)
    if m:
        return [("bind", parse_sel(m.group(1), st), int(m.group(2)), int(m.group(3)))]
    m = re.match(r"^(?:Instead )?Update (.+?) into an? (.+?) token$", s)
    if m:
        if m.group(2) not in tokens:
            raise Unsupported(f"no token card named {m.group(2)!r}")
        return [("update", parse_sel(m.group(1), st), m.group(2))]
    m = re.match(r"^At the end of your turn, deal (\d+) damage to (.+)$", s)
    if m:
        return [("burn", parse_sel(m.group(2), st), int(m.group(1)))]
    m = re.match(r"^At the start of each of its owner's turns, (.+?) takes (\d+) damage$", s)
    if m:
        return [("poison", parse_sel(m.group(1), st), int(m.group(2)))]
    m = re.match(r"^(.+?) cannot attack during its owner's next turn$", s)
    if m:
        return [("stun", parse_sel(_low(m.group(1)), st))]
    m = re.match(r"^The next spell you cast this turn costs (\d+) less Energy$", s)
    if m:
        return [("discount", int(m.group(1)))]
    m = re.match(r"^(.+?) takes that much damage instead$", s)
    if m and st.ctx == "hazard":
        return [("wither", parse_sel(_low(m.group(1)), st))]
    if s == "It has no effect" and st.ctx == "hazard":
        return [("nullify",)]
    if s == "That attack deals no damage and its text has no effect" and st.ctx == "hazard":
        return [("null_attack",)]
    if s == "Apply two of its Forge options instead of one":
        return [("forge_two",)]
    if s == "Forge: apply one of this card's Forge options":
        return [("forge", 1)]
    raise Unsupported(f"no effect pattern reads {s!r}")


def _low(s: str) -> str:
    """A selector that starts a sentence ("Target friendly fighter gains ...") in lower case."""
    return s[0].lower() + s[1:]


def _split(text: str) -> list[str]:
    return [p for p in re.split(r"(?<=\.)\s+", text.strip()) if p.strip()]


def parse_program(text: str, ctx: str, has_self: bool, tokens: dict, st: _St | None = None) -> Program:
    st = st or _St(ctx, has_self)
    body = text.strip()
    effs: list = []
    m = re.match(r"^[Ff]lip a coin\. On heads, (.+)$", body)
    if m:
        sub = []
        for s in _split(m.group(1)):
            sub += _sentence(s, st, tokens)
        effs.append(("coin", tuple(sub)))
    elif re.match(r"^[Cc]ancel it\. It has no effect, its Energy stays spent, and it is discarded\.?$",
                  body) and ctx == "hazard":
        effs.append(("cancel",))
    elif body.startswith("Forge: "):
        effs += _sentence(body, st, tokens)
    else:
        for s in _split(body):
            effs += _sentence(s, st, tokens)
    return Program(effs, st.tsel, text)


def parse_trigger(head: str):
    """'Whenever you play a Fire fighter' -> (event, elem filter, non-token filter) or None."""
    for rx, ev in _TRIGGERS:
        m = rx.match(head)
        if not m:
            continue
        elem, nontoken = None, False
        for g in m.groups():
            if g == " non-token":
                nontoken = True
            elif g:
                elem = g
        return ev, elem, nontoken
    return None


# -- statics (lasting effects with no trigger) --------------------------------------------------
def parse_static(text: str, has_self: bool):
    s = text.strip().rstrip(".")
    m = re.match(rf"^Other friendly ({_EL}) fighters have \+(\d+) Attack$", s)
    if m and has_self:
        return ("aura", m.group(1), int(m.group(2)))
    m = re.match(rf"^Friendly ({_EL}) fighters have ({_KW})$", s)
    if m:
        return ("grant", m.group(1), KW_BITS[m.group(2)])
    m = re.match(rf"^(This fighter takes|Adjacent friendly fighters take|Friendly fighters with Block "
                 rf"take|Friendly ({_EL}) fighters take) (\d+) less damage from (attacks|every source)$", s)
    if m:
        who = m.group(1)
        kind = ("self" if who.startswith("This") else "adj" if who.startswith("Adjacent")
                else "block" if "Block" in who else "elem")
        if kind in ("self", "adj") and not has_self:
            raise Unsupported(f"{who!r} outside a fighter")
        return ("dr", kind, m.group(2), int(m.group(3)), m.group(4) == "attacks")
    m = re.match(r"^This fighter takes at most (\d+) damage from any one attack or effect$", s)
    if m and has_self:
        return ("cap", int(m.group(1)))
    m = re.match(r"^Your spells cost (\d+) less Energy$", s)
    if m:
        return ("spell_discount", int(m.group(1)))
    if s == "This fighter's attacks ignore Block" and has_self:
        return ("ignore_block",)
    raise Unsupported(f"no pattern reads {text!r}")


class Attack:
    """A special attack: Energy, damage, keywords and its text, read into steps."""

    __slots__ = ("name", "energy", "damage", "kw", "targeted", "ignore_block", "max_hp",
                 "bonus_elem", "bonus", "step3", "step5", "step7")

    def __init__(self, rec: dict, tokens: dict):
        self.name = rec["name"]
        self.energy = int(rec.get("energy", 0))
        self.damage = int(rec.get("damage", 0) or 0)
        self.kw = 0
        for k in rec.get("keywords") or []:
            self.kw |= KW_BITS[k]
        self.ignore_block = False
        self.max_hp = 0
        self.bonus_elem = None
        self.bonus = 0
        parts = {3: [], 5: [], 7: []}
        st = _St("attack", True)
        text = (rec.get("text") or "").strip()
        step = 5
        m = re.match(r"^(When this attack is used|After this fighter attacks): (.+)$", text)
        if m:
            step = 3 if m.group(1).startswith("When") else 7
            text = m.group(2)
        for s in _split(text):
            s0 = s.strip().rstrip(".")
            if s0 == "This attack ignores Block":
                self.ignore_block = True
                continue
            m = re.match(r"^Only a fighter with (\d+) Health or less left may be the target$", s0)
            if m:
                self.max_hp = int(m.group(1))
                continue
            m = re.match(rf"^If the target is an? ({_EL}) fighter, deal (\d+) more damage to it$", s0)
            if m:
                self.bonus_elem, self.bonus = m.group(1), int(m.group(2))
                continue
            parts[step] += _sentence(s, st, tokens)
        if st.tsel:
            raise Unsupported(f"attack {self.name!r} chooses a target in its text")
        self.step3 = Program(parts[3], ()) if parts[3] else None
        self.step5 = Program(parts[5], ()) if parts[5] else None
        self.step7 = Program(parts[7], ()) if parts[7] else None
        refs = [e for p in (self.step3, self.step5, self.step7) if p for e in p.effs
                if any(isinstance(x, Sel) and x.kind in (K_ATK_TARGET, K_ADJ_ATK_TARGET) for x in e)]
        self.targeted = bool(self.damage or self.kw & (INSTAKILL | LIFESTEAL) or refs
                             or self.max_hp or self.bonus)


def split_trigger(text: str):
    """'When played: summon ...' -> ('When played', 'summon ...'); no trigger -> (None, text)."""
    m = re.match(r"^([A-Z][^:.]*?): (.+)$", text.strip(), re.S)
    if m and parse_trigger(m.group(1)) is not None:
        return m.group(1), m.group(2)
    if m and m.group(1) != "Forge":
        raise Unsupported(f"no trigger reads {m.group(1)!r}")
    return None, text.strip()
