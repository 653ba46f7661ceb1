"""Views of the sample-complexity paper (filled below)."""
