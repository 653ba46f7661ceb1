"""Tests of papers.fisher (the folder mirrors fltheory/papers/fisher)."""
