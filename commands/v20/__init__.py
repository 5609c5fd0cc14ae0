"""The Classic Storyteller (V20) wing: see `wing.py`."""
