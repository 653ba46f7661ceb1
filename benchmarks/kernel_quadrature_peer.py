"""The peers' method, written here from its description (not copied): the eigenvalues of a
dot-product kernel on S^{d−1} by Gauss–Gegenbauer quadrature in float64 numpy, as the
eigenlearning and kernel-generalization codes do (a fixed Gauss–Jacobi rule on [−1, 1] with
weight (1 − t²)^{(d−3)/2}, P_k from scipy's Gegenbauer polynomials normalised by P_k(1)).

    python benchmarks/kernel_quadrature_peer.py --d 100 --kmax 50 [--nodes 1000]

prints μ_0 … μ_kmax of the ReLU NTK of depth 2 (κ(t) = t κ_0(t) + κ_1(t), κ_0 = 1 − arccos(t)/π,
κ_1 = (√(1 − t²) + t(π − arccos t))/π), one per line, in float64 (repr).
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import special


def relu_ntk(t: np.ndarray) -> np.ndarray:
    theta = np.arccos(np.clip(t, -1.0, 1.0))
    k0 = 1 - theta / np.pi
    k1 = (np.sin(theta) + t * (np.pi - theta)) / np.pi
    return t * k0 + k1


def eigenvalues(d: int, kmax: int, nodes: int) -> np.ndarray:
    alpha = (d - 3) / 2
    t, w = special.roots_jacobi(nodes, alpha, alpha)
    w = w / w.sum()
    values = relu_ntk(t)
    out = np.empty(kmax + 1)
    lam = (d - 2) / 2
    for k in range(kmax + 1):
        if d == 2:
            P = special.eval_chebyt(k, t)
        else:
            P = special.eval_gegenbauer(k, lam, t) / special.eval_gegenbauer(k, lam, 1.0)
        out[k] = np.sum(w * values * P)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--d", type=int, required=True)
    ap.add_argument("--kmax", type=int, default=50)
    ap.add_argument("--nodes", type=int, default=1000)
    args = ap.parse_args()
    for v in eigenvalues(args.d, args.kmax, args.nodes):
        print(repr(float(v)))


if __name__ == "__main__":
    main()
