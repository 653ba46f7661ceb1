"""Tests of papers.spectral (the folder mirrors fltheory/papers/spectral)."""
