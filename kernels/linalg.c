/* Dense linear algebra kernels; see linalg.h. */
#include "linalg.h"

#include <stdlib.h>

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
