/* The innermost sum of the noisy square's averages (noisy phase retrieval, y = z'^2 + sigma eps),
 * compiled by pip as a C extension (optional: without a C compiler the package computes the same
 * sum with numpy, fltheory.papers.glm._channels._SquareNoisy._pairs_numpy).
 *
 * square_moments is a statement-for-statement port of that numpy path: for every (omega, y)
 * pair, the x panels of its band (nx panels of equal width in the metric S, mapped back to x by
 * S^-1), Gauss-Legendre nodes in each, and at each node the same operations in the same order,
 * built with -ffp-contract=off. Only exp differs (the C library's against numpy's vectorised
 * one, each within an ulp or so), and the sums run in the same order. Why C: numpy builds every
 * (omega, y, x) node as an array entry and passes over those arrays some twenty times; here each
 * node lives in registers, and the time is its two exponentials (5-10 times faster).
 *
 * Arrays arrive through the buffer protocol (C-contiguous float64; numpy's arrays), so the
 * build needs no numpy headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#include "pybuffers.h"

/* x = S^-1(s): linear below s_star (panels of width c1 in x), then x^2 linear in s (width c2
 * in u = x^2); _SquareNoisy._xmetric's S_inv */
static double s_inv(double s, double c1, double c2, double xs, double s_star)
{
    if (s <= s_star)
        return s * c1;
    double t = s - s_star;
    return sqrt(xs * xs + (t > 0.0 ? t : 0.0) * c2);
}

/* e^x is exactly 0 in double precision for x below this (e^-745.14 rounds to 0) */
#define UNDER (-746.0)

enum { B_W, B_Y, B_SLO, B_SHI, B_NX, B_GX, B_GW, B_Z, B_D, B_M, N_BUFFERS };

static PyObject *py_square_moments(PyObject *self, PyObject *args)
{
    PyObject *obj[N_BUFFERS];
    double V, sigma, c1, c2, xs, s_star;
    buffer bs[N_BUFFERS];
    memset(bs, 0, sizeof bs);
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOdddddd:square_moments", &obj[B_W], &obj[B_Y],
                          &obj[B_SLO], &obj[B_SHI], &obj[B_NX], &obj[B_GX], &obj[B_GW],
                          &obj[B_Z], &obj[B_D], &obj[B_M], &V, &sigma, &c1, &c2, &xs,
                          &s_star))
        return NULL;
    static const char *names[N_BUFFERS] = {"w", "y", "slo", "shi", "nx", "gl_x", "gl_w",
                                           "z", "dz", "m2"};
    Py_ssize_t n = -1, ng = -1;
    for (int i = 0; i < N_BUFFERS; i++) {
        int out = i >= B_Z;
        if (out && obj[i] == Py_None)
            continue;
        Py_ssize_t len = (i == B_GX || i == B_GW) ? ng : n;
        if (get_doubles(obj[i], len, out, &bs[i], names[i]) < 0) {
            release(bs, N_BUFFERS);
            return NULL;
        }
        if (i == B_W)
            n = bs[i].view.len / 8;
        if (i == B_GX)
            ng = bs[i].view.len / 8;
    }
    const double *w = bs[B_W].view.buf, *y = bs[B_Y].view.buf, *slo = bs[B_SLO].view.buf,
                 *shi = bs[B_SHI].view.buf, *nxs = bs[B_NX].view.buf,
                 *gx = bs[B_GX].view.buf, *gw = bs[B_GW].view.buf;
    double *oz = bs[B_Z].held ? bs[B_Z].view.buf : NULL;
    double *od = bs[B_D].held ? bs[B_D].view.buf : NULL;
    double *om = bs[B_M].held ? bs[B_M].view.buf : NULL;
    /* the exponent's factors, as the numpy path forms them */
    const double cy = -0.5 / (sigma * sigma), cv = 0.5 / V, cr = -2.0 / V;

    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t p = 0; p < n; p++) {
        const long nx = (long)nxs[p];
        const double wo = w[p], yy = y[p], span = shi[p] - slo[p];
        double z = 0.0, d = 0.0, m = 0.0;
        if (nx > 0) {
            const double step = span / (double)nx;
            for (long j = 0; j < nx; j++) {
                const double base = slo[p] + span * ((double)j / (double)nx);
                const double a = s_inv(base, c1, c2, xs, s_star);
                const double b = s_inv(base + step, c1, c2, xs, s_star);
                const double half = 0.5 * (b - a), mid = (a + b) * 0.5;
                for (Py_ssize_t k = 0; k < ng; k++) {
                    const double x = mid + half * gx[k];
                    const double wx = half * gw[k];
                    const double em = x - wo;
                    double e = yy - x * x;
                    e *= e;
                    e *= cy;
                    e -= cv * em * em;
                    /* exp of anything below -746 is exactly 0 in double precision: skipped
                     * (the C library's exp is slow there, where it underflows) */
                    const double gm = (e < UNDER ? 0.0 : exp(e)) * wx;
                    double r = x * wo;
                    r *= cr;
                    r = r < UNDER ? 0.0 : exp(r);
                    if (oz)
                        z += gm * (1.0 + r);
                    if (od)
                        d += gm * (em - (x + wo) * r);
                    if (om)
                        m += x * x * gm * (1.0 + r);
                }
            }
        }
        if (oz)
            oz[p] = z;
        if (od)
            od[p] = d;
        if (om)
            om[p] = m;
    }
    Py_END_ALLOW_THREADS

    release(bs, N_BUFFERS);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"square_moments", py_square_moments, METH_VARARGS,
     "square_moments(w, y, slo, shi, nx, gl_x, gl_w, z, dz, m2, V, sigma, c1, c2, xs, s_star): "
     "for every (omega, y) pair p, the sums over its x nodes of w_x e^E (1 + r) into z[p], "
     "w_x e^E (x - omega - (x + omega) r) into dz[p] and x^2 w_x e^E (1 + r) into m2[p] (each "
     "skipped when None), E = -(y - x^2)^2/(2 sigma^2) - (x - omega)^2/(2V), r = e^(-2 x omega/V); "
     "the nodes: nx[p] panels of equal width in S over [slo[p], shi[p]], mapped to x by S^-1 "
     "(linear with slope c1 up to s_star, then x = sqrt(xs^2 + (s - s_star) c2)), with the rule "
     "(gl_x, gl_w) on [-1, 1] in each (fltheory.papers.glm._channels._SquareNoisy._pairs_numpy)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "The noisy square's innermost quadrature sum in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
