/* Elementwise unary kernels: out = f(in), with up to three double parameters per op.
 * Adding an op: an enum value here (with its parameters documented), its name in
 * tn_unary_names, and its scalar expressions in the op lists of unary.c (Note [Unary op list]).
 */
#ifndef TN_KERNELS_UNARY_H
#define TN_KERNELS_UNARY_H

#include "element.h"
#include "loop.h"

typedef enum {
    TN_UN_NEG,
    TN_UN_ABS,
    TN_UN_EXP,
    TN_UN_EXP2,
    TN_UN_EXPM1,
    TN_UN_LOG,
    TN_UN_LOG2,
    TN_UN_LOG10,
    TN_UN_LOG1P,
    TN_UN_SQRT,
    TN_UN_RSQRT,
    TN_UN_SIN,
    TN_UN_COS,
    TN_UN_TAN,
    TN_UN_ASIN,
    TN_UN_ACOS,
    TN_UN_ATAN,
    TN_UN_SINH,
    TN_UN_COSH,
    TN_UN_TANH,
    TN_UN_ASINH,
    TN_UN_ACOSH,
    TN_UN_ATANH,
    TN_UN_SIGMOID,
    TN_UN_SILU,
    TN_UN_GELU,
    TN_UN_GELU_TANH,
    TN_UN_RELU,
    TN_UN_ERF,
    TN_UN_ERFC,
    TN_UN_ERFINV,
    TN_UN_FLOOR,
    TN_UN_CEIL,
    TN_UN_ROUND,        /* p[0]: decimals (0 when p is NULL); integers only take 0 */
    TN_UN_TRUNC,
    TN_UN_FRAC,
    TN_UN_SIGN,
    TN_UN_RECIPROCAL,
    TN_UN_BITNOT,
    TN_UN_LOGICAL_NOT,  /* out is bool */
    TN_UN_ISNAN,        /* out is bool */
    TN_UN_ISINF,        /* out is bool */
    TN_UN_ISFINITE,     /* out is bool */
    TN_UN_SIGNBIT,      /* out is bool */
    TN_UN_MISH,
    TN_UN_HARDSWISH,
    TN_UN_HARDSIGMOID,
    TN_UN_LGAMMA,
    TN_UN_DIGAMMA,
    TN_UN_SOFTPLUS,     /* p[0]: beta, p[1]: threshold */
    TN_UN_ELU,          /* p[0]: alpha, p[1]: scale, p[2]: input_scale (celu and selu too) */
    TN_UN_LEAKY_RELU,   /* p[0]: negative_slope */
    TN_UN_HARDTANH,     /* p[0]: min_val, p[1]: max_val (clamp; also relu6) */
    TN_UN_THRESHOLD,    /* p[0]: threshold, p[1]: value: x <= threshold ? value : x */
    TN_UN_ISPOSINF,     /* out is bool */
    TN_UN_ISNEGINF,     /* out is bool */
    TN_UN_NAN_TO_NUM,   /* p[0]: nan, p[1]: posinf, p[2]: neginf replacements (runtime fills
                           the defaults: 0, the dtype's max and lowest) */
    TN_UN_LOGIT,        /* p[0]: eps; negative means no clamping */
    TN_UN_HARDSHRINK,   /* p[0]: lambda */
    TN_UN_SOFTSHRINK,   /* p[0]: lambda */
    TN_UN_POLYGAMMA,    /* p[0]: n as an int32 (1: trigamma, else ATen's calc_polygamma formula) */
    TN_UN_I0,           /* the special functions of special.h, one each */
    TN_UN_I0E,
    TN_UN_I1,
    TN_UN_I1E,
    TN_UN_BESSEL_I0,    /* special_modified_bessel_i0 */
    TN_UN_BESSEL_I1,
    TN_UN_BESSEL_K0,
    TN_UN_BESSEL_K1,
    TN_UN_BESSEL_K0E,   /* special_scaled_modified_bessel_k0 */
    TN_UN_BESSEL_K1E,
    TN_UN_BESSEL_J0,
    TN_UN_BESSEL_J1,
    TN_UN_BESSEL_Y0,
    TN_UN_BESSEL_Y1,
    TN_UN_SPHERICAL_J0,
    TN_UN_AIRY_AI,
    TN_UN_ERFCX,
    TN_UN_LOG_NDTR,
    TN_UN_NDTRI,
    TN_UN_ENTR,         /* special_entr: -x log x */
    TN_NUM_UNARY
} tn_unary_op;

extern const char *const tn_unary_names[TN_NUM_UNARY];

/* out = f(in); loop operands 0 out, 1 in. in and out have dtype except for the ops marked
 * "out is bool". p carries the parameters listed beside each op (NULL when it reads none; only
 * the listed entries are read);
 * they are converted as upstream converts its Scalars: to f32 for f16/bf16/f32 math, to the
 * dtype where upstream compares against them (hardtanh, threshold, nan_to_num).
 * Integer and bool inputs: ops upstream only defines for floats return TN_ERR_DTYPE (runtime/
 * promotes first where upstream does); floor/ceil/round/trunc copy; see unary.c for the rest. */
tn_status tn_unary(tn_unary_op op, int dtype, const tn_loop *l, void *out, const void *in,
                   const double *p);
/* How many of p[0..2] an op reads */
int tn_unary_param_count(int op);
/* The same with the parameters as Scalars keep them (an int stays exact: threshold(int64,
 * value=2**63-1) stores 2**63-1, which a double cannot carry) */
tn_status tn_unary_k(tn_unary_op op, int dtype, const tn_loop *l, void *out, const void *in,
                     const tn_kscalar *p);
/* out = -in (conj: -conj(in)) for complex64 / complex128 (dtype), as upstream's neg (neg_conj)
 * kernel: loop operands 0 out, 1 in, strides in complex elements. TN_ERR_DTYPE for any other
 * dtype. */
tn_status tn_neg_complex(int dtype, int conj, const tn_loop *l, void *out, const void *in);
/* log_sigmoid_forward over n contiguous elements of dtype (f16, bf16, f32, f64): buffer =
 * exp(-|x|), out = min(x, 0) - log1p(buffer), every element through SLEEF's vector exp and
 * log1p as upstream's kernel (f16/bf16 computed in f32, both results rounded once). out may be
 * x itself. TN_ERR_DTYPE for any other dtype. */
tn_status tn_log_sigmoid_forward(int dtype, int64_t n, void *out, void *buffer, const void *x);

#endif /* TN_KERNELS_UNARY_H */
