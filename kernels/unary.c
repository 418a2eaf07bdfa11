/* Elementwise unary kernels: one table of row workers <op>_<dtype> generated from the op lists
 * below (Note [Unary op list]), AVX2 vector math for f32 exp/tanh/sigmoid/silu, and f16/bf16
 * through widened f32 rows (copy.h, Note [Widened rows]).
 * Adding an op: its enum value and name, one line per dtype class in the op lists, and a
 * line in unary_table.
 */
#include "unary.h"

#include <math.h>
#include <string.h>

#include "copy.h"
#include "cpu.h"
#include "special.h"
#include "vmath.h"


const char *const tn_unary_names[TN_NUM_UNARY] = {
    [TN_UN_NEG] = "neg",
    [TN_UN_ABS] = "abs",
    [TN_UN_EXP] = "exp",
    [TN_UN_EXP2] = "exp2",
    [TN_UN_EXPM1] = "expm1",
    [TN_UN_LOG] = "log",
    [TN_UN_LOG2] = "log2",
    [TN_UN_LOG10] = "log10",
    [TN_UN_LOG1P] = "log1p",
    [TN_UN_SQRT] = "sqrt",
    [TN_UN_RSQRT] = "rsqrt",
    [TN_UN_SIN] = "sin",
    [TN_UN_COS] = "cos",
    [TN_UN_TAN] = "tan",
    [TN_UN_ASIN] = "asin",
    [TN_UN_ACOS] = "acos",
    [TN_UN_ATAN] = "atan",
    [TN_UN_SINH] = "sinh",
    [TN_UN_COSH] = "cosh",
    [TN_UN_TANH] = "tanh",
    [TN_UN_ASINH] = "asinh",
    [TN_UN_ACOSH] = "acosh",
    [TN_UN_ATANH] = "atanh",
    [TN_UN_SIGMOID] = "sigmoid",
    [TN_UN_SILU] = "silu",
    [TN_UN_GELU] = "gelu",
    [TN_UN_GELU_TANH] = "gelu_tanh",
    [TN_UN_RELU] = "relu",
    [TN_UN_ERF] = "erf",
    [TN_UN_ERFC] = "erfc",
    [TN_UN_ERFINV] = "erfinv",
    [TN_UN_FLOOR] = "floor",
    [TN_UN_CEIL] = "ceil",
    [TN_UN_ROUND] = "round",
    [TN_UN_TRUNC] = "trunc",
    [TN_UN_FRAC] = "frac",
    [TN_UN_SIGN] = "sign",
    [TN_UN_RECIPROCAL] = "reciprocal",
    [TN_UN_BITNOT] = "bitwise_not",
    [TN_UN_LOGICAL_NOT] = "logical_not",
    [TN_UN_ISNAN] = "isnan",
    [TN_UN_ISINF] = "isinf",
    [TN_UN_ISFINITE] = "isfinite",
    [TN_UN_SIGNBIT] = "signbit",
    [TN_UN_MISH] = "mish",
    [TN_UN_HARDSWISH] = "hardswish",
    [TN_UN_HARDSIGMOID] = "hardsigmoid",
    [TN_UN_LGAMMA] = "lgamma",
    [TN_UN_DIGAMMA] = "digamma",
    [TN_UN_SOFTPLUS] = "softplus",
    [TN_UN_ELU] = "elu",
    [TN_UN_LEAKY_RELU] = "leaky_relu",
    [TN_UN_HARDTANH] = "hardtanh",
    [TN_UN_THRESHOLD] = "threshold",
    [TN_UN_ISPOSINF] = "isposinf",
    [TN_UN_ISNEGINF] = "isneginf",
    [TN_UN_NAN_TO_NUM] = "nan_to_num",
    [TN_UN_LOGIT] = "logit",
    [TN_UN_HARDSHRINK] = "hardshrink",
    [TN_UN_SOFTSHRINK] = "softshrink",
    [TN_UN_POLYGAMMA] = "polygamma",
    [TN_UN_I0] = "i0",
    [TN_UN_I0E] = "i0e",
    [TN_UN_I1] = "i1",
    [TN_UN_I1E] = "i1e",
    [TN_UN_BESSEL_I0] = "bessel_i0",
    [TN_UN_BESSEL_I1] = "bessel_i1",
    [TN_UN_BESSEL_K0] = "bessel_k0",
    [TN_UN_BESSEL_K1] = "bessel_k1",
    [TN_UN_BESSEL_K0E] = "bessel_k0e",
    [TN_UN_BESSEL_K1E] = "bessel_k1e",
    [TN_UN_BESSEL_J0] = "bessel_j0",
    [TN_UN_BESSEL_J1] = "bessel_j1",
    [TN_UN_BESSEL_Y0] = "bessel_y0",
    [TN_UN_BESSEL_Y1] = "bessel_y1",
    [TN_UN_SPHERICAL_J0] = "spherical_j0",
    [TN_UN_AIRY_AI] = "airy_ai",
    [TN_UN_ERFCX] = "erfcx",
    [TN_UN_LOG_NDTR] = "log_ndtr",
    [TN_UN_NDTRI] = "ndtri",
    [TN_UN_ENTR] = "special_entr",
};

/* Parameters converted once per call: f for f32 math (f32, f16, bf16), d for f64, i for the
 * integer dtypes. e* hold derived constants (elu's alpha*scale, round's 10^decimals). */
typedef struct {
    float f[3];
    double d[3];
    int64_t i[3];
    float ef;
    double ed;
    int neg_decimals;
    int half;  /* f16/bf16 widened to f32: 1 = f16, 2 = bf16 (for ops that round mid-way) */
} un_params;

typedef struct {
    un_params k;
    int avx2;
} un_ctx;

#define SQRT1_2 0.707106781186547524400844362104849039
#define GELU_BETA 0.797884560802865355879892119868763737
#define GELU_KAPPA 0.044715
#define PI 3.141592653589793238462643383279502884

static inline float
round_half(float x, int half)
{
    return half == 2 ? tn_bf16_to_f32(tn_f32_to_bf16(x)) : tn_f16_to_f32(tn_f32_to_f16(x));
}

/* ---- digamma and erfinv (no libm equivalent) ---- */

/* Note [digamma as ATen's]
 * psi(x) as ATen's calc_digamma (Math.h, after Cephes), one function per type: reflection for
 * negative x (tan(pi r) of the fractional part, in double for both), the recurrence up to 10
 * (psi(10) itself a constant), then the asymptotic series in z = 1/x^2 by Horner's rule. The
 * float overload computes every step in float (f16/bf16 arrive widened to f32, as upstream's
 * call it), and upstream's compiler fuses each Horner step into one fma (Note [SLEEF bodies]):
 * written out here. Poles: psi(+-0) = -+inf, negative integers NaN. */
static const double digamma_a[7] = {8.33333333333333333333E-2, -2.10927960927960927961E-2,
                                    7.57575757575757575758E-3, -4.16666666666666666667E-3,
                                    3.96825396825396825397E-3, -8.33333333333333333333E-3,
                                    8.33333333333333333333E-2};

static double
digamma_d(double x)
{
    if (x == 0)
        return copysign(INFINITY, -x);
    if (x < 0) {
        if (x == trunc(x))
            return NAN;
        double q, r = modf(x, &q);
        return digamma_d(1 - x) - PI / tan(PI * r);
    }
    double result = 0;
    while (x < 10) {
        result -= 1 / x;
        x += 1;
    }
    if (x == 10)
        return result + 2.25175258906672110764;
    double y = 0;
    if (x < 1.0e17) {
        double z = 1.0 / (x * x), p = 0;
        for (int i = 0; i < 7; i++)
            p = fma(p, z, digamma_a[i]);
        y = z * p;
    }
    return result + log(x) - (0.5 / x) - y;
}

static float
digamma_f(float x)
{
    if (x == 0)
        return copysignf(INFINITY, -x);
    if (x < 0) {
        if (x == truncf(x))
            return NAN;
        double q, r = modf(x, &q);
        float pi_over_tan = (float)(PI / tan(PI * r));
        return digamma_f(1 - x) - pi_over_tan;
    }
    float result = 0;
    while (x < 10) {
        result -= 1 / x;
        x += 1;
    }
    if (x == 10)
        return result + 2.25175258906672110764f;
    float y = 0;
    if (x < 1.0e17f) {
        float z = 1 / (x * x), p = 0;
        for (int i = 0; i < 7; i++)
            p = fmaf(p, z, (float)digamma_a[i]);
        y = z * p;
    }
    return result + logf(x) - (0.5f / x) - y;
}

/* psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 2; trigamma (n = 1) as ATen's
 * calc_trigamma: reflection below 0.5, six recurrence steps, then the asymptotic series. */
static double
polygamma_d(double x, int n)
{
    if (n == 1) {
        double sign = 1, result = 0;
        if (x < 0.5) {
            sign = -1;
            double sp = sin(PI * x);
            result -= (PI * PI) / (sp * sp);
            x = 1 - x;
        }
        for (int i = 0; i < 6; i++) {
            result += 1 / (x * x);
            x += 1;
        }
        double ixx = 1 / (x * x);
        /* upstream's compiler fuses each a - ixx * b and the last + ixx * c (Note [digamma as ATen's]) */
        result += fma(ixx, fma(-ixx, fma(-ixx, 1. / 42, 1. / 30), 1. / 6), 1 + 1 / (2 * x)) / x;
        return sign * result;
    }
    return ((n % 2) ? 1.0 : -1.0) * exp(lgamma((double)n + 1)) * tn_special_zeta_f64((double)n + 1, x);
}

/* psi^(n)(x) for n >= 2 in float, as calc_polygamma<float>: every step in float, zeta's too */
static float
polygamma_f(float x, int n)
{
    return ((n % 2) ? 1.0f : -1.0f) * expf(lgammaf((float)n + 1)) * tn_special_zeta_f32((float)(n + 1), x);
}

/* trigamma in float, as upstream's float overload of trigamma (ATen/native/Math.h): f32, and
 * f16/bf16 widened to f32, compute every step in float, so at a pole (x a negative integer,
 * where sinf(pi x) is small but not 0) the value is upstream's, not the double one rounded. */
static float
trigamma_f(float x)
{
    const float pi = (float)PI;
    float sign = 1, result = 0;
    if (x < 0.5f) {
        sign = -1;
        float sp = sinf(pi * x);
        result -= (pi * pi) / (sp * sp);
        x = 1 - x;
    }
    for (int i = 0; i < 6; i++) {
        result += 1 / (x * x);
        x += 1;
    }
    float ixx = 1 / (x * x);
    result += fmaf(ixx, fmaf(-ixx, fmaf(-ixx, 1.f / 42, 1.f / 30), 1.f / 6), 1 + 1 / (2 * x)) / x;
    return sign * result;
}

/* erf^-1(y): Giles' single-precision approximation ("Approximating the erfinv function",
 * GPU Computing Gems, 2011) as a start, then two Newton steps in double: on erf for |y| < 0.5,
 * on erfc against 1 - |y| (exact there) beyond, where erf(x) - y would cancel to a few bits
 * (float64 results were up to 251 ulp off near |y| = 1, and from 1 - 1e-10 on much further:
 * two steps had not converged). Upstream's is MKL's vdErfInv/vsErfInv
 * (vml's erfinv), strided or not: not reproducible, within an ulp of the exact value as these
 * (tools/ulp_survey.py -k erfinv). */
static double
erfinv_d(double y)
{
    if (y != y || y < -1 || y > 1)
        return NAN;
    if (y == 1 || y == -1)
        return copysign(INFINITY, y);
    if (y == 0)
        return y;
    double w = -log((1 - y) * (1 + y)), p;
    if (w < 5) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w;
        p = -3.5233877e-06 + p * w;
        p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w;
        p = -0.00125372503 + p * w;
        p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w;
        p = 1.50140941 + p * w;
    } else {
        w = sqrt(w) - 3;
        p = -0.000200214257;
        p = 0.000100950558 + p * w;
        p = 0.00134934322 + p * w;
        p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w;
        p = -0.0076224613 + p * w;
        p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w;
        p = 2.83297682 + p * w;
    }
    double x = p * y;
    const double two_over_sqrt_pi = 1.1283791670955125738961589031215452;
    if (fabs(y) < 0.5) {
        for (int it = 0; it < 2; it++)
            x -= (erf(x) - y) / (two_over_sqrt_pi * exp(-x * x));
        return x;
    }
    /* erfc is convex and falling: from below the root (the start's side far out, where Giles'
     * float approximation falls short) each step stays below it and moves slowly until near, so
     * step until the change is below an ulp (a handful of steps) */
    double t = 1 - fabs(y), ax = fabs(x);
    for (int it = 0; it < 64; it++) {
        double step = (erfc(ax) - t) / (two_over_sqrt_pi * exp(-ax * ax));
        ax += step;
        if (!(fabs(step) > 0x1p-54 * ax))
            break;
    }
    return copysign(ax, y);
}

/* ---- the row worker ----
 * UN_ROW(name, T, O, expr) defines name(ctx, ptr, stride, n) computing o = expr(x) for inputs
 * of type T; expr reads parameters through k (an un_params *). Contiguous rows get a loop the
 * compiler can vectorise, built for the baseline ISA and for AVX2+FMA; other rows and
 * reference mode take the plain strided loop. */
#define UN_LOOPS(FN, NAME, T, O, ATTR)                                                    \
    ATTR static void                                                                      \
    FN(const un_params *kp, char *const *p, const int64_t *s, int64_t n)                  \
    {                                                                                     \
        /* a local copy: stores through o cannot alias it, so it stays in registers */     \
        const un_params kl = *kp, *k = &kl;                                               \
        O *o = (O *)p[0];                                                                 \
        const T *in = (const T *)p[1];                                                    \
        if (s[0] == 1 && s[1] == 1) {                                                     \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i] = NAME##_op(in[i], k);                                               \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = NAME##_op(in[i * s[1]], k);                                 \
        }                                                                                 \
    }

#define UN_ROW(NAME, T, O, EXPR)                                                          \
    static inline O                                                                       \
    NAME##_op(T x, const un_params *k)                                                    \
    {                                                                                     \
        (void)k;                                                                          \
        (void)x;                                                                          \
        return (O)(EXPR);                                                                 \
    }                                                                                     \
    UN_LOOPS(NAME##__base, NAME, T, O, )                                                  \
    UN_LOOPS(NAME##__avx2, NAME, T, O, TN_TARGET_AVX2)                                    \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        const un_ctx *c = ctx;                                                            \
        const un_params kp = c->k;                                                        \
        if (tn_elementwise_reference()) {                                                 \
            O *o = (O *)p[0];                                                             \
            const T *in = (const T *)p[1];                                                \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = NAME##_op(in[i * s[1]], &kp);                               \
        } else if (c->avx2) {                                                             \
            NAME##__avx2(&kp, p, s, n);                                                   \
        } else {                                                                          \
            NAME##__base(&kp, p, s, n);                                                   \
        }                                                                                 \
    }

/* Note [Unary op list]
 * Floats compute in their own type with libm (f16/bf16 arrive widened to f32). Where upstream's
 * vector code fuses a multiply into an add (gcc contracts Vectorized<float> a*b+c), we use fma
 * too, so results agree to the bit where no transcendental function is involved. */
#define MF_f32(fn) fn##f
#define MF_f64(fn) fn
#define P_f32(k, j) ((k)->f[j])
#define P_f64(k, j) ((k)->d[j])
#define TRIGAMMA_f32(x) trigamma_f(x)
#define DIGAMMA_f32(x) digamma_f(x)
#define DIGAMMA_f64(x) digamma_d(x)
#define POLYGAMMA_f32(x, n) polygamma_f(x, n)
#define POLYGAMMA_f64(x, n) polygamma_d(x, n)
#define TRIGAMMA_f64(x) polygamma_d(x, 1)
#define E_f32(k) ((k)->ef)
#define E_f64(k) ((k)->ed)

#define FLOAT_UNARY_ROWS(SN, T, M)                                                              \
    UN_ROW(neg_##SN, T, T, -x)                                                                  \
    UN_ROW(abs_##SN, T, T, M(fabs)(x))                                                          \
    UN_ROW(exp_##SN, T, T, M(exp)(x))                                                           \
    UN_ROW(exp2_##SN, T, T, M(exp2)(x))                                                         \
    UN_ROW(expm1_##SN, T, T, M(expm1)(x))                                                       \
    UN_ROW(log_##SN, T, T, M(log)(x))                                                           \
    UN_ROW(log2_##SN, T, T, M(log2)(x))                                                         \
    UN_ROW(log10_##SN, T, T, M(log10)(x))                                                       \
    UN_ROW(log1p_##SN, T, T, M(log1p)(x))                                                       \
    UN_ROW(sqrt_##SN, T, T, M(sqrt)(x))                                                         \
    UN_ROW(rsqrt_##SN, T, T, (T)1 / M(sqrt)(x))                                                 \
    UN_ROW(sin_##SN, T, T, M(sin)(x))                                                           \
    UN_ROW(cos_##SN, T, T, M(cos)(x))                                                           \
    UN_ROW(tan_##SN, T, T, M(tan)(x))                                                           \
    UN_ROW(asin_##SN, T, T, M(asin)(x))                                                         \
    UN_ROW(acos_##SN, T, T, M(acos)(x))                                                         \
    UN_ROW(atan_##SN, T, T, M(atan)(x))                                                         \
    UN_ROW(sinh_##SN, T, T, M(sinh)(x))                                                         \
    UN_ROW(cosh_##SN, T, T, M(cosh)(x))                                                         \
    UN_ROW(tanh_##SN, T, T, M(tanh)(x))                                                         \
    UN_ROW(asinh_##SN, T, T, M(asinh)(x))                                                       \
    UN_ROW(acosh_##SN, T, T, M(acosh)(x))                                                       \
    UN_ROW(atanh_##SN, T, T, M(atanh)(x))                                                       \
    UN_ROW(sigmoid_##SN, T, T, (T)1 / ((T)1 + M(exp)(-x)))                                      \
    UN_ROW(silu_##SN, T, T, x / ((T)1 + M(exp)(-x)))                                            \
    UN_ROW(gelu_##SN, T, T, x * (T)0.5 * ((T)1 + M(erf)(x * (T)SQRT1_2)))                       \
    UN_ROW(gelu_tanh_##SN, T, T,                                                                \
           (T)0.5 * x *                                                                         \
               ((T)1 + M(tanh)((T)GELU_BETA * M(fma)((T)GELU_KAPPA, x * x * x, x))))            \
    UN_ROW(relu_##SN, T, T, x < 0 ? (T)0 : x)                                                   \
    UN_ROW(erf_##SN, T, T, M(erf)(x))                                                           \
    UN_ROW(erfc_##SN, T, T, M(erfc)(x))                                                         \
    UN_ROW(erfinv_##SN, T, T, erfinv_d(x))                                                      \
    UN_ROW(floor_##SN, T, T, M(floor)(x))                                                       \
    UN_ROW(ceil_##SN, T, T, M(ceil)(x))                                                         \
    UN_ROW(round_##SN, T, T, M(nearbyint)(x))                                                   \
    UN_ROW(round_dec_##SN, T, T,                                                                \
           k->neg_decimals ? M(nearbyint)(x / E_##SN(k)) * E_##SN(k)                            \
                           : M(nearbyint)(x * E_##SN(k)) / E_##SN(k))                           \
    UN_ROW(trunc_##SN, T, T, M(trunc)(x))                                                       \
    UN_ROW(frac_##SN, T, T, x - M(trunc)(x))                                                    \
    UN_ROW(sign_##SN, T, T, (T)((0 < x) - (x < 0)))                                             \
    UN_ROW(reciprocal_##SN, T, T, (T)1 / x)                                                     \
    UN_ROW(logical_not_##SN, T, uint8_t, x == 0)                                                \
    UN_ROW(isnan_##SN, T, uint8_t, x != x)                                                      \
    UN_ROW(isinf_##SN, T, uint8_t, M(fabs)(x) == (T)INFINITY)                                   \
    UN_ROW(isfinite_##SN, T, uint8_t, M(fabs)(x) < (T)INFINITY)                                 \
    UN_ROW(signbit_##SN, T, uint8_t, signbit(x) != 0)                                           \
    UN_ROW(isposinf_##SN, T, uint8_t, x == (T)INFINITY)                                         \
    UN_ROW(isneginf_##SN, T, uint8_t, x == -(T)INFINITY)                                        \
    UN_ROW(mish_##SN, T, T, x * M(tanh)(M(log1p)(M(exp)(x))))                                   \
    UN_ROW(hardswish_##SN, T, T, x * hardsigmoid_6_##SN(x) / (T)6)                              \
    UN_ROW(hardsigmoid_##SN, T, T, hardsigmoid_6_##SN(x) / (T)6)                                \
    UN_ROW(lgamma_##SN, T, T, M(lgamma)(x))                                                     \
    UN_ROW(digamma_##SN, T, T, DIGAMMA_##SN(x))                                                 \
    UN_ROW(polygamma_##SN, T, T,                                                                \
           P_##SN(k, 0) == 1 ? TRIGAMMA_##SN(x) : POLYGAMMA_##SN(x, (int)P_##SN(k, 0)))         \
    UN_ROW(softplus_##SN, T, T,                                                                 \
           x * P_##SN(k, 0) > P_##SN(k, 1) ? x                                                  \
                                           : M(log1p)(M(exp)(x * P_##SN(k, 0))) / P_##SN(k, 0)) \
    UN_ROW(elu_##SN, T, T,                                                                      \
           x < 0 ? M(expm1)(x * P_##SN(k, 2)) * E_##SN(k) : x * P_##SN(k, 1))                   \
    UN_ROW(leaky_relu_##SN, T, T, x > 0 ? x : x * P_##SN(k, 0))                                 \
    UN_ROW(hardtanh_##SN, T, T, clamp_##SN(x, P_##SN(k, 0), P_##SN(k, 1)))                      \
    UN_ROW(threshold_##SN, T, T, x <= P_##SN(k, 0) ? P_##SN(k, 1) : x)                          \
    UN_ROW(nan_to_num_##SN, T, T,                                                               \
           x != x ? P_##SN(k, 0)                                                                \
                  : x == (T)INFINITY ? P_##SN(k, 1) : x == -(T)INFINITY ? P_##SN(k, 2) : x)     \
    UN_ROW(logit_##SN, T, T, logit_##SN##_s(x, P_##SN(k, 0), k->half))                          \
    UN_ROW(hardshrink_##SN, T, T, (x >= -P_##SN(k, 0) && x <= P_##SN(k, 0)) ? (T)0 : x)         \
    UN_ROW(softshrink_##SN, T, T, softshrink_##SN##_s(x, P_##SN(k, 0)))                      \
    UN_ROW(i0_##SN, T, T, tn_special_i0_##SN(x))                                                \
    UN_ROW(i0e_##SN, T, T, tn_special_i0e_##SN(x))                                              \
    UN_ROW(i1_##SN, T, T, tn_special_i1_##SN(x))                                                \
    UN_ROW(i1e_##SN, T, T, tn_special_i1e_##SN(x))                                              \
    UN_ROW(bessel_i0_##SN, T, T, tn_special_bessel_i0_##SN(x))                                  \
    UN_ROW(bessel_i1_##SN, T, T, tn_special_bessel_i1_##SN(x))                                  \
    UN_ROW(bessel_k0_##SN, T, T, tn_special_bessel_k0_##SN(x))                                  \
    UN_ROW(bessel_k1_##SN, T, T, tn_special_bessel_k1_##SN(x))                                  \
    UN_ROW(bessel_k0e_##SN, T, T, tn_special_bessel_k0e_##SN(x))                                \
    UN_ROW(bessel_k1e_##SN, T, T, tn_special_bessel_k1e_##SN(x))                                \
    UN_ROW(bessel_j0_##SN, T, T, tn_special_bessel_j0_##SN(x))                                  \
    UN_ROW(bessel_j1_##SN, T, T, tn_special_bessel_j1_##SN(x))                                  \
    UN_ROW(bessel_y0_##SN, T, T, tn_special_bessel_y0_##SN(x))                                  \
    UN_ROW(bessel_y1_##SN, T, T, tn_special_bessel_y1_##SN(x))                                  \
    UN_ROW(spherical_j0_##SN, T, T, tn_special_spherical_j0_##SN(x))                            \
    UN_ROW(airy_ai_##SN, T, T, tn_special_airy_ai_##SN(x))                                      \
    UN_ROW(erfcx_##SN, T, T, tn_special_erfcx_##SN(x))                                          \
    UN_ROW(log_ndtr_##SN, T, T, tn_special_log_ndtr_##SN(x))                                    \
    UN_ROW(ndtri_##SN, T, T, tn_special_ndtri_##SN(x))                                    \
    UN_ROW(entr_##SN, T, T, entr_##SN##_s(x, k->half))

static inline float
logit_half_s(float x, float eps, int h)
{
    if (eps >= 0) {
        float hi = round_half(1.0f - eps, h);
        x = x < eps ? eps : (x > hi ? hi : x);
    }
    return x == 1.0f ? INFINITY : logf(round_half(x / round_half(1.0f - x, h), h));
}

/* Helpers the lists use, per floating type. std::min/std::max argument order: NaN survives. */
#define FLOAT_UNARY_HELPERS(SN, T, M)                                                     \
    static inline T                                                                       \
    clamp_##SN(T x, T lo, T hi)                                                           \
    {                                                                                     \
        T v = x < lo ? lo : x;                                                            \
        return hi < v ? hi : v;                                                           \
    }                                                                                     \
    static inline T                                                                       \
    hardsigmoid_6_##SN(T x)                                                               \
    {                                                                                     \
        return clamp_##SN(x + (T)3, (T)0, (T)6);                                          \
    }                                                                                     \
    static inline T                                                                       \
    logit_##SN##_s(T x, T eps, int half)                                                  \
    {                                                                                     \
        if (half) /* upstream runs f16/bf16 logit in Half arithmetic */                   \
            return (T)logit_half_s((float)x, (float)eps, half);                           \
        if (eps >= 0)                                                                     \
            x = x < eps ? eps : (x > (T)1 - eps ? (T)1 - eps : x);                        \
        return x == (T)1 ? (T)INFINITY : M(log)(x / ((T)1 - x));                          \
    }                                                                                     \
    static inline T                                                                       \
    entr_##SN##_s(T x, int half)                                                          \
    {                                                                                     \
        if (x != x)                                                                       \
            return x;                                                                     \
        if (x == 0)                                                                       \
            return (T)0;                                                                  \
        if (x < 0)                                                                        \
            return -(T)INFINITY;                                                          \
        T lg = M(log)(x);                                                                 \
        return -x * (half ? (T)round_half((float)lg, half) : lg);                         \
    }                                                                                     \
    static inline T                                                                       \
    softshrink_##SN##_s(T x, T l)                                                         \
    {                                                                                     \
        if (x != x)                                                                       \
            return x;                                                                     \
        return x > l ? x - l : (x < -l ? x + l : (T)0);                                   \
    }

FLOAT_UNARY_HELPERS(f32, float, MF_f32)
FLOAT_UNARY_HELPERS(f64, double, MF_f64)
FLOAT_UNARY_ROWS(f32, float, MF_f32)
FLOAT_UNARY_ROWS(f64, double, MF_f64)

/* Integers: exact ops only; W is the unsigned type negation wraps in. */
#define NEG_S(x) ((x) < 0)
#define NEG_U(x) 0

#define INT_UNARY_ROWS(SN, T, W, NEG)                                                     \
    UN_ROW(neg_##SN, T, T, (W)0 - (W)x)                                                   \
    UN_ROW(abs_##SN, T, T, NEG(x) ? (W)0 - (W)x : (W)x)                                   \
    UN_ROW(ident_##SN, T, T, x)                                                           \
    UN_ROW(sign_##SN, T, T, (x > 0) - NEG(x))                                             \
    UN_ROW(relu_##SN, T, T, NEG(x) ? 0 : x)                                               \
    UN_ROW(bitnot_##SN, T, T, ~x)                                                         \
    UN_ROW(logical_not_##SN, T, uint8_t, x == 0)                                          \
    UN_ROW(never_##SN, T, uint8_t, 0)                                                     \
    UN_ROW(always_##SN, T, uint8_t, 1)                                                    \
    UN_ROW(signbit_##SN, T, uint8_t, NEG(x))                                              \
    UN_ROW(hardtanh_##SN, T, T,                                                           \
           k->i[1] < (x < k->i[0] ? k->i[0] : x) ? k->i[1] : (x < k->i[0] ? k->i[0] : x)) \
    UN_ROW(threshold_##SN, T, T, x <= k->i[0] ? k->i[1] : x)

INT_UNARY_ROWS(u8, uint8_t, uint32_t, NEG_U)
INT_UNARY_ROWS(i8, int8_t, uint32_t, NEG_S)
INT_UNARY_ROWS(i16, int16_t, uint32_t, NEG_S)
INT_UNARY_ROWS(i32, int32_t, uint32_t, NEG_S)
INT_UNARY_ROWS(i64, int64_t, uint64_t, NEG_S)

/* bool: bytes read as (x != 0). */
UN_ROW(ident_b8, uint8_t, uint8_t, x != 0)
UN_ROW(logical_not_b8, uint8_t, uint8_t, x == 0)
UN_ROW(never_b8, uint8_t, uint8_t, 0)
UN_ROW(always_b8, uint8_t, uint8_t, 1)
#define bitnot_b8 logical_not_b8
#define sign_b8 ident_b8
#define signbit_b8 never_b8

/* ---- AVX2 vector math for f32 exp, tanh, erf, gelu ----
 * Note [f32 vector math]
 * exp: tn_f32_vexp__avx2 (vmath.h).
 * tanh: for |x| < 0.625 the odd polynomial of Cephes tanhf, else 1 - 2/(e^{2|x|} + 1) with the
 * sign restored. All within a few ulp of glibc; the scalar rows (expf, tanhf) stay the reference.
 * (sigmoid, silu and the other activations upstream writes with Vectorized<float>: Note [SLEEF
 * bodies] below.) */
#if TN_X86
TN_TARGET_AVX2 static inline __m256
v_tanh(__m256 x)
{
    const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
    __m256 ax = _mm256_andnot_ps(sign, x);
    __m256 z = _mm256_mul_ps(x, x);
    __m256 p = _mm256_set1_ps(-5.70498872745e-3f);
    p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(2.06390887954e-2f));
    p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-5.37397155531e-2f));
    p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(1.33314422036e-1f));
    p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-3.33332819422e-1f));
    /* odd polynomial on |x| with the sign put back, so tanh(-0) = -0 */
    __m256 small = _mm256_fmadd_ps(_mm256_mul_ps(p, z), ax, ax);
    small = _mm256_or_ps(small, _mm256_and_ps(sign, x));
    __m256 e = tn_f32_vexp__avx2(_mm256_add_ps(ax, ax));
    __m256 big = _mm256_sub_ps(one, _mm256_div_ps(_mm256_set1_ps(2.0f), _mm256_add_ps(e, one)));
    big = _mm256_or_ps(big, _mm256_and_ps(sign, x));
    return _mm256_blendv_ps(big, small, _mm256_cmp_ps(ax, _mm256_set1_ps(0.625f), _CMP_LT_OQ));
}

/* erf: |x| < 1: x P(x^2), P a degree-7 least-squares fit of erf(x)/x on [0, 1] (relative
 * weights); 1 <= |x|: 1 - e^{-x^2} Q(|x| - 2.5), Q a degree-12 fit of erfc(x) e^{x^2} on [1, 4]
 * (|x| clamped to 4, where erf rounds to 1), with x^2 = hi + lo split by fma so e^{-x^2} keeps
 * its precision. About 2 ulp from glibc's erff. */
TN_TARGET_AVX2 static inline __m256
v_erf(__m256 x)
{
    static const float pa[8] = {1.128379226e+00f, -3.761263788e-01f, 1.128378361e-01f,
                                -2.686547488e-02f, 5.221138708e-03f, -8.485438884e-04f,
                                1.127473806e-04f, -9.689741091e-06f};
    static const float qb[13] = {2.108063698e-01f, -7.434733957e-02f, 2.493800782e-02f,
                                 -8.001679555e-03f, 2.466997597e-03f, -7.331884699e-04f,
                                 2.110511414e-04f, -5.948642502e-05f, 1.599714597e-05f,
                                 -3.763825816e-06f, 1.023505661e-06f, -4.237685971e-07f,
                                 9.592292827e-08f};
    const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
    __m256 ax = _mm256_andnot_ps(sign, x);
    __m256 u = _mm256_mul_ps(x, x);
    __m256 p = _mm256_set1_ps(pa[7]);
    for (int k = 6; k >= 0; k--)
        p = _mm256_fmadd_ps(p, u, _mm256_set1_ps(pa[k]));
    __m256 small = _mm256_mul_ps(p, x);

    __m256 ac = _mm256_min_ps(ax, _mm256_set1_ps(4.0f));
    __m256 t = _mm256_sub_ps(ac, _mm256_set1_ps(2.5f));
    __m256 q = _mm256_set1_ps(qb[12]);
    for (int k = 11; k >= 0; k--)
        q = _mm256_fmadd_ps(q, t, _mm256_set1_ps(qb[k]));
    __m256 hi = _mm256_mul_ps(ac, ac);
    __m256 lo = _mm256_fmsub_ps(ac, ac, hi);
    __m256 e = _mm256_mul_ps(tn_f32_vexp__avx2(_mm256_sub_ps(_mm256_setzero_ps(), hi)), _mm256_sub_ps(one, lo));
    __m256 big = _mm256_fnmadd_ps(e, q, one);
    big = _mm256_or_ps(big, _mm256_and_ps(sign, x));

    __m256 r = _mm256_blendv_ps(big, small, _mm256_cmp_ps(ax, one, _CMP_LT_OQ));
    return _mm256_blendv_ps(r, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

/* gelu as upstream writes it: x * 0.5 * (1 + erf(x / sqrt(2))) */
TN_TARGET_AVX2 static inline __m256
v_gelu(__m256 x)
{
    __m256 e = v_erf(_mm256_mul_ps(x, _mm256_set1_ps((float)SQRT1_2)));
    __m256 h = _mm256_mul_ps(x, _mm256_set1_ps(0.5f));
    return _mm256_mul_ps(h, _mm256_add_ps(_mm256_set1_ps(1.0f), e));
}

/* The tail goes through a zero-padded vector so every element sees the same approximation. */
#define AVX2_UNARY_F32(NAME, VF)                                                          \
    TN_TARGET_AVX2 static void                                                            \
    NAME(float *o, const float *x, int64_t n)                                             \
    {                                                                                     \
        int64_t i = 0;                                                                    \
        for (; i + 16 <= n; i += 16) {                                                    \
            __m256 a = _mm256_loadu_ps(x + i), b = _mm256_loadu_ps(x + i + 8);            \
            _mm256_storeu_ps(o + i, VF(a));                                               \
            _mm256_storeu_ps(o + i + 8, VF(b));                                           \
        }                                                                                 \
        for (; i + 8 <= n; i += 8)                                                        \
            _mm256_storeu_ps(o + i, VF(_mm256_loadu_ps(x + i)));                          \
        if (i < n) {                                                                      \
            float buf[8] = {0};                                                           \
            memcpy(buf, x + i, (size_t)(n - i) * sizeof(float));                          \
            _mm256_storeu_ps(buf, VF(_mm256_loadu_ps(buf)));                              \
            memcpy(o + i, buf, (size_t)(n - i) * sizeof(float));                          \
        }                                                                                 \
    }

AVX2_UNARY_F32(f32_vexp__avx2_u8, tn_f32_vexp__avx2)
AVX2_UNARY_F32(f32_vtanh__avx2_u8, v_tanh)
AVX2_UNARY_F32(f32_verf__avx2_u8, v_erf)
AVX2_UNARY_F32(f32_vgelu__avx2_u8, v_gelu)

/* Row wrappers for contiguous rows. CHUNK 0: the vector math covers the whole row (upstream's
 * exp, tanh, erf and gelu are vectorised to the last element). */
#define AVX2_UNARY_ROW(OP, CHUNK)                                                         \
    static void                                                                           \
    OP##_f32_avx2row(void *ctx, char *const *p, const int64_t *s, int64_t n)              \
    {                                                                                     \
        if (s[0] == 1 && s[1] == 1) {                                                     \
            int64_t body = CHUNK ? n - n % (CHUNK ? CHUNK : 1) : n;                       \
            f32_v##OP##__avx2_u8((float *)p[0], (const float *)p[1], body);               \
            if (body < n) {                                                               \
                char *tail[2] = {p[0] + body * 4, p[1] + body * 4};                       \
                OP##_f32(ctx, tail, s, n - body);                                         \
            }                                                                             \
        } else {                                                                          \
            OP##_f32(ctx, p, s, n);                                                       \
        }                                                                                 \
    }

AVX2_UNARY_ROW(exp, 0)
AVX2_UNARY_ROW(tanh, 0)
AVX2_UNARY_ROW(erf, 0)
AVX2_UNARY_ROW(gelu, 0)

/* Note [SLEEF bodies]
 * Where upstream's kernel is written with Vectorized<float/double> methods, its vector body
 * computes them with SLEEF (exp(): Sleef_expf8_u10 / Sleef_expd4_u10, log1p(), tanh(), sinh(),
 * cosh(), expm1(), ... likewise) and its scalar tail (Note [Vector body and tail] in binary.c)
 * with glibc. These rows do the same: the body through libsleef's functions, written in
 * upstream's order of operations (Activation.cpp, Elu.h, Gelu.h, UnaryOpsKernel.cpp), the tail
 * through the op's scalar row. Three kinds:
 *   - a vector body of whole 2 * Vec::size() chunks (16 f32 or 8 f64 on AVX2, twice that on
 *     AVX-512, where upstream calls SLEEF's 16-lane functions: lane for lane the same algorithm)
 *     and a scalar tail: sigmoid, silu, mish, softplus, sinh, cosh, gelu(tanh), elu, atanh, exp2;
 *   - every element vector, whatever the layout (vml::v<op> without MKL: a strided row goes
 *     through a buffer): expm1, log1p, lgamma;
 *   - f16/bf16 (below): upstream converts to float vectors; vml's ops run every element through
 *     them (exp, log, sin, erf, ...), the others split body and tail as above in 32-element chunks.
 * Two operands (binary.c, SLEEF_BIN_ROWS): atan2, hypot, pow, logaddexp, logaddexp2, body and tail;
 * pow with a general scalar exponent likewise (pow_general_f32/f64).
 * Upstream's compiler contracts a * b + c into one fma where its source writes them apart (GCC's
 * default -ffp-contract=fast; ours compiles with it off): gelu(tanh)'s x + kappa * x^3 is one fma
 * in upstream's vector body and scalar loop alike, so both are written with fma here.
 * The f32 ops upstream computes with MKL's VML (exp, log, sin, cos, tan, asin, acos, atan, tanh,
 * erf, erfc, log2, log10, sqrt; logit on a contiguous tensor) are not SLEEF's and stay ours (1 ulp
 * apart in a few percent of elements: upstream's sqrt is not correctly rounded there). Debian's
 * SLEEF 3.5 gives upstream's bits: tests/python/test_ulp_survey.py lists the ops held to them.
 * log_sigmoid_forward runs every element through SLEEF (tn_log_sigmoid_forward, below). Not yet:
 * gelu (oneDNN's for contiguous f32 inputs). */
/* An op that is one SLEEF function (u10) */
#define SLEEF_PLAIN(OP, SN)                                                               \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_##OP##_##SN(VT_##SN x, const un_params *k)                                         \
    {                                                                                     \
        return SL_##SN(OP, u10)(x);                                                       \
    }

/* The vector formulas, per lane type (V: its intrinsics, SL: its SLEEF functions) */
#define SLEEF_FORMULAS(SN, T)                                                             \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_neg_##SN(VT_##SN x)                                                                \
    {                                                                                     \
        return V_##SN(xor)(x, V_##SN(set1)((T)-0.0));                                     \
    }                                                                                     \
    /* sigmoid: a = 0 - a; exp; + 1; reciprocal */                                        \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_sigmoid_##SN(VT_##SN x, const un_params *k)                                        \
    {                                                                                     \
        VT_##SN one = V_##SN(set1)((T)1);                                                 \
        VT_##SN e = SL_##SN(exp, u10)(V_##SN(sub)(V_##SN(setzero)(), x));                 \
        return V_##SN(div)(one, V_##SN(add)(e, one));                                     \
    }                                                                                     \
    /* silu: x / (1 + exp(-x)) */                                                         \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_silu_##SN(VT_##SN x, const un_params *k)                                           \
    {                                                                                     \
        return V_##SN(div)(x, V_##SN(add)(V_##SN(set1)((T)1), SL_##SN(exp, u10)(sl_neg_##SN(x)))); \
    }                                                                                     \
    /* mish: x * tanh(log1p(exp(x))) */                                                   \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_mish_##SN(VT_##SN x, const un_params *k)                                           \
    {                                                                                     \
        return V_##SN(mul)(x, SL_##SN(tanh, u10)(SL_##SN(log1p, u10)(SL_##SN(exp, u10)(x)))); \
    }                                                                                     \
    /* softplus: x * beta > threshold ? x : log1p(exp(x * beta)) / beta */                \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_softplus_##SN(VT_##SN x, const un_params *k)                                       \
    {                                                                                     \
        VT_##SN beta = V_##SN(set1)(P_##SN(k, 0));                                        \
        VT_##SN xb = V_##SN(mul)(x, beta);                                                \
        VT_##SN r = V_##SN(div)(SL_##SN(log1p, u10)(SL_##SN(exp, u10)(xb)), beta);        \
        return V_##SN(blendv)(r, x, V_##SN(cmp)(xb, V_##SN(set1)(P_##SN(k, 1)), _CMP_GT_OQ)); \
    }                                                                                     \
    /* gelu(approximate='tanh'): (0.5 x) (1 + tanh(beta fma(kappa, x^3, x))) */           \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_gelu_tanh_##SN(VT_##SN x, const un_params *k)                                      \
    {                                                                                     \
        VT_##SN cube = V_##SN(mul)(V_##SN(mul)(x, x), x);                                 \
        VT_##SN inner = V_##SN(mul)(V_##SN(set1)((T)GELU_BETA),                           \
                                    V_##SN(fmadd)(V_##SN(set1)((T)GELU_KAPPA), cube, x)); \
        VT_##SN t = V_##SN(add)(V_##SN(set1)((T)1), SL_##SN(tanh, u10)(inner));           \
        return V_##SN(mul)(V_##SN(mul)(V_##SN(set1)((T)0.5), x), t);                      \
    }                                                                                     \
    /* elu (Elu.h): x >= 0 ? x * scale : expm1(x * input_scale) * (alpha * scale) */      \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_elu_##SN(VT_##SN x, const un_params *k)                                            \
    {                                                                                     \
        VT_##SN neg = V_##SN(mul)(SL_##SN(expm1, u10)(V_##SN(mul)(x, V_##SN(set1)(P_##SN(k, 2)))), \
                                  V_##SN(set1)(E_##SN(k)));                               \
        VT_##SN pos = V_##SN(mul)(x, V_##SN(set1)(P_##SN(k, 1)));                         \
        return V_##SN(blendv)(neg, pos, V_##SN(cmp)(x, V_##SN(setzero)(), _CMP_GE_OQ));   \
    }                                                                                     \
    SLEEF_PLAIN(sinh, SN)                                                                 \
    SLEEF_PLAIN(cosh, SN)                                                                 \
    SLEEF_PLAIN(atanh, SN)                                                                \
    SLEEF_PLAIN(exp2, SN)

SLEEF_FORMULAS(f32, float)
SLEEF_FORMULAS(f64, double)

/* gelu in f64 (Gelu.h's vectorized_gelu; oneDNN, which serves contiguous f32, has no f64):
 * x * 0.5 * (1 + erf(x / sqrt(2))) with Vectorized<double>::erf, SLEEF's. Not yet upstream's
 * bits: 308 of 70,001 contiguous elements (negative x, 1 + erf cancelling) still differ, 587
 * before, none strided (`.venv/bin/python tools/ulp_survey.py -k F.gelu --dtype float64`):
 * Debian's SLEEF 3.5 erf is likely not the one upstream bundles. */
TN_TARGET_AVX2 static inline __m256d
sl_gelu_f64(__m256d x, const un_params *k)
{
    __m256d e = Sleef_erfd4_u10avx2(_mm256_mul_pd(x, _mm256_set1_pd(SQRT1_2)));
    return _mm256_mul_pd(_mm256_mul_pd(x, _mm256_set1_pd(0.5)), _mm256_add_pd(_mm256_set1_pd(1.0), e));
}

/* body through SLEEF (a contiguous output; the input contiguous or one broadcast value, stride
 * 0), tail through the scalar row */
#define SLEEF_ROW(OP, SN, T)                                                              \
    TN_TARGET_AVX2 static void                                                            \
    OP##_##SN##_sleef_body(T *o, const T *x, int64_t sx, int64_t n, const un_params *k)   \
    {                                                                                     \
        for (int64_t i = 0; i < n; i += LANES_##SN)                                       \
            V_##SN(storeu)(o + i, sl_##OP##_##SN(sx ? V_##SN(loadu)(x + i) : V_##SN(set1)(x[0]), k)); \
    }                                                                                     \
    static void                                                                           \
    OP##_##SN##_sleefrow(void *ctx, char *const *p, const int64_t *s, int64_t n)          \
    {                                                                                     \
        int64_t body = tn_vector_body(s, 1, n, 2 * LANES_##SN * (tn_cpu_has_avx512() ? 2 : 1)); \
        OP##_##SN##_sleef_body((T *)p[0], (const T *)p[1], s[1], body, &((const un_ctx *)ctx)->k); \
        if (body < n) {                                                                   \
            char *tail[2] = {p[0] + body * sizeof(T), p[1] + body * sizeof(T) * s[1]};    \
            OP##_##SN(ctx, tail, s, n - body);                                            \
        }                                                                                 \
    }

#define SLEEF_ROWS(SN, T)                                                                 \
    SLEEF_ROW(sigmoid, SN, T)                                                             \
    SLEEF_ROW(silu, SN, T)                                                                \
    SLEEF_ROW(mish, SN, T)                                                                \
    SLEEF_ROW(softplus, SN, T)                                                            \
    SLEEF_ROW(sinh, SN, T)                                                                \
    SLEEF_ROW(cosh, SN, T)                                                                \
    SLEEF_ROW(gelu_tanh, SN, T)                                                           \
    SLEEF_ROW(elu, SN, T)                                                                 \
    SLEEF_ROW(atanh, SN, T)                                                               \
    SLEEF_ROW(exp2, SN, T)

SLEEF_ROWS(f32, float)
SLEEF_ROWS(f64, double)
SLEEF_ROW(gelu, f64, double)

/* Every element through the vector function, whatever the strides (upstream's vml::v<op>: a
 * strided row is copied through a buffer, the last partial vector padded) */
#define SLEEF_ALL_ROW(NAME, SN, T, VF)                                                    \
    TN_TARGET_AVX2 static void                                                            \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1];                                                     \
        int64_t i = 0;                                                                    \
        if (s[0] == 1 && s[1] == 1)                                                       \
            for (; i + LANES_##SN <= n; i += LANES_##SN)                                  \
                V_##SN(storeu)(o + i, VF(V_##SN(loadu)(x + i)));                          \
        for (; i < n; i += LANES_##SN) {                                                  \
            T buf[LANES_##SN] = {0};                                                      \
            int64_t m = n - i < LANES_##SN ? n - i : LANES_##SN;                          \
            for (int64_t j = 0; j < m; j++)                                               \
                buf[j] = x[(i + j) * s[1]];                                               \
            V_##SN(storeu)(buf, VF(V_##SN(loadu)(buf)));                                  \
            for (int64_t j = 0; j < m; j++)                                               \
                o[(i + j) * s[0]] = buf[j];                                               \
        }                                                                                 \
    }

/* Vectorized<float>::erf: Abramowitz & Stegun 7.1.26 with fmas, e^{-x^2} from SLEEF's expf;
 * upstream's f16/bf16 erf (here only there: its f32 erf is MKL's) */
TN_TARGET_AVX2 static inline __m256
sl_erf_as(__m256 x)
{
    const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
    __m256 sgn = _mm256_and_ps(sign, x);
    __m256 ax = _mm256_xor_ps(sgn, x);
    __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(_mm256_set1_ps(0.3275911f), ax, one));
    __m256 r = _mm256_fmadd_ps(_mm256_set1_ps(1.061405429f), t, _mm256_set1_ps(-1.453152027f));
    r = _mm256_fmadd_ps(r, t, _mm256_set1_ps(1.421413741f));
    r = _mm256_fmadd_ps(r, t, _mm256_set1_ps(-0.284496736f));
    r = _mm256_fmadd_ps(r, t, _mm256_set1_ps(0.254829592f));
    __m256 e = Sleef_expf8_u10avx2(_mm256_xor_ps(sign, _mm256_mul_ps(x, x)));
    __m256 v = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_xor_ps(sign, e), t), r, one);
    return _mm256_xor_ps(sgn, v);
}

/* f32 and f64: the ops whose kernel is vml's without MKL (every element SLEEF's) */
SLEEF_ALL_ROW(expm1_f32_sleefall, f32, float, Sleef_expm1f8_u10avx2)
SLEEF_ALL_ROW(log1p_f32_sleefall, f32, float, Sleef_log1pf8_u10avx2)
SLEEF_ALL_ROW(lgamma_f32_sleefall, f32, float, Sleef_lgammaf8_u10avx2)
SLEEF_ALL_ROW(expm1_f64_sleefall, f64, double, Sleef_expm1d4_u10avx2)
SLEEF_ALL_ROW(log1p_f64_sleefall, f64, double, Sleef_log1pd4_u10avx2)
SLEEF_ALL_ROW(lgamma_f64_sleefall, f64, double, Sleef_lgammad4_u10avx2)
/* f16/bf16 (widened): vml's ops, every element through Vectorized<float>'s functions (the
 * reduced-float kernels convert to float vectors: sin and cos are SLEEF's u35 there, erf the
 * polynomial above) */
SLEEF_ALL_ROW(exp_h_sleefall, f32, float, Sleef_expf8_u10avx2)
SLEEF_ALL_ROW(log_h_sleefall, f32, float, Sleef_logf8_u10avx2)
SLEEF_ALL_ROW(log2_h_sleefall, f32, float, Sleef_log2f8_u10avx2)
SLEEF_ALL_ROW(log10_h_sleefall, f32, float, Sleef_log10f8_u10avx2)
SLEEF_ALL_ROW(sin_h_sleefall, f32, float, Sleef_sinf8_u35avx2)
SLEEF_ALL_ROW(cos_h_sleefall, f32, float, Sleef_cosf8_u35avx2)
SLEEF_ALL_ROW(tan_h_sleefall, f32, float, Sleef_tanf8_u10avx2)
SLEEF_ALL_ROW(asin_h_sleefall, f32, float, Sleef_asinf8_u10avx2)
SLEEF_ALL_ROW(acos_h_sleefall, f32, float, Sleef_acosf8_u10avx2)
SLEEF_ALL_ROW(atan_h_sleefall, f32, float, Sleef_atanf8_u10avx2)
SLEEF_ALL_ROW(tanh_h_sleefall, f32, float, Sleef_tanhf8_u10avx2)
SLEEF_ALL_ROW(erfc_h_sleefall, f32, float, Sleef_erfcf8_u15avx2)
SLEEF_ALL_ROW(erf_h_sleefall, f32, float, sl_erf_as)

/* log_sigmoid_forward's lanes (Activation.cpp's log_sigmoid_cpu_kernel): m = minimum(x, 0)
 * (NaN-propagating, as Vectorized's), b = exp(-|x|), out = m - log1p(b) */
#define SLEEF_LOGSIG(SN, T)                                                               \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl_logsig_##SN(VT_##SN x, VT_##SN *b)                                                 \
    {                                                                                     \
        VT_##SN zero = V_##SN(setzero)(), sign = V_##SN(set1)((T)-0.0);                   \
        VT_##SN m = V_##SN(or)(V_##SN(min)(x, zero), V_##SN(cmp)(x, zero, _CMP_UNORD_Q)); \
        *b = SL_##SN(exp, u10)(V_##SN(or)(x, sign));                                      \
        return V_##SN(sub)(m, SL_##SN(log1p, u10)(*b));                                   \
    }                                                                                     \
    /* every element through the lanes, the last partial vector padded with zeros (Vec::loadu \
     * of a count); the buffer stored before the output, as upstream's loop stores them */ \
    TN_TARGET_AVX2 static void                                                            \
    logsig_##SN##_sleef(T *o, T *buf, const T *x, int64_t n)                              \
    {                                                                                     \
        for (int64_t i = 0; i < n; i += LANES_##SN) {                                     \
            int64_t m = n - i < LANES_##SN ? n - i : LANES_##SN;                          \
            T xin[LANES_##SN] = {0}, ob[LANES_##SN], bb[LANES_##SN];                      \
            memcpy(xin, x + i, sizeof(T) * (size_t)m);                                    \
            VT_##SN b, r = sl_logsig_##SN(V_##SN(loadu)(xin), &b);                        \
            V_##SN(storeu)(bb, b);                                                        \
            V_##SN(storeu)(ob, r);                                                        \
            memcpy(buf + i, bb, sizeof(T) * (size_t)m);                                   \
            memcpy(o + i, ob, sizeof(T) * (size_t)m);                                     \
        }                                                                                 \
    }

SLEEF_LOGSIG(f32, float)
SLEEF_LOGSIG(f64, double)

/* f16/bf16: widened eight at a time through the f32 lanes, buffer and output each rounded once
 * (the reduced-float kernel computes in float and stores both converted) */
TN_TARGET_AVX2 static void
logsig_half_sleef(uint16_t *o, uint16_t *buf, const uint16_t *x, int64_t n, int bf16)
{
    for (int64_t i = 0; i < n; i += 8) {
        int64_t m = n - i < 8 ? n - i : 8;
        float xin[8] = {0}, ob[8], bb[8];
        for (int64_t j = 0; j < m; j++)
            xin[j] = bf16 ? tn_bf16_to_f32(x[i + j]) : tn_f16_to_f32(x[i + j]);
        __m256 b, r = sl_logsig_f32(_mm256_loadu_ps(xin), &b);
        _mm256_storeu_ps(bb, b);
        _mm256_storeu_ps(ob, r);
        for (int64_t j = 0; j < m; j++)
            buf[i + j] = bf16 ? tn_f32_to_bf16(bb[j]) : tn_f32_to_f16(bb[j]);
        for (int64_t j = 0; j < m; j++)
            o[i + j] = bf16 ? tn_f32_to_bf16(ob[j]) : tn_f32_to_f16(ob[j]);
    }
}
#endif

/* The f16/bf16 forms (Note [SLEEF bodies]): vml's ops run every element through the vector
 * function (widened rows lose the strides, which these do not need); the ops with a vector body
 * and a scalar tail split the row first, by the 16-bit operands' strides, into a body of whole
 * 2 * Vectorized<Half>::size() chunks (32 on AVX2, 64 on AVX-512) widened through the SLEEF row
 * and a tail widened through the scalar row. NULL: the op's f32 row serves as it is. */
static tn_row_fn
half_all_row(int op)
{
#if TN_X86
    if (tn_elementwise_reference() || !tn_cpu_has_avx2())
        return NULL;
    switch (op) {
    case TN_UN_EXP: return exp_h_sleefall;
    case TN_UN_EXPM1: return expm1_f32_sleefall;
    case TN_UN_LOG: return log_h_sleefall;
    case TN_UN_LOG2: return log2_h_sleefall;
    case TN_UN_LOG10: return log10_h_sleefall;
    case TN_UN_LOG1P: return log1p_f32_sleefall;
    case TN_UN_SIN: return sin_h_sleefall;
    case TN_UN_COS: return cos_h_sleefall;
    case TN_UN_TAN: return tan_h_sleefall;
    case TN_UN_ASIN: return asin_h_sleefall;
    case TN_UN_ACOS: return acos_h_sleefall;
    case TN_UN_ATAN: return atan_h_sleefall;
    case TN_UN_TANH: return tanh_h_sleefall;
    case TN_UN_ERF: return erf_h_sleefall;
    case TN_UN_ERFC: return erfc_h_sleefall;
    case TN_UN_LGAMMA: return lgamma_f32_sleefall;
    default: return NULL;
    }
#else
    return NULL;
#endif
}

/* The ops with a SLEEF body and a scalar tail (SLEEF_ROWS) */
static int
half_split_op(int op)
{
#if TN_X86
    if (tn_elementwise_reference() || !tn_cpu_has_avx2())
        return 0;
    switch (op) {
    case TN_UN_SIGMOID: case TN_UN_SILU: case TN_UN_MISH: case TN_UN_SOFTPLUS: case TN_UN_SINH:
    case TN_UN_COSH: case TN_UN_GELU_TANH: case TN_UN_ELU: case TN_UN_ATANH: case TN_UN_EXP2:
        return 1;
    default:
        return 0;
    }
#else
    return 0;
#endif
}

/* f16/bf16 rsqrt keeps upstream's two halves (Note [Vector body and tail] in binary.c): the
 * vector body rounds 1/sqrt(x) once, the scalar tail rounds sqrt(x) first. */
static void
rsqrt_half(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    int h = ((const un_ctx *)ctx)->k.half;
    uint16_t *o = (uint16_t *)p[0];
    const uint16_t *in = (const uint16_t *)p[1];
    int64_t body = s[0] == 1 && (s[1] == 1 || s[1] == 0) ? n - n % 32 : 0;
    for (int64_t i = 0; i < n; i++) {
        uint16_t u = in[i * s[1]];
        float x = h == 2 ? tn_bf16_to_f32(u) : tn_f16_to_f32(u);
        float r = i < body ? 1.0f / sqrtf(x) : 1.0f / round_half(sqrtf(x), h);
        o[i * s[0]] = h == 2 ? tn_f32_to_bf16(r) : tn_f32_to_f16(r);
    }
}

/* ---- the table ---- */

#define ROW_FLOAT(OP) [TN_SLOT_F32] = OP##_f32, [TN_SLOT_F64] = OP##_f64
#define ROW_INT(OP)                                                                       \
    [TN_SLOT_U8] = OP##_u8, [TN_SLOT_I8] = OP##_i8, [TN_SLOT_I16] = OP##_i16,             \
    [TN_SLOT_I32] = OP##_i32, [TN_SLOT_I64] = OP##_i64
/* an op integers and bool compute as another row (floor on int64 copies, isnan is false...) */
#define ROW_INT_AS(OP, IOP) ROW_FLOAT(OP), ROW_INT(IOP), [TN_SLOT_BOOL] = IOP##_b8
#define ROW_INT_AS_NO_BOOL(OP, IOP) ROW_FLOAT(OP), ROW_INT(IOP)

static const tn_row_fn unary_table[TN_NUM_UNARY][TN_NUM_SLOTS] = {
    [TN_UN_NEG] = {ROW_FLOAT(neg), ROW_INT(neg)},
    [TN_UN_ABS] = {ROW_FLOAT(abs), ROW_INT(abs)},
    [TN_UN_EXP] = {ROW_FLOAT(exp)},
    [TN_UN_EXP2] = {ROW_FLOAT(exp2)},
    [TN_UN_EXPM1] = {ROW_FLOAT(expm1)},
    [TN_UN_LOG] = {ROW_FLOAT(log)},
    [TN_UN_LOG2] = {ROW_FLOAT(log2)},
    [TN_UN_LOG10] = {ROW_FLOAT(log10)},
    [TN_UN_LOG1P] = {ROW_FLOAT(log1p)},
    [TN_UN_SQRT] = {ROW_FLOAT(sqrt)},
    [TN_UN_RSQRT] = {ROW_FLOAT(rsqrt)},
    [TN_UN_SIN] = {ROW_FLOAT(sin)},
    [TN_UN_COS] = {ROW_FLOAT(cos)},
    [TN_UN_TAN] = {ROW_FLOAT(tan)},
    [TN_UN_ASIN] = {ROW_FLOAT(asin)},
    [TN_UN_ACOS] = {ROW_FLOAT(acos)},
    [TN_UN_ATAN] = {ROW_FLOAT(atan)},
    [TN_UN_SINH] = {ROW_FLOAT(sinh)},
    [TN_UN_COSH] = {ROW_FLOAT(cosh)},
    [TN_UN_TANH] = {ROW_FLOAT(tanh)},
    [TN_UN_ASINH] = {ROW_FLOAT(asinh)},
    [TN_UN_ACOSH] = {ROW_FLOAT(acosh)},
    [TN_UN_ATANH] = {ROW_FLOAT(atanh)},
    [TN_UN_SIGMOID] = {ROW_FLOAT(sigmoid)},
    [TN_UN_SILU] = {ROW_FLOAT(silu)},
    [TN_UN_GELU] = {ROW_FLOAT(gelu)},
    [TN_UN_GELU_TANH] = {ROW_FLOAT(gelu_tanh)},
    [TN_UN_RELU] = {ROW_FLOAT(relu), ROW_INT(relu)},
    [TN_UN_ERF] = {ROW_FLOAT(erf)},
    [TN_UN_ERFC] = {ROW_FLOAT(erfc)},
    [TN_UN_ERFINV] = {ROW_FLOAT(erfinv)},
    [TN_UN_FLOOR] = {ROW_INT_AS_NO_BOOL(floor, ident)},
    [TN_UN_CEIL] = {ROW_INT_AS_NO_BOOL(ceil, ident)},
    [TN_UN_ROUND] = {ROW_INT_AS_NO_BOOL(round, ident)},
    [TN_UN_TRUNC] = {ROW_INT_AS_NO_BOOL(trunc, ident)},
    [TN_UN_FRAC] = {ROW_FLOAT(frac)},
    [TN_UN_SIGN] = {ROW_INT_AS(sign, sign)},
    [TN_UN_RECIPROCAL] = {ROW_FLOAT(reciprocal)},
    [TN_UN_BITNOT] = {ROW_INT(bitnot), [TN_SLOT_BOOL] = bitnot_b8},
    [TN_UN_LOGICAL_NOT] = {ROW_INT_AS(logical_not, logical_not)},
    [TN_UN_ISNAN] = {ROW_INT_AS(isnan, never)},
    [TN_UN_ISINF] = {ROW_INT_AS(isinf, never)},
    [TN_UN_ISFINITE] = {ROW_INT_AS(isfinite, always)},
    [TN_UN_SIGNBIT] = {ROW_INT_AS(signbit, signbit)},
    [TN_UN_MISH] = {ROW_FLOAT(mish)},
    [TN_UN_HARDSWISH] = {ROW_FLOAT(hardswish)},
    [TN_UN_HARDSIGMOID] = {ROW_FLOAT(hardsigmoid)},
    [TN_UN_LGAMMA] = {ROW_FLOAT(lgamma)},
    [TN_UN_DIGAMMA] = {ROW_FLOAT(digamma)},
    [TN_UN_POLYGAMMA] = {ROW_FLOAT(polygamma)},
    [TN_UN_SOFTPLUS] = {ROW_FLOAT(softplus)},
    [TN_UN_ELU] = {ROW_FLOAT(elu)},
    [TN_UN_LEAKY_RELU] = {ROW_FLOAT(leaky_relu)},
    [TN_UN_HARDTANH] = {ROW_FLOAT(hardtanh), ROW_INT(hardtanh)},
    [TN_UN_THRESHOLD] = {ROW_FLOAT(threshold), ROW_INT(threshold)},
    [TN_UN_ISPOSINF] = {ROW_INT_AS(isposinf, never)},
    [TN_UN_ISNEGINF] = {ROW_INT_AS(isneginf, never)},
    [TN_UN_NAN_TO_NUM] = {ROW_INT_AS(nan_to_num, ident)},
    [TN_UN_LOGIT] = {ROW_FLOAT(logit)},
    [TN_UN_HARDSHRINK] = {ROW_FLOAT(hardshrink)},
    [TN_UN_SOFTSHRINK] = {ROW_FLOAT(softshrink)},
    [TN_UN_I0] = {ROW_FLOAT(i0)},
    [TN_UN_I0E] = {ROW_FLOAT(i0e)},
    [TN_UN_I1] = {ROW_FLOAT(i1)},
    [TN_UN_I1E] = {ROW_FLOAT(i1e)},
    [TN_UN_BESSEL_I0] = {ROW_FLOAT(bessel_i0)},
    [TN_UN_BESSEL_I1] = {ROW_FLOAT(bessel_i1)},
    [TN_UN_BESSEL_K0] = {ROW_FLOAT(bessel_k0)},
    [TN_UN_BESSEL_K1] = {ROW_FLOAT(bessel_k1)},
    [TN_UN_BESSEL_K0E] = {ROW_FLOAT(bessel_k0e)},
    [TN_UN_BESSEL_K1E] = {ROW_FLOAT(bessel_k1e)},
    [TN_UN_BESSEL_J0] = {ROW_FLOAT(bessel_j0)},
    [TN_UN_BESSEL_J1] = {ROW_FLOAT(bessel_j1)},
    [TN_UN_BESSEL_Y0] = {ROW_FLOAT(bessel_y0)},
    [TN_UN_BESSEL_Y1] = {ROW_FLOAT(bessel_y1)},
    [TN_UN_SPHERICAL_J0] = {ROW_FLOAT(spherical_j0)},
    [TN_UN_AIRY_AI] = {ROW_FLOAT(airy_ai)},
    [TN_UN_ERFCX] = {ROW_FLOAT(erfcx)},
    [TN_UN_LOG_NDTR] = {ROW_FLOAT(log_ndtr)},
    [TN_UN_NDTRI] = {ROW_FLOAT(ndtri)},
    [TN_UN_ENTR] = {ROW_FLOAT(entr)},
};

static int
unary_out_is_bool(int op)
{
    switch (op) {
    case TN_UN_LOGICAL_NOT: case TN_UN_ISNAN: case TN_UN_ISINF: case TN_UN_ISFINITE:
    case TN_UN_SIGNBIT: case TN_UN_ISPOSINF: case TN_UN_ISNEGINF:
        return 1;
    default:
        return 0;
    }
}

/* The ops whose rows take SLEEF's vector math (Note [SLEEF bodies]) */
#define SLEEF_CASES(SN)                                                                   \
    case TN_UN_SIGMOID: return sigmoid_##SN##_sleefrow;                                   \
    case TN_UN_SILU: return silu_##SN##_sleefrow;                                         \
    case TN_UN_MISH: return mish_##SN##_sleefrow;                                         \
    case TN_UN_SOFTPLUS: return softplus_##SN##_sleefrow;                                 \
    case TN_UN_SINH: return sinh_##SN##_sleefrow;                                         \
    case TN_UN_COSH: return cosh_##SN##_sleefrow;                                         \
    case TN_UN_GELU_TANH: return gelu_tanh_##SN##_sleefrow;                               \
    case TN_UN_ELU: return elu_##SN##_sleefrow;                                           \
    case TN_UN_ATANH: return atanh_##SN##_sleefrow;                                       \
    case TN_UN_EXP2: return exp2_##SN##_sleefrow;                                         \
    case TN_UN_EXPM1: return expm1_##SN##_sleefall;                                       \
    case TN_UN_LOG1P: return log1p_##SN##_sleefall;                                       \
    case TN_UN_LGAMMA: return lgamma_##SN##_sleefall;

/* The f64 row for op: SLEEF's where upstream's is (Note [SLEEF bodies]) */
static tn_row_fn
f64_row(int op)
{
#if TN_X86
    if (!tn_elementwise_reference() && tn_cpu_has_avx2()) {
        switch (op) {
        SLEEF_CASES(f64)
        case TN_UN_GELU: return gelu_f64_sleefrow;
        default: break;
        }
    }
#endif
    return unary_table[op][TN_SLOT_F64];
}

/* The f32 row for op: the vector-math wrapper when AVX2 is there and tests are not asking for
 * the reference loops. */
static tn_row_fn
f32_row(int op)
{
#if TN_X86
    if (!tn_elementwise_reference() && tn_cpu_has_avx2()) {
        switch (op) {
        case TN_UN_EXP: return exp_f32_avx2row;
        case TN_UN_TANH: return tanh_f32_avx2row;
        SLEEF_CASES(f32)
        case TN_UN_ERF: return erf_f32_avx2row;
        case TN_UN_GELU: return gelu_f32_avx2row;
        default: break;
        }
    }
#endif
    return unary_table[op][TN_SLOT_F32];
}

/* How many of p[0..2] an op reads (unary.h lists them); only those are touched. */
int
tn_unary_param_count(int op)
{
    switch (op) {
    case TN_UN_ROUND: case TN_UN_LEAKY_RELU: case TN_UN_LOGIT: case TN_UN_HARDSHRINK:
    case TN_UN_SOFTSHRINK: case TN_UN_POLYGAMMA:
        return 1;
    case TN_UN_SOFTPLUS: case TN_UN_HARDTANH: case TN_UN_THRESHOLD:
        return 2;
    case TN_UN_ELU: case TN_UN_NAN_TO_NUM:
        return 3;
    default:
        return 0;
    }
}

/* A parameter as upstream's Scalar.to<T>() gives it for the dtype (the value a comparison
 * sees); for f16/bf16 that is the rounded value. */
static double
param_in_dtype(int dtype, tn_kscalar s, int64_t *iv)
{
    unsigned char buf[8] = {0};
    double v = tn_kscalar_double(s);
    tn_scalar_to_dtype(dtype, s, buf);
    uint16_t h;
    memcpy(&h, buf, 2);
    switch (dtype) {
    case TN_DTYPE_U8: *iv = buf[0]; return *iv;
    case TN_DTYPE_I8: { int8_t t; memcpy(&t, buf, 1); *iv = t; return *iv; }
    case TN_DTYPE_I16: { int16_t t; memcpy(&t, buf, 2); *iv = t; return *iv; }
    case TN_DTYPE_I32: { int32_t t; memcpy(&t, buf, 4); *iv = t; return *iv; }
    case TN_DTYPE_I64: { int64_t t; memcpy(&t, buf, 8); *iv = t; return (double)*iv; }
    case TN_DTYPE_F16: return tn_f16_to_f32(h);
    case TN_DTYPE_BF16: return tn_bf16_to_f32(h);
    default: return v;
    }
}

/* softshrink's two halves (Note [Vector body and tail] in binary.c; AVX2 chunks, upstream's
 * softshrink kernel has no AVX-512 build): inside [-l, l] the vector body answers +0 (its
 * masks select nothing), the scalar loop x * 0, a zero of x's sign. The row computes the
 * body's answer; this wrapper rewrites the tail's zeros. */
typedef struct {
    tn_row_fn fn;
    void *fctx;
    int dtype;
    double l;
} shrink_tail;

static void
softshrink_tail_row(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    const shrink_tail *t = ctx;
    t->fn(t->fctx, p, s, n);
    int64_t chunk = t->dtype == TN_DTYPE_F64 ? 8 : t->dtype == TN_DTYPE_F32 ? 16 : 32;
    int64_t body = tn_vector_body(s, 1, n, chunk);
    for (int64_t i = body; i < n; i++) {
        double x;
        switch (t->dtype) {
        case TN_DTYPE_F64: x = ((const double *)p[1])[i * s[1]]; break;
        case TN_DTYPE_F32: x = ((const float *)p[1])[i * s[1]]; break;
        case TN_DTYPE_F16: x = tn_f16_to_f32(((const uint16_t *)p[1])[i * s[1]]); break;
        default: x = tn_bf16_to_f32(((const uint16_t *)p[1])[i * s[1]]); break;
        }
        if (x != x || x > t->l || x < -t->l || !signbit(x))
            continue;
        switch (t->dtype) {
        case TN_DTYPE_F64: ((double *)p[0])[i * s[0]] = -0.0; break;
        case TN_DTYPE_F32: ((float *)p[0])[i * s[0]] = -0.0f; break;
        default: ((uint16_t *)p[0])[i * s[0]] = 0x8000; break;
        }
    }
}

/* Complex neg in upstream's two halves (Note [Vector body and tail] in binary.c; AVX2 chunks of
 * 8 complex64 or 4 complex128, the input contiguous or broadcast): the vector body subtracts
 * from zero part by part (Vectorized<c10::complex<T>>::neg), so a NaN part keeps its sign and
 * either zero becomes +0.0; the scalar tail flips both signs (-z). With CONJ, -conj(z) (a tensor
 * with both the neg and the conj bit): the body's conj() then flips the imaginary part's sign
 * after the subtraction, the tail's -conj(z) leaves it as it was. */
#define NEG_COMPLEX_ROW(NAME, T, CHUNK, CONJ)                                             \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        (void)ctx;                                                                        \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1];                                                     \
        int vec = s[0] == 1 && (s[1] == 1 || s[1] == 0);                                  \
        int64_t body = vec ? n - n % (CHUNK) : 0;                                         \
        for (int64_t i = 0; i < n; i++) {                                                 \
            T re = x[2 * i * s[1]], im = x[2 * i * s[1] + 1];                             \
            o[2 * i * s[0]] = i < body ? (T)0 - re : -re;                                 \
            if (CONJ)                                                                     \
                o[2 * i * s[0] + 1] = i < body ? -((T)0 - im) : im;                       \
            else                                                                          \
                o[2 * i * s[0] + 1] = i < body ? (T)0 - im : -im;                         \
        }                                                                                 \
    }
NEG_COMPLEX_ROW(neg_c64, float, 8, 0)
NEG_COMPLEX_ROW(neg_c128, double, 4, 0)
NEG_COMPLEX_ROW(neg_conj_c64, float, 8, 1)
NEG_COMPLEX_ROW(neg_conj_c128, double, 4, 1)

tn_status
tn_neg_complex(int dtype, int conj, const tn_loop *l, void *out, const void *in)
{
    if (dtype != TN_DTYPE_C64 && dtype != TN_DTYPE_C128)
        return TN_ERR_DTYPE;
    int size = tn_dtype_size(dtype);
    void *base[2] = {out, (void *)in};
    int elsize[2] = {size, size};
    tn_row_fn fn = dtype == TN_DTYPE_C64 ? (conj ? neg_conj_c64 : neg_c64) : (conj ? neg_conj_c128 : neg_c128);
    return tn_loop_run_rows(l, 2, base, elsize, TN_ELEMENTWISE_GRAIN, fn, NULL);
}

tn_status
tn_unary(tn_unary_op op, int dtype, const tn_loop *l, void *out, const void *in, const double *p)
{
    tn_kscalar ks[3] = {{TN_KSCALAR_DOUBLE, 0, 0}, {TN_KSCALAR_DOUBLE, 0, 0}, {TN_KSCALAR_DOUBLE, 0, 0}};
    for (int j = 0; p && (unsigned)op < TN_NUM_UNARY && j < tn_unary_param_count(op); j++)
        ks[j].d = p[j];
    return tn_unary_k(op, dtype, l, out, in, ks);
}

tn_status
tn_unary_k(tn_unary_op op, int dtype, const tn_loop *l, void *out, const void *in, const tn_kscalar *p)
{
    if ((unsigned)op >= TN_NUM_UNARY)
        return TN_ERR_VALUE;
    int slot = tn_dtype_slot(dtype);
    if (slot < 0)
        return TN_ERR_DTYPE;

    un_ctx c;
    memset(&c, 0, sizeof c);
    c.avx2 = tn_cpu_has_avx2();
    tn_kscalar ps[3] = {{TN_KSCALAR_DOUBLE, 0, 0}, {TN_KSCALAR_DOUBLE, 0, 0}, {TN_KSCALAR_DOUBLE, 0, 0}};
    double pv[3] = {0, 0, 0};
    for (int j = 0; p && j < tn_unary_param_count(op); j++) {
        ps[j] = p[j];
        pv[j] = tn_kscalar_double(p[j]);
    }
    /* Which parameters upstream converts to the dtype itself (the rest go to the math type). */
    int reduced = dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16;
    int in_dtype_params = op == TN_UN_HARDTANH || op == TN_UN_NAN_TO_NUM ||
                          (op == TN_UN_THRESHOLD && !reduced) || (op == TN_UN_LOGIT && reduced);
    for (int j = 0; j < 3; j++) {
        double v = in_dtype_params ? param_in_dtype(dtype, ps[j], &c.k.i[j]) : pv[j];
        c.k.f[j] = (float)v;
        c.k.d[j] = v;
    }

    int row = op;
    switch (op) {
    case TN_UN_ELU:  /* alpha * scale in the math type, as Elu.h */
        c.k.ef = c.k.f[0] * c.k.f[1];
        c.k.ed = c.k.d[0] * c.k.d[1];
        break;
    case TN_UN_ROUND:
        if (pv[0] != 0) {
            if (!tn_dtype_is_floating(dtype))
                return TN_ERR_DTYPE;  /* upstream: round.decimals is floating only */
            double dec = pv[0];
            c.k.neg_decimals = dec < 0;
            c.k.ed = pow(10.0, fabs(dec));
            c.k.ef = (float)c.k.ed;
            row = -1;
        }
        break;
    case TN_UN_HARDTANH:
        if (tn_dtype_is_floating(dtype) && (c.k.d[0] != c.k.d[0] || c.k.d[1] != c.k.d[1])) {
            tn_kscalar nan = {TN_KSCALAR_DOUBLE, 0, NAN};  /* clamp_out fills with NaN */
            return tn_fill(l, dtype, out, nan);
        }
        break;
    default:
        break;
    }

    tn_row_fn f32 = row < 0 ? round_dec_f32 : f32_row(row);
    tn_row_fn fn;
    void *ctx = &c;
    tn_widen w;
    tn_widen_split hs;
    switch (dtype) {
    case TN_DTYPE_F16:
    case TN_DTYPE_BF16:
        if (!unary_table[op][TN_SLOT_F32])
            return TN_ERR_DTYPE;
        c.k.half = dtype == TN_DTYPE_F16 ? 1 : 2;
        if (op == TN_UN_RSQRT) {
            fn = rsqrt_half;
            break;
        }
        memset(&w, 0, sizeof w);
        w.dtype = dtype;
        w.ninputs = 1;
        w.out_keep = unary_out_is_bool(op);
        w.keep_elsize[0] = 1;
        w.fn = half_all_row(op) ? half_all_row(op) : f32;
        w.ctx = &c;
        fn = tn_widen_row;
        ctx = &w;
        if (half_split_op(op)) {
            /* a vector body and a scalar tail (Note [SLEEF bodies]) */
            hs.body = w;
            hs.tail = w;
            hs.tail.fn = unary_table[op][TN_SLOT_F32];
            hs.chunk = tn_cpu_has_avx512() ? 64 : 32;
            fn = tn_widen_split_row;
            ctx = &hs;
        }
        break;
    case TN_DTYPE_F32:
        fn = f32;
        break;
    case TN_DTYPE_F64:
        fn = row < 0 ? round_dec_f64 : f64_row(op);
        break;
    case TN_DTYPE_BOOL: case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16:
    case TN_DTYPE_I32: case TN_DTYPE_I64:
        fn = unary_table[op][slot];
        break;
    default:
        return TN_ERR_DTYPE;
    }
    if (!fn)
        return TN_ERR_DTYPE;
    shrink_tail st;
    if (op == TN_UN_SOFTSHRINK) {
        /* the comparisons see lambd in float for f16/bf16 (the reduced path), else in the dtype */
        st = (shrink_tail){fn, ctx, dtype, dtype == TN_DTYPE_F64 ? c.k.d[0] : (double)c.k.f[0]};
        fn = softshrink_tail_row;
        ctx = &st;
    }
    int size = tn_dtype_size(dtype);
    void *base[2] = {out, (void *)in};
    int elsize[2] = {unary_out_is_bool(op) ? 1 : size, size};
    return tn_loop_run_rows(l, 2, base, elsize, TN_ELEMENTWISE_GRAIN, fn, ctx);
}

/* ---- log_sigmoid_forward: two outputs ---- */

typedef struct {
    int dtype;
} logsig_ctx;

/* The portable loop (no AVX2): the same steps with libm's exp and log1p */
#define LOGSIG_PLAIN(SN, T, M)                                                            \
    static void                                                                           \
    logsig_##SN##_plain(T *o, T *buf, const T *x, int64_t n)                              \
    {                                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                 \
            T v = x[i], b = M(exp)(-M(fabs)(v));                                          \
            buf[i] = b;                                                                   \
            o[i] = (v < 0 || v != v ? v : (T)0) - M(log1p)(b);                            \
        }                                                                                 \
    }
#define M_F32(fn) fn##f
#define M_F64(fn) fn
LOGSIG_PLAIN(f32, float, M_F32)
LOGSIG_PLAIN(f64, double, M_F64)

static void
logsig_half_plain(uint16_t *o, uint16_t *buf, const uint16_t *x, int64_t n, int bf16)
{
    for (int64_t i = 0; i < n; i++) {
        float v = bf16 ? tn_bf16_to_f32(x[i]) : tn_f16_to_f32(x[i]), b = expf(-fabsf(v));
        float r = (v < 0 || v != v ? v : 0.0f) - log1pf(b);
        buf[i] = bf16 ? tn_f32_to_bf16(b) : tn_f32_to_f16(b);
        o[i] = bf16 ? tn_f32_to_bf16(r) : tn_f32_to_f16(r);
    }
}

/* one loop per dtype: the SLEEF lanes or the portable one */
typedef struct {
    void (*f32)(float *, float *, const float *, int64_t);
    void (*f64)(double *, double *, const double *, int64_t);
    void (*half)(uint16_t *, uint16_t *, const uint16_t *, int64_t, int);
} logsig_loops;

/* operands: 0 out, 1 buffer, 2 x, contiguous */
static void
logsig_row(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    static const logsig_loops plain = {logsig_f32_plain, logsig_f64_plain, logsig_half_plain};
    const logsig_loops *f = &plain;
#if TN_X86
    static const logsig_loops sleef = {logsig_f32_sleef, logsig_f64_sleef, logsig_half_sleef};
    if (tn_cpu_has_avx2() && !tn_elementwise_reference())
        f = &sleef;
#endif
    int dtype = ((const logsig_ctx *)ctx)->dtype;
    (void)s;
    if (dtype == TN_DTYPE_F32)
        f->f32((float *)p[0], (float *)p[1], (const float *)p[2], n);
    else if (dtype == TN_DTYPE_F64)
        f->f64((double *)p[0], (double *)p[1], (const double *)p[2], n);
    else
        f->half((uint16_t *)p[0], (uint16_t *)p[1], (const uint16_t *)p[2], n, dtype == TN_DTYPE_BF16);
}

tn_status
tn_log_sigmoid_forward(int dtype, int64_t n, void *out, void *buffer, const void *x)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (n == 0)
        return TN_OK;
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.ndim = 1;
    l.noperands = 3;
    l.sizes[0] = n;
    for (int k = 0; k < 3; k++)
        l.strides[k][0] = 1;
    logsig_ctx c = {dtype};
    int size = tn_dtype_size(dtype);
    void *base[3] = {out, buffer, (void *)x};
    int elsize[3] = {size, size, size};
    return tn_loop_run_rows(&l, 3, base, elsize, TN_ELEMENTWISE_GRAIN, logsig_row, &c);
}
