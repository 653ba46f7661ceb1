"""``fltheory wishart``: parse, build the parameters once, call the run, render."""

from __future__ import annotations

import click

from fltheory.cli.options import RATIONAL, CountType, emit, format_option
from fltheory.results import Result
from wishart_paper.params import Sample, Wishart
from wishart_paper.runs import edge_run


@click.command("wishart")
@click.option("--gamma", type=RATIONAL, default="1/2", show_default=True,
              help="Aspect ratio γ = d/n, 0 < γ <= 1.")
@click.option("--n", "n", type=CountType(minimum=10, maximum=4000), default=400,
              show_default=True, help="Rows of X.")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@format_option
def wishart_command(gamma: object, n: int, seed: int, fmt: str) -> None:
    """The top eigenvalue of XᵀX/n against the Marchenko–Pastur edge (1 + √γ)².

    Example: fltheory wishart --gamma 1/4 --n 400
    """
    model, sample = Wishart(gamma), Sample(n, seed)
    run = edge_run(model, sample)
    emit(Result(command="wishart", inputs={"gamma": str(model.gamma), "n": n, "seed": seed},
                value=run.exact, numeric=f"{run.predicted:.10g}",
                conventions={"model": "S = XᵀX/n, X n × ⌈γn⌉ with i.i.d. N(0, 1) entries"},
                summary=[f"edge (1 + √γ)² = {run.exact} = {run.predicted:.6f}",
                         f"top eigenvalue of one sample: {run.measured:.6f} "
                         f"(fluctuations O(n^(-2/3)) = {run.scale:.3g})"]), fmt)
