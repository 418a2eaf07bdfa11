/* tn_loop: the geometry of an elementwise loop over up to TN_LOOP_MAX_OPERANDS operands that
 * share one shape. Strides are in elements (not bytes); a 0 stride broadcasts. runtime/ builds
 * it (broadcasting, ordering dims by stride as upstream walks them (Note [Loop order] in
 * runtime/tensor_iter.c), coalescing contiguous dims, dropping size-1 dims) so kernels see the
 * fewest, largest dimensions; operand 0 is the output by convention.
 * tn_loop_next() walks all but the innermost dimension; kernels run the innermost one, or hand
 * a row function to the row driver (tn_loop_run_rows, loop.c) which also spreads rows over threads.
 */
#ifndef TN_KERNELS_LOOP_H
#define TN_KERNELS_LOOP_H

#include <stdint.h>

#include "element.h"

#define TN_LOOP_MAX_DIMS 64
#define TN_LOOP_MAX_OPERANDS 4

typedef struct {
    int ndim;        /* 0 means a single element */
    int noperands;
    int64_t sizes[TN_LOOP_MAX_DIMS];                         /* innermost dimension last */
    int64_t strides[TN_LOOP_MAX_OPERANDS][TN_LOOP_MAX_DIMS];  /* elements */
} tn_loop;

static inline int64_t
tn_loop_numel(const tn_loop *l)
{
    int64_t n = 1;
    for (int d = 0; d < l->ndim; d++)
        n *= l->sizes[d];
    return n;
}

/* Iteration state over the outer dimensions (all but the last). */
typedef struct {
    int64_t index[TN_LOOP_MAX_DIMS];
    int64_t offset[TN_LOOP_MAX_OPERANDS];  /* element offsets of the current row */
} tn_loop_pos;

static inline void
tn_loop_start(const tn_loop *l, tn_loop_pos *p)
{
    for (int d = 0; d < l->ndim; d++)
        p->index[d] = 0;
    for (int k = 0; k < l->noperands; k++)
        p->offset[k] = 0;
}

/* Advance to the next row; returns 0 when done. Rows are the innermost dimension. */
static inline int
tn_loop_next(const tn_loop *l, tn_loop_pos *p)
{
    for (int d = l->ndim - 2; d >= 0; d--) {
        if (++p->index[d] < l->sizes[d]) {
            for (int k = 0; k < l->noperands; k++)
                p->offset[k] += l->strides[k][d];
            return 1;
        }
        for (int k = 0; k < l->noperands; k++)
            p->offset[k] -= l->strides[k][d] * (l->sizes[d] - 1);
        p->index[d] = 0;
    }
    return 0;
}

/* Length and strides of the innermost dimension (1 / 0 for a 0-dim loop). */
static inline int64_t
tn_loop_inner(const tn_loop *l)
{
    return l->ndim ? l->sizes[l->ndim - 1] : 1;
}

static inline int64_t
tn_loop_inner_stride(const tn_loop *l, int k)
{
    return l->ndim ? l->strides[k][l->ndim - 1] : 0;
}

/* Random access, for kernels that split a loop across threads by index. */

/* Rows: the product of all but the innermost size (1 for a 0- or 1-dim loop). */
static inline int64_t
tn_loop_outer_rows(const tn_loop *l)
{
    int64_t n = 1;
    for (int d = 0; d + 1 < l->ndim; d++)
        n *= l->sizes[d];
    return n;
}

/* off[k] = element offset of row `row` (row-major over all but the innermost dim), operand k. */
static inline void
tn_loop_row_offsets(const tn_loop *l, int64_t row, int64_t *off)
{
    for (int k = 0; k < l->noperands; k++)
        off[k] = 0;
    for (int d = l->ndim - 2; d >= 0; d--) {
        int64_t i = row % l->sizes[d];
        row /= l->sizes[d];
        for (int k = 0; k < l->noperands; k++)
            off[k] += i * l->strides[k][d];
    }
}

/* off[k] = element offset of element t (row-major over every dim), operand k. */
static inline void
tn_loop_elem_offsets(const tn_loop *l, int64_t t, int64_t *off)
{
    int64_t m = tn_loop_inner(l);
    tn_loop_row_offsets(l, t / m, off);
    for (int k = 0; k < l->noperands; k++)
        off[k] += (t % m) * tn_loop_inner_stride(l, k);
}

/* Note [Vector body and tail] (binary.c): upstream's cpu_kernel_vec runs a row as its vector body
 * when the output and every input are contiguous, one input at most a broadcast scalar (stride 0),
 * in whole chunks of 2 * Vec::size(), then a scalar tail; other rows run scalar throughout. The
 * length of that body for a row of n elements (s: the operands' strides, output first). */
static inline int64_t
tn_vector_body(const int64_t *s, int ninputs, int64_t n, int64_t chunk)
{
    if (s[0] != 1)
        return 0;
    int scalars = 0;
    for (int k = 1; k <= ninputs; k++) {
        if (s[k] == 0)
            scalars++;
        else if (s[k] != 1)
            return 0;
    }
    return scalars <= 1 ? n - n % chunk : 0;
}

/* ---- the row driver (loop.c), shared by copy.c, binary.c and unary.c ----
 * A row function handles n elements of the innermost dimension: ptr[k] is operand k's first
 * element (a byte address) and stride[k] its step in elements (0 = broadcast). */
typedef void (*tn_row_fn)(void *ctx, char *const *ptr, const int64_t *stride, int64_t n);

/* Elements per thread below which a loop runs on the calling thread. */
#define TN_ELEMENTWISE_GRAIN 32768

/* Calls fn over every row of l for its first nops operands (base[k], elsize[k]: operand k's
 * data and element size), splitting the flattened index space across the thread pool in pieces
 * of at least grain elements. TN_ERR_VALUE when l has fewer than nops operands or too many
 * dimensions. */
tn_status tn_loop_run_rows(const tn_loop *l, int nops, void *const *base, const int *elsize,
                           int64_t grain, tn_row_fn fn, void *ctx);

#endif /* TN_KERNELS_LOOP_H */
