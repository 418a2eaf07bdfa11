/* Elementwise combines for the collective backend (see collective.h). Workers are named
 * combine_<op>_<dtype>; each is a plain loop the compiler vectorizes (-O3, no FP contraction,
 * so a float sum rounds once per element per rank, as upstream's reference `a + b` does).
 * f16/bf16 compute in float and round to nearest even per step, as c10::Half/BFloat16 do.
 */
#include "kernels/collective.h"

#include <math.h>
#include <stddef.h>

#define LOOP(name, T, EXPR)                                                      \
    static void name(void *acc_, const void *src_, int64_t n)                    \
    {                                                                            \
        T *restrict a = acc_;                                                    \
        const T *restrict b = src_;                                              \
        for (int64_t i = 0; i < n; i++) {                                        \
            T x = a[i], y = b[i];                                                \
            a[i] = (EXPR);                                                       \
        }                                                                        \
    }

/* integers: unsigned arithmetic wraps as two's complement does in c10 */
#define INT_LOOPS(T, U, sfx)                                                     \
    LOOP(combine_sum_##sfx, T, (T)((U)x + (U)y))                                 \
    LOOP(combine_product_##sfx, T, (T)((U)x * (U)y))                             \
    LOOP(combine_min_##sfx, T, y < x ? y : x)                                    \
    LOOP(combine_max_##sfx, T, y > x ? y : x)                                    \
    LOOP(combine_band_##sfx, T, x & y)                                           \
    LOOP(combine_bor_##sfx, T, x | y)                                            \
    LOOP(combine_bxor_##sfx, T, x ^ y)

INT_LOOPS(uint8_t, uint8_t, u8)
INT_LOOPS(int8_t, uint8_t, i8)
INT_LOOPS(int16_t, uint16_t, i16)
INT_LOOPS(int32_t, uint32_t, i32)
INT_LOOPS(int64_t, uint64_t, i64)
INT_LOOPS(uint16_t, uint16_t, u16)
INT_LOOPS(uint32_t, uint32_t, u32)
INT_LOOPS(uint64_t, uint64_t, u64)

/* bool: sum and max are or, product and min are and (torch's bool arithmetic) */
LOOP(combine_or_bool, uint8_t, (uint8_t)((x | y) != 0))
LOOP(combine_and_bool, uint8_t, (uint8_t)((x != 0) & (y != 0)))
LOOP(combine_xor_bool, uint8_t, (uint8_t)((x != 0) ^ (y != 0)))

/* NaN-propagating min/max (torch.minimum / torch.maximum) */
#define FMIN(x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (y) < (x) ? (y) : (x))
#define FMAX(x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (y) > (x) ? (y) : (x))

#define FLOAT_LOOPS(T, sfx)                                                      \
    LOOP(combine_sum_##sfx, T, x + y)                                            \
    LOOP(combine_product_##sfx, T, x * y)                                        \
    LOOP(combine_min_##sfx, T, FMIN(x, y))                                       \
    LOOP(combine_max_##sfx, T, FMAX(x, y))

FLOAT_LOOPS(float, f32)
FLOAT_LOOPS(double, f64)

#define HALF_LOOPS(LOADF, STOREF, sfx)                                           \
    LOOP(combine_sum_##sfx, uint16_t, STOREF(LOADF(x) + LOADF(y)))               \
    LOOP(combine_product_##sfx, uint16_t, STOREF(LOADF(x) * LOADF(y)))           \
    LOOP(combine_min_##sfx, uint16_t, STOREF(FMIN(LOADF(x), LOADF(y))))          \
    LOOP(combine_max_##sfx, uint16_t, STOREF(FMAX(LOADF(x), LOADF(y))))

HALF_LOOPS(tn_f16_to_f32, tn_f32_to_f16, f16)
HALF_LOOPS(tn_bf16_to_f32, tn_f32_to_bf16, bf16)

typedef void (*combine_fn)(void *, const void *, int64_t);

/* The loop for (op, dtype), NULL when there is none. */
static combine_fn
pick(int op, int dtype)
{
    if (op == TN_REDOP_AVG)
        op = TN_REDOP_SUM;
#define INT_CASE(D, sfx)                                                         \
    case D:                                                                      \
        switch (op) {                                                            \
        case TN_REDOP_SUM: return combine_sum_##sfx;                             \
        case TN_REDOP_PRODUCT: return combine_product_##sfx;                     \
        case TN_REDOP_MIN: return combine_min_##sfx;                             \
        case TN_REDOP_MAX: return combine_max_##sfx;                             \
        case TN_REDOP_BAND: return combine_band_##sfx;                           \
        case TN_REDOP_BOR: return combine_bor_##sfx;                             \
        case TN_REDOP_BXOR: return combine_bxor_##sfx;                           \
        default: return NULL;                                                    \
        }
#define FLOAT_CASE(D, sfx)                                                       \
    case D:                                                                      \
        switch (op) {                                                            \
        case TN_REDOP_SUM: return combine_sum_##sfx;                             \
        case TN_REDOP_PRODUCT: return combine_product_##sfx;                     \
        case TN_REDOP_MIN: return combine_min_##sfx;                             \
        case TN_REDOP_MAX: return combine_max_##sfx;                             \
        default: return NULL;                                                    \
        }
    switch (dtype) {
    INT_CASE(TN_DTYPE_U8, u8)
    INT_CASE(TN_DTYPE_I8, i8)
    INT_CASE(TN_DTYPE_I16, i16)
    INT_CASE(TN_DTYPE_I32, i32)
    INT_CASE(TN_DTYPE_I64, i64)
    INT_CASE(TN_DTYPE_U16, u16)
    INT_CASE(TN_DTYPE_U32, u32)
    INT_CASE(TN_DTYPE_U64, u64)
    FLOAT_CASE(TN_DTYPE_F32, f32)
    FLOAT_CASE(TN_DTYPE_F64, f64)
    FLOAT_CASE(TN_DTYPE_F16, f16)
    FLOAT_CASE(TN_DTYPE_BF16, bf16)
    case TN_DTYPE_BOOL:
        switch (op) {
        case TN_REDOP_SUM: case TN_REDOP_MAX: case TN_REDOP_BOR: return combine_or_bool;
        case TN_REDOP_PRODUCT: case TN_REDOP_MIN: case TN_REDOP_BAND: return combine_and_bool;
        case TN_REDOP_BXOR: return combine_xor_bool;
        default: return NULL;
        }
    default:
        return NULL;
    }
#undef INT_CASE
#undef FLOAT_CASE
}

int
tn_collective_supports(int op, int dtype)
{
    if (op == TN_REDOP_AVG)
        return tn_dtype_is_kernel_float(dtype);
    return pick(op, dtype) != NULL;
}

tn_status
tn_collective_combine(int op, int dtype, void *acc, const void *src, int64_t n)
{
    combine_fn f = pick(op, dtype);
    if (!f)
        return TN_ERR_DTYPE;
    f(acc, src, n);
    return TN_OK;
}

tn_status
tn_collective_divide(int dtype, void *acc, int64_t n, int64_t divisor)
{
    switch (dtype) {
    case TN_DTYPE_F32: {
        float *a = acc, d = (float)divisor;
        for (int64_t i = 0; i < n; i++)
            a[i] = a[i] / d;
        return TN_OK;
    }
    case TN_DTYPE_F64: {
        double *a = acc, d = (double)divisor;
        for (int64_t i = 0; i < n; i++)
            a[i] = a[i] / d;
        return TN_OK;
    }
    case TN_DTYPE_F16: {
        uint16_t *a = acc;
        float d = (float)divisor;
        for (int64_t i = 0; i < n; i++)
            a[i] = tn_f32_to_f16(tn_f16_to_f32(a[i]) / d);
        return TN_OK;
    }
    case TN_DTYPE_BF16: {
        uint16_t *a = acc;
        float d = (float)divisor;
        for (int64_t i = 0; i < n; i++)
            a[i] = tn_f32_to_bf16(tn_bf16_to_f32(a[i]) / d);
        return TN_OK;
    }
    default:
        return TN_ERR_DTYPE;
    }
}
