/* Indexing: index_select (embedding), gather, scatter / scatter_add / scatter_reduce,
 * index_put, masked_select, nonzero, tril/triu. Indices are int64 and checked: an index out
 * of range returns TN_ERR_VALUE before anything is written. Adding an op: declare it here with
 * its geometry, write it (and its dtype switch) in index.c, sweep it in test_index.c.
 */
#ifndef TN_KERNELS_INDEX_H
#define TN_KERNELS_INDEX_H

#include <stdint.h>

#include "element.h"
#include "loop.h"

/* out[.., j, ..] = src[.., index[j], ..] along one dim. outer walks every other dim
 * (operand 0 = out, 1 = src, element strides); along the dim, src steps by src_stride over
 * src_size entries, out by out_stride over n_index entries. index[j * index_stride] must be in
 * [0, src_size). Embedding is index_select on dim 0 of the weight.
 */
tn_status tn_index_select(int dtype, const tn_loop *outer, int64_t n_index, const int64_t *index,
                          int64_t index_stride, int64_t src_size, int64_t src_stride,
                          int64_t out_stride, void *out, const void *src);

/* out = src gathered along one dim: out[p] = src[base(p) + index[p] * src_dim_stride].
 * loop walks the index's shape: operand 0 = out, 1 = src with the gather dim's stride set to
 * 0, 2 = index. index values must be in [0, src_dim_size).
 */
tn_status tn_gather(int dtype, const tn_loop *loop, int64_t src_dim_size, int64_t src_dim_stride,
                    void *out, const void *src, const int64_t *index);

typedef enum {
    TN_SCATTER_ASSIGN = 0,  /* scatter / scatter_ (the last write wins, in index order) */
    TN_SCATTER_SUM,         /* scatter_add, scatter(reduce='add'), scatter_reduce 'sum' */
    TN_SCATTER_PROD,        /* scatter(reduce='multiply'), scatter_reduce 'prod' */
    TN_SCATTER_MEAN,        /* scatter_reduce 'mean' (integers: floor division) */
    TN_SCATTER_AMAX,        /* scatter_reduce 'amax' (NaN propagates) */
    TN_SCATTER_AMIN,
    TN_NUM_SCATTER
} tn_scatter_reduce;

/* In place on self: for each position p of the index's shape, combine src[p] into
 * self[base(p) + index[p] * self_dim_stride]. loop walks the index's shape: operand 0 = self
 * with the scatter dim's stride set to 0, 1 = src (stride 0 to scatter a scalar), 2 = index.
 * include_self == 0 (scatter_reduce) first resets every target position to the reduction's
 * identity and leaves self out of the mean's count. Contributions are combined in the
 * index's row-major order, as upstream's serial loop does. index in [0, self_dim_size).
 */
tn_status tn_scatter(int dtype, int reduce, const tn_loop *loop, int64_t self_dim_size,
                     int64_t self_dim_stride, void *self, const void *src, const int64_t *index,
                     int include_self);

/* scatter_add: tn_scatter with TN_SCATTER_SUM, include_self = 1. */
tn_status tn_scatter_add(int dtype, const tn_loop *loop, int64_t self_dim_size,
                         int64_t self_dim_stride, void *self, const void *src,
                         const int64_t *index);

/* index_put / index_put_: for i < n, self[offsets[i]] = values[i * values_stride] (or +=
 * when accumulate, in order, rounding to the dtype each time as upstream's serial loop does;
 * complex64 / complex128 part by part).
 * offsets are element offsets from self, already linearised and wrapped by the caller; each
 * must lie in [lo, hi] or nothing is written and TN_ERR_VALUE comes back.
 */
tn_status tn_index_put(int dtype, int64_t n, const int64_t *offsets, const void *values,
                       int64_t values_stride, void *self, int accumulate, int64_t lo, int64_t hi);

/* masked_select in two calls: count, then select. loop walks the broadcast shape in row-major
 * order (the caller must not reorder its dims): operand 0 = mask (bool or uint8), operand 1 =
 * input (for tn_masked_select). out receives the selected elements contiguously.
 */
tn_status tn_masked_count(int mask_dtype, const tn_loop *loop, const void *mask, int64_t *count);
/* dst[i] = value where the bool mask is set, written element by element in loop order (operand 0
 * dst, may repeat elements: an expanded tensor; operand 1 mask), nothing read from dst. */
tn_status tn_masked_fill(int dtype, const tn_loop *loop, void *dst, const void *mask, tn_kscalar value);
/* ... with the element's bytes given (any movable dtype: complex and uint16..64 too). */
tn_status tn_masked_fill_bytes(int dtype, const tn_loop *loop, void *dst, const void *mask, const void *value);
tn_status tn_masked_select(int dtype, int mask_dtype, const tn_loop *loop, const void *mask,
                           const void *in, void *out, int64_t count);

/* nonzero over a tensor of ndim dims (sizes, element strides; ndim 0 is one element):
 * tn_nonzero_count counts, tn_nonzero writes count x ndim int64 coordinates, row-major order
 * (out row stride ndim). NaN is nonzero.
 */
tn_status tn_nonzero_count(int dtype, int ndim, const int64_t *sizes, const int64_t *strides,
                           const void *in, int64_t *count);
tn_status tn_nonzero(int dtype, int ndim, const int64_t *sizes, const int64_t *strides,
                     const void *in, int64_t *out, int64_t count);

/* tril (upper == 0: keep j - i <= diagonal) or triu (upper != 0: keep j - i >= diagonal) on
 * the last two dims; the rest becomes 0. batch walks the leading dims (operand 0 = out base,
 * 1 = in base); rows x cols matrices with the given element strides. out may equal in.
 */
tn_status tn_tril_triu(int dtype, int upper, int64_t diagonal, const tn_loop *batch, int64_t rows,
                       int64_t cols, int64_t out_rs, int64_t out_cs, int64_t in_rs,
                       int64_t in_cs, void *out, const void *in);

#endif /* TN_KERNELS_INDEX_H */
