/* Criterion tests for kernels/matmul.c and the files it builds on (gemm_ukernels.c, gemv.c):
 * tn_gemm over dtypes × edge shapes × layouts against a float64 (or exact wrapping integer)
 * reference, plus tn_gemm_f32acc_serial and tn_linear. To add a case: a Test() that builds operands with make_operand()
 * and calls check_gemm(); the error bound is in Note [GEMM error bound].
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gemv.h"
#include "kernels/matmul.h"
#include "kernels/parallel.h"
#include "tests/kernels/helpers.h"

/* Note [GEMM error bound]
 * A float GEMM element is c = alpha * sum_p a_p b_p + beta * c0. Computed with unit roundoff u in
 * any summation order, with at most R roundings on any path from a product to the result,
 * |c_computed - c_exact| <= gamma_R * (|alpha| sum_p |a_p b_p| + |beta| |c0|),
 * gamma_R = R u / (1 - R u) (Higham, Accuracy and Stability of Numerical Algorithms, 3.1/3.5).
 * The accumulation costs k roundings, each k block of GEMM_KC adds two (alpha*acc and the add
 * into C), the last alpha/beta step three: R = k + 2 (k / 256 + 1) + 3, u = 2^-24 for f32, f16
 * and bf16 (accumulated in f32), 2^-53 for f64. f16/bf16 then round once to the output:
 * + u_out |c| with u_out = 2^-11 (f16) or 2^-8 (bf16), and half the smallest f16 subnormal
 * (2^-25) absolute for f16 results near zero; bf16 × bf16 on AVX512-BF16 (vdpbf16ps) flushes
 * subnormals, (k + 1) 2^-126 absolute. The reference itself is computed in double
 * (error ~k 2^-53, far below the bound).
 */

static uint64_t rng_state = 88172645463325252ull;

static uint64_t
rng_next(void)
{
    return xorshift64(&rng_state);
}

/* uniform in [-1, 1) */
static double
rng_unit(void)
{
    return unit_from_bits(rng_next());
}

static int64_t
get_int(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case TN_DTYPE_U8: return ((const uint8_t *)p)[i];
    case TN_DTYPE_I8: return ((const int8_t *)p)[i];
    case TN_DTYPE_I16: return ((const int16_t *)p)[i];
    case TN_DTYPE_I32: return ((const int32_t *)p)[i];
    case TN_DTYPE_I64: return ((const int64_t *)p)[i];
    default: return 0;
    }
}

/* random element: floats in [-1, 1), integers over the type's whole range (so products wrap) */
static double
rand_elem(int dt)
{
    switch (dt) {
    case TN_DTYPE_U8: return (double)(rng_next() % 256);
    case TN_DTYPE_I8: return (double)((int64_t)(rng_next() % 256) - 128);
    case TN_DTYPE_I16: return (double)((int64_t)(rng_next() % 65536) - 32768);
    case TN_DTYPE_I32: return (double)((int64_t)(rng_next() % 4294967296ull) - 2147483648ll);
    case TN_DTYPE_I64: return 0.0;  /* see fill_i64: a double cannot hold every int64 */
    default: return rng_unit();
    }
}

/* Layout of one batched matrix operand. */
enum {
    LAY_ROW = 0,       /* rows contiguous */
    LAY_COL = 1,       /* transposed: columns contiguous */
    LAY_STEP = 2,      /* element step 2 along the fast dimension */
    LAY_PAD = 4,       /* 3 extra elements between rows (or columns) */
    LAY_BCAST = 8,     /* batch stride 0 */
};

typedef struct {
    void *data;
    int64_t len;                   /* elements in data */
    int64_t sb, sr, sc;            /* strides: batch, row, col */
} operand;

static operand
make_operand(int dt, int64_t batch, int64_t rows, int64_t cols, int lay)
{
    operand o;
    int64_t step = (lay & LAY_STEP) ? 2 : 1, pad = (lay & LAY_PAD) ? 3 : 0;
    if (lay & LAY_COL) {
        o.sr = step;
        o.sc = rows * step + pad;
    } else {
        o.sc = step;
        o.sr = cols * step + pad;
    }
    int64_t span = 1 + (rows > 0 ? (rows - 1) * o.sr : 0) + (cols > 0 ? (cols - 1) * o.sc : 0);
    o.sb = (lay & LAY_BCAST) ? 0 : span + 5;
    o.len = (lay & LAY_BCAST) ? span : batch * (span + 5);
    if (o.len < 1)
        o.len = 1;
    o.data = calloc((size_t)o.len, 8);
    /* elements outside the matrix are NaN (floats): a kernel that reads them makes NaN */
    for (int64_t i = 0; i < o.len; i++)
        put_elem(dt, o.data, i, tn_dtype_is_kernel_float(dt) ? NAN : rand_elem(dt));
    int64_t nb = (lay & LAY_BCAST) ? 1 : batch;
    for (int64_t bi = 0; bi < nb; bi++)
        for (int64_t r = 0; r < rows; r++)
            for (int64_t c = 0; c < cols; c++) {
                int64_t at = bi * o.sb + r * o.sr + c * o.sc;
                if (dt == TN_DTYPE_I64)  /* full 64-bit range, so sums wrap */
                    ((int64_t *)o.data)[at] = (int64_t)rng_next();
                else
                    put_elem(dt, o.data, at, rand_elem(dt));
            }
    return o;
}

typedef struct {
    int dtype;
    int64_t batch, m, n, k;
    int lay_a, lay_b, lay_c;
    double alpha, beta;
    bool nan_c;  /* fill C with NaN (only meaningful with beta == 0) */
} gemm_case;

static double
unit_roundoff_acc(int dt)
{
    return dt == TN_DTYPE_F64 ? ldexp(1.0, -53) : ldexp(1.0, -24);
}

static double
unit_roundoff_out(int dt)
{
    return dt == TN_DTYPE_F16 ? ldexp(1.0, -11) : dt == TN_DTYPE_BF16 ? ldexp(1.0, -8) : 0.0;
}

/* Runs one case and checks every element of C (and that C's gaps are untouched). Returns the
 * worst err/bound ratio for floats (must be <= 1) or the count of wrong integers (must be 0). */
static double
check_gemm(gemm_case g)
{
    int dt = g.dtype;
    int64_t es = tn_dtype_size(dt);
    operand a = make_operand(dt, g.batch, g.m, g.k, g.lay_a);
    operand b = make_operand(dt, g.batch, g.k, g.n, g.lay_b);
    operand c = make_operand(dt, g.batch, g.m, g.n, g.lay_c & ~LAY_BCAST);
    if (g.nan_c)
        for (int64_t i = 0; i < c.len; i++)
            put_elem(dt, c.data, i, NAN);
    void *c0 = malloc((size_t)(c.len * es));
    memcpy(c0, c.data, (size_t)(c.len * es));

    tn_status st = tn_gemm(dt, g.batch, g.m, g.n, g.k, a.data, a.sb, a.sr, a.sc, b.data, b.sb, b.sr,
                           b.sc, c.data, c.sb, c.sr, c.sc, g.alpha, g.beta);
    cr_assert_eq(st, TN_OK, "tn_gemm returned %d", st);

    char *touched = calloc((size_t)c.len, 1);
    double worst = 0.0;
    int logged = 0;
    double u = unit_roundoff_acc(dt), uo = unit_roundoff_out(dt);
    double rounds = (double)g.k + 2.0 * (double)(g.k / 256 + 1) + 3.0;
    double gamma = rounds * u / (1.0 - rounds * u);
    /* f16: half its smallest subnormal; bf16: vdpbf16ps flushes f32 subnormals (k of them) */
    double tiny = dt == TN_DTYPE_F16 ? ldexp(1.0, -25)
                  : dt == TN_DTYPE_BF16 ? (double)(g.k + 1) * ldexp(1.0, -126) : 1e-300;
    for (int64_t bi = 0; bi < g.batch; bi++) {
        for (int64_t i = 0; i < g.m; i++) {
            for (int64_t j = 0; j < g.n; j++) {
                int64_t ci = bi * c.sb + i * c.sr + j * c.sc;
                touched[ci] = 1;
                if (tn_dtype_is_kernel_float(dt)) {
                    double s = 0.0, sabs = 0.0;
                    for (int64_t p = 0; p < g.k; p++) {
                        double x = get_elem(dt, a.data, bi * a.sb + i * a.sr + p * a.sc);
                        double y = get_elem(dt, b.data, bi * b.sb + p * b.sr + j * b.sc);
                        s += x * y;
                        sabs += fabs(x * y);
                    }
                    double cin = g.beta == 0.0 ? 0.0 : get_elem(dt, c0, ci);
                    double ref = g.alpha * s + g.beta * cin;
                    double bound = gamma * (fabs(g.alpha) * sabs + fabs(g.beta) * fabs(cin)) *
                                       (1.0 + uo) + uo * fabs(ref) + tiny;
                    double got = get_elem(dt, c.data, ci);
                    double ratio = fabs(got - ref) / bound;
                    if (!(ratio <= worst))  /* NaN counts as the worst */
                        worst = isnan(ratio) ? INFINITY : ratio;
                    if (!(ratio <= 1.0) && logged++ < 3)
                        cr_log_error("dtype %d (b,i,j)=(%ld,%ld,%ld): got %.9g ref %.9g bound %.3g",
                                     dt, (long)bi, (long)i, (long)j, got, ref, bound);
                } else {
                    uint64_t s = 0;
                    for (int64_t p = 0; p < g.k; p++)
                        s += (uint64_t)get_int(dt, a.data, bi * a.sb + i * a.sr + p * a.sc) *
                             (uint64_t)get_int(dt, b.data, bi * b.sb + p * b.sr + j * b.sc);
                    uint64_t ref = (uint64_t)(int64_t)g.alpha * s;
                    if (g.beta != 0.0)
                        ref += (uint64_t)(int64_t)g.beta * (uint64_t)get_int(dt, c0, ci);
                    void *want = calloc(1, 8);
                    put_elem(dt, want, 0, 0);
                    memcpy(want, &ref, (size_t)es);  /* little-endian: low bytes = wrapped value */
                    if (get_int(dt, want, 0) != get_int(dt, c.data, ci))
                        worst += 1.0;
                    free(want);
                }
            }
        }
    }
    for (int64_t i = 0; i < c.len; i++)
        if (!touched[i])
            cr_assert(memcmp((char *)c.data + i * es, (char *)c0 + i * es, (size_t)es) == 0,
                      "element %ld outside C was written", (long)i);
    free(touched);
    free(c0);
    free(a.data);
    free(b.data);
    free(c.data);
    return worst;
}

static const int64_t edge_sizes[] = {0, 1, 7, 16, 17, 100};
#define N_EDGE 6

/* every m, n, k in edge_sizes for one dtype and layout */
static void
sweep_shapes(int dt, int lay_a, int lay_b, int lay_c, double alpha, double beta)
{
    for (int x = 0; x < N_EDGE; x++)
        for (int y = 0; y < N_EDGE; y++)
            for (int z = 0; z < N_EDGE; z++) {
                gemm_case g = {dt, 1, edge_sizes[x], edge_sizes[y], edge_sizes[z], lay_a, lay_b,
                               lay_c, alpha, beta, false};
                double w = check_gemm(g);
                cr_assert(w <= 1.0 && (tn_dtype_is_kernel_float(dt) || w == 0.0),
                          "dtype %d m=%ld n=%ld k=%ld layouts %d/%d/%d: worst err/bound %g", dt,
                          (long)g.m, (long)g.n, (long)g.k, lay_a, lay_b, lay_c, w);
            }
}

Test(matmul, gemm_f32_shapes_contiguous) { sweep_shapes(TN_DTYPE_F32, LAY_ROW, LAY_ROW, LAY_ROW, 1, 0); }
Test(matmul, gemm_f32_transposed_b) { sweep_shapes(TN_DTYPE_F32, LAY_ROW, LAY_COL, LAY_ROW, 1, 0); }
Test(matmul, gemm_f32_transposed_a) { sweep_shapes(TN_DTYPE_F32, LAY_COL, LAY_ROW, LAY_ROW, 1, 0); }
Test(matmul, gemm_f32_both_transposed_column_major_c)
{
    sweep_shapes(TN_DTYPE_F32, LAY_COL, LAY_COL, LAY_COL, 1, 0);
}
Test(matmul, gemm_f32_strided_everything)
{
    sweep_shapes(TN_DTYPE_F32, LAY_STEP | LAY_PAD, LAY_COL | LAY_STEP | LAY_PAD, LAY_STEP | LAY_PAD,
                 1, 0);
}
Test(matmul, gemm_f32_alpha_beta) { sweep_shapes(TN_DTYPE_F32, LAY_ROW, LAY_COL, LAY_ROW, 0.75, -1.5); }
Test(matmul, gemm_f32_alpha_beta_strided_c)
{
    sweep_shapes(TN_DTYPE_F32, LAY_ROW, LAY_ROW, LAY_STEP | LAY_PAD, -2.0, 0.5);
}
Test(matmul, gemm_f16_shapes) { sweep_shapes(TN_DTYPE_F16, LAY_ROW, LAY_ROW, LAY_ROW, 1, 0); }
Test(matmul, gemm_f16_transposed_b_beta) { sweep_shapes(TN_DTYPE_F16, LAY_ROW, LAY_COL, LAY_ROW, 1, 1); }
Test(matmul, gemm_bf16_shapes) { sweep_shapes(TN_DTYPE_BF16, LAY_ROW, LAY_ROW, LAY_ROW, 1, 0); }
Test(matmul, gemm_bf16_transposed_b_beta)
{
    sweep_shapes(TN_DTYPE_BF16, LAY_ROW, LAY_COL, LAY_ROW, 0.5, 1);
}
Test(matmul, gemm_bf16_strided_transposed_a)
{
    sweep_shapes(TN_DTYPE_BF16, LAY_COL | LAY_PAD, LAY_STEP, LAY_COL, 1, 0);
}
Test(matmul, gemm_f64_shapes) { sweep_shapes(TN_DTYPE_F64, LAY_ROW, LAY_COL, LAY_ROW, 1, 0); }
Test(matmul, gemm_f64_strided_alpha_beta)
{
    sweep_shapes(TN_DTYPE_F64, LAY_COL, LAY_STEP, LAY_PAD, 3.0, -1.0);
}

static void
check_one(gemm_case g)
{
    double w = check_gemm(g);
    cr_assert(w <= 1.0 && (tn_dtype_is_kernel_float(g.dtype) || w == 0.0),
              "dtype %d batch=%ld m=%ld n=%ld k=%ld: worst %g", g.dtype, (long)g.batch, (long)g.m,
              (long)g.n, (long)g.k, w);
}

Test(matmul, gemm_int_wrapping)
{
    int dts[] = {TN_DTYPE_U8, TN_DTYPE_I8, TN_DTYPE_I16, TN_DTYPE_I32, TN_DTYPE_I64};
    for (int d = 0; d < 5; d++) {
        check_one((gemm_case){dts[d], 2, 7, 17, 100, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, false});
        check_one((gemm_case){dts[d], 1, 16, 1, 17, LAY_COL, LAY_ROW, LAY_PAD, 3, -2, false});
        check_one((gemm_case){dts[d], 3, 1, 7, 0, LAY_ROW, LAY_ROW, LAY_ROW, 1, 2, false});
    }
}

Test(matmul, gemm_int8_wraps_like_upstream)
{
    /* torch.mm(full((2,300),100,int8), full((300,2),3,int8)) is -112 on upstream 2.13 */
    int8_t a[2 * 300], b[300 * 2], c[4] = {0};
    memset(a, 100, sizeof a);
    memset(b, 3, sizeof b);
    cr_assert_eq(tn_gemm(TN_DTYPE_I8, 1, 2, 2, 300, a, 0, 300, 1, b, 0, 2, 1, c, 0, 2, 1, 1, 0), TN_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(c[i], -112);
}

Test(matmul, gemm_batch_broadcast)
{
    int dts[] = {TN_DTYPE_F32, TN_DTYPE_BF16, TN_DTYPE_F64, TN_DTYPE_I32};
    for (int d = 0; d < 4; d++) {
        check_one((gemm_case){dts[d], 3, 17, 33, 40, LAY_BCAST, LAY_COL, LAY_ROW, 1, 0, false});
        check_one((gemm_case){dts[d], 3, 17, 33, 40, LAY_ROW, LAY_BCAST | LAY_COL, LAY_ROW, 1, 1, false});
        check_one((gemm_case){dts[d], 4, 1, 50, 9, LAY_ROW, LAY_BCAST, LAY_ROW, 1, 0, false});
        check_one((gemm_case){dts[d], 4, 50, 1, 9, LAY_BCAST, LAY_ROW, LAY_ROW, 1, 0, false});
    }
}

Test(matmul, gemm_beta_zero_ignores_nan_in_c)
{
    int dts[] = {TN_DTYPE_F32, TN_DTYPE_F16, TN_DTYPE_BF16, TN_DTYPE_F64};
    for (int d = 0; d < 4; d++) {
        check_one((gemm_case){dts[d], 1, 13, 40, 20, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, true});
        check_one((gemm_case){dts[d], 1, 1, 40, 20, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, true});
        check_one((gemm_case){dts[d], 1, 3, 40, 20, LAY_ROW, LAY_ROW, LAY_ROW, 1, 0, true});
        check_one((gemm_case){dts[d], 1, 13, 40, 0, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, true});
    }
}

/* several k blocks, row tiles and column tiles; each thread count gives the same bits */
Test(matmul, gemm_f32_large_blocks)
{
    check_one((gemm_case){TN_DTYPE_F32, 2, 150, 300, 600, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, false});
    check_one((gemm_case){TN_DTYPE_F32, 1, 200, 520, 530, LAY_COL, LAY_ROW, LAY_ROW, 1.5, 1, false});
    check_one((gemm_case){TN_DTYPE_BF16, 1, 150, 300, 600, LAY_ROW, LAY_COL, LAY_ROW, 1, 1, false});
    check_one((gemm_case){TN_DTYPE_F16, 1, 90, 70, 513, LAY_ROW, LAY_COL, LAY_STEP, 1, 0, false});
}

/* few-row GEMV kernels, both of their B layouts and every dtype, then a multi-block GEMM */
static void
small_m_and_large(void)
{
    int dts[] = {TN_DTYPE_F32, TN_DTYPE_F16, TN_DTYPE_BF16};
    for (int64_t m = 1; m <= 13; m += 4)
        for (int d = 0; d < 3; d++) {
            check_one((gemm_case){dts[d], 1, m, 45, 77, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, false});
            check_one((gemm_case){dts[d], 1, m, 70, 33, LAY_ROW, LAY_ROW, LAY_ROW, 1, 1, false});
        }
    check_one((gemm_case){TN_DTYPE_F32, 1, 150, 300, 600, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, false});
    /* enough work to run on threads: column tiles shrink to 64 */
    for (int64_t m = 1; m <= 4; m++)
        for (int d = 0; d < 3; d++) {
            check_one((gemm_case){dts[d], 1, m, 300, 577, LAY_ROW, LAY_ROW, LAY_ROW, 1, 0, false});
            check_one((gemm_case){dts[d], 1, m, 300, 577, LAY_ROW, LAY_COL, LAY_ROW, 1, 0, false});
        }
}

/* The few-row GEMV kernels: m = 1..5 against B^T rows (dot) and B rows (axpy), k and n with
 * vector tails, and n == 1 (computed as its transpose). */
Test(matmul, gemm_small_m_paths)
{
    small_m_and_large();
    int dts[] = {TN_DTYPE_F32, TN_DTYPE_F16, TN_DTYPE_BF16};
    int64_t ks[] = {1, 8, 13, 64, 577};
    int64_t ns[] = {1, 3, 8, 12, 31, 32, 45, 100};
    for (int d = 0; d < 3; d++)
        for (int64_t m = 1; m <= 5; m++)
            for (int ki = 0; ki < 5; ki++)
                for (int ni = 0; ni < 8; ni++) {
                    check_one((gemm_case){dts[d], 1, m, ns[ni], ks[ki], LAY_ROW, LAY_COL, LAY_ROW,
                                          1, 0, false});
                    check_one((gemm_case){dts[d], 1, m, ns[ni], ks[ki], LAY_ROW, LAY_ROW, LAY_ROW,
                                          0.5, 2, false});
                    check_one((gemm_case){dts[d], 2, ns[ni], m, ks[ki], LAY_COL, LAY_ROW, LAY_ROW,
                                          1, 0, false});
                }
}

static void
fill_f32(float *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        p[i] = (float)rng_unit();
}

static void
gemm_f32_run(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c)
{
    cr_assert_eq(tn_gemm(TN_DTYPE_F32, 1, m, n, k, a, 0, k, 1, b, 0, 1, k, c, 0, n, 1, 1, 0), TN_OK);
}

Test(matmul, gemm_f32_same_bits_for_any_thread_count)
{
    int64_t m = 130, n = 700, k = 300;
    float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * n * k);
    float *c1 = malloc(sizeof(float) * m * n), *c2 = malloc(sizeof(float) * m * n);
    fill_f32(a, m * k);
    fill_f32(b, n * k);
    tn_set_num_threads(1);
    gemm_f32_run(m, n, k, a, b, c1);
    tn_set_num_threads(2);
    gemm_f32_run(m, n, k, a, b, c2);
    cr_assert(memcmp(c1, c2, sizeof(float) * m * n) == 0);
    tn_set_num_threads(3);
    gemm_f32_run(1, n, k, a, b, c2);
    tn_set_num_threads(1);
    gemm_f32_run(1, n, k, a, b, c1);
    cr_assert(memcmp(c1, c2, sizeof(float) * n) == 0);
    free(a);
    free(b);
    free(c1);
    free(c2);
}

/* GEMVs big enough to be split between threads (W >= 1 MiB, see Note [GEMV threads] in gemv.c):
 * W rows not a multiple of the 16-row chunks, k with a vector tail. The first call of the test's
 * process is threaded (a stall seen later may keep the rest on one thread); a one-thread run then
 * gives the same bits, and both are within the bound. */
static void
gemv_threaded_case(int dt, int64_t m, int lay_c, double beta)
{
    int64_t n = 1000, k = 577, es = tn_dtype_size(dt);
    operand a = make_operand(dt, 1, m, k, LAY_ROW), b = make_operand(dt, 1, k, n, LAY_COL);
    operand c1 = make_operand(dt, 1, m, n, lay_c), c2 = make_operand(dt, 1, m, n, lay_c);
    memcpy(c2.data, c1.data, (size_t)(c1.len * es));
    tn_set_num_threads(2);
    int64_t before = tn_gemv_threaded_count();
    cr_assert_eq(tn_gemm(dt, 1, m, n, k, a.data, 0, a.sr, a.sc, b.data, 0, b.sr, b.sc, c2.data, 0,
                         c2.sr, c2.sc, 1.0, beta), TN_OK);
    cr_assert_eq(tn_gemv_threaded_count(), before + 1, "the GEMV did not run threaded");
    tn_set_num_threads(1);
    cr_assert_eq(tn_gemm(dt, 1, m, n, k, a.data, 0, a.sr, a.sc, b.data, 0, b.sr, b.sc, c1.data, 0,
                         c1.sr, c1.sc, 1.0, beta), TN_OK);
    cr_assert(memcmp(c1.data, c2.data, (size_t)(c1.len * es)) == 0,
              "dtype %d m=%ld: threads changed the result", dt, (long)m);
    check_one((gemm_case){dt, 1, m, n, k, LAY_ROW, LAY_COL, lay_c, 1.0, beta, false});
    free(a.data);
    free(b.data);
    free(c1.data);
    free(c2.data);
}

Test(matmul, gemv_threaded_f32_one_row) { gemv_threaded_case(TN_DTYPE_F32, 1, LAY_ROW, 0); }
Test(matmul, gemv_threaded_f32_12_rows_strided_c) { gemv_threaded_case(TN_DTYPE_F32, 12, LAY_STEP | LAY_PAD, 0.5); }
Test(matmul, gemv_threaded_bf16_one_row) { gemv_threaded_case(TN_DTYPE_BF16, 1, LAY_ROW, 1); }
Test(matmul, gemv_threaded_bf16_7_rows) { gemv_threaded_case(TN_DTYPE_BF16, 7, LAY_ROW, 0); }
Test(matmul, gemv_threaded_f16_strided_c) { gemv_threaded_case(TN_DTYPE_F16, 2, LAY_STEP | LAY_PAD, 1); }
Test(matmul, isa_avx512_gemv_threaded_bf16)
{
    setenv("TN_GEMM_ISA", "avx512", 1);  /* bf16 W widened to f32 instead of vdpbf16ps */
    gemv_threaded_case(TN_DTYPE_BF16, 1, LAY_ROW, 0);
}

Test(matmul, gemm_rejects_bad_arguments)
{
    float x[4] = {0};
    cr_assert_eq(tn_gemm(TN_DTYPE_BOOL, 1, 1, 1, 1, x, 0, 1, 1, x, 0, 1, 1, x, 0, 1, 1, 1, 0), TN_ERR_DTYPE);
    cr_assert_eq(tn_gemm(TN_DTYPE_C64, 1, 1, 1, 1, x, 0, 1, 1, x, 0, 1, 1, x, 0, 1, 1, 1, 0), TN_ERR_DTYPE);
    cr_assert_eq(tn_gemm(TN_DTYPE_F32, 1, -1, 1, 1, x, 0, 1, 1, x, 0, 1, 1, x, 0, 1, 1, 1, 0), TN_ERR_VALUE);
    cr_assert_eq(tn_gemm(TN_DTYPE_F32, -1, 1, 1, 1, x, 0, 1, 1, x, 0, 1, 1, x, 0, 1, 1, 1, 0), TN_ERR_VALUE);
    cr_assert_eq(tn_gemm_f32acc_serial(1, 1, 1, TN_DTYPE_F64, x, 1, 1, TN_DTYPE_F32, x, 1, 1, x, 1, 1, 0),
                 TN_ERR_DTYPE);
    cr_assert_eq(tn_linear(TN_DTYPE_F64, 1, 1, 1, x, 1, x, NULL, x, 1), TN_ERR_DTYPE);
}

Test(matmul, gemm_f32acc_serial_mixed_dtypes)
{
    /* bf16 A (strided rows), f32 B transposed, into an f32 C with a row stride > n */
    int64_t m = 19, n = 37, k = 70, ldc = 40;
    uint16_t *a = malloc(sizeof(uint16_t) * m * k * 2);
    float *b = malloc(sizeof(float) * n * k), *c = malloc(sizeof(float) * m * ldc);
    for (int64_t i = 0; i < m * k * 2; i++)
        a[i] = tn_f32_to_bf16((float)rng_unit());
    fill_f32(b, n * k);
    for (int64_t i = 0; i < m * ldc; i++)
        c[i] = 1.0f;
    cr_assert_eq(tn_gemm_f32acc_serial(m, n, k, TN_DTYPE_BF16, a, 2 * k, 2, TN_DTYPE_F32, b, 1, k, c,
                                       ldc, 0.5f, 2.0f), TN_OK);
    double gamma = (k + 8) * ldexp(1.0, -24);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0, sabs = 0;
            for (int64_t p = 0; p < k; p++) {
                double t = (double)tn_bf16_to_f32(a[i * 2 * k + 2 * p]) * b[j * k + p];
                s += t;
                sabs += fabs(t);
            }
            double ref = 0.5 * s + 2.0;
            cr_assert_leq(fabs(c[i * ldc + j] - ref), gamma * (0.5 * sabs + 2.0) * 1.0001);
        }
    for (int64_t i = 0; i < m; i++)
        cr_assert_eq(c[i * ldc + n], 1.0f, "padding column written");
    free(a);
    free(b);
    free(c);
}

/* ---- Linear ---- */

/* y = x @ w^T + bias in `dt`, checked against the double reference with the GEMM bound */
static void
check_linear(int dt, int64_t m, int64_t in, int64_t out, bool with_bias)
{
    int es = tn_dtype_size(dt);
    int64_t xs = in + 3, ys = out + 2;
    void *x = calloc((size_t)(m * xs + 1), (size_t)es), *w = calloc((size_t)(in * out + 1), (size_t)es);
    void *bias = calloc((size_t)out + 1, (size_t)es), *y = calloc((size_t)(m * ys + 1), (size_t)es);
    for (int64_t i = 0; i < m * xs; i++)
        put_elem(dt, x, i, rng_unit());
    for (int64_t i = 0; i < in * out; i++)
        put_elem(dt, w, i, rng_unit());
    for (int64_t i = 0; i < out; i++)
        put_elem(dt, bias, i, rng_unit());
    for (int64_t i = 0; i < m * ys; i++)
        put_elem(dt, y, i, NAN);
    cr_assert_eq(tn_linear(dt, m, in, out, x, xs, w, with_bias ? bias : NULL, y, ys), TN_OK);
    double u = ldexp(1.0, -24), uo = unit_roundoff_out(dt);
    double gamma = (in + 2.0 * (in / 256 + 1) + 3) * u;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < out; j++) {
            double s = with_bias ? get_elem(dt, bias, j) : 0.0;
            double sabs = fabs(s);
            for (int64_t p = 0; p < in; p++) {
                double t = get_elem(dt, x, i * xs + p) * get_elem(dt, w, j * in + p);
                s += t;
                sabs += fabs(t);
            }
            double got = get_elem(dt, y, i * ys + j);
            double bound = gamma * sabs * (1 + uo) + uo * fabs(s) + ldexp(1.0, -25);
            cr_assert(fabs(got - s) <= bound, "dtype %d m=%ld in=%ld out=%ld (%ld,%ld): %.9g vs %.9g",
                      dt, (long)m, (long)in, (long)out, (long)i, (long)j, got, s);
        }
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = out; j < ys && i * ys + j < m * ys; j++)
            cr_assert(isnan(get_elem(dt, y, i * ys + j)), "padding of y written");
    free(x);
    free(w);
    free(bias);
    free(y);
}

Test(matmul, linear_f32_f16_bf16)
{
    int dts[] = {TN_DTYPE_F32, TN_DTYPE_F16, TN_DTYPE_BF16};
    int64_t ms[] = {1, 2, 3, 6, 100};
    for (int d = 0; d < 3; d++)
        for (int mi = 0; mi < 5; mi++) {
            check_linear(dts[d], ms[mi], 64, 40, true);
            check_linear(dts[d], ms[mi], 17, 9, false);
        }
}

Test(matmul, linear_propagates_nan)
{
    /* a NaN input must give NaN, not a clamped value, on every path */
    enum { IN = 16, OUT = 24 };
    float x[64 * IN], w[OUT * IN], y[64 * OUT];
    fill_f32(x, 64 * IN);
    fill_f32(w, OUT * IN);
    x[5] = NAN;
    for (int64_t m = 1; m <= 64; m *= 4) {  /* 1, 4 (GEMV), 16, 64 (packed GEMM) */
        cr_assert_eq(tn_linear(TN_DTYPE_F32, m, IN, OUT, x, IN, w, NULL, y, OUT), TN_OK);
        for (int j = 0; j < OUT; j++)
            cr_assert(isnan(y[j]), "m=%ld y[%d] = %g", (long)m, j, y[j]);
    }
}

/* ---- every ISA on this machine: Criterion runs each test in its own process, so a test can pick
 * the kernel set before the first GEMM (TN_GEMM_ISA is read once, at first use) ---- */

static void
force_isa(const char *isa)
{
    setenv("TN_GEMM_ISA", isa, 1);
}

Test(matmul, isa_scalar_f32_transposed_b)
{
    force_isa("scalar");
    sweep_shapes(TN_DTYPE_F32, LAY_ROW, LAY_COL, LAY_ROW, 1, 0);
}

Test(matmul, isa_scalar_bf16_f16_strided)
{
    force_isa("scalar");
    sweep_shapes(TN_DTYPE_BF16, LAY_COL | LAY_PAD, LAY_STEP, LAY_ROW, 1, 1);
    sweep_shapes(TN_DTYPE_F16, LAY_ROW, LAY_COL, LAY_STEP, 1, 0);
}

Test(matmul, isa_avx2_f32_transposed_b)
{
    force_isa("avx2");
    sweep_shapes(TN_DTYPE_F32, LAY_ROW, LAY_COL, LAY_ROW, 1, 0);
    sweep_shapes(TN_DTYPE_F32, LAY_COL, LAY_ROW, LAY_ROW, 0.5, 2);
}

Test(matmul, isa_avx2_bf16_f16)
{
    force_isa("avx2");
    sweep_shapes(TN_DTYPE_BF16, LAY_ROW, LAY_COL, LAY_ROW, 1, 1);
    sweep_shapes(TN_DTYPE_F16, LAY_ROW, LAY_ROW, LAY_ROW, 1, 0);
}

Test(matmul, isa_avx512_without_bf16_dot)
{
    force_isa("avx512");
    sweep_shapes(TN_DTYPE_BF16, LAY_ROW, LAY_COL, LAY_ROW, 1, 1);
    sweep_shapes(TN_DTYPE_F32, LAY_ROW, LAY_COL, LAY_ROW, 1, 0);
}

Test(matmul, isa_scalar_small_m_and_large)
{
    force_isa("scalar");
    small_m_and_large();
}

Test(matmul, isa_avx2_small_m_and_large)
{
    force_isa("avx2");
    small_m_and_large();
}

Test(matmul, isa_avx512_small_m_and_large)
{
    force_isa("avx512");
    small_m_and_large();
}

/* tn_gemm_f32_f64acc (Note [Double-accumulated GEMM]): every element is the double sum of exact
 * products rounded once, bit for bit, for shapes with row and column tails, a row init, strided C
 * and enough work for threads; then a cancelling sum a float32 chain gets wrong. */
static void
dacc_case(int64_t m, int64_t n, int64_t k, int with_init, int64_t c_sn)
{
    float *a = malloc(sizeof(float) * (size_t)(m * k + 1)), *b = malloc(sizeof(float) * (size_t)(k * n + 1));
    float *c = malloc(sizeof(float) * (size_t)(m * n * c_sn + 1));
    double *init = malloc(sizeof(double) * (size_t)(m + 1));
    fill_f32(a, m * k);
    fill_f32(b, k * n);
    for (int64_t i = 0; i < m; i++)
        init[i] = (float)rng_unit();
    cr_assert_eq(tn_gemm_f32_f64acc(m, n, k, a, k, b, n, with_init ? init : NULL, c, n * c_sn, c_sn), TN_OK);
    for (int64_t i = 0; i < m; i++)
        for (int64_t q = 0; q < n; q++) {
            double s = with_init ? init[i] : 0.0;
            for (int64_t p = 0; p < k; p++)
                s += (double)a[i * k + p] * (double)b[p * n + q];
            float got = c[i * n * c_sn + q * c_sn];
            cr_assert(got == (float)s, "m=%lld n=%lld k=%lld at (%lld, %lld): %.9g, want %.9g", (long long)m,
                      (long long)n, (long long)k, (long long)i, (long long)q, got, (float)s);
        }
    free(a);
    free(b);
    free(c);
    free(init);
}

Test(matmul, gemm_f32_f64acc_rounds_the_double_sum_once)
{
    int64_t ms[] = {1, 3, 4, 5, 9}, ns[] = {1, 7, 8, 9, 70}, ks[] = {0, 1, 27, 64};
    for (int mi = 0; mi < 5; mi++)
        for (int ni = 0; ni < 5; ni++)
            for (int ki = 0; ki < 4; ki++) {
                dacc_case(ms[mi], ns[ni], ks[ki], (mi + ni) % 2, 1);
                dacc_case(ms[mi], ns[ni], ks[ki], 1, 3);
            }
    dacc_case(33, 1000, 300, 1, 1); /* threads over column strips */
    /* 1e8 + 1 - 1e8 in that order: a float32 sum gives 0, the double sum 1 */
    float a[3] = {1e8f, 1.0f, -1e8f}, b[3] = {1.0f, 1.0f, 1.0f}, c = -1.0f;
    cr_assert_eq(tn_gemm_f32_f64acc(1, 1, 3, a, 3, b, 1, NULL, &c, 1, 1), TN_OK);
    cr_assert_eq(c, 1.0f);
}
