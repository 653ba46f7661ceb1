"""Tests of papers.committee (the folder mirrors fltheory/papers/committee)."""
