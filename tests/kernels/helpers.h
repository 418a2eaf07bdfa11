/* Helpers the Criterion tests in tests/kernels/ share: the deterministic random source, the dtype
 * list, element access through double, scalars, loop builders and NaN-tolerant comparison.
 * All static inline, so every test binary has its own copy (each file keeps its own random
 * state and seed). Nothing here calls a kernel: reference loops built on it stay independent of
 * the code they check. A helper belongs here once two test files need it.
 */
#ifndef TN_TESTS_KERNELS_HELPERS_H
#define TN_TESTS_KERNELS_HELPERS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/element.h"
#include "kernels/loop.h"

/* ---- random numbers ---- */

/* xorshift64 (shifts 13, 7, 17): advances a nonzero *state and returns it. */
static inline uint64_t
xorshift64(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Uniform in [-1, 1) from the top 53 bits of r. */
static inline double
unit_from_bits(uint64_t r)
{
    return (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* The deterministic input the `*_matches_upstream` bit patterns were made from. */
static inline float
gen(int64_t i)
{
    uint64_t v = ((uint64_t)i * 2654435761u) % 4294967296u % 2001u;
    return (float)((int64_t)v - 1000) / 137.0f;
}

static inline uint32_t
fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline uint64_t
dbits(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

/* ---- dtypes, scalars, elements ---- */

/* The ten dtypes with kernels. */
static const int all_dtypes[] = {
    TN_DTYPE_BOOL, TN_DTYPE_U8, TN_DTYPE_I8, TN_DTYPE_I16, TN_DTYPE_I32,
    TN_DTYPE_I64, TN_DTYPE_F16, TN_DTYPE_BF16, TN_DTYPE_F32, TN_DTYPE_F64,
};
#define NUM_DTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

static inline tn_kscalar
dbl(double v)
{
    return (tn_kscalar){TN_KSCALAR_DOUBLE, 0, v};
}

static inline tn_kscalar
integer(int64_t v)
{
    return (tn_kscalar){TN_KSCALAR_INT, v, 0};
}

/* Element i of any kernel dtype as a double; bool reads its byte as stored (2 stays 2). */
static inline double
get_elem(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case TN_DTYPE_BOOL: case TN_DTYPE_U8: return ((const uint8_t *)p)[i];
    case TN_DTYPE_I8: return ((const int8_t *)p)[i];
    case TN_DTYPE_I16: return ((const int16_t *)p)[i];
    case TN_DTYPE_I32: return ((const int32_t *)p)[i];
    case TN_DTYPE_I64: return (double)((const int64_t *)p)[i];
    case TN_DTYPE_F16: return tn_f16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_BF16: return tn_bf16_to_f32(((const uint16_t *)p)[i]);
    case TN_DTYPE_F32: return ((const float *)p)[i];
    default: return ((const double *)p)[i];
    }
}

/* Stores v as element i: floats round once (f16/bf16 through f32), integers truncate (v must be
 * in the dtype's range), bool stores v != 0. */
static inline void
put_elem(int dt, void *p, int64_t i, double v)
{
    switch (dt) {
    case TN_DTYPE_BOOL: ((uint8_t *)p)[i] = v != 0; break;
    case TN_DTYPE_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case TN_DTYPE_I8: ((int8_t *)p)[i] = (int8_t)v; break;
    case TN_DTYPE_I16: ((int16_t *)p)[i] = (int16_t)v; break;
    case TN_DTYPE_I32: ((int32_t *)p)[i] = (int32_t)v; break;
    case TN_DTYPE_I64: ((int64_t *)p)[i] = (int64_t)v; break;
    case TN_DTYPE_F16: ((uint16_t *)p)[i] = tn_f32_to_f16((float)v); break;
    case TN_DTYPE_BF16: ((uint16_t *)p)[i] = tn_f32_to_bf16((float)v); break;
    case TN_DTYPE_F32: ((float *)p)[i] = (float)v; break;
    default: ((double *)p)[i] = v; break;
    }
}

/* One element each: bit-equal, or both NaN in a floating dtype (the vector and scalar
 * converters may give NaNs different payloads). */
static inline int
elements_equal(int dtype, const void *x, const void *y)
{
    if (memcmp(x, y, (size_t)tn_dtype_size(dtype)) == 0)
        return 1;
    if (!tn_dtype_is_kernel_float(dtype))
        return 0;
    return isnan(get_elem(dtype, x, 0)) && isnan(get_elem(dtype, y, 0));
}

/* ---- loops ---- */

/* n rows along one dimension over nops (at most 3) operands with element strides s0, s1, s2;
 * n == 0 gives a 0-dim loop (a single element). */
/* Distance in units in the last place between two values of a floating dtype; NaN == NaN,
 * +0 == -0. Non-floating dtypes: 0 if the bits match, else a large number. */
static inline int64_t
ulp_distance(int dtype, const void *x, const void *y)
{
    size_t size = (size_t)tn_dtype_size(dtype);
    if (!tn_dtype_is_kernel_float(dtype))
        return memcmp(x, y, size) == 0 ? 0 : INT64_MAX;
    double fu = get_elem(dtype, x, 0), fv = get_elem(dtype, y, 0);
    if (isnan(fu) || isnan(fv))
        return isnan(fu) && isnan(fv) ? 0 : INT64_MAX;
    /* sign-magnitude bits to a line where adjacent values differ by 1 (little-endian) */
    uint64_t u = 0, v = 0, sign = 1ull << (8 * size - 1);
    memcpy(&u, x, size);
    memcpy(&v, y, size);
    int64_t a = (u & sign) ? -(int64_t)(u & (sign - 1)) : (int64_t)u;
    int64_t b = (v & sign) ? -(int64_t)(v & (sign - 1)) : (int64_t)v;
    return a > b ? a - b : b - a;
}

static inline tn_loop
outer_loop(int nops, int64_t n, int64_t s0, int64_t s1, int64_t s2)
{
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.noperands = nops;
    if (n > 0) {
        const int64_t s[3] = {s0, s1, s2};
        l.ndim = 1;
        l.sizes[0] = n;
        for (int k = 0; k < nops && k < 3; k++)
            l.strides[k][0] = s[k];
    }
    return l;
}

/* Layouts of an elementwise loop over n inner elements (operand 0 the output, nops - 1 inputs):
 * contiguous; input 2 (b) or input 1 (a) broadcast with stride 0; transposed (3 rows, inputs
 * stepping by 3 along the inner dimension). Returns the elements each input buffer must hold. */
enum { LAYOUT_CONTIG, LAYOUT_B_BCAST, LAYOUT_A_BCAST, LAYOUT_TRANSPOSED, NUM_LAYOUTS };
static const char *const layout_names[] = {"contiguous", "b-broadcast", "a-broadcast",
                                           "transposed"};

static inline int64_t
make_loop(tn_loop *l, int layout, int64_t n, int nops)
{
    memset(l, 0, sizeof *l);
    l->noperands = nops;
    if (layout == LAYOUT_TRANSPOSED) {
        l->ndim = 2;
        l->sizes[0] = 3;
        l->sizes[1] = n;
        l->strides[0][0] = n;
        l->strides[0][1] = 1;
        for (int k = 1; k < nops; k++) {
            l->strides[k][0] = 1;
            l->strides[k][1] = 3;
        }
        return 3 * n;
    }
    l->ndim = 1;
    l->sizes[0] = n;
    for (int k = 0; k < nops; k++)
        l->strides[k][0] = 1;
    if (layout == LAYOUT_B_BCAST)
        l->strides[2][0] = 0;
    if (layout == LAYOUT_A_BCAST)
        l->strides[1][0] = 0;
    return n;
}

#endif /* TN_TESTS_KERNELS_HELPERS_H */
