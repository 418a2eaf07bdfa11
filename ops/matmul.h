/* What ops/matmul.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_MATMUL_H
#define TN_OPS_MATMUL_H

#include "runtime/tensor.h"

/* linear's choice of its fused path (upstream's is_bias_likely_fusable): a bias with one
 * dimension of size other than 1, contiguous, with a contiguous input, goes to addmm(bias,
 * input flattened to 2-D, weight.t()) and must expand to its rows; any other bias is added
 * in place to matmul(input, weight.t()), broadcasting there. A 2-D input always fuses. */
int tn_linear_fuses_bias(const TensorObject *input, const TensorObject *bias);

#endif /* TN_OPS_MATMUL_H */
