/* Element types, numbered as c10::ScalarType numbers them, and how one element is loaded,
 * stored and converted. Shared by kernels/ and runtime/; no Python here (torch.dtype objects
 * are runtime/dtype.h's). Adding a dtype with storage means a TN_DTYPE_* entry, its size in
 * tn_dtype_size, and its conversions in kernels/copy.c.
 */
#ifndef TN_KERNELS_ELEMENT_H
#define TN_KERNELS_ELEMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef enum {
    TN_DTYPE_U8 = 0,
    TN_DTYPE_I8 = 1,
    TN_DTYPE_I16 = 2,
    TN_DTYPE_I32 = 3,
    TN_DTYPE_I64 = 4,
    TN_DTYPE_F16 = 5,
    TN_DTYPE_F32 = 6,
    TN_DTYPE_F64 = 7,
    TN_DTYPE_C32 = 8,
    TN_DTYPE_C64 = 9,
    TN_DTYPE_C128 = 10,
    TN_DTYPE_BOOL = 11,
    TN_DTYPE_QINT8 = 12,
    TN_DTYPE_QUINT8 = 13,
    TN_DTYPE_QINT32 = 14,
    TN_DTYPE_BF16 = 15,
    TN_DTYPE_QUINT4X2 = 16,
    TN_DTYPE_QUINT2X4 = 17,
    TN_DTYPE_BITS1X8 = 18,
    TN_DTYPE_BITS2X4 = 19,
    TN_DTYPE_BITS4X2 = 20,
    TN_DTYPE_BITS8 = 21,
    TN_DTYPE_BITS16 = 22,
    TN_DTYPE_F8E5M2 = 23,
    TN_DTYPE_F8E4M3FN = 24,
    TN_DTYPE_F8E5M2FNUZ = 25,
    TN_DTYPE_F8E4M3FNUZ = 26,
    TN_DTYPE_U16 = 27,
    TN_DTYPE_U32 = 28,
    TN_DTYPE_U64 = 29,
    TN_DTYPE_UINT1 = 30, /* uint1 .. uint7: 30..36 */
    TN_DTYPE_UINT7 = 36,
    TN_DTYPE_INT1 = 37,  /* int1 .. int7: 37..43 */
    TN_DTYPE_INT7 = 43,
    TN_DTYPE_F8E8M0FNU = 44,
    TN_DTYPE_F4E2M1FNX2 = 45,
    TN_NUM_DTYPES = 46,
    TN_DTYPE_UNDEFINED = -1,
} tn_dtype;

/* Status returned by every kernel entry: kernels never abort. */
typedef enum {
    TN_OK = 0,
    TN_ERR_DTYPE = 1,      /* the kernel has no loop for this dtype */
    TN_ERR_NOMEM = 2,
    TN_ERR_BACKEND = 3,    /* XNNPACK or pthreadpool refused */
    TN_ERR_VALUE = 4,      /* an argument's value is outside what the op accepts */
} tn_status;

/* A scalar argument as kernels receive it: the value in the kind the caller had it in. The
 * kernel converts it to the element type it computes in (c10's convert rules). */
typedef struct {
    int kind;   /* TN_KSCALAR_INT, _DOUBLE, _BOOL */
    int64_t i;
    double d;
    double im;  /* a complex value's imaginary part (kind _DOUBLE, d its real part); read only by
                 * kernels that write complex elements (tn_fill) */
} tn_kscalar;

enum { TN_KSCALAR_INT = 0, TN_KSCALAR_DOUBLE = 1, TN_KSCALAR_BOOL = 2 };

static inline double
tn_kscalar_double(tn_kscalar s)
{
    return s.kind == TN_KSCALAR_DOUBLE ? s.d : (double)s.i;
}

static inline int64_t
tn_kscalar_int(tn_kscalar s)
{
    return s.kind == TN_KSCALAR_DOUBLE ? (int64_t)s.d : s.i;
}

/* The dtypes that have storage and kernels: bool, the integers up to 64 bits, f16, bf16, f32, f64. */
static inline bool
tn_dtype_has_kernels(int d)
{
    switch (d) {
    case TN_DTYPE_BOOL: case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16:
    case TN_DTYPE_I32: case TN_DTYPE_I64: case TN_DTYPE_F16: case TN_DTYPE_BF16:
    case TN_DTYPE_F32: case TN_DTYPE_F64:
        return true;
    default:
        return false;
    }
}

/* uint16 / uint32 / uint64: c10's "barebones" unsigned types, which most of ATen's kernel
 * dispatches (AT_ALL_TYPES and its extensions) leave out */
static inline bool
tn_dtype_is_barebones_unsigned(int d)
{
    return d == TN_DTYPE_U16 || d == TN_DTYPE_U32 || d == TN_DTYPE_U64;
}

/* Kernels that only move elements (gather, index_select) also take uint16/32/64 and complex. */
static inline bool
tn_dtype_movable(int d)
{
    return tn_dtype_has_kernels(d) || tn_dtype_is_barebones_unsigned(d) || d == TN_DTYPE_C64 || d == TN_DTYPE_C128;
}

static inline int
tn_dtype_size(int d)
{
    switch (d) {
    case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_BOOL: case TN_DTYPE_QINT8:
    case TN_DTYPE_QUINT8: case TN_DTYPE_QUINT4X2: case TN_DTYPE_QUINT2X4:
    case TN_DTYPE_BITS1X8: case TN_DTYPE_BITS2X4: case TN_DTYPE_BITS4X2: case TN_DTYPE_BITS8:
    case TN_DTYPE_F8E5M2: case TN_DTYPE_F8E4M3FN: case TN_DTYPE_F8E5M2FNUZ:
    case TN_DTYPE_F8E4M3FNUZ: case TN_DTYPE_F8E8M0FNU: case TN_DTYPE_F4E2M1FNX2:
        return 1;
    case TN_DTYPE_I16: case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_BITS16:
    case TN_DTYPE_U16:
        return 2;
    case TN_DTYPE_I32: case TN_DTYPE_F32: case TN_DTYPE_C32: case TN_DTYPE_QINT32:
    case TN_DTYPE_U32:
        return 4;
    case TN_DTYPE_I64: case TN_DTYPE_F64: case TN_DTYPE_C64: case TN_DTYPE_U64:
        return 8;
    case TN_DTYPE_C128:
        return 16;
    default:
        return 1;  /* sub-byte uint1..7 / int1..7 report 1 as upstream does */
    }
}

static inline bool
tn_dtype_is_floating(int d)
{
    return d == TN_DTYPE_F16 || d == TN_DTYPE_F32 || d == TN_DTYPE_F64 || d == TN_DTYPE_BF16 ||
           (d >= TN_DTYPE_F8E5M2 && d <= TN_DTYPE_F8E4M3FNUZ) || d == TN_DTYPE_F8E8M0FNU ||
           d == TN_DTYPE_F4E2M1FNX2;
}

static inline bool
tn_dtype_is_complex(int d)
{
    return d == TN_DTYPE_C32 || d == TN_DTYPE_C64 || d == TN_DTYPE_C128;
}

/* Integral in c10's sense (isIntegralType): excludes bool unless include_bool. */
static inline bool
tn_dtype_is_integral(int d, bool include_bool)
{
    switch (d) {
    case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16: case TN_DTYPE_I32:
    case TN_DTYPE_I64: case TN_DTYPE_U16: case TN_DTYPE_U32: case TN_DTYPE_U64:
        return true;
    case TN_DTYPE_BOOL:
        return include_bool;
    default:
        return false;
    }
}

/* ---- half-precision conversions (round to nearest even, as c10 does) ---- */

static inline float
tn_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t
tn_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)  /* NaN stays NaN */
        return 0x7fc0;
    uint32_t rounding_bias = 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)((u + rounding_bias) >> 16);
}

static inline float
tn_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t u;
    if (exp == 0) {
        if (man == 0) {
            u = sign;
        } else {  /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                man <<= 1;
            } while ((man & 0x400u) == 0);
            u = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
        }
    } else if (exp == 0x1f) {
        u = sign | 0x7f800000u | (man << 13);
    } else {
        u = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t
tn_f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t absu = u & 0x7fffffffu;
    if (absu > 0x7f800000u)  /* NaN */
        return (uint16_t)(sign | 0x7e00u);
    if (absu >= 0x477ff000u)  /* rounds to >= 65520: overflow to inf */
        return (uint16_t)(sign | 0x7c00u);
    if (absu < 0x38800000u) {  /* result is subnormal or zero */
        if (absu < 0x33000000u)  /* < 2^-25: rounds to zero */
            return (uint16_t)sign;
        uint32_t e = absu >> 23;
        uint32_t m = (absu & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126 - e;  /* 14 + (113 - e) */
        uint32_t half = m >> shift;
        uint32_t rem = m & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t h = ((absu >> 13) - (112u << 10));
    uint32_t rem = absu & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

/* ---- one element through double or int64, for kernels that compute in them ----
 * Element i (an element index, not bytes) of an array of dtype dt. Float stores round once to
 * nearest even, f16/bf16 through f32 as c10's Half(float) does. Integer stores wrap to the width.
 * How a double becomes an integer is each kernel's own rule (see reduce.c), so there is no
 * double -> integer store here. */

/* f16, bf16, f32, f64: the floating dtypes with kernels. */
static inline bool
tn_dtype_is_kernel_float(int d)
{
    return d == TN_DTYPE_F16 || d == TN_DTYPE_BF16 || d == TN_DTYPE_F32 || d == TN_DTYPE_F64;
}

/* An integer or bool dtype as int64 (bool as 0/1; any other dt is read as int64). */
static inline int64_t
tn_load_i64(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case TN_DTYPE_BOOL: return ((const uint8_t *)p)[i] != 0;
    case TN_DTYPE_U8: return ((const uint8_t *)p)[i];
    case TN_DTYPE_I8: return ((const int8_t *)p)[i];
    case TN_DTYPE_I16: return ((const int16_t *)p)[i];
    case TN_DTYPE_I32: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
    }
}

/* uint16 / uint32 / uint64 by value (any other dt is read as uint64); tn_load_i64 reads them
 * as int64. */
static inline uint64_t
tn_load_u64(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case TN_DTYPE_U16: return ((const uint16_t *)p)[i];
    case TN_DTYPE_U32: return ((const uint32_t *)p)[i];
    default: return ((const uint64_t *)p)[i];
    }
}

/* A float dtype as a double, exactly (any other dt is read as f64). */
static inline double
tn_load_float(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case TN_DTYPE_F16: return tn_f16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_BF16: return tn_bf16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_F32: return ((const float *)p)[i];
    default: return ((const double *)p)[i];
    }
}

/* Any kernel dtype as a double: floats exactly, integers by value, bool as 0/1 (0 for a dtype
 * without kernels). One flat switch, not the two above: reductions call it per element. */
static inline double
tn_load_f64(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case TN_DTYPE_BOOL: return ((const uint8_t *)p)[i] != 0;
    case TN_DTYPE_U8: return ((const uint8_t *)p)[i];
    case TN_DTYPE_I8: return ((const int8_t *)p)[i];
    case TN_DTYPE_I16: return ((const int16_t *)p)[i];
    case TN_DTYPE_I32: return ((const int32_t *)p)[i];
    case TN_DTYPE_I64: return (double)((const int64_t *)p)[i];
    case TN_DTYPE_F16: return tn_f16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_BF16: return tn_bf16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_F32: return ((const float *)p)[i];
    case TN_DTYPE_F64: return ((const double *)p)[i];
    default: return 0;
    }
}

/* v into a float dtype (any other dt is written as f64). */
static inline void
tn_store_float(int dt, void *p, int64_t i, double v)
{
    switch (dt) {
    case TN_DTYPE_F16: ((uint16_t *)p)[i] = tn_f32_to_f16((float)v); break;
    case TN_DTYPE_BF16: ((uint16_t *)p)[i] = tn_f32_to_bf16((float)v); break;
    case TN_DTYPE_F32: ((float *)p)[i] = (float)v; break;
    default: ((double *)p)[i] = v; break;
    }
}

/* v into an integer or bool dtype, bool as v != 0 (any other dt is written as int64). */
static inline void
tn_store_i64(int dt, void *p, int64_t i, int64_t v)
{
    switch (dt) {
    case TN_DTYPE_BOOL: ((uint8_t *)p)[i] = v != 0; break;
    case TN_DTYPE_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case TN_DTYPE_I8: ((int8_t *)p)[i] = (int8_t)v; break;
    case TN_DTYPE_I16: ((int16_t *)p)[i] = (int16_t)v; break;
    case TN_DTYPE_I32: ((int32_t *)p)[i] = (int32_t)v; break;
    default: ((int64_t *)p)[i] = v; break;
    }
}

/* v into uint16 / uint32 / uint64, wrapping (any other dt is written as uint64). */
static inline void
tn_store_u64(int dt, void *p, int64_t i, uint64_t v)
{
    switch (dt) {
    case TN_DTYPE_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case TN_DTYPE_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    default: ((uint64_t *)p)[i] = v; break;
    }
}

/* v rounded to what float dtype dt holds, kept as a double (f64 and any other dt: v itself). */
static inline double
tn_round_to_dtype(int dt, double v)
{
    switch (dt) {
    case TN_DTYPE_F16: return tn_f16_to_f32(tn_f32_to_f16((float)v));
    case TN_DTYPE_BF16: return tn_bf16_to_f32(tn_f32_to_bf16((float)v));
    case TN_DTYPE_F32: return (float)v;
    default: return v;
    }
}

#endif /* TN_KERNELS_ELEMENT_H */
