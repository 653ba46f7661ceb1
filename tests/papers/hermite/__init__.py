"""Tests of papers.hermite (the folder mirrors fltheory/papers/hermite)."""
