"""From exponents to sample complexity: how many samples each algorithm needs for a single-index
link (:mod:`fltheory.papers.samples.complexity`) and the leap of a multi-index polynomial target
(:mod:`fltheory.papers.samples.multiindex`), both faced by :mod:`fltheory.papers.samples.theory`,
with simulations that measure the slope in d."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="samples",
    title="From exponents to sample complexity: online SGD, CSQ/SQ, batch reuse, leap",
    claims="fltheory.papers.samples.claims",
    commands={"samples": "fltheory.papers.samples.cli:samples_command",
              "leap": "fltheory.papers.samples.cli:leap_command"},
    tables={"samples": "fltheory.papers.samples.views:samples_table"},
    figures={"samples": "fltheory.papers.samples.views:samples_figure"},
    notebook="fltheory.papers.samples.views:NOTEBOOK",
    order=8,
)

# The paper's public names, each imported from its module on first use: importing this
# package (as paper discovery does) costs no more than the declaration above.
_NAMES = {
    "complexity": (
        "ALGORITHMS", "Row", "SampleTable", "Scale", "link_table", "online_sgd_scale", "rows_for",
        "sample_table"),
    "multiindex": (
        "DIRECTION_LIMITS", "GEN_MAX_POWER", "GenerativeLeap", "LEAP_LIMITS", "Leap", "Stage",
        "all_odd", "generative_leap", "hermite_support", "leap", "leap_of", "leap_of_support",
        "numeric_rank", "parse_directions", "parse_polynomial"),
    "nonpoly": ("COORDINATES", "DISCRETE_LIMITS", "function_generative_leap", "to_sympy"),
    "params": (
        "FUNCTION_NAMES", "KMAX", "Link", "Poly", "REUSE_SIZES", "ReuseSizes", "SLOPE_SIZES",
        "STAGE_SIZES", "SlopeSizes", "StageSizes", "Target", "check_function_target"),
    "runs": ("BOOT", "THRESHOLD", "medians", "reuse_runs", "slope_runs", "step_power"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
