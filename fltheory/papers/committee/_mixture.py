r"""Closed-form Gaussian averages of the committee ODEs for g = A + B z + C tanh(s z) (tanh,
sigmoid = ½ + ½ tanh(z/2), their scalings) through an erf mixture (private; used by
:func:`fltheory.papers.committee.gaussian.averages`).

Approximation. tanh(x) ≈ Σ_j c_j erf(b_j x), the (b_j, c_j) fitted once by nonlinear least
squares on g and g' over [0, 12] (J = 7 terms; a finer 10-term fit for ``refined``). So
g ≈ ĝ = A + B x + Σ_j c'_j G(s_j x) with G = erf(·/√2) (Saad–Solla's activation),
c'_j = C c_j, s_j = √2 s b_j. The sup-norm errors ε0 = sup|g − ĝ|, ε1 = sup|g' − ĝ'| over ℝ
are certified (:func:`certify`): the error e = ĝ − tanh and e' on a grid of step h over
[0, 12] (e odd, e' even), the linear-interpolation remainder h²/8 · sup|e''| (resp. sup|e'''|)
between grid points, with sup|tanh''| = 4/(3√3), sup|tanh'''| = 2 and the erf terms'
derivatives bounded in closed form, and the tails beyond 12 bounded by erfc and 1 − tanh.

Averages of ĝ (exact, closed form). Every g' component is a Gaussian tilt:
ĝ'(u) = Σ_α d_α G'(σ_α u) with σ_0 = 0, d_0 = B √(π/2) (the constant B) and σ_j = s_j,
d_j = c'_j s_j, G'(y) = √(2/π) e^{−y²/2}. Tilting by G'(σ_a x_a) for the fields a ∈ A:
E[Π_a G'(σ_a x_a) h(x_B)] = (2/π)^{|A|/2} det(I + S C_AA S)^{−1/2} E'[h], E' Gaussian with the
Schur complement C' = C_BB − C_BA S (I + S C_AA S)^{−1} S C_AB (S = diag σ). The remaining
factors need only E[g(w) g(z)] = A² + B² C_wz + B C_wz Σ_l c'_l s_l √(2/π)
((1 + s_l² C_ww)^{−1/2} + (1 + s_l² C_zz)^{−1/2}) + (2/π) Σ_{l,m} c'_l c'_m
arcsin(s_l s_m C_wz/√((1 + s_l² C_ww)(1 + s_m² C_zz))) and E[v g(w)] = C_vw (B +
Σ_l c'_l s_l √(2/π)/√(1 + s_l² C_ww)) (odd terms vanish: the tilted fields stay centred).
Hence I2 = Σ_{αβ} d_α d_β P_αβ, I3 = Σ_α d_α P_α E'_α[v g(w)], I4 = Σ_{αβ} d_α d_β P_αβ
E'_αβ[g(w) g(z)], E2 = E[g(u) g(v)].

Error of the averages (certified, from ε0, ε1; a = sup|g'| = max(|B|, |B + C s|),
m_x = |A| + |B| √C_xx + |C| >= ‖g(x)‖₂, the telescoped product and Cauchy–Schwarz):
E2: ε0 (m_u + m_v + ε0); I2: ε1 (2a + ε1); I3: √C_vv (ε1 m_w + (a + ε1) ε0);
I4: ε1 (2a + ε1) m_w m_z + (a + ε1)² ε0 (m_w + m_z + ε0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

#: tanh(x) ≈ Σ_j c_j erf(b_j x): least squares on g and g' over [0, 12] (2401 points),
#: scipy least_squares (xtol = ftol = 1e-15) from geometric scales 0.33…2.0
TANH_B = (0.37003282856090464, 0.49274062601237645, 0.648122021938941, 0.8486489184686026,
          1.104466252803749, 1.4311865076364887, 1.8690227420664323)
TANH_C = (0.005967501980682153, 0.07425674643844037, 0.23875509106112114,
          0.34663624013328675, 0.2523612040324029, 0.07654280370568309,
          0.0054803802556426424)
#: a finer, independent approximation (J = 10 geometric scales 0.3…2.2, linear least squares
#: on [0, 14]), for ``refined()``: results computed with both show what the fit leaves
TANH_B_FINE = (0.3, 0.3743396738434926, 0.46710063804417473, 0.5828476683251456,
               0.7272766868709172, 0.9074950591907834, 1.1323713482401965, 1.4129717372331707,
               1.7631045975531272, 2.2)
TANH_C_FINE = (0.00014916166131294416, 0.005023770849203135, 0.04149162046655697,
               0.13720686042963987, 0.2493032753872782, 0.2860022122502144,
               0.20010082685564018, 0.07120540486968889, 0.009257886212519882,
               0.00025898023280261233)

_SQ2PI = math.sqrt(2.0 / math.pi)
#: the certification grid: step and end (beyond it, tail bounds)
CERT_STEP = 1e-4
CERT_END = 12.0


@lru_cache(maxsize=4)
def certify(b: tuple[float, ...], c: tuple[float, ...], step: float = CERT_STEP
            ) -> tuple[float, float]:
    """(ε0, ε1): bounds on sup_ℝ |Σ c_j erf(b_j x) − tanh x| and on the derivative's error
    (see the module docstring; float64 rounding covered by a 1e-14 margin)."""
    from scipy.special import erf, erfc

    bb, cc = np.array(b), np.array(c)
    X = CERT_END
    n = math.ceil(X / step)
    h = X / n
    e_max, d_max = 0.0, 0.0
    for lo in range(0, n + 1, 200_000):
        x = np.arange(lo, min(n + 1, lo + 200_000)) * h
        bx = np.multiply.outer(x, bb)
        e = erf(bx) @ cc - np.tanh(x)
        d = (np.exp(-bx**2) * (2 / math.sqrt(math.pi)) * bb) @ cc - 1 / np.cosh(x)**2
        e_max, d_max = max(e_max, float(np.abs(e).max())), max(d_max, float(np.abs(d).max()))
    ac = np.abs(cc)
    # sup |(erf(bx))''| = 2√2 b² e^{−1/2}/√π, sup |(erf(bx))'''| = 4 b³/√π (at 0)
    sup2 = 4 / (3 * math.sqrt(3)) + float(ac @ (2 * math.sqrt(2) * bb**2 * math.exp(-0.5)
                                                  / math.sqrt(math.pi)))
    sup3 = 2.0 + float(ac @ (4 * bb**3 / math.sqrt(math.pi)))
    eps0 = e_max + h * h / 8 * sup2
    eps1 = d_max + h * h / 8 * sup3
    tail0 = abs(1 - float(cc.sum())) + (1 - math.tanh(X)) + float(ac @ erfc(bb * X))
    tail1 = 1 / math.cosh(X)**2 + float(ac @ (bb * 2 / math.sqrt(math.pi) * np.exp(-(bb * X)**2)))
    return max(eps0, tail0) + 1e-14, max(eps1, tail1) + 1e-14


@dataclass(frozen=True)
class Mixture:
    """ĝ(x) = A + B x + Σ_j c_j G(s_j x), G = erf(·/√2), approximating g = A + B x +
    C tanh(scale·x) with certified sup errors eps0 (g) and eps1 (g'); ``a`` = sup|g'|."""

    A: float
    B: float
    C: float
    scale: float
    c: np.ndarray
    s: np.ndarray
    eps0: float
    eps1: float
    a: float

    @property
    def d(self) -> np.ndarray:
        """The tilt weights d_α (α = 0: the constant B of g')."""
        return np.concatenate([[self.B / _SQ2PI], self.c * self.s])

    @property
    def sigma(self) -> np.ndarray:
        """The tilt scales σ_α (σ_0 = 0)."""
        return np.concatenate([[0.0], self.s])


def mixture(A: float, B: float, C: float, scale: float, fine: bool = False) -> Mixture:
    """The mixture of g = A + B x + C tanh(scale·x) (scale > 0), J = 7 (``fine``: 10)."""
    b, c = (TANH_B_FINE, TANH_C_FINE) if fine else (TANH_B, TANH_C)
    e0, e1 = certify(b, c)
    return Mixture(A, B, C, scale, C * np.array(c), math.sqrt(2) * scale * np.array(b),
                   abs(C) * e0, abs(C) * scale * e1, max(abs(B), abs(B + C * scale)))


def _pair(m: Mixture, cww: Any, czz: Any, cwz: Any) -> Any:
    """E[ĝ(w) ĝ(z)] for centred Gaussian (w, z), batched (broadcasting arrays)."""
    cww, czz, cwz = (np.asarray(v, dtype=float)[..., None] for v in (cww, czz, cwz))
    s, c = m.s, m.c
    rw = 1 / np.sqrt(1 + s * s * cww)
    rz = 1 / np.sqrt(1 + s * s * czz)
    out = m.A**2 + m.B**2 * cwz[..., 0]
    if m.B:
        out = out + m.B * cwz[..., 0] * ((c * s * _SQ2PI) * (rw + rz)).sum(axis=-1)
    x = (s[:, None] * s[None, :]) * (cwz * rw)[..., :, None] * rz[..., None, :]
    gg = np.arcsin(np.clip(x, -1.0, 1.0))
    return out + (2 / math.pi) * np.einsum("...lm,l,m->...", gg, c, c)


def e2(m: Mixture, C: np.ndarray) -> np.ndarray:
    return np.asarray(_pair(m, C[..., 0, 0], C[..., 1, 1], C[..., 0, 1]))


def _tilt2(m: Mixture, C: np.ndarray) -> tuple[np.ndarray, ...]:
    """For fields 0, 1 tilted by G'(σ_α x_0) G'(σ_β x_1): the weight d_α d_β P_αβ and the
    inverse pieces (m22, m12, m11, det) on axes (..., α, β)."""
    sg = m.sigma
    su, sv = sg[:, None], sg[None, :]
    cuu, cvv, cuv = (C[..., a, b][..., None, None] for a, b in ((0, 0), (1, 1), (0, 1)))
    m11 = 1 + su * su * cuu
    m22 = 1 + sv * sv * cvv
    m12 = su * sv * cuv
    det = m11 * m22 - m12 * m12
    weight = np.multiply.outer(m.d, m.d) * (2 / math.pi) / np.sqrt(det)
    return weight, m11, m22, m12, det


def i2(m: Mixture, C: np.ndarray) -> np.ndarray:
    weight = _tilt2(m, C)[0]
    return np.asarray(weight.sum(axis=(-1, -2)))


def i4(m: Mixture, C: np.ndarray) -> np.ndarray:
    weight, m11, m22, m12, det = _tilt2(m, C)
    sg = m.sigma
    su, sv = sg[:, None], sg[None, :]

    def proj(b: int) -> tuple[np.ndarray, np.ndarray]:
        return su * C[..., b, 0][..., None, None], sv * C[..., b, 1][..., None, None]

    (xw, yw), (xz, yz) = proj(2), proj(3)

    def quad(x1: Any, y1: Any, x2: Any, y2: Any) -> Any:
        return (m22 * x1 * x2 - m12 * (x1 * y2 + y1 * x2) + m11 * y1 * y2) / det

    cww = C[..., 2, 2][..., None, None] - quad(xw, yw, xw, yw)
    czz = C[..., 3, 3][..., None, None] - quad(xz, yz, xz, yz)
    cwz = C[..., 2, 3][..., None, None] - quad(xw, yw, xz, yz)
    return np.asarray((weight * _pair(m, cww, czz, cwz)).sum(axis=(-1, -2)))


def i3(m: Mixture, C: np.ndarray) -> np.ndarray:
    sg = m.sigma
    cuu = C[..., 0, 0][..., None]
    mm = 1 + sg * sg * cuu
    P = _SQ2PI / np.sqrt(mm)
    cvw = C[..., 1, 2][..., None] - sg * sg * C[..., 1, 0][..., None] * C[..., 0, 2][..., None] / mm
    cww = C[..., 2, 2][..., None] - sg * sg * C[..., 2, 0][..., None]**2 / mm
    lin = m.B + (m.c * m.s * _SQ2PI / np.sqrt(1 + m.s * m.s * cww[..., None])).sum(axis=-1)
    return np.asarray((m.d * P * cvw * lin).sum(axis=-1))


def error_bound(m: Mixture, kind: str, C: np.ndarray) -> np.ndarray:
    """The certified bound on |average of g − average of ĝ| (module docstring), batched."""
    e0, e1, a = m.eps0, m.eps1, m.a

    def norm(x: Any) -> Any:
        return abs(m.A) + abs(m.B) * np.sqrt(np.maximum(x, 0.0)) + abs(m.C)

    if kind == "e2":
        return np.asarray(e0 * (norm(C[..., 0, 0]) + norm(C[..., 1, 1]) + e0))
    if kind == "i2":
        return np.full(C.shape[:-2], e1 * (2 * a + e1))
    if kind == "i3":
        mw = norm(C[..., 2, 2])
        return np.asarray(np.sqrt(np.maximum(C[..., 1, 1], 0.0)) * (e1 * mw + (a + e1) * e0))
    mw, mz = norm(C[..., 2, 2]), norm(C[..., 3, 3])
    return np.asarray(e1 * (2 * a + e1) * mw * mz + (a + e1)**2 * e0 * (mw + mz + e0))
