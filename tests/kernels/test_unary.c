/* Criterion tests for kernels/unary.c: every op swept over dtypes x edge sizes x layouts with
 * the fast paths compared against the scalar reference loops (a few ulp allowed where the fast
 * path is the AVX2 vector math), the vector math checked densely against libm, and hand values
 * from torch 2.13.
 * Adding an op: the sweep picks it up from the enum; give it parameters in op_params if it reads
 * any, and hand checks for its edge cases.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/copy.h"
#include "kernels/unary.h"
#include "tests/kernels/helpers.h"

static const int64_t edge_sizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 64, 1000};
#define NUM_SIZES ((int)(sizeof edge_sizes / sizeof edge_sizes[0]))

static uint64_t rng = 0x2545f4914f6cdd1dull;

static double
next_double(void)
{
    static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 0.25,
                                      INFINITY, -INFINITY, NAN, 1e-30, 1e30, 88.5, -87.5,
                                      -103.5, 0.625, -0.99, 0.99, 9.0, -20.0};
    uint64_t r = xorshift64(&rng);
    if (r % 5 == 0)
        return specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
    double u = unit_from_bits(r);
    static const double scales[] = {1.0, 10.0, 100.0, 0.01};
    return u * scales[(r >> 3) % 4];
}

static void
fill_random(int dtype, void *buf, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        tn_kscalar s;
        if (tn_dtype_is_floating(dtype)) {
            s = dbl(next_double());
        } else {
            int64_t v = (int64_t)xorshift64(&rng);
            if (xorshift64(&rng) % 2)
                v = (int64_t)(xorshift64(&rng) % 23) - 11;
            s = integer(v);
        }
        tn_scalar_to_dtype(dtype, s, (char *)buf + i * tn_dtype_size(dtype));
    }
}

static int
out_is_bool(int op)
{
    switch (op) {
    case TN_UN_LOGICAL_NOT: case TN_UN_ISNAN: case TN_UN_ISINF: case TN_UN_ISFINITE:
    case TN_UN_SIGNBIT: case TN_UN_ISPOSINF: case TN_UN_ISNEGINF:
        return 1;
    default:
        return 0;
    }
}

/* How far the fast path may be from the reference: the AVX2 vector math (our exp, tanh, erf,
 * gelu; SLEEF's in the rows of Note [SLEEF bodies]: u10, within an ulp of the exact value as glibc
 * is) is a few f32 ulp from glibc (two in f64), which can move an f16/bf16 result by one. */
static int
vector_math_op(int op)
{
    switch (op) {
    case TN_UN_EXP: case TN_UN_TANH: case TN_UN_SIGMOID: case TN_UN_SILU: case TN_UN_ERF: case TN_UN_GELU:
    case TN_UN_MISH: case TN_UN_SOFTPLUS: case TN_UN_SINH: case TN_UN_COSH: case TN_UN_GELU_TANH: case TN_UN_ELU:
    case TN_UN_ATANH: case TN_UN_EXP2: case TN_UN_EXPM1: case TN_UN_LOG1P: case TN_UN_LGAMMA: case TN_UN_LOG:
    case TN_UN_LOG2: case TN_UN_LOG10: case TN_UN_SIN: case TN_UN_COS: case TN_UN_TAN: case TN_UN_ASIN:
    case TN_UN_ACOS: case TN_UN_ATAN: case TN_UN_ERFC:
        return 1;
    default:
        return 0;
    }
}

static int64_t
allowed_ulps(int op, int dtype)
{
    if (!vector_math_op(op))
        return 0;
    return dtype == TN_DTYPE_F32 ? 4 : dtype == TN_DTYPE_F64 ? 2 : 1;
}

/* Where an ulp bound says nothing the bound is absolute, 4 epsilon (erf's 2 ulp near 1): gelu's
 * 1 + erf(x), gelu(tanh)'s 1 + tanh and mish's x tanh(softplus x) cancel for negative x, lgamma has
 * zeros, and f16/bf16 erf is the Abramowitz-Stegun polynomial (absolute error 1.5e-7). SLEEF's sinh
 * and cosh overflow where e^|x| does (|x| > 88.72 in f32), glibc's only past 89.4: upstream's vector
 * body gives inf there too. */
static int
close_enough(int op, int dtype, const void *fast, const void *ref)
{
    if (ulp_distance(dtype, fast, ref) <= allowed_ulps(op, dtype))
        return 1;
    if (!tn_dtype_is_floating(dtype))
        return 0;
    double f = get_elem(dtype, fast, 0), r = get_elem(dtype, ref, 0);
    if ((op == TN_UN_SINH || op == TN_UN_COSH) && dtype == TN_DTYPE_F32 && isinf(f) && fabs(r) >= 0x1p127)
        return 1;
    if (op != TN_UN_GELU && op != TN_UN_GELU_TANH && op != TN_UN_ERF && op != TN_UN_MISH && op != TN_UN_LGAMMA)
        return 0;
    double eps = dtype == TN_DTYPE_F64 ? 0x1p-52 : dtype == TN_DTYPE_F16 ? 0x1p-10 : dtype == TN_DTYPE_BF16 ? 0x1p-7 : 0x1p-23;
    return fabs(f - r) <= 4 * eps * fmax(1.0, fabs(r));
}

static const double *
op_params(int op, int variant)
{
    static const double none[3] = {0, 0, 0};
    static const double round_p[2][3] = {{2, 0, 0}, {-1, 0, 0}};
    static const double softplus_p[3] = {2.3, 1.7, 0};
    static const double elu_p[3] = {0.7, 1.0507, 1.3};
    static const double slope[3] = {0.3, 0, 0};
    static const double hardtanh_p[3] = {-0.3, 2.7, 0};
    static const double threshold_p[3] = {0.1, 20, 0};
    static const double nan_to_num_p[3] = {1.5, 100, -100};
    static const double logit_p[2][3] = {{-1, 0, 0}, {0.1, 0, 0}};
    static const double lambda_p[3] = {0.5, 0, 0};
    switch (op) {
    case TN_UN_ROUND: return variant ? round_p[variant - 1] : none;
    case TN_UN_SOFTPLUS: return softplus_p;
    case TN_UN_ELU: return elu_p;
    case TN_UN_LEAKY_RELU: return slope;
    case TN_UN_HARDTANH: return hardtanh_p;
    case TN_UN_THRESHOLD: return threshold_p;
    case TN_UN_NAN_TO_NUM: return nan_to_num_p;
    case TN_UN_LOGIT: return logit_p[variant % 2];
    case TN_UN_HARDSHRINK:
    case TN_UN_SOFTSHRINK: return lambda_p;
    default: return none;
    }
}

#define GUARD 64

static void
sweep_unary(tn_unary_op op, int variant)
{
    const double *p = op_params(op, variant);
    for (int di = 0; di < NUM_DTYPES; di++) {
        int dtype = all_dtypes[di];
        int out_dtype = out_is_bool(op) ? TN_DTYPE_BOOL : dtype;
        int isize = tn_dtype_size(dtype), osize = tn_dtype_size(out_dtype);
        for (int si = 0; si < NUM_SIZES; si++) {
            for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
                if (layout == LAYOUT_B_BCAST)  /* two operands: no b */
                    continue;
                tn_loop l;
                int64_t n = edge_sizes[si];
                int64_t in_n = make_loop(&l, layout, n, 2);
                int64_t out_n = tn_loop_numel(&l);
                void *in = malloc((size_t)(in_n * isize) + 1);
                fill_random(dtype, in, in_n);
                size_t bytes = (size_t)(out_n * osize) + GUARD;
                unsigned char *fast = malloc(bytes), *ref = malloc(bytes);
                memset(fast, 0x5a, bytes);
                memset(ref, 0x5a, bytes);
                tn_elementwise_set_reference(0);
                tn_status st_fast = tn_unary(op, dtype, &l, fast, in, p);
                tn_elementwise_set_reference(1);
                tn_status st_ref = tn_unary(op, dtype, &l, ref, in, p);
                tn_elementwise_set_reference(0);
                char what[128];
                snprintf(what, sizeof what, "%s dtype %d n %ld %s", tn_unary_names[op], dtype,
                         (long)n, layout_names[layout]);
                cr_assert_eq(st_fast, st_ref, "%s: status %d vs %d", what, st_fast, st_ref);
                cr_assert(st_fast == TN_OK || st_fast == TN_ERR_DTYPE, "%s: status %d", what,
                          st_fast);
                for (size_t i = (size_t)(out_n * osize); i < bytes; i++)
                    cr_assert_eq(fast[i], 0x5a, "%s: wrote past the output", what);
                if (st_fast == TN_OK) {
                    for (int64_t i = 0; i < out_n; i++) {
                        int64_t d = ulp_distance(out_dtype, fast + i * osize, ref + i * osize);
                        cr_assert(close_enough(op, out_dtype, fast + i * osize, ref + i * osize),
                                  "%s: element %ld is %ld ulp from the reference", what, (long)i,
                                  (long)d);
                    }
                }
                free(in);
                free(fast);
                free(ref);
            }
        }
    }
}

ParameterizedTestParameters(unary, sweep_fast_matches_reference)
{
    static int ops[TN_NUM_UNARY];
    for (int i = 0; i < TN_NUM_UNARY; i++)
        ops[i] = i;
    return cr_make_param_array(int, ops, TN_NUM_UNARY);
}

ParameterizedTest(int *op, unary, sweep_fast_matches_reference)
{
    sweep_unary((tn_unary_op)*op, 0);
}

Test(unary, sweep_parameter_variants)
{
    sweep_unary(TN_UN_ROUND, 1);
    sweep_unary(TN_UN_ROUND, 2);
    sweep_unary(TN_UN_LOGIT, 1);
}

Test(unary, large_parallel_matches_reference)
{
    const int64_t n = 3 * TN_ELEMENTWISE_GRAIN + 5;
    float *in = malloc((size_t)n * 4), *fast = malloc((size_t)n * 4), *ref = malloc((size_t)n * 4);
    fill_random(TN_DTYPE_F32, in, n);
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, n, 2);
    static const int ops[] = {TN_UN_RELU, TN_UN_NEG, TN_UN_SIGMOID, TN_UN_FLOOR};
    for (int k = 0; k < 4; k++) {
        tn_elementwise_set_reference(0);
        cr_assert_eq(tn_unary(ops[k], TN_DTYPE_F32, &l, fast, in, NULL), TN_OK);
        tn_elementwise_set_reference(1);
        cr_assert_eq(tn_unary(ops[k], TN_DTYPE_F32, &l, ref, in, NULL), TN_OK);
        tn_elementwise_set_reference(0);
        for (int64_t i = 0; i < n; i++)
            cr_assert(close_enough(ops[k], TN_DTYPE_F32, fast + i, ref + i), "%s element %ld",
                      tn_unary_names[ops[k]], (long)i);
    }
    free(in);
    free(fast);
    free(ref);
}

/* log_sigmoid_forward: the fast path (SLEEF's exp and log1p on every element, the last partial
 * vector padded) against the plain libm loop, over lengths around the vector widths and one
 * that the row driver splits across threads. Allowances: each library is within 1 ulp, so the two
 * b differ by up to 2 ulp, which moves log1p(b) by at most as much again (its condition number
 * b / ((1 + b) log1p(b)) is below 1), and the two log1p add 2 ulp: 4 ulp of log1p(b), and no
 * more of out = min(x, 0) - log1p(b) (two terms of one sign: no cancellation), in f32 and f64
 * alike; f16/bf16 round nearby floats once: 1 ulp. */
Test(unary, log_sigmoid_forward_fast_matches_reference)
{
    static const int dtypes[] = {TN_DTYPE_F32, TN_DTYPE_F64, TN_DTYPE_F16, TN_DTYPE_BF16};
    static const int64_t allow[] = {4, 4, 1, 1};
    static const int64_t sizes[] = {1, 7, 8, 9, 16, 17, 33, 3 * TN_ELEMENTWISE_GRAIN + 5};
    for (int di = 0; di < 4; di++) {
        int dtype = dtypes[di], es = tn_dtype_size(dtype);
        for (int si = 0; si < 8; si++) {
            int64_t n = sizes[si];
            size_t bytes = (size_t)n * (size_t)es;
            unsigned char *x = malloc(bytes), *o[2], *b[2];
            fill_random(dtype, x, n);
            for (int ref = 0; ref < 2; ref++) {
                o[ref] = malloc(bytes + GUARD);
                b[ref] = malloc(bytes + GUARD);
                memset(o[ref], 0x5a, bytes + GUARD);
                memset(b[ref], 0x5a, bytes + GUARD);
                tn_elementwise_set_reference(ref);
                cr_assert_eq(tn_log_sigmoid_forward(dtype, n, o[ref], b[ref], x), TN_OK);
            }
            tn_elementwise_set_reference(0);
            for (size_t i = bytes; i < bytes + GUARD; i++)
                cr_assert(o[0][i] == 0x5a && b[0][i] == 0x5a, "dtype %d n %ld: wrote past the end", dtype, (long)n);
            for (int64_t i = 0; i < n; i++) {
                int64_t dout = ulp_distance(dtype, o[0] + i * es, o[1] + i * es);
                int64_t dbuf = ulp_distance(dtype, b[0] + i * es, b[1] + i * es);
                cr_assert(dout <= allow[di] && dbuf <= allow[di], "dtype %d n %ld element %ld: %ld / %ld ulp", dtype,
                          (long)n, (long)i, (long)dout, (long)dbuf);
            }
            /* out may be x itself (log_sigmoid(x, out=x)) */
            unsigned char *y = malloc(bytes);
            memcpy(y, x, bytes);
            cr_assert_eq(tn_log_sigmoid_forward(dtype, n, y, b[1], y), TN_OK);
            cr_assert(!memcmp(y, o[0], bytes), "dtype %d n %ld: in place differs", dtype, (long)n);
            free(y);
            free(x);
            for (int ref = 0; ref < 2; ref++) {
                free(o[ref]);
                free(b[ref]);
            }
        }
    }
    float x[3] = {-1.0f, 0.0f, NAN}, o[3], b[3];
    cr_assert_eq(tn_log_sigmoid_forward(TN_DTYPE_F32, 3, o, b, x), TN_OK);
    cr_assert_float_eq(o[0], -1.3132616f, 1e-6);
    cr_assert_float_eq(b[0], expf(-1.0f), 1e-7);
    cr_assert_float_eq(o[1], -0.6931472f, 1e-6);
    cr_assert(isnan(o[2]) && isnan(b[2]));
    cr_assert_eq(tn_log_sigmoid_forward(TN_DTYPE_I32, 3, o, b, x), TN_ERR_DTYPE);
}

/* ---- the f32 vector math against glibc, densely ---- */

/* max_ulp is measured against the correctly rounded value (double libm rounded to f32). */
static void
vector_math_against_libm(tn_unary_op op, float lo, float hi, double (*ref)(double), int64_t max_ulp)
{
    const int64_t n = 200003;
    float *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
    for (int64_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * (float)i / (float)(n - 1);
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, n, 2);
    cr_assert_eq(tn_unary(op, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    int64_t worst = 0;
    for (int64_t i = 0; i < n; i++) {
        float want = (float)ref(x[i]);
        int64_t d = ulp_distance(TN_DTYPE_F32, &y[i], &want);
        if (d > worst)
            worst = d;
        cr_assert(d <= max_ulp, "%s(%a) = %a, want %a (%ld ulp)", tn_unary_names[op], x[i], y[i],
                  want, (long)d);
    }
    free(x);
    free(y);
}

/* True values, except where e^-x overflows f32: there upstream's formula (and ours) gives 0
 * while the true sigmoid is subnormal. */
static double
ref_sigmoid(double x)
{
    return isinf(expf(-(float)x)) ? 0.0 : 1.0 / (1.0 + exp(-x));
}

static double
ref_silu(double x)
{
    return x / (1.0 + exp(-x));
}

Test(unary, f32_vector_exp_is_close_to_libm)
{
    vector_math_against_libm(TN_UN_EXP, -104.0f, 89.0f, exp, 1);
    vector_math_against_libm(TN_UN_EXP, -1.0f, 1.0f, exp, 1);
}

Test(unary, f32_vector_tanh_sigmoid_silu_erf_are_close_to_libm)
{
    vector_math_against_libm(TN_UN_TANH, -12.0f, 12.0f, tanh, 1);
    vector_math_against_libm(TN_UN_TANH, -0.7f, 0.7f, tanh, 1);
    vector_math_against_libm(TN_UN_SIGMOID, -90.0f, 30.0f, ref_sigmoid, 2);
    vector_math_against_libm(TN_UN_SILU, -80.0f, 80.0f, ref_silu, 2);
    vector_math_against_libm(TN_UN_ERF, -5.0f, 5.0f, erf, 2);
    vector_math_against_libm(TN_UN_ERF, -1e-3f, 1e-3f, erf, 2);
}

Test(unary, f32_vector_math_special_values)
{
    float x[9] = {NAN, INFINITY, -INFINITY, 89.0f, -104.0f, 0.0f, -0.0f, 88.72f, -87.5f}, y[9];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 9, 2);
    cr_assert_eq(tn_unary(TN_UN_EXP, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    cr_assert(isnan(y[0]) && y[1] == INFINITY && y[2] == 0 && y[3] == INFINITY && y[4] == 0);
    cr_assert(y[5] == 1 && y[6] == 1 && isfinite(y[7]) && y[8] > 0);
    cr_assert_eq(tn_unary(TN_UN_TANH, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    cr_assert(isnan(y[0]) && y[1] == 1 && y[2] == -1 && y[5] == 0 && signbit(y[6]));
    cr_assert_eq(tn_unary(TN_UN_SIGMOID, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    cr_assert(isnan(y[0]) && y[1] == 1 && y[2] == 0 && y[5] == 0.5f);
    cr_assert_eq(tn_unary(TN_UN_SILU, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    cr_assert(isnan(y[0]) && y[1] == INFINITY && y[5] == 0);
    cr_assert_eq(tn_unary(TN_UN_ERF, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    cr_assert(isnan(y[0]) && y[1] == 1 && y[2] == -1 && y[3] == 1 && y[5] == 0 && signbit(y[6]));
    cr_assert_eq(tn_unary(TN_UN_GELU, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    cr_assert(isnan(y[0]) && y[1] == INFINITY && y[5] == 0);
}

Test(unary, sigmoid_silu_tails_use_the_scalar_formula)
{
    /* upstream's f32 sigmoid/silu run glibc's expf on the last n % 32 elements of a contiguous
     * row (all of a short one), so those match 1 / (1 + expf(-x)) bit for bit */
    float x[37], y[37];
    for (int i = 0; i < 37; i++)
        x[i] = -7.0f + 0.37f * (float)i;
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 37, 2);
    cr_assert_eq(tn_unary(TN_UN_SIGMOID, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    for (int i = 32; i < 37; i++)
        cr_assert_eq(y[i], 1.0f / (1.0f + expf(-x[i])), "element %d", i);
    cr_assert_eq(tn_unary(TN_UN_SILU, TN_DTYPE_F32, &l, y, x, NULL), TN_OK);
    for (int i = 32; i < 37; i++)
        cr_assert_eq(y[i], x[i] / (1.0f + expf(-x[i])), "element %d", i);
}

/* ---- hand values (torch 2.13) ---- */

static float
f32_un(tn_unary_op op, float x, const double *p)
{
    float y = 0;
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    cr_assert_eq(tn_unary(op, TN_DTYPE_F32, &l, &y, &x, p), TN_OK, "%s", tn_unary_names[op]);
    return y;
}

Test(unary, round_half_to_even)
{
    cr_assert_eq(f32_un(TN_UN_ROUND, 2.5f, NULL), 2.0f);
    cr_assert_eq(f32_un(TN_UN_ROUND, 3.5f, NULL), 4.0f);
    cr_assert_eq(f32_un(TN_UN_ROUND, 0.5f, NULL), 0.0f);
    cr_assert(signbit(f32_un(TN_UN_ROUND, -0.5f, NULL)));
    static const double one_decimal[3] = {1, 0, 0}, minus_one[3] = {-1, 0, 0};
    cr_assert_eq(f32_un(TN_UN_ROUND, 1.25f, one_decimal), 1.2f);
    cr_assert_eq(f32_un(TN_UN_ROUND, 1.35f, one_decimal), 1.4f);
    cr_assert_eq(f32_un(TN_UN_ROUND, 25.0f, minus_one), 20.0f);
    cr_assert_eq(f32_un(TN_UN_ROUND, 35.0f, minus_one), 40.0f);
    int32_t i = 7, o;
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    cr_assert_eq(tn_unary(TN_UN_ROUND, TN_DTYPE_I32, &l, &o, &i, NULL), TN_OK);
    cr_assert_eq(o, 7);
    cr_assert_eq(tn_unary(TN_UN_ROUND, TN_DTYPE_I32, &l, &o, &i, one_decimal), TN_ERR_DTYPE);
}

Test(unary, floor_ceil_trunc_frac_sign)
{
    cr_assert_eq(f32_un(TN_UN_FLOOR, -1.5f, NULL), -2.0f);
    cr_assert_eq(f32_un(TN_UN_CEIL, -1.5f, NULL), -1.0f);
    cr_assert_eq(f32_un(TN_UN_TRUNC, -1.5f, NULL), -1.0f);
    cr_assert_eq(f32_un(TN_UN_FRAC, -1.25f, NULL), -0.25f);
    cr_assert(isnan(f32_un(TN_UN_FRAC, INFINITY, NULL)));
    /* sign(NaN) is 0 upstream, and sign(-0) is +0 */
    cr_assert_eq(f32_un(TN_UN_SIGN, NAN, NULL), 0.0f);
    cr_assert(!signbit(f32_un(TN_UN_SIGN, -0.0f, NULL)));
    cr_assert_eq(f32_un(TN_UN_SIGN, -3.0f, NULL), -1.0f);
}

Test(unary, relu_keeps_nan_and_negative_zero)
{
    cr_assert(isnan(f32_un(TN_UN_RELU, NAN, NULL)));
    cr_assert(signbit(f32_un(TN_UN_RELU, -0.0f, NULL)));
    cr_assert_eq(f32_un(TN_UN_RELU, -2.0f, NULL), 0.0f);
    int8_t x = -128, o;
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    cr_assert_eq(tn_unary(TN_UN_RELU, TN_DTYPE_I8, &l, &o, &x, NULL), TN_OK);
    cr_assert_eq(o, 0);
}

Test(unary, integer_neg_abs_wrap)
{
    int32_t x = INT32_MIN, o;
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    cr_assert_eq(tn_unary(TN_UN_ABS, TN_DTYPE_I32, &l, &o, &x, NULL), TN_OK);
    cr_assert_eq(o, INT32_MIN);
    cr_assert_eq(tn_unary(TN_UN_NEG, TN_DTYPE_I32, &l, &o, &x, NULL), TN_OK);
    cr_assert_eq(o, INT32_MIN);
    uint8_t u = 3, uo;
    cr_assert_eq(tn_unary(TN_UN_NEG, TN_DTYPE_U8, &l, &uo, &u, NULL), TN_OK);
    cr_assert_eq(uo, 253);
    cr_assert_eq(tn_unary(TN_UN_BITNOT, TN_DTYPE_U8, &l, &uo, &u, NULL), TN_OK);
    cr_assert_eq(uo, 252);
}

Test(unary, bool_rules)
{
    uint8_t x[2] = {1, 0}, o[2];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 2, 2);
    cr_assert_eq(tn_unary(TN_UN_NEG, TN_DTYPE_BOOL, &l, o, x, NULL), TN_ERR_DTYPE);
    cr_assert_eq(tn_unary(TN_UN_ABS, TN_DTYPE_BOOL, &l, o, x, NULL), TN_ERR_DTYPE);
    cr_assert_eq(tn_unary(TN_UN_FLOOR, TN_DTYPE_BOOL, &l, o, x, NULL), TN_ERR_DTYPE);
    cr_assert_eq(tn_unary(TN_UN_RELU, TN_DTYPE_BOOL, &l, o, x, NULL), TN_ERR_DTYPE);
    cr_assert_eq(tn_unary(TN_UN_BITNOT, TN_DTYPE_BOOL, &l, o, x, NULL), TN_OK);
    cr_assert(o[0] == 0 && o[1] == 1);
    cr_assert_eq(tn_unary(TN_UN_SIGN, TN_DTYPE_BOOL, &l, o, x, NULL), TN_OK);
    cr_assert(o[0] == 1 && o[1] == 0);
}

Test(unary, float_only_ops_refuse_integers)
{
    int64_t x = 2, o;
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    static const int ops[] = {TN_UN_EXP, TN_UN_SQRT, TN_UN_SIGMOID, TN_UN_FRAC, TN_UN_RECIPROCAL,
                              TN_UN_LEAKY_RELU, TN_UN_GELU};
    for (int i = 0; i < 7; i++)
        cr_assert_eq(tn_unary(ops[i], TN_DTYPE_I64, &l, &o, &x, NULL), TN_ERR_DTYPE, "%s",
                     tn_unary_names[ops[i]]);
    float f = 1, fo;
    cr_assert_eq(tn_unary(TN_UN_BITNOT, TN_DTYPE_F32, &l, &fo, &f, NULL), TN_ERR_DTYPE);
    cr_assert_eq(tn_unary(TN_UN_EXP, TN_DTYPE_C64, &l, &fo, &f, NULL), TN_ERR_DTYPE);
}

Test(unary, classification_outputs_bool)
{
    float x[5] = {NAN, INFINITY, -INFINITY, -0.0f, 1.0f};
    uint8_t o[5];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 5, 2);
    cr_assert_eq(tn_unary(TN_UN_ISNAN, TN_DTYPE_F32, &l, o, x, NULL), TN_OK);
    cr_assert(o[0] == 1 && o[1] == 0 && o[4] == 0);
    cr_assert_eq(tn_unary(TN_UN_ISINF, TN_DTYPE_F32, &l, o, x, NULL), TN_OK);
    cr_assert(o[0] == 0 && o[1] == 1 && o[2] == 1 && o[3] == 0);
    cr_assert_eq(tn_unary(TN_UN_ISFINITE, TN_DTYPE_F32, &l, o, x, NULL), TN_OK);
    cr_assert(o[0] == 0 && o[1] == 0 && o[3] == 1 && o[4] == 1);
    cr_assert_eq(tn_unary(TN_UN_SIGNBIT, TN_DTYPE_F32, &l, o, x, NULL), TN_OK);
    cr_assert(o[2] == 1 && o[3] == 1 && o[4] == 0);
    cr_assert_eq(tn_unary(TN_UN_ISNEGINF, TN_DTYPE_F32, &l, o, x, NULL), TN_OK);
    cr_assert(o[2] == 1 && o[1] == 0);
    int16_t ix[2] = {-3, 4};
    uint8_t io[2];
    tn_loop l2;
    make_loop(&l2, LAYOUT_CONTIG, 2, 2);
    cr_assert_eq(tn_unary(TN_UN_ISFINITE, TN_DTYPE_I16, &l2, io, ix, NULL), TN_OK);
    cr_assert(io[0] == 1 && io[1] == 1);
    cr_assert_eq(tn_unary(TN_UN_SIGNBIT, TN_DTYPE_I16, &l2, io, ix, NULL), TN_OK);
    cr_assert(io[0] == 1 && io[1] == 0);
}

Test(unary, activations_hand_values)
{
    cr_assert_eq(f32_un(TN_UN_SIGMOID, 0.0f, NULL), 0.5f);
    cr_assert_float_eq(f32_un(TN_UN_GELU, 1.0f, NULL), 0.8413447f, 1e-6);
    cr_assert_float_eq(f32_un(TN_UN_GELU_TANH, 1.0f, NULL), 0.8411920f, 1e-6);
    cr_assert_float_eq(f32_un(TN_UN_SILU, 1.0f, NULL), 0.7310586f, 1e-6);
    cr_assert_float_eq(f32_un(TN_UN_MISH, 1.0f, NULL), 0.8650984f, 1e-6);
    cr_assert_eq(f32_un(TN_UN_HARDSWISH, 1.0f, NULL), 1.0f * 4.0f / 6.0f);
    cr_assert_eq(f32_un(TN_UN_HARDSIGMOID, -4.0f, NULL), 0.0f);
    static const double slope[3] = {0.2, 0, 0}, sp[3] = {1, 20, 0}, elu[3] = {1, 1, 1};
    static const double ht[3] = {-1, 1, 0}, th[3] = {0.5, -7, 0}, shrink[3] = {0.5, 0, 0};
    cr_assert_eq(f32_un(TN_UN_LEAKY_RELU, -2.0f, slope), -2.0f * 0.2f);
    cr_assert_eq(f32_un(TN_UN_SOFTPLUS, 30.0f, sp), 30.0f);
    cr_assert_float_eq(f32_un(TN_UN_SOFTPLUS, 0.0f, sp), 0.6931472f, 1e-6);
    cr_assert_eq(f32_un(TN_UN_ELU, -1.0f, elu), expm1f(-1.0f));
    cr_assert_eq(f32_un(TN_UN_HARDTANH, 3.0f, ht), 1.0f);
    cr_assert_eq(f32_un(TN_UN_THRESHOLD, 0.5f, th), -7.0f);
    cr_assert_eq(f32_un(TN_UN_THRESHOLD, 0.75f, th), 0.75f);
    cr_assert(isnan(f32_un(TN_UN_SOFTSHRINK, NAN, shrink)));
    cr_assert_eq(f32_un(TN_UN_SOFTSHRINK, 2.0f, shrink), 1.5f);
    cr_assert_eq(f32_un(TN_UN_HARDSHRINK, 0.25f, shrink), 0.0f);
}

Test(unary, special_functions_hand_values)
{
    cr_assert_float_eq(f32_un(TN_UN_ERFINV, 0.5f, NULL), 0.4769362762f, 1e-6);
    cr_assert_eq(f32_un(TN_UN_ERFINV, 1.0f, NULL), INFINITY);
    cr_assert(isnan(f32_un(TN_UN_ERFINV, 1.5f, NULL)));
    cr_assert_float_eq(f32_un(TN_UN_DIGAMMA, 1.0f, NULL), -0.5772156649f, 1e-6);
    cr_assert_float_eq(f32_un(TN_UN_DIGAMMA, -0.5f, NULL), 0.03648997f, 1e-6);
    cr_assert_eq(f32_un(TN_UN_DIGAMMA, 0.0f, NULL), -INFINITY);
    cr_assert(isnan(f32_un(TN_UN_DIGAMMA, -2.0f, NULL)));
    cr_assert_float_eq(f32_un(TN_UN_LGAMMA, 0.5f, NULL), 0.5723649f, 1e-6);
    cr_assert_eq(f32_un(TN_UN_RSQRT, 4.0f, NULL), 0.5f);
    cr_assert_eq(f32_un(TN_UN_RECIPROCAL, -0.0f, NULL), -INFINITY);
    static const double none[3] = {-1, 0, 0};
    cr_assert_eq(f32_un(TN_UN_LOGIT, 1.0f, none), INFINITY);
}

Test(unary, bfloat16_rsqrt_body_and_tail)
{
    /* upstream bf16 rsqrt(0.318359375): 1.7734375 in the vector body (one rounding), 1.78125
     * in the scalar tail (sqrt rounded to bf16 first). 33 elements: 32 body, 1 tail. */
    uint16_t x[33], y[33];
    for (int i = 0; i < 33; i++)
        x[i] = tn_f32_to_bf16(0.318359375f);
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 33, 2);
    cr_assert_eq(tn_unary(TN_UN_RSQRT, TN_DTYPE_BF16, &l, y, x, NULL), TN_OK);
    cr_assert_eq(tn_bf16_to_f32(y[0]), 1.7734375f);
    cr_assert_eq(tn_bf16_to_f32(y[32]), 1.78125f);
}

Test(unary, half_logit_rounds_each_step)
{
    /* upstream f16 logit(0.499267578125) = -0.0034236907958984375: 1 - x is rounded to f16 */
    uint16_t x = tn_f32_to_f16(0.499267578125f), y;
    static const double no_eps[3] = {-1, 0, 0};
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    cr_assert_eq(tn_unary(TN_UN_LOGIT, TN_DTYPE_F16, &l, &y, &x, no_eps), TN_OK);
    cr_assert_eq(tn_f16_to_f32(y), -0.0034236907958984375f);
}

Test(unary, nan_to_num_and_hardtanh_nan_bound)
{
    static const double p[3] = {0, 65504, -65504};
    uint16_t x[3] = {tn_f32_to_f16(NAN), tn_f32_to_f16(INFINITY), tn_f32_to_f16(-INFINITY)}, y[3];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 3, 2);
    cr_assert_eq(tn_unary(TN_UN_NAN_TO_NUM, TN_DTYPE_F16, &l, y, x, p), TN_OK);
    cr_assert(tn_f16_to_f32(y[0]) == 0 && tn_f16_to_f32(y[1]) == 65504);
    cr_assert(tn_f16_to_f32(y[2]) == -65504);
    static const double nan_bound[3] = {NAN, 1, 0};
    float fx[3] = {0, 1, 2}, fy[3];
    cr_assert_eq(tn_unary(TN_UN_HARDTANH, TN_DTYPE_F32, &l, fy, fx, nan_bound), TN_OK);
    cr_assert(isnan(fy[0]) && isnan(fy[2]));
}
