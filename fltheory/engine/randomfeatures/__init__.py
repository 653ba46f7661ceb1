r"""Exact m → ∞ spectrum of random features for any activation σ: the radial operators of
Mehler + Funk–Hecke, shared by every paper on random-feature (Fisher, Gram) spectra.

.. rubric:: Model

x ~ N(0, I_d); w_1, …, w_m i.i.d. N(0, s² I_d/d) (so E‖w‖² = s², r = ‖w‖ ~ s χ_d/√d);
K(w, w') = E_x[σ(w·x) σ(w'·x)]; the Fisher (Gram) matrix J = (1/m)[K(w_i, w_j)]. As m → ∞ the
spectrum of J tends to that of the integral operator T g(w) = E_{w'}[K(w, w') g(w')] on L²(law of
w). The ReLU Fisher matrix of the Takeishi et al. line (W ~ N(0, 1/m), J = E_x[XXᵀ]) is the case
σ = relu, s = √d (w = u ~ N(0, I_d)); its λ_l are reproduced exactly at that scale.

.. rubric:: Derivation

*Mehler.* (ŵ·x, ŵ'·x) is a standard Gaussian pair of correlation t = ŵ·ŵ', so

.. math::

    K(w, w') = \sum_k \mu_k(r)\, \mu_k(r')\, t^k,
    \qquad \mu_k(r) = \mathbb{E}[\sigma(rz)\, h_k(z)]

(orthonormal Hermite, Hermite
engine conventions).

*Funk–Hecke.* Radius and direction of w are independent; for g(w) = φ(r) Y_l(ŵ) with Y_l a
spherical harmonic of degree l, E_{ŵ'}[t^k Y_l(ŵ')] = c_{k,l} Y_l(ŵ) with
c_{k,l} = E_t[t^k P_l(t)] (t = ŵ·e of density ∝ (1 − t²)^{(d−3)/2}, P_l the Legendre/Gegenbauer
polynomial of dimension d with P_l(1) = 1). So T acts on degree l as the radial operator

.. math::

    (R_l \varphi)(r) = \mathbb{E}_{r'}[K_l(r, r')\, \varphi(r')], \qquad
    K_l(r, r') = \sum_k c_{k,l}\, \mu_k(r)\, \mu_k(r'),

and every eigenvalue λ_{l,0} >= λ_{l,1} >= … of R_l is an eigenvalue of T of multiplicity
N(d, l) (dimension of the degree-l harmonics). c_{k,l} >= 0, and c_{k,l} = 0 unless k >= l and
k ≡ l (mod 2).

*Exact routes* (:mod:`.piecewise`, ``_route_exact``). A σ that is a polynomial on each
half-line is a
finite sum of positively homogeneous parts; then K_l is of finite rank and R_l's non-zero
eigenvalues are those of a small matrix of Gamma ratios (chi moments and moments of t):
polynomials (every entry rational in s²), and in particular positively homogeneous σ of degree
p (relu, abs, sign, Heaviside, relu^p, leaky relu, z^p), for which R_l has rank one and

.. math::

    \lambda_{l,0} = \mathbb{E}[r^{2p}]\, \mathbb{E}[\lVert x\rVert^{2p}]\, b_l^2, \qquad
    b_l = \mathbb{E}_t[\sigma(t)\, P_l(t)],

which at σ = relu, s² = d is the ReLU Fisher paper's λ_l = d E_t[κ(t) P_l(t)] derived a
different way (sphere factorisation x = ‖x‖ξ instead of the arc-cosine kernel). Every λ_{l,j}
with j beyond the rank is exactly 0.

*Numeric route* (:mod:`.radial`, ``_route_nystrom``): Nyström on the radial law (generalised
Gauss–Laguerre in u = d r²/(2s²) ~ Gamma(d/2)) with μ_k(r_i) by the trapezoidal rule in z,
Mehler series truncated at K with a rigorous bound (c_{k,l} <= E|t|^k, Parseval tail
E σ(rz)² − Σ_{k<=K} μ_k(r)²). Each eigenvalue is computed twice (more radial nodes, a finer z
step, ten more working digits); its reported digits are those on which the two agree and that
the truncation bound guarantees. Fewer than the asked ``dps`` is a DomainError naming the
eigenvalue and the digits reached.

*Gram route* (:mod:`.gram`, ``_route_gram``, d < ``GRAM_MAX_D``): the sphere
factorisation x = ‖x‖ξ gives K_l(r, r') = E_ρ[β_l(rρ) β_l(r'ρ)], β_l(a) = E_t[σ(at) P_l(t)],
with no series to truncate (the Mehler series converges slowly at small d). float64 (β
summed compensated), two orders compared (12–14 digits, measured); used for dps <=
``GRAM_FLOAT_MAX_DPS``, tried first up to
``GRAM_FLOAT_TRY_DPS`` (then the mpmath Gram route, up to
``GRAM_MP_MAX_DPS``) and, without a dps, for every value (each keeps the digits
it is confirmed to).

*Trace identity.* Σ_l N(d, l) Σ_j λ_{l,j} = Σ_l N(d, l) tr R_l = E_w K(w, w) = E_r E_z σ(rz)²
(Funk–Hecke at t = 1: Σ_l N(d, l) c_{k,l} = 1). :attr:`RFSpectrum.trace_captured` is the part
Σ_{l<=lmax} N(d, l) tr R_l.

*Parity.* μ_k(r) = 0 for odd k when σ is even and for even k when σ is odd, and c_{k,l} = 0
unless k ≡ l, so even σ has no odd-l spectrum and odd σ no even-l spectrum. A polynomial of
degree p has μ_k = 0 for k > p, hence no spectrum for l > p, and rank <= ⌊(p − l)/2⌋ + 1 at l.
ReLU: relu = (z + |z|)/2 and |z| is even, so odd l >= 3 see only t/4's degree-1 part: 0.

*Large d.* At fixed s the radial law concentrates at r = s (variance s²/(2d)), c_{k,l}/c_{l,l} =
O(d^{−(k−l)/2}), so R_l tends to the rank-one kernel c_{l,l} μ_l(r) μ_l(r') and
λ_{l,0}(d) ≈ c_{l,l}(d) μ_l(s)², λ_{l,1}/λ_{l,0} → 0 (measured for
tanh, l = 1: the relative gap falls like 1/d, λ_{1,1}/λ_{1,0} like 1/d²).

.. rubric:: What is supported

σ is split into its even and odd parts (sympy), each handled by its own route: a part that is a
polynomial on each half-line is exact (so gelu and softplus, whose odd part is z/2, and
sigmoid, whose even part is 1/2, are exact on half of the degrees); a smooth part goes to
Nyström; a part with kinks that is not polynomial between them (relu(z − 1), relu·tanh) is
refused (the trapezoidal rule in z needs smoothness). σ must grow at most polynomially
(E_r E σ(rz)² is infinite otherwise for the unbounded law of r: exp(z) is refused). The
Nyström work is bounded before it starts (:data:`MAX_WORK`): it is cheap at large d (tanh,
d = 10^6, lmax 4, jmax 2, dps 30: about 4 s of CPU) and expensive at small d, where the Mehler
series converges slowly (E|t|^k decays like k^{−(d−1)/2}) and the radial law is wide. Up to
dps = 10 (:data:`FLOAT_MAX_DPS`) both passes run in float64 (tanh, d = 5, lmax 2, jmax 2,
dps 5: 3 s); at small d the truncation bound limits the digits (tanh: d = 5 about 5 digits on
λ_{1,2}, d = 3 about 4 on λ_{3,1}), and more asked digits are a DomainError.

.. rubric:: API

:class:`RFModel` reads σ, d, s, lmax, jmax and dps once; :func:`spectrum` takes it and returns an
:class:`RFSpectrum` of :class:`RFLevel` (each value with its confirmed digits and its route);
:func:`kernel_trace` is E_w K(w, w). The modules: :mod:`~fltheory.engine.randomfeatures.levels`
(records, ranges), :mod:`~fltheory.engine.randomfeatures.model`,
:mod:`~fltheory.engine.randomfeatures.assembly` (the split by parity and the merge), the routes
``_route_exact``, ``_route_gram``, ``_route_nystrom`` and their numerics ``piecewise``, ``gram``,
``radial``.
"""


from fltheory.engine.randomfeatures.assembly import kernel_trace, spectrum
from fltheory.engine.randomfeatures.levels import (
    AUTO_DPS,
    FLOAT_MAX_DPS,
    MAX_D,
    MAX_JMAX,
    MAX_L,
    MAX_WORK,
    RFLevel,
    RFSpectrum,
    multiplicity,
)
from fltheory.engine.randomfeatures.model import RFModel, numpy_face

__all__ = ["AUTO_DPS", "FLOAT_MAX_DPS", "MAX_D", "MAX_JMAX", "MAX_L", "MAX_WORK", "RFLevel",
           "RFModel", "RFSpectrum", "kernel_trace", "multiplicity", "numpy_face", "spectrum"]
