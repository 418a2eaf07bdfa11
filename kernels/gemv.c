/* Few-row products against W rows (GEMV): dot kernels stream each W row (B^T row: a Linear weight
 * row) once for all rows of x, axpy kernels stream rows of a row-major B; per ISA (scalar, AVX2,
 * AVX-512, AVX512-BF16 for bf16 × bf16), and the threaded driver for one product.
 * To add an ISA: dot_<dtype>__<isa> / axpy_<dtype>__<isa>, then a case in select_gemv().
 */
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */
#include "gemv.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "parallel.h"

/* Note [GEMV prefetch]
 * The few-row dot kernels stream W rows from memory, one stream per W row in flight. With one x
 * row (decode) they read 8 W rows at a time and issue no software prefetch: Zen 5's hardware
 * prefetchers keep 8 streams busy, and prefetching the next 8 rows as well made the decode
 * sequence of SmolLM2-135M GEMVs ~12% slower (35.7 vs 40 GB/s on one core, f32; the bf16
 * vdpbf16ps kernel went from 28 to 35 GB/s once its masked loads were kept to the k tail).
 * With several x rows they read 4 W rows at a time, too few streams: while the first x-row group
 * is computed they prefetch the same offsets of the next 4 W rows, one line per row per 64 bytes
 * of k (without it: m = 2 at 18 instead of 27 GB/s, bf16 lm_head m = 6 at 9 GB/s). */

/* dot: c[i][j] = alpha * sum_p x[i*k+p] * w[j*w_rs+p] + beta*c[i*ldc+j], i < mx, j < nw. */
typedef void (*dot_fn)(int64_t mx, int64_t nw, int64_t k, const float *x, const void *w,
                       int64_t w_rs, float *c, int64_t ldc, float alpha, float beta);
/* axpy: c[i][j] = alpha * sum_p x[i*k+p] * b[p*b_rs+j] + beta*c[i*ldc+j], i < mx, j < n. */
typedef void (*axpy_fn)(int64_t mx, int64_t n, int64_t k, const float *x, const void *b,
                        int64_t b_rs, float *c, int64_t ldc, float alpha, float beta);
/* bf16 × bf16 dot kernel: x rows bf16 with row stride xk (zero padded to a multiple of 32) */
typedef void (*dot_bf16_fn)(int64_t mx, int64_t nw, int64_t k, int64_t xk, const uint16_t *x,
                            const uint16_t *w, int64_t w_rs, float *c, int64_t ldc, float alpha,
                            float beta);

typedef struct {
    dot_bf16_fn dot_bf16;  /* NULL: bf16 × bf16 few-row products widen to f32 */
    /* indexed by tn_wide_index(): f32, f16, bf16 */
    dot_fn dot[3];
    axpy_fn axpy[3];
} gemv_kernels;

/* Rows [0, mx) of A, widened to contiguous f32 rows of length k (the x of the GEMV kernels). */
static void
widen_rows(const tn_mat *a, int64_t mx, int64_t k, float *dst)
{
    for (int64_t i = 0; i < mx; i++) {
        for (int64_t p = 0; p < k; p++) {
            const void *e = tn_mat_at(a, i, p);
            switch (a->dtype) {
            case TN_DTYPE_F32: dst[i * k + p] = *(const float *)e; break;
            case TN_DTYPE_F16: dst[i * k + p] = load_f16(e); break;
            default: dst[i * k + p] = load_bf16(e); break;
            }
        }
    }
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


#if TN_X86
/* ---- AVX2 + FMA (+ F16C for f16 loads) ---- */

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

/* ---- AVX-512 (F, BW, VL) ---- */

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

/* ---- AVX512-BF16: bf16 × bf16 with vdpbf16ps (see gemm_ukernels.c for the rounding) ---- */

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

static gemv_kernels gemv;
static pthread_once_t gemv_once = PTHREAD_ONCE_INIT;

static void
select_gemv(void)
{
    int level = tn_gemm_isa();
    gemv_kernels k = {
        .dot = {dot_f32__scalar, dot_f16__scalar, dot_bf16__scalar},
        .axpy = {axpy_f32__scalar, axpy_f16__scalar, axpy_bf16__scalar},
    };
#if TN_X86
    if (level >= TN_GEMM_ISA_AVX2) {
        k = (gemv_kernels){
            .dot = {dot_f32__avx2, dot_f16__avx2, dot_bf16__avx2},
            .axpy = {axpy_f32__avx2, axpy_f16__avx2, axpy_bf16__avx2},
        };
    }
    if (level >= TN_GEMM_ISA_AVX512) {
        k.dot[0] = dot_f32__avx512;
        k.dot[1] = dot_f16__avx512;
        k.dot[2] = dot_bf16__avx512;
        k.axpy[0] = axpy_f32__avx512;
        k.axpy[1] = axpy_f16__avx512;
        k.axpy[2] = axpy_bf16__avx512;
    }
    if (level >= TN_GEMM_ISA_AVX512BF16)
        k.dot_bf16 = dot_bf16x2__avx512bf16;
#else
    (void)level;
#endif
    gemv = k;
}

static const gemv_kernels *
get_gemv(void)
{
    pthread_once(&gemv_once, select_gemv);
    return &gemv;
}

/* Rows [0, m) of bf16 A as bf16 rows zero padded to xk (a multiple of 32), the x of the
 * vdpbf16ps dot kernel; NULL if out of memory. */
static uint16_t *
bf16_rows_padded(const tn_mat *a, int64_t m, int64_t k, int64_t xk)
{
    uint16_t *x = (uint16_t *)tn_gemm_scratch(TN_SCRATCH_PACK, (size_t)(m * xk / 2 + 16));
    if (!x)
        return NULL;
    for (int64_t i = 0; i < m; i++) {
        const uint16_t *src = tn_mat_at(a, i, 0);
        for (int64_t p = 0; p < xk; p++)
            x[i * xk + p] = p < k ? src[p * a->cs] : 0;
    }
    return x;
}

bool
tn_gemv_block(int64_t m, int64_t n, int64_t k, const tn_mat *a, const tn_mat *b, float *c, int64_t ldc,
              float alpha, float beta)
{
    const gemv_kernels *kern = get_gemv();
    if (b->rs == 1 && kern->dot_bf16 && a->dtype == TN_DTYPE_BF16 && b->dtype == TN_DTYPE_BF16) {
        int64_t xk = (k + 31) & ~(int64_t)31;
        uint16_t *x = bf16_rows_padded(a, m, k, xk);
        if (!x)
            return false;
        kern->dot_bf16(m, n, k, xk, x, b->p, b->cs, c, ldc, alpha, beta);
        return true;
    }
    float *x = tn_gemm_scratch(TN_SCRATCH_PACK, (size_t)(m * k));
    if (!x)
        return false;
    widen_rows(a, m, k, x);
    if (b->rs == 1)
        kern->dot[tn_wide_index(b->dtype)](m, n, k, x, b->p, b->cs, c, ldc, alpha, beta);
    else
        kern->axpy[tn_wide_index(b->dtype)](m, n, k, x, b->p, b->rs, c, ldc, alpha, beta);
    return true;
}

/* Note [GEMV threads]
 * A product of at most TN_GEMV_MAX_M rows of x with a W whose rows run along k (Linear's weight,
 * and A @ B^T generally) reads each W element once: it is bound by memory, and one core of this
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
    const gemv_kernels *kern;
    tn_store_row_fn store;  /* work -> C */
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
        g->kern->dot[tn_wide_index(g->dtype)](g->m, nn, g->k, g->x, w, g->w_rs, out, ldo, al, be);
    if (g->work) {
        tn_store_row_fn store = g->store;
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

/* See gemv.h: x is prepared once, W rows are split per Note [GEMV threads]. */
tn_status
tn_gemv_run(int dtype, int64_t m, int64_t n, int64_t k, const tn_mat *a, const void *w, int64_t w_rs,
            void *c, int64_t c_sm, int64_t c_sn, float alpha, float beta)
{
    const gemv_kernels *kern = get_gemv();
    int es = tn_dtype_size(dtype);
    gemv_job g = {
        .kern = kern, .store = tn_gemm_ukernels_get()->store_row[tn_wide_index(dtype)],
        .dtype = dtype, .es = es, .m = m, .n = n, .k = k,
        .w = w, .w_rs = w_rs, .c = c, .c_sm = c_sm, .c_sn = c_sn,
        .alpha = alpha, .beta = beta,
    };
    if (kern->dot_bf16 && dtype == TN_DTYPE_BF16) {
        g.xk = (k + 31) & ~(int64_t)31;
        if (!(g.x = bf16_rows_padded(a, m, k, g.xk)))
            return TN_ERR_NOMEM;
    } else {
        float *x = tn_gemm_scratch(TN_SCRATCH_PACK, (size_t)(m * k));
        if (!x)
            return TN_ERR_NOMEM;
        widen_rows(a, m, k, x);
        g.x = x;
    }
    if (!(dtype == TN_DTYPE_F32 && c_sn == 1)) {
        g.work = tn_gemm_scratch(TN_SCRATCH_WORK, (size_t)(m * n));
        if (!g.work)
            return TN_ERR_NOMEM;
    }
    int threads = tn_num_threads();
    int64_t per = (n + GEMV_ITEMS_PER_THREAD * threads - 1) / (GEMV_ITEMS_PER_THREAD * threads);
    g.rows = per < 16 ? 16 : (per + 15) & ~(int64_t)15;
    int64_t items = (n + g.rows - 1) / g.rows;
    pthreadpool_t pool = threads > 1 ? tn_threadpool() : NULL;
    int64_t t0 = 0;
    bool threaded = pool && items > 1 && (double)k * es * (double)n >= GEMV_PAR_BYTES &&
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

