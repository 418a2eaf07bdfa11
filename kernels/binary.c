/* Elementwise binary kernels: one table of row workers <op>_<dtype> generated from the op lists
 * below (Note [Binary op list]), AVX2 paths for f32 add/sub/mul/div, f16/bf16 through widened
 * f32 rows, and the ternary helpers where/clamp/pow_scalar/lerp/addcmul/addcdiv.
 * Adding an op: its enum value and name, one line per dtype class in the op lists, and a
 * line in binary_table.
 */
#include "binary.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "copy.h"
#include "cpu.h"
#include "special.h"
#include "vmath.h"


const char *const tn_binary_names[TN_NUM_BINARY] = {
    [TN_BIN_ADD] = "add",
    [TN_BIN_SUB] = "sub",
    [TN_BIN_MUL] = "mul",
    [TN_BIN_DIV] = "div",
    [TN_BIN_DIV_TRUNC] = "div_trunc",
    [TN_BIN_DIV_FLOOR] = "div_floor",
    [TN_BIN_REMAINDER] = "remainder",
    [TN_BIN_FMOD] = "fmod",
    [TN_BIN_POW] = "pow",
    [TN_BIN_ATAN2] = "atan2",
    [TN_BIN_MAXIMUM] = "maximum",
    [TN_BIN_MINIMUM] = "minimum",
    [TN_BIN_FMAX] = "fmax",
    [TN_BIN_FMIN] = "fmin",
    [TN_BIN_BITAND] = "bitwise_and",
    [TN_BIN_BITOR] = "bitwise_or",
    [TN_BIN_BITXOR] = "bitwise_xor",
    [TN_BIN_LSHIFT] = "bitwise_left_shift",
    [TN_BIN_RSHIFT] = "bitwise_right_shift",
    [TN_BIN_LOGICAL_AND] = "logical_and",
    [TN_BIN_LOGICAL_OR] = "logical_or",
    [TN_BIN_LOGICAL_XOR] = "logical_xor",
    [TN_BIN_EQ] = "eq",
    [TN_BIN_NE] = "ne",
    [TN_BIN_LT] = "lt",
    [TN_BIN_LE] = "le",
    [TN_BIN_GT] = "gt",
    [TN_BIN_GE] = "ge",
    [TN_BIN_HYPOT] = "hypot",
    [TN_BIN_COPYSIGN] = "copysign",
    [TN_BIN_XLOGY] = "xlogy",
    [TN_BIN_XLOG1PY] = "xlog1py",
    [TN_BIN_NEXTAFTER] = "nextafter",
    [TN_BIN_LOGADDEXP] = "logaddexp",
    [TN_BIN_LOGADDEXP2] = "logaddexp2",
    [TN_BIN_HEAVISIDE] = "heaviside",
    [TN_BIN_ZETA] = "zeta",
    [TN_BIN_IGAMMA] = "igamma",
    [TN_BIN_IGAMMAC] = "igammac",
    [TN_BIN_SIGMOID_BACKWARD] = "sigmoid_backward",
    [TN_BIN_TANH_BACKWARD] = "tanh_backward",
    [TN_BIN_SILU_BACKWARD] = "silu_backward",
    [TN_BIN_GELU_BACKWARD] = "gelu_backward",
    [TN_BIN_GELU_TANH_BACKWARD] = "gelu_tanh_backward",
    [TN_BIN_THRESHOLD_BACKWARD] = "threshold_backward",
};

/* Internal ops past the public ones: add/sub with alpha != 1 get their own rows. */
enum { BIN_ADD_ALPHA = TN_NUM_BINARY, BIN_SUB_ALPHA, BIN_NUM_ROWS };

/* Per-call parameters, converted once to each compute type. */
typedef struct {
    float alpha_f;
    double alpha_d;
    uint64_t alpha_w;  /* integer alpha: the dtype's value, sign-extended */
    int half;          /* f16/bf16 rows widened to f32: 1 = f16, 2 = bf16, 0 = not widened */
} bin_params;

typedef struct {
    bin_params k;
    int avx2;          /* run the AVX2 builds of the row loops */
    atomic_int error;  /* integer division by zero seen */
} bin_ctx;

static inline float
round_half(float x, int half)
{
    return half == 2 ? tn_bf16_to_f32(tn_f32_to_bf16(x)) : tn_f16_to_f32(tn_f32_to_f16(x));
}

#define ONE_OVER_LN2 1.442695040888963407359924681001892137
#define SQRT1_2 0.707106781186547524400844362104849039
/* M_SQRT2 * M_2_SQRTPI * 0.5 and M_2_SQRTPI * M_SQRT1_2 * 0.5 */
#define GELU_BETA 0.797884560802865355879892119868763737
#define GELU_PDF 0.398942280401432677939946059934381868
#define GELU_KAPPA 0.044715

/* ---- scalar helpers, one set per floating type ----
 * M(fn) names the libm function of the type (expf for f32, exp for f64). */
#define MF_f32(fn) fn##f
#define MF_f64(fn) fn

#define FLOAT_HELPERS(SN, T, M)                                                           \
    static inline T                                                                       \
    remainder_##SN##_s(T a, T b)                                                          \
    {                                                                                     \
        T m = M(fmod)(a, b);                                                              \
        if (m != 0 && ((b < 0) != (m < 0)))                                               \
            m += b;                                                                       \
        return m;                                                                         \
    }                                                                                     \
    /* Python's floor division, as c10::div_floor_floating computes it. */                \
    static inline T                                                                       \
    div_floor_##SN##_s(T a, T b)                                                          \
    {                                                                                     \
        if (b == 0)                                                                       \
            return a / b;                                                                 \
        T mod = M(fmod)(a, b);                                                            \
        T div = (a - mod) / b;                                                            \
        if (mod != 0 && ((b < 0) != (mod < 0)))                                           \
            div -= 1;                                                                     \
        if (div == 0)                                                                     \
            return M(copysign)((T)0, a / b);                                              \
        T fl = M(floor)(div);                                                             \
        if (div - fl > (T)0.5)                                                            \
            fl += 1;                                                                      \
        return fl;                                                                        \
    }                                                                                     \
    static inline T                                                                       \
    xlogy_##SN##_s(T a, T b)                                                              \
    {                                                                                     \
        if (b != b)                                                                       \
            return (T)NAN;                                                                \
        return a == 0 ? (T)0 : a * M(log)(b);                                             \
    }                                                                                     \
    static inline T                                                                       \
    xlog1py_##SN##_s(T a, T b)                                                            \
    {                                                                                     \
        if (b != b)                                                                       \
            return (T)NAN;                                                                \
        return a == 0 ? (T)0 : a * M(log1p)(b);                                           \
    }                                                                                     \
    static inline T                                                                       \
    logaddexp_##SN##_s(T a, T b)                                                          \
    {                                                                                     \
        if (isinf(a) && a == b)                                                           \
            return a;                                                                     \
        T m = a < b ? b : a;                                                              \
        return m + M(log1p)(M(exp)(-M(fabs)(a - b)));                                     \
    }                                                                                     \
    static inline T                                                                       \
    logaddexp2_##SN##_s(T a, T b)                                                         \
    {                                                                                     \
        if (isinf(a) && a == b)                                                           \
            return a;                                                                     \
        T m = a < b ? b : a;                                                              \
        return M(fma)(M(log1p)(M(exp2)(-M(fabs)(a - b))), (T)ONE_OVER_LN2, m);            \
    }                                                                                     \
    static inline T                                                                       \
    silu_backward_##SN##_s(T dy, T x)                                                     \
    {                                                                                     \
        T s = (T)1 / ((T)1 + M(exp)(-x));                                                 \
        return dy * s * M(fma)(x, (T)1 - s, (T)1);                                        \
    }                                                                                     \
    static inline T                                                                       \
    gelu_backward_##SN##_s(T dy, T x)                                                     \
    {                                                                                     \
        T cdf = (T)0.5 * ((T)1 + M(erf)(x * (T)SQRT1_2));                                 \
        T pdf = (T)GELU_PDF * M(exp)(x * x * (T)-0.5);                                    \
        return dy * M(fma)(x, pdf, cdf);                                                  \
    }                                                                                     \
    static inline T                                                                       \
    gelu_tanh_backward_##SN##_s(T dy, T x)                                                \
    {                                                                                     \
        T x_sq = x * x;                                                                   \
        T inner = (T)GELU_BETA * M(fma)((T)GELU_KAPPA, x_sq * x, x);                      \
        T t = M(tanh)(inner);                                                             \
        T left = (T)0.5 * x;                                                              \
        T left_d = (T)0.5 * ((T)1 + t);                                                   \
        T inner_d = (T)GELU_BETA * M(fma)((T)3 * (T)GELU_KAPPA, x_sq, (T)1);              \
        return dy * M(fma)(left * M(fma)(-t, t, (T)1), inner_d, left_d);                  \
    }

FLOAT_HELPERS(f32, float, MF_f32)
FLOAT_HELPERS(f64, double, MF_f64)

/* ---- scalar helpers, one set per integer type ----
 * W is the unsigned type arithmetic wraps in; NEG(x) is x < 0 (constant 0 for unsigned). */
#define NEG_S(x) ((x) < 0)
#define NEG_U(x) 0

#define INT_HELPERS(SN, T, W, NEG, BITS, SIGNED)                                          \
    static inline T                                                                       \
    div_trunc_##SN##_s(T a, T b, int *err)                                                \
    {                                                                                     \
        if (b == 0) {                                                                     \
            *err = 1;                                                                     \
            return 0;                                                                     \
        }                                                                                 \
        if (NEG(b) && b == (T)-1) /* MIN / -1 would trap */                               \
            return (T)(0 - (W)a);                                                         \
        return (T)(a / b);                                                                \
    }                                                                                     \
    static inline T                                                                       \
    div_floor_##SN##_s(T a, T b, int *err)                                                \
    {                                                                                     \
        if (b == 0) {                                                                     \
            *err = 1;                                                                     \
            return 0;                                                                     \
        }                                                                                 \
        if (NEG(b) && b == (T)-1)                                                         \
            return (T)(0 - (W)a);                                                         \
        T q = (T)(a / b), r = (T)(a % b);                                                 \
        if (r != 0 && (NEG(a) != NEG(b)))                                                 \
            q = (T)(q - 1);                                                               \
        return q;                                                                         \
    }                                                                                     \
    static inline T                                                                       \
    remainder_##SN##_s(T a, T b, int *err)                                                \
    {                                                                                     \
        if (b == 0) {                                                                     \
            *err = 1;                                                                     \
            return 0;                                                                     \
        }                                                                                 \
        if (NEG(b) && b == (T)-1)                                                         \
            return 0;                                                                     \
        T r = (T)(a % b);                                                                 \
        if (r != 0 && (NEG(r) != NEG(b)))                                                 \
            r = (T)(r + b);                                                               \
        return r;                                                                         \
    }                                                                                     \
    static inline T                                                                       \
    fmod_##SN##_s(T a, T b, int *err)                                                     \
    {                                                                                     \
        if (b == 0) {                                                                     \
            *err = 1;                                                                     \
            return 0;                                                                     \
        }                                                                                 \
        if (NEG(b) && b == (T)-1)                                                         \
            return 0;                                                                     \
        return (T)(a % b);                                                                \
    }                                                                                     \
    /* Exact integer power; negative exponents as c10's powi: 1, +-1 or 0. */             \
    static inline T                                                                       \
    pow_##SN##_s(T a, T b)                                                                \
    {                                                                                     \
        if (NEG(b)) {                                                                     \
            if (a == 1)                                                                   \
                return 1;                                                                 \
            if (NEG(a) && a == (T)-1)                                                     \
                return (b & 1) ? (T)-1 : (T)1;                                            \
            return 0;                                                                     \
        }                                                                                 \
        W r = 1, x = (W)a;                                                                \
        while (b) {                                                                       \
            if (b & 1)                                                                    \
                r *= x;                                                                   \
            b = (T)(b / 2);                                                               \
            x *= x;                                                                       \
        }                                                                                 \
        return (T)r;                                                                      \
    }                                                                                     \
    static inline T                                                                       \
    lshift_##SN##_s(T a, T b)                                                             \
    {                                                                                     \
        if (NEG(b) || (uint64_t)b >= BITS)                                                \
            return 0;                                                                     \
        return (T)((W)a << b);                                                            \
    }                                                                                     \
    /* Shifts past the width fill with the sign (signed) or zero (unsigned). */           \
    static inline T                                                                       \
    rshift_##SN##_s(T a, T b)                                                             \
    {                                                                                     \
        if (NEG(b) || (uint64_t)b >= BITS - SIGNED)                                       \
            return (T)(a >> (BITS - SIGNED));                                             \
        return (T)(a >> b);                                                               \
    }

INT_HELPERS(u8, uint8_t, uint32_t, NEG_U, 8, 0)
INT_HELPERS(i8, int8_t, uint32_t, NEG_S, 8, 1)
INT_HELPERS(i16, int16_t, uint32_t, NEG_S, 16, 1)
INT_HELPERS(i32, int32_t, uint32_t, NEG_S, 32, 1)
INT_HELPERS(i64, int64_t, uint64_t, NEG_S, 64, 1)

/* ---- the row worker ----
 * BIN_ROW(name, T, O, expr) defines name(ctx, ptr, stride, n), a tn_row_fn computing
 * o = expr(a, b) with inputs of type T and output of type O. expr may read the parameters
 * through k (a bin_params *) and flag integer division by zero through err. Contiguous rows
 * and rows with one broadcast input get loops the compiler can vectorise, compiled twice: for
 * the baseline ISA and for AVX2+FMA (chosen at run time). Everything else, and every row in
 * reference mode, runs the plain strided loop. */

#define BIN_LOOPS(FN, NAME, T, O, ATTR)                                                   \
    ATTR static void                                                                      \
    FN(const bin_params *kp, int *err, char *const *p, const int64_t *s, int64_t n)       \
    {                                                                                     \
        /* a local copy: stores through o cannot alias it, so it stays in registers */     \
        const bin_params kl = *kp, *k = &kl;                                              \
        O *o = (O *)p[0];                                                                 \
        const T *x = (const T *)p[1], *y = (const T *)p[2];                               \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1) {                                        \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i] = NAME##_op(x[i], y[i], k, err);                                     \
        } else if (s[0] == 1 && s[1] == 1 && s[2] == 0) {                                 \
            const T b = y[0];                                                             \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i] = NAME##_op(x[i], b, k, err);                                        \
        } else if (s[0] == 1 && s[1] == 0 && s[2] == 1) {                                 \
            const T a = x[0];                                                             \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i] = NAME##_op(a, y[i], k, err);                                        \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = NAME##_op(x[i * s[1]], y[i * s[2]], k, err);                \
        }                                                                                 \
    }

#define BIN_ROW(NAME, T, O, EXPR)                                                         \
    static inline O                                                                       \
    NAME##_op(T a, T b, const bin_params *k, int *err)                                    \
    {                                                                                     \
        (void)k;                                                                          \
        (void)err;                                                                        \
        return (O)(EXPR);                                                                 \
    }                                                                                     \
    BIN_LOOPS(NAME##__base, NAME, T, O, )                                                 \
    BIN_LOOPS(NAME##__avx2, NAME, T, O, TN_TARGET_AVX2)                                   \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        bin_ctx *c = ctx;                                                                 \
        const bin_params kp = c->k;                                                       \
        int err = 0;                                                                      \
        if (tn_elementwise_reference()) {                                                 \
            O *o = (O *)p[0];                                                             \
            const T *x = (const T *)p[1], *y = (const T *)p[2];                           \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = NAME##_op(x[i * s[1]], y[i * s[2]], &kp, &err);             \
        } else if (c->avx2) {                                                             \
            NAME##__avx2(&kp, &err, p, s, n);                                             \
        } else {                                                                          \
            NAME##__base(&kp, &err, p, s, n);                                             \
        }                                                                                 \
        if (err)                                                                          \
            atomic_store_explicit(&c->error, 1, memory_order_relaxed);                    \
    }

/* Note [Binary op list]
 * One line per op and dtype class. Floats compute in their own type (f16/bf16 arrive widened
 * to f32); integers wrap through an unsigned type W; bool reads bytes as (x != 0). */

#define ALPHA_f32(k) ((k)->alpha_f)
#define ALPHA_f64(k) ((k)->alpha_d)

/* Logical ops and comparisons read the same for floats and integers (bool has its own). */
#define COMPARE_ROWS(SN, T)                                                                   \
    BIN_ROW(logical_and_##SN, T, uint8_t, (a != 0) & (b != 0))                                \
    BIN_ROW(logical_or_##SN, T, uint8_t, (a != 0) | (b != 0))                                 \
    BIN_ROW(logical_xor_##SN, T, uint8_t, (a != 0) ^ (b != 0))                                \
    BIN_ROW(eq_##SN, T, uint8_t, a == b)                                                      \
    BIN_ROW(ne_##SN, T, uint8_t, a != b)                                                      \
    BIN_ROW(lt_##SN, T, uint8_t, a < b)                                                       \
    BIN_ROW(le_##SN, T, uint8_t, a <= b)                                                      \
    BIN_ROW(gt_##SN, T, uint8_t, a > b)                                                       \
    BIN_ROW(ge_##SN, T, uint8_t, a >= b)

#define FLOAT_BINARY_ROWS(SN, T, M)                                                           \
    BIN_ROW(add_##SN, T, T, a + b)                                                            \
    BIN_ROW(sub_##SN, T, T, a - b)                                                            \
    BIN_ROW(add_alpha_##SN, T, T, M(fma)(ALPHA_##SN(k), b, a))                                \
    BIN_ROW(sub_alpha_##SN, T, T, M(fma)(-ALPHA_##SN(k), b, a))                               \
    BIN_ROW(mul_##SN, T, T, a * b)                                                            \
    BIN_ROW(div_##SN, T, T, a / b)                                                            \
    BIN_ROW(div_trunc_##SN, T, T, M(trunc)(a / b))                                            \
    BIN_ROW(div_floor_##SN, T, T, div_floor_##SN##_s(a, b))                                   \
    BIN_ROW(remainder_##SN, T, T, remainder_##SN##_s(a, b))                                   \
    BIN_ROW(fmod_##SN, T, T, M(fmod)(a, b))                                                   \
    BIN_ROW(pow_##SN, T, T, M(pow)(a, b))                                                     \
    BIN_ROW(atan2_##SN, T, T, M(atan2)(a, b))                                                 \
    /* fmax/fmin ignore one NaN; equal operands (+0, -0) give a, as upstream's scalar loop */ \
    BIN_ROW(fmax_##SN, T, T, a != a ? b : (b != b || !(a < b)) ? a : b)                       \
    BIN_ROW(fmin_##SN, T, T, a != a ? b : (b != b || !(b < a)) ? a : b)                       \
    COMPARE_ROWS(SN, T)                                                                       \
    BIN_ROW(hypot_##SN, T, T, M(hypot)(a, b))                                                 \
    BIN_ROW(copysign_##SN, T, T, M(copysign)(a, b))                                           \
    BIN_ROW(xlogy_##SN, T, T, xlogy_##SN##_s(a, b))                                           \
    BIN_ROW(xlog1py_##SN, T, T, xlog1py_##SN##_s(a, b))                                       \
    BIN_ROW(nextafter_##SN, T, T, M(nextafter)(a, b))                                         \
    BIN_ROW(logaddexp_##SN, T, T, logaddexp_##SN##_s(a, b))                                   \
    BIN_ROW(logaddexp2_##SN, T, T, logaddexp2_##SN##_s(a, b))                                 \
    BIN_ROW(heaviside_##SN, T, T, a == 0 ? b : (T)(a > 0))                                    \
    BIN_ROW(zeta_##SN, T, T, tn_special_zeta_##SN(a, b))                                      \
    BIN_ROW(igamma_##SN, T, T, tn_special_igamma_##SN(a, b))                                  \
    BIN_ROW(igammac_##SN, T, T, tn_special_igammac_##SN(a, b))                                \
    BIN_ROW(sigmoid_backward_##SN, T, T, a * ((T)1 - b) * b)                                  \
    BIN_ROW(tanh_backward_##SN, T, T, a * M(fma)(-b, b, (T)1))                                \
    BIN_ROW(silu_backward_##SN, T, T, silu_backward_##SN##_s(a, b))                           \
    BIN_ROW(gelu_backward_##SN, T, T, gelu_backward_##SN##_s(a, b))                           \
    BIN_ROW(gelu_tanh_backward_##SN, T, T, gelu_tanh_backward_##SN##_s(a, b))                 \
    BIN_ROW(threshold_backward_##SN, T, T, b <= ALPHA_##SN(k) ? (T)0 : a)

FLOAT_BINARY_ROWS(f32, float, MF_f32)
FLOAT_BINARY_ROWS(f64, double, MF_f64)

/* Note [Vector body and tail]
 * Upstream runs a contiguous row (or one with a broadcast input) as a vector body of whole
 * 2*Vec::size() chunks (AVX2: 16 f32, 8 f64, 32 f16/bf16) and a scalar tail; strided rows run
 * scalar throughout. Two ops tell the halves apart, and we follow them position by position:
 *   maximum/minimum of equal operands (+0 vs -0): the vector body returns b, the tail a;
 *   f16/bf16 add/sub with alpha != 1: the body fuses a + alpha*b into one rounding, the tail
 *   (c10::Half arithmetic) rounds alpha*b first.
 * Widened rows lose the original strides, so the f16/bf16 forms of these ops have their own
 * rows on the 16-bit values. */

/* WINS(a, b): a beats b (a > b for maximum, a < b for minimum). The body keeps b on ties, the
 * tail keeps a; NaN wins either way. Quiet comparisons (isunordered, isgreater) let the compiler
 * turn the selects into vector blends. */
#define MINMAX_BODY(T, WINS, a, b) (isunordered(a, b) ? (T)NAN : WINS(a, b) ? (a) : (b))
#define MINMAX_TAIL(T, WINS, a, b) (isunordered(a, b) ? (T)NAN : WINS(b, a) ? (b) : (a))
#define MINMAX_LOOPS(T, WINS, XI, YI)                                                     \
    do {                                                                                  \
        for (int64_t i = 0; i < body; i++)                                                \
            o[i] = MINMAX_BODY(T, WINS, x[XI], y[YI]);                                    \
        for (int64_t i = body; i < n; i++)                                                \
            o[i] = MINMAX_TAIL(T, WINS, x[XI], y[YI]);                                    \
    } while (0)

#define MINMAX_FAST(FN, T, WINS, ATTR)                                                    \
    ATTR static void                                                                      \
    FN(T *o, const T *x, const T *y, const int64_t *s, int64_t n, int64_t body)           \
    {                                                                                     \
        if (s[1] == 1 && s[2] == 1)                                                       \
            MINMAX_LOOPS(T, WINS, i, i);                                                  \
        else if (s[1] == 1)                                                               \
            MINMAX_LOOPS(T, WINS, i, 0);                                                  \
        else                                                                              \
            MINMAX_LOOPS(T, WINS, 0, i);                                                  \
    }

#define MINMAX_ROW(NAME, T, CHUNK, WINS)                                                  \
    MINMAX_FAST(NAME##__base, T, WINS, )                                                  \
    MINMAX_FAST(NAME##__avx2, T, WINS, TN_TARGET_AVX2)                                    \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        const bin_ctx *c = ctx;                                                           \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1], *y = (const T *)p[2];                               \
        int64_t body = tn_vector_body(s, 2, n, CHUNK);                                          \
        if (!tn_elementwise_reference() && s[0] == 1 && (s[1] == 1 || s[2] == 1) &&       \
            (s[1] == 0 || s[1] == 1) && (s[2] == 0 || s[2] == 1)) {                       \
            (c->avx2 ? NAME##__avx2 : NAME##__base)(o, x, y, s, n, body);                 \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++) {                                             \
                T a = x[i * s[1]], b = y[i * s[2]];                                       \
                o[i * s[0]] = i < body ? MINMAX_BODY(T, WINS, a, b)                       \
                                       : MINMAX_TAIL(T, WINS, a, b);                      \
            }                                                                             \
        }                                                                                 \
    }

#define GREATER(a, b) isgreater(a, b)
#define LESS(a, b) isless(a, b)
MINMAX_ROW(maximum_f32, float, 16, GREATER)
MINMAX_ROW(minimum_f32, float, 16, LESS)
MINMAX_ROW(maximum_f64, double, 8, GREATER)
MINMAX_ROW(minimum_f64, double, 8, LESS)

/* f16/bf16 maximum/minimum on the 16-bit values: the result is one of the inputs (or NaN). */
static void
minmax_half_row(void *ctx, char *const *p, const int64_t *s, int64_t n, int is_max)
{
    int bf = ((const bin_ctx *)ctx)->k.half == 2;
    uint16_t *o = (uint16_t *)p[0];
    const uint16_t *x = (const uint16_t *)p[1], *y = (const uint16_t *)p[2];
    int64_t body = tn_vector_body(s, 2, n, 32);
    for (int64_t i = 0; i < n; i++) {
        uint16_t ua = x[i * s[1]], ub = y[i * s[2]];
        float a = bf ? tn_bf16_to_f32(ua) : tn_f16_to_f32(ua);
        float b = bf ? tn_bf16_to_f32(ub) : tn_f16_to_f32(ub);
        uint16_t r;
        if (a != a || b != b)
            r = bf ? 0x7fc0 : 0x7e00;
        else if (a == b)
            r = i < body ? ub : ua;
        else
            r = (is_max ? a < b : b < a) ? ub : ua;
        o[i * s[0]] = r;
    }
}

static void
maximum_half(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    minmax_half_row(ctx, p, s, n, 1);
}

static void
minimum_half(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    minmax_half_row(ctx, p, s, n, 0);
}

/* f16/bf16 add/sub with alpha, on the 16-bit values (k->alpha_f holds alpha rounded to the
 * dtype; sub passes -alpha as upstream does). */
static void
add_alpha_half_row(void *ctx, char *const *p, const int64_t *s, int64_t n, float al)
{
    const bin_ctx *c = ctx;
    int bf = c->k.half == 2;
    uint16_t *o = (uint16_t *)p[0];
    const uint16_t *x = (const uint16_t *)p[1], *y = (const uint16_t *)p[2];
    int64_t body = tn_vector_body(s, 2, n, 32);
    for (int64_t i = 0; i < n; i++) {
        uint16_t ua = x[i * s[1]], ub = y[i * s[2]];
        float a = bf ? tn_bf16_to_f32(ua) : tn_f16_to_f32(ua);
        float b = bf ? tn_bf16_to_f32(ub) : tn_f16_to_f32(ub);
        float r = i < body ? fmaf(al, b, a) : a + round_half(al * b, c->k.half);
        o[i * s[0]] = bf ? tn_f32_to_bf16(r) : tn_f32_to_f16(r);
    }
}

static void
add_alpha_half(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    add_alpha_half_row(ctx, p, s, n, ((const bin_ctx *)ctx)->k.alpha_f);
}

static void
sub_alpha_half(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    add_alpha_half_row(ctx, p, s, n, -((const bin_ctx *)ctx)->k.alpha_f);
}

#define INT_BINARY_ROWS(SN, T, W)                                                         \
    BIN_ROW(add_##SN, T, T, (W)a + (W)b)                                                  \
    BIN_ROW(sub_##SN, T, T, (W)a - (W)b)                                                  \
    BIN_ROW(add_alpha_##SN, T, T, (W)a + (W)k->alpha_w * (W)b)                            \
    BIN_ROW(sub_alpha_##SN, T, T, (W)a - (W)k->alpha_w * (W)b)                            \
    BIN_ROW(mul_##SN, T, T, (W)a * (W)b)                                                  \
    BIN_ROW(div_trunc_##SN, T, T, div_trunc_##SN##_s(a, b, err))                          \
    BIN_ROW(div_floor_##SN, T, T, div_floor_##SN##_s(a, b, err))                          \
    BIN_ROW(remainder_##SN, T, T, remainder_##SN##_s(a, b, err))                          \
    BIN_ROW(fmod_##SN, T, T, fmod_##SN##_s(a, b, err))                                    \
    BIN_ROW(pow_##SN, T, T, pow_##SN##_s(a, b))                                           \
    BIN_ROW(maximum_##SN, T, T, a < b ? b : a)                                            \
    BIN_ROW(minimum_##SN, T, T, b < a ? b : a)                                            \
    BIN_ROW(bitand_##SN, T, T, a & b)                                                     \
    BIN_ROW(bitor_##SN, T, T, a | b)                                                      \
    BIN_ROW(bitxor_##SN, T, T, a ^ b)                                                     \
    BIN_ROW(lshift_##SN, T, T, lshift_##SN##_s(a, b))                                     \
    BIN_ROW(rshift_##SN, T, T, rshift_##SN##_s(a, b))                                     \
    COMPARE_ROWS(SN, T)                                                                   \
    BIN_ROW(heaviside_##SN, T, T, a == 0 ? b : (T)(a > 0))                                \
    BIN_ROW(threshold_backward_##SN, T, T, b <= (T)k->alpha_w ? (T)0 : a)

INT_BINARY_ROWS(u8, uint8_t, uint32_t)
INT_BINARY_ROWS(i8, int8_t, uint32_t)
INT_BINARY_ROWS(i16, int16_t, uint32_t)
INT_BINARY_ROWS(i32, int32_t, uint32_t)
INT_BINARY_ROWS(i64, int64_t, uint64_t)

/* bool: bytes read as (x != 0); add is a + alpha*b != 0, maximum is or, minimum is and. */
#define A_ ((a) != 0)
#define B_ ((b) != 0)
BIN_ROW(add_b8, uint8_t, uint8_t, A_ | B_)
BIN_ROW(add_alpha_b8, uint8_t, uint8_t, A_ | ((k->alpha_w != 0) & B_))
BIN_ROW(mul_b8, uint8_t, uint8_t, A_ & B_)
BIN_ROW(maximum_b8, uint8_t, uint8_t, A_ | B_)
BIN_ROW(minimum_b8, uint8_t, uint8_t, A_ & B_)
BIN_ROW(bitand_b8, uint8_t, uint8_t, A_ & B_)
BIN_ROW(bitor_b8, uint8_t, uint8_t, A_ | B_)
BIN_ROW(bitxor_b8, uint8_t, uint8_t, A_ ^ B_)
BIN_ROW(eq_b8, uint8_t, uint8_t, A_ == B_)
BIN_ROW(ne_b8, uint8_t, uint8_t, A_ != B_)
BIN_ROW(lt_b8, uint8_t, uint8_t, A_ < B_)
BIN_ROW(le_b8, uint8_t, uint8_t, A_ <= B_)
BIN_ROW(gt_b8, uint8_t, uint8_t, A_ > B_)
BIN_ROW(ge_b8, uint8_t, uint8_t, A_ >= B_)
BIN_ROW(heaviside_b8, uint8_t, uint8_t, A_ | B_)
#undef A_
#undef B_
#define logical_and_b8 bitand_b8
#define logical_or_b8 bitor_b8
#define logical_xor_b8 bitxor_b8
#define fmax_b8 maximum_b8
#define fmin_b8 minimum_b8
#define fmax_u8 maximum_u8
#define fmax_i8 maximum_i8
#define fmax_i16 maximum_i16
#define fmax_i32 maximum_i32
#define fmax_i64 maximum_i64
#define fmin_u8 minimum_u8
#define fmin_i8 minimum_i8
#define fmin_i16 minimum_i16
#define fmin_i32 minimum_i32
#define fmin_i64 minimum_i64

/* ---- f16/bf16 steps ----
 * Note [Half precision steps]
 * Most f16/bf16 ops are computed in f32 and rounded once (tn_widen_row). A few upstream kernels
 * run in c10::Half/BFloat16 arithmetic instead, which rounds after every operation; these rows
 * take widened f32 blocks and round in the same places (k->half says to which format):
 *   div_trunc (tensor / tensor): trunc(round(a / b));
 *   div_floor (tensor / tensor): every step of div_floor_floating;
 *   sigmoid_backward (f16 only; bf16 is computed in f32): a * (1 - b) * b, rounding each step;
 *   xlogy: x * log(y), log(y) rounded first (c10's std::log of a Half returns a Half);
 *   xlog1py: x * log1p(y) likewise.
 * With a Python-number divisor upstream takes an f32 path instead (tn_binary_scalar).
 * nextafter steps to the neighbouring f16/bf16 value, so it works on the 16-bit patterns. */
static inline float
div_floor_half_s(float a, float b, int h)
{
    if (b == 0)
        return round_half(a / b, h);
    float mod = fmodf(a, b);
    float div = round_half(round_half(a - mod, h) / b, h);
    if (mod != 0 && ((b < 0) != (mod < 0)))
        div = round_half(div - 1, h);
    if (div == 0)
        return copysignf(0.0f, round_half(a / b, h));
    float fl = floorf(div);
    if (round_half(div - fl, h) > 0.5f)
        fl = round_half(fl + 1, h);
    return fl;
}

static inline float
xlogy_half_s(float a, float b, int h)
{
    if (b != b)
        return NAN;
    return a == 0 ? 0.0f : a * round_half(logf(b), h);
}

BIN_ROW(div_trunc_half, float, float, truncf(round_half(a / b, k->half)))
static inline float
xlog1py_half_s(float a, float b, int h)
{
    if (b != b)
        return NAN;
    return a == 0 ? 0.0f : a * round_half(log1pf(b), h);
}

BIN_ROW(xlogy_half, float, float, xlogy_half_s(a, b, k->half))
BIN_ROW(xlog1py_half, float, float, xlog1py_half_s(a, b, k->half))
BIN_ROW(div_floor_half, float, float, div_floor_half_s(a, b, k->half))
BIN_ROW(sigmoid_backward_half, float, float,
        round_half(round_half(a * round_half(1.0f - b, k->half), k->half) * b, k->half))

/* The next 16-bit float after a in the direction of b (f16 and bf16 order the same way). */
static inline uint16_t
nextafter_h16_s(uint16_t a, uint16_t b, int bf)
{
    float fa = bf ? tn_bf16_to_f32(a) : tn_f16_to_f32(a);
    float fb = bf ? tn_bf16_to_f32(b) : tn_f16_to_f32(b);
    if (fa != fa || fb != fb)
        return bf ? 0x7fc0 : 0x7e00;
    if (fa == fb)
        return b;
    if (fa == 0)
        return (uint16_t)((b & 0x8000u) | 1u);
    /* Away from zero when moving outward, toward zero otherwise. */
    if ((fa < fb) == (fa > 0))
        return (uint16_t)(a + 1);
    return (uint16_t)(a - 1);
}

BIN_ROW(nextafter_f16, uint16_t, uint16_t, nextafter_h16_s(a, b, 0))
BIN_ROW(nextafter_bf16, uint16_t, uint16_t, nextafter_h16_s(a, b, 1))

/* ---- AVX2 rows for f32 add/sub/mul/div ---- */
#if TN_X86
#define AVX2_BIN_F32(NAME, VEXPR, SEXPR)                                                  \
    TN_TARGET_AVX2 static void                                       \
    NAME(float *o, const float *x, int64_t sx, const float *y, int64_t sy, int64_t n,     \
         float al)                                                                        \
    {                                                                                     \
        const __m256 va = _mm256_set1_ps(al);                                             \
        (void)va;                                                                         \
        int64_t i = 0;                                                                    \
        if (sx && sy) {                                                                   \
            for (; i + 8 <= n; i += 8) {                                                  \
                __m256 a = _mm256_loadu_ps(x + i), b = _mm256_loadu_ps(y + i);            \
                _mm256_storeu_ps(o + i, VEXPR);                                           \
            }                                                                             \
        } else if (sx) {                                                                  \
            const __m256 b = _mm256_set1_ps(y[0]);                                        \
            for (; i + 8 <= n; i += 8) {                                                  \
                __m256 a = _mm256_loadu_ps(x + i);                                        \
                _mm256_storeu_ps(o + i, VEXPR);                                           \
            }                                                                             \
        } else {                                                                          \
            const __m256 a = _mm256_set1_ps(x[0]);                                        \
            for (; i + 8 <= n; i += 8) {                                                  \
                __m256 b = _mm256_loadu_ps(y + i);                                        \
                _mm256_storeu_ps(o + i, VEXPR);                                           \
            }                                                                             \
        }                                                                                 \
        for (; i < n; i++) {                                                              \
            float a = x[i * sx], b = y[i * sy];                                           \
            o[i] = SEXPR;                                                                 \
        }                                                                                 \
    }

AVX2_BIN_F32(f32_vadd__avx2_u8, _mm256_add_ps(a, b), a + b)
AVX2_BIN_F32(f32_vsub__avx2_u8, _mm256_sub_ps(a, b), a - b)
AVX2_BIN_F32(f32_vmul__avx2_u8, _mm256_mul_ps(a, b), a * b)
AVX2_BIN_F32(f32_vdiv__avx2_u8, _mm256_div_ps(a, b), a / b)
AVX2_BIN_F32(f32_vaddalpha__avx2_u8, _mm256_fmadd_ps(va, b, a), fmaf(al, b, a))
AVX2_BIN_F32(f32_vsubalpha__avx2_u8, _mm256_fnmadd_ps(va, b, a), fmaf(-al, b, a))

/* Row wrappers: the AVX2 loop when operand strides are 1 or broadcast, else the portable row. */
#define AVX2_ROW(OP, V)                                                                    \
    static void                                                                            \
    OP##_f32_avx2row(void *ctx, char *const *p, const int64_t *s, int64_t n)               \
    {                                                                                      \
        if (s[0] == 1 && (s[1] == 0 || s[1] == 1) && (s[2] == 0 || s[2] == 1) &&           \
            (s[1] | s[2])) {                                                               \
            f32_##V##__avx2_u8((float *)p[0], (const float *)p[1], s[1],                   \
                               (const float *)p[2], s[2], n, ((bin_ctx *)ctx)->k.alpha_f); \
        } else {                                                                           \
            OP##_f32(ctx, p, s, n);                                                        \
        }                                                                                  \
    }

AVX2_ROW(add, vadd)
AVX2_ROW(sub, vsub)
AVX2_ROW(mul, vmul)
AVX2_ROW(div, vdiv)
AVX2_ROW(add_alpha, vaddalpha)
AVX2_ROW(sub_alpha, vsubalpha)

/* silu_backward on contiguous rows: the scalar row's formula with the sigmoid from the vector
 * exp (Note [Vector exp]); the last n % 32 elements run the scalar row, as upstream's AVX512
 * loop leaves its tail to glibc's expf (Note [Vector body and tail]). */
TN_TARGET_AVX2 static void
f32_vsilu_backward__avx2(float *o, const float *dy, const float *x, int64_t n)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    for (int64_t i = 0; i + 8 <= n; i += 8) {
        __m256 xv = _mm256_loadu_ps(x + i);
        __m256 e = tn_f32_vexp__avx2(_mm256_sub_ps(_mm256_setzero_ps(), xv));
        __m256 sg = _mm256_div_ps(one, _mm256_add_ps(one, e));
        __m256 d = _mm256_fmadd_ps(xv, _mm256_sub_ps(one, sg), one);
        _mm256_storeu_ps(o + i, _mm256_mul_ps(_mm256_mul_ps(_mm256_loadu_ps(dy + i), sg), d));
    }
}

static void
silu_backward_f32_avx2row(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    if (s[0] == 1 && s[1] == 1 && s[2] == 1) {
        int64_t body = n - n % 32;
        f32_vsilu_backward__avx2((float *)p[0], (const float *)p[1], (const float *)p[2], body);
        if (body < n) {
            char *tail[3] = {p[0] + body * 4, p[1] + body * 4, p[2] + body * 4};
            silu_backward_f32(ctx, tail, s, n - body);
        }
    } else {
        silu_backward_f32(ctx, p, s, n);
    }
}
#endif

/* ---- the table ---- */

#define ROW_FLOAT(OP) [TN_SLOT_F32] = OP##_f32, [TN_SLOT_F64] = OP##_f64
#define ROW_INT(OP)                                                                       \
    [TN_SLOT_U8] = OP##_u8, [TN_SLOT_I8] = OP##_i8, [TN_SLOT_I16] = OP##_i16,             \
    [TN_SLOT_I32] = OP##_i32, [TN_SLOT_I64] = OP##_i64
#define ROW_NUM(OP) ROW_INT(OP), ROW_FLOAT(OP)
#define ROW_ALL(OP) [TN_SLOT_BOOL] = OP##_b8, ROW_NUM(OP)

static const tn_row_fn binary_table[BIN_NUM_ROWS][TN_NUM_SLOTS] = {
    [TN_BIN_ADD] = {ROW_ALL(add)},
    [TN_BIN_SUB] = {ROW_NUM(sub)},
    [BIN_ADD_ALPHA] = {ROW_ALL(add_alpha)},
    [BIN_SUB_ALPHA] = {ROW_NUM(sub_alpha)},
    [TN_BIN_MUL] = {ROW_ALL(mul)},
    [TN_BIN_DIV] = {ROW_FLOAT(div)},
    [TN_BIN_DIV_TRUNC] = {ROW_NUM(div_trunc)},
    [TN_BIN_DIV_FLOOR] = {ROW_NUM(div_floor)},
    [TN_BIN_REMAINDER] = {ROW_NUM(remainder)},
    [TN_BIN_FMOD] = {ROW_NUM(fmod)},
    [TN_BIN_POW] = {ROW_NUM(pow)},
    [TN_BIN_ATAN2] = {ROW_FLOAT(atan2)},
    [TN_BIN_MAXIMUM] = {ROW_ALL(maximum)},
    [TN_BIN_MINIMUM] = {ROW_ALL(minimum)},
    [TN_BIN_FMAX] = {ROW_ALL(fmax)},
    [TN_BIN_FMIN] = {ROW_ALL(fmin)},
    [TN_BIN_BITAND] = {[TN_SLOT_BOOL] = bitand_b8, ROW_INT(bitand)},
    [TN_BIN_BITOR] = {[TN_SLOT_BOOL] = bitor_b8, ROW_INT(bitor)},
    [TN_BIN_BITXOR] = {[TN_SLOT_BOOL] = bitxor_b8, ROW_INT(bitxor)},
    [TN_BIN_LSHIFT] = {ROW_INT(lshift)},
    [TN_BIN_RSHIFT] = {ROW_INT(rshift)},
    [TN_BIN_LOGICAL_AND] = {ROW_ALL(logical_and)},
    [TN_BIN_LOGICAL_OR] = {ROW_ALL(logical_or)},
    [TN_BIN_LOGICAL_XOR] = {ROW_ALL(logical_xor)},
    [TN_BIN_EQ] = {ROW_ALL(eq)},
    [TN_BIN_NE] = {ROW_ALL(ne)},
    [TN_BIN_LT] = {ROW_ALL(lt)},
    [TN_BIN_LE] = {ROW_ALL(le)},
    [TN_BIN_GT] = {ROW_ALL(gt)},
    [TN_BIN_GE] = {ROW_ALL(ge)},
    [TN_BIN_HYPOT] = {ROW_FLOAT(hypot)},
    [TN_BIN_COPYSIGN] = {ROW_FLOAT(copysign)},
    [TN_BIN_XLOGY] = {ROW_FLOAT(xlogy)},
    [TN_BIN_XLOG1PY] = {ROW_FLOAT(xlog1py)},
    [TN_BIN_NEXTAFTER] = {ROW_FLOAT(nextafter)},
    [TN_BIN_LOGADDEXP] = {ROW_FLOAT(logaddexp)},
    [TN_BIN_LOGADDEXP2] = {ROW_FLOAT(logaddexp2)},
    [TN_BIN_HEAVISIDE] = {ROW_ALL(heaviside)},
    [TN_BIN_ZETA] = {ROW_FLOAT(zeta)},
    [TN_BIN_IGAMMA] = {ROW_FLOAT(igamma)},
    [TN_BIN_IGAMMAC] = {ROW_FLOAT(igammac)},
    [TN_BIN_SIGMOID_BACKWARD] = {ROW_FLOAT(sigmoid_backward)},
    [TN_BIN_TANH_BACKWARD] = {ROW_FLOAT(tanh_backward)},
    [TN_BIN_SILU_BACKWARD] = {ROW_FLOAT(silu_backward)},
    [TN_BIN_GELU_BACKWARD] = {ROW_FLOAT(gelu_backward)},
    [TN_BIN_GELU_TANH_BACKWARD] = {ROW_FLOAT(gelu_tanh_backward)},
    [TN_BIN_THRESHOLD_BACKWARD] = {ROW_NUM(threshold_backward)},
};

static int
binary_out_is_bool(int op)
{
    switch (op) {
    case TN_BIN_LOGICAL_AND: case TN_BIN_LOGICAL_OR: case TN_BIN_LOGICAL_XOR:
    case TN_BIN_EQ: case TN_BIN_NE: case TN_BIN_LT: case TN_BIN_LE: case TN_BIN_GT:
    case TN_BIN_GE:
        return 1;
    default:
        return 0;
    }
}

/* Two operands with SLEEF's vector math (Note [SLEEF bodies] in unary.c): upstream's vector body
 * of whole 2 * Vec::size() chunks (both operands contiguous, or one a broadcast value) computes
 * atan2, hypot, pow, logaddexp and logaddexp2 with Vectorized<T>'s methods, its scalar tail with
 * glibc (the scalar rows above). logaddexp: m = maximum(a, b) (NaN propagated), then
 * m + log1p(exp(-|a - b|)), a itself where a == b is infinite; logaddexp2 the same with exp2 and
 * the product by 1/ln 2 fused into the sum, as upstream's compiler fuses it. */
#if TN_X86
/* an op that is one SLEEF function of two operands, its accuracy U */
#define SLEEF_PLAIN2(OP, SN, U)                                                           \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl2_##OP##_##SN(VT_##SN a, VT_##SN b)                                                 \
    {                                                                                     \
        return SL_##SN(OP, U)(a, b);                                                      \
    }

#define SLEEF_BIN_FORMULAS(SN, T)                                                         \
    SLEEF_PLAIN2(atan2, SN, u10)                                                          \
    SLEEF_PLAIN2(hypot, SN, u05)                                                          \
    SLEEF_PLAIN2(pow, SN, u10)                                                            \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl2_max_nan_##SN(VT_##SN a, VT_##SN b)                                                \
    {                                                                                     \
        return V_##SN(or)(V_##SN(max)(a, b), V_##SN(cmp)(a, b, _CMP_UNORD_Q));            \
    }                                                                                     \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl2_neg_abs_diff_##SN(VT_##SN a, VT_##SN b)                                           \
    {                                                                                     \
        VT_##SN sign = V_##SN(set1)((T)-0.0);                                             \
        return V_##SN(xor)(sign, V_##SN(andnot)(sign, V_##SN(sub)(a, b)));                \
    }                                                                                     \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl2_inf_tie_##SN(VT_##SN a, VT_##SN b)                                                \
    {                                                                                     \
        VT_##SN abs_a = V_##SN(andnot)(V_##SN(set1)((T)-0.0), a);                         \
        return V_##SN(and)(V_##SN(cmp)(a, b, _CMP_EQ_OQ),                                 \
                           V_##SN(cmp)(abs_a, V_##SN(set1)((T)INFINITY), _CMP_EQ_OQ));    \
    }                                                                                     \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl2_logaddexp_##SN(VT_##SN a, VT_##SN b)                                              \
    {                                                                                     \
        VT_##SN r = V_##SN(add)(sl2_max_nan_##SN(a, b),                                   \
                                SL_##SN(log1p, u10)(SL_##SN(exp, u10)(sl2_neg_abs_diff_##SN(a, b)))); \
        return V_##SN(blendv)(r, a, sl2_inf_tie_##SN(a, b));                              \
    }                                                                                     \
    TN_TARGET_AVX2 static inline VT_##SN                                                  \
    sl2_logaddexp2_##SN(VT_##SN a, VT_##SN b)                                             \
    {                                                                                     \
        VT_##SN l = SL_##SN(log1p, u10)(SL_##SN(exp2, u10)(sl2_neg_abs_diff_##SN(a, b))); \
        VT_##SN r = V_##SN(fmadd)(l, V_##SN(set1)((T)ONE_OVER_LN2), sl2_max_nan_##SN(a, b)); \
        return V_##SN(blendv)(r, a, sl2_inf_tie_##SN(a, b));                              \
    }

/* body through SLEEF, tail through the op's scalar row */
#define SLEEF_BIN_ROW(OP, SN, T)                                                          \
    TN_TARGET_AVX2 static void                                                            \
    OP##_##SN##_sleef_body(T *o, const T *x, int64_t sx, const T *y, int64_t sy, int64_t n) \
    {                                                                                     \
        for (int64_t i = 0; i < n; i += LANES_##SN) {                                     \
            VT_##SN a = sx ? V_##SN(loadu)(x + i) : V_##SN(set1)(x[0]);                   \
            VT_##SN b = sy ? V_##SN(loadu)(y + i) : V_##SN(set1)(y[0]);                   \
            V_##SN(storeu)(o + i, sl2_##OP##_##SN(a, b));                                 \
        }                                                                                 \
    }                                                                                     \
    static void                                                                           \
    OP##_##SN##_sleefrow(void *ctx, char *const *p, const int64_t *s, int64_t n)          \
    {                                                                                     \
        int64_t body = tn_vector_body(s, 2, n, 2 * LANES_##SN * (tn_cpu_has_avx512() ? 2 : 1)); \
        OP##_##SN##_sleef_body((T *)p[0], (const T *)p[1], s[1], (const T *)p[2], s[2], body); \
        if (body < n) {                                                                   \
            char *tail[3] = {p[0] + body * sizeof(T), p[1] + body * sizeof(T) * s[1],     \
                             p[2] + body * sizeof(T) * s[2]};                             \
            OP##_##SN(ctx, tail, s, n - body);                                            \
        }                                                                                 \
    }

#define SLEEF_BIN_ROWS(SN, T)                                                             \
    SLEEF_BIN_FORMULAS(SN, T)                                                             \
    SLEEF_BIN_ROW(atan2, SN, T)                                                           \
    SLEEF_BIN_ROW(hypot, SN, T)                                                           \
    SLEEF_BIN_ROW(pow, SN, T)                                                             \
    SLEEF_BIN_ROW(logaddexp, SN, T)                                                       \
    SLEEF_BIN_ROW(logaddexp2, SN, T)

SLEEF_BIN_ROWS(f32, float)
SLEEF_BIN_ROWS(f64, double)

#define SLEEF_BIN_CASES(SN)                                                               \
    case TN_BIN_ATAN2: return atan2_##SN##_sleefrow;                                      \
    case TN_BIN_HYPOT: return hypot_##SN##_sleefrow;                                      \
    case TN_BIN_POW: return pow_##SN##_sleefrow;                                          \
    case TN_BIN_LOGADDEXP: return logaddexp_##SN##_sleefrow;                              \
    case TN_BIN_LOGADDEXP2: return logaddexp2_##SN##_sleefrow;
#endif

/* f16/bf16 with a SLEEF body: upstream converts 2 * Vectorized<Half>::size() elements to float
 * vectors, the tail to float one by one (tn_widen_split_row) */
static int
sleef_bin_op(int row)
{
    return row == TN_BIN_ATAN2 || row == TN_BIN_HYPOT || row == TN_BIN_LOGADDEXP || row == TN_BIN_LOGADDEXP2 ||
           row == TN_BIN_POW;
}

/* The f64 row for op: SLEEF's body where upstream's is */
static tn_row_fn
f64_row(int row)
{
#if TN_X86
    if (!tn_elementwise_reference() && tn_cpu_has_avx2()) {
        switch (row) {
        SLEEF_BIN_CASES(f64)
        default: break;
        }
    }
#endif
    return binary_table[row][TN_SLOT_F64];
}

/* The f32 row for op, with its AVX2 wrapper when the CPU has AVX2 and tests are not asking
 * for the reference loops. */
static tn_row_fn
f32_row(int row)
{
#if TN_X86
    if (!tn_elementwise_reference() && tn_cpu_has_avx2()) {
        switch (row) {
        SLEEF_BIN_CASES(f32)
        case TN_BIN_ADD: return add_f32_avx2row;
        case TN_BIN_SUB: return sub_f32_avx2row;
        case TN_BIN_MUL: return mul_f32_avx2row;
        case TN_BIN_DIV: return div_f32_avx2row;
        case BIN_ADD_ALPHA: return add_alpha_f32_avx2row;
        case BIN_SUB_ALPHA: return sub_alpha_f32_avx2row;
        case TN_BIN_SILU_BACKWARD: return silu_backward_f32_avx2row;
        default: break;
        }
    }
#endif
    return binary_table[row][TN_SLOT_F32];
}

/* Reads a scalar converted to dtype back as the compute types the rows use. */
static tn_status
scalar_params(int dtype, tn_kscalar v, float *f, double *d, uint64_t *w)
{
    unsigned char buf[8] = {0};
    tn_status st = tn_scalar_to_dtype(dtype, v, buf);
    if (st != TN_OK)
        return st;
    *f = 0;
    *d = 0;
    *w = 0;
    switch (dtype) {
    case TN_DTYPE_BOOL: *w = buf[0] != 0; break;
    case TN_DTYPE_U8: *w = buf[0]; break;
    case TN_DTYPE_I8: { int8_t t; memcpy(&t, buf, 1); *w = (uint64_t)(int64_t)t; break; }
    case TN_DTYPE_I16: { int16_t t; memcpy(&t, buf, 2); *w = (uint64_t)(int64_t)t; break; }
    case TN_DTYPE_I32: { int32_t t; memcpy(&t, buf, 4); *w = (uint64_t)(int64_t)t; break; }
    case TN_DTYPE_I64: { int64_t t; memcpy(&t, buf, 8); *w = (uint64_t)t; break; }
    case TN_DTYPE_F16: { uint16_t t; memcpy(&t, buf, 2); *f = tn_f16_to_f32(t); *d = *f; break; }
    case TN_DTYPE_BF16: { uint16_t t; memcpy(&t, buf, 2); *f = tn_bf16_to_f32(t); *d = *f; break; }
    case TN_DTYPE_F32: memcpy(f, buf, 4); *d = *f; break;
    case TN_DTYPE_F64: memcpy(d, buf, 8); *f = (float)*d; break;
    default: return TN_ERR_DTYPE;
    }
    return TN_OK;
}

static int
is_unit(int dtype, const bin_params *k)
{
    if (tn_dtype_is_floating(dtype))
        return dtype == TN_DTYPE_F64 ? k->alpha_d == 1.0 : k->alpha_f == 1.0f;
    return k->alpha_w == 1;
}

/* Shared by tn_binary and tn_binary_scalar. float_b: operand 2 is an f32 scalar (f16/bf16 only). */
static tn_status
binary_run(int op, int dtype, const tn_loop *l, void **base, int float_b, tn_kscalar alpha)
{
    if ((unsigned)op >= TN_NUM_BINARY)
        return TN_ERR_VALUE;
    int slot = tn_dtype_slot(dtype);
    if (slot < 0)
        return TN_ERR_DTYPE;

    bin_ctx c;
    memset(&c.k, 0, sizeof c.k);
    atomic_init(&c.error, 0);
    c.avx2 = tn_cpu_has_avx2();
    tn_status st = scalar_params(dtype, alpha, &c.k.alpha_f, &c.k.alpha_d, &c.k.alpha_w);
    if (st != TN_OK)
        return st;
    int row = op;
    if (op == TN_BIN_ADD && !is_unit(dtype, &c.k))
        row = BIN_ADD_ALPHA;
    if (op == TN_BIN_SUB && !is_unit(dtype, &c.k))
        row = BIN_SUB_ALPHA;

    int out_bool = binary_out_is_bool(op);
    int size = tn_dtype_size(dtype);
    int elsize[3] = {out_bool ? 1 : size, size, float_b ? 4 : size};
    tn_widen w;
    tn_widen_split hs;
    tn_row_fn fn;
    void *ctx = &c;

    switch (dtype) {
    case TN_DTYPE_F16:
    case TN_DTYPE_BF16:
        c.k.half = dtype == TN_DTYPE_F16 ? 1 : 2;
        /* ops computed on the 16-bit values (Note [Vector body and tail], nextafter) */
        switch (row) {
        case TN_BIN_NEXTAFTER: fn = dtype == TN_DTYPE_F16 ? nextafter_f16 : nextafter_bf16; break;
        case BIN_ADD_ALPHA: fn = add_alpha_half; break;
        case BIN_SUB_ALPHA: fn = sub_alpha_half; break;
        case TN_BIN_MAXIMUM: fn = maximum_half; break;
        case TN_BIN_MINIMUM: fn = minimum_half; break;
        default: fn = NULL; break;
        }
        if (fn)
            break;
        memset(&w, 0, sizeof w);
        w.dtype = dtype;
        w.ninputs = 2;
        w.out_keep = out_bool;
        w.keep_elsize[0] = 1;
        w.keep[2] = float_b;
        w.keep_elsize[2] = 4;
        w.ctx = &c;
        if (op == TN_BIN_DIV_TRUNC && !float_b)
            w.fn = div_trunc_half;
        else if (op == TN_BIN_DIV_FLOOR && !float_b)
            w.fn = div_floor_half;
        else if (op == TN_BIN_SIGMOID_BACKWARD && dtype == TN_DTYPE_F16)
            w.fn = sigmoid_backward_half;
        else if (op == TN_BIN_XLOGY && !float_b)
            w.fn = xlogy_half;
        else if (op == TN_BIN_XLOG1PY && !float_b)
            w.fn = xlog1py_half;
        else
            w.fn = f32_row(row);
        if (!w.fn)
            return TN_ERR_DTYPE;
        fn = tn_widen_row;
        ctx = &w;
        if (!float_b && sleef_bin_op(row) && w.fn != binary_table[row][TN_SLOT_F32]) {
            hs.body = w;
            hs.tail = w;
            hs.tail.fn = binary_table[row][TN_SLOT_F32];
            hs.chunk = tn_cpu_has_avx512() ? 64 : 32;
            fn = tn_widen_split_row;
            ctx = &hs;
        }
        break;
    case TN_DTYPE_F32:
        fn = f32_row(row);
        break;
    case TN_DTYPE_F64:
        fn = f64_row(row);
        break;
    case TN_DTYPE_BOOL: case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16:
    case TN_DTYPE_I32: case TN_DTYPE_I64:
        fn = binary_table[row][slot];
        break;
    default:
        return TN_ERR_DTYPE;
    }
    if (!fn)
        return TN_ERR_DTYPE;
    st = tn_loop_run_rows(l, 3, base, elsize, TN_ELEMENTWISE_GRAIN, fn, ctx);
    if (st != TN_OK)
        return st;
    return atomic_load(&c.error) ? TN_ERR_VALUE : TN_OK;
}

/* eq / ne, mul and bitwise and / or / xor of uint16 / uint32 / uint64 (upstream's kernels for
 * these take the barebones unsigned types; its others refuse them): equality of bits, a product
 * modulo 2^n (the signed rows multiply in the unsigned wide type) and bitwise ops are the same bits
 * in the same-size signed loop. A Python-number operand converts to that signed type by wrapping,
 * as upstream's conversion to the unsigned one does (uint16 == 65536 compares with 0). Every other
 * op keeps the dtype (its refusal). */
static int
bits_dtype(tn_binary_op op, int dtype)
{
    if (op != TN_BIN_EQ && op != TN_BIN_NE && op != TN_BIN_MUL && op != TN_BIN_BITAND && op != TN_BIN_BITOR &&
        op != TN_BIN_BITXOR)
        return dtype;
    switch (dtype) {
    case TN_DTYPE_U16: return TN_DTYPE_I16;
    case TN_DTYPE_U32: return TN_DTYPE_I32;
    case TN_DTYPE_U64: return TN_DTYPE_I64;
    default: return dtype;
    }
}

tn_status
tn_binary(tn_binary_op op, int dtype, const tn_loop *l, void *out, const void *a, const void *b,
          tn_kscalar alpha)
{
    dtype = bits_dtype(op, dtype);
    void *base[3] = {out, (void *)a, (void *)b};
    return binary_run(op, dtype, l, base, 0, alpha);
}

/* A copy of a two-operand loop with a third, broadcast operand. */
static void
loop_with_scalar(const tn_loop *l, tn_loop *out, int nops)
{
    out->ndim = l->ndim;
    out->noperands = nops;
    for (int d = 0; d < l->ndim; d++) {
        out->sizes[d] = l->sizes[d];
        for (int k = 0; k < nops; k++)
            out->strides[k][d] = k < l->noperands ? l->strides[k][d] : 0;
    }
}

tn_status
tn_binary_scalar(tn_binary_op op, int dtype, const tn_loop *l, void *out, const void *a,
                 tn_kscalar b, tn_kscalar alpha)
{
    tn_loop l3;
    loop_with_scalar(l, &l3, 3);
    dtype = bits_dtype(op, dtype);
    int reduced = dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16;
    int float_b = reduced && (op == TN_BIN_MUL || op == TN_BIN_DIV || op == TN_BIN_DIV_TRUNC ||
                              op == TN_BIN_DIV_FLOOR);
    union {
        unsigned char bytes[8];
        float f;
    } bv;
    memset(&bv, 0, sizeof bv);
    if (float_b) {
        bv.f = (float)tn_kscalar_double(b);
    } else {
        tn_status st = tn_scalar_to_dtype(dtype, b, bv.bytes);
        if (st != TN_OK)
            return st;
    }
    void *base[3] = {out, (void *)a, bv.bytes};
    return binary_run(op, dtype, &l3, base, float_b, alpha);
}

/* ---- where ---- */

#define WHERE_ROW(NAME, T)                                                                \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        (void)ctx;                                                                        \
        T *o = (T *)p[0];                                                                 \
        const uint8_t *c = (const uint8_t *)p[1];                                         \
        const T *x = (const T *)p[2], *y = (const T *)p[3];                               \
        int fast = !tn_elementwise_reference() && s[0] == 1 && s[1] == 1;                 \
        /* both sides loaded unconditionally so the selects become blends */              \
        if (fast && s[2] == 1 && s[3] == 1) {                                             \
            for (int64_t i = 0; i < n; i++) {                                             \
                T a = x[i], b = y[i];                                                     \
                o[i] = c[i] ? a : b;                                                      \
            }                                                                             \
        } else if (fast && s[2] == 1 && s[3] == 0) {                                      \
            const T b = y[0];                                                             \
            for (int64_t i = 0; i < n; i++) {                                             \
                T a = x[i];                                                               \
                o[i] = c[i] ? a : b;                                                      \
            }                                                                             \
        } else if (fast && s[2] == 0 && s[3] == 1) {                                      \
            const T a = x[0];                                                             \
            for (int64_t i = 0; i < n; i++) {                                             \
                T b = y[i];                                                               \
                o[i] = c[i] ? a : b;                                                      \
            }                                                                             \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = c[i * s[1]] ? x[i * s[2]] : y[i * s[3]];                    \
        }                                                                                 \
    }

/* where moves bits, so rows go by element size. */
WHERE_ROW(where_u8, uint8_t)
WHERE_ROW(where_u16, uint16_t)
WHERE_ROW(where_u32, uint32_t)
WHERE_ROW(where_u64, uint64_t)
typedef struct {
    uint64_t lo, hi;
} where_bits128;  /* a complex128 element's bytes */
WHERE_ROW(where_u128, where_bits128)

tn_status
tn_where(int dtype, const tn_loop *l, void *out, const void *cond, const void *a, const void *b)
{
    tn_row_fn fn;
    /* where moves elements: complex ones too (the ops' dtype lists decide which dtypes come here) */
    switch (tn_dtype_movable(dtype) ? tn_dtype_size(dtype) : 0) {
    case 1: fn = where_u8; break;
    case 2: fn = where_u16; break;
    case 4: fn = where_u32; break;
    case 8: fn = where_u64; break;
    case 16: fn = where_u128; break;
    default: return TN_ERR_DTYPE;
    }
    int size = tn_dtype_size(dtype);
    void *base[4] = {out, (void *)cond, (void *)a, (void *)b};
    int elsize[4] = {size, 1, size, size};
    return tn_loop_run_rows(l, 4, base, elsize, TN_ELEMENTWISE_GRAIN, fn, NULL);
}

/* ---- rows with one input and typed parameters: clamp and pow_scalar ---- */

typedef struct {
    float lo_f, hi_f;
    double lo_d, hi_d;
    int64_t lo_i, hi_i;
    int mode;  /* pow_scalar: which POW_* form */
    int half;  /* pow_scalar on bf16: round between steps */
    float e_f;
    double e_d;
    int64_t e_i;
} one_in_params;

#define UNARY_PARAM_LOOPS(FN, NAME, T, ATTR)                                              \
    ATTR static void                                                                      \
    FN(const one_in_params *kp, T *o, const T *x, int64_t n)                              \
    {                                                                                     \
        const one_in_params kl = *kp, *k = &kl;                                           \
        for (int64_t i = 0; i < n; i++)                                                   \
            o[i] = NAME##_op(x[i], k);                                                    \
    }

/* Like BIN_ROW for one input: contiguous rows run a baseline or an AVX2 build of the loop. */
#define UNARY_PARAM_ROW(NAME, T, EXPR)                                                    \
    static inline T                                                                       \
    NAME##_op(T a, const one_in_params *k)                                                \
    {                                                                                     \
        (void)k;                                                                          \
        return (T)(EXPR);                                                                 \
    }                                                                                     \
    UNARY_PARAM_LOOPS(NAME##__base, NAME, T, )                                            \
    UNARY_PARAM_LOOPS(NAME##__avx2, NAME, T, TN_TARGET_AVX2)                              \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        const one_in_params kp = *(const one_in_params *)ctx;                             \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1];                                                     \
        if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 1) {                      \
            (tn_cpu_has_avx2() ? NAME##__avx2 : NAME##__base)(&kp, o, x, n);              \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = NAME##_op(x[i * s[1]], &kp);                                \
        }                                                                                 \
    }

/* clamp: min(max(a, lo), hi) with std::max/std::min's argument order, so NaN inputs survive
 * and ties keep a. Absent bounds are -inf/+inf (or the type's range). */
#define CLAMP_EXPR(LO, HI) ((k->HI < (a < k->LO ? k->LO : a)) ? k->HI : (a < k->LO ? k->LO : a))
UNARY_PARAM_ROW(clamp_f32, float, CLAMP_EXPR(lo_f, hi_f))
UNARY_PARAM_ROW(clamp_f64, double, CLAMP_EXPR(lo_d, hi_d))
UNARY_PARAM_ROW(clamp_u8, uint8_t, CLAMP_EXPR(lo_i, hi_i))
UNARY_PARAM_ROW(clamp_i8, int8_t, CLAMP_EXPR(lo_i, hi_i))
UNARY_PARAM_ROW(clamp_i16, int16_t, CLAMP_EXPR(lo_i, hi_i))
UNARY_PARAM_ROW(clamp_i32, int32_t, CLAMP_EXPR(lo_i, hi_i))
UNARY_PARAM_ROW(clamp_i64, int64_t, CLAMP_EXPR(lo_i, hi_i))

/* Runs a row over the first nops operands of l (the output, then nops - 1 inputs, all of
 * dtype): `other` for f32/f64/integers, the f32 row widened for f16/bf16. */
static tn_status
param_run(int dtype, const tn_loop *l, int nops, void **base, tn_row_fn f32, tn_row_fn other,
          void *ctx)
{
    int size = tn_dtype_size(dtype);
    int elsize[TN_LOOP_MAX_OPERANDS] = {size, size, size, size};
    tn_widen w;
    tn_row_fn fn = other;
    if (dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16) {
        memset(&w, 0, sizeof w);
        w.dtype = dtype;
        w.ninputs = nops - 1;
        w.fn = f32;
        w.ctx = ctx;
        fn = tn_widen_row;
        ctx = &w;
    }
    if (!fn)
        return TN_ERR_DTYPE;
    return tn_loop_run_rows(l, nops, base, elsize, TN_ELEMENTWISE_GRAIN, fn, ctx);
}

/* One input and typed parameters (clamp, pow_scalar). */
static tn_status
unary_param_run(int dtype, const tn_loop *l, void *out, const void *in, tn_row_fn f32,
                tn_row_fn other, void *ctx)
{
    void *base[2] = {out, (void *)in};
    return param_run(dtype, l, 2, base, f32, other, ctx);
}

static double
dtype_value(int dtype, tn_kscalar v, int64_t *iv)
{
    float f = 0;
    double d = 0;
    uint64_t w = 0;
    scalar_params(dtype, v, &f, &d, &w);
    *iv = (int64_t)w;
    return dtype == TN_DTYPE_F64 ? d : (double)f;
}

tn_status
tn_clamp(int dtype, const tn_loop *l, void *out, const void *in, int has_lo, tn_kscalar lo,
         int has_hi, tn_kscalar hi)
{
    one_in_params k;
    memset(&k, 0, sizeof k);
    tn_row_fn fn = NULL;
    int64_t lo_i = 0, hi_i = 0;
    double lo_d = has_lo ? dtype_value(dtype, lo, &lo_i) : -INFINITY;
    double hi_d = has_hi ? dtype_value(dtype, hi, &hi_i) : INFINITY;
    switch (dtype) {
    case TN_DTYPE_U8: fn = clamp_u8; break;
    case TN_DTYPE_I8: fn = clamp_i8; break;
    case TN_DTYPE_I16: fn = clamp_i16; break;
    case TN_DTYPE_I32: fn = clamp_i32; break;
    case TN_DTYPE_I64: fn = clamp_i64; break;
    case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32: fn = clamp_f32; break;
    case TN_DTYPE_F64: fn = clamp_f64; break;
    default: return TN_ERR_DTYPE;
    }
    if (tn_dtype_is_floating(dtype) && (lo_d != lo_d || hi_d != hi_d)) {
        /* upstream's clamp_out fills with NaN when a bound is NaN */
        tn_kscalar nan = {TN_KSCALAR_DOUBLE, 0, NAN};
        return tn_fill(l, dtype, out, nan);
    }
    k.lo_f = (float)lo_d;
    k.hi_f = (float)hi_d;
    k.lo_d = lo_d;
    k.hi_d = hi_d;
    k.lo_i = has_lo ? lo_i : INT64_MIN;
    k.hi_i = has_hi ? hi_i : INT64_MAX;
    return unary_param_run(dtype, l, out, in, clamp_f32, fn, &k);
}

/* pow with a scalar exponent. Note [pow_scalar forms]: upstream's PowKernel picks a form from
 * the exponent; bf16 takes the same forms as f32 but with the exponent rounded to bf16 first and
 * Vectorized<BFloat16> rounding between the multiplications (k->half). */
enum { POW_GENERAL, POW_SQRT, POW_RSQRT, POW_RECIP, POW_SQUARE, POW_CUBE, POW_INV_SQUARE };

#define POW_FORMS(SN, T, M, EF)                                                            \
    static inline T                                                                        \
    pow_scalar_##SN##_s(T a, const one_in_params *k)                                       \
    {                                                                                      \
        switch (k->mode) {                                                                 \
        case POW_SQRT: return M(sqrt)(a);                                                  \
        case POW_RSQRT: return (T)1 / M(sqrt)(a);                                          \
        case POW_RECIP: return (T)1 / a;                                                   \
        case POW_SQUARE: return a * a;                                                     \
        case POW_CUBE: return k->half ? round_half(a * a, k->half) * a : a * a * a;        \
        case POW_INV_SQUARE: return (T)1 / (k->half ? round_half(a * a, k->half) : a * a); \
        default: return M(pow)(a, k->EF);                                                  \
        }                                                                                  \
    }

POW_FORMS(f32, float, MF_f32, e_f)
POW_FORMS(f64, double, MF_f64, e_d)
UNARY_PARAM_ROW(pow_scalar_f32, float, pow_scalar_f32_s(a, k))
UNARY_PARAM_ROW(pow_scalar_f64, double, pow_scalar_f64_s(a, k))

/* float and double take one row per form, so the contiguous loops vectorise (a switch per
 * element does not); exponent 1 copies, as upstream's pow_out does. */
#define POW_FORM_ROWS(SN, T, M)                                                            \
    UNARY_PARAM_ROW(pow_one_##SN, T, a)                                                    \
    UNARY_PARAM_ROW(pow_sqrt_##SN, T, M(sqrt)(a))                                          \
    UNARY_PARAM_ROW(pow_rsqrt_##SN, T, (T)1 / M(sqrt)(a))                                  \
    UNARY_PARAM_ROW(pow_recip_##SN, T, (T)1 / a)                                           \
    UNARY_PARAM_ROW(pow_square_##SN, T, a * a)                                             \
    UNARY_PARAM_ROW(pow_cube_##SN, T, a * a * a)                                           \
    UNARY_PARAM_ROW(pow_inv_square_##SN, T, (T)1 / (a * a))                                \
    static tn_row_fn                                                                       \
    pow_form_row_##SN(int mode, double e)                                                  \
    {                                                                                      \
        switch (mode) {                                                                    \
        case POW_SQRT: return pow_sqrt_##SN;                                               \
        case POW_RSQRT: return pow_rsqrt_##SN;                                             \
        case POW_RECIP: return pow_recip_##SN;                                             \
        case POW_SQUARE: return pow_square_##SN;                                           \
        case POW_CUBE: return pow_cube_##SN;                                               \
        case POW_INV_SQUARE: return pow_inv_square_##SN;                                   \
        default: return e == 1.0 ? pow_one_##SN : pow_scalar_##SN;                         \
        }                                                                                  \
    }
POW_FORM_ROWS(f32, float, MF_f32)
POW_FORM_ROWS(f64, double, MF_f64)
UNARY_PARAM_ROW(pow_scalar_u8, uint8_t, pow_u8_s(a, (uint8_t)k->e_i))
UNARY_PARAM_ROW(pow_scalar_i8, int8_t, pow_i8_s(a, (int8_t)k->e_i))
UNARY_PARAM_ROW(pow_scalar_i16, int16_t, pow_i16_s(a, (int16_t)k->e_i))
UNARY_PARAM_ROW(pow_scalar_i32, int32_t, pow_i32_s(a, (int32_t)k->e_i))
UNARY_PARAM_ROW(pow_scalar_i64, int64_t, pow_i64_s(a, (int64_t)k->e_i))

/* Two pow forms where upstream's vector body and scalar tail differ (Note [Vector body and
 * tail]). The pow kernel is built for AVX512 too, so its chunks are 32 f32 and 64 bf16 there.
 *   f32 and f64, general exponent: the body computes SLEEF's pow(x, e) (Vectorized<T>::pow, e in
 *   the dtype; Note [SLEEF bodies] in unary.c), the f32 tail pow((double)x, e), the f64 tail pow.
 *   bf16, e = -0.5: the body rounds 1/sqrt(x) once, the tail rounds sqrt(x) first. */
#if TN_X86
#define POW_GENERAL_BODY(SN, T)                                                            \
    TN_TARGET_AVX2 static void                                                             \
    pow_general_body_##SN(T *o, const T *x, int64_t sx, int64_t n, T e)                    \
    {                                                                                      \
        VT_##SN ev = V_##SN(set1)(e);                                                      \
        for (int64_t i = 0; i < n; i += LANES_##SN)                                        \
            V_##SN(storeu)(o + i, SL_##SN(pow, u10)(sx ? V_##SN(loadu)(x + i) : V_##SN(set1)(x[0]), ev)); \
    }
POW_GENERAL_BODY(f32, float)
POW_GENERAL_BODY(f64, double)
#endif

#if TN_X86
#define POW_SLEEF_BODY(SN, FIELD)                                                          \
    if (!tn_elementwise_reference() && tn_cpu_has_avx2()) {                                \
        pow_general_body_##SN(o, x, s[1], body, k->FIELD);                                 \
        done = body;                                                                       \
    }
#else
#define POW_SLEEF_BODY(SN, FIELD)
#endif

/* the body (the exponent in the dtype: SLEEF's, or libm's in the reference loops), then the tail
 * (in double for f32, as upstream's scalar loop with its double exponent) */
#define POW_GENERAL_ROW(SN, T, FIELD, M, TAIL)                                             \
    static void                                                                            \
    pow_general_##SN(void *ctx, char *const *p, const int64_t *s, int64_t n)               \
    {                                                                                      \
        const one_in_params *k = ctx;                                                      \
        T *o = (T *)p[0];                                                                  \
        const T *x = (const T *)p[1];                                                      \
        int64_t body = tn_vector_body(s, 1, n, 64 / (int64_t)sizeof(T) * (tn_cpu_has_avx512() ? 2 : 1)), done = 0; \
        POW_SLEEF_BODY(SN, FIELD)                                                          \
        for (int64_t i = done; i < body; i++)                                              \
            o[i] = M(pow)(x[i * s[1]], k->FIELD);                                          \
        for (int64_t i = body; i < n; i++) {                                               \
            T a = x[i * s[1]];                                                             \
            o[i * s[0]] = TAIL;                                                            \
        }                                                                                  \
    }
POW_GENERAL_ROW(f32, float, e_f, MF_f32, (float)pow((double)a, k->e_d))
POW_GENERAL_ROW(f64, double, e_d, MF_f64, pow(a, k->e_d))

static void
pow_rsqrt_bf16(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    (void)ctx;
    uint16_t *o = (uint16_t *)p[0];
    const uint16_t *x = (const uint16_t *)p[1];
    int64_t body = s[0] == 1 && (s[1] == 1 || s[1] == 0) ? n - n % 64 : 0;
    for (int64_t i = 0; i < n; i++) {
        float a = tn_bf16_to_f32(x[i * s[1]]);
        float r = i < body ? 1.0f / sqrtf(a) : 1.0f / round_half(sqrtf(a), 2);
        o[i * s[0]] = tn_f32_to_bf16(r);
    }
}

static int
pow_mode(double e)
{
    if (e == 0.5) return POW_SQRT;
    if (e == -0.5) return POW_RSQRT;
    if (e == -1.0) return POW_RECIP;
    if (e == 2.0) return POW_SQUARE;
    if (e == 3.0) return POW_CUBE;
    if (e == -2.0) return POW_INV_SQUARE;
    return POW_GENERAL;
}

tn_status
tn_pow_scalar(int dtype, const tn_loop *l, void *out, const void *in, tn_kscalar exponent)
{
    one_in_params k;
    memset(&k, 0, sizeof k);
    tn_row_fn fn = NULL;
    double e = tn_kscalar_double(exponent);
    int64_t ei = 0;
    switch (dtype) {
    case TN_DTYPE_F32:
    case TN_DTYPE_F64:
        k.mode = pow_mode(e);
        k.e_d = e;
        k.e_f = (float)e;
        fn = dtype == TN_DTYPE_F32 ? pow_form_row_f32(k.mode, e) : pow_form_row_f64(k.mode, e);
        if (k.mode == POW_GENERAL && e != 1.0)
            fn = dtype == TN_DTYPE_F32 ? pow_general_f32 : pow_general_f64;
        break;
    case TN_DTYPE_BF16:
        k.mode = pow_mode(e);
        if (k.mode != POW_SQRT && k.mode != POW_RSQRT && k.mode != POW_RECIP) {
            /* the remaining forms are chosen after the exponent is rounded to bf16 */
            k.e_f = (float)dtype_value(dtype, exponent, &ei);
            k.mode = pow_mode(k.e_f);
            if (k.mode != POW_SQUARE && k.mode != POW_CUBE && k.mode != POW_INV_SQUARE)
                k.mode = POW_GENERAL;
        }
        k.half = 2;
        if (k.mode == POW_RSQRT) {
            void *base[2] = {out, (void *)in};
            int elsize[2] = {2, 2};
            return tn_loop_run_rows(l, 2, base, elsize, TN_ELEMENTWISE_GRAIN, pow_rsqrt_bf16, &k);
        }
        break;
    case TN_DTYPE_F16:
        k.mode = POW_GENERAL;
        k.e_f = (float)dtype_value(dtype, exponent, &ei);
        break;
    case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16: case TN_DTYPE_I32:
    case TN_DTYPE_I64:
        dtype_value(dtype, exponent, &ei);
        k.e_i = ei;
        fn = dtype == TN_DTYPE_U8    ? pow_scalar_u8
             : dtype == TN_DTYPE_I8  ? pow_scalar_i8
             : dtype == TN_DTYPE_I16 ? pow_scalar_i16
             : dtype == TN_DTYPE_I32 ? pow_scalar_i32
                                     : pow_scalar_i64;
        break;
    default:
        return TN_ERR_DTYPE;
    }
    return unary_param_run(dtype, l, out, in, pow_scalar_f32, fn, &k);
}

/* ---- ternary rows: lerp, addcmul, addcdiv ---- */

typedef struct {
    float v_f;
    double v_d;
    uint64_t v_w;
} tern_params;

#define TERN_LOOPS(FN, NAME, T, ATTR)                                                     \
    ATTR static void                                                                      \
    FN(const tern_params *kp, T *o, const T *x, const T *y, const T *z, int64_t n)        \
    {                                                                                     \
        const tern_params kl = *kp, *k = &kl;                                             \
        for (int64_t i = 0; i < n; i++)                                                   \
            o[i] = NAME##_op(x[i], y[i], z[i], k);                                        \
    }

/* Like BIN_ROW for three inputs: contiguous rows run a baseline or an AVX2 build. */
#define TERN_ROW(NAME, T, EXPR)                                                           \
    static inline T                                                                       \
    NAME##_op(T a, T b, T c, const tern_params *k)                                        \
    {                                                                                     \
        (void)k;                                                                          \
        (void)c;                                                                          \
        return (T)(EXPR);                                                                 \
    }                                                                                     \
    TERN_LOOPS(NAME##__base, NAME, T, )                                                   \
    TERN_LOOPS(NAME##__avx2, NAME, T, TN_TARGET_AVX2)                                     \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        const tern_params kp = *(const tern_params *)ctx;                                 \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1], *y = (const T *)p[2], *z = (const T *)p[3];         \
        if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 1 && s[2] == 1 &&         \
            s[3] == 1) {                                                                  \
            (tn_cpu_has_avx2() ? NAME##__avx2 : NAME##__base)(&kp, o, x, y, z, n);        \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = NAME##_op(x[i * s[1]], y[i * s[2]], z[i * s[3]], &kp);      \
        }                                                                                 \
    }

/* lerp as upstream's vector path: fmadd(coeff, end - start, base). */
#define LERP_EXPR(M, T, W)                                                                \
    (M(fabs)(W) < (T)0.5 ? M(fma)((W), b - a, a) : M(fma)((W) - (T)1, b - a, b))
TERN_ROW(lerp_f32, float, LERP_EXPR(MF_f32, float, c))
TERN_ROW(lerp_f64, double, LERP_EXPR(MF_f64, double, c))
/* lerp with a scalar weight: the third operand is unused (c) and the weight is k->v. */
TERN_ROW(lerp_scalar_f32, float, LERP_EXPR(MF_f32, float, k->v_f))
TERN_ROW(lerp_scalar_f64, double, LERP_EXPR(MF_f64, double, k->v_d))

TERN_ROW(addcmul_f32, float, fmaf(k->v_f * b, c, a))
TERN_ROW(addcmul_f64, double, fma(k->v_d * b, c, a))
TERN_ROW(addcmul_u8, uint8_t, (uint32_t)a + (uint32_t)k->v_w * (uint32_t)b * (uint32_t)c)
TERN_ROW(addcmul_i8, int8_t, (uint32_t)a + (uint32_t)k->v_w * (uint32_t)b * (uint32_t)c)
TERN_ROW(addcmul_i16, int16_t, (uint32_t)a + (uint32_t)k->v_w * (uint32_t)b * (uint32_t)c)
TERN_ROW(addcmul_i32, int32_t, (uint32_t)a + (uint32_t)k->v_w * (uint32_t)b * (uint32_t)c)
TERN_ROW(addcmul_i64, int64_t, (uint64_t)a + k->v_w * (uint64_t)b * (uint64_t)c)
TERN_ROW(addcdiv_f32, float, a + k->v_f * b / c)
TERN_ROW(addcdiv_f64, double, a + k->v_d * b / c)

/* The value of a ternary op: f32 for f16/bf16 and f32 (upstream's opmath), else the dtype. */
static tn_status
tern_value(int dtype, tn_kscalar v, tern_params *k)
{
    memset(k, 0, sizeof *k);
    if (dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16) {
        k->v_f = (float)tn_kscalar_double(v);
        k->v_d = k->v_f;
        return TN_OK;
    }
    return scalar_params(dtype, v, &k->v_f, &k->v_d, &k->v_w);
}

static tn_row_fn
float_row(int dtype, tn_row_fn f32, tn_row_fn f64)
{
    switch (dtype) {
    case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32: return f32;
    case TN_DTYPE_F64: return f64;
    default: return NULL;
    }
}

tn_status
tn_lerp_scalar(int dtype, const tn_loop *l, void *out, const void *start, const void *end,
               tn_kscalar weight)
{
    tern_params k;
    tn_status st = tern_value(dtype, weight, &k);
    if (st != TN_OK)
        return st;
    /* the row takes a third input it ignores: end again, with end's strides, so contiguous rows
     * stay on the vector path (a 0 stride would send them down the strided loop) */
    tn_loop l4;
    loop_with_scalar(l, &l4, 4);
    for (int d = 0; d < l->ndim; d++)
        l4.strides[3][d] = l->strides[2][d];
    void *base[4] = {out, (void *)start, (void *)end, (void *)end};
    return param_run(dtype, &l4, 4, base, lerp_scalar_f32,
                       float_row(dtype, lerp_scalar_f32, lerp_scalar_f64), &k);
}

tn_status
tn_lerp(int dtype, const tn_loop *l, void *out, const void *start, const void *end,
        const void *weight)
{
    tern_params k;
    memset(&k, 0, sizeof k);
    void *base[4] = {out, (void *)start, (void *)end, (void *)weight};
    return param_run(dtype, l, 4, base, lerp_f32, float_row(dtype, lerp_f32, lerp_f64), &k);
}

tn_status
tn_addcmul(int dtype, const tn_loop *l, void *out, const void *self, const void *t1,
           const void *t2, tn_kscalar value)
{
    tn_row_fn fn;
    switch (dtype) {
    case TN_DTYPE_U8: fn = addcmul_u8; break;
    case TN_DTYPE_I8: fn = addcmul_i8; break;
    case TN_DTYPE_I16: fn = addcmul_i16; break;
    case TN_DTYPE_I32: fn = addcmul_i32; break;
    case TN_DTYPE_I64: fn = addcmul_i64; break;
    case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32: fn = addcmul_f32; break;
    case TN_DTYPE_F64: fn = addcmul_f64; break;
    default: return TN_ERR_DTYPE;
    }
    tern_params k;
    tn_status st = tern_value(dtype, value, &k);
    if (st != TN_OK)
        return st;
    void *base[4] = {out, (void *)self, (void *)t1, (void *)t2};
    return param_run(dtype, l, 4, base, addcmul_f32, fn, &k);
}

tn_status
tn_addcdiv(int dtype, const tn_loop *l, void *out, const void *self, const void *t1,
           const void *t2, tn_kscalar value)
{
    tn_row_fn fn = float_row(dtype, addcdiv_f32, addcdiv_f64);
    if (!fn)
        return TN_ERR_DTYPE;
    tern_params k;
    tn_status st = tern_value(dtype, value, &k);
    if (st != TN_OK)
        return st;
    void *base[4] = {out, (void *)self, (void *)t1, (void *)t2};
    return param_run(dtype, l, 4, base, addcdiv_f32, fn, &k);
}

/* ---- activation gradients with parameters: out = f(grad, x) ---- */

typedef struct {
    float f[3];
    double d[3];
    int half;  /* logit on f16/bf16: 1 / 2, rounding every step */
} act_params;

#define ACT_LOOPS(FN, NAME, T, ATTR)                                                      \
    ATTR static void                                                                      \
    FN(const act_params *kp, T *o, const T *x, const T *y, int64_t n)                     \
    {                                                                                     \
        const act_params kl = *kp, *k = &kl;                                              \
        for (int64_t i = 0; i < n; i++)                                                   \
            o[i] = NAME##_op(x[i], y[i], k);                                              \
    }

/* ACT_ROW(name, T, expr): o = expr(a = grad, b = x) reading parameters through k; contiguous
 * rows run a baseline or an AVX2 build, as BIN_ROW. */
#define ACT_ROW(NAME, T, EXPR)                                                            \
    static inline T                                                                       \
    NAME##_op(T a, T b, const act_params *k)                                              \
    {                                                                                     \
        (void)k;                                                                          \
        return (T)(EXPR);                                                                 \
    }                                                                                     \
    ACT_LOOPS(NAME##__base, NAME, T, )                                                    \
    ACT_LOOPS(NAME##__avx2, NAME, T, TN_TARGET_AVX2)                                      \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        const act_params kp = *(const act_params *)ctx;                                   \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1], *y = (const T *)p[2];                               \
        if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 1 && s[2] == 1) {         \
            (tn_cpu_has_avx2() ? NAME##__avx2 : NAME##__base)(&kp, o, x, y, n);           \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = NAME##_op(x[i * s[1]], y[i * s[2]], &kp);                   \
        }                                                                                 \
    }

/* Upstream's expressions (aten/src/ATen/native/cpu/Activation.cpp, BinaryOpsKernel.cpp) in
 * their order of operations; P(j) is parameter j in the row's type. hardsigmoid's 1/6 is the
 * float constant 1.0f / 6.0f in every dtype, as upstream writes it. */
#define ACT_ROWS(SN, T, M, P)                                                                        \
    ACT_ROW(elu_bw_##SN, T, b > 0 ? a * P(1) : a * P(2) * P(0) * M(exp)(b * P(2)))                   \
    ACT_ROW(elu_result_bw_##SN, T, b > 0 ? a * P(1) : a * P(2) * (b + P(0)))                         \
    ACT_ROW(hardtanh_bw_##SN, T, (b > P(0) && b < P(1)) ? a : (T)0)                                  \
    ACT_ROW(leaky_relu_bw_##SN, T, b > 0 ? a : a * P(0))                                             \
    ACT_ROW(softplus_bw_##SN, T, softplus_bw_##SN##_s(a, b, P(0), P(1)))                             \
    ACT_ROW(hardsigmoid_bw_##SN, T, (b > (T)-3 && b < (T)3) ? a * (T)(1.0f / 6.0f) : (T)0)          \
    ACT_ROW(hardswish_bw_##SN, T, b <= (T)-3 ? (T)0 : b >= (T)3 ? a : a * ((b / (T)3) + (T)0.5))     \
    ACT_ROW(mish_bw_##SN, T, mish_bw_##SN##_s(a, b))                                                 \
    ACT_ROW(logit_bw_##SN, T, logit_bw_##SN##_s(a, b, k))                                           \
    ACT_ROW(shrink_bw_##SN, T, (b < -P(0) || b > P(0)) ? a : (T)0)

#define ACT_HELPERS(SN, T, M)                                                             \
    static inline T                                                                       \
    softplus_bw_##SN##_s(T a, T b, T beta, T threshold)                                   \
    {                                                                                     \
        T z = M(exp)(b * beta);                                                           \
        return (b * beta) > threshold ? a : a * z / (z + (T)1);                           \
    }                                                                                     \
    static inline T                                                                       \
    mish_bw_##SN##_s(T a, T b)                                                            \
    {                                                                                     \
        T sig = (T)1 / ((T)1 + M(exp)(-b));                                               \
        T ts = M(tanh)(M(log1p)(M(exp)(b)));                                              \
        return a * (ts + b * sig * ((T)1 - ts * ts));                                     \
    }

ACT_HELPERS(f32, float, MF_f32)
ACT_HELPERS(f64, double, MF_f64)

/* logit: p[0] = lo (eps), p[1] = hi (1 - eps), p[2] < 0 when eps is None: x outside [0, 1]
 * is NaN then, outside [lo, hi] is 0 otherwise. f16/bf16 round each step (k->half). */
static inline float
logit_bw_f32_s(float a, float b, const act_params *k)
{
    if (k->f[2] < 0 ? (b < 0 || b > 1) : (b < k->f[0] || b > k->f[1]))
        return k->f[2] < 0 ? NAN : 0.0f;
    if (b == 0 || b == 1)
        return a * INFINITY;
    if (k->half)
        return round_half(a / round_half(b * round_half(1.0f - b, k->half), k->half), k->half);
    return a / (b * (1.0f - b));
}

static inline double
logit_bw_f64_s(double a, double b, const act_params *k)
{
    if (k->d[2] < 0 ? (b < 0 || b > 1) : (b < k->d[0] || b > k->d[1]))
        return k->d[2] < 0 ? NAN : 0.0;
    if (b == 0 || b == 1)
        return a * INFINITY;
    return a / (b * (1.0 - b));
}

#define P_F(j) (k->f[j])
#define P_D(j) (k->d[j])
ACT_ROWS(f32, float, MF_f32, P_F)
ACT_ROWS(f64, double, MF_f64, P_D)

static const tn_row_fn act_bw_table[TN_NUM_ACT_BW][2] = {
    [TN_ACT_BW_ELU] = {elu_bw_f32, elu_bw_f64},
    [TN_ACT_BW_ELU_RESULT] = {elu_result_bw_f32, elu_result_bw_f64},
    [TN_ACT_BW_HARDTANH] = {hardtanh_bw_f32, hardtanh_bw_f64},
    [TN_ACT_BW_LEAKY_RELU] = {leaky_relu_bw_f32, leaky_relu_bw_f64},
    [TN_ACT_BW_SOFTPLUS] = {softplus_bw_f32, softplus_bw_f64},
    [TN_ACT_BW_HARDSIGMOID] = {hardsigmoid_bw_f32, hardsigmoid_bw_f64},
    [TN_ACT_BW_HARDSWISH] = {hardswish_bw_f32, hardswish_bw_f64},
    [TN_ACT_BW_MISH] = {mish_bw_f32, mish_bw_f64},
    [TN_ACT_BW_LOGIT] = {logit_bw_f32, logit_bw_f64},
    [TN_ACT_BW_SHRINK] = {shrink_bw_f32, shrink_bw_f64},
};

/* Note [Activation NaN tails]
 * For elu, hardtanh and hardswish upstream's vector body and scalar tail (Note [Vector body and
 * tail]; AVX2 chunks of 16 f32, 8 f64, 32 f16/bf16) disagree where a comparison is unordered.
 * elu_backward and hardswish_backward are registered for AVX-512 too
 * (ALSO_REGISTER_AVX512_DISPATCH), so on an AVX-512 CPU their chunks are twice those; the
 * hardtanh gradient (REGISTER_DISPATCH) runs the AVX2 build there. logit_backward's chunks are
 * the AVX-512 ones too on such a CPU (measured against 2.13: 16 float32 elements run its scalar
 * code, 33 its vector body for 32), and its vector body differs the other way round (logit_body).
 * elu and hardswish: where x is NaN the vector code gives NaN, the scalar code grad * c (c =
 * elu's scale, else 1). hardtanh: the vector code passes the gradient where
 * (x > min && x < max), the scalar code where !(x <= min || x >= max); they differ where x, min
 * or max is NaN (a NaN bound passes the gradient in the tail). hardshrink/softshrink's gradient
 * likewise: the vector code passes it where (x < -l || x > l), the scalar code where
 * !(x >= -l && x <= l). The rows compute the vector answer; this wrapper rewrites the scalar
 * positions. */
typedef struct {
    tn_row_fn fn;
    void *fctx;
    int dtype;
    float c_f;
    double c_d;
    int wide;           /* 2: upstream runs the AVX-512 build (elu, hardswish), chunks twice AVX2's */
    int form;           /* 1: the scalar form !(x <= lo || x >= hi) ? grad : 0 (hardtanh);
                         * 2: !(x >= lo && x <= hi) ? grad : 0 (shrink, lo = -lambd, hi = lambd);
                         * 3: logit's vector body rewritten (logit_body) */
    float lo_f, hi_f;   /* the bounds, in the row's math type */
    double lo_d, hi_d;
} act_tail;

/* logit_backward (form 3): the rows compute the scalar form; upstream's vector body is
 * (x >= lo && x <= hi) ? grad / (x * (1 - x)) : (eps < 0 ? NaN : 0), so there a NaN x gives 0
 * when eps >= 0 (NaN in the scalar code), so does every x when eps is NaN (lo = eps and
 * hi = 1 - eps NaN: the scalar code's (x < lo || x > hi) zeroes none, seed 8 #705395), and
 * x = -0.0 in range gives grad / -0.0 (grad * inf in the scalar code). lo_d < 0 marks eps < 0
 * (lo is 0 then). */
static void
logit_body(const act_tail *t, char *const *p, const int64_t *s, int64_t body)
{
    int eps_neg = t->lo_d < 0;
    double lo = eps_neg ? 0.0 : t->lo_d;
    for (int64_t i = 0; i < body; i++) {
        switch (t->dtype) {
        case TN_DTYPE_F64: {
            double x = ((const double *)p[2])[i * s[2]], g = ((const double *)p[1])[i * s[1]];
            if ((x != x || lo != lo) && !eps_neg)
                ((double *)p[0])[i * s[0]] = 0.0;
            else if (x == 0 && signbit(x) && x >= lo)
                ((double *)p[0])[i * s[0]] = g / (x * (1.0 - x));
            break;
        }
        case TN_DTYPE_F32: {
            float x = ((const float *)p[2])[i * s[2]], g = ((const float *)p[1])[i * s[1]];
            if ((x != x || t->lo_f != t->lo_f) && !eps_neg)
                ((float *)p[0])[i * s[0]] = 0.0f;
            else if (x == 0 && signbit(x) && x >= (float)t->lo_f)
                ((float *)p[0])[i * s[0]] = g / (x * (1.0f - x));
            break;
        }
        default: {
            int bf = t->dtype == TN_DTYPE_BF16;
            uint16_t hx = ((const uint16_t *)p[2])[i * s[2]], hg = ((const uint16_t *)p[1])[i * s[1]];
            float x = bf ? tn_bf16_to_f32(hx) : tn_f16_to_f32(hx);
            float g = bf ? tn_bf16_to_f32(hg) : tn_f16_to_f32(hg);
            if ((x != x || t->lo_f != t->lo_f) && !eps_neg) {
                ((uint16_t *)p[0])[i * s[0]] = 0;
            } else if (x == 0 && signbit(x) && x >= (eps_neg ? 0.0f : t->lo_f)) {
                float r = g / (x * (1.0f - x));
                ((uint16_t *)p[0])[i * s[0]] = bf ? tn_f32_to_bf16(r) : tn_f32_to_f16(r);
            }
            break;
        }
        }
    }
}

static void
act_tail_row(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    const act_tail *t = ctx;
    t->fn(t->fctx, p, s, n);
    int64_t chunk = (t->dtype == TN_DTYPE_F64 ? 8 : t->dtype == TN_DTYPE_F32 ? 16 : 32) * t->wide;
    int64_t body = tn_vector_body(s, 2, n, chunk);
    if (t->form == 3) {
        logit_body(t, p, s, body);
        return;
    }
    for (int64_t i = body; i < n; i++) {
        switch (t->dtype) {
        case TN_DTYPE_F64: {
            double x = ((const double *)p[2])[i * s[2]], g = ((const double *)p[1])[i * s[1]];
            if (t->form)
                ((double *)p[0])[i * s[0]] = (t->form == 1 ? (x <= t->lo_d || x >= t->hi_d)
                                                                : (x >= t->lo_d && x <= t->hi_d)) ? 0.0 : g;
            else if (x != x)
                ((double *)p[0])[i * s[0]] = g * t->c_d;
            break;
        }
        case TN_DTYPE_F32: {
            float x = ((const float *)p[2])[i * s[2]], g = ((const float *)p[1])[i * s[1]];
            if (t->form)
                ((float *)p[0])[i * s[0]] = (t->form == 1 ? (x <= t->lo_f || x >= t->hi_f)
                                                               : (x >= t->lo_f && x <= t->hi_f)) ? 0.0f : g;
            else if (x != x)
                ((float *)p[0])[i * s[0]] = g * t->c_f;
            break;
        }
        default: {
            int bf = t->dtype == TN_DTYPE_BF16;
            uint16_t hx = ((const uint16_t *)p[2])[i * s[2]], hg = ((const uint16_t *)p[1])[i * s[1]];
            float xv = bf ? tn_bf16_to_f32(hx) : tn_f16_to_f32(hx);
            if (t->form) {
                int zero = t->form == 1 ? (xv <= t->lo_f || xv >= t->hi_f) : (xv >= t->lo_f && xv <= t->hi_f);
                ((uint16_t *)p[0])[i * s[0]] = zero ? 0 : hg;
                break;
            }
            if (xv == xv)
                break;
            float r = (bf ? tn_bf16_to_f32(hg) : tn_f16_to_f32(hg)) * t->c_f;
            ((uint16_t *)p[0])[i * s[0]] = bf ? tn_f32_to_bf16(r) : tn_f32_to_f16(r);
            break;
        }
        }
    }
}

tn_status
tn_activation_backward(tn_act_bw_op op, int dtype, const tn_loop *l, void *out, const void *grad,
                       const void *x, const double *p)
{
    if ((unsigned)op >= TN_NUM_ACT_BW)
        return TN_ERR_VALUE;
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    act_params k;
    memset(&k, 0, sizeof k);
    int half = dtype == TN_DTYPE_F16 ? 1 : dtype == TN_DTYPE_BF16 ? 2 : 0;
    for (int j = 0; j < 3; j++) {
        k.d[j] = p ? p[j] : 0;
        k.f[j] = (float)k.d[j];
    }
    switch (op) {
    case TN_ACT_BW_ELU:
    case TN_ACT_BW_ELU_RESULT: {
        /* negcoef = alpha * scale in the math type, then (negcoef, poscoef, negiptcoef) */
        float nf = k.f[0] * k.f[1];
        double nd = k.d[0] * k.d[1];
        k.f[0] = nf;
        k.d[0] = nd;
        break;
    }
    case TN_ACT_BW_LOGIT: {
        double eps = k.d[0];
        float ef = half ? round_half((float)eps, half) : (float)eps;
        k.half = half;
        k.f[0] = ef;
        k.f[1] = half ? round_half(1.0f - ef, half) : 1.0f - ef;
        k.d[0] = eps;
        k.d[1] = 1.0 - eps;
        k.f[2] = eps < 0 ? -1.0f : 1.0f;
        k.d[2] = eps < 0 ? -1.0 : 1.0;
        break;
    }
    default:
        break;
    }
    tn_row_fn f32 = act_bw_table[op][0], fn = dtype == TN_DTYPE_F64 ? act_bw_table[op][1] : f32;
    void *ctx = &k;
    tn_widen w;
    if (dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16) {
        memset(&w, 0, sizeof w);
        w.dtype = dtype;
        w.ninputs = 2;
        w.fn = f32;
        w.ctx = &k;
        fn = tn_widen_row;
        ctx = &w;
    }
    int shrink = op == TN_ACT_BW_SHRINK;
    act_tail t = {fn,
                  ctx,
                  dtype,
                  1.0f,
                  1.0,
                  op != TN_ACT_BW_HARDTANH && !shrink && tn_cpu_has_avx512() ? 2 : 1,
                  op == TN_ACT_BW_HARDTANH ? 1 : shrink ? 2 : 0,
                  shrink ? -k.f[0] : k.f[0],
                  shrink ? k.f[0] : k.f[1],
                  shrink ? -k.d[0] : k.d[0],
                  shrink ? k.d[0] : k.d[1]};
    if (op == TN_ACT_BW_LOGIT) {
        t.form = 3;
        t.lo_d = k.d[2] < 0 ? -1.0 : k.d[0];
    }
    if (op == TN_ACT_BW_ELU || op == TN_ACT_BW_ELU_RESULT || op == TN_ACT_BW_HARDTANH ||
        op == TN_ACT_BW_HARDSWISH || shrink || op == TN_ACT_BW_LOGIT) {
        if (op == TN_ACT_BW_ELU || op == TN_ACT_BW_ELU_RESULT) {
            t.c_f = k.f[1];
            t.c_d = k.d[1];
        }
        fn = act_tail_row;
        ctx = &t;
    }
    int size = tn_dtype_size(dtype);
    void *base[3] = {out, (void *)grad, (void *)x};
    int elsize[3] = {size, size, size};
    return tn_loop_run_rows(l, 3, base, elsize, TN_ELEMENTWISE_GRAIN, fn, ctx);
}

/* ---- log_sigmoid_backward: out = (max_deriv - sign * (b / (1 + b))) * grad ----
 * x < 0: max_deriv 1, sign 1; else (NaN too) 0 and -1. sign * q is exact, so upstream's
 * contraction of that step into an fma changes nothing; f16/bf16 compute in f32 (widened). */
#define LOGSIG_BW_ROW(NAME, T)                                                            \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        (void)ctx;                                                                        \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1], *b = (const T *)p[2], *g = (const T *)p[3];         \
        for (int64_t i = 0; i < n; i++) {                                                 \
            T a = x[i * s[1]], bv = b[i * s[2]];                                          \
            int in_negative = a < (T)0;                                                   \
            T max_deriv = in_negative ? (T)1 : (T)0, sign = in_negative ? (T)1 : (T)-1;   \
            o[i * s[0]] = (max_deriv - sign * (bv / ((T)1 + bv))) * g[i * s[3]];          \
        }                                                                                 \
    }
LOGSIG_BW_ROW(logsig_bw_f32, float)
LOGSIG_BW_ROW(logsig_bw_f64, double)

tn_status
tn_log_sigmoid_backward(int dtype, const tn_loop *l, void *out, const void *x, const void *buffer,
                        const void *grad)
{
    tn_row_fn fn = float_row(dtype, logsig_bw_f32, logsig_bw_f64);
    if (!fn)
        return TN_ERR_DTYPE;
    void *base[4] = {out, (void *)x, (void *)buffer, (void *)grad};
    return param_run(dtype, l, 4, base, logsig_bw_f32, fn, NULL);
}

/* ---- complex (Note [Complex arithmetic]) ----
 * complex64 / complex128 add, sub, mul, div, eq, ne: interleaved (re, im) pairs computed in the
 * element's own precision as c10::complex does: a product is (ac - bd, ad + bc), a quotient
 * follows c10's (NumPy's) scaled division by the larger of |c| and |d|, alpha multiplies b as
 * a complex number. */

typedef struct {
    double alpha_re, alpha_im;
    int op;
} cbin_ctx;

#define CBIN_ROW(NAME, T)                                                                     \
    static void                                                                               \
    NAME(void *vctx, char *const *p, const int64_t *s, int64_t n)                             \
    {                                                                                         \
        const cbin_ctx *c = vctx;                                                             \
        const T *x = (const T *)p[1], *y = (const T *)p[2];                                   \
        T ar = (T)c->alpha_re, ai = (T)c->alpha_im;                                           \
        for (int64_t i = 0; i < n; i++) {                                                     \
            T a = x[2 * i * s[1]], b = x[2 * i * s[1] + 1];                                   \
            T cr = y[2 * i * s[2]], d = y[2 * i * s[2] + 1];                                  \
            T re, im;                                                                         \
            if (c->op == TN_BIN_ADD || c->op == TN_BIN_SUB) {                                 \
                T tr = cr * ar - d * ai, ti = cr * ai + d * ar;                               \
                cr = tr;                                                                      \
                d = ti;                                                                       \
            }                                                                                 \
            switch (c->op) {                                                                  \
            case TN_BIN_ADD: re = a + cr; im = b + d; break;                                  \
            case TN_BIN_SUB: re = a - cr; im = b - d; break;                                  \
            case TN_BIN_MUL: re = a * cr - b * d; im = a * d + b * cr; break;                 \
            case TN_BIN_DIV: {                                                                \
                /* fabs: a -0.0 divisor scales as +0.0 (c10's std::abs) */                  \
                T abs_c = (T)fabs((double)cr), abs_d = (T)fabs((double)d);                    \
                if (abs_c >= abs_d) {                                                         \
                    if (abs_c == 0 && abs_d == 0) {                                           \
                        re = a / abs_c;                                                       \
                        im = b / abs_d;                                                       \
                    } else {                                                                  \
                        T rat = d / cr, scl = (T)1.0 / (cr + d * rat);                        \
                        re = (a + b * rat) * scl;                                             \
                        im = (b - a * rat) * scl;                                             \
                    }                                                                         \
                } else {                                                                      \
                    T rat = cr / d, scl = (T)1.0 / (d + cr * rat);                            \
                    re = (a * rat + b) * scl;                                                 \
                    im = (b * rat - a) * scl;                                                 \
                }                                                                             \
                break;                                                                        \
            }                                                                                 \
            default: {                                                                        \
                int eq = a == cr && b == d;                                                   \
                ((uint8_t *)p[0])[i * s[0]] = (uint8_t)(c->op == TN_BIN_EQ ? eq : !eq);       \
                continue;                                                                     \
            }                                                                                 \
            }                                                                                 \
            ((T *)p[0])[2 * i * s[0]] = re;                                                   \
            ((T *)p[0])[2 * i * s[0] + 1] = im;                                               \
        }                                                                                     \
    }

CBIN_ROW(cbin_c64, float)
CBIN_ROW(cbin_c128, double)

tn_status
tn_binary_complex(tn_binary_op op, int dtype, const tn_loop *l, void *out, const void *a, const void *b,
                  double alpha_re, double alpha_im)
{
    if (op != TN_BIN_ADD && op != TN_BIN_SUB && op != TN_BIN_MUL && op != TN_BIN_DIV && op != TN_BIN_EQ &&
        op != TN_BIN_NE)
        return TN_ERR_DTYPE;
    if (dtype != TN_DTYPE_C64 && dtype != TN_DTYPE_C128)
        return TN_ERR_DTYPE;
    /* alpha multiplies b as a complex number even when it is 1, as upstream's a + alpha * b:
     * (1 + 0j) * (inf + 0j) is inf + nanj, so x + inf has a NaN imaginary part there too */
    cbin_ctx c = {alpha_re, alpha_im, op};
    int size = tn_dtype_size(dtype);
    int elsize[3] = {op == TN_BIN_EQ || op == TN_BIN_NE ? 1 : size, size, size};
    void *base[3] = {out, (void *)a, (void *)b};
    return tn_loop_run_rows(l, 3, base, elsize, TN_ELEMENTWISE_GRAIN,
                            dtype == TN_DTYPE_C64 ? cbin_c64 : cbin_c128, &c);
}
