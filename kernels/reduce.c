/* Reductions over a region, arg-max/min, var/std and scans (declared in reduce.h).
 * Layout: shared helpers (dtype access, region/outer geometry), then one group per op family,
 * each led by a `// <op>` line: a plain scalar loop per dtype plus, for float sums, the
 * upstream-order engine of Note [Sum order]. A new op adds a TN_RED_* case to tn_reduce.
 */
#include "reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "parallel.h"

#define GRAIN 32768  /* at::internal::GRAIN_SIZE: upstream's split points depend on it */

static const char *const reduce_names[TN_NUM_REDUCE] = {
    "sum", "prod", "mean", "max", "min", "amax", "amin", "any", "all", "norm",
    "logsumexp", "nansum", "nanmean", "count_nonzero", "norm",
};

const char *
tn_reduce_op_name(int op)
{
    return op >= 0 && op < TN_NUM_REDUCE ? reduce_names[op] : "?";
}

/* ---- vector width upstream would use ---- */

static int vector_bytes_override;

int
tn_reduce_vector_bytes(void)
{
    /* The sum, prod and norm kernels upstream are registered for AVX2 only (an AVX-512
     * machine runs the AVX2 build of them), so their vectors are 32 bytes wide there and on
     * the portable build alike. */
    return vector_bytes_override ? vector_bytes_override : 32;
}

void
tn_reduce_set_vector_bytes(int bytes)
{
    vector_bytes_override = (bytes == 32 || bytes == 64) ? bytes : 0;
}

/* ---- element access in any kernel dtype ----
 * Loads and float stores are element.h's; a double or float source becomes an integer by
 * f64_to_i64 (x86 truncation) and then wraps to the width. */

/* float -> integer as x86 truncation does it (out of range and NaN give INT64_MIN). */
static inline int64_t
f64_to_i64(double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)v;
}

static inline int64_t
ld_i64(int dt, const void *p, int64_t i)
{
    if (tn_dtype_is_kernel_float(dt))
        return f64_to_i64(tn_load_f64(dt, p, i));
    return tn_load_i64(dt, p, i);
}

/* an element of a floating input as the integer accumulation into out_dt sees it: upstream casts
 * the input to the result dtype first, so 0.5 is 0 for int64 but true for bool */
static inline int64_t
ld_i64_for(int dt, int out_dt, const void *p, int64_t i)
{
    if (out_dt == TN_DTYPE_BOOL)
        return tn_load_f64(dt, p, i) != 0;
    if (tn_dtype_is_kernel_float(dt) &&
        (out_dt == TN_DTYPE_I32 || out_dt == TN_DTYPE_I16 || out_dt == TN_DTYPE_I8)) {
        /* through int32 as kernels/copy.c's Note [Conversion rules]: NaN, inf and values out of
         * int32's range are INT32_MIN (cvttss2si), not INT64_MIN's low bits (0) */
        double v = tn_load_f64(dt, p, i);
        return v > -2147483649.0 && v < 2147483648.0 ? (int64_t)(int32_t)v : INT32_MIN;
    }
    return ld_i64(dt, p, i);
}

static inline void
st_f64(int dt, void *p, int64_t i, double v)
{
    if (tn_dtype_is_kernel_float(dt))
        tn_store_float(dt, p, i, v);
    else
        tn_store_i64(dt, p, i, dt == TN_DTYPE_BOOL ? v != 0 : f64_to_i64(v));
}

static inline void
st_i64(int dt, void *p, int64_t i, int64_t v)
{
    if (tn_dtype_is_kernel_float(dt))
        tn_store_float(dt, p, i, (double)v);
    else
        tn_store_i64(dt, p, i, v);
}

/* Round a value to what dtype dt can hold (float dtypes only; others pass through). A short name:
 * the upstream-order arithmetic below rounds at almost every step. */
static inline double
rnd(int dt, double v)
{
    return tn_round_to_dtype(dt, v);
}

/* float16 -> float32 without branches (exact, NaN/inf/subnormal included), so loops over
 * half data vectorise: normal numbers rescale the exponent by a multiply, subnormals come
 * from a magic-number subtraction. */
static inline float
h2f(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16;
    uint32_t sign = w & 0x80000000u;
    uint32_t two_w = w + w;
    uint32_t nb = (two_w >> 4) + (0xE0u << 23), db = (two_w >> 17) | (126u << 23);
    float nf, df;
    memcpy(&nf, &nb, 4);
    memcpy(&df, &db, 4);
    nf *= 0x1.0p-112f;
    df -= 0.5f;
    uint32_t nr, dr;
    memcpy(&nr, &nf, 4);
    memcpy(&dr, &df, 4);
    uint32_t r = (two_w < (1u << 27) ? dr : nr) | sign;
    float f;
    memcpy(&f, &r, 4);
    return f;
}

/* n halves to floats: F16C when the CPU has it (same values, one instruction per 8). */
#if TN_X86
TN_TARGET_AVX2 static void
h2f_n_f16c(const uint16_t *x, float *out, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + i))));
    for (; i < n; i++)
        out[i] = h2f(x[i]);
}
#endif

static void
h2f_n_plain(const uint16_t *x, float *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = h2f(x[i]);
}

static void (*h2f_n_impl)(const uint16_t *, float *, int64_t);

static void
h2f_n(const uint16_t *x, float *out, int64_t n)
{
    if (!h2f_n_impl) {
        h2f_n_impl = h2f_n_plain;
#if TN_X86
        if (tn_cpu_has_avx2())
            h2f_n_impl = h2f_n_f16c;
#endif
    }
    h2f_n_impl(x, out, n);
}

/* ---- geometry ---- */

/* The reduced region, size-1 dims dropped, ordered by stride (dim 0 innermost, as
 * TensorIterator orders reduced dims) and coalesced where memory allows. */
typedef struct {
    int ndim;
    int64_t size[TN_LOOP_MAX_DIMS];
    int64_t stride[TN_LOOP_MAX_DIMS];
    int64_t numel;
} region;

static int
region_make(region *r, int rdim, const int64_t *sizes, const int64_t *strides)
{
    if (rdim < 0 || rdim > TN_LOOP_MAX_DIMS)
        return -1;
    r->ndim = 0;
    r->numel = 1;
    for (int d = 0; d < rdim; d++) {
        if (sizes[d] < 0)
            return -1;
        r->numel *= sizes[d];
    }
    if (r->numel == 0)
        return 0;
    /* the dims come innermost first, in the order to walk them (upstream's: Note [Reduction
     * order] in runtime/tensor_iter.c); a size-1 dim walks nothing */
    for (int d = 0; d < rdim; d++) {
        if (sizes[d] == 1)
            continue;
        r->size[r->ndim] = sizes[d];
        r->stride[r->ndim] = strides[d];
        r->ndim++;
    }
    int n = 0;
    for (int d = 0; d < r->ndim; d++) {
        if (n > 0 && r->stride[d] == r->stride[n - 1] * r->size[n - 1]) {
            r->size[n - 1] *= r->size[d];
            continue;
        }
        r->size[n] = r->size[d];
        r->stride[n] = r->stride[d];
        n++;
    }
    r->ndim = n;
    return 0;
}

/* Work items for tn_parallel_for: each outer row cut into blocks of COL_BLOCK outputs, so a
 * single long row still spreads over threads. */
#define COL_BLOCK 256

static inline int64_t
outer_items(const tn_loop *l)
{
    int64_t m = tn_loop_inner(l);
    return tn_loop_outer_rows(l) * ((m + COL_BLOCK - 1) / COL_BLOCK);
}

/* Item t -> its row's operand offsets and its column range [*c0, *c1). */
static inline void
outer_item(const tn_loop *l, int64_t t, int64_t *off, int64_t *c0, int64_t *c1)
{
    int64_t m = tn_loop_inner(l);
    int64_t blocks = (m + COL_BLOCK - 1) / COL_BLOCK;
    tn_loop_row_offsets(l, t / blocks, off);
    *c0 = (t % blocks) * COL_BLOCK;
    *c1 = *c0 + COL_BLOCK < m ? *c0 + COL_BLOCK : m;
}

/* Grain (items per thread at least) for items of `per_item` elements each. */
static inline int64_t
grain_for(int64_t per_item)
{
    return per_item >= GRAIN ? 1 : GRAIN / (per_item > 0 ? per_item : 1);
}

/* Walks region rows in the linear index range [begin, end): each call yields one row piece
 * (offset of its first element, length); pieces come in TensorIterator's order. */
typedef struct {
    const region *r;
    int64_t idx[TN_LOOP_MAX_DIMS];
    int64_t off;
    int64_t pos, end;
} row_walk;

static void
walk_start(row_walk *w, const region *r, int64_t begin, int64_t end)
{
    w->r = r;
    w->pos = begin;
    w->end = end;
    w->off = 0;
    int64_t lin = begin;
    for (int d = 0; d < r->ndim; d++) {
        w->idx[d] = lin % r->size[d];
        lin /= r->size[d];
        w->off += w->idx[d] * r->stride[d];
    }
}

static int
walk_next(row_walk *w, int64_t *off, int64_t *len)
{
    const region *r = w->r;
    if (w->pos >= w->end)
        return 0;
    if (r->ndim == 0) {
        *off = 0;
        *len = 1;
        w->pos = w->end;
        return 1;
    }
    int64_t n = r->size[0] - w->idx[0];
    if (n > w->end - w->pos)
        n = w->end - w->pos;
    *off = w->off;
    *len = n;
    w->pos += n;
    w->idx[0] += n;
    w->off += n * r->stride[0];
    for (int d = 0; d < r->ndim - 1 && w->idx[d] == r->size[d]; d++) {
        w->off -= r->size[d] * r->stride[d];
        w->idx[d] = 0;
        w->idx[d + 1]++;
        w->off += r->stride[d + 1];
    }
    return 1;
}

/* Upstream's at::parallel_for split of [0, n) over `threads`: chunk k of the returned count. */
static int64_t
upstream_chunks(int64_t n, int threads, int64_t *chunk)
{
    int64_t t = threads;
    int64_t need = (n + GRAIN - 1) / GRAIN;
    if (t > need)
        t = need;
    if (t < 1)
        t = 1;
    *chunk = (n + t - 1) / t;
    return t;
}

/* One output, many elements, as upstream's two-pass reductions run it: a buffer of one partial
 * per thread (at most 256), every slot starting at ident, and chunk k of upstream_chunks'
 * split writing part(plan, begin, end) into slot k. Returns the slot count; the caller combines
 * the slots in its own way. */
typedef double (*partial_fn)(const void *plan, int64_t begin, int64_t end);

typedef struct {
    partial_fn part;
    const void *plan;
    int64_t numel, chunk;
    double *parts;
} partials_job;

static void
partials_task(void *ctx, int64_t begin, int64_t end)
{
    const partials_job *j = ctx;
    for (int64_t k = begin; k < end; k++) {
        int64_t b = k * j->chunk, e = b + j->chunk;
        if (e > j->numel)
            e = j->numel;
        j->parts[k] = j->part(j->plan, b, e);
    }
}

static int
split_partials(int64_t numel, double ident, partial_fn part, const void *plan, double parts[256])
{
    int threads = tn_num_threads();
    if (threads > 256)
        threads = 256;
    for (int k = 0; k < threads; k++)
        parts[k] = ident;
    partials_job j = {part, plan, numel, 0, parts};
    int64_t nchunks = upstream_chunks(numel, threads, &j.chunk);
    tn_parallel_for(nchunks, 1, partials_task, &j);
    return threads;
}

/* Note [Sum order]
 * Upstream sums floats with a cascade (aten/src/ATen/native/cpu/SumKernel.cpp): a running sum
 * over blocks of 2^lp elements feeding 4 levels of partial sums, lp = max(4, ceil_log2(n)/4).
 * A row is read as 4 interleaved streams (ilp) whose sums are added at the end; a contiguous
 * row of at least one vector is read a vector at a time, each lane its own set of streams,
 * the scalar tail summed first and the lanes added to it in order. Reductions over an outer
 * (non-innermost) dim sum each column as one stream when the columns fill whole blocks of
 * four vectors. Row sums of a many-row region are added into the output one by one (for
 * half types rounded to the output, except where upstream keeps a float32 buffer). A full
 * reduction over >= 32768 elements is split into per-thread chunks as at::parallel_for
 * splits it, chunk sums stored in the output dtype and then summed. Lanes are those of
 * upstream's AVX2 build (tn_reduce_vector_bytes: 32 bytes; its AVX-512 build does not cover
 * these kernels), so for the same thread count float sums are bit-identical to upstream's.
 * The engine runs lane by lane in portable C: the order is the contract, not the
 * instructions (the fast paths below keep the order with the lane count fixed).
 */

#define CASC_MAXW 64

static inline int64_t
cascade_level_power(int64_t m)
{
    int64_t cl = 1;
    if (m > 2) {
        uint64_t x = (uint64_t)m - 1;
        cl = 64 - __builtin_clzll(x);
    }
    int64_t lp = cl / 4;
    return lp < 4 ? 4 : lp;
}

/* w parallel cascades over m steps; ROW_ADD(a, i) adds step i of every stream into a[0..w). */
#define CASCADE(T, m, w, res, ROW_ADD)                                          \
    do {                                                                        \
        const int64_t lp_ = cascade_level_power(m);                             \
        const int64_t step_ = (int64_t)1 << lp_;                                \
        const int64_t mask_ = step_ - 1;                                        \
        T acc_[4][CASC_MAXW];                                                   \
        for (int l_ = 0; l_ < 4; l_++)                                          \
            for (int k_ = 0; k_ < (w); k_++)                                    \
                acc_[l_][k_] = 0;                                               \
        int64_t i_ = 0;                                                         \
        while (i_ + step_ <= (m)) {                                             \
            for (int64_t j_ = 0; j_ < step_; j_++, i_++) {                      \
                T *a = acc_[0];                                                 \
                ROW_ADD(a, i_);                                                 \
            }                                                                   \
            for (int l_ = 1; l_ < 4; l_++) {                                    \
                for (int k_ = 0; k_ < (w); k_++) {                              \
                    acc_[l_][k_] += acc_[l_ - 1][k_];                           \
                    acc_[l_ - 1][k_] = 0;                                       \
                }                                                               \
                if ((i_ & (mask_ << (l_ * lp_))) != 0)                          \
                    break;                                                      \
            }                                                                   \
        }                                                                       \
        for (; i_ < (m); i_++) {                                                \
            T *a = acc_[0];                                                     \
            ROW_ADD(a, i_);                                                     \
        }                                                                       \
        for (int l_ = 1; l_ < 4; l_++)                                          \
            for (int k_ = 0; k_ < (w); k_++)                                    \
                acc_[0][k_] += acc_[l_][k_];                                    \
        for (int k_ = 0; k_ < (w); k_++)                                        \
            (res)[k_] = acc_[0][k_];                                            \
    } while (0)

/* Where a sum reads its elements: the input, how to read one, and the lane layout of the
 * dtype the sum runs in (sdt). */
enum { LANE_PLAIN = 0, LANE_PAIRS = 1, LANE_HALVES = 2 };
enum { LD_PLAIN = 0, LD_NANZERO = 1 };

typedef struct {
    const void *p;
    int in_dt;     /* dtype stored at p */
    int sdt;       /* dtype the sum runs in (elements are rounded to it first) */
    int mode;      /* LD_* */
    int win;       /* elements per input vector (upstream Vectorized<sdt>::size()) */
    int lanes;     /* accumulator lanes */
    int lane_kind; /* LANE_*: how one input vector folds into the lanes */
} sum_src;

static inline double
ld_gen(const sum_src *s, int64_t i)
{
    double v = tn_load_f64(s->in_dt, s->p, i);
    if (s->in_dt != s->sdt)
        v = rnd(s->sdt, v);
    if (s->mode == LD_NANZERO && v != v)
        v = 0;
    return v;
}

/* One engine per (accumulator type, element read). */
#define DEFINE_SUM_ENGINE(SUF, ACC, LD)                                                     \
    static ACC                                                                              \
    ilp_rowsum_##SUF(const sum_src *s, int64_t base, int64_t n, int64_t st)                 \
    {                                                                                       \
        ACC p[4];                                                                           \
        int64_t m = n / 4;                                                                  \
        CASCADE(ACC, m, 4, p, ROWADD_ILP_##SUF);                                            \
        for (int64_t i = 4 * m; i < n; i++)                                                 \
            p[0] += LD(s, base + i * st);                                                   \
        p[0] += p[1];                                                                       \
        p[0] += p[2];                                                                       \
        p[0] += p[3];                                                                       \
        return p[0];                                                                        \
    }                                                                                       \
    static ACC                                                                              \
    vec_rowsum_##SUF(const sum_src *s, int64_t base, int64_t n)                             \
    {                                                                                       \
        const int W = s->win, L = s->lanes, kind = s->lane_kind;                            \
        const int64_t nvec = n / W, m = nvec / 4;                                           \
        ACC p[CASC_MAXW];                                                                   \
        ACC lane[CASC_MAXW];                                                                \
        CASCADE(ACC, m, 4 * L, p, ROWADD_VEC_##SUF);                                        \
        for (int64_t v = 4 * m; v < nvec; v++) {                                            \
            vec_lanes_##SUF(s, base + v * W, L, kind, lane);                                \
            for (int l = 0; l < L; l++)                                                     \
                p[l] += lane[l];                                                            \
        }                                                                                   \
        for (int q = 1; q < 4; q++)                                                         \
            for (int l = 0; l < L; l++)                                                     \
                p[l] += p[q * L + l];                                                       \
        ACC fin = 0;                                                                        \
        for (int64_t i = nvec * W; i < n; i++)                                              \
            fin += LD(s, base + i);                                                         \
        for (int l = 0; l < L; l++)                                                         \
            fin += p[l];                                                                    \
        return fin;                                                                         \
    }                                                                                       \
    /* one row of a region: the vectorised read when upstream would take it */              \
    static ACC                                                                              \
    rowsum_##SUF(const sum_src *s, int64_t base, int64_t n, int64_t st)                     \
    {                                                                                       \
        if (st == 1 && n >= s->win)                                                         \
            return vec_rowsum_##SUF(s, base, n);                                            \
        return ilp_rowsum_##SUF(s, base, n, st);                                            \
    }                                                                                       \
    /* w (<= CASC_MAXW) columns at stride cs, each one stream of n rows at stride rs */     \
    static void                                                                             \
    colsum_##SUF(const sum_src *s, int64_t base, int64_t n, int64_t rs, int64_t cs, int w,  \
                 ACC *res)                                                                  \
    {                                                                                       \
        CASCADE(ACC, n, w, res, ROWADD_COL_##SUF);                                          \
    }

/* the per-step bodies, spelled out per engine so each reads its own way */
#define ENGINE_BODIES(SUF, ACC, LD)                                                          \
    static inline void                                                                      \
    vec_lanes_##SUF(const sum_src *s, int64_t at, int L, int kind, ACC *lane)               \
    {                                                                                       \
        if (kind == LANE_PAIRS) {                                                           \
            for (int l = 0; l < L; l++)                                                     \
                lane[l] = ((ACC)0 + LD(s, at + 2 * l)) + LD(s, at + 2 * l + 1);             \
        } else if (kind == LANE_HALVES) {                                                   \
            for (int l = 0; l < L; l++)                                                     \
                lane[l] = LD(s, at + l) + LD(s, at + L + l);                                \
        } else {                                                                            \
            for (int l = 0; l < L; l++)                                                     \
                lane[l] = LD(s, at + l);                                                    \
        }                                                                                   \
    }

#define ROWADD_ILP(a, i, LD)                                                    \
    do {                                                                        \
        const int64_t b_ = base + (i) * 4 * st;                                 \
        a[0] += LD(s, b_);                                                      \
        a[1] += LD(s, b_ + st);                                                 \
        a[2] += LD(s, b_ + 2 * st);                                             \
        a[3] += LD(s, b_ + 3 * st);                                             \
    } while (0)

#define ROWADD_VEC(a, i, SUF)                                                   \
    do {                                                                        \
        for (int q_ = 0; q_ < 4; q_++) {                                        \
            vec_lanes_##SUF(s, base + ((i) * 4 + q_) * W, L, kind, lane);       \
            for (int l_ = 0; l_ < L; l_++)                                      \
                a[q_ * L + l_] += lane[l_];                                     \
        }                                                                       \
    } while (0)

#define ROWADD_COL(a, i, LD)                                                    \
    do {                                                                        \
        const int64_t b_ = base + (i) * rs;                                     \
        for (int k_ = 0; k_ < w; k_++)                                          \
            a[k_] += LD(s, b_ + k_ * cs);                                       \
    } while (0)

#define LD_F32(s, i) (((const float *)(s)->p)[i])
#define LD_F64(s, i) (((const double *)(s)->p)[i])
#define LD_F16(s, i) h2f(((const uint16_t *)(s)->p)[i])
#define LD_BF16(s, i) tn_bf16_to_f32(((const uint16_t *)(s)->p)[i])
#define LD_GENF(s, i) ((float)ld_gen(s, i))
#define LD_GEND(s, i) ld_gen(s, i)

#define INSTANTIATE_ENGINE(SUF, ACC, LD)                                        \
    ENGINE_BODIES(SUF, ACC, LD)                                                 \
    DEFINE_SUM_ENGINE(SUF, ACC, LD)

#define ROWADD_ILP_f32(a, i) ROWADD_ILP(a, i, LD_F32)
#define ROWADD_VEC_f32(a, i) ROWADD_VEC(a, i, f32)
#define ROWADD_COL_f32(a, i) ROWADD_COL(a, i, LD_F32)
#define ROWADD_ILP_f64(a, i) ROWADD_ILP(a, i, LD_F64)
#define ROWADD_VEC_f64(a, i) ROWADD_VEC(a, i, f64)
#define ROWADD_COL_f64(a, i) ROWADD_COL(a, i, LD_F64)
#define ROWADD_ILP_f16(a, i) ROWADD_ILP(a, i, LD_F16)
#define ROWADD_VEC_f16(a, i) ROWADD_VEC(a, i, f16)
#define ROWADD_COL_f16(a, i) ROWADD_COL(a, i, LD_F16)
#define ROWADD_ILP_bf16(a, i) ROWADD_ILP(a, i, LD_BF16)
#define ROWADD_VEC_bf16(a, i) ROWADD_VEC(a, i, bf16)
#define ROWADD_COL_bf16(a, i) ROWADD_COL(a, i, LD_BF16)
#define ROWADD_ILP_genf(a, i) ROWADD_ILP(a, i, LD_GENF)
#define ROWADD_VEC_genf(a, i) ROWADD_VEC(a, i, genf)
#define ROWADD_COL_genf(a, i) ROWADD_COL(a, i, LD_GENF)
#define ROWADD_ILP_gend(a, i) ROWADD_ILP(a, i, LD_GEND)
#define ROWADD_VEC_gend(a, i) ROWADD_VEC(a, i, gend)
#define ROWADD_COL_gend(a, i) ROWADD_COL(a, i, LD_GEND)

INSTANTIATE_ENGINE(f32, float, LD_F32)
INSTANTIATE_ENGINE(f64, double, LD_F64)
INSTANTIATE_ENGINE(f16, float, LD_F16)
INSTANTIATE_ENGINE(bf16, float, LD_BF16)
INSTANTIATE_ENGINE(genf, float, LD_GENF)
INSTANTIATE_ENGINE(gend, double, LD_GEND)

/* Fast paths for the common case (contiguous row, 32-byte lanes): the same order as the
 * engine above with the lane count fixed, so the compiler can keep lanes in registers.
 * target_clones builds an AVX2 copy picked at load time; the order is the same in both. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define HOT __attribute__((target_clones("avx2", "default")))
#else
#define HOT
#endif

/* one 4-vector step of 8 lanes: 32 floats in lane order, for each element kind */
#define FAST_ROWSUM(NAME, T, LOADSTEP, LD1)                                     \
    HOT static float                                                            \
    NAME(const T *x, int64_t n)                                                 \
    {                                                                           \
        const int W = (int)(32 / sizeof(T));                                    \
        const int64_t nvec = n / W, m = nvec / 4;                               \
        float p[32];                                                            \
        float buf[32];                                                          \
        (void)buf;                                                              \
        CASCADE(float, m, 32, p, LOADSTEP);                                     \
        for (int64_t v = 4 * m; v < nvec; v++) {                                \
            const T *xv = x + v * W;                                            \
            float lane[8];                                                      \
            FOLD8(xv, lane);                                                    \
            for (int l = 0; l < 8; l++)                                         \
                p[l] += lane[l];                                                \
        }                                                                       \
        for (int q = 1; q < 4; q++)                                             \
            for (int l = 0; l < 8; l++)                                         \
                p[l] += p[q * 8 + l];                                           \
        float fin = 0;                                                          \
        for (int64_t i = nvec * W; i < n; i++)                                  \
            fin += LD1(x[i]);                                                   \
        for (int l = 0; l < 8; l++)                                             \
            fin += p[l];                                                        \
        return fin;                                                             \
    }

#define STEP_F32(a, i)                                                          \
    do {                                                                        \
        const float *r_ = x + (i) * 32;                                         \
        for (int k_ = 0; k_ < 32; k_++)                                         \
            a[k_] += r_[k_];                                                    \
    } while (0)
#define FOLD8_F32(xv, lane) for (int l_ = 0; l_ < 8; l_++) lane[l_] = xv[l_]
#define STEP_F16(a, i)                                                          \
    do {                                                                        \
        const uint16_t *r_ = x + (i) * 64;                                      \
        float cv_[64];                                                          \
        h2f_n(r_, cv_, 64);                                                     \
        for (int q_ = 0; q_ < 4; q_++)                                          \
            for (int l_ = 0; l_ < 8; l_++)                                      \
                buf[q_ * 8 + l_] = (0.0f + cv_[q_ * 16 + 2 * l_]) +             \
                                   cv_[q_ * 16 + 2 * l_ + 1];                   \
        for (int k_ = 0; k_ < 32; k_++)                                         \
            a[k_] += buf[k_];                                                   \
    } while (0)
#define FOLD8_F16(xv, lane)                                                     \
    for (int l_ = 0; l_ < 8; l_++)                                              \
    lane[l_] = (0.0f + h2f(xv[2 * l_])) + h2f(xv[2 * l_ + 1])
#define STEP_BF16(a, i)                                                         \
    do {                                                                        \
        const uint16_t *r_ = x + (i) * 64;                                      \
        for (int q_ = 0; q_ < 4; q_++)                                          \
            for (int l_ = 0; l_ < 8; l_++)                                      \
                buf[q_ * 8 + l_] = tn_bf16_to_f32(r_[q_ * 16 + l_]) +          \
                                   tn_bf16_to_f32(r_[q_ * 16 + 8 + l_]);        \
        for (int k_ = 0; k_ < 32; k_++)                                         \
            a[k_] += buf[k_];                                                   \
    } while (0)
#define FOLD8_BF16(xv, lane)                                                    \
    for (int l_ = 0; l_ < 8; l_++)                                              \
    lane[l_] = tn_bf16_to_f32(xv[l_]) + tn_bf16_to_f32(xv[8 + l_])
#define LD1_F32(v) (v)

#define FOLD8 FOLD8_F32
FAST_ROWSUM(rowsum_f32x8, float, STEP_F32, LD1_F32)
#undef FOLD8
#define FOLD8 FOLD8_F16
FAST_ROWSUM(rowsum_f16x8, uint16_t, STEP_F16, h2f)
#undef FOLD8
#define FOLD8 FOLD8_BF16
FAST_ROWSUM(rowsum_bf16x8, uint16_t, STEP_BF16, tn_bf16_to_f32)
#undef FOLD8

#define STEP_F64(a, i)                                                          \
    do {                                                                        \
        const double *r_ = x + (i) * 16;                                        \
        for (int k_ = 0; k_ < 16; k_++)                                         \
            a[k_] += r_[k_];                                                    \
    } while (0)

/* float64: 4 lanes, 16 accumulators per step */
HOT static double
rowsum_f64x4(const double *x, int64_t n)
{
    const int64_t nvec = n / 4, m = nvec / 4;
    double p[16];
    CASCADE(double, m, 16, p, STEP_F64);
    for (int64_t v = 4 * m; v < nvec; v++)
        for (int l = 0; l < 4; l++)
            p[l] += x[v * 4 + l];
    for (int q = 1; q < 4; q++)
        for (int l = 0; l < 4; l++)
            p[l] += p[q * 4 + l];
    double fin = 0;
    for (int64_t i = nvec * 4; i < n; i++)
        fin += x[i];
    for (int l = 0; l < 4; l++)
        fin += p[l];
    return fin;
}

/* contiguous columns (cs == 1), one stream each */
#define COLSTEP(a, i)                                                           \
    do {                                                                        \
        const int64_t b_ = (i) * rs;                                            \
        for (int k_ = 0; k_ < w; k_++)                                          \
            a[k_] += LDC(x[b_ + k_]);                                           \
    } while (0)
#define LDC(v) (v)
HOT static void
colsum_f32_c1(const float *x, int64_t n, int64_t rs, int w, float *res)
{
    CASCADE(float, n, w, res, COLSTEP);
}
HOT static void
colsum_f64_c1(const double *x, int64_t n, int64_t rs, int w, double *res)
{
    CASCADE(double, n, w, res, COLSTEP);
}
#undef LDC
/* half rows are widened a row at a time (F16C when present) before the adds */
#define COLSTEP_F16(a, i)                                                       \
    do {                                                                        \
        float cv_[CASC_MAXW];                                                   \
        h2f_n(x + (i) * rs, cv_, w);                                            \
        for (int k_ = 0; k_ < w; k_++)                                          \
            a[k_] += cv_[k_];                                                   \
    } while (0)
HOT static void
colsum_f16_c1(const uint16_t *x, int64_t n, int64_t rs, int w, float *res)
{
    CASCADE(float, n, w, res, COLSTEP_F16);
}
#undef LDC
#define LDC(v) tn_bf16_to_f32(v)
HOT static void
colsum_bf16_c1(const uint16_t *x, int64_t n, int64_t rs, int w, float *res)
{
    CASCADE(float, n, w, res, COLSTEP);
}
#undef LDC

/* The engine picked for a sum: which instantiation, and the source description. */
typedef enum { ENG_F32, ENG_F64, ENG_F16, ENG_BF16, ENG_GENF, ENG_GEND } engine_id;

static double
eng_rowsum(engine_id e, const sum_src *s, int64_t base, int64_t n, int64_t st)
{
    if (st == 1 && n >= s->win && s->win * tn_dtype_size(s->sdt) == 32) {
        switch (e) {
        case ENG_F32: return rowsum_f32x8((const float *)s->p + base, n);
        case ENG_F64: return rowsum_f64x4((const double *)s->p + base, n);
        case ENG_F16: return rowsum_f16x8((const uint16_t *)s->p + base, n);
        case ENG_BF16: return rowsum_bf16x8((const uint16_t *)s->p + base, n);
        default: break;
        }
    }
    switch (e) {
    case ENG_F32: return rowsum_f32(s, base, n, st);
    case ENG_F64: return rowsum_f64(s, base, n, st);
    case ENG_F16: return rowsum_f16(s, base, n, st);
    case ENG_BF16: return rowsum_bf16(s, base, n, st);
    case ENG_GENF: return rowsum_genf(s, base, n, st);
    default: return rowsum_gend(s, base, n, st);
    }
}

static double
eng_ilp_rowsum(engine_id e, const sum_src *s, int64_t base, int64_t n, int64_t st)
{
    switch (e) {
    case ENG_F32: return ilp_rowsum_f32(s, base, n, st);
    case ENG_F64: return ilp_rowsum_f64(s, base, n, st);
    case ENG_F16: return ilp_rowsum_f16(s, base, n, st);
    case ENG_BF16: return ilp_rowsum_bf16(s, base, n, st);
    case ENG_GENF: return ilp_rowsum_genf(s, base, n, st);
    default: return ilp_rowsum_gend(s, base, n, st);
    }
}

static void
eng_colsum(engine_id e, const sum_src *s, int64_t base, int64_t n, int64_t rs, int64_t cs,
           int w, double *res)
{
    float rf[CASC_MAXW];
    if (cs == 1) {
        switch (e) {
        case ENG_F32: colsum_f32_c1((const float *)s->p + base, n, rs, w, rf); goto widen;
        case ENG_F16: colsum_f16_c1((const uint16_t *)s->p + base, n, rs, w, rf); goto widen;
        case ENG_BF16: colsum_bf16_c1((const uint16_t *)s->p + base, n, rs, w, rf); goto widen;
        case ENG_F64: colsum_f64_c1((const double *)s->p + base, n, rs, w, res); return;
        default: break;
        }
    }
    switch (e) {
    case ENG_F32: colsum_f32(s, base, n, rs, cs, w, rf); break;
    case ENG_F16: colsum_f16(s, base, n, rs, cs, w, rf); break;
    case ENG_BF16: colsum_bf16(s, base, n, rs, cs, w, rf); break;
    case ENG_GENF: colsum_genf(s, base, n, rs, cs, w, rf); break;
    case ENG_F64: colsum_f64(s, base, n, rs, cs, w, res); return;
    default: colsum_gend(s, base, n, rs, cs, w, res); return;
    }
widen:
    for (int k = 0; k < w; k++)
        res[k] = rf[k];
}

/* The accumulator add: in float for the float-accumulating engines. */
static inline double
acc_add(int acc_is_f64, double a, double b)
{
    return acc_is_f64 ? a + b : (double)((float)a + (float)b);
}

/* A float sum over the whole problem. */
typedef struct {
    engine_id eng;
    sum_src src;
    int acc_f64;
    int part_dt;       /* dtype row sums accumulate in and chunk sums are stored in */
    const tn_loop *outer;
    region reg;
    int op;            /* TN_RED_* (SUM, NANSUM, MEAN, NANMEAN, LOGSUMEXP) */
    int out_dt;
    void *out;
    int64_t m;         /* outputs per outer row */
    int64_t blocks;    /* column blocks per outer row */
    int64_t nsingle;   /* outer mode: leading columns summed as single streams */
    int outer_mode;
} fsum_plan;

static void
fsum_setup_src(fsum_plan *p, int in_dt, int sdt, int mode, int vb)
{
    sum_src *s = &p->src;
    s->in_dt = in_dt;
    s->sdt = sdt;
    s->mode = mode;
    int acc_size = sdt == TN_DTYPE_F64 ? 8 : 4;
    s->lanes = vb / acc_size;
    s->win = vb / tn_dtype_size(sdt);
    s->lane_kind = sdt == TN_DTYPE_F16 ? LANE_PAIRS : sdt == TN_DTYPE_BF16 ? LANE_HALVES
                                                                           : LANE_PLAIN;
    p->acc_f64 = sdt == TN_DTYPE_F64;
    if (mode == LD_PLAIN && in_dt == sdt) {
        p->eng = sdt == TN_DTYPE_F32 ? ENG_F32 : sdt == TN_DTYPE_F64 ? ENG_F64
               : sdt == TN_DTYPE_F16 ? ENG_F16 : ENG_BF16;
    } else {
        p->eng = p->acc_f64 ? ENG_GEND : ENG_GENF;
    }
}

/* Sum over region rows in [begin, end) for the output whose input base is `base`. */
static double
fsum_region(const fsum_plan *p, const sum_src *s, int64_t base, int64_t begin, int64_t end)
{
    row_walk w;
    int64_t off, len;
    double acc = 0;
    int64_t st = p->reg.ndim ? p->reg.stride[0] : 1;
    walk_start(&w, &p->reg, begin, end);
    /* each row's float sum is stored into the output (`*out += row`): a half-type output
     * rounds the row sum to itself first, then the total */
    while (walk_next(&w, &off, &len)) {
        double row = rnd(p->part_dt, eng_rowsum(p->eng, s, base + off, len, st));
        acc = rnd(p->part_dt, acc_add(p->acc_f64, acc, row));
    }
    return acc;
}

/* Turn the accumulated sum of one output into its stored value. */
static double
fsum_finish(const fsum_plan *p, double sum)
{
    if (p->op != TN_RED_MEAN)
        return sum;
    if (p->acc_f64)
        return sum / (double)p->reg.numel;
    return (float)sum / (float)p->reg.numel;
}

static void
fsum_output(const fsum_plan *p, int64_t out_off, int64_t in_off)
{
    double v = fsum_region(p, &p->src, in_off, 0, p->reg.numel);
    st_f64(p->out_dt, p->out, out_off, fsum_finish(p, v));
}

static void
fsum_task(void *ctx, int64_t begin, int64_t end)
{
    const fsum_plan *p = ctx;
    const tn_loop *l = p->outer;
    int64_t os = tn_loop_inner_stride(l, 0), is = tn_loop_inner_stride(l, 1);
    for (int64_t t = begin; t < end; t++) {
        int64_t row = t / p->blocks;
        int64_t c0 = (t % p->blocks) * COL_BLOCK;
        int64_t c1 = c0 + COL_BLOCK < p->m ? c0 + COL_BLOCK : p->m;
        int64_t off[TN_LOOP_MAX_OPERANDS];
        tn_loop_row_offsets(l, row, off);
        if (!p->outer_mode) {
            for (int64_t j = c0; j < c1; j++)
                fsum_output(p, off[0] + j * os, off[1] + j * is);
            continue;
        }
        /* outer mode: region is one dim (n rows at stride rs), columns at stride is */
        int64_t n = p->reg.ndim ? p->reg.size[0] : 1;
        int64_t rs = p->reg.ndim ? p->reg.stride[0] : 0;
        double res[CASC_MAXW];
        int64_t j = c0;
        while (j < c1 && j < p->nsingle) {
            int64_t w = p->nsingle - j;
            if (w > CASC_MAXW)
                w = CASC_MAXW;
            if (w > c1 - j)
                w = c1 - j;
            eng_colsum(p->eng, &p->src, off[1] + j * is, n, rs, is, (int)w, res);
            for (int64_t k = 0; k < w; k++)
                st_f64(p->out_dt, p->out, off[0] + (j + k) * os, fsum_finish(p, res[k]));
            j += w;
        }
        for (; j < c1; j++) {
            double v = eng_ilp_rowsum(p->eng, &p->src, off[1] + j * is, n, rs);
            st_f64(p->out_dt, p->out, off[0] + j * os, fsum_finish(p, v));
        }
    }
}

/* A chunk's sum, rounded to the partials buffer's dtype. */
static double
fsum_partial(const void *plan, int64_t begin, int64_t end)
{
    const fsum_plan *p = plan;
    return rnd(p->part_dt, fsum_region(p, &p->src, 0, begin, end));
}

/* One output, many elements: chunk sums as upstream's two-pass reduction makes them. */
static tn_status
fsum_full(fsum_plan *p)
{
    double parts_d[256];
    int threads = split_partials(p->reg.numel, 0, fsum_partial, p, parts_d);
    /* the partials buffer (threads entries, part_dt) summed as a contiguous row */
    union {
        float f[256];
        double d[256];
        uint16_t h[256];
    } buf;
    for (int k = 0; k < threads; k++) {
        if (p->part_dt == TN_DTYPE_F64)
            buf.d[k] = parts_d[k];
        else if (p->part_dt == TN_DTYPE_F32)
            buf.f[k] = (float)parts_d[k];
        else
            st_f64(p->part_dt, buf.h, k, parts_d[k]);
    }
    fsum_plan q = *p;
    fsum_setup_src(&q, p->part_dt, p->part_dt, LD_PLAIN, tn_reduce_vector_bytes());
    q.src.p = &buf;
    double total = eng_rowsum(q.eng, &q.src, 0, threads, 1);
    st_f64(p->out_dt, p->out, 0, fsum_finish(p, total));
    return TN_OK;
}

/* sum, nansum, mean with a float output. */
static tn_status
float_sum(int op, int in_dt, int out_dt, const tn_loop *outer, const region *reg, void *out,
          const void *in)
{
    fsum_plan p;
    memset(&p, 0, sizeof p);
    int vb = tn_reduce_vector_bytes();
    int sdt = out_dt;
    int mode = op == TN_RED_NANSUM ? LD_NANZERO : LD_PLAIN;
    /* mean of a half type sums a float32 copy (upstream: cast, sum, divide, cast back) */
    if (op == TN_RED_MEAN && (out_dt == TN_DTYPE_F16 || out_dt == TN_DTYPE_BF16))
        sdt = TN_DTYPE_F32;
    fsum_setup_src(&p, in_dt, sdt, mode, vb);
    p.src.p = in;
    p.outer = outer;
    p.reg = *reg;
    p.op = op;
    p.out_dt = out_dt;
    p.out = out;
    /* Row and chunk sums are stored into the output dtype as they arrive, except where
     * upstream sums into float32: sum over a >= 2-dim region takes its float accumulation
     * buffer (nansum has none), mean sums a float32 copy. */
    p.part_dt = sdt;
    if ((sdt == TN_DTYPE_F16 || sdt == TN_DTYPE_BF16) && reg->ndim >= 2 && op != TN_RED_NANSUM)
        p.part_dt = TN_DTYPE_F32;

    int64_t nout = tn_loop_numel(outer);
    if (reg->numel == 0) {
        double v = op == TN_RED_MEAN ? NAN : 0.0;
        tn_loop_pos pos;
        tn_loop_start(outer, &pos);
        int64_t n = tn_loop_inner(outer), os = tn_loop_inner_stride(outer, 0);
        do {
            for (int64_t j = 0; j < n; j++)
                st_f64(out_dt, out, pos.offset[0] + j * os, v);
        } while (tn_loop_next(outer, &pos));
        return TN_OK;
    }
    if (nout == 1 && reg->numel >= GRAIN && tn_num_threads() > 1)
        return fsum_full(&p);

    p.m = tn_loop_inner(outer);
    int64_t is = tn_loop_inner_stride(outer, 1);
    int64_t ais = is < 0 ? -is : is;
    int64_t rs = reg->ndim ? (reg->stride[0] < 0 ? -reg->stride[0] : reg->stride[0]) : 0;
    p.outer_mode = reg->ndim == 1 && p.m > 1 && rs > ais;
    if (p.outer_mode) {
        int64_t blk = 4 * (int64_t)p.src.lanes;
        if (is == 1 && p.m >= p.src.win)
            p.nsingle = p.m / blk * blk;
        else
            p.nsingle = p.m / 4 * 4;
    }
    p.blocks = (p.m + COL_BLOCK - 1) / COL_BLOCK;
    int64_t tasks = tn_loop_outer_rows(outer) * p.blocks;
    int64_t per_task = reg->numel * (p.m < COL_BLOCK ? p.m : COL_BLOCK);
    int64_t grain = per_task >= GRAIN ? 1 : GRAIN / (per_task ? per_task : 1);
    tn_parallel_for(tasks, grain, fsum_task, &p);
    return TN_OK;
}

// sum (integer)

/* Integer and bool sums/products: int64 with wraparound, order-free. */
#define INT_ROW_LOOP(T, BODY)                                                   \
    do {                                                                        \
        const T *x = (const T *)in;                                             \
        for (int64_t i = 0; i < n; i++) {                                       \
            int64_t v = (int64_t)x[base + i * st];                              \
            BODY;                                                               \
        }                                                                       \
    } while (0)

#define INT_ROW_SWITCH(dt, BODY)                                                \
    switch (dt) {                                                               \
    case TN_DTYPE_BOOL: INT_ROW_LOOP(uint8_t, v = v != 0; BODY); break;         \
    case TN_DTYPE_U8: INT_ROW_LOOP(uint8_t, BODY); break;                       \
    case TN_DTYPE_I8: INT_ROW_LOOP(int8_t, BODY); break;                        \
    case TN_DTYPE_I16: INT_ROW_LOOP(int16_t, BODY); break;                      \
    case TN_DTYPE_I32: INT_ROW_LOOP(int32_t, BODY); break;                      \
    case TN_DTYPE_I64: INT_ROW_LOOP(int64_t, BODY); break;                      \
    default:                                                                    \
        for (int64_t i = 0; i < n; i++) {                                       \
            int64_t v = ld_i64(dt, in, base + i * st);                          \
            BODY;                                                               \
        }                                                                       \
        break;                                                                  \
    }

static uint64_t
int_row_sum(int dt, const void *in, int64_t base, int64_t n, int64_t st)
{
    uint64_t acc = 0;
    INT_ROW_SWITCH(dt, acc += (uint64_t)v);
    return acc;
}

static uint64_t
int_row_prod(int dt, const void *in, int64_t base, int64_t n, int64_t st, uint64_t acc)
{
    INT_ROW_SWITCH(dt, acc *= (uint64_t)v);
    return acc;
}

/* ---- generic per-output reductions (every op but the float sums) ---- */

typedef struct {
    int op, in_dt, out_dt;
    double p;           /* norm order */
    const tn_loop *outer;
    region reg;
    const void *in;
    void *out;
    int prod_vec;       /* lanes for upstream's vectorised product (0: sequential) */
} gen_plan;

/* max/min of one row, NaN-propagating, in double (every kernel float dtype fits). */
#define FMAX_ROW(T, LD)                                                         \
    do {                                                                        \
        const T *x = (const T *)in;                                             \
        for (int64_t i = 0; i < n; i++) {                                       \
            double v = LD(x[base + i * st]);                                    \
            if (v != v)                                                         \
                return v;                                                       \
            if (is_max ? v > acc : v < acc)                                     \
                acc = v;                                                        \
        }                                                                       \
    } while (0)

#define ID_LD(x) (x)

/* contiguous float32: branch-free so it vectorises; NaN checked once per row */
#if defined(__GNUC__)
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* GCC vector extensions: lane-wise select, so it compiles to max/blend on any target */
HOT static double
f32_row_max_c(const float *x, int64_t n, int is_max, double acc0)
{
    v8f acc;
    v8i nan = {0};
    for (int l = 0; l < 8; l++)
        acc[l] = (float)acc0;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v8f v;
        memcpy(&v, x + i, sizeof v);
        v8i take = is_max ? (v > acc) : (v < acc);
        acc = (v8f)(((v8i)v & take) | ((v8i)acc & ~take));
        nan |= v != v;
    }
    float r = (float)acc0;
    int anynan = 0;
    for (int l = 0; l < 8; l++) {
        r = (is_max ? acc[l] > r : acc[l] < r) ? acc[l] : r;
        anynan |= nan[l] != 0;
    }
    for (; i < n; i++) {
        r = (is_max ? x[i] > r : x[i] < r) ? x[i] : r;
        anynan |= x[i] != x[i];
    }
    return anynan ? (double)NAN : (double)r;
}
#else
static double
f32_row_max_c(const float *x, int64_t n, int is_max, double acc0)
{
    float r = (float)acc0;
    for (int64_t i = 0; i < n; i++) {
        if (x[i] != x[i])
            return NAN;
        r = (is_max ? x[i] > r : x[i] < r) ? x[i] : r;
    }
    return r;
}
#endif

static double
float_row_max(int dt, const void *in, int64_t base, int64_t n, int64_t st, int is_max, double acc)
{
    if (dt == TN_DTYPE_F32 && st == 1 && acc == acc)
        return f32_row_max_c((const float *)in + base, n, is_max, acc);
    switch (dt) {
    case TN_DTYPE_F32: FMAX_ROW(float, ID_LD); break;
    case TN_DTYPE_F64: FMAX_ROW(double, ID_LD); break;
    case TN_DTYPE_F16: FMAX_ROW(uint16_t, tn_f16_to_f32); break;
    case TN_DTYPE_BF16: FMAX_ROW(uint16_t, tn_bf16_to_f32); break;
    default: break;
    }
    return acc;
}

static int64_t
int_row_max(int dt, const void *in, int64_t base, int64_t n, int64_t st, int is_max, int64_t acc)
{
    if (is_max) {
        INT_ROW_SWITCH(dt, if (v > acc) acc = v);
    } else {
        INT_ROW_SWITCH(dt, if (v < acc) acc = v);
    }
    return acc;
}

static double
region_max_f64(const region *r, int dt, const void *in, int64_t base, int is_max)
{
    row_walk w;
    int64_t off, len;
    int64_t st = r->ndim ? r->stride[0] : 1;
    walk_start(&w, r, 0, r->numel);
    if (tn_dtype_is_kernel_float(dt)) {
        double acc = is_max ? -INFINITY : INFINITY;
        while (walk_next(&w, &off, &len)) {
            acc = float_row_max(dt, in, base + off, len, st, is_max, acc);
            if (acc != acc)
                return acc;
        }
        return acc;
    }
    int64_t acc = is_max ? INT64_MIN : INT64_MAX;
    while (walk_next(&w, &off, &len))
        acc = int_row_max(dt, in, base + off, len, st, is_max, acc);
    return (double)acc;
}

/* upstream's vectorized_inner_reduction for a product: 4 vector accumulators seeded by the
 * first 4 vectors, multiplied lane-wise, folded (a0*a1)*(a2*a3), lanes in order, then the
 * scalar tail. Every multiply rounds to the output dtype. */
static double
prod_row_vec(const gen_plan *g, int64_t base, int64_t n, double acc)
{
    const int W = g->prod_vec;
    const int dt = g->out_dt;
    int64_t count = n / (4 * W);
    double a[4][64];
    if (count > 0) {
        for (int q = 0; q < 4; q++)
            for (int l = 0; l < W; l++)
                a[q][l] = rnd(dt, tn_load_f64(g->in_dt, g->in, base + q * W + l));
        for (int64_t i = 1; i < count; i++)
            for (int q = 0; q < 4; q++)
                for (int l = 0; l < W; l++)
                    a[q][l] = rnd(dt, a[q][l] *
                                          rnd(dt, tn_load_f64(g->in_dt, g->in,
                                                         base + i * 4 * W + q * W + l)));
        double b = 0;
        for (int l = 0; l < W; l++) {
            double x = rnd(dt, a[0][l] * a[1][l]);
            double y = rnd(dt, a[2][l] * a[3][l]);
            double v = rnd(dt, x * y);
            b = l == 0 ? v : rnd(dt, b * v);
        }
        acc = rnd(dt, acc * b);
    }
    for (int64_t i = count * 4 * W; i < n; i++)
        acc = rnd(dt, acc * rnd(dt, tn_load_f64(g->in_dt, g->in, base + i)));
    return acc;
}

static double
norm_row(const gen_plan *g, int64_t base, int64_t n, int64_t st, double acc, int f32acc)
{
    double p = g->p;
    for (int64_t i = 0; i < n; i++) {
        double v = fabs(tn_load_f64(g->in_dt, g->in, base + i * st));
        if (f32acc)
            v = (float)v;
        if (p == 0) {
            acc += v != 0;
        } else if (p == 1) {
            acc += v;
        } else if (p == 2) {
            acc += f32acc ? (double)((float)v * (float)v) : v * v;
        } else if (isinf(p) && p > 0) {
            if (v != v || v > acc || acc != acc)
                acc = (acc != acc) ? acc : v;
            continue;
        } else if (isinf(p)) {
            if (v != v || v < acc || acc != acc)
                acc = (acc != acc) ? acc : v;
            continue;
        } else {
            acc += f32acc ? (double)powf((float)v, (float)p) : pow(v, p);
        }
        if (f32acc)
            acc = (float)acc;
    }
    return acc;
}

/* upstream's p=2 last-dim path: per-lane sums of squares, lanes in order, scalar tail. */
static double
norm2_row_vec(const gen_plan *g, int64_t base, int64_t n)
{
    int vb = tn_reduce_vector_bytes();
    int f64 = g->in_dt == TN_DTYPE_F64;
    int L = vb / (f64 ? 8 : 4);
    int W = vb / tn_dtype_size(g->in_dt);
    double acc[16] = {0};
    int64_t d = 0;
    for (; d < n - (n % W); d += W) {
        for (int l = 0; l < W; l++) {
            double x = tn_load_f64(g->in_dt, g->in, base + d + l);
            int lane = l % L;
            if (f64)
                acc[lane] = acc[lane] + x * x;
            else
                acc[lane] = (float)((float)acc[lane] + (float)x * (float)x);
        }
    }
    double b = acc[0];
    for (int l = 1; l < L; l++)
        b = f64 ? b + acc[l] : (float)((float)b + (float)acc[l]);
    for (; d < n; d++) {
        double x = tn_load_f64(g->in_dt, g->in, base + d);
        b = f64 ? b + x * x : (float)((float)b + (float)x * (float)x);
    }
    return f64 ? sqrt(b) : sqrtf((float)b);
}

/* Float prod or norm accumulator over region elements [b, e) of one output. */
static double
gen_range(const gen_plan *g, int64_t in_off, int64_t b, int64_t e, double acc)
{
    const region *r = &g->reg;
    int64_t st = r->ndim ? r->stride[0] : 1;
    row_walk w;
    int64_t off, len;
    walk_start(&w, r, b, e);
    while (walk_next(&w, &off, &len)) {
        if (g->op == TN_RED_NORM) {
            acc = norm_row(g, in_off + off, len, st, acc, g->in_dt != TN_DTYPE_F64);
        } else if (st == 1 && g->prod_vec) {
            acc = prod_row_vec(g, in_off + off, len, acc);
        } else {
            for (int64_t i = 0; i < len; i++) {
                double x = tn_load_f64(g->in_dt, g->in, in_off + off + i * st);
                acc = rnd(g->out_dt, acc * rnd(g->out_dt, x));
            }
        }
    }
    return acc;
}

static double
norm_project(const gen_plan *g, double acc)
{
    double p = g->p;
    int f32acc = g->in_dt != TN_DTYPE_F64;
    if (p == 0 || p == 1 || isinf(p))
        return acc;
    if (p == 2)
        return f32acc ? sqrtf((float)acc) : sqrt(acc);
    return f32acc ? powf((float)acc, 1.0f / (float)p) : pow(acc, 1.0 / p);
}

/* The identity a one-output prod or norm starts every partial from. */
static double
gen_ident(const gen_plan *g)
{
    return g->op == TN_RED_PROD ? 1 : (isinf(g->p) && g->p < 0 ? INFINITY : 0);
}

/* A chunk's partial of a one-output prod or norm. */
static double
gen_partial(const void *plan, int64_t begin, int64_t end)
{
    const gen_plan *g = plan;
    return gen_range(g, 0, begin, end, gen_ident(g));
}

static void
gen_full(const gen_plan *g)
{
    double parts[256];
    double p = g->p;
    int is_prod = g->op == TN_RED_PROD;
    double ident = gen_ident(g);
    int threads = split_partials(g->reg.numel, ident, gen_partial, g, parts);
    double acc = ident;
    for (int k = 0; k < threads; k++) {
        if (is_prod) {
            /* the partials buffer has the output dtype; its product is a plain loop */
            acc = rnd(g->out_dt, acc * rnd(g->out_dt, parts[k]));
        } else if (isinf(p)) {
            double b = parts[k];
            if (acc != acc || b != b)
                acc = acc != acc ? acc : b;
            else
                acc = (p > 0) == (b > acc) ? b : acc;
        } else {
            acc = g->in_dt == TN_DTYPE_F64 ? acc + parts[k] : (float)((float)acc + (float)parts[k]);
        }
    }
    st_f64(g->out_dt, g->out, 0, is_prod ? acc : norm_project(g, acc));
}

static void
gen_output(const gen_plan *g, int64_t out_off, int64_t in_off)
{
    const region *r = &g->reg;
    int64_t st = r->ndim ? r->stride[0] : 1;
    row_walk w;
    int64_t off, len;
    walk_start(&w, r, 0, r->numel);
    switch (g->op) {
    case TN_RED_MAX: case TN_RED_MIN: case TN_RED_AMAX: case TN_RED_AMIN: {
        int is_max = g->op == TN_RED_MAX || g->op == TN_RED_AMAX;
        if (tn_dtype_is_kernel_float(g->in_dt)) {
            st_f64(g->out_dt, g->out, out_off, region_max_f64(r, g->in_dt, g->in, in_off, is_max));
        } else {
            int64_t acc = is_max ? INT64_MIN : INT64_MAX;
            while (walk_next(&w, &off, &len))
                acc = int_row_max(g->in_dt, g->in, in_off + off, len, st, is_max, acc);
            st_i64(g->out_dt, g->out, out_off, acc);
        }
        return;
    }
    case TN_RED_ANY: case TN_RED_ALL: case TN_RED_COUNT_NONZERO: {
        int64_t nz = 0;
        while (walk_next(&w, &off, &len)) {
            for (int64_t i = 0; i < len; i++)
                nz += tn_load_f64(g->in_dt, g->in, in_off + off + i * st) != 0;
        }
        int64_t v = g->op == TN_RED_ANY ? nz > 0 : g->op == TN_RED_ALL ? nz == r->numel : nz;
        st_i64(g->out_dt, g->out, out_off, v);
        return;
    }
    case TN_RED_SUM: {
        uint64_t acc = 0;
        while (walk_next(&w, &off, &len)) {
            if (!tn_dtype_is_kernel_float(g->in_dt)) {
                acc += int_row_sum(g->in_dt, g->in, in_off + off, len, st);
            } else {
                for (int64_t i = 0; i < len; i++)
                    acc += (uint64_t)ld_i64_for(g->in_dt, g->out_dt, g->in, in_off + off + i * st);
            }
        }
        st_i64(g->out_dt, g->out, out_off, (int64_t)acc);
        return;
    }
    case TN_RED_PROD: {
        if (!tn_dtype_is_kernel_float(g->out_dt)) {
            uint64_t acc = 1;
            int in_int = !tn_dtype_is_kernel_float(g->in_dt);
            while (walk_next(&w, &off, &len)) {
                if (in_int) {
                    acc = int_row_prod(g->in_dt, g->in, in_off + off, len, st, acc);
                } else {
                    for (int64_t i = 0; i < len; i++)
                        acc *= (uint64_t)ld_i64_for(g->in_dt, g->out_dt, g->in, in_off + off + i * st);
                }
            }
            st_i64(g->out_dt, g->out, out_off, (int64_t)acc);
            return;
        }
        st_f64(g->out_dt, g->out, out_off, gen_range(g, in_off, 0, r->numel, 1));
        return;
    }
    case TN_RED_NORM: {
        double p = g->p;
        if (p == 2 && r->ndim == 1 && st == 1 && g->in_dt == g->out_dt &&
            g->in_dt != TN_DTYPE_F16) {
            st_f64(g->out_dt, g->out, out_off, norm2_row_vec(g, in_off, r->numel));
            return;
        }
        double acc = gen_range(g, in_off, 0, r->numel, gen_ident(g));
        st_f64(g->out_dt, g->out, out_off, norm_project(g, acc));
        return;
    }
    default:
        return;
    }
}

static void
gen_task(void *ctx, int64_t begin, int64_t end)
{
    const gen_plan *g = ctx;
    const tn_loop *l = g->outer;
    int64_t os = tn_loop_inner_stride(l, 0), is = tn_loop_inner_stride(l, 1);
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS], c0, c1;
        outer_item(l, t, off, &c0, &c1);
        for (int64_t j = c0; j < c1; j++)
            gen_output(g, off[0] + j * os, off[1] + j * is);
    }
}

static tn_status
generic_reduce(int op, int in_dt, int out_dt, const tn_loop *outer, const region *reg,
               void *out, const void *in, double p)
{
    gen_plan g;
    memset(&g, 0, sizeof g);
    g.op = op;
    g.in_dt = in_dt;
    g.out_dt = out_dt;
    g.p = p;
    g.outer = outer;
    g.reg = *reg;
    g.in = in;
    g.out = out;
    if (op == TN_RED_PROD && tn_dtype_is_kernel_float(out_dt)) {
        int lanes = tn_reduce_vector_bytes() / tn_dtype_size(out_dt);
        g.prod_vec = lanes <= 64 ? lanes : 0;
    }
    int lastdim_norm2 = op == TN_RED_NORM && p == 2 && reg->ndim == 1 && reg->stride[0] == 1 &&
                        in_dt == out_dt && in_dt != TN_DTYPE_F16;
    if ((op == TN_RED_NORM || (op == TN_RED_PROD && tn_dtype_is_kernel_float(out_dt))) &&
        !lastdim_norm2 && tn_loop_numel(outer) == 1 && reg->numel >= GRAIN &&
        tn_num_threads() > 1) {
        gen_full(&g);
        return TN_OK;
    }
    int64_t m = tn_loop_inner(outer);
    tn_parallel_for(outer_items(outer), grain_for(reg->numel * (m < COL_BLOCK ? m : COL_BLOCK)),
                    gen_task, &g);
    return TN_OK;
}

// nanmean / logsumexp (built on the float sum)

static int64_t
count_notnan(const region *r, int in_dt, const void *in, int64_t base)
{
    row_walk w;
    int64_t off, len, c = 0;
    int64_t st = r->ndim ? r->stride[0] : 1;
    walk_start(&w, r, 0, r->numel);
    while (walk_next(&w, &off, &len)) {
        for (int64_t i = 0; i < len; i++) {
            double v = tn_load_f64(in_dt, in, base + off + i * st);
            c += v == v;
        }
    }
    return c;
}

/* nanmean: upstream divides the (output-dtype) nansum by the count of non-NaN elements. */
static tn_status
nanmean_reduce(int in_dt, int out_dt, const tn_loop *outer, const region *reg, void *out,
               const void *in)
{
    tn_status st = float_sum(TN_RED_NANSUM, in_dt, out_dt, outer, reg, out, in);
    if (st != TN_OK)
        return st;
    tn_loop_pos pos;
    int64_t m = tn_loop_inner(outer);
    int64_t os = tn_loop_inner_stride(outer, 0), is = tn_loop_inner_stride(outer, 1);
    tn_loop_start(outer, &pos);
    do {
        for (int64_t j = 0; j < m; j++) {
            int64_t o = pos.offset[0] + j * os;
            int64_t c = count_notnan(reg, in_dt, in, pos.offset[1] + j * is);
            double s = tn_load_f64(out_dt, out, o);
            st_f64(out_dt, out, o, out_dt == TN_DTYPE_F64 ? s / (double)c : (float)s / (float)c);
        }
    } while (tn_loop_next(outer, &pos));
    return TN_OK;
}

/* Smallest and largest element offsets the geometry reaches (operand k of outer). */
static void
span_of(const tn_loop *outer, int k, const region *reg, int64_t *lo, int64_t *hi)
{
    int64_t a = 0, b = 0;
    for (int d = 0; d < outer->ndim; d++) {
        int64_t e = (outer->sizes[d] - 1) * outer->strides[k][d];
        if (e < 0)
            a += e;
        else
            b += e;
    }
    for (int d = 0; d < reg->ndim; d++) {
        int64_t e = (reg->size[d] - 1) * reg->stride[d];
        if (e < 0)
            a += e;
        else
            b += e;
    }
    *lo = a;
    *hi = b;
}

/* logsumexp as upstream composes it: m = amax (0 where |m| is inf), e = exp(x - m) in the
 * output dtype and in the input's layout, s = sum(e) (the float sum, so the same order),
 * result log(s) + m, each step rounded to the output dtype. */
static tn_status
lse_reduce(int in_dt, int out_dt, const tn_loop *outer, const region *reg, void *out,
           const void *in)
{
    int64_t nout = tn_loop_numel(outer);
    size_t es = (size_t)tn_dtype_size(out_dt);
    int64_t lo, hi;
    span_of(outer, 1, reg, &lo, &hi);
    char *tmp = reg->numel ? malloc((size_t)(hi - lo + 1) * es) : NULL;
    char *sums = malloc((size_t)nout * es);
    double *maxes = malloc((size_t)nout * sizeof(double));
    if ((reg->numel && !tmp) || !sums || !maxes) {
        free(tmp);
        free(sums);
        free(maxes);
        return TN_ERR_NOMEM;
    }
    tn_loop so = *outer;  /* the same outputs, written contiguously into sums */
    int64_t cs = 1;
    for (int d = so.ndim - 1; d >= 0; d--) {
        so.strides[0][d] = cs;
        cs *= so.sizes[d];
    }
    int f64 = out_dt == TN_DTYPE_F64;
    int64_t st = reg->ndim ? reg->stride[0] : 1;
    tn_loop_pos pos;
    int64_t m = tn_loop_inner(outer), is = tn_loop_inner_stride(outer, 1);
    int64_t o = 0;
    tn_loop_start(outer, &pos);
    do {
        for (int64_t j = 0; j < m; j++, o++) {
            int64_t base = pos.offset[1] + j * is;
            double mx = reg->numel ? rnd(out_dt, region_max_f64(reg, in_dt, in, base, 1)) : 0;
            if (isinf(mx))
                mx = 0;
            maxes[o] = mx;
            row_walk w;
            int64_t off, len;
            walk_start(&w, reg, 0, reg->numel);
            while (walk_next(&w, &off, &len)) {
                for (int64_t i = 0; i < len; i++) {
                    int64_t at = base + off + i * st;
                    double x = rnd(out_dt, tn_load_f64(in_dt, in, at));
                    double e = f64 ? exp(x - mx) : rnd(out_dt, expf((float)rnd(out_dt, x - mx)));
                    st_f64(out_dt, tmp, at - lo, e);
                }
            }
        }
    } while (tn_loop_next(outer, &pos));
    tn_status s = float_sum(TN_RED_SUM, out_dt, out_dt, &so, reg, sums,
                            tmp ? tmp - lo * (int64_t)es : NULL);
    if (s == TN_OK) {
        int64_t os = tn_loop_inner_stride(outer, 0);
        o = 0;
        tn_loop_start(outer, &pos);
        do {
            for (int64_t j = 0; j < m; j++, o++) {
                double sm = tn_load_f64(out_dt, sums, o), v;
                if (f64)
                    v = log(sm) + maxes[o];
                else
                    v = (float)rnd(out_dt, logf((float)sm)) + (float)maxes[o];
                st_f64(out_dt, out, pos.offset[0] + j * os, v);
            }
        } while (tn_loop_next(outer, &pos));
    }
    free(tmp);
    free(sums);
    free(maxes);
    return s;
}

// norm over one element

/* Note [Norm over one element]
 * A norm over one element is its absolute value (x != 0 for ord 0): upstream's
 * linalg_vector_norm takes abs() (ne(0)) when every reduced dim has size 1, so nothing is
 * squared or raised to a power (the 2-norm of 1e30 in float32 is 1e30, not inf). A 0-dim input
 * given explicit dims is the exception: its sizes() has no entry for the wrapped dim 0, the
 * size-1 test fails, and upstream runs its norm kernel, which squares in the accumulation type
 * (float for float32/bfloat16: the 2-norm of 1e30 over dim=0 is inf, so F.normalize gives 0).
 * The caller asks for that with TN_RED_NORM_FORMULA (ops/reduce.c). */
static tn_status
norm_of_one(int in_dt, int out_dt, const tn_loop *outer, void *out, const void *in, double p)
{
    tn_loop_pos pos;
    int64_t m = tn_loop_inner(outer), os = tn_loop_inner_stride(outer, 0), is = tn_loop_inner_stride(outer, 1);
    tn_loop_start(outer, &pos);
    do {
        for (int64_t j = 0; j < m; j++) {
            double x = tn_load_f64(in_dt, in, pos.offset[1] + j * is);
            st_f64(out_dt, out, pos.offset[0] + j * os, p == 0 ? (double)(x != 0) : fabs(x));
        }
    } while (tn_loop_next(outer, &pos));
    return TN_OK;
}

/* ---- entry ---- */

// reduce

tn_status
tn_reduce(tn_reduce_op op, int in_dtype, int out_dtype, const tn_loop *outer, int rdim,
          const int64_t *rsizes, const int64_t *rstrides, void *out, const void *in,
          double param)
{
    if (!tn_dtype_has_kernels(in_dtype) || !tn_dtype_has_kernels(out_dtype))
        return TN_ERR_DTYPE;
    if (!outer || outer->noperands < 2 || (int)op < 0 || op >= TN_NUM_REDUCE)
        return TN_ERR_VALUE;
    region reg;
    if (region_make(&reg, rdim, rsizes, rstrides) != 0)
        return TN_ERR_VALUE;
    if (tn_loop_numel(outer) == 0)
        return TN_OK;
    switch (op) {
    case TN_RED_SUM: case TN_RED_NANSUM:
        if (tn_dtype_is_kernel_float(out_dtype))
            return float_sum(op, in_dtype, out_dtype, outer, &reg, out, in);
        /* integer sum; nansum of integers is sum */
        return generic_reduce(TN_RED_SUM, in_dtype, out_dtype, outer, &reg, out, in, param);
    case TN_RED_MEAN:
        if (!tn_dtype_is_kernel_float(out_dtype))
            return TN_ERR_DTYPE;
        return float_sum(op, in_dtype, out_dtype, outer, &reg, out, in);
    case TN_RED_NANMEAN:
        if (!tn_dtype_is_kernel_float(out_dtype) || !tn_dtype_is_kernel_float(in_dtype))
            return TN_ERR_DTYPE;
        return nanmean_reduce(in_dtype, out_dtype, outer, &reg, out, in);
    case TN_RED_LOGSUMEXP:
        if (!tn_dtype_is_kernel_float(out_dtype))
            return TN_ERR_DTYPE;
        return lse_reduce(in_dtype, out_dtype, outer, &reg, out, in);
    case TN_RED_MAX: case TN_RED_MIN: case TN_RED_AMAX: case TN_RED_AMIN:
        if (in_dtype != out_dtype)
            return TN_ERR_VALUE;
        if (reg.numel == 0)
            return TN_ERR_VALUE;
        return generic_reduce(op, in_dtype, out_dtype, outer, &reg, out, in, param);
    case TN_RED_ANY: case TN_RED_ALL:
        if (out_dtype != TN_DTYPE_BOOL && out_dtype != TN_DTYPE_U8)
            return TN_ERR_DTYPE;
        return generic_reduce(op, in_dtype, out_dtype, outer, &reg, out, in, param);
    case TN_RED_COUNT_NONZERO:
        return generic_reduce(op, in_dtype, out_dtype, outer, &reg, out, in, param);
    case TN_RED_PROD:
        return generic_reduce(op, in_dtype, out_dtype, outer, &reg, out, in, param);
    case TN_RED_NORM: case TN_RED_NORM_FORMULA:
        if (!tn_dtype_is_kernel_float(in_dtype) || !tn_dtype_is_kernel_float(out_dtype))
            return TN_ERR_DTYPE;
        if (reg.numel == 0) {
            tn_loop_pos pos;
            int64_t m = tn_loop_inner(outer), os = tn_loop_inner_stride(outer, 0);
            tn_loop_start(outer, &pos);
            do {
                for (int64_t j = 0; j < m; j++)
                    st_f64(out_dtype, out, pos.offset[0] + j * os, param < 0 ? INFINITY : 0);
            } while (tn_loop_next(outer, &pos));
            return TN_OK;
        }
        if (reg.numel == 1 && op == TN_RED_NORM)
            return norm_of_one(in_dtype, out_dtype, outer, out, in, param);
        return generic_reduce(TN_RED_NORM, in_dtype, out_dtype, outer, &reg, out, in, param);
    default:
        return TN_ERR_VALUE;
    }
}

// argmax / argmin / max.dim / min.dim

typedef struct {
    int is_max, dt;
    const tn_loop *outer;
    int64_t n, stride;
    void *values;
    int64_t *indices;
    const void *in;
} arg_plan;

/* First index of the extreme; a NaN is the extreme and the first NaN ends the scan. */
#define ARG_LOOP(T, LD)                                                         \
    do {                                                                        \
        const T *x = (const T *)in + base;                                      \
        best = LD(x[0]);                                                        \
        for (int64_t i = 0; i < n; i++) {                                       \
            double v = LD(x[i * st]);                                           \
            if (v != v) {                                                       \
                best = v;                                                       \
                bi = i;                                                         \
                break;                                                          \
            }                                                                   \
            if (is_max ? v > best : v < best) {                                 \
                best = v;                                                       \
                bi = i;                                                         \
            }                                                                   \
        }                                                                       \
    } while (0)

#define ARG_ILOOP(T)                                                            \
    do {                                                                        \
        const T *x = (const T *)in + base;                                      \
        ibest = (int64_t)x[0];                                                  \
        for (int64_t i = 1; i < n; i++) {                                       \
            int64_t v = (int64_t)x[i * st];                                     \
            if (is_max ? v > ibest : v < ibest) {                               \
                ibest = v;                                                      \
                bi = i;                                                         \
            }                                                                   \
        }                                                                       \
    } while (0)

static void
arg_line(const arg_plan *a, int64_t vo, int64_t io, int64_t base)
{
    const void *in = a->in;
    int64_t n = a->n, st = a->stride, bi = 0;
    int is_max = a->is_max;
    double best = 0;
    int64_t ibest = 0;
    switch (a->dt) {
    case TN_DTYPE_F32: ARG_LOOP(float, ID_LD); break;
    case TN_DTYPE_F64: ARG_LOOP(double, ID_LD); break;
    case TN_DTYPE_F16: ARG_LOOP(uint16_t, tn_f16_to_f32); break;
    case TN_DTYPE_BF16: ARG_LOOP(uint16_t, tn_bf16_to_f32); break;
    case TN_DTYPE_BOOL: case TN_DTYPE_U8: ARG_ILOOP(uint8_t); break;
    case TN_DTYPE_I8: ARG_ILOOP(int8_t); break;
    case TN_DTYPE_I16: ARG_ILOOP(int16_t); break;
    case TN_DTYPE_I32: ARG_ILOOP(int32_t); break;
    case TN_DTYPE_I64: ARG_ILOOP(int64_t); break;
    default: break;
    }
    a->indices[io] = bi;
    if (a->values) {
        /* copy the element itself: keeps NaN payloads and the sign of zero */
        size_t es = (size_t)tn_dtype_size(a->dt);
        memcpy((char *)a->values + vo * (int64_t)es,
               (const char *)in + (base + bi * st) * (int64_t)es, es);
    }
    (void)best;
    (void)ibest;
}

static void
arg_task(void *ctx, int64_t begin, int64_t end)
{
    const arg_plan *a = ctx;
    const tn_loop *l = a->outer;
    int64_t s0 = tn_loop_inner_stride(l, 0), s1 = tn_loop_inner_stride(l, 1);
    int64_t s2 = tn_loop_inner_stride(l, 2);
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS], c0, c1;
        outer_item(l, t, off, &c0, &c1);
        for (int64_t j = c0; j < c1; j++)
            arg_line(a, off[0] + j * s0, off[1] + j * s1, off[2] + j * s2);
    }
}

tn_status
tn_reduce_arg(int is_max, int dtype, const tn_loop *outer, int64_t n, int64_t stride,
              void *values, int64_t *indices, const void *in)
{
    if (!tn_dtype_has_kernels(dtype))
        return TN_ERR_DTYPE;
    if (!outer || outer->noperands < 3 || !indices)
        return TN_ERR_VALUE;
    if (tn_loop_numel(outer) == 0)
        return TN_OK;
    if (n <= 0)
        return TN_ERR_VALUE;
    arg_plan a = {is_max != 0, dtype, outer, n, stride, values, indices, in};
    int64_t m = tn_loop_inner(outer);
    tn_parallel_for(outer_items(outer), grain_for(n * (m < COL_BLOCK ? m : COL_BLOCK)), arg_task,
                    &a);
    return TN_OK;
}

// var / std (and var_mean / std_mean)

/* Welford state as upstream's WelfordOps keeps it, in double. */
typedef struct {
    double mean, m2, nf;
    int64_t n;
} welford;

static inline void
welford_add(welford *w, double x)
{
    w->n++;
    w->nf = (double)w->n;
    double delta = x - w->mean;
    w->mean += delta / w->nf;
    w->m2 = w->m2 + delta * (x - w->mean);
}

static welford
welford_combine(welford a, welford b)
{
    if (a.nf == 0)
        return b;
    if (b.nf == 0)
        return a;
    double delta = b.mean - a.mean;
    double cnt = a.nf + b.nf;
    double nb = b.nf / cnt;
    welford r;
    r.mean = a.mean + delta * nb;
    r.m2 = a.m2 + b.m2 + delta * delta * a.nf * nb;
    r.n = -1;
    r.nf = cnt;
    return r;
}

#define WELFORD_LOOP(T, LD)                                                     \
    do {                                                                        \
        const T *x = (const T *)in;                                             \
        for (int64_t i = 0; i < len; i++)                                       \
            welford_add(w, LD(x[base + i * st]));                               \
    } while (0)

static void
welford_row(welford *w, int dt, const void *in, int64_t base, int64_t len, int64_t st)
{
    switch (dt) {
    case TN_DTYPE_F32: WELFORD_LOOP(float, ID_LD); break;
    case TN_DTYPE_F64: WELFORD_LOOP(double, ID_LD); break;
    case TN_DTYPE_F16: WELFORD_LOOP(uint16_t, tn_f16_to_f32); break;
    case TN_DTYPE_BF16: WELFORD_LOOP(uint16_t, tn_bf16_to_f32); break;
    default: break;
    }
}

static welford
welford_range(const region *r, int dt, const void *in, int64_t base, int64_t b, int64_t e)
{
    welford w = {0, 0, 0, 0};
    row_walk rw;
    int64_t off, len;
    int64_t st = r->ndim ? r->stride[0] : 1;
    walk_start(&rw, r, b, e);
    while (walk_next(&rw, &off, &len))
        welford_row(&w, dt, in, base + off, len, st);
    return w;
}

typedef struct {
    int dt;
    const tn_loop *outer;
    region reg;
    void *out, *mean_out;
    const void *in;
    double correction;
    int take_sqrt;
    /* one-output split */
    int64_t chunk;
    welford *parts;
} var_plan;

static void
var_store(const var_plan *v, int64_t o0, int64_t o1, welford w)
{
    double divisor = w.nf > v->correction ? w.nf - v->correction : 0;
    double var = w.m2 / divisor;
    st_f64(v->dt, v->out, o0, v->take_sqrt ? sqrt(var) : var);
    if (v->mean_out)
        st_f64(v->dt, v->mean_out, o1, w.mean);
}

static void
var_task(void *ctx, int64_t begin, int64_t end)
{
    const var_plan *v = ctx;
    const tn_loop *l = v->outer;
    int64_t s0 = tn_loop_inner_stride(l, 0), s1 = tn_loop_inner_stride(l, 1);
    int64_t s2 = l->noperands > 2 ? tn_loop_inner_stride(l, 2) : s0;
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS], c0, c1;
        outer_item(l, t, off, &c0, &c1);
        int64_t mo = l->noperands > 2 ? off[2] : off[0];
        for (int64_t j = c0; j < c1; j++) {
            welford w = welford_range(&v->reg, v->dt, v->in, off[1] + j * s1, 0, v->reg.numel);
            var_store(v, off[0] + j * s0, mo + j * s2, w);
        }
    }
}

static void
var_split_task(void *ctx, int64_t begin, int64_t end)
{
    const var_plan *v = ctx;
    for (int64_t k = begin; k < end; k++) {
        int64_t b = k * v->chunk, e = b + v->chunk < v->reg.numel ? b + v->chunk : v->reg.numel;
        v->parts[k] = welford_range(&v->reg, v->dt, v->in, 0, b, e);
    }
}

/* upstream's std_var_all_cpu: float mean, then sum of squared deviations in double, each
 * 2-d block of the iteration summed on its own and added to its chunk's total. */
typedef struct {
    const region *r;
    int dt;
    const void *in;
    double mean;
    int64_t chunk;
    double *parts;
} dx2_plan;

static double
dx2_range(const dx2_plan *p, int64_t b, int64_t e)
{
    const region *r = p->r;
    int64_t n0 = r->ndim ? r->size[0] : 1;
    int64_t n1 = r->ndim > 1 ? r->size[1] : 1;
    int64_t st = r->ndim ? r->stride[0] : 1;
    double total = 0;
    int64_t pos = b;
    while (pos < e) {
        /* 2-d block at pos: a partial row, or whole rows up to the end of dim 1 */
        int64_t lin = pos, off = 0, i0 = 0, i1 = 0;
        for (int d = 0; d < r->ndim; d++) {
            int64_t i = lin % r->size[d];
            lin /= r->size[d];
            off += i * r->stride[d];
            if (d == 0)
                i0 = i;
            if (d == 1)
                i1 = i;
        }
        int64_t step0 = n0 - i0 < e - pos ? n0 - i0 : e - pos;
        int64_t step1 = 1;
        if (step0 == n0 && r->ndim > 1) {
            step1 = n1 - i1 < (e - pos) / n0 ? n1 - i1 : (e - pos) / n0;
        }
        int64_t s1 = r->ndim > 1 ? r->stride[1] : 0;
        double local = 0;
        for (int64_t j = 0; j < step1; j++)
            for (int64_t i = 0; i < step0; i++) {
                double dx = tn_load_f64(p->dt, p->in, off + j * s1 + i * st) - p->mean;
                local += dx * dx;
            }
        total += local;
        pos += step0 * step1;
    }
    return total;
}

static void
dx2_task(void *ctx, int64_t begin, int64_t end)
{
    const dx2_plan *p = ctx;
    for (int64_t k = begin; k < end; k++) {
        int64_t b = k * p->chunk, e = b + p->chunk < p->r->numel ? b + p->chunk : p->r->numel;
        p->parts[k] = dx2_range(p, b, e);
    }
}

static void
var_all(const var_plan *v)
{
    /* the mean comes from the mean kernel, in the input dtype */
    double meanv;
    tn_loop one;
    memset(&one, 0, sizeof one);
    one.noperands = 2;
    if (v->dt == TN_DTYPE_F32) {
        float mf;
        float_sum(TN_RED_MEAN, v->dt, TN_DTYPE_F32, &one, &v->reg, &mf, v->in);
        meanv = mf;
    } else {
        float_sum(TN_RED_MEAN, v->dt, TN_DTYPE_F64, &one, &v->reg, &meanv, v->in);
    }
    int threads = tn_num_threads();
    if (threads > 256)
        threads = 256;
    double parts[256] = {0};
    dx2_plan p = {&v->reg, v->dt, v->in, meanv, v->reg.numel, parts};
    int64_t nchunks = 1;
    if (v->reg.numel > GRAIN && threads > 1)
        nchunks = upstream_chunks(v->reg.numel, threads, &p.chunk);
    tn_parallel_for(nchunks, 1, dx2_task, &p);
    double sum = 0;
    for (int64_t k = 0; k < nchunks; k++)
        sum += parts[k];
    double den = (double)v->reg.numel - v->correction;
    double var = sum / (den > 0 ? den : 0);
    st_f64(v->dt, v->out, 0, v->take_sqrt ? sqrt(var) : var);
}

tn_status
tn_reduce_var(int dtype, const tn_loop *outer, int rdim, const int64_t *rsizes,
              const int64_t *rstrides, void *out, void *mean_out, const void *in,
              double correction, int take_sqrt)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (!outer || outer->noperands < 2)
        return TN_ERR_VALUE;
    var_plan v;
    memset(&v, 0, sizeof v);
    if (region_make(&v.reg, rdim, rsizes, rstrides) != 0)
        return TN_ERR_VALUE;
    v.dt = dtype;
    v.outer = outer;
    v.out = out;
    v.mean_out = mean_out;
    v.in = in;
    v.correction = correction;
    v.take_sqrt = take_sqrt;
    int64_t nout = tn_loop_numel(outer);
    if (nout == 0)
        return TN_OK;
    if (nout == 1 && !mean_out && v.reg.numel > 0 &&
        (dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_F64)) {
        var_all(&v);
        return TN_OK;
    }
    int threads = tn_num_threads();
    if (nout == 1 && v.reg.numel >= GRAIN && threads > 1) {
        welford parts[256];
        if (threads > 256)
            threads = 256;
        int64_t nchunks = upstream_chunks(v.reg.numel, threads, &v.chunk);
        v.parts = parts;
        tn_parallel_for(nchunks, 1, var_split_task, &v);
        welford tot = {0, 0, 0, 0};
        for (int64_t k = 0; k < nchunks; k++)
            tot = welford_combine(tot, parts[k]);
        var_store(&v, 0, 0, tot);
        return TN_OK;
    }
    int64_t m = tn_loop_inner(outer);
    tn_parallel_for(outer_items(outer), grain_for(v.reg.numel * (m < COL_BLOCK ? m : COL_BLOCK)),
                    var_task, &v);
    return TN_OK;
}

// cumsum / cumprod / cummax / cummin / logcumsumexp

typedef struct {
    int op, in_dt, out_dt;
    const tn_loop *outer;
    int64_t n, is, os;
    void *out;
    int64_t *idx;
    const void *in;
} scan_plan;

/* log(exp(x) + exp(y)) as upstream's _log_add_exp_helper, in the accumulation type. */
static inline double
log_add_exp(double x, double y, int f64)
{
    double mn = y != y ? y : (y < x ? y : x);
    double mx = y != y ? y : (x < y ? y : x);
    if (mn != mx || isfinite(mn)) {
        if (f64)
            return log1p(exp(mn - mx)) + mx;
        return log1pf(expf((float)mn - (float)mx)) + (float)mx;
    }
    return x;
}

static void
scan_line(const scan_plan *p, int64_t oo, int64_t ii, int64_t xo)
{
    int64_t n = p->n, is = p->is, os = p->os;
    int odt = p->out_dt;
    switch (p->op) {
    case TN_SCAN_CUMSUM: case TN_SCAN_CUMPROD: {
        int prod = p->op == TN_SCAN_CUMPROD;
        if (!tn_dtype_is_kernel_float(odt)) {
            uint64_t acc = prod ? 1 : 0;
            for (int64_t i = 0; i < n; i++) {
                uint64_t v = (uint64_t)ld_i64(p->in_dt, p->in, ii + i * is);
                if (odt == TN_DTYPE_BOOL)
                    v = v != 0;
                acc = prod ? acc * v : acc + v;
                st_i64(odt, p->out, oo + i * os, (int64_t)acc);
            }
            return;
        }
        /* acc_type<out, false>: double for float32/float64, float for the half types */
        int dacc = odt == TN_DTYPE_F32 || odt == TN_DTYPE_F64;
        double acc = prod ? 1 : 0;
        for (int64_t i = 0; i < n; i++) {
            double v = rnd(odt, tn_load_f64(p->in_dt, p->in, ii + i * is));
            if (dacc)
                acc = prod ? acc * v : acc + v;
            else
                acc = prod ? (float)acc * (float)v : (float)acc + (float)v;
            st_f64(odt, p->out, oo + i * os, acc);
        }
        return;
    }
    case TN_SCAN_LOGCUMSUMEXP: {
        int dacc = odt == TN_DTYPE_F32 || odt == TN_DTYPE_F64;
        double acc = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            double v = rnd(odt, tn_load_f64(p->in_dt, p->in, ii + i * is));
            acc = log_add_exp(v, acc, dacc);
            st_f64(odt, p->out, oo + i * os, acc);
        }
        return;
    }
    default: {
        /* cummax / cummin: a NaN or a new extreme (ties included) moves the index */
        int is_max = p->op == TN_SCAN_CUMMAX;
        size_t es = (size_t)tn_dtype_size(p->in_dt);
        if (tn_dtype_is_kernel_float(p->in_dt)) {
            double best = tn_load_f64(p->in_dt, p->in, ii);
            int64_t bi = 0, bsrc = ii;
            for (int64_t i = 0; i < n; i++) {
                double v = tn_load_f64(p->in_dt, p->in, ii + i * is);
                if (v != v || (best == best && (is_max ? v >= best : v <= best))) {
                    best = v;
                    bi = i;
                    bsrc = ii + i * is;
                }
                memcpy((char *)p->out + (oo + i * os) * (int64_t)es,
                       (const char *)p->in + bsrc * (int64_t)es, es);
                p->idx[xo + i * os] = bi;
            }
        } else {
            int64_t best = ld_i64(p->in_dt, p->in, ii), bi = 0;
            for (int64_t i = 0; i < n; i++) {
                int64_t v = ld_i64(p->in_dt, p->in, ii + i * is);
                if (is_max ? v >= best : v <= best) {
                    best = v;
                    bi = i;
                }
                st_i64(p->out_dt, p->out, oo + i * os, best);
                p->idx[xo + i * os] = bi;
            }
        }
        return;
    }
    }
}

static void
scan_task(void *ctx, int64_t begin, int64_t end)
{
    const scan_plan *p = ctx;
    const tn_loop *l = p->outer;
    int64_t s0 = tn_loop_inner_stride(l, 0), s1 = tn_loop_inner_stride(l, 1);
    int64_t s2 = l->noperands > 2 ? tn_loop_inner_stride(l, 2) : s0;
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS], c0, c1;
        outer_item(l, t, off, &c0, &c1);
        int64_t xo = l->noperands > 2 ? off[2] : off[0];
        for (int64_t j = c0; j < c1; j++)
            scan_line(p, off[0] + j * s0, off[1] + j * s1, xo + j * s2);
    }
}

tn_status
tn_scan(int op, int in_dtype, int out_dtype, const tn_loop *outer, int64_t n, int64_t in_stride,
        int64_t out_stride, void *out, int64_t *indices, const void *in)
{
    if (!tn_dtype_has_kernels(in_dtype) || !tn_dtype_has_kernels(out_dtype))
        return TN_ERR_DTYPE;
    if (!outer || outer->noperands < 2 || op < 0 || op >= TN_NUM_SCAN || n < 0)
        return TN_ERR_VALUE;
    if (op == TN_SCAN_CUMMAX || op == TN_SCAN_CUMMIN) {
        if (in_dtype != out_dtype || !indices)
            return TN_ERR_VALUE;
    }
    if (op == TN_SCAN_LOGCUMSUMEXP && !tn_dtype_is_kernel_float(out_dtype))
        return TN_ERR_DTYPE;
    if (n == 0 || tn_loop_numel(outer) == 0)
        return TN_OK;
    scan_plan p = {op, in_dtype, out_dtype, outer, n, in_stride, out_stride, out, indices, in};
    int64_t m = tn_loop_inner(outer);
    tn_parallel_for(outer_items(outer), grain_for(n * (m < COL_BLOCK ? m : COL_BLOCK)), scan_task,
                    &p);
    return TN_OK;
}

// histc

#define HISTC_BODY(T)                                                                          \
    do {                                                                                       \
        const T *x = in;                                                                       \
        T *h = hist;                                                                           \
        const T left = (T)lo, right = (T)hi;                                                   \
        for (int64_t i = 0; i < n; i++) {                                                      \
            T e = x[i];                                                                        \
            if (!(e >= left && e <= right))                                                    \
                continue;                                                                      \
            int64_t pos = (int64_t)((e - left) * (T)bins / (right - left));                    \
            if (pos == bins)                                                                   \
                pos -= 1;                                                                      \
            h[pos] += 1;                                                                       \
        }                                                                                      \
    } while (0)

static void
histc_f32(const float *in, int64_t n, double lo, double hi, int64_t bins, float *hist)
{
    HISTC_BODY(float);
}

static void
histc_f64(const double *in, int64_t n, double lo, double hi, int64_t bins, double *hist)
{
    HISTC_BODY(double);
}

tn_status
tn_histc(int dtype, const void *in, int64_t n, double lo, double hi, int64_t bins, void *hist)
{
    switch (dtype) {
    case TN_DTYPE_F32:
        histc_f32(in, n, lo, hi, bins, hist);
        return TN_OK;
    case TN_DTYPE_F64:
        histc_f64(in, n, lo, hi, bins, hist);
        return TN_OK;
    default:
        return TN_ERR_DTYPE;
    }
}
