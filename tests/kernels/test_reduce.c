/* Criterion tests for kernels/reduce.c: reductions, arg-max/min, var/std and scans.
 * Sweeps (dtype x size x layout) compare with plain loops in this file; `*_matches_upstream`
 * tests hold bit patterns torch 2.13 (CPU, 2 threads) produced for the same inputs, made by
 * gen() below. Add a case by writing its reference loop or pasting upstream's bits.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/parallel.h"
#include "kernels/reduce.h"
#include "tests/kernels/helpers.h"

static float *
gen_f32(int64_t n)
{
    float *x = malloc(sizeof(float) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++)
        x[i] = gen(i);
    return x;
}

static tn_loop
scalar_out(void)
{
    return outer_loop(3, 0, 0, 0, 0);
}

/* small integer-valued data so every dtype holds it exactly */
static double
small(int dt, int64_t i)
{
    if (dt == TN_DTYPE_BOOL)
        return (i * 7) % 3 != 0;
    if (dt == TN_DTYPE_U8)
        return (double)((i * 7) % 5);
    return (double)((i * 7) % 9 - 4);
}

// sum

Test(reduce, sum_f32_matches_upstream)
{
    float *x = gen_f32(1000), out;
    tn_loop o = scalar_out();
    int64_t n = 1000, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(fbits(out), 0xbf5c7f30u, "sum = %a", out);
    free(x);
}

Test(reduce, sum_f32_two_pass_matches_upstream)
{
    /* >= 32768 elements into one output: split in chunks as upstream does with 2 threads */
    tn_set_num_threads(2);
    float *x = gen_f32(100000), out;
    tn_loop o = scalar_out();
    int64_t n = 100000, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(fbits(out), 0xc0d095a0u, "sum = %a", out);
    cr_assert_eq(tn_reduce(TN_RED_MEAN, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(fbits(out), 0xb888b2abu, "mean = %a", out);
    free(x);
}

Test(reduce, sum_f32_outer_dim_matches_upstream)
{
    /* (300, 70) summed over dim 0: columns as single cascades */
    float *x = gen_f32(300 * 70), out[70];
    tn_loop o = outer_loop(3, 70, 1, 1, 0);
    int64_t n = 300, s = 70;
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, out, x, 0), TN_OK);
    cr_expect_eq(fbits(out[0]), 0xc1dbadc4u);
    cr_expect_eq(fbits(out[33]), 0xc121de5eu);
    cr_expect_eq(fbits(out[69]), 0x408d8c24u);
    free(x);
}

Test(reduce, sum_f32_inner_dim_matches_upstream)
{
    float *x = gen_f32(70 * 300), out[70];
    tn_loop o = outer_loop(3, 70, 1, 300, 0);
    int64_t n = 300, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, out, x, 0), TN_OK);
    cr_expect_eq(fbits(out[0]), 0x4102cd8cu);
    cr_expect_eq(fbits(out[5]), 0xc0f939e8u);
    free(x);
}

Test(reduce, sum_half_types_match_upstream)
{
    uint16_t h[1000], b[1000], out;
    for (int i = 0; i < 1000; i++) {
        h[i] = tn_f32_to_f16(gen(i));
        b[i] = tn_f32_to_bf16(gen(i));
    }
    tn_loop o = scalar_out();
    int64_t n = 1000, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F16, TN_DTYPE_F16, &o, 1, &n, &s, &out, h, 0), TN_OK);
    cr_expect_eq(out, 0xbad9);
    cr_assert_eq(tn_reduce(TN_RED_MEAN, TN_DTYPE_BF16, TN_DTYPE_BF16, &o, 1, &n, &s, &out, b, 0), TN_OK);
    cr_expect_eq(out, 0xba27);
}

Test(reduce, sum_f32_sizes_and_layouts_vs_reference)
{
    static const int64_t sizes[] = {0, 1, 7, 8, 9, 31, 33, 1000, 40000};
    float *buf = gen_f32(3 * 40000);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int64_t n = sizes[k];
        for (int layout = 0; layout < 3; layout++) {
            int64_t st = layout == 0 ? 1 : layout == 1 ? 3 : 0;  /* contiguous, strided, broadcast */
            double ref = 0, mag = 0;
            for (int64_t i = 0; i < n; i++) {
                ref += buf[i * st];
                mag += fabs(buf[i * st]);
            }
            float out = -1;
            tn_loop o = scalar_out();
            cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &st, &out, buf, 0),
                         TN_OK);
            cr_expect(fabs(out - ref) <= 1e-6 * mag + 1e-6, "n=%ld layout=%d: %g vs %g", (long)n,
                      layout, out, ref);
        }
    }
    free(buf);
}

Test(reduce, sum_over_two_dims_noncontiguous_vs_reference)
{
    /* x is (4, 6, 5) contiguous; reduce dims 0 and 2 -> 6 outputs */
    float *x = gen_f32(120), out[6];
    tn_loop o = outer_loop(3, 6, 1, 5, 0);
    int64_t rs[2] = {5, 4}, rst[2] = {1, 30};  /* innermost first */
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 2, rs, rst, out, x, 0), TN_OK);
    for (int j = 0; j < 6; j++) {
        double ref = 0;
        for (int a = 0; a < 4; a++)
            for (int c = 0; c < 5; c++)
                ref += x[a * 30 + j * 5 + c];
        cr_expect_float_eq(out[j], ref, 1e-5, "out[%d]", j);
    }
    free(x);
}

Test(reduce, sum_dtype_sweep_vs_reference)
{
    static const int64_t sizes[] = {0, 1, 7, 8, 9, 1000};
    char in[8 * 1000], out[8];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        int odt = tn_dtype_is_kernel_float(dt) ? dt : TN_DTYPE_I64;  /* the runtime promotes integer sums */
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int64_t n = sizes[k], st = 1;
            double ref = 0;
            for (int64_t i = 0; i < n; i++) {
                put_elem(dt, in, i, small(dt, i));
                ref += get_elem(dt, in, i);
            }
            tn_loop o = scalar_out();
            cr_assert_eq(tn_reduce(TN_RED_SUM, dt, odt, &o, 1, &n, &st, out, in, 0), TN_OK);
            double tol = dt == TN_DTYPE_BF16 ? 0.01 * fabs(ref) + 1 : 1e-3 * fabs(ref) + 1e-9;
            cr_expect(fabs(get_elem(odt, out, 0) - ref) <= tol, "dtype %d n %ld: %g vs %g", dt,
                      (long)n, get_elem(odt, out, 0), ref);
        }
    }
}

Test(reduce, integer_sum_wraps_in_int64)
{
    int64_t x[2] = {INT64_MAX, 1}, out, n = 2, s = 1;
    tn_loop o = scalar_out();
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_I64, TN_DTYPE_I64, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(out, INT64_MIN);
}

Test(reduce, nansum_and_nanmean_skip_nan)
{
    float x[5] = {1, NAN, 2, NAN, 4}, out;
    tn_loop o = scalar_out();
    int64_t n = 5, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_NANSUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(out, 7.0f);
    cr_assert_eq(tn_reduce(TN_RED_NANMEAN, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_float_eq(out, 7.0f / 3.0f, 1e-7);
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect(isnan(out));
}

Test(reduce, empty_region_gives_identity_or_error)
{
    float x[1] = {5}, out;
    tn_loop o = scalar_out();
    int64_t n = 0, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(out, 0.0f);
    cr_assert_eq(tn_reduce(TN_RED_PROD, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(out, 1.0f);
    cr_assert_eq(tn_reduce(TN_RED_MEAN, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect(isnan(out));
    cr_expect_eq(tn_reduce(TN_RED_AMAX, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0),
                 TN_ERR_VALUE);
    uint8_t b;
    cr_assert_eq(tn_reduce(TN_RED_ALL, TN_DTYPE_F32, TN_DTYPE_BOOL, &o, 1, &n, &s, &b, x, 0), TN_OK);
    cr_expect_eq(b, 1);
}

Test(reduce, unsupported_dtype_returns_status)
{
    float x[4] = {0}, out;
    tn_loop o = scalar_out();
    int64_t n = 2, s = 1;
    cr_expect_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_C64, TN_DTYPE_C64, &o, 1, &n, &s, &out, x, 0),
                 TN_ERR_DTYPE);
    cr_expect_eq(tn_reduce(TN_RED_SUM, TN_DTYPE_U16, TN_DTYPE_I64, &o, 1, &n, &s, &out, x, 0),
                 TN_ERR_DTYPE);
    cr_expect_eq(tn_reduce_var(TN_DTYPE_I32, &o, 1, &n, &s, &out, NULL, x, 1, 0), TN_ERR_DTYPE);
}

// prod

Test(reduce, prod_f32_matches_upstream)
{
    float x[200], out;
    for (int i = 0; i < 200; i++)
        x[i] = 1 + gen(i) / 1000;
    tn_loop o = scalar_out();
    int64_t n = 200, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_PROD, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(fbits(out), 0x3f803b06u, "prod = %a", out);
}

Test(reduce, prod_dtype_sweep_vs_reference)
{
    char in[8 * 16], out[8];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        int odt = tn_dtype_is_kernel_float(dt) ? dt : TN_DTYPE_I64;
        int64_t n = 9, st = 1;
        double ref = 1;
        for (int64_t i = 0; i < n; i++) {
            put_elem(dt, in, i, dt == TN_DTYPE_BOOL ? 1 : small(dt, i) == 0 ? 1 : small(dt, i) / 2);
            ref *= get_elem(dt, in, i);
        }
        tn_loop o = scalar_out();
        cr_assert_eq(tn_reduce(TN_RED_PROD, dt, odt, &o, 1, &n, &st, out, in, 0), TN_OK);
        cr_expect(fabs(get_elem(odt, out, 0) - ref) <= 1e-2 * fabs(ref), "dtype %d: %g vs %g", dt,
                  get_elem(odt, out, 0), ref);
    }
}

// max / min / any / all / count

Test(reduce, max_min_propagate_nan)
{
    float x[6] = {1, 5, NAN, -2, 7, 3}, out;
    tn_loop o = scalar_out();
    int64_t n = 6, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_MAX, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect(isnan(out));
    cr_assert_eq(tn_reduce(TN_RED_AMIN, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect(isnan(out));
    n = 2;  /* {1, 5} */
    cr_assert_eq(tn_reduce(TN_RED_AMAX, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, x, 0), TN_OK);
    cr_expect_eq(out, 5.0f);
}

Test(reduce, max_min_dtype_sweep_vs_reference)
{
    static const int64_t sizes[] = {1, 7, 8, 9, 1000};
    char in[8 * 1000], out[8];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int64_t n = sizes[k], st = 1;
            double mx = -INFINITY, mn = INFINITY;
            for (int64_t i = 0; i < n; i++) {
                put_elem(dt, in, i, small(dt, i * 3 + 1));
                mx = fmax(mx, get_elem(dt, in, i));
                mn = fmin(mn, get_elem(dt, in, i));
            }
            tn_loop o = scalar_out();
            cr_assert_eq(tn_reduce(TN_RED_AMAX, dt, dt, &o, 1, &n, &st, out, in, 0), TN_OK);
            cr_expect_eq(get_elem(dt, out, 0), mx, "dtype %d n %ld", dt, (long)n);
            cr_assert_eq(tn_reduce(TN_RED_MIN, dt, dt, &o, 1, &n, &st, out, in, 0), TN_OK);
            cr_expect_eq(get_elem(dt, out, 0), mn, "dtype %d n %ld", dt, (long)n);
        }
    }
}

Test(reduce, any_all_count_nonzero)
{
    float x[5] = {0, 0, NAN, 0, -0.0f};
    uint8_t b;
    int64_t c, n = 5, s = 1;
    tn_loop o = scalar_out();
    cr_assert_eq(tn_reduce(TN_RED_ANY, TN_DTYPE_F32, TN_DTYPE_BOOL, &o, 1, &n, &s, &b, x, 0), TN_OK);
    cr_expect_eq(b, 1, "NaN is true");
    cr_assert_eq(tn_reduce(TN_RED_ALL, TN_DTYPE_F32, TN_DTYPE_BOOL, &o, 1, &n, &s, &b, x, 0), TN_OK);
    cr_expect_eq(b, 0);
    cr_assert_eq(tn_reduce(TN_RED_COUNT_NONZERO, TN_DTYPE_F32, TN_DTYPE_I64, &o, 1, &n, &s, &c, x, 0),
                 TN_OK);
    cr_expect_eq(c, 1, "-0.0 is zero");
    cr_expect_eq(tn_reduce(TN_RED_ANY, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &b, x, 0),
                 TN_ERR_DTYPE, "any writes bool or uint8");
}

// norm / logsumexp

Test(reduce, norm_p2_matches_upstream)
{
    float *x = gen_f32(500), out[5];
    tn_loop o = outer_loop(3, 5, 1, 100, 0);
    int64_t n = 100, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_NORM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, out, x, 2.0), TN_OK);
    cr_expect_eq(fbits(out[3]), 0x4227f2a6u, "norm = %a", out[3]);
    free(x);
}

Test(reduce, norm_of_one_element)
{
    /* Note [Norm over one element]: |x| for TN_RED_NORM, the kernel's float square for
     * TN_RED_NORM_FORMULA (a 0-dim input given dims upstream) */
    float x = -1e30f, out;
    tn_loop o = outer_loop(3, 1, 1, 1, 0);
    int64_t n = 1, s = 1;
    cr_assert_eq(tn_reduce(TN_RED_NORM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, &x, 2.0), TN_OK);
    cr_expect_eq(out, 1e30f);
    cr_assert_eq(tn_reduce(TN_RED_NORM_FORMULA, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, &x, 2.0), TN_OK);
    cr_expect(isinf(out) && out > 0, "got %a", out);
    cr_assert_eq(tn_reduce(TN_RED_NORM_FORMULA, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &s, &out, &x, 1.0), TN_OK);
    cr_expect_eq(out, 1e30f);
}

Test(reduce, norm_orders_vs_reference)
{
    static const double ps[] = {0, 1, 2, 3, 0.5, INFINITY, -INFINITY};
    double x[37], out;
    for (int i = 0; i < 37; i++)
        x[i] = i % 5 == 0 ? 0 : gen(i);
    tn_loop o = scalar_out();
    int64_t n = 37, s = 1;
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        double p = ps[k], ref = 0;
        if (isinf(p)) {
            ref = p > 0 ? 0 : INFINITY;
            for (int i = 0; i < 37; i++)
                ref = p > 0 ? fmax(ref, fabs(x[i])) : fmin(ref, fabs(x[i]));
        } else if (p == 0) {
            for (int i = 0; i < 37; i++)
                ref += x[i] != 0;
        } else {
            for (int i = 0; i < 37; i++)
                ref += pow(fabs(x[i]), p);
            ref = pow(ref, 1 / p);
        }
        cr_assert_eq(tn_reduce(TN_RED_NORM, TN_DTYPE_F64, TN_DTYPE_F64, &o, 1, &n, &s, &out, x, p), TN_OK);
        cr_expect(fabs(out - ref) <= 1e-12 * fabs(ref), "p=%g: %g vs %g", p, out, ref);
    }
}

Test(reduce, logsumexp_vs_reference_and_infinities)
{
    float x[50], out;
    double m = -INFINITY, s = 0;
    for (int i = 0; i < 50; i++) {
        x[i] = gen(i) * 3;
        m = fmax(m, x[i]);
    }
    for (int i = 0; i < 50; i++)
        s += exp(x[i] - m);
    tn_loop o = scalar_out();
    int64_t n = 50, st = 1;
    cr_assert_eq(tn_reduce(TN_RED_LOGSUMEXP, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &st, &out, x, 0),
                 TN_OK);
    cr_expect_float_eq(out, log(s) + m, 1e-5);
    float ninf[3] = {-INFINITY, -INFINITY, -INFINITY};
    n = 3;
    cr_assert_eq(tn_reduce(TN_RED_LOGSUMEXP, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &st, &out, ninf, 0),
                 TN_OK);
    cr_expect(isinf(out) && out < 0, "all -inf gives -inf, not NaN");
    float pinf[2] = {1, INFINITY};
    n = 2;
    cr_assert_eq(tn_reduce(TN_RED_LOGSUMEXP, TN_DTYPE_F32, TN_DTYPE_F32, &o, 1, &n, &st, &out, pinf, 0),
                 TN_OK);
    cr_expect(isinf(out) && out > 0);
}

// argmax / max.dim

Test(reduce, argmax_takes_first_of_ties_and_first_nan)
{
    float x[7] = {1, 5, 3, 5, NAN, 2, NAN}, v;
    int64_t idx;
    tn_loop o = scalar_out();
    cr_assert_eq(tn_reduce_arg(1, TN_DTYPE_F32, &o, 4, 1, &v, &idx, x), TN_OK);
    cr_expect_eq(idx, 1, "first of the tied maxima");
    cr_assert_eq(tn_reduce_arg(1, TN_DTYPE_F32, &o, 7, 1, &v, &idx, x), TN_OK);
    cr_expect_eq(idx, 4, "first NaN");
    cr_expect(isnan(v));
    cr_assert_eq(tn_reduce_arg(0, TN_DTYPE_F32, &o, 7, 1, NULL, &idx, x), TN_OK);
    cr_expect_eq(idx, 4, "NaN is also the minimum");
    cr_expect_eq(tn_reduce_arg(0, TN_DTYPE_F32, &o, 0, 1, NULL, &idx, x), TN_ERR_VALUE);
}

Test(reduce, argmin_dtype_sweep_strided)
{
    char in[8 * 64];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        /* 4 lines of 8 along a stride-4 dim (the transposed layout) */
        for (int64_t i = 0; i < 32; i++)
            put_elem(dt, in, i, small(dt, i * 5 + 2));
        int64_t idx[4];
        char vals[8 * 4];
        tn_loop o = outer_loop(3, 4, 1, 1, 1);
        cr_assert_eq(tn_reduce_arg(0, dt, &o, 8, 4, vals, idx, in), TN_OK);
        for (int j = 0; j < 4; j++) {
            int64_t best = 0;
            for (int64_t i = 1; i < 8; i++)
                if (get_elem(dt, in, j + i * 4) < get_elem(dt, in, j + best * 4))
                    best = i;
            cr_expect_eq(idx[j], best, "dtype %d line %d", dt, j);
            cr_expect_eq(get_elem(dt, vals, j), get_elem(dt, in, j + best * 4));
        }
    }
}

// var / std

Test(reduce, var_std_match_upstream)
{
    float *x = gen_f32(5000), out;
    tn_loop o = scalar_out();
    int64_t n = 1000, s = 1;
    cr_assert_eq(tn_reduce_var(TN_DTYPE_F32, &o, 1, &n, &s, &out, NULL, x, 1, 0), TN_OK);
    cr_expect_eq(fbits(out), 0x418dfbe4u, "var = %a", out);
    double xd[1000], outd;
    for (int i = 0; i < 1000; i++)
        xd[i] = x[i];
    cr_assert_eq(tn_reduce_var(TN_DTYPE_F64, &o, 1, &n, &s, &outd, NULL, xd, 0, 1), TN_OK);
    cr_expect_eq(dbits(outd), 0x4010d7c993ee5352ull, "std = %a", outd);
    /* var_mean over rows of (5, 1000) */
    float v[5], m[5];
    tn_loop o2 = outer_loop(3, 5, 1, 1000, 1);
    cr_assert_eq(tn_reduce_var(TN_DTYPE_F32, &o2, 1, &n, &s, v, m, x, 1, 0), TN_OK);
    cr_expect_eq(fbits(v[1]), 0x418ef5dau);
    cr_expect_eq(fbits(m[1]), 0x3c8453e5u);
    /* float64 var_mean keeps Welford's rounding visible */
    double *xd5 = malloc(sizeof(double) * 5000), vd[5], md[5];
    for (int i = 0; i < 5000; i++)
        xd5[i] = x[i];
    cr_assert_eq(tn_reduce_var(TN_DTYPE_F64, &o2, 1, &n, &s, vd, md, xd5, 1, 0), TN_OK);
    cr_expect_eq(dbits(vd[2]), 0x4031d7a4555636d0ull, "var = %a", vd[2]);
    cr_expect_eq(dbits(md[2]), 0x3f7034617a9fbe64ull, "mean = %a", md[2]);
    free(xd5);
    free(x);
}

Test(reduce, var_f64_over_outer_dim_matches_upstream)
{
    /* (300, 70) float64, var over dim 0: Welford in double, every rounding visible */
    static const uint64_t want[8] = {
        0x4031ab4304be991cull, 0x4031d664b7f0eb57ull, 0x40322fd40a0bdd4dull, 0x4031a39c4b9f7ff4ull,
        0x4031e0c66de0f1dcull, 0x4031f09e8db504ffull, 0x403154a3cf462b0full, 0x4031d20b4a08d39full,
    };
    double *x = malloc(sizeof(double) * 300 * 70), v[70];
    for (int i = 0; i < 300 * 70; i++)
        x[i] = gen(i);
    tn_loop o = outer_loop(3, 70, 1, 1, 1);
    int64_t n = 300, s = 70;
    cr_assert_eq(tn_reduce_var(TN_DTYPE_F64, &o, 1, &n, &s, v, NULL, x, 1, 0), TN_OK);
    for (int j = 0; j < 8; j++)
        cr_expect_eq(dbits(v[j]), want[j], "var[%d] = %a", j, v[j]);
    free(x);
}

Test(reduce, var_sweep_vs_two_pass_reference)
{
    static const int dts[] = {TN_DTYPE_F16, TN_DTYPE_BF16, TN_DTYPE_F32, TN_DTYPE_F64};
    static const int64_t sizes[] = {1, 2, 7, 8, 9, 1000};
    char in[8 * 1000], out[8], mo[8];
    for (size_t d = 0; d < 4; d++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int dt = dts[d];
            int64_t n = sizes[k], s = 1;
            double mean = 0, q = 0;
            for (int64_t i = 0; i < n; i++) {
                put_elem(dt, in, i, gen(i));
                mean += get_elem(dt, in, i);
            }
            mean /= (double)n;
            for (int64_t i = 0; i < n; i++)
                q += (get_elem(dt, in, i) - mean) * (get_elem(dt, in, i) - mean);
            double ref = n > 1 ? q / (double)(n - 1) : NAN;
            tn_loop o = outer_loop(3, 0, 0, 0, 0);
            cr_assert_eq(tn_reduce_var(dt, &o, 1, &n, &s, out, mo, in, 1, 0), TN_OK);
            double got = get_elem(dt, out, 0);
            if (isnan(ref))
                cr_expect(isnan(got), "n=1 with correction 1 is NaN");
            else
                cr_expect(fabs(got - ref) <= 1e-2 * ref, "dtype %d n %ld: %g vs %g", dt, (long)n,
                          got, ref);
            cr_expect(fabs(get_elem(dt, mo, 0) - mean) <= 1e-2 * fabs(mean) + 1e-3);
        }
    }
}

// scans

Test(scan, cumsum_matches_upstream)
{
    float *x = gen_f32(100), out[100];
    tn_loop o = scalar_out();
    cr_assert_eq(tn_scan(TN_SCAN_CUMSUM, TN_DTYPE_F32, TN_DTYPE_F32, &o, 100, 1, 1, out, NULL, x), TN_OK);
    cr_expect_eq(fbits(out[99]), 0xc153daa1u);
    cr_expect_eq(fbits(out[50]), 0xc0691c0au);
    free(x);
}

Test(scan, logcumsumexp_matches_upstream_and_handles_inf)
{
    float *x = gen_f32(64), out[64];
    tn_loop o = scalar_out();
    cr_assert_eq(tn_scan(TN_SCAN_LOGCUMSUMEXP, TN_DTYPE_F32, TN_DTYPE_F32, &o, 64, 1, 1, out, NULL, x),
                 TN_OK);
    cr_expect_eq(fbits(out[63]), 0x410e2ad6u);
    float y[3] = {-INFINITY, -INFINITY, 0};
    cr_assert_eq(tn_scan(TN_SCAN_LOGCUMSUMEXP, TN_DTYPE_F32, TN_DTYPE_F32, &o, 3, 1, 1, out, NULL, y),
                 TN_OK);
    cr_expect(isinf(out[1]) && out[1] < 0);
    cr_expect_eq(out[2], 0.0f);
    free(x);
}

Test(scan, cummax_takes_last_of_ties_and_nan_sticks)
{
    float x[6] = {1, 3, 3, 2, NAN, 5}, v[6];
    int64_t idx[6];
    tn_loop o = scalar_out();
    cr_assert_eq(tn_scan(TN_SCAN_CUMMAX, TN_DTYPE_F32, TN_DTYPE_F32, &o, 6, 1, 1, v, idx, x), TN_OK);
    int64_t want[6] = {0, 1, 2, 2, 4, 4};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(idx[i], want[i], "i=%d", i);
    cr_expect(isnan(v[5]));
    cr_expect_eq(tn_scan(TN_SCAN_CUMMAX, TN_DTYPE_F32, TN_DTYPE_F32, &o, 6, 1, 1, v, NULL, x),
                 TN_ERR_VALUE, "cummax needs indices");
}

Test(scan, cummin_int_takes_last_of_ties)
{
    int32_t x[5] = {4, 2, 2, 3, 2}, v[5];
    int64_t idx[5];
    tn_loop o = scalar_out();
    cr_assert_eq(tn_scan(TN_SCAN_CUMMIN, TN_DTYPE_I32, TN_DTYPE_I32, &o, 5, 1, 1, v, idx, x), TN_OK);
    int64_t want[5] = {0, 1, 2, 2, 4};
    for (int i = 0; i < 5; i++)
        cr_expect_eq(idx[i], want[i], "i=%d", i);
    cr_expect_eq(v[4], 2);
}

Test(scan, cumsum_cumprod_dtype_sweep_strided)
{
    char in[8 * 40], out[8 * 40];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        int odt = tn_dtype_is_kernel_float(dt) ? dt : TN_DTYPE_I64;
        for (int64_t i = 0; i < 40; i++)
            put_elem(dt, in, i, small(dt, i) == 0 ? 1 : small(dt, i));
        /* 5 lines of 8 along a stride-5 dim, outputs contiguous per line */
        tn_loop o = outer_loop(3, 5, 8, 1, 0);
        for (int op = TN_SCAN_CUMSUM; op <= TN_SCAN_CUMPROD; op++) {
            cr_assert_eq(tn_scan(op, dt, odt, &o, 8, 5, 1, out, NULL, in), TN_OK);
            for (int j = 0; j < 5; j++) {
                double acc = op == TN_SCAN_CUMSUM ? 0 : 1;
                for (int i = 0; i < 8; i++) {
                    double v = get_elem(dt, in, j + i * 5);
                    acc = op == TN_SCAN_CUMSUM ? acc + v : acc * v;
                    double want = dt == TN_DTYPE_BOOL ? acc : acc;
                    cr_expect(fabs(get_elem(odt, out, j * 8 + i) - want) <= 1e-2 * fabs(want),
                              "dtype %d op %d line %d i %d", dt, op, j, i);
                }
            }
        }
    }
}

/* histc: edges inclusive (the last bin closed), outside values and NaN not counted, the bin
 * computed in the element type; the reference loop below is the definition. */
Test(reduce, histc_f32_f64_edges_outside_nan)
{
    const double vals[] = {0.0, 1.0, 0.5, 0.999, -0.25, 1.25, NAN, 0.2, 0.4, 0.6, 0.8, 0.7};
    const int64_t n = 12, bins = 5;
    float xf[12], hf[5] = {0};
    double xd[12], hd[5] = {0};
    for (int64_t i = 0; i < n; i++)
        xf[i] = (float)vals[i], xd[i] = vals[i];
    cr_assert_eq(tn_histc(TN_DTYPE_F32, xf, n, 0.0, 1.0, bins, hf), TN_OK);
    cr_assert_eq(tn_histc(TN_DTYPE_F64, xd, n, 0.0, 1.0, bins, hd), TN_OK);
    const double want[5] = {1, 1, 2, 2, 3};  /* 0 / .2 / .4 .5 / .6 .7 / .8 .999 1 */
    for (int b = 0; b < bins; b++) {
        cr_expect_eq(hf[b], (float)want[b], "f32 bin %d: %g", b, hf[b]);
        cr_expect_eq(hd[b], want[b], "f64 bin %d: %g", b, hd[b]);
    }
    float hn[5] = {0};
    cr_assert_eq(tn_histc(TN_DTYPE_F32, xf, 0, 0.0, 1.0, bins, hn), TN_OK);
    for (int b = 0; b < bins; b++)
        cr_expect_eq(hn[b], 0.0f);
    cr_expect_eq(tn_histc(TN_DTYPE_I64, xd, n, 0.0, 1.0, bins, hd), TN_ERR_DTYPE);
}
