"""The predictions of the sample-complexity paper, in one face: how many samples each algorithm
needs for a single-index link (:mod:`fltheory.papers.samples.complexity`, from the information
and generative exponents of the Hermite engine) and the leap of a multi-index polynomial target
(:mod:`fltheory.papers.samples.multiindex`, from its exact Hermite support). The parameters are
:class:`~fltheory.papers.samples.params.Link` and :class:`~fltheory.papers.samples.params.Target`.

>>> link_table(Link("He3", kmax=4, dps=15)).row("online SGD").scale.text()
'd^2'
>>> leap_of(Target("z1 + z1*z2 + z1*z2*z3", generative=False)).value
1

Standard library at import (the engine is imported by the link's table when it runs).
"""

from __future__ import annotations

from fltheory.papers.samples.complexity import (
    ALGORITHMS,
    Row,
    SampleTable,
    Scale,
    link_table,
    online_sgd_scale,
    rows_for,
    sample_table,
)
from fltheory.papers.samples.multiindex import (
    DIRECTION_LIMITS,
    GEN_MAX_POWER,
    LEAP_LIMITS,
    GenerativeLeap,
    Leap,
    Stage,
    generative_leap,
    hermite_support,
    leap,
    leap_of,
    leap_of_support,
    parse_directions,
    parse_polynomial,
)
from fltheory.papers.samples.params import Link, Target

__all__ = ["ALGORITHMS", "DIRECTION_LIMITS", "GEN_MAX_POWER", "LEAP_LIMITS", "GenerativeLeap",
           "Leap", "Link", "Row", "SampleTable", "Scale", "Stage", "Target", "generative_leap",
           "hermite_support", "leap", "leap_of", "leap_of_support", "link_table",
           "online_sgd_scale", "parse_directions", "parse_polynomial", "rows_for",
           "sample_table"]
