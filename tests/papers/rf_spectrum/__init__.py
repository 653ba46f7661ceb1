"""Tests of papers.rf_spectrum (the folder mirrors fltheory/papers/rf_spectrum)."""
