/* Copy, fill and dtype conversion over a tn_loop (the row driver is loop.c). Conversions come
 * from one table of 10 x 10 row workers generated from the dtype lists below; f32 <-> f16/bf16
 * have AVX2/F16C paths.
 * Adding a dtype: a line in KD_SRCS and KD_DSTS, its FROM_* macros, and a slot in tn_dtype_slot.
 */
#include "copy.h"

#include <math.h>
#include <string.h>

#include "cpu.h"
#include "parallel.h"


int
tn_dtype_slot(int dtype)
{
    switch (dtype) {
    case TN_DTYPE_BOOL: return TN_SLOT_BOOL;
    case TN_DTYPE_U8: return TN_SLOT_U8;
    case TN_DTYPE_I8: return TN_SLOT_I8;
    case TN_DTYPE_I16: return TN_SLOT_I16;
    case TN_DTYPE_I32: return TN_SLOT_I32;
    case TN_DTYPE_I64: return TN_SLOT_I64;
    case TN_DTYPE_F16: return TN_SLOT_F16;
    case TN_DTYPE_BF16: return TN_SLOT_BF16;
    case TN_DTYPE_F32: return TN_SLOT_F32;
    case TN_DTYPE_F64: return TN_SLOT_F64;
    default: return -1;
    }
}

/* ---- element conversions ----
 * Note [Conversion rules]
 * c10 converts with static_cast, whose out-of-range float->int results are undefined in C++;
 * upstream's x86 builds produce what the truncating instructions produce, and that is what we
 * reproduce (checked against torch 2.13):
 *   float -> int32: cvttss2si, so NaN, inf and out-of-range values give INT32_MIN;
 *   float -> int64: likewise INT64_MIN;
 *   float -> int8/int16: through int32 (so 300.5 -> int8 44, 1e10 -> 0);
 *   float -> uint8: through int64 (c10 special-cases uint8 so -1.5 -> 255).
 * f64 and int64 reach f16/bf16 through f32 (two roundings, as c10's Half(float) constructor).
 * bool is read as (byte != 0) and written as 0/1. */

static inline int32_t
f32_to_i32(float x)
{
    return (x >= -2147483648.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN;
}

static inline int64_t
f32_to_i64(float x)
{
    return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? (int64_t)x : INT64_MIN;
}

static inline int32_t
f64_to_i32(double x)
{
    return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}

static inline int64_t
f64_to_i64(double x)
{
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}

/* Loads: each source dtype yields an int64 (INT), a float (F32) or a double (F64). */
#define LD_b8(v) ((int64_t)((v) != 0))
#define LD_int(v) ((int64_t)(v))
#define LD_f16(v) tn_f16_to_f32(v)
#define LD_bf16(v) tn_bf16_to_f32(v)
#define LD_flt(v) (v)

#define FROM_INT_b8(v) ((uint8_t)((v) != 0))
#define FROM_INT_u8(v) ((uint8_t)(v))
#define FROM_INT_i8(v) ((int8_t)(v))
#define FROM_INT_i16(v) ((int16_t)(v))
#define FROM_INT_i32(v) ((int32_t)(v))
#define FROM_INT_i64(v) ((int64_t)(v))
#define FROM_INT_f16(v) tn_f32_to_f16((float)(v))
#define FROM_INT_bf16(v) tn_f32_to_bf16((float)(v))
#define FROM_INT_f32(v) ((float)(v))
#define FROM_INT_f64(v) ((double)(v))

#define FROM_F32_b8(v) ((uint8_t)((v) != 0))
#define FROM_F32_u8(v) ((uint8_t)f32_to_i64(v))
#define FROM_F32_i8(v) ((int8_t)f32_to_i32(v))
#define FROM_F32_i16(v) ((int16_t)f32_to_i32(v))
#define FROM_F32_i32(v) f32_to_i32(v)
#define FROM_F32_i64(v) f32_to_i64(v)
#define FROM_F32_f16(v) tn_f32_to_f16(v)
#define FROM_F32_bf16(v) tn_f32_to_bf16(v)
#define FROM_F32_f32(v) (v)
#define FROM_F32_f64(v) ((double)(v))

#define FROM_F64_b8(v) ((uint8_t)((v) != 0))
#define FROM_F64_u8(v) ((uint8_t)f64_to_i64(v))
#define FROM_F64_i8(v) ((int8_t)f64_to_i32(v))
#define FROM_F64_i16(v) ((int16_t)f64_to_i32(v))
#define FROM_F64_i32(v) f64_to_i32(v)
#define FROM_F64_i64(v) f64_to_i64(v)
#define FROM_F64_f16(v) tn_f32_to_f16((float)(v))
#define FROM_F64_bf16(v) tn_f32_to_bf16((float)(v))
#define FROM_F64_f32(v) ((float)(v))
#define FROM_F64_f64(v) (v)

/* X(name, storage type, load kind, load macro) for every source; Y(..., name, type) per target. */
#define KD_SRCS(X)                                                                        \
    X(b8, uint8_t, INT, LD_b8)                                                            \
    X(u8, uint8_t, INT, LD_int)                                                           \
    X(i8, int8_t, INT, LD_int)                                                            \
    X(i16, int16_t, INT, LD_int)                                                          \
    X(i32, int32_t, INT, LD_int)                                                          \
    X(i64, int64_t, INT, LD_int)                                                          \
    X(f16, uint16_t, F32, LD_f16)                                                         \
    X(bf16, uint16_t, F32, LD_bf16)                                                       \
    X(f32, float, F32, LD_flt)                                                            \
    X(f64, double, F64, LD_flt)

#define KD_DSTS(Y, SN, ST, SK, LD)                                                        \
    Y(SN, ST, SK, LD, b8, uint8_t)                                                        \
    Y(SN, ST, SK, LD, u8, uint8_t)                                                        \
    Y(SN, ST, SK, LD, i8, int8_t)                                                         \
    Y(SN, ST, SK, LD, i16, int16_t)                                                       \
    Y(SN, ST, SK, LD, i32, int32_t)                                                       \
    Y(SN, ST, SK, LD, i64, int64_t)                                                       \
    Y(SN, ST, SK, LD, f16, uint16_t)                                                      \
    Y(SN, ST, SK, LD, bf16, uint16_t)                                                     \
    Y(SN, ST, SK, LD, f32, float)                                                         \
    Y(SN, ST, SK, LD, f64, double)

#define SLOT_b8 TN_SLOT_BOOL
#define SLOT_u8 TN_SLOT_U8
#define SLOT_i8 TN_SLOT_I8
#define SLOT_i16 TN_SLOT_I16
#define SLOT_i32 TN_SLOT_I32
#define SLOT_i64 TN_SLOT_I64
#define SLOT_f16 TN_SLOT_F16
#define SLOT_bf16 TN_SLOT_BF16
#define SLOT_f32 TN_SLOT_F32
#define SLOT_f64 TN_SLOT_F64

/* ---- f32 <-> f16/bf16 vector conversions ---- */

static void
f16_to_f32_scalar(const uint16_t *src, int64_t ss, float *dst, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        dst[i] = tn_f16_to_f32(src[i * ss]);
}

static void
bf16_to_f32_scalar(const uint16_t *src, int64_t ss, float *dst, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        dst[i] = tn_bf16_to_f32(src[i * ss]);
}

static void
f32_to_f16_scalar(const float *src, uint16_t *dst, int64_t ds, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        dst[i * ds] = tn_f32_to_f16(src[i]);
}

static void
f32_to_bf16_scalar(const float *src, uint16_t *dst, int64_t ds, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        dst[i * ds] = tn_f32_to_bf16(src[i]);
}

#if TN_X86
TN_TARGET_AVX2 static void
f16_to_f32__f16c(const uint16_t *src, float *dst, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
    f16_to_f32_scalar(src + i, 1, dst + i, n - i);
}

TN_TARGET_AVX2 static void
f32_to_f16__f16c(const float *src, uint16_t *dst, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(dst + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
    f32_to_f16_scalar(src + i, dst + i, 1, n - i);
}

TN_TARGET_AVX2 static void
bf16_to_f32__avx2(const uint16_t *src, float *dst, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(src + i)));
        _mm256_storeu_ps(dst + i, _mm256_castsi256_ps(_mm256_slli_epi32(w, 16)));
    }
    bf16_to_f32_scalar(src + i, 1, dst + i, n - i);
}

/* Round to nearest even as tn_f32_to_bf16 does; NaN becomes 0x7fc0. Result in each 32-bit lane. */
TN_TARGET_AVX2 static inline __m256i
round_bf16__avx2(__m256 x)
{
    __m256i u = _mm256_castps_si256(x);
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff)));
    r = _mm256_srli_epi32(r, 16);
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    return _mm256_blendv_epi8(r, _mm256_set1_epi32(0x7fc0), nan);
}

TN_TARGET_AVX2 static void
f32_to_bf16__avx2(const float *src, uint16_t *dst, int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i lo = round_bf16__avx2(_mm256_loadu_ps(src + i));
        __m256i hi = round_bf16__avx2(_mm256_loadu_ps(src + i + 8));
        /* packus works per 128-bit lane; the permute puts the quarters back in order. */
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xd8);
        _mm256_storeu_si256((__m256i *)(dst + i), packed);
    }
    f32_to_bf16_scalar(src + i, dst + i, 1, n - i);
}
#endif

/* n contiguous f16 (bf = 0) or bf16 (bf = 1) values to and from f32: the vector converters when
 * the CPU has them (F16C for f16, AVX2 for bf16) and tests are not asking for the reference. */
static void
half_to_f32_fast(int bf, const uint16_t *src, float *dst, int64_t n)
{
#if TN_X86
    if (!tn_elementwise_reference() && (bf ? tn_cpu_has_avx2() : tn_cpu_has_avx2())) {
        (bf ? bf16_to_f32__avx2 : f16_to_f32__f16c)(src, dst, n);
        return;
    }
#endif
    (bf ? bf16_to_f32_scalar : f16_to_f32_scalar)(src, 1, dst, n);
}

static void
f32_to_half_fast(int bf, const float *src, uint16_t *dst, int64_t n)
{
#if TN_X86
    if (!tn_elementwise_reference() && (bf ? tn_cpu_has_avx2() : tn_cpu_has_avx2())) {
        (bf ? f32_to_bf16__avx2 : f32_to_f16__f16c)(src, dst, n);
        return;
    }
#endif
    (bf ? f32_to_bf16_scalar : f32_to_f16_scalar)(src, dst, 1, n);
}

/* ---- copy row workers: copy_<src>_to_<dst> ---- */

#define COPY_ROW(SN, ST, SK, LD, DN, DT)                                                  \
    static void                                                                           \
    copy_##SN##_to_##DN(void *ctx, char *const *p, const int64_t *s, int64_t n)           \
    {                                                                                     \
        (void)ctx;                                                                        \
        DT *o = (DT *)p[0];                                                               \
        const ST *x = (const ST *)p[1];                                                   \
        if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 1) {                                  \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i] = FROM_##SK##_##DN(LD(x[i]));                                        \
        } else {                                                                          \
            int64_t so = s[0], sx = s[1];                                                 \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * so] = FROM_##SK##_##DN(LD(x[i * sx]));                              \
        }                                                                                 \
    }

#define COPY_ROWS_FOR_SRC(SN, ST, SK, LD) KD_DSTS(COPY_ROW, SN, ST, SK, LD)
KD_SRCS(COPY_ROWS_FOR_SRC)

#define COPY_ENTRY(SN, ST, SK, LD, DN, DT) [SLOT_##DN] = copy_##SN##_to_##DN,
#define COPY_TABLE_ROW(SN, ST, SK, LD) [SLOT_##SN] = {KD_DSTS(COPY_ENTRY, SN, ST, SK, LD)},
static const tn_row_fn copy_table[TN_NUM_SLOTS][TN_NUM_SLOTS] = {KD_SRCS(COPY_TABLE_ROW)};

/* The f32 <-> half pairs take the vector converters on contiguous rows. */
static void
copy_f32_to_half(void *ctx, char *const *p, const int64_t *s, int64_t n, int bf)
{
    if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 1)
        f32_to_half_fast(bf, (const float *)p[1], (uint16_t *)p[0], n);
    else
        (bf ? copy_f32_to_bf16 : copy_f32_to_f16)(ctx, p, s, n);
}

static void
copy_half_to_f32(void *ctx, char *const *p, const int64_t *s, int64_t n, int bf)
{
    if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 1)
        half_to_f32_fast(bf, (const uint16_t *)p[1], (float *)p[0], n);
    else
        (bf ? copy_bf16_to_f32 : copy_f16_to_f32)(ctx, p, s, n);
}

static void
copy_f32_to_f16_fast(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    copy_f32_to_half(ctx, p, s, n, 0);
}

static void
copy_f32_to_bf16_fast(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    copy_f32_to_half(ctx, p, s, n, 1);
}

static void
copy_f16_to_f32_fast(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    copy_half_to_f32(ctx, p, s, n, 0);
}

static void
copy_bf16_to_f32_fast(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    copy_half_to_f32(ctx, p, s, n, 1);
}

/* Note [Overlapping copy rows]
 * A copy between views of one storage that upstream's overlap checks let through (one of them
 * not non-overlapping and dense) reads what it has written as upstream's loop does: dims in its
 * order (Note [Loop order]), a strided row element by element, a contiguous row in 64-byte chunks
 * each read whole before it is written (cpu_kernel_vec's body of 2*Vec::size(), Note [Vector body
 * and tail] in binary.c), then a scalar tail element by element. A row whose ends do not overlap
 * is one memcpy. */
static void
copy_row_contiguous(char *o, const char *x, size_t es, int64_t n)
{
    size_t bytes = es * (size_t)n;
    if (o + bytes <= x || x + bytes <= o || o == x) {
        if (o != x)
            memcpy(o, x, bytes);
        return;
    }
    size_t body = bytes - bytes % 64, i = 0;
    for (; i < body; i += 64) {
        char chunk[64];
        memcpy(chunk, x + i, 64);
        memcpy(o + i, chunk, 64);
    }
    for (; i < bytes; i += es)
        memmove(o + i, x + i, es);
}

/* Same dtype: move bits (NaN payloads and -0 survive), by element size. */
#define COPY_BITS(NAME, T)                                                                \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        (void)ctx;                                                                        \
        T *o = (T *)p[0];                                                                 \
        const T *x = (const T *)p[1];                                                     \
        if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 1) {                                  \
            copy_row_contiguous((char *)o, (const char *)x, sizeof(T), n);                \
        } else if (!tn_elementwise_reference() && s[0] == 1 && s[1] == 0) {                           \
            T v = x[0];                                                                   \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i] = v;                                                                 \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = x[i * s[1]];                                                \
        }                                                                                 \
    }

COPY_BITS(copy_bits_1, uint8_t)
COPY_BITS(copy_bits_2, uint16_t)
COPY_BITS(copy_bits_4, uint32_t)
COPY_BITS(copy_bits_8, uint64_t)

/* bool -> bool normalises bytes to 0/1 like any other conversion would. */
static tn_row_fn
copy_row_for(int ds, int ss, int dst_dtype)
{
    if (ds == ss && ds != TN_SLOT_BOOL) {
        switch (tn_dtype_size(dst_dtype)) {
        case 1: return copy_bits_1;
        case 2: return copy_bits_2;
        case 4: return copy_bits_4;
        default: return copy_bits_8;
        }
    }
    if (ss == TN_SLOT_F32 && ds == TN_SLOT_F16)
        return copy_f32_to_f16_fast;
    if (ss == TN_SLOT_F32 && ds == TN_SLOT_BF16)
        return copy_f32_to_bf16_fast;
    if (ss == TN_SLOT_F16 && ds == TN_SLOT_F32)
        return copy_f16_to_f32_fast;
    if (ss == TN_SLOT_BF16 && ds == TN_SLOT_F32)
        return copy_bf16_to_f32_fast;
    return copy_table[ss][ds];
}

/* Note [Transposed copies]
 * Copying a transposed matrix into a contiguous one walks the source with a large stride and
 * misses the cache on every element. When the loop is 2-d, dst is contiguous along the inner
 * dimension and src along the outer one, same-dtype copies go tile by tile instead. */
#define TILE 32

typedef struct {
    const tn_loop *l;
    char *dst;
    const char *src;
} tile_job;

#define TILE_COPY(NAME, T)                                                                \
    static void                                                                           \
    NAME(void *arg, int64_t begin, int64_t end)                                           \
    {                                                                                     \
        const tile_job *j = arg;                                                          \
        const tn_loop *l = j->l;                                                          \
        int64_t rows = l->sizes[0], cols = l->sizes[1];                                   \
        int64_t dr = l->strides[0][0], sc = l->strides[1][1];                             \
        T *d = (T *)j->dst;                                                               \
        const T *sp = (const T *)j->src;                                                  \
        for (int64_t i0 = begin * TILE; i0 < end * TILE && i0 < rows; i0 += TILE) {       \
            int64_t i1 = i0 + TILE < rows ? i0 + TILE : rows;                             \
            for (int64_t j0 = 0; j0 < cols; j0 += TILE) {                                 \
                int64_t j1 = j0 + TILE < cols ? j0 + TILE : cols;                         \
                for (int64_t i = i0; i < i1; i++)                                         \
                    for (int64_t c = j0; c < j1; c++)                                     \
                        d[i * dr + c] = sp[i + c * sc];                                   \
            }                                                                             \
        }                                                                                 \
    }

TILE_COPY(tile_copy_1, uint8_t)
TILE_COPY(tile_copy_2, uint16_t)
TILE_COPY(tile_copy_4, uint32_t)
TILE_COPY(tile_copy_8, uint64_t)

static int
copy_transposed(const tn_loop *l, int size, void *dst, const void *src)
{
    if (tn_elementwise_reference() || l->noperands < 2 || l->ndim != 2 || l->strides[0][1] != 1 || l->strides[1][0] != 1 ||
        l->strides[1][1] == 1 || l->strides[1][1] == 0 || l->sizes[0] < TILE || l->sizes[1] < TILE)
        return 0;
    tile_job j = {l, dst, src};
    tn_range_fn fn = size == 1 ? tile_copy_1 : size == 2 ? tile_copy_2 : size == 4 ? tile_copy_4
                                                                                 : tile_copy_8;
    int64_t tiles = (l->sizes[0] + TILE - 1) / TILE;
    int64_t grain = TN_ELEMENTWISE_GRAIN / (TILE * l->sizes[1]) + 1;
    tn_parallel_for(tiles, grain, fn, &j);
    return 1;
}

/* Same-dtype copy of dtypes this file has no arithmetic for (complex, uint16..64): element
 * bytes moved as they are, which is all clone/cat/index/flip need. ctx: the element size. */
static void
bytes_row(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    size_t es = (size_t)*(const int *)ctx;
    char *d = p[0];
    const char *q = p[1];
    if (s[0] == 1 && s[1] == 1) {
        copy_row_contiguous(d, q, es, n);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        memmove(d + (size_t)(i * s[0]) * es, q + (size_t)(i * s[1]) * es, es);
}

static int
bytes_copyable(int dtype)
{
    return tn_dtype_is_complex(dtype) || tn_dtype_is_barebones_unsigned(dtype);
}

/* ---- conversions to and from complex64/128 and uint16/32/64 ----
 * Note [Wide conversions]
 * These dtypes have no arithmetic here, only conversions, so they go one element at a time
 * through a wide value: an int64, a uint64 (uint64 sources keep every bit) or a double pair
 * (floating and complex sources; every float value is exact in a double). The stores follow
 * Note [Conversion rules] and c10, checked against torch 2.13:
 *   complex -> real takes the real part (the runtime warns, as upstream); complex -> bool is
 *   re != 0 || im != 0; real -> complex has imaginary part 0; complex64 targets round each
 *   part once from the source value (uint64 -> float directly, not through double);
 *   integer -> uint16/32/64 wraps modulo 2^N;
 *   float -> uint16: through int32 (cvttss2si), so 70000.5 -> 4464 and NaN, inf, 5e9 -> 0;
 *   float -> uint32: through int64, then the low 32 bits (-1.5 -> 4294967295);
 *   float -> uint64: below 2^63 through int64, from 2^63 up as (x - 2^63) through int64 with
 *   the top bit flipped, so NaN -> 2^63 and inf, 1e20 -> 0.
 * Upstream's vectorised loop differs from these (its scalar tail's) only where C leaves the
 * result undefined, float -> uint32 beyond its range or NaN. A contiguous row of float32 or
 * float64 runs it in blocks of 4 (bfloat16: 8; float16 never), each element as
 * x >= 2^31 ? cvtt32(x - 2^31) ^ 2^31 : cvtt32(x), cvtt32 giving 2^31 for NaN and out of
 * range: NaN, -1e10, -inf -> 2^31 and 5e9, 1e10, inf -> 0 there (measured on torch 2.13). */
enum { WIDE_INT, WIDE_U64, WIDE_FLT };
typedef struct {
    int kind;
    int64_t i;
    uint64_t u;
    double re, im;
} wide;

static int
wide_convertible(int dtype)
{
    return tn_dtype_slot(dtype) >= 0 || tn_dtype_is_barebones_unsigned(dtype) || dtype == TN_DTYPE_C64 || dtype == TN_DTYPE_C128;
}

static wide
wide_load(int dtype, const char *p)
{
    wide w = {WIDE_INT, 0, 0, 0.0, 0.0};
    if (tn_dtype_is_kernel_float(dtype)) {
        w.kind = WIDE_FLT;
        w.re = tn_load_float(dtype, p, 0);
    } else if (tn_dtype_has_kernels(dtype)) {
        w.i = tn_load_i64(dtype, p, 0);
    } else if (dtype == TN_DTYPE_U16) {
        w.i = *(const uint16_t *)p;
    } else if (dtype == TN_DTYPE_U32) {
        w.i = *(const uint32_t *)p;
    } else if (dtype == TN_DTYPE_U64) {
        w.kind = WIDE_U64;
        w.u = *(const uint64_t *)p;
    } else {
        w.kind = WIDE_FLT;
        if (dtype == TN_DTYPE_C64) {
            w.re = ((const float *)p)[0];
            w.im = ((const float *)p)[1];
        } else {
            w.re = ((const double *)p)[0];
            w.im = ((const double *)p)[1];
        }
    }
    return w;
}

static float
wide_f32(wide w)
{
    return w.kind == WIDE_INT ? (float)w.i : w.kind == WIDE_U64 ? (float)w.u : (float)w.re;
}

static double
wide_f64(wide w)
{
    return w.kind == WIDE_INT ? (double)w.i : w.kind == WIDE_U64 ? (double)w.u : w.re;
}

/* the integer a store to an integer dtype keeps the low bits of (Note [Wide conversions]) */
static uint64_t
wide_bits(wide w, int dtype)
{
    if (w.kind == WIDE_INT)
        return (uint64_t)w.i;
    if (w.kind == WIDE_U64)
        return w.u;
    switch (dtype) {
    case TN_DTYPE_I8:
    case TN_DTYPE_I16:
    case TN_DTYPE_I32:
    case TN_DTYPE_U16:
        return (uint64_t)(int64_t)f64_to_i32(w.re);
    case TN_DTYPE_U64:
        return w.re >= 9223372036854775808.0 ? (uint64_t)f64_to_i64(w.re - 9223372036854775808.0) ^ (1ULL << 63)
                                             : (uint64_t)f64_to_i64(w.re);
    default:
        return (uint64_t)f64_to_i64(w.re);
    }
}

static void
wide_store(int dtype, wide w, char *p)
{
    switch (dtype) {
    case TN_DTYPE_BOOL:
        *(uint8_t *)p = w.kind == WIDE_INT ? w.i != 0 : w.kind == WIDE_U64 ? w.u != 0 : (w.re != 0 || w.im != 0);
        break;
    case TN_DTYPE_U8: *(uint8_t *)p = (uint8_t)wide_bits(w, dtype); break;
    case TN_DTYPE_I8: *(int8_t *)p = (int8_t)wide_bits(w, dtype); break;
    case TN_DTYPE_I16: *(int16_t *)p = (int16_t)wide_bits(w, dtype); break;
    case TN_DTYPE_I32: *(int32_t *)p = (int32_t)wide_bits(w, dtype); break;
    case TN_DTYPE_I64: *(int64_t *)p = (int64_t)wide_bits(w, dtype); break;
    case TN_DTYPE_U16: *(uint16_t *)p = (uint16_t)wide_bits(w, dtype); break;
    case TN_DTYPE_U32: *(uint32_t *)p = (uint32_t)wide_bits(w, dtype); break;
    case TN_DTYPE_U64: *(uint64_t *)p = wide_bits(w, dtype); break;
    case TN_DTYPE_F16: *(uint16_t *)p = tn_f32_to_f16(wide_f32(w)); break;
    case TN_DTYPE_BF16: *(uint16_t *)p = tn_f32_to_bf16(wide_f32(w)); break;
    case TN_DTYPE_F32: *(float *)p = wide_f32(w); break;
    case TN_DTYPE_F64: *(double *)p = wide_f64(w); break;
    case TN_DTYPE_C64:
        ((float *)p)[0] = wide_f32(w);
        ((float *)p)[1] = (float)w.im;
        break;
    default:
        ((double *)p)[0] = wide_f64(w);
        ((double *)p)[1] = w.im;
        break;
    }
}

typedef struct {
    int dst_dtype, src_dtype, dst_size, src_size;
} wide_job;

static void
wide_row(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    const wide_job *j = ctx;
    int64_t body = 0;
    if (j->dst_dtype == TN_DTYPE_U32 && s[0] == 1 && s[1] == 1) {
        int64_t block = j->src_dtype == TN_DTYPE_F32 || j->src_dtype == TN_DTYPE_F64 ? 4
                        : j->src_dtype == TN_DTYPE_BF16                              ? 8
                                                                                     : 0;
        body = block ? n - n % block : 0;
    }
    for (int64_t i = 0; i < body; i++) {
        double x = wide_load(j->src_dtype, p[1] + i * j->src_size).re;
        ((uint32_t *)p[0])[i] = x >= 2147483648.0 ? (uint32_t)f64_to_i32(x - 2147483648.0) ^ 0x80000000u
                                                  : (uint32_t)f64_to_i32(x);
    }
    for (int64_t i = body; i < n; i++)
        wide_store(j->dst_dtype, wide_load(j->src_dtype, p[1] + i * s[1] * j->src_size),
                   p[0] + i * s[0] * j->dst_size);
}

tn_status
tn_copy(const tn_loop *l, int dst_dtype, void *dst, int src_dtype, const void *src)
{
    int ds = tn_dtype_slot(dst_dtype), ss = tn_dtype_slot(src_dtype);
    if ((ds < 0 || ss < 0) && dst_dtype == src_dtype && bytes_copyable(dst_dtype)) {
        int es = tn_dtype_size(dst_dtype);
        void *base[2] = {dst, (void *)src};
        int elsize[2] = {es, es};
        return tn_loop_run_rows(l, 2, base, elsize, TN_ELEMENTWISE_GRAIN, bytes_row, &es);
    }
    if ((ds < 0 || ss < 0) && wide_convertible(dst_dtype) && wide_convertible(src_dtype)) {
        wide_job j = {dst_dtype, src_dtype, tn_dtype_size(dst_dtype), tn_dtype_size(src_dtype)};
        void *base[2] = {dst, (void *)src};
        int elsize[2] = {j.dst_size, j.src_size};
        return tn_loop_run_rows(l, 2, base, elsize, TN_ELEMENTWISE_GRAIN, wide_row, &j);
    }
    if (ds < 0 || ss < 0)
        return TN_ERR_DTYPE;
    if (ds == ss && ds != TN_SLOT_BOOL && copy_transposed(l, tn_dtype_size(dst_dtype), dst, src))
        return TN_OK;
    void *base[2] = {dst, (void *)src};
    int elsize[2] = {tn_dtype_size(dst_dtype), tn_dtype_size(src_dtype)};
    return tn_loop_run_rows(l, 2, base, elsize, TN_ELEMENTWISE_GRAIN,
                            copy_row_for(ds, ss, dst_dtype), NULL);
}

/* ---- scalars and fill ---- */

tn_status
tn_scalar_to_dtype(int dtype, tn_kscalar v, void *dst)
{
    if (tn_dtype_is_barebones_unsigned(dtype)) {
        /* uint16..64 keep the low bits of the integer, a double converts as copy's does (Note
         * [Wide conversions]); fill_ range-checks the value first (Note [Scalar overflow]) */
        wide w = {WIDE_INT, 0, 0, 0.0, 0.0};
        if (v.kind == TN_KSCALAR_DOUBLE) {
            w.kind = WIDE_FLT;
            w.re = v.d;
        } else {
            w.i = v.kind == TN_KSCALAR_BOOL ? (int64_t)(v.i != 0) : v.i;
        }
        wide_store(dtype, w, dst);
        return TN_OK;
    }
    int slot = tn_dtype_slot(dtype);
    if (slot < 0)
        return TN_ERR_DTYPE;
    if (v.kind == TN_KSCALAR_DOUBLE) {
        double d = v.d;
        switch (slot) {
#define SCALAR_FROM_F64(SN, ST, SK, LD, DN, DT)                                           \
    case SLOT_##DN: {                                                                     \
        DT t = FROM_F64_##DN(d);                                                          \
        memcpy(dst, &t, sizeof t);                                                        \
        break;                                                                            \
    }
            KD_DSTS(SCALAR_FROM_F64, f64, double, F64, LD_flt)
        }
    } else {
        int64_t i = v.kind == TN_KSCALAR_BOOL ? (int64_t)(v.i != 0) : v.i;
        switch (slot) {
#define SCALAR_FROM_INT(SN, ST, SK, LD, DN, DT)                                           \
    case SLOT_##DN: {                                                                     \
        DT t = FROM_INT_##DN(i);                                                          \
        memcpy(dst, &t, sizeof t);                                                        \
        break;                                                                            \
    }
            KD_DSTS(SCALAR_FROM_INT, i64, int64_t, INT, LD_int)
        }
    }
    return TN_OK;
}

#define FILL_ROW(NAME, T)                                                                 \
    static void                                                                           \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                          \
    {                                                                                     \
        T v;                                                                              \
        memcpy(&v, ctx, sizeof v);                                                        \
        T *o = (T *)p[0];                                                                 \
        if (!tn_elementwise_reference() && s[0] == 1) {                                               \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i] = v;                                                                 \
        } else {                                                                          \
            for (int64_t i = 0; i < n; i++)                                               \
                o[i * s[0]] = v;                                                          \
        }                                                                                 \
    }

FILL_ROW(fill_1, uint8_t)
FILL_ROW(fill_2, uint16_t)
FILL_ROW(fill_4, uint32_t)
FILL_ROW(fill_8, uint64_t)

static void
fill_16(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        memcpy(p[0] + 16 * i * s[0], ctx, 16);
}

tn_status
tn_fill(const tn_loop *l, int dtype, void *dst, tn_kscalar value)
{
    if (dtype == TN_DTYPE_C64 || dtype == TN_DTYPE_C128) {
        /* (real, imaginary) in each element's two parts; a real value's imaginary part is 0 */
        double re = tn_kscalar_double(value), im = value.kind == TN_KSCALAR_DOUBLE ? value.im : 0.0;
        unsigned char pair[16];
        if (dtype == TN_DTYPE_C64) {
            float f[2] = {(float)re, (float)im};
            memcpy(pair, f, 8);
        } else {
            memcpy(pair, &re, 8);
            memcpy(pair + 8, &im, 8);
        }
        void *cbase[1] = {dst};
        int celsize[1] = {tn_dtype_size(dtype)};
        return tn_loop_run_rows(l, 1, cbase, celsize, TN_ELEMENTWISE_GRAIN,
                                dtype == TN_DTYPE_C64 ? fill_8 : fill_16, pair);
    }
    unsigned char bits[8];
    tn_status st = tn_scalar_to_dtype(dtype, value, bits);
    if (st != TN_OK)
        return st;
    int size = tn_dtype_size(dtype);
    tn_row_fn fn = size == 1 ? fill_1 : size == 2 ? fill_2 : size == 4 ? fill_4 : fill_8;
    void *base[1] = {dst};
    int elsize[1] = {size};
    return tn_loop_run_rows(l, 1, base, elsize, TN_ELEMENTWISE_GRAIN, fn, bits);
}

/* ---- contiguous and strided conversions to and from f32 ---- */

void
tn_convert_to_f32_strided(int src_dtype, const void *src, int64_t ss, float *dst, int64_t n)
{
    if (ss == 1) {
        switch (src_dtype) {
        case TN_DTYPE_F16:
        case TN_DTYPE_BF16:
            half_to_f32_fast(src_dtype == TN_DTYPE_BF16, src, dst, n);
            return;
        case TN_DTYPE_F32:
            memmove(dst, src, (size_t)n * sizeof(float));
            return;
        default:
            break;
        }
    }
    switch (tn_dtype_slot(src_dtype)) {
#define TO_F32_CASE(SN, ST, SK, LD)                                                       \
    case SLOT_##SN: {                                                                     \
        const ST *x = src;                                                                \
        for (int64_t i = 0; i < n; i++)                                                   \
            dst[i] = FROM_##SK##_f32(LD(x[i * ss]));                                      \
        break;                                                                            \
    }
        KD_SRCS(TO_F32_CASE)
    default:
        break;
    }
}

void
tn_convert_to_f32(int src_dtype, const void *src, float *dst, int64_t n)
{
    if (tn_dtype_slot(src_dtype) >= 0)
        tn_convert_to_f32_strided(src_dtype, src, 1, dst, n);
}

void
tn_convert_from_f32_strided(int dst_dtype, const float *src, void *dst, int64_t ds, int64_t n)
{
    if (ds == 1) {
        switch (dst_dtype) {
        case TN_DTYPE_F16:
        case TN_DTYPE_BF16:
            f32_to_half_fast(dst_dtype == TN_DTYPE_BF16, src, dst, n);
            return;
        case TN_DTYPE_F32:
            memmove(dst, src, (size_t)n * sizeof(float));
            return;
        default:
            break;
        }
    }
    switch (tn_dtype_slot(dst_dtype)) {
#define FROM_F32_CASE(SN, ST, SK, LD, DN, DT)                                             \
    case SLOT_##DN: {                                                                     \
        DT *o = dst;                                                                      \
        for (int64_t i = 0; i < n; i++)                                                   \
            o[i * ds] = FROM_F32_##DN(src[i]);                                            \
        break;                                                                            \
    }
        KD_DSTS(FROM_F32_CASE, f32, float, F32, LD_flt)
    default:
        break;
    }
}

void
tn_convert_from_f32(int dst_dtype, const float *src, void *dst, int64_t n)
{
    tn_convert_from_f32_strided(dst_dtype, src, dst, 1, n);
}

/* ---- widened rows ----
 * Note [Widened rows]
 * Upstream computes f16/bf16 elementwise ops by converting a vector to f32, running the f32
 * code, and converting back once. tn_widen_row does the same a block at a time: every f32 row
 * worker then serves f16 and bf16 too, and inherits its AVX2 path. Broadcast inputs (stride 0)
 * are widened once and passed with stride 0 so the worker's broadcast paths still apply. */
void
tn_widen_row(void *arg, char *const *p, const int64_t *s, int64_t n)
{
    const tn_widen *w = arg;
    int nop = w->ninputs + 1;
    int esize = tn_dtype_size(w->dtype);
    float buf[TN_LOOP_MAX_OPERANDS][TN_WIDEN_BLOCK];
    char *fp[TN_LOOP_MAX_OPERANDS];
    int64_t fs[TN_LOOP_MAX_OPERANDS];

    for (int64_t i0 = 0; i0 < n; i0 += TN_WIDEN_BLOCK) {
        int64_t m = n - i0 < TN_WIDEN_BLOCK ? n - i0 : TN_WIDEN_BLOCK;
        for (int k = 1; k < nop; k++) {
            if (w->keep[k]) {
                fp[k] = p[k] + i0 * s[k] * w->keep_elsize[k];
                fs[k] = s[k];
            } else if (s[k] == 0) {
                if (i0 == 0)
                    tn_convert_to_f32_strided(w->dtype, p[k], 0, buf[k], 1);
                fp[k] = (char *)buf[k];
                fs[k] = 0;
            } else {
                tn_convert_to_f32_strided(w->dtype, p[k] + i0 * s[k] * esize, s[k], buf[k], m);
                fp[k] = (char *)buf[k];
                fs[k] = 1;
            }
        }
        if (w->out_keep) {
            fp[0] = p[0] + i0 * s[0] * w->keep_elsize[0];
            fs[0] = s[0];
            w->fn(w->ctx, fp, fs, m);
        } else {
            fp[0] = (char *)buf[0];
            fs[0] = 1;
            w->fn(w->ctx, fp, fs, m);
            tn_convert_from_f32_strided(w->dtype, buf[0], p[0] + i0 * s[0] * esize, s[0], m);
        }
    }
}

void
tn_widen_split_row(void *arg, char *const *p, const int64_t *s, int64_t n)
{
    const tn_widen_split *h = arg;
    int nop = h->body.ninputs + 1, esize = tn_dtype_size(h->body.dtype);
    int64_t body = tn_vector_body(s, h->body.ninputs, n, h->chunk);
    if (body)
        tn_widen_row((void *)&h->body, p, s, body);
    if (body < n) {
        char *tail[TN_LOOP_MAX_OPERANDS];
        for (int k = 0; k < nop; k++)
            tail[k] = p[k] + body * s[k] * esize;
        tn_widen_row((void *)&h->tail, tail, s, n - body);
    }
}
