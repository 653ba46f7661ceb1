"""Views of each paper: tables, figures, sweep tasks and notebooks, declared in
:mod:`fltheory.papers` and built from the theory, the claims and the simulators."""
