/* Criterion tests for kernels/binary.c: every op swept over dtypes x edge sizes x layouts with
 * the fast paths compared against the scalar reference loops, then hand-checked values taken
 * from torch 2.13 (upstream) for the rules that are easy to get wrong.
 * Adding an op: the sweep picks it up from the enum; add hand checks for its edge cases.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/binary.h"
#include "kernels/copy.h"
#include "kernels/cpu.h"
#include "tests/kernels/helpers.h"

/* ---- helpers ---- */

static const int64_t edge_sizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 64, 1000};
#define NUM_SIZES ((int)(sizeof edge_sizes / sizeof edge_sizes[0]))

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double
next_double(void)
{
    static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 2.5, -2.5,
                                      INFINITY, -INFINITY, NAN, 1e-30, 1e30, 0.1, 7.0, 65504.0};
    uint64_t r = xorshift64(&rng);
    if (r % 5 == 0)
        return specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
    double u = unit_from_bits(r);
    static const double scales[] = {1.0, 10.0, 1000.0, 0.01};
    return u * scales[(r >> 3) % 4];
}

/* n random elements of dtype; nonzero avoids 0 (integer division), small keeps |x| < 12. */
static void
fill_random(int dtype, void *buf, int64_t n, int nonzero, int small)
{
    for (int64_t i = 0; i < n; i++) {
        tn_kscalar s;
        if (tn_dtype_is_floating(dtype)) {
            s = dbl(next_double());
            if (nonzero && s.d == 0)
                s.d = 1;
        } else {
            int64_t v = (int64_t)xorshift64(&rng);
            if (small || xorshift64(&rng) % 2)
                v = (int64_t)(xorshift64(&rng) % 23) - 11;
            if (nonzero)
                v |= 1;  /* odd: nonzero in every width */
            s = integer(v);
        }
        tn_scalar_to_dtype(dtype, s, (char *)buf + i * tn_dtype_size(dtype));
    }
}

#define GUARD 64

typedef tn_status (*binary_call)(const tn_loop *l, void *out, void *const *in, void *arg);

/* Runs call twice (fast, reference) and compares outputs and statuses; also checks that the
 * kernel wrote nothing past the output. Returns the status of the fast run. */
/* How far the fast path may be from the reference: 0, except for silu_backward's f32 row on
 * contiguous operands, whose sigmoid comes from the AVX2 vector exp (a few ulp from glibc's
 * expf): 4 ulp, or, where its 1 + x (1 - s) cancels (near x = -1.28), 8 ulp of |dy| (1 + |x|);
 * and the rows with a SLEEF body (Note [SLEEF bodies]: atan2, hypot, pow, logaddexp, logaddexp2): 4 f32
 * ulp, 2 f64, 1 f16/bf16, or 4 epsilon absolute where logaddexp crosses 0. `tol` holds the inputs
 * for silu_backward's case (sleef set for the others), else NULL. */
typedef struct {
    const float *dy, *x;
    int sleef;
} silu_tol;

static int
close_enough(const silu_tol *tol, int dtype, const void *fast, const void *ref, int64_t i)
{
    if (elements_equal(dtype, fast, ref))
        return 1;
    if (tol && tol->sleef && tn_dtype_is_floating(dtype)) {
        int64_t ulps = dtype == TN_DTYPE_F32 ? 4 : dtype == TN_DTYPE_F64 ? 2 : 1;
        double eps = dtype == TN_DTYPE_F64 ? 0x1p-52 : dtype == TN_DTYPE_F16 ? 0x1p-10 : dtype == TN_DTYPE_BF16 ? 0x1p-7
                                                                                                    : 0x1p-23;
        double f = get_elem(dtype, fast, 0), r = get_elem(dtype, ref, 0);
        return ulp_distance(dtype, fast, ref) <= ulps || fabs(f - r) <= 4 * eps * fmax(1.0, fabs(r));
    }
    if (!tol || dtype != TN_DTYPE_F32)
        return 0;
    double f = get_elem(dtype, fast, 0), r = get_elem(dtype, ref, 0);
    double scale = fabs((double)tol->dy[i]) * (1 + fabs((double)tol->x[i]));
    return ulp_distance(dtype, fast, ref) <= 4 || fabs(f - r) <= 8 * FLT_EPSILON * scale;
}

static tn_status
compare_fast_reference(const char *what, const tn_loop *l, int out_dtype, int64_t out_n,
                       binary_call call, void *const *in, void *arg, const silu_tol *tol)
{
    int osize = tn_dtype_size(out_dtype);
    size_t bytes = (size_t)(out_n * osize) + GUARD;
    unsigned char *fast = malloc(bytes), *ref = malloc(bytes);
    memset(fast, 0xa5, bytes);
    memset(ref, 0xa5, bytes);
    tn_elementwise_set_reference(0);
    tn_status st_fast = call(l, fast, in, arg);
    tn_elementwise_set_reference(1);
    tn_status st_ref = call(l, ref, in, arg);
    tn_elementwise_set_reference(0);
    cr_assert_eq(st_fast, st_ref, "%s: status fast %d, reference %d", what, st_fast, st_ref);
    for (size_t i = (size_t)(out_n * osize); i < bytes; i++)
        cr_assert_eq(fast[i], 0xa5, "%s: wrote past the output", what);
    if (st_fast == TN_OK) {
        for (int64_t i = 0; i < out_n; i++)
            cr_assert(close_enough(tol, out_dtype, fast + i * osize, ref + i * osize, i),
                      "%s: element %ld differs between fast path and reference", what, (long)i);
    }
    free(fast);
    free(ref);
    return st_fast;
}

/* ---- sweep: every op, dtype, size, layout ---- */

typedef struct {
    tn_binary_op op;
    int dtype;
    tn_kscalar alpha;
} binary_arg;

static tn_status
call_binary(const tn_loop *l, void *out, void *const *in, void *arg)
{
    const binary_arg *b = arg;
    return tn_binary(b->op, b->dtype, l, out, in[0], in[1], b->alpha);
}

static int
out_is_bool(int op)
{
    return (op >= TN_BIN_LOGICAL_AND && op <= TN_BIN_GE);
}

static void
sweep_binary(tn_binary_op op, tn_kscalar alpha)
{
    for (int di = 0; di < NUM_DTYPES; di++) {
        int dtype = all_dtypes[di];
        int size = tn_dtype_size(dtype);
        int int_div = !tn_dtype_is_floating(dtype) &&
                      (op == TN_BIN_DIV_TRUNC || op == TN_BIN_DIV_FLOOR ||
                       op == TN_BIN_REMAINDER || op == TN_BIN_FMOD);
        int small_b = op == TN_BIN_POW || op == TN_BIN_LSHIFT || op == TN_BIN_RSHIFT;
        int out_dtype = out_is_bool(op) ? TN_DTYPE_BOOL : dtype;
        for (int si = 0; si < NUM_SIZES; si++) {
            for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
                tn_loop l;
                int64_t n = edge_sizes[si];
                int64_t in_n = make_loop(&l, layout, n, 3);
                void *a = malloc((size_t)(in_n * size) + 1), *b = malloc((size_t)(in_n * size) + 1);
                fill_random(dtype, a, in_n, 0, 0);
                fill_random(dtype, b, in_n, int_div, small_b);
                void *in[2] = {a, b};
                binary_arg arg = {op, dtype, alpha};
                char what[160];
                snprintf(what, sizeof what, "%s dtype %d n %ld %s", tn_binary_names[op], dtype,
                         (long)n, layout_names[layout]);
                int sleef = op == TN_BIN_ATAN2 || op == TN_BIN_HYPOT || op == TN_BIN_LOGADDEXP || op == TN_BIN_LOGADDEXP2 ||
                            op == TN_BIN_POW;
                silu_tol tol = {a, b, sleef};
                int vector_silu = op == TN_BIN_SILU_BACKWARD && dtype == TN_DTYPE_F32 && layout == 0;
                tn_status st = compare_fast_reference(what, &l, out_dtype, tn_loop_numel(&l),
                                                      call_binary, in, &arg, vector_silu || sleef ? &tol : NULL);
                cr_assert(st == TN_OK || st == TN_ERR_DTYPE, "%s: status %d", what, st);
                free(a);
                free(b);
            }
        }
    }
}

ParameterizedTestParameters(binary, sweep_fast_matches_reference)
{
    static int ops[TN_NUM_BINARY];
    for (int i = 0; i < TN_NUM_BINARY; i++)
        ops[i] = i;
    return cr_make_param_array(int, ops, TN_NUM_BINARY);
}

ParameterizedTest(int *op, binary, sweep_fast_matches_reference)
{
    sweep_binary((tn_binary_op)*op, integer(1));
}

Test(binary, sweep_add_sub_with_alpha)
{
    sweep_binary(TN_BIN_ADD, dbl(0.1));
    sweep_binary(TN_BIN_SUB, integer(3));
}

Test(binary, large_parallel_matches_reference)
{
    /* above the grain, so rows are split across threads at arbitrary element offsets */
    const int64_t n = 3 * TN_ELEMENTWISE_GRAIN + 17;
    static const int ops[] = {TN_BIN_ADD, TN_BIN_MUL, TN_BIN_MAXIMUM, TN_BIN_LT, TN_BIN_POW};
    static const int dtypes[] = {TN_DTYPE_F32, TN_DTYPE_BF16, TN_DTYPE_I64};
    for (int oi = 0; oi < 5; oi++) {
        for (int di = 0; di < 3; di++) {
            tn_loop l;
            make_loop(&l, LAYOUT_CONTIG, n, 3);
            int size = tn_dtype_size(dtypes[di]);
            void *a = malloc((size_t)(n * size)), *b = malloc((size_t)(n * size));
            fill_random(dtypes[di], a, n, 0, ops[oi] == TN_BIN_POW);
            fill_random(dtypes[di], b, n, 0, ops[oi] == TN_BIN_POW);
            void *in[2] = {a, b};
            binary_arg arg = {ops[oi], dtypes[di], {TN_KSCALAR_INT, 1, 0}};
            silu_tol sleef = {NULL, NULL, 1};
            compare_fast_reference("large", &l, out_is_bool(ops[oi]) ? TN_DTYPE_BOOL : dtypes[di],
                                   n, call_binary, in, &arg, ops[oi] == TN_BIN_POW ? &sleef : NULL);
            free(a);
            free(b);
        }
    }
}

/* ---- hand-checked values (expected results from torch 2.13) ---- */

static tn_loop
loop1(int64_t n, int nops)
{
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, n, nops);
    return l;
}

static const tn_kscalar one = {TN_KSCALAR_INT, 1, 0};

#define CHECK_I64(op, x, y, want)                                                         \
    do {                                                                                  \
        int64_t a_ = (x), b_ = (y), o_ = 0;                                               \
        tn_loop l_ = loop1(1, 3);                                                         \
        cr_assert_eq(tn_binary(op, TN_DTYPE_I64, &l_, &o_, &a_, &b_, one), TN_OK);        \
        cr_assert_eq(o_, (int64_t)(want), "%s(%ld, %ld) = %ld, want %ld",                 \
                     tn_binary_names[op], (long)a_, (long)b_, (long)o_, (long)(want));     \
    } while (0)

static float
f32_op(tn_binary_op op, float a, float b)
{
    float o = 0;
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_binary(op, TN_DTYPE_F32, &l, &o, &a, &b, one), TN_OK);
    return o;
}

Test(binary, integer_division_rules)
{
    CHECK_I64(TN_BIN_REMAINDER, -3, 2, 1);
    CHECK_I64(TN_BIN_REMAINDER, 3, -2, -1);
    CHECK_I64(TN_BIN_FMOD, -3, 2, -1);
    CHECK_I64(TN_BIN_DIV_FLOOR, -7, 2, -4);
    CHECK_I64(TN_BIN_DIV_TRUNC, -7, 2, -3);
    CHECK_I64(TN_BIN_DIV_FLOOR, 7, -2, -4);
    /* INT64_MIN / -1 would trap in hardware; upstream's rules give the wrapped values */
    CHECK_I64(TN_BIN_DIV_FLOOR, INT64_MIN, -1, INT64_MIN);
    CHECK_I64(TN_BIN_DIV_TRUNC, INT64_MIN, -1, INT64_MIN);
    CHECK_I64(TN_BIN_REMAINDER, INT64_MIN, -1, 0);
}

Test(binary, integer_division_by_zero_is_value_error)
{
    static const int ops[] = {TN_BIN_DIV_TRUNC, TN_BIN_DIV_FLOOR, TN_BIN_REMAINDER, TN_BIN_FMOD};
    for (int i = 0; i < 4; i++) {
        int32_t a[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, b[9] = {1, 1, 1, 1, 0, 1, 1, 1, 1}, o[9];
        tn_loop l = loop1(9, 3);
        cr_assert_eq(tn_binary(ops[i], TN_DTYPE_I32, &l, o, a, b, one), TN_ERR_VALUE,
                     "%s by zero", tn_binary_names[ops[i]]);
    }
    /* floats divide by zero the IEEE way */
    cr_assert(isinf(f32_op(TN_BIN_DIV_FLOOR, 1.0f, 0.0f)));
}

Test(binary, float_division_rules)
{
    cr_assert_eq(f32_op(TN_BIN_REMAINDER, -3.0f, 2.0f), 1.0f);
    cr_assert_eq(f32_op(TN_BIN_REMAINDER, 3.0f, -2.0f), -1.0f);
    cr_assert_eq(f32_op(TN_BIN_FMOD, -3.0f, 2.0f), -1.0f);
    cr_assert_eq(f32_op(TN_BIN_DIV_FLOOR, -7.0f, 2.0f), -4.0f);
    cr_assert_eq(f32_op(TN_BIN_DIV_TRUNC, -7.0f, 2.0f), -3.0f);
    /* a zero quotient keeps the sign of a / b */
    cr_assert(signbit(f32_op(TN_BIN_DIV_FLOOR, -0.0f, 3.0f)));
}

Test(binary, maximum_minimum_nan_and_fmax)
{
    cr_assert(isnan(f32_op(TN_BIN_MAXIMUM, NAN, 1.0f)));
    cr_assert(isnan(f32_op(TN_BIN_MINIMUM, 1.0f, NAN)));
    cr_assert_eq(f32_op(TN_BIN_FMAX, NAN, 1.0f), 1.0f);
    cr_assert_eq(f32_op(TN_BIN_FMIN, 1.0f, NAN), 1.0f);
    cr_assert_eq(f32_op(TN_BIN_MAXIMUM, -2.0f, 3.0f), 3.0f);
}

Test(binary, maximum_zero_ties_follow_vector_body_and_tail)
{
    /* upstream: maximum(-0, +0) over 19 contiguous f32 is +0 for the first 16 (vector body
     * returns b) and -0 for the last 3 (scalar tail returns a) */
    float a[19], b[19], o[19];
    for (int i = 0; i < 19; i++) {
        a[i] = -0.0f;
        b[i] = 0.0f;
    }
    tn_loop l = loop1(19, 3);
    cr_assert_eq(tn_binary(TN_BIN_MAXIMUM, TN_DTYPE_F32, &l, o, a, b, one), TN_OK);
    for (int i = 0; i < 19; i++)
        cr_assert_eq(signbit(o[i]) != 0, i >= 16, "element %d", i);
}

Test(binary, shifts)
{
    CHECK_I64(TN_BIN_LSHIFT, 1, 70, 0);
    CHECK_I64(TN_BIN_LSHIFT, 3, 2, 12);
    CHECK_I64(TN_BIN_LSHIFT, 1, -1, 0);
    CHECK_I64(TN_BIN_RSHIFT, -8, 100, -1);
    CHECK_I64(TN_BIN_RSHIFT, -8, 1, -4);
    uint8_t a = 200, b = 9, o;
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_binary(TN_BIN_RSHIFT, TN_DTYPE_U8, &l, &o, &a, &b, one), TN_OK);
    cr_assert_eq(o, 0);
}

Test(binary, integer_pow)
{
    CHECK_I64(TN_BIN_POW, 2, 10, 1024);
    CHECK_I64(TN_BIN_POW, -1, -3, -1);
    CHECK_I64(TN_BIN_POW, -1, -4, 1);
    CHECK_I64(TN_BIN_POW, 2, -1, 0);
    CHECK_I64(TN_BIN_POW, 1, -5, 1);
    CHECK_I64(TN_BIN_POW, 3, 0, 1);
}

Test(binary, add_with_alpha)
{
    int64_t a = 1, b = 2, o;
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_binary(TN_BIN_ADD, TN_DTYPE_I64, &l, &o, &a, &b, integer(3)), TN_OK);
    cr_assert_eq(o, 7);
    cr_assert_eq(tn_binary(TN_BIN_SUB, TN_DTYPE_I64, &l, &o, &a, &b, integer(3)), TN_OK);
    cr_assert_eq(o, -5);
    /* f32: upstream fuses a + alpha*b into one fma; 1 + 3 * (1/3 rounded) shows it */
    float fa = 1.0f, fb = 1.0f / 3.0f, fo;
    cr_assert_eq(tn_binary(TN_BIN_ADD, TN_DTYPE_F32, &l, &fo, &fa, &fb, integer(3)), TN_OK);
    cr_assert_eq(fo, fmaf(3.0f, fb, fa));
}

Test(binary, half_add_alpha_rounds_like_upstream_tail)
{
    /* upstream f16: 72.375 + 0.1 * -918 is -19.40625 in the vector body (one rounding) and
     * -19.375 in the scalar tail (0.1*-918 rounded to f16 first). 33 elements: 32 body, 1 tail. */
    uint16_t a[33], b[33], o[33];
    for (int i = 0; i < 33; i++) {
        a[i] = tn_f32_to_f16(72.375f);
        b[i] = tn_f32_to_f16(-918.0f);
    }
    tn_loop l = loop1(33, 3);
    tn_kscalar alpha = {TN_KSCALAR_DOUBLE, 0, 0.1};
    cr_assert_eq(tn_binary(TN_BIN_ADD, TN_DTYPE_F16, &l, o, a, b, alpha), TN_OK);
    cr_assert_eq(tn_f16_to_f32(o[0]), -19.40625f);
    cr_assert_eq(tn_f16_to_f32(o[32]), -19.375f);
}

Test(binary, bfloat16_rounds_once)
{
    /* 1 + 2^-8 is a tie between bf16 neighbours 1 and 1 + 2^-7: rounds to even (1) */
    uint16_t a = tn_f32_to_bf16(1.0f), b = tn_f32_to_bf16(0.00390625f), o;
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_binary(TN_BIN_ADD, TN_DTYPE_BF16, &l, &o, &a, &b, one), TN_OK);
    cr_assert_eq(o, 0x3f80);
}

Test(binary, bfloat16_scalar_multiplier_stays_float)
{
    /* upstream computes bf16 * 0.1 with 0.1 in f32 (not rounded to bf16): 9 * 0.1 -> 0.8984375,
     * where 9 * bf16(0.1) would give 0.90234375 */
    uint16_t a = tn_f32_to_bf16(9.0f), o;
    tn_loop l = loop1(1, 2);
    cr_assert_eq(tn_binary_scalar(TN_BIN_MUL, TN_DTYPE_BF16, &l, &o, &a,
                                  dbl(0.1), one), TN_OK);
    cr_assert_eq(tn_bf16_to_f32(o), 0.8984375f);
}

Test(binary, comparisons_and_logical_produce_bool)
{
    float a[4] = {1.0f, NAN, 2.0f, 0.0f}, b[4] = {1.0f, NAN, 3.0f, -0.0f};
    uint8_t o[4];
    tn_loop l = loop1(4, 3);
    cr_assert_eq(tn_binary(TN_BIN_EQ, TN_DTYPE_F32, &l, o, a, b, one), TN_OK);
    cr_assert(o[0] == 1 && o[1] == 0 && o[2] == 0 && o[3] == 1);
    cr_assert_eq(tn_binary(TN_BIN_NE, TN_DTYPE_F32, &l, o, a, b, one), TN_OK);
    cr_assert(o[1] == 1);
    /* NaN is truthy */
    cr_assert_eq(tn_binary(TN_BIN_LOGICAL_AND, TN_DTYPE_F32, &l, o, a, b, one), TN_OK);
    cr_assert(o[0] == 1 && o[1] == 1 && o[3] == 0);
}

Test(binary, unsupported_dtypes_return_status)
{
    float a = 1, b = 2, o;
    int64_t ia = 1, ib = 2, io;
    uint8_t ba = 1, bb = 1, bo;
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_binary(TN_BIN_BITAND, TN_DTYPE_F32, &l, &o, &a, &b, one), TN_ERR_DTYPE);
    cr_assert_eq(tn_binary(TN_BIN_DIV, TN_DTYPE_I64, &l, &io, &ia, &ib, one), TN_ERR_DTYPE);
    cr_assert_eq(tn_binary(TN_BIN_SUB, TN_DTYPE_BOOL, &l, &bo, &ba, &bb, one), TN_ERR_DTYPE);
    cr_assert_eq(tn_binary(TN_BIN_ADD, TN_DTYPE_C64, &l, &o, &a, &b, one), TN_ERR_DTYPE);
    cr_assert_eq(tn_binary(TN_BIN_ATAN2, TN_DTYPE_I32, &l, &io, &ia, &ib, one), TN_ERR_DTYPE);
}

Test(binary, nextafter_steps_in_the_dtype)
{
    /* bf16: the next value after 1 toward 2 is 1 + 2^-7, not 1 + 2^-23 rounded back */
    uint16_t a = tn_f32_to_bf16(1.0f), b = tn_f32_to_bf16(2.0f), o;
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_binary(TN_BIN_NEXTAFTER, TN_DTYPE_BF16, &l, &o, &a, &b, one), TN_OK);
    cr_assert_eq(tn_bf16_to_f32(o), 1.0078125f);
    cr_assert_eq(f32_op(TN_BIN_NEXTAFTER, 1.0f, 0.0f), nextafterf(1.0f, 0.0f));
}

Test(binary, backward_ops_hand_values)
{
    /* tanh_backward uses upstream's fused 1 - b*b */
    float g = 0.5f, y = -1.0000229f;
    cr_assert_eq(f32_op(TN_BIN_TANH_BACKWARD, g, y), g * fmaf(-y, y, 1.0f));
    cr_assert_eq(f32_op(TN_BIN_SIGMOID_BACKWARD, 2.0f, 0.25f), 2.0f * 0.75f * 0.25f);
    float a = 5.0f, b = 0.5f, o;
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_binary(TN_BIN_THRESHOLD_BACKWARD, TN_DTYPE_F32, &l, &o, &a, &b,
                           dbl(0.5)), TN_OK);
    cr_assert_eq(o, 0.0f);
}

/* ---- activation gradients with parameters ---- */

typedef struct {
    tn_act_bw_op op;
    int dtype;
    double p[3];
} act_arg;

static tn_status
call_act(const tn_loop *l, void *out, void *const *in, void *arg)
{
    const act_arg *a = arg;
    return tn_activation_backward(a->op, a->dtype, l, out, in[0], in[1], a->p);
}

ParameterizedTestParameters(binary, sweep_activation_backward)
{
    static int ops[TN_NUM_ACT_BW];
    for (int i = 0; i < TN_NUM_ACT_BW; i++)
        ops[i] = i;
    return cr_make_param_array(int, ops, TN_NUM_ACT_BW);
}

ParameterizedTest(int *op, binary, sweep_activation_backward)
{
    static const double params[TN_NUM_ACT_BW][3] = {
        [TN_ACT_BW_ELU] = {0.5, 2.0, 1.5}, [TN_ACT_BW_ELU_RESULT] = {0.5, 2.0, 1.5},
        [TN_ACT_BW_HARDTANH] = {-1.0, 2.0}, [TN_ACT_BW_LEAKY_RELU] = {0.01},
        [TN_ACT_BW_SOFTPLUS] = {2.0, 1.5}, [TN_ACT_BW_LOGIT] = {0.1},
    };
    for (int di = 0; di < NUM_DTYPES; di++) {
        int dtype = all_dtypes[di];
        int size = tn_dtype_size(dtype);
        for (int si = 0; si < NUM_SIZES; si++) {
            for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
                tn_loop l;
                int64_t n = edge_sizes[si];
                int64_t in_n = make_loop(&l, layout, n, 3);
                void *g = malloc((size_t)(in_n * size) + 1), *x = malloc((size_t)(in_n * size) + 1);
                fill_random(dtype, g, in_n, 0, 0);
                fill_random(dtype, x, in_n, 0, 0);
                void *in[2] = {g, x};
                act_arg arg = {(tn_act_bw_op)*op, dtype, {0}};
                memcpy(arg.p, params[*op], sizeof arg.p);
                char what[160];
                snprintf(what, sizeof what, "activation gradient %d dtype %d n %ld %s", *op, dtype, (long)n,
                         layout_names[layout]);
                tn_status st = compare_fast_reference(what, &l, dtype, tn_loop_numel(&l), call_act, in, &arg, NULL);
                cr_assert(st == (tn_dtype_is_floating(dtype) ? TN_OK : TN_ERR_DTYPE), "%s: status %d", what, st);
                free(g);
                free(x);
            }
        }
    }
}

static double
act_f64(tn_act_bw_op op, double g, double x, double p0, double p1, double p2)
{
    double o, p[3] = {p0, p1, p2};
    tn_loop l = loop1(1, 3);
    cr_assert_eq(tn_activation_backward(op, TN_DTYPE_F64, &l, &o, &g, &x, p), TN_OK);
    return o;
}

Test(binary, activation_backward_hand_values)
{
    /* hardsigmoid scales by the float constant 1.0f / 6.0f even in float64, as upstream writes it */
    cr_assert_eq(act_f64(TN_ACT_BW_HARDSIGMOID, 3.0, 0.5, 0, 0, 0), 3.0 * (double)(1.0f / 6.0f));
    cr_assert_eq(act_f64(TN_ACT_BW_HARDSIGMOID, 3.0, 3.0, 0, 0, 0), 0.0);
    /* hardswish: 0 at and below -3, grad at and above 3 */
    cr_assert_eq(act_f64(TN_ACT_BW_HARDSWISH, 2.0, -3.0, 0, 0, 0), 0.0);
    cr_assert_eq(act_f64(TN_ACT_BW_HARDSWISH, 2.0, 3.0, 0, 0, 0), 2.0);
    cr_assert_eq(act_f64(TN_ACT_BW_HARDSWISH, 2.0, 1.5, 0, 0, 0), 2.0);
    /* elu: alpha * scale * input_scale * exp(x * input_scale) below 0, scale above */
    cr_assert_eq(act_f64(TN_ACT_BW_ELU, 2.0, 1.0, 0.5, 3.0, 1.5), 6.0);
    cr_assert_eq(act_f64(TN_ACT_BW_ELU, 2.0, -1.0, 0.5, 3.0, 1.5), 2.0 * 1.5 * 1.5 * exp(-1.5));
    /* a single NaN input is upstream's scalar tail: grad * scale */
    cr_assert_eq(act_f64(TN_ACT_BW_ELU, 2.0, NAN, 0.5, 3.0, 1.5), 6.0);
    cr_assert_eq(act_f64(TN_ACT_BW_HARDTANH, 2.0, NAN, -1.0, 1.0, 0), 2.0);
    /* logit: NaN outside [0, 1] without eps, 0 outside [eps, 1 - eps] with it, inf at the ends */
    cr_assert(isnan(act_f64(TN_ACT_BW_LOGIT, 1.0, 1.5, -1.0, 0, 0)));
    cr_assert_eq(act_f64(TN_ACT_BW_LOGIT, 1.0, 0.95, 0.1, 0, 0), 0.0);
    cr_assert_eq(act_f64(TN_ACT_BW_LOGIT, 1.0, 1.0, -1.0, 0, 0), INFINITY);
    cr_assert_eq(act_f64(TN_ACT_BW_LOGIT, 1.0, 0.5, -1.0, 0, 0), 4.0);
}

Test(binary, activation_backward_nan_tail_follows_vector_body)
{
    /* 33 contiguous float32: 32 in the vector body (NaN x gives NaN), the last in the tail,
     * for elu's AVX-512 chunks (32) and hardtanh's AVX2 ones (16) alike */
    float g[33], x[33], o[33];
    for (int i = 0; i < 33; i++) {
        g[i] = 2.0f;
        x[i] = NAN;
    }
    tn_loop l = loop1(33, 3);
    double p[3] = {1.0, 1.0, 1.0};
    cr_assert_eq(tn_activation_backward(TN_ACT_BW_ELU, TN_DTYPE_F32, &l, o, g, x, p), TN_OK);
    cr_assert(isnan(o[31]));
    cr_assert_eq(o[32], 2.0f);
    cr_assert_eq(tn_activation_backward(TN_ACT_BW_HARDTANH, TN_DTYPE_F32, &l, o, g, x, p), TN_OK);
    cr_assert_eq(o[0], 0.0f);
    cr_assert_eq(o[32], 2.0f);
    /* 17: elu's body is 16 on AVX2, none on AVX-512 (upstream's AVX-512 build); hardtanh's 16 */
    l = loop1(17, 3);
    cr_assert_eq(tn_activation_backward(TN_ACT_BW_ELU, TN_DTYPE_F32, &l, o, g, x, p), TN_OK);
    cr_assert(tn_cpu_has_avx512() ? o[0] == 2.0f : isnan(o[0]));
    cr_assert_eq(tn_activation_backward(TN_ACT_BW_HARDTANH, TN_DTYPE_F32, &l, o, g, x, p), TN_OK);
    cr_assert_eq(o[15], 0.0f);
    cr_assert_eq(o[16], 2.0f);
    /* a NaN bound: the scalar tail passes the gradient, the vector body does not */
    double pn[3] = {NAN, 1.0, 0};
    for (int i = 0; i < 17; i++)
        x[i] = 0.5f;
    cr_assert_eq(tn_activation_backward(TN_ACT_BW_HARDTANH, TN_DTYPE_F32, &l, o, g, x, pn), TN_OK);
    cr_assert_eq(o[15], 0.0f);
    cr_assert_eq(o[16], 2.0f);
}

/* ---- where, clamp, pow_scalar, lerp, addcmul, addcdiv ---- */

typedef struct {
    int kind;
    int dtype;
    tn_kscalar s1, s2;
} tern_arg;

enum { T_WHERE, T_CLAMP, T_POW, T_LERP_S, T_LERP, T_ADDCMUL, T_ADDCDIV };

static tn_status
call_tern(const tn_loop *l, void *out, void *const *in, void *arg)
{
    const tern_arg *t = arg;
    switch (t->kind) {
    case T_WHERE: return tn_where(t->dtype, l, out, in[0], in[1], in[2]);
    case T_CLAMP: return tn_clamp(t->dtype, l, out, in[0], 1, t->s1, 1, t->s2);
    case T_POW: return tn_pow_scalar(t->dtype, l, out, in[0], t->s1);
    case T_LERP_S: return tn_lerp_scalar(t->dtype, l, out, in[0], in[1], t->s1);
    case T_LERP: return tn_lerp(t->dtype, l, out, in[0], in[1], in[2]);
    case T_ADDCMUL: return tn_addcmul(t->dtype, l, out, in[0], in[1], in[2], t->s1);
    default: return tn_addcdiv(t->dtype, l, out, in[0], in[1], in[2], t->s1);
    }
}

static void
sweep_tern(int kind, int nops, tn_kscalar s1, tn_kscalar s2)
{
    for (int di = 0; di < NUM_DTYPES; di++) {
        int dtype = all_dtypes[di];
        int size = tn_dtype_size(dtype);
        for (int si = 0; si < NUM_SIZES; si++) {
            for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
                if (nops == 2 && layout != LAYOUT_CONTIG && layout != LAYOUT_TRANSPOSED)
                    continue;
                tn_loop l;
                int64_t n = edge_sizes[si];
                int64_t in_n = make_loop(&l, layout, n, nops);
                void *bufs[3];
                for (int k = 0; k < 3; k++) {
                    int d = kind == T_WHERE && k == 0 ? TN_DTYPE_BOOL : dtype;
                    bufs[k] = malloc((size_t)(in_n * size) + 1);
                    fill_random(d, bufs[k], in_n, 0, kind == T_POW);
                }
                tern_arg arg = {kind, dtype, s1, s2};
                char what[128];
                snprintf(what, sizeof what, "kind %d dtype %d n %ld %s", kind, dtype, (long)n,
                         layout_names[layout]);
                silu_tol sleef = {NULL, NULL, 1};  /* pow's general form has a SLEEF body */
                tn_status st = compare_fast_reference(what, &l, dtype, tn_loop_numel(&l), call_tern,
                                                      bufs, &arg, kind == T_POW ? &sleef : NULL);
                cr_assert(st == TN_OK || st == TN_ERR_DTYPE, "%s: status %d", what, st);
                for (int k = 0; k < 3; k++)
                    free(bufs[k]);
            }
        }
    }
}

Test(binary, sweep_where)
{
    sweep_tern(T_WHERE, 4, one, one);
}

Test(binary, sweep_clamp)
{
    sweep_tern(T_CLAMP, 2, dbl(-1.5), integer(7));
}

Test(binary, sweep_pow_scalar)
{
    static const double exps[] = {2, 3, 0.5, -0.5, -1, -2, 1.7, 0};
    for (int i = 0; i < 8; i++)
        sweep_tern(T_POW, 2, dbl(exps[i]), one);
}

Test(binary, sweep_lerp_addcmul_addcdiv)
{
    sweep_tern(T_LERP_S, 3, dbl(0.3), one);
    sweep_tern(T_LERP_S, 3, dbl(0.8), one);
    sweep_tern(T_LERP, 4, one, one);
    sweep_tern(T_ADDCMUL, 4, dbl(0.1), one);
    sweep_tern(T_ADDCDIV, 4, dbl(-0.5), one);
}

Test(binary, where_selects_bits)
{
    uint8_t c[3] = {1, 0, 1};
    float a[3] = {1, 2, -0.0f}, b[3] = {4, NAN, 6}, o[3];
    tn_loop l = loop1(3, 4);
    cr_assert_eq(tn_where(TN_DTYPE_F32, &l, o, c, a, b), TN_OK);
    cr_assert(o[0] == 1 && isnan(o[1]) && signbit(o[2]));
}

Test(binary, clamp_nan_rules)
{
    float x[4] = {NAN, -3, 0.5f, 9}, o[4];
    tn_loop l = loop1(4, 2);
    tn_kscalar lo = {TN_KSCALAR_DOUBLE, 0, 0}, hi = {TN_KSCALAR_DOUBLE, 0, 1};
    cr_assert_eq(tn_clamp(TN_DTYPE_F32, &l, o, x, 1, lo, 1, hi), TN_OK);
    cr_assert(isnan(o[0]) && o[1] == 0 && o[2] == 0.5f && o[3] == 1);
    /* a NaN bound: upstream fills the output with NaN */
    tn_kscalar nan = {TN_KSCALAR_DOUBLE, 0, NAN};
    cr_assert_eq(tn_clamp(TN_DTYPE_F32, &l, o, x, 1, nan, 0, hi), TN_OK);
    cr_assert(isnan(o[1]) && isnan(o[3]));
    /* lo > hi gives hi */
    tn_kscalar three = {TN_KSCALAR_INT, 3, 0}, mthree = {TN_KSCALAR_INT, -3, 0};
    cr_assert_eq(tn_clamp(TN_DTYPE_F32, &l, o, x, 1, three, 1, mthree), TN_OK);
    cr_assert(o[1] == -3 && o[3] == -3);
    uint8_t bx = 1, bo;
    tn_loop l1 = loop1(1, 2);
    cr_assert_eq(tn_clamp(TN_DTYPE_BOOL, &l1, &bo, &bx, 1, lo, 1, hi), TN_ERR_DTYPE);
}

Test(binary, pow_scalar_forms)
{
    float x[3] = {2.0f, 9.0f, -3.0f}, o[3];
    tn_loop l = loop1(3, 2);
    cr_assert_eq(tn_pow_scalar(TN_DTYPE_F32, &l, o, x, dbl(0.5)), TN_OK);
    cr_assert_eq(o[0], sqrtf(2.0f));
    cr_assert_eq(o[1], 3.0f);
    cr_assert_eq(tn_pow_scalar(TN_DTYPE_F32, &l, o, x, integer(3)), TN_OK);
    cr_assert_eq(o[2], -27.0f);
    cr_assert_eq(tn_pow_scalar(TN_DTYPE_F32, &l, o, x, integer(-2)), TN_OK);
    cr_assert_eq(o[0], 0.25f);
    /* a short f32 row is all scalar tail upstream: pow in double with the exact exponent */
    float big = 191847.171875f, ob;
    tn_loop l1 = loop1(1, 2);
    cr_assert_eq(tn_pow_scalar(TN_DTYPE_F32, &l1, &ob, &big, dbl(1.7)),
                 TN_OK);
    cr_assert_eq(ob, (float)pow(191847.171875, 1.7));
    int32_t ix[2] = {3, -2}, io[2];
    tn_loop l2 = loop1(2, 2);
    cr_assert_eq(tn_pow_scalar(TN_DTYPE_I32, &l2, io, ix, integer(5)), TN_OK);
    cr_assert(io[0] == 243 && io[1] == -32);
}

Test(binary, lerp_and_addc_hand_values)
{
    float s[2] = {1, 10}, e[2] = {3, 20}, w[2] = {0, 1}, o[2];
    tn_loop l = loop1(2, 4);
    cr_assert_eq(tn_lerp(TN_DTYPE_F32, &l, o, s, e, w), TN_OK);
    cr_assert(o[0] == 1 && o[1] == 20);
    tn_loop l3 = loop1(2, 3);
    cr_assert_eq(tn_lerp_scalar(TN_DTYPE_F32, &l3, o, s, e, dbl(0.5)),
                 TN_OK);
    cr_assert(o[0] == 2 && o[1] == 15);
    float t1[2] = {2, 3}, t2[2] = {4, 5};
    cr_assert_eq(tn_addcmul(TN_DTYPE_F32, &l, o, s, t1, t2, integer(2)), TN_OK);
    cr_assert(o[0] == 17 && o[1] == 40);
    cr_assert_eq(tn_addcdiv(TN_DTYPE_F32, &l, o, s, t1, t2, integer(2)), TN_OK);
    cr_assert(o[0] == 2 && o[1] == 10 + 6.0f / 5.0f);
    /* addcmul fuses like upstream: fma(value * t1, t2, self) */
    float fs[2] = {-0.3f, 1.0f}, f1[2] = {0.1f, 1.0f / 3.0f}, f2[2] = {3.0f, 3.0f};
    cr_assert_eq(tn_addcmul(TN_DTYPE_F32, &l, o, fs, f1, f2, integer(1)), TN_OK);
    cr_assert_eq(o[0], fmaf(f1[0], f2[0], fs[0]));
    cr_assert_neq(o[0], fs[0] + f1[0] * f2[0]);
    int32_t is[2] = {1, 2}, it[2] = {3, 4}, iu[2] = {5, 6}, io[2];
    cr_assert_eq(tn_addcdiv(TN_DTYPE_I32, &l, io, is, it, iu, one), TN_ERR_DTYPE);
    cr_assert_eq(tn_lerp(TN_DTYPE_I32, &l, io, is, it, iu), TN_ERR_DTYPE);
}
