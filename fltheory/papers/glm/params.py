"""The user's model of a generalised linear model, as frozen, typed objects validated once.

* :class:`Prior` — the law P₀ of each entry of the teacher w*: a finite mixture of point masses
  δ(μ) and Gaussians N(μ, s) (weights >= 0 summing to one, variances s >= 0, E w² = ρ > 0, not a
  single point mass). Catalogue: :func:`gaussian` (ρ), :func:`rademacher`,
  :func:`gauss_bernoulli` (ρ), :func:`sparse_rademacher` (ρ), :func:`mixture`; text for the
  command: :func:`read_prior`.
* :class:`Channel` — the law P_out(y | z) of a label: y = φ(z + σ_in ε') + σ ε with φ one of
  sign, abs, square, relu, linear, the symmetric door sign(|z| − K), or any g(z) in the shared
  expression grammar; ``probit`` is σ_in (noise inside φ: for sign it is the probit channel
  Φ(yz/σ_in)), ``noise`` is σ (additive Gaussian noise on the label). A deterministic expression
  channel (σ = 0) must be one of the catalogue's (recognised exactly: ``sign(Abs(z) - 1/2)``
  is the door K = 1/2), since its likelihood is otherwise not a density.
* :class:`Alphas` — sample ratios α = n/d > 0.
* :class:`AmpRun` — one GAMP run of the simulator (d, α, iterations, seed).

Definitions, not formulas: the simulator imports these too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fltheory.args import (
    check_memory,
    fraction_text,
    read_choice,
    read_count,
    read_noise,
    read_rational,
    read_rationals,
    read_real,
    settle,
)
from fltheory.exact import DomainError

__all__ = ["CHANNEL_KINDS", "ERM_LOSSES", "MAX_ALPHA", "MAX_D", "MAX_LAMBDA", "PRIOR_NAMES",
           "Alphas", "AmpRun", "Channel", "Erm", "ErmRun", "Prior", "check_erm", "gauss_bernoulli",
           "gaussian", "mixture", "rademacher", "read_channel", "read_erm", "read_prior",
           "read_ridge", "sparse_rademacher"]

#: the largest sample ratio (the theory's integrals are checked up to here)
MAX_ALPHA = 1000
#: the largest dimension of a simulation (the n × d Gaussian matrix at α = 4: 2 GiB at 8000)
MAX_D = 8000
#: the largest number of mixture components
MAX_COMPONENTS = 12
#: catalogue channels (``door`` takes K, ``expr`` any g(z) with noise > 0)
CHANNEL_KINDS = ("sign", "door", "abs", "square", "relu", "linear", "expr")
#: the losses of empirical risk minimisation beside Bayes (ℓ2 penalty λ)
ERM_LOSSES = ("ridge", "logistic", "hinge")
#: the largest penalty λ (the optimum is searched on [10⁻⁶, 10⁴])
MAX_LAMBDA = 10 ** 4
PRIOR_NAMES = ("gaussian", "rademacher", "gauss-bernoulli", "sparse-rademacher", "mixture")

_PRIOR_ALLOWED = ("gaussian, gaussian(RHO), rademacher, gauss-bernoulli(RHO), "
                  "sparse-rademacher(RHO) or mixture(W*delta(M) + W*normal(M,S) + ...)")


@dataclass(frozen=True)
class Prior:
    """A finite mixture Σ_k π_k P_k of point masses (variance 0) and Gaussians.

    ``components`` is a sequence of (weight π, mean μ, variance s); read as exact rationals.

    >>> p = Prior(((Fraction(1, 2), 1, 0), (Fraction(1, 2), -1, 0)), "rademacher")
    >>> p.rho, p.mean, p.discrete
    (Fraction(1, 1), Fraction(0, 1), True)
    >>> Prior(((Fraction(1, 2), 1, 0), (Fraction(1, 3), -1, 0)))
    Traceback (most recent call last):
    fltheory.exact.DomainError: prior weights = 1/2, 1/3 do not sum to one; ...
    """

    components: Any
    name: str = ""

    def __post_init__(self) -> None:
        comps = tuple(self.components)
        if not 1 <= len(comps) <= MAX_COMPONENTS:
            raise DomainError("prior", f"{len(comps)} components",
                              f"1 to {MAX_COMPONENTS} components")
        read = []
        for c in comps:
            if not isinstance(c, tuple | list) or len(c) != 3:
                raise DomainError("prior", repr(c)[:40], "(weight, mean, variance) triples")
            w = read_rational(c[0], "prior weight", 0)
            mu = read_rational(c[1], "prior mean", -1000, 1000)
            s = read_rational(c[2], "prior variance", 0, 1000)
            read.append((w, mu, s))
        total = sum(w for w, _, _ in read)
        if total != 1:
            raise DomainError("prior weights", ", ".join(fraction_text(w) for w, _, _ in read),
                              "weights >= 0 summing to 1", reason="do not sum to one")
        kept = tuple(c for c in read if c[0] > 0)
        rho = sum(w * (mu * mu + s) for w, mu, s in kept)
        if rho <= 0:
            raise DomainError("prior", self.name or "mixture", "E w² = ρ > 0",
                              reason="has E w² = 0")
        if len(kept) == 1 and kept[0][2] == 0:
            raise DomainError("prior", self.name or "mixture",
                              "a law that is not a single point mass",
                              reason="is a point mass (nothing to learn)")
        settle(self, components=kept, name=self.name or _mixture_text(kept))

    @property
    def rho(self) -> Fraction:
        """E w² = Σ π (μ² + s)."""
        return sum((w * (mu * mu + s) for w, mu, s in self.components), Fraction(0))

    @property
    def mean(self) -> Fraction:
        """E w."""
        return sum((w * mu for w, mu, _ in self.components), Fraction(0))

    @property
    def discrete(self) -> bool:
        """Every component a point mass."""
        return all(s == 0 for _, _, s in self.components)

    @property
    def continuous_weight(self) -> Fraction:
        """The weight of the Gaussian components (the fraction of entries with a density)."""
        return sum((w for w, _, s in self.components if s > 0), Fraction(0))

    @property
    def gaussian(self) -> bool:
        """A single centred Gaussian N(0, ρ) (closed forms)."""
        return len(self.components) == 1 and self.components[0][1] == 0

    def __str__(self) -> str:
        return self.name


def _mixture_text(comps: tuple[tuple[Fraction, Fraction, Fraction], ...]) -> str:
    parts = []
    for w, mu, s in comps:
        law = f"delta({fraction_text(mu)})" if s == 0 else \
            f"normal({fraction_text(mu)},{fraction_text(s)})"
        parts.append(f"{fraction_text(w)}*{law}")
    return "mixture(" + " + ".join(parts) + ")"


def gaussian(rho: Any = 1) -> Prior:
    """N(0, ρ).

    >>> gaussian("1/2").rho
    Fraction(1, 2)
    """
    r = read_rational(rho, "rho", 0, 1000, open_low=True)
    return Prior(((1, 0, r),), "gaussian" if r == 1 else f"gaussian({fraction_text(r)})")


def rademacher() -> Prior:
    """±1 with probability 1/2 each (ρ = 1)."""
    return Prior(((Fraction(1, 2), 1, 0), (Fraction(1, 2), -1, 0)), "rademacher")


def gauss_bernoulli(rho: Any) -> Prior:
    """0 with probability 1 − ρ, N(0, 1) with probability ρ (E w² = ρ), 0 < ρ <= 1.

    >>> gauss_bernoulli("1/10").components
    ((Fraction(9, 10), Fraction(0, 1), Fraction(0, 1)),
     (Fraction(1, 10), Fraction(0, 1), Fraction(1, 1)))
    """
    r = read_rational(rho, "rho", 0, 1, open_low=True)
    comps = ((1 - r, 0, 0), (r, 0, 1)) if r < 1 else ((1, 0, 1),)
    return Prior(comps, f"gauss-bernoulli({fraction_text(r)})")


def sparse_rademacher(rho: Any) -> Prior:
    """0 with probability 1 − ρ, ±1 with probability ρ/2 each (E w² = ρ), 0 < ρ <= 1."""
    r = read_rational(rho, "rho", 0, 1, open_low=True)
    comps = ((1 - r, 0, 0), (r / 2, 1, 0), (r / 2, -1, 0)) if r < 1 else \
        ((Fraction(1, 2), 1, 0), (Fraction(1, 2), -1, 0))
    return Prior(comps, f"sparse-rademacher({fraction_text(r)})")


def mixture(components: Any) -> Prior:
    """Any finite mixture: a sequence of (weight, mean, variance)."""
    return Prior(tuple(tuple(c) for c in components))


_CALL = re.compile(r"^\s*([a-z][a-z-]*)\s*(?:\((.*)\))?\s*$", re.S)
_TERM = re.compile(r"^\s*([^*]+?)\s*\*\s*(delta|normal)\s*\((.*)\)\s*$")


def _split_top(text: str, sep: str) -> list[str]:
    """Split at ``sep`` outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def read_prior(value: Any) -> Prior:
    """A prior from its command-line text (or a :class:`Prior`, returned as it is).

    >>> read_prior("gauss-bernoulli(1/4)").rho
    Fraction(1, 4)
    >>> read_prior("mixture(1/2*delta(0) + 1/2*normal(0,2))").rho
    Fraction(1, 1)
    >>> read_prior("laplace")
    Traceback (most recent call last):
    fltheory.exact.DomainError: prior = laplace is not a known prior; allowed: gaussian, ...
    >>> read_prior("sparse-rademacher(0)")
    Traceback (most recent call last):
    fltheory.exact.DomainError: prior = sparse-rademacher(0) has rho = 0, which is outside ...
    """
    if isinstance(value, Prior):
        return value
    text = str(value).strip().lower().replace("_", "-")
    m = _CALL.match(text) if len(text) <= 1000 else None
    if m is None or m.group(1) not in PRIOR_NAMES:
        raise DomainError("prior", str(value)[:60], _PRIOR_ALLOWED,
                          reason="is not a known prior")
    name, arg = m.group(1), m.group(2)
    if name == "rademacher":
        if arg:
            raise DomainError("prior", text, _PRIOR_ALLOWED, reason="takes no argument")
        return rademacher()
    if name == "gaussian":
        return gaussian(arg if arg else 1)
    if arg is None or not arg.strip():
        raise DomainError("prior", text, _PRIOR_ALLOWED, reason="needs an argument")
    if name in ("gauss-bernoulli", "sparse-rademacher"):
        make = gauss_bernoulli if name == "gauss-bernoulli" else sparse_rademacher
        try:
            return make(arg.strip())
        except DomainError as e:   # name the option the user typed: prior = …(0): rho = 0 …
            raise DomainError("prior", text, f"{name}(rho) with 0 < rho <= 1",
                              reason=f"has rho = {e.value}, which "
                                     f"{e.reason or 'is outside (0, 1]'}") from None
    comps = []
    for term in _split_top(arg, "+"):
        t = _TERM.match(term)
        if t is None:
            raise DomainError("prior", term.strip()[:40] or "''", "terms W*delta(M) or "
                              "W*normal(M,S)", reason="is not a mixture term")
        args = [a.strip() for a in t.group(3).split(",")]
        if (t.group(2) == "delta") != (len(args) == 1) or len(args) > 2:
            raise DomainError("prior", term.strip()[:40], "delta(M) or normal(M,S)",
                              reason="has the wrong number of arguments")
        comps.append((t.group(1).strip(), args[0], 0 if len(args) == 1 else args[1]))
    return Prior(tuple(comps))


@dataclass(frozen=True)
class Channel:
    """y = φ(z + σ_in ε') + σ ε, ε, ε' ~ N(0, 1) independent of z.

    ``kind`` one of :data:`CHANNEL_KINDS`; ``K`` > 0 the door's half width; ``probit`` σ_in >= 0;
    ``noise`` σ >= 0; ``expression`` the text of g (kind ``expr``), which needs σ > 0.

    >>> Channel("door", K="1/2").K
    Fraction(1, 2)
    >>> Channel("door")
    Traceback (most recent call last):
    fltheory.exact.DomainError: K = None is not a number; allowed: K > 0
    """

    kind: Any
    K: Any = None
    probit: Any = 0
    noise: Any = 0
    expression: Any = None

    def __post_init__(self) -> None:
        kind = read_choice(self.kind, "channel", CHANNEL_KINDS)
        K = None
        if kind == "door":
            if self.K is None:
                raise DomainError("K", None, "K > 0", reason="is not a number")
            K = read_rational(self.K, "K", 0, 100, open_low=True)
        probit = read_noise(self.probit, "probit")
        noise = read_noise(self.noise, "noise")
        if probit > 100 or noise > 100:
            raise DomainError("noise", fraction_text(max(probit, noise)), "σ <= 100")
        expr = None
        if kind == "expr":
            if self.expression is None:
                raise DomainError("channel", "expr", "an expression g(z)",
                                  reason="needs an expression")
            if noise == 0:
                raise DomainError("noise", 0, "noise > 0 for an expression channel g(z) that "
                                  "is not sign, abs, square, relu, linear or a door",
                                  reason="leaves the likelihood undefined (not a density)")
            expr = str(self.expression)
            if not _piecewise_linear(expr) and not smooth_expression(expr):
                raise DomainError("channel", expr, _NOISY_ALLOWED,
                                  reason="mixes kinks or jumps with a curved part: additive "
                                         "noise on it is not implemented")
        settle(self, kind=kind, K=K, probit=probit, noise=noise, expression=expr)

    @property
    def phi_text(self) -> str:
        """φ as an expression in z."""
        return {"sign": "sign(z)", "abs": "Abs(z)", "square": "z**2", "relu": "Max(0, z)",
                "linear": "z"}.get(self.kind) or (
            f"sign(Abs(z) - {fraction_text(self.K)})" if self.kind == "door"
            else str(self.expression))

    @property
    def discrete(self) -> bool:
        """Labels in {−1, +1} (sign, door without additive noise)."""
        return self.kind in ("sign", "door") and self.noise == 0

    def __str__(self) -> str:
        s = self.phi_text if self.kind in ("door", "expr") else self.kind
        if self.probit:
            s += f", probit {fraction_text(self.probit)}"
        if self.noise:
            s += f", noise {fraction_text(self.noise)}"
        return s


#: what additive label noise is implemented on
_NOISY_ALLOWED = ("with --noise > 0: sign, abs, square, relu, linear, door(K), any "
                  "piecewise-linear g(z) (Abs, sign, Heaviside, Max, Min of linear functions "
                  "of z) or a smooth g(z) without those (tanh, erf, polynomials)")


def smooth_expression(text: str) -> bool:
    """Whether g(z) is smooth (:func:`fltheory.engine.expressions.is_smooth`)."""
    from fltheory.engine.expressions import is_smooth, parse_expression

    return is_smooth(parse_expression(text, "channel"))


def _piecewise_linear(text: str) -> bool:
    """Whether g(z) is piecewise linear with finitely many breakpoints (the grammar's
    :func:`~fltheory.engine.expressions.linear_pieces`)."""
    from fltheory.engine.expressions import linear_pieces, parse_expression

    return linear_pieces(parse_expression(text, "channel")) is not None


_CHANNELS = "sign, abs, square, relu, linear, door(K), or an expression g(z)"


def read_channel(value: Any, probit: Any = 0, noise: Any = 0) -> Channel:
    """A channel from its command-line text: a name (sign, abs, square, relu, linear),
    ``door(K)``, or an expression g(z) in the shared grammar, recognised exactly when it is one
    of the catalogue's.

    >>> c = read_channel("sign(Abs(z) - 1/2)")
    >>> c.kind, c.K
    ('door', Fraction(1, 2))
    >>> read_channel("tanh(z)")
    Traceback (most recent call last):
    fltheory.exact.DomainError: noise = 0 leaves the likelihood undefined (not a density); ...
    >>> read_channel("door")
    Traceback (most recent call last):
    fltheory.exact.DomainError: channel = door is not a channel (the door needs its half-width: ...
    """
    if isinstance(value, Channel):
        return value
    text = str(value).strip()
    low = text.lower()
    if low in ("sign", "abs", "square", "relu", "linear"):
        return Channel(low, probit=probit, noise=noise)
    m = re.match(r"^door\s*\((.*)\)$", low)
    if m:
        return Channel("door", K=m.group(1).strip(), probit=probit, noise=noise)
    spelled = _SPELLINGS.get(re.sub(r"\s+", "", text))
    if spelled is not None:
        return Channel(spelled, probit=probit, noise=noise)
    try:
        kind, K, shown = _recognise(text)
    except DomainError:
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", low):
            raise
        # a bare name that is neither a channel nor an activation of the catalogue (tanh is
        # one): name the channels, not only the activations
        from fltheory.exact import did_you_mean

        hint = (" (the door needs its half-width: door(K))" if low == "door" else
                did_you_mean(low, ["sign", "abs", "square", "relu", "linear", "door(K)"]))
        raise DomainError("channel", text, _CHANNELS + " (activation names: fltheory hermite "
                          "--help)", reason=f"is not a channel{hint}") from None
    if kind == "door":
        return Channel("door", K=K, probit=probit, noise=noise)
    if kind != "expr":
        return Channel(kind, probit=probit, noise=noise)
    return Channel("expr", probit=probit, noise=noise, expression=shown)


#: the usual spellings of the catalogue's channels as expressions (spaces removed), read without
#: sympy (tests/papers/glm/test_noisy_channels.py holds each to :func:`_recognise`'s answer)
_SPELLINGS = {
    "z": "linear", "sign(z)": "sign", "Abs(z)": "abs", "abs(z)": "abs",
    "z**2": "square", "z^2": "square", "z*z": "square",
    "Max(0,z)": "relu", "Max(z,0)": "relu", "max(0,z)": "relu", "max(z,0)": "relu",
    "relu(z)": "relu",
}


def _recognise(text: str) -> tuple[str, Any, str]:
    """(kind, K, text) of an expression: a catalogue channel when sympy proves it equal (the
    grammar's own expressions are compared; params imports no sympy)."""
    from fltheory.engine.expressions import equal_expressions, parse_expression

    expr = parse_expression(text, "channel")
    if not expr.free_symbols:
        raise DomainError("channel", text, "a function of z", reason="does not depend on z")
    for kind, ref in (("sign", "sign(z)"), ("abs", "Abs(z)"), ("square", "z**2"),
                      ("relu", "Max(0, z)"), ("linear", "z")):
        if equal_expressions(expr, parse_expression(ref)):
            return kind, None, text
    if expr.func.__name__ == "sign" and len(expr.args) == 1:
        k = (parse_expression("Abs(z)") - expr.args[0]).simplify()
        if not k.free_symbols and k.is_Rational and k > 0:
            return "door", Fraction(int(k.p), int(k.q)), text
    return "expr", None, str(expr)


@dataclass(frozen=True)
class Alphas:
    """Sample ratios α = n/d, each in (0, MAX_ALPHA], at most 200 of them.

    >>> Alphas("1,2,5").values
    (Fraction(1, 1), Fraction(2, 1), Fraction(5, 1))
    """

    values: Any

    def __post_init__(self) -> None:
        settle(self, values=read_rationals(self.values, "alpha", 0, MAX_ALPHA, open_low=True,
                                           most=200))


@dataclass(frozen=True)
class AmpRun:
    """One GAMP run: dimension d, α = n/d, iterations, seed, damping-free.

    >>> AmpRun(1000, "3/2").n
    1500
    """

    d: Any
    alpha: Any
    iterations: Any = 60
    seed: Any = 0

    def __post_init__(self) -> None:
        d = read_count(self.d, "d", 50, MAX_D)
        alpha = read_rational(self.alpha, "alpha", 0, 8, open_low=True)
        n = int(alpha * d)
        if n < 1:
            raise DomainError("alpha", fraction_text(alpha), "alpha·d >= 1")
        # X in float32 and a test set of 4000 samples in float64
        check_memory("d", d, 4.0 * n * d + 8.0 * 4000 * d)
        settle(self, d=d, alpha=alpha, iterations=read_count(self.iterations, "iterations", 1,
                                                             500),
               seed=read_count(self.seed, "seed", 0))

    @property
    def n(self) -> int:
        """The number of samples ⌊α d⌋."""
        return int(self.alpha * self.d)


def check_erm(channel: Channel, losses: Any) -> None:
    """Refuse, in one line, a loss the channel does not support: logistic and hinge need ±1
    labels of the sign teacher (``--probit`` allowed, no additive ``--noise``); ridge needs a
    catalogue channel (its moments E[φ(z')z'], E φ² in closed form).

    >>> check_erm(Channel("abs"), ("logistic",))
    Traceback (most recent call last):
    fltheory.exact.DomainError: channel = abs is not supported by logistic; allowed: ...
    """
    for loss in losses:
        if loss in ("logistic", "hinge") and (channel.kind != "sign" or channel.noise != 0):
            raise DomainError("channel", str(channel), "the sign channel (with --probit, "
                              "without --noise) for logistic and hinge",
                              reason=f"is not supported by {loss}")
        if loss == "ridge" and channel.kind == "expr":
            raise DomainError("channel", str(channel), "sign, door, abs, square, relu or "
                              "linear for ridge", reason="is not supported by ridge")


#: why λ = 0 is refused (the fit has no minimiser on separable data)
_SEPARABLE = ("has no minimiser when the n samples are linearly separable (always for noiseless "
              "sign labels; for probit labels below α_sep, 2 for pure noise (Cover 1965)): the "
              "norm of the logistic/hinge fit grows without bound")


def _read_lam(value: Any, losses: tuple[str, ...] = ("logistic",)) -> Fraction | str:
    """λ in (0, MAX_LAMBDA] or ``"opt"``; λ = 0 refused with the reason (for ridge alone: its
    λ → 0 limit, least squares or the minimum-norm interpolator, is not implemented)."""
    if isinstance(value, str) and value.strip() == "opt":
        return "opt"
    lam = read_rational(value, "lambda", 0, MAX_LAMBDA)
    if lam == 0:
        reason = _SEPARABLE if set(losses) - {"ridge"} else \
            "is not implemented for ridge (least squares / minimum-norm interpolation)"
        raise DomainError("lambda", 0, "lambda > 0 or opt", reason=reason)
    return lam


@dataclass(frozen=True)
class Erm:
    """Empirical risk minimisation beside Bayes: ``losses`` (a subset of :data:`ERM_LOSSES`,
    comma-separated text or a sequence) at penalty ``lam`` in (0, 10⁴], or ``"opt"`` (the λ
    that minimises the error). λ = 0 is refused: on linearly separable data (noiseless sign
    labels, always) the unpenalised logistic and hinge fits have no minimiser.

    >>> Erm("logistic,hinge", "opt").losses
    ('logistic', 'hinge')
    >>> Erm("ridge", "1/2").lam
    Fraction(1, 2)
    >>> Erm("lasso", 1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: erm = lasso is not one of the choices; allowed: one of ridge, ...
    >>> Erm("logistic", 0)
    Traceback (most recent call last):
    fltheory.exact.DomainError: lambda = 0 has no minimiser when the n samples are linearly ...
    """

    losses: Any
    lam: Any = "opt"

    def __post_init__(self) -> None:
        items = self.losses.split(",") if isinstance(self.losses, str) else list(self.losses)
        losses = tuple(dict.fromkeys(read_choice(x.strip() if isinstance(x, str) else x, "erm",
                                                 ERM_LOSSES) for x in items))
        if not losses:
            raise DomainError("erm", "''", ", ".join(ERM_LOSSES))
        settle(self, losses=losses, lam=_read_lam(self.lam, losses))


def read_ridge(value: Any) -> float | str:
    """The value of the older ``--ridge`` option: a λ in (0, 10⁶] (a double) or ``"opt"``.

    >>> read_ridge("1/10"), read_ridge(" opt")
    (0.1, 'opt')
    """
    if isinstance(value, str) and value.strip() == "opt":
        return "opt"
    return read_real(value, "ridge", 0, 1e6, open_low=True)


def read_erm(losses: Any, lam: Any, ridge: Any, alphas: tuple[Any, ...],
             channel: Channel) -> Erm | None:
    """The ERM request of the command's options ``--erm``, ``--lambda`` and ``--ridge``,
    checked together: ``--lambda`` needs ``--erm``, ``--erm`` needs sample ratios, ``--ridge``
    (the older option, read by :func:`read_ridge`) goes alone, and each loss must suit the
    channel (:func:`check_erm`). None when no loss is asked (or only ``--ridge``).

    >>> read_erm("logistic", None, None, (), Channel("sign"))
    Traceback (most recent call last):
    fltheory.exact.DomainError: erm = logistic needs the sample ratios --alpha; allowed: ...
    """
    if ridge is not None and (losses is not None or lam is not None):
        raise DomainError("ridge", str(ridge), "--ridge alone, or --erm with --lambda",
                          reason="is given with --erm/--lambda")
    if losses is None:
        if lam is not None:
            raise DomainError("lambda", str(lam), "--lambda with --erm",
                              reason="is given without --erm")
        return None
    erm = Erm(losses, "opt" if lam is None else lam)
    if not alphas:
        raise DomainError("erm", ",".join(erm.losses), "--erm with --alpha",
                          reason="needs the sample ratios --alpha")
    check_erm(channel, erm.losses)
    return erm


@dataclass(frozen=True)
class ErmRun:
    """One empirical-risk-minimisation fit of the simulator: d, α, λ > 0, seed.

    >>> ErmRun(500, 2, "1/10").n
    1000
    """

    d: Any
    alpha: Any
    lam: Any
    seed: Any = 0

    def __post_init__(self) -> None:
        d = read_count(self.d, "d", 50, 4000)
        alpha = read_rational(self.alpha, "alpha", 0, 8, open_low=True)
        lam = _read_lam(self.lam)
        if lam == "opt":
            raise DomainError("lambda", "opt", "a penalty λ > 0 for one fit")
        n = int(alpha * d)
        if n < 1:
            raise DomainError("alpha", fraction_text(alpha), "alpha·d >= 1")
        check_memory("d", d, 8.0 * n * d + 8.0 * 4000 * d)
        settle(self, d=d, alpha=alpha, lam=lam, seed=read_count(self.seed, "seed", 0))

    @property
    def n(self) -> int:
        """The number of samples ⌊α d⌋."""
        return int(self.alpha * self.d)
