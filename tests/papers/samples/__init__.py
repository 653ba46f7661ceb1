"""Tests of papers.samples (the folder mirrors fltheory/papers/samples)."""
