/* What ops/matmul.c shares with the other op families (the attention composition). */
#ifndef TN_OPS_MATMUL_H
#define TN_OPS_MATMUL_H

#include "runtime/tensor.h"

/* upstream's validate_sdpa_input (attention.cpp), which scaled_dot_product_attention runs before
 * it chooses a path: query, key and value of one dtype and at least 2-d, a mask of bool, float or
 * query's dtype. -1 with the error set. */
int tn_sdpa_check_inputs(const TensorObject *q, const TensorObject *k, const TensorObject *v,
                         const TensorObject *mask);

#endif /* TN_OPS_MATMUL_H */
