/* The soft committee machine's erf right side and its integration, compiled by pip as a C
 * extension (optional: without a C compiler the package falls back to numba, then scipy).
 *
 * erf_loops is a statement-for-statement port of fltheory.papers.committee._flat.erf_loops
 * (with _flat.overlaps): same operations in the same order, built with -ffp-contract=off, so
 * that it gives numba's numbers; the integrator is the engine's (../../engine/dop853.h). Why C:
 * numba's own start-up (import, its BLAS check importing scipy.linalg, its target context:
 * ~0.46 s) is more than a whole K = 10, M = 5 integration to t = 1000; this module loads in
 * well under a millisecond. Python side: fltheory.papers.committee._compiled.
 *
 * Arrays arrive through the buffer protocol (C-contiguous float64; numpy's arrays), so the
 * build needs no numpy headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pybuffers.h"

#include "dop853.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct {
    int K, M, order;
    const double *T, *a, *w;
    double eta, sigma2, kappa, s2;
    double *C, *d, *S3, *u, *A, *B, *inv; /* scratch */
} erf_model;

static double clip1(double x) { return fl_min(1.0, fl_max(-1.0, x)); }

static void overlaps(const double *y, int K, int M, const double *T, double scale, double *C)
{
    int n = K + M;
    for (int i = 0; i < K; i++) {
        for (int j = 0; j < K; j++)
            C[i * n + j] = 0.5 * (y[i * K + j] + y[j * K + i]) * scale;
        for (int m = 0; m < M; m++) {
            C[i * n + K + m] = y[K * K + i * M + m] * scale;
            C[(K + m) * n + i] = C[i * n + K + m];
        }
    }
    for (int m = 0; m < M; m++)
        for (int l = 0; l < M; l++)
            C[(K + m) * n + K + l] = T[m * M + l] * scale;
}

static void erf_loops(void *ctx, const double *y, double *out)
{
    erf_model *p = ctx;
    const int K = p->K, M = p->M, n = K + M;
    const double *a = p->a, *w = p->w;
    const double eta = p->eta, kappa = p->kappa;
    double *C = p->C, *d = p->d, *S3 = p->S3, *u = p->u, *A = p->A, *B = p->B, *inv = p->inv;
    overlaps(y, K, M, p->T, p->s2, C);
    for (int c = 0; c < n; c++)
        d[c] = 1.0 + C[c * n + c];
    for (int i = 0; i < K; i++) {
        double di = d[i], diag = 0.0;
        for (int c = 0; c < n; c++) {
            double cic = C[i * n + c];
            u[c] = 2.0 / M_PI * w[c] / (di * sqrt(di * d[c] - cic * cic));
            diag += cic * u[c];
        }
        for (int t = 0; t < n; t++) {
            double acc = 0.0;
            for (int c = 0; c < n; c++)
                acc += C[t * n + c] * u[c];
            S3[i * n + t] = di * acc - C[i * n + t] * diag;
        }
    }
    for (int i = 0; i < K; i++)
        for (int m = 0; m < M; m++)
            out[K * K + i * M + m] = eta * a[i] * S3[i * n + K + m]
                                     - eta * kappa * y[K * K + i * M + m];
    for (int i = 0; i < K; i++) {
        for (int k = i; k < K; k++) {
            double qik = 0.5 * (y[i * K + k] + y[k * K + i]);
            double v = eta * (a[i] * S3[i * n + k] + a[k] * S3[k * n + i])
                       - 2.0 * eta * kappa * qik;
            if (p->order == 2) {
                double di = d[i], dk = d[k], cik = C[i * n + k];
                double lam4 = di * dk - cik * cik;
                for (int c = 0; c < n; c++) {
                    double cic = C[i * n + c], ckc = C[k * n + c];
                    A[c] = di * ckc - cik * cic;
                    B[c] = dk * cic - cik * ckc;
                    double lam1 = lam4 * d[c] - ckc * ckc * di - cic * cic * dk
                                  + 2.0 * cik * cic * ckc;
                    inv[c] = 1.0 / sqrt(lam1);
                }
                double acc = 0.0;
                for (int c = 0; c < n; c++) {
                    double cic = C[i * n + c], ckc = C[k * n + c];
                    double x = (lam4 * C[c * n + c] - ckc * A[c] - cic * B[c]) * inv[c] * inv[c];
                    acc += w[c] * w[c] * asin(clip1(x));
                    double part = 0.0;
                    for (int e = c + 1; e < n; e++) {
                        x = (lam4 * C[c * n + e] - ckc * A[e] - cic * B[e]) * inv[c] * inv[e];
                        part += w[e] * asin(clip1(x));
                    }
                    acc += 2.0 * w[c] * part;
                }
                acc *= 4.0 / (M_PI * M_PI) / sqrt(lam4);
                if (p->sigma2 != 0.0)
                    acc += p->sigma2 * 2.0 / M_PI / sqrt(lam4);
                v += eta * eta * a[i] * a[k] * acc * p->s2;
            }
            out[i * K + k] = v;
            out[k * K + i] = v;
        }
    }
}

/* ---- arguments ---- */

enum { B_T, B_A, B_W, N_MODEL_BUFFERS };

/* The model from (K, M, T, a, w, eta, sigma2, kappa, order, s2); its scratch is allocated
 * (free with free(p->C)). */
static int read_model(PyObject *args, Py_ssize_t first, erf_model *p, buffer *bs)
{
    PyObject *T, *a, *w;
    PyObject *part = PyTuple_GetSlice(args, first, first + 10);
    if (part == NULL)
        return -1;
    int ok = PyArg_ParseTuple(part, "iiOOOdddid:erf model", &p->K, &p->M, &T, &a, &w, &p->eta,
                              &p->sigma2, &p->kappa, &p->order, &p->s2);
    Py_DECREF(part);
    if (!ok)
        return -1;
    if (p->K < 1 || p->M < 1 || p->K > 4096 || p->M > 4096) {
        PyErr_SetString(PyExc_ValueError, "K, M: expected 1 ... 4096");
        return -1;
    }
    int n = p->K + p->M;
    if (get_doubles(T, (Py_ssize_t)p->M * p->M, 0, &bs[B_T], "T") < 0
        || get_doubles(a, p->K, 0, &bs[B_A], "a") < 0
        || get_doubles(w, n, 0, &bs[B_W], "w") < 0)
        return -1;
    p->T = bs[B_T].view.buf;
    p->a = bs[B_A].view.buf;
    p->w = bs[B_W].view.buf;
    size_t scratch = (size_t)n * n + (size_t)p->K * n + 5 * (size_t)n;
    p->C = malloc(sizeof(double) * scratch);
    if (p->C == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    p->S3 = p->C + (size_t)n * n;
    p->d = p->S3 + (size_t)p->K * n;
    p->u = p->d + n;
    p->A = p->u + n;
    p->B = p->A + n;
    p->inv = p->B + n;
    return 0;
}

static PyObject *py_erf_rhs(PyObject *self, PyObject *args)
{
    (void)self;
    erf_model p = {0};
    buffer bs[N_MODEL_BUFFERS + 2];
    memset(bs, 0, sizeof bs);
    PyObject *result = NULL;
    if (PyTuple_GET_SIZE(args) != 12) {
        PyErr_SetString(PyExc_TypeError, "erf_rhs(y, out, K, M, T, a, w, eta, sigma2, kappa, "
                                         "order, s2)");
        return NULL;
    }
    if (read_model(args, 2, &p, bs) < 0)
        goto done;
    Py_ssize_t dim = (Py_ssize_t)p.K * p.K + (Py_ssize_t)p.K * p.M;
    if (get_doubles(PyTuple_GET_ITEM(args, 0), dim, 0, &bs[N_MODEL_BUFFERS], "y") < 0
        || get_doubles(PyTuple_GET_ITEM(args, 1), dim, 1, &bs[N_MODEL_BUFFERS + 1], "out") < 0)
        goto done;
    erf_loops(&p, bs[N_MODEL_BUFFERS].view.buf, bs[N_MODEL_BUFFERS + 1].view.buf);
    result = Py_NewRef(Py_None);
done:
    free(p.C);
    release(bs, N_MODEL_BUFFERS + 2);
    return result;
}

static int interrupted(void) { return PyErr_CheckSignals() != 0; }

static PyObject *py_erf_dop853(PyObject *self, PyObject *args)
{
    (void)self;
    erf_model p = {0};
    enum { Y0 = N_MODEL_BUFFERS, GRID, OUT, TA, TB, TE3, TE5, N_BUFFERS };
    buffer bs[N_BUFFERS];
    memset(bs, 0, sizeof bs);
    PyObject *result = NULL;
    double rtol, atol, y_max;
    long max_steps;
    PyObject *y0, *grid, *out, *A, *B, *E3, *E5;
    if (PyTuple_GET_SIZE(args) != 21) {
        PyErr_SetString(PyExc_TypeError, "erf_dop853(y0, t_grid, out, K, M, T, a, w, eta, "
                                         "sigma2, kappa, order, s2, rtol, atol, max_steps, "
                                         "y_max, A, B, E3, E5)");
        return NULL;
    }
    PyObject *head = PyTuple_GetSlice(args, 0, 3);
    PyObject *tail = PyTuple_GetSlice(args, 13, 21);
    int ok = head != NULL && tail != NULL
             && PyArg_ParseTuple(head, "OOO:erf_dop853", &y0, &grid, &out)
             && PyArg_ParseTuple(tail, "ddldOOOO:erf_dop853", &rtol, &atol, &max_steps, &y_max,
                                 &A, &B, &E3, &E5);
    Py_XDECREF(head);
    Py_XDECREF(tail);
    if (!ok || read_model(args, 3, &p, bs) < 0)
        goto done;
    int dim = p.K * p.K + p.K * p.M;
    if (get_doubles(y0, dim, 0, &bs[Y0], "y0") < 0 || get_doubles(grid, -1, 0, &bs[GRID], "t_grid") < 0)
        goto done;
    long n_grid = (long)(bs[GRID].view.len / 8);
    if (n_grid < 1) {
        PyErr_SetString(PyExc_ValueError, "t_grid: expected at least one time");
        goto done;
    }
    if (get_doubles(out, (Py_ssize_t)n_grid * dim, 1, &bs[OUT], "out") < 0
        || get_doubles(A, FL_TABLE_WIDTH * FL_TABLE_WIDTH, 0, &bs[TA], "A") < 0
        || get_doubles(B, FL_STAGES, 0, &bs[TB], "B") < 0
        || get_doubles(E3, FL_STAGES + 1, 0, &bs[TE3], "E3") < 0
        || get_doubles(E5, FL_STAGES + 1, 0, &bs[TE5], "E5") < 0)
        goto done;
    long nfev = 0;
    double t_end = 0.0;
    int status = fl_dop853(erf_loops, &p, dim, bs[Y0].view.buf, bs[GRID].view.buf, n_grid, rtol,
                           atol, max_steps, y_max, bs[TA].view.buf, bs[TB].view.buf,
                           bs[TE3].view.buf, bs[TE5].view.buf, bs[OUT].view.buf, &nfev, &t_end,
                           interrupted);
    if (status == FL_NO_MEMORY)
        PyErr_NoMemory();
    else if (status != FL_INTERRUPTED)
        result = Py_BuildValue("lid", nfev, status, t_end);
done:
    free(p.C);
    release(bs, N_BUFFERS);
    return result;
}

static PyMethodDef methods[] = {
    {"erf_rhs", py_erf_rhs, METH_VARARGS,
     "erf_rhs(y, out, K, M, T, a, w, eta, sigma2, kappa, order, s2): out = dy/dt of the flat "
     "state y for g = erf(s x/sqrt 2), s2 = s^2 (fltheory.papers.committee._flat.erf_loops)."},
    {"erf_dop853", py_erf_dop853, METH_VARARGS,
     "erf_dop853(y0, t_grid, out, K, M, T, a, w, eta, sigma2, kappa, order, s2, rtol, atol, "
     "max_steps, y_max, A, B, E3, E5) -> (nfev, status, t_end): "
     "fltheory.engine.odes.dop853_loop on erf_rhs; out (len(t_grid) x dim, NaN-filled) "
     "receives the states on the grid."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "The committee machine's erf right side and its Dormand-Prince integration in C.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
