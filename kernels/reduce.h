/* Reductions: sum/prod/mean/max/min/any/all/norm/logsumexp/count over a region, arg-max/min
 * along one dim, var/std (+ mean), scans (cumsum/cumprod/cummax/cummin/logcumsumexp) and
 * histc's bin counts.
 * Adding a reduction: a TN_RED_* entry (and its name in tn_reduce_op_name), a case in
 * reduce.c's op switch, and a sweep in tests/kernels/test_reduce.c. See Note [Sum order] in
 * reduce.c for how float sums follow upstream's accumulation order.
 */
#ifndef TN_KERNELS_REDUCE_H
#define TN_KERNELS_REDUCE_H

#include <stdint.h>

#include "element.h"
#include "loop.h"

typedef enum {
    TN_RED_SUM = 0,
    TN_RED_PROD,
    TN_RED_MEAN,          /* sum / n in the accumulation type, rounded once */
    TN_RED_MAX,           /* max / min / amax / amin: NaN propagates; empty region -> TN_ERR_VALUE */
    TN_RED_MIN,
    TN_RED_AMAX,
    TN_RED_AMIN,
    TN_RED_ANY,           /* out: bool or uint8, written as 0/1 */
    TN_RED_ALL,
    TN_RED_NORM,          /* vector p-norm, p in `param` (0, 1, 2, inf, -inf, other) */
    TN_RED_LOGSUMEXP,     /* log(sum(exp(x - m))) + m, m = max (0 when |m| is inf) */
    TN_RED_NANSUM,        /* sum with NaN read as 0 */
    TN_RED_NANMEAN,       /* nansum / count of non-NaN, as upstream rounds it */
    TN_RED_COUNT_NONZERO, /* out: int64 */
    TN_RED_NORM_FORMULA,  /* TN_RED_NORM, but a one-element region too is (|x|^p)^(1/p) in the
                           * accumulation type, not |x|: Note [Norm over one element] */
    TN_NUM_REDUCE
} tn_reduce_op;

/* "sum", "prod", ... indexed by tn_reduce_op. */
const char *tn_reduce_op_name(int op);

/* Reduce `in` into `out`. For each output element (outer: operand 0 = output element strides,
 * operand 1 = input base strides, both in elements), reduce the input region of rdim dims
 * with sizes rsizes and input element strides rstrides, innermost first in the order to walk
 * them (the kernel drops size-1 dims and coalesces). in_dtype/out_dtype may differ: sum-like ops read the input converted to
 * out_dtype (as upstream's make_reduction_from_out_ty does); max/min need them equal.
 * An empty region writes the identity (0 for sum, 1 for prod, NaN for mean, ...).
 */
tn_status tn_reduce(tn_reduce_op op, int in_dtype, int out_dtype, const tn_loop *outer, int rdim,
                    const int64_t *rsizes, const int64_t *rstrides, void *out, const void *in,
                    double param);

/* max/min with indices (and argmax/argmin) along one dim of n elements at element stride
 * `stride`. outer: operand 0 = values out (ignored when values == NULL), 1 = index out,
 * 2 = input base. Index of the first extreme; NaN counts as the extreme (first NaN wins).
 * n == 0 -> TN_ERR_VALUE. values has the input dtype.
 */
tn_status tn_reduce_arg(int is_max, int dtype, const tn_loop *outer, int64_t n, int64_t stride,
                        void *values, int64_t *indices, const void *in);

/* var/std over a region (geometry as tn_reduce). out and mean_out have the input dtype (a
 * float dtype); mean_out may be NULL (var/std), otherwise this is var_mean/std_mean. Divisor:
 * max(0, n - correction). Empty region -> NaN.
 */
tn_status tn_reduce_var(int dtype, const tn_loop *outer, int rdim, const int64_t *rsizes,
                        const int64_t *rstrides, void *out, void *mean_out, const void *in,
                        double correction, int take_sqrt);

typedef enum {
    TN_SCAN_CUMSUM = 0,
    TN_SCAN_CUMPROD,
    TN_SCAN_CUMMAX,       /* indices required: last index of the running extreme, NaN sticks */
    TN_SCAN_CUMMIN,
    TN_SCAN_LOGCUMSUMEXP,
    TN_NUM_SCAN
} tn_scan_op;

/* Scan along one dim of n elements. outer: operand 0 = output base, 1 = input base, and
 * operand 2 = index base when indices != NULL (indices step by out_stride along the dim).
 * cumsum/cumprod read the input converted to out_dtype and accumulate as upstream's CPU
 * accumulate type: double for float32/float64, float32 for the half types, int64 for
 * integers. cummax/cummin need in_dtype == out_dtype and indices; logcumsumexp needs a float
 * out_dtype.
 */
tn_status tn_scan(int op, int in_dtype, int out_dtype, const tn_loop *outer, int64_t n,
                  int64_t in_stride, int64_t out_stride, void *out, int64_t *indices,
                  const void *in);

/* histc's counts (ATen's histogramdd_cpu_contiguous, LINEAR_INTERPOLATION, one dim, no
 * weights): every element x of the n contiguous elements at `in` with lo <= x <= hi (NaN never)
 * adds 1 to hist[(int64)((x - lo) * bins / (hi - lo))], that bin computed in the element type
 * (float32 or float64; lo and hi are values of it) and the last bin closed on the right. hist
 * has `bins` elements of the same dtype, zeroed by the caller. Other dtypes: TN_ERR_DTYPE.
 */
tn_status tn_histc(int dtype, const void *in, int64_t n, double lo, double hi, int64_t bins, void *hist);

/* Width in bytes of the vectors whose lane order the float sums reproduce (upstream runs its
 * AVX2 build of these kernels even on AVX-512 machines: 32). Tests may override it with 64;
 * any other value restores the default.
 */
int tn_reduce_vector_bytes(void);
void tn_reduce_set_vector_bytes(int bytes);

#endif /* TN_KERNELS_REDUCE_H */
