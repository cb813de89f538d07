"""Helpers of the Combo Fighter engine: the text grammar, the solo-mode AI and the replay narration."""
