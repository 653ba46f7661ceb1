"""Tests of papers.recovery (the folder mirrors fltheory/papers/recovery)."""
