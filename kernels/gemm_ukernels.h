/* The pieces the float matrix products build on (kernels/matmul.c's packed GEMM, kernels/gemv.c's
 * few-row products): packed-block micro-kernels and packers per ISA, the epilogue that rounds an f32
 * workspace into C, per-thread scratch, the operand view, and the SIMD loads both families use.
 * Internal to kernels/ (the public entries are matmul.h, gemv.h, xnn_adapter.h). To add an ISA:
 * ukr_<MR>x<NR>__<isa> and its packers in gemm_ukernels.c, and a case in tn_gemm_ukernels_get().
 */
#ifndef TN_KERNELS_GEMM_UKERNELS_H
#define TN_KERNELS_GEMM_UKERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "element.h"

enum {
    GEMM_MC = 72,   /* rows of A per packed block: a multiple of every MR (4, 6, 8) */
    GEMM_KC = 256,  /* depth of a packed block: an MR×KC and a KC×NR strip fit in L1 */
    GEMM_NC = 256,  /* columns per task and per packed B block (KC×NC floats = 256 KiB, L2) */
    MAX_MR = 8,
    MAX_NR = 32,
    PACK_SLACK = 16,  /* floats after a packed block that a vector packer may overrun */
    GEMM_KSUB = 32,   /* k steps a micro-kernel's accumulators run before they are added into its
                       * partial sums (Note [GEMM accuracy] in matmul.c) */
};

/* C[MR][NR] (row stride ldc) = alpha * pa·pb + beta * C over kc packed k */
typedef void (*tn_ukr_fn)(int64_t kc, const float *pa, const float *pb, float *c, int64_t ldc,
                          float alpha, float beta);

/* pack: see pack_a_* and pack_b_* in gemm_ukernels.c. */
typedef void (*tn_pack_fn)(const void *src, int64_t rs, int64_t cs, int64_t rows, int64_t cols, int r,
                           float *dst);

/* bf16 × bf16 micro-kernel over kp packed k pairs (see ukr_8x32__avx512bf16) and its packers */
typedef void (*tn_ukr_bf16_fn)(int64_t kp, const uint32_t *pa, const uint32_t *pb, float *c,
                               int64_t ldc, float alpha, float beta);
typedef void (*tn_pack_bf16x2_fn)(const uint16_t *src, int64_t rs, int64_t cs, int64_t rows, int64_t cols,
                                  int r, uint32_t *dst);

/* store_row: c[j] = round(alpha*w[j] + beta*c[j]) for j < n, c contiguous, of the indexed dtype;
 * beta == 0: c not read. */
typedef void (*tn_store_row_fn)(const float *w, int64_t n, void *c, float alpha, float beta);

typedef struct {
    const char *isa;
    int mr, nr;
    tn_ukr_fn ukr;
    /* NULL: bf16 × bf16 widens to f32 like f16 does (MR = 8, NR = 32) */
    tn_ukr_bf16_fn ukr_bf16;
    tn_pack_bf16x2_fn pack_a_bf16x2, pack_b_bf16x2;
    /* the rest indexed by tn_wide_index(): f32, f16, bf16 */
    tn_pack_fn pack_a[3], pack_b[3];
    tn_store_row_fn store_row[3];
} tn_gemm_ukernels;

/* The widest paths this CPU runs; TN_GEMM_ISA=scalar|avx2|avx512 (read once) forces a narrower
 * set, which is how the tests reach every path on one machine. */
enum { TN_GEMM_ISA_SCALAR, TN_GEMM_ISA_AVX2, TN_GEMM_ISA_AVX512, TN_GEMM_ISA_AVX512BF16 };
int tn_gemm_isa(void);

/* The micro-kernels, packers and epilogues for tn_gemm_isa() (selected once). */
const tn_gemm_ukernels *tn_gemm_ukernels_get(void);

static inline int
tn_wide_index(int dtype)
{
    return dtype == TN_DTYPE_F32 ? 0 : dtype == TN_DTYPE_F16 ? 1 : 2;
}

static inline bool
tn_is_f32_family(int dtype)
{
    return dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16;
}

/* One growing 64-byte aligned buffer per thread and purpose (NULL if out of memory): PACK holds
 * packed A and B blocks and the GEMV's widened x rows, WORK a task's f32 C workspace. */
enum { TN_SCRATCH_PACK, TN_SCRATCH_WORK };
float *tn_gemm_scratch(int purpose, size_t floats);

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
} tn_mat;

static inline const void *
tn_mat_at(const tn_mat *a, int64_t i, int64_t j)
{
    return (const char *)a->p + (i * a->rs + j * a->cs) * tn_dtype_size(a->dtype);
}

#if TN_X86
/* ---- 8 and 16 float loads (widening f16/bf16) and the alpha/beta store ---- */

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
#endif /* TN_X86 */

#endif /* TN_KERNELS_GEMM_UKERNELS_H */
