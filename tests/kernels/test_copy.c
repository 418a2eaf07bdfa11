/* Criterion tests for kernels/copy.c: every dtype pair swept over edge sizes and layouts with the
 * fast paths (memcpy, F16C/AVX2 converters, vectorised rows) compared against the scalar
 * reference loops, hand-checked conversions from torch 2.13 (Note [Conversion rules]), fill,
 * the contiguous f32 helpers and the row driver.
 * Adding a dtype: add it to all_dtypes and give it hand checks for its conversion edges.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/copy.h"
#include "tests/kernels/helpers.h"

static const int64_t edge_sizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 33, 1000};
#define NUM_SIZES ((int)(sizeof edge_sizes / sizeof edge_sizes[0]))

static uint64_t rng = 0xd1b54a32d192ed03ull;

/* Values that exercise every conversion edge: ties, overflow, NaN, subnormals, big integers. */
static void
fill_random(int dtype, void *buf, int64_t n)
{
    static const double specials[] = {0.0, -0.0, 0.5, -1.5, 300.5, 255.9, 256.0, -129.0, 1e10,
                                      -1e10, NAN, INFINITY, -INFINITY, 3e9, 65520.0, 65519.0,
                                      1.00390625, 1.01171875, 6e-8, 2.98e-8, 1e-40, 2.5e19,
                                      4294967808.0, 1099511627779.0};
    for (int64_t i = 0; i < n; i++) {
        tn_kscalar s;
        uint64_t r = xorshift64(&rng);
        if (tn_dtype_is_floating(dtype)) {
            double v = r % 3 == 0 ? specials[(r >> 8) % (sizeof specials / sizeof specials[0])]
                                  : ((double)(r >> 11) / 9007199254740992.0 - 0.5) * 1000.0;
            s = dbl(v);
        } else if (dtype == TN_DTYPE_BOOL) {
            /* bool bytes other than 0/1 must read as true */
            ((uint8_t *)buf)[i] = (uint8_t)(r % 3 == 0 ? 0 : r % 3 == 1 ? 1 : 2);
            continue;
        } else {
            s = integer((int64_t)r);
        }
        tn_scalar_to_dtype(dtype, s, (char *)buf + i * tn_dtype_size(dtype));
    }
}

#define GUARD 64

Test(copy, sweep_all_pairs_fast_matches_reference)
{
    for (int si = 0; si < NUM_DTYPES; si++) {
        for (int di = 0; di < NUM_DTYPES; di++) {
            int sd = all_dtypes[si], dd = all_dtypes[di];
            for (int ni = 0; ni < NUM_SIZES; ni++) {
                for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
                    if (layout == LAYOUT_B_BCAST)  /* two operands: no b */
                        continue;
                    tn_loop l;
                    int64_t n = edge_sizes[ni];
                    int64_t in_n = make_loop(&l, layout, n, 2);
                    int64_t out_n = tn_loop_numel(&l);
                    void *src = malloc((size_t)(in_n * tn_dtype_size(sd)) + 1);
                    fill_random(sd, src, in_n);
                    size_t bytes = (size_t)(out_n * tn_dtype_size(dd)) + GUARD;
                    unsigned char *fast = malloc(bytes), *ref = malloc(bytes);
                    memset(fast, 0xc3, bytes);
                    memset(ref, 0xc3, bytes);
                    tn_elementwise_set_reference(0);
                    cr_assert_eq(tn_copy(&l, dd, fast, sd, src), TN_OK);
                    tn_elementwise_set_reference(1);
                    cr_assert_eq(tn_copy(&l, dd, ref, sd, src), TN_OK);
                    tn_elementwise_set_reference(0);
                    for (size_t i = (size_t)(out_n * tn_dtype_size(dd)); i < bytes; i++)
                        cr_assert_eq(fast[i], 0xc3, "%d -> %d: wrote past the output", sd, dd);
                    for (int64_t i = 0; i < out_n; i++)
                        cr_assert(elements_equal(dd, fast + i * tn_dtype_size(dd),
                                                 ref + i * tn_dtype_size(dd)),
                                  "%d -> %d n %ld %s: element %ld differs", sd, dd, (long)n,
                                  layout_names[layout], (long)i);
                    free(src);
                    free(fast);
                    free(ref);
                }
            }
        }
    }
}

Test(copy, transposed_matrix_tiles_match_reference)
{
    /* big enough for the tiled path (Note [Transposed copies]), with ragged edge tiles */
    static const int64_t shapes[][2] = {{70, 45}, {32, 32}, {33, 97}, {300, 40}};
    for (int di = 0; di < NUM_DTYPES; di++) {
        int dd = all_dtypes[di], size = tn_dtype_size(dd);
        for (int k = 0; k < 4; k++) {
            int64_t rows = shapes[k][0], cols = shapes[k][1];
            tn_loop l;
            memset(&l, 0, sizeof l);
            l.ndim = 2;
            l.noperands = 2;
            l.sizes[0] = rows;
            l.sizes[1] = cols;
            l.strides[0][0] = cols;
            l.strides[0][1] = 1;
            l.strides[1][0] = 1;
            l.strides[1][1] = rows;
            void *src = malloc((size_t)(rows * cols * size));
            fill_random(dd, src, rows * cols);
            size_t bytes = (size_t)(rows * cols * size);
            unsigned char *fast = malloc(bytes), *ref = malloc(bytes);
            cr_assert_eq(tn_copy(&l, dd, fast, dd, src), TN_OK);
            tn_elementwise_set_reference(1);
            cr_assert_eq(tn_copy(&l, dd, ref, dd, src), TN_OK);
            tn_elementwise_set_reference(0);
            cr_assert(memcmp(fast, ref, bytes) == 0, "dtype %d %ldx%ld", dd,
                      (long)rows, (long)cols);
            free(src);
            free(fast);
            free(ref);
        }
    }
}

/* ---- hand-checked conversions (torch 2.13) ---- */

static void
convert1(int sd, const void *src, int dd, void *dst)
{
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    cr_assert_eq(tn_copy(&l, dd, dst, sd, src), TN_OK);
}

static int64_t
f32_to_int(float x, int dd)
{
    unsigned char out[8] = {0};
    convert1(TN_DTYPE_F32, &x, dd, out);
    switch (dd) {
    case TN_DTYPE_U8: return out[0];
    case TN_DTYPE_I8: return (int8_t)out[0];
    case TN_DTYPE_I16: { int16_t v; memcpy(&v, out, 2); return v; }
    case TN_DTYPE_I32: { int32_t v; memcpy(&v, out, 4); return v; }
    default: { int64_t v; memcpy(&v, out, 8); return v; }
    }
}

Test(copy, float_to_int_truncates_like_upstream)
{
    cr_assert_eq(f32_to_int(300.5f, TN_DTYPE_I8), 44);
    cr_assert_eq(f32_to_int(300.5f, TN_DTYPE_U8), 44);
    cr_assert_eq(f32_to_int(-1.5f, TN_DTYPE_U8), 255);
    cr_assert_eq(f32_to_int(-0.7f, TN_DTYPE_I32), 0);
    cr_assert_eq(f32_to_int(255.9f, TN_DTYPE_I16), 255);
    cr_assert_eq(f32_to_int(1e10f, TN_DTYPE_I32), INT32_MIN);
    cr_assert_eq(f32_to_int(1e10f, TN_DTYPE_I16), 0);
    cr_assert_eq(f32_to_int(1e10f, TN_DTYPE_I64), 10000000000LL);
    cr_assert_eq(f32_to_int(NAN, TN_DTYPE_I64), INT64_MIN);
    cr_assert_eq(f32_to_int(INFINITY, TN_DTYPE_I32), INT32_MIN);
    cr_assert_eq(f32_to_int(65537.0f, TN_DTYPE_U8), 1);
    /* f64 -> uint8 goes through int64: 2^40 + 3 -> 3, while int8 goes through int32 -> 0 */
    double big = 1099511627779.0;
    uint8_t u8;
    int8_t i8;
    convert1(TN_DTYPE_F64, &big, TN_DTYPE_U8, &u8);
    convert1(TN_DTYPE_F64, &big, TN_DTYPE_I8, &i8);
    cr_assert(u8 == 3 && i8 == 0);
}

Test(copy, half_rounding)
{
    float x[6] = {1.00390625f, 1.01171875f, 65520.0f, 65519.0f, 6e-8f, 2.98e-8f};
    uint16_t bf[6], h[6];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 6, 2);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_BF16, bf, TN_DTYPE_F32, x), TN_OK);
    cr_assert_eq(bf[0], 0x3f80);  /* tie -> even: 1.0 */
    cr_assert_eq(bf[1], 0x3f82);  /* tie -> even: 1.015625 */
    cr_assert_eq(tn_copy(&l, TN_DTYPE_F16, h, TN_DTYPE_F32, x), TN_OK);
    cr_assert_eq(tn_f16_to_f32(h[0]), 1.00390625f);
    cr_assert(isinf(tn_f16_to_f32(h[2])));
    cr_assert_eq(tn_f16_to_f32(h[3]), 65504.0f);
    cr_assert_eq(tn_f16_to_f32(h[4]), 5.960464477539063e-08f);
    cr_assert_eq(tn_f16_to_f32(h[5]), 0.0f);
    /* f64 reaches f16 through f32: 1 + 2^-11 + 2^-40 rounds twice, to 1.0 */
    double d = 1.0 + ldexp(1, -11) + ldexp(1, -40);
    uint16_t hd;
    convert1(TN_DTYPE_F64, &d, TN_DTYPE_F16, &hd);
    cr_assert_eq(tn_f16_to_f32(hd), 1.0f);
}

Test(copy, bool_conversions)
{
    float x[4] = {0.5f, NAN, -0.0f, 0.0f};
    uint8_t b[4];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 4, 2);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_BOOL, b, TN_DTYPE_F32, x), TN_OK);
    cr_assert(b[0] == 1 && b[1] == 1 && b[2] == 0 && b[3] == 0);
    uint8_t raw[4] = {0, 1, 2, 255};
    float f[4];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_F32, f, TN_DTYPE_BOOL, raw), TN_OK);
    cr_assert(f[0] == 0 && f[1] == 1 && f[2] == 1 && f[3] == 1);
    int64_t i[4] = {0, -1, 256, 1};
    cr_assert_eq(tn_copy(&l, TN_DTYPE_BOOL, b, TN_DTYPE_I64, i), TN_OK);
    cr_assert(b[0] == 0 && b[1] == 1 && b[2] == 1 && b[3] == 1);
}

Test(copy, int_to_int_wraps)
{
    int64_t x[3] = {300, -129, 65537};
    int8_t o[3];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 3, 2);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_I8, o, TN_DTYPE_I64, x), TN_OK);
    cr_assert(o[0] == 44 && o[1] == 127 && o[2] == 1);
    /* int64 -> f32 rounds to nearest even */
    int64_t big = 16777217;
    float f;
    convert1(TN_DTYPE_I64, &big, TN_DTYPE_F32, &f);
    cr_assert_eq(f, 16777216.0f);
}

Test(copy, same_dtype_moves_bits)
{
    /* a signalling-looking NaN payload and -0 survive an f16 -> f16 copy */
    uint16_t x[3] = {0x7d01, 0x8000, 0x3c00}, o[3];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 3, 2);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_F16, o, TN_DTYPE_F16, x), TN_OK);
    cr_assert(o[0] == 0x7d01 && o[1] == 0x8000 && o[2] == 0x3c00);
}

Test(copy, unsupported_dtype)
{
    float x = 1, o;
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_C32, &o, TN_DTYPE_F32, &x), TN_ERR_DTYPE);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_F32, &o, TN_DTYPE_QINT8, &x), TN_ERR_DTYPE);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_U64, &o, TN_DTYPE_F8E5M2, &x), TN_ERR_DTYPE);
    cr_assert_eq(tn_fill(&l, TN_DTYPE_C32, &o, integer(1)), TN_ERR_DTYPE);
    uint16_t u = 0;  /* uint16..64 fill since session 31 */
    cr_assert_eq(tn_fill(&l, TN_DTYPE_U16, &u, integer(65535)), TN_OK);
    cr_assert_eq(u, 65535);
}

/* Note [Wide conversions] in kernels/copy.c: complex64/128 and uint16/32/64, values measured on
 * torch 2.13 (scalar-path results where its vector lanes differ). */
Test(copy, wide_conversions_like_upstream)
{
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 6, 2);
    float f[6] = {70000.0f, -70000.0f, 5e9f, NAN, -1.0f, 3.7f};
    uint16_t u16[6];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_U16, u16, TN_DTYPE_F32, f), TN_OK);
    cr_assert(u16[0] == 4464 && u16[1] == 61072 && u16[2] == 0 && u16[3] == 0 && u16[4] == 65535 && u16[5] == 3);
    uint32_t u32[6];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_U32, u32, TN_DTYPE_F32, f), TN_OK);
    /* the first 4 in upstream's vector block (5e9 -> 0, NaN -> 2^31), the last 2 its scalar tail */
    cr_assert(u32[0] == 70000 && u32[1] == 4294897296u && u32[2] == 0 && u32[3] == 2147483648u &&
              u32[4] == 4294967295u && u32[5] == 3);
    float g[6] = {NAN, 5e9f, 70000.0f, -1.0f, 5e9f, NAN};
    cr_assert_eq(tn_copy(&l, TN_DTYPE_U32, u32, TN_DTYPE_F32, g), TN_OK);
    cr_assert(u32[0] == 2147483648u && u32[1] == 0 && u32[4] == 705032704u && u32[5] == 0);
    double d[6] = {-5e9, 1e20, NAN, INFINITY, 5e9, 9223372036854775808.0};
    uint64_t u64[6];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_U64, u64, TN_DTYPE_F64, d), TN_OK);
    cr_assert(u64[0] == 18446744068709551616ull && u64[1] == 0 && u64[2] == 9223372036854775808ull &&
              u64[3] == 0 && u64[4] == 5000000000ull && u64[5] == 9223372036854775808ull);
    /* uint64 sources keep every bit: float directly (one rounding), int8 the low byte, f16 via f32 */
    uint64_t big[6] = {18446744073709551615ull, 9007199254740993ull, 9223372036854775808ull, 5, 0, 256};
    float bf[6];
    int8_t bi[6];
    uint16_t bh[6];
    uint8_t bb[6];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_F32, bf, TN_DTYPE_U64, big), TN_OK);
    cr_assert(bf[0] == 18446744073709551616.0f && bf[1] == 9007199254740992.0f && bf[3] == 5.0f);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_I8, bi, TN_DTYPE_U64, big), TN_OK);
    cr_assert(bi[0] == -1 && bi[1] == 1 && bi[2] == 0 && bi[5] == 0);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_F16, bh, TN_DTYPE_U64, big), TN_OK);
    cr_assert(isinf(tn_f16_to_f32(bh[0])) && tn_f16_to_f32(bh[3]) == 5.0f);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_BOOL, bb, TN_DTYPE_U64, big), TN_OK);
    cr_assert(bb[0] == 1 && bb[4] == 0 && bb[5] == 1);
    int64_t neg[6] = {-3, 70000, -1, 0, 1, 65536};
    cr_assert_eq(tn_copy(&l, TN_DTYPE_U16, u16, TN_DTYPE_I64, neg), TN_OK);
    cr_assert(u16[0] == 65533 && u16[1] == 4464 && u16[2] == 65535 && u16[5] == 0);
    /* complex: real part to reals, re || im to bool, imaginary 0 from reals, c128 -> c64 per part */
    float c[12] = {0, 1, 0, 0, 1.5f, -2, -0.0f, 0, 2.5f, 7, -3.5f, 1};
    uint8_t cb[6];
    int32_t ci[6];
    double cd[12];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_BOOL, cb, TN_DTYPE_C64, c), TN_OK);
    cr_assert(cb[0] == 1 && cb[1] == 0 && cb[2] == 1 && cb[3] == 0);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_I32, ci, TN_DTYPE_C64, c), TN_OK);
    cr_assert(ci[2] == 1 && ci[4] == 2 && ci[5] == -3);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_C128, cd, TN_DTYPE_C64, c), TN_OK);
    cr_assert(cd[4] == 1.5 && cd[5] == -2.0 && cd[11] == 1.0);
    double wide[12] = {1e40, 1, 0.1, -0.1, 0, 0, 0, 0, 0, 0, 0, 0};
    float narrow[12];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_C64, narrow, TN_DTYPE_C128, wide), TN_OK);
    cr_assert(isinf(narrow[0]) && narrow[1] == 1.0f && narrow[2] == 0.1f && narrow[3] == -0.1f);
    cr_assert_eq(tn_copy(&l, TN_DTYPE_C64, narrow, TN_DTYPE_F32, f), TN_OK);
    cr_assert(narrow[0] == 70000.0f && narrow[1] == 0.0f && isnan(narrow[6]) && narrow[7] == 0.0f);
}

/* ---- fill ---- */

Test(copy, fill_converts_and_leaves_gaps_alone)
{
    for (int di = 0; di < NUM_DTYPES; di++) {
        int dd = all_dtypes[di];
        int size = tn_dtype_size(dd);
        /* every other element of 2 x 9 */
        tn_loop l;
        memset(&l, 0, sizeof l);
        l.ndim = 2;
        l.noperands = 1;
        l.sizes[0] = 2;
        l.sizes[1] = 9;
        l.strides[0][0] = 18;
        l.strides[0][1] = 2;
        unsigned char buf[36 * 8];
        memset(buf, 0x77, sizeof buf);
        tn_kscalar v = {TN_KSCALAR_DOUBLE, 0, 2.5};
        cr_assert_eq(tn_fill(&l, dd, buf, v), TN_OK);
        unsigned char want[8];
        tn_scalar_to_dtype(dd, v, want);
        for (int i = 0; i < 36; i++) {
            int written = i % 2 == 0;
            if (written)
                cr_assert(memcmp(buf + i * size, want, (size_t)size) == 0, "dtype %d element %d",
                          dd, i);
            else
                for (int k = 0; k < size; k++)
                    cr_assert_eq(buf[i * size + k], 0x77, "dtype %d gap %d written", dd, i);
        }
    }
    int8_t o[3];
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 3, 2);
    l.noperands = 1;
    cr_assert_eq(tn_fill(&l, TN_DTYPE_I8, o, dbl(2.5)), TN_OK);
    cr_assert(o[0] == 2 && o[2] == 2);
    uint8_t b;
    make_loop(&l, LAYOUT_CONTIG, 1, 2);
    l.noperands = 1;
    cr_assert_eq(tn_fill(&l, TN_DTYPE_BOOL, &b, dbl(0.25)), TN_OK);
    cr_assert_eq(b, 1);
    uint16_t h;
    cr_assert_eq(tn_fill(&l, TN_DTYPE_BF16, &h, dbl(1.00390625)), TN_OK);
    cr_assert_eq(h, 0x3f80);
}

/* ---- contiguous f32 helpers ---- */

Test(copy, convert_helpers_match_copy)
{
    for (int di = 0; di < NUM_DTYPES; di++) {
        int dd = all_dtypes[di];
        for (int ni = 0; ni < NUM_SIZES; ni++) {
            int64_t n = edge_sizes[ni];
            int size = tn_dtype_size(dd);
            void *src = malloc((size_t)(n * size) + 1);
            float *a = malloc((size_t)n * 4 + 4), *b = malloc((size_t)n * 4 + 4);
            fill_random(dd, src, n);
            tn_loop l;
            make_loop(&l, LAYOUT_CONTIG, n, 2);
            tn_convert_to_f32(dd, src, a, n);
            tn_elementwise_set_reference(1);
            tn_copy(&l, TN_DTYPE_F32, b, dd, src);
            tn_elementwise_set_reference(0);
            for (int64_t i = 0; i < n; i++)
                cr_assert(elements_equal(TN_DTYPE_F32, a + i, b + i), "to_f32 %d n %ld i %ld", dd,
                          (long)n, (long)i);
            unsigned char *x = malloc((size_t)(n * size) + 1), *y = malloc((size_t)(n * size) + 1);
            tn_convert_from_f32(dd, a, x, n);
            tn_elementwise_set_reference(1);
            tn_copy(&l, dd, y, TN_DTYPE_F32, a);
            tn_elementwise_set_reference(0);
            for (int64_t i = 0; i < n; i++)
                cr_assert(elements_equal(dd, x + i * size, y + i * size), "from_f32 %d n %ld i %ld",
                          dd, (long)n, (long)i);
            free(src);
            free(a);
            free(b);
            free(x);
            free(y);
        }
    }
}

/* ---- the row driver ---- */

static void
count_row(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    (void)ctx;
    for (int64_t i = 0; i < n; i++)
        ((int32_t *)p[0])[i * s[0]] += 1;
}

Test(copy, row_driver_visits_every_element_once)
{
    /* 4-d loop with a permuted layout, large enough to be split across threads mid-row */
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.ndim = 4;
    l.noperands = 1;
    int64_t sizes[4] = {3, 5, 7, 3001};
    int64_t strides[4] = {7 * 3001, 3 * 7 * 3001, 3001, 1};
    for (int d = 0; d < 4; d++) {
        l.sizes[d] = sizes[d];
        l.strides[0][d] = strides[d];
    }
    int64_t n = tn_loop_numel(&l);
    int32_t *buf = calloc((size_t)n, 4);
    void *base[1] = {buf};
    int elsize[1] = {4};
    cr_assert_eq(tn_loop_run_rows(&l, 1, base, elsize, 1000, count_row, NULL), TN_OK);
    for (int64_t i = 0; i < n; i++)
        cr_assert_eq(buf[i], 1, "element %ld visited %d times", (long)i, buf[i]);
    free(buf);
}

Test(copy, loop_with_too_few_operands_is_refused)
{
    tn_loop l;
    make_loop(&l, LAYOUT_CONTIG, 4, 2);
    l.noperands = 1;
    float x[4] = {1, 2, 3, 4}, o[4];
    cr_assert_eq(tn_copy(&l, TN_DTYPE_F32, o, TN_DTYPE_F32, x), TN_ERR_VALUE);
}

Test(copy, zero_dim_loop_is_one_element)
{
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.noperands = 2;
    double x = 2.75;
    int16_t o = 0;
    cr_assert_eq(tn_copy(&l, TN_DTYPE_I16, &o, TN_DTYPE_F64, &x), TN_OK);
    cr_assert_eq(o, 2);
}
