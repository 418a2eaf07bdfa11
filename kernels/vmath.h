/* Vector math the kernel families share (header only: each is inlined into its caller's loop).
 * Note [Vector exp]
 * tn_f32_vexp__avx2: x = n ln2 + r with |r| <= ln2/2 (ln2 split in two for exact reduction), e^r
 * from the degree-7 minimax polynomial of Cephes expf, then 2^n applied in two halves so results
 * down to the subnormal range round once; overflow gives inf, NaN passes through. Against exp in
 * float64 it stays within 1 ulp on [-87.3, 88.3] and on the subnormal range [-104, -87.3]
 * (tests/kernels/test_vmath.c); attention's former copy flushed that range to 0 (its test fails).
 */
#ifndef TN_KERNELS_VMATH_H
#define TN_KERNELS_VMATH_H

#include "cpu.h"

#if TN_X86
TN_TARGET_AVX2 static inline __m256
tn_f32_vexp__avx2(__m256 x)
{
    const __m256 lo = _mm256_set1_ps(-104.0f), hi = _mm256_set1_ps(89.0f);
    __m256 xc = _mm256_min_ps(_mm256_max_ps(x, lo), hi);
    __m256 n = _mm256_round_ps(_mm256_mul_ps(xc, _mm256_set1_ps(1.44269504088896341f)),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), xc);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r);
    p = _mm256_add_ps(p, _mm256_set1_ps(1.0f));
    __m256i ni = _mm256_cvtps_epi32(n);
    __m256i n1 = _mm256_srai_epi32(ni, 1);
    __m256i n2 = _mm256_sub_epi32(ni, n1);
    const __m256i bias = _mm256_set1_epi32(127);
    __m256 s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
    __m256 s2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n2, bias), 23));
    __m256 res = _mm256_mul_ps(_mm256_mul_ps(p, s1), s2);
    return _mm256_blendv_ps(res, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

/* libsleef's AVX2 functions, 8 f32 or 4 f64 lanes (Note [SLEEF bodies] in unary.c). Its header
 * declares them only where __AVX__ is defined; these files pick their ISA per function, so the
 * header is read under the AVX2 target. */
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <sleef.h>
#pragma GCC pop_options

/* Writing a formula once for both lane types: V_<sn>(op) is the AVX intrinsic for f32 (_ps) or
 * f64 (_pd) lanes, SL_<sn>(fn, u) the SLEEF function, VT_<sn> the vector type */
#define V_f32(name) _mm256_##name##_ps
#define V_f64(name) _mm256_##name##_pd
#define SL_f32(fn, u) Sleef_##fn##f8_##u##avx2
#define SL_f64(fn, u) Sleef_##fn##d4_##u##avx2
#define VT_f32 __m256
#define VT_f64 __m256d
#define LANES_f32 8
#define LANES_f64 4
#endif

#endif /* TN_KERNELS_VMATH_H */
