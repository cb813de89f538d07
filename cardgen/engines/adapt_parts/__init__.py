"""Parts of the A.D.A.P.T. engine: the replay narration (replay.py)."""
