/* Criterion tests for kernels/sort.c: sort/argsort, topk, kthvalue, searchsorted.
 * Sweeps compare with the scalar references exported by sort.c (tn_sort_ref, tn_topk_ref);
 * tie orders are checked against index lists torch 2.13 produced for the same inputs.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/sort.h"
#include "tests/kernels/helpers.h"

/* keys with many ties: (i * 7) % 3 */
static void
ties(float *x, int n)
{
    for (int i = 0; i < n; i++)
        x[i] = (float)((i * 7) % 3);
}

// sort

Test(sort, unstable_tie_order_matches_upstream)
{
    static const int64_t asc[40] = {0, 21, 18, 24, 15, 27, 12, 30, 9, 33, 6, 36, 3, 39, 31, 34,
                                    28, 37, 25, 22, 1, 19, 16, 4, 13, 7, 10, 2, 20, 38, 5, 35,
                                    8, 32, 11, 29, 14, 26, 17, 23};
    static const int64_t desc[40] = {29, 20, 17, 23, 14, 26, 11, 8, 32, 5, 35, 2, 38, 31, 1, 34,
                                     28, 25, 37, 22, 16, 13, 4, 10, 19, 7, 30, 39, 0, 3, 36, 6,
                                     33, 9, 12, 27, 15, 24, 18, 21};
    float x[40], v[40];
    int64_t idx[40];
    ties(x, 40);
    tn_loop l = outer_loop(3, 0, 0, 0, 0);
    cr_assert_eq(tn_sort(TN_DTYPE_F32, &l, 40, 1, 1, 1, v, idx, x, 0, 0), TN_OK);
    for (int i = 0; i < 40; i++)
        cr_expect_eq(idx[i], asc[i], "asc %d", i);
    cr_assert_eq(tn_sort(TN_DTYPE_F32, &l, 40, 1, 1, 1, v, idx, x, 1, 0), TN_OK);
    for (int i = 0; i < 40; i++)
        cr_expect_eq(idx[i], desc[i], "desc %d", i);
}

Test(sort, stable_dtype_sweep_vs_reference)
{
    static const int64_t sizes[] = {0, 1, 7, 16, 17, 33, 1000};
    char in[8 * 3000], v[8 * 3000], rv[8 * 3000];
    int64_t idx[3000], ridx[3000];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        size_t es = (size_t)tn_dtype_size(dt);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int64_t n = sizes[k];
            /* 3 lines, dim strided by 3 (the transposed layout) */
            for (int64_t i = 0; i < 3 * n; i++)
                put_elem(dt, in, i, (double)((i * 37) % 11) - 5);
            tn_loop l = outer_loop(3, 3, n, n, 1);
            for (int desc = 0; desc < 2; desc++) {
                cr_assert_eq(tn_sort(dt, &l, n, 3, 1, 1, v, idx, in, desc, 1), TN_OK);
                cr_assert_eq(tn_sort_ref(dt, &l, n, 3, 1, 1, rv, ridx, in, desc), TN_OK);
                cr_expect(memcmp(idx, ridx, sizeof(int64_t) * (size_t)(3 * n)) == 0,
                          "dtype %d n %ld desc %d", dt, (long)n, desc);
                cr_expect(memcmp(v, rv, es * (size_t)(3 * n)) == 0);
            }
        }
    }
}

Test(sort, unstable_sorts_correctly_every_dtype)
{
    char in[8 * 2000], v[8 * 2000], rv[8 * 2000];
    int64_t idx[2000], ridx[2000];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        size_t es = (size_t)tn_dtype_size(dt);
        int64_t n = 2000;
        for (int64_t i = 0; i < n; i++)
            put_elem(dt, in, i, (double)((i * 37) % 11) - 5);
        tn_loop l = outer_loop(3, 0, 0, 0, 0);
        cr_assert_eq(tn_sort(dt, &l, n, 1, 1, 1, v, idx, in, 0, 0), TN_OK);
        cr_assert_eq(tn_sort_ref(dt, &l, n, 1, 1, 1, rv, ridx, in, 0), TN_OK);
        /* the same sorted values; indices a permutation pointing at them */
        cr_expect(memcmp(v, rv, es * (size_t)n) == 0, "dtype %d", dt);
        char seen[2000] = {0};
        for (int64_t i = 0; i < n; i++) {
            cr_assert(idx[i] >= 0 && idx[i] < n && !seen[idx[i]]);
            seen[idx[i]] = 1;
            cr_expect(memcmp(v + (size_t)i * es, in + (size_t)idx[i] * es, es) == 0);
        }
    }
}

Test(sort, nan_sorts_last_ascending_first_descending)
{
    float x[5] = {2, NAN, -1, NAN, 0}, v[5];
    int64_t idx[5];
    tn_loop l = outer_loop(3, 0, 0, 0, 0);
    cr_assert_eq(tn_sort(TN_DTYPE_F32, &l, 5, 1, 1, 1, v, idx, x, 0, 1), TN_OK);
    cr_expect_eq(idx[0], 2);
    cr_expect_eq(idx[2], 0);
    cr_expect_eq(idx[3], 1);
    cr_expect_eq(idx[4], 3);
    cr_assert_eq(tn_sort(TN_DTYPE_F32, &l, 5, 1, 1, 1, NULL, idx, x, 1, 1), TN_OK);
    cr_expect_eq(idx[0], 1, "argsort: NaN first descending");
    cr_expect_eq(idx[1], 3);
    cr_expect_eq(idx[4], 2);
}

/* uint16..uint64 sort by value (uint64 past 2**63 too); topk and kthvalue refuse them, as upstream */
Test(sort, unsigned_wide_by_value_vs_reference)
{
    static const int dts[3] = {TN_DTYPE_U16, TN_DTYPE_U32, TN_DTYPE_U64};
    static const uint64_t tops[3] = {UINT16_MAX, UINT32_MAX, UINT64_MAX};
    uint64_t in[300], v[300], rv[300];
    int64_t idx[300], ridx[300];
    for (int d = 0; d < 3; d++) {
        int dt = dts[d];
        size_t es = (size_t)tn_dtype_size(dt);
        for (int64_t i = 0; i < 300; i++) {
            uint64_t x = (uint64_t)((i * 37) % 11) * (tops[d] / 10);  /* ties, and the top half */
            if (es == 2)
                ((uint16_t *)in)[i] = (uint16_t)x;
            else if (es == 4)
                ((uint32_t *)in)[i] = (uint32_t)x;
            else
                in[i] = x;
        }
        tn_loop l = outer_loop(3, 0, 0, 0, 0);
        for (int desc = 0; desc < 2; desc++) {
            cr_assert_eq(tn_sort(dt, &l, 300, 1, 1, 1, v, idx, in, desc, 1), TN_OK);
            cr_assert_eq(tn_sort_ref(dt, &l, 300, 1, 1, 1, rv, ridx, in, desc), TN_OK);
            cr_expect(memcmp(idx, ridx, sizeof idx) == 0, "dtype %d desc %d", dt, desc);
            cr_expect(memcmp(v, rv, es * 300) == 0);
            cr_assert_eq(tn_sort(dt, &l, 300, 1, 1, 1, NULL, idx, in, desc, 0), TN_OK);
            for (int64_t i = 1; i < 300; i++) {
                uint64_t a = es == 2 ? ((uint16_t *)in)[idx[i - 1]] : es == 4 ? ((uint32_t *)in)[idx[i - 1]] : in[idx[i - 1]];
                uint64_t b = es == 2 ? ((uint16_t *)in)[idx[i]] : es == 4 ? ((uint32_t *)in)[idx[i]] : in[idx[i]];
                cr_expect(desc ? a >= b : a <= b, "dtype %d desc %d at %ld", dt, desc, (long)i);
            }
        }
        cr_expect_eq(tn_topk(dt, &l, 300, 2, 1, 1, 1, 1, 1, v, idx, in), TN_ERR_DTYPE);
    }
}

Test(sort, unsupported_dtype_returns_status)
{
    float x[2] = {0}, v[2];
    int64_t idx[2];
    tn_loop l = outer_loop(3, 0, 0, 0, 0);
    cr_expect_eq(tn_sort(TN_DTYPE_C64, &l, 2, 1, 1, 1, v, idx, x, 0, 0), TN_ERR_DTYPE);
    cr_expect_eq(tn_topk(TN_DTYPE_BOOL, &l, 2, 1, 1, 1, 1, 1, 1, v, idx, x), TN_ERR_DTYPE);
    cr_expect_eq(tn_topk(TN_DTYPE_F32, &l, 2, 3, 1, 1, 1, 1, 1, v, idx, x), TN_ERR_VALUE, "k > n");
}

// topk

Test(topk, tie_order_matches_upstream)
{
    static const int64_t big[5] = {14, 8, 11, 26, 17}, small[5] = {30, 27, 12, 15, 9};
    static const int64_t k3_300[3] = {8, 5, 2};
    static const int64_t k200_300[10] = {218, 104, 197, 101, 200, 98, 203, 95, 206, 92};
    float x[300], v[300];
    int64_t idx[300];
    ties(x, 300);
    tn_loop l = outer_loop(3, 0, 0, 0, 0);
    /* k * 64 > n: nth_element then sort */
    cr_assert_eq(tn_topk(TN_DTYPE_F32, &l, 40, 5, 1, 1, 1, 1, 1, v, idx, x), TN_OK);
    for (int i = 0; i < 5; i++)
        cr_expect_eq(idx[i], big[i], "largest %d", i);
    cr_assert_eq(tn_topk(TN_DTYPE_F32, &l, 40, 5, 0, 1, 1, 1, 1, v, idx, x), TN_OK);
    for (int i = 0; i < 5; i++)
        cr_expect_eq(idx[i], small[i], "smallest %d", i);
    /* k * 64 <= n: partial sort */
    cr_assert_eq(tn_topk(TN_DTYPE_F32, &l, 300, 3, 1, 1, 1, 1, 1, v, idx, x), TN_OK);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(idx[i], k3_300[i], "partial %d", i);
    cr_assert_eq(tn_topk(TN_DTYPE_F32, &l, 300, 200, 1, 1, 1, 1, 1, v, idx, x), TN_OK);
    for (int i = 0; i < 10; i++)
        cr_expect_eq(idx[i], k200_300[i], "k=200 %d", i);
}

// kthvalue

Test(kthvalue, tie_order_matches_upstream)
{
    /* torch 2.13's torch.kthvalue(x, k).indices for k = 1..40, then with NaN at 5 and 17 */
    static const int64_t want[40] = {30, 24, 18, 21, 12, 27, 33, 39, 36, 15, 0, 3, 9, 6, 31, 4,
                                     28, 34, 37, 25, 10, 19, 22, 1, 7, 16, 13, 14, 35, 17, 38, 2,
                                     23, 5, 26, 20, 32, 29, 8, 11};
    static const int64_t nan_k[5] = {1, 20, 38, 39, 40}, nan_want[5] = {30, 25, 26, 5, 17};
    float x[40], v;
    int64_t idx;
    ties(x, 40);
    tn_loop l = outer_loop(3, 0, 0, 0, 0);
    for (int k = 1; k <= 40; k++) {
        cr_assert_eq(tn_kthvalue(TN_DTYPE_F32, &l, 40, k, 1, &v, &idx, x), TN_OK);
        cr_expect_eq(idx, want[k - 1], "k=%d", k);
        cr_expect_eq(v, x[want[k - 1]], "k=%d", k);
    }
    x[5] = x[17] = NAN;
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(tn_kthvalue(TN_DTYPE_F32, &l, 40, nan_k[i], 1, &v, &idx, x), TN_OK);
        cr_expect_eq(idx, nan_want[i], "nan k=%lld", (long long)nan_k[i]);
    }
}

Test(kthvalue, every_dtype_gives_the_sorted_kth_value)
{
    char in[8 * 33], sv[8 * 33], v[8];
    int64_t sidx[33], idx;
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        if (dt == TN_DTYPE_BOOL) {
            tn_loop l = outer_loop(3, 0, 0, 0, 0);
            cr_expect_eq(tn_kthvalue(dt, &l, 33, 1, 1, v, &idx, in), TN_ERR_DTYPE);
            continue;
        }
        for (int64_t i = 0; i < 33; i++)
            put_elem(dt, in, i, (double)((i * 37) % 11) - (dt == TN_DTYPE_U8 ? 0 : 5));
        tn_loop l = outer_loop(3, 0, 0, 0, 0);
        cr_assert_eq(tn_sort_ref(dt, &l, 33, 1, 1, 1, sv, sidx, in, 0), TN_OK);
        for (int64_t k = 1; k <= 33; k++) {
            cr_assert_eq(tn_kthvalue(dt, &l, 33, k, 1, v, &idx, in), TN_OK);
            cr_expect_eq(get_elem(dt, v, 0), get_elem(dt, sv, k - 1), "dtype %d k=%lld", dt, (long long)k);
            cr_expect_eq(get_elem(dt, in, idx), get_elem(dt, sv, k - 1), "dtype %d k=%lld index", dt, (long long)k);
        }
        cr_expect_eq(tn_kthvalue(dt, &l, 33, 0, 1, v, &idx, in), TN_ERR_VALUE);
        cr_expect_eq(tn_kthvalue(dt, &l, 33, 34, 1, v, &idx, in), TN_ERR_VALUE);
    }
}

// mode

Test(mode, tie_order_matches_upstream)
{
    /* torch 2.13's torch.mode(x).indices for x[i] = (i * 7) % 3 (0.0 wins every line, its copies
     * placed by std::sort), then with NaN at 1, 4 and 9 % n (each NaN a run of its own), then int16 */
    static const int64_t ns[5] = {5, 17, 33, 40, 100};
    static const int64_t want[5] = {3, 9, 3, 39, 90}, nan_want[5] = {0, 12, 12, 39, 60};
    float x[100], v;
    int16_t xi[100], vi;
    int64_t idx;
    tn_loop l = outer_loop(3, 0, 0, 0, 0);
    for (int c = 0; c < 5; c++) {
        int n = (int)ns[c];
        ties(x, n);
        for (int i = 0; i < n; i++)
            xi[i] = (int16_t)x[i];
        cr_assert_eq(tn_mode(TN_DTYPE_F32, &l, n, 1, &v, &idx, x), TN_OK);
        cr_expect(idx == want[c] && v == 0.0f, "n=%d: %lld", n, (long long)idx);
        cr_assert_eq(tn_mode(TN_DTYPE_I16, &l, n, 1, &vi, &idx, xi), TN_OK);
        cr_expect(idx == want[c] && vi == 0, "int16 n=%d: %lld", n, (long long)idx);
        x[1] = x[4] = x[9 % n] = NAN;
        cr_assert_eq(tn_mode(TN_DTYPE_F32, &l, n, 1, &v, &idx, x), TN_OK);
        cr_expect(idx == nan_want[c] && v == 0.0f, "nan n=%d: %lld", n, (long long)idx);
    }
}

Test(topk, dtype_sweep_values_vs_reference)
{
    static const int64_t ks[] = {0, 1, 3, 10, 64};
    char in[8 * 640], v[8 * 64], rv[8 * 64];
    int64_t idx[64], ridx[64];
    for (int d = 1; d < NUM_DTYPES; d++) {  /* no bool */
        int dt = all_dtypes[d];
        size_t es = (size_t)tn_dtype_size(dt);
        int64_t n = 640;
        for (int64_t i = 0; i < n; i++)
            put_elem(dt, in, i, (double)((i * 37) % 101) - 50);
        tn_loop l = outer_loop(3, 0, 0, 0, 0);
        for (size_t kk = 0; kk < sizeof ks / sizeof ks[0]; kk++) {
            int64_t k = ks[kk];
            for (int largest = 0; largest < 2; largest++) {
                cr_assert_eq(tn_topk(dt, &l, n, k, largest, 1, 1, 1, 1, v, idx, in), TN_OK);
                cr_assert_eq(tn_topk_ref(dt, &l, n, k, largest, 1, 1, 1, rv, ridx, in), TN_OK);
                cr_expect(memcmp(v, rv, es * (size_t)k) == 0, "dtype %d k %ld largest %d", dt,
                          (long)k, largest);
                for (int64_t i = 0; i < k; i++)
                    cr_expect(memcmp(v + (size_t)i * es, in + (size_t)idx[i] * es, es) == 0);
            }
        }
    }
}

Test(topk, nan_counts_as_largest)
{
    float x[6] = {1, NAN, 5, 3, NAN, 4}, v[2];
    int64_t idx[2];
    tn_loop l = outer_loop(3, 0, 0, 0, 0);
    cr_assert_eq(tn_topk(TN_DTYPE_F32, &l, 6, 2, 1, 1, 1, 1, 1, v, idx, x), TN_OK);
    cr_expect(isnan(v[0]) && isnan(v[1]));
    cr_assert_eq(tn_topk(TN_DTYPE_F32, &l, 6, 2, 0, 1, 1, 1, 1, v, idx, x), TN_OK);
    cr_expect_eq(v[0], 1.0f);
    cr_expect_eq(v[1], 3.0f);
}

// searchsorted

Test(searchsorted, left_right_nan_and_sorter)
{
    float bd[6] = {1, 2, 2, 3, 5, NAN}, vals[5] = {0, 2, 4, 9, NAN};
    int64_t out[5];
    tn_loop l = outer_loop(3, 5, 1, 1, 0);
    cr_assert_eq(tn_searchsorted(TN_DTYPE_F32, &l, 6, 1, bd, vals, NULL, 0, 0, 0, out), TN_OK);
    int64_t left[5] = {0, 1, 6, 6, 6};  /* upstream: a NaN boundary derails the bisection */
    for (int i = 0; i < 5; i++)
        cr_expect_eq(out[i], left[i], "left %d", i);
    cr_assert_eq(tn_searchsorted(TN_DTYPE_F32, &l, 6, 1, bd, vals, NULL, 0, 1, 0, out), TN_OK);
    int64_t right[5] = {0, 3, 6, 6, 6};
    for (int i = 0; i < 5; i++)
        cr_expect_eq(out[i], right[i], "right %d", i);
    /* unsorted boundaries with a sorter; int32 output */
    int32_t ub[4] = {30, 10, 40, 20}, uv[2] = {25, 10}, o32[2];
    int64_t sorter[4] = {1, 3, 0, 2};
    l.sizes[0] = 2;
    l.noperands = 4;
    l.strides[3][0] = 0;
    cr_assert_eq(tn_searchsorted(TN_DTYPE_I32, &l, 4, 1, ub, uv, sorter, 1, 0, 1, o32), TN_OK);
    cr_expect_eq(o32[0], 2);
    cr_expect_eq(o32[1], 0);
}
