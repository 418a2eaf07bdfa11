/* Closeness and equality of two tensors: isclose (elementwise, and its all() for allclose) and
 * equal. See Note [isclose rounding] in compare.c for the arithmetic.
 * Adding a dtype: a case in the compute switch of compare.c and a reference case in
 * tests/kernels/test_compare.c.
 */
#ifndef TN_KERNELS_COMPARE_H
#define TN_KERNELS_COMPARE_H

#include "element.h"
#include "loop.h"

/* What isclose computes with: dtype of both inputs; default_dtype is torch's default float
 * dtype, in which integer and bool inputs are compared. */
typedef struct {
    int dtype;
    int default_dtype;
    double rtol, atol;
    bool equal_nan;
} tn_isclose_params;

/* out[i] = isclose(a[i], b[i]). Loop operands: 0 out (bool), 1 a, 2 b. With out NULL, only
 * *all is computed (allclose), stopping at the first element that is not close.
 * TN_ERR_DTYPE for a dtype without a loop (bool, the integers, f16, bf16, f32, f64, c64, c128 have). */
tn_status tn_isclose(const tn_loop *l, const tn_isclose_params *p, uint8_t *out, const void *a, const void *b,
                     bool *all);

/* *result = every a[i] == b[i] (IEEE: NaN is unequal, -0 == +0). Loop operands: 1 a, 2 b
 * (operand 0 unused). Stops at the first difference. */
tn_status tn_equal(const tn_loop *l, int dtype, const void *a, const void *b, bool *result);

/* *result = some a[i] is NaN (a float or complex dtype; false for the others). Operand 1. */
tn_status tn_any_nan(const tn_loop *l, int dtype, const void *a, bool *result);

#endif /* TN_KERNELS_COMPARE_H */
