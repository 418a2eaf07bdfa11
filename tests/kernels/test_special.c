/* Criterion tests for kernels/special.h: closed forms and published values the Cephes
 * approximations must reproduce, the boundary values upstream assigns, and where float and
 * double part ways (Note [Special functions in float]). Agreement with upstream itself is the
 * golden harness's (tests/python/golden/cases_op_pointwise.py).
 */
#include <criterion/criterion.h>
#include <math.h>

#include "kernels/special.h"

#define PI 3.141592653589793238462643383279502884

static void
close_to(double got, double want, double rel, const char *what)
{
    cr_assert(fabs(got - want) <= rel * fabs(want), "%s = %.17g, want %.17g", what, got, want);
}

Test(special, values_at_zero)
{
    cr_assert_eq(tn_special_i0_f64(0), 1.0);
    close_to(tn_special_i0e_f32(0), 1.0, 1e-7, "i0e(0) in float");  /* the float series sums to 1 - 2^-24 */
    cr_assert_eq(tn_special_i1_f64(0), 0.0);
    cr_assert_eq(tn_special_bessel_j0_f64(0), 1.0);
    cr_assert_eq(tn_special_bessel_j1_f32(0), 0.0f);
    cr_assert(isinf(tn_special_bessel_y0_f64(0)) && tn_special_bessel_y0_f64(0) < 0);
    cr_assert(isinf(tn_special_bessel_k0_f32(0)) && tn_special_bessel_k0_f32(0) > 0);
    cr_assert_eq(tn_special_spherical_j0_f64(0), 1.0);
    cr_assert_eq(tn_special_erfcx_f64(0), 1.0);
    cr_assert_eq(tn_special_ndtri_f64(0.5), 0.0);
    cr_assert(isinf(tn_special_ndtri_f32(0)) && tn_special_ndtri_f32(0) < 0);
    close_to(tn_special_airy_ai_f64(0), 0.355028053887817239260, 1e-15, "Ai(0)");
}

Test(special, closed_forms)
{
    close_to(tn_special_zeta_f64(2, 1), PI * PI / 6, 1e-15, "zeta(2, 1)");
    close_to(tn_special_zeta_f64(4, 1), pow(PI, 4) / 90, 1e-15, "zeta(4, 1)");
    for (double x = 0.25; x < 30; x *= 2) {
        close_to(tn_special_igamma_f64(1, x), -expm1(-x), 1e-14, "P(1, x)");
        close_to(tn_special_igammac_f64(1, x), exp(-x), 1e-13, "Q(1, x)");
        close_to(tn_special_spherical_j0_f64(x), sin(x) / x, 1e-15, "j0(x)");
        close_to(tn_special_log_ndtr_f64(-x), log(0.5 * erfc(x / sqrt(2))), 1e-14, "log_ndtr(-x)");
        close_to(tn_special_i0e_f64(x), tn_special_i0_f64(x) * exp(-x), 1e-14, "i0e(x)");
        close_to(tn_special_bessel_k1e_f64(x), tn_special_bessel_k1_f64(x) * exp(x), 1e-13, "k1e(x)");
    }
    close_to(tn_special_ndtri_f64(0.975), 1.959963984540054, 1e-14, "ndtri(0.975)");
    cr_assert(fabs(tn_special_bessel_j0_f64(2.404825557695773)) < 1e-15);
}

Test(special, odd_and_even)
{
    for (double x = 0.3; x < 20; x += 1.7) {
        cr_assert_eq(tn_special_i1_f64(-x), -tn_special_i1_f64(x));
        cr_assert_eq(tn_special_i1e_f32((float)-x), -tn_special_i1e_f32((float)x));
        cr_assert_eq(tn_special_bessel_j1_f64(-x), -tn_special_bessel_j1_f64(x));
        cr_assert_eq(tn_special_i0_f64(-x), tn_special_i0_f64(x));
        cr_assert_eq(tn_special_bessel_j0_f64(-x), tn_special_bessel_j0_f64(x));
    }
}

Test(special, domain_and_boundaries)
{
    cr_assert(isnan(tn_special_bessel_y1_f64(-1)));
    cr_assert(isnan(tn_special_bessel_k1_f64(-1)));
    cr_assert(isnan(tn_special_ndtri_f64(1.5)));
    cr_assert(isnan(tn_special_airy_ai_f64(INFINITY)));
    cr_assert_eq(tn_special_airy_ai_f64(200), 0.0);
    cr_assert(isnan(tn_special_igamma_f64(-1, 1)));
    cr_assert_eq(tn_special_igamma_f64(0, 1), 1.0);
    cr_assert_eq(tn_special_igammac_f64(0, 1), 0.0);
    cr_assert(isnan(tn_special_igamma_f64(INFINITY, INFINITY)));
    cr_assert(isinf(tn_special_zeta_f64(1, 2)));
    cr_assert(isnan(tn_special_zeta_f64(0.5, 2)));
    cr_assert(isinf(tn_special_erfcx_f64(-30)));
}

/* I0(89) = 1.9e37 fits a float, but exp(89) does not: float computes inf, as upstream's float
 * kernel does; double keeps it */
Test(special, float_overflows_as_float)
{
    cr_assert(isinf(tn_special_i0_f32(89.0f)));
    cr_assert(isfinite(tn_special_i0_f64(89.0)));
    cr_assert(isfinite((float)tn_special_i0_f64(89.0)));
    cr_assert(isfinite(tn_special_i0e_f32(89.0f)));
}
