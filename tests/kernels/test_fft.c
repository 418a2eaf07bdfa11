/* Criterion tests for kernels/fft.c: tn_fft against a plain O(n^2) DFT in long double (the
 * reference loop), over lengths that take each path (1, powers of 2 and 4, small primes, the
 * largest direct prime 31, Bluestein for 37, 97, 101 and a mixed 2*3*5*7 length; real signals of
 * even length go through a half-length complex plan: 6, 30, 74 = 2 * 37 (a Bluestein half), 128,
 * 512), both directions, c2c / r2c (one- and two-sided) / c2r, complex64 and complex128, strided
 * and batched operands, the scale, the plan cache (Note [FFT plans]), and the argument errors.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/fft.h"

static const int64_t LENGTHS[] = {1, 2, 3, 4, 5, 6, 7, 8, 16, 30, 31, 37, 64, 74, 97, 101, 128, 210, 512};
#define NLEN ((int)(sizeof LENGTHS / sizeof LENGTHS[0]))

/* X[k] = sum_j x[j] e^{sign 2 pi i jk/n} */
static void
dft_ref(int64_t n, const double *x, double *X, int forward)
{
    const long double two_pi = 6.283185307179586476925286766559L;
    for (int64_t k = 0; k < n; k++) {
        long double re = 0, im = 0;
        for (int64_t j = 0; j < n; j++) {
            long double a = (forward ? -two_pi : two_pi) * (long double)((j * k) % n) / (long double)n;
            long double c = cosl(a), s = sinl(a);
            re += x[2 * j] * c - x[2 * j + 1] * s;
            im += x[2 * j] * s + x[2 * j + 1] * c;
        }
        X[2 * k] = (double)re;
        X[2 * k + 1] = (double)im;
    }
}

static double
max_abs(int64_t n, const double *x)
{
    double m = 0;
    for (int64_t i = 0; i < 2 * n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

static void
fill(int64_t n, double *x, int seed)
{
    for (int64_t i = 0; i < 2 * n; i++)
        x[i] = sin(1.7 * (double)i + 0.3 * seed) + 0.25 * cos(0.37 * (double)(i * i) + seed);
}

Test(fft, c2c_c128_matches_the_dft_in_both_directions)
{
    for (int li = 0; li < NLEN; li++) {
        int64_t n = LENGTHS[li];
        double *x = malloc(16 * n), *y = malloc(16 * n), *r = malloc(16 * n);
        fill(n, x, li);
        int64_t sz[1] = {n}, st[1] = {1};
        tn_fft_operand in = {TN_DTYPE_C128, 1, sz, st, (char *)x}, out = {TN_DTYPE_C128, 1, sz, st, (char *)y};
        for (int fw = 0; fw < 2; fw++) {
            cr_assert_eq(tn_fft(TN_FFT_C2C, &out, &in, 0, n, fw, 1.0), TN_OK);
            dft_ref(n, x, r, fw);
            double tol = 1e-15 * (double)(n + 4) * max_abs(n, r);
            for (int64_t i = 0; i < 2 * n; i++)
                cr_assert(fabs(y[i] - r[i]) <= tol, "n=%lld fw=%d i=%lld: %.17g vs %.17g", (long long)n, fw,
                          (long long)i, y[i], r[i]);
        }
        free(x), free(y), free(r);
    }
}

Test(fft, c2c_c64_batched_strided_and_scaled)
{
    /* a [3, n] complex64 input transposed in memory (strides 1, 3), output contiguous [3, n] */
    for (int li = 0; li < NLEN; li++) {
        int64_t n = LENGTHS[li];
        float *x = malloc(8 * 3 * n), *y = malloc(8 * 3 * n);
        double *line = malloc(16 * n), *r = malloc(16 * n);
        for (int64_t i = 0; i < 6 * n; i++)
            x[i] = (float)sin(0.9 * (double)i + 0.1);
        int64_t sz[2] = {3, n}, ist[2] = {1, 3}, ost[2] = {n, 1};
        tn_fft_operand in = {TN_DTYPE_C64, 2, sz, ist, (char *)x}, out = {TN_DTYPE_C64, 2, sz, ost, (char *)y};
        cr_assert_eq(tn_fft(TN_FFT_C2C, &out, &in, 1, n, 1, 0.5), TN_OK);
        for (int b = 0; b < 3; b++) {
            for (int64_t j = 0; j < n; j++) {
                line[2 * j] = x[2 * (b + 3 * j)];
                line[2 * j + 1] = x[2 * (b + 3 * j) + 1];
            }
            dft_ref(n, line, r, 1);
            double tol = 4e-7 * (double)(n + 4) * max_abs(n, r);
            for (int64_t k = 0; k < 2 * n; k++)
                cr_assert(fabs(y[2 * b * n + k] - 0.5 * r[k]) <= tol, "n=%lld b=%d", (long long)n, b);
        }
        free(x), free(y), free(line), free(r);
    }
}

Test(fft, r2c_onesided_and_two_sided_are_the_dft_of_the_real_signal)
{
    for (int li = 0; li < NLEN; li++) {
        int64_t n = LENGTHS[li];
        double *x = malloc(8 * n), *cx = calloc((size_t)n, 16), *y = malloc(16 * n), *r = malloc(16 * n);
        for (int64_t j = 0; j < n; j++)
            cx[2 * j] = x[j] = cos(0.77 * (double)j) - 0.3;
        dft_ref(n, cx, r, 1);
        double tol = 1e-15 * (double)(n + 4) * max_abs(n, r);
        for (int two = 0; two < 2; two++) {
            int64_t isz[1] = {n}, osz[1] = {two ? n : n / 2 + 1}, st[1] = {1};
            tn_fft_operand in = {TN_DTYPE_F64, 1, isz, st, (char *)x}, out = {TN_DTYPE_C128, 1, osz, st, (char *)y};
            cr_assert_eq(tn_fft(TN_FFT_R2C, &out, &in, 0, n, 1, 1.0), TN_OK);
            for (int64_t k = 0; k < osz[0]; k++) {
                cr_assert(fabs(y[2 * k] - r[2 * k]) <= tol && fabs(y[2 * k + 1] - r[2 * k + 1]) <= tol,
                          "n=%lld k=%lld", (long long)n, (long long)k);
                if (k > 0 && 2 * k > n && two)  /* the upper half: exact conjugates */
                    cr_assert(y[2 * k] == y[2 * (n - k)] && y[2 * k + 1] == -y[2 * (n - k) + 1]);
            }
            cr_assert(y[1] == 0.0, "bin 0 is real");
        }
        free(x), free(cx), free(y), free(r);
    }
}

Test(fft, c2r_inverts_r2c_and_ignores_the_imaginary_parts_of_bins_0_and_half)
{
    for (int li = 0; li < NLEN; li++) {
        int64_t n = LENGTHS[li], h = n / 2 + 1;
        double *x = malloc(8 * n), *spec = malloc(16 * h), *back = malloc(8 * n);
        for (int64_t j = 0; j < n; j++)
            x[j] = sin(1.3 * (double)j) + 0.5;
        int64_t xs[1] = {n}, hs[1] = {h}, st[1] = {1};
        tn_fft_operand re = {TN_DTYPE_F64, 1, xs, st, (char *)x}, half = {TN_DTYPE_C128, 1, hs, st, (char *)spec};
        tn_fft_operand out = {TN_DTYPE_F64, 1, xs, st, (char *)back};
        cr_assert_eq(tn_fft(TN_FFT_R2C, &half, &re, 0, n, 1, 1.0), TN_OK);
        spec[1] = 123.0;  /* not part of a Hermitian spectrum's transform */
        if (n % 2 == 0)
            spec[2 * (h - 1) + 1] = -7.0;
        cr_assert_eq(tn_fft(TN_FFT_C2R, &out, &half, 0, n, 0, 1.0 / (double)n), TN_OK);
        for (int64_t j = 0; j < n; j++)
            cr_assert(fabs(back[j] - x[j]) <= 1e-14 * (double)(n + 4), "n=%lld j=%lld: %g vs %g", (long long)n,
                      (long long)j, back[j], x[j]);
        free(x), free(spec), free(back);
    }
}

Test(fft, empty_batch_is_a_no_op_and_bad_arguments_are_refused)
{
    double buf[4] = {0};
    int64_t sz[2] = {0, 2}, st[2] = {2, 1}, one[1] = {2}, s1[1] = {1};
    tn_fft_operand e = {TN_DTYPE_C128, 2, sz, st, (char *)buf};
    cr_assert_eq(tn_fft(TN_FFT_C2C, &e, &e, 1, 2, 1, 1.0), TN_OK);
    tn_fft_operand c = {TN_DTYPE_C128, 1, one, s1, (char *)buf}, r = {TN_DTYPE_F64, 1, one, s1, (char *)buf};
    tn_fft_operand i = {TN_DTYPE_I64, 1, one, s1, (char *)buf};
    cr_assert_eq(tn_fft(TN_FFT_C2C, &c, &r, 0, 2, 1, 1.0), TN_ERR_DTYPE);
    cr_assert_eq(tn_fft(TN_FFT_R2C, &c, &i, 0, 2, 1, 1.0), TN_ERR_DTYPE);
    cr_assert_eq(tn_fft(TN_FFT_C2R, &c, &c, 0, 2, 0, 1.0), TN_ERR_DTYPE);
    cr_assert_eq(tn_fft(TN_FFT_C2C, &c, &c, 0, 0, 1, 1.0), TN_ERR_VALUE);
    cr_assert_eq(tn_fft(TN_FFT_C2C, &c, &c, 1, 2, 1, 1.0), TN_ERR_VALUE);
}

Test(fft, cached_plans_give_the_same_bits_as_new_ones)
{
    /* 40 lengths, more than the cache keeps, twice over: the second round reuses or remakes
     * plans (evicting the least recently used) and must reproduce the first round's bits */
    double first[40][2 * 48], x[2 * 48], y[2 * 48];
    for (int round = 0; round < 2; round++)
        for (int64_t n = 1; n <= 40; n++) {
            fill(n, x, (int)n);
            int64_t sz[1] = {n}, st[1] = {1};
            tn_fft_operand in = {TN_DTYPE_C128, 1, sz, st, (char *)x}, out = {TN_DTYPE_C128, 1, sz, st, (char *)y};
            cr_assert_eq(tn_fft(TN_FFT_C2C, &out, &in, 0, n, 1, 1.0), TN_OK);
            if (round == 0)
                memcpy(first[n - 1], y, (size_t)(16 * n));
            else
                cr_assert(memcmp(first[n - 1], y, (size_t)(16 * n)) == 0, "n=%lld", (long long)n);
        }
}

Test(fft, batched_lines_give_the_bits_of_one_line_at_a_time)
{
    /* Note [FFT lanes]: 11 signals transformed together (groups of 8 and 3) must reproduce each
     * signal's own transform bit for bit, for r2c, c2r and c2c, even and odd lengths */
    static const int64_t ns[] = {12, 9, 64, 30};
    for (int ni = 0; ni < 4; ni++) {
        int64_t n = ns[ni], h = n / 2 + 1, B = 11;
        double *x = malloc(8 * B * n), *spec = malloc(16 * B * h), *one = malloc(16 * n), *back = malloc(8 * B * n);
        double *cx = malloc(16 * B * n), *cy = malloc(16 * B * n);
        for (int64_t i = 0; i < B * n; i++)
            x[i] = sin(0.61 * (double)i) + 0.2 * cos(1.9 * (double)(i % 7));
        fill(B * n, cx, ni);
        int64_t xs[2] = {B, n}, hs[2] = {B, h}, xst[2] = {n, 1}, hst[2] = {h, 1}, s1[1] = {1}, n1[1] = {n}, h1[1] = {h};
        tn_fft_operand re = {TN_DTYPE_F64, 2, xs, xst, (char *)x}, half = {TN_DTYPE_C128, 2, hs, hst, (char *)spec};
        tn_fft_operand rb = {TN_DTYPE_F64, 2, xs, xst, (char *)back};
        tn_fft_operand ci = {TN_DTYPE_C128, 2, xs, xst, (char *)cx}, co = {TN_DTYPE_C128, 2, xs, xst, (char *)cy};
        cr_assert_eq(tn_fft(TN_FFT_R2C, &half, &re, 1, n, 1, 1.0), TN_OK);
        cr_assert_eq(tn_fft(TN_FFT_C2R, &rb, &half, 1, n, 0, 0.5), TN_OK);
        cr_assert_eq(tn_fft(TN_FFT_C2C, &co, &ci, 1, n, 0, 1.0), TN_OK);
        for (int64_t b = 0; b < B; b++) {
            tn_fft_operand r1 = {TN_DTYPE_F64, 1, n1, s1, (char *)(x + b * n)}, o1 = {TN_DTYPE_C128, 1, h1, s1, (char *)one};
            cr_assert_eq(tn_fft(TN_FFT_R2C, &o1, &r1, 0, n, 1, 1.0), TN_OK);
            cr_assert(memcmp(one, spec + 2 * b * h, (size_t)(16 * h)) == 0, "r2c n=%lld line %lld", (long long)n, (long long)b);
            tn_fft_operand s1o = {TN_DTYPE_C128, 1, h1, s1, (char *)(spec + 2 * b * h)}, r1o = {TN_DTYPE_F64, 1, n1, s1, (char *)one};
            cr_assert_eq(tn_fft(TN_FFT_C2R, &r1o, &s1o, 0, n, 0, 0.5), TN_OK);
            cr_assert(memcmp(one, back + b * n, (size_t)(8 * n)) == 0, "c2r n=%lld line %lld", (long long)n, (long long)b);
            tn_fft_operand c1 = {TN_DTYPE_C128, 1, n1, s1, (char *)(cx + 2 * b * n)}, c1o = {TN_DTYPE_C128, 1, n1, s1, (char *)one};
            cr_assert_eq(tn_fft(TN_FFT_C2C, &c1o, &c1, 0, n, 0, 1.0), TN_OK);
            cr_assert(memcmp(one, cy + 2 * b * n, (size_t)(16 * n)) == 0, "c2c n=%lld line %lld", (long long)n, (long long)b);
        }
        free(x), free(spec), free(one), free(back), free(cx), free(cy);
    }
}
