/* Dense linear algebra kernels; see linalg.h. */
#include "linalg.h"
#include "parallel.h"

#include <complex.h>
#include <float.h>
#include <lapack.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static inline double
load(int dtype, const char *base, int64_t i)
{
    return dtype == TN_DTYPE_F32 ? (double)((const float *)base)[i] : ((const double *)base)[i];
}

/* one column of X: forward (lower) or backward (upper) substitution in float64 */
static void
solve_column(int dtype, int64_t n, bool upper, bool unit, const char *a, int64_t a_sr, int64_t a_sc,
             char *x, int64_t x_sr, double *col)
{
    for (int64_t i = 0; i < n; i++)
        col[i] = load(dtype, x, i * x_sr);
    for (int64_t t = 0; t < n; t++) {
        int64_t i = upper ? n - 1 - t : t;
        double s = col[i];
        int64_t lo = upper ? i + 1 : 0, hi = upper ? n : i;
        for (int64_t j = lo; j < hi; j++)
            s -= load(dtype, a, i * a_sr + j * a_sc) * col[j];
        col[i] = unit ? s : s / load(dtype, a, i * a_sr + i * a_sc);
    }
    for (int64_t i = 0; i < n; i++) {
        if (dtype == TN_DTYPE_F32)
            ((float *)x)[i * x_sr] = (float)col[i];
        else
            ((double *)x)[i * x_sr] = col[i];
    }
}

tn_status
tn_trsm(int dtype, int64_t batch, int64_t n, int64_t k, bool upper, bool unit, const void *a,
        const int64_t *a_off, int64_t a_sr, int64_t a_sc, void *x, const int64_t *x_off, int64_t x_sr,
        int64_t x_sc)
{
    if (dtype != TN_DTYPE_F32 && dtype != TN_DTYPE_F64)
        return TN_ERR_DTYPE;
    if (batch < 0 || n < 0 || k < 0)
        return TN_ERR_VALUE;
    if (n == 0 || k == 0 || batch == 0)
        return TN_OK;
    double *col = malloc(sizeof(double) * (size_t)n);
    if (!col)
        return TN_ERR_NOMEM;
    size_t es = tn_dtype_size(dtype);
    for (int64_t b = 0; b < batch; b++)
        for (int64_t c = 0; c < k; c++)
            solve_column(dtype, n, upper, unit, (const char *)a + a_off[b] * (int64_t)es, a_sr, a_sc,
                         (char *)x + (x_off[b] + c * x_sc) * (int64_t)es, x_sr, col);
    free(col);
    return TN_OK;
}

/* ---- LAPACK ------------------------------------------------------------------------------------
 * The double-precision routines serve both dtypes (Note [float32 through double LAPACK]); the
 * entries loop over the batch. LAPACK's integers are 32-bit (lapack_int): sizes above INT32_MAX
 * are TN_ERR_VALUE. Workspaces are sized once per call by LAPACK's own query (lwork = -1). */

/* Note [LAPACK's XERBLA]
 * A LAPACK routine handed an illegal argument sets INFO = -(its position), calls XERBLA(name,
 * position) and returns. The reference XERBLA (Debian's liblapack, and libblas's own copy) prints
 * and executes STOP: the whole Python process exits. This xerbla_ replaces it: it records the
 * first report on its thread and returns, so the routine returns its negative INFO, which the ops
 * raise as upstream does for MKL's (whose XERBLA prints and returns): RuntimeError "...: Argument
 * N has illegal value". A report from a routine nested in another (dgelsd's dlascl of a NaN norm)
 * may leave the outer INFO nonnegative: every call below folds the recorded report into its info
 * (xerbla_info), and an entry with no info to answer returns TN_ERR_VALUE.
 * The replacement binds because liblapack.so calls xerbla_ through its PLT and the module that
 * links it (the extension, dlopened RTLD_LOCAL, or a test executable) comes first in the lookup
 * scope of its own dependencies: exported from there (default visibility), this definition wins
 * over liblapack's and libblas's (tests/kernels/test_linalg.c: xerbla_*). */
static _Thread_local int xerbla_position;

/* gfortran's interface: SRNAME's length follows as a hidden size_t */
__attribute__((visibility("default"))) void xerbla_(const char *srname, const lapack_int *info, size_t len);

void
xerbla_(const char *srname, const lapack_int *info, size_t len)
{
    (void)srname;
    (void)len;
    if (!xerbla_position)
        xerbla_position = *info > 0 ? *info : 1;
}

int
tn_lapack_xerbla_take(void)
{
    int p = xerbla_position;
    xerbla_position = 0;
    return p;
}

/* a LAPACK call's info with this thread's XERBLA report folded in (Note [LAPACK's XERBLA]) */
static lapack_int
xerbla_info(lapack_int info)
{
    int p = tn_lapack_xerbla_take();
    return info < 0 || !p ? info : -p;
}

static bool
fits(int64_t v)
{
    return v >= 0 && v <= INT32_MAX;
}

static bool
real_dtype(int dtype)
{
    return dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_F64;
}

/* Note [float32 through double LAPACK]: float32 matrices are factored by the double-precision
 * routines on a widened copy and rounded once at the end, as tn_trsm substitutes in float64. The
 * LAPACK under upstream's wheel and Debian's reference LAPACK order their float32 operations
 * differently, so float32 results computed in float32 land on either side of the float64 answer
 * by up to twice upstream's own error; through double they sit within rounding of it. The
 * float32 entries below widen, call the float64 entry, and narrow. */
static double *
widened(const void *src, int64_t n)
{
    double *d = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (d && src)
        for (int64_t i = 0; i < n; i++)
            d[i] = ((const float *)src)[i];
    return d;
}

static void
narrow_into(void *dst, const double *src, int64_t n)
{
    if (dst)
        for (int64_t i = 0; i < n; i++)
            ((float *)dst)[i] = (float)src[i];
}

/* Note [LAPACK over the batch]: each matrix of a batch is its own LAPACK call, and the reference
 * LAPACK runs one call on one thread, so the batch is split across threads. A call's work is
 * about the product of its three dimensions; batches whose matrices are too small to pay for a
 * thread's start-up stay on one (grain). */
static int64_t
batch_grain(int64_t m, int64_t n, int64_t k)
{
    int64_t work = m * n * (k > 0 ? k : 1);
    return work >= 8192 ? 1 : 8192 / (work > 0 ? work : 1) + 1;
}

typedef struct {
    int64_t m, n;
    lapack_int lm, ln, lda, k;
    double *a;
    int32_t *piv, *info;
} getrf_job;

static void
getrf_range(void *ctx, int64_t begin, int64_t end)
{
    getrf_job *j = ctx;
    for (int64_t b = begin; b < end; b++) {
        lapack_int i = 0;
        if (j->m == 0 || j->n == 0) {
            j->info[b] = 0;
            continue;
        }
        LAPACK_dgetrf(&j->lm, &j->ln, j->a + b * j->m * j->n, &j->lda, j->piv + b * j->k, &i);
        j->info[b] = xerbla_info(i);
    }
}

// getrf
tn_status
tn_lapack_getrf(int dtype, int64_t batch, int64_t m, int64_t n, void *a, int32_t *piv, int32_t *info)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && m * n > 0) {
        double *w = widened(a, batch * m * n);
        if (!w)
            return TN_ERR_NOMEM;
        tn_status st = tn_lapack_getrf(TN_DTYPE_F64, batch, m, n, w, piv, info);
        narrow_into(a, w, batch * m * n);
        free(w);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(m) || !fits(n) || !fits(m * n))
        return TN_ERR_VALUE;
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lda = lm > 1 ? lm : 1, k = lm < ln ? lm : ln;
    getrf_job job = {m, n, lm, ln, lda, k, a, piv, info};
    tn_parallel_for(batch, batch_grain(m, n, k), getrf_range, &job);
    return TN_OK;
}

typedef struct {
    int64_t n, k;
    lapack_int ln, lk;
    char t;
    const double *lu;
    const int32_t *piv;
    double *b;
    atomic_int illegal; /* a call reported an illegal argument (Note [LAPACK's XERBLA]) */
} getrs_job;

/* Note [getrs without zero skips]
 * dgetrs('N') is dlaswp, then dtrsm with the unit lower L, then dtrsm with U. The reference
 * BLAS's dtrsm skips a column step when the solved element is exactly zero (IF (B(K,J).NE.ZERO)),
 * so a zero pivot over a zero right-hand side leaves 0 where MKL (upstream's LAPACK) divides:
 * 0 / 0 = NaN, and inf * 0 spreads NaN (linalg.inv of [[0, 0], [0.5, 0.5]]: upstream's second
 * column is NaN, the skip made it [2, 0]). The same loops without the skip: for finite data
 * the same operations in the same order (kernels build with -ffp-contract=off), so the same
 * values; the transposed solve (dot products, no skip in dtrsm) stays LAPACK's. */
static void
getrs_n_noskip(int64_t n, int64_t k, const double *lu, const int32_t *piv, double *b)
{
    for (int64_t c = 0; c < k; c++) {
        double *x = b + c * n;
        for (int64_t r = 0; r < n; r++) {
            int64_t p = piv[r] - 1;
            if (p != r) {
                double t = x[r];
                x[r] = x[p];
                x[p] = t;
            }
        }
        for (int64_t kk = 0; kk < n; kk++) {
            const double *col = lu + kk * n;
            for (int64_t i = kk + 1; i < n; i++)
                x[i] = x[i] - x[kk] * col[i];
        }
        for (int64_t kk = n - 1; kk >= 0; kk--) {
            const double *col = lu + kk * n;
            x[kk] = x[kk] / col[kk];
            for (int64_t i = 0; i < kk; i++)
                x[i] = x[i] - x[kk] * col[i];
        }
    }
}

static void
getrs_range(void *ctx, int64_t begin, int64_t end)
{
    getrs_job *j = ctx;
    for (int64_t i = begin; i < end; i++) {
        if (j->t == 'N') {
            getrs_n_noskip(j->n, j->k, j->lu + i * j->n * j->n, j->piv + i * j->n, j->b + i * j->n * j->k);
            continue;
        }
        lapack_int info = 0;
        LAPACK_dgetrs(&j->t, &j->ln, &j->lk, j->lu + i * j->n * j->n, &j->ln, j->piv + i * j->n,
                      j->b + i * j->n * j->k, &j->ln, &info);
        if (xerbla_info(info) < 0)
            atomic_store(&j->illegal, 1);
    }
}

// getrs
tn_status
tn_lapack_getrs(int dtype, int64_t batch, int64_t n, int64_t k, bool trans, const void *lu, const int32_t *piv,
                void *b)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && n * k > 0) {
        double *l = widened(lu, batch * n * n), *w = widened(b, batch * n * k);
        tn_status st = l && w ? tn_lapack_getrs(TN_DTYPE_F64, batch, n, k, trans, l, piv, w) : TN_ERR_NOMEM;
        if (st == TN_OK)
            narrow_into(b, w, batch * n * k);
        free(l);
        free(w);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(n) || !fits(k) || !fits(n * n) || !fits(n * k))
        return TN_ERR_VALUE;
    if (n == 0 || k == 0)
        return TN_OK;
    getrs_job job = {n, k, (lapack_int)n, (lapack_int)k, trans ? 'T' : 'N', lu, piv, b, 0};
    tn_parallel_for(batch, batch_grain(n, n, k), getrs_range, &job);
    return atomic_load(&job.illegal) ? TN_ERR_VALUE : TN_OK;
}

// potrf
tn_status
tn_lapack_potrf(int dtype, int64_t batch, int64_t n, bool upper, void *a, int32_t *info)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && n > 0) {
        double *w = widened(a, batch * n * n);
        if (!w)
            return TN_ERR_NOMEM;
        tn_status st = tn_lapack_potrf(TN_DTYPE_F64, batch, n, upper, w, info);
        narrow_into(a, w, batch * n * n);
        free(w);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(n) || !fits(n * n))
        return TN_ERR_VALUE;
    lapack_int ln = (lapack_int)n, lda = ln > 1 ? ln : 1;
    char uplo = upper ? 'U' : 'L';
    size_t es = tn_dtype_size(dtype);
    for (int64_t b = 0; b < batch; b++) {
        char *ab = (char *)a + (size_t)(b * n * n) * es;
        lapack_int i = 0;
        if (n > 0) {
            LAPACK_dpotrf(&uplo, &ln, (double *)ab, &lda, &i);
            i = xerbla_info(i);
        }
        info[b] = i;
        /* the triangle potrf leaves as it was: zeros (column-major: element (r, c) at r + c n) */
        for (int64_t c = 0; c < n; c++)
            for (int64_t r = 0; r < n; r++)
                if (upper ? r > c : r < c)
                    memset(ab + (size_t)(r + c * n) * es, 0, es);
    }
    return TN_OK;
}

// syevd
tn_status
tn_lapack_syevd(int dtype, int64_t batch, int64_t n, bool upper, bool vectors, void *a, void *w, int32_t *info)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && n > 0) {
        double *wa = widened(a, batch * n * n), *ww = widened(NULL, batch * n);
        tn_status st = wa && ww ? tn_lapack_syevd(TN_DTYPE_F64, batch, n, upper, vectors, wa, ww, info) : TN_ERR_NOMEM;
        if (st == TN_OK) {
            narrow_into(a, wa, batch * n * n);
            narrow_into(w, ww, batch * n);
        }
        free(wa);
        free(ww);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(n) || !fits(n * n))
        return TN_ERR_VALUE;
    if (n == 0 || batch == 0) {
        for (int64_t b = 0; b < batch; b++)
            info[b] = 0;
        return TN_OK;
    }
    lapack_int ln = (lapack_int)n, lda = ln, lwork = -1, liwork = -1, iw = 0, i = 0;
    char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
    double wq[2] = {0};
    LAPACK_dsyevd(&jobz, &uplo, &ln, (double *)a, &lda, (double *)w, wq, &lwork, &iw, &liwork, &i);
    tn_lapack_xerbla_take(); /* a workspace query: the calls repeat its arguments */
    lwork = wq[0] < 1 ? 1 : (lapack_int)wq[0];
    liwork = iw > 1 ? iw : 1;
    size_t es = tn_dtype_size(dtype);
    void *work = malloc((size_t)lwork * es);
    lapack_int *iwork = malloc((size_t)liwork * sizeof(lapack_int));
    if (!work || !iwork) {
        free(work);
        free(iwork);
        return TN_ERR_NOMEM;
    }
    for (int64_t b = 0; b < batch; b++) {
        char *ab = (char *)a + (size_t)(b * n * n) * es, *wb = (char *)w + (size_t)(b * n) * es;
        i = 0;
        LAPACK_dsyevd(&jobz, &uplo, &ln, (double *)ab, &lda, (double *)wb, work, &lwork, iwork, &liwork, &i);
        info[b] = xerbla_info(i);
    }
    free(work);
    free(iwork);
    return TN_OK;
}

// gesdd

/* Note [gesdd of an infinite element]
 * gesdd scales a matrix whose largest magnitude is past its overflow bound by bignum / max|a|; for
 * an infinite element that factor is 0, so the scaled matrix holds NaN (inf * 0) where A was
 * infinite and every singular value comes out NaN, which is what upstream (MKL) returns. The
 * reference LAPACK's divide and conquer may then iterate on those NaNs for ever (a 3x3 matrix
 * holding one inf never returns), so a matrix with an infinite element and no NaN is not handed
 * to LAPACK: its singular values are NaN and its info TN_GESDD_INF; U and V^T are whatever MKL's
 * iterations leave, so the op refuses by name when they are asked for. A NaN anywhere is
 * LAPACK's own info = -4 (its first check since 3.10, before any iteration). */
static int
nonfinite_kind(const double *a, int64_t n)
{
    int inf = 0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(a[i]))
            return 2;
        inf |= isinf(a[i]) != 0;  // glibc's isinf(-inf) is -1
    }
    return inf;
}

tn_status
tn_lapack_gesdd(int dtype, int64_t batch, int64_t m, int64_t n, char jobz, void *a, void *s, void *u, void *vt,
                int32_t *info)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && m * n > 0 && (jobz == 'N' || jobz == 'S' || jobz == 'A')) {
        int64_t k = m < n ? m : n, nu = jobz == 'N' ? 0 : m * (jobz == 'A' ? m : k), nv = jobz == 'N' ? 0 : n * (jobz == 'A' ? n : k);
        double *wa = widened(a, batch * m * n), *ws = widened(NULL, batch * k);
        double *wu = jobz == 'N' ? NULL : widened(NULL, batch * nu), *wv = jobz == 'N' ? NULL : widened(NULL, batch * nv);
        tn_status st = wa && ws && (jobz == 'N' || (wu && wv))
                           ? tn_lapack_gesdd(TN_DTYPE_F64, batch, m, n, jobz, wa, ws, wu, wv, info)
                           : TN_ERR_NOMEM;
        if (st == TN_OK) {
            narrow_into(s, ws, batch * k);
            if (jobz != 'N') {
                narrow_into(u, wu, batch * nu);
                narrow_into(vt, wv, batch * nv);
            }
        }
        free(wa);
        free(ws);
        free(wu);
        free(wv);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(m) || !fits(n) || !fits(m * n) || !fits(m * m) || !fits(n * n) ||
        (jobz != 'N' && jobz != 'S' && jobz != 'A'))
        return TN_ERR_VALUE;
    int64_t k = m < n ? m : n;
    int64_t ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
    if (batch == 0 || k == 0) {
        for (int64_t b = 0; b < batch; b++)
            info[b] = 0;
        return TN_OK;
    }
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lda = lm, ldu = lm, ldvt = jobz == 'N' ? 1 : (lapack_int)vrows;
    lapack_int lwork = -1, i = 0;
    double wq[2] = {0}, dummy[1];
    lapack_int *iwork = malloc(sizeof(lapack_int) * (size_t)(8 * k));
    if (!iwork)
        return TN_ERR_NOMEM;
    LAPACK_dgesdd(&jobz, &lm, &ln, (double *)a, &lda, (double *)s, dummy, &ldu, dummy, &ldvt, wq, &lwork, iwork, &i);
    tn_lapack_xerbla_take(); /* a workspace query: the calls repeat its arguments */
    lwork = wq[0] < 1 ? 1 : (lapack_int)wq[0];
    size_t es = tn_dtype_size(dtype);
    void *work = malloc((size_t)lwork * es);
    if (!work) {
        free(iwork);
        return TN_ERR_NOMEM;
    }
    for (int64_t b = 0; b < batch; b++) {
        char *ab = (char *)a + (size_t)(b * m * n) * es, *sb = (char *)s + (size_t)(b * k) * es;
        char *ub = jobz == 'N' ? (char *)dummy : (char *)u + (size_t)(b * m * ucols) * es;
        char *vb = jobz == 'N' ? (char *)dummy : (char *)vt + (size_t)(b * vrows * n) * es;
        if (nonfinite_kind((const double *)ab, m * n) == 1) {
            for (int64_t j = 0; j < k; j++)
                ((double *)sb)[j] = NAN;
            info[b] = TN_GESDD_INF;
            continue;
        }
        i = 0;
        LAPACK_dgesdd(&jobz, &lm, &ln, (double *)ab, &lda, (double *)sb, (double *)ub, &ldu, (double *)vb, &ldvt, work, &lwork, iwork, &i);
        info[b] = xerbla_info(i);
    }
    free(work);
    free(iwork);
    return TN_OK;
}

// geqrf
tn_status
tn_lapack_geqrf(int dtype, int64_t batch, int64_t m, int64_t n, void *a, void *tau)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && m * n > 0) {
        int64_t k = m < n ? m : n;
        double *wa = widened(a, batch * m * n), *wt = widened(NULL, batch * k);
        tn_status st = wa && wt ? tn_lapack_geqrf(TN_DTYPE_F64, batch, m, n, wa, wt) : TN_ERR_NOMEM;
        if (st == TN_OK) {
            narrow_into(a, wa, batch * m * n);
            narrow_into(tau, wt, batch * k);
        }
        free(wa);
        free(wt);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(m) || !fits(n) || !fits(m * n))
        return TN_ERR_VALUE;
    int64_t k = m < n ? m : n;
    if (batch == 0 || k == 0)
        return TN_OK;
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lwork = -1, i = 0;
    double wq[2] = {0};
    LAPACK_dgeqrf(&lm, &ln, (double *)a, &lm, (double *)tau, wq, &lwork, &i);
    tn_lapack_xerbla_take(); /* a workspace query: the calls repeat its arguments */
    lwork = wq[0] < 1 ? 1 : (lapack_int)wq[0];
    size_t es = tn_dtype_size(dtype);
    void *work = malloc((size_t)lwork * es);
    if (!work)
        return TN_ERR_NOMEM;
    for (int64_t b = 0; b < batch; b++) {
        char *ab = (char *)a + (size_t)(b * m * n) * es, *tb = (char *)tau + (size_t)(b * k) * es;
        LAPACK_dgeqrf(&lm, &ln, (double *)ab, &lm, (double *)tb, work, &lwork, &i);
        if ((i = xerbla_info(i)) < 0)
            break;
    }
    free(work);
    return i < 0 ? TN_ERR_VALUE : TN_OK;
}

// orgqr
tn_status
tn_lapack_orgqr(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k, void *a, const void *tau)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && m * n > 0) {
        double *wa = widened(a, batch * m * n), *wt = widened(tau, batch * k);
        tn_status st = wa && wt ? tn_lapack_orgqr(TN_DTYPE_F64, batch, m, n, k, wa, wt) : TN_ERR_NOMEM;
        if (st == TN_OK)
            narrow_into(a, wa, batch * m * n);
        free(wa);
        free(wt);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(m) || !fits(n) || !fits(k) || !fits(m * n) || n > m || k > n)
        return TN_ERR_VALUE;
    if (batch == 0 || n == 0)
        return TN_OK;
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lk = (lapack_int)k, lwork = -1, i = 0;
    double wq[2] = {0};
    LAPACK_dorgqr(&lm, &ln, &lk, (double *)a, &lm, (const double *)tau, wq, &lwork, &i);
    tn_lapack_xerbla_take(); /* a workspace query: the calls repeat its arguments */
    lwork = wq[0] < 1 ? 1 : (lapack_int)wq[0];
    size_t es = tn_dtype_size(dtype);
    void *work = malloc((size_t)lwork * es);
    if (!work)
        return TN_ERR_NOMEM;
    for (int64_t b = 0; b < batch; b++) {
        char *ab = (char *)a + (size_t)(b * m * n) * es;
        const char *tb = (const char *)tau + (size_t)(b * k) * es;
        LAPACK_dorgqr(&lm, &ln, &lk, (double *)ab, &lm, (const double *)tb, work, &lwork, &i);
        if ((i = xerbla_info(i)) < 0)
            break;
    }
    free(work);
    return i < 0 ? TN_ERR_VALUE : TN_OK;
}

// sytrf
tn_status
tn_lapack_sytrf(int dtype, int64_t batch, int64_t n, void *a, int32_t *piv, int32_t *info)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && n > 0) {
        double *w = widened(a, batch * n * n);
        if (!w)
            return TN_ERR_NOMEM;
        tn_status st = tn_lapack_sytrf(TN_DTYPE_F64, batch, n, w, piv, info);
        narrow_into(a, w, batch * n * n);
        free(w);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(n) || !fits(n * n))
        return TN_ERR_VALUE;
    if (n == 0 || batch == 0) {
        for (int64_t b = 0; b < batch; b++)
            info[b] = 0;
        return TN_OK;
    }
    lapack_int ln = (lapack_int)n, lwork = -1, i = 0;
    char uplo = 'L';
    double wq[2] = {0};
    LAPACK_dsytrf(&uplo, &ln, (double *)a, &ln, piv, wq, &lwork, &i);
    tn_lapack_xerbla_take(); /* a workspace query: the calls repeat its arguments */
    lwork = wq[0] < 1 ? 1 : (lapack_int)wq[0];
    double *work = malloc(sizeof(double) * (size_t)lwork);
    if (!work)
        return TN_ERR_NOMEM;
    for (int64_t b = 0; b < batch; b++) {
        i = 0;
        LAPACK_dsytrf(&uplo, &ln, (double *)a + b * n * n, &ln, piv + b * n, work, &lwork, &i);
        info[b] = xerbla_info(i);
    }
    free(work);
    return TN_OK;
}

// sytrs
tn_status
tn_lapack_sytrs(int dtype, int64_t batch, int64_t n, int64_t k, const void *ld, const int32_t *piv, void *b)
{
    if (dtype == TN_DTYPE_F32 && batch > 0 && n * k > 0) {
        double *l = widened(ld, batch * n * n), *w = widened(b, batch * n * k);
        tn_status st = l && w ? tn_lapack_sytrs(TN_DTYPE_F64, batch, n, k, l, piv, w) : TN_ERR_NOMEM;
        if (st == TN_OK)
            narrow_into(b, w, batch * n * k);
        free(l);
        free(w);
        return st;
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || !fits(n) || !fits(k) || !fits(n * n) || !fits(n * k))
        return TN_ERR_VALUE;
    if (n == 0 || k == 0)
        return TN_OK;
    lapack_int ln = (lapack_int)n, lk = (lapack_int)k, info = 0;
    char uplo = 'L';
    for (int64_t i = 0; i < batch && info >= 0; i++) {
        LAPACK_dsytrs(&uplo, &ln, &lk, (const double *)ld + i * n * n, &ln, piv + i * n, (double *)b + i * n * k, &ln, &info);
        info = xerbla_info(info);
    }
    return info < 0 ? TN_ERR_VALUE : TN_OK;
}

// lstsq

/* Note [lstsq of a NaN]: MKL, under upstream's wheel, refuses a matrix holding a NaN as an illegal
 * argument (info = -(its position): A is gels' 5th, the others' 4th; B gels' 7th, the others' 6th),
 * which upstream raises ("Argument 4 has illegal value"); the reference LAPACK's dgelsd hands the
 * NaN norm to dlascl, whose XERBLA stopped the process (ours returns, Note [LAPACK's XERBLA], but
 * dgelsd then goes on with the NaN and its info is not MKL's). So a problem whose A, or else whose B (its
 * first m rows), holds a NaN is not handed to LAPACK: its info is MKL's. An infinite element of A
 * with the SVD drivers is not handed over either (TN_LSTSQ_INF): the reference dgelsd scales it into
 * a NaN and stops in dlascl's XERBLA, dgelss never returns, and MKL's answer depends on where the
 * element sits (info -4, a failure to converge, or rank 0). `w` doubles per element. */
static int32_t
lstsq_nan_info(tn_lstsq_driver driver, const double *a, const double *b, int64_t m, int64_t n, int64_t ld,
               int64_t nrhs, int w)
{
    bool svd = driver == TN_LSTSQ_GELSD || driver == TN_LSTSQ_GELSS;
    int inf = 0;
    for (int64_t i = 0; i < w * m * n; i++) {
        if (isnan(a[i]))
            return driver == TN_LSTSQ_GELS ? -5 : -4;
        inf |= svd && isinf(a[i]);
    }
    if (inf)
        return TN_LSTSQ_INF;
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < w * m; i++)
            if (isnan(b[w * j * ld + i]))
                return driver == TN_LSTSQ_GELS ? -7 : -6;
    return 0;
}

static void
lstsq_call(tn_lstsq_driver driver, lapack_int m, lapack_int n, lapack_int nrhs, double *a, double *b, double *s,
           double rcond, lapack_int *jpvt, lapack_int *rank, double *work, lapack_int lwork, lapack_int *iwork,
           lapack_int *info)
{
    lapack_int lda = m > 1 ? m : 1, ldb = m > n ? m : n;
    char trans = 'N';
    ldb = ldb > 1 ? ldb : 1;
    switch (driver) {
    case TN_LSTSQ_GELS:
        LAPACK_dgels(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info);
        break;
    case TN_LSTSQ_GELSY:
        LAPACK_dgelsy(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt, &rcond, rank, work, &lwork, info);
        break;
    case TN_LSTSQ_GELSD:
        LAPACK_dgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
        break;
    case TN_LSTSQ_GELSS:
        LAPACK_dgelss(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, info);
        break;
    }
}

/* the complex drivers (complex128; complex64 widened to it as float32 is to float64) */
static void
lstsq_call_z(tn_lstsq_driver driver, lapack_int m, lapack_int n, lapack_int nrhs, double _Complex *a,
             double _Complex *b, double *s, double rcond, lapack_int *jpvt, lapack_int *rank, double _Complex *work,
             lapack_int lwork, double *rwork, lapack_int *iwork, lapack_int *info)
{
    lapack_int lda = m > 1 ? m : 1, ldb = m > n ? m : n;
    char trans = 'N';
    ldb = ldb > 1 ? ldb : 1;
    switch (driver) {
    case TN_LSTSQ_GELS:
        LAPACK_zgels(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info);
        break;
    case TN_LSTSQ_GELSY:
        LAPACK_zgelsy(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt, &rcond, rank, work, &lwork, rwork, info);
        break;
    case TN_LSTSQ_GELSD:
        LAPACK_zgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, rwork, iwork, info);
        break;
    case TN_LSTSQ_GELSS:
        LAPACK_zgelss(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, rwork, info);
        break;
    }
}

static tn_status
lstsq_z(tn_lstsq_driver driver, int64_t batch, const int64_t *a_index, int64_t m, int64_t n, int64_t nrhs,
        const double _Complex *a, double _Complex *b, double rcond, int64_t *rank, double *s, int32_t *info)
{
    int64_t ld = m > n ? m : n, k = m < n ? m : n;
    bool svd = driver == TN_LSTSQ_GELSD || driver == TN_LSTSQ_GELSS;
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lnrhs = (lapack_int)nrhs, lrank = 0, i = 0, lwork = -1;
    lapack_int iwq = 1;
    double _Complex wq[2] = {0};
    double rwq[2] = {0};
    double _Complex *aw = malloc(sizeof(double _Complex) * (size_t)(m * n > 0 ? m * n : 1));
    double *sw = malloc(sizeof(double) * (size_t)(k > 0 ? k : 1));
    lapack_int *jpvt = calloc((size_t)(n > 0 ? n : 1), sizeof(lapack_int));
    double _Complex *work = NULL, *bz = NULL;
    double *rwork = NULL;
    lapack_int *iwork = NULL;
    tn_status st = TN_ERR_NOMEM;
    if (!aw || !sw || !jpvt)
        goto done;
    if (driver == TN_LSTSQ_GELSD && nrhs == 0 && k > 0) {  /* see tn_lapack_lstsq's real path */
        for (int64_t p = 0; p < batch; p++)
            info[a_index ? a_index[p] : p] = -4;
        st = TN_OK;
        goto done;
    }
    bz = driver == TN_LSTSQ_GELSS && nrhs == 0 && k > 0 ? calloc((size_t)ld, sizeof(double _Complex)) : NULL;
    if (bz)
        lnrhs = 1;  /* see tn_lapack_lstsq's real path */
    if (m * n > 0)
        memcpy(aw, a, sizeof(double _Complex) * (size_t)(m * n));
    lstsq_call_z(driver, lm, ln, lnrhs, aw, bz ? bz : b, sw, rcond, jpvt, &lrank, wq, lwork, rwq, &iwq, &i);
    tn_lapack_xerbla_take(); /* a workspace query: the calls repeat its arguments */
    lwork = creal(wq[0]) < 1 ? 1 : (lapack_int)creal(wq[0]);
    /* rwork: 2n (gelsy), 5 min(m, n) (gelss), gelsd's query answer (upstream's sizes) */
    int64_t lrwork = driver == TN_LSTSQ_GELSY ? 2 * n : driver == TN_LSTSQ_GELSS ? 5 * k : (int64_t)rwq[0];
    lrwork = lrwork > 1 ? lrwork : 1;
    lapack_int liwork = iwq > 1 ? iwq : 1;
    work = malloc(sizeof(double _Complex) * (size_t)lwork);
    rwork = malloc(sizeof(double) * (size_t)lrwork);
    iwork = malloc(sizeof(lapack_int) * (size_t)liwork);
    if (!work || !rwork || !iwork)
        goto done;
    for (int64_t p = 0; p < batch; p++) {
        int64_t ai = a_index ? a_index[p] : p;
        if (m * n > 0)
            memcpy(aw, a + ai * m * n, sizeof(double _Complex) * (size_t)(m * n));
        memset(jpvt, 0, sizeof(lapack_int) * (size_t)(n > 0 ? n : 1));
        if (bz)
            memset(bz, 0, sizeof(double _Complex) * (size_t)ld);
        int32_t nan_info = lstsq_nan_info(driver, (const double *)aw, (const double *)(b + p * ld * nrhs), m, n, ld,
                                          nrhs, 2);
        if (nan_info) {  /* Note [lstsq of a NaN] */
            info[ai] = nan_info;
            continue;
        }
        double *sb = svd && s ? s + ai * k : sw;
        i = 0;
        lrank = 0;
        lstsq_call_z(driver, lm, ln, lnrhs, aw, bz ? bz : b + p * ld * nrhs, sb, rcond, jpvt, &lrank, work, lwork, rwork,
                     iwork, &i);
        info[ai] = xerbla_info(i);
        if (rank)
            rank[ai] = lrank;
    }
    st = TN_OK;
done:
    free(aw);
    free(sw);
    free(jpvt);
    free(work);
    free(rwork);
    free(iwork);
    free(bz);
    return st;
}

/* Note [float32 rcond]: a single-precision problem solved by the double routines (Note [float32
 * through double LAPACK]) must determine its rank as the single routines do, which upstream calls
 * with rcond cast to float (static_cast<value_t>(rcond)): sgelss takes an rcond below 0 as
 * slamch('P') (FLT_EPSILON), sgelsd's slalsd one at most 0 or at least 1 as slamch('E')
 * (FLT_EPSILON / 2); handed to dgelss/dgelsd they would be double's and keep singular values down
 * to 1e-16 of the largest, a float32 rounding residue among them (its solution divided by it). */
static double
lstsq_single_rcond(tn_lstsq_driver driver, double rcond)
{
    /* float's rounding; past its range (a conversion C leaves undefined) float's infinity */
    double rc = isfinite(rcond) && fabs(rcond) > FLT_MAX ? copysign(INFINITY, rcond) : (double)(float)rcond;
    if (driver == TN_LSTSQ_GELSS && rc < 0)
        return FLT_EPSILON;
    if (driver == TN_LSTSQ_GELSD && (rc <= 0 || rc >= 1))
        return FLT_EPSILON / 2;
    return rc;
}

tn_status
tn_lapack_lstsq(int dtype, tn_lstsq_driver driver, int64_t batch, const int64_t *a_index, int64_t a_batch, int64_t m,
                int64_t n, int64_t nrhs, const void *a, void *b, double rcond, int64_t *rank, void *s, int32_t *info)
{
    int64_t ld = m > n ? m : n, k = m < n ? m : n;
    bool svd = driver == TN_LSTSQ_GELSD || driver == TN_LSTSQ_GELSS;
    if ((dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_C64) && batch > 0) {
        int64_t w = dtype == TN_DTYPE_C64 ? 2 : 1;  /* a complex64 is two floats, widened to two doubles */
        double *wa = widened(a, w * a_batch * m * n), *wb = widened(b, w * batch * ld * nrhs);
        double *ws = svd ? widened(NULL, a_batch * k) : NULL;
        tn_status st = wa && wb && (!svd || ws)
                           ? tn_lapack_lstsq(dtype == TN_DTYPE_C64 ? TN_DTYPE_C128 : TN_DTYPE_F64, driver, batch,
                                             a_index, a_batch, m, n, nrhs, wa, wb, lstsq_single_rcond(driver, rcond),
                                             rank, ws, info)
                           : TN_ERR_NOMEM;
        if (st == TN_OK) {
            narrow_into(b, wb, w * batch * ld * nrhs);
            if (svd && s)
                narrow_into(s, ws, a_batch * k);
        }
        free(wa);
        free(wb);
        free(ws);
        return st;
    }
    if (dtype == TN_DTYPE_C128) {
        if (batch < 0 || a_batch < 0 || !fits(m) || !fits(n) || !fits(nrhs) || !fits(m * n) || !fits(ld * nrhs))
            return TN_ERR_VALUE;
        return batch == 0 ? TN_OK : lstsq_z(driver, batch, a_index, m, n, nrhs, a, b, rcond, rank, s, info);
    }
    if (!real_dtype(dtype))
        return TN_ERR_DTYPE;
    if (batch < 0 || a_batch < 0 || !fits(m) || !fits(n) || !fits(nrhs) || !fits(m * n) || !fits(ld * nrhs))
        return TN_ERR_VALUE;
    if (batch == 0)
        return TN_OK;
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lnrhs = (lapack_int)nrhs, lrank = 0, i = 0, lwork = -1;
    lapack_int iwq = 1;
    double wq[2] = {0};
    double *aw = malloc(sizeof(double) * (size_t)(m * n > 0 ? m * n : 1));
    double *sw = malloc(sizeof(double) * (size_t)(k > 0 ? k : 1));
    lapack_int *jpvt = calloc((size_t)(n > 0 ? n : 1), sizeof(lapack_int));
    if (!aw || !sw || !jpvt) {
        free(aw);
        free(sw);
        free(jpvt);
        return TN_ERR_NOMEM;
    }
    if (driver == TN_LSTSQ_GELSD && nrhs == 0 && k > 0) {
        /* dgelsd hands nrhs = 0 to dlalsd, which rejects it through XERBLA (the reference one
         * stopped the process; Note [LAPACK's XERBLA]): answered as LAPACK's info for its 4th
         * argument without the call (MKL returns that info; upstream raises it) */
        for (int64_t p = 0; p < batch; p++)
            info[a_index ? a_index[p] : p] = -4;
        free(aw);
        free(sw);
        free(jpvt);
        return TN_OK;
    }
    /* gelss with no right-hand side crashes inside LAPACK (MKL's too: upstream segfaults); its rank
     * and singular values are those of a solve against one zero column */
    double *bz = driver == TN_LSTSQ_GELSS && nrhs == 0 && k > 0 ? calloc((size_t)ld, sizeof(double)) : NULL;
    if (bz)
        lnrhs = 1;
    if (m * n > 0)
        memcpy(aw, a, sizeof(double) * (size_t)(m * n));
    /* the workspace query, once for the batch (every problem has the same sizes) */
    lstsq_call(driver, lm, ln, lnrhs, aw, bz ? bz : (double *)b, sw, rcond, jpvt, &lrank, wq, lwork, &iwq, &i);
    tn_lapack_xerbla_take(); /* a workspace query: the calls repeat its arguments */
    lwork = wq[0] < 1 ? 1 : (lapack_int)wq[0];
    lapack_int liwork = iwq > 1 ? iwq : 1;
    double *work = malloc(sizeof(double) * (size_t)lwork);
    lapack_int *iwork = malloc(sizeof(lapack_int) * (size_t)liwork);
    if (!work || !iwork) {
        free(aw);
        free(sw);
        free(jpvt);
        free(work);
        free(iwork);
        free(bz);
        return TN_ERR_NOMEM;
    }
    for (int64_t p = 0; p < batch; p++) {
        int64_t ai = a_index ? a_index[p] : p;
        if (m * n > 0)
            memcpy(aw, (const double *)a + ai * m * n, sizeof(double) * (size_t)(m * n));
        memset(jpvt, 0, sizeof(lapack_int) * (size_t)(n > 0 ? n : 1));
        if (bz)
            memset(bz, 0, sizeof(double) * (size_t)ld);
        int32_t nan_info = lstsq_nan_info(driver, aw, (const double *)b + p * ld * nrhs, m, n, ld, nrhs, 1);
        if (nan_info) {  /* Note [lstsq of a NaN] */
            info[ai] = nan_info;
            continue;
        }
        double *sb = svd && s ? (double *)s + ai * k : sw;
        i = 0;
        lrank = 0;
        lstsq_call(driver, lm, ln, lnrhs, aw, bz ? bz : (double *)b + p * ld * nrhs, sb, rcond, jpvt, &lrank, work,
                   lwork, iwork, &i);
        info[ai] = xerbla_info(i);
        if (rank)
            rank[ai] = lrank;
    }
    free(aw);
    free(sw);
    free(jpvt);
    free(work);
    free(iwork);
    free(bz);
    return TN_OK;
}
