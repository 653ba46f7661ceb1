/* The package's one integrator, fltheory.engine.odes.dop853_loop, in C: adaptive
 * Dormand-Prince 8(5,3) on an autonomous system y' = f(y), every grid point a step's end.
 *
 * A statement-for-statement port of the Python loop (same operations in the same order, no
 * floating-point contraction when compiled with -ffp-contract=off), so that a paper's C right
 * side integrated here gives the numbers numba gives for the same right side. Nothing here
 * names a paper: a paper's extension includes this header and passes its right side as a
 * function pointer. Header-only (static functions): one copy per extension that includes it.
 *
 * The coefficient table (A FL_TABLE_WIDTH x FL_TABLE_WIDTH row-major, B 12, E3 13, E5 13) is the caller's:
 * fltheory.engine.odes.tableau() reads it from scipy's file.
 */
#ifndef FLTHEORY_DOP853_H
#define FLTHEORY_DOP853_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* right-side evaluations per step (12 stages; the last one at the new point is reused) */
#define FL_STAGES 12
/* the row length of the stage matrix A (16 x 16: rows 12-15 serve scipy's dense output) */
#define FL_TABLE_WIDTH 16
/* statuses, as dop853_loop's: 0 ok, 1 over max_steps, 2 step underflow, 3 left the box;
 * -1 interrupted (the caller's check returned nonzero), -2 out of memory */
#define FL_INTERRUPTED (-1)
#define FL_NO_MEMORY (-2)

typedef void (*fl_rhs)(void *ctx, const double *y, double *dy);
typedef int (*fl_check)(void);

static double fl_initial_step(int n, const double *y, const double *f0, double rtol,
                              double atol)
{
    double d0 = 0.0, d1 = 0.0;
    for (int i = 0; i < n; i++) {
        double sc = atol + rtol * fabs(y[i]);
        double a = y[i] / sc, b = f0[i] / sc;
        d0 += a * a;
        d1 += b * b;
    }
    d0 = sqrt(d0 / n);
    d1 = sqrt(d1 / n);
    return (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
}

static void fl_combine(int n, const double *w, int m, const double *Ks, const double *y,
                       double hs, double *out)
{
    for (int i = 0; i < n; i++) {
        double acc = 0.0;
        for (int r = 0; r < m; r++)
            acc += w[r] * Ks[r * n + i];
        out[i] = y[i] + hs * acc;
    }
}

static double fl_max(double a, double b) { return b > a ? b : a; }  /* Python's max(a, b) */
static double fl_min(double a, double b) { return b < a ? b : a; }  /* Python's min(a, b) */

static double fl_error(int n, const double *E3, const double *E5, int ne, const double *Ks,
                       const double *y, const double *yn, double hs, double rtol, double atol)
{
    double e5 = 0.0, e3 = 0.0;
    for (int i = 0; i < n; i++) {
        double a5 = 0.0, a3 = 0.0;
        for (int s = 0; s < ne; s++) {
            a5 += E5[s] * Ks[s * n + i];
            a3 += E3[s] * Ks[s * n + i];
        }
        double sc = atol + rtol * fl_max(fabs(y[i]), fabs(yn[i]));
        double p = a5 / sc, q = a3 / sc;
        e5 += p * p;
        e3 += q * q;
    }
    double err = (e5 == 0.0 && e3 == 0.0) ? 0.0 : hs * e5 / sqrt((e5 + 0.01 * e3) * n);
    return isfinite(err) ? err : 1e10;
}

static long fl_fill(int n, double *out, const double *y, const double *t_grid, long n_grid,
                    long j, double t)
{
    while (j < n_grid && t_grid[j] <= t) {
        memcpy(out + j * n, y, sizeof(double) * (size_t)n);
        j++;
    }
    return j;
}

static int fl_inside(int n, const double *y, double y_max)
{
    for (int i = 0; i < n; i++)
        if (!(fabs(y[i]) <= y_max))
            return 0;
    return 1;
}

static double fl_next_step(double err, double hs, int last, double h)
{
    double fac = err == 0.0 ? 10.0 : fl_min(10.0, fl_max(0.2, 0.9 * pow(err, -0.125)));
    return (!last || fac < 1.0) ? hs * fac : h;
}

/* Integrate from y0 (n values) over t_grid (n_grid non-decreasing times); ``out`` (n_grid x n,
 * row-major, prefilled with NaN by the caller) receives the states on the grid. ``check`` (may
 * be NULL) is called every 64 steps; nonzero stops with FL_INTERRUPTED. Returns the status;
 * *nfev the right-side evaluations, *t_end the time reached. */
static int fl_dop853(fl_rhs f, void *ctx, int n, const double *y0, const double *t_grid,
                     long n_grid, double rtol, double atol, long max_steps, double y_max,
                     const double *A, const double *B, const double *E3, const double *E5,
                     double *out, long *nfev, double *t_end, fl_check check)
{
    const int ns = FL_STAGES;
    double *work = malloc(sizeof(double) * (size_t)n * (3 + ns + 1));
    if (work == NULL)
        return FL_NO_MEMORY;
    double *y = work, *ys = work + n, *yn = work + 2 * n, *Ks = work + 3 * n;
    int status = 0;
    memcpy(y, y0, sizeof(double) * (size_t)n);
    f(ctx, y, Ks);
    long evals = 1, steps = 0;
    double t = t_grid[0];
    long j = fl_fill(n, out, y, t_grid, n_grid, 0, t);
    double h = fl_initial_step(n, y, Ks, rtol, atol);
    while (j < n_grid) {
        if (steps >= max_steps) {
            status = 1;
            break;
        }
        if (check != NULL && (steps & 63) == 0 && check()) {
            status = FL_INTERRUPTED;
            break;
        }
        double hs = fl_min(h, t_grid[j] - t);
        int last = hs >= t_grid[j] - t;
        for (int s = 1; s < ns; s++) {
            fl_combine(n, A + FL_TABLE_WIDTH * s, s, Ks, y, hs, ys);
            f(ctx, ys, Ks + s * n);
        }
        fl_combine(n, B, ns, Ks, y, hs, yn);
        f(ctx, yn, Ks + ns * n);
        evals += ns;
        steps += 1;
        double err = fl_error(n, E3, E5, ns + 1, Ks, y, yn, hs, rtol, atol);
        if (err <= 1.0) {
            t = last ? t_grid[j] : t + hs;
            if (!fl_inside(n, yn, y_max)) {
                status = 3;
                break;
            }
            memcpy(y, yn, sizeof(double) * (size_t)n);
            j = fl_fill(n, out, y, t_grid, n_grid, j, t);
            memcpy(Ks, Ks + ns * n, sizeof(double) * (size_t)n);
            h = fl_next_step(err, hs, last, h);
        } else {
            h = hs * fl_max(0.2, 0.9 * pow(err, -0.125));
            if (h < 1e-14 * fl_max(1.0, fabs(t))) {
                status = 2;
                break;
            }
        }
    }
    free(work);
    *nfev = evals;
    *t_end = t;
    return status;
}

#endif
