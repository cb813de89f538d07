"""Combo Fighter's card tables, built once when the engine loads: every action card's numbers,
effects and combo links as lists indexed by card, the prebuilt actions, the character sheets
(Power Token sides, signature combos, solo rules, standard decks), and what the grammar could
not read (`unsupported_cards`)."""

from __future__ import annotations

from . import grammar as G
from .state import BUTTONS, SIDE_LETTERS, Char, Side


class CardsMixin:
    __slots__ = ()

    def _build_cards(self, game) -> None:
        actions = [c for c in game.cards.values() if c.type in G.TYPES]
        self.names = [c.name for c in actions]
        self.kind = {n: i for i, n in enumerate(self.names)}
        n = len(actions)
        self.ctype = [G.TYPE_INDEX[c.type] for c in actions]
        self.button = [BUTTONS.index(c.get("button", "triangle")) for c in actions]
        self.cbox = [sum(1 << BUTTONS.index(b) for b in (c.get("combo") or [])) for c in actions]
        self.speed = [int(c.get("speed", 0) or 0) for c in actions]
        self.prio = [bool(c.get("priority")) for c in actions]
        self.quick = [("Quick" in (c.get("keywords") or [])) for c in actions]
        self.gbreak = [("Guard Break" in (c.get("keywords") or [])) for c in actions]
        self.owner = [c.get("character") for c in actions]
        self.od_c, self.od_x, self.cd_c, self.cd_x = [0] * n, [0] * n, [0] * n, [0] * n
        self.opener: list[tuple] = [()] * n
        self.linked: list[tuple] = [()] * n
        self.reminders: list[list] = [[] for _ in range(n)]
        for i, c in enumerate(actions):
            for key, const, mult in (("opening_damage", self.od_c, self.od_x),
                                     ("combo_damage", self.cd_c, self.cd_x)):
                value = c.get(key, 0)
                if isinstance(value, int):
                    const[i] = value
                else:
                    text = str(value).strip()
                    if text.endswith("X") and (text[:-1] == "" or text[:-1].isdigit()):
                        mult[i] = int(text[:-1] or 1)
                    else:
                        self._unsupported[c.name] = f"{key} {value!r} is neither a number nor nX"
            rules = G.parse_card_text(c.get("text"))
            self.opener[i] = tuple(rules.opener)
            self.linked[i] = tuple(rules.linked)
            self.reminders[i] = rules.reminders
            if rules.problems:
                self._unsupported[c.name] = "; ".join(rules.problems)
        # follows[a][b]: card b's button is in card a's combo box (b can follow a in a combo);
        # one list index instead of a shift and a mask per card.
        self.follows = [tuple(bool(self.cbox[a] >> self.button[b] & 1) for b in range(n))
                        for a in range(n)]
        # Prebuilt actions, indexed by card.
        self.PLAY = [("play", x) for x in self.names]
        self.ASIDE = [("aside", x) for x in self.names]
        self.REC = [("recover", x) for x in self.names]
        self.a_play = {a: i for i, a in enumerate(self.PLAY)}
        self.a_aside = {a: i for i, a in enumerate(self.ASIDE)}
        self.a_rec = {a: i for i, a in enumerate(self.REC)}
        # Card values for the heuristic and the bots: damage, combo reach, Priority, Speed.
        self.value = [
            self.od_c[i] + self.od_x[i] * 1.5 + 0.5 * (self.cd_c[i] + self.cd_x[i] * 1.5)
            + 0.3 * bin(self.cbox[i]).count("1") + (0.5 if self.prio[i] else 0.0)
            + 0.08 * self.speed[i] + 0.6 * len(self.opener[i]) + 0.4 * len(self.linked[i])
            for i in range(n)]

    def _resolve(self, word: str) -> str | None:
        word = word.strip()
        for cand in (word, word[:-1] if word.endswith("s") else word,
                     word[:-2] if word.endswith("es") else word):
            if cand in self.kind:
                return cand
        return None

    def _build_chars(self, game) -> None:
        self.chars: dict[str, Char] = {}
        for card in game.cards.values():
            if card.type == "staggering":
                problems = G.parse_staggering(card.get("text", ""))
                if problems:
                    self._unsupported[card.name] = "; ".join(problems)
            if card.type != "character":
                continue
            problems: list[str] = []
            token = card.get("power_token") or {}
            sides = []
            for key in ("a", "b"):
                side, found = G.parse_token_side(str(token.get(f"{key}_name", key.upper())),
                                                 str(token.get(key, "")), self._resolve)
                sides.append(side)
                problems.extend(found)
            ch = Char()
            ch.name = card.name
            ch.sides = [Side(s, self.kind) for s in sides]
            field_aside = [str(x) for x in token.get("starts_set_aside") or []]
            text_aside = sides[0].starts_aside
            if field_aside and text_aside and sorted(field_aside) != sorted(text_aside):
                problems.append("starts_set_aside and side A's text name different cards")
            if sides[1].starts_aside:
                problems.append("only side A can set cards aside at the start of a fight")
            ch.starts_aside = tuple(self.kind[x] for x in (field_aside or text_aside) if x in self.kind)
            solo, found = G.parse_solo(str(card.get("solo", "")), self._resolve,
                                       (sides[0].name, sides[1].name))
            problems.extend(found)
            if solo.speed_flip and solo.speed_flip_cost != sides[0].reveal_cost:
                problems.append("solo: the flip cost differs from side A's")
            ch.solo = solo
            ch.solo_aside = tuple(self.kind[x] for x in solo.start_aside)
            sigs = []
            for combo in card.get("signature_combos") or []:
                names = [str(x) for x in combo.get("cards") or []]
                missing = [x for x in names if x not in self.kind]
                if missing:
                    problems.append(f"signature combo {combo.get('name')}: unknown {missing}")
                    continue
                sigs.append((str(combo.get("name")), tuple(self.kind[x] for x in names),
                             int(combo.get("basic_damage", 0)), int(combo.get("power_damage", 0) or 0)))
            ch.sigs = sigs
            ch.sig_by_cards = {}
            for i, sig in enumerate(sigs):
                ch.sig_by_cards.setdefault(sig[1], []).append(i)
            ch.sig_index = {sig[0]: i for i, sig in enumerate(sigs)}
            deck = card.get("deck") or {}
            ch.deck = {str(k): int(v) for k, v in deck.items()}
            ch.hand = [str(x) for x in card.get("starting_hand") or []]
            for i, c in enumerate(self.names):
                uses_x = self.od_x[i] or self.cd_x[i]
                if uses_x and self.owner[i] == card.name and any(s.x_mode == G.X_NONE for s in sides):
                    problems.append(f"{c} deals X but a token side does not say what X is")
            if problems:
                self._unsupported[card.name] = "; ".join(problems)
            self.chars[card.name] = ch
        self.CALL = {name: ("call", name) for ch in self.chars.values() for name in ch.sig_index}

    def _check_reminders(self, game) -> None:
        """Token reminders on action cards must agree with their owner's token; shared cards with
        X need every fighter's token to say what X is."""
        for i, name in enumerate(self.names):
            owner = self.chars.get(self.owner[i]) if self.owner[i] else None
            problems = []
            for kind, side in self.reminders[i]:
                if owner is None:
                    problems.append(f"{kind} reminder on a card with no fighter")
                elif kind == "starts_aside" and i not in owner.starts_aside:
                    problems.append(f"{owner.name}'s token does not set it aside")
                elif kind == "play_from_aside" and owner.sides[side].play_aside != i:
                    problems.append(f"{owner.name}'s side {SIDE_LETTERS[side]} does not play it from set "
                                    "aside")
                elif kind == "token_aside" and all(s.aside_card != i for s in owner.sides):
                    problems.append(f"{owner.name}'s token never sets it aside")
            if (owner is None and (self.od_x[i] or self.cd_x[i])
                    and any(s.x_mode == G.X_NONE for ch in self.chars.values() for s in ch.sides)):
                problems.append("a shared card with X needs every token side to define X")
            if problems:
                prior = self._unsupported.get(name)
                self._unsupported[name] = "; ".join(([prior] if prior else []) + problems)

