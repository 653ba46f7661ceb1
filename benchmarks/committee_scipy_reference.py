"""A plain scipy integration of the soft-committee-machine ODEs: the reference that
``fltheory committee ode`` is timed and checked against (issue 24). It does not import
fltheory: the equations are written here from Saad & Solla (1995, PRE 52 4225, eqs. (5)–(7)
and the appendix), g(x) = erf(x/√2), second layers 1, no noise, T = I:

    dR_in/dt = η [Σ_m I3(i, n, m) − Σ_j I3(i, n, j)]
    dQ_ik/dt = η [Σ_m I3(i, k, m) − Σ_j I3(i, k, j) + (i ↔ k)]
               + η² [Σ_{n,m} I4(i, k, n, m) − 2 Σ_{j,n} I4(i, k, j, n) + Σ_{j,l} I4(i, k, j, l)]
    ε_g = (1/π) [Σ_{i,k} arcsin(Q_ik/√((1 + Q_ii)(1 + Q_kk))) + Σ_{n,m} arcsin(T_nm/…)
                 − 2 Σ_{i,n} arcsin(R_in/√((1 + Q_ii)(1 + T_nn)))]

with I3(a, b, c) = (2/π) (C_bc(1 + C_aa) − C_ab C_ac)/((1 + C_aa) √((1 + C_aa)(1 + C_cc) − C_ac²))
and I4 = (4/π²) Λ4^{−1/2} arcsin(Λ0/√(Λ1 Λ2)) (Saad–Solla's Λ's), over all K + M fields
(indices j, l students, n, m teachers). The right side is vectorised numpy over all (i, k, c, e);
the integrator is scipy's solve_ivp DOP853 at rtol 1e-10, atol 1e-12.

The start: Q0 = q0 I, R0 = rho0 × a seeded standard-normal K × M pattern rounded to 6 decimals
(printed with --print-start as the --Q0/--R0 options of ``fltheory committee ode``, so the two
programs integrate the same initial value problem).

With --n-out N the script also prints ε_g at N equally spaced times (scipy's t_eval, its
dense output), the times ``fltheory committee ode --n-out N`` prints (issue 37: the two are
compared at the same times).

Usage: python benchmarks/committee_scipy_reference.py --K 10 --M 5 --eta 1/2 --t-max 1000
"""

from __future__ import annotations

import argparse
import json
import math
from fractions import Fraction

import numpy as np
from scipy.integrate import solve_ivp


def start(K: int, M: int, q0: float, rho0: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    pattern = np.round(np.random.default_rng(seed).standard_normal((K, M)), 6)
    return q0 * np.eye(K), rho0 * pattern


def start_options(K: int, M: int, q0: Fraction, rho0: Fraction, seed: int) -> list[str]:
    """--Q0 and --R0 for the CLI, exact: the same numbers as :func:`start` (decimals)."""
    pattern = np.round(np.random.default_rng(seed).standard_normal((K, M)), 6)
    Q = ";".join(",".join(str(q0) if i == j else "0" for j in range(K)) for i in range(K))
    R = ";".join(",".join(str(rho0 * Fraction(f"{v:.6f}")) for v in row) for row in pattern)
    return ["--Q0", Q, "--R0", R]


def make_rhs(K: int, M: int, eta: float, T: np.ndarray):
    w = np.concatenate([-np.ones(K), np.ones(M)])  # δ = Σ_m g(ν_m) − Σ_j g(λ_j)
    ww = np.outer(w, w)

    def rhs(_t: float, y: np.ndarray) -> np.ndarray:
        Q = y[:K * K].reshape(K, K)
        Q = 0.5 * (Q + Q.T)
        R = y[K * K:].reshape(K, M)
        C = np.block([[Q, R], [R.T, T]])
        d = 1.0 + np.diag(C)                                     # 1 + C_aa
        # I3(a, b, c) for a < K (student), b, c any field: shape (K, n, n)
        Ca = C[:K]                                               # C_ab, a student
        lam3 = d[:K, None] * d[None, :] - Ca**2                  # (a, c)
        I3 = (2 / math.pi) * (C[None, :, :] * d[:K, None, None]
                              - Ca[:, :, None] * Ca[:, None, :]) \
            / (d[:K, None, None] * np.sqrt(lam3)[:, None, :])
        S3 = I3 @ w                                              # Σ_c w_c I3(a, b, c)
        dR = eta * S3[:, K:]
        dQ = eta * (S3[:, :K] + S3[:, :K].T)
        # I4(i, k, c, e): (K, K, n, n)
        di, dk = d[:K, None], d[None, :K]
        cik = C[:K, :K]
        lam4 = di * dk - cik**2                                  # (i, k)
        ci = C[:K, None, :, None]                                # C_ic -> (i, 1, c, 1)
        ck = C[None, :K, :, None]                                # C_kc -> (1, k, c, 1)
        ei = C[:K, None, None, :]                                # C_ie
        ek = C[None, :K, None, :]                                # C_ke
        Di = d[:K, None, None, None]
        Dk = d[None, :K, None, None]
        Cik = cik[:, :, None, None]
        L4 = lam4[:, :, None, None]
        lam0 = (L4 * C[None, None] - ck * ek * Di - ci * ei * Dk + Cik * ci * ek
                + Cik * ei * ck)
        lam1 = (lam4[:, :, None] * d[None, None, :] - C[None, :K, :]**2 * d[:K, None, None]
                - C[:K, None, :]**2 * d[None, :K, None]
                + 2 * cik[:, :, None] * C[:K, None, :] * C[None, :K, :])   # (i, k, c)
        x = np.clip(lam0 / np.sqrt(lam1[:, :, :, None] * lam1[:, :, None, :]), -1.0, 1.0)
        I4 = (4 / math.pi**2) / np.sqrt(L4) * np.arcsin(x)
        dQ = dQ + eta**2 * np.einsum("ikce,ce->ik", I4, ww)
        return np.concatenate([dQ.ravel(), dR.ravel()])

    return rhs


def eps_g(Q: np.ndarray, R: np.ndarray, T: np.ndarray) -> float:
    dq, dt = 1 + np.diag(Q), 1 + np.diag(T)
    s = (np.arcsin(Q / np.sqrt(np.outer(dq, dq))).sum()
         + np.arcsin(T / np.sqrt(np.outer(dt, dt))).sum()
         - 2 * np.arcsin(R / np.sqrt(np.outer(dq, dt))).sum())
    return float(s / math.pi)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--K", type=int, default=10)
    p.add_argument("--M", type=int, default=5)
    p.add_argument("--eta", default="1/2")
    p.add_argument("--t-max", type=float, default=1000.0)
    p.add_argument("--q0", default="1/4")
    p.add_argument("--rho0", default="1/1000")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rtol", type=float, default=1e-10)
    p.add_argument("--n-out", type=int, default=0,
                   help="also print ε_g at this many equally spaced times in [0, t-max] "
                        "(t_eval: scipy's dense output), as fltheory's --n-out does")
    p.add_argument("--print-start", action="store_true",
                   help="print the CLI options --Q0 ... --R0 ... (JSON list) and stop")
    a = p.parse_args()
    q0, rho0 = Fraction(a.q0), Fraction(a.rho0)
    if a.print_start:
        print(json.dumps(start_options(a.K, a.M, q0, rho0, a.seed)))
        return
    K, M, eta = a.K, a.M, float(Fraction(a.eta))
    Q0, R0 = start(K, M, float(q0), float(rho0), a.seed)
    T = np.eye(M)
    times = np.linspace(0.0, a.t_max, a.n_out) if a.n_out > 1 else np.array([a.t_max])
    sol = solve_ivp(make_rhs(K, M, eta, T), (0.0, a.t_max),
                    np.concatenate([Q0.ravel(), R0.ravel()]), method="DOP853", rtol=a.rtol,
                    atol=1e-12 * min(1.0, a.rtol / 1e-10), t_eval=times)
    eps = []
    for y in sol.y.T:
        Q = y[:K * K].reshape(K, K)
        eps.append(eps_g(0.5 * (Q + Q.T), y[K * K:].reshape(K, M), T))
    out = {"eps_g": eps[-1], "nfev": int(sol.nfev), "success": bool(sol.success)}
    if a.n_out > 1:
        out |= {"t": times.tolist(), "eps_g_grid": eps}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
