/* What ops/matmul.c shares with the other op families (the autograd compositions): geometry only,
 * inline, so a composition that asks it does not call into matmul.c (which calls the
 * compositions: tests/python/test_layout.py forbids the cycle). */
#ifndef TN_OPS_MATMUL_H
#define TN_OPS_MATMUL_H

#include "runtime/tensor.h"

/* linear's choice of its fused path (upstream's is_bias_likely_fusable): a bias with one
 * dimension of size other than 1, contiguous, with a contiguous input, goes to addmm(bias,
 * input flattened to 2-D, weight.t()) and must expand to its rows; any other bias is added
 * in place to matmul(input, weight.t()), broadcasting there. A 2-D input always fuses. */
static inline int
tn_linear_fuses_bias(const TensorObject *input, const TensorObject *bias)
{
    if (!bias)
        return 0;
    if (input->ndim == 2)
        return 1;
    int big = 0;
    for (int i = 0; i < bias->ndim; i++)
        big += bias->sizes[i] != 1;
    return (bias->ndim == 1 || big == 1) && tn_tensor_is_contiguous(bias) && tn_tensor_is_contiguous(input);
}

#endif /* TN_OPS_MATMUL_H */
