/* Matrix multiplication kernels: packed, register-blocked f32 GEMM (f16/bf16 widen while packing),
 * GEMVs for a few rows, plain loops for f64 and the integers, and Linear with cached XNNPACK ops.
 * To add an ISA: write ukr_<MR>x<NR>__<isa> (and dot_/axpy_ variants if they pay), then add it to
 * select_kernels(). To add a dtype: a case in tn_gemm and, for a float type, pack/GEMV loaders.
 * See Note [GEMM blocking] for how the pieces fit.
 */
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */
#include "matmul.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xnnpack.h>

#include "cpu.h"
#include "parallel.h"


/* Note [GEMM blocking]
 * The float GEMM is the BLIS/GotoBLAS scheme. tn_gemm cuts C into tasks of at most TASK_MC rows by
 * GEMM_NC columns (per batch entry) and runs them with tn_parallel_for; when the work is worth
 * threads (>= 200k flops) and there are fewer than two tasks per thread, column tiles shrink to
 * 32, then row tiles to GEMM_MC / 2. Each task, on its thread:
 *   for pc in k by GEMM_KC:  pack B[pc:pc+kc, cols] into NR-wide strips (k-major, zero padded)
 *     for ic in rows by GEMM_MC:  pack A[ic:ic+mc, pc:pc+kc] into MR-tall strips
 *       for each NR strip, each MR strip:  micro-kernel MR×NR over kc, into C
 * Packing reads any strides and widens f16/bf16 to f32, so a transposed operand (Linear's
 * weight.t(): B with row stride 1) costs one pass over each block, never a transposed tensor.
 * The micro-kernel writes C = alpha*acc + beta*C straight into a float32 C whose columns are
 * contiguous (beta = 1 after the first k block); other C (f16/bf16, strided columns) goes through an
 * f32 workspace per task that is rounded into C once at the end.
 * Few rows (m <= SMALL_M) skip packing: dot_* kernels stream each row of B^T (a Linear weight row)
 * once for all rows of A (threads: see Note [GEMV threads]), axpy_* kernels stream rows of a
 * row-major B. n == 1 is turned into m == 1
 * by computing C^T = B^T A^T, so matrix-vector products land there too.
 * bf16 × bf16 on AVX512-BF16 keeps bf16 all the way: packing pairs consecutive k and vdpbf16ps does
 * two products per lane (ukr_8x32__avx512bf16, dot_bf16x2__avx512bf16), as oneDNN does upstream.
 * The thread partition never changes which products a C element sums or in what order, so results
 * are identical for any thread count.
 */

/* Note [GEMV prefetch]
 * The few-row dot kernels stream W rows from memory, one stream per W row in flight. With one x
 * row (decode) they read 8 W rows at a time and issue no software prefetch: Zen 5's hardware
 * prefetchers keep 8 streams busy, and prefetching the next 8 rows as well made the decode
 * sequence of SmolLM2-135M GEMVs ~12% slower (35.7 vs 40 GB/s on one core, f32; the bf16
 * vdpbf16ps kernel went from 28 to 35 GB/s once its masked loads were kept to the k tail).
 * With several x rows they read 4 W rows at a time, too few streams: while the first x-row group
 * is computed they prefetch the same offsets of the next 4 W rows, one line per row per 64 bytes
 * of k (without it: m = 2 at 18 instead of 27 GB/s, bf16 lm_head m = 6 at 9 GB/s). */

enum {
    GEMM_MC = 72,   /* rows of A per packed block: a multiple of every MR (4, 6, 8) */
    GEMM_KC = 256,  /* depth of a packed block: an MR×KC and a KC×NR strip fit in L1 */
    GEMM_NC = 256,  /* columns per task and per packed B block (KC×NC floats = 256 KiB, L2) */
    TASK_MC = 576,  /* rows per task at most: B blocks are packed once per task */
    SMALL_M = 12,   /* at most this many rows: GEMV kernels, no packing (measured crossover,
                     * in = 576, out = 576/1536, AVX-512: packing W costs more below) */
    MAX_MR = 8,
    MAX_NR = 32,
    XNN_MAX_M = 32,   /* tn_linear_f32 runs XNNPACK for SMALL_M < m <= XNN_MAX_M */
    PACK_SLACK = 16,  /* floats after a packed block that a vector packer may overrun */
};

/* ---- micro-kernel selection ---- */

typedef void (*ukr_fn)(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc,
                       float alpha, float beta);

/* dot: c[i][j] = alpha * sum_p x[i*k+p] * w[j*w_rs+p] + beta*c[i*ldc+j], i < mx, j < nw. */
typedef void (*dot_fn)(int64_t mx, int64_t nw, int64_t k, const float *x, const void *w,
                       int64_t w_rs, float *c, int64_t ldc, float alpha, float beta);
/* axpy: c[i][j] = alpha * sum_p x[i*k+p] * b[p*b_rs+j] + beta*c[i*ldc+j], i < mx, j < n. */
typedef void (*axpy_fn)(int64_t mx, int64_t n, int64_t k, const float *x, const void *b,
                        int64_t b_rs, float *c, int64_t ldc, float alpha, float beta);

/* pack: see pack_a_* and pack_b_* below. */
typedef void (*pack_fn)(const void *src, int64_t rs, int64_t cs, int64_t rows, int64_t cols, int r,
                        float *dst);

/* bf16 × bf16 micro-kernel over kp packed k pairs (see ukr_8x32__avx512bf16) */
typedef void (*ukr_bf16_fn)(int64_t kp, const uint32_t *pa, const uint32_t *pb, float *c,
                            int64_t ldc, float alpha, float beta);

/* store_row: c[j] = round(alpha*w[j] + beta*c[j]) for j < n, c contiguous, of the indexed dtype;
 * beta == 0: c not read. */
typedef void (*store_row_fn)(const float *w, int64_t n, void *c, float alpha, float beta);

/* bf16 × bf16 dot kernel: x rows bf16 with row stride xk (zero padded to a multiple of 32) */
typedef void (*dot_bf16_fn)(int64_t mx, int64_t nw, int64_t k, int64_t xk, const uint16_t *x,
                            const uint16_t *w, int64_t w_rs, float *c, int64_t ldc, float alpha,
                            float beta);

typedef struct {
    const char *isa;
    int mr, nr;
    ukr_fn ukr;
    ukr_bf16_fn ukr_bf16;  /* NULL: bf16 × bf16 widens to f32 like f16 does (MR = 8, NR = 32) */
    dot_bf16_fn dot_bf16;  /* NULL: bf16 × bf16 few-row products widen to f32 */
    /* the rest indexed by wide_index(): f32, f16, bf16 */
    dot_fn dot[3];
    axpy_fn axpy[3];
    pack_fn pack_a[3], pack_b[3];
    store_row_fn store_row[3];
} gemm_kernels;

static int
wide_index(int dtype)
{
    return dtype == TN_DTYPE_F32 ? 0 : dtype == TN_DTYPE_F16 ? 1 : 2;
}

static bool
is_f32_family(int dtype)
{
    return dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16;
}

/* ---- scratch: one growing buffer per thread and purpose, 64-byte aligned ---- */

typedef struct {
    float *p;
    size_t cap;
} scratch;

static _Thread_local scratch tls_pack;   /* packed A and B blocks, GEMV row copies */
static _Thread_local scratch tls_work;   /* f32 C workspace of a task */

static float *
scratch_get(scratch *s, size_t floats)
{
    if (floats > s->cap) {
        size_t cap = floats + floats / 4 + 1024;
        size_t bytes = (cap * sizeof(float) + 63) & ~(size_t)63;
        float *p = aligned_alloc(64, bytes);
        if (!p)
            return NULL;
        free(s->p);
        s->p = p;
        s->cap = cap;
    }
    return s->p;
}

/* ---- widening element loads ---- */

static inline float
load_f32(const float *p)
{
    return *p;
}

static inline float
load_f16(const uint16_t *p)
{
    return tn_f16_to_f32(*p);
}

static inline float
load_bf16(const uint16_t *p)
{
    return tn_bf16_to_f32(*p);
}

/* An operand: element (i, j) of one matrix is at p + i*rs + j*cs (elements of dtype). */
typedef struct {
    int dtype;
    const void *p;
    int64_t rs, cs;
} mat;

static const void *
mat_at(const mat *a, int64_t i, int64_t j)
{
    return (const char *)a->p + (i * a->rs + j * a->cs) * tn_dtype_size(a->dtype);
}

/* ---- packing ---- */

/* pack_a: rows [0, mc) and columns [0, kc) of A into MR-tall strips, dst[strip][p][r]. */
#define DEFINE_PACK_A(NAME, T, LOAD)                                                          \
    static void                                                                              \
    pack_a_##NAME(const void *av, int64_t rs, int64_t cs, int64_t mc, int64_t kc, int mr,     \
                  float *dst)                                                                \
    {                                                                                        \
        const T *a = av;                                                                     \
        for (int64_t i0 = 0; i0 < mc; i0 += mr) {                                            \
            int64_t rows = mc - i0 < mr ? mc - i0 : mr;                                      \
            if (cs == 1) {                                                                   \
                for (int64_t r = 0; r < rows; r++) {                                         \
                    const T *src = a + (i0 + r) * rs;                                        \
                    for (int64_t p = 0; p < kc; p++)                                         \
                        dst[p * mr + r] = LOAD(src + p);                                     \
                }                                                                            \
            } else {                                                                         \
                for (int64_t p = 0; p < kc; p++) {                                           \
                    const T *src = a + i0 * rs + p * cs;                                     \
                    for (int64_t r = 0; r < rows; r++)                                       \
                        dst[p * mr + r] = LOAD(src + r * rs);                                \
                }                                                                            \
            }                                                                                \
            for (int64_t r = rows; r < mr; r++)                                              \
                for (int64_t p = 0; p < kc; p++)                                             \
                    dst[p * mr + r] = 0.0f;                                                  \
            dst += (int64_t)mr * kc;                                                         \
        }                                                                                    \
    }

/* pack_b: rows [0, kc) and columns [0, nc) of B into NR-wide strips, dst[strip][p][c]. */
#define DEFINE_PACK_B(NAME, T, LOAD)                                                          \
    static void                                                                              \
    pack_b_##NAME(const void *bv, int64_t rs, int64_t cs, int64_t kc, int64_t nc, int nr,     \
                  float *dst)                                                                \
    {                                                                                        \
        const T *b = bv;                                                                     \
        for (int64_t j0 = 0; j0 < nc; j0 += nr) {                                            \
            int64_t cols = nc - j0 < nr ? nc - j0 : nr;                                      \
            if (rs == 1 && cs != 1) {                                                        \
                /* B^T rows are contiguous (Linear's weight.t()): read each once */          \
                for (int64_t c = 0; c < cols; c++) {                                         \
                    const T *src = b + (j0 + c) * cs;                                        \
                    for (int64_t p = 0; p < kc; p++)                                         \
                        dst[p * nr + c] = LOAD(src + p);                                     \
                }                                                                            \
            } else {                                                                         \
                for (int64_t p = 0; p < kc; p++) {                                           \
                    const T *src = b + p * rs + j0 * cs;                                     \
                    for (int64_t c = 0; c < cols; c++)                                       \
                        dst[p * nr + c] = LOAD(src + c * cs);                                \
                }                                                                            \
            }                                                                                \
            if (cols < nr)                                                                   \
                for (int64_t p = 0; p < kc; p++)                                             \
                    for (int64_t c = cols; c < nr; c++)                                      \
                        dst[p * nr + c] = 0.0f;                                              \
            dst += (int64_t)nr * kc;                                                         \
        }                                                                                    \
    }

DEFINE_PACK_A(f32, float, load_f32)
DEFINE_PACK_A(f16, uint16_t, load_f16)
DEFINE_PACK_A(bf16, uint16_t, load_bf16)
DEFINE_PACK_B(f32, float, load_f32)
DEFINE_PACK_B(f16, uint16_t, load_f16)
DEFINE_PACK_B(bf16, uint16_t, load_bf16)


/* Rows [0, mx) of A, widened to contiguous f32 rows of length k (the x of the GEMV kernels). */
static void
widen_rows(const mat *a, int64_t mx, int64_t k, float *dst)
{
    for (int64_t i = 0; i < mx; i++) {
        for (int64_t p = 0; p < k; p++) {
            const void *e = mat_at(a, i, p);
            switch (a->dtype) {
            case TN_DTYPE_F32: dst[i * k + p] = *(const float *)e; break;
            case TN_DTYPE_F16: dst[i * k + p] = load_f16(e); break;
            default: dst[i * k + p] = load_bf16(e); break;
            }
        }
    }
}

/* ---- micro-kernels: C[MR][NR] (row stride ldc) = alpha * pa·pb + beta * C ---- */

static void
ukr_4x8__scalar(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc, float alpha,
                float beta)
{
    float acc[4][8] = {{0}};
    for (int64_t p = 0; p < kc; p++) {
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < 8; j++)
                acc[r][j] += pa[r] * pb[j];
        pa += 4;
        pb += 8;
    }
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 8; j++)
            c[r * ldc + j] = beta == 0.0f ? alpha * acc[r][j]
                                          : alpha * acc[r][j] + beta * c[r * ldc + j];
}

/* ---- GEMV kernels, portable ---- */

#define DEFINE_SMALL_SCALAR(NAME, T, LOAD)                                                    \
    static void                                                                              \
    dot_##NAME##__scalar(int64_t mx, int64_t nw, int64_t k, const float *x, const void *wv,   \
                         int64_t w_rs, float *c, int64_t ldc, float alpha, float beta)        \
    {                                                                                        \
        const T *w = wv;                                                                     \
        for (int64_t j = 0; j < nw; j++) {                                                   \
            const T *wr = w + j * w_rs;                                                      \
            for (int64_t i = 0; i < mx; i++) {                                               \
                const float *xr = x + i * k;                                                 \
                float s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                        \
                int64_t p = 0;                                                               \
                for (; p + 4 <= k; p += 4) {                                                 \
                    s0 += xr[p] * LOAD(wr + p);                                              \
                    s1 += xr[p + 1] * LOAD(wr + p + 1);                                      \
                    s2 += xr[p + 2] * LOAD(wr + p + 2);                                      \
                    s3 += xr[p + 3] * LOAD(wr + p + 3);                                      \
                }                                                                            \
                for (; p < k; p++)                                                           \
                    s0 += xr[p] * LOAD(wr + p);                                              \
                float s = (s0 + s1) + (s2 + s3);                                             \
                float *cc = c + i * ldc + j;                                                 \
                *cc = beta == 0.0f ? alpha * s : alpha * s + beta * *cc;                     \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
                                                                                             \
    static void                                                                              \
    axpy_##NAME##__scalar(int64_t mx, int64_t n, int64_t k, const float *x, const void *bv,   \
                          int64_t b_rs, float *c, int64_t ldc, float alpha, float beta)       \
    {                                                                                        \
        const T *b = bv;                                                                     \
        float acc[64];                                                                       \
        for (int64_t i = 0; i < mx; i++) {                                                   \
            for (int64_t j0 = 0; j0 < n; j0 += 64) {                                         \
                int64_t nn = n - j0 < 64 ? n - j0 : 64;                                      \
                for (int64_t j = 0; j < nn; j++)                                             \
                    acc[j] = 0.0f;                                                           \
                for (int64_t p = 0; p < k; p++) {                                            \
                    float xp = x[i * k + p];                                                 \
                    const T *br = b + p * b_rs + j0;                                         \
                    for (int64_t j = 0; j < nn; j++)                                         \
                        acc[j] += xp * LOAD(br + j);                                         \
                }                                                                            \
                float *cc = c + i * ldc + j0;                                                \
                for (int64_t j = 0; j < nn; j++)                                             \
                    cc[j] = beta == 0.0f ? alpha * acc[j] : alpha * acc[j] + beta * cc[j];   \
            }                                                                                \
        }                                                                                    \
    }

DEFINE_SMALL_SCALAR(f32, float, load_f32)
DEFINE_SMALL_SCALAR(f16, uint16_t, load_f16)
DEFINE_SMALL_SCALAR(bf16, uint16_t, load_bf16)

static void
store_row_f32__scalar(const float *w, int64_t n, void *cv, float alpha, float beta)
{
    float *c = cv;
    for (int64_t j = 0; j < n; j++)
        c[j] = beta == 0.0f ? alpha * w[j] : alpha * w[j] + beta * c[j];
}

static void
store_row_f16__scalar(const float *w, int64_t n, void *cv, float alpha, float beta)
{
    uint16_t *c = cv;
    for (int64_t j = 0; j < n; j++)
        c[j] = tn_f32_to_f16(beta == 0.0f ? alpha * w[j] : alpha * w[j] + beta * tn_f16_to_f32(c[j]));
}

static void
store_row_bf16__scalar(const float *w, int64_t n, void *cv, float alpha, float beta)
{
    uint16_t *c = cv;
    for (int64_t j = 0; j < n; j++)
        c[j] = tn_f32_to_bf16(beta == 0.0f ? alpha * w[j]
                                           : alpha * w[j] + beta * tn_bf16_to_f32(c[j]));
}

#if TN_X86
/* ---- AVX2 + FMA (+ F16C for f16 loads) ---- */


TN_TARGET_AVX2 static inline __m256
ld8_f32(const void *p)
{
    return _mm256_loadu_ps(p);
}

TN_TARGET_AVX2 static inline __m256
ld8_bf16(const void *p)
{
    __m128i h = _mm_loadu_si128(p);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

TN_TARGET_AVX2 static inline __m256
ld8_f16(const void *p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(p));
}

/* Stores alpha*acc (+ beta*c) to 8 floats. */
TN_TARGET_AVX2 static inline void
st8_out(float *c, __m256 acc, __m256 va, __m256 vb, float beta)
{
    __m256 r = _mm256_mul_ps(va, acc);
    if (beta != 0.0f)
        r = _mm256_add_ps(r, _mm256_mul_ps(vb, _mm256_loadu_ps(c)));
    _mm256_storeu_ps(c, r);
}

TN_TARGET_AVX2 static void
ukr_6x16__avx2(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc, float alpha,
               float beta)
{
    __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
    __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
    __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
    __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
    __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
    __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
    for (int64_t p = 0; p < kc; p++) {
        __m256 b0 = _mm256_load_ps(pb);
        __m256 b1 = _mm256_load_ps(pb + 8);
        __m256 a;
        a = _mm256_broadcast_ss(pa + 0);
        c00 = _mm256_fmadd_ps(a, b0, c00);
        c01 = _mm256_fmadd_ps(a, b1, c01);
        a = _mm256_broadcast_ss(pa + 1);
        c10 = _mm256_fmadd_ps(a, b0, c10);
        c11 = _mm256_fmadd_ps(a, b1, c11);
        a = _mm256_broadcast_ss(pa + 2);
        c20 = _mm256_fmadd_ps(a, b0, c20);
        c21 = _mm256_fmadd_ps(a, b1, c21);
        a = _mm256_broadcast_ss(pa + 3);
        c30 = _mm256_fmadd_ps(a, b0, c30);
        c31 = _mm256_fmadd_ps(a, b1, c31);
        a = _mm256_broadcast_ss(pa + 4);
        c40 = _mm256_fmadd_ps(a, b0, c40);
        c41 = _mm256_fmadd_ps(a, b1, c41);
        a = _mm256_broadcast_ss(pa + 5);
        c50 = _mm256_fmadd_ps(a, b0, c50);
        c51 = _mm256_fmadd_ps(a, b1, c51);
        pa += 6;
        pb += 16;
    }
    __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    st8_out(c + 0 * ldc, c00, va, vb, beta);
    st8_out(c + 0 * ldc + 8, c01, va, vb, beta);
    st8_out(c + 1 * ldc, c10, va, vb, beta);
    st8_out(c + 1 * ldc + 8, c11, va, vb, beta);
    st8_out(c + 2 * ldc, c20, va, vb, beta);
    st8_out(c + 2 * ldc + 8, c21, va, vb, beta);
    st8_out(c + 3 * ldc, c30, va, vb, beta);
    st8_out(c + 3 * ldc + 8, c31, va, vb, beta);
    st8_out(c + 4 * ldc, c40, va, vb, beta);
    st8_out(c + 4 * ldc + 8, c41, va, vb, beta);
    st8_out(c + 5 * ldc, c50, va, vb, beta);
    st8_out(c + 5 * ldc + 8, c51, va, vb, beta);
}

/* 8 row sums of a0..a7 into one vector. */
TN_TARGET_AVX2 static inline __m256
hsum8x8(__m256 a0, __m256 a1, __m256 a2, __m256 a3, __m256 a4, __m256 a5, __m256 a6, __m256 a7)
{
    __m256 t0 = _mm256_hadd_ps(a0, a1), t1 = _mm256_hadd_ps(a2, a3);
    __m256 t2 = _mm256_hadd_ps(a4, a5), t3 = _mm256_hadd_ps(a6, a7);
    __m256 u0 = _mm256_hadd_ps(t0, t1), u1 = _mm256_hadd_ps(t2, t3);
    return _mm256_add_ps(_mm256_permute2f128_ps(u0, u1, 0x20), _mm256_permute2f128_ps(u0, u1, 0x31));
}

/* 4 row sums of a0..a3. */
TN_TARGET_AVX2 static inline __m128
hsum4x8(__m256 a0, __m256 a1, __m256 a2, __m256 a3)
{
    __m256 u = _mm256_hadd_ps(_mm256_hadd_ps(a0, a1), _mm256_hadd_ps(a2, a3));
    return _mm_add_ps(_mm256_castps256_ps128(u), _mm256_extractf128_ps(u, 1));
}

static inline void
store_out(float *c, float s, float alpha, float beta)
{
    *c = beta == 0.0f ? alpha * s : alpha * s + beta * *c;
}

/* dot kernels: one x row against 8 W rows at a time (m == 1, the decode GEMV), then two x rows
 * against 4 W rows. W rows stream from memory once; x stays in L1. */
#define DEFINE_DOT_AVX2(NAME, T, LD8, LOAD)                                                    \
    TN_TARGET_AVX2 static void                                                                        \
    dot_##NAME##__avx2(int64_t mx, int64_t nw, int64_t k, const float *x, const void *wv,      \
                       int64_t w_rs, float *c, int64_t ldc, float alpha, float beta)           \
    {                                                                                         \
        const T *w = wv;                                                                      \
        int64_t k8 = k & ~(int64_t)7;                                                         \
        int64_t j = 0;                                                                        \
        if (mx == 1) {                                                                        \
            for (; j + 8 <= nw; j += 8) {                                                     \
                const T *w0 = w + j * w_rs;                                                   \
                __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();                    \
                __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();                    \
                __m256 a4 = _mm256_setzero_ps(), a5 = _mm256_setzero_ps();                    \
                __m256 a6 = _mm256_setzero_ps(), a7 = _mm256_setzero_ps();                    \
                for (int64_t p = 0; p < k8; p += 8) {                                         \
                    __m256 xv = _mm256_loadu_ps(x + p);                                       \
                    a0 = _mm256_fmadd_ps(xv, LD8(w0 + p), a0);                                \
                    a1 = _mm256_fmadd_ps(xv, LD8(w0 + w_rs + p), a1);                         \
                    a2 = _mm256_fmadd_ps(xv, LD8(w0 + 2 * w_rs + p), a2);                     \
                    a3 = _mm256_fmadd_ps(xv, LD8(w0 + 3 * w_rs + p), a3);                     \
                    a4 = _mm256_fmadd_ps(xv, LD8(w0 + 4 * w_rs + p), a4);                     \
                    a5 = _mm256_fmadd_ps(xv, LD8(w0 + 5 * w_rs + p), a5);                     \
                    a6 = _mm256_fmadd_ps(xv, LD8(w0 + 6 * w_rs + p), a6);                     \
                    a7 = _mm256_fmadd_ps(xv, LD8(w0 + 7 * w_rs + p), a7);                     \
                }                                                                             \
                float s[8];                                                                   \
                _mm256_storeu_ps(s, hsum8x8(a0, a1, a2, a3, a4, a5, a6, a7));                 \
                for (int r = 0; r < 8; r++) {                                                 \
                    for (int64_t p = k8; p < k; p++)                                          \
                        s[r] += x[p] * LOAD(w0 + r * w_rs + p);                               \
                    store_out(c + j + r, s[r], alpha, beta);                                  \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        for (; j + 4 <= nw; j += 4) {                                                         \
            const T *w0 = w + j * w_rs;                                                       \
            int64_t i = 0;                                                                    \
            for (; i + 2 <= mx; i += 2) {                                                     \
                const float *x0 = x + i * k, *x1 = x0 + k;                                    \
                __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();                    \
                __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();                    \
                __m256 b0 = _mm256_setzero_ps(), b1 = _mm256_setzero_ps();                    \
                __m256 b2 = _mm256_setzero_ps(), b3 = _mm256_setzero_ps();                    \
                for (int64_t p = 0; p < k8; p += 8) {                                         \
                    __m256 xv0 = _mm256_loadu_ps(x0 + p), xv1 = _mm256_loadu_ps(x1 + p);      \
                    __m256 wv0 = LD8(w0 + p), wv1 = LD8(w0 + w_rs + p);                       \
                    __m256 wv2 = LD8(w0 + 2 * w_rs + p), wv3 = LD8(w0 + 3 * w_rs + p);        \
                    a0 = _mm256_fmadd_ps(xv0, wv0, a0);                                       \
                    a1 = _mm256_fmadd_ps(xv0, wv1, a1);                                       \
                    a2 = _mm256_fmadd_ps(xv0, wv2, a2);                                       \
                    a3 = _mm256_fmadd_ps(xv0, wv3, a3);                                       \
                    b0 = _mm256_fmadd_ps(xv1, wv0, b0);                                       \
                    b1 = _mm256_fmadd_ps(xv1, wv1, b1);                                       \
                    b2 = _mm256_fmadd_ps(xv1, wv2, b2);                                       \
                    b3 = _mm256_fmadd_ps(xv1, wv3, b3);                                       \
                }                                                                             \
                float s[8];                                                                   \
                _mm256_storeu_ps(s, hsum8x8(a0, a1, a2, a3, b0, b1, b2, b3));                 \
                for (int r = 0; r < 4; r++) {                                                 \
                    for (int64_t p = k8; p < k; p++) {                                        \
                        float wp = LOAD(w0 + r * w_rs + p);                                   \
                        s[r] += x0[p] * wp;                                                   \
                        s[4 + r] += x1[p] * wp;                                               \
                    }                                                                         \
                    store_out(c + i * ldc + j + r, s[r], alpha, beta);                        \
                    store_out(c + (i + 1) * ldc + j + r, s[4 + r], alpha, beta);              \
                }                                                                             \
            }                                                                                 \
            for (; i < mx; i++) {                                                             \
                const float *x0 = x + i * k;                                                  \
                __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();                    \
                __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();                    \
                for (int64_t p = 0; p < k8; p += 8) {                                         \
                    __m256 xv0 = _mm256_loadu_ps(x0 + p);                                     \
                    a0 = _mm256_fmadd_ps(xv0, LD8(w0 + p), a0);                               \
                    a1 = _mm256_fmadd_ps(xv0, LD8(w0 + w_rs + p), a1);                        \
                    a2 = _mm256_fmadd_ps(xv0, LD8(w0 + 2 * w_rs + p), a2);                    \
                    a3 = _mm256_fmadd_ps(xv0, LD8(w0 + 3 * w_rs + p), a3);                    \
                }                                                                             \
                float s[4];                                                                   \
                _mm_storeu_ps(s, hsum4x8(a0, a1, a2, a3));                                    \
                for (int r = 0; r < 4; r++) {                                                 \
                    for (int64_t p = k8; p < k; p++)                                          \
                        s[r] += x0[p] * LOAD(w0 + r * w_rs + p);                              \
                    store_out(c + i * ldc + j + r, s[r], alpha, beta);                        \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        if (j < nw)                                                                           \
            dot_##NAME##__scalar(mx, nw - j, k, x, w + j * w_rs, w_rs, c + j, ldc, alpha,     \
                                 beta);                                                       \
    }

/* axpy kernels: two x rows × 32 columns of B per pass, B rows streamed once per row pair. */
#define DEFINE_AXPY_AVX2(NAME, T, LD8)                                                         \
    TN_TARGET_AVX2 static void                                                                        \
    axpy_##NAME##__avx2(int64_t mx, int64_t n, int64_t k, const float *x, const void *bv,      \
                        int64_t b_rs, float *c, int64_t ldc, float alpha, float beta)          \
    {                                                                                         \
        const T *b = bv;                                                                      \
        __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);                         \
        int64_t j = 0;                                                                        \
        for (; j + 32 <= n; j += 32) {                                                        \
            for (int64_t i = 0; i < mx; i += 2) {                                             \
                const float *x0 = x + i * k;                                                  \
                const float *x1 = i + 1 < mx ? x0 + k : x0;                                   \
                __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();                    \
                __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();                    \
                __m256 e0 = _mm256_setzero_ps(), e1 = _mm256_setzero_ps();                    \
                __m256 e2 = _mm256_setzero_ps(), e3 = _mm256_setzero_ps();                    \
                const T *br = b + j;                                                          \
                for (int64_t p = 0; p < k; p++, br += b_rs) {                                 \
                    __m256 w0 = LD8(br), w1 = LD8(br + 8), w2 = LD8(br + 16), w3 = LD8(br + 24); \
                    __m256 xa = _mm256_broadcast_ss(x0 + p), xb = _mm256_broadcast_ss(x1 + p); \
                    a0 = _mm256_fmadd_ps(xa, w0, a0);                                         \
                    a1 = _mm256_fmadd_ps(xa, w1, a1);                                         \
                    a2 = _mm256_fmadd_ps(xa, w2, a2);                                         \
                    a3 = _mm256_fmadd_ps(xa, w3, a3);                                         \
                    e0 = _mm256_fmadd_ps(xb, w0, e0);                                         \
                    e1 = _mm256_fmadd_ps(xb, w1, e1);                                         \
                    e2 = _mm256_fmadd_ps(xb, w2, e2);                                         \
                    e3 = _mm256_fmadd_ps(xb, w3, e3);                                         \
                }                                                                             \
                float *c0 = c + i * ldc + j;                                                  \
                st8_out(c0, a0, va, vb, beta);                                                \
                st8_out(c0 + 8, a1, va, vb, beta);                                            \
                st8_out(c0 + 16, a2, va, vb, beta);                                           \
                st8_out(c0 + 24, a3, va, vb, beta);                                           \
                if (i + 1 < mx) {                                                             \
                    float *c1 = c0 + ldc;                                                     \
                    st8_out(c1, e0, va, vb, beta);                                            \
                    st8_out(c1 + 8, e1, va, vb, beta);                                        \
                    st8_out(c1 + 16, e2, va, vb, beta);                                       \
                    st8_out(c1 + 24, e3, va, vb, beta);                                       \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        for (; j + 8 <= n; j += 8) {                                                          \
            for (int64_t i = 0; i < mx; i++) {                                                \
                const float *x0 = x + i * k;                                                  \
                __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();                    \
                const T *br = b + j;                                                          \
                int64_t p = 0;                                                                \
                for (; p + 2 <= k; p += 2, br += 2 * b_rs) {                                  \
                    a0 = _mm256_fmadd_ps(_mm256_broadcast_ss(x0 + p), LD8(br), a0);           \
                    a1 = _mm256_fmadd_ps(_mm256_broadcast_ss(x0 + p + 1), LD8(br + b_rs), a1); \
                }                                                                             \
                if (p < k)                                                                    \
                    a0 = _mm256_fmadd_ps(_mm256_broadcast_ss(x0 + p), LD8(br), a0);           \
                st8_out(c + i * ldc + j, _mm256_add_ps(a0, a1), va, vb, beta);                \
            }                                                                                 \
        }                                                                                     \
        if (j < n)                                                                            \
            axpy_##NAME##__scalar(mx, n - j, k, x, b + j, b_rs, c + j, ldc, alpha, beta);     \
    }

DEFINE_DOT_AVX2(f32, float, ld8_f32, load_f32)
DEFINE_DOT_AVX2(f16, uint16_t, ld8_f16, load_f16)
DEFINE_DOT_AVX2(bf16, uint16_t, ld8_bf16, load_bf16)
DEFINE_AXPY_AVX2(f32, float, ld8_f32)
DEFINE_AXPY_AVX2(f16, uint16_t, ld8_f16)
DEFINE_AXPY_AVX2(bf16, uint16_t, ld8_bf16)

/* f32 -> bf16, round to nearest even, NaN -> 0x7fc0 (tn_f32_to_bf16, 8 at a time) */
TN_TARGET_AVX2 static inline __m128i
cvt8_bf16(__m256 v)
{
    __m256i u = _mm256_castps_si256(v);
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)), lsb), 16);
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    r = _mm256_blendv_epi8(r, _mm256_set1_epi32(0x7fc0), nan);
    return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}

TN_TARGET_AVX2 static void
store_row_f32__avx2(const float *w, int64_t n, void *cv, float alpha, float beta)
{
    float *c = cv;
    __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8)
        st8_out(c + j, _mm256_loadu_ps(w + j), va, vb, beta);
    store_row_f32__scalar(w + j, n - j, c + j, alpha, beta);
}

TN_TARGET_AVX2 static void
store_row_f16__avx2(const float *w, int64_t n, void *cv, float alpha, float beta)
{
    uint16_t *c = cv;
    __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 v = _mm256_mul_ps(va, _mm256_loadu_ps(w + j));
        if (beta != 0.0f)
            v = _mm256_add_ps(v, _mm256_mul_ps(vb, ld8_f16(c + j)));
        _mm_storeu_si128((__m128i *)(c + j), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    store_row_f16__scalar(w + j, n - j, c + j, alpha, beta);
}

TN_TARGET_AVX2 static void
store_row_bf16__avx2(const float *w, int64_t n, void *cv, float alpha, float beta)
{
    uint16_t *c = cv;
    __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 v = _mm256_mul_ps(va, _mm256_loadu_ps(w + j));
        if (beta != 0.0f)
            v = _mm256_add_ps(v, _mm256_mul_ps(vb, ld8_bf16(c + j)));
        _mm_storeu_si128((__m128i *)(c + j), cvt8_bf16(v));
    }
    store_row_bf16__scalar(w + j, n - j, c + j, alpha, beta);
}

/* 8×8 transpose: r[q] becomes column q of the input rows. */
TN_TARGET_AVX2 static inline void
transpose8(__m256 r[8])
{
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xee);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xee);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xee);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xee);
    r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/* Vector packing: a row-major A strip (MR rows) and a B^T strip (NR rows of W) are read 8×8 at a
 * time and transposed in registers. With MR = 6 each 8-float store runs 2 floats into the next
 * k slot, which the next store overwrites (the buffers carry PACK_SLACK floats for the last). */
#define DEFINE_PACK_AVX2(NAME, T, LD8, LOAD)                                                   \
    TN_TARGET_AVX2 static void                                                                        \
    pack_a_##NAME##__avx2(const void *av, int64_t rs, int64_t cs, int64_t mc, int64_t kc,      \
                          int mr, float *dst)                                                  \
    {                                                                                         \
        const T *a = av;                                                                      \
        if (cs != 1 || rs == 1 || mr > 8) {                                                   \
            pack_a_##NAME(av, rs, cs, mc, kc, mr, dst);                                       \
            return;                                                                           \
        }                                                                                     \
        for (int64_t i0 = 0; i0 < mc; i0 += mr) {                                            \
            int64_t rows = mc - i0 < mr ? mc - i0 : mr;                                       \
            int64_t p = 0;                                                                    \
            if (rows == mr) {                                                                 \
                for (; p + 8 <= kc; p += 8) {                                                 \
                    __m256 r[8];                                                              \
                    for (int q = 0; q < 8; q++)                                               \
                        r[q] = q < mr ? LD8(a + (i0 + q) * rs + p) : _mm256_setzero_ps();     \
                    transpose8(r);                                                            \
                    for (int q = 0; q < 8; q++)                                               \
                        _mm256_storeu_ps(dst + (p + q) * mr, r[q]);                           \
                }                                                                             \
            }                                                                                 \
            for (; p < kc; p++)                                                               \
                for (int64_t q = 0; q < mr; q++)                                              \
                    dst[p * mr + q] = q < rows ? LOAD(a + (i0 + q) * rs + p) : 0.0f;          \
            dst += (int64_t)mr * kc;                                                          \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    TN_TARGET_AVX2 static void                                                                        \
    pack_b_##NAME##__avx2(const void *bv, int64_t rs, int64_t cs, int64_t kc, int64_t nc,      \
                          int nr, float *dst)                                                  \
    {                                                                                         \
        const T *b = bv;                                                                      \
        if (rs == 1 && cs != 1) {                                                             \
            for (int64_t j0 = 0; j0 < nc; j0 += nr) {                                         \
                int64_t cols = nc - j0 < nr ? nc - j0 : nr;                                   \
                int64_t c0 = 0;                                                               \
                for (; c0 + 8 <= cols; c0 += 8) {                                             \
                    const T *src = b + (j0 + c0) * cs;                                        \
                    int64_t p = 0;                                                            \
                    for (; p + 8 <= kc; p += 8) {                                             \
                        __m256 r[8];                                                          \
                        for (int q = 0; q < 8; q++)                                           \
                            r[q] = LD8(src + q * cs + p);                                     \
                        transpose8(r);                                                        \
                        for (int q = 0; q < 8; q++)                                           \
                            _mm256_storeu_ps(dst + (p + q) * nr + c0, r[q]);                  \
                    }                                                                         \
                    for (; p < kc; p++)                                                       \
                        for (int q = 0; q < 8; q++)                                           \
                            dst[p * nr + c0 + q] = LOAD(src + q * cs + p);                    \
                }                                                                             \
                for (int64_t p = 0; p < kc; p++)                                              \
                    for (int64_t c = c0; c < nr; c++)                                         \
                        dst[p * nr + c] = c < cols ? LOAD(b + (j0 + c) * cs + p) : 0.0f;      \
                dst += (int64_t)nr * kc;                                                      \
            }                                                                                 \
        } else if (cs == 1) {                                                                 \
            for (int64_t j0 = 0; j0 < nc; j0 += nr) {                                         \
                int64_t cols = nc - j0 < nr ? nc - j0 : nr;                                   \
                for (int64_t p = 0; p < kc; p++) {                                            \
                    const T *src = b + p * rs + j0;                                           \
                    float *d = dst + p * nr;                                                  \
                    int64_t c = 0;                                                            \
                    for (; c + 8 <= cols; c += 8)                                             \
                        _mm256_storeu_ps(d + c, LD8(src + c));                                \
                    for (; c < nr; c++)                                                       \
                        d[c] = c < cols ? LOAD(src + c) : 0.0f;                               \
                }                                                                             \
                dst += (int64_t)nr * kc;                                                      \
            }                                                                                 \
        } else {                                                                              \
            pack_b_##NAME(bv, rs, cs, kc, nc, nr, dst);                                       \
        }                                                                                     \
    }

DEFINE_PACK_AVX2(f32, float, ld8_f32, load_f32)
DEFINE_PACK_AVX2(f16, uint16_t, ld8_f16, load_f16)
DEFINE_PACK_AVX2(bf16, uint16_t, ld8_bf16, load_bf16)

/* ---- AVX-512 (F, BW, VL): 16 floats a vector, 32 registers ---- */


TN_TARGET_AVX512 static inline __m512
ld16_f32(const void *p)
{
    return _mm512_loadu_ps(p);
}

TN_TARGET_AVX512 static inline __m512
ld16_bf16(const void *p)
{
    __m256i h = _mm256_loadu_si256(p);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

TN_TARGET_AVX512 static inline __m512
ld16_f16(const void *p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256(p));
}

TN_TARGET_AVX512 static inline void
st16_out(float *c, __m512 acc, __m512 va, __m512 vb, float beta)
{
    __m512 r = _mm512_mul_ps(va, acc);
    if (beta != 0.0f)
        r = _mm512_add_ps(r, _mm512_mul_ps(vb, _mm512_loadu_ps(c)));
    _mm512_storeu_ps(c, r);
}

TN_TARGET_AVX512 static void
ukr_8x32__avx512(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc, float alpha,
                 float beta)
{
    __m512 acc[8][2];
    for (int r = 0; r < 8; r++)
        acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    for (int64_t p = 0; p < kc; p++) {
        __m512 b0 = _mm512_load_ps(pb), b1 = _mm512_load_ps(pb + 16);
        for (int r = 0; r < 8; r++) {
            __m512 a = _mm512_set1_ps(pa[r]);
            acc[r][0] = _mm512_fmadd_ps(a, b0, acc[r][0]);
            acc[r][1] = _mm512_fmadd_ps(a, b1, acc[r][1]);
        }
        pa += 8;
        pb += 32;
    }
    __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (int r = 0; r < 8; r++) {
        st16_out(c + r * ldc, acc[r][0], va, vb, beta);
        st16_out(c + r * ldc + 16, acc[r][1], va, vb, beta);
    }
}

/* 16 lanes to 8 (lane i + lane i+8), so the AVX2 horizontal sums finish the job */
TN_TARGET_AVX512 static inline __m256
fold16(__m512 v)
{
    __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    return _mm256_add_ps(_mm512_castps512_ps256(v), hi);
}

/* dot kernels, AVX-512. One x row (decode's m == 1): 8 W rows per pass, each its own accumulator,
 * addressed from three base pointers so the loop needs no spilled pointers; no software prefetch
 * (see Note [GEMV prefetch]). Several x rows: 4 W rows × 4 x rows. Every output is the same sum
 * in the same order whichever pass computes it (lane FMAs along k, fold16 + hsum8x8, the k tail
 * added in order), so how the rows are split between threads never changes a bit. */
#define DEFINE_DOT_AVX512(NAME, T, LD16, LOAD)                                                 \
    TN_TARGET_AVX512 static void                                                                      \
    dot_##NAME##__avx512(int64_t mx, int64_t nw, int64_t k, const float *x, const void *wv,    \
                         int64_t w_rs, float *c, int64_t ldc, float alpha, float beta)         \
    {                                                                                         \
        const T *w = wv;                                                                      \
        int64_t k16 = k & ~(int64_t)15;                                                       \
        int64_t j = 0;                                                                        \
        if (mx == 1) {                                                                        \
            const int64_t R = w_rs * (int64_t)sizeof(T);  /* bytes from one W row to the next */ \
            for (; j + 8 <= nw; j += 8) {                                                     \
                const char *b0 = (const char *)(w + j * w_rs), *b3 = b0 + 3 * R, *b6 = b0 + 6 * R; \
                __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;                   \
                __m512 a4 = a0, a5 = a0, a6 = a0, a7 = a0;                                    \
                for (int64_t p = 0; p < k16; p += 16) {                                       \
                    const int64_t o = p * (int64_t)sizeof(T);                                 \
                    __m512 xv = _mm512_loadu_ps(x + p);                                       \
                    a0 = _mm512_fmadd_ps(xv, LD16(b0 + o), a0);                               \
                    a1 = _mm512_fmadd_ps(xv, LD16(b0 + R + o), a1);                           \
                    a2 = _mm512_fmadd_ps(xv, LD16(b0 + 2 * R + o), a2);                       \
                    a3 = _mm512_fmadd_ps(xv, LD16(b3 + o), a3);                               \
                    a4 = _mm512_fmadd_ps(xv, LD16(b0 + 4 * R + o), a4);                       \
                    a5 = _mm512_fmadd_ps(xv, LD16(b3 + 2 * R + o), a5);                       \
                    a6 = _mm512_fmadd_ps(xv, LD16(b6 + o), a6);                               \
                    a7 = _mm512_fmadd_ps(xv, LD16(b6 + R + o), a7);                           \
                }                                                                             \
                float s[8];                                                                   \
                _mm256_storeu_ps(s, hsum8x8(fold16(a0), fold16(a1), fold16(a2), fold16(a3),   \
                                            fold16(a4), fold16(a5), fold16(a6), fold16(a7))); \
                const T *w0 = w + j * w_rs;                                                   \
                for (int r = 0; r < 8; r++) {                                                 \
                    for (int64_t p = k16; p < k; p++)                                         \
                        s[r] += x[p] * LOAD(w0 + r * w_rs + p);                               \
                    store_out(c + j + r, s[r], alpha, beta);                                  \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        for (; j + 4 <= nw; j += 4) {                                                         \
            const T *w0 = w + j * w_rs;                                                       \
            for (int64_t i = 0; i < mx; i += 4) {                                             \
                /* rows past mx repeat the last row; their results are not stored */          \
                const float *xr[4];                                                           \
                for (int q = 0; q < 4; q++)                                                   \
                    xr[q] = x + (i + q < mx ? i + q : mx - 1) * k;                            \
                __m512 a[4][4];                                                               \
                for (int q = 0; q < 4; q++)                                                   \
                    for (int r = 0; r < 4; r++)                                               \
                        a[q][r] = _mm512_setzero_ps();                                        \
                for (int64_t p = 0; p < k16; p += 16) {                                       \
                    __m512 wr[4];                                                             \
                    for (int r = 0; r < 4; r++)                                               \
                        wr[r] = LD16(w0 + r * w_rs + p);                                      \
                    if (i == 0 && j + 8 <= nw && (p * sizeof(T)) % 64 == 0)  /* GEMV prefetch */ \
                        for (int r = 0; r < 4; r++)                                           \
                            _mm_prefetch((const char *)(w0 + (4 + r) * w_rs + p), _MM_HINT_T0); \
                    for (int q = 0; q < 4; q++) {                                             \
                        __m512 xv = _mm512_loadu_ps(xr[q] + p);                               \
                        for (int r = 0; r < 4; r++)                                           \
                            a[q][r] = _mm512_fmadd_ps(xv, wr[r], a[q][r]);                    \
                    }                                                                         \
                }                                                                             \
                float s[16];                                                                  \
                _mm256_storeu_ps(s, hsum8x8(fold16(a[0][0]), fold16(a[0][1]), fold16(a[0][2]), \
                                            fold16(a[0][3]), fold16(a[1][0]), fold16(a[1][1]), \
                                            fold16(a[1][2]), fold16(a[1][3])));               \
                _mm256_storeu_ps(s + 8, hsum8x8(fold16(a[2][0]), fold16(a[2][1]),             \
                                                fold16(a[2][2]), fold16(a[2][3]),             \
                                                fold16(a[3][0]), fold16(a[3][1]),             \
                                                fold16(a[3][2]), fold16(a[3][3])));           \
                for (int q = 0; q < 4 && i + q < mx; q++)                                     \
                    for (int r = 0; r < 4; r++) {                                             \
                        float t = s[4 * q + r];                                               \
                        for (int64_t p = k16; p < k; p++)                                     \
                            t += xr[q][p] * LOAD(w0 + r * w_rs + p);                          \
                        store_out(c + (i + q) * ldc + j + r, t, alpha, beta);                 \
                    }                                                                         \
            }                                                                                 \
        }                                                                                     \
        if (j < nw)                                                                           \
            dot_##NAME##__scalar(mx, nw - j, k, x, w + j * w_rs, w_rs, c + j, ldc, alpha,     \
                                 beta);                                                       \
    }

#define DEFINE_AXPY_AVX512(NAME, T, LD16)                                                      \
    TN_TARGET_AVX512 static void                                                                      \
    axpy_##NAME##__avx512(int64_t mx, int64_t n, int64_t k, const float *x, const void *bv,    \
                          int64_t b_rs, float *c, int64_t ldc, float alpha, float beta)        \
    {                                                                                         \
        const T *b = bv;                                                                      \
        __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);                         \
        int64_t j = 0;                                                                        \
        for (; j + 64 <= n; j += 64) {                                                        \
            for (int64_t i = 0; i < mx; i += 2) {                                             \
                const float *x0 = x + i * k;                                                  \
                const float *x1 = i + 1 < mx ? x0 + k : x0;                                   \
                __m512 a[4], e[4];                                                            \
                for (int q = 0; q < 4; q++)                                                   \
                    a[q] = e[q] = _mm512_setzero_ps();                                        \
                const T *br = b + j;                                                          \
                for (int64_t p = 0; p < k; p++, br += b_rs) {                                 \
                    __m512 xa = _mm512_set1_ps(x0[p]), xb = _mm512_set1_ps(x1[p]);            \
                    for (int q = 0; q < 4; q++) {                                             \
                        __m512 wq = LD16(br + 16 * q);                                        \
                        a[q] = _mm512_fmadd_ps(xa, wq, a[q]);                                 \
                        e[q] = _mm512_fmadd_ps(xb, wq, e[q]);                                 \
                    }                                                                         \
                }                                                                             \
                for (int q = 0; q < 4; q++) {                                                 \
                    st16_out(c + i * ldc + j + 16 * q, a[q], va, vb, beta);                   \
                    if (i + 1 < mx)                                                           \
                        st16_out(c + (i + 1) * ldc + j + 16 * q, e[q], va, vb, beta);         \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        for (; j + 16 <= n; j += 16) {                                                        \
            for (int64_t i = 0; i < mx; i++) {                                                \
                const float *x0 = x + i * k;                                                  \
                __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();                    \
                const T *br = b + j;                                                          \
                int64_t p = 0;                                                                \
                for (; p + 2 <= k; p += 2, br += 2 * b_rs) {                                  \
                    a0 = _mm512_fmadd_ps(_mm512_set1_ps(x0[p]), LD16(br), a0);                \
                    a1 = _mm512_fmadd_ps(_mm512_set1_ps(x0[p + 1]), LD16(br + b_rs), a1);     \
                }                                                                             \
                if (p < k)                                                                    \
                    a0 = _mm512_fmadd_ps(_mm512_set1_ps(x0[p]), LD16(br), a0);                \
                st16_out(c + i * ldc + j, _mm512_add_ps(a0, a1), va, vb, beta);               \
            }                                                                                 \
        }                                                                                     \
        if (j < n)                                                                            \
            axpy_##NAME##__avx2(mx, n - j, k, x, b + j, b_rs, c + j, ldc, alpha, beta);       \
    }

DEFINE_DOT_AVX512(f32, float, ld16_f32, load_f32)
DEFINE_DOT_AVX512(f16, uint16_t, ld16_f16, load_f16)
DEFINE_DOT_AVX512(bf16, uint16_t, ld16_bf16, load_bf16)
DEFINE_AXPY_AVX512(f32, float, ld16_f32)
DEFINE_AXPY_AVX512(f16, uint16_t, ld16_f16)
DEFINE_AXPY_AVX512(bf16, uint16_t, ld16_bf16)

/* ---- AVX512-BF16: bf16 × bf16 with vdpbf16ps (two products per lane per instruction) ----
 * Used when A and B are both bfloat16 (a bf16 Linear, bf16 bmm). Packing keeps bf16 and pairs
 * consecutive k: a packed element is 32 bits (x[p], x[p+1]); an odd k ends with a zero.
 * vdpbf16ps forms each bf16×bf16 product exactly in f32 and adds it with round-to-nearest, as an
 * FMA would, but treats f32/bf16 subnormals as zero (DAZ/FTZ) -- as oneDNN's kernels do upstream. */


/* The bf16 pair (k = p, p + 1) of a row whose k step is `step`, as one packed 32-bit element
 * (k = p in the low half); p + 1 past kc reads as zero. */
static inline uint32_t
bf16_pair(const uint16_t *row, int64_t step, int64_t p, int64_t kc)
{
    uint32_t lo = row[p * step], hi = p + 1 < kc ? row[(p + 1) * step] : 0;
    return lo | hi << 16;
}

/* A strip of MR rows: dst32[strip][p/2][r]. */
TN_TARGET_AVX2 static void
pack_a_bf16x2(const uint16_t *a, int64_t rs, int64_t cs, int64_t mc, int64_t kc, int mr,
              uint32_t *dst)
{
    int64_t kp = (kc + 1) / 2;
    for (int64_t i0 = 0; i0 < mc; i0 += mr) {
        int64_t rows = mc - i0 < mr ? mc - i0 : mr;
        int64_t pp = 0;
        if (cs == 1 && rows == 8 && mr == 8) {
            for (; pp + 8 <= kc / 2; pp += 8) {
                __m256 r[8];
                for (int q = 0; q < 8; q++)
                    r[q] = _mm256_loadu_ps((const float *)(a + (i0 + q) * rs + 2 * pp));
                transpose8(r);
                for (int q = 0; q < 8; q++)
                    _mm256_storeu_ps((float *)(dst + (pp + q) * 8), r[q]);
            }
        }
        for (; pp < kp; pp++)
            for (int64_t r = 0; r < mr; r++)
                dst[pp * mr + r] = r < rows ? bf16_pair(a + (i0 + r) * rs, cs, 2 * pp, kc) : 0;
        dst += mr * kp;
    }
}

/* A strip of NR columns: dst32[strip][p/2][c]. */
TN_TARGET_AVX2 static void
pack_b_bf16x2(const uint16_t *b, int64_t rs, int64_t cs, int64_t kc, int64_t nc, int nr,
              uint32_t *dst)
{
    int64_t kp = (kc + 1) / 2;
    for (int64_t j0 = 0; j0 < nc; j0 += nr) {
        int64_t cols = nc - j0 < nr ? nc - j0 : nr;
        int64_t c0 = 0;
        if (rs == 1) {
            /* B^T rows contiguous (Linear weight): a pair is one 32-bit load */
            for (; c0 + 8 <= cols; c0 += 8) {
                const uint16_t *src = b + (j0 + c0) * cs;
                int64_t pp = 0;
                for (; pp + 8 <= kc / 2; pp += 8) {
                    __m256 r[8];
                    for (int q = 0; q < 8; q++)
                        r[q] = _mm256_loadu_ps((const float *)(src + q * cs + 2 * pp));
                    transpose8(r);
                    for (int q = 0; q < 8; q++)
                        _mm256_storeu_ps((float *)(dst + (pp + q) * nr + c0), r[q]);
                }
                for (; pp < kp; pp++)
                    for (int q = 0; q < 8; q++)
                        dst[pp * nr + c0 + q] = bf16_pair(src + q * cs, 1, 2 * pp, kc);
            }
        }
        for (int64_t pp = 0; pp < kp; pp++)
            for (int64_t c = c0; c < nr; c++)
                dst[pp * nr + c] = c < cols ? bf16_pair(b + (j0 + c) * cs, rs, 2 * pp, kc) : 0;
        dst += nr * kp;
    }
}

TN_TARGET_AVX512BF16 static void
ukr_8x32__avx512bf16(int64_t kp, const uint32_t *pa, const uint32_t *pb, float *c, int64_t ldc,
                     float alpha, float beta)
{
    __m512 acc[8][2];
    for (int r = 0; r < 8; r++)
        acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    for (int64_t pp = 0; pp < kp; pp++) {
        __m512bh b0 = (__m512bh)_mm512_load_si512(pb), b1 = (__m512bh)_mm512_load_si512(pb + 16);
        for (int r = 0; r < 8; r++) {
            __m512bh a = (__m512bh)_mm512_set1_epi32((int)pa[r]);
            acc[r][0] = _mm512_dpbf16_ps(acc[r][0], a, b0);
            acc[r][1] = _mm512_dpbf16_ps(acc[r][1], a, b1);
        }
        pa += 8;
        pb += 32;
    }
    __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (int r = 0; r < 8; r++) {
        st16_out(c + r * ldc, acc[r][0], va, vb, beta);
        st16_out(c + r * ldc + 16, acc[r][1], va, vb, beta);
    }
}

/* bf16 × bf16 dot kernel for few rows: x rows are bf16, zero padded to a multiple of 32 (xk);
 * each vdpbf16ps takes 32 k. The W tail past k is loaded masked (zeros). */
TN_TARGET_AVX512BF16 static inline __m512bh
ld32_bf16_masked(const uint16_t *p, int64_t left)
{
    __mmask32 mk = left >= 32 ? 0xffffffffu : (__mmask32)((1ull << left) - 1);
    return (__m512bh)_mm512_maskz_loadu_epi16(mk, p);
}

/* dot_bf16x2: 32 k per vdpbf16ps. Full-width loads while 32 k remain and one masked load for the
 * tail: a masked load in the main loop halves the streaming rate (measured, Zen 5). One x row:
 * 8 W rows per pass, no software prefetch (see Note [GEMV prefetch]); several: 4 W × 4 x rows. As
 * in the f32 dot kernels, an output's sum does not depend on the pass that computes it. */
TN_TARGET_AVX512BF16 static void
dot_bf16x2__avx512bf16(int64_t mx, int64_t nw, int64_t k, int64_t xk, const uint16_t *x,
                       const uint16_t *w, int64_t w_rs, float *c, int64_t ldc, float alpha,
                       float beta)
{
    int64_t k32 = k & ~(int64_t)31;
    int64_t j = 0;
    if (mx == 1) {
        const int64_t R = w_rs * 2;  /* bytes from one W row to the next */
        for (; j + 8 <= nw; j += 8) {
            const char *b0 = (const char *)(w + j * w_rs), *b3 = b0 + 3 * R, *b6 = b0 + 6 * R;
            __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
            __m512 a4 = a0, a5 = a0, a6 = a0, a7 = a0;
            int64_t p = 0;
#define TN_DP(acc, ptr) acc = _mm512_dpbf16_ps(acc, xv, (__m512bh)_mm512_loadu_si512(ptr))
            for (; p < k32; p += 32) {
                const int64_t o = 2 * p;
                __m512bh xv = (__m512bh)_mm512_loadu_si512(x + p);
                TN_DP(a0, b0 + o);
                TN_DP(a1, b0 + R + o);
                TN_DP(a2, b0 + 2 * R + o);
                TN_DP(a3, b3 + o);
                TN_DP(a4, b0 + 4 * R + o);
                TN_DP(a5, b3 + 2 * R + o);
                TN_DP(a6, b6 + o);
                TN_DP(a7, b6 + R + o);
            }
#undef TN_DP
            if (p < k) {
                __m512bh xv = (__m512bh)_mm512_loadu_si512(x + p);
                const uint16_t *w0 = w + j * w_rs + p;
                a0 = _mm512_dpbf16_ps(a0, xv, ld32_bf16_masked(w0, k - p));
                a1 = _mm512_dpbf16_ps(a1, xv, ld32_bf16_masked(w0 + w_rs, k - p));
                a2 = _mm512_dpbf16_ps(a2, xv, ld32_bf16_masked(w0 + 2 * w_rs, k - p));
                a3 = _mm512_dpbf16_ps(a3, xv, ld32_bf16_masked(w0 + 3 * w_rs, k - p));
                a4 = _mm512_dpbf16_ps(a4, xv, ld32_bf16_masked(w0 + 4 * w_rs, k - p));
                a5 = _mm512_dpbf16_ps(a5, xv, ld32_bf16_masked(w0 + 5 * w_rs, k - p));
                a6 = _mm512_dpbf16_ps(a6, xv, ld32_bf16_masked(w0 + 6 * w_rs, k - p));
                a7 = _mm512_dpbf16_ps(a7, xv, ld32_bf16_masked(w0 + 7 * w_rs, k - p));
            }
            float s[8];
            _mm256_storeu_ps(s, hsum8x8(fold16(a0), fold16(a1), fold16(a2), fold16(a3),
                                        fold16(a4), fold16(a5), fold16(a6), fold16(a7)));
            for (int r = 0; r < 8; r++)
                store_out(c + j + r, s[r], alpha, beta);
        }
    }
    for (; j < nw; j += 4) {
        int64_t nr = nw - j < 4 ? nw - j : 4;
        const uint16_t *wr[4];
        for (int r = 0; r < 4; r++)
            wr[r] = w + (j + (r < nr ? r : nr - 1)) * w_rs;
        for (int64_t i = 0; i < mx; i += 4) {
            const uint16_t *xr[4];
            for (int q = 0; q < 4; q++)
                xr[q] = x + (i + q < mx ? i + q : mx - 1) * xk;
            __m512 a[4][4];
            for (int q = 0; q < 4; q++)
                for (int r = 0; r < 4; r++)
                    a[q][r] = _mm512_setzero_ps();
            for (int64_t p = 0; p < k; p += 32) {
                __m512bh wv[4];
                for (int r = 0; r < 4; r++)
                    wv[r] = p < k32 ? (__m512bh)_mm512_loadu_si512(wr[r] + p)
                                    : ld32_bf16_masked(wr[r] + p, k - p);
                if (i == 0 && j + 8 <= nw)  /* the next 4 W rows (see Note [GEMV prefetch]) */
                    for (int r = 0; r < 4; r++)
                        _mm_prefetch((const char *)(wr[r] + 4 * w_rs + p), _MM_HINT_T0);
                for (int q = 0; q < 4; q++) {
                    __m512bh xv = (__m512bh)_mm512_loadu_si512(xr[q] + p);
                    for (int r = 0; r < 4; r++)
                        a[q][r] = _mm512_dpbf16_ps(a[q][r], xv, wv[r]);
                }
            }
            float s[16];
            _mm256_storeu_ps(s, hsum8x8(fold16(a[0][0]), fold16(a[0][1]), fold16(a[0][2]),
                                        fold16(a[0][3]), fold16(a[1][0]), fold16(a[1][1]),
                                        fold16(a[1][2]), fold16(a[1][3])));
            _mm256_storeu_ps(s + 8, hsum8x8(fold16(a[2][0]), fold16(a[2][1]), fold16(a[2][2]),
                                            fold16(a[2][3]), fold16(a[3][0]), fold16(a[3][1]),
                                            fold16(a[3][2]), fold16(a[3][3])));
            for (int q = 0; q < 4 && i + q < mx; q++)
                for (int r = 0; r < nr; r++)
                    store_out(c + (i + q) * ldc + j + r, s[4 * q + r], alpha, beta);
        }
    }
}
#endif /* TN_X86 */

static gemm_kernels kernels;
static pthread_once_t kernels_once = PTHREAD_ONCE_INIT;

/* The widest kernels this CPU runs; TN_GEMM_ISA=scalar|avx2|avx512 (read once) forces a narrower
 * set, which is how the tests reach every path on one machine. */
static void
select_kernels(void)
{
    const char *force = getenv("TN_GEMM_ISA");
    gemm_kernels k = {
        .isa = "scalar", .mr = 4, .nr = 8, .ukr = ukr_4x8__scalar,
        .dot = {dot_f32__scalar, dot_f16__scalar, dot_bf16__scalar},
        .axpy = {axpy_f32__scalar, axpy_f16__scalar, axpy_bf16__scalar},
        .pack_a = {pack_a_f32, pack_a_f16, pack_a_bf16},
        .pack_b = {pack_b_f32, pack_b_f16, pack_b_bf16},
        .store_row = {store_row_f32__scalar, store_row_f16__scalar, store_row_bf16__scalar},
    };
#if TN_X86
    bool avx2 = tn_cpu_has_avx2(), avx512 = tn_cpu_has_avx512(), avx512bf16 = tn_cpu_has_avx512bf16();
    if (force && strcmp(force, "avx512") == 0)
        avx512bf16 = false;
    if (force && strcmp(force, "scalar") == 0)
        avx2 = avx512 = avx512bf16 = false;
    if (force && strcmp(force, "avx2") == 0)
        avx512 = avx512bf16 = false;
    if (avx2) {
        k = (gemm_kernels){
            .isa = "avx2", .mr = 6, .nr = 16, .ukr = ukr_6x16__avx2,
            .dot = {dot_f32__avx2, dot_f16__avx2, dot_bf16__avx2},
            .axpy = {axpy_f32__avx2, axpy_f16__avx2, axpy_bf16__avx2},
            .pack_a = {pack_a_f32__avx2, pack_a_f16__avx2, pack_a_bf16__avx2},
            .pack_b = {pack_b_f32__avx2, pack_b_f16__avx2, pack_b_bf16__avx2},
            .store_row = {store_row_f32__avx2, store_row_f16__avx2, store_row_bf16__avx2},
        };
    }
    if (avx512) {
        k.isa = "avx512";
        k.mr = 8;
        k.nr = 32;
        k.ukr = ukr_8x32__avx512;
        k.dot[0] = dot_f32__avx512;
        k.dot[1] = dot_f16__avx512;
        k.dot[2] = dot_bf16__avx512;
        k.axpy[0] = axpy_f32__avx512;
        k.axpy[1] = axpy_f16__avx512;
        k.axpy[2] = axpy_bf16__avx512;
    }
    if (avx512bf16) {
        k.isa = "avx512bf16";
        k.ukr_bf16 = ukr_8x32__avx512bf16;
        k.dot_bf16 = dot_bf16x2__avx512bf16;
    }
#else
    (void)force;
#endif
    kernels = k;
}

static const gemm_kernels *
get_kernels(void)
{
    pthread_once(&kernels_once, select_kernels);
    return &kernels;
}

/* ---- one f32-accumulating GEMM on the calling thread ---- */

/* An edge block: the micro-kernel wrote its full MR×NR result to tile (row stride ld_tile);
 * the mm×nn that exist go into C as C = tile + bet*C. */
static void
add_edge_tile(const float *tile, int64_t ld_tile, int64_t mm, int64_t nn, float *c, int64_t ldc,
              float bet)
{
    for (int64_t r = 0; r < mm; r++)
        for (int64_t q = 0; q < nn; q++) {
            float *e = c + r * ldc + q;
            *e = bet == 0.0f ? tile[r * ld_tile + q] : tile[r * ld_tile + q] + bet * *e;
        }
}

#if TN_X86
/* gemm_block's packed loop for bf16 × bf16 on the vdpbf16ps kernel (MR = 8, NR = 32). */
static bool
gemm_block_bf16(const gemm_kernels *kern, int64_t m, int64_t n, int64_t k, const mat *a,
                const mat *b, float *c, int64_t ldc, float alpha, float beta)
{
    enum { MR = 8, NR = 32 };
    int64_t nc_max = n < GEMM_NC ? n : GEMM_NC;
    int64_t kp_max = ((k < GEMM_KC ? k : GEMM_KC) + 1) / 2;
    int64_t mc_max = m < GEMM_MC ? m : GEMM_MC;
    size_t pa_len = (size_t)(((mc_max + MR - 1) / MR * MR * kp_max + 15) & ~(int64_t)15);
    size_t pb_len = (size_t)((nc_max + NR - 1) / NR * NR * kp_max);
    float *buf = scratch_get(&tls_pack, pa_len + pb_len + MR * NR);
    if (!buf)
        return false;
    uint32_t *pa = (uint32_t *)buf, *pb = pa + pa_len;
    float *tile = (float *)(pb + pb_len);
    for (int64_t jc = 0; jc < n; jc += GEMM_NC) {
        int64_t nc = n - jc < GEMM_NC ? n - jc : GEMM_NC;
        for (int64_t pc = 0; pc < k; pc += GEMM_KC) {
            int64_t kc = k - pc < GEMM_KC ? k - pc : GEMM_KC, kp = (kc + 1) / 2;
            float bet = pc == 0 ? beta : 1.0f;
            pack_b_bf16x2(mat_at(b, pc, jc), b->rs, b->cs, kc, nc, NR, pb);
            for (int64_t ic = 0; ic < m; ic += GEMM_MC) {
                int64_t mc = m - ic < GEMM_MC ? m - ic : GEMM_MC;
                pack_a_bf16x2(mat_at(a, ic, pc), a->rs, a->cs, mc, kc, MR, pa);
                for (int64_t jr = 0; jr < nc; jr += NR) {
                    int64_t nn = nc - jr < NR ? nc - jr : NR;
                    for (int64_t ir = 0; ir < mc; ir += MR) {
                        int64_t mm = mc - ir < MR ? mc - ir : MR;
                        float *cij = c + (ic + ir) * ldc + jc + jr;
                        const uint32_t *sa = pa + ir * kp, *sb = pb + jr * kp;
                        if (mm == MR && nn == NR) {
                            kern->ukr_bf16(kp, sa, sb, cij, ldc, alpha, bet);
                            continue;
                        }
                        kern->ukr_bf16(kp, sa, sb, tile, NR, alpha, 0.0f);
                        add_edge_tile(tile, NR, mm, nn, cij, ldc, bet);
                    }
                }
            }
        }
    }
    return true;
}
#endif

/* C = alpha*A@B + beta*C for float C (row stride ldc, columns contiguous); see Note [GEMM blocking].
 * A and B are f32/f16/bf16. Returns false if scratch could not be allocated. */
static bool
gemm_block(int64_t m, int64_t n, int64_t k, const mat *a, const mat *b, float *c, int64_t ldc,
           float alpha, float beta)
{
    const gemm_kernels *kern = get_kernels();
    if (m <= 0 || n <= 0)
        return true;
    if (k <= 0) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
        return true;
    }
#if TN_X86
    if (m <= SMALL_M && b->rs == 1 && kern->dot_bf16 && a->dtype == TN_DTYPE_BF16 &&
        b->dtype == TN_DTYPE_BF16) {
        int64_t xk = (k + 31) & ~(int64_t)31;
        uint16_t *x = (uint16_t *)scratch_get(&tls_pack, (size_t)(m * xk / 2 + 16));
        if (!x)
            return false;
        for (int64_t i = 0; i < m; i++) {
            const uint16_t *src = mat_at(a, i, 0);
            for (int64_t p = 0; p < xk; p++)
                x[i * xk + p] = p < k ? src[p * a->cs] : 0;
        }
        kern->dot_bf16(m, n, k, xk, x, b->p, b->cs, c, ldc, alpha, beta);
        return true;
    }
#endif
    if (m <= SMALL_M && (b->rs == 1 || b->cs == 1)) {
        float *x = scratch_get(&tls_pack, (size_t)(m * k));
        if (!x)
            return false;
        widen_rows(a, m, k, x);
        if (b->rs == 1)
            kern->dot[wide_index(b->dtype)](m, n, k, x, b->p, b->cs, c, ldc, alpha, beta);
        else
            kern->axpy[wide_index(b->dtype)](m, n, k, x, b->p, b->rs, c, ldc, alpha, beta);
        return true;
    }
#if TN_X86
    if (kern->ukr_bf16 && a->dtype == TN_DTYPE_BF16 && b->dtype == TN_DTYPE_BF16)
        return gemm_block_bf16(kern, m, n, k, a, b, c, ldc, alpha, beta);
#endif
    int mr = kern->mr, nr = kern->nr;
    int64_t nc_max = n < GEMM_NC ? n : GEMM_NC;
    int64_t kc_max = k < GEMM_KC ? k : GEMM_KC;
    int64_t mc_max = m < GEMM_MC ? m : GEMM_MC;
    size_t pa_len = (size_t)((mc_max + mr - 1) / mr * mr * kc_max);
    size_t pb_len = (size_t)((nc_max + nr - 1) / nr * nr * kc_max);
    pa_len = (pa_len + PACK_SLACK + 15) & ~(size_t)15;
    pb_len = (pb_len + PACK_SLACK + 15) & ~(size_t)15;
    float *buf = scratch_get(&tls_pack, pa_len + pb_len + MAX_MR * MAX_NR);
    if (!buf)
        return false;
    float *pa = buf, *pb = buf + pa_len, *tile = pb + pb_len;
    for (int64_t jc = 0; jc < n; jc += GEMM_NC) {
        int64_t nc = n - jc < GEMM_NC ? n - jc : GEMM_NC;
        for (int64_t pc = 0; pc < k; pc += GEMM_KC) {
            int64_t kc = k - pc < GEMM_KC ? k - pc : GEMM_KC;
            float bet = pc == 0 ? beta : 1.0f;
            kern->pack_b[wide_index(b->dtype)](mat_at(b, pc, jc), b->rs, b->cs, kc, nc, nr, pb);
            for (int64_t ic = 0; ic < m; ic += GEMM_MC) {
                int64_t mc = m - ic < GEMM_MC ? m - ic : GEMM_MC;
                kern->pack_a[wide_index(a->dtype)](mat_at(a, ic, pc), a->rs, a->cs, mc, kc, mr, pa);
                for (int64_t jr = 0; jr < nc; jr += nr) {
                    int64_t nn = nc - jr < nr ? nc - jr : nr;
                    for (int64_t ir = 0; ir < mc; ir += mr) {
                        int64_t mm = mc - ir < mr ? mc - ir : mr;
                        float *cij = c + (ic + ir) * ldc + jc + jr;
                        const float *sa = pa + ir * kc, *sb = pb + jr * kc;
                        if (mm == mr && nn == nr) {
                            kern->ukr(kc, sa, sb, cij, ldc, alpha, bet);
                            continue;
                        }
                        kern->ukr(kc, sa, sb, tile, nr, alpha, 0.0f);
                        add_edge_tile(tile, nr, mm, nn, cij, ldc, bet);
                    }
                }
            }
        }
    }
    return true;
}

tn_status
tn_gemm_f32acc_serial(int64_t m, int64_t n, int64_t k,
                      int a_dtype, const void *a, int64_t a_sm, int64_t a_sk,
                      int b_dtype, const void *b, int64_t b_sk, int64_t b_sn,
                      float *c, int64_t ldc, float alpha, float beta)
{
    if (m < 0 || n < 0 || k < 0)
        return TN_ERR_VALUE;
    if (!is_f32_family(a_dtype) || !is_f32_family(b_dtype))
        return TN_ERR_DTYPE;
    if (k == 1) {
        a_sk = 1;
        b_sk = 1;
    }
    if (n == 1)
        b_sn = 1;
    mat am = {a_dtype, a, a_sm, a_sk}, bm = {b_dtype, b, b_sk, b_sn};
    return gemm_block(m, n, k, &am, &bm, c, ldc, alpha, beta) ? TN_OK : TN_ERR_NOMEM;
}

/* ---- the threaded driver for f32, f16, bf16 ---- */

typedef struct {
    int dtype;
    int64_t m, n, k;
    const char *a, *b;
    char *c;
    int64_t a_sb, a_sm, a_sk, b_sb, b_sk, b_sn, c_sb, c_sm, c_sn;
    float alpha, beta;
    bool direct;           /* f32 C with contiguous columns: micro-kernels write C itself */
    int64_t task_m, task_n, tiles_m, tiles_n;
    int failed;
} float_job;

static void
float_gemm_worker(void *ctx, int64_t begin, int64_t end)
{
    float_job *j = ctx;
    int es = tn_dtype_size(j->dtype);
    for (int64_t t = begin; t < end; t++) {
        int64_t bi = t / (j->tiles_m * j->tiles_n);
        int64_t rem = t % (j->tiles_m * j->tiles_n);
        int64_t i0 = rem / j->tiles_n * j->task_m, j0 = rem % j->tiles_n * j->task_n;
        int64_t mm = j->m - i0 < j->task_m ? j->m - i0 : j->task_m;
        int64_t nn = j->n - j0 < j->task_n ? j->n - j0 : j->task_n;
        mat a = {j->dtype, j->a + (bi * j->a_sb + i0 * j->a_sm) * es, j->a_sm, j->a_sk};
        mat b = {j->dtype, j->b + (bi * j->b_sb + j0 * j->b_sn) * es, j->b_sk, j->b_sn};
        char *c = j->c + (bi * j->c_sb + i0 * j->c_sm + j0 * j->c_sn) * es;
        if (j->direct) {
            if (!gemm_block(mm, nn, j->k, &a, &b, (float *)c, j->c_sm, j->alpha, j->beta))
                j->failed = 1;
            continue;
        }
        float *w = scratch_get(&tls_work, (size_t)(mm * nn));
        if (!w || !gemm_block(mm, nn, j->k, &a, &b, w, nn, 1.0f, 0.0f)) {
            j->failed = 1;
            continue;
        }
        const gemm_kernels *kern = get_kernels();
        for (int64_t i = 0; i < mm; i++) {
            char *crow = c + i * j->c_sm * es;
            if (j->c_sn == 1) {
                kern->store_row[wide_index(j->dtype)](w + i * nn, nn, crow, j->alpha, j->beta);
                continue;
            }
            for (int64_t q = 0; q < nn; q++)
                kern->store_row[wide_index(j->dtype)](w + i * nn + q, 1, crow + q * j->c_sn * es,
                                                      j->alpha, j->beta);
        }
    }
}

/* ---- few-row products against W rows (GEMV) ---- */

/* Note [GEMV threads]
 * A product of at most SMALL_M rows of x with a W whose rows run along k (Linear's weight, and
 * A @ B^T generally) reads each W element once: it is bound by memory, and one core of this
 * machine streams ~40 GB/s where two stream 50-57 (Zen 5, SmolLM2 shapes from DRAM), so W is split
 * into GEMV_ITEMS_PER_THREAD chunks per thread (a multiple of 16 rows each) that tn_threadpool()
 * runs; a thread that finishes early takes chunks from the other. Measured on an idle machine,
 * two threads win from the smallest decode W (576x192 bf16, 221 KiB: 8.0 -> 6.5 us); below
 * GEMV_PAR_BYTES the calling thread does all the work. It also does when the machine is busy:
 * pthreadpool returns only after every worker has run, so when another process holds the other
 * core a call waits for the scheduler (measured with the pool always used: 576x576 calls of
 * 35 us took ~8 ms, and bf16 decode fell from ~85 to 3 tokens/s). A threaded call whose caller,
 * done with its own chunks, waited more than GEMV_STALL_NS for the worker marks the pool
 * contended: GEMVs then run on the calling thread for 16 ms, doubling on each further stall up
 * to 1 s, and back to 16 ms after a threaded call that did not stall. (A worker that has slept
 * for 50 ms or more also takes 6-8 ms to wake on this VM, which counts as a stall too; during
 * decode the pool's other users keep it awake.)
 * Chunks start at multiples of 16 rows and the dot kernels compute every output the same way
 * whichever pass takes it, so the split never changes a bit (gemv_threaded_*,
 * gemm_f32_same_bits_for_any_thread_count).
 */
enum {
    GEMV_ITEMS_PER_THREAD = 8,    /* pool items (a multiple of 16 W rows each) per thread */
    GEMV_PAR_BYTES = 128 << 10,   /* W bytes from which a GEMV is split between threads */
};
#define GEMV_STALL_NS 250000LL            /* a worker this late was not running */
#define GEMV_SOLO_MIN_NS 16000000LL       /* first solo period after a stall */
#define GEMV_SOLO_MAX_NS 1000000000LL

static _Atomic int64_t gemv_solo_until;   /* CLOCK_MONOTONIC ns: GEMVs before it run solo */
static _Atomic int64_t gemv_solo_period = GEMV_SOLO_MIN_NS;
static _Atomic int64_t gemv_threaded;     /* tn_gemv_threaded_count */

int64_t
tn_gemv_threaded_count(void)
{
    return atomic_load(&gemv_threaded);
}

static int64_t
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct {
    const gemm_kernels *kern;
    int dtype, es;
    int64_t m, n, k;
    const void *x;      /* f32 rows with row stride k, or (xk > 0) bf16 rows zero padded to xk */
    int64_t xk;
    const char *w;      /* W row j starts at w + j * w_rs elements */
    int64_t w_rs;
    char *c;
    int64_t c_sm, c_sn;
    float *work;        /* f32 m × n staging when C is not f32 with contiguous columns, else NULL */
    float alpha, beta;
    int64_t rows;       /* W rows per item */
    pthread_t caller;
    int64_t caller_done;  /* when the calling thread finished its last item (now_ns) */
} gemv_job;

static void
gemv_item(void *ctx, size_t item)
{
    gemv_job *g = ctx;
    int64_t j0 = (int64_t)item * g->rows;
    int64_t nn = g->n - j0 < g->rows ? g->n - j0 : g->rows;
    const char *w = g->w + j0 * g->w_rs * g->es;
    float *out = g->work ? g->work + j0 : (float *)g->c + j0;
    int64_t ldo = g->work ? g->n : g->c_sm;
    float al = g->work ? 1.0f : g->alpha, be = g->work ? 0.0f : g->beta;
    if (g->xk)
        g->kern->dot_bf16(g->m, nn, g->k, g->xk, g->x, (const uint16_t *)w, g->w_rs, out, ldo, al,
                          be);
    else
        g->kern->dot[wide_index(g->dtype)](g->m, nn, g->k, g->x, w, g->w_rs, out, ldo, al, be);
    if (g->work) {
        store_row_fn store = g->kern->store_row[wide_index(g->dtype)];
        for (int64_t i = 0; i < g->m; i++) {
            char *crow = g->c + (i * g->c_sm + j0 * g->c_sn) * g->es;
            if (g->c_sn == 1) {
                store(g->work + i * g->n + j0, nn, crow, g->alpha, g->beta);
                continue;
            }
            for (int64_t q = 0; q < nn; q++)
                store(g->work + i * g->n + j0 + q, 1, crow + q * g->c_sn * g->es, g->alpha, g->beta);
        }
    }
    if (pthread_equal(pthread_self(), g->caller))
        g->caller_done = now_ns();
}

/* C = alpha * A @ B + beta * C for one batch entry with m <= SMALL_M, k > 0 and B^T rows contiguous
 * (b_sk == 1): x is prepared once, W rows are split per Note [GEMV threads]. */
static tn_status
gemv_float(const float_job *j)
{
    const gemm_kernels *kern = get_kernels();
    int es = tn_dtype_size(j->dtype);
    gemv_job g = {
        .kern = kern, .dtype = j->dtype, .es = es, .m = j->m, .n = j->n, .k = j->k,
        .w = j->b, .w_rs = j->b_sn, .c = j->c, .c_sm = j->c_sm, .c_sn = j->c_sn,
        .alpha = j->alpha, .beta = j->beta,
    };
    mat a = {j->dtype, j->a, j->a_sm, j->a_sk};
#if TN_X86
    if (kern->dot_bf16 && j->dtype == TN_DTYPE_BF16) {
        g.xk = (j->k + 31) & ~(int64_t)31;
        uint16_t *x = (uint16_t *)scratch_get(&tls_pack, (size_t)(j->m * g.xk / 2 + 16));
        if (!x)
            return TN_ERR_NOMEM;
        for (int64_t i = 0; i < j->m; i++) {
            const uint16_t *src = mat_at(&a, i, 0);
            for (int64_t p = 0; p < g.xk; p++)
                x[i * g.xk + p] = p < j->k ? src[p * a.cs] : 0;
        }
        g.x = x;
    }
#endif
    if (!g.xk) {
        float *x = scratch_get(&tls_pack, (size_t)(j->m * j->k));
        if (!x)
            return TN_ERR_NOMEM;
        widen_rows(&a, j->m, j->k, x);
        g.x = x;
    }
    if (!j->direct) {
        g.work = scratch_get(&tls_work, (size_t)(j->m * j->n));
        if (!g.work)
            return TN_ERR_NOMEM;
    }
    int threads = tn_num_threads();
    int64_t per = (j->n + GEMV_ITEMS_PER_THREAD * threads - 1) / (GEMV_ITEMS_PER_THREAD * threads);
    g.rows = per < 16 ? 16 : (per + 15) & ~(int64_t)15;
    int64_t items = (j->n + g.rows - 1) / g.rows;
    pthreadpool_t pool = threads > 1 ? tn_threadpool() : NULL;
    int64_t t0 = 0;
    bool threaded = pool && items > 1 && (double)j->k * es * (double)j->n >= GEMV_PAR_BYTES &&
                    (t0 = now_ns()) >= atomic_load_explicit(&gemv_solo_until, memory_order_relaxed);
    if (!threaded) {
        for (int64_t t = 0; t < items; t++)
            gemv_item(&g, (size_t)t);
        return TN_OK;
    }
    g.caller = pthread_self();
    g.caller_done = t0;
    atomic_fetch_add_explicit(&gemv_threaded, 1, memory_order_relaxed);
    pthreadpool_parallelize_1d(pool, gemv_item, &g, (size_t)items, 0);
    int64_t t1 = now_ns();
    if (t1 - g.caller_done > GEMV_STALL_NS) {
        int64_t period = atomic_load_explicit(&gemv_solo_period, memory_order_relaxed);
        atomic_store_explicit(&gemv_solo_until, t1 + period, memory_order_relaxed);
        atomic_store_explicit(&gemv_solo_period,
                              period * 2 < GEMV_SOLO_MAX_NS ? period * 2 : GEMV_SOLO_MAX_NS,
                              memory_order_relaxed);
    } else {
        atomic_store_explicit(&gemv_solo_period, GEMV_SOLO_MIN_NS, memory_order_relaxed);
    }
    return TN_OK;
}

static tn_status
gemm_float(float_job *j, int64_t batch)
{
    j->direct = j->dtype == TN_DTYPE_F32 && j->c_sn == 1;
    if (batch == 1 && j->m <= SMALL_M && j->k > 0 && j->b_sk == 1)
        return gemv_float(j);
    /* Row tiles as tall as possible (B blocks are packed once per row tile), up to TASK_MC. */
    j->task_m = j->m <= SMALL_M ? j->m : (j->m + GEMM_MC - 1) / GEMM_MC * GEMM_MC;
    if (j->task_m > TASK_MC)
        j->task_m = TASK_MC;
    j->task_n = GEMM_NC;
    j->tiles_m = (j->m + j->task_m - 1) / j->task_m;
    int threads = tn_num_threads();
    double flops = 2.0 * (double)batch * (double)j->m * (double)j->n * (double)j->k;
    bool parallel = threads > 1 && flops >= 200000.0;
    /* Enough tasks to keep every thread busy: narrower column tiles first (B is then packed
     * in smaller pieces, no extra work), then shorter row tiles (B packed once per row tile). */
    while (parallel && j->task_n > 32 &&
           batch * j->tiles_m * ((j->n + j->task_n - 1) / j->task_n) < 2 * threads)
        j->task_n /= 2;
    while (parallel && j->task_m > GEMM_MC / 2 && j->m > SMALL_M &&
           batch * ((j->m + j->task_m - 1) / j->task_m) * ((j->n + j->task_n - 1) / j->task_n) <
               2 * threads)
        j->task_m /= 2;
    j->tiles_m = (j->m + j->task_m - 1) / j->task_m;
    j->tiles_n = (j->n + j->task_n - 1) / j->task_n;
    int64_t tasks = batch * j->tiles_m * j->tiles_n;
    j->failed = 0;
    if (!parallel || tasks == 1)
        float_gemm_worker(j, 0, tasks);
    else
        tn_parallel_for(tasks, 1, float_gemm_worker, j);
    return j->failed ? TN_ERR_NOMEM : TN_OK;
}

/* ---- f64 and integers: plain loops, one row of C at a time, parallel over rows ---- */

typedef struct {
    int64_t m, n, k;
    const char *a, *b;
    char *c;
    int64_t a_sb, a_sm, a_sk, b_sb, b_sk, b_sn, c_sb, c_sm, c_sn;
    double alpha, beta;
    int failed;
} plain_job;

/* Each row: acc[n] = sum_p a[i][p] * b[p][:] (B rows read along n), then C = alpha*acc + beta*C.
 * Integers compute in uint64_t, which wraps exactly as the type would (the final cast keeps the
 * low bits); f64 computes in double. */
#define DEFINE_GEMM_PLAIN(NAME, T, ACC, TO_ACC, SCALE_A, SCALE_B)                                   \
    static void                                                                                   \
    gemm_##NAME##_worker(void *ctx, int64_t begin, int64_t end)                                   \
    {                                                                                             \
        plain_job *j = ctx;                                                                       \
        ACC *acc = malloc(sizeof(ACC) * (size_t)(j->n > 0 ? j->n : 1));                           \
        if (!acc) {                                                                               \
            j->failed = 1;                                                                        \
            return;                                                                               \
        }                                                                                         \
        ACC alpha = SCALE_A(j->alpha), beta = SCALE_B(j->beta);                                   \
        for (int64_t r = begin; r < end; r++) {                                                   \
            int64_t bi = r / j->m, i = r % j->m;                                                  \
            const T *a = (const T *)j->a + bi * j->a_sb + i * j->a_sm;                            \
            const T *b = (const T *)j->b + bi * j->b_sb;                                          \
            T *c = (T *)j->c + bi * j->c_sb + i * j->c_sm;                                        \
            for (int64_t q = 0; q < j->n; q++)                                                    \
                acc[q] = 0;                                                                       \
            for (int64_t p = 0; p < j->k; p++) {                                                  \
                ACC ap = TO_ACC(a[p * j->a_sk]);                                                  \
                const T *br = b + p * j->b_sk;                                                    \
                for (int64_t q = 0; q < j->n; q++)                                                \
                    acc[q] += ap * TO_ACC(br[q * j->b_sn]);                                       \
            }                                                                                     \
            for (int64_t q = 0; q < j->n; q++) {                                                  \
                T *e = c + q * j->c_sn;                                                           \
                *e = (T)(j->beta == 0.0 ? alpha * acc[q] : alpha * acc[q] + beta * TO_ACC(*e));   \
            }                                                                                     \
        }                                                                                         \
        free(acc);                                                                                \
    }

#define TO_DOUBLE(x) ((double)(x))
#define TO_U64(x) ((uint64_t)(int64_t)(x))
#define SCALAR_DOUBLE(s) (s)
#define SCALAR_U64(s) ((uint64_t)(int64_t)(s))

DEFINE_GEMM_PLAIN(f64, double, double, TO_DOUBLE, SCALAR_DOUBLE, SCALAR_DOUBLE)
DEFINE_GEMM_PLAIN(u8, uint8_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i8, int8_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i16, int16_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i32, int32_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i64, int64_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)

/* ---- tn_gemm ---- */

tn_status
tn_gemm(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
        const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
        const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
        void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn,
        double alpha, double beta)
{
    tn_range_fn plain = NULL;
    switch (dtype) {
    case TN_DTYPE_F32: case TN_DTYPE_F16: case TN_DTYPE_BF16: break;
    case TN_DTYPE_F64: plain = gemm_f64_worker; break;
    case TN_DTYPE_U8: plain = gemm_u8_worker; break;
    case TN_DTYPE_I8: plain = gemm_i8_worker; break;
    case TN_DTYPE_I16: plain = gemm_i16_worker; break;
    case TN_DTYPE_I32: plain = gemm_i32_worker; break;
    case TN_DTYPE_I64: plain = gemm_i64_worker; break;
    default: return TN_ERR_DTYPE;
    }
    if (batch < 0 || m < 0 || n < 0 || k < 0)
        return TN_ERR_VALUE;
    if (batch == 0 || m == 0 || n == 0)
        return TN_OK;

    if (plain) {
        plain_job pj = {m, n, k, a, b, c, a_sb, a_sm, a_sk, b_sb, b_sk, b_sn, c_sb, c_sm, c_sn,
                        alpha, beta, 0};
        double work = (double)batch * (double)m * (double)n * (double)(k + 1);
        int64_t grain = (int64_t)(32768.0 / ((double)n * (double)(k + 1))) + 1;
        if (work < 65536.0)
            plain(&pj, 0, batch * m);
        else
            tn_parallel_for(batch * m, grain, plain, &pj);
        return pj.failed ? TN_ERR_NOMEM : TN_OK;
    }

    /* A size-1 dimension's stride is never used to step: pick the one that enables fast paths. */
    if (k == 1) {
        a_sk = 1;
        b_sk = 1;
    }
    if (n == 1) {
        b_sn = 1;
        c_sn = 1;
    }
    /* A matrix-vector product, or column-major C: compute C^T = B^T A^T instead. */
    if ((n == 1 && m > 1) || (m > 1 && n > 1 && c_sn != 1 && c_sm == 1)) {
        const void *tp = a;
        a = b;
        b = tp;
        int64_t t;
        t = m; m = n; n = t;
        t = a_sb; a_sb = b_sb; b_sb = t;
        int64_t na_sm = b_sn, na_sk = b_sk, nb_sk = a_sk, nb_sn = a_sm;
        a_sm = na_sm; a_sk = na_sk; b_sk = nb_sk; b_sn = nb_sn;
        t = c_sm; c_sm = c_sn; c_sn = t;
    }
    float_job j = {
        .dtype = dtype, .m = m, .n = n, .k = k, .a = a, .b = b, .c = c,
        .a_sb = a_sb, .a_sm = a_sm, .a_sk = a_sk, .b_sb = b_sb, .b_sk = b_sk, .b_sn = b_sn,
        .c_sb = c_sb, .c_sm = c_sm, .c_sn = c_sn,
        .alpha = (float)alpha, .beta = (float)beta,
    };
    return gemm_float(&j, batch);
}

/* ---- Linear ---- */

tn_status
tn_linear(int dtype, int64_t m, int64_t in, int64_t out, const void *x, int64_t x_row_stride,
          const void *w, const void *bias, void *y, int64_t y_row_stride)
{
    if (!is_f32_family(dtype))
        return TN_ERR_DTYPE;
    if (m < 0 || in < 0 || out < 0)
        return TN_ERR_VALUE;
    if (m == 0 || out == 0)
        return TN_OK;
    int es = tn_dtype_size(dtype);
    if (bias)
        for (int64_t i = 0; i < m; i++)
            memcpy((char *)y + i * y_row_stride * es, bias, (size_t)(out * es));
    return tn_gemm(dtype, 1, m, out, in, x, 0, x_row_stride, 1, w, 0, 1, in, y, 0, y_row_stride, 1,
                   1.0, bias ? 1.0 : 0.0);
}

/* Note [Linear operator cache]
 * XNNPACK packs a fully-connected operator's weights when the operator is created, so an
 * operator is worth keeping for as long as its weight lives unchanged. The cache maps
 * (weight_key, weight_version, w, bias, bias_key, in, out, strides) to an operator; the raw
 * pointers are part of the key because two weights may be views of one storage (one key).
 * Entries sit in a fixed array chained from hash buckets; when all TN_LINEAR_CACHE_SIZE slots
 * are taken the least recently used entry is deleted. A new version of a weight evicts the
 * entries of its old versions at once. One mutex guards the cache and the setup+run of an
 * operator (an XNNPACK operator must not be set up by two threads at once).
 */

typedef struct {
    uint64_t weight_key, weight_version, bias_key;
    const float *w, *bias;
    int64_t in, out, x_stride, y_stride;
    xnn_operator_t op;
    uint64_t last_use;
    int next;  /* next entry in the bucket chain, -1 ends */
    bool used;
} linear_entry;

enum { LINEAR_BUCKETS = 1024 };

static pthread_mutex_t linear_lock = PTHREAD_MUTEX_INITIALIZER;
static linear_entry linear_entries[TN_LINEAR_CACHE_SIZE];
static int linear_buckets[LINEAR_BUCKETS];
static int64_t linear_count;
static uint64_t linear_clock;
static bool linear_ready;

static pthread_once_t xnn_once = PTHREAD_ONCE_INIT;
static bool xnn_ok;

static void
xnn_init_once(void)
{
    xnn_ok = xnn_initialize(NULL) == xnn_status_success;
}

static unsigned
linear_hash(uint64_t key, const float *w)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)w * 0xc2b2ae3d27d4eb4full;
    return (unsigned)(h >> 40) % LINEAR_BUCKETS;
}

static void
linear_init_locked(void)
{
    if (linear_ready)
        return;
    for (int i = 0; i < LINEAR_BUCKETS; i++)
        linear_buckets[i] = -1;
    linear_ready = true;
}

static void
linear_unlink_locked(int idx)
{
    linear_entry *e = &linear_entries[idx];
    int *link = &linear_buckets[linear_hash(e->weight_key, e->w)];
    while (*link != idx)
        link = &linear_entries[*link].next;
    *link = e->next;
    xnn_delete_operator(e->op);
    e->used = false;
    e->op = NULL;
    linear_count--;
}

void
tn_linear_cache_clear(void)
{
    pthread_mutex_lock(&linear_lock);
    linear_init_locked();
    for (int i = 0; i < TN_LINEAR_CACHE_SIZE; i++)
        if (linear_entries[i].used)
            linear_unlink_locked(i);
    pthread_mutex_unlock(&linear_lock);
}

int64_t
tn_linear_cache_size(void)
{
    pthread_mutex_lock(&linear_lock);
    int64_t n = linear_count;
    pthread_mutex_unlock(&linear_lock);
    return n;
}

/* The cached operator for this weight, created (packing the weight) on a miss; NULL if XNNPACK
 * refuses. Called with linear_lock held. */
static xnn_operator_t
linear_op_locked(const linear_entry *key)
{
    linear_init_locked();
    unsigned h = linear_hash(key->weight_key, key->w);
    for (int i = linear_buckets[h]; i >= 0;) {
        linear_entry *e = &linear_entries[i];
        int next = e->next;
        bool same_weight = e->weight_key == key->weight_key && e->w == key->w &&
                           e->in == key->in && e->out == key->out;
        if (same_weight && e->weight_version == key->weight_version && e->bias == key->bias &&
            e->bias_key == key->bias_key && e->x_stride == key->x_stride &&
            e->y_stride == key->y_stride) {
            e->last_use = ++linear_clock;
            return e->op;
        }
        if (same_weight && e->weight_version != key->weight_version)
            linear_unlink_locked(i);  /* an older version of this weight: never used again */
        i = next;
    }
    xnn_operator_t op = NULL;
    if (xnn_create_fully_connected_nc_f32((size_t)key->in, (size_t)key->out, (size_t)key->x_stride,
                                          (size_t)key->y_stride, key->w, key->bias, -INFINITY,
                                          INFINITY, 0, &op) != xnn_status_success)
        return NULL;
    int slot = -1;
    if (linear_count == TN_LINEAR_CACHE_SIZE) {
        uint64_t oldest = UINT64_MAX;
        for (int i = 0; i < TN_LINEAR_CACHE_SIZE; i++)
            if (linear_entries[i].last_use < oldest) {
                oldest = linear_entries[i].last_use;
                slot = i;
            }
        linear_unlink_locked(slot);
    } else {
        for (int i = 0; i < TN_LINEAR_CACHE_SIZE && slot < 0; i++)
            if (!linear_entries[i].used)
                slot = i;
    }
    linear_entry *e = &linear_entries[slot];
    *e = *key;
    e->op = op;
    e->used = true;
    e->last_use = ++linear_clock;
    e->next = linear_buckets[h];
    linear_buckets[h] = slot;
    linear_count++;
    return op;
}

/* XNNPACK clamps its output to [min, max] with max/min instructions even when they are -inf and
 * +inf, which turns a NaN into -inf. An output that is not finite is therefore recomputed by
 * tn_gemm, which propagates NaN and inf as upstream does (a pass over y costs far less than the
 * GEMM). */
static bool
rows_finite(int64_t m, int64_t out, const float *y, int64_t y_row_stride)
{
    for (int64_t i = 0; i < m; i++) {
        const uint32_t *r = (const uint32_t *)(y + i * y_row_stride);
        uint32_t bad = 0;
        for (int64_t j = 0; j < out; j++)
            bad |= (r[j] & 0x7f800000u) == 0x7f800000u;
        if (bad)
            return false;
    }
    return true;
}

tn_status
tn_linear_f32(int64_t m, int64_t in, int64_t out, const float *x, int64_t x_row_stride,
              const float *w, uint64_t weight_key, uint64_t weight_version,
              const float *bias, uint64_t bias_key, float *y, int64_t y_row_stride)
{
    if (m < 0 || in < 0 || out < 0)
        return TN_ERR_VALUE;
    if (m == 0 || out == 0)
        return TN_OK;
    /* Measured on Zen 5 (AVX-512), in = 576, out = 576 and 1536: up to SMALL_M rows our GEMV
     * (W streamed once, no packing) is faster than XNNPACK; from 13 to about 32 rows XNNPACK's
     * pre-packed weights win (we would pack all of W for a few rows); above that our packed GEMM
     * is faster again. Odd strides and a failed xnn_initialize also take tn_linear. */
    if (m <= SMALL_M || m > XNN_MAX_M || in == 0 || x_row_stride < in || y_row_stride < out)
        return tn_linear(TN_DTYPE_F32, m, in, out, x, x_row_stride, w, bias, y, y_row_stride);
    pthread_once(&xnn_once, xnn_init_once);
    if (!xnn_ok)
        return tn_linear(TN_DTYPE_F32, m, in, out, x, x_row_stride, w, bias, y, y_row_stride);
    linear_entry key = {
        .weight_key = weight_key, .weight_version = weight_version,
        .bias_key = bias ? bias_key : 0, .w = w, .bias = bias, .in = in, .out = out,
        .x_stride = x_row_stride, .y_stride = y_row_stride,
    };
    pthread_mutex_lock(&linear_lock);
    xnn_operator_t op = linear_op_locked(&key);
    tn_status st = TN_ERR_BACKEND;
    if (op && xnn_setup_fully_connected_nc_f32(op, (size_t)m, x, y, tn_threadpool()) ==
                  xnn_status_success &&
        xnn_run_operator(op, tn_threadpool()) == xnn_status_success)
        st = TN_OK;
    pthread_mutex_unlock(&linear_lock);
    if (!op || (st == TN_OK && !rows_finite(m, out, y, y_row_stride)))
        return tn_linear(TN_DTYPE_F32, m, in, out, x, x_row_stride, w, bias, y, y_row_stride);
    return st;
}
