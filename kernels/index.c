/* Indexing kernels (declared in index.h): index_select, gather, scatter (+ reductions),
 * index_put, masked_select, nonzero, tril/triu. Pure data movement copies elements by size
 * (dtype only decides the width); reductions convert through double (float dtypes) or int64.
 * A new op: a `// <op>` group with its bounds check first, then its loop, and its test sweep.
 */
#include "index.h"
#include "copy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"

#define GRAIN 32768

/* Copy one element of es bytes from src[si] to dst[di] (element indices). */
static inline void
copy_elem(size_t es, void *dst, int64_t di, const void *src, int64_t si)
{
    switch (es) {
    case 1: ((uint8_t *)dst)[di] = ((const uint8_t *)src)[si]; break;
    case 2: ((uint16_t *)dst)[di] = ((const uint16_t *)src)[si]; break;
    case 4: ((uint32_t *)dst)[di] = ((const uint32_t *)src)[si]; break;
    case 8: ((uint64_t *)dst)[di] = ((const uint64_t *)src)[si]; break;
    default: memcpy((char *)dst + di * (int64_t)es, (const char *)src + si * (int64_t)es, es); break;
    }
}

// index_select

typedef struct {
    size_t es;
    const tn_loop *outer;
    int64_t n_index, index_stride, src_stride, out_stride;
    const int64_t *index;
    void *out;
    const void *src;
} isel_plan;

/* Items are (index entry, outer row): an embedding lookup copies one contiguous row each. */
static void
isel_task(void *ctx, int64_t begin, int64_t end)
{
    const isel_plan *p = ctx;
    const tn_loop *l = p->outer;
    int64_t rows = tn_loop_outer_rows(l), m = tn_loop_inner(l);
    int64_t s0 = tn_loop_inner_stride(l, 0), s1 = tn_loop_inner_stride(l, 1);
    for (int64_t t = begin; t < end; t++) {
        int64_t j = t / rows, row = t % rows;
        int64_t off[TN_LOOP_MAX_OPERANDS];
        tn_loop_row_offsets(l, row, off);
        int64_t ob = off[0] + j * p->out_stride;
        int64_t sb = off[1] + p->index[j * p->index_stride] * p->src_stride;
        if (s0 == 1 && s1 == 1) {
            memcpy((char *)p->out + ob * (int64_t)p->es, (const char *)p->src + sb * (int64_t)p->es,
                   (size_t)m * p->es);
        } else {
            for (int64_t i = 0; i < m; i++)
                copy_elem(p->es, p->out, ob + i * s0, p->src, sb + i * s1);
        }
    }
}

tn_status
tn_index_select(int dtype, const tn_loop *outer, int64_t n_index, const int64_t *index,
                int64_t index_stride, int64_t src_size, int64_t src_stride, int64_t out_stride,
                void *out, const void *src)
{
    if (!tn_dtype_movable(dtype))
        return TN_ERR_DTYPE;
    if (!outer || outer->noperands < 2 || n_index < 0)
        return TN_ERR_VALUE;
    for (int64_t j = 0; j < n_index; j++) {
        int64_t v = index[j * index_stride];
        if (v < 0 || v >= src_size)
            return TN_ERR_VALUE;
    }
    int64_t per = tn_loop_numel(outer);
    if (per == 0 || n_index == 0)
        return TN_OK;
    isel_plan p = {(size_t)tn_dtype_size(dtype), outer, n_index, index_stride, src_stride,
                   out_stride, index, out, src};
    int64_t m = tn_loop_inner(outer);
    tn_parallel_for(n_index * tn_loop_outer_rows(outer), m >= GRAIN ? 1 : GRAIN / m, isel_task, &p);
    return TN_OK;
}

// gather

/* All of loop's index values in [0, size)? (operand k of loop is the index) */
static int
index_in_range(const tn_loop *loop, int k, const int64_t *index, int64_t size)
{
    tn_loop_pos pos;
    int64_t m = tn_loop_inner(loop), st = tn_loop_inner_stride(loop, k);
    tn_loop_start(loop, &pos);
    do {
        for (int64_t i = 0; i < m; i++) {
            int64_t v = index[pos.offset[k] + i * st];
            if (v < 0 || v >= size)
                return 0;
        }
    } while (tn_loop_next(loop, &pos));
    return 1;
}

typedef struct {
    size_t es;
    const tn_loop *loop;
    int64_t dim_stride;
    void *out;
    const void *src;
    const int64_t *index;
} gather_plan;

static void
gather_task(void *ctx, int64_t begin, int64_t end)
{
    const gather_plan *p = ctx;
    const tn_loop *l = p->loop;
    int64_t m = tn_loop_inner(l);
    int64_t s0 = tn_loop_inner_stride(l, 0), s1 = tn_loop_inner_stride(l, 1);
    int64_t s2 = tn_loop_inner_stride(l, 2);
    for (int64_t row = begin; row < end; row++) {
        int64_t off[TN_LOOP_MAX_OPERANDS];
        tn_loop_row_offsets(l, row, off);
        for (int64_t i = 0; i < m; i++) {
            int64_t idx = p->index[off[2] + i * s2];
            copy_elem(p->es, p->out, off[0] + i * s0, p->src, off[1] + i * s1 + idx * p->dim_stride);
        }
    }
}

tn_status
tn_gather(int dtype, const tn_loop *loop, int64_t src_dim_size, int64_t src_dim_stride,
          void *out, const void *src, const int64_t *index)
{
    if (!tn_dtype_movable(dtype))
        return TN_ERR_DTYPE;
    if (!loop || loop->noperands < 3)
        return TN_ERR_VALUE;
    if (tn_loop_numel(loop) == 0)
        return TN_OK;
    if (!index_in_range(loop, 2, index, src_dim_size))
        return TN_ERR_VALUE;
    gather_plan p = {(size_t)tn_dtype_size(dtype), loop, src_dim_stride, out, src, index};
    int64_t m = tn_loop_inner(loop);
    tn_parallel_for(tn_loop_outer_rows(loop), m >= GRAIN ? 1 : GRAIN / m, gather_task, &p);
    return TN_OK;
}

// scatter / scatter_add / scatter_reduce

/* The reduction's identity, used when include_self == 0 resets targets. */
static double
scatter_identity_f(int reduce)
{
    switch (reduce) {
    case TN_SCATTER_PROD: return 1;
    case TN_SCATTER_AMAX: return -INFINITY;
    case TN_SCATTER_AMIN: return INFINITY;
    default: return 0;
    }
}

static int64_t
scatter_identity_i(int dt, int reduce)
{
    int64_t lo, hi;
    switch (dt) {
    case TN_DTYPE_BOOL: lo = 0; hi = 1; break;
    case TN_DTYPE_U8: lo = 0; hi = UINT8_MAX; break;
    case TN_DTYPE_I8: lo = INT8_MIN; hi = INT8_MAX; break;
    case TN_DTYPE_I16: lo = INT16_MIN; hi = INT16_MAX; break;
    case TN_DTYPE_I32: lo = INT32_MIN; hi = INT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break;
    }
    switch (reduce) {
    case TN_SCATTER_PROD: return 1;
    case TN_SCATTER_AMAX: return lo;
    case TN_SCATTER_AMIN: return hi;
    default: return 0;
    }
}

/* One combine step in the dtype: floats round to it after each step (upstream works in the
 * dtype itself). */
static inline void
combine_f(int dt, int reduce, void *self, int64_t at, double v)
{
    double s = tn_load_float(dt, self, at);
    int f64 = dt == TN_DTYPE_F64;
    switch (reduce) {
    case TN_SCATTER_ASSIGN: s = v; break;
    case TN_SCATTER_SUM: case TN_SCATTER_MEAN: s = f64 ? s + v : (float)s + (float)v; break;
    case TN_SCATTER_PROD: s = f64 ? s * v : (float)s * (float)v; break;
    case TN_SCATTER_AMAX: s = v != v ? v : (s < v ? v : s); break;
    default: s = v != v ? v : (v < s ? v : s); break;
    }
    tn_store_float(dt, self, at, s);
}

static inline void
combine_i(int dt, int reduce, void *self, int64_t at, int64_t v)
{
    int64_t s = tn_load_i64(dt, self, at);
    switch (reduce) {
    case TN_SCATTER_ASSIGN: s = v; break;
    case TN_SCATTER_SUM: case TN_SCATTER_MEAN: s = (int64_t)((uint64_t)s + (uint64_t)v); break;
    case TN_SCATTER_PROD: s = (int64_t)((uint64_t)s * (uint64_t)v); break;
    case TN_SCATTER_AMAX: s = v > s ? v : s; break;
    default: s = v < s ? v : s; break;
    }
    if (dt == TN_DTYPE_BOOL && (reduce == TN_SCATTER_SUM || reduce == TN_SCATTER_MEAN))
        s = s != 0;
    tn_store_i64(dt, self, at, s);
}

tn_status
tn_scatter(int dtype, int reduce, const tn_loop *loop, int64_t self_dim_size,
           int64_t self_dim_stride, void *self, const void *src, const int64_t *index,
           int include_self)
{
    if (!tn_dtype_has_kernels(dtype))
        return TN_ERR_DTYPE;
    if (!loop || loop->noperands < 3 || reduce < 0 || reduce >= TN_NUM_SCATTER)
        return TN_ERR_VALUE;
    if (tn_loop_numel(loop) == 0)
        return TN_OK;
    if (!index_in_range(loop, 2, index, self_dim_size))
        return TN_ERR_VALUE;
    const int fl = tn_dtype_is_kernel_float(dtype);
    const size_t es = (size_t)tn_dtype_size(dtype);
    int64_t m = tn_loop_inner(loop);
    int64_t s0 = tn_loop_inner_stride(loop, 0), s1 = tn_loop_inner_stride(loop, 1);
    int64_t s2 = tn_loop_inner_stride(loop, 2);
    tn_loop_pos pos;
    if (!include_self && reduce != TN_SCATTER_ASSIGN) {
        /* reset each target to the identity first */
        tn_loop_start(loop, &pos);
        do {
            for (int64_t i = 0; i < m; i++) {
                int64_t at = pos.offset[0] + i * s0 + index[pos.offset[2] + i * s2] * self_dim_stride;
                if (fl)
                    tn_store_float(dtype, self, at, scatter_identity_f(reduce));
                else
                    tn_store_i64(dtype, self, at, scatter_identity_i(dtype, reduce));
            }
        } while (tn_loop_next(loop, &pos));
    }
    /* Half types sum and multiply in float, rounding once per target at the end (mean
     * rounds the sum, then divides); every target gets a float shadow. mean counts
     * contributions per target (self counts once when included). */
    const int half = dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16;
    const int shadow = half && (reduce == TN_SCATTER_SUM || reduce == TN_SCATTER_PROD ||
                                reduce == TN_SCATTER_MEAN);
    int64_t *count = NULL;
    float *acc = NULL;
    int64_t lo = 0, span = 0;
    if (reduce == TN_SCATTER_MEAN || shadow) {
        int64_t hi = 0;
        tn_loop_start(loop, &pos);
        lo = INT64_MAX;
        hi = INT64_MIN;
        do {
            for (int64_t i = 0; i < m; i++) {
                int64_t at = pos.offset[0] + i * s0 + index[pos.offset[2] + i * s2] * self_dim_stride;
                lo = at < lo ? at : lo;
                hi = at > hi ? at : hi;
            }
        } while (tn_loop_next(loop, &pos));
        span = hi - lo + 1;
        count = calloc((size_t)span, sizeof *count);
        acc = shadow ? malloc((size_t)span * sizeof *acc) : NULL;
        if (!count || (shadow && !acc)) {
            free(count);
            free(acc);
            return TN_ERR_NOMEM;
        }
        if (shadow)
            for (int64_t k = 0; k < span; k++)
                acc[k] = (float)tn_load_float(dtype, self, lo + k);
    }
    tn_loop_start(loop, &pos);
    do {
        for (int64_t i = 0; i < m; i++) {
            int64_t at = pos.offset[0] + i * s0 + index[pos.offset[2] + i * s2] * self_dim_stride;
            int64_t si = pos.offset[1] + i * s1;
            if (reduce == TN_SCATTER_ASSIGN)
                copy_elem(es, self, at, src, si);
            else if (shadow) {
                float v = (float)tn_load_float(dtype, src, si);
                acc[at - lo] = reduce == TN_SCATTER_PROD ? acc[at - lo] * v : acc[at - lo] + v;
            }
            else if (fl)
                combine_f(dtype, reduce, self, at, tn_load_float(dtype, src, si));
            else
                combine_i(dtype, reduce, self, at, tn_load_i64(dtype, src, si));
            if (count)
                count[at - lo]++;
        }
    } while (tn_loop_next(loop, &pos));
    if (count) {
        for (int64_t k = 0; k < span; k++) {
            if (!count[k])
                continue;
            if (shadow)
                tn_store_float(dtype, self, lo + k, acc[k]);
            if (reduce != TN_SCATTER_MEAN)
                continue;
            int64_t c = count[k] + (include_self ? 1 : 0), at = lo + k;
            if (fl) {
                double s = tn_load_float(dtype, self, at);
                tn_store_float(dtype, self, at, dtype == TN_DTYPE_F64 ? s / (double)c
                                                                      : (float)s / (float)c);
            } else {
                int64_t s = tn_load_i64(dtype, self, at), q = s / c;
                if ((s % c != 0) && ((s < 0) != (c < 0)))
                    q--;  /* floor division */
                tn_store_i64(dtype, self, at, q);
            }
        }
        free(count);
        free(acc);
    }
    return TN_OK;
}

tn_status
tn_scatter_add(int dtype, const tn_loop *loop, int64_t self_dim_size, int64_t self_dim_stride,
               void *self, const void *src, const int64_t *index)
{
    return tn_scatter(dtype, TN_SCATTER_SUM, loop, self_dim_size, self_dim_stride, self, src,
                      index, 1);
}

// index_put

tn_status
tn_index_put(int dtype, int64_t n, const int64_t *offsets, const void *values,
             int64_t values_stride, void *self, int accumulate, int64_t lo, int64_t hi)
{
    int cplx = dtype == TN_DTYPE_C64 || dtype == TN_DTYPE_C128;
    if (!tn_dtype_has_kernels(dtype) && !cplx)
        return TN_ERR_DTYPE;
    if (n < 0)
        return TN_ERR_VALUE;
    for (int64_t i = 0; i < n; i++)
        if (offsets[i] < lo || offsets[i] > hi)
            return TN_ERR_VALUE;
    size_t es = (size_t)tn_dtype_size(dtype);
    int fl = tn_dtype_is_kernel_float(dtype);
    for (int64_t i = 0; i < n; i++) {
        if (!accumulate) {
            copy_elem(es, self, offsets[i], values, i * values_stride);
        } else if (dtype == TN_DTYPE_C64) {
            /* complex += adds each part in the part's type, as c10::complex<float> does */
            float *d = (float *)self + 2 * offsets[i];
            const float *v = (const float *)values + 2 * i * values_stride;
            d[0] += v[0];
            d[1] += v[1];
        } else if (dtype == TN_DTYPE_C128) {
            double *d = (double *)self + 2 * offsets[i];
            const double *v = (const double *)values + 2 * i * values_stride;
            d[0] += v[0];
            d[1] += v[1];
        } else if (fl)
            combine_f(dtype, TN_SCATTER_SUM, self, offsets[i],
                      tn_load_float(dtype, values, i * values_stride));
        else
            combine_i(dtype, TN_SCATTER_SUM, self, offsets[i],
                      tn_load_i64(dtype, values, i * values_stride));
    }
    return TN_OK;
}

// masked_select

/* bool and uint8 masks are both one byte, nonzero meaning selected */
static inline int
mask_at(const void *mask, int64_t i)
{
    return ((const uint8_t *)mask)[i] != 0;
}

tn_status
tn_masked_count(int mask_dtype, const tn_loop *loop, const void *mask, int64_t *count)
{
    if (mask_dtype != TN_DTYPE_BOOL && mask_dtype != TN_DTYPE_U8)
        return TN_ERR_DTYPE;
    if (!loop || loop->noperands < 1)
        return TN_ERR_VALUE;
    *count = 0;
    if (tn_loop_numel(loop) == 0)
        return TN_OK;
    tn_loop_pos pos;
    int64_t m = tn_loop_inner(loop), st = tn_loop_inner_stride(loop, 0), c = 0;
    tn_loop_start(loop, &pos);
    do {
        for (int64_t i = 0; i < m; i++)
            c += mask_at(mask, pos.offset[0] + i * st);
    } while (tn_loop_next(loop, &pos));
    *count = c;
    return TN_OK;
}

tn_status
tn_masked_fill(int dtype, const tn_loop *loop, void *dst, const void *mask, tn_kscalar value)
{
    if (!tn_dtype_has_kernels(dtype))
        return TN_ERR_DTYPE;
    if (!loop || loop->noperands < 2)
        return TN_ERR_VALUE;
    if (tn_loop_numel(loop) == 0)
        return TN_OK;
    unsigned char v[16];
    tn_status st = tn_scalar_to_dtype(dtype, value, v);
    if (st != TN_OK)
        return st;
    return tn_masked_fill_bytes(dtype, loop, dst, mask, v);
}

tn_status
tn_masked_fill_bytes(int dtype, const tn_loop *loop, void *dst, const void *mask, const void *v)
{
    if (!tn_dtype_movable(dtype))
        return TN_ERR_DTYPE;
    if (!loop || loop->noperands < 2)
        return TN_ERR_VALUE;
    if (tn_loop_numel(loop) == 0)
        return TN_OK;
    size_t es = (size_t)tn_dtype_size(dtype);
    tn_loop_pos pos;
    int64_t m = tn_loop_inner(loop), sd = tn_loop_inner_stride(loop, 0), sm = tn_loop_inner_stride(loop, 1);
    tn_loop_start(loop, &pos);
    do {
        for (int64_t i = 0; i < m; i++)
            if (mask_at(mask, pos.offset[1] + i * sm))
                memcpy((char *)dst + (size_t)(pos.offset[0] + i * sd) * es, v, es);
    } while (tn_loop_next(loop, &pos));
    return TN_OK;
}

tn_status
tn_masked_select(int dtype, int mask_dtype, const tn_loop *loop, const void *mask, const void *in,
                 void *out, int64_t count)
{
    if (!tn_dtype_has_kernels(dtype) || (mask_dtype != TN_DTYPE_BOOL && mask_dtype != TN_DTYPE_U8))
        return TN_ERR_DTYPE;
    if (!loop || loop->noperands < 2)
        return TN_ERR_VALUE;
    if (tn_loop_numel(loop) == 0)
        return count == 0 ? TN_OK : TN_ERR_VALUE;
    size_t es = (size_t)tn_dtype_size(dtype);
    tn_loop_pos pos;
    int64_t m = tn_loop_inner(loop);
    int64_t s0 = tn_loop_inner_stride(loop, 0), s1 = tn_loop_inner_stride(loop, 1), k = 0;
    tn_loop_start(loop, &pos);
    do {
        for (int64_t i = 0; i < m; i++) {
            if (!mask_at(mask, pos.offset[0] + i * s0))
                continue;
            if (k >= count)
                return TN_ERR_VALUE;
            copy_elem(es, out, k++, in, pos.offset[1] + i * s1);
        }
    } while (tn_loop_next(loop, &pos));
    return k == count ? TN_OK : TN_ERR_VALUE;
}

// nonzero

static inline int
nonzero_at(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case TN_DTYPE_F16: return (((const uint16_t *)p)[i] & 0x7fffu) != 0;
    case TN_DTYPE_BF16: return (((const uint16_t *)p)[i] & 0x7fffu) != 0;
    case TN_DTYPE_F32: return ((const float *)p)[i] != 0;  /* NaN != 0 holds */
    case TN_DTYPE_F64: return ((const double *)p)[i] != 0;
    default: return tn_load_i64(dt, p, i) != 0;
    }
}

/* Walk a tensor in row-major order; fn(ctx, coords, offset) for each element. */
typedef int (*nz_visit)(void *ctx, const int64_t *coord, int64_t off);

static int
walk_rowmajor(int ndim, const int64_t *sizes, const int64_t *strides, nz_visit fn, void *ctx)
{
    int64_t coord[TN_LOOP_MAX_DIMS] = {0};
    for (int d = 0; d < ndim; d++)
        if (sizes[d] == 0)
            return 0;
    int64_t off = 0;
    for (;;) {
        if (fn(ctx, coord, off))
            return 1;
        int d = ndim - 1;
        for (; d >= 0; d--) {
            if (++coord[d] < sizes[d]) {
                off += strides[d];
                break;
            }
            off -= strides[d] * (sizes[d] - 1);
            coord[d] = 0;
        }
        if (d < 0)
            return 0;
    }
}

typedef struct {
    int dt, ndim;
    const void *in;
    int64_t *out;
    int64_t count, k;
} nz_ctx;

static int
nz_count_visit(void *ctx, const int64_t *coord, int64_t off)
{
    nz_ctx *c = ctx;
    (void)coord;
    c->k += nonzero_at(c->dt, c->in, off);
    return 0;
}

static int
nz_write_visit(void *ctx, const int64_t *coord, int64_t off)
{
    nz_ctx *c = ctx;
    if (!nonzero_at(c->dt, c->in, off))
        return 0;
    if (c->k >= c->count)
        return 1;
    memcpy(c->out + c->k * c->ndim, coord, sizeof(int64_t) * (size_t)c->ndim);
    c->k++;
    return 0;
}

tn_status
tn_nonzero_count(int dtype, int ndim, const int64_t *sizes, const int64_t *strides,
                 const void *in, int64_t *count)
{
    if (!tn_dtype_has_kernels(dtype))
        return TN_ERR_DTYPE;
    if (ndim < 0 || ndim > TN_LOOP_MAX_DIMS)
        return TN_ERR_VALUE;
    nz_ctx c = {dtype, ndim, in, NULL, 0, 0};
    walk_rowmajor(ndim, sizes, strides, nz_count_visit, &c);
    *count = c.k;
    return TN_OK;
}

tn_status
tn_nonzero(int dtype, int ndim, const int64_t *sizes, const int64_t *strides, const void *in,
           int64_t *out, int64_t count)
{
    if (!tn_dtype_has_kernels(dtype))
        return TN_ERR_DTYPE;
    if (ndim < 0 || ndim > TN_LOOP_MAX_DIMS)
        return TN_ERR_VALUE;
    nz_ctx c = {dtype, ndim, in, out, count, 0};
    if (walk_rowmajor(ndim, sizes, strides, nz_write_visit, &c))
        return TN_ERR_VALUE;
    return c.k == count ? TN_OK : TN_ERR_VALUE;
}

// tril / triu

typedef struct {
    size_t es;
    int upper;
    int64_t diagonal, rows, cols, ors, ocs, irs, ics;
    const tn_loop *batch;
    void *out;
    const void *in;
} tri_plan;

static void
tri_task(void *ctx, int64_t begin, int64_t end)
{
    const tri_plan *p = ctx;
    const tn_loop *l = p->batch;
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS];
        tn_loop_elem_offsets(l, t, off);
        int64_t ob = off[0], ib = off[1];
        for (int64_t i = 0; i < p->rows; i++) {
            for (int64_t j = 0; j < p->cols; j++) {
                int keep = p->upper ? j - i >= p->diagonal : j - i <= p->diagonal;
                int64_t o = ob + i * p->ors + j * p->ocs;
                if (keep)
                    copy_elem(p->es, p->out, o, p->in, ib + i * p->irs + j * p->ics);
                else
                    memset((char *)p->out + o * (int64_t)p->es, 0, p->es);
            }
        }
    }
}

tn_status
tn_tril_triu(int dtype, int upper, int64_t diagonal, const tn_loop *batch, int64_t rows,
             int64_t cols, int64_t out_rs, int64_t out_cs, int64_t in_rs, int64_t in_cs,
             void *out, const void *in)
{
    if (!tn_dtype_has_kernels(dtype))
        return TN_ERR_DTYPE;
    if (!batch || batch->noperands < 2 || rows < 0 || cols < 0)
        return TN_ERR_VALUE;
    int64_t nb = tn_loop_numel(batch);
    if (nb == 0 || rows == 0 || cols == 0)
        return TN_OK;
    tri_plan p = {(size_t)tn_dtype_size(dtype), upper != 0, diagonal, rows, cols, out_rs,
                  out_cs, in_rs, in_cs, batch, out, in};
    int64_t per = rows * cols;
    tn_parallel_for(nb, per >= GRAIN ? 1 : GRAIN / per, tri_task, &p);
    return TN_OK;
}
