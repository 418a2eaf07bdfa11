/* Criterion tests for kernels/collective.c: every (op, dtype) combine against a scalar
 * reference written here (in double / int64 / bool), over edge sizes; AVG's divide; the
 * refusals (bitwise ops on floats, AVG on integers); and a rank-order fold probe.
 * Adding an op: a case in ref_combine and a row in the supports table check.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/collective.h"
#include "tests/kernels/helpers.h"

static const int64_t sizes[] = {0, 1, 7, 8, 9, 31, 33, 1000};
static const int dtypes[] = {TN_DTYPE_U8, TN_DTYPE_I8, TN_DTYPE_I16, TN_DTYPE_I32, TN_DTYPE_I64,
                             TN_DTYPE_U16, TN_DTYPE_U32, TN_DTYPE_U64, TN_DTYPE_F16, TN_DTYPE_BF16,
                             TN_DTYPE_F32, TN_DTYPE_F64, TN_DTYPE_BOOL};
static uint64_t rng = 0x2545f4914f6cdd1dull;

static int
is_float(int d)
{
    return d == TN_DTYPE_F16 || d == TN_DTYPE_BF16 || d == TN_DTYPE_F32 || d == TN_DTYPE_F64;
}

static int
is_unsigned(int d)
{
    return d == TN_DTYPE_U8 || d == TN_DTYPE_U16 || d == TN_DTYPE_U32 || d == TN_DTYPE_U64;
}

/* element i as int64 (integers, bool) or double (floats), written without the kernels */
static int64_t
get_i(int d, const void *p, int64_t i)
{
    switch (d) {
    case TN_DTYPE_U8: case TN_DTYPE_BOOL: return ((const uint8_t *)p)[i];
    case TN_DTYPE_I8: return ((const int8_t *)p)[i];
    case TN_DTYPE_I16: return ((const int16_t *)p)[i];
    case TN_DTYPE_I32: return ((const int32_t *)p)[i];
    case TN_DTYPE_I64: return ((const int64_t *)p)[i];
    case TN_DTYPE_U16: return ((const uint16_t *)p)[i];
    case TN_DTYPE_U32: return ((const uint32_t *)p)[i];
    default: return (int64_t)((const uint64_t *)p)[i];
    }
}

static void
set_i(int d, void *p, int64_t i, int64_t v)
{
    switch (d) {
    case TN_DTYPE_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case TN_DTYPE_BOOL: ((uint8_t *)p)[i] = v != 0; break;
    case TN_DTYPE_I8: ((int8_t *)p)[i] = (int8_t)v; break;
    case TN_DTYPE_I16: ((int16_t *)p)[i] = (int16_t)v; break;
    case TN_DTYPE_I32: ((int32_t *)p)[i] = (int32_t)v; break;
    case TN_DTYPE_I64: ((int64_t *)p)[i] = v; break;
    case TN_DTYPE_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case TN_DTYPE_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    default: ((uint64_t *)p)[i] = (uint64_t)v; break;
    }
}

static double
get_f(int d, const void *p, int64_t i)
{
    switch (d) {
    case TN_DTYPE_F16: return tn_f16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_BF16: return tn_bf16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_F32: return ((const float *)p)[i];
    default: return ((const double *)p)[i];
    }
}

static void
set_f(int d, void *p, int64_t i, double v)
{
    switch (d) {
    case TN_DTYPE_F16: ((uint16_t *)p)[i] = tn_f32_to_f16((float)v); break;
    case TN_DTYPE_BF16: ((uint16_t *)p)[i] = tn_f32_to_bf16((float)v); break;
    case TN_DTYPE_F32: ((float *)p)[i] = (float)v; break;
    default: ((double *)p)[i] = v; break;
    }
}

/* One element of acc op src by the definition (float ops in float for halves and f32, one
 * rounding; integers wrap; bool: sum/max or, product/min and). */
static void
ref_combine(int op, int d, void *acc, const void *src, int64_t i)
{
    if (is_float(d)) {
        double a = get_f(d, acc, i), b = get_f(d, src, i), r;
        int wide = d == TN_DTYPE_F64;
        switch (op) {
        case TN_REDOP_SUM: case TN_REDOP_AVG: r = wide ? a + b : (double)((float)a + (float)b); break;
        case TN_REDOP_PRODUCT: r = wide ? a * b : (double)((float)a * (float)b); break;
        case TN_REDOP_MIN: r = isnan(a) ? a : isnan(b) ? b : (b < a ? b : a); break;
        default: r = isnan(a) ? a : isnan(b) ? b : (b > a ? b : a); break;
        }
        set_f(d, acc, i, r);
        return;
    }
    int64_t a = get_i(d, acc, i), b = get_i(d, src, i), r = 0;
    if (d == TN_DTYPE_BOOL) {
        int x = a != 0, y = b != 0;
        r = (op == TN_REDOP_PRODUCT || op == TN_REDOP_MIN || op == TN_REDOP_BAND) ? (x & y)
          : op == TN_REDOP_BXOR ? (x ^ y) : (x | y);
        set_i(d, acc, i, r);
        return;
    }
    int u = is_unsigned(d);
    switch (op) {
    case TN_REDOP_SUM: r = (int64_t)((uint64_t)a + (uint64_t)b); break;
    case TN_REDOP_PRODUCT: r = (int64_t)((uint64_t)a * (uint64_t)b); break;
    case TN_REDOP_MIN: r = u ? ((uint64_t)b < (uint64_t)a ? b : a) : (b < a ? b : a); break;
    case TN_REDOP_MAX: r = u ? ((uint64_t)b > (uint64_t)a ? b : a) : (b > a ? b : a); break;
    case TN_REDOP_BAND: r = a & b; break;
    case TN_REDOP_BOR: r = a | b; break;
    default: r = a ^ b; break;
    }
    set_i(d, acc, i, r);
}

static void
fill(int d, void *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = xorshift64(&rng);
        if (is_float(d)) {
            double v = r % 17 == 0 ? NAN : unit_from_bits(r) * (r % 3 == 0 ? 1000.0 : 3.0);
            set_f(d, p, i, v);
        } else {
            set_i(d, p, i, (int64_t)(r >> (r % 60)));
        }
    }
}

Test(collective, every_op_and_dtype_matches_the_reference)
{
    for (int op = TN_REDOP_SUM; op <= TN_REDOP_BXOR; op++) {
        for (size_t di = 0; di < sizeof dtypes / sizeof dtypes[0]; di++) {
            int d = dtypes[di];
            if (!tn_collective_supports(op, d))
                continue;
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                int64_t n = sizes[si], es = tn_dtype_size(d);
                char *a = malloc((size_t)(n + 1) * es), *b = malloc((size_t)(n + 1) * es);
                char *want = malloc((size_t)(n + 1) * es);
                fill(d, a, n);
                fill(d, b, n);
                memcpy(want, a, (size_t)(n * es));
                for (int64_t i = 0; i < n; i++)
                    ref_combine(op, d, want, b, i);
                cr_assert_eq(tn_collective_combine(op, d, a, b, n), TN_OK);
                cr_assert(memcmp(a, want, (size_t)(n * es)) == 0, "op %d dtype %d n %lld", op, d,
                          (long long)n);
                free(a);
                free(b);
                free(want);
            }
        }
    }
}

Test(collective, refusals_and_support_table)
{
    cr_assert(!tn_collective_supports(TN_REDOP_BAND, TN_DTYPE_F32));
    cr_assert(!tn_collective_supports(TN_REDOP_BXOR, TN_DTYPE_BF16));
    cr_assert(!tn_collective_supports(TN_REDOP_AVG, TN_DTYPE_I64));
    cr_assert(tn_collective_supports(TN_REDOP_AVG, TN_DTYPE_F16));
    cr_assert(!tn_collective_supports(TN_REDOP_SUM, TN_DTYPE_C64));
    float x = 1, y = 2;
    cr_assert_eq(tn_collective_combine(TN_REDOP_BAND, TN_DTYPE_F32, &x, &y, 1), TN_ERR_DTYPE);
    int64_t i = 4;
    cr_assert_eq(tn_collective_divide(TN_DTYPE_I64, &i, 1, 2), TN_ERR_DTYPE);
}

Test(collective, divide_rounds_once_in_float_for_halves)
{
    uint16_t h = tn_f32_to_bf16(3.0f);
    cr_assert_eq(tn_collective_divide(TN_DTYPE_BF16, &h, 1, 3), TN_OK);
    cr_assert_eq(h, tn_f32_to_bf16(3.0f / 3.0f));
    float f[2] = {1.0f, 10.0f};
    tn_collective_divide(TN_DTYPE_F32, f, 2, 3);
    cr_assert(f[0] == 1.0f / 3.0f && f[1] == 10.0f / 3.0f);
}

Test(collective, a_rank_order_fold_of_the_probe_is_one)
{
    /* ((1 + 1e8) - 1e8) + 1 = 1 in float32; (1 + 1) + (1e8 - 1e8) would be 2 */
    float rows[4] = {1.0f, 1e8f, -1e8f, 1.0f}, acc = rows[0];
    for (int k = 1; k < 4; k++)
        tn_collective_combine(TN_REDOP_SUM, TN_DTYPE_F32, &acc, &rows[k], 1);
    cr_assert_eq(acc, 1.0f);
}
