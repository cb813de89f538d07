"""Helpers of the Combo Fighter engine: the text grammar and the solo-mode AI."""
