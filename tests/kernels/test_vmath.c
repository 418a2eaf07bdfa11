/* Criterion tests for kernels/vmath.h: the vector exp against exp in float64, in ulps of the
 * float64 value rounded to float (Note [Vector exp]). The floats tried are every 997th bit
 * pattern in each range.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/vmath.h"

#if TN_X86
/* |got - want| in units of the last place of want rounded to float (subnormal ulp at least). */
static double
ulps(float got, double want)
{
    float w = (float)want;
    int e;
    frexpf(fabsf(w), &e);
    double ulp = w == 0 ? ldexp(1, -149) : fmax(ldexp(1, e - 24), ldexp(1, -149));
    return fabs((double)got - want) / ulp;
}

/* The largest error over the floats in [lo, hi] whose bit patterns are multiples of 997. */
TN_TARGET_AVX2 static double
max_ulps(float lo, float hi)
{
    double worst = 0;
    float xs[8], ys[8];
    int k = 0;
    for (uint64_t bits = 0; bits < (1ull << 32); bits += 997) {
        uint32_t b = (uint32_t)bits;
        float x;
        memcpy(&x, &b, sizeof x);
        if (!(x >= lo && x <= hi))
            continue;
        xs[k++] = x;
        if (k < 8)
            continue;
        _mm256_storeu_ps(ys, tn_f32_vexp__avx2(_mm256_loadu_ps(xs)));
        for (k = 0; k < 8; k++)
            worst = fmax(worst, ulps(ys[k], exp((double)xs[k])));
        k = 0;
    }
    return worst;
}

Test(vmath, vexp_f32_normal_range_within_1ulp)
{
    if (!tn_cpu_has_avx2())
        cr_skip_test("no AVX2");
    cr_assert_leq(max_ulps(-87.3f, 88.3f), 1.0);
}

Test(vmath, vexp_f32_subnormal_results_within_1ulp)
{
    if (!tn_cpu_has_avx2())
        cr_skip_test("no AVX2");
    cr_assert_leq(max_ulps(-104.0f, -87.3f), 1.0);
}

TN_TARGET_AVX2 static void
vexp8(const float *x, float *y)
{
    _mm256_storeu_ps(y, tn_f32_vexp__avx2(_mm256_loadu_ps(x)));
}

Test(vmath, vexp_f32_edges)
{
    if (!tn_cpu_has_avx2())
        cr_skip_test("no AVX2");
    float x[8] = {-INFINITY, INFINITY, NAN, 0.0f, -0.0f, 89.0f, -110.0f, 1.0f}, y[8];
    vexp8(x, y);
    cr_assert_eq(y[0], 0.0f);
    cr_assert(isinf(y[1]) && y[1] > 0);
    cr_assert(isnan(y[2]));
    cr_assert_eq(y[3], 1.0f);
    cr_assert_eq(y[4], 1.0f);
    cr_assert(isinf(y[5]));
    cr_assert_eq(y[6], 0.0f);
    cr_assert_eq(y[7], (float)exp(1.0));
}
#endif
