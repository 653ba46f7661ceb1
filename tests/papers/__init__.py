"""Tests of each paper, one folder per package of fltheory/papers."""
