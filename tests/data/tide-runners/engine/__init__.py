"""Tide Runners' rules engine, in several files as a designer may write one: the state and its
constants (state.py), the rules (rules.py) and the words for replays and scenarios (words.py).

The match: each player shuffles their deck and draws `hand_size` cards; a coin flip decides who
starts. On your turn you play one card from your hand (a rower moves your boat forward by its
strength; a gust pushes the rival boat back by its push, never behind the start, and not at all
while the rival's last rower played has Anchor), then draw a card if your deck has one. A player
with no card in hand passes. The first boat to reach `finish_line` wins at once; when neither
player has a card left, the boat further ahead wins, and level boats draw.

Actions: ("play", "Card Name"), ("pass",).
Scenario setup: to_move, p0/p1: {distance, hand, deck (top card first), anchored}.
Observe: to_move, over, winner, p0/p1: {distance, hand (sorted), deck_size, anchored}.
"""

from .rules import TideEngine

ENGINE = TideEngine
