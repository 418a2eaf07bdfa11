/* Criterion tests for kernels/compare.c: isclose (and its allclose form) and equal over every
 * kernel dtype, NaN and signed-zero rules, zero tolerances, strided and broadcast operands, and
 * the rounding cases Note [isclose rounding] is about (expected values checked against torch
 * 2.13's torch.isclose).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "kernels/compare.h"
#include "tests/kernels/helpers.h"

/* a 1-dim loop of n elements over out, a, b with the given element strides */
static tn_loop
line(int64_t n, int64_t so, int64_t sa, int64_t sb)
{
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.noperands = 3;
    l.ndim = 1;
    l.sizes[0] = n;
    l.strides[0][0] = so;
    l.strides[1][0] = sa;
    l.strides[2][0] = sb;
    return l;
}

static tn_isclose_params
params(int dt, double rtol, double atol, bool equal_nan)
{
    return (tn_isclose_params){dt, TN_DTYPE_F32, rtol, atol, equal_nan};
}

// isclose

Test(isclose, equal_elements_are_close_in_every_dtype)
{
    char a[8 * 16], b[8 * 16];
    uint8_t out[16];
    for (int d = 0; d < NUM_DTYPES; d++) {
        int dt = all_dtypes[d];
        for (int i = 0; i < 16; i++) {
            put_elem(dt, a, i, dt == TN_DTYPE_BOOL ? i % 2 : (double)(i % 7) - 3);
            put_elem(dt, b, i, dt == TN_DTYPE_BOOL ? i % 2 : (double)(i % 7) - 3);
        }
        tn_loop l = line(16, 1, 1, 1);
        tn_isclose_params p = params(dt, 1e-5, 1e-8, false);
        bool all = false;
        cr_assert_eq(tn_isclose(&l, &p, out, a, b, &all), TN_OK);
        cr_expect(all, "dtype %d", dt);
        for (int i = 0; i < 16; i++)
            cr_expect_eq(out[i], 1, "dtype %d element %d", dt, i);
    }
}

Test(isclose, nan_needs_equal_nan_and_zero_tolerances_mean_equality)
{
    float a[4] = {NAN, 1.0f, 0.0f, INFINITY}, b[4] = {NAN, 1.0f + 1e-7f, -0.0f, INFINITY};
    uint8_t out[4];
    tn_loop l = line(4, 1, 1, 1);
    tn_isclose_params p = params(TN_DTYPE_F32, 1e-5, 1e-8, false);
    cr_assert_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_OK);
    cr_expect(out[0] == 0 && out[1] == 1 && out[2] == 1 && out[3] == 1);
    p.equal_nan = true;
    cr_assert_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_OK);
    cr_expect_eq(out[0], 1);
    p = params(TN_DTYPE_F32, 0.0, 0.0, false);
    cr_assert_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_OK);
    cr_expect(out[0] == 0 && out[1] == 0 && out[2] == 1 && out[3] == 1);
}

Test(isclose, infinities_of_opposite_sign_are_not_close)
{
    double a[2] = {INFINITY, -INFINITY}, b[2] = {-INFINITY, 1e308};
    uint8_t out[2];
    tn_loop l = line(2, 1, 1, 1);
    tn_isclose_params p = params(TN_DTYPE_F64, 1.0, 1e300, false);
    cr_assert_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_OK);
    cr_expect(out[0] == 0 && out[1] == 0);
}

Test(isclose, bfloat16_rounds_every_step)
{
    /* torch.isclose(tensor([1e-8], bf16), tensor([0.], bf16)) is True: atol 1e-8 is added in
     * float and the sum rounded to bf16 before the comparison (unrounded it is False) */
    uint16_t a[1] = {tn_f32_to_bf16(1e-8f)}, b[1] = {tn_f32_to_bf16(0.0f)};
    uint8_t out[1];
    tn_loop l = line(1, 1, 1, 1);
    tn_isclose_params p = params(TN_DTYPE_BF16, 1e-5, 1e-8, false);
    cr_assert_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_OK);
    cr_expect_eq(out[0], 1);
}

Test(isclose, integers_compare_in_the_default_dtype)
{
    /* |100000 - 100001| = 1 <= 1e-8 + 1e-5 * 100001 */
    int32_t a[2] = {100000, 0}, b[2] = {100001, 1};
    uint8_t out[2];
    tn_loop l = line(2, 1, 1, 1);
    tn_isclose_params p = params(TN_DTYPE_I32, 1e-5, 1e-8, false);
    cr_assert_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_OK);
    cr_expect(out[0] == 1 && out[1] == 0);
}

Test(isclose, strided_and_broadcast_operands)
{
    float a[8] = {1, 9, 2, 9, 3, 9, 4, 9}, b[1] = {2};
    uint8_t out[4];
    tn_loop l = line(4, 1, 2, 0);
    tn_isclose_params p = params(TN_DTYPE_F32, 0.0, 0.5, false);
    cr_assert_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_OK);
    cr_expect(out[0] == 0 && out[1] == 1 && out[2] == 0 && out[3] == 0);
}

Test(isclose, allclose_form_stops_at_the_first_far_element)
{
    float a[3] = {1, 5, NAN}, b[3] = {1, 1, 1};
    tn_loop l = line(3, 0, 1, 1);
    tn_isclose_params p = params(TN_DTYPE_F32, 1e-5, 1e-8, false);
    bool all = true;
    cr_assert_eq(tn_isclose(&l, &p, NULL, a, b, &all), TN_OK);
    cr_expect(!all);
}

Test(isclose, refuses_dtypes_without_a_loop)
{
    char a[8], b[8];
    uint8_t out[1];
    tn_loop l = line(1, 1, 1, 1);
    tn_isclose_params p = params(TN_DTYPE_QINT8, 1e-5, 1e-8, false);
    cr_expect_eq(tn_isclose(&l, &p, out, a, b, NULL), TN_ERR_DTYPE);
}

// equal

Test(equal, ieee_rules)
{
    double a[3] = {0.0, 1.0, NAN}, b[3] = {-0.0, 1.0, NAN};
    tn_loop l = line(2, 0, 1, 1);
    bool r = false;
    cr_assert_eq(tn_equal(&l, TN_DTYPE_F64, a, b, &r), TN_OK);
    cr_expect(r);
    l = line(3, 0, 1, 1);
    cr_assert_eq(tn_equal(&l, TN_DTYPE_F64, a, b, &r), TN_OK);
    cr_expect(!r);
}

Test(equal, wide_unsigned_compare_whole_values)
{
    uint64_t a[1] = {(1ull << 63) + 5}, b[1] = {(1ull << 63) + 4};
    tn_loop l = line(1, 0, 1, 1);
    bool r = true;
    cr_assert_eq(tn_equal(&l, TN_DTYPE_U64, a, b, &r), TN_OK);
    cr_expect(!r);
}

Test(equal, any_nan_sees_complex_parts)
{
    float c[4] = {1, 2, 3, NAN};
    tn_loop l = line(2, 0, 1, 0);
    bool r = false;
    cr_assert_eq(tn_any_nan(&l, TN_DTYPE_C64, c, &r), TN_OK);
    cr_expect(r);
    int32_t i[2] = {1, 2};
    cr_assert_eq(tn_any_nan(&l, TN_DTYPE_I32, i, &r), TN_OK);
    cr_expect(!r);
}
