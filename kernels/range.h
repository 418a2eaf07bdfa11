/* Range factories' fills: logspace and linspace write elements [begin, end) of a contiguous
 * output of `steps` elements, so a caller can split the length into parallel chunks (each chunk
 * computes exactly what the whole fill computes there; Note [logspace values] in range.c).
 * Adding a range factory: a fill here taking tn_range_args, its dtype switch with a default that
 * returns TN_ERR_DTYPE.
 */
#ifndef TN_KERNELS_RANGE_H
#define TN_KERNELS_RANGE_H

#include <stdint.h>

#include "element.h"

typedef struct {
    int dtype;
    int64_t steps;   /* the whole length (the two halves meet at steps / 2) */
    void *out;       /* element 0 of the contiguous output */
    double base;     /* logspace */
    /* start and end as the dtype holds them (upstream's Scalar::to<scalar_t>): floating and
     * complex dtypes in re/im, integer dtypes in is/ie */
    double s_re, s_im, e_re, e_im;
    int64_t is, ie;
} tn_range_args;

/* logspace: base ** (start + step * i) for i < steps / 2, base ** (end - step * (steps - 1 - i))
 * from there; steps >= 2. uint8..int64, float16, bfloat16, float32, float64, complex64,
 * complex128; other dtypes give TN_ERR_DTYPE. */
tn_status tn_logspace(const tn_range_args *a, int64_t begin, int64_t end);

/* linspace: start + step * i, then end - step * (steps - 1 - i); steps >= 2. uint8..int64,
 * float16, bfloat16, float32, float64, complex64, complex128. */
tn_status tn_linspace(const tn_range_args *a, int64_t begin, int64_t end);

#endif /* TN_KERNELS_RANGE_H */
