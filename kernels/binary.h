/* Elementwise binary kernels (out = a op b) and the ternary helpers built the same way: where,
 * clamp, pow with a scalar exponent, lerp, addcmul, addcdiv.
 * Adding a binary op: an enum value here, its name in tn_binary_names, and its scalar
 * expressions in the op list of binary.c (see Note [Binary op list] there).
 */
#ifndef TN_KERNELS_BINARY_H
#define TN_KERNELS_BINARY_H

#include "element.h"
#include "loop.h"

typedef enum {
    TN_BIN_ADD,
    TN_BIN_SUB,
    TN_BIN_MUL,
    TN_BIN_DIV,
    TN_BIN_DIV_TRUNC,
    TN_BIN_DIV_FLOOR,
    TN_BIN_REMAINDER,
    TN_BIN_FMOD,
    TN_BIN_POW,
    TN_BIN_ATAN2,
    TN_BIN_MAXIMUM,
    TN_BIN_MINIMUM,
    TN_BIN_FMAX,
    TN_BIN_FMIN,
    TN_BIN_BITAND,
    TN_BIN_BITOR,
    TN_BIN_BITXOR,
    TN_BIN_LSHIFT,
    TN_BIN_RSHIFT,
    TN_BIN_LOGICAL_AND,
    TN_BIN_LOGICAL_OR,
    TN_BIN_LOGICAL_XOR,
    TN_BIN_EQ,
    TN_BIN_NE,
    TN_BIN_LT,
    TN_BIN_LE,
    TN_BIN_GT,
    TN_BIN_GE,
    TN_BIN_HYPOT,
    TN_BIN_COPYSIGN,
    TN_BIN_XLOGY,
    TN_BIN_XLOG1PY,
    TN_BIN_NEXTAFTER,
    TN_BIN_LOGADDEXP,
    TN_BIN_LOGADDEXP2,
    TN_BIN_HEAVISIDE,
    TN_BIN_ZETA,                /* Hurwitz zeta(a, b) (special_zeta) */
    TN_BIN_IGAMMA,              /* regularized lower incomplete gamma P(a, b) */
    TN_BIN_IGAMMAC,             /* regularized upper incomplete gamma Q(a, b) */
    TN_BIN_SIGMOID_BACKWARD,    /* a = grad, b = sigmoid output: a * (1 - b) * b */
    TN_BIN_TANH_BACKWARD,       /* a = grad, b = tanh output: a * (1 - b * b) */
    TN_BIN_SILU_BACKWARD,       /* a = grad, b = input */
    TN_BIN_GELU_BACKWARD,       /* a = grad, b = input; exact (erf) gelu */
    TN_BIN_GELU_TANH_BACKWARD,  /* a = grad, b = input; gelu(approximate='tanh') */
    TN_BIN_THRESHOLD_BACKWARD,  /* a = grad, b = input: b <= alpha ? 0 : a (alpha = threshold) */
    TN_NUM_BINARY
} tn_binary_op;

extern const char *const tn_binary_names[TN_NUM_BINARY];

/* out = a op b. Loop operands: 0 out, 1 a, 2 b. a and b have `dtype`; out has `dtype` except for
 * comparisons and logical ops, whose out is bool. ADD/SUB: a + alpha*b / a - alpha*b with alpha
 * converted to dtype (floats fuse it into one fma, as upstream's vectorised add does); alpha is
 * also the threshold of THRESHOLD_BACKWARD and is ignored by the other ops. Integer division by
 * zero in DIV_TRUNC/DIV_FLOOR/REMAINDER/FMOD returns TN_ERR_VALUE (upstream raises
 * ZeroDivisionError); MIN / -1 wraps instead of trapping. f16/bf16 are widened to f32, computed,
 * and rounded once, except where upstream rounds after each step (Note [Half precision steps]).
 * maximum/minimum of +0 and -0, and f16/bf16 add/sub with alpha != 1, follow upstream's vector
 * body and scalar tail position by position (Note [Vector body and tail]).
 * Ops upstream does not define for a dtype (DIV on integers, bit ops on floats, SUB on bool, ...)
 * return TN_ERR_DTYPE. */
tn_status tn_binary(tn_binary_op op, int dtype, const tn_loop *l, void *out, const void *a,
                    const void *b, tn_kscalar alpha);

/* out = a op b for complex64 / complex128 (ADD, SUB, MUL, DIV, EQ, NE; others TN_ERR_DTYPE):
 * operands as tn_binary's; alpha (ADD/SUB) is the complex number alpha_re + i alpha_im. A
 * complex Python number b is passed as a 0-stride operand. Note [Complex arithmetic]. */
tn_status tn_binary_complex(tn_binary_op op, int dtype, const tn_loop *l, void *out, const void *a,
                            const void *b, double alpha_re, double alpha_im);

/* out = a op b where b is a Python number (a "wrapped scalar" upstream). Loop operands: 0 out, 1 a.
 * For f16/bf16 MUL, DIV, DIV_TRUNC and DIV_FLOOR upstream computes with b in float precision
 * (not rounded to the dtype); this entry does the same. Otherwise b is converted to dtype. */
tn_status tn_binary_scalar(tn_binary_op op, int dtype, const tn_loop *l, void *out, const void *a,
                           tn_kscalar b, tn_kscalar alpha);

/* out = where(cond, a, b): operands 0 out, 1 cond (bool), 2 a, 3 b; a, b, out have dtype. */
tn_status tn_where(int dtype, const tn_loop *l, void *out, const void *cond, const void *a,
                   const void *b);

/* Clamp to [lo, hi] (either may be absent: has_lo/has_hi); operands 0 out, 1 in. Bounds are
 * converted to dtype. A NaN input stays NaN; a NaN bound makes every output NaN (upstream fills).
 * min(max(x, lo), hi), so lo > hi gives hi. No bool. */
tn_status tn_clamp(int dtype, const tn_loop *l, void *out, const void *in, int has_lo,
                   tn_kscalar lo, int has_hi, tn_kscalar hi);

/* out = in ** exponent; operands 0 out, 1 in. f32/f64 (and bf16): 0.5 -> sqrt, -0.5 -> 1/sqrt,
 * -1 -> 1/x, 2 -> x*x, 3 -> x*x*x, -2 -> 1/(x*x), otherwise pow(x, e); bf16 picks the last three
 * after rounding e to bf16 and rounds between the multiplications, as Vectorized<BFloat16> does.
 * f16 always takes pow(x, (f16)e). Where upstream's vector body and scalar tail differ (f32
 * general e, bf16 -0.5) we follow both (Note [Vector body and tail] in binary.c). Integers:
 * exact integer power of e converted to the dtype (negative e: 1 for 1, +-1 for -1, else 0;
 * runtime/ raises first, as upstream does). No bool. */
tn_status tn_pow_scalar(int dtype, const tn_loop *l, void *out, const void *in,
                        tn_kscalar exponent);

/* lerp: out = start + weight * (end - start), upstream's two-sided form (|w| < 0.5 from start,
 * otherwise from end), fused as upstream's vector path. Floating dtypes only.
 * tn_lerp_scalar: operands 0 out, 1 start, 2 end; weight kept in f32 for f16/bf16 (as upstream).
 * tn_lerp: operands 0 out, 1 start, 2 end, 3 weight (dtype). */
tn_status tn_lerp_scalar(int dtype, const tn_loop *l, void *out, const void *start, const void *end,
                         tn_kscalar weight);
tn_status tn_lerp(int dtype, const tn_loop *l, void *out, const void *start, const void *end,
                  const void *weight);

/* out = self + value * t1 * t2 (addcmul) and self + value * t1 / t2 (addcdiv); operands 0 out,
 * 1 self, 2 t1, 3 t2. f16/bf16 compute in f32 with value in f32. addcmul takes every dtype but
 * bool; addcdiv floating dtypes only (upstream refuses integer addcdiv). */
tn_status tn_addcmul(int dtype, const tn_loop *l, void *out, const void *self, const void *t1,
                     const void *t2, tn_kscalar value);
tn_status tn_addcdiv(int dtype, const tn_loop *l, void *out, const void *self, const void *t1,
                     const void *t2, tn_kscalar value);

/* Gradients of the parameterised activations: out = f(grad, x). Loop operands: 0 out, 1 grad,
 * 2 x, all of dtype (f16, bf16, f32, f64). x is the forward input unless the op says otherwise.
 * p holds the op's Scalars as doubles, converted here as upstream converts them (to the dtype
 * for f32/f64, to f32 for f16/bf16, which compute in f32 and round once; logit rounds every
 * step in f16/bf16 as upstream's Half arithmetic does). Where upstream's vector body and
 * scalar tail disagree (NaN inputs of elu and hardtanh, hardswish at exactly 3) the vector
 * body's answer is used everywhere. */
typedef enum {
    TN_ACT_BW_ELU,          /* p: alpha, scale, input_scale */
    TN_ACT_BW_ELU_RESULT,   /* the same, x the forward result (elu_backward is_result=True) */
    TN_ACT_BW_HARDTANH,     /* p: min_val, max_val: grad where min < x < max, else 0 */
    TN_ACT_BW_LEAKY_RELU,   /* p: negative_slope */
    TN_ACT_BW_SOFTPLUS,     /* p: beta, threshold */
    TN_ACT_BW_HARDSIGMOID,
    TN_ACT_BW_HARDSWISH,
    TN_ACT_BW_MISH,
    TN_ACT_BW_LOGIT,        /* p: eps, negative for none */
    TN_ACT_BW_SHRINK,       /* p: lambd: grad where x < -lambd or x > lambd, else 0 (hard/softshrink) */
    TN_NUM_ACT_BW
} tn_act_bw_op;

tn_status tn_activation_backward(tn_act_bw_op op, int dtype, const tn_loop *l, void *out,
                                 const void *grad, const void *x, const double *p);
/* log_sigmoid_backward: loop operands 0 out, 1 x (the forward input), 2 buffer (exp(-|x|), its
 * forward's second output), 3 grad, all of dtype (f16, bf16, f32, f64; TN_ERR_DTYPE else). */
tn_status tn_log_sigmoid_backward(int dtype, const tn_loop *l, void *out, const void *x, const void *buffer,
                                  const void *grad);

#endif /* TN_KERNELS_BINARY_H */
