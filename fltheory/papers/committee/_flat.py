"""The committee-machine right side as scalar loops on the flat state (private; see
:func:`fltheory.papers.committee.model.flat_rhs`).

Plain Python functions using only math and numpy indexing, so numba can compile them
(:mod:`fltheory.papers.committee._jit` does, on first use, when numba is installed). The
averages are the same formulas as :mod:`fltheory.papers.committee.gaussian`, written per scalar
(erf: Saad–Solla closed forms; relu: closed E2, I2, I3 and the Gauss–Legendre integral for I4;
polynomials: the exponent/coefficient tables of the exact polynomial; tanh-like g: the erf
mixture's tilted closed forms of :mod:`fltheory.papers.committee._mixture`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from fltheory.papers.committee.gaussian import GaussianAverages
    from fltheory.papers.committee.params import CommitteeModel

KIND_ERF, KIND_RELU, KIND_POLY, KIND_MIX = 0, 1, 2, 3
_TWO_PI = 2.0 * math.pi
_TINY = 1e-300


def erf_i3(c11: float, c12: float, c13: float, c22: float, c23: float, c33: float) -> float:
    lam3 = (1.0 + c11) * (1.0 + c33) - c13 * c13
    return 2.0 / math.pi * (c23 * (1.0 + c11) - c12 * c13) / ((1.0 + c11) * math.sqrt(lam3))


def erf_i2(c11: float, c12: float, c22: float) -> float:
    return 2.0 / math.pi / math.sqrt((1.0 + c11) * (1.0 + c22) - c12 * c12)


def erf_i4(c11: float, c12: float, c13: float, c14: float, c22: float, c23: float, c24: float,
           c33: float, c34: float, c44: float) -> float:
    lam4 = (1.0 + c11) * (1.0 + c22) - c12 * c12
    lam0 = (lam4 * c34 - c23 * c24 * (1.0 + c11) - c13 * c14 * (1.0 + c22)
            + c12 * c13 * c24 + c12 * c14 * c23)
    lam1 = (lam4 * (1.0 + c33) - c23 * c23 * (1.0 + c11) - c13 * c13 * (1.0 + c22)
            + 2.0 * c12 * c13 * c23)
    lam2 = (lam4 * (1.0 + c44) - c24 * c24 * (1.0 + c11) - c14 * c14 * (1.0 + c22)
            + 2.0 * c12 * c14 * c24)
    x = lam0 / math.sqrt(lam1 * lam2)
    x = min(1.0, max(-1.0, x))
    return 4.0 / (math.pi * math.pi) / math.sqrt(lam4) * math.asin(x)


def safe_rho(cab: float, caa: float, cbb: float) -> float:
    d = caa * cbb
    if d <= _TINY:
        return 0.0
    r = cab / math.sqrt(d)
    return min(1.0, max(-1.0, r))


def orthant2(caa: float, cbb: float, cab: float) -> float:
    return 0.25 + math.asin(safe_rho(cab, caa, cbb)) / _TWO_PI


def relu_relu(caa: float, cbb: float, cab: float) -> float:
    rho = safe_rho(cab, caa, cbb)
    s = math.sqrt(max(caa * cbb, 0.0))
    return s / _TWO_PI * (math.sqrt(max(1.0 - rho * rho, 0.0)) + (math.pi - math.acos(rho)) * rho)


def relu_i3(c11: float, c12: float, c13: float, c22: float, c23: float, c33: float) -> float:
    return (c12 * math.sqrt(max(c11 * c33 - c13 * c13, 0.0)) / (_TWO_PI * c11)
            + c23 * orthant2(c11, c33, c13))


def density0(c: float) -> float:
    return 1.0 / math.sqrt(_TWO_PI * max(c, _TINY))


def ttr_pair(c: np.ndarray, a: int, p: int, q: int) -> tuple[float, float]:
    """(E[θ(x_a) θ(x_p) relu(x_q)], E[θ(x_a) θ(x_q) relu(x_p)]) for the covariance matrix c:
    Stein's lemma on the relu field, Σ_j C_rj φ_j(0) P(the other two > 0 | x_j = 0) (the
    conditioning through correlations clipped to [−1, 1], gaussian._given). Both share the
    three conditional orthants; only the Stein weights differ."""
    first = 0.0
    second = 0.0
    for s in range(3):
        if s == 0:
            j, u, v = a, p, q
        elif s == 1:
            j, u, v = p, a, q
        else:
            j, u, v = q, a, p
        ru = safe_rho(c[u, j], c[u, u], c[j, j])
        rv = safe_rho(c[v, j], c[v, v], c[j, j])
        vu = max(c[u, u], 0.0)
        vv = max(c[v, v], 0.0)
        cuv = c[u, v] - math.sqrt(vu * vv) * ru * rv
        orth = orthant2(vu * (1.0 - ru * ru), vv * (1.0 - rv * rv), cuv)
        first += math.sqrt(max(c[q, q], 0.0) / _TWO_PI) * safe_rho(c[q, j], c[q, q],
                                                                    c[j, j]) * orth
        second += math.sqrt(max(c[p, p], 0.0) / _TWO_PI) * safe_rho(c[p, j], c[p, p],
                                                                     c[j, j]) * orth
    return first, second


def relu_theta(var: float, cov: float, var_b: float) -> float:
    """E[relu(a) θ(b)] = √(Var a/2π) (1 + ρ_ab)/2."""
    v = max(var, 0.0)
    return math.sqrt(v / _TWO_PI) * (1.0 + safe_rho(cov, v, var_b)) / 2.0


def same_field(C: np.ndarray, a: int, b: int) -> bool:
    """Whether fields a and b are one field: C_aa = C_bb = C_ab exactly (Var(x_a − x_b) = 0)."""
    return C[a, a] == C[b, b] and C[a, b] == C[a, a]


def theta_relu_relu(C: np.ndarray, u: int, w: int, z: int) -> float:
    """E[θ(x_u) relu(x_w) relu(x_z)] (gaussian._theta_relu_relu: Stein's lemma on x_w, the
    conditioning through correlations clipped to [−1, 1])."""
    r_wz = safe_rho(C[w, z], C[w, w], C[z, z])
    r_wu = safe_rho(C[w, u], C[w, w], C[u, u])
    r_zu = safe_rho(C[z, u], C[z, z], C[u, u])
    vw, vz, vu = max(C[w, w], 0.0), max(C[z, z], 0.0), max(C[u, u], 0.0)
    sw, sz, su = math.sqrt(vw), math.sqrt(vz), math.sqrt(vu)
    weight = sw / math.sqrt(_TWO_PI)
    # given w = 0: (z, u); given u = 0: (z, w)
    t1 = weight * relu_theta(vz * (1.0 - r_wz * r_wz), C[z, u] - sz * su * r_wz * r_wu,
                             vu * (1.0 - r_wu * r_wu))
    t2 = weight * r_wu * relu_theta(vz * (1.0 - r_zu * r_zu), C[z, w] - sz * sw * r_zu * r_wu,
                                    vw * (1.0 - r_wu * r_wu))
    orthant = 0.125 + (math.asin(r_wz) + math.asin(r_wu) + math.asin(r_zu)) / (2.0 * _TWO_PI)
    return t1 + t2 + C[w, z] * orthant


def _clip_pair(c: np.ndarray, p: int, q: int) -> None:
    c[p, p] = max(c[p, p], 0.0)
    c[q, q] = max(c[q, q], 0.0)
    bound = math.sqrt(c[p, p] * c[q, q])
    c[p, q] = min(bound, max(-bound, c[p, q]))
    c[q, p] = c[p, q]


def relu_i4(C: np.ndarray, nodes: np.ndarray, weights: np.ndarray, cs: np.ndarray,
            cc: np.ndarray) -> float:
    """I4 of relu as :mod:`fltheory.papers.committee.gaussian` computes it: the closed form
    when a θ field (u or v) is one of the other three (``_theta_relu_relu``), else the 1-D
    integral
    (``_relu_i4_integral``: the conditional covariances as Schur complements plus exact
    multiples of ε = 1 − s = t²)
    for one 4 × 4 C, at the Gauss–Legendre nodes t (in [0, 1]) and weights given; cs, cc are
    4 × 4 work arrays (the Schur complements of u and of v)."""
    # a θ field that is also a relu field (or the other θ field): θ² = θ, θ(u) relu(u) =
    # relu(u), and the closed form E[θ relu relu] (fields equal when C_aa = C_bb = C_ab)
    if same_field(C, 0, 1):
        return theta_relu_relu(C, 0, 2, 3)
    if same_field(C, 0, 2):
        return theta_relu_relu(C, 1, 0, 3)
    if same_field(C, 0, 3):
        return theta_relu_relu(C, 1, 2, 0)
    if same_field(C, 1, 2):
        return theta_relu_relu(C, 0, 1, 3)
    if same_field(C, 1, 3):
        return theta_relu_relu(C, 0, 2, 1)
    c00, c11, c01 = C[0, 0], C[1, 1], C[0, 1]
    total = 0.25 * relu_relu(C[2, 2], C[3, 3], C[2, 3])
    det0 = max(c00 * c11 - c01 * c01, 0.0)
    n1 = np.empty((4, 4))
    pa = np.empty((4, 4))
    pb = np.empty((4, 4))
    for p in range(2, 4):
        for q in range(2, 4):
            bb = c11 * C[0, p] * C[0, q] + c00 * C[1, p] * C[1, q]
            cross = c01 * (C[0, p] * C[1, q] + C[1, p] * C[0, q])
            n1[p, q] = det0 * C[p, q] - bb + cross if det0 > 0.0 else 0.0
            pa[p, q] = c01 * c01 * C[p, q] + bb
            pb[p, q] = cross
    _clip_pair(n1, 2, 3)
    for x in range(2):
        sc = cs if x == 0 else cc
        cxx = max(C[x, x], _TINY)
        for p in range(4):
            for q in range(4):
                sc[p, q] = C[p, q] - C[p, x] * C[q, x] / cxx
        y = 1 - x
        _clip_pair(sc, y, 2)
        _clip_pair(sc, y, 3)
        _clip_pair(sc, 2, 3)
    m = np.empty((4, 4))
    for k in range(len(nodes)):
        t = nodes[k]
        eps = t * t
        s = 1.0 - eps
        e1 = eps * (2.0 - eps)
        e2 = eps * (3.0 - 3.0 * eps + eps * eps)
        det = det0 + e1 * c01 * c01
        c22 = (n1[2, 2] + e1 * pa[2, 2] - e2 * pb[2, 2]) / det
        c33 = (n1[3, 3] + e1 * pa[3, 3] - e2 * pb[3, 3]) / det
        c23 = (n1[2, 3] + e1 * pa[2, 3] - e2 * pb[2, 3]) / det
        f = c01 / (_TWO_PI * math.sqrt(det)) * relu_relu(c22, c33, c23)
        for x in range(2):
            y = 1 - x
            sc = cs if x == 0 else cc
            cxx = max(C[x, x], _TINY)
            for p in range(4):
                for q in range(4):
                    proj = C[p, x] * C[q, x] / cxx
                    if (p == y) != (q == y):
                        m[p, q] = s * sc[p, q] + s * eps * proj
                    else:
                        m[p, q] = sc[p, q] + e1 * proj
            dens = density0(C[x, x])
            t23, t32 = ttr_pair(m, y, 2, 3)
            f += C[x, 2] * dens * t23 + C[x, 3] * dens * t32
        total += f * 2.0 * t * weights[k]
    return total


def poly_eval(ent: np.ndarray, E: np.ndarray, coef: np.ndarray) -> float:
    total = 0.0
    for t in range(E.shape[0]):
        v = coef[t]
        for e in range(E.shape[1]):
            for _ in range(E[t, e]):
                v *= ent[e]
        total += v
    return total


def average(kind: int, C: np.ndarray, idx: np.ndarray, d: int, E: np.ndarray,
            coef: np.ndarray, nodes: np.ndarray, weights: np.ndarray, work: np.ndarray,
            ent: np.ndarray) -> float:
    """I2 (d = 2), I3 (d = 3) or I4 (d = 4) at the fields idx[:d] of the joint covariance C;
    ``work`` (3, 4, 4) and ``ent`` (10) are scratch arrays."""
    sub = work[0]
    for i in range(d):
        for j in range(d):
            sub[i, j] = C[idx[i], idx[j]]
    if kind == 2:
        pos = 0
        for i in range(d):
            for j in range(i, d):
                ent[pos] = sub[i, j]
                pos += 1
        return poly_eval(ent, E, coef)
    if d == 2:
        if kind == 0:
            return erf_i2(sub[0, 0], sub[0, 1], sub[1, 1])
        return orthant2(sub[0, 0], sub[1, 1], sub[0, 1])
    if d == 3:
        if kind == 0:
            return erf_i3(sub[0, 0], sub[0, 1], sub[0, 2], sub[1, 1], sub[1, 2], sub[2, 2])
        return relu_i3(sub[0, 0], sub[0, 1], sub[0, 2], sub[1, 1], sub[1, 2], sub[2, 2])
    if kind == 0:
        return erf_i4(sub[0, 0], sub[0, 1], sub[0, 2], sub[0, 3], sub[1, 1], sub[1, 2],
                      sub[1, 3], sub[2, 2], sub[2, 3], sub[3, 3])
    return relu_i4(sub, nodes, weights, work[1], work[2])


def overlaps(y: np.ndarray, K: int, M: int, T: np.ndarray, scale: float) -> np.ndarray:
    """The (K + M) × (K + M) overlap matrix [[Q, R], [Rᵀ, T]] of the flat state y =
    concat(Q.ravel(), R.ravel()) (Q symmetrised), times ``scale``."""
    n = K + M
    C = np.empty((n, n))
    for i in range(K):
        for j in range(K):
            C[i, j] = 0.5 * (y[i * K + j] + y[j * K + i]) * scale
        for m in range(M):
            C[i, K + m] = y[K * K + i * M + m] * scale
            C[K + m, i] = C[i, K + m]
    for m in range(M):
        for l in range(M):
            C[K + m, K + l] = T[m, l] * scale
    return C


def erf_loops(y: np.ndarray, K: int, M: int, T: np.ndarray, a: np.ndarray, w: np.ndarray,
              eta: float, sigma2: float, kappa: float, order: int, s2: float) -> np.ndarray:
    """:func:`loops` for g = erf(s x/√2), the Saad–Solla forms with the per-field and
    per-pair factors hoisted (fields c, e; students i <= k; d_c = 1 + C_cc at s²C):
    Σ_c w_c I3(i, t; c) = d_i Σ_c C_tc u_ic − C_it Σ_c C_ic u_ic with
    u_ic = (2/π) w_c / (d_i √(d_i d_c − C_ic²)); I4(i, k; c, e) = (4/π²) Λ4^{−1/2}
    arcsin((Λ4 C_ce − C_kc A_e − C_ic B_e) / √(Λ1(c) Λ1(e))) with Λ4 = d_i d_k − C_ik²,
    A_e = d_i C_ke − C_ik C_ie, B_e = d_k C_ie − C_ik C_ke, Λ1(c) = Λ4 d_c − C_kc² d_i −
    C_ic² d_k + 2 C_ik C_ic C_kc — the same numbers as :func:`erf_i3`, :func:`erf_i4`
    (tests check the two paths agree), each (c, e) pair once."""
    n = K + M
    C = overlaps(y, K, M, T, s2)
    d = np.empty(n)
    for c in range(n):
        d[c] = 1.0 + C[c, c]
    S3 = np.empty((K, n))
    u = np.empty(n)
    for i in range(K):
        di = d[i]
        diag = 0.0
        for c in range(n):
            u[c] = 2.0 / math.pi * w[c] / (di * math.sqrt(di * d[c] - C[i, c] * C[i, c]))
            diag += C[i, c] * u[c]
        for t in range(n):
            acc = 0.0
            for c in range(n):
                acc += C[t, c] * u[c]
            S3[i, t] = di * acc - C[i, t] * diag
    out = np.empty(K * K + K * M)
    for i in range(K):
        for m in range(M):
            out[K * K + i * M + m] = eta * a[i] * S3[i, K + m] - eta * kappa * y[K * K + i * M + m]
    A = np.empty(n)
    B = np.empty(n)
    inv = np.empty(n)
    for i in range(K):
        for k in range(i, K):
            qik = 0.5 * (y[i * K + k] + y[k * K + i])
            v = eta * (a[i] * S3[i, k] + a[k] * S3[k, i]) - 2.0 * eta * kappa * qik
            if order == 2:
                di, dk, cik = d[i], d[k], C[i, k]
                lam4 = di * dk - cik * cik
                for c in range(n):
                    cic, ckc = C[i, c], C[k, c]
                    A[c] = di * ckc - cik * cic
                    B[c] = dk * cic - cik * ckc
                    lam1 = lam4 * d[c] - ckc * ckc * di - cic * cic * dk + 2.0 * cik * cic * ckc
                    inv[c] = 1.0 / math.sqrt(lam1)
                acc = 0.0
                for c in range(n):
                    cic, ckc = C[i, c], C[k, c]
                    x = (lam4 * C[c, c] - ckc * A[c] - cic * B[c]) * inv[c] * inv[c]
                    acc += w[c] * w[c] * math.asin(min(1.0, max(-1.0, x)))
                    part = 0.0
                    for e in range(c + 1, n):
                        x = (lam4 * C[c, e] - ckc * A[e] - cic * B[e]) * inv[c] * inv[e]
                        part += w[e] * math.asin(min(1.0, max(-1.0, x)))
                    acc += 2.0 * w[c] * part
                acc *= 4.0 / (math.pi * math.pi) / math.sqrt(lam4)
                if sigma2 != 0.0:
                    acc += sigma2 * 2.0 / math.pi / math.sqrt(lam4)
                v += eta * eta * a[i] * a[k] * acc * s2
            out[i * K + k] = v
            out[k * K + i] = v
    return out


def mix_loops(y: np.ndarray, K: int, M: int, T: np.ndarray, a: np.ndarray, w: np.ndarray,
              eta: float, sigma2: float, kappa: float, order: int, mix: np.ndarray
              ) -> np.ndarray:
    """:func:`loops` for ĝ(x) = A + B x + Σ_j c_j G(s_j x), G = erf(·/√2), ``mix`` = (A, B,
    c_1..c_J, s_1..s_J): the tilted closed forms of :mod:`fltheory.papers.committee._mixture`
    (the same numbers as its numpy i3, i4, i2; tests check the two paths agree), the tilt of
    each student pair (i, k) shared by every field pair (c, e)."""
    n = K + M
    J = (mix.shape[0] - 2) // 2
    A, B = mix[0], mix[1]
    cj = mix[2:2 + J]
    sj = mix[2 + J:2 + 2 * J]
    sq = math.sqrt(2.0 / math.pi)
    na = J + 1
    d = np.empty(na)
    sg = np.empty(na)
    d[0] = B / sq
    sg[0] = 0.0
    for j in range(J):
        d[j + 1] = cj[j] * sj[j]
        sg[j + 1] = sj[j]
    C = overlaps(y, K, M, T, 1.0)
    S3 = np.zeros((K, n))
    lin = np.empty(n)
    for i in range(K):
        for al in range(na):
            s2 = sg[al] * sg[al]
            mm = 1.0 + s2 * C[i, i]
            P = d[al] * sq / math.sqrt(mm)
            for c in range(n):
                ccc = C[c, c] - s2 * C[c, i] * C[c, i] / mm
                acc = B
                for j in range(J):
                    acc += cj[j] * sj[j] * sq / math.sqrt(1.0 + sj[j] * sj[j] * ccc)
                lin[c] = w[c] * acc
            for t in range(n):
                acc = 0.0
                for c in range(n):
                    acc += (C[t, c] - s2 * C[t, i] * C[i, c] / mm) * lin[c]
                S3[i, t] += P * acc
    out = np.empty(K * K + K * M)
    for i in range(K):
        for m in range(M):
            out[K * K + i * M + m] = eta * a[i] * S3[i, K + m] - eta * kappa * C[i, K + m]
    u = np.empty((n, J))
    Lc = np.empty(n)
    xs = np.empty(n)
    ys = np.empty(n)
    for i in range(K):
        for k in range(i, K):
            v = eta * (a[i] * S3[i, k] + a[k] * S3[k, i]) - 2.0 * eta * kappa * C[i, k]
            if order == 2:
                acc = 0.0
                for al in range(na):
                    for be in range(na):
                        su, sv = sg[al], sg[be]
                        m11 = 1.0 + su * su * C[i, i]
                        m22 = 1.0 + sv * sv * C[k, k]
                        m12 = su * sv * C[i, k]
                        det = m11 * m22 - m12 * m12
                        weight = d[al] * d[be] * (2.0 / math.pi) / math.sqrt(det)
                        if sigma2 != 0.0:
                            acc += sigma2 * weight
                        for c in range(n):
                            xs[c] = su * C[c, i]
                            ys[c] = sv * C[c, k]
                            ccc = C[c, c] - (m22 * xs[c] * xs[c] - 2.0 * m12 * xs[c] * ys[c]
                                             + m11 * ys[c] * ys[c]) / det
                            lc = 0.0
                            for j in range(J):
                                r = 1.0 / math.sqrt(1.0 + sj[j] * sj[j] * ccc)
                                u[c, j] = sj[j] * r
                                lc += cj[j] * sj[j] * sq * r
                            Lc[c] = lc
                        tot = 0.0
                        for c in range(n):
                            part = 0.0
                            for e in range(c, n):
                                cce = C[c, e] - (m22 * xs[c] * xs[e]
                                                 - m12 * (xs[c] * ys[e] + ys[c] * xs[e])
                                                 + m11 * ys[c] * ys[e]) / det
                                gg = 0.0
                                for l in range(J):
                                    x = cce * u[c, l]
                                    inner = 0.0
                                    for j in range(J):
                                        z = x * u[e, j]
                                        inner += cj[j] * math.asin(min(1.0, max(-1.0, z)))
                                    gg += cj[l] * inner
                                e2 = (A * A + B * B * cce + B * cce * (Lc[c] + Lc[e])
                                      + 2.0 / math.pi * gg)
                                part += (w[e] * e2) if e == c else 2.0 * w[e] * e2
                            tot += w[c] * part
                        acc += weight * tot
                v += eta * eta * a[i] * a[k] * acc
            out[i * K + k] = v
            out[k * K + i] = v
    return out


def loops(y: np.ndarray, K: int, M: int, T: np.ndarray, a: np.ndarray, w: np.ndarray,
          eta: float, sigma2: float, kappa: float, order: int, kind: int, s2: float,
          E2: np.ndarray, c2: np.ndarray, E3: np.ndarray, c3: np.ndarray, E4: np.ndarray,
          c4: np.ndarray, nodes: np.ndarray, weights: np.ndarray, mix: np.ndarray
          ) -> np.ndarray:
    """dy/dt for y = concat(Q.ravel(), R.ravel()) (see the module docstring); s2 = s² for
    g = erf(s x/√2) (the averages at s²C, I2 and I4 times s²), 1 otherwise; ``mix`` the erf
    mixture's parameters (kind :data:`KIND_MIX`), empty otherwise."""
    if kind == KIND_ERF:
        return erf_loops(y, K, M, T, a, w, eta, sigma2, kappa, order, s2)
    if kind == KIND_MIX:
        return mix_loops(y, K, M, T, a, w, eta, sigma2, kappa, order, mix)
    n = K + M
    C = overlaps(y, K, M, T, 1.0)
    Ca = C * s2
    idx = np.zeros(4, dtype=np.int64)
    work = np.zeros((3, 4, 4))
    ent = np.zeros(10)
    S3 = np.zeros((K, n))
    for i in range(K):
        for t in range(n):
            acc = 0.0
            for c in range(n):
                idx[0] = i
                idx[1] = t
                idx[2] = c
                acc += w[c] * average(kind, Ca, idx, 3, E3, c3, nodes, weights, work, ent)
            S3[i, t] = acc
    out = np.empty(K * K + K * M)
    for i in range(K):
        for m in range(M):
            out[K * K + i * M + m] = eta * a[i] * S3[i, K + m] - eta * kappa * C[i, K + m]
    for i in range(K):
        for k in range(i, K):
            v = eta * (a[i] * S3[i, k] + a[k] * S3[k, i]) - 2.0 * eta * kappa * C[i, k]
            if order == 2:
                acc = 0.0
                idx[0] = i
                idx[1] = k
                for c in range(n):
                    for e in range(c, n):
                        idx[2] = c
                        idx[3] = e
                        mult = w[c] * w[e] * (1.0 if c == e else 2.0)
                        acc += mult * average(kind, Ca, idx, 4, E4, c4, nodes, weights, work, ent)
                if sigma2 != 0.0:
                    acc += sigma2 * average(kind, Ca, idx, 2, E2, c2, nodes, weights, work, ent)
                v += eta * eta * a[i] * a[k] * acc * s2
            out[i * K + k] = v
            out[k * K + i] = v
    return out


def cost(model: CommitteeModel, av: GaussianAverages | None = None) -> float:
    """Estimated seconds of one compiled evaluation (K(K+1)/2 · n(n+1)/2 I4 and K n² I3, n =
    K + M; for relu only the K(K−1)/2 · (n−2)(n−1)/2 I4 with i < k and c, e not in {i, k}
    are integrals, 1e-6 s for each closed form) of an erf, relu, polynomial or erf-mixture
    ``model`` (``inf`` for other g), with the averages ``av`` (default the model's own)."""
    if av is None:
        from fltheory.papers.committee.gaussian import averages

        av = averages(model.g)
    # compiled seconds per I4 (this machine, loaded): erf 5e-9 (hoisted loops; 3e-6 fixed),
    # relu 3e-5–8e-5 per integral (112 nodes), polynomials 1e-8 per term; I3 at most as
    # much; a margin of 2 (relu, polynomials); the erf mixture measured 4e-9 per arcsin term
    # (tanh, K = M = 2: 7e-4 s per evaluation, K = M = 3: 2.3e-3; benchmarks/committee.py,
    # cost_table)
    unit = {"erf": 5e-9, "relu": 1.6e-4, "polynomial": 2e-8, "mixture": 4e-9}.get(av.kind,
                                                                                 math.inf)
    if av.kind == "polynomial":
        unit *= max(1, len(av.tables["i4"].coef))
    if av.kind == "mixture":  # (J + 1)² tilts × J² arcsin per I4
        J = len(av.mixture.c)
        unit *= (J + 1) ** 2 * J * J
    K, n = model.K, model.K + model.M
    if av.kind == "relu":  # the 1-D integral for i < k and c, e not in {i, k} only
        integrals = K * (K - 1) / 2 * (n - 2) * (n - 1) / 2
        closed = K * (K + 1) / 2 * n * (n + 1) / 2 - integrals + K * n * n
        return float(integrals * unit + closed * 1e-6)
    return float((K * (K + 1) / 2 * n * (n + 1) / 2 + K * n * n) * unit
                 + (3e-6 if av.kind in ("erf", "mixture") else 0.0))


def _mix_params(av: GaussianAverages) -> np.ndarray:
    """(A, B, c_1..c_J, s_1..s_J) of an erf mixture (kind "mixture"), else empty."""
    m = av.mixture
    if m is None:
        return np.zeros(0)
    return np.ascontiguousarray(np.concatenate([[m.A, m.B], m.c, m.s]), dtype=float)
