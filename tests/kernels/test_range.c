/* Criterion tests for kernels/range.c: logspace and linspace give the same elements however the
 * length is split into chunks (each chunk restarts from its own first index), against a plain
 * reference loop of the real dtypes, and the values Note [logspace values] names (checked
 * against torch 2.13's torch.logspace).
 */
#include <complex.h>
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "kernels/range.h"
#include "tests/kernels/helpers.h"

static const int RANGE_DTYPES[] = {TN_DTYPE_U8, TN_DTYPE_I8, TN_DTYPE_I16, TN_DTYPE_I32, TN_DTYPE_I64, TN_DTYPE_F16,
                                   TN_DTYPE_BF16, TN_DTYPE_F32, TN_DTYPE_F64, TN_DTYPE_C64, TN_DTYPE_C128};
enum { NRANGE = sizeof RANGE_DTYPES / sizeof RANGE_DTYPES[0], N = 1001 };

static tn_range_args
args(int dt, void *out)
{
    /* start and end as the dtype holds them: integers truncated, the rest exact here */
    return (tn_range_args){.dtype = dt, .steps = N, .out = out, .base = 2.5, .s_re = -1.5, .s_im = 0.25,
                           .e_re = 3.0, .e_im = -0.5, .is = -1, .ie = 3};
}

static void
chunks_equal_whole(tn_status (*fill)(const tn_range_args *, int64_t, int64_t), int dt)
{
    static char whole[N * 16], split[N * 16];
    memset(whole, 0, sizeof whole);
    memset(split, 0, sizeof split);
    tn_range_args a = args(dt, whole), b = args(dt, split);
    cr_assert_eq(fill(&a, 0, N), TN_OK);
    /* uneven chunks, one of them straddling the halfway point (500) */
    const int64_t cuts[] = {0, 1, 7, 333, 499, 501, 777, N};
    for (int k = 0; k + 1 < (int)(sizeof cuts / sizeof cuts[0]); k++)
        cr_assert_eq(fill(&b, cuts[k], cuts[k + 1]), TN_OK);
    cr_assert(!memcmp(whole, split, (size_t)N * (size_t)tn_dtype_size(dt)), "dtype %d", dt);
}

// logspace

Test(logspace, chunks_give_the_whole_fill_in_every_dtype)
{
    for (int d = 0; d < NRANGE; d++)
        chunks_equal_whole(tn_logspace, RANGE_DTYPES[d]);
}

Test(logspace, float64_is_pow_of_the_two_halves)
{
    static double out[N];
    tn_range_args a = args(TN_DTYPE_F64, out);
    tn_logspace(&a, 0, N);
    double step = (3.0 - -1.5) / (N - 1);
    for (int64_t i = 0; i < N; i++) {
        double x = i < N / 2 ? -1.5 + step * (double)i : 3.0 - step * (double)(N - i - 1);
        cr_assert_eq(out[i], pow(2.5, x), "i %lld", (long long)i);
    }
    cr_assert_eq(out[N - 1], pow(2.5, 3.0));
}

Test(logspace, integers_store_through_int32)
{
    /* torch.logspace(0, 1, 2, base=70000.5, dtype=torch.int16) is [1, 4464]; base 3162277660.17
     * to uint8 is [1, 0] (INT32_MIN's low byte; through int64 it would be 28) */
    int16_t i16[2];
    tn_range_args a = {.dtype = TN_DTYPE_I16, .steps = 2, .out = i16, .base = 70000.5, .is = 0, .ie = 1};
    tn_logspace(&a, 0, 2);
    cr_assert(i16[0] == 1 && i16[1] == 4464);
    uint8_t u8[2];
    a = (tn_range_args){.dtype = TN_DTYPE_U8, .steps = 2, .out = u8, .base = 3162277660.17, .is = 0, .ie = 1};
    tn_logspace(&a, 0, 2);
    cr_assert(u8[0] == 1 && u8[1] == 0);
    int64_t i64[3];
    a = (tn_range_args){.dtype = TN_DTYPE_I64, .steps = 3, .out = i64, .base = -2.0, .is = 0, .ie = 1};
    tn_logspace(&a, 0, 3);
    cr_assert(i64[0] == 1 && i64[1] == INT64_MIN && i64[2] == -2);  /* (-2) ** 0.5 is NaN */
}

Test(logspace, complex64_is_cpowf)
{
    /* torch.logspace(0, 3, 4, dtype=torch.complex64)[2] is 100.00000762939453 */
    float complex out[4];
    tn_range_args a = {.dtype = TN_DTYPE_C64, .steps = 4, .out = out, .base = 10.0, .s_re = 0, .e_re = 3};
    tn_logspace(&a, 0, 4);
    cr_assert_eq(crealf(out[2]), 100.00000762939453f);
    cr_assert_eq(cimagf(out[2]), 0.0f);
}

Test(logspace, bool_has_no_fill)
{
    bool out[4];
    tn_range_args a = {.dtype = TN_DTYPE_BOOL, .steps = 4, .out = out};
    cr_assert_eq(tn_logspace(&a, 0, 4), TN_ERR_DTYPE);
}

// linspace

Test(linspace, chunks_give_the_whole_fill_in_every_dtype)
{
    for (int d = 0; d < NRANGE; d++)
        chunks_equal_whole(tn_linspace, RANGE_DTYPES[d]);
}

Test(linspace, float64_is_fma_of_the_two_halves_and_ends_exact)
{
    static double out[N];
    tn_range_args a = args(TN_DTYPE_F64, out);
    tn_linspace(&a, 0, N);
    double step = (3.0 - -1.5) / (N - 1);
    for (int64_t i = 0; i < N; i++) {
        double x = i < N / 2 ? fma(step, (double)i, -1.5) : fma(-step, (double)(N - i - 1), 3.0);
        cr_assert_eq(out[i], x, "i %lld", (long long)i);
    }
    cr_assert(out[0] == -1.5 && out[N - 1] == 3.0);
}
