/* Criterion tests for kernels/norm.c: softmax / log_softmax, layer norm, RMS norm.
 * Sweeps compare with the scalar references norm.c exports (tn_*_ref, double precision);
 * `*_matches_upstream` tests hold torch 2.13's bits for inputs made by gen().
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/norm.h"
#include "tests/kernels/helpers.h"

/* position-weighted sum of float32 bit patterns: one number that changes with any element */
static uint64_t
checksum(const float *y, int64_t n)
{
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++)
        s += (uint64_t)fbits(y[i]) * (uint64_t)(i + 1);
    return s;
}

static const int fdts[] = {TN_DTYPE_F16, TN_DTYPE_BF16, TN_DTYPE_F32, TN_DTYPE_F64};

/* relative tolerance per dtype against a double reference */
static double
tol(int dt)
{
    return dt == TN_DTYPE_F64 ? 1e-12 : dt == TN_DTYPE_F32 ? 2e-6 : dt == TN_DTYPE_F16 ? 2e-3 : 2e-2;
}

// softmax

Test(softmax, matches_upstream)
{
    float x[150], y[150];
    for (int i = 0; i < 150; i++)
        x[i] = gen(i) * 2;
    tn_loop l = outer_loop(2, 3, 50, 50, 0);
    cr_assert_eq(tn_softmax(TN_DTYPE_F32, 0, &l, 50, 1, 1, y, x), TN_OK);
    cr_expect_eq(fbits(y[57]), 0x3d30ffa2u, "softmax = %a", y[57]);
    cr_assert_eq(tn_softmax(TN_DTYPE_F32, 1, &l, 50, 1, 1, y, x), TN_OK);
    cr_expect_eq(fbits(y[149]), 0xc1d109a7u, "log_softmax = %a", y[149]);
}

Test(softmax, sweep_last_dim_and_strided_dim_vs_reference)
{
    static const int64_t sizes[] = {1, 7, 8, 9, 33, 1000};
    char in[8 * 3000], out[8 * 3000], ref[8 * 3000];
    for (size_t d = 0; d < 4; d++) {
        int dt = fdts[d];
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int64_t n = sizes[k];
            for (int64_t i = 0; i < 3 * n; i++)
                put_elem(dt, in, i, gen(i) * 3);
            for (int log_ = 0; log_ < 2; log_++) {
                for (int strided = 0; strided < 2; strided++) {
                    /* 3 lines: contiguous rows, or the dim at stride 3 (a softmax over dim 0) */
                    tn_loop l = strided ? outer_loop(2, 3, 1, 1, 0) : outer_loop(2, 3, n, n, 0);
                    int64_t st = strided ? 3 : 1;
                    cr_assert_eq(tn_softmax(dt, log_, &l, n, st, st, out, in), TN_OK);
                    cr_assert_eq(tn_softmax_ref(dt, log_, &l, n, st, st, ref, in), TN_OK);
                    for (int64_t i = 0; i < 3 * n; i++) {
                        /* exp(x - max) inherits the rounding of x - max: relative error grows
                         * with |x - max| (here below 50), so float32 gets a wider margin */
                        double a = get_elem(dt, out, i), b = get_elem(dt, ref, i);
                        double t = dt == TN_DTYPE_F32 ? 2e-5 : tol(dt);
                        double floor_ = dt == TN_DTYPE_F16 ? 2e-7 : 1e-30;  /* f16 subnormals */
                        cr_expect(fabs(a - b) <= t * (fabs(b) + (log_ ? 1 : 1e-30)) + floor_,
                                  "dtype %d n %ld log %d strided %d i %ld: %g vs %g", dt, (long)n,
                                  log_, strided, (long)i, a, b);
                    }
                }
            }
        }
    }
}

Test(softmax, uniform_row_is_exactly_one_over_n)
{
    float x[8] = {3, 3, 3, 3, 3, 3, 3, 3}, y[8];
    tn_loop l = outer_loop(2, 0, 0, 0, 0);
    cr_assert_eq(tn_softmax(TN_DTYPE_F32, 0, &l, 8, 1, 1, y, x), TN_OK);
    for (int i = 0; i < 8; i++)
        cr_expect_eq(y[i], 0.125f);
}

Test(softmax, nan_spreads_and_inf_is_handled)
{
    float x[4] = {1, NAN, 2, 3}, y[4];
    tn_loop l = outer_loop(2, 0, 0, 0, 0);
    cr_assert_eq(tn_softmax(TN_DTYPE_F32, 0, &l, 4, 1, 1, y, x), TN_OK);
    for (int i = 0; i < 4; i++)
        cr_expect(isnan(y[i]));
    float z[3] = {-INFINITY, 0, -INFINITY};
    cr_assert_eq(tn_softmax(TN_DTYPE_F32, 0, &l, 3, 1, 1, y, z), TN_OK);
    cr_expect(y[0] == 0 && y[1] == 1 && y[2] == 0);
    cr_expect_eq(tn_softmax(TN_DTYPE_I32, 0, &l, 3, 1, 1, y, z), TN_ERR_DTYPE);
}

// layer_norm

Test(layer_norm, matches_upstream)
{
    float x[74], w[37], b[37], y[74], mean[2], rstd[2];
    for (int i = 0; i < 74; i++)
        x[i] = gen(i);
    for (int i = 0; i < 37; i++) {
        w[i] = 1 + gen(i) / 10;
        b[i] = gen(i) / 10;
    }
    cr_assert_eq(tn_layer_norm(TN_DTYPE_F32, TN_DTYPE_F32, 2, 37, x, w, b, 1e-5, y, mean, rstd), TN_OK);
    cr_expect_eq(fbits(y[0]), 0xbf968f49u, "y[0] = %a", y[0]);
    cr_expect_eq(fbits(y[73]), 0xbfcd8d45u);
    cr_expect_eq(fbits(y[17]), 0x4007ca02u);
    cr_expect_eq(fbits(mean[1]), 0xbe6c5ab0u);
    cr_expect_eq(fbits(rstd[1]), 0x3e7d894du);
    cr_expect_eq(checksum(y, 74), 0x5cf5cfbcd54ull, "every element as upstream");
    /* 300 wide, no affine: the vectorised moments with their chunk cascade */
    float *x3 = malloc(sizeof(float) * 1200), *y3 = malloc(sizeof(float) * 1200), r3[4];
    for (int i = 0; i < 1200; i++)
        x3[i] = gen(i);
    cr_assert_eq(tn_layer_norm(TN_DTYPE_F32, TN_DTYPE_F32, 4, 300, x3, NULL, NULL, 1e-5, y3, NULL, r3),
                 TN_OK);
    cr_expect_eq(fbits(y3[2 * 300 + 123]), 0x3ef10e1bu);
    cr_expect_eq(fbits(r3[3]), 0x3e7267eau);
    cr_expect_eq(checksum(y3, 1200), 0x5731cab336de2ull);
    free(x3);
    free(y3);
}

Test(layer_norm, bfloat16_plain_and_mixed_match_upstream)
{
    uint16_t x[74], w[37], b[37], y[74], mean[2], rstd[2];
    float wf[37], bf[37], meanf[2], rstdf[2];
    for (int i = 0; i < 74; i++)
        x[i] = tn_f32_to_bf16(gen(i));
    for (int i = 0; i < 37; i++) {
        w[i] = tn_f32_to_bf16(1 + gen(i) / 10);
        b[i] = tn_f32_to_bf16(gen(i) / 10);
        wf[i] = tn_bf16_to_f32(w[i]);
        bf[i] = tn_bf16_to_f32(b[i]);
    }
    cr_assert_eq(tn_layer_norm(TN_DTYPE_BF16, TN_DTYPE_BF16, 2, 37, x, w, b, 1e-5, y, mean, rstd),
                 TN_OK);
    cr_expect_eq(y[37 + 3], 0xbe14);
    cr_expect_eq(mean[0], 0xbda9, "mean is stored in the parameter dtype");
    cr_expect_eq(rstd[1], 0x3e7d);
    cr_assert_eq(tn_layer_norm(TN_DTYPE_BF16, TN_DTYPE_F32, 2, 37, x, wf, bf, 1e-5, y, meanf, rstdf),
                 TN_OK);
    cr_expect_eq(y[37 + 3], 0xbe14);
    cr_expect_eq(fbits(meanf[0]), 0xbda89838u);
    cr_expect_eq(fbits(rstdf[1]), 0x3e7d7fbdu);
}

Test(layer_norm, sweep_vs_reference)
{
    static const int64_t sizes[] = {1, 7, 8, 9, 16, 17, 100, 1000, 5000};
    char *in = malloc(8 * 15000), *out = malloc(8 * 15000), *ref = malloc(8 * 15000);
    char w[8 * 5000], b[8 * 5000], m[24], r[24], rm[24], rr[24];
    for (size_t d = 0; d < 4; d++) {
        int dt = fdts[d];
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int64_t n = sizes[k];
            for (int64_t i = 0; i < 3 * n; i++)
                put_elem(dt, in, i, gen(i) + 5);
            for (int64_t i = 0; i < n; i++) {
                put_elem(dt, w, i, 1 + gen(i + 7) / 10);
                put_elem(dt, b, i, gen(i + 3) / 10);
            }
            for (int affine = 0; affine < 2; affine++) {
                const void *wp = affine ? w : NULL, *bp = affine ? b : NULL;
                cr_assert_eq(tn_layer_norm(dt, dt, 3, n, in, wp, bp, 1e-5, out, m, r), TN_OK);
                cr_assert_eq(tn_layer_norm_ref(dt, dt, 3, n, in, wp, bp, 1e-5, ref, rm, rr), TN_OK);
                for (int64_t i = 0; i < 3 * n; i++) {
                    double a = get_elem(dt, out, i), c = get_elem(dt, ref, i);
                    cr_expect(fabs(a - c) <= 8 * tol(dt) * (fabs(c) + 1), "dtype %d n %ld i %ld: %g vs %g",
                              dt, (long)n, (long)i, a, c);
                }
                for (int j = 0; j < 3; j++) {
                    cr_expect(fabs(get_elem(dt, m, j) - get_elem(dt, rm, j)) <= tol(dt) * 8);
                    cr_expect(fabs(get_elem(dt, r, j) - get_elem(dt, rr, j)) <= tol(dt) * 8 * get_elem(dt, rr, j));
                }
            }
        }
    }
    free(in);
    free(out);
    free(ref);
}

// rms_norm

Test(rms_norm, matches_upstream)
{
    float x[200], y[200], r[2];
    for (int i = 0; i < 200; i++)
        x[i] = gen(i);
    cr_assert_eq(tn_rms_norm(TN_DTYPE_F32, 2, 100, x, NULL, 1e-5, y, r), TN_OK);
    cr_expect_eq(fbits(y[199]), 0xbfd743d5u);
    cr_expect_eq(fbits(r[0]), 0x3e771186u);
    cr_expect_eq(checksum(y, 200), 0x264ad3a694cdull);
    uint16_t h[74], hw[37], hy[74];
    float hr[2];
    for (int i = 0; i < 74; i++)
        h[i] = tn_f32_to_f16(gen(i));
    for (int i = 0; i < 37; i++)
        hw[i] = tn_f32_to_f16(1 + gen(i) / 10);
    cr_assert_eq(tn_rms_norm(TN_DTYPE_F16, 2, 37, h, hw, 1e-6, hy, hr), TN_OK);
    cr_expect_eq(hy[37 + 5], 0xbc52);
    cr_expect_eq(hy[36], 0x415e);
    cr_expect_eq(fbits(hr[1]), 0x3e7d1fb8u, "rstd is float32 for half inputs");
}

Test(rms_norm, sweep_vs_reference)
{
    static const int64_t sizes[] = {1, 7, 8, 9, 100, 4097};
    char *in = malloc(8 * 12300), *out = malloc(8 * 12300), *ref = malloc(8 * 12300);
    char w[8 * 4097];
    double r[3], rr[3];
    for (size_t d = 0; d < 4; d++) {
        int dt = fdts[d];
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int64_t n = sizes[k];
            for (int64_t i = 0; i < 3 * n; i++)
                put_elem(dt, in, i, gen(i));
            for (int64_t i = 0; i < n; i++)
                put_elem(dt, w, i, 1 + gen(i + 1) / 10);
            cr_assert_eq(tn_rms_norm(dt, 3, n, in, w, 1e-5, out, r), TN_OK);
            cr_assert_eq(tn_rms_norm_ref(dt, 3, n, in, w, 1e-5, ref, rr), TN_OK);
            for (int64_t i = 0; i < 3 * n; i++) {
                double a = get_elem(dt, out, i), c = get_elem(dt, ref, i);
                cr_expect(fabs(a - c) <= 4 * tol(dt) * (fabs(c) + 1e-3), "dtype %d n %ld: %g vs %g", dt,
                          (long)n, a, c);
            }
        }
    }
    cr_expect_eq(tn_rms_norm(TN_DTYPE_I64, 3, 2, in, NULL, 1e-5, out, NULL), TN_ERR_DTYPE);
    free(in);
    free(out);
    free(ref);
}

// softmax backward, layer norm backward

/* the gradients in double from the formulas, for the sweeps below */
static void
softmax_bw_ref(int log_, int64_t outer, int64_t n, int64_t inner, const double *g, const double *o, double *gi)
{
    for (int64_t a = 0; a < outer; a++)
        for (int64_t c = 0; c < inner; c++) {
            double s = 0;
            for (int64_t i = 0; i < n; i++) {
                int64_t k = (a * n + i) * inner + c;
                s += log_ ? g[k] : g[k] * o[k];
            }
            for (int64_t i = 0; i < n; i++) {
                int64_t k = (a * n + i) * inner + c;
                gi[k] = log_ ? g[k] - exp(o[k]) * s : (g[k] - s) * o[k];
            }
        }
}

Test(softmax_backward, sweep_vs_reference)
{
    static const int64_t shapes[][3] = {{2, 7, 1}, {3, 33, 1}, {2, 1000, 1}, {2, 5, 3}, {1, 9, 4}, {4, 1, 1}};
    char g[8 * 3000], o[8 * 3000], gi[8 * 3000];
    double gd[3000], od[3000], ref[3000];
    for (size_t d = 0; d < 4; d++) {
        int dt = fdts[d];
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            int64_t outer = shapes[s][0], n = shapes[s][1], inner = shapes[s][2], total = outer * n * inner;
            for (int log_ = 0; log_ < 2; log_++) {
                for (int64_t i = 0; i < total; i++) {
                    put_elem(dt, g, i, gen(i));
                    put_elem(dt, o, i, log_ ? -fabs(gen(i + 7)) : 1.0 / (1.0 + exp(-gen(i + 7))));
                    gd[i] = get_elem(dt, g, i);
                    od[i] = get_elem(dt, o, i);
                }
                cr_assert_eq(tn_softmax_backward(dt, log_, outer, n, inner, gi, g, o), TN_OK);
                softmax_bw_ref(log_, outer, n, inner, gd, od, ref);
                double scale = 0;
                for (int64_t i = 0; i < total; i++)
                    scale = fmax(scale, fabs(ref[i]) + fabs(gd[i]));
                for (int64_t i = 0; i < total; i++)
                    cr_assert(fabs(get_elem(dt, gi, i) - ref[i]) <= tol(dt) * (scale + 1) * sqrt((double)n),
                              "dtype %d log %d shape %ld %ld %ld elem %ld: %g vs %g", dt, log_, (long)outer,
                              (long)n, (long)inner, (long)i, get_elem(dt, gi, i), ref[i]);
            }
        }
    }
}

Test(layer_norm_backward, sweep_vs_reference)
{
    static const int64_t shapes[][2] = {{3, 5}, {4, 64}, {2, 300}, {70, 3}, {1, 1}};
    enum { MAXE = 1000 };
    char dy[8 * MAXE], x[8 * MAXE], dx[8 * MAXE], mean[8 * 70], rstd[8 * 70], w[8 * 300], dw[8 * 300], db[8 * 300];
    for (size_t d = 0; d < 4; d++) {
        int dt = fdts[d], pdt = dt;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            int64_t rows = shapes[s][0], n = shapes[s][1];
            for (int64_t i = 0; i < rows * n; i++) {
                put_elem(dt, dy, i, gen(i));
                put_elem(dt, x, i, gen(i + 3) * 0.3);
            }
            for (int64_t r = 0; r < rows; r++) {
                put_elem(pdt, mean, r, gen(r + 11) * 0.05);
                put_elem(pdt, rstd, r, 0.5 + fabs(gen(r + 13)) * 0.1);
            }
            for (int64_t j = 0; j < n; j++)
                put_elem(pdt, w, j, gen(j + 17) * 0.3);
            cr_assert_eq(tn_layer_norm_backward(dt, pdt, rows, n, dy, x, mean, rstd, w, dx, dw, db), TN_OK);
            double mag = 0;
            for (int64_t r = 0; r < rows; r++) {
                double a = get_elem(pdt, rstd, r), m = get_elem(pdt, mean, r), ds = 0, dbs = 0;
                for (int64_t j = 0; j < n; j++) {
                    double g = get_elem(dt, dy, r * n + j), xv = get_elem(dt, x, r * n + j), wj = get_elem(pdt, w, j);
                    ds += g * xv * wj;
                    dbs += g * wj;
                    mag = fmax(mag, fabs(g * xv * wj));
                }
                double b = (dbs * m - ds) * a * a * a / (double)n, c = -b * m - dbs * a / (double)n;
                for (int64_t j = 0; j < n; j++) {
                    double g = get_elem(dt, dy, r * n + j), xv = get_elem(dt, x, r * n + j), wj = get_elem(pdt, w, j);
                    double want = a * g * wj + b * xv + c;
                    cr_assert(fabs(get_elem(dt, dx, r * n + j) - want) <= tol(dt) * (mag + 1) * 8 * sqrt((double)n),
                              "dx dtype %d rows %ld n %ld: %g vs %g", dt, (long)rows, (long)n,
                              get_elem(dt, dx, r * n + j), want);
                }
            }
            for (int64_t j = 0; j < n; j++) {
                double sw = 0, sb = 0, m2 = 0;
                for (int64_t r = 0; r < rows; r++) {
                    double g = get_elem(dt, dy, r * n + j), a = get_elem(pdt, rstd, r);
                    sw += g * (get_elem(dt, x, r * n + j) - get_elem(pdt, mean, r)) * a;
                    sb += g;
                    m2 = fmax(m2, fabs(g) * (fabs(get_elem(dt, x, r * n + j)) + 1) * a);
                }
                cr_assert(fabs(get_elem(pdt, dw, j) - sw) <= tol(dt) * (m2 + 1) * 4 * rows, "dweight %g vs %g",
                          get_elem(pdt, dw, j), sw);
                cr_assert(fabs(get_elem(pdt, db, j) - sb) <= tol(dt) * (m2 + 1) * 4 * rows, "dbias %g vs %g",
                          get_elem(pdt, db, j), sb);
            }
        }
    }
}
