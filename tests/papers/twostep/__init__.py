"""Tests of papers.twostep (the folder mirrors fltheory/papers/twostep)."""
