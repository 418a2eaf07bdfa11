/* What ops/view.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_VIEW_H
#define TN_OPS_VIEW_H

#include "runtime/tensor.h"

/* narrow's argument checks (0-dim, negative length, dim, start in [-size, size], start + length
 * within the size), upstream's classes and messages; on success *d is the wrapped dim and *start
 * the non-negative start. -1 with the error set. */
int tn_narrow_check(const TensorObject *self, int64_t dim, int64_t *start, int64_t length, int64_t *d);
/* unflatten of a 0-dim self: upstream's RuntimeError (its sym_size(dim) fails); 0 otherwise */
int tn_unflatten_check(TensorObject *self, int64_t dim);
/* unflatten's sizes (non-empty, one -1 inferred) against self's dim d into inner, with upstream's
 * messages (handle_unflatten_exception); -1 with the error set */
int tn_unflatten_sizes(const TensorObject *self, int64_t d, tn_ints sizes, int64_t *inner);
/* at::infer_size: shape's one -1 inferred for numel elements into out, upstream's messages */
int tn_infer_size(tn_ints shape, int64_t numel, int64_t *out);

/* movedim's repeated-dim checks (source, then destination; upstream's messages) */
int tn_movedim_check(int nd, const int64_t *src, const int64_t *dst, Py_ssize_t n);

#endif /* TN_OPS_VIEW_H */
