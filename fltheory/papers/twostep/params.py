"""The two-step paper's parameters (Moniri & Hassani 2026): a two-step setting for the theory
(:class:`TwoStepSetting`: step exponents α1, α2, the Hermite degree L, the activation σ, the
targets, the batch mode, ψ = d/n and the digits) and a simulated run (:class:`Simulation`: sizes
N, n, d, α1, α2, batch mode, label noise, seed).

Definitions, not formulas: each field is read once, here, by :mod:`fltheory.args`, and the
objects are trusted afterwards by the theory, the simulator, the runs and the claims alike.
They are plain slotted records (:class:`fltheory.results.FrozenRecord`), not dataclasses, and
this module imports neither numpy nor :mod:`dataclasses`: ``fltheory lambda`` builds a
:class:`TwoStepSetting` and starts without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fltheory.args import read_choice, read_count, read_dps, read_rational, settle
from fltheory.exact import INF, DomainError, Infinity, fraction_str, to_decimal_str
from fltheory.results import FrozenRecord

__all__ = ["BATCHES", "BATCH_PSI", "HALF", "Simulation", "StepPairs", "TwoStepSetting",
           "check_alpha", "target_texts"]

HALF = Fraction(1, 2)

#: the batch modes of the second step: the first step's samples again, or fresh ones
BATCHES = ("reused", "fresh")

#: ψ = d/n of each step's batch in the paper's examples (n = d): a reused batch sees all n
#: samples (ψ = 1), a fresh one half of them in each step (ψ = 2)
BATCH_PSI = {"reused": Fraction(1), "fresh": Fraction(2)}


def check_alpha(value: Fraction | int | float | str, name: str = "a1") -> Fraction:
    """A step exponent α (η ≍ N^α) as an exact :class:`~fractions.Fraction` in [0, 1/2), read
    by :func:`fltheory.args.read_rational` (a Fraction or an int exactly, text as on the
    command line, a float as the decimal it was typed as), or a
    :class:`~fltheory.exact.DomainError` naming ``name`` (``a1``, ``a2``).

    >>> check_alpha(0.4), check_alpha("2/5")
    (Fraction(2, 5), Fraction(2, 5))
    >>> check_alpha(Fraction(1, 2), "a2")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: a2 = 1/2 is outside the allowed range [0, 1/2)
    """
    return read_rational(value, name, 0, HALF, open_high=True)


def target_texts(targets: object) -> tuple[str, ...]:
    """The targets g_k, one function of z per direction, as texts: one string is one target
    (never its characters), a list or tuple of strings one target each.

    >>> target_texts("He1"), target_texts(["He1", "He3"])
    (('He1',), ('He1', 'He3'))
    >>> target_texts([1])
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: target = [1] is outside the allowed range a list of functions ...
    """
    if isinstance(targets, str):
        return (targets,)
    if isinstance(targets, list | tuple) and all(isinstance(t, str) for t in targets):
        return tuple(targets)
    raise DomainError("target", repr(targets)[:40], "a list of functions of z (strings)")


class TwoStepSetting(FrozenRecord):
    """A question to the two-step theory: the step exponents α1, α2 (η_i ≍ N^{α_i}, in
    [0, 1/2) each; α2 None for a phase line, which spans α2), the Hermite degree L of σ (an
    integer >= 1 or ∞), the activation σ (a catalogue name or an expression in z; None: a
    generic σ of degree L), the targets g_k (functions of z, one per direction), the batch mode
    of the second step (reused or fresh), ψ = d/n of each step's batch (> 0) and the digits of
    the numerical moments (``dps``, 5..100).

    With σ given, L is σ's Hermite degree: leave it out (None, or ∞) and the theory takes σ's
    own, or give it and the theory checks it; the batch is then ``reused`` unless said otherwise
    and ψ that of :data:`BATCH_PSI`. Without σ the count is the generic one, and targets and a
    batch mean nothing: they are refused (as ``fltheory lambda`` refuses ``--target`` without
    ``--sigma``).

    >>> s = TwoStepSetting(".4", "7/20", sigma="tanh")
    >>> s.alpha1, s.alpha2, s.L, s.batch, s.psi
    (Fraction(2, 5), Fraction(7, 20), None, 'reused', Fraction(1, 1))
    >>> TwoStepSetting(".4", ".3", batch="fresh")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: batch = fresh needs --sigma; allowed: --batch together with --sigma
    """

    _fields = __slots__ = ("alpha1", "alpha2", "L", "sigma", "targets", "batch", "psi", "dps")
    alpha1: Fraction
    alpha2: Fraction | None
    L: int | Infinity | None
    sigma: str | None
    targets: tuple[str, ...]
    batch: str | None
    psi: Fraction | None
    dps: int

    def __init__(self, alpha1: Any, alpha2: Any = None, L: Any = INF, sigma: Any = None,
                 targets: Any = (), batch: Any = None, psi: Any = None, dps: Any = 30) -> None:
        a1 = check_alpha(alpha1, "a1")
        a2 = None if alpha2 is None else check_alpha(alpha2, "a2")
        if sigma is None:
            if L is None:
                raise DomainError("L", "None", "integers in [1, inf] or inf",
                                  reason="is not an integer")
            degree: int | Infinity | None = L if isinstance(L, Infinity) \
                else read_count(L, "L", 1)
        else:
            degree = None if L is None or isinstance(L, Infinity) else read_count(L, "L", 1)
        digits = read_dps(dps)
        if sigma is not None and not isinstance(sigma, str):
            raise DomainError("sigma", repr(sigma)[:40], "a catalogue name or an expression in z",
                              reason="is not an expression")
        texts = target_texts(targets)
        if sigma is None and texts:
            raise DomainError("target", texts[0], "--target together with --sigma",
                              reason="needs --sigma")
        if sigma is None and batch is not None:
            raise DomainError("batch", batch, "--batch together with --sigma",
                              reason="needs --sigma")
        mode = None if sigma is None else read_choice("reused" if batch is None else batch,
                                                      "batch", BATCHES)
        ratio = None if psi is None else read_rational(psi, "psi", 0, open_low=True)
        if ratio is None and mode is not None:
            ratio = BATCH_PSI[mode]
        settle(self, alpha1=a1, alpha2=a2, L=degree, sigma=sigma, targets=texts, batch=mode,
               psi=ratio, dps=digits)


class StepPairs(FrozenRecord):
    """The (α1, α2) points of a table, paired one to one (``alpha1[i]`` with ``alpha2[i]``),
    each α in [0, 1/2) (:func:`check_alpha`).

    >>> StepPairs(["1/10", "2/5"], ["1/5", "3/10"]).points
    ((Fraction(1, 10), Fraction(1, 5)), (Fraction(2, 5), Fraction(3, 10)))
    """

    _fields = __slots__ = ("alpha1", "alpha2")
    alpha1: tuple[Fraction, ...]
    alpha2: tuple[Fraction, ...]

    def __init__(self, alpha1: Sequence[Any], alpha2: Sequence[Any]) -> None:
        if len(alpha1) != len(alpha2):
            raise DomainError("alpha2", ",".join(_decimal(a) for a in alpha2),
                              f"as many values as alpha1 ({len(alpha1)})",
                              reason="does not pair with alpha1")
        settle(self, alpha1=tuple(check_alpha(a, "a1") for a in alpha1),
               alpha2=tuple(check_alpha(a, "a2") for a in alpha2))

    @property
    def points(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """The pairs (α1, α2), in order."""
        return tuple(zip(self.alpha1, self.alpha2, strict=True))


def _decimal(q: Any) -> str:
    """A value as a message shows it: a short exact decimal, a fraction where the decimal does
    not end (1/3)."""
    if not isinstance(q, int | Fraction):
        return str(q)
    text = to_decimal_str(Fraction(q), 10)
    return text if Fraction(text) == q else fraction_str(q)


class Simulation(FrozenRecord):
    """One simulated run of the two steps: N hidden units, n samples, d inputs (n and d default
    to N: the paper's N = n = d), the step exponents α1, α2 in [0, 1/2) (η_i = N^{α_i}), the
    batch mode of the second step, the label-noise standard deviation (>= 0) and the seed (an
    integer >= 0 or a numpy ``SeedSequence``, :mod:`fltheory.simkit.seeding`).

    The bounds that depend on what is simulated (memory for the number of Taylor terms, the
    cost of ``fltheory twostep simulate``) are the simulator's
    (:func:`fltheory.papers.twostep.sim.check_sizes`).

    >>> r = Simulation(200, seed=3)
    >>> (r.N, r.n, r.d, r.alpha1, r.batch, r.seed)
    (200, 200, 200, Fraction(2, 5), 'reused', 3)
    >>> Simulation(200, noise=-1)
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: noise = -1 is outside the allowed range noise >= 0
    """

    _fields = __slots__ = ("N", "n", "d", "alpha1", "alpha2", "batch", "noise", "seed")
    N: int
    n: int
    d: int
    alpha1: Fraction
    alpha2: Fraction
    batch: str
    noise: Fraction
    #: an int >= 0 or a numpy SeedSequence
    seed: Any

    def __init__(self, N: Any, n: Any = None, d: Any = None, alpha1: Any = Fraction(2, 5),
                 alpha2: Any = Fraction(3, 10), batch: Any = "reused", noise: Any = 0,
                 seed: Any = 0) -> None:
        width = read_count(N, "N", 1)
        samples = read_count(width if n is None else n, "n", 2)
        inputs = read_count(width if d is None else d, "d", 1)
        a1, a2 = check_alpha(alpha1, "a1"), check_alpha(alpha2, "a2")
        mode = read_choice(batch, "batch", BATCHES)
        sd = read_rational(noise, "noise", 0)
        # a SeedSequence passes as it is (numpy is not imported here: the class is named)
        key = seed if type(seed).__name__ == "SeedSequence" else read_count(seed, "seed", 0)
        settle(self, N=width, n=samples, d=inputs, alpha1=a1, alpha2=a2, batch=mode, noise=sd,
               seed=key)
