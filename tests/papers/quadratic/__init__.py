"""Tests of papers.quadratic (the folder mirrors fltheory/papers/quadratic)."""
