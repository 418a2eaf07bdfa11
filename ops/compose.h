/* What ops/compose.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_COMPOSE_H
#define TN_OPS_COMPOSE_H

#include "runtime/tensor.h"

/* take_along_dim's checks (upstream's messages) and ATen's _take_along_dim_helper shapes: dim
 * wrapped into *d; self and indices broadcast against each other everywhere but along dim into
 * sshape and ishape (self->ndim entries each). -1 with the error set. */
int tn_take_along_dim_shapes(const TensorObject *self, const TensorObject *indices, int64_t dim, int64_t *d,
                             int64_t *sshape, int64_t *ishape);

/* diff's checks (ATen's diff_check, upstream's messages); dim wrapped into *d. -1 with the
 * error set. */
int tn_diff_check(TensorObject *self, int64_t n, int64_t dim, TensorObject *prepend, TensorObject *append, int64_t *d);

/* upstream's checkDeviceType of take_along_dim: the indices on self's device */
int tn_take_along_dim_check_device(const TensorObject *self, const TensorObject *indices);

/* indices modulo the size of self's dim d (a new tensor), as upstream's take_along_dim. */
PyObject *tn_take_along_dim_wrap(const tn_op *overload, const TensorObject *self, TensorObject *indices, int64_t d);

/* upstream's validate_sdpa_input (attention.cpp), which scaled_dot_product_attention runs before
 * it chooses a path: query, key and value of one dtype and at least 2-d, a mask of bool, float or
 * query's dtype. -1 with the error set. */
int tn_sdpa_check_inputs(const TensorObject *q, const TensorObject *k, const TensorObject *v,
                         const TensorObject *mask);
/* upstream's CPU backend choice (use_flash_attention_cpp) runs its gates in order: no dropout,
 * 4-D query, key and value, one batch size and one head count (under enable_gqa, key's and
 * value's heads dividing query's), then check_attn_mask_shape, which reads the size(-2) of a mask
 * that does not require grad: an IndexError for a mask of fewer than 2 dims, on any device. -1
 * with that error. */
int tn_sdpa_flash_mask_check(const TensorObject *q, const TensorObject *k, const TensorObject *v,
                             TensorObject *mask, double dropout_p, int enable_gqa);

#endif /* TN_OPS_COMPOSE_H */
