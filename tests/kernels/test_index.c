/* Criterion tests for kernels/index.c: index_select, gather, scatter (+ reductions),
 * index_put, masked_select, nonzero, tril/triu. Each sweep has its reference loop here;
 * expected values for half-type scatter and NaN cases were checked against torch 2.13.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/index.h"
#include "tests/kernels/helpers.h"

static double
val(int dt, int64_t i)
{
    if (dt == TN_DTYPE_BOOL)
        return (i * 5) % 3 == 0;
    return (double)((i * 37) % 23) - (dt == TN_DTYPE_U8 ? 0 : 11);
}

/* loop over up to 2 dims, 3 operands */
static tn_loop
loop2(int64_t n0, int64_t n1, const int64_t s[3][2])
{
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.noperands = 3;
    l.ndim = 2;
    l.sizes[0] = n0;
    l.sizes[1] = n1;
    for (int k = 0; k < 3; k++) {
        l.strides[k][0] = s[k][0];
        l.strides[k][1] = s[k][1];
    }
    return l;
}

// index_select

Test(index_select, dtype_sweep_rows_and_columns_vs_reference)
{
    /* src is (10, 7) row-major; select 9 rows (dim 0) and 9 columns (dim 1) */
    int64_t index[9] = {3, 0, 9, 9, 1, 5, 2, 8, 4}, colidx[9] = {6, 0, 3, 3, 1, 5, 2, 4, 0};
    char src[8 * 70], out[8 * 90];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        for (int i = 0; i < 70; i++)
            put_elem(dt, src, i, val(dt, i));
        const int64_t rs[3][2] = {{0, 1}, {0, 1}, {0, 0}};
        tn_loop l = loop2(1, 7, rs);
        cr_assert_eq(tn_index_select(dt, &l, 9, index, 1, 10, 7, 7, out, src), TN_OK);
        for (int j = 0; j < 9; j++)
            for (int c = 0; c < 7; c++)
                cr_expect_eq(get_elem(dt, out, j * 7 + c), get_elem(dt, src, index[j] * 7 + c), "dtype %d", dt);
        const int64_t cs[3][2] = {{0, 9}, {0, 7}, {0, 0}};
        tn_loop l2 = loop2(1, 10, cs);
        cr_assert_eq(tn_index_select(dt, &l2, 9, colidx, 1, 7, 1, 1, out, src), TN_OK);
        for (int r = 0; r < 10; r++)
            for (int j = 0; j < 9; j++)
                cr_expect_eq(get_elem(dt, out, r * 9 + j), get_elem(dt, src, r * 7 + colidx[j]));
    }
}

Test(index_select, out_of_range_index_is_refused)
{
    float src[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
    int64_t bad[2] = {1, 3}, neg[1] = {-1};
    const int64_t s[3][2] = {{0, 1}, {0, 1}, {0, 0}};
    tn_loop l = loop2(1, 2, s);
    cr_expect_eq(tn_index_select(TN_DTYPE_F32, &l, 2, bad, 1, 3, 2, 2, out, src), TN_ERR_VALUE);
    cr_expect_eq(tn_index_select(TN_DTYPE_F32, &l, 1, neg, 1, 3, 2, 2, out, src), TN_ERR_VALUE);
    cr_expect_eq(out[0], 0.0f, "nothing written");
    cr_expect_eq(tn_index_select(TN_DTYPE_C32, &l, 1, bad, 1, 3, 2, 2, out, src), TN_ERR_DTYPE);
}

Test(index_select, moves_uint_and_complex_elements_whole)
{
    /* movement-only dtypes (tn_dtype_movable): 16-byte complex128 elements and uint64 bit patterns */
    double src[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, out[12] = {0};
    int64_t index[3] = {5, 0, 2};
    const int64_t s[3][2] = {{0, 1}, {0, 1}, {0, 0}};
    tn_loop l = loop2(1, 1, s);
    cr_assert_eq(tn_index_select(TN_DTYPE_C128, &l, 3, index, 1, 6, 1, 1, out, src), TN_OK);
    cr_expect(out[0] == 10 && out[1] == 11 && out[2] == 0 && out[3] == 1 && out[4] == 4 && out[5] == 5);
    uint64_t u[3] = {18446744073709551615ull, 1, 9223372036854775808ull}, uo[3];
    int64_t ui[3] = {2, 2, 0};
    cr_assert_eq(tn_index_select(TN_DTYPE_U64, &l, 3, ui, 1, 3, 1, 1, uo, u), TN_OK);
    cr_expect(uo[0] == u[2] && uo[1] == u[2] && uo[2] == u[0]);
}

// gather / scatter

Test(gather, dim1_vs_reference)
{
    /* src (4, 6); index (4, 3) along dim 1 */
    int64_t index[12] = {5, 0, 0, 1, 1, 4, 3, 2, 5, 0, 5, 5};
    char src[8 * 24], out[8 * 12];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        for (int i = 0; i < 24; i++)
            put_elem(dt, src, i, val(dt, i));
        const int64_t s[3][2] = {{3, 1}, {6, 0}, {3, 1}};
        tn_loop l = loop2(4, 3, s);
        cr_assert_eq(tn_gather(dt, &l, 6, 1, out, src, index), TN_OK);
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < 3; j++)
                cr_expect_eq(get_elem(dt, out, r * 3 + j), get_elem(dt, src, r * 6 + index[r * 3 + j]));
    }
    int64_t bad[12] = {6};
    const int64_t s[3][2] = {{3, 1}, {6, 0}, {3, 1}};
    tn_loop l = loop2(4, 3, s);
    cr_expect_eq(tn_gather(TN_DTYPE_F32, &l, 6, 1, out, src, bad), TN_ERR_VALUE);
}

/* scatter_reduce reference on (4, 6) self with (4, 3) index/src along dim 1 */
static void
scatter_ref(int reduce, int include_self, double *self, const double *src, const int64_t *index,
            int integral)
{
    double acc[24];
    int cnt[24] = {0};
    for (int i = 0; i < 24; i++)
        acc[i] = self[i];
    for (int p = 0; p < 12; p++) {
        int at = (p / 3) * 6 + (int)index[p];
        if (!include_self && !cnt[at] && reduce != TN_SCATTER_ASSIGN)
            acc[at] = reduce == TN_SCATTER_PROD ? 1 : reduce == TN_SCATTER_AMAX ? -INFINITY
                    : reduce == TN_SCATTER_AMIN ? INFINITY : 0;
        cnt[at]++;
        double v = src[p];
        switch (reduce) {
        case TN_SCATTER_ASSIGN: acc[at] = v; break;
        case TN_SCATTER_SUM: case TN_SCATTER_MEAN: acc[at] += v; break;
        case TN_SCATTER_PROD: acc[at] *= v; break;
        case TN_SCATTER_AMAX: acc[at] = fmax(acc[at], v); break;
        default: acc[at] = fmin(acc[at], v); break;
        }
    }
    for (int i = 0; i < 24; i++) {
        if (reduce == TN_SCATTER_MEAN && cnt[i]) {
            double c = cnt[i] + (include_self ? 1 : 0);
            acc[i] = integral ? floor(acc[i] / c) : acc[i] / c;
        }
        self[i] = acc[i];
    }
}

Test(scatter, reductions_dtype_sweep_vs_reference)
{
    int64_t index[12] = {5, 0, 0, 1, 1, 4, 3, 2, 5, 0, 5, 5};
    char self[8 * 24], src[8 * 12];
    for (int d = 1; d < NUM_DTYPES; d++) {  /* bool has no arithmetic reductions */
        int dt = all_dtypes[d];
        int integral = dt != TN_DTYPE_F16 && dt != TN_DTYPE_BF16 && dt != TN_DTYPE_F32 &&
                       dt != TN_DTYPE_F64;
        for (int reduce = 0; reduce < TN_NUM_SCATTER; reduce++) {
            for (int incl = 0; incl < 2; incl++) {
                double rs[24], rsrc[12];
                for (int i = 0; i < 24; i++) {
                    put_elem(dt, self, i, val(dt, i) / (reduce == TN_SCATTER_PROD ? 4 : 1));
                    rs[i] = get_elem(dt, self, i);
                }
                for (int i = 0; i < 12; i++) {
                    put_elem(dt, src, i, val(dt, i * 3 + 1) / (reduce == TN_SCATTER_PROD ? 4 : 1));
                    rsrc[i] = get_elem(dt, src, i);
                }
                scatter_ref(reduce, incl || reduce == TN_SCATTER_ASSIGN, rs, rsrc, index, integral);
                const int64_t s[3][2] = {{6, 0}, {3, 1}, {3, 1}};
                tn_loop l = loop2(4, 3, s);
                cr_assert_eq(tn_scatter(dt, reduce, &l, 6, 1, self, src, index, incl), TN_OK);
                for (int i = 0; i < 24; i++) {
                    char tmp[8];
                    double got = get_elem(dt, self, i), want = rs[i];
                    if (dt == TN_DTYPE_U8 || dt == TN_DTYPE_I8) {
                        put_elem(dt, tmp, 0, want);  /* wrap like the dtype */
                        want = get_elem(dt, tmp, 0);
                    }
                    cr_expect(fabs(got - want) <= 0.02 * fabs(want) + (integral ? 0 : 1e-6),
                              "dtype %d reduce %d incl %d at %d: %g vs %g", dt, reduce, incl, i,
                              got, want);
                }
            }
        }
    }
}

Test(scatter, half_sums_round_once_like_upstream)
{
    /* three additions into one float16 slot: 2048 + 1 + 1 + 1 rounds to 2048 step by step but
     * to 2052 (the float16 nearest 2051) when summed in float first, as upstream does */
    uint16_t self[1], src[3];
    self[0] = tn_f32_to_f16(2048);
    for (int i = 0; i < 3; i++)
        src[i] = tn_f32_to_f16(1);
    int64_t index[3] = {0, 0, 0};
    tn_loop l = outer_loop(3, 3, 0, 1, 1);
    cr_assert_eq(tn_scatter_add(TN_DTYPE_F16, &l, 1, 1, self, src, index), TN_OK);
    cr_expect_eq(tn_f16_to_f32(self[0]), 2052.0f);
}

Test(scatter, amax_propagates_nan_and_assign_takes_last)
{
    float self[2] = {1, 1}, src[3] = {NAN, 5, 7};
    int64_t index[3] = {0, 0, 1};
    tn_loop l = outer_loop(3, 3, 0, 1, 1);
    cr_assert_eq(tn_scatter(TN_DTYPE_F32, TN_SCATTER_AMAX, &l, 2, 1, self, src, index, 1), TN_OK);
    cr_expect(isnan(self[0]));
    cr_expect_eq(self[1], 7.0f);
    cr_assert_eq(tn_scatter(TN_DTYPE_F32, TN_SCATTER_ASSIGN, &l, 2, 1, self, src, index, 1), TN_OK);
    cr_expect_eq(self[0], 5.0f, "last write along the dim wins");
    int64_t bad[3] = {0, 2, 0};
    cr_expect_eq(tn_scatter(TN_DTYPE_F32, TN_SCATTER_SUM, &l, 2, 1, self, src, bad, 1), TN_ERR_VALUE);
}

// index_put

Test(index_put, accumulate_and_bounds)
{
    double self[4] = {0, 0, 0, 0}, vals[5] = {1, 2, 3, 4, 5};
    int64_t off[5] = {1, 3, 1, 0, 1};
    cr_assert_eq(tn_index_put(TN_DTYPE_F64, 5, off, vals, 1, self, 1, 0, 3), TN_OK);
    cr_expect_eq(self[1], 9.0);
    cr_expect_eq(self[3], 2.0);
    cr_expect_eq(self[0], 4.0);
    cr_assert_eq(tn_index_put(TN_DTYPE_F64, 5, off, vals, 1, self, 0, 0, 3), TN_OK);
    cr_expect_eq(self[1], 5.0, "in order: the last value wins");
    int64_t bad[2] = {0, 4};
    cr_expect_eq(tn_index_put(TN_DTYPE_F64, 2, bad, vals, 1, self, 0, 0, 3), TN_ERR_VALUE);
    cr_expect_eq(self[0], 4.0, "nothing written");
}

// masked_select / nonzero

Test(masked_select, broadcast_mask_row_major)
{
    float in[6] = {1, 2, 3, 4, 5, 6}, out[6];
    uint8_t mask[3] = {1, 0, 1};  /* broadcast over 2 rows */
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.ndim = 2;
    l.noperands = 2;
    l.sizes[0] = 2;
    l.sizes[1] = 3;
    l.strides[0][0] = 0;
    l.strides[0][1] = 1;
    l.strides[1][0] = 3;
    l.strides[1][1] = 1;
    int64_t count;
    cr_assert_eq(tn_masked_count(TN_DTYPE_BOOL, &l, mask, &count), TN_OK);
    cr_assert_eq(count, 4);
    cr_assert_eq(tn_masked_select(TN_DTYPE_F32, TN_DTYPE_BOOL, &l, mask, in, out, count), TN_OK);
    float want[4] = {1, 3, 4, 6};
    for (int i = 0; i < 4; i++)
        cr_expect_eq(out[i], want[i]);
    cr_expect_eq(tn_masked_select(TN_DTYPE_F32, TN_DTYPE_BOOL, &l, mask, in, out, 3), TN_ERR_VALUE,
                 "count mismatch is refused");
}

Test(nonzero, row_major_coordinates_noncontiguous_every_dtype)
{
    char in[8 * 24];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        for (int i = 0; i < 24; i++)
            put_elem(dt, in, i, i % 4 == 1 ? 0 : val(dt, i) == 0 ? 1 : val(dt, i));
        /* view (2, 3, 4) transposed to (4, 3, 2) */
        int64_t sizes[3] = {4, 3, 2}, strides[3] = {1, 4, 12}, count;
        cr_assert_eq(tn_nonzero_count(dt, 3, sizes, strides, in, &count), TN_OK);
        int64_t coords[24 * 3];
        cr_assert_eq(tn_nonzero(dt, 3, sizes, strides, in, coords, count), TN_OK);
        int64_t k = 0;
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 3; b++)
                for (int c = 0; c < 2; c++) {
                    if (get_elem(dt, in, a + b * 4 + c * 12) == 0)
                        continue;
                    cr_assert_lt(k, count);
                    cr_expect(coords[k * 3] == a && coords[k * 3 + 1] == b && coords[k * 3 + 2] == c,
                              "dtype %d entry %ld", dt, (long)k);
                    k++;
                }
        cr_expect_eq(k, count);
    }
}

Test(nonzero, nan_is_nonzero_negative_zero_is_zero)
{
    float x[4] = {0, NAN, -0.0f, 2};
    int64_t n = 4, s = 1, count, coords[4];
    cr_assert_eq(tn_nonzero_count(TN_DTYPE_F32, 1, &n, &s, x, &count), TN_OK);
    cr_assert_eq(count, 2);
    cr_assert_eq(tn_nonzero(TN_DTYPE_F32, 1, &n, &s, x, coords, count), TN_OK);
    cr_expect_eq(coords[0], 1);
    cr_expect_eq(coords[1], 3);
}

// tril / triu

Test(tril_triu, diagonals_batched_and_in_place)
{
    static const int64_t diags[] = {-7, -2, 0, 1, 3, 8};
    char in[8 * 90], out[8 * 90];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        for (int i = 0; i < 90; i++)
            put_elem(dt, in, i, val(dt, i) == 0 ? 1 : val(dt, i));
        for (int upper = 0; upper < 2; upper++) {
            for (size_t k = 0; k < sizeof diags / sizeof diags[0]; k++) {
                tn_loop b = outer_loop(2, 3, 30, 30, 0);
                cr_assert_eq(tn_tril_triu(dt, upper, diags[k], &b, 5, 6, 6, 1, 6, 1, out, in), TN_OK);
                for (int m = 0; m < 3; m++)
                    for (int i = 0; i < 5; i++)
                        for (int j = 0; j < 6; j++) {
                            int keep = upper ? j - i >= diags[k] : j - i <= diags[k];
                            double want = keep ? get_elem(dt, in, m * 30 + i * 6 + j) : 0;
                            cr_expect_eq(get_elem(dt, out, m * 30 + i * 6 + j), want,
                                         "dtype %d upper %d diag %ld", dt, upper, (long)diags[k]);
                        }
            }
        }
    }
    /* in place */
    float x[4] = {1, 2, 3, 4};
    tn_loop b;
    memset(&b, 0, sizeof b);
    b.noperands = 2;
    cr_assert_eq(tn_tril_triu(TN_DTYPE_F32, 1, 0, &b, 2, 2, 2, 1, 2, 1, x, x), TN_OK);
    cr_expect(x[0] == 1 && x[1] == 2 && x[2] == 0 && x[3] == 4);
}
