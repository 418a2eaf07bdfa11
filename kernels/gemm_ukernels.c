/* GEMM micro-kernels: packers that read any strides (widening f16/bf16 to f32), MR×NR register
 * blocks per ISA (scalar 4x8, AVX2 6x16, AVX-512 8x32, AVX512-BF16 8x32 on bf16 pairs; the f32 ones
 * restart their accumulators every GEMM_KSUB k steps: Note [GEMM accuracy] in matmul.c), the
 * epilogue that rounds an f32 workspace row into C, and their selection. The block loop that
 * drives them is gemm_block in matmul.c (see Note [GEMM blocking] there).
 * To add an ISA: ukr_<MR>x<NR>__<isa> (and packers if they pay), then a case in select_ukernels().
 */
#include "gemm_ukernels.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- scratch ---- */

typedef struct {
    float *p;
    size_t cap;
} scratch;

static _Thread_local scratch tls_scratch[2];  /* TN_SCRATCH_PACK, TN_SCRATCH_WORK */

float *
tn_gemm_scratch(int purpose, size_t floats)
{
    scratch *s = &tls_scratch[purpose];
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



/* ---- micro-kernels: C[MR][NR] (row stride ldc) = alpha * pa·pb + beta * C ---- */

static void
ukr_4x8__scalar(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc, float alpha,
                float beta)
{
    float sum[4][8] = {{0}};
    for (int64_t p0 = 0; p0 < kc; p0 += GEMM_KSUB) {
        int64_t steps = kc - p0 < GEMM_KSUB ? kc - p0 : GEMM_KSUB;
        float acc[4][8] = {{0}};
        for (int64_t p = 0; p < steps; p++) {
            for (int r = 0; r < 4; r++)
                for (int j = 0; j < 8; j++)
                    acc[r][j] += pa[r] * pb[j];
            pa += 4;
            pb += 8;
        }
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < 8; j++)
                sum[r][j] += acc[r][j];
    }
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 8; j++)
            c[r * ldc + j] = beta == 0.0f ? alpha * sum[r][j]
                                          : alpha * sum[r][j] + beta * c[r * ldc + j];
}

/* ---- epilogue: f32 workspace row -> C ---- */

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

TN_TARGET_AVX2 static void
ukr_6x16__avx2(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc, float alpha,
               float beta)
{
    __m256 sum[6][2];
    for (int r = 0; r < 6; r++)
        sum[r][0] = sum[r][1] = _mm256_setzero_ps();
    for (int64_t p0 = 0; p0 < kc; p0 += GEMM_KSUB) {
        int64_t steps = kc - p0 < GEMM_KSUB ? kc - p0 : GEMM_KSUB;
        __m256 acc[6][2];
        for (int r = 0; r < 6; r++)
            acc[r][0] = acc[r][1] = _mm256_setzero_ps();
        for (int64_t p = 0; p < steps; p++) {
            __m256 b0 = _mm256_load_ps(pb), b1 = _mm256_load_ps(pb + 8);
            for (int r = 0; r < 6; r++) {
                __m256 a = _mm256_broadcast_ss(pa + r);
                acc[r][0] = _mm256_fmadd_ps(a, b0, acc[r][0]);
                acc[r][1] = _mm256_fmadd_ps(a, b1, acc[r][1]);
            }
            pa += 6;
            pb += 16;
        }
        for (int r = 0; r < 6; r++) {
            sum[r][0] = _mm256_add_ps(sum[r][0], acc[r][0]);
            sum[r][1] = _mm256_add_ps(sum[r][1], acc[r][1]);
        }
    }
    __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    for (int r = 0; r < 6; r++) {
        st8_out(c + r * ldc, sum[r][0], va, vb, beta);
        st8_out(c + r * ldc + 8, sum[r][1], va, vb, beta);
    }
}

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

TN_TARGET_AVX512 static void
ukr_8x32__avx512(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc, float alpha,
                 float beta)
{
    __m512 sum[8][2];
    for (int r = 0; r < 8; r++)
        sum[r][0] = sum[r][1] = _mm512_setzero_ps();
    for (int64_t p0 = 0; p0 < kc; p0 += GEMM_KSUB) {
        int64_t steps = kc - p0 < GEMM_KSUB ? kc - p0 : GEMM_KSUB;
        __m512 acc[8][2];
        for (int r = 0; r < 8; r++)
            acc[r][0] = acc[r][1] = _mm512_setzero_ps();
        for (int64_t p = 0; p < steps; p++) {
            __m512 b0 = _mm512_load_ps(pb), b1 = _mm512_load_ps(pb + 16);
            for (int r = 0; r < 8; r++) {
                __m512 a = _mm512_set1_ps(pa[r]);
                acc[r][0] = _mm512_fmadd_ps(a, b0, acc[r][0]);
                acc[r][1] = _mm512_fmadd_ps(a, b1, acc[r][1]);
            }
            pa += 8;
            pb += 32;
        }
        for (int r = 0; r < 8; r++) {
            sum[r][0] = _mm512_add_ps(sum[r][0], acc[r][0]);
            sum[r][1] = _mm512_add_ps(sum[r][1], acc[r][1]);
        }
    }
    __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (int r = 0; r < 8; r++) {
        st16_out(c + r * ldc, sum[r][0], va, vb, beta);
        st16_out(c + r * ldc + 16, sum[r][1], va, vb, beta);
    }
}

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
#endif /* TN_X86 */

static int isa_level;
static pthread_once_t isa_once = PTHREAD_ONCE_INIT;

static void
select_isa(void)
{
    const char *force = getenv("TN_GEMM_ISA");
    int level = TN_GEMM_ISA_SCALAR;
#if TN_X86
    level = tn_cpu_has_avx512bf16() ? TN_GEMM_ISA_AVX512BF16
            : tn_cpu_has_avx512()   ? TN_GEMM_ISA_AVX512
            : tn_cpu_has_avx2()     ? TN_GEMM_ISA_AVX2
                                    : TN_GEMM_ISA_SCALAR;
    if (force && strcmp(force, "avx512") == 0 && level > TN_GEMM_ISA_AVX512)
        level = TN_GEMM_ISA_AVX512;
    if (force && strcmp(force, "scalar") == 0)
        level = TN_GEMM_ISA_SCALAR;
    if (force && strcmp(force, "avx2") == 0 && level > TN_GEMM_ISA_AVX2)
        level = TN_GEMM_ISA_AVX2;
#else
    (void)force;
#endif
    isa_level = level;
}

int
tn_gemm_isa(void)
{
    pthread_once(&isa_once, select_isa);
    return isa_level;
}

static tn_gemm_ukernels ukernels;
static pthread_once_t ukernels_once = PTHREAD_ONCE_INIT;

static void
select_ukernels(void)
{
    int level = tn_gemm_isa();
    tn_gemm_ukernels k = {
        .isa = "scalar", .mr = 4, .nr = 8, .ukr = ukr_4x8__scalar,
        .pack_a = {pack_a_f32, pack_a_f16, pack_a_bf16},
        .pack_b = {pack_b_f32, pack_b_f16, pack_b_bf16},
        .store_row = {store_row_f32__scalar, store_row_f16__scalar, store_row_bf16__scalar},
    };
#if TN_X86
    if (level >= TN_GEMM_ISA_AVX2) {
        k = (tn_gemm_ukernels){
            .isa = "avx2", .mr = 6, .nr = 16, .ukr = ukr_6x16__avx2,
            .pack_a = {pack_a_f32__avx2, pack_a_f16__avx2, pack_a_bf16__avx2},
            .pack_b = {pack_b_f32__avx2, pack_b_f16__avx2, pack_b_bf16__avx2},
            .store_row = {store_row_f32__avx2, store_row_f16__avx2, store_row_bf16__avx2},
        };
    }
    if (level >= TN_GEMM_ISA_AVX512) {
        k.isa = "avx512";
        k.mr = 8;
        k.nr = 32;
        k.ukr = ukr_8x32__avx512;
    }
    if (level >= TN_GEMM_ISA_AVX512BF16) {
        k.isa = "avx512bf16";
        k.ukr_bf16 = ukr_8x32__avx512bf16;
        k.pack_a_bf16x2 = pack_a_bf16x2;
        k.pack_b_bf16x2 = pack_b_bf16x2;
    }
#else
    (void)level;
#endif
    ukernels = k;
}

const tn_gemm_ukernels *
tn_gemm_ukernels_get(void)
{
    pthread_once(&ukernels_once, select_ukernels);
    return &ukernels;
}
