"""Tests of the shared theory, fltheory/engine (the Hermite engine, expressions, the catalogue)."""
