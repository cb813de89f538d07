"""Tables made once, read by slot mask (bit i = slot i) or by position (player * 5 + slot), and the
bit sets of the events (grammar's EV_...) the hot paths test."""

from __future__ import annotations

from .grammar import (
    EV_AFTER_ATTACKED,
    EV_AFTER_ATTACKS,
    EV_ATTACK_KILLS,
    EV_ATTACKED,
    EV_ATTACKS,
    EV_DIES,
    EV_FRIEND_AFTER_ATTACKED,
    EV_FRIEND_AFTER_ATTACKS,
    EV_FRIEND_ATTACKS,
    EV_FRIEND_DIED_AFTER,
    EV_FRIEND_DIES,
    EV_OPP_ATTACKS,
    EV_OPP_ATTACKS_BLOCK,
    EV_OPP_CAST,
    EV_OPP_DIES,
    EV_OPP_PLAY,
    EV_OPP_PLAY_AFTER,
    EV_OPP_PLAY_SECOND,
    EV_OPP_SPECIAL,
    EV_PLAYED,
    EV_START,
    EV_YOU_CAST,
    EV_YOU_PLAY,
)
from .state import ALL_SLOTS, SLOTS

# [m]: the slots of slot mask m, in order
_SLOTS_OF = [tuple(i for i in range(SLOTS) if m & (1 << i)) for m in range(1 << SLOTS)]
_BIT = (1, 2, 4, 8, 16)                 # [i]: slot i's bit
# State.dead: a bit per position (player * 5 + slot) where a fighter may have died
_PBIT = ((1, 2, 4, 8, 16), (32, 64, 128, 256, 512))
_SHIFT = (0, SLOTS)                     # [p]: where player p's bits start in State.dead
_KEEP_OTHER = (~ALL_SLOTS, ~(ALL_SLOTS << SLOTS))      # the bits of the other player's positions
_ALL_POSITIONS = 1023


def _by_mask(items):
    """[m]: the tuple of items[i] for the slots i of mask m, in slot order (each mask's tuple is
    a shorter one plus its highest slot's item)."""
    out = [()]
    for m in range(1, 1 << SLOTS):
        h = m.bit_length() - 1
        out.append(out[m ^ (1 << h)] + (items[h],))
    return out


# Events by bit (1 << EV_...), as in CardInfo.evs, Fighter.evs and Player.lsup / lm / pev
_BIT_YOU_PLAY = 1 << EV_YOU_PLAY
_BIT_PLAYED = 1 << EV_PLAYED
_BIT_DIES = 1 << EV_DIES
_BIT_START = 1 << EV_START
_BITS_OPP_PLAY = (1 << EV_OPP_PLAY) | (1 << EV_OPP_PLAY_AFTER) | (1 << EV_OPP_PLAY_SECOND)
_BIT_YOU_CAST = 1 << EV_YOU_CAST
_BIT_OPP_CAST = 1 << EV_OPP_CAST
_BIT_FRIEND_DIES = 1 << EV_FRIEND_DIES
_BIT_FRIEND_DIED_AFTER = 1 << EV_FRIEND_DIED_AFTER
_BIT_OPP_DIES = 1 << EV_OPP_DIES
_BIT_ATTACK_KILLS = 1 << EV_ATTACK_KILLS
_BITS_DEATH = _BIT_FRIEND_DIES | _BIT_FRIEND_DIED_AFTER | _BIT_OPP_DIES | _BIT_ATTACK_KILLS
_ATK_EVS = 0
for _ev in (EV_ATTACKS, EV_FRIEND_ATTACKS, EV_OPP_ATTACKS, EV_OPP_SPECIAL, EV_ATTACKED,
            EV_AFTER_ATTACKED, EV_FRIEND_AFTER_ATTACKED, EV_OPP_ATTACKS_BLOCK, EV_AFTER_ATTACKS,
            EV_FRIEND_AFTER_ATTACKS):
    _ATK_EVS |= 1 << _ev
_STEP6_EVS = (1 << EV_FRIEND_AFTER_ATTACKED) | (1 << EV_OPP_ATTACKS_BLOCK) | (1 << EV_AFTER_ATTACKED)
_STEP7_EVS = (1 << EV_FRIEND_AFTER_ATTACKS) | (1 << EV_AFTER_ATTACKS)
_STEP1_EVS = (1 << EV_ATTACKS) | (1 << EV_FRIEND_ATTACKS)
# a basic attack's events (_quiet): those the attacker's side answers, those any fighter or Power of
# the defender's side answers, those only its target answers
_ATTACKER_EVS = _STEP1_EVS | _STEP7_EVS
_DEFENDER_EVS = (1 << EV_OPP_ATTACKS) | (1 << EV_FRIEND_AFTER_ATTACKED) | (1 << EV_OPP_ATTACKS_BLOCK)
_TARGET_EVS = (1 << EV_ATTACKED) | (1 << EV_AFTER_ATTACKED)
_BIT_OPP_ATTACKS = 1 << EV_OPP_ATTACKS
_BIT_OPP_SPECIAL = 1 << EV_OPP_SPECIAL
_BIT_ATTACKED = 1 << EV_ATTACKED
