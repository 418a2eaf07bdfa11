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

/* indices modulo the size of self's dim d (a new tensor), as upstream's take_along_dim. */
PyObject *tn_take_along_dim_wrap(const tn_op *overload, const TensorObject *self, TensorObject *indices, int64_t d);

#endif /* TN_OPS_COMPOSE_H */
