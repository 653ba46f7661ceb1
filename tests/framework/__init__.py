"""Tests of fltheory below the papers: exact numbers, the CLI, claims, render, report, sweep,
packaging."""
